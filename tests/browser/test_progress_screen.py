"""After a played hand: the review says how far it got and gives the hand's accuracy, the
hand goes into the progress history, and the Progress screen's charts and tables show the
stored history's numbers (one size, one language: the rest is in tests/test_progress.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ui.progress import history

from .apphelpers import FAST, open_app, play_hand_to_review, preset, stored

pytestmark = pytest.mark.browser


def test_the_progress_screen_shows_a_played_hand(page: Page, live_server: str) -> None:
    preset(page, FAST)
    open_app(page, live_server, "?deal=20261201")
    play_hand_to_review(page, bid="3")
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
    model = history.model(checked)

    page.click("dialog[open] [data-action=sheet-next]")
    page.click("#menu-button")
    page.click("#screen-menu [data-action='progress']")
    screen = page.locator("#screen-progress")
    expect(screen).to_be_visible()
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
