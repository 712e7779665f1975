"""Does the review say why, and only where it is sure?  The bar of issue 41, measured.

    python3 lab/review_audit.py --hands 60 --seed 9041 --jobs 2

Plays the first hand of deals from ``--seed``'s deal numbers (not the project's test deals)
with South the Beginner or the Normal bot (alternately) and the others the Normal bot,
reviews South's decisions (:func:`spades_core.review.review_hand`), and checks every
flagged item against an independent judge: the same two actions priced again on
``--worlds`` other imagined deals (:func:`spades_core.review.price` with another salt).
It prints one JSON object:

- ``largest_named``: items whose main sentence names the part that makes most of the
  cost on the judge's deals (the sentence's part, read from its key, against
  :meth:`~spades_core.review.Parts.largest` of the judge's split);
- ``with_reason``: items whose main sentence is one of the review's reasons (none neutral);
- ``lesson_fits``: items whose lesson (tip) is one of the tips that fit the sentence's
  part (:data:`spades_core.review.PART_TIPS`);
- ``within_noise``: items whose cost on the judge's deals is under ``NOISE_Z`` of its
  standard errors there (or none); ``costs_nothing``: those it finds costing
  nothing or less;
- ``contrast_played`` / ``contrasts``: contrast clauses about the card played, of all.

Each as a count and a share of the flagged items.  ``--quote N`` adds the first N items'
English words (the page's review sentence); ``--misses`` lists the items misnamed or
within noise, with the review's split and the judge's.  Deterministic, whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.arena import deal_numbers
from spades_core.bids import Bid
from spades_core.bots import bot_action, make_bot
from spades_core.game import GameState, Phase
from spades_core.hints import NEUTRAL, NEUTRAL_BID
from spades_core.review import (
    NOISE_Z,
    PART_TIPS,
    REASON_KEYS,
    hand_states,
    price,
    review_hand,
    review_to_dict,
)
from spades_core.rules import Rules
from spades_core.seats import Seat
from spades_core.views import view_for

JUDGE_SALT = 0x1D6E

#: The part each main sentence names, by its key (``review.why.*``).
PART_OF = {
    "bag-made-won": "our-bags", "bag-made": "our-bags", "bags-over": "our-bags",
    "bags": "our-bags", "bid-bags": "our-bags",
    "set-us": "our-contract", "need-us": "our-contract", "our-contract": "our-contract",
    "bid-higher": "our-contract", "bid-lower": "our-contract",
    "my-nil-won": "our-nil", "my-nil": "our-nil", "partner-nil-lost": "our-nil",
    "partner-nil": "our-nil", "our-nil": "our-nil", "bid-nil": "our-nil",
    "bid-no-nil": "our-nil", "bid-cover": "our-nil",
    "their-made": "their-contract", "their-contract": "their-contract",
    "their-bags": "their-bags", "their-nil": "their-nil", "their-nils": "their-nil",
}


def part_of(reason: str) -> str:
    name = reason.removeprefix("review.why.")
    return name.removeprefix("bid.") if name.startswith("bid.") else PART_OF[name]


def one_hand(task: tuple[int, int, int]) -> list[dict[str, Any]]:
    """The flagged items of one hand, each with the judge's verdicts."""
    deal, index, worlds = task
    south = make_bot("beginner" if index % 2 == 0 else "normal")
    normal = make_bot("normal")
    state = GameState.new(Rules(), deal=deal)
    while not state.past_hands and state.phase is not Phase.OVER:
        state = state.apply(bot_action(south if state.to_act is Seat.S else normal, state))
    review = review_hand(state, 0, Seat.S)
    states = hand_states(state, 0)
    found = []
    datas = review_to_dict(review)["items"]
    assert isinstance(datas, list)
    for item, data in zip(review.items, datas, strict=True):
        view = view_for(states[item.action_index], Seat.S)
        judge = price(view, item.played, item.better, worlds, JUDGE_SALT)
        part = part_of(item.reason)
        fits = PART_TIPS[part] if part != "our-nil" else ("nil-hand", "cover-partner-nil")
        contrast = item.contrast
        found.append({
            "deal": deal, "item": data, "part": part,
            "largest_named": judge.parts.largest() == part,
            "with_reason": item.reason in REASON_KEYS and item.reason not in (NEUTRAL, NEUTRAL_BID),
            "lesson_fits": item.tip in fits,
            # the judge's own deals (two draws, pooled): the cost under NOISE_Z of its
            # standard errors
            "within_noise": not (judge.cost > 0 and judge.cost >= NOISE_Z * judge.se),
            "costs_nothing": judge.cost <= 0,
            "judge_cost": judge.cost, "judge_se": judge.se,
            "judge_parts": dict(judge.parts.named()), "judge_largest": judge.parts.largest(),
            "index": item.action_index,
            "contrast": bool(contrast),
            "contrast_played": bool(contrast) and not isinstance(item.played, Bid)
            and item.params.get("alt") == str(item.played),
        })
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9041, help="seed of the deal numbers")
    parser.add_argument("--worlds", type=int, default=64, help="the judge's imagined deals")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--quote", type=int, default=0, help="quote this many items (EN)")
    parser.add_argument("--misses", action="store_true",
                        help="list the items misnamed or within noise, with both splits")
    args = parser.parse_args()
    started = time.perf_counter()
    tasks = [(deal, i, args.worlds) for i, deal in enumerate(deal_numbers(args.seed, args.hands))]
    with Pool(max(1, args.jobs)) as pool:
        rows = [row for found in pool.imap(one_hand, tasks, chunksize=1) for row in found]
    count = len(rows)

    def share(key: str, among: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        pool_ = rows if among is None else among
        hits = sum(1 for row in pool_ if row[key])
        return {"count": hits, "of": len(pool_),
                "share": round(hits / len(pool_), 3) if pool_ else None}

    result: dict[str, Any] = {
        "hands": args.hands, "seed": args.seed, "judge_worlds": args.worlds, "flagged": count,
        "largest_named": share("largest_named"), "with_reason": share("with_reason"),
        "lesson_fits": share("lesson_fits"), "within_noise": share("within_noise"),
        "costs_nothing": share("costs_nothing"),
        "contrast_played": share("contrast_played", [r for r in rows if r["contrast"]]),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.quote:
        from ui.shared import i18n

        i18n.load("table", "hints", "coach")
        i18n.set_language("en")
        result["quotes"] = [
            {"deal": row["deal"], "played": row["item"]["played"],
             "better": row["item"]["better"], "cost": row["item"]["cost"],
             "se": row["item"]["se"], "words": i18n.review_sentence(row["item"])}
            for row in rows[:args.quote]]
    if args.misses:
        result["misses"] = [
            {"deal": row["deal"], "index": row["index"], "played": row["item"]["played"],
             "better": row["item"]["better"], "reason": row["item"]["reason"],
             "cost": row["item"]["cost"], "se": row["item"]["se"],
             "parts": row["item"]["parts"], "judge_cost": row["judge_cost"],
             "judge_se": row["judge_se"], "judge_parts": row["judge_parts"],
             "judge_largest": row["judge_largest"], "named": row["largest_named"],
             "noise": row["within_noise"]}
            for row in rows if not row["largest_named"] or row["within_noise"]]
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
