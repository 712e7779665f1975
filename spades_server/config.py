"""The server's settings: limits and time-outs, one frozen value per app."""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

from spades_core.deal import check_deal_number

ROOT = Path(__file__).resolve().parent.parent


def load_build_web(root: Path = ROOT) -> ModuleType:
    """``tools/build_web.py`` (tools/ is not a package), imported once."""
    name = "build_web"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, root / "tools" / "build_web.py")
    if spec is None or spec.loader is None:
        raise ImportError("tools/build_web.py not found")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# The build folder tools/build_web.py writes (its SITE: site/), served as it is and nothing
# else. The server's own data (the SQLite file, anything kept later) lives outside it.
SITE: Path = load_build_web().SITE


def normal_origin(origin: str) -> tuple[str, str, int] | None:
    """``scheme://host[:port]`` as (scheme, host, port), the default port filled in; None
    when it is not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


@dataclass(frozen=True, slots=True)
class Config:
    """Everything an app instance is configured with (tests shorten the time-outs)."""

    site: Path = SITE  # the folder served at "/": the site's files, nothing else
    db_path: Path = ROOT / "spades_rooms.sqlite3"  # outside site/ (checked below)
    redis_url: str | None = None  # rooms and broadcasts through Redis (several processes)
    redis_connections: int = 64  # Redis connections per process at most (a change waits)
    # The server's public origin(s) (scheme://host[:port]): the only pages allowed to open
    # the WebSocket. None: pages from loopback, or from the IP address and port a
    # connection came in on (spades_server.app.origin_allowed).
    allowed_origins: tuple[str, ...] = ()
    max_frame: int = 4096  # bytes (or characters) of one client message
    messages_per_window: int = 30  # client messages per connection per window...
    message_window: float = 10.0  # ...of this many seconds
    chat_per_window: int = 5  # chat phrases per seat per window...
    chat_window: float = 10.0  # ...of this many seconds
    quick_wait: float = 10.0  # seconds a quick-match table waits before bots fill it
    nudge_after: float = 20.0  # seconds without a move before the others may nudge
    bot_delay: float = 0.6  # seconds a bot waits before it acts (0 in tests)
    # With a shared backend: seconds past bot_delay that a process waits, after a change
    # published by another, before it drives the room's bots itself (the other may be gone).
    bot_stall: float = 5.0
    max_rooms_loaded: int = 1000  # rooms held in memory at once
    max_spectators: int = 20  # spectators of one room at once (on this process)
    # The sweep (spades_server/sweep.py), every sweep_interval seconds: a room not over,
    # unchanged for idle_expiry seconds and with nobody connected, is deleted; a finished
    # game's room (and record) is kept finished_kept seconds after its last change.
    sweep_interval: float = 300.0
    idle_expiry: float = 2 * 24 * 3600.0
    finished_kept: float = 7 * 24 * 3600.0
    max_connections: int = 500  # WebSocket connections at once
    # Frames waiting for one connection (characters) beyond what its socket has taken, and
    # seconds one frame may wait for the socket: past either the peer is not reading, and
    # the connection is dropped (its seat shown offline; the seat's token resumes it).
    # Per client address (an IPv6 /64), in this process (spades_server/guard.py): WebSocket
    # connections at once; and per window of address_window seconds: rooms created, rooms
    # entered (create, join, quick, resume) and joins or resumes that found nothing.
    address_connections: int = 10
    address_window: float = 60.0
    address_creates: int = 5
    address_enters: int = 30
    address_failures: int = 10
    address_ranked: int = 3  # ranked games started per address per window (ranked.py)
    send_queue: int = 256 * 1024
    send_timeout: float = 10.0
    # permessage-deflate on the WebSocket: off, since it costs far more CPU than the few kB
    # of a state frame are worth (the load test measures it: --ws-deflate).
    ws_deflate: bool = False
    ws_ping_interval: float = 20.0  # seconds between the server's keepalive pings
    # The secret the ranked deal of each day is derived from (spades_server/ranked.py):
    # $SPADES_RANKED_SECRET, else one made once and kept in the SQLite file.
    ranked_secret: str | None = field(
        default_factory=lambda: os.environ.get("SPADES_RANKED_SECRET") or None)
    ranked_bot_delay: float | None = None  # a ranked game's bots' wait (None: bot_delay)
    refresh_build_info: bool = True  # rewrite site/vendor/build.json when the site changes
    # TESTS ONLY, never in production: every room deals from this deal number (its first
    # game is ``?deal=N``'s, a rematch the number after its versions), so that a test's
    # games have the same hands, and the same length, on every run. Anyone who knows the
    # number knows every hand to come. None (the default): each hand from a fresh secret
    # number (spades_server.rooms.random_deal).
    deal_seed: int | None = None

    def __post_init__(self) -> None:
        if self.deal_seed is not None:
            check_deal_number(self.deal_seed)
        for origin in self.allowed_origins:
            if normal_origin(origin) is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
        site = self.site.resolve()
        if self.db_path.resolve().is_relative_to(site):
            raise ValueError(f"the SQLite file {self.db_path} is inside the served folder {site}")
