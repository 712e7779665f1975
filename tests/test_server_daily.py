"""The daily deal's checks: a finished game of the day's deal replayed by the server is
accepted only if every bot action is the deterministic bots' own, the deal is the day's and
the score the replayed one; forged records are refused with a reason key. The board (over
HTTP on 127.0.0.1) ranks only ranked games: test_server_ranked.py."""

from __future__ import annotations

import copy
import datetime
import http.client
import threading
import time
from collections.abc import Iterator
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
from tests.helpers import http_get_json

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


@pytest.fixture(scope="module")
def game() -> GameState:
    return play_game(DAY)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    config = Config(db_path=tmp_path / "rooms.sqlite3", refresh_build_info=False)
    running = start_server(0, config=config)
    try:
        yield running
    finally:
        running.stop()


def test_the_offline_daily_deal_is_not_ranked_and_the_board_checks_its_address(
    server: RunningServer,
) -> None:
    """The board ranks only ranked games (test_server_ranked.py): a result of the offline
    daily deal, whose hands the page knows, is not taken any more."""
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    try:
        conn.request("POST", "/api/daily", body=b"{}",
                     headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 405
    finally:
        conn.close()
    status, board = http_get_json(server.url, f"/api/daily/{DAY}?level={LEVEL}")
    assert status == 200 and board["day"] == DAY and board["ranked"] is True
    assert board["entries"] == [] and board["par"] is None and board["deal"] is None
    assert http_get_json(server.url, "/api/daily/2026-1-1")[0] == 400
    wide = "".join(chr(0xFF10 + int(digit)) for digit in str(DAY))  # full-width digits
    for day in ("2026120\u00b2", wide, "99999999", "20261331", "00000000"):
        status, answer = http_get_json(server.url, f"/api/daily/{quote(day)}")
        assert (status, answer["error"]) == (400, "bad-day"), day
    status, answer = http_get_json(server.url, f"/api/daily/{DAY}?level=master")
    assert (status, answer["error"]) == (400, "bad-level")


@pytest.mark.parametrize("swap_at", [1, 30])
def test_one_bot_action_changed_is_refused(game: GameState, swap_at: int) -> None:
    forged = play_game(DAY, swap_bot_action_at=swap_at)
    assert forged != game
    assert daily.verify(submission(game), TODAY).scores == game.scores
    with pytest.raises(daily.BoardRefusal) as refused:
        daily.verify(submission(forged), TODAY)
    assert refused.value.reason == "not-the-bots-action"
    assert refused.value.params["seat"] in ("N", "E", "W")


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
