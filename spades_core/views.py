"""What one seat may see: the input of the bots, the hints and the table on screen.

A :class:`View` holds the seat's own cards, every bid and every card played so far,
the tricks won, the scores and bags, and the voids each player has shown by failing to
follow suit.  It never holds another seat's hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bids import Bid
from .cards import Card, CardSet, cards_of_mask
from .game import GameState, HandResult, Phase
from .rules import Rules, last_trick
from .seats import SEATS, Seat


@dataclass(frozen=True, slots=True)
class View:
    """What ``seat`` sees.  ``bids`` is by seat (N, E, S, W; None for a seat yet to bid), as
    everywhere in the engine; only ``bid_history`` (of a state or of a ``HandResult``) is in
    bidding order."""

    seat: Seat
    rules: Rules
    phase: Phase
    to_act: Seat | None
    hand_index: int
    dealer: Seat
    hand: CardSet | None  # None while the seat has not looked at its cards (Blind Nil)
    bids: tuple[Bid | None, Bid | None, Bid | None, Bid | None]  # by seat; None = not yet
    plays: tuple[tuple[Seat, Card], ...]  # this hand, in play order
    trick: tuple[tuple[Seat, Card], ...]  # the trick in progress
    leader: Seat | None
    tricks_won: tuple[int, int, int, int]
    spades_broken: bool
    played_mask: int  # every card played this hand, a bit mask (fast; `played` is the CardSet)
    voids: tuple[int, int, int, int]  # by seat: bit s set = shown void in suit s this hand
    scores: tuple[int, int]
    bags: tuple[int, int]
    past_hands: tuple[HandResult, ...]
    legal_plays: tuple[Card, ...]  # empty unless this seat is to play
    legal_bids: tuple[Bid, ...]  # empty unless this seat is to bid

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    @property
    def led_suit(self) -> int:
        return self.trick[0][1].suit if self.trick else -1

    @property
    def last_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """This hand's last complete trick, as (seat, card) pairs; empty before the first
        is complete (:func:`rules.last_trick`)."""
        return last_trick(self.plays)

    @property
    def played(self) -> CardSet:
        """Every card played this hand."""
        return CardSet(self.played_mask)

    def unseen(self) -> CardSet:
        """Cards this seat has not seen: the others' hidden cards."""
        return CardSet(self.unseen_mask())

    def unseen_mask(self) -> int:
        """:meth:`unseen` as a bit mask: the fast accessor for the bots."""
        own = self.hand.mask if self.hand is not None else 0
        return self.rules.deck_mask & ~self.played_mask & ~own


def view_for(state: GameState, seat: Seat, hand_seen: bool = True) -> View:
    """What ``seat`` may see of ``state``; ``hand_seen=False`` hides its own cards.

    Blind Nil is bid without looking: once the seat has seen its cards (``hand_seen``), its
    legal bids leave it out. (The state cannot know who has looked; the view says it.)"""
    dealer = state.dealer
    bids = tuple(state.bid_of(s) for s in SEATS)
    to_act = state.to_act
    mine = to_act == seat
    return View(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        to_act=to_act,
        hand_index=state.hand_index,
        dealer=dealer,
        hand=state.hand_of(seat) if hand_seen else None,
        bids=(bids[0], bids[1], bids[2], bids[3]),
        plays=state.seated_plays(),
        trick=state.trick,
        leader=state.leader,
        tricks_won=state.tricks_won,
        spades_broken=state.spades_broken,
        played_mask=state.played_mask,
        voids=state.shown_voids(),
        scores=state.scores,
        bags=state.bags,
        past_hands=state.past_hands,
        legal_plays=cards_of_mask(state.legal_play_mask()) if mine and hand_seen else (),
        legal_bids=(tuple(bid for bid in state.legal_bids() if not (hand_seen and bid.blind))
                    if mine else ()),
    )
