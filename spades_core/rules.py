"""The rules options (variants) of RULES.md, and the pure rule functions.

Every rule of trick play is stated here, on bit masks (see :mod:`cards`):
:func:`legal_play_mask` (on :data:`PLAY_FROM`), :func:`refusal`, :func:`trick_winner` (on
:data:`TRICK_POWERS`, and :data:`BEATEN_BY` built from it), plus the end of the game in
:func:`game_winner`.  The game state, the views and the bots call these or read these
tables (the bots' play-outs, :mod:`.bots.rollout`, read :data:`PLAY_FROM` and
:data:`BEATEN_BY` inline); the property tests check them against an independent
statement of the rules (tests/helpers.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from .cards import (
    BITS,
    CARD_TEXT,
    CARDS,
    JOKER_DECK_MASK,
    SPADES_MASK,
    STANDARD_DECK_MASK,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    Suit,
)
from .errors import Refusal, RulesError, quote
from .seats import SEATS, Seat

# The bounds (inclusive) of each integer option.  Every value the app offers is inside
# (targets 200, 300, 500, 1000; the floor -200 or off; the defaults), and inside them a
# hand moves a score by less than 5,000 points: scores stay small integers whatever a
# record, a page or a caller asks for.
BOUNDS: dict[str, tuple[int, int]] = {
    "target": (50, 10_000),
    "floor": (-10_000, 0),  # or None: no floor
    "nil_value": (0, 1_000),
    "blind_nil_value": (0, 1_000),
    "bag_limit": (1, 100),
    "bag_penalty": (0, 1_000),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The variant options, with the defaults of RULES.md."""

    target: int = 500
    floor: int | None = -200
    blind_nil: bool = True
    nil_value: int = 100
    blind_nil_value: int = 200
    bag_limit: int = 10
    bag_penalty: int = 100
    jokers: bool = False

    def __post_init__(self) -> None:
        for key in _BOOL_OPTIONS:
            _checked_option(key, getattr(self, key))
        for key in BOUNDS:
            _checked_option(key, getattr(self, key))
        if self.floor is not None and self.floor >= self.target:
            raise RulesError("floor must be below target")

    @property
    def deck_mask(self) -> int:
        return JOKER_DECK_MASK if self.jokers else STANDARD_DECK_MASK

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Read a (possibly partial) rules object; raise RulesError naming a bad key."""
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise RulesError(f"unknown rules key {quote(key)}")
            values[key] = _checked_option(key, value)
        return cls(**values)


_BOOL_OPTIONS = ("blind_nil", "jokers")
_NULLABLE_OPTIONS = ("floor",)


def _checked_option(key: str, value: object) -> object:
    """``value`` if it is valid for the option ``key``, else RulesError (a short message)."""
    if key in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RulesError(f"rules {key!r} must be true or false, not {quote(value)}")
        return value
    if value is None and key in _NULLABLE_OPTIONS:
        return None
    low, high = BOUNDS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        nullable = "null or " if key in _NULLABLE_OPTIONS else ""
        raise RulesError(
            f"rules {key!r} must be {nullable}an integer from {low} to {high}, not {quote(value)}"
        )
    return value


DEFAULT_RULES = Rules()
# The daily deal is everyone's same game, bots included: it is played under RULES.md's
# defaults whatever a player's own options, and so is every result on its board.
DAILY_RULES = DEFAULT_RULES


# --- trick play --------------------------------------------------------------------


# The rule of what may be played, as a table: ``PLAY_FROM[led_suit][spades_broken]`` are
# the cards a seat must play from when it holds any of them (else it may play any card).
# Indexed by the suit led, and by -1 (the last entry) when leading: following, the led
# suit; leading, any card once spades are broken, and before that any but a spade (a hand
# of only spades leads one).  ``hand & PLAY_FROM[led][broken] or hand`` is the legal mask.
PLAY_FROM: tuple[tuple[int, int], ...] = (
    *((suit_mask, suit_mask) for suit_mask in SUIT_MASKS),
    (~SPADES_MASK, -1),
)


def legal_play_mask(hand: int, led_suit: int, spades_broken: bool) -> int:
    """The cards of ``hand`` that may be played; ``led_suit`` is -1 when leading
    (:data:`PLAY_FROM`, the one statement of the rule)."""
    return hand & PLAY_FROM[led_suit][spades_broken] or hand


def refusal(hand: int, card_id: int, led_suit: int, spades_broken: bool) -> Refusal | None:
    """Why the seat holding ``hand`` may not play ``card_id`` now, or None if it may."""
    if not hand >> card_id & 1:
        return Refusal("not-in-hand", {"card": CARD_TEXT[card_id]})
    suit = SUIT_OF[card_id]
    if led_suit < 0:
        if suit == Suit.SPADES and not spades_broken and hand & ~SPADES_MASK:
            return Refusal("spades-not-broken", {"card": CARD_TEXT[card_id]})
        return None
    if suit != led_suit and hand & SUIT_MASKS[led_suit]:
        return Refusal(
            "must-follow-suit",
            {"card": CARD_TEXT[card_id], "suit": Suit(led_suit).key},
        )
    return None


def trick_winner(trick: tuple[int, ...] | list[int]) -> int:
    """The position (0 = the leader) of the winning card among a trick's card ids (a
    whole trick or one in progress).

    The highest spade wins; without a spade, the highest card of the led suit.
    """
    # four tables, one a position (a trick in progress uses the first ones): each card's
    # power where it was played, the highest's position in its low two bits
    return max(map(tuple.__getitem__, TRICK_POWERS[trick[0]], trick)) & 3


def _powers(led_suit: int, position: int) -> tuple[int, ...]:
    """Each card id's power when played at ``position`` in a trick led in ``led_suit``:
    a spade beats the led suit, which beats the other suits; inside a suit a higher id is
    higher.  Times four, plus the position: the highest value also says where it is."""
    return tuple(
        ((200 if suit == Suit.SPADES else 100 if suit == led_suit else 0) + card_id) << 2
        | position
        for card_id, suit in enumerate(SUIT_OF)
    )


_POWERS_BY_SUIT = tuple(tuple(_powers(suit, position) for position in range(4)) for suit in Suit)
# By the card that leads a trick: the powers of the cards played first, second, third
# and fourth to it.  The winner is at ``max(powers) & 3``.
TRICK_POWERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    _POWERS_BY_SUIT[suit] for suit in SUIT_OF
)
# Spades have the highest powers, from this one up: a trick whose best power reaches it
# was won, and so contains, a spade.
SPADE_POWER = 200 << 2


def trick_winner_seat(leader: int, trick: tuple[int, ...] | list[int]) -> int:
    """The seat (0..3) that wins a trick of card ids led by ``leader`` (or is winning
    it, for a trick in progress): :func:`trick_winner` counted from the leader."""
    return (leader + trick_winner(trick)) & 3


def winning_play(trick: Sequence[tuple[Seat, Card]]) -> tuple[Seat, Card]:
    """The (seat, card) pair that wins a trick of (seat, card) pairs in play order, as
    ``GameState.trick`` gives it (or is winning it, for a trick in progress)."""
    return trick[trick_winner([card.id for _, card in trick])]


def seated_plays(first_leader: int, play_ids: Sequence[int]) -> tuple[tuple[Seat, Card], ...]:
    """A hand's plays (card ids in play order) with the seat of each: ``first_leader``
    (0..3) leads the first trick, each trick's winner leads the next."""
    seated: list[tuple[Seat, Card]] = []
    leader = first_leader
    for start in range(0, len(play_ids), 4):
        trick = tuple(play_ids[start:start + 4])
        seated.extend((SEATS[(leader + i) & 3], CARDS[c]) for i, c in enumerate(trick))
        if len(trick) == 4:
            leader = trick_winner_seat(leader, trick)
    return tuple(seated)


def last_trick(plays: Sequence[tuple[Seat, Card]]) -> tuple[tuple[Seat, Card], ...]:
    """The last complete trick among a hand's plays in play order, as (seat, card)
    pairs (``GameState.seated_plays()``, ``View.plays``); empty before the first
    trick is complete."""
    complete = len(plays) & ~3
    return tuple(plays[complete - 4:complete]) if complete else ()


def _beaten_by(card_id: int) -> int:
    """The cards that beat ``card_id`` while it wins a trick: those of greater power
    in a trick led in its suit (for a spade, the same in any trick)."""
    powers = TRICK_POWERS[card_id]
    own = powers[0][card_id] >> 2
    return sum(BITS[other] for other in range(len(SUIT_OF)) if powers[1][other] >> 2 > own)


# By card id: the cards (a mask) that beat it when it is the trick's best card so far
# (which is of the led suit, or a spade): the higher cards of its suit, and every spade
# if it is not one.  For the bots, which track a trick's best card as the cards come.
BEATEN_BY: tuple[int, ...] = tuple(_beaten_by(card_id) for card_id in range(len(SUIT_OF)))


# --- end of the game ------------------------------------------------------------------


def game_is_decided(scores: tuple[int, int], rules: Rules) -> bool:
    """True when a hand has just ended with the game over (checked only then)."""
    ns, ew = scores
    if ns == ew:
        return False  # a tie plays another hand
    reached = ns >= rules.target or ew >= rules.target
    floored = rules.floor is not None and (ns <= rules.floor or ew <= rules.floor)
    return reached or floored


def game_winner(scores: tuple[int, int], rules: Rules) -> int | None:
    """The winning team index (0 = NS, 1 = EW) if the game is over, else None."""
    if not game_is_decided(scores, rules):
        return None
    return 0 if scores[0] > scores[1] else 1
