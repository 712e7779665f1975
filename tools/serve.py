"""``python3 tools/serve.py [...]``: an alias of ``python3 -m spades_server [...]`` (the README's
first command), kept for old habits and for tools that import :func:`start_server`.

:func:`start_server` serves the page with the rooms server (spades_server) from a thread and
returns an object with ``shutdown()``/``server_close()``; :func:`server_url` is its address.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spades_server.__main__ import main  # noqa: E402


@dataclass
class _Running:
    url: str
    _stop: object
    _dir: tempfile.TemporaryDirectory[str] = field(repr=False)

    def shutdown(self) -> None:
        stop = self._stop
        if callable(stop):
            stop()

    def server_close(self) -> None:
        self._dir.cleanup()


def start_server(port: int = 8000, host: str = "127.0.0.1", quiet: bool = True) -> _Running:
    """The page and the rooms on ``host:port`` (0: a free port), rooms in a temporary store."""
    from spades_server.config import Config
    from spades_server.server import start_server as start

    folder = tempfile.TemporaryDirectory(prefix="spades-serve-")
    running = start(port, host, Config(db_path=Path(folder.name) / "rooms.sqlite3"))
    return _Running(running.url, running.stop, folder)


def server_url(server: _Running) -> str:
    return server.url


if __name__ == "__main__":
    sys.exit(main())
