"""The rooms' sweep: on a schedule, rooms past their time are deleted from the backend,
rooms nobody is connected to are let go from memory, and the per-address windows that are
over are forgotten.

- A room not over, unchanged for ``Config.idle_expiry`` (2 days) and with nobody connected
  to it in this process, is deleted (its code then names no room).
- A finished game's room (and its record, ``GET /api/rooms/CODE/record``) is kept
  ``Config.finished_kept`` (7 days) after its last change, then deleted.
- With ``--redis``, Redis deletes them itself at the same ages (each save sets the room's
  time to live; each connection renews it): the sweep then only lets rooms go from memory.

``sweep(now)`` takes the time (tests drive it); :meth:`Sweeper.run` calls it every
``Config.sweep_interval`` seconds (5 minutes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Generic, TypeVar

from .roomtypes import Manager, RoomLike

R = TypeVar("R", bound=RoomLike)

log = logging.getLogger("spades_server.sweep")


class Sweeper(Generic[R]):
    def __init__(self, manager: Manager[R]) -> None:
        self.manager = manager
        self.deleted = 0  # rooms deleted since the start (every sweep's sum)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def run(self) -> None:
        interval = self.manager.config.sweep_interval
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep(time.time())
            except Exception:  # one failed sweep (a backend's hiccup) never ends the next
                log.warning("the rooms' sweep failed", exc_info=True)

    async def sweep(self, now: float) -> list[str]:
        """One sweep at time ``now`` (``time.time()``): the codes of the rooms deleted."""
        manager, config = self.manager, self.manager.config
        rooms = manager.rooms
        connected = frozenset(code for code, room in rooms.items() if room.connections)
        deleted = await manager.backend.expire(
            now - config.idle_expiry, now - config.finished_kept, connected)
        for code in deleted:
            room = rooms.pop(code, None)
            if room is not None:
                room.stop_timers()
        for code, room in list(rooms.items()):  # asleep and unchanged: let go from memory
            if not room.connections and not room.driving():
                room.stop_timers()
                del rooms[code]
        manager.guard.forget()
        manager.ranked.sweep()  # ranked games left on when their day was published
        self.deleted += len(deleted)
        return deleted
