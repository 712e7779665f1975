"""The rooms controller (browser only): one WebSocket to the rooms server, the room's state,
the player's actions sent as ``spades-room/1`` messages (docs/protocol.md).

The server is the authority: this module never applies an action. It draws the table from
the view the server sends (``ui/rooms/rooms_client.py`` turns it into a ``View``; the renderers are
the solo table's), sends ``bid`` / ``play`` / ``look`` on the player's clicks, and shows a
refusal with the engine's refusal text. The seat token is kept in local storage per room
code: a reload, or a lost socket (reconnection with back-off), sends ``resume``.
The page's controller (``ui/table/app.py``) routes the table's actions here while a room is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from spades_core import BLIND_NIL, Phase
from spades_core.rules import DEFAULT_RULES, game_winner, winning_play
from spades_core.views import View

from ..shared import i18n, models, sound
from ..shared.i18n import t
from ..shared.storage import parse
from ..table import dialogs, render
from . import rooms_client as rc
from . import rooms_screen

STORE_KEY = "spades.rooms"


def _node(element_id: str) -> Any:
    """The element of id ``element_id``, or None (JavaScript's null comes back as JsNull)."""
    node = js.document.getElementById(element_id)
    return None if node is None or type(node).__name__ in ("JsNull", "JsUndefined") else node


STORE_LIMIT = 16_000
NUDGE_AFTER_MS = 20_000
CHAT_SHOWN_S = 10  # a chat line floats over the table this long after the last one
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
        self.hinted: str | None = None  # the card the coach's hint points at
        self.version = -1
        self.sent_version = -1
        self.active = False  # the table shows the room
        self.wanted = False  # a socket should be open (reconnect when it closes)
        self.attempt = 0
        self.reconnecting = False
        self.pending: dict[str, Any] | None = None  # the message to send once connected
        self.lines: list[str] = []
        self.chat_said = 0  # lines received so far: the chat fades CHAT_SHOWN_S after the last
        self.chat_stale = False
        self.sheets_seen = 0
        self.blind_armed = False
        self.moved_at = 0.0  # when the seat to act got its turn (performance.now)
        self.turn_key: tuple[int, str | None] = (-1, None)
        self.joining: tuple[str, bool] | None = None  # (code, from the link's dialog)
        self.watching = False  # a spectator: the table, no seat, no hand
        self.state_at = 0.0  # when the last state came (performance.now): the turn timer
        self._tick: Any = None  # the turn timer's one-second redraw (setInterval)
        self.phrases = self._phrases()
        self._proxies: list[Any] = []
        self._timer: Any = None
        self._network: list[Any] = []  # the window's offline/online listeners, kept
        for kind, handler in (("offline", self.on_offline), ("online", self.on_online)):
            proxy = create_proxy(lambda event, h=handler: h())
            self._network.append(proxy)
            js.window.addEventListener(kind, proxy)

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

    def _save(self) -> None:
        # A refused write: play goes on; only a reload would lose the seat.
        with contextlib.suppress(Exception):
            js.localStorage.setItem(STORE_KEY, json.dumps(self.data))

    @staticmethod
    def _phrases() -> tuple[str, ...]:
        i18n.load("chat")
        return tuple(i18n.catalogue(i18n.DEFAULT_LANGUAGE, "chat"))

    # --- entry points ----------------------------------------------------------------

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
        stored = self.data["seats"].get(code)
        if params.has("watch"):
            self.watch(code)
        elif stored is not None:
            self.connect({"type": "resume", "code": code, "token": stored["token"]}, code,
                         stored)
        else:
            rooms_screen.nickname_dialog(code, self.data["nickname"])
            self.app.dialog_kind = "rooms"
            self.peek(code)
        return True

    def peek(self, code: str) -> None:
        """Ask who sits where (the join dialog shows it); no seat is taken, no retry."""
        self.close_socket()
        self.wanted = False
        self.pending = {"type": "peek", "code": code}
        self.open_socket()

    def watch(self, code: str) -> None:
        """Watch the room's table as a spectator (no seat, no hidden card)."""
        self.watching = True
        self.seat = self.token = None
        self.connect({"type": "watch", "code": code}, code)

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
        nickname = str(node.value) if node is not None else self.data["nickname"]
        rooms_screen.nickname_dialog(code, nickname, seats=rows)
        self.close_socket()

    def open_dialog(self, error: str = "") -> None:
        rooms_screen.friends_dialog(self.data["nickname"], error=error)
        self.app.dialog_kind = "rooms"

    def _nickname_field(self, report: Callable[[str], None] | None = None) -> str | None:
        """The nickname typed, checked and kept; a bad one is reported (by ``report``, else
        above the form) and a good one clears what was reported before."""
        node = _node("room-nickname")
        nick = rc.clean_nickname(str(node.value) if node is not None else "")
        if nick is None:
            (report or self._form_error)(t("rooms.refused.bad-nickname"))
            return None
        old = _node("room-error")
        if old is not None:
            old.remove()
        self.data["nickname"] = nick
        self._save()
        return nick

    @staticmethod
    def _form_error(text: str) -> None:
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
        nick = self._nickname_field()
        if nick is not None:
            self.connect({"type": "create", "nickname": nick, "options": self._options()})

    def do_room_join(self, arg: str) -> None:
        node = _node("room-code")
        code = rc.parse_code(str(node.value) if node is not None else "")
        if code is None:
            self._form_error(t("rooms.refused.no-such-room"))
            return
        nick = self._nickname_field()
        if nick is None:
            return
        message: dict[str, Any] = {"type": "join", "code": code, "nickname": nick}
        seat = _node("room-seat")
        if seat is not None and str(seat.value) in rc.SEAT_NAMES:
            message["seat"] = str(seat.value)  # a free seat chosen (the server checks it)
        self.joining = (code, _node("room-target") is None)
        self.connect(message, code)

    def do_room_move(self, arg: str) -> None:
        """The host's seat picker: the player of one seat to another (a swap when it is
        taken). The server decides; the waiting room is drawn again from its answer."""
        move = rc.parse_move(arg)
        if move is None or self.room is None or self.room.status != "waiting":
            self.draw_lobby()
            return
        self.send({"type": "move", "from": move[0], "to": move[1]})

    def draw_lobby(self, error: str = "") -> None:
        if self.room is not None:
            rooms_screen.lobby_dialog(rc.lobby_model(self.room, self.seat, self.link()), error)
            self.app.dialog_kind = "lobby"

    def do_quick(self, arg: str) -> None:
        nick = self._nickname_field() if _node("room-nickname") \
            else (self.data["nickname"] or None)
        if nick is None:
            self.open_dialog()
            return
        self.connect({"type": "quick", "nickname": nick})

    def do_room_start(self, arg: str) -> None:
        self.send({"type": "start"})

    def do_room_copy(self, arg: str) -> None:
        node = _node("room-link")
        if node is not None:
            node.select()
            with contextlib.suppress(Exception):
                js.navigator.clipboard.writeText(node.value)

    def do_room_leave(self, arg: str) -> None:
        self.leave()
        dialogs.close_dialog()
        self.app.show_screen("menu")

    def do_room_watch(self, arg: str) -> None:
        code = rc.parse_code(arg)
        if code is not None:
            dialogs.close_dialog()
            self.app.dialog_kind = ""
            self.watch(code)

    def do_room_rematch(self, arg: str) -> None:
        self.send({"type": "rematch"})

    def do_room_quit(self, arg: str) -> None:
        """Give up the seat (a bot takes it at once), or stop watching."""
        self.send({"type": "leave"})

    def do_room_free(self, arg: str) -> None:
        if arg in rc.SEAT_NAMES:
            self.send({"type": "free", "seat": arg})
            dialogs.close_dialog()
            self.app.dialog_kind = ""

    def do_room_open(self, arg: str) -> None:
        self.send({"type": "open", "open": arg == "1"})
        dialogs.close_dialog()
        self.app.dialog_kind = ""

    def do_room_seats(self, arg: str) -> None:
        room = self.room
        if room is None:
            return
        rooms_screen.seats_dialog(rc.host_rows(room, self.seat),
                                  rc.reader_is_host(room, self.seat), room.open,
                                  self.watching, room.spectators)
        self.app.dialog_kind = "room-seats"

    def on_left(self, data: dict[str, Any]) -> None:
        """This page's seat was given up (or freed by the host), or it stopped watching:
        the seat's token is forgotten and the page goes back to the menu."""
        if self.code is not None:
            self.data["seats"].pop(self.code, None)
            self._save()
        by_host = data.get("by") == "host"
        self.token = self.seat = None
        self.watching = False
        self.leave()
        dialogs.close_dialog()
        self.app.dialog_kind = ""
        self.app.show_screen("menu")
        if by_host:
            render.notice(t("rooms.freed"), "rooms-freed")

    def do_room_chat(self, arg: str) -> None:
        rooms_screen.chat_dialog(self.phrases, tuple(self.lines))
        self.app.dialog_kind = "rooms"

    def do_chat(self, arg: str) -> None:
        if arg in self.phrases:
            self.send({"type": "chat", "phrase": arg})
        dialogs.close_dialog()

    def do_room_mute(self, arg: str) -> None:
        self.data["muted"] = not self.data["muted"]
        self._save()
        self.draw_bar()

    def do_room_back(self, arg: str) -> None:
        """Back at the table after a bot took the seat over: any action of the seat's
        brings it back; ``look`` changes nothing else."""
        self.send({"type": "look"})

    def do_nudge(self, arg: str) -> None:
        self.send({"type": "nudge"})

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
            self._form_error(t(key))
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
        if self._timer is not None:
            js.clearTimeout(self._timer)
            self._timer = None
        self.arm_tick(False)

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
                self.on_left(data)
            elif kind == "room":
                self.on_peek(data)
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
            self._save()
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
                self._save()
        joined = rc.arrivals(self.room, room, self.seat)
        rematch_before = self.room.rematch if self.room is not None else None
        self.state_at = float(js.performance.now())
        nudged_now = (room.nudge_seat is not None and room.nudge_by == self.seat
                      and (self.room is None or self.room.nudge_seat is None))
        self.room = room
        self.reconnecting = False
        for line in joined:
            self.say(line)
        if nudged_now and room.nudge_seat is not None:  # the nudge went: say so to its sender
            self.say(t("rooms.nudge-sent",
                       name=rc.seat_words(room, room.nudge_seat, self.seat)))
        if isinstance(version, int):
            self.version = version
        if view is not None and self.view is not None and view.hand_index != self.view.hand_index:
            self.blind_armed = False
        turn_key = None if view is None else (
            view.hand_index, view.to_act.name if view.to_act is not None else None)
        if turn_key is not None and turn_key != self.turn_key:
            self.turn_key = turn_key
            self.moved_at = float(js.performance.now())
            self.arm_nudge_timer()
        previous = self.view
        self.view = view
        if (previous is not None and view is not None and previous.phase is Phase.OVER
                and view.phase is not Phase.OVER):  # a rematch: a new game at the same table
            self.sheets_seen = 0
            if self.app.dialog_kind == "room-end":
                dialogs.close_dialog()
                self.app.dialog_kind = ""
        if view is None or previous is None or (view.hand_index, len(view.plays), view.bids) \
                != (previous.hand_index, len(previous.plays), previous.bids):
            self.hinted = None  # the position moved on: the hinted card is no longer advice
        if room.status == "waiting" or view is None:
            self.active = False
            self.joining = None
            if self.app.dialog_kind in ("", "rooms", "lobby"):
                self.draw_lobby()
            return
        if self.app.dialog_kind in ("rooms", "lobby"):
            dialogs.close_dialog()
            self.app.dialog_kind = ""
        if not self.active:
            self.active = True
            self.sheets_seen = len(view.past_hands)
            self.app.show_screen("table")
        if previous is not None and view.phase is Phase.PLAYING and len(view.trick) == 0 \
                and view.plays and len(previous.trick) == 3 and self.app.options["sound"]:
            sound.play("trick")
        self.render()
        if view.my_turn:
            render.focus_hand_or_panel()
        if len(view.past_hands) > self.sheets_seen and self.app.dialog_kind == "":
            dialogs.score_sheet(self.sheet(view, pending=True))
            self.app.dialog_kind = "room-sheet"
        elif view.phase is Phase.OVER and (self.app.dialog_kind != "room-end"
                                           or room.rematch != rematch_before):
            self.end()

    def on_chat(self, data: dict[str, Any]) -> None:
        phrase, seat = data.get("phrase"), data.get("seat")
        if phrase not in self.phrases or seat not in rc.SEAT_NAMES or self.data["muted"]:
            return
        self.say(rc.chat_line(self.room, seat, phrase, self.seat))

    def say(self, line: str) -> None:
        """A line for the table's chat log (a phrase, or who joined), faded in a while."""
        self.lines = [*self.lines[-9:], line]
        self.chat_said += 1
        self.chat_stale = False
        render.announce(line)
        self.draw_bar()
        said = self.chat_said

        async def fade() -> None:
            await asyncio.sleep(CHAT_SHOWN_S)
            if self.chat_said == said:  # no line since: the chat fades from the table
                self.chat_stale = True
                self.draw_bar()

        self.app.schedule(fade())

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
            self._save()
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
        if reason in rc.STOPPING_REFUSALS:
            self.wanted = False
            self.close_socket()
            joining, self.joining = self.joining, None
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
            self.draw_lobby(text)  # the pickers back as the room is, and why
            return
        self.sent_version = -1  # refused: the player may act again
        self.render()
        render.message(text, refusal=True)  # (plain text: cleared if the language changes)
        render.announce(text)
        if self.app.options["sound"]:
            sound.play("refuse")

    # --- the table -------------------------------------------------------------------

    def away(self) -> bool:
        """A bot plays the reader's seat (taken over after a nudge)."""
        return rc.is_away(self.room, self.seat)

    def refuse_away(self) -> bool:
        """While a bot plays the seat, a card or a bid is not sent: "I'm back" first."""
        if not self.away():
            return False
        render.announce(render.message(lambda: t("rooms.away.turn"), refusal=True))
        return True

    def ui_state(self, view: View) -> models.UiState:
        return models.UiState(
            waiting=view.my_turn and self.sent_version != self.version and not self.away(),
            face_down=view.hand is None, blind_armed=self.blind_armed,
            sheets_seen=self.sheets_seen, speed="instant", hinted=self.hinted,
            hints_on=bool(self.room is not None and self.room.hints
                          and bool(self.app.options["hints"])),
        )

    def render(self) -> None:
        view, room = self.view, self.room
        if view is None or room is None or not self.active:
            return
        render.table(rc.room_table_model(view, room, self.ui_state(view), self.watching))
        rooms_screen.team_names(t("rooms.team.NS"), t("rooms.team.EW"))
        self.draw_bar()

    def nudge_open(self) -> bool:
        view = self.view
        return bool(view is not None and self.room is not None and view.to_act is not None
                    and not self.reconnecting
                    and view.phase is not Phase.OVER and not view.my_turn
                    and self.room.nudge_seat is None
                    and not next(s for s in self.room.seats if s.seat == view.to_act.name).bot
                    and float(js.performance.now()) - self.moved_at >= NUDGE_AFTER_MS)

    def arm_nudge_timer(self) -> None:
        if self._timer is not None:
            js.clearTimeout(self._timer)
        proxy = create_proxy(lambda: self.draw_bar())
        self._proxies = self._proxies[-64:] + [proxy]
        self._timer = js.setTimeout(proxy, NUDGE_AFTER_MS + 100)

    def draw_bar(self) -> None:
        if not self.active or self.code is None:
            return
        room = self.room
        nudged = bool(room is not None and self.seat is not None
                      and room.nudge_seat == self.seat)  # never a spectator's
        away = self.away()
        timer = ""
        if room is not None:
            elapsed = (float(js.performance.now()) - self.state_at) / 1000
            timer = rc.timer_text(room, room.timer, elapsed, self.seat)
        self.arm_tick(bool(timer))
        rooms_screen.room_bar(self.code, self.data["muted"], self.nudge_open(), nudged,
                              self.reconnecting, tuple(self.lines), away, self.chat_stale,
                              timer, self.watching)

    def arm_tick(self, on: bool) -> None:
        """Redraw the room bar every second while a turn timer is shown."""
        if on and self._tick is None:
            proxy = create_proxy(lambda: self.draw_bar())
            self._proxies = self._proxies[-64:] + [proxy]
            self._tick = js.setInterval(proxy, 1000)
        elif not on and self._tick is not None:
            js.clearInterval(self._tick)
            self._tick = None

    def end(self) -> None:
        view, room = self.view, self.room
        if view is None or self.code is None or room is None:
            return
        if self.watching or self.token is None:
            rooms_screen.room_end(view.scores, None, "")
        else:
            mine = 0 if self.seat in ("N", "S") else 1
            won = game_winner(view.scores, view.rules) == mine
            url = f"/api/rooms/{self.code}/record?token={self.token}"
            rooms_screen.room_end(view.scores, won, url, rc.rematch_text(room, self.seat),
                                  asked=bool(room.rematch and self.seat in room.rematch))
        self.app.dialog_kind = "room-end"

    def dialog_closed(self, kind: str) -> None:
        if kind == "room-sheet" and self.view is not None:
            self.sheets_seen = len(self.view.past_hands)
            self.render()
            if self.view.phase is Phase.OVER:
                self.end()

    # --- the daily board (a solo game of the daily deal, sent to the server) -------------

    def offer_daily(self, state: Any, level: str) -> None:
        """In the end dialog of the daily deal: a nickname and "Submit to the daily board"."""
        self.daily_game = (state, level)
        rooms_screen.daily_offer(self.data["nickname"])

    def do_daily_submit(self, arg: str) -> None:
        game = getattr(self, "daily_game", None)
        if game is None:
            return
        nick = self._nickname_field(rooms_screen.daily_status)  # said beside the field
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

    # --- the table's actions -----------------------------------------------------------

    def do_play(self, arg: str) -> None:
        view, room = self.view, self.room
        if view is None or room is None or self.refuse_away():
            return
        if not view.my_turn:
            text = rc.wait_text(room, view)
            render.message(text, refusal=bool(text))
            return
        if self.sent_version == self.version:
            return  # one action per version: the answer is on its way
        self.sent_version = self.version
        render.message("")
        self.send({"type": "play", "card": arg})
        self.render()

    def do_bid(self, arg: str) -> None:
        view = self.view
        if view is None or self.refuse_away() or not view.my_turn \
                or view.phase is not Phase.BIDDING:
            return
        if self.sent_version == self.version:
            return
        self.sent_version = self.version
        render.message("")
        self.send({"type": "bid", "bid": arg})
        self.render()

    def do_look(self, arg: str) -> None:
        self.blind_armed = False
        self.send({"type": "look"})

    def do_blind(self, arg: str) -> None:
        if self.refuse_away():
            return
        self.blind_armed = True
        self.render()

    def do_blind_yes(self, arg: str) -> None:
        self.blind_armed = False
        self.do_bid(str(BLIND_NIL))

    def do_blind_no(self, arg: str) -> None:
        self.blind_armed = False
        self.render()

    def do_hint(self, arg: str) -> None:
        """The coach's advice for the reader's view, when the room allows hints: the same
        ``hint(view)`` as in solo play, from the view the server sent (no hidden card)."""
        view, room = self.view, self.room
        if view is None or room is None or not room.hints or not view.my_turn \
                or self.sent_version == self.version:
            render.message(lambda: t("hint.none"), kind="hint")
            return
        from spades_core.hints import hint

        advice = hint(view)
        if view is not self.view:
            return
        self.hinted = "look" if advice.action is None else str(advice.action)
        self.render()
        mine = view.seat.name

        def say() -> str:  # said again in the new language if it changes meanwhile
            return i18n.hint_message(advice, lambda seat: rc.seat_words(room, seat, mine))

        render.announce(render.message(say, kind="hint"))

    def do_last(self, arg: str) -> None:
        """As in solo play: this hand's last trick, or the previous hand's until the first
        trick of this one is complete; the seats named as at the table."""
        view, room = self.view, self.room
        if view is None or room is None:
            return
        trick, previous = models.shown_last_trick(view)
        winner = winning_play(trick)[0] if trick else None
        names = {seat: rc.seat_words(room, seat, view.seat.name) for seat in rc.SEAT_NAMES}
        dialogs.last_trick_dialog(models.last_trick_model(trick, winner, previous, names))
        self.app.dialog_kind = "last"

    def sheet(self, view: View, pending: bool) -> models.SheetModel:
        """The score sheet with the seats named as at the table and the teams by place."""
        room = self.room
        names = ({seat: rc.seat_words(room, seat, view.seat.name) for seat in rc.SEAT_NAMES}
                 if room is not None else None)
        return models.sheet_model(view, pending, names=names,
                                  teams=(t("rooms.team.NS"), t("rooms.team.EW")))

    def do_sheet(self, arg: str) -> None:
        if self.view is not None:
            dialogs.score_sheet(self.sheet(self.view, pending=False))
            self.app.dialog_kind = "sheet"

    def do_sheet_next(self, arg: str) -> None:
        dialogs.close_dialog()
