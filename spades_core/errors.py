"""Errors split by meaning, and the refusal reasons they carry (keys, never text)."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a stable key (``must-follow-suit``...) and its parameters.

    Keys: ``not-your-turn``, ``not-in-hand``, ``must-follow-suit`` (suit), ``spades-not-broken``,
    ``not-bidding`` (a bid outside the bidding), ``not-playing`` (a card outside the play),
    ``game-over``, ``blind-nil-off``, ``awaiting-deal``.
    """

    reason: str
    params: dict[str, str] = field(default_factory=dict)


class SpadesError(Exception):
    """Base of the engine's errors."""


class IllegalAction(SpadesError):
    """An action the rules do not allow now."""

    def __init__(self, refusal: Refusal, seat: int | None = None) -> None:
        self.refusal = refusal
        self.seat = seat
        super().__init__(f"{refusal.reason} {refusal.params}")

    @property
    def reason(self) -> str:
        return self.refusal.reason


class RecordError(SpadesError):
    """A game record that cannot be read; the message names where and why."""


_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxdict = _REPR.maxlist = _REPR.maxtuple = 3
_REPR.maxstring = _REPR.maxother = 40


def shorten(text: str, limit: int = 160) -> str:
    """``text`` on one line (runs of white space as one space), cut to ``limit`` and "…"."""
    line = " ".join(text[: 4 * limit].split())
    if len(line) <= limit and len(text) <= 4 * limit:
        return line
    return line[:limit] + "…"


def quote(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters and "…": a message
    stays one short line whatever a record holds (a 60 MB string, a 4,300-digit number)."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, int) and value.bit_length() > 4 * limit:
        text = f"an integer of {value.bit_length()} bits"
    else:
        text = _REPR.repr(value)
    return shorten(text, limit)
