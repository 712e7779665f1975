"""spades_server as real processes: the README's first command serves the page; two processes
on one Redis serve the same room; a server killed mid-game is restarted on the same store and
the game goes on from the same position. Every process is started here and stopped by its pid."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.helpers import http_get, run_async
from tests.test_server_rooms import DEAL_SEED, Client, play_until, run_all

ROOT = Path(__file__).resolve().parents[1]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the process exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop one process that this module started, by its pid."""
    if process.poll() is None:
        os.kill(process.pid, sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)


@contextlib.contextmanager
def server_process(db: Path, *extra: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    command = [sys.executable, "-m", "spades_server", "--port", str(port), "--db", str(db),
               "--no-build", "--bot-delay", "0", "--quick-wait", "0.3", *extra]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    log = b""
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/", process
    finally:
        stop(process)
        if process.stdout is not None:
            log = process.stdout.read()
            process.stdout.close()
    # its log holds no traceback: every expected disconnect is quiet (tests/conftest.py
    # checks the servers run in the tests' own process)
    assert b"Traceback" not in log, log.decode(errors="replace")[-4000:]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if not Path(REDIS_SERVER).exists():
        pytest.fail("redis-server not found (tools/test.sh installs Debian's redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path), "--daemonize", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


def test_the_readmes_first_command_serves_the_page_and_the_rooms(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, flags=re.S)
    assert block is not None
    first = block.group(1).splitlines()[0].split("#")[0].split()
    assert first == ["python3", "-m", "spades_server"]
    with server_process(tmp_path / "rooms.sqlite3") as (url, _):
        status, body = http_get(url, "/")
        assert status == 200 and b"<html" in body.lower()
        client = Client(url)
        client.enter(type="create", nickname="Ann")
        assert client.last is not None and client.last["room"]["status"] == "waiting"
        client.close()
    assert (tmp_path / "rooms.sqlite3").exists()


def test_two_processes_on_one_redis_serve_the_same_room(tmp_path: Path, redis_url: str) -> None:
    with (
        server_process(tmp_path / "a.sqlite3", "--redis", redis_url) as (url_a, _),
        server_process(tmp_path / "b.sqlite3", "--redis", redis_url) as (url_b, _),
    ):
        host = Client(url_a)
        host.enter(type="create", nickname="Ann", seat="N", options={"target": 500})
        clients = [host]
        for name, seat, url in (("Bea", "E", url_b), ("Cy", "S", url_a), ("Dee", "W", url_b)):
            client = Client(url)
            client.enter(type="join", code=host.code, nickname=name, seat=seat)
            clients.append(client)
        # A phrase said on process B reaches the seats on process A.
        clients[1].send(type="chat", phrase="chat.hello")
        said = host.until(lambda m: m["type"] == "chat")
        assert said == {"type": "chat", "seat": "E", "phrase": "chat.hello"}
        results = run_all(clients, lambda view: view["hand_index"] >= 1)
        views = [message["view"] for message in results]
        for view in views:
            assert view["past_hands"] == views[0]["past_hands"]
            assert len(view["past_hands"][0]["plays"]) == 52
            assert view["scores"] == views[0]["scores"]
        seats = results[0]["room"]["seats"]
        assert [seat["nickname"] for seat in seats] == ["Ann", "Bea", "Cy", "Dee"]
        assert all(seat["connected"] for seat in seats)
        # A seat taken on A comes back on B with its token, and the connection still open
        # on A is told it was replaced, then closed: one live connection per seat, across
        # processes.
        back = Client(url_b)
        assert back.enter(type="resume", code=host.code, token=host.token)["seat"] == "N"
        assert back.last is not None and back.last["view"]["past_hands"] == views[0]["past_hands"]
        assert host.until(lambda m: m["type"] == "replaced")["seat"] == "N"
        with pytest.raises(ConnectionClosed):
            host.until(lambda m: False)
        assert host.ws.close_code == 4001
        assert back.last["room"]["seats"][0]["connected"]
        for client in (*clients[1:], back):
            client.close()


def test_a_killed_server_restarts_on_its_store_and_the_game_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with server_process(db) as (url, process):
        player = Client(url)
        player.enter(type="create", nickname="Ann", seat="S", options={"bot_level": "beginner"})
        player.send(type="start")
        before = play_until(player, lambda view: len(view["plays"]) >= 9 and view["to_act"] == "S")
        os.kill(process.pid, signal.SIGKILL)  # mid-game, mid-trick, no clean shutdown
        process.wait(10)
        with pytest.raises(Exception):  # noqa: B017 - the socket is gone, whatever the error
            player.until(lambda m: False)
    with server_process(db) as (url, _):
        back = Client(url)
        joined = back.enter(type="resume", code=player.code, token=player.token)
        assert joined["seat"] == "S"
        assert back.last is not None
        assert back.last["view"] == before["view"] and back.last["version"] == before["version"]
        back.seat = "S"
        after = play_until(back, lambda view: view["hand_index"] >= 1)
        past = after["view"]["past_hands"][0]["plays"]
        assert past[: len(before["view"]["plays"])] == [c for _, c in before["view"]["plays"]]
        back.close()


def test_the_bots_go_on_when_the_process_driving_them_dies(tmp_path: Path, redis_url: str) -> None:
    """Process A drives the bots (slowly) and is killed before they act: process B, which
    only saw the change published, drives them once the room has stalled."""
    slow = ("--redis", redis_url, "--bot-delay", "4")
    with (
        server_process(tmp_path / "a.sqlite3", *slow) as (url_a, process_a),
        server_process(tmp_path / "b.sqlite3", "--redis", redis_url) as (url_b, _),
    ):
        host = Client(url_a)
        host.enter(type="create", nickname="Ann", seat="N", options={"blind_nil": False})
        guest = Client(url_b)
        guest.enter(type="join", code=host.code, nickname="Bea", seat="E")
        host.send(type="start")
        started = guest.until(lambda m: m["type"] == "state" and m["view"] is not None)
        first = started["view"]["to_act"]
        assert first in ("S", "W"), started["view"]  # East deals: a bot bids first
        stop(process_a, signal.SIGKILL)  # A is gone before its bot's delay is over
        moved = guest.until(
            lambda m: m["type"] == "state" and m["view"] is not None
            and m["view"]["to_act"] in ("N", "E")
        )
        bids = moved["view"]["bids"]
        assert bids[1] is None and all(bids[i] is not None for i in (2, 3)), bids  # S and W bid
        host.close()
        guest.close()


def test_a_move_on_one_process_reseats_a_player_on_the_other(
    tmp_path: Path, redis_url: str
) -> None:
    """The host (process A) moves a guest whose socket is on process B: B's connection
    follows the guest's token to the new seat, and which seats are connected follows."""
    with (
        server_process(tmp_path / "a.sqlite3", "--redis", redis_url) as (url_a, _),
        server_process(tmp_path / "b.sqlite3", "--redis", redis_url) as (url_b, _),
    ):
        host = Client(url_a)
        host.enter(type="create", nickname="Ann", seat="N",
                   options={"blind_nil": False, "bot_level": "beginner"})
        guest = Client(url_b)
        guest.enter(type="join", code=host.code, nickname="Bea", seat="E")
        host.send(type="move", **{"from": "E", "to": "W"})
        moved = guest.until(lambda m: m["type"] == "state" and m["seat"] == "W")
        seats = moved["room"]["seats"]
        assert [seat["nickname"] for seat in seats] == ["Ann", None, None, "Bea"]
        assert [seat["connected"] for seat in seats] == [True, False, False, True]
        guest.seat = "W"
        host.send(type="start")
        finals = run_all([host, guest], lambda view: len(view["plays"]) >= 4)
        assert [final["view"]["seat"] for final in finals] == ["N", "W"]
        guest.close()  # the seat it leaves is West's
        gone = host.until(lambda m: m["type"] == "state" and not m["room"]["seats"][3]["connected"])
        assert [seat["connected"] for seat in gone["room"]["seats"]] == [True, False, False, False]
        host.close()


def test_with_redis_rooms_carry_their_time_to_live(tmp_path: Path, redis_url: str) -> None:
    """Redis deletes old rooms itself: a saved room's key lives --idle-expiry seconds, a
    finished one --finished-kept (the sweep deletes none there)."""
    import redis

    # (the bots act at once here, so a whole game's moves come faster than a person's: the
    # per-connection message limit is raised, or a quick machine is refused "rate-limited")
    # (the game to its end: dealt from the tests' seed, it lasts as long on every run)
    ages = ("--idle-expiry", "1000", "--finished-kept", "5000", "--messages-per-window", "1000",
            "--deal-seed", str(DEAL_SEED))
    with server_process(tmp_path / "a.sqlite3", "--redis", redis_url, *ages) as (url, _):
        player = Client(url)
        player.enter(type="create", nickname="Ann", options={"target": 50,
                                                             "bot_level": "beginner"})
        db = redis.Redis.from_url(redis_url)
        try:
            assert 900 < db.ttl(f"spades:room:{player.code}") <= 1000
            player.send(type="start")
            play_until(player, lambda view: view["phase"] == "over")
            assert 4900 < db.ttl(f"spades:room:{player.code}") <= 5000
        finally:
            db.close()
        player.close()


def test_joins_at_once_on_a_process_new_to_the_room_and_a_seat_freed_across_processes(
    tmp_path: Path, redis_url: str,
) -> None:
    """Two joins sent at once to a process that has not loaded the room yet: both players
    get every state (the room was once loaded twice there, and one connection sat on an
    orphan copy that saw nothing). Then the host on A frees a seat whose player is on B:
    that page is told (``left``) and the seat is a bot's on both processes."""
    with (
        server_process(tmp_path / "a.sqlite3", "--redis", redis_url) as (url_a, _),
        server_process(tmp_path / "b.sqlite3", "--redis", redis_url) as (url_b, _),
    ):
        host = Client(url_a)
        host.enter(type="create", nickname="Ann", seat="N",
                   options={"blind_nil": False, "bot_level": "beginner"})
        east, west = Client(url_b), Client(url_b)
        east.send(type="join", code=host.code, nickname="Bea", seat="E")
        west.send(type="join", code=host.code, nickname="Dee", seat="W")
        east.entered()
        west.entered()
        host.send(type="start")
        for client in (east, west):
            client.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        host.send(type="free", seat="W")
        assert west.until(lambda m: m["type"] == "left")["by"] == "host"
        seen = east.until(lambda m: m["type"] == "state"
                          and m["room"]["seats"][3]["nickname"] is None)
        assert seen["room"]["seats"][3]["bot"] and not seen["room"]["seats"][3]["connected"]
        for client in (host, east, west):
            client.close()


def test_a_change_that_cannot_begin_in_time_is_busy_not_a_crash(
    redis_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Overloaded (the room's lock held by another, or every connection of the pool busy, past
    the wait): the change raises BackendBusy, which the socket's handler answers with the
    refusal ``busy``, instead of redis-py's error and a traceback that dropped the socket (a
    1,000-room load run on a machine at load average 20 printed 364 of them)."""
    import asyncio

    from spades_server import backend as backend_module
    from spades_server.backend import BackendBusy, RedisBackend

    monkeypatch.setattr(backend_module, "LOCK_SECONDS", 0.3)

    async def scenario() -> tuple[str, str]:
        store = RedisBackend(redis_url, connections=1)
        try:
            await store._redis.set("spades:lock:ABCDEFGH", "another process", px=5000)
            with pytest.raises(BackendBusy) as held:
                async with store.change("ABCDEFGH", 0):
                    raise AssertionError("the change began under another's lock")
            # the one connection of the pool busy (a blocking read of 2 s) past the wait
            blocked = asyncio.ensure_future(store._redis.blpop(["spades:nothing"], timeout=2))
            await asyncio.sleep(0.1)
            with pytest.raises(BackendBusy) as starved:
                async with store.change("OTHERONE", 0):
                    raise AssertionError("the change began with no connection")
            await blocked
            async with store.change("OTHERONE", 0) as change:  # free again: it begins
                await change.commit(None, None)
            return str(held.value), str(starved.value)
        finally:
            await store.close()

    held, starved = run_async(scenario())
    assert "lock" in held and "no connection" in starved


def test_a_room_read_made_or_joined_without_redis_in_time_is_busy_and_writes_nothing(
    redis_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every Redis call of an entry (the room read, made, the connection counted and the
    counts read, the quick table's value and lock, a publish) raises BackendBusy when the
    pool has no connection free in time, as a change does; nothing of it was written."""
    import asyncio

    import redis

    from spades_server import backend as backend_module
    from spades_server.backend import BackendBusy, RedisBackend
    from spades_server.store import StoredRoom

    monkeypatch.setattr(backend_module, "LOCK_SECONDS", 0.2)
    room = StoredRoom("STARVED1", {"options": {}, "seats": []}, None, "waiting", False, 0)

    async def scenario() -> list[str]:
        store = RedisBackend(redis_url, connections=1)
        refused: list[str] = []
        try:
            # the one connection of the pool busy (a blocking read of 4 s: nine waits of
            # 0.2 s) past the wait
            blocked = asyncio.ensure_future(store._redis.blpop(["spades:nothing"], timeout=4))
            await asyncio.sleep(0.1)
            calls = {
                "load": lambda: store.load(room.code),
                "create": lambda: store.create(room),
                "arrive": lambda: store.arrive(room.code, 1, {"kind": "replace"}),
                "connected": lambda: store.connected(room.code),
                "connection": lambda: store.connection(room.code, 1, -1),
                "publish": lambda: store.publish(room.code, {"kind": "state"}),
                "get_value": lambda: store.get_value("quick"),
                "set_value": lambda: store.set_value("quick", room.code),
            }
            for name, call in calls.items():
                with pytest.raises(BackendBusy):
                    await call()
                refused.append(name)
            with pytest.raises(BackendBusy):
                async with store.lock("quick"):
                    raise AssertionError("the lock was taken with no connection")
            refused.append("lock")
            await blocked
            assert await store.arrive(room.code, 2, None) == {2}  # free again: it goes
            return refused
        finally:
            await store.close()

    refused = run_async(scenario())
    assert len(refused) == 9
    db = redis.Redis.from_url(redis_url, decode_responses=True)
    try:  # nothing of the refused calls was written: only the last arrival's count
        assert not db.exists("spades:room:STARVED1") and db.get("spades:quick") is None
        assert db.hgetall("spades:conn:STARVED1") == {"2": "1"}
    finally:
        db.close()


def test_a_join_or_resume_that_cannot_get_redis_in_time_is_refused_busy_and_loses_nothing(
    tmp_path: Path, redis_url: str, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str],
) -> None:
    """A server on Redis that cannot reach Redis in time for an entry: its pool's last free
    connection held (by a long read) when a join's change begins, or Redis failing the
    connection's count inside the change of a join and of a resume. Each client gets the
    refusal ``busy``; the seat stays free (a join) or its old socket keeps it (a resume), no
    count is left behind, no traceback; the same message sent again goes through."""
    import asyncio
    import logging

    import redis
    from redis.exceptions import ConnectionError as RedisConnectionError

    from spades_server import backend as backend_module
    from spades_server.server import start_server
    from tests.test_server_rooms import base_config

    caplog.set_level(logging.INFO)
    monkeypatch.setattr(backend_module, "LOCK_SECONDS", 0.3)
    original_change = backend_module.RedisBackend.change
    original_eval_on = backend_module._eval_on
    starve, fail_count = [0], [0]

    @contextlib.asynccontextmanager
    async def change(self: backend_module.RedisBackend, code: str, rev: int) -> Any:
        blocked = None
        if starve[0]:
            starve[0] -= 1  # the pool's last free connection held past the wait
            blocked = asyncio.ensure_future(self._redis.blpop(["spades:nothing"], timeout=1))
            await asyncio.sleep(0.05)
        try:
            async with original_change(self, code, rev) as begun:
                yield begun
        finally:
            if blocked is not None:
                await blocked

    async def eval_on(held: Any, script: str, keys: int, *args: str) -> Any:
        if script == backend_module._ARRIVE and fail_count[0]:
            fail_count[0] -= 1
            raise RedisConnectionError("Redis is away")
        return await original_eval_on(held, script, keys, *args)

    monkeypatch.setattr(backend_module.RedisBackend, "change", change)
    monkeypatch.setattr(backend_module, "_eval_on", eval_on)
    # two connections: the events' subscription, and one more
    running = start_server(0, config=base_config(tmp_path, redis_url=redis_url,
                                                 redis_connections=2))
    db = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann", seat="N")
        guest = Client(running.url)
        for trouble in (starve, fail_count):
            trouble[0] = 1
            guest.send(type="join", code=host.code, nickname="Bea", seat="E")
            refusal = guest.refusal()
            assert refusal["reason"] == "busy" and refusal["request"] == "join"
            guest.send(type="peek", code=host.code)  # nothing lost: the seat is still free
            room = guest.until(lambda m: m["type"] == "room")
            assert [seat["free"] for seat in room["seats"]] == [False, True, True, True]
            assert db.hgetall(f"spades:conn:{host.code}") == {"0": "1"}
        guest.enter(type="join", code=host.code, nickname="Bea", seat="E")  # again: in
        assert guest.seat == "E"
        host.until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["connected"])

        again = Client(running.url)
        fail_count[0] = 1
        again.send(type="resume", code=guest.code, token=guest.token)
        assert again.refusal()["reason"] == "busy"
        guest.send(type="ping")  # the old socket was not replaced: it still has the seat
        assert guest.until(lambda m: m["type"] in ("pong", "replaced"))["type"] == "pong"
        assert db.hgetall(f"spades:conn:{host.code}") == {"0": "1", "1": "1"}
        again.enter(type="resume", code=guest.code, token=guest.token)  # again: in
        assert guest.until(lambda m: m["type"] == "replaced")["seat"] == "E"
        for client in (host, guest, again):
            client.close()
    finally:
        db.close()
        running.stop()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err, out + err
    assert not [record for record in caplog.records if record.exc_info], caplog.records


def test_a_process_listens_to_a_rooms_channel_only_while_it_has_a_connection_to_it(
    tmp_path: Path, redis_url: str,
) -> None:
    """Each room's events go on its own channel; a process subscribes to it when a
    connection to the room comes (before its change: its first state is not missed) and
    unsubscribes when the last one leaves. A look or a refused join subscribes nothing."""
    import redis

    db = redis.Redis.from_url(redis_url, decode_responses=True)

    def listeners(code: str) -> int:
        return int(dict(db.pubsub_numsub(f"spades:events:{code}"))[f"spades:events:{code}"])

    def until_listeners(code: str, count: int) -> None:
        deadline = time.monotonic() + 30  # (a bound on the wait, not the wait)
        while listeners(code) != count:
            assert time.monotonic() < deadline, (listeners(code), count)
            time.sleep(0.02)

    try:
        with (
            server_process(tmp_path / "a.sqlite3", "--redis", redis_url) as (url_a, _),
            server_process(tmp_path / "b.sqlite3", "--redis", redis_url) as (url_b, _),
        ):
            host = Client(url_a)
            host.enter(type="create", nickname="Ann", seat="N",
                       options={"blind_nil": False, "bot_level": "beginner"})
            other = Client(url_a)
            other.enter(type="create", nickname="Cy", seat="N")
            assert listeners(host.code) == 1 and listeners(other.code) == 1  # A only
            guest = Client(url_b)
            guest.send(type="peek", code=host.code)
            guest.until(lambda m: m["type"] == "room")
            guest.send(type="join", code=host.code, nickname="Bea", seat="N")
            assert guest.refusal()["reason"] == "seat-taken"
            until_listeners(host.code, 1)  # B looked and was refused: still A only
            guest.enter(type="join", code=host.code, nickname="Bea", seat="E")
            assert listeners(host.code) == 2  # B subscribed before the join's change
            host.until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["connected"])
            assert listeners(other.code) == 1  # B is not sent the other room's events
            host.send(type="start")  # the game goes on across the processes
            guest.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
            guest.close()
            until_listeners(host.code, 1)  # B's last connection to the room gone
            back = Client(url_b)
            back.enter(type="resume", code=host.code, token=guest.token)
            assert listeners(host.code) == 2
            assert back.last is not None and back.last["room"]["status"] == "playing"
            for client in (host, other, back):
                client.close()
    finally:
        db.close()
