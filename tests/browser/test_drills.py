"""The Drills tab in Chromium: a drill played to its score (answers read from the engine in
CPython, some right and some wrong: the page agrees on each and on the score), the best score
kept across a reload, unreadable scores reset with a notice, both screen sizes, and every
lesson and drill loading in English and French."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from spades_core.bids import Bid
from spades_core.lessons import drills, load_library_dir
from spades_core.lessons.drills import ITEMS, BidItem, CountItem, NilItem
from spades_core.seats import Seat
from tests.browser.apphelpers import preset, wait_ready
from ui.shared import i18n
from ui.shared.models import hand_order

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
KEY = "spades.drills.v1"
ANSWER_TIMEOUT_MS = 60_000  # the Expert's answer: in the worker, or in slices meanwhile
Shot = Callable[[Page, str], Path]
FITS = "document.documentElement.scrollWidth <= window.innerWidth"
SMALL_BUTTONS = """() => [...document.querySelectorAll('#screen-lessons button')]
    .filter(b => b.offsetParent && (b.offsetWidth < 40 || b.offsetHeight < 40))
    .map(b => b.textContent)"""
SUITS = ("clubs", "diamonds", "hearts", "spades")


def text(lang: str, key: str) -> str:
    catalogue = json.loads((ROOT / "locales" / lang / "lessons.json").read_text("utf-8"))
    return str(catalogue[f"lessons.{key}"])


def screen(page: Page) -> Locator:
    return page.locator("#screen-lessons")


def open_tab(page: Page, live_server: str | None, name: str) -> None:
    """Load the page (unless ``live_server`` is None), open the lessons and one tab."""
    if live_server is not None:
        page.goto(live_server)
    wait_ready(page)
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    tab = screen(page).locator(f"[role=tab][data-tab='{name}']")
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")


def wrong_bid(expert: Bid) -> str:
    if expert.is_nil:
        return "4"
    return str(expert.tricks + 3 if expert.tricks <= 10 else expert.tricks - 3)


def answer(page: Page, drill: str, index: int, right: bool) -> None:
    """Answer item ``index`` as the engine says (``right``) or not, and check the page's
    verdict; for Bidding, the chart's 200 deals are CPython's."""
    panel = screen(page).locator(".lx-drill-panel")
    expect(panel).to_have_attribute("data-item", str(index + 1))
    found = drills.item(drill, index)
    assert found.view.hand is not None
    # the question and its first answer are in view without scrolling, at any size
    height = page.viewport_size["height"] if page.viewport_size else 0
    for part in (panel.locator(".lx-drill-ask"), panel.locator("button, input").first):
        box = part.bounding_box()
        assert box is not None, index
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (index, box)
    hand = screen(page).locator(".lx-hand [data-card]")
    expect(hand).to_have_count(len(found.view.hand))
    assert hand.evaluate_all("els => els.map(e => e.dataset.card)") == [
        str(card) for card in hand_order(found.view.hand)]  # CPython's deal, the table's order
    if isinstance(found, BidItem):
        token = str(found.expert) if right else wrong_bid(found.expert)
        panel.locator(f".lx-drill-bids [data-bid='{token}']").click()
    elif isinstance(found, NilItem):
        token = "yes" if found.nil == right else "no"
        panel.locator(f"[data-action='drill-answer'][data-arg='{token}']").click()
    else:
        assert isinstance(found, CountItem)
        kind = drills.counting_question(index, found)
        expect(panel).to_have_attribute("data-kind", kind)
        if kind == "spades":
            field = panel.locator(".lx-entry-input")
            field.fill(str(found.spades_out if right else (found.spades_out + 1) % 14))
            field.press("Enter")
        else:
            seat, suit = sorted(found.voids)[0] if right else next(
                (seat, suit) for seat in (Seat.W, Seat.N, Seat.E)
                for suit in range(4) if (seat, suit) not in found.voids)
            panel.locator(f"[data-action='drill-seat'][data-arg='{seat.name}']").click()
            panel.locator(f"[data-action='drill-suit'][data-arg='{SUITS[suit]}']").click()
            panel.locator("[data-action='drill-check']").click()
    expect(panel).to_have_attribute("data-state", "answered", timeout=ANSWER_TIMEOUT_MS)
    feedback = panel.locator(".lx-drill-feedback")
    expect(feedback).to_have_attribute("data-tone", "good" if right else "bad")
    if isinstance(found, BidItem):
        counts = drills.trick_counts(found.view, found.expert)
        bars = panel.locator(".lx-chart-col")
        expect(bars).to_have_count(14)
        assert bars.evaluate_all("els => els.map(e => +e.dataset.count)") == list(counts)
        expect(panel.locator(".lx-chart-expert")).to_have_attribute(
            "data-tricks", str(found.expert.tricks))
        expect(panel.locator(".lx-chart-text li")).to_have_count(14)
        if not right:  # the legend's "Your bid" is not drawn like every other bar
            colours = panel.evaluate("""node => [
                getComputedStyle(node.querySelector('.lx-chart-key-yours'), '::before')
                    .backgroundColor,
                getComputedStyle(node.querySelector(
                    '.lx-chart-col:not(.lx-chart-expert) .lx-chart-bar')).backgroundColor]""")
            assert colours[0] != colours[1], colours
        expect(feedback).to_contain_text(f"The Expert bids {found.expert.tricks or 'Nil'}.")
        advice = found.advice  # why that number: the hint's words, as CPython says them
        assert advice is not None
        i18n.load("table", "hints", "coach", "lessons")
        i18n.set_language("en")
        expect(feedback).to_contain_text(i18n.hint_sentence(
            advice.reason, dict(advice.params), advice.contrast, None, advice.why, advice.said))


def play_drill(page: Page, drill: str, right: set[int], shot: Shot | None = None) -> None:
    """Open ``drill`` from the Drills tab and answer its ten items, right on ``right``."""
    screen(page).locator(f"[data-action='drill'][data-arg='{drill}']").click()
    expect(screen(page).locator("h2")).to_have_text(
        text(page.evaluate("document.documentElement.lang") or "en", f"drill.{drill}"))
    for index in range(ITEMS):
        answer(page, drill, index, index in right)
        if shot is not None and index in (0, 1):
            assert page.evaluate(FITS)
            assert page.evaluate(SMALL_BUTTONS) == []
            shot(page, f"{drill}-{index + 1}")
        screen(page).locator("[data-action='drill-next']").click()
    end = screen(page).locator(".lx-drill-end")
    expect(end).to_have_attribute("data-score", str(len(right)))


@pytest.mark.parametrize(
    ("width", "height", "drill", "right"),
    [(1280, 800, "bidding", {0, 2, 4, 6, 8}), (375, 667, "counting", {0, 1, 3, 4, 6, 7, 9})],
    ids=["desktop-1280x800-bidding", "phone-375x667-counting"],
)
def test_a_drill_to_its_score_and_the_best_score_after_a_reload(
    page: Page, live_server: str, screenshot: Shot, width: int, height: int, drill: str,
    right: set[int]
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_tab(page, live_server, "drills")
    listed = screen(page).locator("[data-action='drill']")
    expect(listed).to_have_count(3)
    expect(listed.locator(".lx-lesson-title")).to_have_text(["Bidding", "Nil or not", "Counting"])
    expect(listed.locator(".lx-drill-best")).to_have_text(["Not tried yet"] * 3)
    assert page.evaluate(FITS)
    screenshot(page, "tab")

    play_drill(page, drill, right, screenshot)
    end = screen(page).locator(".lx-drill-end")
    score = len(right)
    expect(end.locator(".lx-drill-score")).to_have_text(f"Score: {score} out of 10")
    expect(end.locator(".lx-newbest")).to_have_text("New best score!")
    expect(end.locator(".lx-drill-best-line")).to_have_text(f"Best score: {score} out of 10")
    expect(end.locator("[data-action='drill-again']")).to_be_focused()
    assert page.evaluate(FITS)
    screenshot(page, "end")
    assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}')")) == {
        "version": 1, "best": {drill: score}}

    # Again starts over; Back shows the best score on the list.
    end.locator("[data-action='drill-again']").click()
    expect(screen(page).locator(".lx-drill-panel")).to_have_attribute("data-item", "1")
    expect(screen(page).locator(".lx-drill-progress")).to_have_text(
        "Question 1 of 10 · 0 right so far")
    screen(page).locator("[data-action='drill-back']").click()
    best = screen(page).locator(f"[data-drill='{drill}'] .lx-drill-best")
    expect(best).to_have_attribute("data-best", str(score))
    expect(best).to_contain_text(f"Best: {score}/10")
    expect(screen(page).locator(f"[data-drill='{drill}']")).to_be_focused()

    page.reload()
    open_tab(page, None, "drills")
    expect(best).to_have_attribute("data-best", str(score))
    expect(best.locator(".lx-sr-only")).to_have_text(f"Best score: {score} out of 10")
    expect(screen(page).locator(".lx-drill-best[data-best]")).to_have_count(1)


def test_unreadable_drill_scores_are_reset_with_a_notice(page: Page, live_server: str) -> None:
    page.set_viewport_size({"width": 375, "height": 667})
    preset(page, raw={KEY: "[" * 10_000 + "]" * 10_000})
    page.goto(live_server)
    wait_ready(page)
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    expect(screen(page).locator(".lx-notice")).to_have_text(
        "Your drill scores could not be read and were reset.")
    assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}')")) == {
        "version": 1, "best": {}}
    # The tabs by keyboard: the arrows move along them (round the end), Home and End.
    tabs = screen(page).locator("[role=tab]")
    tabs.nth(0).focus()
    for key, name in (("ArrowRight", "strategy"), ("ArrowRight", "drills"),
                      ("ArrowRight", "rules"), ("End", "drills"), ("Home", "rules"),
                      ("ArrowLeft", "drills")):
        page.keyboard.press(key)
        chosen = screen(page).locator(f"[role=tab][data-tab='{name}']")
        expect(chosen).to_have_attribute("aria-selected", "true")
        expect(chosen).to_be_focused()
    expect(screen(page).locator("[role=tabpanel]")).to_have_attribute(
        "aria-labelledby", "lx-tab-drills")
    expect(screen(page).locator(".lx-drill-best")).to_have_text(["Not tried yet"] * 3)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_lesson_and_drill_loads_in_both_languages(
    page: Page, live_server: str, screenshot: Shot, lang: str
) -> None:
    preset(page, {"language": lang})
    open_tab(page, live_server, "rules")
    assert page.evaluate("document.documentElement.lang") == lang
    expect(screen(page).locator("[role=tab]")).to_have_text(
        [text(lang, f"group.{name}") for name in ("rules", "strategy", "drills")])
    library = load_library_dir(ROOT / "lessons", check_claims=False)
    for group in ("rules", "strategy"):
        screen(page).locator(f"[role=tab][data-tab='{group}']").click()
        for lesson in library.group(group):
            screen(page).locator(f"[data-lesson='{lesson.id}']").click()
            expect(screen(page).locator("h2")).to_have_text(lesson.title.get(lang))
            expect(screen(page).locator(".lx-panel .lx-text")).not_to_be_empty()
            screen(page).locator("[data-action='list']").click()
            expect(screen(page).locator(f"[data-lesson='{lesson.id}']")).to_be_focused()
    screen(page).locator("[role=tab][data-tab='drills']").click()
    asks = {"bidding": "drill.bidding.ask", "nil": "drill.nil.ask",
            "counting": "drill.counting.spades"}
    for drill, ask in asks.items():
        screen(page).locator(f"[data-action='drill'][data-arg='{drill}']").click()
        expect(screen(page).locator("h2")).to_have_text(text(lang, f"drill.{drill}"))
        expect(screen(page).locator(".lx-drill-ask")).to_have_text(text(lang, ask))
        expect(screen(page).locator(".lx-hand [data-card]")).to_have_count(
            len(drills.question(drill, 0).hand or ()))
        screenshot(page, f"{drill}-{lang}")
        screen(page).locator("[data-action='drill-back']").click()
    if lang == "fr":  # and one drill to its end in French: Nil, every answer right
        play_drill(page, "nil", set(range(ITEMS)))
        end = screen(page).locator(".lx-drill-end")
        expect(end.locator(".lx-drill-score")).to_have_text("Score\u00a0: 10 sur 10")
        expect(end.locator(".lx-newbest")).to_have_text("Nouveau meilleur score\u00a0!")
        screenshot(page, "nil-end-fr")
