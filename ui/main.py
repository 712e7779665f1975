"""Entry point of the page (placeholder): load the engine, say so, and mark the page ready.

Performance marks for tools/browser_bench.py: ``spades:python-start`` when this script starts,
``spades:ready`` when the page is interactive (also ``<body data-ready="1">``).
"""

from __future__ import annotations

import importlib
import pkgutil

import js  # type: ignore[import-not-found]

# Command-line-only modules: the page never imports them (argparse and friends cost ~0.4 s here).
CLI_ONLY = frozenset({"__main__", "cli", "arena", "bench"})


def load_engine() -> list[str]:
    """Import spades_core and the modules the page may use, so one failing in Pyodide fails here."""
    engine = importlib.import_module("spades_core")
    names = sorted(
        info.name for info in pkgutil.iter_modules(engine.__path__) if info.name not in CLI_ONLY
    )
    for name in names:
        importlib.import_module(f"spades_core.{name}")
    return names


def main() -> None:
    js.performance.mark("spades:python-start")
    modules = load_engine()
    status = js.document.getElementById("boot-status")
    status.textContent = f"Engine ready: spades_core ({len(modules)} modules)."
    js.document.body.dataset.ready = "1"
    js.performance.mark("spades:ready")


main()
