"""Does the hint avoid the costly cards the old hint suggested?  (issue 12, "What must hold")

The old hint was the Normal bot's rule that fired.  This plays games where every seat is the
Normal bot (South follows the old hint), on deals drawn from ``--seed`` (not the project's
test deals), and at each of South's card decisions with a real choice asks an independent
judge: every other distinct card played out against the Normal card in ``--worlds`` imagined
deals (:func:`spades_core.review.price` with its own salt, so not the review's deals).
A position is *costly* where the judge's best card, priced again against the Normal card on
fresh deals (another salt: the best of several noisy estimates is biased upwards), beats it by
``--cost`` points or more.
It prints one JSON object: decisions, costly positions, in how many of them today's hint
suggests another card (the issue asks ≥ 90%), and in how many the hint's card is itself
within ``--cost`` of the judge's best.

    python3 lab/hint_audit.py --hands 30 --seed 424242
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core import GameState, Rules, Seat
from spades_core.arena import deal_numbers
from spades_core.bots import make_bot
from spades_core.bots.driver import bot_action
from spades_core.bots.endgame import distinct_cards
from spades_core.cards import CARDS, Card
from spades_core.game import Phase
from spades_core.hints import hint
from spades_core.review import price
from spades_core.views import view_for

JUDGE_SALT = 0xA0D17
CONFIRM_SALT = 0xC0F1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="hands to play (default 30)")
    parser.add_argument("--seed", type=int, default=424242, help="seed of the deal numbers")
    parser.add_argument("--worlds", type=int, default=128, help="judge's deals per card")
    parser.add_argument("--cost", type=float, default=5.0, help="costly from (points)")
    args = parser.parse_args()
    normal = make_bot("normal")
    threshold = round(args.cost * 10)
    decisions = costly = avoided = near_best = 0
    gains: list[int] = []
    started = time.perf_counter()
    hands = 0
    for deal in deal_numbers(args.seed, args.hands):
        if hands >= args.hands:
            break
        state = GameState.new(Rules(), deal=deal)
        while state.phase is not Phase.OVER and len(state.past_hands) < 1:
            seat = state.to_act
            assert seat is not None
            action = bot_action(normal, state)
            if state.phase is Phase.PLAYING:
                view = view_for(state, seat)
                if seat is Seat.S:
                    legal = sum(card.bit for card in view.legal_plays)
                    in_trick = sum(card.bit for _, card in view.trick)
                    options = distinct_cards(legal, view.unseen_mask() | in_trick)
                    if len(options) > 1:
                        decisions += 1
                        assert isinstance(action, Card)
                        judged = {card: price(view, action, CARDS[card], args.worlds,
                                              JUDGE_SALT).cost
                                  for card in options if card != action.id}
                        # the judge's best card, then its cost re-measured on fresh deals
                        # (the maximum over noisy estimates is biased upwards)
                        rival = max(judged, key=lambda card: (judged[card], -card))
                        best = price(view, action, CARDS[rival], args.worlds,
                                     CONFIRM_SALT).cost
                        if best >= threshold:
                            costly += 1
                            suggested = hint(view).action
                            assert isinstance(suggested, Card)
                            same_run = len(distinct_cards(
                                suggested.bit | action.bit,
                                view.unseen_mask() | in_trick)) == 1
                            if not same_run:
                                avoided += 1
                            gain = 0 if same_run else judged.get(
                                min(c for c in options if len(distinct_cards(
                                    CARDS[c].bit | suggested.bit,
                                    view.unseen_mask() | in_trick)) == 1), 0)
                            gains.append(gain)
                            if best - gain < threshold:
                                near_best += 1
            state = state.apply(action)
        hands += 1
    print(json.dumps({
        "hands": hands, "seed": args.seed, "worlds": args.worlds, "cost_points": args.cost,
        "south_decisions": decisions, "costly": costly,
        "hint_avoids_costly_card": avoided,
        "share_avoided": round(avoided / costly, 4) if costly else None,
        "hint_within_cost_of_judge_best": near_best,
        "mean_gain_of_hint_over_old_points": round(sum(gains) / len(gains) / 10, 2)
        if gains else None,
        "seconds": round(time.perf_counter() - started, 1),
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
