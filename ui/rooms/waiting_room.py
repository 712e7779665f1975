"""Entering a room, and its waiting room: the friends' dialog (a nickname, a new room's
options, a code), a ``?room=`` link, the quick game, and the lobby (the host's seat pickers,
the link to share, Start).

``WaitingRoom`` is a part of the rooms' controller (``ui/rooms/rooms.py``, ``Rooms``), an
object it owns: it keeps what is its own (the room being joined) and reaches the room's
state and the socket through the ``Rooms`` it is given.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from spades_core.rules import DEFAULT_RULES

from ..shared.i18n import t
from ..table import dialogs, render
from . import rooms_client as rc
from . import rooms_screen


def _node(element_id: str) -> Any:
    """The element of id ``element_id``, or None (JavaScript's null comes back as JsNull)."""
    node = js.document.getElementById(element_id)
    return None if node is None or type(node).__name__ in ("JsNull", "JsUndefined") else node


class WaitingRoom:
    def __init__(self, rooms: Any) -> None:
        self.rooms = rooms  # the room connection (ui.rooms.rooms.Rooms)
        self.app = rooms.app
        self.joining: tuple[str, bool] | None = None  # (code, from the link's dialog)

    def from_link(self) -> bool:
        """``?room=CODE`` in the address: resume the stored seat or ask for a nickname."""
        params = js.URLSearchParams.new(js.location.search)
        if not params.has("room"):
            return False
        raw = params.get("room")
        code = rc.parse_code(str(raw) if isinstance(raw, str) else None)
        if code is None:
            js.history.replaceState(None, "", js.location.pathname)
            render.notice(t("rooms.refused.no-such-room"), "rooms-bad-code")
            return False
        stored = self.rooms.data["seats"].get(code)
        if params.has("watch"):
            self.watch(code)
        elif stored is not None:
            self.rooms.connect({"type": "resume", "code": code, "token": stored["token"]}, code,
                         stored)
        else:
            rooms_screen.nickname_dialog(code, self.rooms.data["nickname"])
            self.app.dialog_kind = "rooms"
            self.peek(code)
        return True

    def peek(self, code: str) -> None:
        """Ask who sits where (the join dialog shows it); no seat is taken, no retry."""
        self.rooms.close_socket()
        self.rooms.wanted = False
        self.rooms.pending = {"type": "peek", "code": code}
        self.rooms.open_socket()

    def watch(self, code: str) -> None:
        """Watch the room's table as a spectator (no seat, no hidden card)."""
        self.rooms.watching = True
        self.rooms.seat = self.rooms.token = None
        self.rooms.connect({"type": "watch", "code": code}, code)

    def on_peek(self, data: dict[str, Any]) -> None:
        code = rc.parse_code(data.get("code"))
        seats = data.get("seats")
        if code is None or not isinstance(seats, list) or self.app.dialog_kind != "rooms":
            return
        rows = tuple((str(item.get("seat")), item.get("nickname")
                      if isinstance(item.get("nickname"), str) else None)
                     for item in seats if isinstance(item, dict)
                     and item.get("seat") in rc.SEAT_NAMES)
        node = _node("room-nickname")
        nickname = str(node.value) if node is not None else self.rooms.data["nickname"]
        rooms_screen.nickname_dialog(code, nickname, seats=rows)
        self.rooms.close_socket()

    def do_room_watch(self, arg: str) -> None:
        code = rc.parse_code(arg)
        if code is not None:
            dialogs.close_dialog()
            self.app.dialog_kind = ""
            self.watch(code)

    def open_dialog(self, error: str = "") -> None:
        rooms_screen.friends_dialog(self.rooms.data["nickname"], error=error)
        self.app.dialog_kind = "rooms"

    def nickname_field(self, report: Callable[[str], None] | None = None) -> str | None:
        """The nickname typed, checked and kept; a bad one is reported (by ``report``, else
        above the form) and a good one clears what was reported before."""
        node = _node("room-nickname")
        nick = rc.clean_nickname(str(node.value) if node is not None else "")
        if nick is None:
            (report or self.form_error)(t("rooms.refused.bad-nickname"))
            return None
        old = _node("room-error")
        if old is not None:
            old.remove()
        self.rooms.data["nickname"] = nick
        self.rooms.save()
        return nick

    @staticmethod
    def form_error(text: str) -> None:
        node = _node("room-error")
        if node is None:
            body = js.document.querySelector("#dialog[open] .dialog-body")
            if body is None or type(body).__name__ == "JsNull":
                render.message(text, refusal=True)
                return
            node = js.document.createElement("p")
            node.id = "room-error"
            node.className = "rooms-error"
            node.setAttribute("role", "alert")
            body.prepend(node)
        node.textContent = text

    def _options(self) -> dict[str, Any]:
        def value(name: str) -> str:
            node = _node(f"room-{name}")
            return str(node.value) if node is not None else ""

        def checked(name: str, default: bool) -> bool:
            node = _node(f"room-{name}")
            return bool(node.checked) if node is not None else default

        options: dict[str, Any] = {"blind_nil": checked("blind_nil", True),
                                   "hints": checked("hints", False)}
        target = value("target")
        if target.isdigit():
            options["target"] = int(target)
        options["floor"] = DEFAULT_RULES.floor if checked("floor", True) else None  # or off
        if value("bot_level") in rooms_screen.LEVELS:
            options["bot_level"] = value("bot_level")
        try:
            seconds = float(value("takeover"))
            if 0 <= seconds <= 600:
                options["takeover_seconds"] = seconds
        except ValueError:
            pass
        return options

    def do_room_create(self, arg: str) -> None:
        nick = self.nickname_field()
        if nick is not None:
            self.rooms.connect({"type": "create", "nickname": nick, "options": self._options()})

    def do_room_join(self, arg: str) -> None:
        node = _node("room-code")
        code = rc.parse_code(str(node.value) if node is not None else "")
        if code is None:
            self.form_error(t("rooms.refused.no-such-room"))
            return
        nick = self.nickname_field()
        if nick is None:
            return
        message: dict[str, Any] = {"type": "join", "code": code, "nickname": nick}
        seat = _node("room-seat")
        if seat is not None and str(seat.value) in rc.SEAT_NAMES:
            message["seat"] = str(seat.value)  # a free seat chosen (the server checks it)
        self.joining = (code, _node("room-target") is None)
        self.rooms.connect(message, code)

    def do_room_move(self, arg: str) -> None:
        """The host's seat picker: the player of one seat to another (a swap when it is
        taken). The server decides; the waiting room is drawn again from its answer."""
        move = rc.parse_move(arg)
        if move is None or self.rooms.room is None or self.rooms.room.status != "waiting":
            self.draw_lobby()
            return
        self.rooms.send({"type": "move", "from": move[0], "to": move[1]})

    def draw_lobby(self, error: str = "") -> None:
        rooms = self.rooms
        if rooms.room is not None:
            rooms_screen.lobby_dialog(rc.lobby_model(rooms.room, rooms.seat, rooms.link()), error)
            self.app.dialog_kind = "lobby"

    def do_quick(self, arg: str) -> None:
        nick = self.nickname_field() if _node("room-nickname") \
            else (self.rooms.data["nickname"] or None)
        if nick is None:
            self.open_dialog()
            return
        self.rooms.connect({"type": "quick", "nickname": nick})

    def do_room_start(self, arg: str) -> None:
        self.rooms.send({"type": "start"})

    def do_room_copy(self, arg: str) -> None:
        node = _node("room-link")
        if node is not None:
            node.select()
            with contextlib.suppress(Exception):
                js.navigator.clipboard.writeText(node.value)
