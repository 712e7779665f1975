"""What a card room offers (issue 44, "Feel"), over a live server on 127.0.0.1 (port 0) with
real sockets: a rematch from the end of a game, leaving (the seat free at once), the host
freeing a seat, opening the bots' seats, passing on the host's role, presence and the turn's
timer in the state, who sits where before joining, and spectators who never get a card that
has not been played. The server's log must hold no traceback."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spades_server.server import RunningServer, start_server
from tests.test_server_rooms import (
    MAX_FRAMES,
    Client,
    Leaks,
    base_config,
    four_players,
    over,
    play_until,
    run_all,
)


@pytest.fixture
def quiet(caplog: pytest.LogCaptureFixture,
          capfd: pytest.CaptureFixture[str]) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    out, err = capfd.readouterr()
    logged = [record.getMessage() for record in caplog.records
              if not record.name.startswith("websockets.client")
              and (record.exc_info or "Traceback" in record.getMessage())]
    assert "Traceback" not in out + err, out + err
    assert not logged, logged


@pytest.fixture
def leaks() -> Leaks:
    return Leaks()


@pytest.fixture
def server(tmp_path: Path, leaks: Leaks, quiet: None) -> Iterator[RunningServer]:
    # A nudge is allowed only after a minute: nothing here may wait on the take-over.
    running = start_server(0, config=base_config(tmp_path, nudge_after=60.0),
                           observe=leaks.observe)
    try:
        yield running
    finally:
        running.stop()
    assert leaks.found == []


def state(message: dict[str, Any]) -> bool:
    return message["type"] == "state"


def nicknames(message: dict[str, Any]) -> list[str | None]:
    return [seat["nickname"] for seat in message["room"]["seats"]]


def test_a_rematch_keeps_seats_and_rules_and_a_seat_that_declines_goes_to_a_bot(
    server: RunningServer, leaks: Leaks,
) -> None:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="N",
               options={"target": 100, "bot_level": "beginner"})
    guest = Client(server.url)
    guest.enter(type="join", code=host.code, nickname="Bob", seat="E")
    host.send(type="rematch")
    assert host.refusal()["reason"] == "not-over"  # not before the end
    host.send(type="start")
    finals = run_all([host, guest], over)
    ended = finals[0]
    assert ended["room"]["status"] == "over" and ended["room"]["rematch"] == []
    host.send(type="rematch")
    asked = guest.until(lambda m: state(m) and m["room"]["rematch"] == ["N"])
    assert asked["room"]["status"] == "over"  # the others have not answered yet
    guest.send(type="leave")  # Bob declines: his seat is free, a bot will play it
    left = guest.until(lambda m: m["type"] == "left")
    assert left == {"type": "left", "code": host.code, "seat": "E", "by": "self"}
    again = host.until(lambda m: state(m) and m["room"]["status"] == "playing")
    assert nicknames(again) == ["Ann", None, None, None]
    assert again["room"]["seats"][1]["bot"] is True
    assert again["room"]["options"] == ended["room"]["options"]  # the same rules
    view = again["view"]
    assert view["hand_index"] == 0 and view["past_hands"] == [] and view["scores"] == [0, 0]
    assert view["hand"] is None  # a new first hand: not looked at yet (Blind Nil is on)
    assert again["version"] > ended["version"]  # versions go on: a page acts once per version
    # The new game plays (the bot in Bob's seat too) with a new deal.
    first = play_until(host, lambda v: v["hand"] is not None)["view"]["hand"]
    assert len(first) == 13
    play_until(host, lambda v: len(v["plays"]) >= 4)
    guest.send(type="bid", bid="3")  # the old socket acts for no seat any more
    assert guest.refusal()["reason"] == "not-seated"
    for client in (host, guest):
        client.close()


def test_leave_frees_the_seat_at_once_the_host_frees_and_opens_seats_and_passes_on(
    server: RunningServer,
) -> None:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="N",
               options={"bot_level": "beginner", "takeover_seconds": 600})
    east, south = Client(server.url), Client(server.url)
    east.enter(type="join", code=host.code, nickname="Bob", seat="E")
    south.enter(type="join", code=host.code, nickname="Cy", seat="S")
    host.send(type="start")
    # South's turn comes (East deals: South bids first); South leaves instead of acting: a
    # bot acts for South at once, not after a nudge (60 s) and a take-over (600 s).
    turn = south.until(lambda m: state(m) and m["view"] and m["view"]["to_act"] == "S")
    south.send(type="leave")
    assert south.until(lambda m: m["type"] == "left")["by"] == "self"
    # (nobody nudges here, and a nudge is allowed only after 60 s: South's bid is a bot's
    # because South left; the wait is on the frames, each within TIMEOUT, not on a clock)
    moved = east.until(lambda m: state(m) and m["version"] > turn["version"]
                       and m["view"]["bids"][2] is not None)
    assert moved["room"]["nudge"] is None and nicknames(moved) == ["Ann", "Bob", None, None]
    assert moved["room"]["seats"][2]["bot"] is True
    # Cy may not take a bot's seat back unless the host opens the seats.
    south.send(type="join", code=host.code, nickname="Cy", seat="S")
    assert south.refusal()["reason"] == "seats-closed"
    east.send(type="open", open=True)
    assert east.refusal()["reason"] == "not-host"
    host.send(type="open", open=True)
    host.until(lambda m: state(m) and m["room"]["open"] is True)
    joined = south.enter(type="join", code=host.code, nickname="Cy", seat="S")
    assert joined["seat"] == "S" and south.last is not None and south.last["view"] is not None
    # The host frees a seat (East); only the host, never its own, never a bot's.
    east.send(type="free", seat="S")
    assert east.refusal()["reason"] == "not-host"
    for seat in ("N", "W"):
        host.send(type="free", seat=seat)
        assert host.refusal()["reason"] == "no-player"
    host.send(type="free", seat="E")
    assert east.until(lambda m: m["type"] == "left") == {
        "type": "left", "code": host.code, "seat": "E", "by": "host"}
    freed = south.until(lambda m: state(m) and m["room"]["seats"][1]["nickname"] is None)
    assert freed["room"]["seats"][1]["bot"] and freed["room"]["host"] == "N"
    # The host leaves: the role passes to the next person seated, clockwise (South).
    host.send(type="leave")
    passed = south.until(lambda m: state(m) and m["room"]["seats"][0]["nickname"] is None)
    assert passed["room"]["host"] == "S"
    south.send(type="open", open=False)
    south.until(lambda m: state(m) and m["room"]["open"] is False)
    for client in (host, east, south):
        client.close()


def test_presence_the_turn_timer_and_who_sits_where_before_joining(
    server: RunningServer,
) -> None:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="N",
               options={"bot_level": "beginner", "takeover_seconds": 15})
    guest = Client(server.url)
    guest.enter(type="join", code=host.code, nickname="Bob", seat="S")
    # The join dialog's look: who sits where, which seats are free (no seat taken by it).
    looker = Client(server.url)
    looker.send(type="peek", code=host.code.lower())
    seen = looker.until(lambda m: m["type"] == "room")
    assert seen["code"] == host.code and seen["status"] == "waiting" and seen["host"] == "N"
    assert [(s["seat"], s["nickname"], s["free"]) for s in seen["seats"]] == [
        ("N", "Ann", False), ("E", None, True), ("S", "Bob", False), ("W", None, True)]
    looker.send(type="peek", code="ACDEFGHJKM")
    assert looker.refusal()["reason"] == "no-such-room"
    # Presence: South's page goes, North sees it offline; it comes back, online.
    guest.close()
    gone = host.until(lambda m: state(m) and not m["room"]["seats"][2]["connected"])
    assert gone["room"]["seats"][0]["connected"] and gone["room"]["seats"][2]["nickname"] == "Bob"
    back = Client(server.url)
    back.enter(type="resume", code=host.code, token=guest.token)
    host.until(lambda m: state(m) and m["room"]["seats"][2]["connected"])
    # The turn's timer: the seat to act, since when, when a nudge is allowed, and once
    # nudged when a bot takes over (the server's clock is sent along).
    started = time.time()
    host.send(type="start")
    turn = host.until(lambda m: state(m) and m["view"] and m["view"]["to_act"] == "S")
    timer = turn["room"]["timer"]
    assert timer["seat"] == "S" and timer["takeover_at"] is None
    assert timer["nudge_at"] == pytest.approx(timer["since"] + 60.0, abs=0.01)
    # the server's clock when it sent the frame: after the start, before the frame was read
    # (bounds that hold however late a loaded machine reads it)
    assert started - 1 <= turn["room"]["clock"] <= time.time() + 1
    assert timer["since"] <= turn["room"]["clock"] <= timer["nudge_at"]
    room = server.app.state.manager.rooms[host.code]
    room.last_move -= 61  # as if South had thought for a minute (no test waits for it)
    host.send(type="nudge")
    nudged = host.until(lambda m: state(m) and m["room"]["nudge"])
    takeover = nudged["room"]["timer"]["takeover_at"]
    assert takeover == pytest.approx(nudged["room"]["clock"] + 15, abs=1)
    # A bot's turn has no timer.
    back.send(type="look")
    seen_hand = back.until(lambda m: state(m) and m["view"]["hand"])["view"]
    bid = next(b for b in seen_hand["legal_bids"] if b not in ("nil", "blind-nil"))
    back.send(type="bid", bid=bid)
    after = host.until(lambda m: state(m) and m["view"]["bids"][2] is not None
                       and m["view"]["to_act"] == "W")
    assert after["room"]["timer"] is None and after["room"]["nudge"] is None
    for client in (host, back, looker):
        client.close()


def test_a_spectator_sees_the_table_and_never_a_card_not_played(
    server: RunningServer, leaks: Leaks,
) -> None:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="S",
               options={"target": 100, "bot_level": "beginner"})
    watcher = Client(server.url)
    watcher.send(type="watch", code=host.code)
    joined = watcher.until(lambda m: m["type"] == "joined")
    assert joined == {"type": "joined", "code": host.code, "seat": None, "public": False,
                      "watching": True}
    first = watcher.until(state)
    assert first["seat"] is None and first["view"] is None
    assert nicknames(first) == ["Ann" if s == "S" else None for s in "NESW"]
    host.until(lambda m: state(m) and m["room"]["spectators"] == 1)
    # A spectator holds no seat: it cannot act, and it does not keep a room awake.
    watcher.send(type="start")
    assert watcher.refusal()["reason"] == "not-seated"
    watcher.send(type="join", code=host.code, nickname="Rex")
    assert watcher.refusal()["reason"] == "already-joined"
    frames = 0
    host.send(type="start")
    final = play_until(host, over)
    # every frame of the game, read once the game is over (each within TIMEOUT: the whole
    # read is not timed, which a loaded machine stretches)
    for _ in range(MAX_FRAMES):
        message = watcher.recv()
        if not state(message):
            continue
        frames += 1
        view = message["view"]
        assert view["hand"] is None and view["legal_plays"] == [] and view["legal_bids"] == []
        if view["phase"] == "over":
            break
    assert view["scores"] == final["view"]["scores"] and frames > 50
    assert leaks.frames > 2 * frames  # every frame to the spectator was checked (Leaks)
    watcher.send(type="leave")
    assert watcher.until(lambda m: m["type"] == "left")["seat"] is None
    host.until(lambda m: state(m) and m["room"]["spectators"] == 0)
    for client in (host, watcher):
        client.close()


def test_a_broadcast_builds_the_spectators_view_once_for_them_all(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two spectators of a game: each state is built once for both (one view per seat and
    broadcast, not one per socket), and both get it (all but those that did not change what
    a spectator sees: the host looking at its cards)."""
    from spades_server import broadcast

    built = [0]
    broadcasts = [0]
    original = broadcast.watcher_json
    original_state = broadcast.Broadcast.state

    def counted(*args: Any, **kwargs: Any) -> Any:
        built[0] += 1
        return original(*args, **kwargs)

    def counted_state(self: Any) -> None:
        broadcasts[0] += 1
        original_state(self)

    monkeypatch.setattr(broadcast, "watcher_json", counted)
    monkeypatch.setattr(broadcast.Broadcast, "state", counted_state)
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="S",
               options={"target": 100, "bot_level": "beginner"})
    watchers = [Client(server.url) for _ in range(2)]
    for watcher in watchers:
        watcher.send(type="watch", code=host.code)
        watcher.until(lambda m: m["type"] == "joined")
    host.until(lambda m: state(m) and m["room"]["spectators"] == 2)
    built[0] = broadcasts[0] = 0
    host.send(type="start")
    final = play_until(host, over)
    seen = []
    for watcher in watchers:
        frames = 0
        while True:
            message = watcher.recv()
            if state(message) and message["view"] is not None:
                frames += 1
                if message["view"]["phase"] == "over":
                    break
        seen.append(frames)
    assert seen[0] == seen[1] > 50 and final["view"]["phase"] == "over"
    # one per broadcast (2 per broadcast before); the host's looks sent them nothing
    assert built[0] == broadcasts[0] >= seen[0] > broadcasts[0] - 20
    for client in (host, *watchers):
        client.close()


def test_a_change_that_cannot_begin_is_refused_busy_and_the_socket_stays(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An overloaded backend (BackendBusy: the change could not begin in time) answers the
    message with the refusal ``busy``: nothing changed, no traceback (``quiet``), the socket
    open; the same message sent again goes through."""
    import contextlib

    from spades_server import backend as backend_module

    original = backend_module.LocalBackend.change
    busy = [0]

    @contextlib.asynccontextmanager
    async def change(self: Any, code: str, rev: int) -> Any:
        if busy[0]:
            busy[0] -= 1
            raise backend_module.BackendBusy("overloaded")
        async with original(self, code, rev) as begun:
            yield begun

    monkeypatch.setattr(backend_module.LocalBackend, "change", change)
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", seat="S",
               options={"target": 100, "bot_level": "beginner"})
    busy[0] = 1
    host.send(type="start")
    refusal = host.refusal()
    assert refusal["reason"] == "busy" and refusal["request"] == "start"
    host.send(type="start")
    started = host.until(lambda m: state(m) and m["view"] is not None)
    assert started["room"]["status"] == "playing"
    host.close()


def _nothing_before_pong(client: Client) -> list[dict[str, Any]]:
    """What ``client`` was sent before the answer to a ping sent now: frames to one socket
    come in order, so whatever a broadcast already made queued for it comes first."""
    client.send(type="ping")
    seen: list[dict[str, Any]] = []
    while (message := client.recv())["type"] != "pong":
        seen.append(message)
    return seen


def test_a_seat_whose_view_did_not_change_is_sent_no_state_and_a_new_socket_gets_it_whole(
    server: RunningServer, leaks: Leaks,
) -> None:
    """A change that leaves a seat's view and the room as it shows them unchanged (another
    seat looks at its cards, a player's socket replaced by a new one on the same seat) sends
    that seat no ``state``; one that changes them (a bid) still does; a chat line still
    reaches everyone; and a seat's new socket (a reconnect) gets the whole state at once,
    the same as the one its old socket last had."""
    clients = four_players(server, {"target": 100})
    by_seat = {client.seat: client for client in clients}
    for client in clients:  # the game starts once the fourth is seated
        if client.last is None or client.last["view"] is None:
            client.until(lambda m: state(m) and m["view"] is not None)
    last = clients[0].last
    assert last is not None and last["view"]["phase"] == "bidding"
    to_act = last["view"]["to_act"]
    looker, watcher = [seat for seat in "NESW" if seat != to_act][:2]
    version = last["version"]

    by_seat[looker].send(type="look")  # only the looker's own view changes (its cards)
    seen = by_seat[looker].until(state)
    assert seen["view"]["hand"] is not None and seen["version"] == version
    for seat in "NESW":
        if seat != looker:
            assert not [m for m in _nothing_before_pong(by_seat[seat]) if state(m)], seat

    by_seat[looker].send(type="chat", phrase="chat.hello")  # chat: its own frame, to all
    for seat in "NESW":
        assert by_seat[seat].until(lambda m: m["type"] == "chat")["seat"] == looker

    mover = by_seat[to_act]
    mover.send(type="look")
    assert mover.until(state)["view"]["hand"] is not None
    before = by_seat[watcher].last
    assert before is not None
    mover.send(type="bid", bid=mover.last["view"]["legal_bids"][3])  # type: ignore[index]
    for seat in "NESW":  # a change every seat sees: every seat gets it
        moved = by_seat[seat].until(state)
        assert moved["version"] == version + 1, seat

    # the watcher's socket replaced by a new one on its token: the new socket gets the
    # whole state (the same view its old socket has), the others nothing (still connected)
    old = by_seat[watcher]
    shown = old.last
    assert shown is not None
    fresh = Client(server.url)
    fresh.send(type="resume", code=old.code, token=old.token)
    fresh.until(lambda m: m["type"] == "joined")
    whole = fresh.until(state)
    assert whole["view"] == shown["view"] and whole["version"] == shown["version"]
    assert old.until(lambda m: m["type"] == "replaced")["seat"] == watcher
    for seat in "NESW":
        if seat != watcher:
            assert not [m for m in _nothing_before_pong(by_seat[seat]) if state(m)], seat
    assert leaks.frames > 0
    for client in (*clients, fresh):
        client.close()


def test_spectators_of_a_room_are_limited(tmp_path: Path, quiet: None) -> None:
    running = start_server(0, config=base_config(tmp_path, max_spectators=2))
    try:
        host = Client(running.url)
        host.enter(type="create", nickname="Ann")
        watchers = [Client(running.url) for _ in range(3)]
        for watcher in watchers[:2]:
            watcher.send(type="watch", code=host.code)
            watcher.until(lambda m: m["type"] == "joined")
        watchers[2].send(type="watch", code=host.code)
        refusal = watchers[2].refusal()
        assert refusal["reason"] == "too-many-spectators" and refusal["params"] == {"limit": "2"}
        watchers[2].send(type="watch", code="ACDEFGHJKM")
        assert watchers[2].refusal()["reason"] == "no-such-room"
        for client in (host, *watchers):
            client.close()
    finally:
        running.stop()
