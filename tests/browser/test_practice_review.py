"""After a lesson's practice hand: the score sheet shows the coach's review, a line on how the
lesson's tip went in the hand, and a button back to the lesson (both screen sizes)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .apphelpers import FAST, play_hand_to_review, preset, wait_ready

pytestmark = pytest.mark.browser

KEY = "spades.lessons.v1"
LESSON = "strategy-05-cover-partner-nil"  # hand 3 of deal 47: North bids Nil before South
PRACTICE_STEP = 5
SHOTS = Path("/work/shots/practice")
Shot = Callable[[Page, str], Path]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "height"), [(1280, 800), (375, 667)], ids=["desktop-1280x800", "phone-375x667"]
)
def test_a_practice_hand_ends_with_its_review_then_back_to_the_lesson(
    page: Page, live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    progress = {"version": 1, "lessons": {LESSON: {"done": [], "at": PRACTICE_STEP}}}
    preset(page, FAST, raw={KEY: json.dumps(progress)})
    page.goto(live_server)
    wait_ready(page)
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    screen = page.locator("#screen-lessons")
    screen.locator("[role=tab][data-tab='strategy']").click()
    screen.locator(f"[data-lesson='{LESSON}']").click()
    expect(screen.locator(".lx-panel")).to_have_attribute("data-kind", "practice")
    screen.locator("[data-action='practice']").click()
    expect(page.locator("#screen-table")).to_be_visible()

    kinds = play_hand_to_review(page, bid="2")
    assert kinds.count("play") == 13 and "end" not in kinds, kinds

    dialog = page.locator("dialog[open]")
    practice = dialog.locator("#coach-practice")
    page.wait_for_selector("#coach-practice[data-verdict]", timeout=10_000)
    verdict = practice.get_attribute("data-verdict")
    assert verdict in ("costly", "matched", "absent")
    # North bid Nil before South in this hand, whatever South did: the situation arose.
    expect(practice).to_have_attribute("data-arose", "true")
    line = practice.locator(".coach-practice-line")
    if verdict == "costly":
        expect(line).to_contain_text("your costliest decision")
    else:
        expect(line).to_contain_text("your partner bid Nil before you")
    # the review comes first, then the line, then the way back
    order = page.evaluate("""() => [...document.querySelectorAll('dialog[open] .coach-panel')]
        .map(n => n.id)""")
    assert order == ["coach-review", "coach-practice"]
    back = dialog.locator("[data-action=sheet-next]")
    expect(back).to_have_text("Back to the lesson")
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits)
    practice.scroll_into_view_if_needed()
    shot = screenshot(page, "practice-review")
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, SHOTS / f"review-{width}x{height}.png")

    back.click()
    expect(screen).to_be_visible()
    expect(page.locator("#screen-table")).to_be_hidden()
    expect(screen.locator(".lx-panel")).to_have_attribute("data-kind", "practice")
