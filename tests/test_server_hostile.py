"""Hostile frames on the rooms' socket: bad JSON, bytes that are not UTF-8, deep nesting,
wrong types, NaN, huge frames, actions for another seat or out of turn, floods. Each gets a
clear refusal (or, for a frame over the limit, a close 1009 of that connection only), and the
room plays on to the end of a hand for everyone else."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State
from websockets.uri import parse_uri

from spades_server.connection import Connection
from spades_server.server import RunningServer, start_server
from tests import test_server_rooms
from tests.helpers import run_async
from tests.test_server_rooms import (
    TIMEOUT,
    Client,
    base_config,
    four_players,
    play_until,
    run_all,
)

# The fixtures: a server whose every frame is checked for leaks, as in test_server_rooms.py.
leaks, server = test_server_rooms.leaks, test_server_rooms.server

HOSTILE: list[tuple[str | bytes, str]] = [
    ("", "bad-json"),
    ("null", "bad-json"),
    ('"play"', "bad-json"),
    ("{}", "unknown-type"),
    ('{"type": 7}', "unknown-type"),
    ('{"type": ["play"]}', "unknown-type"),
    ('{"type": "__class__"}', "unknown-type"),
    (b"\xff\xfe{", "bad-json"),
    ('{"type": "ping", "x": ' + "[" * 2000 + "]" * 2000 + "}", "bad-json"),  # too deep
    ('{"type": "play", "card": 12}', "bad-field"),
    ('{"type": "play", "card": null}', "bad-field"),
    ('{"type": "play", "card": "AS", "seat": 2}', "bad-field"),
    ('{"type": "bid", "bid": {"n": 3}}', "bad-field"),
    ('{"type": "bid", "bid": "NaN"}', "bad-bid"),
    ('{"type": "play", "card": "ZZ"}', "bad-play"),
    # the record's notation only: no "10S", lower case, spaces or "0" for Nil
    ('{"type": "play", "card": "10S"}', "bad-play"),
    ('{"type": "play", "card": "qs"}', "bad-play"),
    ('{"type": "play", "card": " QS"}', "bad-play"),
    ('{"type": "bid", "bid": "0"}', "bad-bid"),
    ('{"type": "bid", "bid": "NIL"}', "bad-bid"),
    ('{"type": "bid", "bid": "04"}', "bad-bid"),
    ('{"type": "chat", "phrase": ["chat.hello"]}', "bad-field"),
    ('{"type": "chat", "phrase": "chat.__init__"}', "unknown-phrase"),
    ('{"type": "resume", "code": "ACDEFGHJKM", "token": 5}', "bad-field"),
    ('{"type": "nudge", "seat": "N"}', "unknown-field"),
    ('{"type": "start"}', "already-started"),
    ('{"type": "join", "code": "ACDEFGHJKM", "nickname": "x"}', "already-joined"),
    ('{"type": "move", "from": "N", "to": "E"}', "already-started"),
    ('{"type": "move", "from": "N"}', "missing-field"),
    ('{"type": "move", "from": "N", "to": null}', "bad-field"),
    ('{"type": "move", "from": "n", "to": "E"}', "bad-field"),
    ('{"type": "move", "from": "N", "to": "E", "x": 1}', "unknown-field"),
]
NUMBERS: list[str] = [
    '{"type": "create", "nickname": "a", "options": {"target": NaN}}',
    '{"type": "create", "nickname": "a", "options": {"target": 1e400}}',
    '{"type": "create", "nickname": "a", "options": {"target": true}}',
    '{"type": "create", "nickname": "a", "options": {"takeover_seconds": Infinity}}',
    '{"type": "create", "nickname": "a", "options": []}',
    '{"type": "create", "nickname": {"a": 1}}',
]


def test_hostile_frames_are_refused_and_the_room_plays_on(server: RunningServer) -> None:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="N",
               options={"blind_nil": False, "bot_level": "beginner"})
    rogue = Client(server.url)
    rogue.enter(type="join", code=host.code, nickname="Rex", seat="E")
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    for text, reason in HOSTILE:
        rogue.ws.send(text)
        refusal = rogue.refusal()
        assert refusal["reason"] == reason, (text[:60], refusal)
    for text in NUMBERS:
        rogue.ws.send(text)
        assert rogue.refusal()["reason"] in ("bad-option", "bad-field", "bad-nickname",
                                             "already-joined"), text
    # Out of turn, and for another seat: refused, nothing moves.
    state = rogue.last  # the latest state the rogue was sent
    assert state is not None
    version = state["version"]
    if state["view"]["to_act"] != "E":
        rogue.send(type="bid", bid="3")
        assert rogue.refusal()["reason"] in ("not-your-turn", "not-bidding", "not-playing")
    rogue.send(type="bid", bid="3", seat="N")
    assert rogue.refusal()["reason"] == "not-your-seat"
    rogue.send(type="play", card="2C", seat="W")
    assert rogue.refusal()["reason"] == "not-your-seat"
    # A frame over the limit closes the rogue's connection only.
    rogue.ws.send(json.dumps({"type": "chat", "phrase": "x" * 100_000}))
    with pytest.raises(ConnectionClosed):
        rogue.until(lambda m: False)
    assert rogue.ws.close_code == 1009
    # The room is unaffected: the rogue's seat is still its (it may come back), and the
    # others play a whole hand; the rogue resumes and plays on too.
    back = Client(server.url)
    joined = back.enter(type="resume", code=rogue.code, token=rogue.token)
    assert joined["seat"] == "E" and back.last is not None
    assert back.last["version"] >= version
    back.seat = "E"
    done: dict[str, object] = {}

    def run_back() -> None:
        try:
            done["back"] = play_until(back, lambda view: view["hand_index"] >= 1)
        except BaseException as error:
            done["back"] = error

    thread = threading.Thread(target=run_back)
    thread.start()
    final = play_until(host, lambda view: view["hand_index"] >= 1)
    thread.join(60)
    assert not isinstance(done.get("back"), BaseException), done
    assert len(final["view"]["past_hands"][0]["plays"]) == 52
    host.close()
    back.close()


def test_a_flood_of_actions_from_one_seat_is_cut_and_the_room_plays_on(tmp_path: Path) -> None:
    running = start_server(
        0, config=base_config(tmp_path, messages_per_window=20, message_window=1.0)
    )
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann", seat="N",
                   options={"blind_nil": False, "bot_level": "beginner"})
        rogue = Client(running.url)
        rogue.enter(type="join", code=host.code, nickname="Rex", seat="E")
        host.send(type="start")
        for _ in range(60):  # out-of-turn bids, as fast as the socket takes them
            rogue.send(type="bid", bid="13")
        reasons = []
        while len(reasons) < 60:
            message = rogue.recv()
            if message["type"] == "refused":
                reasons.append(message["reason"])
        assert "rate-limited" in reasons
        assert set(reasons) <= {"rate-limited", "not-your-turn", "not-started", "not-bidding"}
        time.sleep(1.1)  # the window is over: the rogue may act again, and plays on
        finals = run_all([host, rogue], lambda view: len(view["plays"]) >= 8)
        assert all(final["view"]["phase"] == "playing" for final in finals)
        host.close()
        rogue.close()
    finally:
        running.stop()


def test_a_guest_cannot_seat_anyone_and_the_room_plays_on(server: RunningServer) -> None:
    """In the waiting room a guest's ``move`` and ``start`` (only the host's), malformed
    ones and a flood of them are refused; the seats stay where they were and the host
    starts the game, which plays on."""
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="N",
               options={"blind_nil": False, "bot_level": "beginner"})
    rogue = Client(server.url)
    rogue.enter(type="join", code=host.code, nickname="Rex", seat="E")
    attempts = [
        ('{"type": "move", "from": "N", "to": "S"}', "not-host"),
        ('{"type": "move", "from": "E", "to": "W"}', "not-host"),
        ('{"type": "move", "from": "E", "to": "E"}', "not-host"),
        ('{"type": "start"}', "not-host"),
        ('{"type": "move", "from": "E", "to": "W", "token": "x"}', "unknown-field"),
        ('{"type": "move", "from": {"seat": "E"}, "to": "W"}', "bad-field"),
        ('{"type": "move", "from": "E", "to": "' + "W" * 3000 + '"}', "bad-field"),
    ]
    for text, reason in attempts * 3:
        rogue.ws.send(text)
        assert rogue.refusal()["reason"] == reason, text[:60]
    rogue.send(type="ping")
    rogue.until(lambda m: m["type"] == "pong")
    host.send(type="ping")
    host.until(lambda m: m["type"] == "pong")
    for client in (host, rogue):
        assert client.last is not None
        seats = client.last["room"]["seats"]
        assert [seat["nickname"] for seat in seats] == ["Ann", "Rex", None, None]
        assert client.last["room"]["status"] == "waiting" and client.last["room"]["host"] == "N"
    host.send(type="start")
    finals = run_all([host, rogue], lambda view: len(view["plays"]) >= 8)
    assert [final["view"]["seat"] for final in finals] == ["N", "E"]
    host.close()
    rogue.close()


TCP_ESTABLISHED = 1  # tcpi_state in Linux's struct tcp_info


class StalledReader:
    """A raw WebSocket with a 4 KiB receive buffer that, once it has sent its messages,
    never reads again: whatever the server sends it piles up on the server's side."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(TIMEOUT)
        self.sock.connect((parts.hostname or "", parts.port or 80))
        self.protocol = ClientProtocol(parse_uri(url.replace("http://", "ws://") + "ws"))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while self.protocol.state is State.CONNECTING:  # the handshake's answer, no more
            data = self.sock.recv(4096)
            assert data, "the server closed the handshake"
            self.protocol.receive_data(data)
        assert self.protocol.state is State.OPEN, self.protocol.handshake_exc

    def _flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def send(self, **message: Any) -> None:
        self.protocol.send_text(json.dumps(message).encode())
        self._flush()

    def open(self) -> bool:
        """Whether the TCP connection is still established (asked of the kernel: no read)."""
        info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
        return bool(struct.unpack("B", info[:1])[0] == TCP_ESTABLISHED)

    def close(self) -> None:
        self.sock.close()


def _flood(client: Client, code: str, stop: threading.Event, report: dict[str, Any]) -> None:
    """A spectator that comes and goes (``watch`` then ``leave``), in batches, reading each
    batch's answers before the next (so the flooder itself keeps up), until ``stop`` or the
    server stops answering: each time the room's spectator count changes, every seat gets a
    ``state`` (a ``look`` no longer makes one for the others: their view is unchanged)."""
    batch = 20
    try:
        while not stop.is_set():
            for _ in range(batch):
                client.send(type="watch", code=code)
                client.send(type="leave")
            answered = 0
            while answered < batch:
                message = client.recv()
                if message["type"] == "refused":
                    raise AssertionError(message)
                if message["type"] == "left":
                    answered += 1
            report["frames"] = report.get("frames", 0) + 2 * batch
    except (TimeoutError, ConnectionClosed, OSError, AssertionError) as error:
        report["error"] = repr(error)


def moves(state: dict[str, Any] | None) -> int:
    """How many cards the game has seen played, from a ``state`` frame."""
    assert state is not None
    view = state["view"]
    return 52 * len(view["past_hands"]) + len(view["plays"])


def test_a_socket_that_stops_reading_stalls_nobody_and_is_closed(tmp_path: Path) -> None:
    """A seat resumed on a socket that never reads (its player's page is told it was
    replaced: one live connection per seat), while a spectator comes and goes again and
    again (a state to every seat each time): every player still gets each frame (the
    broadcasts never wait on the stalled socket), new connections are still served, and the
    stalled socket is closed once its queue is full (its seat simply offline); the seat's
    token then resumes it and the game goes on."""
    running = start_server(0, config=base_config(tmp_path))
    stalled: StalledReader | None = None
    stop = threading.Event()
    report: dict[str, Any] = {}
    flooder_thread: threading.Thread | None = None
    try:
        clients = four_players(running, {"blind_nil": False, "bot_level": "beginner"})
        north, east, south, west = clients
        run_all(clients, lambda view: view["phase"] == "playing")  # the bids are in
        stalled = reader = StalledReader(running.url)
        reader.send(type="resume", code=east.code, token=east.token)
        assert east.until(lambda m: m["type"] == "replaced")["seat"] == "E"
        east.close()
        flooder = Client(running.url)
        flooder_thread = threading.Thread(target=_flood,
                                          args=(flooder, north.code, stop, report))
        flooder_thread.start()
        # South and West read every frame the flood makes (and play their turns) until the
        # server has closed the socket that does not read (play_until waits at most
        # TIMEOUT for each frame).
        run_all([south, west], lambda view: not reader.open())
        stop.set()
        flooder_thread.join(TIMEOUT * 2)
        assert "error" not in report, report
        assert report["frames"] >= 1000  # enough to fill the kernel's buffers
        flooder.close()
        # A new connection is served at once, and the room plays on: East comes back.
        back = Client(running.url)
        back.enter(type="resume", code=east.code, token=east.token)
        back.seat = "E"
        clients = [north, back, south, west]
        north.send(type="ping")  # North read nothing during the flood: its frames first
        north.until(lambda m: m["type"] == "pong")
        played = [moves(client.last) for client in clients]
        finals = run_all(clients, lambda view: moves({"view": view}) >= max(played) + 4)
        assert len({moves(final) for final in finals}) == 1
        for client in clients:  # each reads what is left, then closes at once
            client.send(type="ping")
            client.until(lambda m: m["type"] == "pong")
            client.close()
    finally:
        stop.set()
        if flooder_thread is not None:
            flooder_thread.join(TIMEOUT * 2)
        if stalled is not None:
            stalled.close()
        running.stop()


def test_a_connection_queues_without_waiting_and_drops_a_peer_that_does_not_read() -> None:
    """``Connection.post`` never waits: the frames go out in order from the connection's own
    task; past the queue's bound, or when the socket takes no frame within the time-out,
    the connection is dropped (aborted) and takes no more frames."""

    async def until(test: Any) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not test():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        sent: list[str] = []
        taken = asyncio.Event()  # the socket takes frames once this is set

        async def send(text: str) -> None:
            await taken.wait()
            sent.append(text)
            await asyncio.sleep(0)

        aborted: list[str] = []
        full = Connection(send, queue_limit=100, send_timeout=60,
                          abort=lambda: aborted.append("full"))
        assert full.post("a" * 60) and full.post("b" * 40)  # 100: at the bound
        assert not full.post("c")  # over it: dropped at once
        assert full.dropped == "queue-full" and full.closed and aborted == ["full"]
        assert not full.post("d") and aborted == ["full"]

        slow = Connection(send, queue_limit=10_000, send_timeout=0.2,
                          abort=lambda: aborted.append("slow"))
        assert slow.post("x")
        await until(lambda: slow.dropped is not None)
        assert slow.dropped == "send-timeout" and aborted == ["full", "slow"]

        taken.set()
        quick = Connection(send, queue_limit=10_000, send_timeout=60,
                           abort=lambda: aborted.append("quick"))
        for index in range(200):
            assert quick.post(str(index))
        await until(lambda: len(sent) == 200)
        assert sent == [str(index) for index in range(200)] and quick.queued_size == 0
        quick.close()
        assert not quick.post("after") and aborted == ["full", "slow"]

    run_async(scenario())
