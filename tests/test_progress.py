"""The progress history (ui/progress/history.py): hands recorded once, games closed, the
bound in bytes, what the charts draw, export and import (a bad file changes nothing)."""

from __future__ import annotations

import json

from spades_core import GameState, Seat
from spades_core.bots import bot_action, make_bot
from spades_core.judge import SKILLS, summarise
from ui.progress import charts, history
from ui.shared.storage import LIMITS

ONE = summarise([("bidding", True, 0, False), ("lead", False, 70, True),
                 ("bags", False, 300, True), ("second", False, 900, False)])


def _game(found: dict, level: str, deal: int, hands: int, won: bool) -> dict:
    for hand in range(hands):
        found = history.record_hand(found, level, deal, hand, ONE, 50, (0, 0), 2)
    return history.end_game(found, level, deal, won)


def test_a_hand_is_counted_once_and_a_game_closes_with_its_result() -> None:
    found = history.record_hand(history.empty(), "normal", 9, 0, ONE, 50, (1, 1), 2)
    again = history.record_hand(found, "normal", 9, 0, ONE, 50, (1, 1), 2)
    assert again == found  # the same hand again (a review asked twice)
    entry = found["games"][0]
    assert (entry["hands"], entry["n"], entry["ok"], entry["lost"]) == (1, 4, 2, 370)
    assert entry["by"][SKILLS.index("bags")] == [1, 0, 300]
    closed = history.end_game(found, "normal", 9, True)
    # the game's last hand judged after the end dialog: still this game's
    late = history.record_hand(closed, "normal", 9, 1, ONE, 50, (0, 0), 0)
    assert len(late["games"]) == 1 and late["games"][0]["hands"] == 2
    assert late["games"][0]["won"] is True
    # the same deal played again from its first hand (another first hand): a new game
    replay = history.record_hand(late, "normal", 9, 0, ONE, 50, (0, 0), 0, mark=7)
    assert len(replay["games"]) == 2 and replay["games"][1]["won"] is None
    assert history.check(json.loads(json.dumps(replay))) == (replay, True)
    # a game left unfinished, then the deal again: a new game too
    left = history.record_hand(history.empty(), "normal", 9, 0, ONE, 50, (0, 0), 0, mark=1)
    again = history.record_hand(left, "normal", 9, 0, ONE, 50, (0, 0), 0, mark=1)
    assert again == left
    other = history.record_hand(left, "normal", 9, 0, ONE, 50, (0, 0), 0, mark=2)
    assert [g["open"] for g in other["games"]] == [False, True]


def test_practice_hands_are_entries_of_their_own_not_results() -> None:
    found = history.record_hand(history.empty(), "normal", 5, 0, ONE, 50, (0, 0), 0,
                                practice=True)
    found = history.record_hand(found, "normal", 5, 0, ONE, 50, (0, 0), 0, practice=True)
    assert [g["kind"] for g in found["games"]] == ["practice", "practice"]
    model = history.model(found)
    assert model["series"] == [] and model["levels"] == []
    assert sum(row["decisions"] for row in model["skills"]) == 2 * ONE.decisions


def test_old_games_are_folded_into_their_level_and_the_bound_holds() -> None:
    # the largest entries a real history can make: 64 hands of 13 decisions, each a
    # blunder of 400 points (a Nil and a contract lost), 13 bags a hand, a Nil each
    big = summarise([(SKILLS[i % len(SKILLS)], False, 4000, True) for i in range(13)])
    found = history.empty()
    for game in range(history.MAX_GAMES + 30):
        for hand in range(history.MAX_HANDS):
            found = history.record_hand(found, "expert", 99_999_000 + game, hand, big,
                                        -9_999, (1, 1), 13)
        found = history.end_game(found, "expert", 99_999_000 + game, game % 2 == 0)
    assert len(found["games"]) == history.MAX_GAMES
    before = found["before"]["expert"]
    assert before["games"] == 30 and before["won"] == 15
    text = json.dumps(found, separators=(",", ":"))
    assert len(text) <= history.LIMIT == LIMITS["progress"]
    assert history.check(json.loads(text)) == (found, True)
    levels = history.level_rows(found)
    assert levels[0]["games"] == history.MAX_GAMES + 30


def test_the_charts_numbers_come_from_the_history() -> None:
    found = history.empty()
    found = _game(found, "normal", 1, 2, True)
    found = _game(found, "normal", 2, 3, False)
    found = _game(found, "beginner", 3, 1, True)
    model = history.model(found)
    assert [row["per_hand"] for row in model["series"]] == [370, 370, 370]
    assert model["trend"] == 0
    normal = next(row for row in model["levels"] if row["level"] == "normal")
    assert (normal["games"], normal["won"], normal["win_rate"]) == (2, 1, 50)
    assert normal["points"] == 50 and normal["bags"] == 20  # 2 bags a hand, in tenths
    weakest = [row for row in model["skills"] if row["weakest"]]
    assert [row["skill"] for row in weakest] == ["bags"]  # 30 points per decision
    assert weakest[0]["tip"] == "bags-cost"
    svg = charts.line_chart("x", [row["per_hand"] for row in model["series"]], ["1", "2", "3"],
                            str, model["trend"])
    assert svg.count('data-value="370"') == 3 and 'data-trend="0"' in svg


def test_the_trend_is_the_least_squares_slope_per_ten_games() -> None:
    assert history.trend([10, 20]) is None
    assert history.trend([30, 20, 10]) == -100
    assert history.trend([0, 1, 2, 3]) == 10
    assert history.trend([5, 5, 5]) == 0


def test_the_figure_of_a_hand_and_of_a_game() -> None:
    figure = history.figure(history.summary_totals(ONE))
    assert (figure["accuracy"], figure["sound"], figure["decisions"]) == (50, 2, 4)
    assert figure["lost"] == 370 and figure["classes"] == [1, 1, 0, 1, 1]
    found = _game(history.empty(), "normal", 4, 3, True)
    game = history.figure(history.game_summary(found, "normal", 4) or {})
    assert game["hands"] == 3 and game["per_hand"] == 370 and game["lost"] == 1110


def test_hand_facts_of_a_played_hand() -> None:
    state = GameState.new(deal=20261203)
    bots = make_bot("normal")
    while not state.past_hands:
        state = state.apply(bot_action(bots, state))
    result = state.past_hands[0]
    points, nil, bags = history.hand_facts(result)
    assert points == result.teams[0].points and bags == result.teams[0].bags
    assert nil == ((1, int(result.tricks[Seat.S] == 0)) if result.bids_by_seat[Seat.S].is_nil
                   else (0, 0))


def test_export_then_import_gives_the_same_history() -> None:
    found = _game(history.empty(), "expert", 8, 2, False)
    text = history.export_text(found)
    assert json.loads(text)["format"] == "spades-progress" and json.loads(text)["v"] == 1
    assert history.import_text(text) == (found, "")
    assert history.model(history.import_text(text)[0] or {}) == history.model(found)


def test_a_bad_file_is_refused_with_its_reason() -> None:
    good = json.loads(history.export_text(_game(history.empty(), "normal", 8, 1, True)))
    damaged = json.loads(json.dumps(good))
    damaged["history"]["games"][0]["lost"] = -5
    cases = {
        "{not json": "progress.import.not-json",
        "[" * 10_000 + "]" * 10_000: "progress.import.not-json",
        "1e999": "progress.import.not-json",
        json.dumps({"format": "other", "v": 1}): "progress.import.not-progress",
        json.dumps([1, 2]): "progress.import.not-progress",
        json.dumps({**good, "v": 2}): "progress.import.version",
        json.dumps(damaged): "progress.import.damaged",
        json.dumps({**good, "history": None}): "progress.import.damaged",
        "x" * (history.LIMIT + 2048): "progress.import.not-json",
    }
    for text, reason in cases.items():
        assert history.import_text(text) == (None, reason), reason


def test_results_by_level_over_time_go_by_stretches_of_ten_finished_games() -> None:
    found = history.empty()
    plan = [("beginner", True)] * 8 + [("normal", False)] * 4 + [("normal", True)] * 9
    for deal, (level, won) in enumerate(plan, start=1):
        found = _game(found, level, deal, 2, won)
    found = history.record_hand(found, "expert", 99, 0, ONE, 50, (0, 0), 2)  # unfinished
    rows = history.level_periods(found)
    assert [(r["period"], r["first"], r["last"], r["level"], r["games"], r["won"])
            for r in rows] == [(1, 1, 10, "beginner", 8, 8), (1, 1, 10, "normal", 2, 0),
                               (2, 11, 20, "normal", 10, 8), (3, 21, 21, "normal", 1, 1)]
    assert [r["win_rate"] for r in rows] == [100, 0, 80, 100]
    # each game's two hands scored 50 points and 2 bags: per hand 50 and 2.0 (tenths)
    assert all(r["points"] == 50 and r["bags"] == 20 for r in rows)
    many = found
    for deal in range(100, 160):
        many = _game(many, "expert", deal, 1, deal % 2 == 0)
    periods = sorted({r["period"] for r in history.level_periods(many)})
    assert periods == list(range(4, 10)) and len(periods) == history.CHART_PERIODS  # 81 games
    assert history.model(found)["periods"] == rows
