"""Does the expert's Blind Nil win games?  Desperate starts played out both ways.

    python3 lab/blind_nil_games.py --b tests.sparring.pimc:PimcBot --starts 400 --seed 7

Blind Nil is weighed only when the match is nearly lost, where its points say little: a
made Blind Nil is the one way back, a failed one costs a game that was lost anyway.  So
its worth is measured in games won.  Each start puts North–South (the expert's team)
100–300 points and East–West 400–480 (0–5 bags each, drawn from the seed) and plays
the game to its end against bot B, first with the expert as it is, then, when its team
bid Blind Nil in that game, again on the same deals with an expert that never bids it
(or with ``--without BOT``, any bot that bids it less often than the expert, never more).
Where no Blind Nil was bid the two games are the same game (the bots are deterministic),
so only the starts where it was bid are played twice.

Prints one JSON object: starts, the starts where Blind Nil was bid, how many Blind Nils
were bid and made there, the expert's wins with and without it on those, the starts won
only with it and only without it, and a two-sided sign test on those two counts.  The log
also keeps what the expert saw each time it weighed Blind Nil (``weighed``: the opponents'
score and what Blind Nil adds to its chance of winning, in millionths), and the summary
splits the Blind Nil starts by the first bid one's margin and by the opponents' score
(``by_margin``, ``by_opponents``): whether a stricter rule would win more games.
``--log FILE`` writes one JSON line per start; ``--summarise LOG [LOG ...]`` plays
nothing and prints the summary of logs already written (several seeds pooled).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import json_lines

from spades_core.arena import load_bot
from spades_core.bids import BLIND_NIL
from spades_core.bots import Bot, bot_action, make_bot
from spades_core.bots.expert import BlindNilWeighing, ExpertBot
from spades_core.deal import SplitMix64, deal_hand
from spades_core.errors import UsageError
from spades_core.game import GameState, Phase, _new_hand
from spades_core.rules import Rules
from spades_core.views import View

_BOTS: dict[str, Bot] = {}
_RULES = Rules()  # the default rules: the arena's
Start = tuple[int, tuple[int, int], tuple[int, int]]


class NoBlindExpert(ExpertBot):
    """The expert, except that it never bids Blind Nil."""

    def blind_nil(self, view: View) -> bool:
        return False


class RecordingExpert(ExpertBot):
    """The expert, noting each Blind Nil it weighs (``weighed``), its decisions unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.weighed: list[dict[str, Any]] = []

    def blind_nil_steps(self, view: View) -> Generator[None, None, bool]:
        found: BlindNilWeighing | None = yield from self.weigh_blind_nil_steps(view)
        if found is None:
            return False
        team = int(view.seat) & 1
        self.weighed.append({"opponents": view.scores[1 - team], "margin": found.margin,
                             "bid": found.bids})
        return found.bids


def starts(seed: int, count: int) -> list[Start]:
    """Per start: the deal number, the scores and the bags (North–South first)."""
    rng = SplitMix64(seed)
    found = []
    for _ in range(count):
        deal = rng.next() >> 11
        draw = rng.next()
        scores = (100 + 10 * (draw % 21), 400 + 10 * ((draw >> 8) % 9))
        bags = ((draw >> 16) % 6, (draw >> 24) % 6)
        found.append((deal, scores, bags))
    return found


def play_game(ours: Bot, theirs: Bot, start: Start, rules: Rules) -> dict[str, Any]:
    """The game from ``start`` to its end, ``ours`` playing North–South."""
    deal, scores, bags = start
    cards = deal_hand(deal, 0, rules.deck_mask)
    state = GameState._start(_new_hand(rules, deal, (), cards, scores, bags), Phase.BIDDING)
    while state.phase is not Phase.OVER:
        seat = state.to_act
        assert seat is not None
        bot = ours if seat % 2 == 0 else theirs
        state = state.apply(bot_action(bot, state), seat)
    blind = [hand.tricks[seat] for hand in state.past_hands for seat in (0, 2)
             if hand.bids_by_seat[seat] == BLIND_NIL]
    return {"won": state.winner == 0, "hands": len(state.past_hands), "blind": len(blind),
            "blind_made": blind.count(0), "final": list(state.scores)}


def _init(b_name: str, without: str | None = None) -> None:
    plain = make_bot(without) if without is not None else NoBlindExpert()
    _BOTS.update(expert=RecordingExpert(), plain=plain, b=make_bot(b_name))


def _start(start: Start) -> dict[str, Any]:
    row: dict[str, Any] = {"start": [start[0], list(start[1]), list(start[2])]}
    expert = _BOTS["expert"]
    assert isinstance(expert, RecordingExpert)
    expert.weighed.clear()
    row["with"] = play_game(expert, _BOTS["b"], start, _RULES)
    row["with"]["weighed"] = list(expert.weighed)
    if row["with"]["blind"]:
        row["without"] = play_game(_BOTS["plain"], _BOTS["b"], start, _RULES)
    return row


def run(b_name: str, count: int, seed: int, jobs: int,
        without: str | None = None) -> Iterator[dict[str, Any]]:
    work = starts(seed, count)
    if jobs <= 1:
        _init(b_name, without)
        yield from map(_start, work)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, _init, (b_name, without)) as pool:
        yield from pool.imap(_start, work, chunksize=1)


def sign_test(wins: int, losses: int) -> float:
    """The two-sided p-value of ``wins`` against ``losses`` when each is as likely."""
    n = wins + losses
    if n == 0:
        return 1.0
    low = min(wins, losses)
    tail = sum(math.comb(n, k) for k in range(low + 1)) / (1 << n)
    return min(1.0, 2 * tail)


_MARGIN_BANDS = ((20_000, "1-2%"), (30_000, "2-3%"), (50_000, "3-5%"), (None, "5%+"))
_OPPONENT_BANDS = ((420, "400-419"), (440, "420-439"), (None, "440+"))


def _band(value: int, bands: tuple[tuple[int | None, str], ...]) -> str:
    return next(name for below, name in bands if below is None or value < below)


def bands(bid: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The Blind Nil starts split by the first Blind Nil's margin and by the opponents'
    score then: per band, the starts and those won only with it and only without it.
    None when a row has no ``weighed`` (logs written before it had)."""
    firsts = []
    for row in bid:
        bids = [seen for seen in row["with"].get("weighed", []) if seen["bid"]]
        if not bids:
            return None
        firsts.append((bids[0], row["with"]["won"], row["without"]["won"]))
    found: dict[str, Any] = {"by_margin": {}, "by_opponents": {}}
    for first, won_with, won_without in firsts:
        for key, band in (("by_margin", _band(first["margin"], _MARGIN_BANDS)),
                          ("by_opponents", _band(first["opponents"], _OPPONENT_BANDS))):
            counts = found[key].setdefault(band, {"starts": 0, "only_with": 0,
                                                  "only_without": 0})
            counts["starts"] += 1
            counts["only_with"] += won_with and not won_without
            counts["only_without"] += won_without and not won_with
    for key, table in (("by_margin", _MARGIN_BANDS), ("by_opponents", _OPPONENT_BANDS)):
        found[key] = {name: found[key][name] for _, name in table if name in found[key]}
    return found


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    bid = [row for row in rows if "without" in row]
    with_wins = sum(row["with"]["won"] for row in bid)
    without_wins = sum(row["without"]["won"] for row in bid)
    made = [row["with"].get("blind_made") for row in bid]
    only_with = sum(row["with"]["won"] and not row["without"]["won"] for row in bid)
    only_without = sum(row["without"]["won"] and not row["with"]["won"] for row in bid)
    return {
        "starts": len(rows), "won_overall": sum(row["with"]["won"] for row in rows),
        "blind_nil_starts": len(bid), "blind_nil_bids": sum(row["with"]["blind"] for row in bid),
        # null when some line has no count of made ones (logs written before it had)
        "blind_nil_made": None if None in made else sum(made),
        "wins_with": with_wins, "wins_without": without_wins,
        "only_with": only_with, "only_without": only_without,
        "sign_test_p": round(sign_test(only_with, only_without), 4),
        **(bands(bid) or {"by_margin": None, "by_opponents": None}),
    }


def _check_row(row: Any) -> None:
    """Raise ValueError unless ``row`` is a line of ``--log``."""
    games = [row["with"], *([row["without"]] if "without" in row else [])]
    for game in games:
        if not isinstance(game, dict):
            raise ValueError("with and without must be objects")
        made = game.get("blind_made", 0)
        if not (isinstance(game["won"], bool) and isinstance(game["blind"], int)
                and isinstance(made, int)):
            raise ValueError("won must be true or false, blind and blind_made counts")
        weighed = game.get("weighed", [])
        if not (isinstance(weighed, list) and all(
                isinstance(seen, dict) and json_lines.is_int(seen["margin"])
                and json_lines.is_int(seen["opponents"]) and isinstance(seen["bid"], bool)
                for seen in weighed)):
            raise ValueError("weighed must list objects with margin, opponents and bid")


def read_rows(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The rows of a log written by ``--log`` (blank lines skipped)."""
    return json_lines.read_rows(lines, _check_row, "blind_nil_games")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--b")
    parser.add_argument("--without", help="the bot that replays the Blind Nil starts")
    parser.add_argument("--starts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--summarise", type=Path, nargs="+", metavar="LOG")
    args = parser.parse_args(argv)
    if args.summarise:
        rows = []
        try:
            for path in args.summarise:
                with path.open(encoding="utf-8") as source:
                    rows += read_rows(source)
        except (OSError, UnicodeDecodeError, UsageError) as error:
            print(f"blind_nil_games: {error}", file=sys.stderr)
            return 2
        print(json.dumps({"logs": [str(path) for path in args.summarise], **summarise(rows)}))
        return 0
    if args.b is None:
        parser.error("--b is required (or --summarise LOG)")
    if args.starts < 1 or args.jobs < 1:
        parser.error("--starts and --jobs must be at least 1")
    try:
        load_bot(args.b)
        if args.without is not None:
            load_bot(args.without)
    except UsageError as error:
        print(f"blind_nil_games: {error}", file=sys.stderr)
        return 2
    rows = json_lines.collect(run(args.b, args.starts, args.seed, args.jobs, args.without),
                              args.log)
    summary = {"b": args.b, "without": args.without or "never", "seed": args.seed}
    print(json.dumps({**summary, **summarise(rows)}))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
