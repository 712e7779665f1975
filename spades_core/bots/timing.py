"""Decision times of the bot levels over a fixed sample of positions (for the bench).

The sample: the games of deal numbers ``DEALS``, played by the expert's quick play-out
bot (:class:`~.policy.PolicyBot`) at all four seats for their first ``HANDS`` hands; every
bid and every play with more than one legal card is a position, and every ``EVERY``-th
of them is kept.  Each level is asked for its decision on each kept position, and the
wall-clock times give a median, a 95th percentile and a maximum in milliseconds (and the
process's CPU times a median and a 95th percentile, steadier on a busy machine).
"""

from __future__ import annotations

import time
from typing import Any

from ..game import GameState, Phase
from ..rules import Rules
from ..views import View, view_for
from .base import Bot
from .driver import LEVELS, bot_action, make_bot
from .policy import PolicyBot

DEALS = (1, 2, 3)
HANDS = 2
EVERY = 2


def sample_views(
    deals: tuple[int, ...] = DEALS, hands: int = HANDS, every: int = EVERY,
    rules: Rules | None = None,
) -> list[View]:
    """The fixed sample of positions, as the views of the seats to act."""
    rules = rules or Rules()
    driver = PolicyBot()
    found: list[View] = []
    index = 0
    for deal in deals:
        state = GameState.new(rules, deal=deal)
        while state.phase is not Phase.OVER and state.hand_index < hands:
            seat = state.to_act
            assert seat is not None
            if state.phase is Phase.BIDDING or len(state.legal_plays()) > 1:
                if index % every == 0:
                    found.append(view_for(state, seat))
                index += 1
            state = state.apply(bot_action(driver, state))
    return found


def _decide(bot: Bot, view: View) -> object:
    if view.phase is Phase.BIDDING:
        return bot.bid(view)
    return bot.play(view)


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values (nearest rank)."""
    rank = max(1, min(len(ordered), int(q * len(ordered) + 0.999999)))
    return ordered[rank - 1]


def time_bot(bot: Bot, views: list[View]) -> dict[str, float]:
    """Median, 95th percentile and maximum decision times (ms) of ``bot`` on ``views``."""
    times: list[float] = []
    cpu: list[float] = []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        _decide(bot, view)
        times.append((time.perf_counter() - start) * 1000.0)
        cpu.append((time.process_time() - start_cpu) * 1000.0)
    times.sort()
    cpu.sort()
    return {
        "median": round(_quantile(times, 0.5), 2),
        "p95": round(_quantile(times, 0.95), 2),
        "max": round(times[-1], 2),
        "cpu_median": round(_quantile(cpu, 0.5), 2),
        "cpu_p95": round(_quantile(cpu, 0.95), 2),
        "positions": len(times),
    }


def bot_timings(levels: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``{"bot_decision_ms": {level: {median, p95, max, positions}}}`` for each level that
    can be loaded (a level still missing is reported as null)."""
    views = sample_views()
    result: dict[str, Any] = {}
    for level in levels or tuple(LEVELS):
        try:
            bot = make_bot(level)
        except ValueError:
            result[level] = None
            continue
        result[level] = time_bot(bot, views)
    return {"bot_decision_ms": result}
