"""The measurement behind the choice of the bots' path (issue 11, item 4; docs/engine-api.md).

Until commit cb87981 the engine had an in-place ``Game`` (``Game.position``, ``game.act``), a
fast path that only the benchmark used, while the expert's search played its imagined deals
out on masks (``bots/rollout.py``).  This script runs the expert's play-outs both ways: on
that ``Game`` (:func:`play_out_game`, the same play-out player, ``rollout.policy_card``, the
rules applied by the engine) and on ``rollout.play_out``; it checks that they give the same
tricks, then prints the play-outs' cards played per second and the expert's decision time
on both paths (the second at a budget cut by ``--scale``, to find the budget that takes the
same time).  :class:`GamePathExpert` is the expert on ``Game`` at that equal-time budget,
for the arena.  It needs the engine of cb87981 (the ``Game`` has gone since)::

    mkdir -p /tmp/cb87981 && git archive cb87981 | tar -x -C /tmp/cb87981
    cp lab/search_paths.py /tmp/cb87981/
    cd /tmp/cb87981 && PYTHONPATH=. python3 search_paths.py --scale 3.2
    PYTHONPATH=. python3 -m spades_core arena --a expert --b search_paths:GamePathExpert \\
        --games 400 --seed 7 --jobs 1          # GAMEPATH_SCALE=3.2 by default
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from spades_core.bids import Bid
from spades_core.bots import expert, rollout
from spades_core.bots.rollout import Contracts, policy_card
from spades_core.bots.timing import sample_views, time_bot
from spades_core.cards import CARDS, STANDARD_DECK_MASK, SUIT_OF
from spades_core.game import Game  # type: ignore[attr-defined]  # cb87981's engine
from spades_core.rules import BEATEN_BY, Rules
from spades_core.seats import SEATS
from spades_core.views import View

_RULES = Rules()
_JOKER_RULES = Rules(jokers=True)


def play_out_game(
    hands: Sequence[int], leader: int, trick: Sequence[int], tricks: Sequence[int],
    broken: bool, contracts: Contracts, first: int = -1,
) -> tuple[int, int, int, int]:
    """``rollout.play_out`` on the engine's in-place ``Game``: the engine checks each card,
    finds the seat to act and the trick's winner; the player is ``rollout.policy_card``,
    asked with what it is asked on the masks' path."""
    union = hands[0] | hands[1] | hands[2] | hands[3]
    for card in trick:
        union |= 1 << card
    bids = contracts.bids
    game = Game.position(
        _JOKER_RULES if union & ~STANDARD_DECK_MASK else _RULES, list(hands),
        leader=SEATS[leader], bids=[Bid(b) for b in bids], trick=[CARDS[c] for c in trick],
        tricks=tricks, spades_broken=broken,
    )
    eager = contracts.eager
    taken = list(tricks)
    nil_alive = [contracts.nil[s] and not taken[s] for s in range(4)]
    nils = any(nil_alive)
    need = [bids[0] + bids[2] - taken[0] - taken[2], bids[1] + bids[3] - taken[1] - taken[3]]
    remaining = union
    for card in trick:
        remaining ^= 1 << card
    count = len(trick)
    tricks_left = (remaining.bit_count() + count + 3) >> 2
    led = SUIT_OF[trick[0]] if count else -1
    win_card = win_seat = -1
    for position, card in enumerate(trick):
        if position == 0 or BEATEN_BY[win_card] >> card & 1:
            win_card, win_seat = card, (leader + position) & 3
    act = game.act
    while True:
        to_act = game.to_act
        if to_act is None:
            break
        seat = int(to_act)
        legal = game.legal_play_mask()
        if first >= 0:
            card, first = first, -1
        elif legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        else:
            hand = game.held_mask(seat)
            team = seat & 1
            card = policy_card(
                seat, hand, legal, count, led, win_card, win_seat, remaining ^ hand,
                nil_alive, nils, need[team], need[1 - team], tricks_left, eager[team],
            )
        act(CARDS[card])
        remaining ^= 1 << card
        if count == 0:
            led = SUIT_OF[card]
            win_card, win_seat = card, seat
            count = 1
        else:
            if BEATEN_BY[win_card] >> card & 1:
                win_card, win_seat = card, seat
            count += 1
            if count == 4:
                need[win_seat & 1] -= 1
                if nils and nil_alive[win_seat]:
                    nil_alive[win_seat] = False
                    nils = any(nil_alive)
                tricks_left -= 1
                count = 0
    result: tuple[int, int, int, int] = game.past_hands[-1].tricks
    return result


def scaled_budget(scale: float) -> expert.ExpertBudget:
    """The expert's budget with every count of work divided by ``scale``."""
    full = expert.ExpertBudget()
    return expert.ExpertBudget(
        play_cards=round(full.play_cards / scale),
        min_worlds=max(1, round(full.min_worlds / scale)),
        max_worlds=round(full.max_worlds / scale),
        bid_worlds=round(full.bid_worlds / scale),
        blind_worlds=round(full.blind_worlds / scale),
    )


class GamePathExpert(expert.ExpertBot):
    """The expert with its play-outs on ``Game``, at the budget cut by ``GAMEPATH_SCALE``."""

    def __init__(self) -> None:
        super().__init__(scaled_budget(float(os.environ.get("GAMEPATH_SCALE", "3.2"))))

    def _on_game(self, method: Callable[[expert.ExpertBot, View], Any], view: View) -> Any:
        saved = expert.play_out
        expert.play_out = play_out_game  # type: ignore[assignment]
        try:
            return method(self, view)
        finally:
            expert.play_out = saved

    def play(self, view: View) -> Any:
        return self._on_game(expert.ExpertBot.play, view)

    def bid(self, view: View) -> Any:
        return self._on_game(expert.ExpertBot.bid, view)

    def blind_nil(self, view: View) -> Any:
        return self._on_game(expert.ExpertBot.blind_nil, view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=3.2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    views = sample_views()  # the bench's sample of positions
    calls: list[tuple[Any, ...]] = []
    original = rollout.play_out

    def recording(*arguments: Any, **options: Any) -> tuple[int, int, int, int]:
        calls.append((arguments, options))
        return original(*arguments, **options)

    expert.play_out = recording  # type: ignore[assignment]
    bot = expert.ExpertBot()
    for view in views:
        bot.bid(view) if view.legal_bids else bot.play(view)
    expert.play_out = original
    plays = sum(sum(hand.bit_count() for hand in arguments[0]) for arguments, _ in calls)
    same = all(original(*a, **o) == play_out_game(*a, **o) for a, o in calls)
    print(f"{len(calls)} play-outs of the expert's decisions on {len(views)} positions, "
          f"{plays} cards; the same tricks on both paths: {same}")
    for _ in range(args.rounds):
        for name, run in (("rollout.play_out", original), ("Game", play_out_game)):
            start = time.process_time()
            for arguments, options in calls:
                run(*arguments, **options)
            seconds = time.process_time() - start
            print(f"  {name}: {plays / seconds:,.0f} cards played per second")
    for _ in range(args.rounds):
        for name, player in (("expert on rollout.play_out, full budget", expert.ExpertBot()),
                             (f"expert on Game, budget / {args.scale}", GamePathExpert())):
            start = time.process_time()
            figures = time_bot(player, views)
            print(f"  {name}: {time.process_time() - start:.2f} s CPU, "
                  f"median {figures['cpu_median']} ms, p95 {figures['cpu_p95']} ms")


if __name__ == "__main__":
    os.environ.setdefault("GAMEPATH_SCALE", "3.2")
    main()
