"""How well the expert's play-out player predicts the table: a measure for tuning it.

    python3 lab/playout_calibration.py --a expert --b tests.sparring.pimc:PimcBot \\
        --pairs 300 --seed 32 --jobs 2

The expert values a card by playing the rest of the hand out with a rule-of-thumb player
(:func:`spades_core.bots.rollout.play_out`) in deals it imagines.  This tool asks how far
that player's outcomes are from the table's.  It plays hands as :mod:`hand_duel` does
(each deal twice, A holding North–South's cards once and East–West's once, from the same
starts), then replays each hand in its *true* deal:

- at the bid: the whole hand played out from the deal with the bids made, against what
  the table took (each side's contracts set, its tricks, its Nils made);
- at each of A's card decisions with a choice and five tricks or more to go (fewer are
  solved exactly, not played out): the rest of the hand played out after A's card, against
  what the table took.  ``early`` is 9–13 tricks to go, ``mid`` 5–8.

A bias is the table's outcome less the play-out's (``our`` is the team deciding, A's); a
``miss`` is how often the two disagree on a yes/no outcome (a contract set, a Nil made).
In hands where nobody bid Nil, every card with a choice (either side's) is also played
out against the play-out player's own card in its place: where the two end differently
for A's contract, the card *turned* it (``turns of A's contract by B (set)``: a card of
B's that sets A where the play-out player's would not; its ``n`` counts them).
The true deal is not what the expert sees, so even a perfect model of the players would
miss now and then; the figures compare models (``--eager`` plays one team or both for
every trick) and show which way the play-outs lean.  ``--forecast`` (A being the Expert) also
sets each of A's bids as the Expert's bid search foresaw it, in its own imagined deals
(:func:`spades_core.bots.expert.bid_forecast`: how often the contract fails, or the Nil is
broken), beside what happened at the table, by how sure the forecast was.  ``--log FILE``
writes one JSON line per hand (deal, plays, tricks); ``--from FILE`` reads such a log back
instead of playing.
Deterministic: the same arguments give the same figures, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hand_duel import hand_result, starts
from json_lines import collect, is_int, read_rows

from spades_core.arena import load_bot
from spades_core.bids import BLIND_NIL, Bid, parse_bid
from spades_core.bots import Bot, make_bot
from spades_core.bots.expert import ExpertBudget, bid_forecast
from spades_core.bots.rollout import Contracts, play_out
from spades_core.cards import SUIT_OF
from spades_core.errors import UsageError
from spades_core.game import GameState, Phase, _new_hand
from spades_core.rules import Rules, legal_play_mask, trick_winner_seat
from spades_core.views import view_for

_BOTS: dict[str, Bot] = {}
EAGER = ("none", "ours", "theirs", "both")  # the team(s) that play for every trick


def play_logged(a: Bot, b: Bot, deal: int, scores: tuple[int, int], bags: tuple[int, int],
                a_team: int, rules: Rules) -> dict[str, Any]:
    """One hand (bot A for ``a_team``), as a log row: the deal, bids, plays and tricks."""
    hand = hand_result(a, b, deal, scores, bags, a_team, rules)
    return {
        "deal": deal, "a_team": a_team, "start": [list(scores), list(bags)],
        "dealt": list(hand.dealt_masks), "leader": (int(hand.dealer) + 1) & 3,
        "bids": [str(bid) for bid in hand.bids_by_seat], "plays": list(hand.play_ids),
        "tricks": list(hand.tricks),
    }


def _contracts(bids: Sequence[Bid], team: int, eager: str) -> Contracts:
    flags = [eager == "both", eager == "both"]
    if eager in ("ours", "theirs"):
        flags[team if eager == "ours" else 1 - team] = True
    return Contracts.of(bids, (flags[0], flags[1]))


def _team_bid(bids: Sequence[Bid], team: int) -> int:
    return bids[team].tricks + bids[team + 2].tricks


def measure(row: dict[str, Any], eager: str = "none") -> dict[str, list[int]]:
    """The samples of one logged hand: name -> values (see the module)."""
    bids = [parse_bid(text) for text in row["bids"]]
    table = row["tricks"]
    a_team = row["a_team"]
    found: dict[str, list[int]] = defaultdict(list)
    held = list(row["dealt"])
    leader = row["leader"]

    def set_at(tricks: Sequence[int], team: int) -> int:
        return int(tricks[team] + tricks[team + 2] < _team_bid(bids, team))

    for team, side in ((a_team, "a"), (1 - a_team, "b")):
        played = play_out(held, leader, (), (0, 0, 0, 0), False, _contracts(bids, team, eager))
        found[f"bid {side} tricks bias"].append(
            table[team] + table[team + 2] - played[team] - played[team + 2])
        found[f"bid {side} set at the table"].append(set_at(table, team))
        found[f"bid {side} set in the play-out"].append(set_at(played, team))
        for seat in (team, team + 2):
            if bids[seat].is_nil:
                found[f"bid {side} nil made at the table"].append(int(table[seat] == 0))
                found[f"bid {side} nil made in the play-out"].append(int(played[seat] == 0))
    taken = [0, 0, 0, 0]
    trick: list[int] = []
    broken = False
    plain = not any(bid.is_nil for bid in bids)
    for card in row["plays"]:
        seat = (leader + len(trick)) & 3
        to_go = 13 - sum(taken)
        led = -1 if not trick else SUIT_OF[trick[0]]
        legal = legal_play_mask(held[seat], led, broken)
        if seat & 1 == a_team and to_go >= 5 and legal & (legal - 1):
            phase = "early" if to_go >= 9 else "mid"
            team = seat & 1
            played = play_out(held, leader, tuple(trick), tuple(taken), broken,
                              _contracts(bids, team, eager), first=card)
            error = table[team] + table[team + 2] - played[team] - played[team + 2]
            found[f"{phase} our tricks bias"].append(error)
            found[f"{phase} our tricks squared error"].append(error * error)
            for who, side in ((team, "our"), (1 - team, "their")):
                diff = set_at(table, who) - set_at(played, who)
                found[f"{phase} {side} set bias"].append(diff)
                found[f"{phase} {side} set miss"].append(abs(diff))
            for nil_seat in range(4):
                if bids[nil_seat].is_nil and not taken[nil_seat]:
                    side = "our" if nil_seat & 1 == team else "their"
                    diff = int(table[nil_seat] == 0) - int(played[nil_seat] == 0)
                    found[f"{phase} {side} nil made bias"].append(diff)
                    found[f"{phase} {side} nil made miss"].append(abs(diff))
        if plain and legal & (legal - 1) and to_go >= 2:
            # did this card, rather than the play-out player's own, turn A's contract?
            model = _contracts(bids, a_team, eager)
            after, instead = (set_at(play_out(held, leader, tuple(trick), tuple(taken), broken,
                                              model, first=first), a_team)
                              for first in (card, -1))
            if after != instead:
                who = "A" if seat & 1 == a_team else "B"
                found[f"turns of A's contract by {who} ({'set' if after else 'made'})"].append(1)
        held[seat] ^= 1 << card
        broken = broken or card >= 39
        trick.append(card)
        if len(trick) == 4:
            leader = trick_winner_seat(leader, trick)
            taken[leader] += 1
            trick = []
    if taken != table:
        raise UsageError(f"deal {row['deal']}: the plays do not give the tricks logged")
    return found


def forecasts(row: dict[str, Any], budget: ExpertBudget | None = None) -> dict[str, list[float]]:
    """A's bids as the Expert's bid search foresaw them (:func:`bid_forecast`, in its own
    imagined deals), against the table: for a number, the share of the deals where the
    team's contract fails; for a Nil, where the Nil is broken.  Meaningful when A was the
    Expert with ``budget`` (its decisions are then the ones logged)."""
    bids = [parse_bid(text) for text in row["bids"]]
    table = row["tricks"]
    state = GameState._start(
        _new_hand(Rules(), row["deal"], (), tuple(row["dealt"]), tuple(row["start"][0]),
                  tuple(row["start"][1])), Phase.BIDDING)
    found: dict[str, list[float]] = defaultdict(list)
    for _ in range(4):
        seat = state.to_act
        assert seat is not None
        bid = bids[seat]
        if seat & 1 == row["a_team"] and bid != BLIND_NIL:
            forecast = bid_forecast(view_for(state, seat), bid, budget)
            team = seat & 1
            if bid.is_nil:
                foreseen = sum(taken[seat] > 0 for _, taken in forecast) / len(forecast)
                found["forecast nil broken: foreseen"].append(foreseen)
                found["forecast nil broken: at the table"].append(int(table[seat] > 0))
            else:
                foreseen = sum(taken[team] + taken[team + 2] < imagined[team].tricks
                               + imagined[team + 2].tricks
                               for imagined, taken in forecast) / len(forecast)
                band = "under 10%" if foreseen < 0.1 else "10-20%" if foreseen < 0.2 else "20% up"
                plain = "" if any(b.is_nil for b in bids) else ", no Nil bid"
                failed = int(table[team] + table[team + 2] < _team_bid(bids, team))
                for label in dict.fromkeys((band, band + plain)):
                    found[f"forecast set {label}: foreseen"].append(foreseen)
                    found[f"forecast set {label}: at the table"].append(failed)
        state = state.apply(bid, seat)
    return found


def summarise(rows: Iterable[dict[str, Any]], eager: str = "none",
              forecast: bool = False) -> dict[str, Any]:
    """Each sample's mean, with the half-width of its 95% interval and its count."""
    pooled: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for key, values in measure(row, eager).items():
            pooled[key].extend(values)
        if forecast:
            for key, shares in forecasts(row).items():
                pooled[key].extend(shares)
    found = {}
    for key in sorted(pooled):
        samples = pooled[key]
        mean = sum(samples) / len(samples)
        spread = math.sqrt(sum((v - mean) ** 2 for v in samples) / max(1, len(samples) - 1))
        found[key] = {"mean": round(mean, 4),
                      "half": round(1.96 * spread / math.sqrt(len(samples)), 4),
                      "n": len(samples)}
    return found


def _check_row(row: Any) -> None:
    for key in ("deal", "a_team", "leader"):
        if not is_int(row[key]):
            raise TypeError(f"{key} is not a whole number")
    for key, size in (("dealt", 4), ("tricks", 4), ("bids", 4), ("plays", 52)):
        if not isinstance(row[key], list) or len(row[key]) != size:
            raise ValueError(f"{key} does not hold {size} items")
    if not all(is_int(v) for v in (*row["dealt"], *row["tricks"], *row["plays"])):
        raise TypeError("dealt, tricks and plays are whole numbers")
    if row["a_team"] not in (0, 1) or row["leader"] not in range(4):
        raise ValueError("a_team is 0 or 1 and leader a seat")
    for text in row["bids"]:
        parse_bid(text)


def _init(a_name: str, b_name: str) -> None:
    _BOTS.update(a=make_bot(a_name), b=make_bot(b_name))


def _pair(job: tuple[int, tuple[int, int], tuple[int, int]]) -> list[dict[str, Any]]:
    deal, scores, bags = job
    return [play_logged(_BOTS["a"], _BOTS["b"], deal, scores, bags, team, Rules())
            for team in (0, 1)]


def run(a_name: str, b_name: str, pairs: int, seed: int, jobs: int) -> Iterator[dict[str, Any]]:
    work = starts(seed, pairs)
    if jobs <= 1:
        _init(a_name, b_name)
        for job in work:
            yield from _pair(job)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, _init, (a_name, b_name)) as pool:
        for pair in pool.imap(_pair, work, chunksize=1):
            yield from pair


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="tests.sparring.pimc:PimcBot")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--eager", choices=EAGER, default="none")
    parser.add_argument("--forecast", action="store_true",
                        help="A is the Expert: its bid search's forecasts against the table")
    parser.add_argument("--log", type=Path)
    parser.add_argument("--from", dest="source", type=Path)
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.jobs < 1:
        parser.error("--pairs and --jobs must be at least 1")
    try:
        if args.source is not None:
            with args.source.open(encoding="utf-8") as lines:
                rows = read_rows(lines, _check_row, "playout_calibration")
        else:
            for name in (args.a, args.b):
                load_bot(name)
            rows = collect(run(args.a, args.b, args.pairs, args.seed, args.jobs), args.log)
        figures = summarise(rows, args.eager, args.forecast)
    except (UsageError, OSError) as error:
        print(f"playout_calibration: {error}", file=sys.stderr)
        return 2
    print(json.dumps({"hands": len(rows), "eager": args.eager, "figures": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
