"""The command line's commands (see ``python -m spades_core --help``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import record
from .errors import RecordError


def _replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        state = record.loads(text)
    except RecordError as error:
        print(str(error).replace("\n", " "), file=sys.stderr)
        return 2
    print(json.dumps(record.summary(state), indent=2))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    print(json.dumps(run_bench(hands=args.hands, repeats=args.repeats)))
    return 0


def _arena(args: argparse.Namespace) -> int:
    from .arena import run_arena
    from .rules import Rules

    rules = Rules(target=args.target, jokers=args.jokers, blind_nil=not args.no_blind_nil)
    try:
        result = run_arena(args.a, args.b, args.games, args.seed, rules, jobs=args.jobs)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _play(args: argparse.Namespace) -> int:
    from .deal import daily_deal_number
    from .terminal import play

    deal = args.deal
    if deal is None:
        import datetime

        deal = daily_deal_number(datetime.date.today())
    try:
        return play(level=args.level, deal=deal, lang=args.lang)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades_core")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a game record, print its state as JSON")
    replay.add_argument("file", help="the record's file, or - for standard input")
    replay.set_defaults(run=_replay)
    bench = commands.add_parser("bench", help="measure the engine's speed, print JSON")
    bench.add_argument("--hands", type=int, default=2000)
    bench.add_argument("--repeats", type=int, default=5)
    bench.set_defaults(run=_bench)
    arena = commands.add_parser("arena", help="two bots play duplicate games, print JSON")
    arena.add_argument("--a", required=True, help="a level or package.module:Class")
    arena.add_argument("--b", required=True, help="a level or package.module:Class")
    arena.add_argument("--games", type=int, default=100, help="games (played in pairs)")
    arena.add_argument("--seed", type=int, default=1,
                       help="deal numbers: SplitMix64(seed) outputs >> 11, one per pair")
    arena.add_argument("--jobs", type=int, default=1, help="worker processes")
    arena.add_argument("--target", type=int, default=500)
    arena.add_argument("--jokers", action="store_true")
    arena.add_argument("--no-blind-nil", action="store_true")
    arena.set_defaults(run=_arena)
    play = commands.add_parser("play", help="play South in the terminal against bots")
    play.add_argument("--level", default="normal", help="the bots' level (or package.module:Class)")
    play.add_argument("--deal", type=int, default=None, help="deal number (default: today's)")
    play.add_argument("--lang", choices=("en", "fr"), default="en")
    play.set_defaults(run=_play)
    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result
