"""One WebSocket connection's outbox (:class:`Connection`): nothing that serves a room
ever waits on a socket."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from spades_core.seats import Seat

Sender = Callable[[str], Awaitable[None]]


def token_digest(token: str) -> str:
    """What a room keeps of a seat's token (and a connection of its seat's): its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


class JoinedRoom(Protocol):
    """What a connection holds of the room it joined (a ``rooms.Room``): where its frames go."""

    code: str

    def post(self, conn: Connection, text: str) -> None: ...


@dataclass(eq=False, slots=True)
class Connection:
    """One WebSocket: its outbox, and the room and seat it acts for once joined.

    Nothing that serves a room ever waits on a connection: :meth:`post` puts a frame in the
    connection's own queue and returns; the connection's sender task hands the frames to
    the socket one by one. A connection that does not keep up (its queue over
    ``queue_limit`` characters, or one frame not taken by its socket within
    ``send_timeout`` seconds: the peer has stopped reading) is dropped at once with
    ``abort``: its handler sees it go, and its seat is shown offline.
    """

    send: Sender  # the socket's own send: awaited by the sender task only
    queue_limit: int = 256 * 1024
    send_timeout: float = 10.0
    abort: Callable[[], None] | None = None  # drop the socket now (no close frame)
    shut: Callable[[int], Awaitable[None]] | None = None  # close the socket with a code
    room: JoinedRoom | None = None
    seat: Seat | None = None
    digest: str | None = None  # its seat's token digest: the seat follows it when moved
    address: str = "?"  # what the per-address limits count it by (guard.address_key)
    times: deque[float] = field(default_factory=deque)
    queued: deque[str] = field(default_factory=deque)
    queued_size: int = 0  # characters in ``queued``
    closed: bool = False
    dropped: str | None = None  # why the server dropped it: "queue-full" or "send-timeout"
    closing: int | None = None  # close the socket with this code once the queue is sent
    ident: str = field(default_factory=lambda: secrets.token_hex(8))
    # the digest of the last ``state`` sent (``Broadcast.state``): an unchanged one is not
    # sent again; None until the first, and again on entering a room
    last_state: bytes | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _sender: asyncio.Task[None] | None = None

    def post(self, text: str) -> bool:
        """Queue ``text`` for this connection and return at once; False when it is closed
        (or is dropped now, its queue being full)."""
        if self.closed:
            return False
        if self.queued and self.queued_size + len(text) > self.queue_limit:
            self.drop("queue-full")
            return False
        self.queued.append(text)
        self.queued_size += len(text)
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())
        self._wake.set()
        return True

    async def _send_all(self) -> None:
        while True:
            while not self.queued:
                if self.closed:
                    return
                if self.closing is not None:
                    await self._shut(self.closing)
                    return
                self._wake.clear()
                await self._wake.wait()
            if self.closed:
                return
            text = self.queued[0]
            try:
                async with asyncio.timeout(self.send_timeout):
                    await self.send(text)
            except TimeoutError:
                self.drop("send-timeout")
                return
            except Exception:  # the socket is gone: its handler cleans up
                self.close()
                return
            if self.queued and self.queued[0] is text:
                self.queued.popleft()
                self.queued_size -= len(text)

    def finish(self, code: int) -> None:
        """Send what is queued, then close the socket with ``code`` (a close frame)."""
        if self.closed or self.closing is not None:
            return
        self.closing = code
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())
        self._wake.set()

    async def _shut(self, code: int) -> None:
        self.close()
        if self.shut is None:
            return
        try:
            async with asyncio.timeout(self.send_timeout):
                await self.shut(code)
        except TimeoutError:
            self.drop("send-timeout")
        except Exception:  # the socket is gone already: its handler cleans up
            return

    def close(self) -> None:
        """Send nothing more (the connection is closing, or gone); the queue is dropped."""
        self.closed = True
        self.queued.clear()
        self.queued_size = 0
        self._wake.set()

    def drop(self, why: str) -> None:
        """A connection that does not keep up: closed at once, without a close frame (its
        socket's buffer is full), so that it holds no memory nor slot any longer."""
        if self.dropped is not None:
            return
        self.dropped = why
        self.close()
        if self.abort is not None:
            self.abort()
