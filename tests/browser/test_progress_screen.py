"""After a played hand: the review says how far it got and gives the hand's accuracy, the
hand goes into the progress history, and the Progress screen's charts and tables show the
stored history's numbers; South's deliberate blunder lands in "Your mistakes"; the page's
export, imported into an empty profile, gives the same charts and deck, and a damaged file is
refused with a message, changing nothing (one size, one language: the rest is in
tests/test_progress.py and tests/test_deck.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ui.progress import history

from .apphelpers import FAST, open_app, play_hand_to_review, preset, stored, wait_ready

pytestmark = pytest.mark.browser


# Deal 20261201, South first to bid, holds A♣ K♠ and eleven low or middling cards: the
# Expert bids 1. A bid of 13 (every trick) is a deliberate blunder: weighed in CPython
# (spades_core.review.weigh) it costs 191.4 points against 1, standard error 3.4 (56 of
# them clear of zero; a blunder is 25 points, docs/progress.md), the team set by ~130
# (checked in CPython: tests/test_deck.py, the page's deliberate bid).
BLUNDER_BID, BETTER_BID = "13", "1"
TABLES = "#screen-progress table"


def test_the_progress_screen_shows_a_played_hand(page: Page, live_server: str,
                                                  tmp_path: Path) -> None:
    preset(page, FAST)
    open_app(page, live_server, "?deal=20261201")
    play_hand_to_review(page, bid=BLUNDER_BID)
    # the review went a few decisions per coach job, and said how far it got
    done = page.get_attribute("body", "data-coach-review-done")
    count = page.get_attribute("body", "data-coach-review-of")
    assert done is not None and done == count and int(count) >= 2
    assert int(page.get_attribute("body", "data-coach-review_part-count") or 0) >= 2
    figure = page.locator("#coach-review .coach-figure")
    expect(figure).to_contain_text(f"of your {count} decisions without error")

    saved = stored(page, "progress")
    checked, clean = history.check(saved)
    assert clean and len(checked["games"]) == 1
    entry = checked["games"][0]
    assert entry["hands"] == 1 and entry["n"] == int(count) and entry["open"]
    assert figure.get_attribute("data-lost") == str(entry["lost"])
    expect(figure).to_contain_text("blunder")
    # "Your mistakes" holds exactly that decision (South's bid, the hand's first action)
    deck_text = page.evaluate("localStorage.getItem('spades.mistakes.v1')")
    bids = [item for item in json.loads(deck_text)["items"] if item["i"] == 0]
    assert [(item["played"], item["better"], item["kind"], item["skill"]) for item in bids] == [
        (BLUNDER_BID, BETTER_BID, "blunder", "bidding")]
    assert int(entry["lost"]) >= bids[0]["cost"] >= 250
    model = history.model(checked)

    page.click("dialog[open] [data-action=sheet-next]")
    page.click("#menu-button")
    page.click("#screen-menu [data-action='progress']")
    screen = page.locator("#screen-progress")
    expect(screen).to_be_visible()
    expect(page.locator(".scorebar #score-ns")).to_be_hidden()  # the game's score: on the table
    dots = screen.locator("#pg-lost svg .pg-dot")
    expect(dots).to_have_count(1)
    assert dots.get_attribute("data-value") == str(model["series"][0]["per_hand"])
    rows = screen.locator("#pg-lost tbody tr")
    expect(rows).to_have_count(1)
    skills = [row for row in model["skills"] if row["decisions"]]
    bars = screen.locator("#pg-skills svg .pg-bar")
    expect(bars).to_have_count(len(skills))
    assert [bars.nth(i).get_attribute("data-value") for i in range(len(skills))] == [
        str(row["per_decision"]) for row in skills]
    cells = screen.locator("#pg-skills tbody tr td:nth-child(2)")
    assert cells.all_inner_texts() == [str(row["decisions"]) for row in skills]
    assert sum(row["decisions"] for row in skills) == entry["n"]
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits)

    # export, then import into an empty profile: the same tables and the same deck
    tables = screen.locator("table").all_inner_texts()
    assert len(tables) >= 2
    progress_text = page.evaluate("localStorage.getItem('spades.progress.v1')")
    with page.expect_download() as download:
        screen.locator("[data-action=progress-export]").click()
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    page.evaluate("localStorage.removeItem('spades.progress.v1');"
                  " localStorage.removeItem('spades.mistakes.v1')")
    page.reload()
    wait_ready(page)
    page.click("#menu-button")
    page.click("#screen-menu [data-action='progress']")
    expect(screen.locator("table")).to_have_count(0)  # an empty profile: no chart yet
    page.set_input_files("#progress-file", exported)
    status = screen.locator("#progress-status")
    expect(status).to_have_text("Your progress was imported.")
    assert screen.locator("table").all_inner_texts() == tables
    assert json.loads(page.evaluate("localStorage.getItem('spades.mistakes.v1')")) == json.loads(
        deck_text)
    assert history.check(stored(page, "progress")) == history.check(json.loads(progress_text))

    # a damaged file (a figure no hand can have): refused with a message, nothing changed
    data = json.loads(exported.read_text())
    data["history"]["games"][0]["hands"] = -3
    before = page.evaluate("[localStorage.getItem('spades.progress.v1'),"
                           " localStorage.getItem('spades.mistakes.v1')]")
    page.set_input_files("#progress-file", files=[{
        "name": "damaged.json", "mimeType": "application/json",
        "buffer": json.dumps(data).encode()}])
    expect(status).to_contain_text("nothing was changed")
    expect(status).to_have_class("pg-status pg-bad")
    assert screen.locator("table").all_inner_texts() == tables
    assert page.evaluate("[localStorage.getItem('spades.progress.v1'),"
                         " localStorage.getItem('spades.mistakes.v1')]") == before
