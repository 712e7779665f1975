"""The daily board and today's ranked deal.

The board ranks only ranked games: today's ranked deal, dealt by the server from a secret
and played as a room with three bots (``spades_server/ranked.py``). Its entry (the menu's
"Today's ranked deal", or the offline daily deal's end dialog) opens a dialog with a
nickname, the bots' level and the day's board of that level; "Play" sends ``ranked`` with
the browser's own token (one game a day per player and level) and the game is then the
rooms' table. At its end the room's dialog shows its rank and the board. The dialog shows
the board of today or of one of the seven days before: once the server has published a
day (two days later), each of its games opens in the hand viewer (its record, fetched and
shown by the table's ``App.show_record``) and its deal is a ``?deal=N`` link. The offline
daily deal is not ranked (its hands are known to every page): its end dialog says so.

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
from spades_core.record import loads

from ..shared import i18n
from ..shared.i18n import t
from . import rooms_client as rc
from . import rooms_screen


def today() -> int:
    """Today's ranked day: the UTC date, as the server counts it."""
    return daily_deal_number(datetime.datetime.now(datetime.UTC).date())


class DailyBoard:
    def __init__(self, rooms: Any) -> None:
        self.rooms = rooms  # the room connection (ui.rooms.rooms.Rooms)
        self.app = rooms.app
        self.asked: tuple[int, str] = (0, "")  # the ranked dialog's board: (day, level)
        self.shown: rc.BoardModel | None = None  # the board it shows

    def offer_daily(self, state: Any, level: str) -> None:
        """In the end dialog of the offline daily deal: not ranked, and the ranked deal."""
        rooms_screen.daily_unranked()

    # --- today's ranked deal ----------------------------------------------------------

    def level(self) -> str:
        level = str(self.app.options.get("level", "normal"))
        return level if level in rooms_screen.LEVELS else "normal"

    def open_ranked(self, error: str = "", level: str | None = None,
                    day: int | None = None) -> None:
        """The ranked deal's dialog (the menu's or the daily deal's end dialog's "ranked");
        the board of the chosen level and day (today's first) comes when it can."""
        level = level or self.level()
        now = today()
        days = rc.board_days(now)
        day = day if day in {value for value, _ in days} else now
        rooms_screen.ranked_dialog(self.rooms.data["nickname"], level, error, days, day)
        self.app.dialog_kind = "rooms"
        self.ask_board(day, level)

    def ask_board(self, day: int, level: str) -> None:
        """The ranked dialog's board of ``day`` and ``level`` (the last asked is shown)."""
        self.asked = (day, level)
        self.app.schedule(self.show_board(day, level, "ranked-box", "", dialog=True))

    def do_ranked_level(self, arg: str) -> None:
        """The dialog's level changed (``":expert"``): that level's board."""
        level = arg.rpartition(":")[2]
        if level in rooms_screen.LEVELS:
            self.ask_board(self.asked[0] or today(), level)

    def do_ranked_day(self, arg: str) -> None:
        """The dialog's day changed (``":20261205"``): that day's board."""
        text = arg.rpartition(":")[2]
        day = int(text) if text.isascii() and text.isdigit() else 0
        if day in {value for value, _ in rc.board_days(today())}:
            self.ask_board(day, self.asked[1] or self.level())

    def do_ranked_board(self, arg: str) -> None:
        """Back from a game of the board to the ranked dialog (``"DAY:LEVEL"``)."""
        day, _, level = arg.partition(":")
        self.open_ranked(level=level if level in rooms_screen.LEVELS else None,
                         day=int(day) if day.isascii() and day.isdigit() else None)

    def do_ranked_record(self, arg: str) -> None:
        """A published day's game (``api/ranked/DAY/record/GAME``): its record fetched and
        shown in the table's score sheet and hand viewer, every hand face up."""
        path, board = rc.record_path(arg), self.shown
        entry = next((e for e in board.entries if e.record == path), None) if board else None
        if path is None or board is None or entry is None:
            return
        day, level = board.day, self.asked[1] or self.level()

        async def work() -> None:
            try:
                response = await js.fetch(path)
                text = str(await response.text())
                state = loads(text) if int(response.status) == 200 else None
            except Exception:  # no server, or not a record (SpadesError): said below
                state = None
            if state is None or not state.past_hands:
                rooms_screen.board_error("ranked-box", t("ranked.record-missing"))
                return
            self.app.show_record(
                state, rc.record_names(entry.nickname),
                (t("rooms.team.NS"), t("rooms.team.EW")),
                t("ranked.record-title", name=entry.nickname, date=i18n.day_text(day),
                  level=t(f"level.{level}")),
                ("ranked-board", f"{day}:{level}"))

        self.app.schedule(work())

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
                self.rooms.active = False  # entered again (from the menu): the table shown
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
        (``dialog``), no server: the dialog says the ranked deal needs one, nothing else;
        an answer that is no longer the one asked for is dropped."""
        status, board = await self._fetch_json(f"api/daily/{day}?level={level}")
        if dialog and (day, level) != self.asked:
            return
        if status == 200 and isinstance(board, dict):
            model = self.shown = rc.board_model(board, day, level, today())
            rooms_screen.daily_board(box_id, model, rank_line)
        elif dialog and status == 0:
            rooms_screen.ranked_no_server()
        else:
            rooms_screen.daily_board(box_id, None, rank_line)

    def show_end(self, ranked: rc.Ranked) -> None:
        """The ranked game's end dialog is open: its rank, then the board."""
        level = t(f"level.{ranked.level}")
        line = t("ranked.rank", rank=ranked.rank, level=level) if ranked.rank else ""
        self.app.schedule(self.show_board(ranked.day, ranked.level, "ranked-box", line))
