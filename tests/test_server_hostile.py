"""Hostile frames on the rooms' socket: bad JSON, bytes that are not UTF-8, deep nesting,
wrong types, NaN, huge frames, actions for another seat or out of turn, floods. Each gets a
clear refusal (or, for a frame over the limit, a close 1009 of that connection only), and the
room plays on to the end of a hand for everyone else."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from spades_server.server import RunningServer, start_server
from tests.test_server_rooms import Client, Leaks, base_config, play_until, run_all

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
    ('{"type": "resume", "code": "ACDEFG", "token": 5}', "bad-field"),
    ('{"type": "nudge", "seat": "N"}', "unknown-field"),
    ('{"type": "start"}', "already-started"),
    ('{"type": "join", "code": "ACDEFG", "nickname": "x"}', "already-joined"),
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


@pytest.fixture
def leaks() -> Leaks:
    return Leaks()


@pytest.fixture
def server(tmp_path: Path, leaks: Leaks) -> Iterator[RunningServer]:
    running = start_server(0, config=base_config(tmp_path), observe=leaks.observe)
    try:
        yield running
    finally:
        running.stop()
    assert leaks.found == []


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
