"""The cache of the deals' pars in local storage (pure): ``{key: {"par": int}}``, where the
key names the deal, the level and the rules (the par is a pure function of the three, so
an entry never goes stale).  At most :data:`MAX_ENTRIES`, the oldest dropped first."""

from __future__ import annotations

import json
from typing import Any

MAX_ENTRIES = 64
MAX_KEY = 400


def key(deal: int, level: str, rules: dict[str, Any]) -> str:
    return f"{int(deal)}|{level}|{json.dumps(rules, sort_keys=True, separators=(',', ':'))}"


def check(data: object) -> tuple[dict[str, Any], bool]:
    """``(cache, clean)`` as ``ui.shared.storage`` reads it: the entries that are well formed
    (a damaged cache keeps them, and is not clean)."""
    if data is None:
        return {}, True
    if not isinstance(data, dict):
        return {}, False
    found: dict[str, Any] = {}
    damaged = False
    for name, value in data.items():
        par = value.get("par") if isinstance(value, dict) else None
        if (isinstance(name, str) and len(name) <= MAX_KEY and isinstance(par, int)
                and not isinstance(par, bool) and abs(par) < 10**6):
            found[name] = {"par": par}
        else:
            damaged = True
    if len(found) > MAX_ENTRIES:
        found = dict(list(found.items())[-MAX_ENTRIES:])
        damaged = True
    return found, not damaged


def put(cache: dict[str, Any], name: str, value: dict[str, Any]) -> dict[str, Any]:
    """A new cache with ``name`` set (last), the oldest entries dropped past the limit."""
    found = {k: v for k, v in cache.items() if k != name}
    found[name] = value
    return dict(list(found.items())[-MAX_ENTRIES:])
