"""The snapshot boot (tools/build_web.py's default; see docs/performance.md): ui/pyodide-boot.mjs,
named as PyScript's interpreter module, starts Pyodide from the snapshot when the page's cache
holds it, and as before when it holds a bad one (with none, ``cachedSnapshot`` returns nothing and
the same plain boot follows). Either way the page and the bots' worker give CPython's hint: a
restored interpreter (its string hash seed the snapshot's, its ``random`` reseeded) decides as a
plain one.

This test serves the snapshot boot's pyscript.toml and ui/pyodide-boot.mjs from the repository
through Playwright (so it holds for a ``--no-snapshot`` site too), with the service worker
blocked, and puts the snapshot (the site's, or one made here by build_web.make_snapshot) into the
page's cache itself, where the page and its workers look for it.
"""

from __future__ import annotations

import base64
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from playwright.sync_api import Browser, Route

from spades_core import Rules
from tests.browser.apphelpers import FAST, WELCOME_SEEN_JS, preset, step
from tests.browser.test_coach import LEVEL, _expected, _press_hint
from ui.shared import i18n

ROOT = Path(__file__).resolve().parents[2]
READY = "body[data-ready='1']"
READY_TIMEOUT_MS = 120_000
USED_JS = "performance.getEntriesByName('spades:snapshot-used').length"
PUT_JS = """async ([url, data]) => {
  const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
  const cache = await caches.open('snapshot-test');
  await cache.put(url, new Response(bytes, {headers: {'Content-Type': 'application/zip'}}));
}"""


def one_entry_zip(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("snapshot.bin", data)
    return buffer.getvalue()


@pytest.mark.slow
def test_snapshot_boot_uses_a_cached_snapshot_and_falls_back_on_a_bad_one(
    browser: Browser, live_server: str, tool: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    build_web = tool("build_web")
    made = build_web.site_snapshot()  # the site's own (the default build), else one made here
    snapshot = build_web.SITE / made if made else tmp_path / "snapshot.zip"
    assert made or build_web.make_snapshot(snapshot), "Node could not make the snapshot"
    toml = (ROOT / "pyscript.toml").read_text().replace(
        "./vendor/pyodide/pyodide.mjs", f"./{build_web.SNAPSHOT_BOOT}")
    boot = ROOT / build_web.SNAPSHOT_BOOT

    context = browser.new_context(service_workers="block")
    context.add_init_script(WELCOME_SEEN_JS)
    context.route("**/pyscript.toml", lambda route: route.fulfill(
        body=toml, headers={"Content-Type": "application/toml"}))

    def module(route: Route) -> None:
        route.fulfill(path=str(boot), headers={"Content-Type": "text/javascript"})

    context.route(f"**/{build_web.SNAPSHOT_BOOT}", module)
    errors: list[str] = []
    warnings: list[str] = []
    try:
        page = context.new_page()
        deal = 4242
        i18n.set_language("en")
        i18n.load()
        preset(page, {**FAST, "level": LEVEL, "hints": True})
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: (errors if message.type == "error" else warnings)
                .append(message.text))
        url = live_server + build_web.SNAPSHOT_ZIP

        def load() -> int:
            """Load the page; give CPython's hint on the main thread then from the bots'
            worker; return how many of the two interpreters started from the snapshot."""
            page.goto(f"{live_server}?deal={deal}")
            page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            assert page.locator("#hand .card").count() == 13  # the table, playable
            rules = Rules(target=FAST["target"], blind_nil=FAST["blind_nil"])
            assert step(page) == "bid"
            _press_hint(page)  # the first starts the worker; the main thread answers meanwhile
            assert page.text_content("#message") == _expected(page, rules, deal)
            page.wait_for_selector("body[data-bot-worker=ready]", state="attached",
                                   timeout=READY_TIMEOUT_MS)
            assert _press_hint(page) == "worker"
            assert page.text_content("#message") == _expected(page, rules, deal)
            workers = [int(worker.evaluate(USED_JS)) for worker in page.workers]
            assert len(workers) >= 1
            return int(page.evaluate(USED_JS)) + max(workers)

        page.goto(live_server + "manifest.webmanifest")  # the origin, without booting
        bad = base64.b64encode(one_entry_zip(b"\0" * 4096)).decode()
        page.evaluate(PUT_JS, [url, bad])
        assert load() == 0  # a snapshot Pyodide refuses: the plain boot, page and worker
        assert sum("snapshot refused" in text for text in warnings) >= 1, warnings
        good = base64.b64encode(snapshot.read_bytes()).decode()
        page.evaluate(PUT_JS, [url, good])
        assert load() == 2  # the page and the worker started from the snapshot
    finally:
        context.close()
    assert errors == []
