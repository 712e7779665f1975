"""``python3 -m spades_server [--port 8000] [--host 127.0.0.1] [--db FILE] [--redis URL]``: the
README's first command. It does its own set-up (installs requirements-server.txt when a package
is missing, builds the site into site/ with tools/build_web.py), then serves site/ (and nothing
else) with the rooms and the daily board.

``python3 -m spades_server loadtest [...]``: the load benchmark (:mod:`.loadtest`), loopback only.
``python3 -m spades_server measure [...]``: the bytes of a room (:mod:`.measure`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from .config import ROOT, SITE, Config, load_build_web

REQUIRED = ("starlette", "uvicorn", "websockets", "redis")


def ensure_requirements() -> None:
    """Install requirements-server.txt with this Python's pip when one of them is missing."""
    missing = [name for name in REQUIRED if importlib.util.find_spec(name) is None]
    if not missing:
        return
    print(f"spades_server: installing {', '.join(missing)} (requirements-server.txt)", flush=True)
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_BREAK_SYSTEM_PACKAGES": "1"}
    command = [sys.executable, "-m", "pip", "install", "-q", "-r",
               str(ROOT / "requirements-server.txt")]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.insert(4, "--root-user-action=ignore")
    subprocess.run(command, check=True, env=env)
    importlib.invalidate_caches()


# The limits set from the command line as they are: (flag, the Config field it sets, its help);
# each takes the field's type and default, N for a count and S for seconds.
LIMITS: tuple[tuple[str, str, str], ...] = (
    ("--address-connections", "address_connections",
     "WebSocket connections at once per client address"),
    ("--address-creates", "address_creates", "rooms created per client address per minute"),
    ("--address-joins", "address_enters",
     "rooms entered (create, join, quick, resume) per client address per minute"),
    ("--address-failures", "address_failures",
     "joins or resumes that found nothing per client address per minute"),
    ("--address-ranked", "address_ranked",
     "games of today's ranked deal started per client address per minute"),
    ("--messages-per-window", "messages_per_window",
     "messages one connection may send per 10 seconds (more are refused: rate-limited)"),
    ("--sweep-interval", "sweep_interval", "seconds between two sweeps"),
    ("--idle-expiry", "idle_expiry",
     "seconds after which a room not over, unchanged and with nobody in it, is deleted"),
    ("--finished-kept", "finished_kept", "seconds a finished game's room and record are kept"),
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 -m spades_server", description="Serve the Spades trainer and its rooms."
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--db", type=Path, default=ROOT / "spades_rooms.sqlite3",
                        help="the SQLite file (rooms without --redis, and the daily board)")
    parser.add_argument("--redis", metavar="URL", default=None,
                        help="keep rooms in Redis (redis://host:port/db): several processes "
                             "then serve the same rooms")
    parser.add_argument("--quick-wait", type=float, default=10.0, help="seconds before bots fill")
    parser.add_argument(
        "--origin", "--allow-origin", dest="origin", action="append", metavar="URL",
        default=[], help="the server's public origin (scheme://host[:port]), the only pages "
        "allowed to open the rooms' WebSocket; repeatable; also $SPADES_ORIGINS (separated "
        "by spaces or commas). None: pages from loopback or the server's own IP address")
    parser.add_argument("--max-connections", type=int, default=500,
                        help="WebSocket connections at once")
    defaults = Config()
    for flag, field, text in LIMITS:
        default = getattr(defaults, field)
        parser.add_argument(flag, dest=field, type=type(default), default=default,
                            metavar="N" if isinstance(default, int) else "S", help=text)
    parser.add_argument("--ws-deflate", action="store_true",
                        help="permessage-deflate on the WebSocket (less bandwidth, more CPU)")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits")
    parser.add_argument("--max-rooms", type=int, metavar="N", default=defaults.max_rooms_loaded,
                        help="rooms held in memory at once (default %(default)s)")
    parser.add_argument("--deal-seed", type=int, metavar="N", default=None,
                        help="FOR TESTS ONLY, never in production: every room deals from deal "
                             "number N (the same hands on every run; whoever knows N knows "
                             "every hand to come). Default: each hand from a fresh secret")
    parser.add_argument("--no-build", action="store_true",
                        help="skip tools/build_web.py (serve site/ as it is)")
    parser.add_argument("--no-install", action="store_true", help="skip the pip set-up")
    return parser.parse_args(argv)


def origins(given: list[str]) -> tuple[str, ...]:
    """The public origins: ``--origin``'s, then $SPADES_ORIGINS's."""
    from_env = os.environ.get("SPADES_ORIGINS", "").replace(",", " ").split()
    return tuple(dict.fromkeys([*given, *from_env]))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["loadtest"]:
        ensure_requirements()
        from .loadtest import main as loadtest_main

        return loadtest_main(argv[1:])
    if argv[:1] == ["measure"]:
        ensure_requirements()
        from .measure import main as measure_main

        return measure_main(argv[1:])
    args = parse_args(argv)
    if args.db.resolve().is_relative_to(SITE.resolve()):
        print(f"spades_server: --db {args.db} is inside the served folder {SITE}", file=sys.stderr)
        return 2
    try:
        config = make_config(args)
    except ValueError as error:
        print(f"spades_server: {error}", file=sys.stderr)
        return 2
    if not args.no_install:
        ensure_requirements()
    if not args.no_build:
        load_build_web().build()
    from .server import serve  # needs uvicorn: imported once the set-up has run

    print(f"Serving the Spades trainer at http://{args.host}:{args.port}/  (Ctrl+C to stop)",
          flush=True)
    profile_dir = os.environ.get("SPADES_PROFILE")  # a folder: cProfile of the serving
    if profile_dir:  # (the load benchmark's servers: where an action's CPU goes)
        import cProfile
        import signal

        # uvicorn raises the SIGTERM it caught again once it has shut down: exit by it
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        profiler = cProfile.Profile()
        try:
            profiler.runcall(serve, args.host, args.port, config)
        finally:
            profiler.dump_stats(str(Path(profile_dir) / f"server-{os.getpid()}.prof"))
        return 0
    serve(args.host, args.port, config)
    return 0


def make_config(args: argparse.Namespace) -> Config:
    """The app's settings from the command line (and $SPADES_ORIGINS)."""
    return Config(
        db_path=args.db,
        redis_url=args.redis,
        quick_wait=args.quick_wait,
        bot_delay=args.bot_delay,
        max_connections=args.max_connections,
        ws_deflate=args.ws_deflate,
        allowed_origins=origins(args.origin),
        max_rooms_loaded=args.max_rooms,
        deal_seed=args.deal_seed,
        **{field: getattr(args, field) for _, field, _ in LIMITS},
    )


if __name__ == "__main__":
    sys.exit(main())
