"""Versioned local storage: the game in progress, the options, the statistics and the
lesson progress.

Pure Python: the backend is any object with ``getItem``/``setItem``/``removeItem`` (the
browser's ``localStorage``, or :class:`MemoryBackend` in tests). Values are JSON.

Every key is read through :func:`parse` then the key's check, and nothing stored can stop the
page: text over the key's size limit, nested deeper than :data:`MAX_DEPTH` (measured on the raw
text, before ``json.loads``, because deep nesting overflows Pyodide's stack instead of raising),
not JSON, holding ``NaN``/``Infinity``/``1e999``, or refused by the check — or any exception
while reading — makes the value *damaged*: the caller shows a notice and the key is replaced.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Callable
from typing import Any, Protocol

KEYS = {
    "game": "spades.game.v1",
    "options": "spades.options.v1",
    "stats": "spades.stats.v1",
    "lessons": "spades.lessons.v1",
    "par": "spades.par.v1",  # the deals' pars, by deal, level and rules (ui/table/coach_cache.py)
    "welcome": "spades.welcome.v1",  # true once the first visit's welcome was shown
    "progress": "spades.progress.v1",  # the judged hands' history (ui/progress/history.py)
    "mistakes": "spades.mistakes.v1",  # "Your mistakes": the deck (ui/progress/deck.py)
}
# Keys of earlier formats: removed when found.
OLD_KEYS = ("spades.game", "spades.options", "spades.stats", "spades.game.v0")

# Longest text accepted per key, in characters. The longest game seen (50 hands of a
# 1000-point game without a floor, beginner bots) saves as about 15 KB, so the game's limit
# leaves more than ten times that. Statistics grow by ~45 characters per daily deal played:
# 256 KiB is over fifteen years of dailies. Options are ~200 characters, lesson progress a
# few KB.
LIMITS = {
    "game": 256 * 1024,
    "options": 64 * 1024,
    "stats": 256 * 1024,
    "lessons": 64 * 1024,
    "par": 16 * 1024,  # at most coach_cache.MAX_ENTRIES pars of ~100 characters
    "welcome": 16,
    "progress": 128 * 1024,  # at most 200 games' summaries of ~600 characters (history.py)
    "mistakes": 256 * 1024,  # at most 100 items of ~700 characters, 2,600 at most (deck.py)
}
# Deepest nesting of arrays/objects accepted. The app writes at most 6 (the game:
# {record: {hands: [{cards: {N: [...]}}]}}).
MAX_DEPTH = 20

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")


def check_seen(data: object) -> tuple[dict[str, bool], bool]:
    """``{"seen": true}`` (the welcome shown), checked: ``(value, clean)``; nothing stored is
    ``{"seen": false}`` and clean, anything else ``{"seen": false}`` and damaged."""
    if data is None:
        return {"seen": False}, True
    if isinstance(data, dict) and set(data) == {"seen"} and isinstance(data["seen"], bool):
        return {"seen": data["seen"]}, True
    return {"seen": False}, False


class Unreadable(ValueError):
    """Stored text that is not accepted (too long, too deep, not JSON, not finite)."""


def depth_within(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest at most ``limit`` deep (brackets
    inside strings do not count). Unbalanced brackets count as too deep: that text is not
    JSON anyway. Linear passes of the regex engine, no recursion, no Python loop per char."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        if not brackets:
            return True
        brackets, count = _EMPTY_PAIR.subn("", brackets)
        if not count:
            return False
    return not brackets


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(f"number out of range: {text[:20]}")
    return value


def _constant(text: str) -> Any:
    raise Unreadable(f"not a JSON number: {text}")


def parse(text: str, limit: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of stored ``text``; raise :class:`Unreadable` when it is longer than
    ``limit`` characters, nested deeper than ``max_depth``, not JSON, or has a number that is
    not finite (``NaN``, ``Infinity``, ``1e999``)."""
    if len(text) > limit:
        raise Unreadable(f"{len(text)} characters, over the limit of {limit}")
    if not depth_within(text, max_depth):
        raise Unreadable(f"nested deeper than {max_depth}")
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_constant)
    except Unreadable:
        raise
    except (ValueError, RecursionError) as error:
        raise Unreadable(f"not JSON: {error}") from None


def read_text(
    text: str | None, name: str, check: Callable[[Any], tuple[Any, bool]]
) -> tuple[Any, bool]:
    """``(value, damaged)`` from the stored text of key ``name`` (None: nothing stored).

    ``check(data)`` returns ``(value, clean)``; ``check(None)`` is the value when nothing
    is stored or the text is unreadable. Never raises for anything a user can store."""
    if text is None:
        return check(None)[0], False
    try:
        data = parse(text, LIMITS[name])
        value, clean = check(data)
        if data is None:  # the JSON text "null": the app never writes it
            clean = False
    except Exception:  # anything stored must reset, never stop the page
        return check(None)[0], True
    return value, not clean


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
        # Set by the first write that fails (storage full, or refused): the page tells the
        # player once, then goes on without saving.
        self.write_failed = False

    def raw(self, name: str) -> str | None:
        try:
            value = self.backend.getItem(KEYS[name])
        except Exception:
            return None
        return value if isinstance(value, str) else None

    def load(
        self, name: str, check: Callable[[Any], tuple[Any, bool]],
        encode: Callable[[Any], str] | None = None,
    ) -> tuple[Any, bool]:
        """``(value, damaged)``: the checked value; damaged when stored data was rejected
        (it is then replaced by the checked value, or removed when that is None).
        ``encode`` turns the value into the stored text (JSON by default)."""
        value, damaged = read_text(self.raw(name), name, check)
        if damaged:
            if value is None:
                self.remove(name)
            else:
                self.write(name, value, encode)
        return value, damaged

    def write(self, name: str, value: Any, encode: Callable[[Any], str] | None = None) -> bool:
        """Store ``value``; False (and :attr:`write_failed` set) when the browser refuses."""
        try:
            text = encode(value) if encode else json.dumps(value, separators=(",", ":"))
            self.backend.setItem(KEYS[name], text)
        except Exception:
            self.write_failed = True
            return False
        return True

    def remove(self, name: str) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(KEYS[name])

    def drop_old(self) -> None:
        for key in OLD_KEYS:
            with contextlib.suppress(Exception):
                self.backend.removeItem(key)
