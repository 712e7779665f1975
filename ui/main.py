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


def main() -> None:
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    from ui import root

    application = root.build()
    application.boot()
    js.window.spadesBenchBots = create_proxy(bench_bots)
    js.document.body.dataset.ready = "1"
    js.performance.mark("spades:ready")
    application.after_ready()


main()
