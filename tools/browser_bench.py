"""Browser benchmark: ``python3 tools/browser_bench.py [--runs 5]`` prints one JSON object.

In one headless Chromium (Debian's, ``$CHROMIUM`` or /usr/bin/chromium), with a fresh browser
context (cold HTTP cache) per run, it measures for the app (index.html) the first paint and the time
until the page is interactive (Python's ``spades:ready`` performance mark, set with ``data-ready``),
and the same readiness time for ``bench/bare.html``, which boots the same PyScript + Pyodide files
and nothing else. In the app's context it then waits for the service worker (sw.js) to control the
page and loads the app again: the repeat visit, its files from the worker's cache. Medians over the
runs, after one unmeasured warm-up of each page; times in ms since navigation start.

Then each bot level's decision time in the page: the app's own interpreter (``spadesBenchBots``,
set by ui/main.py) times every level on the fixed sample of positions of
``spades_core.bots.timing`` (median, p95, max in ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

import build_web  # noqa: E402
import serve  # noqa: E402
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

READY_TIMEOUT_MS = 120_000
TIMINGS_JS = """() => {
  const paint = name => performance.getEntriesByName(name)[0]?.startTime ?? null;
  return {
    first_paint: paint('first-paint') ?? paint('first-contentful-paint'),
    ready: performance.getEntriesByName('spades:ready')[0].startTime,
  };
}"""


CONTROLLED_JS = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise(done => navigator.serviceWorker.addEventListener('controllerchange', done));
  }
  return true;
}"""


def measure(browser: Browser, url: str, repeat: bool = False) -> dict[str, float]:
    """Load ``url`` in a fresh context; its first paint and ready times (ms since navigation).
    With ``repeat``, also ``repeat_ready``: the ready time of a second load in the same context
    once the service worker controls the page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
        timings: dict[str, float] = page.evaluate(TIMINGS_JS)
        if repeat:
            page.evaluate(CONTROLLED_JS)
            page.wait_for_timeout(1000)  # let the first visit's Expert worker settle
            page.goto(url)
            page.wait_for_selector(
                "body[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS
            )
            timings["repeat_ready"] = page.evaluate(TIMINGS_JS)["ready"]
    finally:
        context.close()
    if errors:
        raise RuntimeError(f"{url}: {errors}")
    return timings


def bot_times(browser: Browser, url: str) -> dict[str, object]:
    """Each level's decision times, measured by the page's own Pyodide."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
        text = page.evaluate("() => window.spadesBenchBots()")
    finally:
        context.close()
    found: dict[str, object] = {}
    for level, times in json.loads(text)["bot_decision_ms"].items():
        found[level] = None if times is None else {
            key: times[key] for key in ("median", "p95", "max", "positions")
        }
    return found


def run(runs: int) -> dict[str, object]:
    build_web.build()
    server = serve.start_server(0, "127.0.0.1", quiet=True)
    base = serve.server_url(server)
    app_url, bare_url = base, base + "bench/bare.html"
    app: list[dict[str, float]] = []
    bare: list[dict[str, float]] = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                measure(browser, app_url)  # warm-up: server gzip cache, OS file cache
                measure(browser, bare_url)
                for _ in range(runs):
                    app.append(measure(browser, app_url, repeat=True))
                    bare.append(measure(browser, bare_url))
                bots = bot_times(browser, app_url)
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(
        f"browser_bench: {runs} run(s) each; app ready {[round(t['ready']) for t in app]} ms, "
        f"repeat visit {[round(t['repeat_ready']) for t in app]} ms, "
        f"bare ready {[round(t['ready']) for t in bare]} ms; load average {os.getloadavg()}",
        file=sys.stderr,
    )
    app_ready = statistics.median(t["ready"] for t in app)
    bare_ready = statistics.median(t["ready"] for t in bare)
    return {
        "first_paint_ms": round(statistics.median(t["first_paint"] for t in app), 1),
        "app_ready_ms": round(app_ready, 1),
        "app_repeat_ready_ms": round(statistics.median(t["repeat_ready"] for t in app), 1),
        "bare_ready_ms": round(bare_ready, 1),
        "ready_ratio": round(app_ready / bare_ready, 3),
        "bot_decision_ms": bots,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="measured runs per page (default 5)")
    args = parser.parse_args(argv)
    print(json.dumps(run(max(1, args.runs))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
