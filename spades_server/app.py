"""The ASGI app: the page's static files, ``GET /api/rooms/{code}/record`` and the rooms'
WebSocket at ``/ws`` (protocol ``spades-room/1``, docs/protocol.md)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from spades_core import record
from spades_core.errors import IllegalAction
from spades_core.seats import Seat

from . import PROTOCOL
from .config import Config
from .protocol import ProtocolError, frame, parse_message
from .rooms import Connection, Room, RoomManager
from .static import StaticFiles, build_info_refresher

CLOSE_POLICY = 1008  # origin refused
CLOSE_TOO_BIG = 1009
CLOSE_TRY_LATER = 1013

Observer = Callable[[Room, Seat | None, str], None]


def origin_allowed(websocket: WebSocket, config: Config) -> bool:
    """A browser always sends Origin: it must be this server's own (or a configured one).
    Clients that are not browsers send none and cannot be lured into acting for a page."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return origin == f"{scheme}://{host}" or origin in config.allowed_origins


def create_app(config: Config | None = None, observe: Observer | None = None) -> Starlette:
    """The app; ``observe(room, seat, text)`` sees every frame sent to a seat (tests)."""
    config = config or Config()
    manager = RoomManager(config, observe)
    refresh = build_info_refresher(config.root) if config.refresh_build_info else None
    static = StaticFiles(config.root, refresh)
    connections = {"count": 0}

    async def get_record(request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else request.query_params.get(
            "token", ""
        )
        room = await manager.get(code) if len(code) == 6 else None
        if room is None or not token or room.seat_of_token(token) is None:
            return JSONResponse({"error": "bad-token"}, 403)
        if room.state is None or room.status != "over":
            return JSONResponse({"error": "game-not-over"}, 409)
        return Response(
            record.dumps(room.state),
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="spades-{code}.json"',
                "Cache-Control": "no-store",
            },
        )

    async def rooms_socket(websocket: WebSocket) -> None:
        if not origin_allowed(websocket, config):
            await websocket.close(code=CLOSE_POLICY)
            return
        if connections["count"] >= config.max_connections:
            await websocket.close(code=CLOSE_TRY_LATER)
            return
        connections["count"] += 1
        await websocket.accept()
        conn = Connection(websocket.send_text)
        try:
            await conn.send(frame("welcome", protocol=PROTOCOL))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                if len(text) > config.max_frame:
                    await websocket.close(code=CLOSE_TOO_BIG)
                    break
                await _one_message(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            connections["count"] -= 1
            with contextlib.suppress(Exception):
                await manager.left(conn)

    async def _one_message(conn: Connection, text: str | bytes) -> None:
        now = time.monotonic()
        times = conn.times
        while times and now - times[0] > config.message_window:
            times.popleft()
        request: str | None = None
        try:
            if len(times) >= config.messages_per_window:
                raise ProtocolError("rate-limited")
            times.append(now)
            message = parse_message(text, config.max_frame)
            request = message.type
            await manager.handle(conn, message)
        except ProtocolError as error:
            await _refuse(conn, request, error.reason, error.params)
        except IllegalAction as error:
            await _refuse(conn, request, error.refusal.reason, dict(error.refusal.params))

    async def _refuse(
        conn: Connection, request: str | None, reason: str, params: dict[str, str]
    ) -> None:
        fields: dict[str, Any] = {"reason": reason, "params": params, "request": request}
        text = frame("refused", **fields)
        if conn.room is not None:
            await conn.room.send(conn, text)
        else:
            await conn.send(text)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.aclose()

    app = Starlette(
        routes=[
            Route("/api/rooms/{code}/record", get_record, methods=["GET"]),
            WebSocketRoute("/ws", rooms_socket),
            Route("/{path:path}", static.respond, methods=["GET", "HEAD"]),
        ],
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.config = config
    return app
