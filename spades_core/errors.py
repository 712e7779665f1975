"""Errors split by meaning, and the refusal reasons they carry (keys, never text)."""

from __future__ import annotations

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
