"""Errors split by meaning, and the refusal reasons they carry (keys, never text).

Every error the engine raises is a :class:`SpadesError`, itself a ``ValueError``::

    SpadesError(ValueError)
    ├── ParseError           text that is not a card, a bid, a seat
    │   ├── CardParseError
    │   └── BidParseError
    ├── RulesError           a rules option with a bad value
    ├── RecordError          a game record that cannot be read
    ├── LessonError          a lesson file that cannot be used
    ├── IllegalAction        an action the rules refuse now (carries a Refusal)
    ├── UsageError           an argument or a call the API does not accept
    └── BotError             a bot that failed, or answered what the rules refuse
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a stable key (``must-follow-suit``...) and its parameters.

    Keys: ``not-your-turn``, ``not-in-hand``, ``must-follow-suit`` (suit), ``spades-not-broken``,
    ``not-bidding`` (a bid outside the bidding), ``not-playing`` (a card outside the play),
    ``game-over``, ``blind-nil-off``, ``awaiting-deal``, ``not-dealing`` (cards dealt to a hand
    already dealt); a claim refused (:func:`spades_core.claim.check_claim`):
    ``claim-not-your-lead``, ``claim-card-can-lose`` (card, winner: a card still out that
    beats it), ``claim-trumps-out`` (card: a spade still out that could trump),
    ``claim-spades-not-broken`` (card: the same, when spades may not be led yet).
    """

    reason: str
    params: dict[str, str] = field(default_factory=dict)


class SpadesError(ValueError):
    """The root of the engine's errors: a value or a call the engine refuses (a ValueError)."""


class ParseError(SpadesError):
    """Text that is not what it should spell: a card, a bid, a seat."""


class CardParseError(ParseError):
    """The text is not a card."""


class BidParseError(ParseError):
    """The text is not a bid."""


class RulesError(SpadesError):
    """A rules option with a bad value (the message names the option and its bounds)."""


class RecordError(SpadesError):
    """A game record that cannot be read; the message names where and why."""


class LessonError(SpadesError):
    """A lesson file that cannot be used; the message names the file, the step and the field."""

    def __init__(self, file: str, step: int | None, where: str, message: str) -> None:
        self.file = file
        self.step = step  # 1-based, as an author counts; None for the lesson's own fields
        self.where = where
        self.detail = message
        place = file if step is None else f"{file}: step {step}"
        super().__init__(f"{place}: {where}: {message}" if where else f"{place}: {message}")


class IllegalAction(SpadesError):
    """An action the rules do not allow now; ``refusal`` says why (a key, never text)."""

    def __init__(self, refusal: Refusal, seat: int | None = None) -> None:
        self.refusal = refusal
        self.seat = seat
        super().__init__(f"{refusal.reason} {refusal.params}")

    @property
    def reason(self) -> str:
        return self.refusal.reason


class UsageError(SpadesError):
    """A call the API does not accept: a bad argument (a seat, a deal number, hands that are
    not a deal, a bot name) or a call at the wrong time (a hint or a bot's move off its turn)."""


class BotError(SpadesError):
    """A bot (an outside one, in the arena) that raised, or answered something that is not an
    action or that the rules refuse; the message names the bot, the seat, the hand and the
    deal, and the error it caused is chained as ``__cause__``."""


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
