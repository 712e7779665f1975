"""Browser test fixtures: a live server (spades_server, as `python3 -m spades_server` serves
the page to players), Debian's Chromium through Playwright,
and a ``page`` that fails its test on any request off the page's origin, any page error and any
console error.

The snapshot boot (docs/performance.md) both ways: a test parametrized with
``SNAPSHOT_USED_AND_REFUSED`` runs once as the site is built (``snapshot`` is ``"used"``, or
``"plain"`` for a site without a snapshot) and once with the snapshot refused (``"refused"``:
its pages are served, through Playwright's routing, which the service worker's own fetches go
through too, a zip of 4 KB of zeros in place of ``snapshot-<key>.zip``, which Pyodide refuses).
Only a repeat visit reads the snapshot (from the service worker's cache):
``install_service_worker`` makes the next load one, and ``check_boot`` asserts how the page and
its workers started.

Screenshots go to ``test-artifacts/``. Chromium comes from ``$CHROMIUM`` or ``/usr/bin/chromium``.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    sync_playwright,
)

from tests.browser.apphelpers import WELCOME_SEEN_JS
from tests.helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
QUICK_WAIT = 5.0  # seconds (the server's default is 10): the quick-match test waits that long
# Every room of the live server deals from this deal number (Config.deal_seed, tests only):
# the rooms' tests play the same hands, and last as long, on every run. With it a game to
# 50 points whose four players bid 3 and play their first playable card ends with its
# first hand (test_rooms.py's four-player test).
DEAL_SEED = 3


_chromium = load_tool("chromium")
CHROMIUM: str = _chromium.CHROMIUM
CHROMIUM_ARGS: list[str] = _chromium.CHROMIUM_ARGS


# Chromium's renderer now and then dies while Pyodide boots ("Page crashed"), on pages and
# steps that pass the next time (seen in one CI run and one benchmark run, each time once,
# and never again on the same page in a row). A browser test that fails that way runs once
# more (pytest-rerunfailures; the summary counts the rerun); any other failure, or a second
# crash, fails the test as before.
RENDERER_CRASHED = ["Page crashed", "Target crashed"]


# The snapshot's address in the site (tools/build_web.py's snapshot_file) and the marks
# ui/pyodide-boot.mjs leaves in a page or a worker it started: [from the snapshot, refused].
SNAPSHOT_ROUTE = "**/vendor/pyodide/snapshot-*.zip"
BOOT_MARKS_JS = ("['spades:snapshot-used', 'spades:snapshot-refused']"
                 ".map(name => performance.getEntriesByName(name).length)")
BOOT_MARKS = {"used": [1, 0], "refused": [0, 1], "plain": [0, 0]}
SNAPSHOT_USED_AND_REFUSED = pytest.mark.parametrize("snapshot", ["used", "refused"], indirect=True)
CONTROLLED_JS = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise(done => navigator.serviceWorker.addEventListener('controllerchange', done));
  }
  return navigator.serviceWorker.controller.scriptURL;
}"""


def refused_snapshot() -> bytes:
    """What ui/pyodide-boot.mjs reads (a zip of one deflated entry) holding no snapshot:
    4 KB of zeros, which Pyodide refuses (a bad magic number)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("snapshot.bin", b"\0" * 4096)
    return buffer.getvalue()


def wait_controlled(page: Page) -> str:
    """Wait until the service worker controls the page (it has precached the site); its URL."""
    return str(page.evaluate(CONTROLLED_JS))


def install_service_worker(page: Page, base: str) -> None:
    """Make the page's next load a repeat visit: load the page only until the service worker
    controls it, which has then precached the site (the snapshot with it)."""
    page.goto(base)
    wait_controlled(page)


def check_boot(page: Page, snapshot: str, workers: bool = False) -> None:
    """The page of a repeat visit (and, with ``workers``, one of its workers: the bots' worker
    started after the service worker had installed) started as ``snapshot`` says: from the
    snapshot (``used``), plainly after Pyodide refused it (``refused``), plainly without one
    (``plain``); no interpreter of the page started otherwise."""
    want = BOOT_MARKS[snapshot]
    assert page.evaluate(BOOT_MARKS_JS) == want
    if workers:
        marks = [worker.evaluate(BOOT_MARKS_JS) for worker in page.workers]
        assert want in marks, marks
        assert all(mark in (want, BOOT_MARKS["plain"]) for mark in marks), marks


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs the page in headless Chromium (Playwright)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=RENDERER_CRASHED))


@pytest.fixture(scope="session")
def tool() -> Callable[[str], ModuleType]:
    """``tool("serve")`` imports ``tools/serve.py``."""
    return load_tool


@pytest.fixture(scope="session")
def live_server(live_running: Any) -> str:
    """Base URL (ending in '/') of the page and the rooms served by spades_server (what
    ``python3 -m spades_server`` runs) on 127.0.0.1 and a free port, rooms in a fresh store;
    a quick-match table waits QUICK_WAIT seconds for players before bots fill it."""
    return str(live_running.url)


@pytest.fixture(scope="session")
def live_running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The live server itself (``spades_server.server.RunningServer``, in this process):
    a test may move its ranked deal's clock (``app.state.manager.ranked.today``) and puts
    it back."""
    load_tool("build_web").build()
    from spades_server.config import Config
    from spades_server.server import start_server

    db = tmp_path_factory.mktemp("rooms") / "rooms.sqlite3"
    # every page comes from 127.0.0.1: the per-address limits (docs/server.md) are set wide
    # (a ranked game's bots act at once: the test plays one to its end); the rooms' deals
    # are DEAL_SEED's, and today's ranked deal comes from a known secret (the same game on
    # every run of a day, not a new secret each session)
    config = Config(db_path=db, quick_wait=QUICK_WAIT, address_connections=200,
                    address_creates=200, address_enters=1000, address_failures=200,
                    ranked_bot_delay=0.0, deal_seed=DEAL_SEED, ranked_secret="browser-tests")
    server = start_server(0, "127.0.0.1", config)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (tools/test.sh installs Debian's chromium)")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()


@dataclass
class PageWatch:
    """What a page did that a test must not tolerate, recorded as it happens."""

    origin: str
    refuse_snapshot: bool = False
    requests: list[str] = field(default_factory=list)
    off_origin: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def on_request(self, request: Request) -> None:
        url = request.url
        self.requests.append(url)
        parts = urlsplit(url)
        if parts.scheme in {"data", "blob"}:
            return
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            self.off_origin.append(url)

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text} @ {message.location}")

    def on_page_error(self, error: Exception) -> None:
        self.errors.append(f"page error: {error}")

    def problems(self) -> list[str]:
        return [f"off-origin request: {url}" for url in self.off_origin] + self.errors

    def open(self, browser: Browser, width: int = 1280, height: int = 800,
             first_visit: bool = False) -> tuple[BrowserContext, Page]:
        """A page in a fresh context of its own (its own storage), watched from its first
        request; its visitor has seen the welcome unless ``first_visit``."""
        context = browser.new_context(viewport={"width": width, "height": height})
        if self.refuse_snapshot:
            refused = refused_snapshot()
            context.route(SNAPSHOT_ROUTE, lambda route: route.fulfill(
                body=refused, headers={"Content-Type": "application/zip"}))
        if not first_visit:
            context.add_init_script(WELCOME_SEEN_JS)
        context.on("request", self.on_request)
        new_page = context.new_page()
        new_page.on("console", self.on_console)
        new_page.on("pageerror", self.on_page_error)
        return context, new_page

    def check(self, expected: tuple[str, ...] = ()) -> None:
        """Fail the test on any problem recorded, but those containing one of ``expected``."""
        problems = [p for p in self.problems() if not any(e in p for e in expected)]
        if problems:
            pytest.fail("the page misbehaved:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture
def snapshot(request: pytest.FixtureRequest, live_server: str) -> str:
    """How a repeat visit's interpreters start (``check_boot``): ``used`` (the site as
    built), ``refused`` (parametrized with SNAPSHOT_USED_AND_REFUSED: the site's snapshot
    replaced by one Pyodide refuses), ``plain`` (a site without a snapshot, where
    ``refused`` is skipped)."""
    wanted = str(getattr(request, "param", "used"))
    if load_tool("build_web").snapshot_boot():
        return wanted
    if wanted == "refused":
        pytest.skip("site/ has no snapshot to refuse (built with --no-snapshot)")
    return "plain"


@pytest.fixture
def page_watch(live_server: str, snapshot: str) -> PageWatch:
    parts = urlsplit(live_server)
    return PageWatch(origin=f"{parts.scheme}://{parts.netloc}",
                     refuse_snapshot=snapshot == "refused")


@pytest.fixture
def page(browser: Browser, page_watch: PageWatch) -> Iterator[Page]:
    """A fresh context and page (1280x800) of a returning visitor (no welcome); the test
    fails on any recorded problem."""
    context, new_page = page_watch.open(browser)
    try:
        yield new_page
        page_watch.check()
    finally:
        context.close()


@pytest.fixture
def make_page(browser: Browser, page_watch: PageWatch) -> Iterator[Callable[..., Page]]:
    """``make_page(width=1280, height=800, first_visit=False)``: another page in its own fresh
    context (its own storage), watched like ``page``: the test fails on any off-origin
    request or page error. Its visitor has seen the welcome unless ``first_visit``."""
    contexts: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 800, first_visit: bool = False) -> Page:
        context, new_page = page_watch.open(browser, width, height, first_visit)
        contexts.append(context)
        return new_page

    try:
        yield make
        page_watch.check()
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Page, str], Path]:
    """``screenshot(page, label)`` saves test-artifacts/<test>-<label>.png and returns its path."""

    def take(target: Page, label: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        safe_test = re.sub(r"[^\w-]+", "_", request.node.name).strip("_")
        path = ARTIFACTS / f"{safe_test}-{label}.png"
        target.screenshot(path=str(path), full_page=True)
        return path

    return take
