"""The saved game in progress: a game record plus what the page needs around it (pure).

Stored under ``spades.game.v1`` as
``{"record": <spades-record/1>, "level": ..., "daily": bool, "hints": bool,
"seen": <hand index whose cards South has looked at, or -1>,
"sheets": <hands whose score sheet was seen>, "recorded": bool}``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from spades_core import GameState, RecordError, Rules
from spades_core.record import from_dict, to_dict

from ..shared.options import CHOICES, GAME_OPTIONS, defaults, rules_kwargs

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


def _same(found: object, expected: dict[str, Any]) -> bool:
    """``found`` is ``expected`` exactly: same keys, same values of the same JSON types
    (``true`` is not ``1``)."""
    return (isinstance(found, dict) and set(found) == set(expected)
            and all(type(found[k]) is type(v) and found[k] == v for k, v in expected.items()))


def allowed_rules() -> list[dict[str, Any]]:
    """Every rules object the options can produce, as the saved record writes it."""
    names = [name for name in GAME_OPTIONS if name != "level"]
    found: list[dict[str, Any]] = []
    for values in itertools.product(*(CHOICES[name] for name in names)):
        chosen = {**defaults(), **dict(zip(names, values, strict=True))}
        found.append(Rules(**rules_kwargs(chosen)).to_dict())
    return found


def _flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if type(value) is not bool:
        raise ValueError(f"{key} must be true or false")
    return value


def _count(data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{key} must be an integer in {low}..{high}")
    return value


def check(data: object) -> tuple[SavedGame | None, bool]:
    """``(game, clean)``: None with clean=True when nothing is stored; None with clean=False
    when the stored data is not a game this page could have saved (its rules among those
    the options offer, its counters in range)."""
    if data is None:
        return None, True
    if not isinstance(data, dict):
        return None, False
    try:
        record = data["record"]
        if not isinstance(record, dict) or not any(
            _same(record.get("rules"), rules) for rules in allowed_rules()
        ):
            return None, False
        level = data["level"]
        if level not in LEVELS:
            return None, False
        state = from_dict(record)
        if state.deal is None:
            return None, False
        game = SavedGame(
            state=state,
            level=level,
            daily=_flag(data, "daily", False),
            hints=_flag(data, "hints", True),
            seen=_count(data, "seen", -1, -1, state.hand_index),
            sheets=_count(data, "sheets", 0, 0, len(state.past_hands)),
            recorded=_flag(data, "recorded", False),
        )
    except (KeyError, TypeError, ValueError, RecordError, OverflowError, RecursionError):
        return None, False
    return game, True


# --- the table painted before Python is ready (ui/paint.js) ---------------------------------

KEPT_ACTIONS = ("play", "bid", "look")  # the clicks on the painted table kept for Python


def paint_key(state: GameState) -> str:
    """Which point of which game a painted table shows: ui/paint.js stores it with its copy
    of the table, and a click kept there is played only if the restored game is at that very
    point (the deal, the hand, the scores, the bids and cards played so far)."""
    scores = state.scores
    return (f"{state.deal}:{state.hand_index}:{scores[0]}:{scores[1]}:"
            f"{len(state.bid_history)}:{len(state.plays)}")


def kept_move(painted: object, key: str) -> tuple[str, str, str]:
    """What to do with what the painted table kept (``spadesPaint.revert()``'s answer, read
    as a dict): ``("play", action, arg)`` to dispatch the card or bid clicked there, now that
    the game restored is at the point painted (``key``, :func:`paint_key`); ``("drop", ...)``
    when a move was kept but the game is elsewhere (the player is told, nothing is played);
    ``("none", "", "")`` when nothing was painted or kept, or what was kept is not a move.
    Its legality is judged by the move's own handler, as for any click."""
    if not isinstance(painted, dict):
        return "none", "", ""
    action, arg, painted_key = (painted.get(name) for name in ("action", "arg", "key"))
    if (not isinstance(action, str) or action not in KEPT_ACTIONS or not isinstance(arg, str)
            or len(arg) > 8 or not isinstance(painted_key, str)):
        return "none", "", ""
    if painted_key != key:
        return "drop", action, arg
    return "play", action, arg
