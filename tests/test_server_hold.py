"""What one client must not be able to do to the rooms (issue 44, "Hold"), over a live
server on 127.0.0.1 (port 0): make rooms, enter rooms or hold connections without limit
from one address, guess codes with a new socket per attempt, share a seat silently, open
the socket from a page of another origin, keep bots playing in a room nobody is in, leave
rooms behind forever, or print a traceback by going away."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from spades_server.guard import AddressGuard, address_key
from spades_server.server import RunningServer, start_server
from tests.helpers import http_get
from tests.test_server_hostile import StalledReader
from tests.test_server_rooms import TIMEOUT, Client, base_config, over, play_until


def limited(tmp_path: Path, **limits: int) -> RunningServer:
    return start_server(0, config=base_config(tmp_path, **limits))


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[RunningServer]:
    running = limited(tmp_path, address_connections=4, address_creates=3, address_enters=8,
                      address_failures=3)
    try:
        yield running
    finally:
        running.stop()


def refused_on_entering(url: str, **message: object) -> dict[str, object]:
    client = Client(url)
    try:
        client.send(**message)
        return client.until(lambda m: m["type"] in ("joined", "refused"))
    finally:
        client.close()


def test_rooms_made_per_address_are_limited_whatever_the_socket(tight: RunningServer) -> None:
    codes = []
    for _ in range(3):  # each on a new socket: the count is the address's
        answer = refused_on_entering(tight.url, type="create", nickname="Ann")
        assert answer["type"] == "joined"
        codes.append(answer["code"])
    answer = refused_on_entering(tight.url, type="create", nickname="Ann")
    assert answer["type"] == "refused" and answer["reason"] == "too-many-rooms"
    assert answer["request"] == "create" and 1 <= int(answer["params"]["seconds"]) <= 60
    # Joining an existing room is still allowed (within its own limit).
    answer = refused_on_entering(tight.url, type="join", code=codes[0], nickname="Bob")
    assert answer["type"] == "joined"


def test_failed_joins_are_limited_per_address_not_per_connection(tight: RunningServer) -> None:
    """Each guess on a new socket: after three codes that name no room, even the right
    code is refused for the rest of the window (the guesser learns nothing more)."""
    real = refused_on_entering(tight.url, type="create", nickname="Ann")
    assert real["type"] == "joined"
    for guess in ("ACDEFGHJKM", "MKJHGFEDCA", "CDEFGHJKMN"):
        answer = refused_on_entering(tight.url, type="join", code=guess, nickname="Rex")
        assert answer["reason"] == "no-such-room"
    answer = refused_on_entering(tight.url, type="join", code=real["code"], nickname="Rex")
    assert answer["type"] == "refused" and answer["reason"] == "too-many-attempts"
    answer = refused_on_entering(tight.url, type="resume", code=real["code"], token="x" * 20)
    assert answer["reason"] == "too-many-attempts"


def test_entries_per_address_are_limited(tmp_path: Path) -> None:
    running = limited(tmp_path, address_enters=3)
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann")  # the first entry
        for name in ("Bob", "Cy"):
            assert refused_on_entering(running.url, type="join", code=host.code,
                                       nickname=name)["type"] == "joined"
        answer = refused_on_entering(running.url, type="join", code=host.code, nickname="Dee")
        assert answer["type"] == "refused" and answer["reason"] == "too-many-joins"
        host.send(type="ping")  # the seated connection is not affected
        assert host.until(lambda m: m["type"] == "pong")
        host.close()
    finally:
        running.stop()


def test_connections_per_address_are_limited_and_told_why(tight: RunningServer) -> None:
    clients = [Client(tight.url) for _ in range(4)]
    with connect(tight.url.replace("http://", "ws://") + "ws", open_timeout=TIMEOUT) as extra:
        told = json.loads(extra.recv(timeout=TIMEOUT))
        assert told["type"] == "refused" and told["reason"] == "too-many-connections"
        with pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    clients[0].send(type="ping")  # the others are unaffected
    assert clients[0].until(lambda m: m["type"] == "pong")
    clients.pop().close()
    deadline = time.monotonic() + TIMEOUT
    while True:  # the address's place comes back once the server has seen one go
        try:
            clients.append(Client(tight.url))
            break
        except AssertionError:  # its first frame was the refusal, not the welcome
            assert time.monotonic() < deadline
            time.sleep(0.05)
    for client in clients:
        client.close()


def test_the_guard_forgets_a_window_once_it_is_over() -> None:
    now = [1000.0]
    config = base_config(Path("/tmp"), address_creates=2, address_window=60.0)
    guard = AddressGuard(config, clock=lambda: now[0])
    for _ in range(2):
        guard.check("a", "create")
        guard.count("a", "create")
        now[0] += 10
    with pytest.raises(Exception) as refused:
        guard.check("a", "create")
    assert getattr(refused.value, "reason", "") == "too-many-rooms"
    assert refused.value.params == {"seconds": "40"}  # type: ignore[attr-defined]
    guard.check("b", "create")  # another address: its own count
    now[0] += 40  # the first creation leaves the window
    guard.check("a", "create")
    now[0] += 60
    assert guard.forget() == 2 and not guard._events  # "a" and "b": both over


def test_an_ipv6_host_is_counted_by_its_64_network() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::7")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1" == address_key("10.0.0.1")
    assert address_key(None) == "?"


def run_in(running: RunningServer, coroutine: object) -> object:
    """Run ``coroutine`` on the server's event loop (from the test's thread)."""
    loop = running.app.state.manager.loop
    assert isinstance(loop, asyncio.AbstractEventLoop)
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(TIMEOUT)  # type: ignore[arg-type]


def test_a_new_connection_on_a_seat_replaces_the_old_one_which_is_told(
    tmp_path: Path,
) -> None:
    running = limited(tmp_path)
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann", options={"bot_level": "beginner"})
        second = Client(running.url)
        second.enter(type="resume", code=host.code, token=host.token)
        told = host.until(lambda m: m["type"] == "replaced")
        assert told == {"type": "replaced", "code": host.code, "seat": "N"}
        with pytest.raises(ConnectionClosed):
            host.until(lambda m: False)
        assert host.ws.close_code == 4001
        # The new connection holds the seat, shown connected, and acts for it.
        second.send(type="start")
        state = second.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        assert state["room"]["seats"][0]["connected"] is True
        # A third one takes it over again: one live connection per seat, whichever came last.
        third = Client(running.url)
        third.enter(type="resume", code=host.code, token=host.token)
        assert second.until(lambda m: m["type"] == "replaced")["seat"] == "N"
        third.send(type="ping")
        assert third.until(lambda m: m["type"] == "pong")
        manager = running.app.state.manager
        room = manager.rooms[host.code]
        deadline = time.monotonic() + TIMEOUT
        while len(room.connections) != 1:  # the replaced ones are gone from the room
            assert time.monotonic() < deadline
            time.sleep(0.02)
        third.close()
    finally:
        running.stop()


def open_with(url: str, origin: str | None, host: str | None = None) -> int:
    """Open the socket with this Origin (and this Host, as DNS rebinding makes a browser
    send it); 101 when the server accepted, else the HTTP status it answered."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname or "", parts.port or 80), TIMEOUT)
    target = f"ws://{host or parts.netloc}/ws"
    try:
        with connect(target, sock=sock, origin=origin, open_timeout=TIMEOUT) as ws:  # type: ignore[arg-type]
            ws.recv(timeout=TIMEOUT)
            return 101
    except InvalidStatus as refused:
        return int(refused.response.status_code)


def test_the_origin_is_compared_with_the_configured_origins_not_the_host(
    tmp_path: Path,
) -> None:
    running = limited(tmp_path)
    try:
        port = urlsplit(running.url).port
        own = running.url.rstrip("/")
        assert open_with(running.url, own) == 101  # loopback: development works as it is
        assert open_with(running.url, f"http://localhost:{port}") == 101
        assert open_with(running.url, None) == 101  # not a browser
        # DNS rebinding: a page of evil.example whose name now points at this server sends
        # Origin and Host of evil.example: refused.
        rebound = f"evil.example:{port}"
        assert open_with(running.url, f"http://{rebound}", host=rebound) == 403
        assert open_with(running.url, "http://evil.example") == 403
        assert open_with(running.url, "null") == 403
    finally:
        running.stop()
    public = start_server(0, config=base_config(
        tmp_path, allowed_origins=("https://cards.example", "http://10.1.2.3:8000")))
    try:
        assert open_with(public.url, "https://cards.example") == 101
        assert open_with(public.url, "https://CARDS.example:443") == 101
        assert open_with(public.url, "http://10.1.2.3:8000") == 101
        assert open_with(public.url, "http://cards.example") == 403  # not the scheme given
        assert open_with(public.url, public.url.rstrip("/")) == 403  # only what is configured
        assert open_with(public.url, None) == 101
    finally:
        public.stop()


def test_the_origins_come_from_the_command_line_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spades_server.__main__ import main, origins, parse_args

    monkeypatch.setenv("SPADES_ORIGINS", "https://a.example, https://b.example")
    args = parse_args(["--origin", "https://c.example", "--allow-origin", "https://a.example"])
    assert origins(args.origin) == ("https://c.example", "https://a.example", "https://b.example")
    monkeypatch.setenv("SPADES_ORIGINS", "cards.example")  # no scheme: refused at the start
    assert main(["--origin", "https://c.example", "--no-build", "--no-install"]) == 2


def test_each_limit_of_the_command_line_sets_its_own_setting() -> None:
    from spades_server.__main__ import make_config, parse_args
    from spades_server.config import Config

    defaults = make_config(parse_args([]))
    assert defaults.address_enters == Config().address_enters
    assert defaults.finished_kept == Config().finished_kept
    # secret deals unless a test asks for a seed (never in production: docs/server.md)
    assert defaults.deal_seed is None and Config().deal_seed is None
    assert make_config(parse_args(["--deal-seed", "7"])).deal_seed == 7
    with pytest.raises(ValueError):
        Config(deal_seed=-1)
    config = make_config(parse_args([
        "--address-connections", "3", "--address-creates", "4", "--address-joins", "6",
        "--address-failures", "7", "--sweep-interval", "1.5", "--idle-expiry", "60",
        "--finished-kept", "120.5", "--max-rooms", "9", "--address-ranked", "2"]))
    assert (config.address_connections, config.address_creates, config.address_enters,
            config.address_failures, config.max_rooms_loaded, config.address_ranked) == (
                3, 4, 6, 7, 9, 2)
    assert (config.sweep_interval, config.idle_expiry, config.finished_kept) == (1.5, 60, 120.5)
    with pytest.raises(SystemExit):  # a count is a whole number
        parse_args(["--address-creates", "2.5"])


def wait_until(test: Callable[[], bool]) -> None:
    """Poll the server's state (not a fixed time) until ``test()``; fail after TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while not test():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.02)


def test_a_room_with_nobody_in_it_sleeps_and_wakes_when_a_person_comes_back(
    tmp_path: Path,
) -> None:
    """Two players nudge each other (take-over at once) so that bots play all four seats,
    then both leave: the bots stop (the game is not over and nothing runs); when one comes
    back the game goes on."""
    running = limited(tmp_path, nudge_after=0.0)
    try:
        north = Client(running.url)
        north.enter(type="create", nickname="Ann", seat="N",
                    options={"takeover_seconds": 0, "target": 10_000, "blind_nil": False,
                             "bot_level": "beginner"})
        south = Client(running.url)
        south.enter(type="join", code=north.code, nickname="Sam", seat="S")
        north.send(type="start")
        while True:
            message = north.recv()
            if message["type"] != "state" or message["view"] is None:
                continue
            seats, to_act = message["room"]["seats"], message["view"]["to_act"]
            if seats[0]["away"] and seats[2]["away"]:
                break
            if message["room"]["nudge"] is None:
                if to_act == "S" and not seats[2]["away"]:
                    north.send(type="nudge")
                elif to_act == "N" and not seats[0]["away"]:
                    south.send(type="nudge")
        north.close()
        south.close()
        room = running.app.state.manager.rooms[north.code]
        wait_until(lambda: not room.connections and not room.driving())
        version = room.version()
        assert room.status == "playing" and room.asleep()
        assert room.state is not None and room.bot_plays(room.state.to_act)
        # Nothing is left to run it: the same position when someone looks later.
        back = Client(running.url)
        back.enter(type="resume", code=north.code, token=south.token)
        back.seat = "S"
        assert back.last is not None and back.last["version"] == version
        # South is back (a resume): the bots play again, South plays its own turns.
        final = play_until(back, lambda view: False if view is None else
                           back.last is not None and back.last["version"] >= version + 12)
        assert final["version"] >= version + 12
        back.close()
    finally:
        running.stop()


def test_the_sweep_deletes_idle_rooms_and_keeps_finished_games_for_their_time(
    tmp_path: Path,
) -> None:
    running = limited(tmp_path, idle_expiry=100.0, finished_kept=1000.0, sweep_interval=3600.0)
    try:
        idle = Client(running.url)
        idle.enter(type="create", nickname="Ann")
        idle.close()
        busy = Client(running.url)
        busy.enter(type="create", nickname="Bob")
        done = Client(running.url)
        done.enter(type="create", nickname="Cy", options={"target": 50, "bot_level": "beginner"})
        done.send(type="start")
        play_until(done, over)
        done.close()
        manager = running.app.state.manager
        record = f"/api/rooms/{done.code}/record?token={done.token}"
        assert http_get(running.url, record)[0] == 200
        wait_until(lambda: not manager.rooms[idle.code].connections)

        def sweep(after: float) -> list[str]:
            found = run_in(running, manager.sweeper.sweep(time.time() + after))
            assert isinstance(found, list)
            return found

        assert sweep(50) == []  # nothing is old enough yet
        assert sweep(200) == [idle.code]  # idle for 200 s > 100: gone; the busy one stays
        answer = refused_on_entering(running.url, type="resume", code=idle.code,
                                     token=idle.token)
        assert answer["reason"] == "bad-token"
        assert http_get(running.url, record)[0] == 200  # a finished game's record is kept...
        assert set(sweep(2000)) == {done.code}  # ...for finished_kept, then deleted
        assert http_get(running.url, record)[0] == 403
        assert manager.store.load(done.code) is None and idle.code not in manager.rooms
        busy.send(type="ping")  # the room with a person in it is untouched
        assert busy.until(lambda m: m["type"] == "pong")
        assert manager.store.load(busy.code) is not None
        busy.close()
    finally:
        running.stop()


def test_the_sweep_runs_on_its_own_schedule(tmp_path: Path) -> None:
    running = limited(tmp_path, idle_expiry=0.0, sweep_interval=0.05)
    try:
        player = Client(running.url)
        player.enter(type="create", nickname="Ann")
        player.close()
        store = running.app.state.manager.store
        wait_until(lambda: store.load(player.code) is None)
    finally:
        running.stop()


LINGER_RESET = struct.pack("ii", 1, 0)  # close() then sends a reset, not a FIN


class RawSocket:
    """A WebSocket at the byte level (the hostile test's StalledReader): what it sends,
    and when it goes, is the test's choice."""

    def __init__(self, url: str) -> None:
        self.reader = StalledReader(url)
        self.sock = self.reader.sock

    def send(self, **message: object) -> None:
        self.reader.send(**message)

    def frames(self) -> Iterator[Frame]:
        """The frames the server sends, as they come: first those already read with the
        handshake's answer (on a loaded machine the server's first ping came in the same
        read, and the next one never comes: it waits for the pong)."""
        protocol = self.reader.protocol
        while True:
            for event in protocol.events_received():
                if isinstance(event, Frame):  # (not the handshake's answer)
                    yield event
            data = self.sock.recv(65536)
            if not data:
                return
            protocol.receive_data(data)

    def reset(self) -> None:
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RESET)
        self.sock.close()


def test_every_expected_disconnect_is_quiet(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
) -> None:
    """Sockets that go away abruptly (a reset) during a ping of the server's, right after
    a ``ping`` of theirs, in the middle of a flood of frames, mid-handshake, after their
    close frame, after a frame over the limit, and while the server stops: the server's
    log holds no traceback."""
    caplog.set_level(logging.DEBUG)
    running = limited(tmp_path, ws_ping_interval=0.05)
    stopped = False
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann", options={"bot_level": "beginner"})
        host.send(type="start")
        host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        # 1. A keepalive ping of the server's is never answered: reset once it has come.
        pinged = RawSocket(running.url)
        assert any(frame.opcode is Opcode.PING for frame in pinged.frames())
        pinged.reset()
        # 2. A ``ping`` then a reset at once (the pong goes to a socket that is gone).
        for _ in range(5):
            quick = RawSocket(running.url)
            quick.send(type="ping")
            quick.reset()
        # 3. Mid-flood: a seat's socket resets while the server sends it state after state.
        flood = RawSocket(running.url)
        flood.send(type="join", code=host.code, nickname="Rex", seat="E")
        for _ in range(300):
            flood.send(type="look")
        flood.reset()
        # 4. Mid-handshake.
        parts = urlsplit(running.url)
        half = socket.create_connection((parts.hostname or "", parts.port or 80), TIMEOUT)
        half.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
        half.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RESET)
        half.close()
        # 5. A close frame, then a reset before the server's answer is read.
        closing = RawSocket(running.url)
        closing.reader.protocol.send_close(1000)
        closing.reader._flush()
        closing.reset()
        # 6. A frame over the limit (the server closes 1009), reset at once.
        big = RawSocket(running.url)
        big.send(type="chat", phrase="x" * 10_000)
        big.reset()
        # The server is still well: the host's game goes on, bots and all.
        host.send(type="ping")
        assert host.until(lambda m: m["type"] == "pong")
        wait_until(lambda: running.app.state.manager.guard.connections.get("127.0.0.1") == 1)
        # 7. The server stops while a game is on and its socket is open.
        running.stop()
        stopped = True
        with pytest.raises(Exception):  # noqa: B017 - the socket is gone, whatever the error
            host.until(lambda m: False)
    finally:
        if not stopped:
            running.stop()
    out, err = capfd.readouterr()
    logged = [record for record in caplog.records  # the server's (not the test clients')
              if not record.name.startswith("websockets.client")
              and (record.exc_info or "Traceback" in record.getMessage())]
    assert "Traceback" not in out + err, out + err
    assert not logged, [record.getMessage() for record in logged]


def test_the_bytes_of_a_room_are_measured() -> None:
    """``python3 -m spades_server measure`` (docs/server.md quotes its figures), small."""
    from spades_server.measure import main

    out = io.StringIO()
    codes: list[int] = []

    def measure() -> None:  # in a thread of its own: the command runs its own event loop
        # (asyncio.run), and a browser test earlier in the process may leave one running here
        with contextlib.redirect_stdout(out):
            codes.append(main(["--rooms", "20", "--games", "1"]))

    worker = threading.Thread(target=measure)
    worker.start()
    worker.join(TIMEOUT * 6)
    assert codes == [0]
    result = json.loads(out.getvalue())
    assert 300 < result["new_room"]["row_bytes"] < 2000
    assert result["new_room"]["sqlite_bytes_per_room"] > 0
    assert result["finished_game"]["record_bytes_mean"] > result["new_room"]["row_bytes"]
