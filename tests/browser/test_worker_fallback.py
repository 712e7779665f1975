"""The Expert never stalls: with its worker refused (the ``Worker`` constructor throws) or
silent (a worker that never delivers a message), West, North and East still bid and play at
Expert level, on the main thread in slices that keep the page painting; with a working
worker, the worker answers and decides."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.browser.apphelpers import FAST, act, open_app, preset, record, step
from tests.browser.conftest import (
    SNAPSHOT_USED_AND_REFUSED,
    PageWatch,
    check_boot,
    install_service_worker,
)

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]
EXPERT = {**FAST, "level": "expert"}

THROWING_WORKER = """
window.Worker = class { constructor() { throw new Error('test: Worker refused'); } };
"""
# a Worker that is built but never loads, never answers: its messages go nowhere
SILENT_WORKER = """
window.Worker = class extends EventTarget {
  constructor() { super(); this.onmessage = null; this.onerror = null; }
  postMessage() {}
  terminate() {}
};
window.spadesWorkerStartMs = 4000;
"""
# frames painted, and the longest time between two frames since the counters were reset
RESPONSIVENESS = """
window.__frames = 0;
window.__longestGap = 0;
(function frame(now) {
  if (window.__last !== undefined)
    window.__longestGap = Math.max(window.__longestGap, now - window.__last);
  window.__last = now;
  window.__frames++;
  requestAnimationFrame(frame);
})();
"""


# what the page reports when the test refuses it a worker (and only then)
EXPECTED_ERRORS = ("test: Worker refused", "worker-src", "Content Security Policy")


@pytest.fixture
def tolerant_page(browser: Browser, page_watch: PageWatch) -> Iterator[Page]:
    """Like ``page``, except for the page errors the test itself causes (a refused Worker)."""
    context, new_page = page_watch.open(browser)
    try:
        yield new_page
        page_watch.check(EXPECTED_ERRORS)
    finally:
        context.close()


def bots_bid_and_play(page: Page) -> dict[str, object]:
    """South bids, the three Expert bots bid; South leads, the bots play: the hand's
    record shows their four bids and a whole trick."""
    assert step(page) == "bid"
    act(page, "bid")
    assert step(page) == "play"
    hand = record(page)["hands"][0]
    assert len(hand["bids"]) == 4
    act(page, "play")
    assert step(page) == "play"
    hand = record(page)["hands"][0]
    assert len(hand["plays"]) >= 4
    return hand  # type: ignore[no-any-return]


def worker_state(page: Page) -> str | None:
    return page.evaluate("document.body.dataset.botWorker ?? null")  # type: ignore[no-any-return]


def test_expert_plays_when_the_worker_constructor_throws(
    tolerant_page: Page, live_server: str, screenshot: Shot
) -> None:
    page = tolerant_page
    page.context.add_init_script(THROWING_WORKER)
    page.context.add_init_script(RESPONSIVENESS)
    preset(page, EXPERT)
    open_app(page, live_server, "?deal=20261129")
    begin = time.monotonic()
    hand = bots_bid_and_play(page)
    spent = time.monotonic() - begin
    # known at once (PyScript's report), well before the start's time-out; its banner gone
    page.wait_for_function("document.body.dataset.botWorker === 'failed'", timeout=10_000)
    assert page.locator(".py-error").count() == 0
    shot = screenshot(page, "worker-throws")
    assert shot.exists()
    slice_ms = page.evaluate("+document.body.dataset.botSliceMs")
    print(f"\nworker throws: bids {hand['bids']}, 2 turns in {spent:.1f} s, "
          f"longest main-thread slice {slice_ms} ms")


def test_expert_plays_when_the_csp_refuses_blob_workers(
    tolerant_page: Page, live_server: str
) -> None:
    """Chromium blocks the blob: worker (a console error) and PyScript never settles it:
    the start's time-out (shortened to 8 s) drops it; the bots played meanwhile."""
    page = tolerant_page

    def without_blob_workers(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        assert "worker-src 'self' blob:" in body
        route.fulfill(response=response, body=body.replace("worker-src 'self' blob:",
                                                           "worker-src 'self'"))

    page.route(re.compile(r".*/(index\.html)?(\?.*)?$"), without_blob_workers)
    page.context.add_init_script("window.spadesWorkerStartMs = 8000;")
    preset(page, EXPERT)
    open_app(page, live_server, "?deal=31337")
    bots_bid_and_play(page)
    page.wait_for_function("document.body.dataset.botWorker !== 'starting'", timeout=30_000)
    assert worker_state(page) == "failed"
    assert page.locator(".py-error").count() == 0
    act(page, "play")
    assert step(page) == "play"


def test_expert_plays_when_the_worker_never_answers(
    page: Page, live_server: str
) -> None:
    page.context.add_init_script(SILENT_WORKER)
    page.context.add_init_script(RESPONSIVENESS)
    preset(page, EXPERT)
    open_app(page, live_server, "?deal=777")
    begin = time.monotonic()
    bots_bid_and_play(page)
    assert time.monotonic() - begin < 4 + 30  # the start's time-out plus a margin
    page.wait_for_function("document.body.dataset.botWorker === 'failed'", timeout=10_000)
    # the page kept painting while the bots thought on the main thread
    page.evaluate("window.__frames = 0; window.__longestGap = 0")
    act(page, "play")
    assert step(page) == "play"
    frames, gap = page.evaluate("[window.__frames, window.__longestGap]")
    slice_ms = page.evaluate("+document.body.dataset.botSliceMs")
    print(f"\nsilent worker: {frames} frames during 3 decisions, longest gap between frames "
          f"{gap:.0f} ms, longest slice {slice_ms} ms")
    assert frames > 3
    assert slice_ms < 1000  # a whole decision is several; a loaded machine stretches them


@SNAPSHOT_USED_AND_REFUSED
def test_a_working_worker_decides_for_the_expert(
    page: Page, live_server: str, snapshot: str
) -> None:
    """Refused: a repeat visit whose page and worker find a snapshot Pyodide refuses, and
    start without it."""
    page.context.add_init_script("window.spadesWorkerStartMs = 120000;")  # a busy machine
    preset(page, EXPERT)
    if snapshot == "refused":
        install_service_worker(page, live_server)
    open_app(page, live_server, "?deal=4242")
    page.wait_for_function("document.body.dataset.botWorker === 'ready'", timeout=120_000)
    start_ms = page.evaluate("+document.body.dataset.botWorkerMs")
    print(f"\nworker answered its ping after {start_ms} ms")
    bots_bid_and_play(page)
    assert worker_state(page) == "ready"
    assert re.fullmatch(r"\d+", str(start_ms))
    if snapshot == "refused":
        check_boot(page, snapshot, workers=True)
