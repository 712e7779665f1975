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
    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result
