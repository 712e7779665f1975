"""Decision times of two bots in the same games (for the PIMC sparring bot's report).

    python3 lab/sparring_times.py [--a expert] [--b tests.sparring.pimc:PimcBot]
                                    [--seed 1] [--pairs 1] [--hands 3]

Plays the arena's duplicate games (the deal numbers of ``--seed``, each deal with the
partnerships swapped) for their first ``--hands`` hands, each bot wrapped in a timer, and
prints JSON: per bot, the median, 95th percentile, maximum, mean and total of the wall-clock
and CPU (process) times in milliseconds, over the decisions with a choice (a bid, or a play
with more than one legal card).  CPU times are the steadier figure on a shared machine; the
totals say which bot had more time over the same games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.arena import deal_numbers, play_game
from spades_core.bids import Bid
from spades_core.bots import Bot, make_bot
from spades_core.cards import Card
from spades_core.rules import Rules
from spades_core.views import View


class Timed:
    """A bot that records how long each decision of ``inner`` took."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def _timed(self, call: Any, view: View) -> Any:
        start, start_cpu = time.perf_counter(), time.process_time()
        found = call(view)
        self.wall.append((time.perf_counter() - start) * 1000.0)
        self.cpu.append((time.process_time() - start_cpu) * 1000.0)
        return found

    def blind_nil(self, view: View) -> bool:
        return bool(self.inner.blind_nil(view))

    def bid(self, view: View) -> Bid:
        found: Bid = self._timed(self.inner.bid, view)
        return found

    def play(self, view: View) -> Card:
        if len(view.legal_plays) == 1:
            return self.inner.play(view)
        found: Card = self._timed(self.inner.play, view)
        return found


def _quantile(ordered: list[float], q: float) -> float:
    rank = max(1, min(len(ordered), int(q * len(ordered) + 0.999999)))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    return {
        "median": round(_quantile(ordered, 0.5), 1),
        "p95": round(_quantile(ordered, 0.95), 1),
        "max": round(ordered[-1], 1),
        "mean": round(sum(ordered) / len(ordered), 1),
        "total": round(sum(ordered), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="tests.sparring.pimc:PimcBot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=1)
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    a, b = Timed(make_bot(args.a)), Timed(make_bot(args.b))
    rules = Rules()
    for deal in deal_numbers(args.seed, args.pairs):
        for team in (0, 1):
            play_game(a, b, deal, team, rules, max_hands=args.hands)
    result = {
        name: {"decisions": len(bot.wall), "wall_ms": summary(bot.wall),
               "cpu_ms": summary(bot.cpu)}
        for name, bot in ((args.a, a), (args.b, b))
    }
    print(json.dumps({"seed": args.seed, "pairs": args.pairs, "hands": args.hands, **result}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
