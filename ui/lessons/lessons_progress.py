"""Lesson progress: which steps of which lesson the learner has done, as stored JSON.

Pure Python (no browser import), so the CPython tests cover it. The screen keeps the text
under :data:`KEY` in localStorage. Stored data that cannot be read is never trusted: :func:`parse`
keeps the lessons whose entries can be read, drops the others and says so, and the screen
tells the learner and overwrites it.

Stored form (``version`` 1)::

    {"version": 1, "lessons": {"rules-02-tricks": {"done": [0, 1, 4], "at": 5}}}

``done`` are 0-based step indexes; ``at`` is the step to reopen the lesson on; ``stars``
(optional, 1 to 3) the best stars the lesson was finished with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..shared import storage

KEY = "spades.lessons.v1"
VERSION = 1
_MAX_STEPS = 1000  # a sanity bound on stored indexes
_MAX_ID = 200  # and on lesson ids (real ones are like "rules-02-tricks")


@dataclass
class Progress:
    done: dict[str, set[int]] = field(default_factory=dict)
    at: dict[str, int] = field(default_factory=dict)
    stars: dict[str, int] = field(default_factory=dict)

    def record_stars(self, lesson_id: str, stars: int) -> bool:
        """Keep the best stars of a lesson; True when that is news (the caller then saves)."""
        if not 1 <= stars <= 3 or self.stars.get(lesson_id, 0) >= stars:
            return False
        self.stars[lesson_id] = stars
        return True

    def mark(self, lesson_id: str, step: int) -> bool:
        """Record a step as done; True when that is news (the caller then saves)."""
        steps = self.done.setdefault(lesson_id, set())
        if step in steps:
            return False
        steps.add(step)
        return True

    def is_done(self, lesson_id: str, step: int) -> bool:
        return step in self.done.get(lesson_id, ())

    def count(self, lesson_id: str, total: int) -> int:
        """Steps done among the lesson's ``total`` steps (stale indexes do not count)."""
        return sum(1 for step in self.done.get(lesson_id, ()) if 0 <= step < total)

    def complete(self, lesson_id: str, total: int) -> bool:
        return total > 0 and self.count(lesson_id, total) == total

    def resume_at(self, lesson_id: str, total: int) -> int:
        """The step to open a lesson on: where the learner was, else the first step not done."""
        where = self.at.get(lesson_id)
        if where is not None and 0 <= where < total:
            return where
        for step in range(total):
            if not self.is_done(lesson_id, step):
                return step
        return 0

    def to_json(self) -> str:
        lessons: dict[str, dict[str, object]] = {}
        for lesson_id in sorted(set(self.done) | set(self.at) | set(self.stars)):
            entry: dict[str, object] = {"done": sorted(self.done.get(lesson_id, ()))}
            if lesson_id in self.at:
                entry["at"] = self.at[lesson_id]
            if lesson_id in self.stars:
                entry["stars"] = self.stars[lesson_id]
            lessons[lesson_id] = entry
        return json.dumps({"version": VERSION, "lessons": lessons}, separators=(",", ":"))


class ProgressError(ValueError):
    """Stored progress that cannot be used."""


def _index(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < _MAX_STEPS:
        raise ProgressError(f"not a step index: {raw!r}")
    return raw


def from_data(data: object) -> Progress:
    """Progress from parsed JSON; raise :class:`ProgressError` when it is not version-1
    progress."""
    if not isinstance(data, Mapping) or data.get("version") != VERSION:
        raise ProgressError("not version-1 lesson progress")
    lessons = data.get("lessons")
    if not isinstance(lessons, Mapping):
        raise ProgressError("'lessons' must be an object")
    progress = Progress()
    for lesson_id, entry in lessons.items():
        if (not isinstance(lesson_id, str) or not 0 < len(lesson_id) <= _MAX_ID
                or not isinstance(entry, Mapping)):
            raise ProgressError(f"bad entry for {lesson_id[:_MAX_ID]!r}")
        done = entry.get("done", [])
        if not isinstance(done, list):
            raise ProgressError(f"{lesson_id}: 'done' must be a list")
        progress.done[lesson_id] = {_index(step) for step in done}
        if "at" in entry:
            progress.at[lesson_id] = _index(entry["at"])
        if "stars" in entry:
            stars = entry["stars"]
            if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 3:
                raise ProgressError(f"{lesson_id}: 'stars' must be 1, 2 or 3")
            progress.stars[lesson_id] = stars
    return progress


def check(data: object) -> tuple[Progress, bool]:
    """``(progress, clean)`` from parsed JSON (None: nothing stored), for
    :meth:`ui.shared.storage.Storage.load`. A lesson's entry that cannot be read is dropped and
    the other lessons kept (``clean`` is then False)."""
    if data is None:
        return Progress(), True
    try:
        return from_data(data), True
    except ProgressError:
        pass
    progress = Progress()
    lessons = data.get("lessons") if isinstance(data, Mapping) else None
    if not isinstance(data, Mapping) or data.get("version") != VERSION \
            or not isinstance(lessons, Mapping):
        return progress, False
    for lesson_id, entry in lessons.items():
        try:
            one = from_data({"version": VERSION, "lessons": {lesson_id: entry}})
        except (ProgressError, TypeError):
            continue
        progress.done.update(one.done)
        progress.at.update(one.at)
        progress.stars.update(one.stars)
    return progress, False


def loads(text: str) -> Progress:
    """Read stored progress; raise :class:`ProgressError` when it is not version-1 progress
    (or too long, too deep, not JSON: see :func:`ui.shared.storage.parse`)."""
    try:
        data = storage.parse(text, storage.LIMITS["lessons"])
    except storage.Unreadable as error:
        raise ProgressError(str(error)) from None
    return from_data(data)


def parse(text: str | None) -> tuple[Progress, bool]:
    """Progress from stored text (None: nothing stored); the flag is True when it was
    unreadable (an empty text included: the page never stores one). Never raises."""
    progress, damaged = storage.read_text(text, "lessons", check)
    return progress, damaged
