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


def validate(data: object) -> tuple[dict[str, Any], bool]:
    """Stats from stored data: ``(stats, clean)``; anything malformed resets them."""
    if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
        return empty(), False
    found = empty()
    try:
        for level in LEVELS:
            row = data["levels"].get(level)
            if row is None:
                continue
            if not isinstance(row, dict):
                return empty(), False
            for key in ("played", "won", "streak", "best_streak"):
                if not _int(row[key]):
                    return empty(), False
            best = row["best"]
            if best is not None and not _score(best):
                return empty(), False
            if not row["streak"] <= row["best_streak"] <= row["won"] <= row["played"]:
                return empty(), False
            found["levels"][level] = {k: row[k] for k in found["levels"][level]}
        daily = data.get("daily", {})
        if not isinstance(daily, dict):
            return empty(), False
        for date, result in daily.items():
            if not (isinstance(date, str) and len(date) == 8 and date.isdigit()):
                return empty(), False
            if not (isinstance(result, dict) and type(result.get("won")) is bool
                    and _score(result.get("ns")) and _score(result.get("ew"))):
                return empty(), False
            found["daily"][date] = {"won": result["won"], "ns": result["ns"], "ew": result["ew"]}
    except (KeyError, TypeError, AttributeError):
        return empty(), False
    return found, True


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
