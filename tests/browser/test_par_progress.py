"""The deal's par worked out hand by hand in the end-of-game dialog: the panel says how far
the par game got, and leaving the dialog stops it between two hands, to be picked up where it
stopped when the end dialog of the same deal comes back (issue 40)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from spades_core import Rules
from spades_core.par import par_game
from tests.browser.apphelpers import FAST, act, open_app, preset, record, step
from ui.shared import i18n

pytestmark = pytest.mark.browser
DEAL = 20261201  # at the Beginner level, target 200: a par game of 9 hands
PAR_TIMEOUT_MS = 300_000
SHOTS = "/work/shots/coach"
PANEL_JS = """() => {
  const node = document.getElementById('coach-par');
  return node && {state: node.dataset.state, hands: node.dataset.parHands || null,
                  text: node.querySelector('.coach-par-line')?.textContent || ''};
}"""


def _body_number(page: Page, name: str) -> float:
    return float(page.get_attribute("body", f"data-{name}") or 0)


def _to_the_end(page: Page) -> None:
    while (kind := step(page)) != "end":
        act(page, kind)


def test_the_par_panel_shows_each_hand_of_the_par_game(page: Page, live_server: str) -> None:
    preset(page, FAST)
    open_app(page, live_server, f"?deal={DEAL}")
    _to_the_end(page)
    expected = par_game(DEAL, "beginner", Rules.from_dict(record(page)["rules"]))
    assert expected.hands >= 3
    # a hand of the par done, not the last: the panel says how far it got
    page.wait_for_selector("#coach-par[data-state=working]", timeout=PAR_TIMEOUT_MS)
    seen = page.evaluate(PANEL_JS)
    page.screenshot(path=f"{SHOTS}/par-progress-1280.png")
    if seen["state"] == "working":  # (read in one go; the next hand may have replaced it)
        hands = int(seen["hands"])
        past = expected.game.past_hands[hands - 1]
        i18n.set_language("en")
        i18n.load()
        assert seen["text"] == i18n.hint_text("par.progress", {
            "hand": str(hands), "ns": i18n.number(past.scores[0]),
            "ew": i18n.number(past.scores[1])})
    page.wait_for_selector("#coach-par[data-state=done]", timeout=PAR_TIMEOUT_MS)
    assert int(page.get_attribute("#coach-par", "data-par") or "") == expected.scores[0]
    assert int(page.get_attribute("#coach-par", "data-par-hands") or "") == expected.hands
    # one job a hand, and the panel said where the par game was after each but the last
    assert _body_number(page, "coach-par_step-count") == expected.hands
    assert _body_number(page, "coach-par-progress") == expected.hands - 1
    assert _body_number(page, "coach-par-total-ms") > 0


def test_leaving_the_end_dialog_keeps_the_par_game_so_far(page: Page, live_server: str) -> None:
    preset(page, FAST)
    open_app(page, live_server, f"?deal={DEAL}")
    _to_the_end(page)
    rules = Rules.from_dict(record(page)["rules"])
    expected = par_game(DEAL, "beginner", rules)
    # leave at once (the same deal again): the par stops after the hand in hand
    page.click("dialog[open] [data-action=replay]")
    page.wait_for_function("() => Number(document.body.dataset.coachParHands || 0) >= 1",
                           timeout=PAR_TIMEOUT_MS)
    shown = _body_number(page, "coach-par-progress")
    _to_the_end(page)
    page.wait_for_selector("#coach-par[data-state=done]", timeout=PAR_TIMEOUT_MS)
    assert int(page.get_attribute("#coach-par", "data-par") or "") == expected.scores[0]
    # picked up where it stopped: each hand of the par game worked out once (a par game
    # played on after the player left would have been finished, cached, then asked once
    # more for where the second game left it: one job more)
    assert _body_number(page, "coach-par_step-count") == expected.hands
    assert _body_number(page, "coach-par-progress") > shown  # the second dialog's progress
