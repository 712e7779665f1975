"""The end of today's daily deal: its "Daily deal" button says the deal is done and offers to
play it again (issue 40, break 5)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from spades_core import GameState
from spades_core.bots import bot_action, make_bot
from spades_core.record import to_dict
from spades_core.rules import DAILY_RULES

from .apphelpers import FAST, open_app, preset, step, stored

pytestmark = pytest.mark.browser

Shot = Callable[[Page, str], Path]
TODAY = datetime.datetime(2026, 11, 29, 15, 0)  # the page's clock, fixed
DEAL = 20261129


def finished_daily() -> dict[str, object]:
    """Today's daily deal played to its end by the Beginner bots, as the page saves it."""
    bot = make_bot("beginner")
    state = GameState.new(DAILY_RULES, deal=DEAL)
    while state.to_act is not None:
        state = state.apply(bot_action(bot, state))
    return {"record": to_dict(state), "level": "beginner", "daily": True, "hints": True,
            "seen": -1, "sheets": len(state.past_hands), "recorded": False}


def test_the_daily_deal_button_after_todays_deal_says_it_is_done_and_offers_the_replay(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    page.clock.set_fixed_time(TODAY)
    preset(page, FAST, raw={"spades.game.v1": json.dumps(finished_daily())})
    open_app(page, live_server)
    assert step(page) == "end"
    assert str(DEAL) in stored(page, "stats")["daily"]
    # the offline daily deal is not ranked: its end says so and offers the ranked deal
    expect(page.locator("dialog[open] #daily-unranked")).to_contain_text("Not ranked")
    expect(page.locator("dialog[open] #daily-ranked")).to_have_text("Play today's ranked deal")
    page.click("dialog[open] [data-action=daily]")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("h2")).to_have_text("Today's deal is done")
    expect(dialog).to_contain_text("You have played today's deal")
    screenshot(page, "daily-done")
    page.click("dialog[open] [data-action=close]")
    expect(page.locator("dialog[open]")).to_have_count(0)
    # from the menu, the same answer; "Play it again" starts it
    page.click("#menu-button")
    page.click("#screen-menu [data-action=daily]")
    expect(page.locator("dialog[open] h2")).to_have_text("Today's deal is done")
    page.click("dialog[open] [data-action=daily-again]")
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("#deal-label")).to_contain_text("Daily deal")
    assert step(page) in ("bid", "blind")
    fresh = stored(page, "game")["record"]
    assert fresh["deal"] == DEAL and not any(hand["bids"] for hand in fresh["hands"])
    # while it is under way, the menu's "Daily deal" is the way back to it
    page.click("#menu-button")
    page.click("#screen-menu [data-action=daily]")
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert step(page) in ("bid", "blind")
