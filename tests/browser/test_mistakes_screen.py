""""Your mistakes" in the page: two positions of the learner's own game (deal 7's second
hand, where South, the Beginner, bid 1 when Nil was better and played the 9♠ when the J♦ was:
``tests/test_deck.py``) are due today; the menu offers the day's round with its count, the
screen shows each on the table, the coach's worker judges one wrong answer and one right
one, and the stored schedule moves each as docs/progress.md says (one size, one language:
the rest is in tests/test_deck.py and tests/test_mistakes.py)."""

from __future__ import annotations

import datetime
import json
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from spades_core.mistakes import INTERVALS
from ui.progress import deck

from ..test_deck import deal_seven
from .apphelpers import FAST, open_app, preset, stored

pytestmark = pytest.mark.browser

JUDGE_TIMEOUT_MS = 240_000  # the coach's worker starts, then weighs the answer


def test_a_round_of_your_mistakes_moves_each_position_as_documented(
    page: Page, live_server: str
) -> None:
    today = (datetime.date.today() - datetime.date(1970, 1, 1)).days  # the page's local day
    _state, found = deal_seven()
    items = [replace(item, made=today - 1, due=today) for item in found]
    bid, card = items  # the costlier first in the round
    preset(page, FAST, raw={"spades.mistakes.v1": deck.encode(items)})
    open_app(page, live_server)
    page.click("#menu-button")
    offer = page.locator("#screen-menu .menu-round")
    expect(offer).to_have_attribute("data-due", "2")
    expect(offer).to_contain_text("2 positions from your own games")
    offer.locator("[data-action=mistakes]").click()

    screen = page.locator("#screen-mistakes")
    expect(screen).to_have_attribute("data-state", "ask")
    expect(screen.locator(".mk-body")).to_have_attribute("data-key", bid.key)
    expect(screen.locator(".mk-count")).to_have_text("Position 1 of 2")
    # South's own bid again: wrong, the reason shown, back to box 1, due tomorrow
    screen.locator(f".mk-bid[data-arg='{bid.played}']").click()
    expect(screen).to_have_attribute("data-state", "wrong", timeout=JUDGE_TIMEOUT_MS)
    expect(screen.locator(".mk-reason")).not_to_be_empty()
    expect(screen.locator(".mk-moved")).to_contain_text("back to box 1")
    saved = {item["key"]: item for item in stored(page, "mistakes")["items"]}
    assert (saved[bid.key]["box"], saved[bid.key]["due"]) == (1, today + INTERVALS[0])

    screen.locator("[data-action=mistake-next]").click()
    expect(screen).to_have_attribute("data-state", "ask")
    expect(screen.locator(".mk-body")).to_have_attribute("data-key", card.key)
    hand = screen.locator(".lx-hand .card")
    expect(hand).to_have_count(13 - (card.action_index - 4) // 4)  # South's cards then
    # the coach's card: right, up to box 2, due in 2 days
    screen.locator(f".lx-hand [data-action=mistake-answer][data-arg='{card.better}']").click()
    expect(screen).to_have_attribute("data-state", "right", timeout=JUDGE_TIMEOUT_MS)
    expect(screen.locator(".mk-moved")).to_contain_text("box 2 of 5")
    saved = {item["key"]: item for item in stored(page, "mistakes")["items"]}
    assert (saved[card.key]["box"], saved[card.key]["due"]) == (2, today + INTERVALS[1])
    assert page.get_attribute("body", "data-coach-judge-by") == "worker"
    print(f"judged in the page: {page.get_attribute('body', 'data-coach-judge-ms')} ms")
    assert json.loads(page.evaluate("localStorage.getItem('spades.mistakes.v1')"))["v"] == 1

    screen.locator("[data-action=mistake-next]").click()
    expect(screen).to_have_attribute("data-state", "done")
    expect(screen.locator(".mk-done")).to_have_text("Round over: 1 of 2 right.")
    page.click("#screen-mistakes [data-action=menu]")
    expect(page.locator("#screen-menu .menu-round")).to_have_count(0)  # none due now
