"""Limits per client address: WebSocket connections at once, rooms created, rooms entered
and failed joins (a code that names no room, a token that names no seat) per window.

A new socket does not reset them: they are counted by the client's address (for IPv6, its
/64 network: one host is given a whole /64), across every connection from it. They hold in
one process: with ``--redis`` and N processes behind a balancer an address may get up to N
times the figures (docs/server.md). The clock is injectable (tests).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import deque
from collections.abc import Callable

from .config import Config
from .protocol import ProtocolError

# What an address is refused, by what it asked: the refusal's key (docs/protocol.md).
TOO_MANY = {
    "create": "too-many-rooms",
    "enter": "too-many-joins",
    "fail": "too-many-attempts",
    "ranked": "too-many-ranked",
}
FAILURES = frozenset({"no-such-room", "bad-token"})  # a join or resume that found nothing


def address_key(host: str | None) -> str:
    """What the limits count by: the IPv4 address, or the /64 network of an IPv6 one."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class AddressGuard:
    """The counts of every address, forgotten once they are over."""

    def __init__(self, config: Config, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.connections: dict[str, int] = {}
        self._events: dict[tuple[str, str], deque[float]] = {}

    # --- connections at once ----------------------------------------------------------

    def connect(self, key: str) -> bool:
        """Count a new connection from ``key``; False (not counted) past the limit."""
        count = self.connections.get(key, 0)
        if count >= self.config.address_connections:
            return False
        self.connections[key] = count + 1
        return True

    def disconnect(self, key: str) -> None:
        count = self.connections.get(key, 0) - 1
        if count > 0:
            self.connections[key] = count
        else:
            self.connections.pop(key, None)

    # --- events per window ------------------------------------------------------------

    def _times(self, key: str, kind: str) -> deque[float]:
        times = self._events.get((key, kind))
        if times is None:
            times = self._events[(key, kind)] = deque()
        now = self.clock()
        while times and now - times[0] >= self.config.address_window:
            times.popleft()
        return times

    def _limit(self, kind: str) -> int:
        config = self.config
        return {"create": config.address_creates, "enter": config.address_enters,
                "fail": config.address_failures, "ranked": config.address_ranked}[kind]

    def check(self, key: str, kind: str) -> None:
        """Raise the refusal for ``kind`` when ``key`` has used its window's allowance
        (``seconds``: when the oldest counted event leaves the window)."""
        times = self._times(key, kind)
        if len(times) >= self._limit(kind):
            wait = self.config.address_window - (self.clock() - times[0])
            raise ProtocolError(TOO_MANY[kind], {"seconds": str(max(1, math.ceil(wait)))})

    def count(self, key: str, kind: str) -> None:
        self._times(key, kind).append(self.clock())

    def forget(self) -> int:
        """Drop the windows that are over (the sweep calls it); how many were dropped."""
        now = self.clock()
        over = [name for name, times in self._events.items()
                if not times or now - times[-1] >= self.config.address_window]
        for name in over:
            del self._events[name]
        return len(over)
