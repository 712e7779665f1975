"""The rooms controller (browser only): one WebSocket to the rooms server, the room's state,
the player's actions sent as ``spades-room/1`` messages (docs/protocol.md).

The server is the authority: this module never applies an action. It draws the table from
the view the server sends (``ui/rooms/rooms_client.py`` turns it into a ``View``; the renderers are
the solo table's), sends ``bid`` / ``play`` / ``look`` on the player's clicks, and shows a
refusal with the engine's refusal text. The seat token is kept in local storage per room
code: a reload, or a lost socket (reconnection with back-off), sends ``resume``.
The page's controller (``ui/table/app.py``) routes the table's actions here while a room is open.

``Rooms`` is the room connection (the socket, what the server sends, the stored seats, the
room's state); it owns its other parts, one object of one concern each, which reach that
state through it: entering a room and the waiting room (``lobby``, a
``waiting_room.WaitingRoom``), the room's table and its bar (``table``, a
``room_table.RoomTable``), the daily board (``daily``, a ``daily_board.DailyBoard``). An
action (``do_<name>``) is run by the part that has it (``owner_of``, ``dispatch``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core.views import View

from ..shared import i18n, ports, sound
from ..shared.i18n import t
from ..shared.storage import parse
from ..table import render
from . import rooms_client as rc
from . import rooms_screen
from .daily_board import DailyBoard
from .room_table import RoomTable
from .waiting_room import WaitingRoom

STORE_KEY = "spades.rooms"


STORE_LIMIT = 16_000
ENGINE_REFUSALS = {"not-your-turn", "not-in-hand", "must-follow-suit", "spades-not-broken",
                   "not-bidding", "not-playing", "game-over", "blind-nil-off"}
# The table's actions a room answers itself while it is open.
TABLE_ACTIONS = {"play", "bid", "look", "blind", "blind_yes", "blind_no", "last", "sheet",
                 "sheet_next", "hint"}


class Rooms:
    table_actions = TABLE_ACTIONS  # what the table hands over while a room is open

    def __init__(self, app: Any) -> None:
        self.app = app
        self.data = self._load()
        self.ws: Any = None
        self.code: str | None = None
        self.seat: str | None = None
        self.token: str | None = None
        self.room: rc.RoomInfo | None = None
        self.view: View | None = None
        self.version = -1
        self.sent_version = -1
        self.active = False  # the table shows the room
        self.wanted = False  # a socket should be open (reconnect when it closes)
        self.attempt = 0
        self.reconnecting = False
        self.pending: dict[str, Any] | None = None  # the message to send once connected
        self.watching = False  # a spectator: the table, no seat, no hand
        self.ranked_level: str | None = None  # the level of the ranked game last asked for
        self.state_at = 0.0  # when the last state came (performance.now): the turn timer
        self._proxies: list[Any] = []  # the sockets' listeners, kept
        self._network: list[Any] = []  # the window's offline/online listeners, kept
        for kind, handler in (("offline", self.on_offline), ("online", self.on_online)):
            proxy = create_proxy(lambda event, h=handler: h())
            self._network.append(proxy)
            js.window.addEventListener(kind, proxy)
        # its parts, one concern each, given this object for the room's state and the socket
        self.lobby = WaitingRoom(self)
        self.table = RoomTable(self)
        self.daily = DailyBoard(self)
        self.parts: tuple[Any, ...] = (self, self.lobby, self.table, self.daily)

    # --- the parts: actions, and what the table's controller asks ---------------------

    def owner_of(self, name: str) -> Any:
        """The part (this object among them) that has the action ``name``, or None."""
        handler = ports.handler_name(name)
        return next((part for part in self.parts if hasattr(part, handler)), None)

    def dispatch(self, name: str, arg: str = "") -> bool:
        """Run the action ``name`` on the part that has it; False when none has."""
        owner = self.owner_of(name)
        return owner is not None and ports.dispatch(owner, name, arg)

    def from_link(self) -> bool:
        return bool(self.lobby.from_link())

    def open_dialog(self, error: str = "") -> None:
        self.lobby.open_dialog(error)

    def offer_daily(self, state: Any, level: str) -> None:
        self.daily.offer_daily(state, level)

    def render(self) -> None:
        self.table.render()

    def draw_bar(self) -> None:
        self.table.draw_bar()

    def dialog_closed(self, kind: str) -> None:
        self.table.dialog_closed(kind)

    def forget_hint(self) -> None:
        """The hints turned off: the card the hint pointed at is no longer marked."""
        self.table.hinted = None

    def on_offline(self) -> None:
        """The device lost its network: the socket may stay open a while and say nothing,
        so the table says "reconnecting" now (and nobody is nudged meanwhile)."""
        if self.active and self.wanted:
            self.reconnecting = True
            self.draw_bar()

    def on_online(self) -> None:
        """The network is back: a socket that lived through it carries on (what was sent
        meanwhile arrives now); a closed one is opened again at once."""
        if not self.wanted:
            return
        if self.ws is None:
            self.attempt = 0
            self.open_socket()
        elif int(self.ws.readyState) == 1:
            self.reconnecting = False
            self.draw_bar()

    # --- storage ---------------------------------------------------------------------

    @staticmethod
    def _load() -> dict[str, Any]:
        try:
            text = js.localStorage.getItem(STORE_KEY)
            if text is None or not isinstance(text, str):
                return rc.empty_stored()
            return rc.check_stored(parse(text, STORE_LIMIT))[0]
        except Exception:
            return rc.empty_stored()

    def save(self) -> None:
        # A refused write: play goes on; only a reload would lose the seat.
        with contextlib.suppress(Exception):
            js.localStorage.setItem(STORE_KEY, json.dumps(self.data))

    # --- the socket ------------------------------------------------------------------

    def url(self) -> str:
        scheme = "wss" if str(js.location.protocol) == "https:" else "ws"
        return f"{scheme}://{js.location.host}/ws"

    def connect(self, first: dict[str, Any], code: str | None = None,
                stored: dict[str, Any] | None = None) -> None:
        self.close_socket()
        self.wanted = True
        self.pending = first
        if code is not None:
            self.code = code
        if stored is not None:
            self.seat, self.token = stored["seat"], stored["token"]
        self.open_socket()

    def open_socket(self) -> None:
        try:
            ws = js.WebSocket.new(self.url())
        except Exception:
            self.lost()
            return
        self.ws = ws
        for kind, handler in (("message", self.on_message), ("close", self.on_close),
                              ("open", self.on_open)):
            proxy = create_proxy(lambda event, h=handler, w=ws: h(event, w))
            self._proxies.append(proxy)
            ws.addEventListener(kind, proxy)

    def close_socket(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()

    def on_open(self, event: Any, ws: Any) -> None:
        if ws is not self.ws:
            return
        self.attempt = 0
        if self.pending is not None:
            first, self.pending = self.pending, None
            self.send(first)
        elif self.code is not None and self.token is not None:
            self.send({"type": "resume", "code": self.code, "token": self.token})
        elif self.code is not None and self.watching:
            self.send({"type": "watch", "code": self.code})

    def on_close(self, event: Any, ws: Any) -> None:
        if ws is not self.ws:
            return
        self.ws = None
        code = getattr(event, "code", None)
        if code == rc.CLOSE_REPLACED:  # (its "replaced" frame lost): the same, no retry
            self.on_replaced()
        elif self.wanted:
            self.lost(busy=code == rc.CLOSE_TRY_LATER)

    def lost(self, busy: bool = False) -> None:
        """The socket is gone: say so, and try again after a growing wait."""
        if not self.wanted:
            return
        if self.code is None or self.token is None:
            # Never seated: nothing to resume; the server is not there, or full.
            self.wanted = False
            self.pending = None
            key = "rooms.busy" if busy else "rooms.no-server"
            self.lobby.form_error(t(key))
            render.notice(t(key), key.replace(".", "-"))
            return
        self.reconnecting = True
        self.draw_bar()
        delay = rc.backoff_seconds(self.attempt)
        self.attempt += 1

        async def again() -> None:
            await asyncio.sleep(delay)
            if self.wanted and self.ws is None:
                self.open_socket()

        self.app.schedule(again())

    def send(self, message: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None or int(ws.readyState) != 1:
            self.sent_version = -1  # not sent: the player may act again once connected
            return
        ws.send(json.dumps(message))

    def leave(self) -> None:
        """Leave the room's table (the seat stays the player's: the link resumes it)."""
        self.wanted = False
        self.active = False
        self.close_socket()
        self.reconnecting = False
        rooms_screen.hide_room_bar()
        render.translate_static()  # the score bar's team names as in solo again
        with contextlib.suppress(Exception):  # and its scores and label: the solo game's
            self.app.render()
        self.table.stop()

    # --- what the server sends -------------------------------------------------------

    def on_message(self, event: Any, ws: Any) -> None:
        if ws is not self.ws:
            return
        try:
            data = json.loads(str(event.data))
            kind = data.get("type") if isinstance(data, dict) else None
            if kind == "joined":
                self.on_joined(data)
            elif kind == "state":
                self.on_state(data)
            elif kind == "chat":
                self.on_chat(data)
            elif kind == "refused":
                self.on_refused(data)
            elif kind == "replaced":
                self.on_replaced()
            elif kind == "left":
                self.table.on_left(data)
            elif kind == "room":
                self.lobby.on_peek(data)
        except (ValueError, rc.BadFrame) as error:
            js.console.warn(f"rooms: frame not read: {error!r}")

    def on_joined(self, data: dict[str, Any]) -> None:
        code = rc.parse_code(data.get("code"))
        seat = data.get("seat")
        if code is not None and seat is None and data.get("watching") is True:
            self.code, self.seat, self.watching = code, None, True
            self.reconnecting = False
            js.history.replaceState(None, "", f"{js.location.pathname}?room={code}&watch")
            return
        if code is None or seat not in rc.SEAT_NAMES:
            raise rc.BadFrame("bad joined")
        self.watching = False
        self.code, self.seat = code, seat
        token = data.get("token")
        if isinstance(token, str) and 1 <= len(token) <= 64:
            self.token = token
        if self.token is not None:
            self.data["seats"][code] = {"seat": seat, "token": self.token}
            self.data["last"] = code
            self.save()
        self.reconnecting = False
        js.history.replaceState(None, "", f"{js.location.pathname}?room={code}")

    def link(self) -> str:
        return f"{js.location.origin}{js.location.pathname}?room={self.code}"

    def on_state(self, data: dict[str, Any]) -> None:
        room = rc.room_from_json(data.get("room"))
        raw_view = data.get("view")
        view = rc.view_from_json(raw_view) if raw_view is not None else None
        version = data.get("version")
        seat = data.get("seat")  # where this connection sits now (the host may move it)
        if seat in rc.SEAT_NAMES and seat != self.seat and self.code is not None:
            self.seat = seat
            if self.token is not None:
                self.data["seats"][self.code] = {"seat": seat, "token": self.token}
                self.save()
        joined = rc.arrivals(self.room, room, self.seat)
        rematch_before = self.room.rematch if self.room is not None else None
        self.state_at = float(js.performance.now())
        nudged_now = (room.nudge_seat is not None and room.nudge_by == self.seat
                      and (self.room is None or self.room.nudge_seat is None))
        self.room = room
        self.reconnecting = False
        table = self.table
        for line in joined:
            table.say(line)
        if nudged_now and room.nudge_seat is not None:  # the nudge went: say so to its sender
            table.say(t("rooms.nudge-sent",
                        name=rc.seat_words(room, room.nudge_seat, self.seat)))
        if isinstance(version, int):
            self.version = version
        previous, self.view = self.view, view
        table.moved_on(previous, view)
        if room.status == "waiting" or view is None:
            self.active = False
            self.lobby.joining = None
            if self.app.dialog_kind in ("", "rooms", "lobby"):
                self.lobby.draw_lobby()
            return
        table.show(view, previous, room, rematch_before)

    def on_chat(self, data: dict[str, Any]) -> None:
        phrase, seat = data.get("phrase"), data.get("seat")
        if phrase not in self.table.phrases or seat not in rc.SEAT_NAMES or self.data["muted"]:
            return
        self.table.say(rc.chat_line(self.room, seat, phrase, self.seat))

    def on_replaced(self) -> None:
        """Another page took this seat up with its token: this one stops (no reconnection,
        which would take the seat back from it), says so, and offers to play here again."""
        if not self.wanted and self.ws is None:
            return  # said already
        self.wanted = False
        self.reconnecting = False
        self.close_socket()
        self.draw_bar()
        text = t("rooms.replaced")
        rooms_screen.replaced_dialog(self.code or "", text)
        self.app.dialog_kind = "rooms"
        render.announce(text)

    def do_room_here(self, arg: str) -> None:
        """"Play here" after the seat was taken up elsewhere: this page resumes it (and
        the other page is told in its turn)."""
        if self.code is not None and self.token is not None:
            self.connect({"type": "resume", "code": self.code, "token": self.token})

    def on_refused(self, data: dict[str, Any]) -> None:
        reason = data.get("reason")
        params: dict[str, Any] = data["params"] if isinstance(data.get("params"), dict) else {}
        if not isinstance(reason, str) or data.get("request") == "look":
            return  # a look refused (not bidding any more): the seat is back all the same
        if reason == "already-started" and data.get("request") == "start":
            return  # "Start" pressed twice: the game the player asked for is under way
        if reason == "bad-token" and self.code is not None:
            self.data["seats"].pop(self.code, None)
            self.save()
            self.token = None
            self.wanted = False
            self.close_socket()
            self.open_dialog(t("rooms.refused.bad-token"))
            return
        if reason in ENGINE_REFUSALS:
            text = i18n.refusal_text(reason, params)
        else:
            key = f"rooms.refused.{reason}"
            text = t(key, **params) if i18n.has(key) else t("rooms.refused.other")
        if data.get("request") == "ranked":  # today's ranked deal not started: its dialog
            self.wanted = False
            self.close_socket()
            self.daily.refused(reason, params, text)
            return
        if reason in rc.STOPPING_REFUSALS:
            self.wanted = False
            self.close_socket()
            lobby = self.lobby
            joining, lobby.joining = lobby.joining, None
            if joining is not None and joining[1]:  # back to the link's dialog, code kept
                rooms_screen.nickname_dialog(joining[0], self.data["nickname"], error=text)
                self.app.dialog_kind = "rooms"
            elif joining is not None:
                rooms_screen.friends_dialog(self.data["nickname"], joining[0], error=text)
                self.app.dialog_kind = "rooms"
            else:
                self.open_dialog(text)
            return
        if self.app.dialog_kind == "lobby" and data.get("request") in ("move", "start"):
            self.lobby.draw_lobby(text)  # the pickers back as the room is, and why
            return
        self.sent_version = -1  # refused: the player may act again
        self.render()
        render.message(text, refusal=True)  # (plain text: cleared if the language changes)
        render.announce(text)
        if self.app.options["sound"]:
            sound.play("refuse")


