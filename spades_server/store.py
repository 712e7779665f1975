"""The rooms' store: one SQLite file, a row per room, written after every action.

A row holds the room's settings and seats (JSON; the seat tokens only as SHA-256 digests)
and its game record (``spades-record/1``, :func:`spades_core.record.dumps`): the record is
the room's truth, so a new app instance on the same file resumes every room exactly.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    record TEXT,
    status TEXT NOT NULL,
    public INTEGER NOT NULL,
    updated REAL NOT NULL
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated)"


@dataclass(frozen=True, slots=True)
class StoredRoom:
    code: str
    meta: dict[str, Any]
    record: str | None
    status: str
    public: bool
    rev: int = 0  # the room's revision: every saved change adds one (shared backends)


class Store:
    """The SQLite file; every call commits (WAL journal, so a write is one short fsync)."""

    def __init__(self, path: Path | str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.execute(_INDEX)

    def save(self, room: StoredRoom) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO rooms (code, meta, record, status, public, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET meta=excluded.meta, "
                "record=excluded.record, status=excluded.status, public=excluded.public, "
                "updated=excluded.updated",
                (
                    room.code,
                    json.dumps(room.meta, separators=(",", ":")),
                    room.record,
                    room.status,
                    int(room.public),
                    time.time(),
                ),
            )

    def load(self, code: str) -> StoredRoom | None:
        with self._lock:
            row = self._db.execute(
                "SELECT code, meta, record, status, public FROM rooms WHERE code = ?", (code,)
            ).fetchone()
        if row is None:
            return None
        return StoredRoom(row[0], json.loads(row[1]), row[2], row[3], bool(row[4]))

    def exists(self, code: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
        return row is not None

    def delete_old(self, idle_before: float, over_before: float,
                   keep: frozenset[str] = frozenset()) -> list[str]:
        """Delete the rooms not over and unchanged since ``idle_before``, and the finished
        ones unchanged since ``over_before`` (times as ``time.time()``), but those of
        ``keep``; return the codes deleted."""
        with self._lock:
            rows = self._db.execute(
                "SELECT code FROM rooms WHERE (status != 'over' AND updated < ?) "
                "OR (status = 'over' AND updated < ?)", (idle_before, over_before)
            ).fetchall()
            codes = [row[0] for row in rows if row[0] not in keep]
            for start in range(0, len(codes), 500):
                chunk = codes[start:start + 500]
                self._db.execute(
                    f"DELETE FROM rooms WHERE code IN ({','.join('?' * len(chunk))})", chunk
                )
        return codes

    def close(self) -> None:
        with self._lock:
            self._db.close()
