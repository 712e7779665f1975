"""The expert in steps (for the page's main thread): run to its end, the search in steps
returns exactly the action of the direct path, and it pauses often enough to keep a page
responsive."""

from __future__ import annotations

import time

import pytest

from spades_core import GameState, Phase, Rules
from spades_core.bots import bot_action, make_bot
from spades_core.bots.expert import ExpertBot, ExpertBudget, action_steps, run_steps
from spades_core.record import dumps
from spades_core.views import view_for
from tests.helpers import drain

# the same code paths as the full budget, less work; Blind Nil always weighed
QUICK = ExpertBudget(play_cards=1500, min_worlds=3, max_worlds=12, bid_worlds=8,
                     blind_worlds=6, blind_behind=-1000, blind_close=10_000)


def states(rules: Rules, deal: int, hands: int, bot: ExpertBot) -> list[GameState]:
    """Every position where a seat must act, over ``hands`` hands played by ``bot``."""
    found: list[GameState] = []
    state = GameState.new(rules, deal=deal)
    while state.phase is not Phase.OVER and state.hand_index < hands:
        found.append(state)
        state = state.apply(bot_action(bot, state))
    return found


def steps_of(bot: ExpertBot, state: GameState) -> tuple[object, int]:
    """The action of the steps path and how many steps it took."""
    return drain(action_steps(bot, state))


@pytest.mark.parametrize(
    ("rules", "deal"),
    [
        (Rules(target=200), 101),
        (Rules(target=200, jokers=True), 202),
        (Rules(target=200, blind_nil=False), 303),
        (Rules(target=200, jokers=True, floor=None, nil_value=50), 404),
    ],
)
def test_steps_give_the_direct_decision_over_many_views(rules: Rules, deal: int) -> None:
    bot = ExpertBot(QUICK)
    positions = states(rules, deal, 3, bot)
    assert len(positions) > 100
    fresh = ExpertBot(QUICK)  # no state shared with the bot that made the positions
    sliced = 0
    for state in positions:
        action, count = steps_of(fresh, state)
        assert action == bot_action(bot, state), dumps(state)
        sliced += count > 1
    assert sliced > len(positions) // 2  # most decisions are searched in several steps


def test_full_budget_steps_give_the_direct_decision() -> None:
    bot = ExpertBot()
    positions = states(Rules(), 20261129, 1, bot)
    for state in positions[:4] + positions[4:56:3]:
        assert run_steps(action_steps(bot, state)) == bot_action(bot, state)


def test_bid_play_and_blind_nil_run_their_steps() -> None:
    bot = ExpertBot(QUICK)
    for state in states(Rules(target=200), 505, 1, bot)[:12]:
        seat = state.to_act
        assert seat is not None
        if state.phase is Phase.BIDDING:
            blind_view = view_for(state, seat, hand_seen=False)
            assert run_steps(bot.blind_nil_steps(blind_view)) == bot.blind_nil(blind_view)
            view = view_for(state, seat)
            assert run_steps(bot.bid_steps(view)) == bot.bid(view)
        else:
            view = view_for(state, seat)
            assert run_steps(bot.play_steps(view)) == bot.play(view)


def test_other_bots_decide_in_one_step() -> None:
    state = GameState.new(Rules(), deal=9)
    for level in ("beginner", "normal"):
        bot = make_bot(level)
        steps = action_steps(bot, state)
        with pytest.raises(StopIteration) as done:
            next(steps)
        assert done.value.value == bot_action(bot, state)


def test_steps_are_short_at_full_budget() -> None:
    """No step is more than a small part of a decision: the page's main thread lets the
    page breathe between slices of about 25 ms (a step was about 13 ms at most in CPython,
    drawing the imagined deals; Pyodide is two to three times slower).  Relative to the
    longest decision, and in CPU time, so that a loaded machine does not fail it."""
    bot = ExpertBot()
    longest_step = longest_decision = 0.0
    for state in states(Rules(), 77, 1, bot)[::3]:
        steps = action_steps(bot, state)
        decision = time.process_time()
        while True:
            begin = time.process_time()
            try:
                next(steps)
            except StopIteration:
                break
            finally:
                longest_step = max(longest_step, time.process_time() - begin)
        longest_decision = max(longest_decision, time.process_time() - decision)
    assert longest_step < 0.5 * longest_decision, (longest_step, longest_decision)
