"""The lessons screen in Chromium: lessons completed by clicks, feedback and hint highlighting on a
wrong click, progress kept across a reload, unreadable progress reset, and both screen sizes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

READY = "body[data-ready='1']"
READY_TIMEOUT_MS = 90_000
KEY = "spades.lessons.v1"
Shot = Callable[[Page, str], Path]


def open_lessons(page: Page, live_server: str, *, goto: bool = True) -> None:
    """Load the page and open the lessons screen from the main menu."""
    if goto:
        page.goto(live_server)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    expect(page.locator("#screen-lessons")).to_be_visible()
    expect(page.locator("#screen-lessons .lx-lesson").first).to_be_visible(timeout=30_000)


def show_tab(page: Page, name: str) -> None:
    """Select the list's tab ``rules``, ``strategy`` or ``drills``."""
    tab = page.locator(f"#screen-lessons [role=tab][data-tab='{name}']")
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")


def progress_text(page: Page, lesson_id: str) -> str:
    return page.locator(f"[data-lesson='{lesson_id}'] .lx-count").inner_text()


def panel(page: Page):
    return page.locator("#screen-lessons .lx-panel")


def finish_step_with_hint(page: Page) -> None:
    """Do what the current step asks, using the Hint button to find the answer."""
    screen = page.locator("#screen-lessons")
    kind = panel(page).get_attribute("data-kind")
    if kind in ("play", "bid", "answer"):
        screen.locator("[data-action='hint']").click()
        entry = screen.locator(".lx-entry-input")
        if entry.count():  # a number field: Hint shows the number as its placeholder
            entry.fill(entry.get_attribute("placeholder") or "")
            screen.locator("[data-action='enter']").click()
            expect(screen.locator(".lx-feedback[data-tone='good']")).to_be_visible()
            return
        lit = screen.locator("button.lx-lit")
        expect(lit.first).to_be_visible()
        count = lit.count()
        assert count >= 1
        if screen.locator("[data-action='check']").count():
            for i in range(count):
                screen.locator("button.lx-lit").nth(i).click()
            screen.locator("[data-action='check']").click()
        else:
            lit.first.click()
        expect(screen.locator(".lx-feedback[data-tone='good']")).to_be_visible()


def next_step(page: Page) -> None:
    current = panel(page).get_attribute("data-step")
    page.locator("#screen-lessons [data-action='next']").click()
    if page.locator("#screen-lessons .lx-panel").count():
        expect(panel(page)).not_to_have_attribute("data-step", current or "")


@pytest.mark.parametrize(
    ("width", "height"), [(1280, 800), (375, 667)], ids=["desktop-1280x800", "phone-375x667"]
)
def test_rules_lesson_by_clicks_with_a_wrong_click_and_a_reload(
    page: Page, live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_lessons(page, live_server)
    screen = page.locator("#screen-lessons")
    # The list's tabs: the lessons by group and the drills; the next lesson's group first.
    expect(screen.locator("[role=tab]")).to_have_text(["Rules", "Strategy", "Drills"])
    expect(screen.locator("[role=tab][aria-selected=true]")).to_have_text("Rules")
    assert progress_text(page, "rules-02-tricks") == "0/6 steps"
    screen.locator("[data-lesson='rules-02-tricks']").click()
    expect(screen.locator("h2")).to_have_text("Tricks: the highest card wins")
    expect(panel(page)).to_have_attribute("data-kind", "explain")
    # The trick on the table is drawn, West's lead is highlighted, South's cards are shown.
    expect(screen.locator(".lx-trick [data-card='9H']")).to_have_class(
        re.compile(r"^card suit-H lx-card lx-hearts lx-red lx-marked( has-face)?$"))
    expect(screen.locator(".lx-seat-west")).to_have_class("lx-seat lx-seat-west lx-seat-marked")
    next_step(page)

    # Step 2: play the card that wins. A wrong (but legal) card first.
    expect(panel(page)).to_have_attribute("data-kind", "play")
    three = screen.get_by_role("button", name="three of hearts")
    queen = screen.get_by_role("button", name="queen of hearts")
    three.click()
    feedback = screen.locator(".lx-feedback")
    miss = "Not quite. Try again. The 3♥ is lower than East's J♥: East would win the trick."
    expect(feedback).to_have_text(miss)
    expect(feedback).to_have_attribute("data-tone", "bad")
    expect(screen.locator("[role=status]")).to_have_text(miss)
    expect(three).to_have_class(
        re.compile(r"^card suit-H lx-card lx-hearts lx-red lx-wrong lx-card-btn( has-face)?$"))
    expect(screen.locator("button.lx-lit")).to_have_count(0)  # one miss: try again
    # An illegal card: the engine's reason; the second miss shows the answer.
    screen.get_by_role("button", name="five of clubs").click()
    expect(feedback).to_contain_text("You must follow suit")
    expect(queen).to_have_class(
        re.compile(r"^card suit-H lx-card lx-hearts lx-red lx-lit lx-card-btn( has-face)?$"))
    screenshot(page, "wrong-card")
    queen.click()
    expect(feedback).to_have_text(
        "Your Q♥ beats the J♥: the trick is yours. The winner of a trick leads the next one.")
    expect(feedback).to_have_attribute("data-tone", "good")
    expect(screen.locator(".lx-trick [data-card='QH']")).to_be_visible()
    expect(screen.locator("[data-action='next']")).to_be_focused()
    next_step(page)

    # Step 3 explains another trick; step 4: who wins it? A wrong answer, then the right one.
    expect(panel(page)).to_have_attribute("data-kind", "explain")
    next_step(page)
    screen.get_by_role("button", name="North", exact=True).click()
    expect(feedback).to_contain_text("North's ace is a club")
    expect(feedback).to_contain_text("Try again.")
    expect(screen.locator("button.lx-choice.lx-lit")).to_have_count(0)
    screen.get_by_role("button", name="East", exact=True).click()
    expect(feedback).to_contain_text("East's 10♦ is the highest diamond.")
    next_step(page)

    # The rest by the hints, then Finish goes back to the list.
    for _ in range(10):
        if not screen.locator(".lx-panel").count():
            break
        finish_step_with_hint(page)
        next_step(page)
    # Back on the list, the way on is the next lesson, focused: Enter would open it.
    upcoming = screen.locator("[data-key='next-lesson']")
    expect(upcoming).to_be_focused()
    expect(upcoming).to_have_attribute("data-arg", "rules-03-follow-suit")
    expect(upcoming).to_have_accessible_name("Next lesson: Following suit")
    assert progress_text(page, "rules-02-tricks") == "6/6 steps"
    expect(screen.locator("[role=tab][aria-selected=true]")).to_have_text("Rules")
    expect(screen.locator("[data-lesson='rules-02-tricks'] .lx-done-mark")).to_be_visible()
    stored = page.evaluate(f"localStorage.getItem('{KEY}')")
    assert '"rules-02-tricks"' in stored
    # Two misses on one step, one on another, hints on the rest: one star.
    stars = screen.locator("[data-lesson='rules-02-tricks'] .lx-stars")
    expect(stars).to_have_attribute("data-stars", "1")

    page.reload()
    open_lessons(page, live_server, goto=False)
    assert progress_text(page, "rules-02-tricks") == "6/6 steps"
    expect(stars).to_have_text("★")  # the stars survive a reload
    assert progress_text(page, "rules-03-follow-suit") == "0/7 steps"
    # A fresh visit offers the first unfinished lesson; the game's scores are not shown here.
    expect(screen.locator("[data-key='next-lesson']")).to_have_attribute(
        "data-arg", "rules-01-table")
    expect(page.locator(".scorebar #score-ns")).to_be_hidden()
    expect(page.locator("#menu-button")).to_be_visible()


def test_strategy_lesson_by_clicks_ends_with_a_practice_hand(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    open_lessons(page, live_server)
    screen = page.locator("#screen-lessons")
    show_tab(page, "strategy")
    screen.locator("[data-lesson='strategy-07-dont-trump-partner']").click()
    kinds = []
    for _ in range(12):
        kind = panel(page).get_attribute("data-kind")
        kinds.append(kind)
        if kind == "practice":
            break
        finish_step_with_hint(page)
        if kind == "play" and len(kinds) == 3:
            # The hint engine agrees with this step: its reason is shown with the tip's name.
            expect(screen.locator(".lx-coach")).to_contain_text("Coach — ")
            screenshot(page, "strategy-play")
        next_step(page)
    assert kinds[-1] == "practice" and "play" in kinds
    # The step list: jump back to step 3 and see it again, then return to the last step.
    steps = len(kinds)  # every step was visited, the practice last
    screen.get_by_role("button", name=f"Step 3 of {steps}: Play a card (done)").click()
    expect(panel(page)).to_have_attribute("data-step", "3")
    screen.locator(".lx-step").last.click()
    expect(panel(page)).to_have_attribute("data-kind", "practice")
    screen.locator("[data-action='practice']").click()
    expect(page.locator("#screen-table")).to_be_visible()
    expect(screen).to_be_hidden()
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}'))")
    assert sorted(stored["lessons"]["strategy-07-dont-trump-partner"]["done"]) == list(
        range(steps))


@pytest.mark.parametrize(
    ("width", "height"), [(1280, 800), (375, 667)], ids=["desktop-1280x800", "phone-375x667"]
)
def test_screens_fit_and_unreadable_progress_is_reset(
    page: Page, live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.evaluate(f"localStorage.setItem('{KEY}', '{{not json')")
    open_lessons(page, live_server, goto=False)
    screen = page.locator("#screen-lessons")
    expect(screen.locator(".lx-notice")).to_contain_text("could not be read")
    assert progress_text(page, "rules-01-table") == "0/5 steps"
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}')).version") == 1
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits)
    screenshot(page, "list")
    # A lesson with a bidding position (13 cards) and one with a trick and shown hands.
    show_tab(page, "strategy")
    assert page.evaluate(fits)
    screen.locator("[data-lesson='strategy-01-count-tricks']").click()
    screen.locator(".lx-step").nth(2).click()
    expect(panel(page)).to_have_attribute("data-kind", "bid")
    assert page.evaluate(fits)
    small = page.evaluate("""() => [...document.querySelectorAll('#screen-lessons button')]
        .filter(b => b.offsetParent && (b.offsetWidth < 40 || b.offsetHeight < 40))
        .map(b => b.textContent)""")
    assert small == []
    screenshot(page, "bid")
    screen.locator("[data-action='list']").click()
    show_tab(page, "rules")
    screen.locator("[data-lesson='rules-13-whole-hand']").click()
    screen.locator(".lx-step").nth(2).click()
    expect(panel(page)).to_have_attribute("data-kind", "watch")
    expect(screen.locator(".lx-trick .lx-card")).to_have_count(4, timeout=10_000)
    assert page.evaluate(fits)
    screenshot(page, "watch")


def test_a_practice_is_one_hand_where_south_bids_fourth(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    """strategy-03's practice is hand 2 of its deal: the first hand is played by the bots when
    the practice starts, so West, North and East have bid when South is to bid."""
    lesson = "strategy-03-read-the-table"
    page.goto(live_server)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    progress = {"version": 1, "lessons": {lesson: {"done": [], "at": 5}}}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(progress)])
    page.reload()
    open_lessons(page, live_server, goto=False)
    show_tab(page, "strategy")
    page.locator(f"#screen-lessons [data-lesson='{lesson}']").click()
    expect(panel(page)).to_have_attribute("data-kind", "practice")
    expect(page.locator("#screen-lessons .lx-practice-info")).to_contain_text("hand 2")
    screenshot(page, "practice-step")
    page.locator("#screen-lessons [data-action='practice']").click()
    expect(page.locator("#screen-table")).to_be_visible()
    turn = page.locator("#panel [data-action=look], #panel [data-action=bid]").first
    expect(turn).to_be_visible(timeout=60_000)
    if page.locator("#panel [data-action=look]").count():
        page.click("#panel [data-action=look]")
    expect(page.locator("#panel [data-action=bid]").first).to_be_visible()
    # the practice is not stored (its own slot): the table says it all
    expect(page.locator("#deal-label")).to_have_text("Deal 2")
    for seat in "WNE":
        expect(page.locator(f"#seat-{seat}")).not_to_contain_text("Bid –")
    expect(page.locator("#seat-S")).to_contain_text("Bid –")
    screenshot(page, "practice-south-bids-fourth")
    page.click("[data-action=sheet]")  # hand 1, played by the bots: its two teams' rows
    expect(page.locator("dialog[open] tbody tr")).to_have_count(2)


def test_a_lesson_left_with_a_step_skipped_is_not_announced_complete(
    page: Page, live_server: str
) -> None:
    open_lessons(page, live_server)
    screen = page.locator("#screen-lessons")
    screen.locator("[data-lesson='rules-03-follow-suit']").click()
    expect(panel(page)).to_be_visible()
    skipped = False
    for _ in range(12):
        if not screen.locator(".lx-panel").count():
            break
        kind = panel(page).get_attribute("data-kind")
        if kind in ("play", "bid", "answer") and not skipped:
            skipped = True  # the first question is left unanswered
        else:
            finish_step_with_hint(page)
        next_step(page)
    assert skipped
    expect(screen.locator("[role=status]")).to_have_text("End of the lesson: 6/7 steps.")
    assert progress_text(page, "rules-03-follow-suit") == "6/7 steps"
