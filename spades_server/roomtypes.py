"""What the room's parts use of a room and of the rooms' manager, as protocols.

:mod:`.rooms` holds :class:`~.rooms.Room` and :class:`~.rooms.RoomManager`; its parts
(:mod:`.entry`, :mod:`.flow`, :mod:`.broadcast`, :mod:`.sweep`, :mod:`.ranked`) are typed
against these protocols instead, so that no part imports :mod:`.rooms` back (no import
circle, not even a type-only one). Each protocol lists only what the parts use; ``Room``
and ``RoomManager`` match them by shape (mypy checks it where the manager and each room
make their parts).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, Self, TypeVar

from spades_core.bids import Bid
from spades_core.bots import Bot
from spades_core.cards import Card
from spades_core.game import GameState
from spades_core.rules import Rules
from spades_core.seats import Seat

from .backend import Backend
from .config import Config
from .connection import Connection
from .guard import AddressGuard

R = TypeVar("R")  # the manager's room (``rooms.Room``)
R_in = TypeVar("R_in", contravariant=True)  # a room passed in


class Manager(Protocol[R]):
    """What the entrance, the sweep and a room's flow use of the rooms' manager."""

    @property
    def config(self) -> Config: ...

    @property
    def backend(self) -> Backend: ...

    @property
    def guard(self) -> AddressGuard: ...

    @property
    def rooms(self) -> dict[str, R]: ...  # the rooms in memory, by code

    async def get(self, code: str) -> R | None: ...

    async def create(self, options: dict[str, Any], public: bool) -> R: ...

    def changing(self, room: R) -> AbstractAsyncContextManager[R]: ...

    def listening(self, room: R) -> AbstractAsyncContextManager[None]: ...

    async def refresh(self, room: R) -> None: ...

    @property
    def entrance(self) -> EntranceLike[R]: ...

    @property
    def ranked(self) -> RankedLike: ...


class EntranceLike(Protocol[R_in]):
    """What today's ranked desk uses of the entrance (``entry.Entrance``)."""

    async def arrive(self, room: R_in, seat: Seat,
                     event: dict[str, Any] | None) -> set[int] | None: ...

    def seat(self, conn: Connection, room: R_in, seat: Seat, token: str | None, digest: str,
             connected: set[int] | None) -> None: ...


class RankedLike(Protocol):
    """What the sweep uses of today's ranked desk (``ranked.RankedDesk``)."""

    def sweep(self) -> int: ...


class SeatLike(Protocol):
    """A room's seat (``rooms.SeatInfo``)."""

    nickname: str | None  # None: an empty seat, a bot plays it
    away: bool  # taken over by a bot after a nudge

    @property
    def human(self) -> bool: ...


class RoomLike(Protocol):
    """What the entrance, the sweep, the room's flow and its broadcast use of a room."""

    code: str
    public: bool
    open: bool
    status: str
    touched: bool
    host: str | None
    remote_connected: set[int] | None
    connections: set[Connection]
    state: GameState | None
    nudge: tuple[Seat, Seat] | None
    nudged_at: float | None
    options: dict[str, Any]
    rematch: set[Seat]
    last_move: float
    rules_json: dict[str, Any]

    @property
    def rules(self) -> Rules: ...

    @property
    def ranked(self) -> bool: ...

    @property
    def manager(self) -> Manager[Self]: ...

    @property
    def seats(self) -> Sequence[SeatLike]: ...

    def post(self, conn: Connection, text: str) -> None: ...
    def info(self) -> dict[str, Any]: ...
    def version(self) -> int: ...
    def hand_seen(self, seat: Seat) -> bool: ...
    def connected_seats(self) -> set[int]: ...
    def save(self) -> None: ...
    def free_seat(self, wanted: Seat | None) -> Seat | None: ...
    def take_seat(self, seat: Seat, nickname: str) -> str: ...
    def seat_of_token(self, token: str) -> Seat | None: ...
    def host_seat(self) -> Seat | None: ...
    def back(self, seat: Seat) -> bool: ...
    def start(self) -> None: ...
    def apply(self, seat: Seat, action: Card | Bid) -> None: ...
    def bot_plays(self, seat: Seat) -> bool: ...
    def bot_for(self, seat: Seat) -> Bot: ...
    def asleep(self) -> bool: ...
    def kick(self) -> None: ...
    def schedule_start(self, delay: float) -> None: ...
    def driving(self) -> bool: ...
    def stop_timers(self) -> None: ...
    def bot_delay(self) -> float: ...
