"""The command line's commands (see ``python -m spades_core --help``).

Every command keeps one contract: it exits 0 having printed its result (JSON, or the
game in the terminal), or exits 2 with one short line on standard error (at most
:data:`MAX_ERROR` characters; argument errors print argparse's usage line first).
Never a traceback, and never unbounded memory: ``replay`` reads at most
:data:`record.MAX_RECORD_SIZE` bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from . import record
from .deal import MAX_DEAL
from .errors import RecordError, shorten
from .rules import BOUNDS

MAX_ERROR = 300


class _Failure(Exception):
    """A command's error, to be printed as its one line."""


def _fail(message: str) -> int:
    print(shorten(message, MAX_ERROR - 1), file=sys.stderr)
    return 2


class _Parser(argparse.ArgumentParser):
    """argparse, whose error line quotes at most a prefix of a (maybe huge) argument."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {shorten(message, 200)}\n")


def _int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"an integer from {low} to {high}, not {shorten(repr(text), 40)}"
            )
        return value

    read.__name__ = "integer"
    return read


# --- replay -----------------------------------------------------------------------


def _where(name: str) -> str:
    return "standard input" if name == "-" else shorten(name, 80)


def _read_record(name: str) -> bytes:
    """At most MAX_RECORD_SIZE + 1 bytes of the file ``name`` (``-``: standard input)."""
    limit = record.MAX_RECORD_SIZE + 1
    where = _where(name)
    try:
        if name == "-":
            stdin = sys.stdin
            if stdin is None:
                raise _Failure("cannot read standard input: it is closed")
            stream = getattr(stdin, "buffer", stdin)  # bytes, unless replaced by a text stream
            data: bytes | str = stream.read(limit)
        else:
            with open(name, "rb") as handle:
                data = handle.read(limit)
    except OSError as error:
        raise _Failure(f"cannot read {where}: {error.strerror or error}") from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) >= limit:
        raise _Failure(f"record too large (limit {record.MAX_RECORD_SIZE >> 20} MiB)")
    return data


def _replay(args: argparse.Namespace) -> int:
    data = _read_record(args.file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _Failure(f"cannot read {_where(args.file)}: not UTF-8 text "
                       f"(byte {error.start})") from None
    try:
        state = record.loads(text)
    except RecordError as error:
        raise _Failure(str(error)) from None
    print(json.dumps(record.summary(state), indent=2, allow_nan=False))
    return 0


# --- the other commands -------------------------------------------------------------


def _bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    print(json.dumps(run_bench(hands=args.hands, repeats=args.repeats, hints=args.hints),
                     allow_nan=False))
    return 0


def _arena(args: argparse.Namespace) -> int:
    from .arena import run_arena
    from .rules import Rules

    try:
        rules = Rules(target=args.target, jokers=args.jokers, blind_nil=not args.no_blind_nil)
        if args.log is None:
            result = run_arena(args.a, args.b, args.games, args.seed, rules, jobs=args.jobs)
        else:
            with open(args.log, "w", encoding="utf-8") as log:
                result = run_arena(args.a, args.b, args.games, args.seed, rules,
                                   jobs=args.jobs, log=log)
    except ValueError as error:
        raise _Failure(str(error)) from None
    except OSError as error:
        raise _Failure(f"cannot write the log: {error.strerror or error}") from None
    print(json.dumps(result, allow_nan=False))
    return 0


def _play(args: argparse.Namespace) -> int:
    from .arena import load_bot
    from .deal import daily_deal_number
    from .terminal import play

    if sys.stdin is None:
        raise _Failure("cannot read standard input: it is closed")
    deal = args.deal
    if deal is None:
        import datetime

        deal = daily_deal_number(datetime.date.today())
    try:
        load_bot(args.level)  # a bad level or class: one line, before the game starts
        return play(level=args.level, deal=deal, lang=args.lang)
    except ValueError as error:
        raise _Failure(str(error)) from None


def _par(args: argparse.Namespace) -> int:
    from .arena import load_bot
    from .par import par_game, par_to_dict
    from .rules import Rules

    try:
        load_bot(args.level)  # a bad level or class: one line
        rules = Rules(target=args.target, jokers=args.jokers, blind_nil=not args.no_blind_nil)
    except ValueError as error:
        raise _Failure(str(error)) from None
    player = None
    if args.record is not None:
        try:
            player = record.loads(_read_record(args.record).decode("utf-8-sig"))
        except UnicodeDecodeError as error:
            raise _Failure(f"cannot read {_where(args.record)}: not UTF-8 text "
                           f"(byte {error.start})") from None
        except RecordError as error:
            raise _Failure(str(error)) from None
        if player.deal != args.deal or player.rules != rules:
            raise _Failure(f"{_where(args.record)}: not a game of deal {args.deal} "
                           "under these rules")
    try:
        par = par_game(args.deal, args.level, rules)
    except ValueError as error:
        raise _Failure(str(error)) from None
    print(json.dumps(par_to_dict(par, player), allow_nan=False))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m spades_core")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a game record, print its state as JSON")
    replay.add_argument("file", help="the record's file, or - for standard input")
    replay.set_defaults(run=_replay)
    bench = commands.add_parser("bench", help="measure the engine's speed, print JSON")
    bench.add_argument("--hands", type=_int_in(1, 10**6), default=2000)
    bench.add_argument("--repeats", type=_int_in(1, 1000), default=5)
    bench.add_argument("--hints", action="store_true",
                       help="time the coach's hint too (hint_ms)")
    bench.set_defaults(run=_bench)
    arena = commands.add_parser("arena", help="two bots play duplicate games, print JSON")
    arena.add_argument("--a", required=True, help="a level or package.module:Class")
    arena.add_argument("--b", required=True, help="a level or package.module:Class")
    arena.add_argument("--games", type=_int_in(1, 10**6), default=100,
                       help="games (played in pairs)")
    arena.add_argument("--seed", type=_int_in(0, 2**64 - 1), default=1,
                       help="deal numbers: SplitMix64(seed) outputs >> 11, one per pair")
    arena.add_argument("--jobs", type=_int_in(1, 256), default=1, help="worker processes")
    arena.add_argument("--target", type=_int_in(*BOUNDS["target"]), default=500)
    arena.add_argument("--jokers", action="store_true")
    arena.add_argument("--no-blind-nil", action="store_true")
    arena.add_argument("--log", metavar="FILE", help="write one JSON line per hand to FILE")
    arena.set_defaults(run=_arena)
    play = commands.add_parser("play", help="play South in the terminal against bots")
    play.add_argument("--level", default="normal", help="the bots' level (or package.module:Class)")
    play.add_argument("--deal", type=_int_in(0, MAX_DEAL), default=None,
                      help="deal number (default: today's)")
    play.add_argument("--lang", choices=("en", "fr"), default="en")
    play.set_defaults(run=_play)
    par = commands.add_parser(
        "par", help="the deal's par: the Expert plays South's cards to the end, print JSON")
    par.add_argument("--deal", type=_int_in(0, MAX_DEAL), required=True, help="deal number")
    par.add_argument("--level", default="normal", help="the other bots' level")
    par.add_argument("--target", type=_int_in(*BOUNDS["target"]), default=500)
    par.add_argument("--jokers", action="store_true")
    par.add_argument("--no-blind-nil", action="store_true")
    par.add_argument("--record", default=None,
                     help="a player's record of the deal (or -): adds where it left the par")
    par.set_defaults(run=_par)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except _Failure as failure:
        return _fail(str(failure))
    except Exception as error:  # the last line of defence: still one line, exit 2
        return _fail(f"{type(error).__name__}: {shorten(str(error), 200)}")
    return result
