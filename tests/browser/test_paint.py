"""The table painted before Python is ready (ui/paint.js, issue 45): at a reload of a game in
progress the table of the last visit is drawn while Python is held back, inert, with its
"getting ready" line; a card clicked then is kept and played once Python has judged it, any
other click only makes the line blink; and nothing moves when Python takes over (the boxes of
the table, the hand, its cards and the score bar, painted and at the moment Python marks the
page ready), at 1280x800 and 375x667."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.browser.apphelpers import (
    FAST,
    WELCOME_SEEN_JS,
    act,
    hand_cards,
    open_app,
    preset,
    step,
    wait_ready,
)
from tests.browser.conftest import PageWatch

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]

BOXES = """() => {
  const box = el => { const r = el.getBoundingClientRect();
                      return [r.x, r.y, r.width, r.height].map(Math.round); };
  const all = selector => Array.from(document.querySelectorAll(selector), box);
  return { table: all('.screen-table .table'), hand: all('.screen-table .hand'),
           cards: all('.screen-table .hand .card'), trick: all('.screen-table .trick .card'),
           teams: all('.scorebar .team'), toolbar: all('.screen-table .toolbar button') };
}"""
# The boxes at the moment Python marks the page ready (before a kept move is played).
BOXES_AT_READY = f"""new MutationObserver((_, observer) => {{
  if (document.body && document.body.dataset.ready) {{
    window.boxesAtReady = ({BOXES})();
    observer.disconnect();
  }}
}}).observe(document, {{ attributes: true, subtree: true, attributeFilter: ['data-ready'] }});"""
SETTLED = ("() => window.spadesPaint && spadesPaint.settled()"
           " && localStorage.getItem('spades.paint.v1') !== null")


@pytest.fixture
def held_page(browser: Browser, page_watch: PageWatch) -> Iterator[Page]:
    """A returning visitor's page whose service worker is blocked, so that a test can hold
    ui/main.py (Python's start) at the network."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    context.add_init_script(WELCOME_SEEN_JS)
    context.add_init_script(BOXES_AT_READY)
    context.on("request", page_watch.on_request)
    page = context.new_page()
    page.on("console", page_watch.on_console)
    page.on("pageerror", page_watch.on_page_error)
    try:
        yield page
        problems = page_watch.problems()
        if problems:
            pytest.fail("the page misbehaved:\n" + "\n".join(problems), pytrace=False)
    finally:
        context.close()


def reload_held(page: Page) -> list[Route]:
    """Reload with Python's script held back; the table painted from the last visit."""
    page.wait_for_function(SETTLED)
    held: list[Route] = []
    page.context.route("**/ui/main.py", lambda route: held.append(route))
    page.reload()
    page.wait_for_selector("body[data-painted='1']", state="attached")
    return held


def release(page: Page, held: list[Route]) -> None:
    for route in held:
        route.continue_()
    page.context.unroute("**/ui/main.py")
    wait_ready(page)


def painted_state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("""() => ({
      ready: document.body.dataset.ready || '',
      ids: ['hand', 'table', 'trick'].filter(id => document.getElementById(id)),
      status: document.getElementById('boot-status').textContent,
      cards: Array.from(document.querySelectorAll('.screen-table .hand .card'),
                        card => card.dataset.card),
    })"""))


def assert_same_boxes(painted: dict[str, Any], ready: dict[str, Any], size: str) -> None:
    for part, boxes in painted.items():
        # a trick may be empty (South won the last one and leads)
        assert boxes or part == "trick", f"{size}: nothing painted for {part}"
        assert len(ready[part]) == len(boxes), f"{size}: {part}"
        for before, after in zip(boxes, ready[part], strict=True):
            assert max(abs(a - b) for a, b in zip(before, after, strict=True)) <= 1, (
                f"{size}: {part} moved from {before} to {after}")


def test_the_table_is_painted_before_python_and_nothing_moves(
    held_page: Page, live_server: str, screenshot: Shot
) -> None:
    page = held_page
    preset(page, FAST)
    open_app(page, live_server)
    act(page, step(page))  # the bid
    act(page, step(page))  # a card: the game is saved, and its table copied
    assert step(page) == "play"
    cards = hand_cards(page)

    held = reload_held(page)
    state = painted_state(page)
    assert state["ready"] == "" and state["ids"] == []  # Python's own nodes are not there
    assert state["cards"] == cards and state["status"] == "Getting ready…"
    painted = page.evaluate(BOXES)
    screenshot(page, "painted-1280")
    # a click on the toolbar is visibly ignored: the line blinks, no dialog opens
    page.click(".screen-table .toolbar [data-action=options]")
    page.wait_for_selector("#boot-status.paint-nudge", state="attached")
    # a card clicked is kept and marked, not played (nothing can play it yet)
    kept = str(page.get_attribute(".screen-table .hand .card.playable", "data-card"))
    page.click(f".screen-table .hand .card[data-card='{kept}']")
    page.wait_for_selector(f".hand .card.paint-kept[data-card='{kept}']")
    assert page.get_attribute("body", "data-paint-kept") == "play"
    assert painted_state(page)["cards"] == cards
    assert "your move will be played" in painted_state(page)["status"]
    release(page, held)
    assert_same_boxes(painted, page.evaluate("window.boxesAtReady"), "1280x800")
    # Python judged the kept card: played once, the bots answered, South's turn again
    page.wait_for_function(f"() => !document.querySelector('#hand .card[data-card=\"{kept}\"]')")
    assert step(page) == "play"
    assert hand_cards(page) == [card for card in cards if card != kept]
    assert page.locator("dialog[open]").count() == 0
    assert not page.locator(".paint-kept").count()

    page.set_viewport_size({"width": 375, "height": 667})
    held = reload_held(page)
    painted = page.evaluate(BOXES)
    screenshot(page, "painted-375")
    release(page, held)
    assert_same_boxes(painted, page.evaluate("window.boxesAtReady"), "375x667")
