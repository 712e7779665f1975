"""How well a hand evaluator predicts the tricks a hand takes: prints figures as JSON.

    python3 lab/handeval_mse.py [--deals 4000] [--seed 1] [--jokers]

For ``--deals`` deal numbers drawn from ``SplitMix64(--seed)`` (the arena's
:func:`~spades_core.arena.deal_numbers`), the first hand of each deal is played out
twice with the Expert's play-out player (:func:`spades_core.bots.rollout.play_out`):

- ``eager``: both teams play for every trick (what a hand can take);
- ``contract``: each seat bids its rounded estimate and the players duck once their
  contract is made, as at the table.

Each evaluator's estimate of each of the four hands is compared with the tricks that
seat took: ``mse`` (mean squared error per seat), ``bias`` (estimate minus tricks, on
average), ``team_mse`` (the two partners' estimates added, against their tricks) and
``bid_mse`` (the rounded estimate, a bid, against the tricks), and over the hands of six
spades or more, ``six_spades_bias`` and ``six_spades_bid_bias`` (the bid minus the
tricks).  Lower is better.  ``normal_bid`` gives the same for the Normal bot's plain bid
(:func:`spades_core.bots.strategy.bid_tricks`: rounded down with six spades or more),
against the eager play-outs.

The evaluators: :func:`spades_core.bots.handeval.estimate_tricks` (the one the bots use),
``removed``, the second evaluator the project had until main cb87981 (``strategy.estimate``,
which the Normal bot bid with, copied below in quarter tricks so the comparison can be
repeated), and any ``--old module:function(hand, jokers) -> float`` to compare with.
Everything is deterministic: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.arena import deal_numbers
from spades_core.bids import Bid
from spades_core.bots.handeval import estimate_tricks
from spades_core.bots.rollout import Contracts, play_out
from spades_core.bots.strategy import bid_tricks
from spades_core.cards import SPADES_MASK, SUIT_MASKS
from spades_core.deal import deal_hand
from spades_core.rules import Rules

Evaluator = Callable[[int, bool], float]


def _handeval(hand: int, jokers: bool) -> float:
    return estimate_tricks(hand, jokers)


def _removed(hand: int, jokers: bool) -> float:
    """``strategy.estimate(hand, jokers).total / 4`` as of main cb87981 (quarter tricks)."""
    side = 0
    shorts = 0
    for suit in (0, 1, 2):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        ace = bool(cards >> (suit * 13 + 12) & 1)
        king = bool(cards >> (suit * 13 + 11) & 1)
        if ace:
            side += 4 if length <= 6 else 2
        queen = bool(cards >> (suit * 13 + 10) & 1)
        if king:
            if ace:
                side += 4 if length <= 5 else 2 if length == 6 else 0
            elif 2 <= length <= 3:
                side += 2
            elif 4 <= length <= 5:
                side += 1
        if queen and (ace or king) and 3 <= length <= 4:
            side += 1
        if length >= 5 and (ace or king or queen):
            side += 1
        if length <= 1 and not (ace and length == 1):
            shorts += 1
    spades = hand & SPADES_MASK
    count = spades.bit_count()
    top, second, third = (53, 52, 51) if jokers else (51, 50, 49)
    high = 0
    if spades >> top & 1:
        high += 4
    if spades >> second & 1:
        high += 4 if count >= 2 else 2
    if spades >> third & 1 and count >= 2:
        high += 2 if count >= 3 else 1
    length = max(0, count - (4 if jokers else 3)) * 4
    spare = max(0, count - 1 - (high + 3) // 4)
    ruffs = min(shorts * 2, spare * 2)
    return (side + high + length + ruffs) / 4


def _load(name: str) -> Evaluator:
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


class Score:
    """Squared errors and biases of one evaluator against one way of playing."""

    def __init__(self) -> None:
        self.n = 0
        self.teams = 0
        self.sq = 0.0
        self.diff = 0.0
        self.team_sq = 0.0
        self.bid_sq = 0.0
        self.long_n = 0  # hands of six spades or more
        self.long_diff = 0.0
        self.long_bid_diff = 0

    def add(self, hands: tuple[int, ...], estimates: list[float],
            taken: tuple[int, int, int, int], bids: list[int] | None = None) -> None:
        for seat in range(4):
            error = estimates[seat] - taken[seat]
            self.n += 1
            self.sq += error * error
            self.diff += error
            bid = max(1, min(13, int(estimates[seat] + 0.5))) if bids is None else bids[seat]
            self.bid_sq += (bid - taken[seat]) ** 2
            if (hands[seat] & SPADES_MASK).bit_count() >= 6:
                self.long_n += 1
                self.long_diff += error
                self.long_bid_diff += bid - taken[seat]
        for team in (0, 1):
            error = estimates[team] + estimates[team + 2] - taken[team] - taken[team + 2]
            self.teams += 1
            self.team_sq += error * error

    def figures(self) -> dict[str, float]:
        return {
            "mse": round(self.sq / self.n, 3),
            "bias": round(self.diff / self.n, 3),
            "team_mse": round(self.team_sq / self.teams, 3),
            "bid_mse": round(self.bid_sq / self.n, 3),
            "six_spades_hands": self.long_n,
            "six_spades_bias": round(self.long_diff / max(1, self.long_n), 3),
            "six_spades_bid_bias": round(self.long_bid_diff / max(1, self.long_n), 3),
        }


def measure(evaluators: dict[str, Evaluator], deals: int, seed: int,
            jokers: bool) -> dict[str, object]:
    rules = Rules(jokers=jokers)
    scores = {(name, way): Score() for name in evaluators for way in ("eager", "contract")}
    normal = Score()
    for deal in deal_numbers(seed, deals):
        hands = deal_hand(deal, 0, rules.deck_mask)
        leader = 1  # the dealer of hand 0 is North (seat 0): East leads
        eager = play_out(hands, leader, (), (0, 0, 0, 0), False,
                         Contracts((0, 0, 0, 0), (False,) * 4, (True, True)))
        normal.add(hands, [float(bid_tricks(hand, jokers)) for hand in hands], eager,
                   [bid_tricks(hand, jokers) for hand in hands])
        for name, evaluator in evaluators.items():
            estimates = [evaluator(hand, jokers) for hand in hands]
            bids = [Bid(max(1, min(13, int(value + 0.5)))) for value in estimates]
            played = play_out(hands, leader, (), (0, 0, 0, 0), False, Contracts.of(bids))
            scores[name, "eager"].add(hands, estimates, eager)
            scores[name, "contract"].add(hands, estimates, played)
    return {
        "deals": deals, "seed": seed, "jokers": jokers,
        "figures": {
            name: {way: scores[name, way].figures() for way in ("eager", "contract")}
            for name in evaluators
        },
        "normal_bid": normal.figures(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jokers", action="store_true")
    parser.add_argument("--old", action="append", default=[],
                        help="another evaluator, module:function(hand, jokers) -> float")
    args = parser.parse_args(argv)
    evaluators: dict[str, Evaluator] = {"handeval": _handeval, "removed": _removed}
    for name in args.old:
        evaluators[name] = _load(name)
    print(json.dumps(measure(evaluators, args.deals, args.seed, args.jokers), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
