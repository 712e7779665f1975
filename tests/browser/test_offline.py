"""Offline and installable: the service worker (sw.js) caches what a visit fetches, the page
reloads, plays (the Expert's worker too) and opens a lesson with the network off, a new build gets
a new cache (old ones deleted), and the manifest is served and linked."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from spades_core import Bid, Card, GameState, Seat, parse_bid, parse_card
from spades_core.bots import bot_action, make_bot
from spades_core.record import from_dict
from tests.browser.apphelpers import (
    FAST,
    act,
    hand_cards,
    open_app,
    preset,
    record,
    step,
    wait_ready,
)
from tests.browser.conftest import SNAPSHOT_USED_AND_REFUSED, check_boot, wait_controlled
from tests.browser.test_lessons_ui import open_lessons, panel
from tests.browser.test_serving import fetch

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"  # built by tools/build_web.py (its SITE), served as it is
EXPERT = {**FAST, "level": "expert"}
# Fetched by the browser or the worker itself, never cached.
SW_OWN = {"sw.js", "vendor/sw-build.js", "vendor/build.json"}
# Precached for installing, though a page load does not fetch them.
INSTALL_ONLY = {"manifest.webmanifest", "ui/icons/icon.svg", "ui/icons/icon-192.png",
                "ui/icons/icon-512.png"}

CACHES_JS = "async () => (await caches.keys()).sort()"


def build_of(page: Page, base: str) -> str:
    return str(json.loads(fetch(base, "/vendor/build.json")[2])["build"])


def bots_decide_as_cpython(data: dict[str, Any], level: str) -> int:
    """Every bot's bid and card in the page's record (its first hand) is the one CPython's
    bot of ``level`` gives in the same position (the bots are deterministic: the same view,
    the same decision, in the page, its worker or here); how many there were."""
    hand = data["hands"][0]
    state: GameState = from_dict({**data, "hands": [
        {key: value for key, value in hand.items() if key == "cards"}]})
    bot = make_bot(level)
    actions: list[Bid | Card] = [parse_bid(text) for text in hand["bids"]]
    actions += [parse_card(text) for text in hand["plays"]]
    decided = 0
    for action in actions:
        if state.to_act != Seat.S:
            assert bot_action(bot, state) == action, (state.to_act, action)
            decided += 1
        state = state.apply(action)
    return decided


@SNAPSHOT_USED_AND_REFUSED
def test_offline_reload_plays_with_the_expert_and_opens_a_lesson(
    page: Page, live_server: str, screenshot: Shot, snapshot: str
) -> None:
    """The offline reload is a repeat visit: the page and the Expert's worker start from the
    snapshot (or, refused, without it), and the Expert decides as CPython's either way."""
    failed: list[str] = []

    def on_failed(request: Request) -> None:
        # The worker's own tries of the network fail offline, as they should; a reload or a
        # navigation cancels downloads in flight (ERR_ABORTED). Anything else would be a miss.
        if request.service_worker is None and request.failure != "net::ERR_ABORTED":
            failed.append(f"{request.url} {request.failure}")

    page.context.on("requestfailed", on_failed)
    # a busy machine: the worker's start and decisions are not dropped for their time
    page.context.add_init_script("window.spadesWorkerStartMs = 120000;"
                                 " window.spadesWorkerDecideMs = 60000;")
    preset(page, EXPERT)
    open_app(page, live_server)
    assert wait_controlled(page) == live_server + "sw.js"
    assert page.evaluate(CACHES_JS) == ["spades-" + build_of(page, live_server)]

    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    expect(page.locator("#seat-S")).to_be_visible()
    assert len(hand_cards(page)) == 13
    screenshot(page, "offline-table")
    # The bots (Expert, in its worker) bid and play up to South's turn, offline.
    assert step(page) == "bid"
    act(page, "bid")
    assert step(page) == "play"
    page.wait_for_selector("body[data-bot-worker=ready]", state="attached", timeout=120_000)
    act(page, "play")
    # South's card left the hand. (Not "the trick shows one more card": at the instant
    # pace the bots may finish the trick and clear it between two looks.)
    expect(page.locator("#hand .card")).to_have_count(12)
    # The bots finish the trick (the Expert's worker again) up to South's next turn.
    assert step(page) == "play"
    assert page.get_attribute("body", "data-bot-decide-ms") is not None  # the worker decided
    check_boot(page, snapshot, workers=True)
    assert bots_decide_as_cpython(record(page), "expert") >= 3 + 3

    open_lessons(page, live_server, goto=False)
    screen = page.locator("#screen-lessons")
    screen.locator("[data-lesson='rules-02-tricks']").click()
    expect(screen.locator("h2")).to_have_text("Tricks: the highest card wins")
    expect(panel(page)).to_have_attribute("data-kind", "explain")
    page.locator("#screen-lessons [data-action='next']").click()
    expect(panel(page)).not_to_have_attribute("data-step", "0")

    # Any address in scope opens offline (a deal link, say): the cached page answers.
    page.goto(live_server + "?deal=20261129")
    wait_ready(page)
    # the game begun above is in progress: the link asks before replacing it
    page.click("dialog[open] [data-action=new-yes]")
    expect(page.locator("#deal-label")).to_have_text("Deal 20261129")
    screenshot(page, "offline-deal-link")
    assert failed == []


def test_precache_is_what_a_visit_fetches(
    page: Page, live_server: str, tool: Callable[[str], ModuleType]
) -> None:
    """The page, the Expert's worker and the lessons fetch exactly the precached files; every
    path fetched is in the site and answers 200 (the server serves nothing else)."""
    fetched: set[str] = set()

    def record(request: Request) -> None:
        if request.service_worker is None and request.url.startswith(live_server):
            fetched.add(urlsplit(request.url).path.lstrip("/"))

    page.context.on("request", record)
    preset(page, EXPERT)
    open_app(page, live_server)
    wait_controlled(page)
    # The Expert's worker starts once the page is ready; its only file of its own is its script
    # (it fetches the same pyscript.toml, Pyodide files and app.zip as the page).
    for _ in range(120):
        if "ui/botworker.py" in fetched:
            break
        page.wait_for_timeout(500)
    assert "ui/botworker.py" in fetched
    open_lessons(page, live_server, goto=False)
    page.wait_for_timeout(1000)
    fetched.discard("")  # the address "/" is index.html, fetched as "/" by the navigation
    precached = set(tool("build_web").precache_files())
    assert fetched - SW_OWN - precached == set(), "fetched but not precached"
    # the snapshot boot's snapshot (unless SPADES_SNAPSHOT=0) is read from the cache
    snapshot = {tool("build_web").site_snapshot()} - {None}
    assert precached - fetched - INSTALL_ONLY - snapshot == {"index.html"}, (
        "precached but never fetched")
    build_web = tool("build_web")
    assert build_web.SITE == SITE
    assert fetched <= set(build_web.site_files()), "fetched but not in the site"
    for path in sorted(fetched | {""}):
        assert fetch(live_server, "/" + path)[0] == 200, path


def test_served_headers_and_manifest(live_server: str) -> None:
    status, headers, body = fetch(live_server, "/sw.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache"
    assert b'importScripts("./vendor/sw-build.js")' in body
    for path in ("/", "/index.html", "/vendor/sw-build.js", "/vendor/build.json"):
        assert fetch(live_server, path)[1]["cache-control"] == "no-cache"
    status, headers, body = fetch(live_server, "/manifest.webmanifest")
    assert status == 200 and headers["content-type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["start_url"] == "." and manifest["display"] == "standalone"
    assert manifest["short_name"] and manifest["name"]
    sizes = {icon["sizes"]: icon["type"] for icon in manifest["icons"]}
    assert sizes == {"any": "image/svg+xml", "192x192": "image/png", "512x512": "image/png"}
    for icon in manifest["icons"]:
        status, headers, data = fetch(live_server, "/" + icon["src"])
        assert status == 200 and headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(data[16:20]) == int.from_bytes(data[20:24]) == side
    head = (ROOT / "index.html").read_text().split("</head>")[0]
    assert '<link rel="manifest" href="./manifest.webmanifest">' in head
    assert '<meta name="theme-color" content="#0b6b3a">' in head
    assert '<script type="module" src="./ui/sw-register.js"></script>' in head
    # The CSP lets the page register its worker and load its manifest (default-src 'self').
    assert "worker-src 'self' blob:" in head and "default-src 'self'" in head


def test_build_id_follows_the_served_files(
    tool: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    build_web = tool("build_web")
    files = build_web.precache_files()
    assert build_web.build_id(files) == json.loads((SITE / "vendor/build.json").read_text())[
        "build"
    ]
    for name in [*files, "sw.js"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SITE / name, tmp_path / name)
    first = build_web.build_id(files, tmp_path)
    assert first == build_web.build_id(files, SITE)
    for name in ("ui/table.css", "vendor/app.zip", "sw.js"):
        original = (tmp_path / name).read_bytes()
        (tmp_path / name).write_bytes(original + b"\n")
        assert build_web.build_id(files, tmp_path) != first, name
        (tmp_path / name).write_bytes(original)
    assert build_web.build_id(files, tmp_path) == first
    # The worker names its cache by the build, deletes the other builds' caches on activate,
    # and takes over at once (skipWaiting + clients.claim).
    script = (ROOT / "sw.js").read_text()
    assert 'const CACHE = PREFIX + BUILD;' in script
    assert "name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name)" in script
    assert "self.skipWaiting()" in script and "self.clients.claim()" in script


def test_a_new_build_replaces_the_cache_on_the_next_load(
    page: Page, live_server: str
) -> None:
    """A served file changes: the next load installs the new worker, whose cache replaces the
    old one, and the page then gets the new file (from the new cache, even offline)."""
    target = SITE / "vendor/pyodide/pyodide-lock.json"
    original = target.read_bytes()
    stat = target.stat()
    preset(page, FAST)
    open_app(page, live_server)
    wait_controlled(page)
    old = build_of(page, live_server)
    assert page.evaluate(CACHES_JS) == ["spades-" + old]
    try:
        target.write_bytes(original.rstrip() + b"\n\n")
        new = build_of(page, live_server)
        assert new != old
        page.reload()
        wait_ready(page)
        for _ in range(240):
            if page.evaluate(CACHES_JS) == ["spades-" + new]:
                break
            page.wait_for_timeout(250)
        assert page.evaluate(CACHES_JS) == ["spades-" + new]
        page.context.set_offline(True)
        page.reload()
        wait_ready(page)
        text = page.evaluate(
            "async () => await (await fetch('./vendor/pyodide/pyodide-lock.json')).text()"
        )
        assert text.endswith("\n\n")
    finally:
        target.write_bytes(original)
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert build_of(page, live_server) == old
