"""The drills' best scores, as stored JSON (the approach of :mod:`ui.lessons.lessons_progress`).

Pure Python (no browser import). Stored form (``version`` 1) under :data:`KEY`::

    {"version": 1, "best": {"bidding": 7, "nil": 10}}

Stored text that cannot be read gives fresh (empty) scores and says so, a drill's score that
cannot be read is dropped and the others kept; the screen then tells the learner and
overwrites it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spades_core.lessons.drills import DRILLS, ITEMS

from ..shared import storage

KEY = "spades.drills.v1"
VERSION = 1


@dataclass
class Best:
    scores: dict[str, int] = field(default_factory=dict)

    def record(self, drill: str, score: int) -> bool:
        """Keep the best score of a drill; True when that is news (the caller then saves)."""
        if drill not in DRILLS or not 0 <= score <= ITEMS or self.scores.get(drill, -1) >= score:
            return False
        self.scores[drill] = score
        return True

    def to_json(self) -> str:
        return json.dumps({"version": VERSION, "best": dict(sorted(self.scores.items()))},
                          separators=(",", ":"))


def check(data: Any) -> tuple[Best, bool]:
    """``(best, clean)`` from parsed JSON (None: nothing stored)."""
    if data is None:
        return Best(), True
    if not isinstance(data, Mapping) or data.get("version") != VERSION \
            or not isinstance(data.get("best"), Mapping):
        return Best(), False
    best, clean = Best(), True
    for drill, score in data["best"].items():
        if drill not in DRILLS or isinstance(score, bool) or not isinstance(score, int) \
                or not 0 <= score <= ITEMS:
            clean = False  # that drill's score is dropped, the others kept
            continue
        best.scores[drill] = score
    return best, clean


def parse(text: str | None) -> tuple[Best, bool]:
    """Best scores from stored text (None: nothing stored); the flag is True when it was
    unreadable. Never raises."""
    best, damaged = storage.read_text(text, "lessons", check)
    return best, damaged
