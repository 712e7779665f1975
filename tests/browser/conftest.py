"""Browser test fixtures: a live server (spades_server, as `python3 -m spades_server` serves
the page to players), Debian's Chromium through Playwright,
and a ``page`` that fails its test on any request off the page's origin, any page error and any
console error.

Screenshots go to ``test-artifacts/``. Chromium comes from ``$CHROMIUM`` or ``/usr/bin/chromium``.
"""

from __future__ import annotations

import re
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
def page_watch(live_server: str) -> PageWatch:
    parts = urlsplit(live_server)
    return PageWatch(origin=f"{parts.scheme}://{parts.netloc}")


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
