"""Today's ranked deal (issue 46), over a live server on 127.0.0.1 (port 0) with real sockets:
the server deals it from its secret and plays it as a room with three bots; no frame, no
endpoint tells another seat's unplayed card or the deal number before the day is over; one
game per player and level per day; finished games are ranked on the board, and once the
day is published its number reproduces them."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spades_core import GameState, record
from spades_core.cards import CARD_TEXT
from spades_core.deal import daily_deal_number
from spades_core.seats import SEATS, Seat
from spades_server import daily, ranked
from spades_server.rooms import Room
from spades_server.server import RunningServer, start_server
from tests import test_server_processes
from tests.helpers import http_get, http_get_json
from tests.test_server_rooms import Client, _strings, base_config, over, play_until
from ui.rooms import rooms_client

TODAY = datetime.datetime.now(datetime.UTC).date()
DAY = daily_deal_number(TODAY)
LEVEL = "beginner"
PLAYER = "browser-token-of-ann-0123"
redis_url = test_server_processes.redis_url  # the fixture: a redis-server of the test's own


class Watch:
    """Every frame sent to a seat of a ranked room: no card another seat still holds, and
    not the deal number (nor its decimal digits anywhere in the frame)."""

    def __init__(self) -> None:
        self.frames = 0
        self.found: list[str] = []
        self.deals: set[int] = set()

    def observe(self, room: Room, seat: Seat | None, text: str) -> None:
        self.frames += 1
        state = room.state
        if state is None:
            return
        if state.deal is not None:
            self.deals.add(state.deal)
            if str(state.deal) in text:
                self.found.append(f"the deal number in {text[:120]}")
        hidden = {CARD_TEXT[card.id] for other in SEATS if other != seat
                  for card in state.hand_of(other)}
        data = json.loads(text)
        if isinstance(data.get("view"), dict):
            data["view"].pop("past_hands")  # finished hands: every card of them was played
        if data["type"] == "refused":
            data["params"].pop("card", None)
        found = set(_strings(data)) & hidden
        if found:
            self.found.append(f"{seat}: {sorted(found)} in {text[:120]}")


def start_ranked(url: str, nickname: str = "Ann", player: str = PLAYER,
                 level: str = LEVEL) -> tuple[Client, dict[str, Any]]:
    client = Client(url)
    client.send(type="ranked", nickname=nickname, level=level, player=player)
    answer = client.until(lambda m: m["type"] in ("joined", "refused"))
    if answer["type"] == "joined":
        client.code, client.seat, client.token = answer["code"], answer["seat"], answer["token"]
        client.until(lambda m: m["type"] == "state")
    return client, answer


@pytest.fixture
def watch() -> Watch:
    return Watch()


@pytest.fixture
def server(tmp_path: Path, watch: Watch) -> Iterator[RunningServer]:
    running = start_server(0, config=base_config(tmp_path, ranked_secret="test-secret"),
                           observe=watch.observe)
    try:
        yield running
    finally:
        running.stop()
    assert watch.found == []


def test_the_day_secret_gives_a_deal_number_and_is_published_two_days_later() -> None:
    secret = b"s" * 32
    deal = ranked.deal_of(secret, DAY)
    assert deal == ranked.deal_of(secret, DAY) and 0 <= deal < 2**53
    assert deal != ranked.deal_of(secret, DAY + 1) and deal != ranked.deal_of(b"t" * 32, DAY)
    key = ranked.day_secret(secret, DAY)
    assert ranked.deal_from_day_secret(key) == deal
    import hashlib
    assert ranked.commitment(secret, DAY) == hashlib.sha256(key).hexdigest()
    assert not ranked.published(DAY, TODAY)
    assert not ranked.published(DAY, TODAY + datetime.timedelta(days=1))
    assert ranked.published(DAY, TODAY + datetime.timedelta(days=2))


def test_a_ranked_game_shows_south_only_its_view_and_is_ranked_then_published(
    server: RunningServer, watch: Watch
) -> None:
    manager = server.app.state.manager
    ann, joined = start_ranked(server.url)
    assert joined["seat"] == "S" and joined["public"] is False
    assert ann.last is not None
    room_info = ann.last["room"]
    assert room_info["options"]["ranked"] == {"day": DAY, "level": LEVEL}
    assert [seat["bot"] for seat in room_info["seats"]] == [True, True, False, True]
    assert room_info["timer"] is None  # nobody to nudge the player
    # before the day is over: no endpoint tells the deal or its record
    status, day_info = http_get_json(server.url, f"/api/ranked/{DAY}")
    assert status == 200 and day_info["published"] is False
    assert "deal" not in day_info and "secret" not in day_info
    final = play_until(ann, over)
    assert final["room"]["options"]["ranked"]["rank"] == 1
    assert watch.frames > 100 and len(watch.deals) == 1
    deal = watch.deals.pop()
    assert deal == ranked.deal_of(b"test-secret", DAY)
    status, body = http_get(server.url, f"/api/rooms/{ann.code}/record?token={ann.token}")
    assert status == 403 and json.loads(body)["error"] == "not-published"
    status, board = http_get_json(server.url, f"/api/daily/{DAY}?level={LEVEL}")
    assert status == 200 and board["ranked"] is True and board["published"] is False
    assert board["deal"] is None and board["par"] is None
    assert [(e["rank"], e["nickname"]) for e in board["entries"]] == [(1, "Ann")]
    assert all("record" not in entry for entry in board["entries"])
    shown = rooms_client.board_model(board, DAY, LEVEL, DAY)  # the page's board: no link
    assert shown.deal is None and [e.record for e in shown.entries] == [""]
    for path in (f"/api/ranked/{DAY}", f"/api/daily/{DAY}?level={LEVEL}",
                 f"/api/ranked/{DAY}/record/1"):
        assert str(deal).encode() not in http_get(server.url, path)[1], path
    assert http_get(server.url, f"/api/ranked/{DAY}/record/1")[0] == 403
    # a second attempt: refused, by nickname (any case) and by browser token
    for nickname, player in (("Ann", "another-browser-token"), ("ANN", "x" * 20),
                             ("Bob", PLAYER)):
        client, answer = start_ranked(server.url, nickname, player)
        client.close()
        assert (answer["type"], answer["reason"]) == ("refused", "ranked-played"), answer
    # another player's game, left unfinished: its own browser is told where it is
    bob, joined = start_ranked(server.url, "Bob", "browser-token-of-bob-0123")
    assert joined["type"] == "joined"
    bob.close()
    again, answer = start_ranked(server.url, "Bob", "browser-token-of-bob-0123")
    again.close()
    assert answer["reason"] == "ranked-unfinished" and answer["params"] == {"code": bob.code}
    # nobody else may enter a ranked room
    for message in ({"type": "join", "code": ann.code, "nickname": "Eve"},
                    {"type": "watch", "code": ann.code}, {"type": "peek", "code": ann.code}):
        eve = Client(server.url)
        eve.send(**message)
        assert eve.refusal()["reason"] == "no-such-room", message
        eve.close()
    for kind in ("rematch", "leave", "nudge"):
        ann.send(type=kind)
        assert ann.refusal()["reason"] == "ranked-game"
    ann.close()

    # the day is over (two days later, UTC): the deal is published and reproduces the board
    later = TODAY + datetime.timedelta(days=2)
    manager.ranked.today = lambda: later
    status, day_info = http_get_json(server.url, f"/api/ranked/{DAY}")
    assert day_info["published"] is True and day_info["deal"] == deal
    key = bytes.fromhex(day_info["secret"])
    assert ranked.deal_from_day_secret(key) == deal
    import hashlib
    assert hashlib.sha256(key).hexdigest() == day_info["commitment"]
    status, board = http_get_json(server.url, f"/api/daily/{DAY}?level={LEVEL}")
    assert board["published"] is True and board["deal"] == deal
    # each entry carries its record's address, as the page's board links it
    shown = rooms_client.board_model(board, DAY, LEVEL, DAY)
    assert shown.deal == deal and [e.nickname for e in shown.entries] == ["Ann"]
    assert [e.record for e in shown.entries] == [entry["record"] for entry in board["entries"]]
    for entry in board["entries"]:
        assert rooms_client.record_path(entry["record"], DAY) == entry["record"]
        status, body = http_get(server.url, "/" + entry["record"])
        assert status == 200
        played = record.loads(body.decode())
        assert played.deal == deal
        replayed = daily.replay(played, deal, LEVEL)  # the bots' own actions, from deal N
        assert replayed.scores[0] == entry["score"] and replayed.scores[1] == entry["opponents"]
        assert GameState.new(daily.BOARD_RULES, deal=deal).hand_of(Seat.N) == \
            played.past_hands[0].dealt(Seat.N)
    status, body = http_get(server.url, f"/api/rooms/{ann.code}/record?token={ann.token}")
    assert status == 200 and record.loads(body.decode()).deal == deal
    # Bob's game, left on past publication: no more actions, and the sweep abandons it
    back = Client(server.url)
    back.enter(type="resume", code=bob.code, token=bob.token)
    back.send(type="look")
    back.send(type="bid", bid="3")
    assert back.refusal()["reason"] == "ranked-day-over"
    back.close()
    assert manager.ranked.sweep() == 1
    assert manager.ranked.board.status_of(bob.code) == "abandoned"


def test_starts_per_address_are_limited_and_a_restart_keeps_the_secret(tmp_path: Path) -> None:
    config = base_config(tmp_path, address_ranked=2)
    running = start_server(0, config=config)
    try:
        secret = running.app.state.manager.ranked.board.secret
        assert len(secret) == 32
        for index in range(2):
            client, answer = start_ranked(running.url, f"P{index}", f"player-token-{index:08}")
            client.close()
            assert answer["type"] == "joined"
        client, answer = start_ranked(running.url, "P9", "player-token-00000009")
        client.close()
        assert answer["reason"] == "too-many-ranked" and int(answer["params"]["seconds"]) > 0
    finally:
        running.stop()
    running = start_server(0, config=config)  # the same SQLite file: the same secret, games
    try:
        assert running.app.state.manager.ranked.board.secret == secret
        client, answer = start_ranked(running.url, "P0", "player-token-other-0")
        client.close()
        assert answer["reason"] == "ranked-played"
    finally:
        running.stop()


def test_with_redis_a_ranked_game_lives_through_a_restart(tmp_path: Path, redis_url: str) -> None:
    """The room in Redis, the registry and the secret in the SQLite file: a new server on
    both resumes the game where it was, on the same deal, and still refuses a second one."""
    config = base_config(tmp_path, redis_url=redis_url)
    running = start_server(0, config=config)
    try:
        ann, joined = start_ranked(running.url)
        assert joined["type"] == "joined"
        play_until(ann, lambda view: view["phase"] == "playing")
        assert ann.last is not None
        before = ann.last["view"]
        ann.close()
    finally:
        running.stop()
    running = start_server(0, config=config)
    try:
        back = Client(running.url)
        back.enter(type="resume", code=ann.code, token=ann.token)
        assert back.last is not None and back.last["view"]["hand"] == before["hand"]
        back.seat = "S"
        play_until(back, lambda view: view["hand_index"] == 1)  # the next hand: the same deal
        room = running.app.state.manager.rooms[ann.code]
        assert room.state.deal == ranked.deal_of(running.app.state.manager.ranked.board.secret,
                                                 DAY)
        back.close()
        client, answer = start_ranked(running.url, "Ann", "another-browser-token")
        client.close()
        assert answer["reason"] == "ranked-played"
    finally:
        running.stop()
