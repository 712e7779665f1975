"""spades_server's rooms over a live uvicorn on 127.0.0.1 (port 0): create and join by code,
whole hands and games, refusals, limits, reconnects, restarts, nudges, the origin check,
and that no frame sent to a seat ever holds a card another seat still holds."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from spades_core import GameState, Rules, record
from spades_core.cards import CARD_TEXT
from spades_core.roomcode import CODE_LENGTH
from spades_core.seats import SEATS, Seat
from spades_core.views import view_for
from spades_server.config import Config
from spades_server.protocol import ProtocolError, parse_message, view_to_json
from spades_server.rooms import Room
from spades_server.server import RunningServer, start_server
from tests.helpers import http_get

TIMEOUT = 10.0
# Every room of these servers deals from this deal number (Config.deal_seed, tests only):
# a game has the same hands, and so the same length, on every run.
DEAL_SEED = 3
# A test waits on the game's states, never on the clock: play_until gives up after this many
# frames (a game to 100 points of these tests sends a few hundred), and each frame may take
# TIMEOUT seconds to come, however loaded the machine.
MAX_FRAMES = 20_000


@dataclass
class Leaks:
    """Every frame sent to a seat, checked against the cards the other seats hold then."""

    frames: int = 0
    found: list[str] = field(default_factory=list)

    def observe(self, room: Room, seat: Seat | None, text: str) -> None:
        self.frames += 1
        if room.state is None:
            return
        hidden = {
            CARD_TEXT[card.id]
            for other in SEATS
            if other != seat
            for card in room.state.hand_of(other)
        }
        if seat is not None and not room.hand_seen(seat):
            hidden |= {CARD_TEXT[card.id] for card in room.state.hand_of(seat)}
        data = json.loads(text)
        if isinstance(data.get("view"), dict):
            # Finished hands: every card of them was played (public), and those cards are
            # dealt again in the hand now on, so they are checked on their own below.
            past = data["view"].pop("past_hands")
            for hand in past:
                assert sorted(hand["plays"]) == sorted(CARD_TEXT[:52]), hand
                assert set(hand) == {
                    "hand_index", "dealer", "bids", "plays", "tricks", "points", "scores", "bags"
                }
        if data["type"] == "refused":  # the card named is the one the client sent
            data["params"].pop("card", None)
        strings = set(_strings(data))
        if strings & hidden:
            self.found.append(f"{seat}: {sorted(strings & hidden)} in {text[:200]}")


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def base_config(tmp_path: Path, **changes: Any) -> Config:
    config = Config(
        db_path=tmp_path / "rooms.sqlite3",
        bot_delay=0.0,
        quick_wait=0.3,
        messages_per_window=100_000,
        refresh_build_info=False,
        # every test client comes from 127.0.0.1: the per-address limits are the tests' own
        address_connections=1000,
        address_creates=1000,
        address_enters=10_000,
        address_failures=1000,
        deal_seed=DEAL_SEED,
    )
    return replace(config, **changes)


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


class Client:
    def __init__(self, url: str, origin: str | None = None) -> None:
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(
            url.replace("http://", "ws://") + "ws", additional_headers=headers,
            open_timeout=TIMEOUT,
            # keeps every frame it has not read yet: never a slow reader the server would
            # close, however loaded the machine
            max_queue=None,
            # no keepalive pings of the client's own (a page sends none): on a loaded machine
            # a pong late by 20 s made the client close itself with 1011 "keepalive ping
            # timeout". The server's keepalive stays, and this client answers its pings.
            ping_interval=None,
        ).__enter__()
        assert self.recv()["type"] == "welcome"
        self.code = ""
        self.seat = ""
        self.token = ""
        self.last: dict[str, Any] | None = None
        self.acted = -1  # the version this client last acted on (play_until)
        self.looked = -1  # the hand index whose cards it last asked for

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        if message["type"] == "state":
            self.last = message
        return message

    def until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message that passes ``test``: at most MAX_FRAMES, each within TIMEOUT
        (bots may send many frames before it; no limit on the whole wait)."""
        for _ in range(MAX_FRAMES):
            message = self.recv()
            if test(message):
                return message
        raise AssertionError("no such message")

    def refusal(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "refused")

    def enter(self, **message: Any) -> dict[str, Any]:
        self.send(**message)
        return self.entered()

    def entered(self) -> dict[str, Any]:
        """The ``joined`` answering a create, join, resume or quick already sent, once the
        state that follows it has come too."""
        joined = self.until(lambda m: m["type"] in ("joined", "refused"))
        assert joined["type"] == "joined", joined
        self.code, self.seat = joined["code"], joined["seat"]
        self.token = joined.get("token", self.token)
        self.until(lambda m: m["type"] == "state")
        return joined

    def close(self) -> None:
        self.ws.close()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action from the client's own view."""
    if view["phase"] == "bidding":
        if view["hand"] is None:
            return {"type": "look"}
        bids = [bid for bid in view["legal_bids"] if bid not in ("nil", "blind-nil")]
        return {"type": "bid", "bid": bids[2]}
    return {"type": "play", "card": view["legal_plays"][-1]}


def play_until(client: Client, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Act on each of the seat's turns (once per version, also across calls) until
    ``done(view)``: at most MAX_FRAMES frames, each within TIMEOUT (no limit on the whole,
    which a loaded machine stretches)."""
    pending = [client.last] if client.last is not None else []
    for _ in range(MAX_FRAMES):
        message = pending.pop() if pending else client.recv()
        if message["type"] == "refused":
            raise AssertionError(message)
        if message["type"] != "state" or message["view"] is None:
            continue
        view = message["view"]
        if done(view):
            return message
        if view["to_act"] != client.seat or message["version"] == client.acted:
            continue
        action = choose(view)
        if action["type"] == "look":
            if client.looked == view["hand_index"]:
                continue
            client.looked = view["hand_index"]
        else:
            client.acted = message["version"]
        client.send(**action)
    raise AssertionError("the game did not get there")


def over(view: dict[str, Any]) -> bool:
    return bool(view["phase"] == "over")


def four_players(server: RunningServer, options: dict[str, Any]) -> list[Client]:
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", options=options, seat="N")
    clients = [host]
    for name, seat in (("Bea", "E"), ("Cy", "S"), ("Dee", "W")):
        client = Client(server.url)
        client.enter(type="join", code=host.code, nickname=name, seat=seat)
        clients.append(client)
    return clients


def run_all(clients: list[Client], done: Callable[[dict[str, Any]], bool]) -> list[Any]:
    results: list[Any] = [None] * len(clients)

    def run(index: int) -> None:
        try:
            results[index] = play_until(clients[index], done)
        except BaseException as error:  # reported by the main thread
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:  # each ends by itself: play_until is bounded (MAX_FRAMES)
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


# --- the tests -------------------------------------------------------------------------


def test_create_and_join_by_code(server: RunningServer) -> None:
    host = Client(server.url)
    joined = host.enter(type="create", nickname="  Ann   Lee ", options={"target": 200})
    assert len(joined["code"]) == CODE_LENGTH and len(joined["token"]) >= 32
    assert joined["seat"] == "N"
    guest = Client(server.url)
    assert guest.enter(type="join", code=joined["code"].lower(), nickname="Bob")["seat"] == "E"
    state = host.until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["nickname"])
    seats = state["room"]["seats"]
    assert [s["nickname"] for s in seats] == ["Ann Lee", "Bob", None, None]
    assert state["room"]["options"]["target"] == 200 and state["room"]["status"] == "waiting"
    other = Client(server.url)
    other.send(type="join", code="ACDEFGHJKM", nickname="Cy")
    assert other.refusal()["reason"] == "no-such-room"
    other.send(type="join", code=joined["code"], nickname="Cy", seat="N")
    assert other.refusal()["reason"] == "seat-taken"
    other.send(type="join", code=joined["code"], nickname="x" * 21)
    assert other.refusal()["reason"] == "bad-nickname"
    other.send(type="create", nickname="Cy", options={"target": 10})
    assert other.refusal()["reason"] == "bad-option"
    other.send(type="create", nickname="Cy", options={"target": 200, "floor": -100, "x": 1})
    assert other.refusal()["reason"] == "bad-option"
    for client in (host, guest, other):
        client.close()


def test_four_clients_play_a_whole_hand(server: RunningServer, leaks: Leaks) -> None:
    clients = four_players(server, {"target": 500})
    results = run_all(clients, lambda view: view["hand_index"] >= 1)
    for message in results:
        view = message["view"]
        assert len(view["past_hands"]) == 1 and len(view["past_hands"][0]["plays"]) == 52
        assert view["scores"] == results[0]["view"]["scores"]
    assert leaks.frames > 4 * 56
    for client in clients:
        client.close()


def test_a_whole_game_with_bots_and_its_record(server: RunningServer, leaks: Leaks) -> None:
    player = Client(server.url)
    player.enter(type="create", nickname="Ann", options={"target": 100, "bot_level": "beginner"})
    status, _ = http_get(server.url, f"/api/rooms/{player.code}/record?token={player.token}")
    assert status == 409  # not while the game is on: the record holds every hand's cards
    player.send(type="start")
    final = play_until(player, over)
    assert final["room"]["status"] == "over" and final["view"]["past_hands"]
    path = f"/api/rooms/{player.code}/record"
    assert http_get(server.url, path)[0] == 403
    assert http_get(server.url, path + "?token=wrong")[0] == 403
    status, body = http_get(server.url, path, {"Authorization": f"Bearer {player.token}"})
    assert status == 200
    state = record.loads(body)
    assert state.phase.value == "over" and list(state.scores) == final["view"]["scores"]
    assert leaks.frames > 50
    player.close()


def _first_hand(client: Client) -> list[str]:
    client.send(type="start")
    return sorted(play_until(client, lambda view: view["hand"] is not None)["view"]["hand"])


def test_a_deal_seed_deals_deal_ns_hands_and_without_one_every_room_its_own(
    server: RunningServer, tmp_path: Path,
) -> None:
    """Config.deal_seed (``--deal-seed``, tests only): a room's first hand is the first hand
    of deal N, as ``?deal=N`` deals it. Without it (production), each room's deal is secret:
    two rooms are not dealt the same hand."""
    options = {"bot_level": "beginner", "blind_nil": False}
    seeded = Client(server.url)
    seeded.enter(type="create", nickname="Ann", seat="W", options=options)
    dealt = GameState.new(Rules(blind_nil=False), deal=DEAL_SEED).hand_of(Seat.W)
    assert _first_hand(seeded) == sorted(CARD_TEXT[card.id] for card in dealt)
    seeded.close()
    (tmp_path / "secret").mkdir()
    secret = start_server(0, config=base_config(tmp_path / "secret", deal_seed=None))
    try:
        hands = []
        for _ in range(2):
            player = Client(secret.url)
            player.enter(type="create", nickname="Bob", seat="W", options=options)
            hands.append(_first_hand(player))
            player.close()
        assert hands[0] != hands[1]
    finally:
        secret.stop()


def test_acting_without_a_seat_or_for_another_seat_is_refused(server: RunningServer) -> None:
    stranger = Client(server.url)
    stranger.send(type="play", card="AS")
    assert stranger.refusal()["reason"] == "not-seated"
    player = Client(server.url)
    player.enter(type="create", nickname="Ann")
    stranger.send(type="resume", code=player.code, token="not-the-token")
    assert stranger.refusal()["reason"] == "bad-token"
    player.send(type="start")
    player.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    player.send(type="bid", bid="3", seat="E")
    assert player.refusal()["reason"] == "not-your-seat"
    player.send(type="chat", phrase="chat.hello", seat="E")
    assert player.refusal()["reason"] == "unknown-field"
    stranger.close()
    player.close()


def test_an_illegal_card_gets_the_engines_refusal_and_the_room_plays_on(
    server: RunningServer,
) -> None:
    player = Client(server.url)
    player.enter(type="create", nickname="Ann", options={"blind_nil": False}, seat="S")
    player.send(type="start")
    message = player.until(
        lambda m: m["type"] == "state" and m["view"] and m["view"]["to_act"] == "S"
    )
    view = message["view"]
    assert view["phase"] == "bidding"
    player.send(type="play", card=view["hand"][0])
    refusal = player.refusal()
    assert refusal["reason"] == "not-playing" and refusal["request"] == "play"
    player.send(type="bid", bid="blind-nil")
    assert player.refusal()["reason"] == "blind-nil-off"
    player.send(type="bid", bid="thirty")
    assert player.refusal()["reason"] == "bad-bid"
    player.send(type="bid", bid="4")
    message = player.until(
        lambda m: m["type"] == "state" and m["view"]["to_act"] == "S"
        and m["view"]["phase"] == "playing"
    )
    view = message["view"]
    not_mine = next(c for c in CARD_TEXT[:52] if c not in view["hand"])
    player.send(type="play", card=not_mine)
    refusal = player.refusal()
    assert refusal["reason"] == "not-in-hand" and refusal["params"] == {"card": not_mine}
    illegal = [c for c in view["hand"] if c not in view["legal_plays"]]
    if illegal:
        player.send(type="play", card=illegal[0])
        assert player.refusal()["reason"] in ("must-follow-suit", "spades-not-broken")
    player.send(type="play", card=view["legal_plays"][0])
    after = player.until(lambda m: m["type"] == "state" and m["version"] > message["version"])
    assert view["legal_plays"][0] not in after["view"]["hand"]
    player.close()


def test_malformed_messages_and_floods_are_refused_and_the_room_survives(
    server: RunningServer,
) -> None:
    player = Client(server.url)
    player.enter(type="create", nickname="Ann")
    for text, reason in [
        ("{not json", "bad-json"),
        ("[1, 2]", "bad-json"),
        ('{"type": "dance"}', "unknown-type"),
        ('{"nickname": "x"}', "unknown-type"),
        ('{"type": "chat"}', "missing-field"),
        ('{"type": "chat", "phrase": 7}', "bad-field"),
        ('{"type": "chat", "phrase": "I am free text"}', "unknown-phrase"),
        ('{"type": "create", "nickname": "x"}', "already-joined"),
    ]:
        player.ws.send(text)
        assert player.refusal()["reason"] == reason, text
    for _ in range(5):
        player.send(type="chat", phrase="chat.good-luck")
        assert player.until(lambda m: m["type"] in ("chat", "refused"))["type"] == "chat"
    player.send(type="chat", phrase="chat.good-luck")
    assert player.refusal()["reason"] == "rate-limited"
    player.send(type="ping")
    assert player.until(lambda m: m["type"] in ("pong", "refused"))["type"] == "pong"
    player.ws.send(json.dumps({"type": "chat", "phrase": "x" * 5000}))
    with pytest.raises(ConnectionClosed):
        player.until(lambda m: False)
    assert player.ws.close_code == 1009
    again = Client(server.url)
    again.send(type="resume", code=player.code, token=player.token)
    assert again.until(lambda m: m["type"] in ("joined", "refused"))["seat"] == "N"
    again.close()


def test_a_message_flood_is_refused(tmp_path: Path) -> None:
    running = start_server(0, config=base_config(tmp_path, messages_per_window=10))
    try:
        client = Client(running.url)
        for _ in range(10):
            client.send(type="ping")
        for _ in range(10):
            assert client.recv()["type"] == "pong"
        client.send(type="ping")
        assert client.refusal()["reason"] == "rate-limited"
        client.close()
    finally:
        running.stop()


def test_reconnecting_with_the_token_gives_the_same_seat_and_position(
    server: RunningServer,
) -> None:
    player = Client(server.url)
    player.enter(type="create", nickname="Ann", seat="W", options={"bot_level": "beginner"})
    player.send(type="start")
    play_until(player, lambda view: len(view["plays"]) > 10 and view["to_act"] == "W")
    before = player.last
    assert before is not None
    player.close()
    back = Client(server.url)
    joined = back.enter(type="resume", code=player.code, token=player.token)
    assert joined["seat"] == "W" and "token" not in joined
    assert back.last is not None and back.last["view"] == before["view"]
    back.seat = "W"
    play_until(back, lambda view: view["hand_index"] >= 1)
    back.close()


def test_a_new_app_on_the_same_store_resumes_the_room(tmp_path: Path) -> None:
    config = base_config(tmp_path)
    first = start_server(0, config=config)
    try:
        player = Client(first.url)
        player.enter(type="create", nickname="Ann", options={"bot_level": "beginner"})
        player.send(type="start")
        play_until(player, lambda view: len(view["plays"]) > 5 and view["to_act"] == "N")
        before = player.last
        player.close()
    finally:
        first.stop()
    second = start_server(0, config=config)
    try:
        back = Client(second.url)
        back.enter(type="resume", code=player.code, token=player.token)
        assert before is not None and back.last is not None
        assert back.last["view"] == before["view"] and back.last["version"] == before["version"]
        back.seat = "N"
        play_until(back, lambda view: view["hand_index"] >= 1)
        back.close()
    finally:
        second.stop()


def test_nudge_then_a_bot_plays_the_seat_until_its_player_is_back(tmp_path: Path) -> None:
    """Nudge too early, nudge, nudge again, take-over, back. No step depends on how fast the
    test runs: the too-early nudge is sent a minute before a nudge is allowed, the minute is
    then taken off the room's last move (no test waits for it), and the second nudge goes
    right behind the first, 2 s before the take-over (with a wait of 2 s before the nudge, a
    loaded machine could see South's turn too late for "too-early")."""
    running = start_server(0, config=base_config(tmp_path, nudge_after=60.0))
    try:
        north = Client(running.url)
        north.enter(type="create", nickname="Ann", seat="N",
                    options={"takeover_seconds": 2.0, "bot_level": "beginner"})
        south = Client(running.url)
        south.enter(type="join", code=north.code, nickname="Sam", seat="S")
        north.send(type="start")
        north.until(lambda m: m["type"] == "state" and m["view"] and m["view"]["to_act"] == "S")
        north.send(type="nudge")
        assert north.refusal()["reason"] == "too-early"
        # as if South had not moved for a minute
        running.app.state.manager.rooms[north.code].last_move -= 61
        north.send(type="nudge")
        north.send(type="nudge")  # at once: the first is still on
        nudged = north.until(lambda m: m["type"] == "state" and m["room"]["nudge"])
        assert nudged["room"]["nudge"] == {"by": "N", "seat": "S"}
        assert north.refusal()["reason"] == "already-nudged"
        # South does nothing: after the take-over delay a bot bids and plays for it.
        taken = north.until(lambda m: m["type"] == "state" and m["room"]["seats"][2]["away"])
        assert taken["room"]["seats"][2]["bot"] is True
        north.until(lambda m: m["type"] == "state" and m["view"]["bids"][2] is not None)
        south.send(type="ping")  # any message but an action leaves the bot playing
        # South comes back (an action, even a refused one): its seat is its own again.
        south.send(type="play", card="2C", seat="S")
        state = south.until(
            lambda m: m["type"] == "state" and not m["room"]["seats"][2]["away"]
        )
        assert state["room"]["seats"][2]["bot"] is False
        north.close()
        south.close()
    finally:
        running.stop()


def test_the_websocket_checks_the_origin(server: RunningServer) -> None:
    own = server.url.rstrip("/")
    Client(server.url, origin=own).close()
    with pytest.raises(InvalidStatus) as refused:
        Client(server.url, origin="http://evil.example")
    assert refused.value.response.status_code == 403


def test_connections_over_the_limit_are_told_to_try_again_later(
    tmp_path: Path, leaks: Leaks
) -> None:
    running = start_server(0, config=base_config(tmp_path, max_connections=1),
                           observe=leaks.observe)
    try:
        first = Client(running.url)
        with pytest.raises(ConnectionClosed) as closed:
            Client(running.url)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        first.send(type="ping")  # the first connection is unaffected
        assert first.recv()["type"] == "pong"
        first.close()
        deadline = time.monotonic() + TIMEOUT
        while True:  # its place is free again once the server has seen it go
            try:
                Client(running.url).close()
                break
            except ConnectionClosed:
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        running.stop()
    assert leaks.found == []


def test_quick_match_seats_players_together_and_bots_fill_the_rest(
    tmp_path: Path, leaks: Leaks,
) -> None:
    """Both players ask before either is answered, and the table waits 2 s for players: the
    two are seated together however slowly the test runs (it asked for the second seat only
    once the first was answered, 0.3 s before the table started without it)."""
    running = start_server(0, config=base_config(tmp_path, quick_wait=2.0),
                           observe=leaks.observe)
    try:
        first, second = Client(running.url), Client(running.url)
        first.send(type="quick", nickname="Ann")
        second.send(type="quick", nickname="Bob")
        a, b = first.entered(), second.entered()
        assert a["public"] and a["code"] == b["code"] and a["seat"] != b["seat"]
        private = Client(running.url)
        private.send(type="join", code=a["code"], nickname="Cy")
        assert private.refusal()["reason"] == "no-such-room"  # public tables: quick match only
        state = first.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        bots = [seat["bot"] for seat in state["room"]["seats"]]
        assert bots.count(True) == 2
        for client in (first, second, private):
            client.close()
    finally:
        running.stop()
    assert leaks.found == []


def test_view_to_json_holds_only_what_the_seat_sees() -> None:
    state = GameState.new(deal=7)
    for seat in SEATS:
        data = view_to_json(view_for(state, seat))
        others = {CARD_TEXT[c.id] for s in SEATS if s != seat for c in state.hand_of(s)}
        assert not set(_strings(data)) & others
        assert view_to_json(view_for(state, seat, hand_seen=False))["hand"] is None


def test_the_schema_refuses_unknown_keys_sizes_and_types() -> None:
    for text, reason in [
        ('{"type": "join", "code": "ACDEFGHJKM"}', "missing-field"),
        ('{"type": "join", "code": "ACDEFGHJKM", "nickname": "\\u0000x"}', "bad-nickname"),
        ('{"type": "create", "nickname": "a", "options": {"hints": "yes"}}', "bad-option"),
        ('{"type": "create", "nickname": "a", "options": {"takeover_seconds": 1e9}}',
         "bad-option"),
        ('{"type": "create", "nickname": "a", "options": {"bot_level": "os:system"}}',
         "bad-option"),
        ('{"type": "play", "card": "AS", "seat": "X"}', "bad-field"),
        ('{"type": "resume", "code": "ACDEFGHJKM", "token": ""}', "bad-field"),
    ]:
        with pytest.raises(ProtocolError) as error:
            parse_message(text, 4096)
        assert error.value.reason == reason, text
        assert error.value.request == json.loads(text)["type"]  # said in the refusal
    with pytest.raises(ProtocolError):
        parse_message("[" * 100_000, 10**6)


def _seats(message: dict[str, Any]) -> list[str | None]:
    return [seat["nickname"] for seat in message["room"]["seats"]]


def test_the_host_seats_the_players_before_the_start(server: RunningServer) -> None:
    """``move`` (revision 2): the host puts a player in another seat (swapping with whoever
    sits there); each moved connection is told its new seat, its token follows it, and
    only the host may do it, only before the game starts."""
    host = Client(server.url)
    host.enter(type="create", nickname="Ann", options={"bot_level": "beginner"})
    assert host.seat == "N" and host.last is not None and host.last["room"]["host"] == "N"
    guest = Client(server.url)
    guest.enter(type="join", code=host.code, nickname="Bob", seat="W")  # a free seat, chosen
    assert guest.seat == "W"
    late = Client(server.url)
    late.send(type="join", code=host.code, nickname="Cy", seat="W")
    assert late.refusal()["reason"] == "seat-taken"  # and late is seated nowhere
    late.send(type="move", **{"from": "W", "to": "E"})
    assert late.refusal()["reason"] == "not-seated"

    # The guest may not seat anyone, the host's own seat included.
    guest.send(type="move", **{"from": "N", "to": "S"})
    assert guest.refusal()["reason"] == "not-host"
    guest.send(type="start")
    assert guest.refusal()["reason"] == "not-host"
    # Malformed: refused by key, nothing moves.
    for fields, reason in [
        ({"from": "W"}, "missing-field"),
        ({"from": "W", "to": "X"}, "bad-field"),
        ({"from": 3, "to": "E"}, "bad-field"),
        ({"from": ["W"], "to": "E"}, "bad-field"),
        ({"from": "W", "to": "E", "seat": "N"}, "unknown-field"),
        ({"from": "W", "to": "W"}, "same-seat"),
        ({"from": "E", "to": "S"}, "no-player"),  # two empty seats: nothing to move
    ]:
        host.send(type="move", **fields)
        refusal = host.refusal()
        assert refusal["reason"] == reason and refusal["request"] == "move", fields
    host.send(type="ping")
    host.until(lambda m: m["type"] == "pong")
    assert host.last is not None and _seats(host.last) == ["Ann", None, None, "Bob"]

    # The host moves Bob from West to East (an empty seat: a bot will play West).
    host.send(type="move", **{"from": "W", "to": "E"})
    moved = guest.until(lambda m: m["type"] == "state" and m["seat"] == "E")
    assert _seats(moved) == ["Ann", "Bob", None, None]
    assert moved["room"]["seats"][1]["connected"] and not moved["room"]["seats"][3]["connected"]
    # The host moves itself to South: it stays the host.
    host.send(type="move", **{"from": "N", "to": "S"})
    state = host.until(lambda m: m["type"] == "state" and m["seat"] == "S")
    assert state["room"]["host"] == "S" and _seats(state) == [None, "Bob", "Ann", None]
    # A swap: Bob (East) and Ann (South) change places.
    host.send(type="move", **{"from": "E", "to": "S"})
    state = host.until(lambda m: m["type"] == "state" and m["seat"] == "E")
    assert _seats(state) == [None, "Ann", "Bob", None] and state["room"]["host"] == "E"
    guest.until(lambda m: m["type"] == "state" and m["seat"] == "S")

    # Bob's token follows him: a new connection resumes at South.
    guest.close()
    back = Client(server.url)
    assert back.enter(type="resume", code=host.code, token=guest.token)["seat"] == "S"
    back.seat = "S"
    host.seat = "E"
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.send(type="move", **{"from": "E", "to": "N"})
    assert host.refusal()["reason"] == "already-started"
    # The game plays on with everyone where the host put them.
    finals = run_all([host, back], lambda view: len(view["plays"]) >= 8)
    assert [final["view"]["seat"] for final in finals] == ["E", "S"]
    for client in (host, back, late):
        client.close()


def test_the_welcome_says_the_protocol_and_its_revision(server: RunningServer) -> None:
    with connect(server.url.replace("http://", "ws://") + "ws", open_timeout=TIMEOUT) as ws:
        welcome = json.loads(ws.recv(timeout=TIMEOUT))
    assert welcome == {"type": "welcome", "protocol": "spades-room/1", "revision": 4}


def test_a_public_table_has_no_host(server: RunningServer) -> None:
    first, second = Client(server.url), Client(server.url)
    first.enter(type="quick", nickname="Ann")
    second.enter(type="quick", nickname="Bob")
    assert first.last is not None and first.last["room"]["host"] is None
    first.send(type="move", **{"from": first.seat, "to": second.seat})
    assert first.refusal()["reason"] in ("not-host", "already-started")
    for client in (first, second):
        client.close()
