"""Command line: ``python -m spades_core replay FILE|-`` and ``python -m spades_core bench``."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
