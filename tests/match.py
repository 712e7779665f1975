"""Play whole games between bots (a test helper, and a small measuring script).

``python -m tests.match normal beginner 200 1`` plays 200 deals twice, with the
partnerships swapped (duplicate), and prints the first bot's win rate as JSON.
The project's arena command (``python -m spades_core arena``) is the full version.
"""

from __future__ import annotations

import json
import math
import sys
import time

from spades_core import GameState, Phase, Rules
from spades_core.bots import Bot, bot_action, make_bot
from spades_core.deal import SplitMix64


def play_game(
    ns: Bot, ew: Bot, deal: int, rules: Rules | None = None, max_hands: int = 60
) -> GameState:
    """Play one game to the end (or ``max_hands``): NS seats use ``ns``, EW ``ew``."""
    state = GameState.new(rules or Rules(), deal=deal)
    while state.phase is not Phase.OVER and state.hand_index < max_hands:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bot_action(ns if seat % 2 == 0 else ew, state))
    return state


def deal_numbers(seed: int, count: int) -> list[int]:
    generator = SplitMix64(seed)
    return [generator.next() % 1_000_000_000 for _ in range(count)]


def match(
    a: str, b: str, games: int, seed: int = 1, rules: Rules | None = None
) -> dict[str, object]:
    bot_a, bot_b = make_bot(a), make_bot(b)
    a_wins = played = 0
    diff = 0
    hands = 0
    for deal in deal_numbers(seed, games):
        for a_team in (0, 1):
            ns, ew = (bot_a, bot_b) if a_team == 0 else (bot_b, bot_a)
            state = play_game(ns, ew, deal, rules)
            played += 1
            scores = state.scores
            if state.winner is not None:
                a_wins += int(state.winner) == a_team
            else:
                a_wins += scores[a_team] > scores[1 - a_team]
            diff += scores[a_team] - scores[1 - a_team]
            hands += len(state.past_hands)
    rate = a_wins / played
    half = 1.96 * math.sqrt(rate * (1 - rate) / played)
    return {
        "games": played, "a": a, "b": b, "a_wins": a_wins, "a_win_rate": round(rate, 4),
        "ci95": [round(rate - half, 4), round(rate + half, 4)],
        "mean_hand_diff": round(diff / hands, 2),
    }


if __name__ == "__main__":
    a, b, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    start = time.perf_counter()
    result = match(a, b, count, seed)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
