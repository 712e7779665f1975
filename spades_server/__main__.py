"""``python3 -m spades_server [--port 8000] [--host 127.0.0.1] [--db FILE]``: set up the page's
files (tools/build_web.py) and serve the page and the rooms."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .config import ROOT, Config, load_build_web
from .server import serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Spades trainer and its rooms.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--db", type=Path, default=ROOT / "spades_rooms.sqlite3")
    parser.add_argument("--quick-wait", type=float, default=10.0, help="seconds before bots fill")
    parser.add_argument(
        "--allow-origin", action="append", default=[], help="another origin for the WebSocket"
    )
    parser.add_argument("--no-build", action="store_true", help="skip tools/build_web.py")
    args = parser.parse_args(argv)
    if not args.no_build:
        load_build_web().build()
    config = Config(
        db_path=args.db, quick_wait=args.quick_wait, allowed_origins=tuple(args.allow_origin)
    )
    print(f"Serving the Spades trainer at http://{args.host}:{args.port}/  (Ctrl+C to stop)")
    serve(args.host, args.port, config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
