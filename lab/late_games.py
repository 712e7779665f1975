"""Two bots from the same late starts, played to the end against the same opponent.

    python3 lab/late_games.py --a MODULE:Class --b expert --o tests.sparring.pimc:Pimc10x10 \\
        --starts 400 --seed 1 --jobs 2 --log F

The games of a match are decided late: a change to how a bot bids and plays when both teams
are near the target shows in games won, which points a hand hide.  Each start gives both
teams a score from ``--low`` to ``--high`` (tens) and 0–7 bags, drawn from the seed with the
deal; bot A plays North–South from it to the end of the game against bot O, then bot B does
on the same deals against the same O.  The bots are deterministic, so where A and B decide
alike the two games are the same game.  ``--reuse LOG`` takes B's games from an earlier log
of the same B and O (checked: each line names them) wherever its starts are this run's (a
second variant against the same baseline costs half).

Prints one JSON object: starts, A's and B's wins, the starts won only by A and only by B,
and a two-sided sign test on those two counts.  ``--log FILE`` writes one JSON line per
start; ``--summarise LOG [LOG ...]`` plays nothing and prints the summary of logs already
written (several seeds pooled).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import json_lines
from blind_nil_games import play_game, sign_test

from spades_core.arena import load_bot
from spades_core.bots import Bot, make_bot
from spades_core.deal import SplitMix64
from spades_core.errors import UsageError
from spades_core.rules import Rules

_BOTS: dict[str, Bot] = {}
_REUSED: dict[str, dict[str, Any]] = {}
_NAMES: dict[str, str] = {}
_RULES = Rules()  # the default rules: the arena's
Start = tuple[int, tuple[int, int], tuple[int, int]]


def starts(seed: int, count: int, low: int = 250, high: int = 480) -> list[Start]:
    """Per start: the deal number, the scores and the bags (North–South first)."""
    if low % 10 or high % 10 or not low <= high < _RULES.target:
        raise UsageError("--low and --high are tens, low <= high < the target")
    steps = (high - low) // 10 + 1
    rng = SplitMix64(seed)
    found = []
    for _ in range(count):
        deal = rng.next() >> 11
        draw = rng.next()
        scores = (low + 10 * (draw % steps), low + 10 * ((draw >> 8) % steps))
        bags = ((draw >> 16) % 8, (draw >> 24) % 8)
        found.append((deal, scores, bags))
    return found


def _init(a: str, b: str, o: str, reused: dict[str, dict[str, Any]]) -> None:
    _BOTS.update(a=make_bot(a), b=make_bot(b), o=make_bot(o))
    _NAMES.update(b=b, o=o)
    _REUSED.update(reused)


def _start(start: Start) -> dict[str, Any]:
    deal, scores, bags = start
    shown = [deal, list(scores), list(bags)]
    found = _REUSED.get(json.dumps(shown))
    return {
        "start": shown, "b_bot": _NAMES["b"], "o_bot": _NAMES["o"],
        "a": play_game(_BOTS["a"], _BOTS["o"], start, _RULES),
        "b": found if found is not None else play_game(_BOTS["b"], _BOTS["o"], start, _RULES),
    }


def run(a: str, b: str, o: str, work: list[Start], jobs: int,
        reused: dict[str, dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    if jobs <= 1:
        _init(a, b, o, reused or {})
        yield from map(_start, work)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, _init, (a, b, o, reused or {})) as pool:
        yield from pool.imap(_start, work, chunksize=1)


def reusable(rows: list[dict[str, Any]], b: str, o: str) -> dict[str, dict[str, Any]]:
    """B's games of an earlier log, by start; refused unless the log's B and O are ``b``
    and ``o`` (another bot's games would be counted as B's without a word)."""
    for row in rows:
        if (row["b_bot"], row["o_bot"]) != (b, o):
            raise UsageError(f"--reuse: the log's games are {row['b_bot']} against "
                             f"{row['o_bot']}, not {b} against {o}")
    return {json.dumps(row["start"]): row["b"] for row in rows}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    only_a = sum(row["a"]["won"] and not row["b"]["won"] for row in rows)
    only_b = sum(row["b"]["won"] and not row["a"]["won"] for row in rows)
    return {
        "starts": len(rows),
        "a_won": sum(row["a"]["won"] for row in rows),
        "b_won": sum(row["b"]["won"] for row in rows),
        "alike": sum(row["a"] == row["b"] for row in rows),
        "only_a": only_a, "only_b": only_b,
        "sign_test_p": round(sign_test(only_a, only_b), 4),
    }


def _check_row(row: Any) -> None:
    """Raise ValueError unless ``row`` is a line of ``--log``."""
    start = row["start"]
    if not (isinstance(start, list) and len(start) == 3 and json_lines.is_int(start[0])
            and all(isinstance(pair, list) and len(pair) == 2
                    and all(json_lines.is_int(v) for v in pair) for pair in start[1:])):
        raise ValueError("start must be [deal, [ns, ew], [ns bags, ew bags]]")
    if not (isinstance(row["b_bot"], str) and isinstance(row["o_bot"], str)):
        raise ValueError("b_bot and o_bot must name the bots")
    for side in ("a", "b"):
        game = row[side]
        if not (isinstance(game, dict) and isinstance(game["won"], bool)
                and json_lines.is_int(game["hands"])):
            raise ValueError(f"{side} must be a game: won true or false, hands a count")


def read_rows(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The rows of a log written by ``--log`` (blank lines skipped)."""
    return json_lines.read_rows(lines, _check_row, "late_games")


def _read(paths: list[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as source:
            rows += read_rows(source)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a")
    parser.add_argument("--b", default="expert")
    parser.add_argument("--o", help="the opponent of both")
    parser.add_argument("--starts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--low", type=int, default=250)
    parser.add_argument("--high", type=int, default=480)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--reuse", type=Path, metavar="LOG",
                        help="B's games from an earlier log of the same B and O")
    parser.add_argument("--summarise", type=Path, nargs="+", metavar="LOG")
    args = parser.parse_args(argv)
    try:
        if args.summarise:
            print(json.dumps({"logs": [str(p) for p in args.summarise],
                              **summarise(_read(args.summarise))}))
            return 0
        if args.a is None or args.o is None:
            parser.error("--a and --o are required (or --summarise LOG)")
        if args.starts < 1 or args.jobs < 1:
            parser.error("--starts and --jobs must be at least 1")
        work = starts(args.seed, args.starts, args.low, args.high)
        for name in (args.a, args.b, args.o):
            load_bot(name)
        reused = {}
        if args.reuse is not None:
            reused = reusable(_read([args.reuse]), args.b, args.o)
    except (OSError, UnicodeDecodeError, UsageError) as error:
        print(f"late_games: {error}", file=sys.stderr)
        return 2
    rows = json_lines.collect(run(args.a, args.b, args.o, work, args.jobs, reused), args.log)
    summary = {"a": args.a, "b": args.b, "o": args.o, "seed": args.seed,
               "low": args.low, "high": args.high}
    print(json.dumps({**summary, **summarise(rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
