"""lab/arena_replay.py: arena games replayed as logged, and replays spliced into the arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_core.arena import play_game
from spades_core.bots import make_bot
from spades_core.errors import UsageError
from spades_core.rules import Rules
from tests.helpers import load_lab

tool = load_lab("arena_replay")


def hand(deal: int, a_team: int, number: int, bids: list[str], tricks: list[int],
         scores: list[int]) -> dict[str, object]:
    return {"deal": deal, "a_team": a_team, "hand": number, "bids": bids, "tricks": tricks,
            "points": [0, 0], "scores": scores}


def test_the_log_is_read_by_game_in_hand_order_and_bad_lines_are_refused() -> None:
    lines = [json.dumps(hand(5, 1, 1, ["1"] * 4, [3] * 4, [20, 520])),
             json.dumps(hand(5, 1, 0, ["1"] * 4, [3] * 4, [10, 40])), "",
             json.dumps(hand(6, 0, 0, ["1"] * 4, [3] * 4, [10, 40]))]
    games = tool.read_log(lines)
    assert sorted(games) == [(5, 1), (6, 0)]
    assert [h["hand"] for h in games[(5, 1)]] == [0, 1]
    assert tool.a_won((5, 1), games[(5, 1)]) and not tool.a_won((6, 0), games[(6, 0)])
    short = {**json.loads(lines[0]), "bids": ["1"]}
    for bad in ("{", "[1]", "7", json.dumps({"deal": 1}), json.dumps(short)):
        with pytest.raises(UsageError, match="line 2"):
            tool.read_log([lines[0], bad])


def test_replays_are_spliced_into_the_arena() -> None:
    blind = ["blind-nil", "3", "4", "5"]
    games = {
        (1, 0): [hand(1, 0, 0, blind, [1, 4, 4, 4], [100, 520])],  # lost, Blind Nil: replayed
        (1, 1): [hand(1, 1, 0, ["3", "blind-nil", "4", "5"], [4, 0, 4, 5], [520, 300])],
        (2, 0): [hand(2, 0, 0, ["3", "4", "4", "2"], [4, 4, 4, 1], [510, 300])],  # kept, won
        (2, 1): [hand(2, 1, 0, ["3", "4", "4", "2"], [4, 4, 4, 1], [510, 300])],  # kept, lost
    }
    assert [key for key, game in games.items() if tool.a_bid_blind_nil(key, game)] == \
        [(1, 0), (1, 1)]
    new = {(1, 0): [hand(1, 0, 0, ["3", "3", "4", "5"], [4, 1, 4, 4], [540, 300])],  # now won
           (1, 1): [hand(1, 1, 0, ["3", "blind-nil", "4", "5"], [4, 0, 4, 5], [520, 300])]}
    summary = tool.summarise(games, new)
    assert summary["games"] == 4 and summary["replayed"] == 2
    assert (summary["wins_before"], summary["wins_after"]) == (0, 1)
    assert (summary["only_after"], summary["only_before"]) == (1, 0)
    assert (summary["blind_nil_bids"], summary["blind_nil_made"]) == (1, 1)  # still lost, made
    assert summary["a_wins"] == 2 and summary["a_win_rate"] == 0.5


def test_a_logged_game_replays_as_logged_and_a_changed_one_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    beginner = make_bot("beginner")
    lines = [json.dumps(line) for team in (0, 1)
             for line in play_game(beginner, beginner, 11, team, Rules()).log]
    log = tmp_path / "arena.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "spliced.jsonl"
    args = [str(log), "--a", "beginner", "--b", "beginner", "--a-was", "beginner", "--check", "2"]
    assert tool.main([*args, "--log", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["a_wins"] == 1  # the same deal both ways
    assert out.read_text().split() == log.read_text().split()
    changed = json.loads(lines[0])
    changed["tricks"] = changed["tricks"][::-1]
    log.write_text("\n".join([json.dumps(changed), *lines[1:]]) + "\n")
    assert tool.main(args) == 1
    assert "does not replay as logged" in capsys.readouterr().err
