"""``python -m spades_core bench``: the engine's speed, printed as one JSON object.

Both engines are driven the same way from Python, by the same loop: one seeded
``random.Random(seed)`` and, for every action, ``choice(<the legal actions>)`` handed
back to the engine; a fixed number of actions per hand; nothing kept from one hand to
the next but what each engine keeps itself (ours: the tuples of Cards of each suit's
cards, built when first asked for).  Each figure is the best of ``repeats``
runs of ``hands`` hands, the two engines' runs taking turns, timed in this process's CPU
time (``time.process_time``: on a shared machine, time spent waiting for a core counts
against neither side).  Still, compare the ratio, taken within one run, rather than the
rates across runs.

``random_hands_per_s`` (this engine, through its public API only): a :class:`Game`, the
engine played in place as OpenSpiel's states are, from ``Game.new(Rules(), deal=seed)``;
per hand 4 × ``game.act(choice(game.legal_bids()))`` then 52 ×
``game.act(choice(game.legal_plays()))``, the 52nd play scoring the hand and dealing the
next one from the deal number (SplitMix64 and a Fisher–Yates shuffle, see :mod:`.deal`);
when a game ends a new one starts with the next deal number.  So each hand does one
deal, 56 legal-action queries, 56 actions and one scoring.
``immutable_hands_per_s``: the same hands through :class:`GameState`, where each
``state.apply(action)`` makes a new state (the API the table, the bots and the records
use); the two run the same code, the second copying the state at each action.

``openspiel_hands_per_s`` (when ``pyspiel`` is installed): OpenSpiel's ``spades`` game,
whose state is one hand.  Per hand ``game.new_initial_state()``, then 52 chance actions
(the deal, card by card) and 56 player actions (4 bids, 52 plays), each as
``state.apply_action(choice(state.legal_actions()))``: the plain, documented way to drive
it from Python (no ``is_chance_node()`` calls between actions: this side is told the
counts, as ours is).  Its deal thus costs 52 round trips from Python, where ours deals
inside ``act``: that is what each engine offers.  ``ratio_vs_openspiel`` is ours over
OpenSpiel's, in the same run.

``legal_plays_ns``: the mean cost of ``GameState.legal_plays()`` over 5000 positions of
such hands, each asked once.  A state works out its legal plays (the tuple of Cards) when
it is made, with the action that makes it, so this is only the cost of the call: the work
itself is counted in ``random_hands_per_s``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .errors import UsageError
from .game import OVER, Game, GameState, Phase
from .rules import Rules


def play_hands(count: int, seed: int) -> Game:
    """``count`` random hands through :class:`Game`, played in place; the game at the end."""
    rng = random.Random(seed)
    choice = rng.choice
    rules = Rules()
    deal = seed
    game = Game.new(rules, deal=deal)
    for _ in range(count):
        if game.phase is OVER:
            deal += 1
            game = Game.new(rules, deal=deal)
        for _ in range(4):
            game.act(choice(game.legal_bids()))
        for _ in range(52):
            game.act(choice(game.legal_plays()))
    return game


def play_states(count: int, seed: int) -> GameState:
    """The same hands through :class:`GameState`, each action making a new state."""
    rng = random.Random(seed)
    choice = rng.choice
    rules = Rules()
    deal = seed
    state = GameState.new(rules, deal=deal)
    for _ in range(count):
        if state.phase is OVER:
            deal += 1
            state = GameState.new(rules, deal=deal)
        for _ in range(4):
            state = state.apply(choice(state.legal_bids()))
        for _ in range(52):
            state = state.apply(choice(state.legal_plays()))
    return state


def _positions(count: int, seed: int) -> list[GameState]:
    """Positions in the play of random hands (bids and cards chosen at random)."""
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


def openspiel_hands(count: int, seed: int) -> Callable[[], None] | None:
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
            for _ in range(52 + 56):  # the deal's chance actions, then 4 bids and 52 plays
                state.apply_action(choice(state.legal_actions()))

    return run


def _best_times(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The best time of each run over ``repeats`` rounds, the runs taking turns within a
    round: a shared machine's changing load then weighs on each alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def _rate(count: int, seconds: float) -> float:
    """``count`` per second, never infinite: a run too quick for the clock counts as 1 ns."""
    return round(count / max(seconds, 1e-9), 1)


def run_bench(hands: int = 2000, repeats: int = 5, seed: int = 1) -> dict[str, Any]:
    """The figures of the module's documentation; ``hands`` and ``repeats`` at least 1."""
    if hands < 1 or repeats < 1:
        raise UsageError("hands and repeats must be at least 1")
    runs: dict[str, Callable[[], object]] = {
        "ours": lambda: play_hands(hands, seed),
        "states": lambda: play_states(hands, seed),
    }
    openspiel = openspiel_hands(hands, seed)
    if openspiel is not None:
        runs["openspiel"] = openspiel
    seconds = _best_times(runs, repeats)
    result: dict[str, Any] = {
        "random_hands_per_s": _rate(hands, seconds["ours"]),
        "immutable_hands_per_s": _rate(hands, seconds["states"]),
    }
    best = float("inf")
    for repeat in range(repeats):
        positions = _positions(5000, seed + repeat)
        start = time.process_time()
        for state in positions:
            state.legal_plays()
        best = min(best, (time.process_time() - start) / len(positions))
    result["legal_plays_ns"] = round(best * 1e9, 1)
    if openspiel is not None:
        result["openspiel_hands_per_s"] = _rate(hands, seconds["openspiel"])
        result["ratio_vs_openspiel"] = round(seconds["openspiel"] / max(seconds["ours"], 1e-9), 3)
    from .bots.timing import bot_timings  # the bots' decision times (median, p95 in ms)

    result.update(bot_timings())
    return result
