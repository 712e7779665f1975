"""Entry point of the page: boot the app, then mark the page interactive.

Performance marks for tools/browser_bench.py: ``spades:python-start`` when this script starts,
``spades:ready`` when the page is interactive (also ``<body data-ready="1">``).
Only what the first screen needs is imported here; the expert bot, the hints, the lessons and
the rules text load when first used.
"""

from __future__ import annotations

import js  # type: ignore[import-not-found]

js.performance.mark("spades:python-start")


def bench_bots() -> str:
    """Decision times of each bot level on the fixed sample of positions (JSON), for
    tools/browser_bench.py: measured by this page's own interpreter."""
    import json

    from spades_core.bots.timing import bot_timings

    return json.dumps(bot_timings())


def bench_drills() -> str:
    """Main-thread times (ms) of building each drill item in this page's interpreter: the
    question's view, the engine's answer and, for Bidding, the 200-deal trick counts."""
    import json
    import time

    from spades_core.lessons import drills

    found: dict[str, list[dict[str, float]]] = {}
    for drill in drills.DRILLS:
        for index in range(drills.ITEMS):
            begin = time.perf_counter()
            item = drills.item(drill, index)
            middle = time.perf_counter()
            if isinstance(item, drills.BidItem):
                drills.trick_counts(item.view, item.expert)
            end = time.perf_counter()
            found.setdefault(drill, []).append({"item": round((middle - begin) * 1000, 1),
                                                "counts": round((end - middle) * 1000, 1)})
    return json.dumps(found)


def main() -> None:
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    from ui import root

    application = root.build()
    application.boot()
    js.window.spadesBenchBots = create_proxy(bench_bots)
    js.window.spadesBenchDrills = create_proxy(bench_drills)
    js.document.body.dataset.ready = "1"
    js.performance.mark("spades:ready")
    application.after_ready()


main()
