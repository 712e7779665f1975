"""The daily board: a solo game of the daily deal, sent to the server from its end dialog
(a nickname, "Submit"), and the board of the day that comes back.

``DailyBoard`` is a part of the rooms' controller (``ui/rooms/rooms.py``, ``Rooms``), an
object it owns: the table's controller offers it the finished daily game (``offer_daily``);
it keeps that game, and reaches the stored nickname through the ``Rooms`` it is given.
"""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]

from ..shared import i18n
from ..shared.i18n import t
from . import rooms_client as rc
from . import rooms_screen


class DailyBoard:
    def __init__(self, rooms: Any) -> None:
        self.rooms = rooms  # the room connection (ui.rooms.rooms.Rooms)
        self.app = rooms.app
        self.daily_game: tuple[Any, str] | None = None  # the finished daily game offered

    def offer_daily(self, state: Any, level: str) -> None:
        """In the end dialog of the daily deal: a nickname and "Submit to the daily board"."""
        self.daily_game = (state, level)
        rooms_screen.daily_offer(self.rooms.data["nickname"])

    def do_daily_submit(self, arg: str) -> None:
        game = self.daily_game
        if game is None:
            return
        nick = self.rooms.lobby.nickname_field(rooms_screen.daily_status)  # said beside the field
        if nick is None:
            return
        state, level = game
        from spades_core.record import to_dict

        payload = {"nickname": nick, "level": level, "day": int(state.deal or 0),
                   "score": list(state.scores), "record": to_dict(state)}
        rooms_screen.daily_status(t("daily.sending"))
        self.app.schedule(self.submit_daily(payload))

    async def _fetch_json(self, url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """``(status, JSON)`` of a request to the page's own server; ``(0, None)`` when there
        is no server (static hosting, offline) or the answer is not JSON."""
        try:
            if body is None:
                response = await js.fetch(url)
            else:
                init = js.Object.fromEntries(js.JSON.parse(json.dumps([
                    ["method", "POST"], ["headers", {"Content-Type": "application/json"}],
                    ["body", json.dumps(body)]])))
                response = await js.fetch(url, init)
            text = str(await response.text())
            return int(response.status), json.loads(text)
        except Exception:
            return 0, None

    async def submit_daily(self, payload: dict[str, Any]) -> None:
        status, answer = await self._fetch_json("api/daily", payload)
        if status == 0 or not isinstance(answer, dict):
            rooms_screen.daily_status(t("rooms.no-server"))
            return
        error = answer.get("error")
        if status != 200 or "rank" not in answer:
            known = f"daily.refused.{error}"
            rooms_screen.daily_status(t(known) if isinstance(error, str) and i18n.has(known)
                                      else t("daily.error"))
            return
        day, level = int(payload["day"]), str(payload["level"])
        level_name = t(f"level.{level}")  # the board is the one of this level's bots
        rank_line = t("daily.rank", rank=int(answer["rank"]), level=level_name)
        status, board = await self._fetch_json(f"api/daily/{day}?level={level}")
        lines: tuple[str, ...] = ()
        if status == 200 and isinstance(board, dict) and isinstance(board.get("entries"), list):
            lines = tuple(
                t("daily.entry", rank=int(entry.get("rank", 0)),
                  name=str(entry.get("nickname", ""))[:rc.NICKNAME_MAX],
                  score=i18n.number(int(entry.get("score", 0))))
                for entry in board["entries"][:10] if isinstance(entry, dict)
            )
        rooms_screen.daily_board("daily-box", lines, rank_line,
                                 t("daily.board-title", level=level_name))
