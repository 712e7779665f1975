"""Versioned local storage: the game in progress, the options and the statistics.

Pure Python: the backend is any object with ``getItem``/``setItem``/``removeItem`` (the
browser's ``localStorage``, or :class:`MemoryBackend` in tests). Values are JSON. A value
that cannot be read is reported (the caller shows a notice) and replaced, never a crash.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any, Protocol

KEYS = {
    "game": "spades.game.v1",
    "options": "spades.options.v1",
    "stats": "spades.stats.v1",
}
# Keys of earlier formats: removed when found.
OLD_KEYS = ("spades.game", "spades.options", "spades.stats", "spades.game.v0")


class Backend(Protocol):
    def getItem(self, key: str) -> Any: ...
    def setItem(self, key: str, value: str) -> None: ...
    def removeItem(self, key: str) -> None: ...


class MemoryBackend:
    """A dict behind the localStorage interface."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.items[key] = value

    def removeItem(self, key: str) -> None:
        self.items.pop(key, None)


class Storage:
    def __init__(self, backend: Backend | None) -> None:
        self.backend = backend if backend is not None else MemoryBackend()

    def raw(self, name: str) -> str | None:
        try:
            value = self.backend.getItem(KEYS[name])
        except Exception:
            return None
        return value if isinstance(value, str) else None

    def read(self, name: str) -> tuple[Any, bool]:
        """``(data, present)``: parsed JSON (None when unreadable) and whether anything
        was stored."""
        text = self.raw(name)
        if text is None:
            return None, False
        try:
            return json.loads(text), True
        except ValueError:
            return None, True

    def load(
        self, name: str, check: Callable[[Any], tuple[Any, bool]]
    ) -> tuple[Any, bool]:
        """``(value, damaged)``: the checked value; damaged when stored data was rejected
        (it is then replaced by the checked value)."""
        data, present = self.read(name)
        value, clean = check(data)
        damaged = present and not clean
        if damaged:
            self.write(name, value)
        return value, damaged

    def write(self, name: str, value: Any) -> bool:
        try:
            self.backend.setItem(KEYS[name], json.dumps(value, separators=(",", ":")))
        except Exception:
            return False
        return True

    def remove(self, name: str) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(KEYS[name])

    def drop_old(self) -> None:
        for key in OLD_KEYS:
            with contextlib.suppress(Exception):
                self.backend.removeItem(key)
