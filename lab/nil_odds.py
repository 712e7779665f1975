"""Are the coach's Nil odds true at the table?  Stated against observed, per bot level.

    python3 lab/nil_odds.py --hands 200 --seed 41 --jobs 1

The hint states how often a Nil is made ("Bid Nil: … made about 8 times in 10", "Not Nil:
it is made only about 3 times in 10"): the share of the Expert's bid search's play-outs
(:func:`spades_core.bots.expert.evaluate`, ``nil_made / nil_worlds``, in tenths) where the
seat took no trick.  The review states the same figure
(:func:`spades_core.review.stated_nil_odds`), on the items it shows: a bid flagged as costly
on its own play-outs (:func:`spades_core.review.confirmed_price`).  This measures both
against the table:
for each level (``--levels``), deals from ``--seed``'s deal numbers (not the project's test
deals) are played with that level's bot at North, East and West and the Expert at South
(the coach's own play, card after card, as a learner following the hints would play);
at South's bid, where the search weighs Nil (the hand could be one), the stated figures
are read, then South bids Nil and the hand is played to its end: the Nil is made when South
takes no trick.  The first ``--hands`` such hands of each level are kept.

It prints one JSON object: per level, the hands, and per stated bucket (the hint's tenths)
the hands, the share made (per cent), the stated figure (per cent), their gap, and whether
the bucket is within ``--tolerance`` points (only buckets of ``--min-bucket`` hands or more
are judged); the same for the review's figure on every hand (``review``) and where the review
shows it (``review_flagged``: the review's item on the bid, South's Nil against the coach's
number or, where the coach bids Nil, the coach's best number against the Nil, priced as the
review prices it and flagged: at least ``MIN_COST`` and clear of noise).  For the record,
``review_128`` and ``review_flagged_own`` are the figure the review stated before issue 41's
change, the share of its own play-outs (its first 128 deals; all its deals where flagged).
``"calibrated"`` is true when every judged bucket of ``hint``, ``review`` and
``review_flagged`` of every level is within the tolerance.  Deterministic: the same
arguments give the same figures, whatever ``--jobs`` is.  ``--log FILE`` appends one JSON
line per Nil hand (with the counts behind each figure: the search's, the review's first
draws, all its draws).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.arena import deal_numbers
from spades_core.bids import NIL, Bid
from spades_core.bots import Bot, bot_action, make_bot
from spades_core.bots.expert import ExpertBot, evaluate
from spades_core.game import GameState, Phase
from spades_core.review import MIN_COST, WORLDS, confirmed_price, price, stated_nil_odds
from spades_core.rules import Rules
from spades_core.seats import Seat
from spades_core.views import view_for

LEVELS = ("beginner", "normal", "expert")
_BOTS: dict[str, Bot] = {}
_SOUTH = ExpertBot()  # the coach's own play at South


def _bot(level: str) -> Bot:
    if level not in _BOTS:
        _BOTS[level] = make_bot(level)
    return _BOTS[level]


def _in_ten(made: int, worlds: int) -> int:
    """The hint's rounding: ``made`` of ``worlds`` in tenths, to the nearest."""
    return (20 * made + worlds) // (2 * worlds)


def one_hand(task: tuple[str, int]) -> dict[str, Any] | None:
    """One deal at one level: the stated figures at South's bid and whether South's Nil
    was made; None when the search does not weigh Nil there (or Nil may not be bid)."""
    level, deal = task
    state = GameState.new(Rules(), deal=deal)
    others, south = _bot(level), _SOUTH
    while state.to_act is not Seat.S:
        state = state.apply(bot_action(others, state))
    view = view_for(state, Seat.S)
    if NIL not in view.legal_bids:
        return None
    found = evaluate(view, south.budget)
    if not found.nil_worlds:
        return None
    number = next((c.action for c in found.candidates
                   if isinstance(c.action, Bid) and not c.action.is_nil), Bid(1))
    # The review's item on this bid: the Nil played against the coach's number, or where the
    # coach bids Nil, the coach's best number played against it; priced as the review does.
    coach_nil = found.best == NIL
    played, better = (number, NIL) if coach_nil else (NIL, number)
    priced = confirmed_price(view, played, better)
    nil = 1 if played.is_nil else 0
    first = price(view, played, better) if priced.worlds > 2 * WORLDS else priced
    state = state.apply(NIL)
    made = True
    while not state.past_hands and state.phase is not Phase.OVER:
        if state.tricks_won[int(Seat.S)]:  # the Nil is broken: the rest changes nothing
            made = False
            break
        bot = south if state.to_act is Seat.S else others
        state = state.apply(bot_action(bot, state))
    if state.past_hands:
        made = state.past_hands[0].tricks[int(Seat.S)] == 0
    return {"level": level, "deal": deal, "hint": _in_ten(found.nil_made, found.nil_worlds),
            "review": int(stated_nil_odds(found, priced, played.is_nil)),
            "flagged": priced.cost >= MIN_COST and priced.clear,
            "review_128": _in_ten(first.nil_made[nil], first.worlds),
            "search": [found.nil_made, found.nil_worlds],
            "first": [first.nil_made[nil], first.worlds],
            "all": [priced.nil_made[nil], priced.worlds],
            "made": made, "coach_bids_nil": coach_nil}


def _tasks(level: str, seed: int, limit: int) -> Iterator[tuple[str, int]]:
    for deal in deal_numbers(seed, limit):
        yield level, deal


def table(rows: list[dict[str, Any]], key: str, tolerance: int,
          min_bucket: int) -> dict[str, Any]:
    """Per stated bucket (tenths): hands, made (per cent), stated, gap, within."""
    buckets: dict[int, list[bool]] = {}
    for row in rows:
        buckets.setdefault(row[key], []).append(row["made"])
    found: dict[str, Any] = {}
    for bucket in sorted(buckets):
        made = buckets[bucket]
        share = round(100 * sum(made) / len(made), 1)
        gap = round(share - 10 * bucket, 1)
        found[str(bucket)] = {"hands": len(made), "made_pct": share, "stated_pct": 10 * bucket,
                              "gap": gap,
                              "within": abs(gap) <= tolerance if len(made) >= min_bucket
                              else None}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="Nil hands per level")
    parser.add_argument("--seed", type=int, default=41, help="seed of the deal numbers")
    parser.add_argument("--levels", default=",".join(LEVELS), help="bot levels, comma-separated")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-deals", type=int, default=20000, help="deals tried per level")
    parser.add_argument("--tolerance", type=int, default=10, help="points either way")
    parser.add_argument("--min-bucket", type=int, default=30, help="hands to judge a bucket")
    parser.add_argument("--log", help="write one JSON line per Nil hand to this file")
    args = parser.parse_args()
    started = time.perf_counter()
    levels = [name for name in args.levels.split(",") if name]
    result: dict[str, Any] = {"seed": args.seed, "hands_per_level": args.hands,
                              "south": "expert", "levels": {}}
    calibrated = True
    for level in levels:
        rows: list[dict[str, Any]] = []
        deals = 0
        with Pool(max(1, args.jobs)) as pool:  # left at the level's last hand (terminated)
            for row in pool.imap(one_hand, _tasks(level, args.seed, args.max_deals),
                                 chunksize=1):
                deals += 1
                if row is not None:
                    rows.append(row)
                    if len(rows) >= args.hands:
                        break
        if args.log:
            with open(args.log, "a", encoding="utf-8") as log:
                for row in rows:
                    log.write(json.dumps(row) + "\n")
        hint = table(rows, "hint", args.tolerance, args.min_bucket)
        review = table(rows, "review", args.tolerance, args.min_bucket)
        shown = [row for row in rows if row["flagged"]]
        flagged = table(shown, "review", args.tolerance, args.min_bucket)
        coach = [row for row in rows if row["coach_bids_nil"]]
        ok = all(b["within"] is not False for t in (hint, review, flagged) for b in t.values())
        calibrated &= ok
        result["levels"][level] = {
            "deals": deals, "hands": len(rows),
            "made_pct": round(100 * sum(r["made"] for r in rows) / max(1, len(rows)), 1),
            "coach_bids_nil": len(coach),
            "coach_nil_made_pct": round(100 * sum(r["made"] for r in coach)
                                        / max(1, len(coach)), 1),
            "hint": hint, "review": review,
            "review_flagged": {"hands": len(shown), "buckets": flagged},
            # the review's own play-outs' figure (before issue 41's change), for the record:
            # its first two draws (128 deals) on every hand, and all its draws where flagged
            "review_128": table(rows, "review_128", args.tolerance, args.min_bucket),
            "review_flagged_own": table([{**r, "own": _in_ten(*r["all"])} for r in shown],
                                        "own", args.tolerance, args.min_bucket),
            "calibrated": ok}
    result["calibrated"] = calibrated
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
