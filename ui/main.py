"""Entry point of the page: boot the app, then mark the page interactive.

Performance marks for tools/browser_bench.py (the boot's phases, docs/performance.md):
``spades:python-start`` when this script starts, ``spades:app-imported`` once the app's modules
are imported, ``spades:app-built`` once its controller is built, ``spades:ready`` when the page is
interactive (the first screen drawn; also ``<body data-ready="1">``).
Only what the first screen needs is imported here; the expert bot, the hints, the lessons and
the rules text load when first used.
"""

from __future__ import annotations

import sys

import js  # type: ignore[import-not-found]

js.performance.mark("spades:python-start")
# What the interpreter (Pyodide and PyScript) had imported before the app: see bench_modules.
_BEFORE_APP = frozenset(sys.modules)


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


def bench_modules() -> str:
    """The modules this page has imported (JSON), for tools/browser_bench.py: those already
    there when this script started (Pyodide's and PyScript's) and those the app added since,
    each with where it was loaded from ("stdlib", "app", "builtin" or "other")."""
    import json

    def where(name: str) -> str:
        module = sys.modules.get(name)
        origin = str(getattr(getattr(module, "__spec__", None), "origin", None) or "")
        if origin in ("", "built-in", "frozen") or not origin.startswith("/"):
            return "builtin"
        if origin.startswith("/lib/python"):
            return "stdlib"
        top = name.partition(".")[0]
        return "app" if top in ("spades_core", "ui", "locales", "lessons") else "other"

    added = [name for name in sys.modules if name not in _BEFORE_APP]
    return json.dumps({"before_app": {name: where(name) for name in sorted(_BEFORE_APP)},
                       "added_by_app": {name: where(name) for name in added}})


def main() -> None:
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    from ui import root

    js.performance.mark("spades:app-imported")
    application = root.build()
    js.performance.mark("spades:app-built")
    application.boot()
    js.window.spadesBenchBots = create_proxy(bench_bots)
    js.window.spadesBenchDrills = create_proxy(bench_drills)
    js.window.spadesBenchModules = create_proxy(bench_modules)
    js.document.body.dataset.ready = "1"
    js.performance.mark("spades:ready")
    application.after_ready()


main()
