"""The ASGI app: ``GET /api/rooms/{code}/record``, the daily board, the rooms' WebSocket at
``/ws`` (protocol ``spades-room/1``, docs/protocol.md), and every other GET or HEAD from the
site's folder (``site/``, built by tools/build_web.py) and nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from spades_core import record
from spades_core.errors import IllegalAction
from spades_core.seats import Seat

from . import PROTOCOL, REVISION
from .backend import BackendBusy
from .config import Config, normal_origin
from .connection import Connection
from .daily import Board, day_of
from .guard import address_key
from .protocol import ProtocolError, frame, parse_code, parse_message
from .ranked import board_json, day_json, deal_of, published
from .rooms import Room, RoomManager
from .static import SiteFiles, site_refresher

CLOSE_POLICY = 1008  # origin refused
CLOSE_TOO_BIG = 1009
CLOSE_TRY_LATER = 1013
# The ASGI scope extension by which the server (spades_server.server) lets the app drop a
# connection at once, unsent frames and all: {"abort": callable}.
ABORT_EXTENSION = "spades.abort"

Observer = Callable[[Room, Seat | None, str], None]


def origin_allowed(websocket: WebSocket, config: Config) -> bool:
    """A browser always sends ``Origin``: the socket is opened only for pages of the server's
    public origin(s) (``Config.allowed_origins``: ``--origin``, ``SPADES_ORIGINS``). With
    none configured, only pages served from loopback (``localhost``, 127.0.0.0/8, ``::1``,
    any port) or from the very address and port this connection came in on (an IP, as in
    ``http://192.168.1.20:8000``). Never the ``Host`` header, which DNS rebinding lets a
    foreign page set. Clients that are not browsers send no Origin and cannot be lured
    into acting for a page: they are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    found = normal_origin(origin)
    if found is None:
        return False
    if config.allowed_origins:
        return found in {normal_origin(allowed) for allowed in config.allowed_origins}
    _, host, port = found
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False  # a name: only a configured origin may be one
    if address.is_loopback:
        return True
    server = websocket.scope.get("server")
    if not server or server[1] != port:
        return False
    try:
        return address == ipaddress.ip_address(str(server[0]))
    except ValueError:
        return False


def socket_abort(websocket: WebSocket) -> Callable[[], None] | None:
    """The server's way to drop this socket at once (None under another ASGI server)."""
    extensions = websocket.scope.get("extensions") or {}
    entry = extensions.get(ABORT_EXTENSION)
    abort = entry.get("abort") if isinstance(entry, dict) else None
    return abort if callable(abort) else None


def create_app(config: Config | None = None, observe: Observer | None = None) -> Starlette:
    """The app; ``observe(room, seat, text)`` sees every frame sent to a seat (tests)."""
    config = config or Config()
    manager = RoomManager(config, observe)
    refresh = site_refresher(config.site) if config.refresh_build_info else None
    site = SiteFiles(config.site, refresh)
    connections = {"count": 0}
    board = Board(config.db_path)  # the pars of the published ranked deals

    def board_error(reason: str, status: int, params: dict[str, str] | None = None) -> Response:
        return JSONResponse({"error": reason, "params": params or {}}, status,
                            headers={"Cache-Control": "no-store"})

    def day_param(request: Request) -> int | None:
        text = str(request.path_params["day"])
        if len(text) != 8 or not text.isascii() or not text.isdigit():
            return None
        try:
            day_of(int(text))
        except ValueError:
            return None
        return int(text)

    async def get_daily(request: Request) -> Response:
        """The day's board: only ranked games (spades_server/ranked.py)."""
        level = request.query_params.get("level", "normal")
        if level not in ("beginner", "normal", "expert"):
            return board_error("bad-level", 400)
        day = day_param(request)
        if day is None:
            return board_error("bad-day", 400)
        today = manager.ranked.today()
        ranked = manager.ranked.board
        par = None
        if published(day, today):
            par = board.par_of_deal(deal_of(ranked.secret, day), level,
                                    recent=(today - day_of(day)).days <= 3)
        data = await asyncio.to_thread(board_json, ranked, day, level, today, par)
        return JSONResponse(data, headers={"Cache-Control": "no-cache"})

    async def get_ranked_day(request: Request) -> Response:
        """A day's ranked deal: its commitment; once published, its secret and number."""
        day = day_param(request)
        if day is None:
            return board_error("bad-day", 400)
        data = day_json(manager.ranked.board, day, manager.ranked.today())
        return JSONResponse(data, headers={"Cache-Control": "no-cache"})

    async def get_ranked_record(request: Request) -> Response:
        """The record of a game of a published day's board (its entry's ``record``)."""
        day = day_param(request)
        game = str(request.path_params["game"])
        if day is None or not game.isascii() or not game.isdigit() or len(game) > 12:
            return board_error("bad-day", 400)
        if not published(day, manager.ranked.today()):
            return board_error("not-published", 403)
        text = await asyncio.to_thread(manager.ranked.board.record_of, day, int(game))
        if text is None:
            return board_error("no-such-game", 404)
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="spades-ranked-{day}-{game}.json"',
            "Cache-Control": "no-cache"})

    async def get_record(request: Request) -> Response:
        code = parse_code(str(request.path_params["code"])) or ""
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else request.query_params.get(
            "token", ""
        )
        room = await manager.get(code) if code else None
        if room is None or not token or room.seat_of_token(token) is None:
            return JSONResponse({"error": "bad-token"}, 403)
        if room.state is None or room.status != "over":
            return JSONResponse({"error": "game-not-over"}, 409)
        ranked = room.options.get("ranked") if room.ranked else None
        if isinstance(ranked, dict) and not published(int(ranked["day"]),
                                                      manager.ranked.today()):
            return JSONResponse({"error": "not-published"}, 403)  # its deal number is secret
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
        client = websocket.client
        address = address_key(client.host if client is not None else None)
        if not manager.guard.connect(address):
            # too many connections from this address: told so, then closed "try later"
            await websocket.accept()
            text = frame("refused", reason="too-many-connections",
                         params={"limit": str(config.address_connections)}, request=None)
            with contextlib.suppress(Exception):
                async with asyncio.timeout(config.send_timeout):
                    await websocket.send_text(text)
                    await websocket.close(code=CLOSE_TRY_LATER)
            return
        try:
            await _serve_socket(websocket, address)
        finally:
            manager.guard.disconnect(address)

    async def _serve_socket(websocket: WebSocket, address: str) -> None:
        if connections["count"] >= config.max_connections:
            # accepted first, so the client reads the close code "try again later" (a close
            # before the handshake would reach it as a bare HTTP 403, as for a bad origin)
            await websocket.accept()
            await websocket.close(code=CLOSE_TRY_LATER)
            return
        connections["count"] += 1
        await websocket.accept()
        handler = asyncio.current_task()

        def cancel_handler() -> None:
            if handler is not None:
                handler.cancel()

        # A connection that does not keep up is dropped: its socket aborted (or, under
        # another ASGI server, this handler cancelled), so it holds no slot any longer.
        abort = socket_abort(websocket) or cancel_handler
        async def shut(code: int) -> None:
            await websocket.close(code=code)

        conn = Connection(websocket.send_text, config.send_queue, config.send_timeout, abort,
                          shut, address=address)
        try:
            conn.post(frame("welcome", protocol=PROTOCOL, revision=REVISION))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                if len(text) > config.max_frame:
                    conn.close()
                    await _close(websocket, conn, CLOSE_TOO_BIG)
                    break
                await _one_message(conn, text)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if conn.dropped is None:  # not a drop of ours: the server is stopping
                raise
        finally:
            connections["count"] -= 1
            conn.close()
            with contextlib.suppress(Exception):
                await manager.left(conn)

    async def _close(websocket: WebSocket, conn: Connection, code: int) -> None:
        """Close with ``code``; a socket that does not take the close frame in time (its
        peer has stopped reading) is dropped."""
        try:
            async with asyncio.timeout(config.send_timeout):
                await websocket.close(code=code)
        except TimeoutError:
            conn.drop("send-timeout")

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
            await _refuse(conn, request or error.request, error.reason, error.params)
        except IllegalAction as error:
            await _refuse(conn, request, error.refusal.reason, dict(error.refusal.params))
        except BackendBusy:  # overloaded: nothing changed, the client may send it again
            await _refuse(conn, request, "busy", {})

    async def _refuse(
        conn: Connection, request: str | None, reason: str, params: dict[str, str]
    ) -> None:
        fields: dict[str, Any] = {"reason": reason, "params": params, "request": request}
        text = frame("refused", **fields)
        if conn.room is not None:
            conn.room.post(conn, text)
        else:
            conn.post(text)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.aclose()
            board.close()

    app = Starlette(
        routes=[
            Route("/api/rooms/{code}/record", get_record, methods=["GET"]),
            Route("/api/daily/{day}", get_daily, methods=["GET"]),
            Route("/api/ranked/{day}", get_ranked_day, methods=["GET"]),
            Route("/api/ranked/{day}/record/{game}", get_ranked_record, methods=["GET"]),
            WebSocketRoute("/ws", rooms_socket),
            Mount("/", app=site),
        ],
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.config = config
    return app
