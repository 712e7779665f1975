"""What runs in a room by itself (:class:`RoomFlow`): its bots' driver, the quick-match
table's start timer, the take-over timer after a nudge, and, with a shared backend, the
watch on a room another process should be driving.

The bots play only while a person is connected to the room (:meth:`Room.asleep`): a room
nobody is in sleeps, and a person coming back kicks its bots again. Every change goes
through ``RoomManager.changing``, as a player's does; a bot's decision is computed in a
worker thread from an immutable state and applied only if the position is still the same.
"""

from __future__ import annotations

import asyncio

from spades_core.bots import bot_action
from spades_core.game import Phase
from spades_core.seats import Seat

from .roomtypes import RoomLike


class RoomFlow:
    def __init__(self, room: RoomLike) -> None:
        self.room = room
        self._takeover: asyncio.TimerHandle | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._driver: asyncio.Task[None] | None = None
        self._watch: asyncio.TimerHandle | None = None

    # --- the bots ---------------------------------------------------------------------

    def kick(self) -> None:
        """Let the bots act while it is the turn of a seat they play."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        room = self.room
        delay = room.bot_delay()
        while True:
            state = room.state
            if state is None or state.phase is Phase.OVER or state.to_act is None:
                return
            seat = state.to_act
            if not room.bot_plays(seat) or room.asleep():
                return
            if delay > 0:
                await asyncio.sleep(delay)
            if room.state is not state or not room.bot_plays(seat) or room.asleep():
                continue
            version = room.version()
            action = await asyncio.to_thread(bot_action, room.bot_for(seat), state)
            async with room.manager.changing(room):
                if room.version() != version or room.state is None:
                    continue
                if room.state.to_act is not seat or not room.bot_plays(seat):
                    continue
                room.apply(seat, action)

    def watch(self) -> None:
        """After a change published by another process: if a bot is to act and the room
        has not moved ``bot_delay + bot_stall`` seconds later, drive the bots here (the
        process that should have may be gone). Two drivers are harmless: each action is
        applied only on the version it was chosen for."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        room = self.room
        state = room.state
        if state is None or state.to_act is None or not room.bot_plays(state.to_act):
            return
        config = room.manager.config
        self._watch = asyncio.get_running_loop().call_later(
            config.bot_delay + config.bot_stall, self._stalled, room.version()
        )

    def _stalled(self, version: int) -> None:
        self._watch = None
        asyncio.get_running_loop().create_task(self._drive_if_stalled(version))

    async def _drive_if_stalled(self, version: int) -> None:
        await self.room.manager.refresh(self.room)
        if self.room.version() == version:
            self.kick()

    # --- the quick-match table's start ----------------------------------------------------

    def schedule_start(self, delay: float) -> None:
        if self._start_timer is None and self.room.status == "waiting":
            loop = asyncio.get_running_loop()
            self._start_timer = loop.call_later(delay, self._timed_start)

    def cancel_start(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None

    def _timed_start(self) -> None:
        self._start_timer = None
        asyncio.get_running_loop().create_task(self._start_now())

    async def _start_now(self) -> None:
        async with self.room.manager.changing(self.room):
            self.room.start()
        self.kick()

    # --- a nudge's take-over ------------------------------------------------------------------

    def arm_takeover(self, seat: Seat, version: int, seconds: float) -> None:
        """``seconds`` after a nudge, a bot plays ``seat`` if the game is still at
        ``version``."""
        self.cancel_takeover()
        self._takeover = asyncio.get_running_loop().call_later(
            seconds, self._take_over, seat, version
        )

    def cancel_takeover(self) -> None:
        if self._takeover is not None:
            self._takeover.cancel()
            self._takeover = None

    def _take_over(self, seat: Seat, version: int) -> None:
        self._takeover = None
        asyncio.get_running_loop().create_task(self._take_over_now(seat, version))

    async def _take_over_now(self, seat: Seat, version: int) -> None:
        room = self.room
        async with room.manager.changing(room):
            if room.version() != version or room.status != "playing" or room.nudge is None:
                return
            room.seats[seat].away = True
            room.nudge = room.nudged_at = None
            room.save()
        self.kick()

    # --- all of it ------------------------------------------------------------------------

    def driving(self) -> bool:
        """Whether its bots are playing (or a timer of it is set)."""
        running = self._driver is not None and not self._driver.done()
        return running or any(handle is not None for handle in (
            self._takeover, self._start_timer, self._watch))

    def stop(self) -> None:
        """The room is unloaded (or deleted): nothing of it runs any more."""
        for handle in (self._takeover, self._start_timer, self._watch):
            if handle is not None:
                handle.cancel()
        self._takeover = self._start_timer = self._watch = None
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
