"""``python3 -m spades_server measure [--rooms N] [--games N] [--redis]``: what one room
costs, measured (docs/server.md quotes it).

- a new room (one player seated, waiting): its SQLite row (JSON bytes), what the SQLite file
  grows by per room, and the Python memory of one loaded :class:`~.rooms.Room` (tracemalloc);
- a finished game (500 points, the rooms' default rules, bots of the default level in every
  seat): its record's bytes and what the SQLite file grows by per game;
- with ``--redis``: a Redis server of its own on a free loopback port (Debian's
  ``redis-server``, no persistence, stopped by its pid), and ``MEMORY USAGE`` of each kind of
  room's hash.

It prints one JSON object. Everything runs in a temporary folder and is deleted after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from spades_core import record
from spades_core.bots import bot_action, make_bot
from spades_core.game import GameState, Phase
from spades_core.seats import SEATS

from .config import Config
from .rooms import Room, RoomManager, random_deal
from .store import StoredRoom


def _file_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def _finished_game(room: Room) -> GameState:
    """A whole game of the room's rules, bots of its level in every seat."""
    bots = {seat: make_bot(room.options["bot_level"]) for seat in SEATS}
    state = GameState.new(room.rules, cards=random_deal(room.rules, 0))
    while state.phase is not Phase.OVER:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bot_action(bots[seat], state), seat)
        if state.phase is Phase.DEALING:
            state = state.deal_cards(random_deal(room.rules, state.hand_index))
    return state


def _stored_bytes(stored: StoredRoom) -> int:
    meta = json.dumps(stored.meta, separators=(",", ":"))
    return len(meta.encode()) + len((stored.record or "").encode())


async def _measure(rooms: int, games: int, folder: Path) -> tuple[dict[str, Any], list[Room]]:
    db = folder / "measure.sqlite3"
    manager = RoomManager(Config(db_path=db, refresh_build_info=False))
    store = manager.store
    made: list[Room] = []
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the tables made, in the file
    start = _file_bytes(db)
    for _ in range(rooms):
        room = await manager.create({}, public=False)
        async with manager.changing(room):
            token = room.take_seat(SEATS[0], "Nickname20characters")
            room.host = room.seats[0].token_digest
            assert token
        made.append(room)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    memory = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    grown = _file_bytes(db) - start
    new_row = _stored_bytes(made[0].stored())
    start = _file_bytes(db)
    records: list[int] = []
    hands: list[int] = []
    finished: list[Room] = []
    for _ in range(games):
        room = await manager.create({}, public=False)
        async with manager.changing(room):
            for seat in SEATS:
                room.take_seat(seat, "Nickname20characters")
            room.state = _finished_game(room)
            room.status = "over"
            room.save()
        text = record.dumps(room.state)
        records.append(len(text.encode()))
        hands.append(len(room.state.past_hands))
        finished.append(room)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    game_grown = _file_bytes(db) - start
    await manager.aclose()
    result = {
        "new_room": {
            "rooms": rooms,
            "row_bytes": new_row,
            "sqlite_bytes_per_room": round(grown / rooms),
            "python_bytes_per_loaded_room": round(memory / rooms),
        },
        "finished_game": {
            "games": games,
            "hands_mean": round(sum(hands) / games, 1),
            "record_bytes_mean": round(sum(records) / games),
            "record_bytes_max": max(records),
            "row_bytes_mean": round(sum(_stored_bytes(r.stored()) for r in finished) / games),
            "sqlite_bytes_per_game": round(game_grown / games),
        },
    }
    return result, [made[0], *finished]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def _redis_bytes(url: str, rooms: list[Room]) -> dict[str, Any]:
    from .backend import RedisBackend

    backend = RedisBackend(url)
    sizes = []
    for room in rooms:
        await backend.save(room.stored())
        sizes.append(int(await backend._redis.memory_usage(backend._key(room.code))))
    await backend.close()
    games = sizes[1:]
    return {"new_room_bytes": sizes[0],
            "finished_game_bytes_mean": round(sum(games) / len(games)) if games else None}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m spades_server measure")
    parser.add_argument("--rooms", type=int, default=1000, help="new rooms made")
    parser.add_argument("--games", type=int, default=5, help="whole games played by bots")
    parser.add_argument("--redis", action="store_true",
                        help="also MEMORY USAGE in a redis-server of its own (loopback)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="spades-measure-") as name:
        folder = Path(name)
        result, sample = asyncio.run(_measure(args.rooms, args.games, folder))
        if args.redis:
            server = shutil.which("redis-server") or "/usr/bin/redis-server"
            port = _free_port()
            process = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", name], stdout=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 10
                while True:
                    try:
                        socket.create_connection(("127.0.0.1", port), 0.5).close()
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.05)
                result["redis"] = asyncio.run(_redis_bytes(f"redis://127.0.0.1:{port}/0", sample))
            finally:
                os.kill(process.pid, signal.SIGTERM)
                process.wait(10)
    print(json.dumps(result, indent=1))
    return 0
