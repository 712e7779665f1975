"""The daily board: a finished game of the day's deal is replayed by the server and kept only
if every bot action is the deterministic bots' own, the deal is the day's and the score the
replayed one; forged records are refused with a reason key. Over HTTP on 127.0.0.1."""

from __future__ import annotations

import copy
import datetime
import http.client
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from spades_core import GameState, Rules, record
from spades_core.bots import bot_action, make_bot
from spades_core.deal import daily_deal_number
from spades_core.seats import Seat
from spades_server import daily
from spades_server.config import Config
from spades_server.server import RunningServer, start_server

TODAY = datetime.datetime.now(datetime.UTC).date()
DAY = daily_deal_number(TODAY)
LEVEL = "normal"


def play_game(
    deal: int, rules: Rules | None = None, swap_bot_action_at: int | None = None,
    stop_after: int | None = None,
) -> GameState:
    """A game of ``deal``: South plays as a beginner (the 'player'), the others are the
    board's bots; at action number ``swap_bot_action_at`` (a bot's) another legal action is
    taken instead: a forged game, legal but not the bots'."""
    bots, player = make_bot(LEVEL), make_bot("beginner")
    state = GameState.new(rules or daily.BOARD_RULES, deal=deal)
    count = 0
    while state.phase.value != "over" and (stop_after is None or count < stop_after):
        seat = state.to_act
        action = bot_action(player if seat is Seat.S else bots, state)
        if swap_bot_action_at is not None and count >= swap_bot_action_at and seat is not Seat.S:
            options = [a for a in (state.legal_plays() or state.legal_bids()) if a != action]
            if options:
                action = options[0]
                swap_bot_action_at = None
        state = state.apply(action)
        count += 1
    return state


def submission(state: GameState, **changes: Any) -> dict[str, Any]:
    data = {"nickname": "Ann", "level": LEVEL, "day": DAY, "score": list(state.scores),
            "record": record.to_dict(state)}
    data.update(changes)
    return data


def post(url: str, body: bytes | dict[str, Any], content_type: str = "application/json",
         address: str = "/api/daily") -> tuple[int, dict[str, Any]]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    try:
        conn.request("POST", address, body=raw, headers={"Content-Type": content_type})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def get(url: str, path: str) -> tuple[int, Any]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def game() -> GameState:
    return play_game(DAY)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    config = Config(db_path=tmp_path / "rooms.sqlite3", refresh_build_info=False,
                    daily_per_window=100)
    running = start_server(0, config=config)
    try:
        yield running
    finally:
        running.stop()


def test_a_true_result_is_ranked_on_the_days_board(server: RunningServer, game: GameState) -> None:
    status, answer = post(server.url, submission(game))
    assert status == 200, answer
    assert answer == {"day": DAY, "level": LEVEL, "rank": 1, "score": game.scores[0]}
    status, answer = post(server.url, submission(game, nickname="Bob"))
    assert status == 200 and answer["rank"] == 2  # same score: the first to come ranks first
    status, answer = post(server.url, submission(game))
    assert (status, answer["error"]) == (422, "already-on-board")
    status, board = get(server.url, f"/api/daily/{DAY}?level={LEVEL}")
    assert status == 200 and board["day"] == DAY and "par" in board
    assert [(e["rank"], e["nickname"], e["score"]) for e in board["entries"]] == [
        (1, "Ann", game.scores[0]), (2, "Bob", game.scores[0])
    ]
    assert get(server.url, f"/api/daily/{DAY}?level=expert")[1]["entries"] == []
    assert get(server.url, "/api/daily/2026-1-1")[0] == 400
    wide = "".join(chr(0xFF10 + int(digit)) for digit in str(DAY))  # full-width digits
    for day in ("2026120\u00b2", wide, "99999999", "20261331", "00000000"):
        status, answer = get(server.url, f"/api/daily/{quote(day)}")
        assert (status, answer["error"]) == (400, "bad-day"), day
    status, answer = get(server.url, f"/api/daily/{DAY}?level=master")
    assert (status, answer["error"]) == (400, "bad-level")


def test_a_better_score_ranks_higher(tmp_path: Path, game: GameState) -> None:
    board = daily.Board(tmp_path / "board.sqlite3")
    try:
        low = daily.verify(submission(game, nickname="Low"), TODAY)
        assert board.add(low) == 1
        high = replace(low, nickname="High", scores=(low.scores[0] + 10, low.scores[1]))
        assert board.add(high) == 1
        assert [entry["nickname"] for entry in board.entries(DAY, LEVEL)] == ["High", "Low"]
    finally:
        board.close()


@pytest.mark.parametrize("swap_at", [1, 30])
def test_one_bot_action_changed_is_refused(
    server: RunningServer, game: GameState, swap_at: int
) -> None:
    forged = play_game(DAY, swap_bot_action_at=swap_at)
    assert forged != game
    status, answer = post(server.url, submission(forged))
    assert (status, answer["error"]) == (422, "not-the-bots-action")
    assert answer["params"]["seat"] in ("N", "E", "W")


def test_one_bot_card_changed_in_the_record_is_refused(game: GameState) -> None:
    """Two cards of one bot swapped in the record's text (so that it stays a legal game):
    refused at the first of them."""
    data = submission(game)
    state = GameState.new(daily.BOARD_RULES, deal=DAY)
    seats: list[Seat] = []
    for bid in game.past_hands[0].bid_history:
        state = state.apply(bid)
    for card in game.past_hands[0].plays:
        assert state.to_act is not None
        seats.append(state.to_act)
        state = state.apply(card)
    plays = data["record"]["hands"][0]["plays"]
    tried = 0
    for i in range(len(plays)):
        for j in range(i + 1, len(plays)):
            if seats[i] is Seat.S or seats[i] is not seats[j]:
                continue
            edited = copy.deepcopy(data)
            changed = edited["record"]["hands"][0]["plays"]
            changed[i], changed[j] = changed[j], changed[i]
            try:
                record.from_dict(edited["record"])
            except Exception:
                continue  # not a legal game: the record itself is refused (bad-record)
            tried += 1
            with pytest.raises(daily.BoardRefusal) as refused:
                daily.verify(edited, TODAY)
            assert refused.value.reason == "not-the-bots-action"
            assert refused.value.params == {
                "hand": "1", "action": str(4 + i + 1), "seat": seats[i].name
            }
            if tried >= 3:
                return
    assert tried > 0, "no legal swap of two bot cards in that game"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"score": "edit"}, "wrong-score"),
        ({"day": DAY + 10000}, "wrong-day"),  # a year away
        ({"day": 20260231}, "bad-field"),
        ({"day": 10**15}, "bad-field"),  # no date at all, nor an OverflowError
        ({"day": -DAY}, "bad-field"),
        ({"nickname": "x" * 21}, "bad-nickname"),
        ({"nickname": ["Ann"]}, "bad-nickname"),
        ({"level": "os:system"}, "bad-level"),
        ({"record": "text"}, "bad-field"),
        ({"record": {"format": "spades-record/1", "hands": "x"}}, "bad-record"),
        ({"extra": 1}, "unknown-field"),
    ],
)
def test_bad_submissions_are_refused_with_a_reason(
    game: GameState, change: dict[str, Any], reason: str
) -> None:
    data = submission(game)
    if change.get("score") == "edit":
        data["score"] = [game.scores[0] + 10, game.scores[1]]
    else:
        data.update(change)
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(data, TODAY)
    assert refused.value.reason == reason


def test_the_wrong_deal_rules_or_an_unfinished_game_are_refused(game: GameState) -> None:
    yesterday = play_game(DAY - 1 if DAY % 100 > 1 else DAY + 1)
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(submission(yesterday), TODAY)
    assert refused.value.reason == "wrong-deal"
    # The day's deal number but the cards of another deal, written out in the record.
    other = record.to_dict(yesterday)
    data = submission(game, record={**other, "deal": DAY})
    for hand, past in zip(data["record"]["hands"], yesterday.past_hands, strict=True):
        hand["cards"] = {
            seat.name: [str(card) for card in past.dealt(seat)] for seat in Seat
        }
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(data, TODAY)
    assert refused.value.reason in ("wrong-deal", "bad-record")
    short = play_game(DAY, rules=Rules(target=200))
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(submission(short), TODAY)
    assert refused.value.reason == "not-board-rules"
    unfinished = play_game(DAY, stop_after=70)
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(submission(unfinished), TODAY)
    assert refused.value.reason == "not-finished"


def test_size_type_and_rate_limits(tmp_path: Path, game: GameState) -> None:
    config = Config(db_path=tmp_path / "r.sqlite3", refresh_build_info=False, daily_per_window=3)
    running = start_server(0, config=config)
    try:
        status, answer = post(running.url, b"x" * (daily.MAX_SUBMISSION + 1))
        assert (status, answer["error"]) == (413, "too-large")
        status, answer = post(running.url, submission(game), content_type="text/plain")
        assert (status, answer["error"]) == (415, "bad-content-type")
        status, answer = post(running.url, b"{not json")
        assert (status, answer["error"]) == (400, "bad-json")
        assert post(running.url, submission(game, nickname="Ann"))[0] == 200
        assert post(running.url, submission(game, nickname="Bea"))[0] == 200
        status, answer = post(running.url, submission(game, nickname="Cy"))
        assert (status, answer["error"]) == (429, "rate-limited")
    finally:
        running.stop()


def test_the_par_hook_is_clean() -> None:
    hook = daily.par_hook()
    if hook is None:  # spades_core/par.py is not there yet: no par on the board
        return
    assert isinstance(hook(DAY, "beginner"), int)


def test_pars_are_computed_near_today_and_one_at_a_time(tmp_path: Path) -> None:
    """A run of board requests for many days cannot start many par computations."""
    started: list[tuple[int, str]] = []
    release = threading.Event()

    def slow_par(day: int, level: str) -> int:
        started.append((day, level))
        release.wait(30)
        return 7

    board = daily.Board(tmp_path / "board.sqlite3", par=slow_par)
    far = daily_deal_number(TODAY - datetime.timedelta(days=40))
    try:
        assert board.par(far, LEVEL, TODAY) is None
        assert board.par(DAY, LEVEL, TODAY) is None
        assert board.par(DAY, "expert", TODAY) is None  # one is running: not started
        deadline = time.monotonic() + 10
        while not started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert started == [(DAY, LEVEL)]
        release.set()
        while board.par(DAY, LEVEL, TODAY) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert board.par(DAY, LEVEL, TODAY) == 7
        assert board.par(DAY, "expert", TODAY) is None  # the next one starts now
        while len(started) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert started == [(DAY, LEVEL), (DAY, "expert")]
        assert board.par(far, LEVEL, TODAY) is None
    finally:
        release.set()
        board.close()
