"""The page paints its table before Python is ready, then loads the engine, all from its origin."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

if TYPE_CHECKING:
    from tests.browser.conftest import PageWatch

pytestmark = pytest.mark.browser

READY = "body[data-ready='1']"
READY_TIMEOUT_MS = 90_000
SEATS = {"n": "North", "e": "East", "s": "You", "w": "West"}
Shot = Callable[[Page, str], Path]


def wait_until_ready(page: Page) -> None:
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)


def assert_table_drawn(page: Page) -> None:
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator(".scorebar")).to_be_visible()
    for seat, name in SEATS.items():
        badge = page.locator(f".seat-{seat}")
        expect(badge).to_be_visible()
        expect(badge).to_contain_text(name)
        expect(badge.locator(".seat-letter")).to_have_text(seat.upper())


def test_table_paints_before_python_then_engine_loads(
    page: Page, live_server: str, page_watch: PageWatch, screenshot: Shot
) -> None:
    held: list[Route] = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(live_server)

    # The interpreter is held back, so Python cannot be ready: the table must be painted anyway.
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "Pyodide's wasm was never requested"
    assert_table_drawn(page)
    expect(page.locator("#boot-progress")).to_be_visible()
    assert page.evaluate("document.body.dataset.ready") is None
    paints = page.evaluate("performance.getEntriesByType('paint').map(e => e.name)")
    assert "first-contentful-paint" in paints
    screenshot(page, "before-ready")

    held[0].continue_()
    wait_until_ready(page)
    expect(page.locator("#hand .card")).to_have_count(13)
    expect(page.locator("#menu-button")).to_be_enabled()
    expect(page.locator("#boot-progress")).to_be_hidden()
    first_paint, ready = page.evaluate(
        """[performance.getEntriesByName('first-contentful-paint')[0].startTime,
            performance.getEntriesByName('spades:ready')[0].startTime]"""
    )
    assert first_paint < ready
    assert any(url.endswith("/vendor/pyodide/pyodide.asm.wasm") for url in page_watch.requests)
    assert any(url.endswith("/vendor/app.zip") for url in page_watch.requests)


@pytest.mark.parametrize(
    ("width", "height"), [(1280, 800), (375, 667)], ids=["desktop-1280x800", "phone-375x667"]
)
def test_ready_page_fits_the_screen(
    page: Page, live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server)
    wait_until_ready(page)
    assert_table_drawn(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        "sideways scroll"
    )
    for seat in SEATS:
        box = page.locator(f".seat-{seat}").bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    screenshot(page, "ready")
