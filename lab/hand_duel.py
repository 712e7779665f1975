"""Duplicate single hands between two bots: a quick, low-noise measure of a bot change.

    python3 lab/hand_duel.py --a expert --b tests.sparring.pimc:Pimc10x10 --pairs 200 --seed 1

Each pair is one deal played twice from the same start: bot A as North–South against bot B,
then the partnerships swapped on the same cards. Half the pairs start at 0–0; the others at
scores and bags drawn from the seed (both teams between −150 and 450, 0–9 bags), so that
decisions that depend on the match are exercised too. One hand is played (East deals), and
A's points minus B's points on the same cards is the pair's figure; a whole game's result is
mostly the sum of such differences, with far less noise per CPU second than whole games.

Two bots measured against the same third one (``--a X --b C`` and ``--a Y --b C``, same
``--seed`` and ``--pairs``, each with ``--log``) are compared deal by deal with
``--compare LOG_X LOG_Y``: where X and Y decide alike, C's decisions are alike too and the
deal adds nothing to the noise, so the interval is far narrower than the two duels' own.
It prints the pairs, how many were played identically (``alike``), each log's own ``diff``
and X's figure minus Y's per hand (``diff``, mean and 95% interval, a deal's two hands
taken as one unit). Logs of different deals or starts, and lines that are not this tool's,
are refused with one line on standard error (exit 2).

Prints one JSON object: pairs, ``diff`` (A's points per hand minus B's, mean and 95% interval),
and per bot: points per hand, sets (contracts missed) and set rate, bags per hand, Nil and
Blind Nil bids and how many were made, contracts beside a partner's Nil and how many were set,
and the differences by kind of bid on the same cards (``by_kind``: "nil/num" is A's team
bidding a Nil where B's team, on the same cards, bid numbers only), and where both bid numbers
only, by A's contract less B's (``by_contract``: points, tricks and each side's set rate; at
equal contracts, the card play alone). ``--log FILE`` writes one JSON line per hand.
``--summarise LOG [LOG ...]`` prints the same figures for logs already written, pooled,
without playing. Deterministic: the same arguments give the same figures, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from json_lines import collect, is_int, read_rows

from spades_core.arena import load_bot
from spades_core.bids import parse_bid
from spades_core.bots import Bot, bot_action, make_bot
from spades_core.deal import SplitMix64, deal_hand
from spades_core.errors import UsageError
from spades_core.game import GameState, HandResult, Phase, _new_hand
from spades_core.rules import Rules

_BOTS: dict[str, Bot] = {}


def starts(seed: int, pairs: int) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    """Per pair: the deal number, the scores and the bags at the start of the hand."""
    rng = SplitMix64(seed)
    found = []
    for index in range(pairs):
        deal = rng.next() >> 11
        draw = rng.next()
        if index % 2 == 0:
            found.append((deal, (0, 0), (0, 0)))
            continue
        scores = (-150 + 10 * (draw % 61), -150 + 10 * ((draw >> 8) % 61))
        bags = ((draw >> 16) % 10, (draw >> 24) % 10)
        found.append((deal, scores, bags))
    return found


def hand_result(a: Bot, b: Bot, deal: int, scores: tuple[int, int], bags: tuple[int, int],
                a_team: int, rules: Rules) -> HandResult:
    """One hand from the given start with bot A playing for ``a_team`` (0 = NS), played
    to its end (East deals)."""
    cards = deal_hand(deal, 0, rules.deck_mask)
    state = GameState._start(_new_hand(rules, deal, (), cards, scores, bags), Phase.BIDDING)
    while state.phase is not Phase.OVER and state.hand_index == 0:
        seat = state.to_act
        assert seat is not None
        bot = a if seat % 2 == a_team else b
        state = state.apply(bot_action(bot, state), seat)
    return state.past_hands[0]


def play_hand(a: Bot, b: Bot, deal: int, scores: tuple[int, int], bags: tuple[int, int],
              a_team: int, rules: Rules) -> dict[str, Any]:
    """One hand from the given start with bot A playing for ``a_team`` (0 = NS)."""
    hand = hand_result(a, b, deal, scores, bags, a_team, rules)
    return {
        "deal": deal, "a_team": a_team, "start": [list(scores), list(bags)],
        "bids": [str(bid) for bid in hand.bids_by_seat], "tricks": list(hand.tricks),
        "points": [hand.teams[0].points, hand.teams[1].points],
    }


def _init(a_name: str, b_name: str) -> None:
    _BOTS.update(a=make_bot(a_name), b=make_bot(b_name))


Job = tuple[int, tuple[int, int], tuple[int, int], dict[str, Any]]


def _pair(job: Job) -> list[dict[str, Any]]:
    deal, scores, bags, rules = job
    rule_set = Rules(**rules)
    return [play_hand(_BOTS["a"], _BOTS["b"], deal, scores, bags, team, rule_set)
            for team in (0, 1)]


def run(a_name: str, b_name: str, pairs: int, seed: int, jobs: int,
        rules: Rules) -> Iterator[list[dict[str, Any]]]:
    work = [(deal, scores, bags, rules.to_dict()) for deal, scores, bags in starts(seed, pairs)]
    if jobs <= 1:
        _init(a_name, b_name)
        yield from map(_pair, work)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, _init, (a_name, b_name)) as pool:
        yield from pool.imap(_pair, work, chunksize=1)


def _kind(bids: list[str]) -> str:
    if "blind-nil" in bids:
        return "blind"
    return "nil" if "nil" in bids else "num"


def _team_diffs(pair: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """A pair's two figures, one per team's cards: A's points minus B's on them, and the
    kinds of bid of A's side and of B's side ("nil/num")."""
    first, second = pair  # first: A is North-South; second: A is East-West
    found = []
    for team in (0, 1):
        a_row, b_row = (first, second) if team == 0 else (second, first)
        diff = a_row["points"][team] - b_row["points"][team]
        kind = (_kind([a_row["bids"][s] for s in (team, team + 2)]) + "/"
                + _kind([b_row["bids"][s] for s in (team, team + 2)]))
        found.append((diff, kind))
    return found


def by_contract(pairs: Iterable[Sequence[dict[str, Any]]]) -> dict[str, Any]:
    """Where both sides bid numbers only on the same cards: the team-hands grouped by A's
    contract less B's (``-2`` to ``+2``, further ones counted at the ends), with A's points
    and tricks less B's a hand, and how often each side's contract was set. Equal contracts
    compare the card play alone (A with those cards against B's defence, and B with them
    against A's); the others show what a trick more or less in the bid did."""
    groups: dict[int, list[tuple[int, int, bool, bool]]] = {}
    for pair in pairs:
        first, second = pair  # first: A is North-South; second: A is East-West
        for team in (0, 1):
            a_row, b_row = (first, second) if team == 0 else (second, first)
            found = []
            for row in (a_row, b_row):
                bids = [parse_bid(row["bids"][s]) for s in (team, team + 2)]
                if any(bid.is_nil for bid in bids):
                    break
                contract = sum(bid.tricks for bid in bids)
                taken = row["tricks"][team] + row["tricks"][team + 2]
                found.append((contract, taken, row["points"][team]))
            if len(found) < 2:
                continue
            (a_bid, a_took, a_points), (b_bid, b_took, b_points) = found
            groups.setdefault(max(-2, min(2, a_bid - b_bid)), []).append(
                (a_points - b_points, a_took - b_took, a_took < a_bid, b_took < b_bid))
    return {f"{gap:+d}" if gap else "0": {
        "n": len(rows),
        "points": round(sum(r[0] for r in rows) / len(rows), 1),
        "tricks": round(sum(r[1] for r in rows) / len(rows), 2),
        "a_set_rate": round(sum(r[2] for r in rows) / len(rows), 3),
        "b_set_rate": round(sum(r[3] for r in rows) / len(rows), 3),
    } for gap, rows in sorted(groups.items())}


def _mean_half(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% interval (normal law)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n) if n else 0.0


def _interval(mean: float, half: float) -> dict[str, Any]:
    return {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)]}


def summarise(results: list[list[dict[str, Any]]]) -> dict[str, Any]:
    tally: dict[str, dict[str, int]] = {side: {} for side in "ab"}

    def add(side: str, key: str, value: int = 1) -> None:
        tally[side][key] = tally[side].get(key, 0) + value

    diffs: list[int] = []
    kinds: dict[str, list[int]] = {}
    for pair in results:
        for row in pair:
            for team in (0, 1):
                who = "a" if team == row["a_team"] else "b"
                seats = (team, team + 2)
                bids = [row["bids"][s] for s in seats]
                tricks = [row["tricks"][s] for s in seats]
                contract = sum(int(bid) for bid in bids if bid not in ("nil", "blind-nil"))
                add(who, "hands")
                add(who, "points", row["points"][team])
                add(who, "bags", max(0, sum(tricks) - contract) if sum(tricks) >= contract else 0)
                if contract and sum(tricks) < contract:
                    add(who, "sets")
                for bid, taken in zip(bids, tricks, strict=True):
                    if bid in ("nil", "blind-nil"):
                        name = "nil" if bid == "nil" else "blind_nil"
                        add(who, f"{name}_bids")
                        add(who, f"{name}_made", taken == 0)
                if contract and any(bid in ("nil", "blind-nil") for bid in bids):
                    add(who, "beside_nil")
                    add(who, "beside_nil_sets", sum(tricks) < contract)
        for diff, kind in _team_diffs(pair):
            diffs.append(diff)
            kinds.setdefault(kind, []).append(diff)
    mean, half = _mean_half(diffs)

    def side(name: str) -> dict[str, Any]:
        t = tally[name]
        hands = t.get("hands", 0) or 1
        return {
            "points_per_hand": round(t.get("points", 0) / hands, 2),
            "sets": t.get("sets", 0), "set_rate": round(t.get("sets", 0) / hands, 4),
            "bags_per_hand": round(t.get("bags", 0) / hands, 3),
            "nil_bids": t.get("nil_bids", 0), "nil_made": t.get("nil_made", 0),
            "blind_nil_bids": t.get("blind_nil_bids", 0),
            "blind_nil_made": t.get("blind_nil_made", 0),
            "beside_nil": t.get("beside_nil", 0), "beside_nil_sets": t.get("beside_nil_sets", 0),
        }

    return {
        "pairs": len(results),
        "diff": _interval(mean, half),
        "a": side("a"), "b": side("b"),
        "by_kind": {k: {"n": len(v), "mean": round(sum(v) / len(v), 1)}
                    for k, v in sorted(kinds.items())},
        "by_contract": by_contract(results),
    }


def _check_row(row: Any) -> None:
    """Raise ValueError unless ``row`` is a line of ``--log``."""
    if not isinstance(row, dict):
        raise ValueError("not an object")
    start = row["start"]
    if not (is_int(row["deal"]) and is_int(row["a_team"]) and row["a_team"] in (0, 1)
            and isinstance(start, list) and len(start) == 2
            and all(isinstance(part, list) and len(part) == 2
                    and all(is_int(v) for v in part) for part in start)):
        raise ValueError("deal, a_team (0 or 1) and start [[scores], [bags]] expected")
    bids, tricks, points = row["bids"], row["tricks"], row["points"]
    if not (isinstance(bids, list) and len(bids) == 4
            and all(isinstance(bid, str) and str(parse_bid(bid)) == bid for bid in bids)):
        raise ValueError("bids must be four bids in the engine's notation")
    if not (isinstance(tricks, list) and len(tricks) == 4 and all(is_int(t) for t in tricks)
            and isinstance(points, list) and len(points) == 2
            and all(is_int(p) for p in points)):
        raise ValueError("tricks must be four counts and points two numbers")


def read_pairs(lines: Iterable[str]) -> list[list[dict[str, Any]]]:
    """The pairs of a log written by ``--log``: each deal's line with A as North-South,
    then the one with A as East-West from the same start (blank lines skipped)."""
    rows = read_rows(lines, _check_row, "hand_duel")
    pairs = []
    for index in range(0, len(rows), 2):
        pair = rows[index:index + 2]
        if (len(pair) < 2 or pair[0]["a_team"] != 0 or pair[1]["a_team"] != 1
                or pair[0]["deal"] != pair[1]["deal"] or pair[0]["start"] != pair[1]["start"]):
            raise UsageError(f"pair {index // 2 + 1} is not one deal played both ways")
        pairs.append(pair)
    return pairs


def compare(first: list[list[dict[str, Any]]],
            second: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Two duels' logs against the same bot, deal by deal: ``first``'s A minus
    ``second``'s A, per hand (see the module)."""
    if not first:
        raise UsageError("the logs hold no pair")
    if len(first) != len(second):
        raise UsageError(f"the logs hold {len(first)} and {len(second)} pairs")
    margins: list[float] = []
    own: tuple[list[float], list[float]] = ([], [])
    alike = 0
    for number, (x, y) in enumerate(zip(first, second, strict=True), 1):
        if (x[0]["deal"], x[0]["start"]) != (y[0]["deal"], y[0]["start"]):
            raise UsageError(f"pair {number} is not the same deal and start in both logs")
        x_margin = sum(diff for diff, _ in _team_diffs(x)) / 2
        y_margin = sum(diff for diff, _ in _team_diffs(y)) / 2
        own[0].append(x_margin)
        own[1].append(y_margin)
        margins.append(x_margin - y_margin)
        played = ("bids", "tricks", "points")
        alike += all(a[key] == b[key] for a, b in zip(x, y, strict=True) for key in played)
    return {
        "pairs": len(margins), "alike": alike,
        "first": _interval(*_mean_half(own[0])), "second": _interval(*_mean_half(own[1])),
        "diff": _interval(*_mean_half(margins)),
    }


def _read_logs(paths: list[Path]) -> list[list[list[dict[str, Any]]]]:
    logs = []
    for path in paths:
        with path.open(encoding="utf-8") as source:
            try:
                logs.append(read_pairs(source))
            except UsageError as error:
                raise UsageError(f"{path}: {error}") from None
    return logs


def _compare_logs(paths: list[Path]) -> int:
    try:
        logs = _read_logs(paths)
        found = compare(logs[0], logs[1])
    except (OSError, UnicodeDecodeError, UsageError) as error:
        print(f"hand_duel: {error}", file=sys.stderr)
        return 2
    print(json.dumps({"logs": [str(path) for path in paths], **found}))
    return 0


def _summarise_logs(paths: list[Path]) -> int:
    try:
        pairs = [pair for log in _read_logs(paths) for pair in log]
        if not pairs:
            raise UsageError("the logs hold no pair")
    except (OSError, UnicodeDecodeError, UsageError) as error:
        print(f"hand_duel: {error}", file=sys.stderr)
        return 2
    print(json.dumps({"logs": [str(path) for path in paths], **summarise(pairs)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a")
    parser.add_argument("--b")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("LOG_X", "LOG_Y"))
    parser.add_argument("--summarise", type=Path, nargs="+", metavar="LOG")
    args = parser.parse_args(argv)
    if args.compare:
        return _compare_logs(args.compare)
    if args.summarise:
        return _summarise_logs(args.summarise)
    if args.a is None or args.b is None:
        parser.error("--a and --b are required (or --compare LOG_X LOG_Y, or --summarise LOG)")
    if args.pairs < 1 or args.jobs < 1:
        parser.error("--pairs and --jobs must be at least 1")
    try:
        for name in (args.a, args.b):
            load_bot(name)
    except UsageError as error:
        print(f"hand_duel: {error}", file=sys.stderr)
        return 2
    results = collect(run(args.a, args.b, args.pairs, args.seed, args.jobs, Rules()),
                      args.log, lambda pair: pair)
    print(json.dumps({"bots": {"a": args.a, "b": args.b}, "seed": args.seed, **summarise(results)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
