"""Claiming the rest of the tricks: a check made from the claimer's own view.

A claim holds when the seat to act wins every remaining trick whatever the other three
hold (any distribution of the cards it has not seen) and whatever they legally play.  The
check is a simple sufficient test, never a search, so it refuses some claims that would in
fact hold, and it never accepts one that can fail (it does not even use the voids the others
have shown, nor how many cards each holds: any of them may hold any card still out):

- the claimer is on lead (a trick in progress is refused);
- in each suit it holds, no card of that suit still out beats any of its cards, or it has
  at least as many cards above every card of that suit still out as there are cards of that
  suit still out: leading those from the top, each lead wins and draws at least one of
  them (their holders must follow), so its lower cards of the suit win once they are gone;
- when spades are still out and it holds another suit, it draws them first: that needs as
  many spades above every spade still out as there are spades out (else one may stay out,
  to trump), and a spade to lead now (spades broken, or only spades held: the lead rule of
  :func:`rules.legal_play_mask`).

The order it plays in: with spades still out, its spades from the top, then its other
cards; else its other cards, then its spades; each suit from the top.  Who beats whom is
read from :data:`rules.BEATEN_BY`, what may be led from :func:`rules.legal_play_mask`:
no rule is restated here.  Refusals are keys with parameters (see :class:`Refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import CARD_TEXT, CARDS, SPADES_MASK, SUIT_MASKS, SUIT_OF, Card, ids_of_mask
from .errors import Refusal, UsageError
from .game import Phase
from .rules import BEATEN_BY, legal_play_mask

if TYPE_CHECKING:
    from .views import View

_SPADES = 3


@dataclass(frozen=True, slots=True)
class Claim:
    """The answer to a claim: ``order``, the claimer's cards in the order it plays them, when
    it holds; ``refusal``, why not (a :class:`Refusal`), when it does not."""

    order: tuple[Card, ...] = ()
    refusal: Refusal | None = None

    @property
    def holds(self) -> bool:
        return self.refusal is None


def _top(mask: int) -> str:
    """The highest card of a mask of one suit (inside a suit a higher id is higher)."""
    return CARD_TEXT[mask.bit_length() - 1]


def _refused(reason: str, **params: str) -> Claim:
    return Claim(refusal=Refusal(reason, dict(params)))


def check_claim(view: View) -> Claim:
    """Whether ``view.seat`` may claim every remaining trick now, from what it sees."""
    if view.phase is Phase.OVER:
        return _refused("game-over")
    if view.phase is Phase.DEALING:
        return _refused("awaiting-deal")
    if view.phase is not Phase.PLAYING:
        return _refused("not-playing")
    if view.to_act != view.seat:
        assert view.to_act is not None
        return _refused("not-your-turn", seat=view.to_act.name)
    if view.hand is None:
        raise UsageError("a claim is checked with the claimer's cards seen")
    if view.trick:
        return _refused("claim-not-your-lead")
    hand = view.hand.mask
    out = view.unseen_mask()
    by_suit: list[tuple[int, ...]] = []
    drawn = 0
    for suit in (_SPADES, 2, 1, 0):  # spades first, then hearts, diamonds, clubs
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        theirs = out & SUIT_MASKS[suit]
        cards = tuple(sorted(ids_of_mask(mine), reverse=True))  # from the top
        # the cards no card of the suit still out beats; each lead of one draws one of those
        sure = sum(1 for c in cards if not theirs & BEATEN_BY[c])
        loser = next((c for c in cards if theirs & BEATEN_BY[c]), None)
        if loser is not None and sure < theirs.bit_count():
            return _refused("claim-card-can-lose", card=CARD_TEXT[loser],
                            winner=_top(theirs & BEATEN_BY[loser]))
        by_suit.append(cards)
        if suit == _SPADES:
            drawn = sure  # the spades still out that leading its spades surely draws
    trumps = out & SPADES_MASK
    others = hand & ~SPADES_MASK
    if trumps and others:
        if drawn < trumps.bit_count():  # a spade may stay out, to trump
            return _refused("claim-trumps-out", card=_top(trumps))
        if not legal_play_mask(hand, -1, view.spades_broken) & SPADES_MASK:
            return _refused("claim-spades-not-broken", card=_top(trumps))
    spades = by_suit[0] if by_suit and SUIT_OF[by_suit[0][0]] == _SPADES else ()
    rest = tuple(c for cards in by_suit for c in cards if SUIT_OF[c] != _SPADES)
    ids = spades + rest if trumps else rest + spades
    return Claim(order=tuple(CARDS[c] for c in ids))
