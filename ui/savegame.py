"""The saved game in progress: a game record plus what the page needs around it (pure).

Stored under ``spades.game.v1`` as
``{"record": <spades-record/1>, "level": ..., "daily": bool, "hints": bool,
"seen": <hand index whose cards South has looked at, or -1>,
"sheets": <hands whose score sheet was seen>, "recorded": bool}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spades_core import GameState, RecordError
from spades_core.record import from_dict, to_dict

LEVELS = ("beginner", "normal", "expert")


@dataclass
class SavedGame:
    state: GameState
    level: str = "normal"
    daily: bool = False
    hints: bool = True
    seen: int = -1
    sheets: int = 0
    recorded: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "record": to_dict(self.state),
            "level": self.level,
            "daily": self.daily,
            "hints": self.hints,
            "seen": self.seen,
            "sheets": self.sheets,
            "recorded": self.recorded,
        }


def check(data: object) -> tuple[SavedGame | None, bool]:
    """``(game, clean)``: None with clean=True when nothing is stored; None with clean=False
    when the stored data is not a readable game."""
    if data is None:
        return None, True
    if not isinstance(data, dict):
        return None, False
    try:
        state = from_dict(data["record"])
        level = data["level"]
        if level not in LEVELS or state.deal is None:
            return None, False
        game = SavedGame(
            state=state,
            level=level,
            daily=bool(data.get("daily", False)),
            hints=bool(data.get("hints", True)),
            seen=int(data.get("seen", -1)),
            sheets=int(data.get("sheets", 0)),
            recorded=bool(data.get("recorded", False)),
        )
    except (KeyError, TypeError, ValueError, RecordError):
        return None, False
    return game, True
