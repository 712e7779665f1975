"""Hostile values in localStorage cannot stop the page: for each key, a value that once broke
the boot (or the lessons) is reset with a notice, and the table stays playable. A storage
that refuses every write is told once, and play goes on."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.apphelpers import FAST, act, open_app, preset, step, stored, wait_ready
from tests.browser.conftest import SNAPSHOT_USED_AND_REFUSED, check_boot, install_service_worker

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]

BIG = "9" * 4300
DEEP_10K = "[" * 10_000 + "]" * 10_000
DEEP_100K = "[" * 100_000 + "]" * 100_000
NOTICE = {
    "game": "saved game could not be read",
    "options": "saved options could not be read",
    "stats": "saved statistics could not be read",
    "progress": "saved progress history could not be read",
    "mistakes": "saved positions of “Your mistakes” could not be read",
}


def hostile_games(game: dict[str, Any]) -> dict[str, str]:
    text = json.dumps(game)
    nil_value = f'"nil_value": {game["record"]["rules"]["nil_value"]}'
    assert '"seen": ' in text and '"sheets": 0' in text and nil_value in text
    return {
        "seen-inf": text.replace(f'"seen": {game["seen"]}', '"seen": 1e999'),
        "sheets-minus-inf": text.replace('"sheets": 0', '"sheets": -1e999'),
        "nil-value-4300-digits": text.replace(nil_value, f'"nil_value": {BIG}'),
        "not-json": "{not json",
        "empty": "",
    }


# Copies of the table for ui/paint.js (spades.paint.v1), one beside each case above: refused
# before Python starts and removed (the page may store a good copy again later).
HOSTILE_PAINTS = (
    "{not json",
    DEEP_100K,
    json.dumps({"v": 1, "key": "k", "lang": "en", "ready": "r", "queued": "q", "body": "",
                "refs": [], "parts": {"scorebar": [["script", {}, "alert(1)"]], "table": []}}),
    json.dumps({"v": 1, "key": "k", "lang": "en", "ready": "r", "queued": "q", "body": "",
                "refs": [], "parts": {"scorebar": [], "table": [["div", {"onclick": "x"}]]}}),
    "9" * 500_000,
)


def play_on(page: Page) -> None:
    """The table is playable: the step asked (a bid, or a card) is clicked and the bots
    answer until the player's next turn."""
    kind = step(page)
    assert kind in ("bid", "blind", "play"), kind
    act(page, kind)
    step(page)


def reload_with(page: Page, items: dict[str, str]) -> None:
    page.evaluate("""items => { for (const [k, v] of Object.entries(items))
                                  localStorage.setItem(k, v); }""", items)
    page.reload()
    wait_ready(page)


def test_hostile_values_are_reset_with_a_notice_and_play_goes_on(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    preset(page, FAST)
    open_app(page, live_server)
    step(page)  # the bots are done: nothing writes the game until the player acts
    good_game = stored(page, "game")
    cases = [("game", label, text) for label, text in hostile_games(good_game).items()]
    cases += [(name, "deep-10k", DEEP_10K) for name in ("options", "stats", "lessons")]
    cases += [("options", "deep-100k", DEEP_100K), ("stats", "inf", '{"levels": 1e999}')]
    cases += [("progress", "deep-10k", DEEP_10K), ("mistakes", "deep-10k", DEEP_10K)]
    for number, (name, label, text) in enumerate(cases):
        paint = HOSTILE_PAINTS[number % len(HOSTILE_PAINTS)]
        items = {"spades.options.v1": json.dumps(FAST), "spades.game.v1": json.dumps(good_game),
                 "spades.paint.v1": paint, f"spades.{name}.v1": text}
        reload_with(page, items)
        assert page.evaluate("localStorage.getItem('spades.paint.v1')") != paint, label
        notices = page.locator("#notices .notice")
        if name == "lessons":
            expect(notices).to_have_count(0)
        else:
            expect(notices, f"{name} {label}").to_have_count(1)
            expect(notices.first).to_contain_text(NOTICE[name])
            assert page.evaluate(f"localStorage.getItem('spades.{name}.v1')") != text, label
        if (name, label) == ("game", "seen-inf"):
            screenshot(page, "notice")
        play_on(page)
        if name == "lessons":
            page.click("#menu-button")
            page.click("#screen-menu [data-action='lessons']")
            lessons = page.locator("#screen-lessons")
            expect(lessons).to_be_visible()
            expect(lessons.locator(".lx-notice")).to_contain_text("could not be read")
            expect(lessons.locator(".lx-lesson").first).to_be_visible(timeout=30_000)
            assert json.loads(page.evaluate("localStorage.getItem('spades.lessons.v1')")) == {
                "version": 1, "lessons": {}}
        if name == "options":
            assert stored(page, "options")["target"] == 500  # the defaults, not FAST's 200
        if name == "progress":  # the Progress screen opens on the reset (empty) history
            assert stored(page, "progress") == {"v": 1, "games": [], "before": {}}
            page.click("#menu-button")
            page.click("#screen-menu [data-action='progress']")
            expect(page.locator("#screen-progress .pg-empty")).to_be_visible()
            page.click("#screen-progress [data-action='menu']")
            page.click("#screen-menu [data-action='resume']")
        if name == "mistakes":  # "Your mistakes" opens on the reset (empty) deck
            assert stored(page, "mistakes") == {"v": 1, "items": []}
            page.click("#menu-button")
            page.click("#screen-menu .menu-list [data-action='mistakes']")
            expect(page.locator("#screen-mistakes")).to_have_attribute("data-state", "empty")
            page.click("#screen-mistakes [data-action='menu']")
            page.click("#screen-menu [data-action='resume']")
        step(page)  # quiet again before the next case writes storage


FULL_STORAGE = """
Storage.prototype.setItem = function () {
  throw new DOMException("Failed to execute 'setItem' on 'Storage': exceeded the quota.",
                         'QuotaExceededError');
};
"""


@SNAPSHOT_USED_AND_REFUSED
def test_a_full_storage_is_told_once_and_play_goes_on(
    page: Page, live_server: str, snapshot: str
) -> None:
    """Refused: a repeat visit whose page finds a snapshot Pyodide refuses, and starts
    without it."""
    preset(page, FAST)  # runs first, so its options are stored before the quota is "full"
    page.context.add_init_script(FULL_STORAGE)
    if snapshot == "refused":
        install_service_worker(page, live_server)
    open_app(page, live_server)
    if snapshot == "refused":
        check_boot(page, snapshot)
    notices = page.locator("#notices .notice")
    expect(notices).to_have_count(1)
    expect(notices.first).to_contain_text("can't be saved in this browser")
    for _ in range(3):  # a bid, then cards: every save fails, the notice stays single
        play_on(page)
    expect(notices).to_have_count(1)
    assert page.evaluate("localStorage.getItem('spades.game.v1')") is None
