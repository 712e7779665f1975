"""The text catalogues of the page and the terminal: ``locales/<lang>/<name>.json``.

Flat ``key -> text`` objects with ``{param}`` placeholders. ``locales.names`` names cards,
suits, seats, bids and refusal reasons from these catalogues' keys: the one namer, used by
the page (through ``ui.shared.i18n``) and by the terminal (``spades_core/terminal.py``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent
