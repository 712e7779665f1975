"""The engine's fast path, the bots' play-outs (:func:`spades_core.bots.rollout.play_out`),
against the game's states: from any point of any variant's hand, with the same random
choices, the same cards are legal at every choice and the hand ends with the same tricks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import Bid, GameState, Phase, Rules, Seat
from spades_core.bots import rollout
from spades_core.bots.rollout import Contracts, RandomPolicy, play_out
from spades_core.cards import SUIT_MASKS, cards_of_mask

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


# --- the inlined random player and the unrolled helpers: the same cards as what they replace


class _CalledRandom(RandomPolicy):
    """A :class:`RandomPolicy` that :func:`play_out` calls at every choice (not inlined:
    it is not of the class itself)."""

    __slots__ = ()


@settings(max_examples=150, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**64 - 1),
       played=st.integers(0, 51), nils=st.integers(0, 15))
def test_the_inlined_random_player_plays_as_the_called_one(
        rules: Rules, deal: int, seed: int, played: int, nils: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    while state.phase is Phase.BIDDING:
        state = state.apply(_random_bid(state, rng))
    for _ in range(played):
        state = state.apply(rng.choice(state.legal_plays()))
    contracts = Contracts((1, 2, 3, 4), tuple(bool(nils >> s & 1) for s in range(4)))  # type: ignore[arg-type]
    args = ([state.held_mask(seat) for seat in Seat], int(state.leader),  # type: ignore[arg-type]
            [card.id for _, card in state.trick], state.tricks_won, state.spades_broken,
            contracts)
    legal = state.legal_play_mask()
    first = rng.choice(cards_of_mask(legal)).id if played % 2 else -1
    inlined, called = RandomPolicy(seed), _CalledRandom(seed)
    assert play_out(*args, first=first, policy=inlined) == play_out(
        *args, first=first, policy=called)
    assert inlined.state == called.state  # the same numbers drawn


def _rank(card: int) -> int:
    return card % 13 if card < 52 else card - 39


def _low_rank_loop(mask: int) -> int:
    best, best_rank = -1, 99
    for suit in range(4):
        bits = mask & SUIT_MASKS[suit]
        if bits:
            card = (bits & -bits).bit_length() - 1
            if _rank(card) + (suit == 3) < best_rank:
                best, best_rank = card, _rank(card) + (suit == 3)
    return best


def _high_rank_loop(mask: int) -> int:
    best, best_rank = -1, -99
    for suit in range(4):
        bits = mask & SUIT_MASKS[suit]
        if bits:
            card = bits.bit_length() - 1
            if _rank(card) - (suit == 3) > best_rank:
                best, best_rank = card, _rank(card) - (suit == 3)
    return best


def _discard_low_loop(hand: int, legal: int) -> int:
    best, best_len = -1, 99
    for suit in range(3):
        bits = legal & SUIT_MASKS[suit]
        if bits and (hand & SUIT_MASKS[suit]).bit_count() < best_len:
            best, best_len = (bits & -bits).bit_length() - 1, (hand & SUIT_MASKS[suit]).bit_count()
    return best if best >= 0 else (legal & -legal).bit_length() - 1


def _masters_loop(hand: int, others: int) -> int:
    found = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if mine:
            top = (others & SUIT_MASKS[suit]).bit_length()
            found |= mine >> top << top
    return found


def test_the_unrolled_helpers_choose_as_loops_over_the_suits() -> None:
    rng = random.Random(45)
    for _ in range(20_000):
        hand = rng.getrandbits(54) & rng.getrandbits(54)
        legal = hand & rng.getrandbits(54) or hand
        others = rng.getrandbits(54) & ~hand
        if legal:
            assert rollout._low_rank(legal) == _low_rank_loop(legal)
            assert rollout._high_rank(legal) == _high_rank_loop(legal)
            assert rollout._discard_low(hand, legal) == _discard_low_loop(hand, legal)
        assert rollout._masters(hand, others) == _masters_loop(hand, others)
