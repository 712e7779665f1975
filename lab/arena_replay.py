"""Replay the arena games where bot A bid Blind Nil, with a bot A that bids it less.

    python3 lab/arena_replay.py LOG --a package.module:Class --b tests.sparring.pimc:PimcBot \\
        [--a-was expert] [--check 4] [--jobs 2] [--log OUT]

The bots are deterministic: the same two bots play a game of the log the same way again.
A bot A that differs from the logged one only by bidding Blind Nil in fewer places (never
where the logged one did not) plays every game in which the logged one never bid it
exactly as logged.  So only the games where it did need playing again, and the arena's
result with the new bot is theirs spliced into the others'.  ``--check N`` first replays
N of the other games with ``--a-was`` (the logged bot A) and stops if one differs from
the log: the log, the bots and the code must still agree.

LOG is the arena's ``--log`` (one JSON line per hand; the default rules).  Prints one JSON
object: the games, the games replayed, the wins on them before and after, the games won
only after and only before with a two-sided sign test, the Blind Nils bid (made) in the
replays, and the spliced arena's wins with a 95% interval.  ``--log OUT`` writes the
spliced arena's log.
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

from blind_nil_games import sign_test
from json_lines import is_int, read_rows

from spades_core.arena import load_bot, play_game, wilson
from spades_core.bids import parse_bid
from spades_core.bots import Bot
from spades_core.errors import UsageError
from spades_core.rules import Rules, game_winner

Key = tuple[int, int]  # (deal, a_team)
Game = list[dict[str, Any]]
_RULES = Rules()
_BOTS: dict[str, Bot] = {}


def _check_hand(hand: Any) -> None:
    """Raise ValueError unless ``hand`` is a line of the arena's ``--log``."""
    if not isinstance(hand, dict):
        raise ValueError("not an object")
    if not (is_int(hand["deal"]) and hand["a_team"] in (0, 1) and is_int(hand["a_team"])
            and is_int(hand["hand"]) and hand["hand"] >= 0):
        raise ValueError("deal, a_team (0 or 1) and hand (a count) expected")
    bids, tricks = hand["bids"], hand["tricks"]
    if not (isinstance(bids, list) and len(bids) == 4
            and all(isinstance(bid, str) and str(parse_bid(bid)) == bid for bid in bids)
            and isinstance(tricks, list) and len(tricks) == 4
            and all(is_int(count) and count >= 0 for count in tricks)):
        raise ValueError("four bids in the engine's notation and four trick counts expected")
    for key in ("points", "scores"):
        pair = hand[key]
        if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(v) for v in pair)):
            raise ValueError(f"{key} must be two numbers")


def read_log(lines: Iterable[str]) -> dict[Key, Game]:
    """The games of an arena log, each its hands in order."""
    games: dict[Key, Game] = {}
    for hand in read_rows(lines, _check_hand, "arena log"):
        games.setdefault((hand["deal"], hand["a_team"]), []).append(hand)
    for game in games.values():
        game.sort(key=lambda hand: hand["hand"])
    return games


def a_won(key: Key, game: Game) -> bool:
    scores = game[-1]["scores"]
    return game_winner((scores[0], scores[1]), _RULES) == key[1]


def a_bid_blind_nil(key: Key, game: Game) -> bool:
    team = key[1]
    return any(hand["bids"][seat] == "blind-nil" for hand in game for seat in (team, team + 2))


def _init(a_name: str, b_name: str) -> None:
    _BOTS.update(a=load_bot(a_name), b=load_bot(b_name))


def _replay(key: Key) -> tuple[Key, Game]:
    return key, play_game(_BOTS["a"], _BOTS["b"], key[0], key[1], _RULES).log


def replay(a_name: str, b_name: str, keys: list[Key], jobs: int) -> Iterator[tuple[Key, Game]]:
    """Each game of ``keys`` played again by the two bots, in order."""
    if jobs <= 1 or len(keys) < 2:
        _init(a_name, b_name)
        yield from map(_replay, keys)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, _init, (a_name, b_name)) as pool:
        yield from pool.imap(_replay, keys, chunksize=1)


def summarise(games: dict[Key, Game], new: dict[Key, Game]) -> dict[str, Any]:
    """The replayed games against the logged ones, and the arena with them spliced in."""
    before = {key: a_won(key, games[key]) for key in new}
    after = {key: a_won(key, game) for key, game in new.items()}
    only_after = sum(after[key] and not before[key] for key in new)
    only_before = sum(before[key] and not after[key] for key in new)
    blind = [hand["tricks"][seat] == 0 for key, game in new.items() for hand in game
             for seat in (key[1], key[1] + 2) if hand["bids"][seat] == "blind-nil"]
    wins = sum(after.get(key, a_won(key, game)) for key, game in games.items())
    low, high = wilson(wins, len(games))
    return {
        "games": len(games), "replayed": len(new),
        "wins_before": sum(before.values()), "wins_after": sum(after.values()),
        "only_after": only_after, "only_before": only_before,
        "sign_test_p": round(sign_test(only_after, only_before), 4),
        "blind_nil_bids": len(blind), "blind_nil_made": sum(blind),
        "a_wins": wins, "a_win_rate": round(wins / len(games), 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", default="tests.sparring.pimc:PimcBot")
    parser.add_argument("--a-was", default="expert")
    parser.add_argument("--check", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", dest="out", type=Path)
    args = parser.parse_args(argv)
    if args.check < 0 or args.jobs < 1:
        parser.error("--check must not be negative, --jobs must be at least 1")
    try:
        load_bot(args.a), load_bot(args.b), load_bot(args.a_was)
        with args.log.open(encoding="utf-8") as source:
            games = read_log(source)
    except (OSError, UnicodeDecodeError, UsageError) as error:
        print(f"arena_replay: {error}", file=sys.stderr)
        return 2
    chosen = sorted(key for key, game in games.items() if a_bid_blind_nil(key, game))
    others = sorted(set(games) - set(chosen))
    for key, game in replay(args.a_was, args.b, others[:args.check], args.jobs):
        if game != games[key]:
            print(f"arena_replay: game {key} does not replay as logged", file=sys.stderr)
            return 1
    new = dict(replay(args.a, args.b, chosen, args.jobs))
    if args.out is not None:
        with args.out.open("w", encoding="utf-8") as out:
            for key in sorted(games):
                for hand in new.get(key, games[key]):
                    out.write(json.dumps(hand) + "\n")
    print(json.dumps(summarise(games, new)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
