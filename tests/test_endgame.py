"""The exact play of the last tricks (:mod:`spades_core.bots.endgame`) against a plain
minimax written on the game's states: every legal card tried at every turn, no cuts, no
memory, no cards treated as alike; the same value for every position of every variant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_core import GameState, Phase, Rules, Seat
from spades_core.bots.endgame import Solver

from .test_properties import VARIANTS, _random_bid


def _value(tricks: tuple[int, int, int, int]) -> int:
    """An arbitrary value of an end of hand for North-South that depends on each seat's
    tricks (as a Nil does) and not only on the team's."""
    return 7 * tricks[0] - 5 * tricks[1] + 3 * tricks[2] * tricks[2] - tricks[3] * tricks[1]


def _naive(state: GameState, team: int) -> int:
    hand = state.hand_index
    legal = state.legal_plays()
    values = []
    for card in legal:
        after = state.apply(card)
        if after.hand_index != hand or after.phase is not Phase.PLAYING:
            tricks = after.past_hands[-1].tricks
            values.append(_value(tricks) if team == 0 else -_value(tricks))
        else:
            values.append(_naive(after, team))
    mine = int(state.to_act) & 1 == team  # type: ignore[arg-type]
    return max(values) if mine else min(values)


def _at(rules: Rules, deal: int, seed: int, left: int) -> GameState:
    """A hand of deal ``deal`` played at random until ``left`` cards remain in the hands."""
    rng = random.Random(seed)
    state = GameState.new(rules, deal=deal)
    while state.phase is Phase.BIDDING:
        state = state.apply(_random_bid(state, rng))
    while sum(state.held_mask(seat).bit_count() for seat in Seat) > left:
        state = state.apply(rng.choice(state.legal_plays()))
    return state


@settings(max_examples=200, deadline=None)
@given(rules=VARIANTS, deal=st.integers(0, 2**53 - 1), seed=st.integers(0, 2**32),
       left=st.integers(1, 13), team=st.integers(0, 1))
def test_the_solver_finds_the_minimax_value(rules: Rules, deal: int, seed: int, left: int,
                                            team: int) -> None:
    state = _at(rules, deal, seed, left)
    solver = Solver(team, _value if team == 0 else (lambda tricks: -_value(tricks)))
    hands = [state.held_mask(seat) for seat in Seat]
    trick = [card.id for _, card in state.trick]
    leader = int(state.leader)  # type: ignore[arg-type]
    assert solver.solve(hands, leader, trick, state.tricks_won, state.spades_broken) \
        == _naive(state, team)
    # each first card, asked of the same solver (its memory shared), as the expert asks;
    # then again in the other order and the whole position once more: the bounds
    # remembered from narrower searches must serve wider ones correctly
    expected: dict[int, int] = {}
    for card in state.legal_plays():
        after = state.apply(card)
        if after.phase is Phase.PLAYING and after.hand_index == state.hand_index:
            expected[card.id] = _naive(after, team)
        else:
            tricks = after.past_hands[-1].tricks
            expected[card.id] = _value(tricks) if team == 0 else -_value(tricks)
    for card_id in [*expected, *reversed(expected)]:
        assert solver.solve(hands, leader, trick, state.tricks_won, state.spades_broken,
                            first=card_id) == expected[card_id]
    mine = int(state.to_act) & 1 == team  # type: ignore[arg-type]
    best = max(expected.values()) if mine else min(expected.values())
    assert solver.solve(hands, leader, trick, state.tricks_won, state.spades_broken) == best
    # later positions of one line of play, asked of the same solver: what it remembers of
    # them comes from searches with narrower windows than a question's own
    rng = random.Random(seed)
    later = state.apply(rng.choice(state.legal_plays()))
    while later.phase is Phase.PLAYING and later.hand_index == state.hand_index:
        hands = [later.held_mask(seat) for seat in Seat]
        trick = [card.id for _, card in later.trick]
        assert solver.solve(hands, int(later.leader), trick,  # type: ignore[arg-type]
                            later.tricks_won, later.spades_broken) == _naive(later, team)
        later = later.apply(rng.choice(later.legal_plays()))
