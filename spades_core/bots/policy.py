"""A quick bot made of the expert's play-out player: a baseline for the arena.

It bids :func:`~.handeval.expected_bid` and plays :func:`~.rollout.policy_card` with
what its seat sees (the cards still out stand in for the other hands).  Load it with
``make_bot("spades_core.bots.policy:PolicyBot")``.
"""

from __future__ import annotations

from ..bids import NIL, Bid
from ..cards import CARDS, SUIT_OF, Card
from ..errors import UsageError
from ..rules import winning_play
from ..views import View
from .handeval import expected_bid
from .rollout import policy_card


class PolicyBot:
    """Bids by a plain count, plays by the play-out rules of thumb; never Blind Nil."""

    def blind_nil(self, view: View) -> bool:
        return False

    def bid(self, view: View) -> Bid:
        if view.hand is None:
            raise UsageError("PolicyBot bids after looking at its cards")
        partner = view.bids[view.partner]
        nil_ok = partner is None or not partner.is_nil
        return Bid(expected_bid(view.hand.mask, nil_ok))

    def play(self, view: View) -> Card:
        legal = 0
        for card in view.legal_plays:
            legal |= card.bit
        if view.hand is None or legal & (legal - 1) == 0:
            return view.legal_plays[0]
        seat = int(view.seat)
        trick = [card.id for _, card in view.trick]
        win_card, win_seat = -1, seat
        if view.trick:
            winner, best = winning_play(view.trick)
            win_card, win_seat = best.id, int(winner)
        bids = [bid if bid is not None else NIL for bid in view.bids]
        taken = view.tricks_won
        nil_alive = [bids[s].is_nil and not taken[s] for s in range(4)]
        team = seat & 1
        contract = (bids[0].tricks + bids[2].tricks, bids[1].tricks + bids[3].tricks)
        hand = view.hand.mask
        others = view.unseen_mask()
        tricks_left = (others.bit_count() + hand.bit_count() + len(trick) + 3) >> 2
        chosen = policy_card(
            seat, hand, legal, len(trick), SUIT_OF[trick[0]] if trick else -1, win_card,
            win_seat, others, nil_alive, any(nil_alive),
            contract[team] - taken[team] - taken[team + 2],
            contract[1 - team] - taken[1 - team] - taken[3 - team],
            tricks_left, False,
        )
        return CARDS[chosen]
