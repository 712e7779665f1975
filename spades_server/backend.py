"""Where rooms live between messages, and how a change reaches every connection.

- :class:`LocalBackend` (the default): one process; rooms in the SQLite :class:`~.store.Store`,
  a change is broadcast at once to this process's connections.
- :class:`RedisBackend` (``--redis URL``): several processes share the rooms. A room is a Redis
  hash (its settings, seats and game record, and a revision number); a change is made under
  the room's Redis lock on the latest revision, saved, then published on the room's own
  channel, which the processes with a connection to the room listen to (and no other);
  each of them then sends the new state to its own connections.
  Which seats are connected is a per-room hash of connection counts (every process adds its
  own).

Both speak the same small interface (:class:`Backend`), so the rooms' logic
(:mod:`.rooms`) is one code path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from .store import Store, StoredRoom

EventHandler = Callable[[str, dict[str, Any]], Awaitable[None]]
PREFIX = "spades:"
CHANNEL = PREFIX + "events"  # every process's (no event today: it keeps the listener on)


def channel(code: str) -> str:
    """A room's events' channel: only the processes with a connection to it listen."""
    return f"{CHANNEL}:{code}"

LOCK_SECONDS = 10.0  # a lock left by a process that died frees itself after this
# Swap two fields of a hash (either may be missing), atomically.
_SWAP = """
local a = redis.call('HGET', KEYS[1], ARGV[1])
local b = redis.call('HGET', KEYS[1], ARGV[2])
if b then redis.call('HSET', KEYS[1], ARGV[1], b) else redis.call('HDEL', KEYS[1], ARGV[1]) end
if a then redis.call('HSET', KEYS[1], ARGV[2], a) else redis.call('HDEL', KEYS[1], ARGV[2]) end
return 1
"""
# A room's change begins: take its lock (KEYS[1]; ARGV[1] the token, ARGV[2] its time in ms,
# the value redis-py's Lock uses too) and return {1, the connection counts (KEYS[3]), and the
# room's hash (KEYS[2]) when its revision is not ARGV[3] (the one the process holds)}; {0}
# while another holds the lock.
_BEGIN = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {0} end
local conn = redis.call('HGETALL', KEYS[3])
if redis.call('HGET', KEYS[2], 'rev') == ARGV[3] then return {1, conn} end
return {1, conn, redis.call('HGETALL', KEYS[2])}
"""
# ... and ends: the room's fields saved with its time to live (ARGV[4] fields, when
# ARGV[4] > 0), the event published on ARGV[3] (when ARGV[2] is not empty), the lock freed
# if it is still this change's (ARGV[1]).
_COMMIT = """
local n = tonumber(ARGV[4])
if n > 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 6, 5 + 2 * n))
  redis.call('EXPIRE', KEYS[1], ARGV[5])
end
if ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[3], ARGV[2]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
"""
# A new room (KEYS[1]): its fields (ARGV[2..]) and time to live (ARGV[1]) in one step, unless
# the code is taken (0).
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""
# A connection takes a seat (KEYS[1] the room's counts, KEYS[2] its hash): its count added
# (ARGV[1] the seat), both keys' time to live renewed (ARGV[2]; the room's only lengthened),
# ARGV[4] published on ARGV[3] when not empty (a resume's ``replace``); the counts returned.
_ARRIVE = """
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2], 'GT')
if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[3], ARGV[4]) end
return redis.call('HGETALL', KEYS[1])
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class BackendBusy(Exception):
    """A change could not begin in time (the room's lock held, or no connection to the
    store free, for ``LOCK_SECONDS``: the process is overloaded), or a room could not be
    read, made or joined for the same reason: nothing was changed, and the client is told
    to try again (the refusal ``busy``)."""


class Change(Protocol):
    """A room's change under its lock (``Backend.change``): what was read when it began,
    and its end (saved and published in one step where the backend can)."""

    stored: StoredRoom | None  # a newer revision than the process held (shared backends)
    connected: set[int] | None  # the seats connected on any process (shared backends)

    async def commit(self, room: StoredRoom | None, event: dict[str, Any] | None) -> None: ...


class _LocalChange:
    stored: StoredRoom | None = None
    connected: set[int] | None = None

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend
        self.event: dict[str, Any] | None = None

    async def commit(self, room: StoredRoom | None, event: dict[str, Any] | None) -> None:
        if room is not None:
            self.backend.store.save(room)
        self.event = event  # published once the lock is freed


class _RedisChange:
    def __init__(self, backend: RedisBackend, code: str, token: str, held: Any) -> None:
        self.backend, self.code, self.token = backend, code, token
        self.held = held  # the pool's connection this change holds from begin to commit
        self.stored: StoredRoom | None = None
        self.connected: set[int] | None = None
        self.done = False

    async def commit(self, room: StoredRoom | None, event: dict[str, Any] | None) -> None:
        backend = self.backend
        args: list[str] = [self.token, "", channel(self.code), "0", "0"]
        if event is not None:
            args[1] = json.dumps({"code": self.code, **event}, separators=(",", ":"))
        if room is not None:
            fields = backend._fields(room)
            args[3], args[4] = str(len(fields)), str(backend._ttl(room))
            for name, value in fields.items():
                args += [name, value]
        async with _busy(self.code):
            await _eval_on(self.held, _COMMIT, 2, backend._key(self.code),
                           f"{PREFIX}lock:{self.code}", *args)
        self.done = True


class Backend(Protocol):
    shared: bool  # True when other processes may change a room (refresh before each change)

    async def start(self, handler: EventHandler) -> None: ...
    async def close(self) -> None: ...
    async def load(self, code: str) -> StoredRoom | None: ...
    async def create(self, room: StoredRoom) -> bool: ...
    async def save(self, room: StoredRoom) -> None: ...
    def lock(self, name: str) -> contextlib.AbstractAsyncContextManager[None]: ...
    def change(self, code: str, rev: int) -> contextlib.AbstractAsyncContextManager[Change]: ...
    async def publish(self, code: str, event: dict[str, Any]) -> None: ...
    async def listen(self, code: str) -> None: ...
    async def unlisten(self, code: str) -> None: ...
    async def connection(self, code: str, seat: int, delta: int) -> None: ...
    async def arrive(self, code: str, seat: int,
                     event: dict[str, Any] | None) -> set[int] | None: ...
    async def connected(self, code: str) -> set[int] | None: ...
    async def swap_connections(self, code: str, seat: int, other: int) -> None: ...
    async def get_value(self, key: str) -> str | None: ...
    async def set_value(self, key: str, value: str) -> None: ...
    async def expire(self, idle_before: float, over_before: float,
                     keep: frozenset[str]) -> list[str]: ...


class LocalBackend:
    """One process: the SQLite store, in-process locks, events delivered at once."""

    shared = False

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[str, asyncio.Lock] = {}
        self._handler: EventHandler | None = None
        self._values: dict[str, str] = {}

    async def start(self, handler: EventHandler) -> None:
        self._handler = handler

    async def close(self) -> None:
        return None

    async def load(self, code: str) -> StoredRoom | None:
        return self.store.load(code)

    async def create(self, room: StoredRoom) -> bool:
        if self.store.exists(room.code):
            return False
        self.store.save(room)
        return True

    async def save(self, room: StoredRoom) -> None:
        self.store.save(room)

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = asyncio.Lock()
        async with lock:
            yield
        if not lock.locked() and len(self._locks) > 4096:
            self._locks.pop(name, None)

    @contextlib.asynccontextmanager
    async def change(self, code: str, rev: int) -> AsyncIterator[Change]:
        """The room's lock; the change's event is published once it is freed."""
        change = _LocalChange(self)
        async with self.lock(code):
            yield change
        if change.event is not None:
            await self.publish(code, change.event)

    async def publish(self, code: str, event: dict[str, Any]) -> None:
        if self._handler is not None:
            await self._handler(code, event)

    async def listen(self, code: str) -> None:
        return None  # every event is this process's

    async def unlisten(self, code: str) -> None:
        return None

    async def connection(self, code: str, seat: int, delta: int) -> None:
        return None

    async def arrive(self, code: str, seat: int,
                     event: dict[str, Any] | None) -> set[int] | None:
        if event is not None:
            await self.publish(code, event)
        return None  # this process's own connections are all of them

    async def connected(self, code: str) -> set[int] | None:
        return None  # this process's own connections are all of them

    async def swap_connections(self, code: str, seat: int, other: int) -> None:
        return None  # each connection follows its token (Room.reseat_connections)

    async def get_value(self, key: str) -> str | None:
        return self._values.get(key)

    async def set_value(self, key: str, value: str) -> None:
        self._values[key] = value

    async def expire(self, idle_before: float, over_before: float,
                     keep: frozenset[str]) -> list[str]:
        """Delete the rooms past their time (the sweep): ``Store.delete_old``."""
        return self.store.delete_old(idle_before, over_before, keep)


async def _eval_on(held: Any, script: str, keys: int, *args: str) -> Any:
    """``EVAL`` on a connection taken from the pool (a change's own)."""
    from redis.exceptions import ResponseError

    try:
        await held.send_command("EVAL", script, keys, *args)
        return await held.read_response()
    except BaseException as error:
        if not isinstance(error, ResponseError):  # its reply may be unread: not reusable
            with contextlib.suppress(Exception):
                await held.disconnect()
        raise


@contextlib.asynccontextmanager
async def _busy(what: str) -> AsyncIterator[None]:
    """Redis not reached in time (no connection of the pool free for ``LOCK_SECONDS``: the
    process is overloaded; or Redis away): ``BackendBusy``, which the client gets as the
    refusal ``busy``, not redis-py's error (a traceback, the socket dropped)."""
    from redis.exceptions import ConnectionError as NoConnection
    from redis.exceptions import TimeoutError as RedisTimeout

    try:
        yield
    except (NoConnection, RedisTimeout) as error:
        raise BackendBusy(f"no connection to Redis for {what}") from error


def _pairs(reply: Any) -> dict[str, str]:
    """A hash as a script returns it (a flat list of names and values), or as a dict."""
    if isinstance(reply, dict):
        return {str(k): str(v) for k, v in reply.items()}
    items = list(reply)
    return {str(items[i]): str(items[i + 1]) for i in range(0, len(items) - 1, 2)}


class RedisBackend:
    """Rooms in Redis, shared by every server process given the same URL."""

    shared = True

    def __init__(self, url: str, idle_ttl: float = 2 * 86400, over_ttl: float = 7 * 86400,
                 connections: int = 64) -> None:
        import redis.asyncio as aioredis  # only with --redis

        # Redis deletes a room itself: every save sets its key's time to live (idle_ttl, or
        # over_ttl once the game is over), and every connection to it renews it.
        self.idle_ttl, self.over_ttl = max(1, round(idle_ttl)), max(1, round(over_ttl))

        # A bounded pool that waits for a free connection (redis-py's own pool refuses past
        # 100 with "Too many connections": 1,000 busy rooms on one process got there).
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=LOCK_SECONDS, decode_responses=True)
        self._redis: Any = aioredis.Redis.from_pool(pool)
        self._listener: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        # the rooms' channels this process listens to, each set once Redis has confirmed
        # the subscription (from then on no event of the room is missed)
        self._channels: dict[str, asyncio.Event] = {}
        # the changes under way in this process, by room: the task that runs each, and it
        self._changes: dict[str, tuple[asyncio.Task[Any] | None, _RedisChange]] = {}
        self.process = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"

    async def start(self, handler: EventHandler) -> None:
        await self._redis.ping()
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(CHANNEL)
        self._listener = asyncio.get_running_loop().create_task(self._listen(handler))

    async def _listen(self, handler: EventHandler) -> None:
        async for message in self._pubsub.listen():
            kind = message.get("type")
            if kind == "subscribe":
                confirmed = self._channels.get(str(message.get("channel")))
                if confirmed is not None:
                    confirmed.set()
                continue
            if kind != "message":
                continue
            try:
                data = json.loads(message["data"])
                code = str(data.pop("code"))
            except (ValueError, KeyError, TypeError):
                continue
            try:
                await handler(code, data)
            except Exception:  # one room's trouble never stops the others' events
                continue

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    @staticmethod
    def _key(code: str) -> str:
        return f"{PREFIX}room:{code}"

    async def load(self, code: str) -> StoredRoom | None:
        async with _busy(code):
            data = await self._redis.hgetall(self._key(code))
        if not data:
            return None
        return self._stored(code, data)

    @staticmethod
    def _stored(code: str, data: dict[str, str]) -> StoredRoom:
        return StoredRoom(
            code,
            json.loads(data["meta"]),
            data.get("record") or None,
            data["status"],
            data["public"] == "1",
            int(data.get("rev", "0")),
        )

    def _fields(self, room: StoredRoom) -> dict[str, str]:
        return {
            "meta": json.dumps(room.meta, separators=(",", ":")),
            "record": room.record or "",
            "status": room.status,
            "public": "1" if room.public else "0",
            "rev": str(room.rev),
        }

    def _ttl(self, room: StoredRoom) -> int:
        return self.over_ttl if room.status == "over" else self.idle_ttl

    async def create(self, room: StoredRoom) -> bool:
        """Make the room unless its code is taken: one step (a room half made, its code
        taken without its fields, would be unreadable)."""
        args = [str(self._ttl(room))]
        for name, value in self._fields(room).items():
            args += [name, value]
        async with _busy(room.code):
            return bool(await self._redis.eval(_CREATE, 1, self._key(room.code), *args))

    async def save(self, room: StoredRoom) -> None:
        key = self._key(room.code)
        async with _busy(room.code), self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping=self._fields(room))
            pipe.expire(key, self._ttl(room))
            await pipe.execute()

    async def expire(self, idle_before: float, over_before: float,
                     keep: frozenset[str]) -> list[str]:
        return []  # Redis deletes the rooms itself (their keys' time to live)

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        lock = self._redis.lock(
            f"{PREFIX}lock:{name}", timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS,
            sleep=0.002,
        )
        async with _busy(name):
            if not await lock.acquire():
                raise BackendBusy(f"the lock of {name} is held")
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await lock.release()

    @contextlib.asynccontextmanager
    async def change(self, code: str, rev: int) -> AsyncIterator[Change]:
        """A room's change in two round trips to Redis, on one connection of the pool held
        from the first to the second (so that a change once begun always has one to end
        with): one script takes the lock and reads the connection counts and, only when it
        is newer than ``rev``, the room; another (``commit``) saves it, publishes the event
        and frees the lock. The lock is the one ``lock(code)`` takes (the same key and
        value)."""
        token = uuid.uuid4().hex
        keys = (f"{PREFIX}lock:{code}", self._key(code), f"{PREFIX}conn:{code}")
        loop = asyncio.get_running_loop()
        give_up = loop.time() + LOCK_SECONDS
        pool = self._redis.connection_pool
        while True:
            async with _busy(code):  # the pool's wait ran out (or Redis is away)
                held = await pool.get_connection()
            try:
                async with _busy(code):
                    got = await _eval_on(held, _BEGIN, 3, *keys, token,
                                         str(int(LOCK_SECONDS * 1000)), str(rev))
            except BaseException:
                await pool.release(held)
                raise
            if got[0]:
                break
            await pool.release(held)  # not held while the lock is another's
            if loop.time() > give_up:
                raise BackendBusy(f"the lock of {code} is held")
            await asyncio.sleep(0.002)
        change = _RedisChange(self, code, token, held)
        self._changes[code] = (asyncio.current_task(), change)
        try:
            change.connected = {int(seat) for seat, count in _pairs(got[1]).items()
                                if int(count) > 0}
            if len(got) > 2 and got[2]:
                change.stored = self._stored(code, _pairs(got[2]))
            yield change
        finally:
            try:
                if not change.done:
                    with contextlib.suppress(Exception):
                        await _eval_on(held, _RELEASE, 1, keys[0], token)
            finally:
                if self._changes.get(code, (None, None))[1] is change:
                    del self._changes[code]
                await pool.release(held)

    def _held(self, code: str) -> Any:
        """The connection of the room's change under way, when the caller is that change's
        own task (a join's ``arrive``): a change then needs no second connection of the
        pool while it holds the room's lock (one it waited for, the pool short, could let
        the lock run out under it). None otherwise."""
        entry = self._changes.get(code)
        if entry is not None and entry[0] is asyncio.current_task() and not entry[1].done:
            return entry[1].held
        return None

    async def publish(self, code: str, event: dict[str, Any]) -> None:
        payload = json.dumps({"code": code, **event}, separators=(",", ":"))
        async with _busy(code):
            await self._redis.publish(channel(code), payload)

    async def listen(self, code: str) -> None:
        """Listen to the room's channel (a connection to it is coming: ``RoomManager.
        listening``); return once Redis has confirmed it, so that no event published
        after is missed (``BackendBusy`` if it has not within ``LOCK_SECONDS``)."""
        name = channel(code)
        confirmed = self._channels.get(name)
        if confirmed is None:
            confirmed = self._channels[name] = asyncio.Event()
            try:
                async with _busy(code):
                    await self._pubsub.subscribe(name)
            except BaseException:
                self._channels.pop(name, None)
                raise
        if not confirmed.is_set():
            try:
                async with asyncio.timeout(LOCK_SECONDS):
                    await confirmed.wait()
            except TimeoutError:
                raise BackendBusy(f"no subscription to {code} in time") from None

    async def unlisten(self, code: str) -> None:
        """The room's last connection here is gone: its events are no longer this
        process's to read."""
        name = channel(code)
        if self._channels.pop(name, None) is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(name)

    async def connection(self, code: str, seat: int, delta: int) -> None:
        key = f"{PREFIX}conn:{code}"
        async with _busy(code), self._redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, str(seat), delta)
            pipe.expire(key, self.idle_ttl)
            if delta > 0:  # a room with a person in it lives on, unchanged or not
                pipe.expire(self._key(code), self.idle_ttl, gt=True)
            await pipe.execute()

    async def arrive(self, code: str, seat: int,
                     event: dict[str, Any] | None) -> set[int] | None:
        """A connection takes ``seat`` (a join, a resume): its count added, ``event``
        published (a resume's ``replace``) and the seats connected read back, in one script,
        made whole or not at all; inside the room's change, on the change's own connection
        (``BackendBusy`` when, outside one, the pool has no connection free in time:
        nothing was sent)."""
        payload = json.dumps({"code": code, **event}, separators=(",", ":")) if event else ""
        keys = (f"{PREFIX}conn:{code}", self._key(code))
        args = (str(seat), str(self.idle_ttl), channel(code), payload)
        held = self._held(code)
        async with _busy(code):
            if held is not None:
                reply = await _eval_on(held, _ARRIVE, 2, *keys, *args)
            else:
                reply = await self._redis.eval(_ARRIVE, 2, *keys, *args)
        return {int(one) for one, count in _pairs(reply).items() if int(count) > 0}

    async def connected(self, code: str) -> set[int] | None:
        async with _busy(code):
            counts = await self._redis.hgetall(f"{PREFIX}conn:{code}")
        return {int(seat) for seat, count in counts.items() if int(count) > 0}

    async def swap_connections(self, code: str, seat: int, other: int) -> None:
        """Two seats swapped players: their connection counts swap too, in one step (the
        other processes add and take away counts meanwhile)."""
        async with _busy(code):
            await self._redis.eval(_SWAP, 1, f"{PREFIX}conn:{code}", str(seat), str(other))

    async def get_value(self, key: str) -> str | None:
        async with _busy(key):
            value = await self._redis.get(PREFIX + key)
        return str(value) if value is not None else None

    async def set_value(self, key: str, value: str) -> None:
        async with _busy(key):
            await self._redis.set(PREFIX + key, value)
