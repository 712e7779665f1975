"""The engine's fast path, the bots' play-outs (:func:`spades_core.bots.rollout.play_out`),
against the game's states: from any point of any variant's hand, with the same random
choices, the same cards are legal at every choice and the hand ends with the same tricks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import Bid, GameState, Phase, Rules, Seat
from spades_core.bots.rollout import Contracts, play_out
from spades_core.cards import cards_of_mask

from .test_properties import VARIANTS, _random_bid


def _random_player(rng: random.Random, asked: list[int]):  # type: ignore[no-untyped-def]
    def player(seat: int, hand: int, legal: int, *situation: object) -> int:
        asked.append(legal)
        return rng.choice(cards_of_mask(legal)).id

    return player


def _finish(state: GameState, rng: random.Random, asked: list[int]) -> GameState:
    """Play ``state``'s hand to its end as the random player would, noting each choice."""
    hand = state.hand_index
    while state.phase is Phase.PLAYING and state.hand_index == hand:
        legal = state.legal_plays()
        if len(legal) > 1:
            asked.append(state.legal_play_mask())
        state = state.apply(legal[0] if len(legal) == 1 else rng.choice(legal))
    return state


@settings(max_examples=120, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32),
       played=st.integers(0, 51))
def test_a_play_out_follows_the_states(rules: Rules, deal: int, seed: int, played: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    while state.phase is Phase.BIDDING:
        state = state.apply(_random_bid(state, rng))
    for _ in range(played):  # some way into the hand, a trick maybe in progress
        state = state.apply(rng.choice(state.legal_plays()))
    bids = [state.bid_of(seat) for seat in Seat]
    assert all(bid is not None for bid in bids)
    contracts = Contracts.of([bid for bid in bids if bid is not None])
    tricks_before = state.tricks_won
    asked_fast: list[int] = []
    tricks = play_out(
        [state.held_mask(seat) for seat in Seat], int(state.leader),  # type: ignore[arg-type]
        [card.id for _, card in state.trick], tricks_before, state.spades_broken, contracts,
        policy=_random_player(random.Random(seed + 1), asked_fast),
    )
    asked_states: list[int] = []
    end = _finish(state, random.Random(seed + 1), asked_states)
    assert asked_fast == asked_states  # the same legal cards at every choice
    assert tricks == end.past_hands[-1].tricks


def test_a_partial_position_plays_out_as_its_states() -> None:
    rules = Rules(jokers=True)
    rng = random.Random(5)
    hands = [0, 0, 0, 0]
    cards = list(cards_of_mask(rules.deck_mask))
    rng.shuffle(cards)
    for index, card in enumerate(cards[:20]):  # five cards each, spades maybe broken
        hands[index % 4] |= card.bit
    for broken in (False, True):
        bids = [Bid(1), Bid(0), Bid(2), Bid(1)]
        state = GameState.position(rules, hands, leader=Seat.W, bids=bids, spades_broken=broken)
        asked_fast: list[int] = []
        tricks = play_out(hands, 3, (), (0, 0, 0, 0), broken, Contracts.of(bids),
                          policy=_random_player(random.Random(9), asked_fast))
        asked_states: list[int] = []
        end = _finish(state, random.Random(9), asked_states)
        assert asked_fast == asked_states and asked_fast
        assert tricks == end.past_hands[-1].tricks and sum(tricks) == 5
