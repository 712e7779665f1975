"""The Beginner bot: legal, plain play with a new player's mistakes.

It bids by a rough count of its high cards (aces, kings, long spades), never Nil.  In
play it leads its highest card, follows with its highest card when that beats the trick
(whoever is winning it, partner included), otherwise its lowest; void in the suit led it
trumps with its lowest winning spade, even over partner's winner now and then.  It
counts nothing and ignores bags, Nils and the score.  Its one random choice comes from
:func:`.base.view_seed`, so it too is deterministic.
"""

from __future__ import annotations

import random

from ..bids import Bid
from ..cards import CARDS, SPADES_MASK, SUIT_MASKS, Card
from ..errors import UsageError
from ..rules import winning_play
from ..views import View
from .base import view_seed
from .strategy import beating_mask, high_id, low_id, mask_of_cards, rank_index

TRUMP_PARTNER_ODDS = 0.5  # how often it trumps a trick partner is already winning


class BeginnerBot:
    name = "beginner"

    def blind_nil(self, view: View) -> bool:
        return False

    def bid(self, view: View) -> Bid:
        if view.hand is None:
            raise UsageError("the Beginner bot bids only after looking at its cards")
        hand = view.hand.mask
        count = 0
        for suit in range(4):
            cards = hand & SUIT_MASKS[suit]
            base = suit * 13
            count += (cards >> (base + 12) & 1) + (cards >> (base + 11) & 1)  # aces, kings
        spades = (hand & SPADES_MASK).bit_count()
        count += max(0, spades - 4) + (hand >> 52).bit_count()  # long spades, jokers
        return Bid(min(13, max(1, count)))

    def play(self, view: View) -> Card:
        legal = mask_of_cards(view.legal_plays)
        if not legal:
            raise UsageError("no card to play in this view")
        if not view.trick:
            side = legal & ~SPADES_MASK
            return CARDS[_highest_by_rank(side or legal)]
        winner, best_card = winning_play(view.trick)
        best = best_card.id
        led = view.trick[0][1].suit
        following = legal & SUIT_MASKS[led]
        if following:
            top = high_id(following)
            return CARDS[top if beating_mask(1 << top, best) else low_id(following)]
        trumps = beating_mask(legal & SPADES_MASK, best)
        partner_winning = winner == view.seat.partner
        if trumps and (
            not partner_winning
            or random.Random(view_seed(view, 7)).random() < TRUMP_PARTNER_ODDS
        ):
            return CARDS[low_id(trumps)]
        side = legal & ~SPADES_MASK
        return CARDS[_lowest_by_rank(side or legal)]


def _highest_by_rank(mask: int) -> int:
    best = -1
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if cards and (best < 0 or rank_index(high_id(cards)) > rank_index(best)):
            best = high_id(cards)
    return best


def _lowest_by_rank(mask: int) -> int:
    best = -1
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if cards and (best < 0 or rank_index(low_id(cards)) < rank_index(best)):
            best = low_id(cards)
    return best
