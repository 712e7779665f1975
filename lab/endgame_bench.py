"""Work of the endgame solver (:mod:`spades_core.bots.endgame`) on fixed positions.

    python3 lab/endgame_bench.py [--tricks 4] [--deals 20] [--worlds 8]

Plays the first hand of deals 1..``--deals`` with the Normal bot at every seat, keeps
each position with ``--tricks`` tricks left (counting the trick in progress) where the
seat to act has a choice, draws ``--worlds`` imagined deals for it as the expert does,
and solves every legal first card of every deal with one solver per deal, as the expert
asks.  Prints JSON: positions, solved deals, search nodes (calls of a turn), CPU seconds
(a second pass, without the counting), the slowest position in ms, and the sum of all
values found, which a change that only makes the solver faster must leave as it is.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.bids import NIL
from spades_core.bots import bot_action, make_bot
from spades_core.bots.endgame import Solver
from spades_core.bots.expert import _Scorer
from spades_core.bots.sampling import deal_worlds, knowledge
from spades_core.deal import SplitMix64
from spades_core.game import GameState, Phase
from spades_core.rules import Rules
from spades_core.views import View, view_for


class _Counting(Solver):
    """A solver that counts its turns."""

    turns = 0

    def _turn(self, *args: object) -> int:
        _Counting.turns += 1
        return super()._turn(*args)  # type: ignore[arg-type]


def _positions(tricks: int, deals: int, worlds: int) -> list[tuple[View, list[list[int]]]]:
    bot = make_bot("normal")
    found: list[tuple[View, list[list[int]]]] = []
    for deal in range(1, deals + 1):
        state = GameState.new(Rules(), deal)
        while not state.past_hands:
            if state.phase is Phase.PLAYING and len(state.legal_plays()) > 1:
                left = sum(state.held_mask(seat).bit_count() for seat in range(4))
                if (left + len(state.trick) + 3) // 4 == tricks:
                    view = view_for(state, state.to_act)  # type: ignore[arg-type]
                    drawn = deal_worlds(knowledge(view), SplitMix64(deal), worlds)
                    found.append((view, [list(world) for world in drawn]))
            state = state.apply(bot_action(bot, state))
    return found


def _solve_all(cases: list[tuple[View, list[list[int]]]],
               solver_class: type[Solver]) -> tuple[int, float, float]:
    total = 0
    slowest = 0.0
    start = time.process_time()
    for view, worlds in cases:
        scorer = _Scorer(view)
        bids = tuple(bid if bid is not None else NIL for bid in view.bids)
        by_seat = (bids[0], bids[1], bids[2], bids[3])
        value = partial(scorer.value, by_seat, memo=scorer.table(by_seat))
        trick = [card.id for _, card in view.trick]
        leader = int(view.leader) if view.leader is not None else int(view.seat)
        began = time.process_time()
        for world in worlds:
            solver = solver_class(scorer.team, value)
            for card in view.legal_plays:
                total += solver.solve(world, leader, trick, view.tricks_won,
                                      view.spades_broken, first=card.id)
        slowest = max(slowest, time.process_time() - began)
    return total, time.process_time() - start, slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tricks", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=8)
    args = parser.parse_args()
    cases = _positions(args.tricks, args.deals, args.worlds)
    check, _, _ = _solve_all(cases, _Counting)
    again, seconds, slowest = _solve_all(cases, Solver)
    assert again == check
    print(json.dumps({
        "tricks": args.tricks, "positions": len(cases),
        "deals_solved": sum(len(worlds) for _, worlds in cases),
        "nodes": _Counting.turns, "cpu_s": round(seconds, 3),
        "slowest_position_ms": round(1000 * slowest, 1), "values_sum": check,
    }))


if __name__ == "__main__":
    main()
