"""What a room sends (:class:`Broadcast`): the room as its players and spectators see it
(seats, host, rematch, the turn's clock) and each connection's ``state`` frame.

A seat's frame carries ``view_for(state, seat)`` (its cards hidden while it may still bid
Blind Nil unseen); a spectator's carries the table with no card that was not played. Typed
against :class:`~.roomtypes.RoomLike`, as the room's other parts are: it never imports
:mod:`.rooms`.
"""

from __future__ import annotations

import json
import time
from typing import Any

from spades_core.seats import SEATS, Seat
from spades_core.views import view_for

from .protocol import view_to_json, watcher_json
from .roomtypes import RoomLike


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Broadcast:
    def __init__(self, room: RoomLike) -> None:
        self.room = room

    def info(self) -> dict[str, Any]:
        room = self.room
        connected = room.connected_seats()
        return {
            "code": room.code,
            "public": room.public,
            "status": room.status,
            "options": room.options,
            "seats": [
                {
                    "seat": seat.name,
                    "nickname": info.nickname,
                    "bot": not info.human or info.away,
                    "away": info.away,
                    "connected": int(seat) in connected,
                }
                for seat, info in zip(SEATS, room.seats, strict=True)
            ],
            "nudge": (
                {"by": room.nudge[0].name, "seat": room.nudge[1].name} if room.nudge else None
            ),
            "host": host.name if (host := room.host_seat()) is not None else None,
            "open": room.open,
            "rematch": ([seat.name for seat in SEATS if seat in room.rematch]
                        if room.status == "over" else None),
            "spectators": sum(1 for conn in room.connections if conn.seat is None),
            "timer": self.timer(),
            "clock": round(time.time(), 3),
        }

    def timer(self) -> dict[str, Any] | None:
        """The turn's clock while a person is to act (server epoch seconds; ``clock`` in the
        room says the server's time when it was sent): when the turn began, when the others
        may nudge, and once nudged when a bot takes the seat over."""
        room = self.room
        state = room.state
        if room.status != "playing" or state is None or state.to_act is None or room.ranked:
            return None  # (a ranked game: nobody to nudge its player)
        seat = state.to_act
        if room.bot_plays(seat):
            return None
        takeover = None
        if room.nudge is not None and room.nudged_at is not None:
            takeover = round(room.nudged_at + float(room.options["takeover_seconds"]), 3)
        return {
            "seat": seat.name,
            "since": round(room.last_move, 3),
            "nudge_at": round(room.last_move + room.manager.config.nudge_after, 3),
            "takeover_at": takeover,
        }

    def state_frame(self, seat: Seat | None, room_json: str | None = None) -> str:
        """The ``state`` frame for ``seat`` (``room_json``: ``info()`` as JSON, when the
        caller sends it to several seats)."""
        room = self.room
        view: dict[str, Any] | None = None
        if room.state is not None and seat is not None:
            seen = room.hand_seen(seat)
            view = view_to_json(view_for(room.state, seat, hand_seen=seen), room.rules_json)
        elif room.state is not None:  # a spectator: the table, no card not played
            view = watcher_json(view_for(room.state, SEATS[2], hand_seen=False),
                                room.rules_json)
        if room_json is None:
            room_json = _json(self.info())
        version = room.version()
        mine = f'"{seat.name}"' if seat is not None else "null"
        return (f'{{"type":"state","version":{version},"seat":{mine},"room":{room_json},'
                f'"view":{_json(view)}}}')

    def state(self) -> None:
        """Each connection of the room (on this process) gets its ``state`` frame: each
        seat's frame (and the spectators' one) built once, however many sockets show it."""
        room = self.room
        room_json = _json(self.info())
        frames: dict[Seat | None, str] = {}
        for conn in list(room.connections):
            if not conn.closed:
                text = frames.get(conn.seat)
                if text is None:
                    text = frames[conn.seat] = self.state_frame(conn.seat, room_json)
                room.post(conn, text)

    def to_all(self, text: str) -> None:
        """Every connection of the room (on this process) gets ``text``."""
        for conn in list(self.room.connections):
            self.room.post(conn, text)
