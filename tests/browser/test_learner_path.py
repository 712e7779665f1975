"""The learner's path between the table and the other screens: a lesson's practice hand is
played beside the game in progress (never asked about, never saved over it), and every way
back to the table finds the bots playing on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from .apphelpers import FAST, act, open_app, preset, record, step, stored, wait_ready

pytestmark = pytest.mark.browser

Shot = Callable[[Page, str], Path]
LESSON = "strategy-07-dont-trump-partner"


# The first visit's welcome: its text, its choices and their boxes (the line and bar apart).
WELCOME_BOXES = """() => {
  const box = el => { const r = el.getBoundingClientRect();
                      return [r.x, r.y, r.width, r.height].map(Math.round); };
  const welcome = document.getElementById('screen-welcome');
  const parts = welcome.querySelectorAll('h2, p:not(#boot-status), .welcome-list, .welcome-list *');
  return { boxes: Array.from(parts, box),
           text: Array.from(parts, el => (el.children.length ? '' : el.textContent)),
           actions: Array.from(welcome.querySelectorAll('button'), b => b.dataset.action),
           ids: Boolean(document.getElementById('welcome-title')) };
}"""
# ... at the moment Python marks the page ready (before a choice kept is opened).
WELCOME_AT_READY = f"""new MutationObserver((_, observer) => {{
  if (document.body && document.body.dataset.ready) {{
    window.welcomeAtReady = ({WELCOME_BOXES})();
    observer.disconnect();
  }}
}}).observe(document, {{ attributes: true, subtree: true, attributeFilter: ['data-ready'] }});"""


def open_lesson_practice(page: Page) -> None:
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    lessons = page.locator("#screen-lessons")
    expect(lessons.locator(".lx-lesson").first).to_be_visible(timeout=30_000)
    lessons.locator("[role=tab][data-tab='strategy']").click()
    lessons.locator(f"[data-lesson='{LESSON}']").click()
    lessons.locator(".lx-step").last.click()
    expect(lessons.locator(".lx-panel")).to_have_attribute("data-kind", "practice")
    lessons.locator("[data-action='practice']").click()


def test_a_practice_hand_leaves_the_game_in_progress_and_the_bots_play_on(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    preset(page, {**FAST, "level": "normal"})
    open_app(page, live_server, "?deal=424242")
    expect(page.locator("#deal-label")).to_have_text("Deal 424242")
    # the game in progress: South has bid and played a few cards
    for _ in range(4):
        act(page, step(page))
    assert step(page) == "play"
    kept = record(page)
    kept_game = stored(page, "game")

    # The practice hand starts at once (no "Abandon the game in progress?"), in its own slot.
    open_lesson_practice(page)
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("#deal-label")).not_to_have_text("Deal 424242")
    kinds: list[str] = []
    for _ in range(80):  # the practice: one hand
        kind = step(page)
        kinds.append(kind)
        assert stored(page, "game") == kept_game  # never saved over the game in progress
        if kind == "sheet":
            break
        act(page, kind, bid="2")
    assert kinds[-1] == "sheet" and kinds.count("play") == 13, kinds
    back = page.locator("dialog[open] [data-action=sheet-next]")
    expect(back).to_have_text("Back to the lesson")
    back.click()
    lessons = page.locator("#screen-lessons")
    expect(lessons).to_be_visible()
    assert stored(page, "game") == kept_game

    # Lessons -> menu -> back to the table: the game in progress, exactly as it was, and
    # the bots play on (break 1: "West is bidding..." forever).
    lessons.locator("[data-action='list']").first.click()  # the lesson -> the list
    expect(lessons.locator(".lx-lesson").first).to_be_visible()
    lessons.locator("[data-action='menu']").first.click()  # the list -> the menu
    expect(page.locator("#screen-menu")).to_be_visible()
    page.click("#screen-menu [data-action='resume']")
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("#deal-label")).to_have_text("Deal 424242")
    assert record(page) == kept
    for _ in range(3):  # South plays, and the bots answer
        act(page, step(page))
    after = record(page)
    assert len(after["hands"][-1]["plays"]) > len(kept["hands"][-1]["plays"]) + 3
    screenshot(page, "table-after-practice")


def test_the_bots_wait_while_the_table_is_away_and_play_on_when_it_is_back(
    page: Page, live_server: str
) -> None:
    """Leaving the table pauses the bots (no score sheet pops up over the lessons or the
    menu); any way back starts them again."""
    preset(page, FAST)
    open_app(page, live_server, "?deal=31337")
    act(page, step(page))  # South bids: the bots' turn
    page.click("#menu-button")
    expect(page.locator("#screen-menu")).to_be_visible()
    page.click("#screen-menu [data-action='lessons']")
    expect(page.locator("#screen-lessons")).to_be_visible()
    page.click("#menu-button")
    page.click("#screen-menu [data-action='resume']")
    expect(page.locator("#screen-table")).to_be_visible()
    # the bots have bid and South is asked to play
    assert step(page) == "play"
    assert len(record(page)["hands"][-1]["bids"]) == 4


def test_the_look_first_hint_lights_look_and_goes_once_the_cards_are_seen(
    page: Page, live_server: str
) -> None:
    """Face down, the hint may say "look at your cards first": the Look button is lit as a
    hinted card would be, and the hint goes away once the cards are looked at."""
    preset(page, {**FAST, "blind_nil": True, "hints": True})
    open_app(page, live_server, "?deal=4242")
    assert step(page) == "blind"
    page.click("#hint-button")
    message = page.locator("#message")
    expect(message).to_contain_text("look at your cards first")
    expect(page.locator("#panel button.hinted")).to_have_attribute("data-action", "look")
    page.click("#panel [data-action=look]")
    assert step(page) == "bid"
    expect(message).to_have_text("")
    expect(page.locator("#panel button.hinted")).to_have_count(0)


@pytest.mark.parametrize(
    ("width", "height", "lang"), [(1280, 800, "en"), (375, 667, "fr")],
    ids=["desktop-1280x800-en", "phone-375x667-fr"],
)
def test_a_first_visit_is_welcomed_once_and_a_returning_player_lands_on_the_game(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot,
    width: int, height: int, lang: str,
) -> None:
    page = make_page(width, height, first_visit=True)
    preset(page, {**FAST, "language": lang})
    page.context.add_init_script(WELCOME_AT_READY)
    # Python held at the network: the welcome is painted before it (ui/paint.js), from the
    # words the build wrote from the catalogues, in the visitor's language
    held: list[Route] = []
    page.context.route("**/ui/main.py", lambda route: held.append(route))
    page.goto(live_server)
    page.wait_for_selector("body[data-painted='welcome']", state="attached")
    welcome = page.locator("#screen-welcome")
    expect(welcome).to_be_visible()
    expect(page.locator("#screen-table")).to_be_hidden()
    assert page.locator("#welcome-title").count() == 0  # not Python's own (it has ids)
    assert page.get_attribute("body", "data-ready") is None
    title = {"en": "Welcome to Spades", "fr": "Bienvenue au Spades"}[lang]
    expect(welcome.locator("h2")).to_have_text(title)
    expect(page.locator("#boot-status")).to_have_text(
        {"en": "Getting ready…", "fr": "Préparation…"}[lang])
    choices = welcome.locator(".welcome-list button")
    expect(choices).to_have_count(4)
    painted = page.evaluate(WELCOME_BOXES)
    assert painted["actions"] == ["welcome-learn", "daily", "new", "rooms"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    last = choices.last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= height  # all four in view
    screenshot(page, f"welcome-painted-{lang}")
    # meanwhile a click beside the choices is visibly refused, and a choice is kept
    welcome.locator("h2").click()
    page.wait_for_selector("#boot-status.paint-nudge", state="attached")
    choices.first.click()  # "Learn the rules"
    page.wait_for_selector("#screen-welcome .paint-kept[data-action=welcome-learn]")
    assert page.get_attribute("body", "data-paint-kept") == "welcome-learn"
    for route in held:
        route.continue_()
    page.context.unroute("**/ui/main.py")
    wait_ready(page)
    # Python drew the same welcome in the same places, then opened the choice kept
    at_ready = page.evaluate("window.welcomeAtReady")
    assert at_ready["ids"] and at_ready == {**painted, "ids": at_ready["ids"]}
    lessons = page.locator("#screen-lessons")
    expect(lessons).to_be_visible()
    expect(lessons.locator(".lx-panel")).to_be_visible()
    expect(lessons.locator("[data-lesson-id], .lx-title").first).to_be_visible()
    # a returning player lands on their game; the menu still has the welcome
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached")
    expect(page.locator("#screen-table")).to_be_visible()
    expect(welcome).to_be_hidden()
    assert step(page) == "bid"
    page.click("#menu-button")
    page.click("#screen-menu [data-action=welcome]")
    expect(welcome).to_be_visible()
    welcome.locator("[data-action=new]").click()
    expect(page.locator("#screen-table")).to_be_visible()
    assert step(page) == "bid"


def test_at_the_fast_speeds_the_only_legal_card_plays_by_itself(
    page: Page, live_server: str
) -> None:
    preset(page, {**FAST, "auto_play": "by-speed"})
    open_app(page, live_server, "?deal=4242")
    clicks = 0
    for _ in range(80):
        kind = step(page)
        if kind == "sheet":
            break
        clicks += kind == "play"
        act(page, kind)
    hand = stored(page, "game")["record"]["hands"][0]
    assert len(hand["plays"]) == 52
    assert clicks < 13  # the last card at least went by itself


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "height", "lang"), [(1280, 800, "en"), (375, 667, "fr")],
    ids=["desktop-1280x800-en", "phone-375x667-fr"],
)
def test_a_whole_learners_visit_ends_with_the_bots_playing_and_the_game_intact(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot,
    width: int, height: int, lang: str,
) -> None:
    """First visit, a rules lesson, a strategy lesson's practice hand, a drill, back to the
    table, the game to its end with a review and the hand viewer on the way."""
    page = make_page(width, height, first_visit=True)
    preset(page, {**FAST, "language": lang})
    open_app(page, live_server)
    welcome = page.locator("#screen-welcome")
    expect(welcome).to_be_visible()
    deal = page.locator("#deal-label").text_content()

    # a rules lesson, from the welcome: two steps by the hint, then back to the list
    welcome.locator("[data-action=welcome-learn]").click()
    lessons = page.locator("#screen-lessons")
    panel = lessons.locator(".lx-panel")
    expect(panel).to_be_visible()
    for _ in range(2):
        if panel.get_attribute("data-kind") in ("play", "bid", "answer"):
            lessons.locator("[data-action='hint']").click()
            lit = lessons.locator("button.lx-lit, .lx-card-btn.lx-lit")
            entry = lessons.locator(".lx-entry-input")
            if entry.count():
                entry.fill(entry.get_attribute("placeholder") or "")
                lessons.locator("[data-action='enter']").click()
            elif lit.count():
                lit.first.click()
        lessons.locator("[data-action='next']").click()
    lessons.locator("[data-action='list']").first.click()

    # a strategy lesson's practice hand: its own slot, then back to the lesson
    lessons.locator("[role=tab][data-tab='strategy']").click()
    lessons.locator(f"[data-lesson='{LESSON}']").click()
    lessons.locator(".lx-step").last.click()
    expect(panel).to_have_attribute("data-kind", "practice")
    lessons.locator("[data-action='practice']").click()
    expect(page.locator("#screen-table")).to_be_visible()
    for _ in range(80):
        kind = step(page)
        if kind == "sheet":
            break
        act(page, kind, bid="2")
    act(page, "sheet")  # "Back to the lesson"
    expect(lessons).to_be_visible()

    # a drill: one item answered, then back
    lessons.locator("[data-action='list']").first.click()
    lessons.locator("[role=tab][data-tab='drills']").click()
    lessons.locator("[data-action='drill'][data-arg='nil']").click()
    drill = lessons.locator(".lx-drill-panel")
    drill.locator("[data-action='drill-answer'][data-arg='yes']").click()
    expect(drill).to_have_attribute("data-state", "answered", timeout=120_000)
    lessons.locator("[data-action='drill-back']").click()

    # back to the table: the game of the first visit, as it was, and the bots play
    lessons.locator("[data-action='menu']").first.click()
    page.click("#screen-menu [data-action='resume']")
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("#deal-label")).to_have_text(deal or "")
    viewed = False
    for _ in range(600):
        kind = step(page)
        if kind == "end":
            break
        if kind == "sheet" and not viewed:  # the review, then the hand in the viewer
            page.wait_for_selector("#coach-review[data-state=done]", timeout=240_000)
            page.click("dialog[open] [data-action=viewer][data-arg='0']")
            page.wait_for_selector("dialog[open] #viewer[data-frame]")
            page.click("dialog[open] [data-action=viewer-next]")
            page.wait_for_selector("dialog[open] #viewer[data-frame='1']")
            screenshot(page, f"visit-viewer-{lang}")
            page.click("dialog[open] [data-action=viewer-back]")
            viewed = True
            continue
        act(page, kind)
    else:
        raise AssertionError("the game did not end")
    assert viewed
    game = stored(page, "game")
    assert game["recorded"] and str(game["record"]["deal"]) in (deal or "")
    # and in a new game the bots play: South bids, the other three answer
    page.click("dialog[open] [data-action=new]")
    act(page, step(page))
    assert step(page) == "play"
    assert len(record(page)["hands"][-1]["bids"]) == 4
    screenshot(page, f"visit-end-{lang}")
