"""The JSON-lines logs the lab's instruments write (``--log``), read back one checked row a line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades_core.errors import UsageError

T = TypeVar("T")


def is_int(value: Any) -> bool:
    """Whether a decoded JSON value is a whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_rows(
    lines: Iterable[str], check: Callable[[Any], None], tool: str
) -> list[dict[str, Any]]:
    """Each non-blank line decoded and passed to ``check``, which raises ValueError,
    KeyError or TypeError for a row that is not ``tool``'s; such a line is refused with
    its number (:class:`UsageError`)."""
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            check(row)
        except (ValueError, KeyError, TypeError) as error:
            raise UsageError(f"line {number} is not a {tool} line: {error}") from None
        rows.append(row)
    return rows


def collect(items: Iterable[T], log: Path | None,
            rows: Callable[[T], Iterable[Any]] = lambda item: (item,)) -> list[T]:
    """``items`` in a list; with ``log``, each item's ``rows`` are also written there as
    they come, one JSON line each and flushed (a long run can be read while it goes on)."""
    found: list[T] = []
    if log is None:
        found.extend(items)
        return found
    with log.open("w", encoding="utf-8") as out:
        for item in items:
            found.append(item)
            for row in rows(item):
                out.write(json.dumps(row) + "\n")
            out.flush()
    return found
