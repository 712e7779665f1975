"""Where Debian's Chromium is and how this project launches it headless (tests and benchmarks).

The background-networking flags matter: this machine's network is closed, and Chromium's own
background connections would otherwise be refused many at a time.
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
