"""Browser benchmark: ``python3 tools/browser_bench.py [--runs 5]`` prints one JSON object.

In one headless Chromium (Debian's, ``$CHROMIUM`` or /usr/bin/chromium), with a fresh browser
context (cold HTTP cache) per run, it measures for the app (index.html) the first paint and the time
until the page is interactive (Python's ``spades:ready`` performance mark, set with ``data-ready``),
and the same readiness time for ``bench/bare.html``, which boots the same PyScript + Pyodide files
and nothing else (the server serves only the site, site/: the browser gets ``bench/bare.html`` and
``bench/bare.toml`` from the repository through Playwright, at the server's address). In the
app's context it then waits for the service worker (sw.js) to control the page and loads the app
again: the repeat visit, its files from the worker's cache. Medians over the
runs, after one unmeasured warm-up of each page; times in ms since navigation start.

Then each bot level's decision time in the page: the app's own interpreter (``spadesBenchBots``,
set by ui/main.py) times every level on the fixed sample of positions of
``spades_core.bots.timing`` (median, p95, max in ms).

Then each drill's item time in one piece on the main thread (``drill_item_ms``, cold and
warm passes: ``spadesBenchDrills``, set by ui/main.py), which is why the page computes the
Expert's answers of the drills in the bots' worker or in slices.

Then the hint's time in the page (``hint_ms``): a game at the Normal level (the hint is the
Expert's, whatever the level), the Hint button pressed at each of South's turns (bids and
cards, real positions of the game, South then playing the obvious card), ``--hints`` times.  Each
time is the page's own measure (``data-bot-hint-ms``, ui/shared/botrunner.py: from the request to
the
answer, the record's trip to the bots' worker included), and ``data-bot-hint-by`` must say the
worker answered.  Where the page shows the card first (a job for the card, ``hint_card``, then
one for its sentence), a hint's time is the two jobs' added, and ``card`` and ``sentence`` give
each apart.  The first hint the worker answers imports the coach there: it is reported
apart (``warmup_ms``), unmeasured in the median and p95 (the target: p95 <= 250 ms).  At the end
of each hand the review is computed in the coach's worker while the score sheet is open; the
next hand starts once it is done, as when a person reads it (``review_ms``: those times), so
that the hints are not timed against it.  ``--hints 0`` skips this part; ``--only-hints`` skips
the others.

Then the waits the player feels at an Expert table (``felt_ms``, ``--felt N``: N of South's
turns, ``--only-felt`` for this part and the Expert's decision times alone): a game at the
Expert level, at the Normal speed (the pacing a player sees by default), hints on.  At each of
South's turns the player thinks :data:`THINK_S` seconds, presses Hint and reads it, then plays
the first card it may (or bids 3).  ``hint``: from the click on Hint to its sentence in the
message (the page's clock, ``performance.now()``, in the page: ``HINT_FELT_JS``); ``bot``:
from South's click on its card or bid to the next bot's action in the saved record, less the
pacing the player sees between the two (a bot's pause, and the trick shown and gathered when
South's card completed it: ui/table/pacing.py): what the player waits beyond the pacing
(none when South acts next or the hand ends); the
first hint (the coach's import in the worker) is reported apart.  ``hints_ahead``: the hints
the page answered from the hint worked out ahead (``data-bot-hint-ahead``; absent before it).

Then the deal's par in the page (``par_ms``): a game of the deal link ``?deal=20261201`` at the
Beginner level, target 200, played to the end (South playing the obvious card, each hand's
review waited for: ``par.review_ms``); at the end dialog the par is worked out in the coach's
worker a hand at a time (ui/shared/botrunner.py ``par_loop``): ``par_ms`` is the page's time from
the end dialog to the par (``data-coach-par-total-ms``, set when the par is done), ``par.hands``
its hands, ``par.last_hand_ms`` the last hand's job.  ``--no-par`` skips this part;
``--only-par`` skips the others.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, sync_playwright

TOOLS = Path(__file__).resolve().parent
BENCH = TOOLS.parent / "bench"
BENCH_TYPES = {".html": "text/html; charset=utf-8", ".toml": "application/toml; charset=utf-8"}
sys.path.insert(0, str(TOOLS))

import build_web  # noqa: E402
import serve  # noqa: E402
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

READY_TIMEOUT_MS = 120_000
TIMINGS_JS = """() => {
  const paint = name => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const marks = {};
  for (const entry of performance.getEntriesByType('mark')) {
    if (/^(py|bench|spades):/.test(entry.name) && !(entry.name in marks)) {
      marks[entry.name] = entry.startTime;
    }
  }
  const files = {};
  for (const entry of performance.getEntriesByType('resource')) {
    const name = new URL(entry.name).pathname.split('/').pop();
    if (!(name in files)) {
      files[name] = {start: entry.startTime, end: entry.responseEnd,
                     transfer: entry.transferSize, bytes: entry.encodedBodySize,
                     worker: entry.workerStart > 0};
    }
  }
  return {
    first_paint: paint('first-paint') ?? paint('first-contentful-paint'),
    ready: performance.getEntriesByName('spades:ready')[0].startTime,
    marks, files,
  };
}"""
# Added to every measured page before its own scripts, the same for the app and the bare page:
# a performance mark at each of PyScript's `py:progress` steps ("py:Loading interpreter"...), and
# around WebAssembly's instantiation of Pyodide's module (the only big one: its compile and
# instantiation; the download is the .wasm's resource timing).
PHASE_MARKS_JS = """(() => {
  const mark = name => { try { performance.mark(name); } catch (error) {} };
  addEventListener('py:progress', ({detail}) => {
    if (typeof detail === 'string') mark('py:' + detail);
  });
  for (const name of ['instantiateStreaming', 'instantiate']) {
    const original = WebAssembly[name];
    WebAssembly[name] = async function (source, ...rest) {
      const big = name === 'instantiateStreaming' || (source && source.byteLength > 1000000);
      if (big) mark('bench:wasm-start');
      try { return await original.call(this, source, ...rest); }
      finally { if (big) mark('bench:wasm-end'); }
    };
  }
})();"""
# The boot's phases: (name, from mark, to mark); a mark the page lacks leaves its phase out.
# "wasm": the download of pyodide.asm.wasm ends (resource timing); "ready": spades:ready.
PHASES = (
    ("to PyScript start", "nav", "py:Loading Pyodide"),
    ("PyScript storage", "py:Loading Storage", "py:Loaded Storage"),
    ("wasm download ends (from nav)", "nav", "file:pyodide.asm.wasm"),
    ("stdlib download ends (from nav)", "nav", "file:python_stdlib.zip"),
    ("app.zip download ends (from nav)", "nav", "file:app.zip"),
    ("loadPyodide, in all", "py:Loading interpreter", "py:Loaded interpreter"),
    ("  before the wasm compile", "py:Loading interpreter", "bench:wasm-start"),
    ("  wasm compile + instantiate", "bench:wasm-start", "bench:wasm-end"),
    ("  interpreter start (stdlib mounted, Python init)", "bench:wasm-end",
     "py:Loaded interpreter"),
    ("app.zip fetched and unpacked", "py:Loading files", "py:Loaded files"),
    ("PyScript ready (after files)", "py:Loaded files", "spades:pyscript-ready"),
    ("main.py fetched", "spades:pyscript-ready", "spades:before-run"),
    ("PyScript's own Python (import pyscript)", "spades:before-run", "spades:python-start"),
    ("importing the app", "spades:python-start", "spades:app-imported"),
    ("building the controller", "spades:app-imported", "spades:app-built"),
    ("boot: storage, catalogue, first render", "spades:app-built", "ready"),
    ("PyScript ready to ready (bare: its script)", "py:Loaded Pyodide", "ready"),
    ("table painted from the last visit (ui/paint.js, from nav)", "nav", "spades:table-painted"),
    ("welcome painted on a first visit (ui/paint.js, from nav)", "nav", "spades:welcome-painted"),
    ("ready (from nav)", "nav", "ready"),
)


def phases(timings: dict[str, Any]) -> dict[str, float]:
    """The boot's phases (ms) of one load, from its marks and resource timings."""
    points: dict[str, float] = {"nav": 0.0, "ready": float(timings["ready"])}
    points.update(timings.get("marks") or {})
    for name, entry in (timings.get("files") or {}).items():
        points[f"file:{name}"] = entry["end"]
    return {name: round(points[end] - points[start], 1)
            for name, start, end in PHASES if start in points and end in points}


def median_mark(loads: list[dict[str, Any]], name: str) -> float | None:
    """The median time (ms from navigation) of the page's mark ``name``, over the loads
    that have it (None when none has)."""
    found = [float(load["marks"][name]) for load in loads if name in (load.get("marks") or {})]
    return round(statistics.median(found), 1) if found else None


def median_phases(loads: list[dict[str, Any]]) -> dict[str, float]:
    """Each phase's median over the loads that have it."""
    found = [phases(load) for load in loads]
    return {name: round(statistics.median(f[name] for f in found if name in f), 1)
            for name, _, _ in PHASES if any(name in f for f in found)}


CONTROLLED_JS = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise(done => navigator.serviceWorker.addEventListener('controllerchange', done));
  }
  return true;
}"""


# Chromium's CPU throttling (--cpu-throttle): 1 is none, 4 a mid-range phone's main thread.
THROTTLE = {"rate": 1.0}


def ready_timeout() -> float:
    """How long a page may take to be ready: longer on a throttled CPU."""
    return READY_TIMEOUT_MS * THROTTLE["rate"]


def open_ready(context: Any, url: str, errors: list[str]) -> Page:
    """A new page of ``context`` (throttled as asked), its page errors and console errors
    gathered in ``errors``, loaded from ``url`` and waited on until the app is ready."""
    page: Page = context.new_page()
    throttle(page)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=ready_timeout())
    return page


def throttle(page: Page) -> None:
    """Slow ``page``'s main thread by --cpu-throttle (CDP ``Emulation.setCPUThrottlingRate``).
    Debian's Chromium slows the page's workers too (the Expert's and the coach's: a busy loop
    took 4-6x longer in a worker and on the main thread at rate 4, measured when this flag was
    added), so ``hint_ms`` is throttled as ``bot_decision_ms`` is."""
    if THROTTLE["rate"] != 1.0:
        session = page.context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE["rate"]})


def serve_bench_files(context: BrowserContext, base: str) -> None:
    """The baseline page's own files (``base`` + a name of bench/), which are not part of the
    site, answered from the repository; its PyScript and Pyodide files come from the server,
    but for a standard library the build changed (tools/build_web.py --stdlib-pyc): the bare
    page gets Pyodide's own, as shipped."""
    shipped = build_web.PYODIDE_DIR / "python_stdlib.zip"
    served = build_web.VENDOR / "pyodide" / "python_stdlib.zip"
    if served.read_bytes() != shipped.read_bytes():
        context.route(base.rsplit("/bench/", 1)[0] + "/vendor/pyodide/python_stdlib.zip",
                      lambda route: route.fulfill(
                          path=str(shipped), headers={"Content-Type": "application/zip"}))

    def answer(route: Route) -> None:
        path = BENCH / route.request.url[len(base):].split("?")[0]
        if path.suffix in BENCH_TYPES and path.is_file() and path.parent == BENCH:
            route.fulfill(path=str(path), headers={"Content-Type": BENCH_TYPES[path.suffix]})
        else:
            route.fulfill(status=404, body="404 Not Found\n")

    context.route(base + "*", answer)


def measure(browser: Browser, url: str, repeat: bool = False,
            worker: bool = True, block_workers: bool = False) -> dict[str, Any]:
    """Load ``url`` in a fresh context; its first paint and ready times (ms since navigation),
    its marks and resource timings. With ``repeat``, also ``repeat``: the same of a second load in
    the same context, once the service worker controls the page (``worker``; the bare page has
    none: its repeat load is from the browser's HTTP cache). ``block_workers``: the load without
    a service worker (the page's registration refused)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block" if block_workers else "allow")
    context.add_init_script(PHASE_MARKS_JS)
    errors: list[str] = []
    try:
        if "/bench/" in url:
            serve_bench_files(context, url.rsplit("/", 1)[0] + "/")
        page = open_ready(context, url, errors)
        timings: dict[str, Any] = page.evaluate(TIMINGS_JS)
        if repeat:
            if worker:
                page.evaluate(CONTROLLED_JS)
            page.wait_for_timeout(1000)  # let the first visit's Expert worker settle
            page.goto(url)
            page.wait_for_selector(
                "body[data-ready='1']", state="attached", timeout=ready_timeout()
            )
            timings["repeat"] = page.evaluate(TIMINGS_JS)
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{url}: {errors}")
    return timings


def module_report(browser: Browser, app_url: str, bare_url: str) -> dict[str, Any]:
    """What the app imports (ui/main.py's ``spadesBenchModules``): the modules there before it
    (Pyodide's and PyScript's) and those it adds, by origin; then the time a bare page's
    interpreter takes to import the standard library modules the app adds, in the app's order
    (bench/bare.html's ``spadesImportTime``)."""
    found: dict[str, Any] = {}
    modules: dict[str, Any] = {}
    stdlib: list[str] = []
    timed: dict[str, Any] = {}
    for url in (app_url, bare_url):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            if "/bench/" in url:
                serve_bench_files(context, url.rsplit("/", 1)[0] + "/")
            page = context.new_page()
            throttle(page)
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", state="attached",
                                   timeout=ready_timeout())
            if url == app_url:
                modules = json.loads(page.evaluate("() => window.spadesBenchModules()"))
            else:
                stdlib = [name for name, where in modules["added_by_app"].items()
                          if where == "stdlib"]
                timed = json.loads(page.evaluate("names => window.spadesImportTime(names)",
                                                 json.dumps(stdlib)))
        finally:
            context.close()
    for key in ("before_app", "added_by_app"):
        counts: dict[str, int] = {}
        for where in modules[key].values():
            counts[where] = counts.get(where, 0) + 1
        found[key] = counts
    found["stdlib_added_by_app"] = sorted(stdlib)
    found["stdlib_added_import_ms"] = timed["total_ms"]
    found["stdlib_added_slowest_ms"] = dict(sorted(timed["each"].items(),
                                                   key=lambda item: -item[1])[:10])
    found["other_added_by_app"] = sorted(name for name, where in modules["added_by_app"].items()
                                         if where == "other")
    return found


def bot_times(browser: Browser, url: str) -> dict[str, object]:
    """Each level's decision times, measured by the page's own Pyodide."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        throttle(page)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=ready_timeout())
        text = page.evaluate("() => window.spadesBenchBots()")
    finally:
        context.close()
    found: dict[str, object] = {}
    for level, times in json.loads(text)["bot_decision_ms"].items():
        found[level] = None if times is None else {
            key: times[key] for key in ("median", "p95", "max", "positions")
        }
    return found


def drill_times(browser: Browser, url: str) -> dict[str, object]:
    """Each drill's items built in one piece on the page's main thread (the question, the
    engine's answer and, for Bidding, the 200-deal trick counts), measured by the page's own
    Pyodide: the cold pass (first imports) and a warm one, median and max per drill in ms.
    The page itself computes the answers in the bots' worker or in slices
    (ui/drills/drills_run.py)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        throttle(page)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=ready_timeout())
        passes = [json.loads(page.evaluate("() => window.spadesBenchDrills()")) for _ in range(2)]
    finally:
        context.close()
    found: dict[str, object] = {}
    for name, data in zip(("cold", "warm"), passes, strict=True):
        found[name] = {drill: {"median": round(statistics.median(r["item"] + r["counts"]
                                                                 for r in rows), 1),
                               "max": round(max(r["item"] + r["counts"] for r in rows), 1)}
                       for drill, rows in data.items()}
    return found


HINT_OPTIONS = {"level": "normal", "target": 500, "speed": "instant", "auto_play": "never",
                "blind_nil": False,
                "sound": False, "language": "en", "hints": True}
# What South is asked to do now (or false while the bots play), as tests/browser/apphelpers.py.
STEP_JS = """() => {
  const dialog = document.querySelector('dialog[open]');
  if (dialog) {
    if (dialog.querySelector('[data-action=sheet-next]')) return 'sheet';
    if (dialog.querySelector('[data-action=replay]')) return 'end';
    return 'dialog';
  }
  if (document.querySelector('#panel:not([hidden]) [data-action=bid]')) return 'bid';
  if (document.querySelector('#turn.mine') && document.querySelector('#hand .card.playable'))
    return 'play';
  return false;
}"""
HINT_COUNT_JS = "() => Number(document.body.dataset.botHintCount || 0)"
STEP_TIMEOUT_MS = 60_000
HINT_TIMEOUT_MS = 30_000
REVIEW_TIMEOUT_MS = 300_000


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil(n * share), at least 1
    return ordered[int(rank) - 1]


def hint_times(browser: Browser, url: str, hints: int) -> dict[str, object]:
    """Press Hint at ``hints`` of South's turns (after one warm-up in the worker); the
    page's own time for each."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        "if (!localStorage.getItem('bench.preset')) {"
        f" localStorage.setItem('spades.options.v1', {json.dumps(json.dumps(HINT_OPTIONS))});"
        " localStorage.setItem('spades.welcome.v1', '{\"seen\": true}');"  # to the table
        " localStorage.setItem('bench.preset', '1'); }"
    )
    errors: list[str] = []
    times: list[float] = []
    card_times: list[float] = []  # the card's job, where the card is shown first
    sentences: list[float] = []  # then its sentence's job
    card_jobs = 0
    reviews: list[float] = []
    warmup: float | None = None
    where: dict[str, int] = {}
    try:
        page = open_ready(context, url, errors)
        while len(times) < hints:
            kind = str(page.wait_for_function(STEP_JS, timeout=STEP_TIMEOUT_MS).json_value())
            if kind == "sheet":
                page.wait_for_selector("#coach-review:is([data-state=done], [data-state=failed])",
                                       state="attached",
                                       timeout=REVIEW_TIMEOUT_MS)
                reviews.append(float(page.get_attribute("body", "data-coach-review-ms") or 0))
                page.click("dialog[open] [data-action=sheet-next]")
                continue
            if kind == "end":
                page.click("dialog[open] [data-action=replay]")
                continue
            if kind not in ("bid", "play"):
                raise RuntimeError(f"unexpected step {kind}")
            if page.get_attribute("body", "data-bot-worker") == "ready":
                count = int(page.evaluate(HINT_COUNT_JS))
                page.click("#hint-button")
                page.wait_for_function(f"() => ({HINT_COUNT_JS})() > {count}",
                                       timeout=HINT_TIMEOUT_MS)
                spent = float(page.get_attribute("body", "data-bot-hint-ms") or "nan")
                card = page.get_attribute("body", "data-bot-hint_card-ms")
                if card is not None:  # the card first, then its sentence: two jobs
                    cards_done = int(page.get_attribute("body", "data-bot-hint_card-count")
                                     or 0)
                    if cards_done > card_jobs:  # this hint's card job (not a face-down bid)
                        card_jobs = cards_done
                        sentences.append(spent)
                        card_times.append(float(card))
                        spent += float(card)
                by = page.get_attribute("body", "data-bot-hint-by") or "?"
                where[by] = where.get(by, 0) + 1
                if warmup is None:
                    warmup = spent
                    del card_times[:], sentences[:]
                else:
                    times.append(spent)
            elif page.get_attribute("body", "data-bot-worker") in (None, "starting"):
                # the first Hint starts the worker (Normal level: no Expert worker yet);
                # South waits for it, as a learner would have to for a hint off the page
                page.click("#hint-button")
                page.wait_for_selector("body[data-bot-worker=ready]", state="attached",
                                       timeout=ready_timeout())
                page.wait_for_function(f"() => ({HINT_COUNT_JS})() > 0", timeout=HINT_TIMEOUT_MS)
                continue
            else:
                raise RuntimeError("the bots' worker failed")
            if kind == "bid":
                page.click("#panel [data-action=bid][data-bid='3']")
            else:
                page.click("#hand .card.playable >> nth=0")
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{url}: {errors}")
    return {
        "hints": len(times),
        "median": round(statistics.median(times), 1),
        "p95": round(percentile(times, 0.95), 1),
        "max": round(max(times), 1),
        "warmup_ms": warmup,
        "by": where,
        "review_ms": reviews,
        **({"card": {"hints": len(card_times), "median": round(statistics.median(card_times), 1),
                     "p95": round(percentile(card_times, 0.95), 1),
                     "max": round(max(card_times), 1)},
            "sentence": {"median": round(statistics.median(sentences), 1),
                         "p95": round(percentile(sentences, 0.95), 1),
                         "max": round(max(sentences), 1)}} if card_times else {}),
    }


FELT_OPTIONS = {"level": "expert", "target": 300, "speed": "normal", "auto_play": "never",
                "blind_nil": False, "sound": False, "language": "en", "hints": True}
FELT_PACE = {"bot": 650, "trick": 950, "gather": 350}  # ui/table/pacing.py, "normal"
THINK_S = 2.0  # the player's think before pressing Hint
HINT_THINKING = "The coach is thinking…"  # locales/en/table.json hint.thinking
# Press Hint; the ms from the click to the sentence shown in the message.
HINT_FELT_JS = """(thinking) => new Promise((resolve) => {
  const message = document.getElementById('message');
  const shown = () => message.textContent && message.textContent !== thinking;
  const begin = performance.now();
  let observer = null;
  const check = () => {
    if (shown()) { if (observer) observer.disconnect(); resolve(performance.now() - begin); }
  };
  observer = new MutationObserver(check);
  document.getElementById('hint-button').click();
  observer.observe(message, {childList: true, characterData: true, subtree: true});
  check();
})"""
# South's action by a click on ``selector``; the ms until the record holds one more action
# after it (the next bot's), and whether South's action completed a trick.
ACTIONS_JS = """() => {
  const game = JSON.parse(localStorage.getItem('spades.game.v1') || 'null');
  const hands = game ? game.record.hands : [];
  const hand = hands.length ? hands[hands.length - 1] : {bids: [], plays: []};
  return [hands.length, (hand.bids || []).length + (hand.plays || []).length,
          (hand.plays || []).length];
}"""
BOT_FELT_JS = """(selector) => new Promise((resolve) => {
  const count = (ACTIONS);
  const [hands, before, plays] = count();
  const completes = plays % 4 === 3 && selector.startsWith('#hand');
  const begin = performance.now();
  const watch = () => {
    const [nowHands, now] = count();
    const mine = document.querySelector('#turn.mine') !== null && document.querySelector(
      '#hand .card.playable, #panel:not([hidden]) [data-action=bid]') !== null;
    const over = document.querySelector('dialog[open]') !== null;  // the hand's end
    if (nowHands !== hands || now >= before + 2 || (now === before + 1 && (mine || over))
        || performance.now() - begin > 120000) {
      clearInterval(timer);
      resolve([performance.now() - begin, completes,
               nowHands !== hands || now < before + 2]);
    }
  };
  const timer = setInterval(watch, 10);
  document.querySelector(selector).click();
})""".replace("ACTIONS", ACTIONS_JS)


def felt_times(browser: Browser, url: str, turns: int) -> dict[str, object]:
    """An Expert game at the Normal speed, hints on: at ``turns`` of South's turns the
    player thinks :data:`THINK_S` s, presses Hint (``hint``: the click to the sentence),
    then acts (``bot``: the click to the next bot's action, less the pacing between)."""
    import time

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        "if (!localStorage.getItem('bench.preset')) {"
        f" localStorage.setItem('spades.options.v1', {json.dumps(json.dumps(FELT_OPTIONS))});"
        " localStorage.setItem('spades.welcome.v1', '{\"seen\": true}');"
        " localStorage.setItem('bench.preset', '1'); }"
    )
    errors: list[str] = []
    hints_felt: list[float] = []
    bots_felt: list[float] = []
    bots_after_trick: list[float] = []
    first: float | None = None
    reviews = 0
    try:
        page = open_ready(context, url, errors)
        page.wait_for_selector("body[data-bot-worker=ready]", state="attached",
                               timeout=ready_timeout())
        while len(hints_felt) < turns:
            kind = str(page.wait_for_function(STEP_JS, timeout=STEP_TIMEOUT_MS).json_value())
            if kind == "sheet":
                page.wait_for_selector("#coach-review:is([data-state=done], [data-state=failed])",
                                       state="attached", timeout=REVIEW_TIMEOUT_MS)
                reviews += 1
                page.click("dialog[open] [data-action=sheet-next]")
                continue
            if kind == "end":
                page.click("dialog[open] [data-action=replay]")
                continue
            if kind not in ("bid", "play"):
                raise RuntimeError(f"unexpected step {kind}")
            time.sleep(THINK_S)  # the player thinks (the page works meanwhile)
            spent = float(page.evaluate(HINT_FELT_JS, HINT_THINKING))
            if first is None:
                first = spent
            else:
                hints_felt.append(spent)
            selector = ("#panel [data-action=bid][data-bid='3']" if kind == "bid"
                        else "#hand .card.playable")
            waited, completes, no_bot = page.evaluate(BOT_FELT_JS, selector)
            if no_bot:  # South's card ended the hand, or South won the trick: no bot next
                continue
            pace = FELT_PACE["bot"] + (FELT_PACE["trick"] + FELT_PACE["gather"]
                                       if completes else 0)
            (bots_after_trick if completes else bots_felt).append(float(waited) - pace)
        ahead = page.get_attribute("body", "data-bot-hint-ahead")
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{url}: {errors}")

    def summary(values: list[float]) -> dict[str, object]:
        if not values:
            return {"count": 0}
        return {"count": len(values), "median": round(statistics.median(values), 1),
                "p95": round(percentile(values, 0.95), 1), "max": round(max(values), 1)}

    return {
        "think_s": THINK_S,
        "hint": summary(hints_felt),
        "first_hint_ms": None if first is None else round(first, 1),
        "hints_ahead": int(ahead or 0),
        "bot_beyond_pacing": summary(bots_felt),
        "bot_beyond_pacing_after_trick": summary(bots_after_trick),
        "reviews": reviews,
    }


PAR_DEAL = 20261201
PAR_OPTIONS = {"level": "beginner", "target": 200, "speed": "instant", "auto_play": "never",
               "blind_nil": False, "sound": False, "language": "en"}
PAR_TIMEOUT_MS = 600_000


def par_times(browser: Browser, url: str) -> dict[str, object]:
    """Play the deal link :data:`PAR_DEAL` to the end (the reviews waited for) and wait for
    the par in the end dialog; the page's own times."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        "if (!localStorage.getItem('bench.preset')) {"
        f" localStorage.setItem('spades.options.v1', {json.dumps(json.dumps(PAR_OPTIONS))});"
        " localStorage.setItem('spades.welcome.v1', '{\"seen\": true}');"
        " localStorage.setItem('bench.preset', '1'); }"
    )
    errors: list[str] = []
    reviews: list[float] = []
    try:
        page = open_ready(context, f"{url}?deal={PAR_DEAL}", errors)
        while True:
            kind = str(page.wait_for_function(STEP_JS, timeout=STEP_TIMEOUT_MS).json_value())
            if kind == "end":
                break
            if kind == "sheet":
                page.wait_for_selector("#coach-review:is([data-state=done], [data-state=failed])",
                                       state="attached", timeout=REVIEW_TIMEOUT_MS)
                reviews.append(float(page.get_attribute("body", "data-coach-review-ms") or 0))
                page.click("dialog[open] [data-action=sheet-next]")
            elif kind == "bid":
                page.click("#panel [data-action=bid][data-bid='3']")
            elif kind == "play":
                page.click("#hand .card.playable >> nth=0")
            else:
                raise RuntimeError(f"unexpected step {kind}")
        page.wait_for_selector("#coach-par[data-state=done]", state="attached",
                               timeout=PAR_TIMEOUT_MS)
        found: dict[str, object] = {
            "deal": PAR_DEAL,
            "par": int(page.get_attribute("#coach-par", "data-par") or 0),
            "par_ms": float(page.get_attribute("body", "data-coach-par-total-ms") or "nan"),
            "hands": int(page.get_attribute("body", "data-coach-par-hands") or 0),
            "last_hand_ms": float(page.get_attribute("body", "data-coach-par_step-ms") or "nan"),
            "by": page.get_attribute("body", "data-coach-par_step-by"),
            "review_ms": reviews,
        }
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{url}: {errors}")
    return found


def full_deck() -> str:
    """A full deck of "Your mistakes" (``MAX_ITEMS``) as stored: deal 7's two positions
    (South the Beginner, the others Normal, its second hand reviewed), each under 50 keys."""
    from dataclasses import replace

    sys.path.insert(0, str(TOOLS.parent))
    from spades_core import GameState, Rules, Seat
    from spades_core.bots import bot_action, make_bot
    from spades_core.mistakes import MAX_ITEMS, items_from_review
    from spades_core.review import review_hand
    from ui.progress import deck

    bots = {seat: make_bot("beginner" if seat is Seat.S else "normal") for seat in Seat}
    state = GameState.new(Rules(), deal=7)
    while len(state.past_hands) < 2:
        state = state.apply(bot_action(bots[state.to_act], state))
    found = items_from_review(review_hand(state, 1, Seat.S), state, "7-1", 20_000)
    items = [replace(found[i % len(found)], key=f"7-1-{i}") for i in range(MAX_ITEMS)]
    return deck.encode(items)


def deck_times(browser: Browser, url: str, runs: int) -> dict[str, object]:
    """A full deck of "Your mistakes" in a fresh page, on its main thread: read in full
    (every item checked and its position replayed: ``<body data-progress-deck-ms>``) in the
    boot before issue 45; since, only glanced at once the page is ready
    (``data-progress-deck-glance-ms``) and read in full when "Your mistakes" opens."""
    text = full_deck()
    times: list[float] = []
    glances: list[float] = []
    count = 0
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(
            f"localStorage.setItem('spades.mistakes.v1', {json.dumps(text)});"
            " localStorage.setItem('spades.welcome.v1', '{\"seen\": true}');")
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", state="attached",
                                   timeout=READY_TIMEOUT_MS)
            in_boot = page.get_attribute("body", "data-progress-deck-ms") is not None  # before
            if not in_boot:
                page.wait_for_selector("body[data-progress-deck-glance-ms]", state="attached")
                glances.append(float(page.get_attribute(
                    "body", "data-progress-deck-glance-ms") or -1))
                page.click("#menu-button")
                page.click("#screen-menu .menu-list [data-action='mistakes']")
                page.wait_for_selector("body[data-progress-deck-ms]", state="attached")
            times.append(float(page.get_attribute("body", "data-progress-deck-ms") or -1))
            count = int(page.get_attribute("body", "data-progress-deck-items") or 0)
        finally:
            context.close()
    return {"items": count, "characters": len(text), "times": times,
            "median": round(statistics.median(times), 1), "read_in_boot": in_boot,
            "glances": glances,
            "glance_median": round(statistics.median(glances), 1) if glances else None}


def run(runs: int, hints: int = 40, load: bool = True, par: bool = True,
        others: bool = True, no_sw: bool = False, deck: bool = False,
        felt: int = 0, only_felt: bool = False) -> dict[str, Any]:
    build_web.build()
    server = serve.start_server(0, "127.0.0.1", quiet=True)
    base = serve.server_url(server)
    app_url, bare_url = base, base + "bench/bare.html"
    app: list[dict[str, Any]] = []
    bare: list[dict[str, Any]] = []
    app_no_sw: list[dict[str, Any]] = []
    found: dict[str, Any] = {}
    load_before = os.getloadavg()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                if load:
                    measure(browser, app_url)  # warm-up: server gzip cache, OS file cache
                    measure(browser, bare_url)
                    for _ in range(runs):  # the two pages in turn: the same load on both
                        app.append(measure(browser, app_url, repeat=True))
                        bare.append(measure(browser, bare_url, repeat=True, worker=False))
                        if no_sw:
                            app_no_sw.append(measure(browser, app_url, block_workers=True))
                    found["modules"] = module_report(browser, app_url, bare_url)
                    if others:
                        found["bot_decision_ms"] = bot_times(browser, app_url)
                        found["drill_item_ms"] = drill_times(browser, app_url)
                if only_felt:
                    found["bot_decision_ms"] = bot_times(browser, app_url)
                if felt > 0:
                    found["felt_ms"] = felt_times(browser, app_url, felt)
                if deck:
                    found["deck_read_ms"] = deck_times(browser, app_url, runs)
                if hints > 0:
                    found["hint_ms"] = hint_times(browser, app_url, hints)
                if par:
                    details = par_times(browser, app_url)
                    found["par_ms"] = details["par_ms"]
                    found["par"] = details
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    load_after = os.getloadavg()
    print(f"browser_bench: load average {load_before} before, {load_after} after",
          file=sys.stderr)
    if not load:
        return found
    repeats = [t["repeat"] for t in app]
    bare_repeats = [t["repeat"] for t in bare]
    print(
        f"browser_bench: {runs} run(s) each; app ready {[round(t['ready']) for t in app]} ms, "
        f"repeat visit {[round(t['ready']) for t in repeats]} ms, "
        f"bare ready {[round(t['ready']) for t in bare]} ms, "
        f"bare repeat {[round(t['ready']) for t in bare_repeats]} ms"
        + (f", app without service worker {[round(t['ready']) for t in app_no_sw]} ms"
           if app_no_sw else ""),
        file=sys.stderr,
    )
    app_ready = statistics.median(float(t["ready"]) for t in app)
    bare_ready = statistics.median(float(t["ready"]) for t in bare)
    app_repeat = statistics.median(float(t["ready"]) for t in repeats)
    bare_repeat = statistics.median(float(t["ready"]) for t in bare_repeats)
    return {
        "first_paint_ms": round(statistics.median(
            float(t["first_paint"]) for t in app), 1),
        "app_ready_ms": round(app_ready, 1),
        "app_repeat_ready_ms": round(app_repeat, 1),
        "bare_ready_ms": round(bare_ready, 1),
        "bare_repeat_ready_ms": round(bare_repeat, 1),
        "ready_ratio": round(app_ready / bare_ready, 3),
        "repeat_ratio": round(app_repeat / bare_repeat, 3),
        "phases_ms": {
            "app_first": median_phases(app),
            "app_repeat": median_phases(repeats),
            "bare_first": median_phases(bare),
            "bare_repeat": median_phases(bare_repeats),
            **({"app_first_no_sw": median_phases(app_no_sw)} if app_no_sw else {}),
        },
        "app_repeat_table_painted_ms": median_mark(repeats, "spades:table-painted"),
        "app_first_welcome_painted_ms": median_mark(app, "spades:welcome-painted"),
        "app_repeat_first_paint_ms": round(statistics.median(
            float(t["first_paint"]) for t in repeats), 1),
        "cpu_throttle": THROTTLE["rate"],
        "snapshot_used": {  # the snapshot boot (build_web, unless --no-snapshot): which loads
            "app_first": sum("spades:snapshot-used" in t["marks"] for t in app),
            "app_repeat": sum("spades:snapshot-used" in t["marks"] for t in repeats),
        },
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in load_after]},
        **found,
    }


def phase_table(result: dict[str, Any]) -> str:
    """The phases of ``run``'s result as a Markdown table (ms, medians)."""
    columns = result["phases_ms"]
    names = [name for name in ("app_first", "app_repeat", "bare_first", "bare_repeat",
                                "app_first_no_sw") if name in columns]
    heads = {"app_first": "app, first", "app_repeat": "app, repeat", "bare_first": "bare, first",
             "bare_repeat": "bare, repeat", "app_first_no_sw": "app, first, no service worker"}
    lines = ["| phase (ms) | " + " | ".join(heads[n] for n in names) + " |",
             "|---|" + "---:|" * len(names)]
    for name, _, _ in PHASES:
        cells = [columns[n].get(name) for n in names]
        if any(cell is not None for cell in cells):
            lines.append(f"| {name} | " + " | ".join("" if c is None else f"{c:.0f}"
                                                     for c in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="measured runs per page (default 5)")
    parser.add_argument("--hints", type=int, default=40,
                        help="hints timed in the page, 0 for none (default 40)")
    parser.add_argument("--only-hints", action="store_true",
                        help="time the hints only, not the loads nor the bots (nor the par)")
    parser.add_argument("--no-par", action="store_true", help="do not time the deal's par")
    parser.add_argument("--only-par", action="store_true",
                        help="time the deal's par (and its game's reviews) only")
    parser.add_argument("--only-deck", action="store_true",
                        help="time reading a full deck of \"Your mistakes\" at the page's start"
                             " only (--runs fresh pages)")
    parser.add_argument("--only-load", action="store_true",
                        help="time the loads only (their phases and the modules), nothing after")
    parser.add_argument("--no-sw-too", action="store_true",
                        help="also load the app's first visit with service workers blocked")
    parser.add_argument("--cpu-throttle", type=float, default=1.0,
                        help="Chromium's CPU throttling rate of each page's main thread "
                             "(4: a mid-range phone; default 1, none)")
    parser.add_argument("--felt", type=int, default=0,
                        help="South's turns of an Expert game at the Normal speed timed as "
                             "the player feels them (the hint after a think, the bot's answer "
                             "beyond the pacing); default 0, none")
    parser.add_argument("--only-felt", action="store_true",
                        help="time the felt waits (--felt, 30 if unset) and the Expert's "
                             "decisions only")
    parser.add_argument("--table", action="store_true",
                        help="also print the loads' phases as a Markdown table on stderr")
    args = parser.parse_args(argv)
    THROTTLE["rate"] = max(1.0, args.cpu_throttle)
    only_felt = bool(args.only_felt)
    felt = max(0, args.felt) or (30 if only_felt else 0)
    hints = 0 if (args.only_par or args.only_load or args.only_deck or only_felt) else max(
        0, args.hints)
    load = not (args.only_hints or args.only_par or args.only_deck or only_felt)
    par = not (args.no_par or args.only_hints or args.only_load or args.only_deck or only_felt)
    result = run(max(1, args.runs), hints, load, par, others=not args.only_load,
                 no_sw=args.no_sw_too, deck=not (args.only_hints or args.only_par
                                                 or args.only_load or only_felt),
                 felt=0 if (args.only_load or args.only_deck or args.only_par) else felt,
                 only_felt=only_felt)
    if only_felt:
        result["cpu_throttle"] = THROTTLE["rate"]
    if args.table and load:
        print(phase_table(result), file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
