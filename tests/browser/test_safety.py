"""Nothing is lost or chosen by accident (issue 10, items 3 and 4), in Chromium: replacing an
unfinished game asks first, Blind Nil needs a second deliberate step and the first focus is safe,
today's deal by link is the daily deal, dialogs open at their top on their title, the seats read
the same before and after Python, no seat is "to play" under a pending score sheet, icons are
drawn (no emoji glyph), and random deals are short."""

from __future__ import annotations

import datetime
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from spades_core import GameState, Rules
from spades_core.bots import bot_action, make_bot
from spades_core.record import to_dict
from tests.browser.apphelpers import (
    FAST,
    act,
    hand_cards,
    open_app,
    preset,
    record,
    step,
    stored,
    wait_ready,
)

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]

FOCUSED_ACTION = "document.activeElement && document.activeElement.dataset.action"
SEAT_TEXTS = """() => ['N', 'E', 'S', 'W'].map(s => {
  const node = document.getElementById('seat-' + s);
  return [node.querySelector('.seat-name').textContent,
          node.querySelector('.seat-info').textContent, node.getAttribute('aria-label')];
})"""
DIALOG_TOP = """() => {
  const dialog = document.querySelector('dialog[open]');
  return {focus: document.activeElement.id, top: dialog.scrollTop,
          long: dialog.scrollHeight > dialog.clientHeight + 20};
}"""


def bids(page: Page) -> list[str]:
    hands = record(page)["hands"]
    return list(hands[-1]["bids"]) if hands else []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (375, 667)],
                         ids=["desktop", "phone"])
def test_blind_nil_needs_a_second_step_and_the_first_focus_looks(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page = make_page(width, height)
    preset(page, {**FAST, "blind_nil": True})
    # Item 5 on the way: what the seats say before Python runs, then once it has drawn them.
    held: list[Route] = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(live_server + "?deal=42")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "Pyodide's wasm was never requested"
    before = page.evaluate(SEAT_TEXTS)
    held[0].continue_()
    wait_ready(page)
    assert step(page) == "blind"
    assert page.evaluate(SEAT_TEXTS) == before
    assert [info for _, info, _ in before] == ["Bid – · Tricks 0"] * 4

    # The first focus is on "Look at my cards", never on Blind Nil.
    page.wait_for_function(f"() => ({FOCUSED_ACTION}) === 'look'")
    expect(page.locator("#panel [data-action=look]")).to_have_text("Look at my cards")
    screenshot(page, "first-screen")
    if width > 600:
        page.keyboard.press("Enter")  # the player who just presses Enter looks at the cards
        assert step(page) == "bid"
        expect(page.locator("#hand .card.back")).to_have_count(0)
        assert len(hand_cards(page)) == 13 and bids(page) == []
        return

    # Blind Nil asks to be confirmed; the safe answer has the focus; Cancel changes nothing.
    page.click("#panel [data-action=blind]")
    panel = page.locator("#panel")
    expect(panel).to_contain_text("Bid Blind Nil without looking?")
    page.wait_for_function(f"() => ({FOCUSED_ACTION}) === 'blind-no'")
    assert bids(page) == []
    expect(page.locator("#hand .card.back")).to_have_count(13)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "blind-confirm")
    page.keyboard.press("Enter")  # Enter on the confirm step cancels
    expect(panel.locator("[data-action=look]")).to_be_visible()
    page.wait_for_function(f"() => ({FOCUSED_ACTION}) === 'blind'")
    assert bids(page) == []
    page.click("#panel [data-action=blind]")
    page.click("#panel [data-action=blind-yes]")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('spades.game.v1'))"
                           ".record.hands[0]?.bids.length > 0")
    assert bids(page)[0] == "blind-nil"
    expect(page.locator("#seat-S .seat-bid")).to_have_text("Bid Blind Nil")


def test_replacing_a_game_asks_first_and_dialogs_open_at_their_top(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    today = datetime.date.today()
    number = int(today.strftime("%Y%m%d"))
    preset(page, FAST)
    open_app(page, live_server, f"?deal={number}")

    # Item 3: today's deal by link is the daily deal, exactly as from the menu; it is
    # everyone's same game, under the default rules, whatever the player's own options
    # (here 200 points, no Blind Nil), and the page says so.
    expect(page.locator("#deal-label")).to_have_text(f"Daily deal {today.isoformat()}")
    assert stored(page, "game")["daily"] is True
    rules = stored(page, "game")["record"]["rules"]
    assert rules["target"] == 500 and rules["blind_nil"] is True
    expect(page.locator("#notices .notice")).to_contain_text("same game for everyone")
    page.click("#notices [data-action=dismiss]")
    assert step(page) == "blind"
    act(page, "blind")  # look at the cards
    assert step(page) == "bid"

    # The next day's daily deal does not open before its day: the game stays.
    tomorrow = today + datetime.timedelta(days=1)
    open_app(page, live_server, f"?deal={tomorrow:%Y%m%d}")
    expect(page.locator("#notices .notice")).to_have_text(re.compile(
        f"The daily deal of {tomorrow.isoformat()} opens on that day"))
    expect(page.locator("#deal-label")).to_have_text(f"Daily deal {today.isoformat()}")
    page.click("#notices [data-action=dismiss]")
    assert step(page) == "bid"

    # Item 4: long dialogs open at their top, the focus on their title.
    page.click("#rules-button")
    for tab in ("rules", "faq"):
        if tab == "faq":
            page.click("dialog[open] [data-action=faq]")
        top = page.evaluate(DIALOG_TOP)
        assert top["focus"] == "dialog-title" and top["top"] == 0, (tab, top)
        assert top["long"] or tab == "faq", top  # the rules scroll: the test means something
    page.keyboard.press("Escape")
    for button in ("options", "sheet"):
        page.click(f"#toolbar [data-action={button}]")
        expect(page.locator("dialog[open]")).to_be_visible()
        assert page.evaluate(DIALOG_TOP)["focus"] == "dialog-title", button
        assert page.evaluate(DIALOG_TOP)["top"] == 0, button
        page.keyboard.press("Escape")

    # Item 1: a game that has begun is not replaced without asking.
    act(page, "bid")
    assert step(page) == "play"
    kept = record(page)
    page.click("#menu-button")
    page.click("#screen-menu [data-action=new]")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("h2")).to_have_text("Abandon the game in progress?")
    assert page.evaluate("document.activeElement.id") == "dialog-title"
    expect(dialog.locator("button.primary")).to_have_text("Keep playing")
    expect(dialog.locator("#confirm-new-link")).to_have_count(0)  # no link: nothing to name
    screenshot(page, "confirm-new")
    dialog.locator("[data-action=new-no]").click()
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("#deal-label")).to_have_text(f"Daily deal {today.isoformat()}")
    assert record(page) == kept and step(page) == "play"

    # Nor does a deal link opened over it: the saved game is shown and the question asked.
    open_app(page, live_server, "?deal=4242")
    expect(dialog.locator("h2")).to_have_text("Abandon the game in progress?")
    expect(dialog.locator("#confirm-new-link")).to_have_text(  # which game the link opens
        "The link you opened starts another game: Deal 4242.")
    dialog.locator("[data-action=new-no]").click()
    expect(page.locator("#deal-label")).to_have_text(f"Daily deal {today.isoformat()}")
    assert record(page) == kept and step(page) == "play"

    page.click("#menu-button")
    page.click("#screen-menu [data-action=daily]")  # today's deal under way: back to it
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert record(page) == kept and step(page) == "play"

    page.click("#menu-button")
    page.click("#screen-menu [data-action=new]")
    expect(dialog.locator("h2")).to_have_text("Abandon the game in progress?")
    page.keyboard.press("Escape")  # Escape: nothing changes, the menu stays
    expect(page.locator("#screen-menu")).to_be_visible()
    assert record(page) == kept

    page.click("#screen-menu [data-action=new]")
    page.click("dialog[open] [data-action=new-yes]")
    expect(page.locator("dialog[open]")).to_have_count(0)
    # Item 8: the new random deal has a short number.
    expect(page.locator("#deal-label")).to_have_text(re.compile(r"^Deal [1-9]\d{0,6}$"))
    assert stored(page, "game")["daily"] is False
    assert bids(page) == []

    # Item 6: under the pending score sheet nobody is "to play".
    for _ in range(80):
        kind = step(page)
        if kind == "sheet":
            break
        act(page, kind)
    else:
        raise AssertionError("the first hand never ended")
    expect(page.locator(".seat.active")).to_have_count(0)
    assert page.eval_on_selector_all(".seat-turn", "els => els.map(e => e.textContent)") == [""] * 4
    expect(page.locator("#turn")).to_have_text("The hand is over.")
    assert page.evaluate(DIALOG_TOP)["focus"] == "dialog-title"
    act(page, "sheet")
    assert step(page) in ("bid", "play")

    # The game in progress is in its second hand: a deal link asks, and "Start new" opens it.
    open_app(page, live_server, "?deal=4242")
    page.click("dialog[open] [data-action=new-yes]")
    expect(page.locator("#deal-label")).to_have_text("Deal 4242")
    assert record(page)["deal"] == 4242 and bids(page) == []


def won_game_record() -> dict[str, object]:
    """A finished game (target 200) that North-South won, played by the engine's bots."""
    bot = make_bot("beginner")
    for deal in range(1, 200):
        state = GameState.new(Rules(target=200), deal=deal)
        while state.to_act is not None:
            state = state.apply(bot_action(bot, state))
        if state.winner is not None and int(state.winner) == 0:
            return {"record": to_dict(state), "level": "beginner", "daily": False,
                    "hints": True, "seen": -1, "sheets": len(state.past_hands),
                    "recorded": False}
    raise AssertionError("no deal won by North-South")


def test_lesson_practice_keeps_the_game_and_icons_are_drawn_not_emoji(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot
) -> None:
    page = make_page(375, 667)
    won = won_game_record()
    preset(page, FAST, raw={"spades.game.v1": json.dumps(won)})
    open_app(page, live_server)

    # Item 7: the end of a won game shows a drawn trophy (an <svg>), no emoji character.
    assert step(page) == "end"
    trophy = page.locator("dialog[open] .end-result svg.icon-trophy")
    expect(trophy).to_be_visible()
    box = trophy.bounding_box()
    assert box is not None and box["width"] >= 12 and box["height"] >= 12
    menu_icon = page.locator("#menu-button svg.icon-menu")
    expect(menu_icon).to_be_attached()
    emoji = page.evaluate("""() => /[\\u2630\\u25b6\\u26a0\\u{1F000}-\\u{1FAFF}]/u
        .test(document.body.innerText)""")
    assert not emoji
    # A finished game is replaced without asking.
    page.click("dialog[open] [data-action=new]")
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("#deal-label")).to_have_text(re.compile(r"^Deal [1-9]\d{0,6}$"))

    # An old long deal number still opens by link.
    open_app(page, live_server, "?deal=8765432109876543")
    expect(page.locator("#deal-label")).to_have_text("Deal 8765432109876543")
    act(page, step(page))
    assert step(page) == "play"
    page.wait_for_function("() => document.querySelector('.seat.active, #turn.mine')")
    assert page.evaluate("getComputedStyle(document.querySelector('#turn.mine'), '::before')"
                         ".content") == '""'  # the turn marker is drawn, not a ▶ glyph
    kept = record(page)

    # From the lessons: a practice hand is played beside the game in progress (issue 40).
    page.click("#menu-button")
    page.click("#screen-menu [data-action='lessons']")
    lessons = page.locator("#screen-lessons")
    expect(lessons.locator(".lx-lesson").first).to_be_visible(timeout=30_000)
    lessons.locator("[role=tab][data-tab='strategy']").click()
    lessons.locator("[data-lesson='strategy-07-dont-trump-partner']").click()
    lessons.locator(".lx-step").last.click()
    expect(lessons.locator(".lx-panel")).to_have_attribute("data-kind", "practice")
    lessons.locator("[data-action='practice']").click()
    expect(page.locator("#screen-table")).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("#deal-label")).not_to_have_text("Deal 8765432109876543")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert record(page) == kept
