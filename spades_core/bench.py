"""``python -m spades_core bench``: the engine's speed, printed as one JSON object.

``random_hands_per_s``: full hands (four bids and 52 plays, each chosen uniformly at
random among the legal ones with a seeded generator) per second through the public API;
a game goes on from hand to hand, so each hand includes its deal.
``legal_plays_ns``: the mean cost of ``GameState.legal_plays()`` over positions of such
hands.  When the ``open_spiel`` package is installed, its ``spades`` game is driven the
same way in the same run (its deal is 52 chance actions, each picked at random among
``legal_actions()``), giving ``openspiel_hands_per_s`` and ``ratio_vs_openspiel``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .game import GameState, Phase
from .rules import Rules


def _play_hands(count: int, seed: int) -> None:
    rng = random.Random(seed)
    choice = rng.choice
    rules = Rules()
    deal = seed
    state = GameState.new(rules, deal=deal)
    for _ in range(count):
        if state.phase is Phase.OVER:
            deal += 1
            state = GameState.new(rules, deal=deal)
        for _ in range(4):
            state = state.apply(choice(state.legal_bids()))
        for _ in range(52):
            state = state.apply(choice(state.legal_plays()))


def _positions(count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    positions: list[GameState] = []
    state = GameState.new(deal=seed)
    while len(positions) < count:
        if state.phase is Phase.OVER:
            state = GameState.new(deal=rng.randrange(2**53))
        elif state.phase is Phase.BIDDING:
            state = state.apply(rng.choice(state.legal_bids()))
        else:
            positions.append(state)
            state = state.apply(rng.choice(state.legal_plays()))
    return positions


def _openspiel_hands(count: int, seed: int) -> Callable[[], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def run() -> None:
        rng = random.Random(seed)
        choice = rng.choice
        for _ in range(count):
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(choice(state.legal_actions()))
            for _ in range(56):
                state.apply_action(choice(state.legal_actions()))

    return run


def _rate(run: Callable[[], None], count: int, repeats: int) -> float:
    """Best-of-``repeats`` rate of ``run`` (which does ``count`` units of work)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def run_bench(hands: int = 2000, repeats: int = 5, seed: int = 1) -> dict[str, Any]:
    result: dict[str, Any] = {}
    result["random_hands_per_s"] = round(
        _rate(lambda: _play_hands(hands, seed), hands, repeats), 1
    )
    best = float("inf")
    for repeat in range(repeats):
        positions = _positions(5000, seed + repeat)  # fresh states: nothing memoised
        start = time.perf_counter()
        for state in positions:
            state.legal_plays()
        best = min(best, (time.perf_counter() - start) / len(positions))
    result["legal_plays_ns"] = round(best * 1e9, 1)
    openspiel = _openspiel_hands(hands, seed)
    if openspiel is not None:
        result["openspiel_hands_per_s"] = round(_rate(openspiel, hands, repeats), 1)
        result["ratio_vs_openspiel"] = round(
            result["random_hands_per_s"] / result["openspiel_hands_per_s"], 3
        )
    return result
