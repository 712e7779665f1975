"""lab/arena_states.py: an arena's hands and games by the state of the match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_core.arena import play_game
from spades_core.bots import make_bot
from spades_core.rules import Rules
from tests.helpers import load_lab

tool = load_lab("arena_states")


def line(deal: int, a_team: int, number: int, bids: list[str], tricks: list[int],
         points: list[int], scores: list[int]) -> str:
    return json.dumps({"deal": deal, "a_team": a_team, "hand": number, "bids": bids,
                       "tricks": tricks, "points": points, "scores": scores})


def test_states_and_comebacks_of_a_made_up_game(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # A is East-West (team 1): 300 behind at 400-100 after the first hand, then wins 510-480
    # (points and scores are taken as logged; only the contracts are read from the bids)
    log = tmp_path / "arena.jsonl"
    log.write_text("\n".join([
        line(9, 1, 0, ["4", "3", "4", "nil"], [5, 3, 5, 0], [400, 100], [400, 100]),
        line(9, 1, 1, ["3", "blind-nil", "6", "4"], [3, 1, 4, 5], [-50, 100], [350, 200]),
        line(9, 1, 2, ["4", "4", "3", "2"], [4, 5, 3, 1], [130, 310], [480, 510]),
    ]) + "\n")
    assert tool.main([str(log)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["games"], found["a_wins"]) == (1, 1)
    a, b = found["a"], found["b"]
    assert a["hands"]["close/early"] == {"hands": 1, "points_a_hand": -300.0, "set_rate": 0.0,
                                         "nil_bids": 1, "blind_nil_bids": 0}
    # behind by 300 (North-South at 400: late), then by 150: two hands, one comeback
    assert a["hands"]["behind/late"] == {"hands": 2, "points_a_hand": 165.0, "set_rate": 0.0,
                                         "nil_bids": 0, "blind_nil_bids": 1}
    assert b["hands"]["ahead/late"] == {"hands": 2, "points_a_hand": -165.0, "set_rate": 0.5,
                                        "nil_bids": 0, "blind_nil_bids": 0}
    assert a["from_behind"] == {"300+": {"games": 1, "won": 1}} and a["from_ahead"] == {}
    assert b["from_ahead"] == {"300+": {"games": 1, "won": 0}} and b["from_behind"] == {}


def test_a_real_arena_log_adds_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules()
    lines = []
    for deal, a_team in ((3, 0), (3, 1), (4, 0)):
        game = play_game(make_bot("normal"), make_bot("beginner"), deal, a_team, rules)
        lines += [json.dumps(hand) for hand in game.log]
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_text("".join(f"{row}\n" for row in lines if json.loads(row)["deal"] == 3))
    second.write_text("".join(f"{row}\n" for row in lines if json.loads(row)["deal"] == 4))
    assert tool.main([str(first), str(second)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["games"] == 3
    for side in ("a", "b"):
        assert sum(row["hands"] for row in found[side]["hands"].values()) == len(lines)
    total = sum(row["points_a_hand"] * row["hands"] for row in found["a"]["hands"].values())
    margin = sum(hand["points"][hand["a_team"]] - hand["points"][1 - hand["a_team"]]
                 for hand in map(json.loads, lines))
    assert abs(total - margin) <= 0.05 * len(lines)
    # deal 3's first hand was played both ways: its two teams' cards (where both sides bid
    # numbers only) are the first hands compared; deal 4 was played one way only
    hands = [json.loads(row) for row in lines]
    firsts = [h for h in hands if h["deal"] == 3 and h["hand"] == 0]
    nil_free = sum(all(bid not in ("nil", "blind-nil") for h in firsts
                       for bid in (h["bids"][team], h["bids"][team + 2])) for team in (0, 1))
    assert sum(row["n"] for row in found["first_hands"].values()) == nil_free
    # the same game twice is refused, and so are a damaged line and a missing file
    assert tool.main([str(first), str(first)]) == 2
    assert "in another log too" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    for bad in ('{"deal": 1}', json.dumps({**json.loads(lines[0]), "bids": ["1", "2", "x", "4"]}),
                json.dumps({**json.loads(lines[0]), "scores": [1, "2"]}),
                json.dumps({**json.loads(lines[0]), "a_team": True}),
                json.dumps({**json.loads(lines[0]), "tricks": [1, 2, 3, -1]})):
        broken.write_text(lines[0] + "\n" + bad + "\n")
        assert tool.main([str(broken)]) == 2
        error = capsys.readouterr().err
        assert "line 2" in error and len(error.strip().splitlines()) == 1
    gap = tmp_path / "gap.jsonl"
    gap.write_text(lines[0] + "\n" + json.dumps({**json.loads(lines[1]), "hand": 5}) + "\n")
    assert tool.main([str(gap)]) == 2
    assert tool.main([str(tmp_path / "missing.jsonl")]) == 2
