"""The daily board and today's ranked deal.

The board ranks only ranked games: today's ranked deal, dealt by the server from a secret
and played as a room with three bots (``spades_server/ranked.py``). Its entry (the menu's
"Today's ranked deal", or the offline daily deal's end dialog) opens a dialog with a
nickname, the bots' level and the day's board of that level; "Play" sends ``ranked`` with
the browser's own token (one game a day per player and level) and the game is then the
rooms' table. At its end the room's dialog shows its rank and the board. The offline daily
deal is not ranked (its hands are known to every page): its end dialog says so.

``DailyBoard`` is a part of the rooms' controller (``ui/rooms/rooms.py``, ``Rooms``), an
object it owns; it reaches the stored nickname and the socket through the ``Rooms`` it is
given.
"""

from __future__ import annotations

import datetime
import json
import secrets
from typing import Any

import js  # type: ignore[import-not-found]

from spades_core.deal import daily_deal_number

from ..shared import i18n
from ..shared.i18n import t
from . import rooms_client as rc
from . import rooms_screen


def today() -> int:
    """Today's ranked day: the UTC date, as the server counts it."""
    return daily_deal_number(datetime.datetime.now(datetime.UTC).date())


def board_lines(board: Any) -> tuple[str, ...]:
    """The board's first ten entries as lines (``GET /api/daily/DAY``'s JSON)."""
    entries = board.get("entries") if isinstance(board, dict) else None
    if not isinstance(entries, list):
        return ()
    return tuple(
        t("daily.entry", rank=int(entry.get("rank", 0)),
          name=str(entry.get("nickname", ""))[:rc.NICKNAME_MAX],
          score=i18n.number(int(entry.get("score", 0))))
        for entry in entries[:10] if isinstance(entry, dict)
    )


class DailyBoard:
    def __init__(self, rooms: Any) -> None:
        self.rooms = rooms  # the room connection (ui.rooms.rooms.Rooms)
        self.app = rooms.app

    def offer_daily(self, state: Any, level: str) -> None:
        """In the end dialog of the offline daily deal: not ranked, and the ranked deal."""
        rooms_screen.daily_unranked()

    # --- today's ranked deal ----------------------------------------------------------

    def level(self) -> str:
        level = str(self.app.options.get("level", "normal"))
        return level if level in rooms_screen.LEVELS else "normal"

    def open_ranked(self, error: str = "", level: str | None = None) -> None:
        """The ranked deal's dialog (the menu's or the daily deal's end dialog's "ranked");
        the board of the chosen level comes when it can."""
        level = level or self.level()
        rooms_screen.ranked_dialog(self.rooms.data["nickname"], level, error)
        self.app.dialog_kind = "rooms"
        self.app.schedule(self.show_board(today(), level, "ranked-box", "", dialog=True))

    def do_ranked_level(self, arg: str) -> None:
        """The dialog's level changed (``":expert"``): that level's board."""
        level = arg.rpartition(":")[2]
        if level in rooms_screen.LEVELS:
            self.app.schedule(self.show_board(today(), level, "ranked-box", "", dialog=True))

    def do_ranked_start(self, arg: str) -> None:
        nick = self.rooms.lobby.nickname_field()
        if nick is None:
            return
        node = js.document.getElementById("room-bot_level")
        level = str(node.value) if node is not None and type(node).__name__ != "JsNull" \
            else self.level()
        if level not in rooms_screen.LEVELS:
            level = self.level()
        data = self.rooms.data
        if not rc.good_player(data.get("player")):
            data["player"] = secrets.token_urlsafe(24)  # this browser's, kept
            self.rooms.save()
        self.rooms.ranked_level = level
        self.rooms.connect({"type": "ranked", "nickname": nick, "level": level,
                            "player": data["player"]})

    def refused(self, reason: str, params: dict[str, Any], text: str) -> bool:
        """A refused ``ranked``: back to its dialog with the reason; an unfinished game of
        this browser is resumed (True when handled)."""
        if reason == "ranked-unfinished":
            code = rc.parse_code(params.get("code"))
            stored = self.rooms.data["seats"].get(code) if code is not None else None
            if code is not None and stored is not None:
                self.rooms.connect({"type": "resume", "code": code, "token": stored["token"]},
                                   code, stored)
                return True
        self.open_ranked(text, getattr(self.rooms, "ranked_level", None))
        return True

    async def _fetch_json(self, url: str) -> tuple[int, Any]:
        """``(status, JSON)`` of a GET to the page's own server; ``(0, None)`` when there is
        no server (static hosting, offline) or the answer is not JSON."""
        try:
            response = await js.fetch(url)
            text = str(await response.text())
            return int(response.status), json.loads(text)
        except Exception:
            return 0, None

    async def show_board(self, day: int, level: str, box_id: str, rank_line: str,
                         dialog: bool = False) -> None:
        """The day's board of ``level`` in the box ``box_id``. From the ranked dialog
        (``dialog``), no server: the dialog says the ranked deal needs one, nothing else."""
        status, board = await self._fetch_json(f"api/daily/{day}?level={level}")
        title = t("ranked.board-title", level=t(f"level.{level}"))
        if status == 200 and isinstance(board, dict):
            rooms_screen.daily_board(box_id, board_lines(board), rank_line, title)
        elif dialog and status == 0:
            rooms_screen.ranked_no_server()
        else:
            rooms_screen.daily_board(box_id, (), rank_line, "")

    def show_end(self, ranked: rc.Ranked) -> None:
        """The ranked game's end dialog is open: its rank, then the board."""
        level = t(f"level.{ranked.level}")
        line = t("ranked.rank", rank=ranked.rank, level=level) if ranked.rank else ""
        self.app.schedule(self.show_board(ranked.day, ranked.level, "ranked-box", line))
