"""Driving the app in the browser tests: presets in storage, waiting for the player's turn,
playing through clicks."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

READY = "body[data-ready='1']"
# Every test page is a returning visitor unless it asks for a first visit (conftest): the
# welcome is shown once, on a first visit with nothing saved.
WELCOME_SEEN_JS = ("if (localStorage.getItem('spades.welcome.v1') === null)"
                   " localStorage.setItem('spades.welcome.v1', '{\"seen\": true}');")
READY_TIMEOUT_MS = 90_000
STEP_TIMEOUT_MS = 60_000
FAST = {"level": "beginner", "target": 200, "speed": "instant", "blind_nil": False,
        "sound": False, "language": "en", "auto_play": "never"}  # every card by a click

# What the player is asked to do now (or false while the bots play).
STEP_JS = """() => {
  const dialog = document.querySelector('dialog[open]');
  if (dialog) {
    if (dialog.querySelector('[data-action=sheet-next]')) return 'sheet';
    if (dialog.querySelector('[data-action=replay]')) return 'end';
    return 'dialog';
  }
  if (document.querySelector('#panel:not([hidden]) [data-action=bid]')) return 'bid';
  if (document.querySelector('#panel:not([hidden]) [data-action=look]')) return 'blind';
  if (document.querySelector('#turn.mine') && document.querySelector('#hand .card.playable'))
    return 'play';
  return false;
}"""


def preset(page: Page, options: dict[str, Any] | None = None,
           raw: dict[str, str] | None = None) -> None:
    """Store options (and raw storage values) once, before the app's first load in this
    context; reloads keep what the app saved since."""
    items = dict(raw or {})
    if options is not None:
        items["spades.options.v1"] = json.dumps(options)
    script = (
        "if (!localStorage.getItem('test.preset')) {"
        f" const items = {json.dumps(items)};"
        " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);"
        " localStorage.setItem('test.preset', '1'); }"
    )
    page.context.add_init_script(script)


def open_app(page: Page, base: str, query: str = "") -> None:
    page.goto(base + query)
    wait_ready(page)


def wait_ready(page: Page) -> None:
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)


def step(page: Page) -> str:
    handle = page.wait_for_function(STEP_JS, timeout=STEP_TIMEOUT_MS)
    return str(handle.json_value())


def stored(page: Page, name: str) -> Any:
    text = page.evaluate(f"localStorage.getItem('spades.{name}.v1')")
    return None if text is None else json.loads(text)


def record(page: Page) -> dict[str, Any]:
    return stored(page, "game")["record"]  # type: ignore[no-any-return]


def hand_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")


def trick_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#trick .slot",
        "els => els.map(e => e.className + ':' + (e.firstElementChild?.dataset.card ?? ''))",
    )


def act(page: Page, kind: str, bid: str = "3") -> None:
    """Do the obvious thing for the step: bid, play the first playable card, next hand."""
    if kind == "bid":
        page.click(f"#panel [data-action=bid][data-bid='{bid}']")
    elif kind == "blind":
        page.click("#panel [data-action=look]")
    elif kind == "play":
        page.click("#hand .card.playable >> nth=0")
    elif kind == "sheet":
        page.click("dialog[open] [data-action=sheet-next]")
    else:
        raise AssertionError(f"unexpected step {kind}")


def play_until(page: Page, wanted: str, max_steps: int = 80) -> None:
    """Do the obvious thing at each step (:func:`act`) until the step is ``wanted``."""
    for _ in range(max_steps):
        kind = step(page)
        if kind == wanted:
            return
        act(page, kind)
    raise AssertionError(f"no {wanted} step in {max_steps} steps")


def play_to_end(page: Page, max_steps: int = 400) -> list[str]:
    seen: list[str] = []
    for _ in range(max_steps):
        kind = step(page)
        seen.append(kind)
        if kind == "end":
            return seen
        act(page, kind)
    scores = page.evaluate("[score-ns, score-ew].map(e => e.textContent)".replace(
        "score-ns, score-ew", "document.getElementById('score-ns'), "
        "document.getElementById('score-ew')"))
    raise AssertionError(f"the game did not end: {seen[-12:]}, scores {scores}")


REVIEW_TIMEOUT_MS = 240_000  # a hand's review in the coach's worker, on a loaded machine


def play_hand_to_review(page: Page, bid: str = "3", max_steps: int = 80) -> list[str]:
    """Play South's one hand (its bid, then each card by a click) to the score sheet and wait
    for the coach's review of it; the steps seen, the last one ``"sheet"``."""
    kinds: list[str] = []
    for _ in range(max_steps):  # one hand: a bid and 13 cards for South
        kind = step(page)
        kinds.append(kind)
        if kind == "sheet":
            break
        act(page, kind, bid=bid)
    assert kinds[-1] == "sheet", kinds
    page.wait_for_selector("#coach-review[data-state=done]", timeout=REVIEW_TIMEOUT_MS)
    return kinds
