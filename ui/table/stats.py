"""Statistics of finished games, per bot level, and the daily deals' results (pure Python)."""

from __future__ import annotations

import copy
from typing import Any

LEVELS = ("beginner", "normal", "expert")


def empty() -> dict[str, Any]:
    return {
        "levels": {
            level: {"played": 0, "won": 0, "best": None, "streak": 0, "best_streak": 0}
            for level in LEVELS
        },
        "daily": {},
    }


# Bounds of what a real history can hold: counts of games, and scores (a game ends near
# its target; without a floor a losing side can sink, but not by a million).
MAX_COUNT = 10**7
MAX_SCORE = 10**6


def _int(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _score(value: object) -> bool:
    return type(value) is int and -MAX_SCORE <= value <= MAX_SCORE


def _level_row(row: object) -> dict[str, Any] | None:
    """A level's stored row, checked; None when it cannot be read."""
    if not isinstance(row, dict):
        return None
    try:
        if not all(_int(row[key]) for key in ("played", "won", "streak", "best_streak")):
            return None
        best = row["best"]
        if best is not None and not _score(best):
            return None
        if not row["streak"] <= row["best_streak"] <= row["won"] <= row["played"]:
            return None
    except KeyError:
        return None
    return {key: row[key] for key in ("played", "won", "best", "streak", "best_streak")}


def _daily_result(date: object, result: object) -> dict[str, Any] | None:
    """A day's stored result (its key ``YYYYMMDD``), checked; None when it cannot be read."""
    if not (isinstance(date, str) and len(date) == 8 and date.isascii() and date.isdigit()):
        return None
    if not (isinstance(result, dict) and type(result.get("won")) is bool
            and _score(result.get("ns")) and _score(result.get("ew"))):
        return None
    return {"won": result["won"], "ns": result["ns"], "ew": result["ew"]}


def validate(data: object) -> tuple[dict[str, Any], bool]:
    """Stats from stored data: ``(stats, clean)``. What cannot be read (a level's row, a
    day's result, or all of it) is dropped and the rest kept; ``clean`` is False when
    anything was dropped."""
    found = empty()
    if not isinstance(data, dict):
        return found, False
    clean = True
    levels = data.get("levels")
    if not isinstance(levels, dict):
        clean, levels = False, {}
    for level in LEVELS:
        if levels.get(level) is None:
            continue
        row = _level_row(levels[level])
        if row is None:
            clean = False
        else:
            found["levels"][level] = row
    daily = data.get("daily", {})
    if not isinstance(daily, dict):
        clean, daily = False, {}
    for date, result in daily.items():
        kept = _daily_result(date, result)
        if kept is None:
            clean = False
        else:
            found["daily"][date] = kept
    return found, clean


def record_game(
    stats: dict[str, Any], level: str, won: bool, score: int, daily: str | None = None,
    ew: int = 0,
) -> dict[str, Any]:
    """The stats after a finished game (a new dict): ``score`` is the player's team's."""
    found = copy.deepcopy(stats)
    row = found["levels"][level if level in LEVELS else "normal"]
    row["played"] += 1
    if won:
        row["won"] += 1
        row["streak"] += 1
        row["best_streak"] = max(row["best_streak"], row["streak"])
    else:
        row["streak"] = 0
    row["best"] = score if row["best"] is None else max(row["best"], score)
    if daily is not None and daily not in found["daily"]:
        found["daily"][daily] = {"won": won, "ns": score, "ew": ew}
    return found


def win_rate(row: dict[str, Any]) -> float | None:
    return row["won"] / row["played"] if row["played"] else None


def totals(stats: dict[str, Any]) -> dict[str, Any]:
    """All levels together (best streaks are the best of any level)."""
    rows = list(stats["levels"].values())
    bests = [row["best"] for row in rows if row["best"] is not None]
    return {
        "played": sum(row["played"] for row in rows),
        "won": sum(row["won"] for row in rows),
        "best": max(bests) if bests else None,
        "streak": max(row["streak"] for row in rows),
        "best_streak": max(row["best_streak"] for row in rows),
    }
