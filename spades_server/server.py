"""Running the app on uvicorn: :func:`start_server` (a thread; tests) and :func:`serve`."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .app import ABORT_EXTENSION, Observer, create_app
from .config import Config


class RoomsWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, which also gives the app a way to drop a connection at
    once (the scope extension ``ABORT_EXTENSION``). uvicorn's own close waits until the
    socket has taken what was written before it, which a peer that stops reading never
    lets happen: an aborted socket is reset instead, and its buffers are freed."""

    async def run_asgi(self) -> None:
        extensions = self.scope.get("extensions")
        if extensions is not None:
            extensions[ABORT_EXTENSION] = {"abort": self.abort}
        await super().run_asgi()

    def abort(self) -> None:
        sock = self.transport.get_extra_info("socket")
        if sock is not None:  # a reset, not a FIN behind megabytes nobody will read
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


def uvicorn_config(app: Starlette, host: str, port: int, config: Config) -> uvicorn.Config:
    """uvicorn's settings with the server's limits: backlog, time-outs, connection caps,
    the WebSocket frame size (a larger frame closes the connection, 1009)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        backlog=128,
        limit_concurrency=config.max_connections + 100,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=3,
        ws=RoomsWebSocketProtocol,
        ws_max_size=config.max_frame,
        ws_per_message_deflate=config.ws_deflate,
        ws_ping_interval=config.ws_ping_interval,
        ws_ping_timeout=20.0,
        log_level="warning",
        access_log=False,
        server_header=False,
        lifespan="on",
    )


@dataclass(frozen=True, slots=True)
class RunningServer:
    url: str  # ends with "/"
    stop: Callable[[], None]
    app: Starlette


def start_server(
    port: int = 0,
    host: str = "127.0.0.1",
    config: Config | None = None,
    observe: Observer | None = None,
) -> RunningServer:
    """Serve on ``host:port`` (0: a free port) from a daemon thread; ``stop()`` ends it."""
    config = config or Config()
    app = create_app(config, observe)
    server = uvicorn.Server(uvicorn_config(app, host, port, config))
    thread = threading.Thread(target=server.run, name="spades-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)

    return RunningServer(f"http://{bound[0]}:{bound[1]}/", stop, app)


def serve(host: str, port: int, config: Config) -> None:
    """Serve in this thread until Ctrl+C."""
    uvicorn.Server(uvicorn_config(create_app(config), host, port, config)).run()
