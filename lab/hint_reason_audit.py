"""Does the hint say why, and is its why the one the play-outs measure?  Issue 41, the hint.

    python3 lab/hint_reason_audit.py --hands 40 --seed 5141 --jobs 1

Plays the first hand of deals from ``--seed``'s deal numbers (not the project's test deals)
with South the Beginner or the Normal bot (alternately) and the others the Normal bot, and
asks the hint (:func:`spades_core.hints.hint`, against Normal opponents) at each of South's
decisions with a real choice (a bid, or a card where two legal cards play differently).
Each hint is sorted by what its words rest on:

- ``why``: a measured main sentence (``coach.why.*``: the hint's action clearly better than
  the card or bid it names, the sentence chosen by the largest scoring part).  An
  independent judge prices the same two actions on ``--worlds`` other imagined deals
  (:func:`spades_core.pricing.price` with another salt): ``largest_named`` counts the
  sentences whose part is the judge's largest, ``within_noise`` those the judge does not
  find beyond ``NOISE_Z`` standard errors, ``lesson_fits`` those whose lesson (tip) is one
  of the tips that fit the part (:data:`spades_core.reasons.PART_TIPS`);
- ``tie``: "both are fine" (the action and the one it names within the play-outs' noise);
  the judge's verdict on the same pair is counted as ``tie_judged_clear`` where it finds the
  difference beyond its noise after all;
- ``priced``: a clause that gives the play-outs' measure of the card or bid it names (what it
  loses in points, a lesson's rule that bends beyond the noise), or a Nil's odds;
- ``no_reason``: none of these (a sentence from the position's facts alone, or the neutral
  "scores best in the app's simulations" with nothing measured beside it).

It prints one JSON object: the counts and shares; ``--quote N`` adds N hints' English words.
Deterministic, whatever ``--jobs`` is.
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
from spades_core.bids import Bid, parse_bid
from spades_core.bots import bot_action, make_bot
from spades_core.bots.endgame import distinct_cards
from spades_core.cards import Card, parse_card
from spades_core.game import GameState, Phase
from spades_core.hints import hint
from spades_core.pricing import NOISE_Z, price
from spades_core.reasons import HINT_WHYS, PART_TIPS
from spades_core.rules import Rules
from spades_core.seats import Seat
from spades_core.views import View, view_for

JUDGE_SALT = 0x4A1D
TIES = ("coach.not.sims-tie", "coach.not.rule-tie", "coach.not.bid-tie")
PRICED = ("coach.not.sims", "coach.not.sims-close", "coach.not.rule-beaten",
          "coach.not.exception-trump-partner", "coach.not.nil", "coach.not.nil-rare")
ODDS = ("coach.bid.nil-clean", "coach.bid.nil-long", "coach.bid.nil-ace", "coach.bid.nil",
        "coach.bid.blind-nil", "coach.bid.count")
FORCED = ("coach.play.only-card", "coach.play.alike")


def _choice(view: View) -> bool:
    """A decision with a real choice: a bid, or two legal cards that play differently."""
    if view.phase is Phase.BIDDING:
        return view.hand is not None
    mask = 0
    for card in view.legal_plays:
        mask |= card.bit
    in_trick = 0
    for _, card in view.trick:
        in_trick |= card.bit
    return len(distinct_cards(mask, view.unseen_mask() | in_trick)) > 1


def one_hand(task: tuple[int, int, int]) -> list[dict[str, Any]]:
    deal, index, worlds = task
    south = make_bot("beginner" if index % 2 == 0 else "normal")
    normal = make_bot("normal")
    state = GameState.new(Rules(), deal=deal)
    rows = []
    while not state.past_hands and state.phase is not Phase.OVER:
        if state.to_act is Seat.S:
            view = view_for(state, Seat.S)
            if _choice(view):
                rows.append(_judge(view, deal, worlds))
        state = state.apply(bot_action(south if state.to_act is Seat.S else normal, state))
    return rows


def _judge(view: View, deal: int, worlds: int) -> dict[str, Any]:
    found = hint(view, "normal")
    row: dict[str, Any] = {
        "deal": deal, "bid": view.phase is Phase.BIDDING, "reason": found.reason,
        "why": found.why, "said": found.said, "contrast": found.contrast, "tip": found.tip,
        "action": str(found.action), "params": found.params,
        "hint": {"action": None if found.action is None else str(found.action),
                 "tip": found.tip, "reason": found.reason, "params": found.params,
                 "contrast": found.contrast, "why": found.why, "said": found.said},
    }
    other: Card | Bid | None = None
    if "alt" in found.params and isinstance(found.action, Card):
        other = parse_card(found.params["alt"])
    elif "alt_bid" in found.params:
        other = parse_bid(found.params["alt_bid"])
    judge = (price(view, other, found.action, worlds, JUDGE_SALT)
             if other is not None and found.action is not None
             and (found.why or found.contrast in TIES) else None)
    beyond = judge is not None and judge.cost > 0 and judge.cost >= NOISE_Z * judge.se
    if found.why:
        part = HINT_WHYS[found.why][0]
        assert judge is not None
        row.update(kind="why", part=part, judge_largest=judge.parts.largest(),
                   largest_named=judge.parts.largest() == part, within_noise=not beyond,
                   lesson_fits=found.tip in PART_TIPS[part] or found.contrast.startswith(
                       ("coach.not.rule-", "coach.not.exception")),
                   judge_cost=judge.cost, judge_se=judge.se)
    elif found.contrast in TIES:
        row.update(kind="tie", tie_judged_clear=beyond)
    elif found.contrast in PRICED or found.reason in ODDS:
        row.update(kind="priced")
    elif found.reason in FORCED:
        row.update(kind="forced")
    else:
        row.update(kind="no_reason")
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5141, help="seed of the deal numbers")
    parser.add_argument("--worlds", type=int, default=64, help="the judge's imagined deals")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--quote", type=int, default=0, help="quote this many hints (EN)")
    args = parser.parse_args()
    started = time.perf_counter()
    tasks = [(deal, i, args.worlds) for i, deal in enumerate(deal_numbers(args.seed, args.hands))]
    with Pool(max(1, args.jobs)) as pool:
        rows = [row for found in pool.imap(one_hand, tasks, chunksize=1) for row in found]

    def share(key: str, among: list[dict[str, Any]]) -> dict[str, Any]:
        hits = sum(1 for row in among if row.get(key))
        return {"count": hits, "of": len(among),
                "share": round(hits / len(among), 3) if among else None}

    kinds: dict[str, int] = {}
    for row in rows:
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
    whys = [row for row in rows if row["kind"] == "why"]
    ties = [row for row in rows if row["kind"] == "tie"]
    judged = [row for row in rows if row["kind"] != "forced"]
    result: dict[str, Any] = {
        "hands": args.hands, "seed": args.seed, "judge_worlds": args.worlds,
        "decisions": len(rows), "kinds": kinds,
        "with_reason": {"count": len(judged) - kinds.get("no_reason", 0), "of": len(judged),
                        "share": round(1 - kinds.get("no_reason", 0) / len(judged), 3)
                        if judged else None},
        "why_largest_named": share("largest_named", whys),
        "why_within_noise": share("within_noise", whys),
        "why_lesson_fits": share("lesson_fits", whys),
        "tie_judged_clear": share("tie_judged_clear", ties),
        "no_reason_keys": sorted({row["reason"] for row in rows if row["kind"] == "no_reason"}),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.quote:
        from ui.shared import i18n
        from ui.shared.botrunner import hint_from_json

        i18n.load("table", "hints", "coach")
        i18n.set_language("en")
        picked = whys[:args.quote // 2] + [r for r in rows if r["kind"] != "why"][
            :args.quote - min(len(whys), args.quote // 2)]
        result["quotes"] = [
            {"deal": row["deal"], "kind": row["kind"],
             "words": i18n.hint_message(hint_from_json(json.dumps(row["hint"]), row["bid"]))}
            for row in picked]
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
