"""The benchmark drives the bots' path, the table's path and OpenSpiel the same way."""

from __future__ import annotations

import random

import pytest

from spades_core.bench import (
    _best_times,
    _positions,
    openspiel_hands,
    play_hands,
    play_states,
    search_plays,
)
from spades_core.game import Phase
from spades_core.rules import Rules, game_winner


def test_the_bots_path_and_the_states_play_the_same_hands() -> None:
    fast = play_hands(60, seed=1)  # play_states raises if a chosen action were refused
    assert fast == play_states(60, seed=1)
    assert len(fast) == 60 and all(sum(tricks) == 13 for tricks, _ in fast)
    assert any(game_winner(scores, Rules()) is not None for _, scores in fast)  # a new game
    assert play_hands(60, seed=2) != fast  # the seed makes the hands
    positions = _positions(60, seed=2)
    assert len(positions) == 60 and all(p.phase is Phase.PLAYING for p in positions)


def test_the_search_figure_plays_whole_hands() -> None:
    run = search_plays(5, seed=3)
    assert run() == 5 * 52 == run()


def test_best_times_takes_the_best_of_each_run() -> None:
    calls: list[str] = []
    times = _best_times({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, 3)
    assert calls == ["a", "b"] * 3 and set(times) == {"a", "b"}


def test_openspiel_hand_is_52_chance_actions_then_56_moves() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    run = openspiel_hands(2, seed=1)
    assert run is not None
    run()  # two whole hands, driven as the benchmark drives them
    game = pyspiel.load_game("spades")
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(52):
        assert state.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(56):
        assert not state.is_chance_node() and not state.is_terminal()
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal()
