"""lab/hand_duel.py: duplicate single hands between two bots, and two duels compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_lab

tool = load_lab("hand_duel")


def _row(deal: int, a_team: int, points: tuple[int, int], bids: tuple[str, ...] = ("3",) * 4,
         start: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))) -> dict[str, Any]:
    return {"deal": deal, "a_team": a_team, "start": [list(start[0]), list(start[1])],
            "bids": list(bids), "tricks": [3, 3, 4, 3], "points": list(points)}


def _log(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_starts_are_drawn_from_the_seed_half_of_them_at_love_all() -> None:
    found = tool.starts(5, 40)
    assert found == tool.starts(5, 40) and found != tool.starts(6, 40)
    assert len({deal for deal, _, _ in found}) == 40
    for index, (_deal, scores, bags) in enumerate(found):
        if index % 2 == 0:
            assert (scores, bags) == ((0, 0), (0, 0))
        else:
            assert all(-150 <= score <= 450 and score % 10 == 0 for score in scores)
            assert all(0 <= bag <= 9 for bag in bags)


def test_a_duel_plays_each_deal_both_ways_from_the_same_start() -> None:
    pairs = list(tool.run("beginner", "normal", 2, 3, 1, tool.Rules()))
    assert len(pairs) == 2
    for (deal, scores, bags), (first, second) in zip(tool.starts(3, 2), pairs, strict=True):
        assert (first["a_team"], second["a_team"]) == (0, 1)
        assert first["deal"] == second["deal"] == deal
        assert first["start"] == second["start"] == [list(scores), list(bags)]
        assert sum(first["tricks"]) == sum(second["tricks"]) == 13
    lines = [json.dumps(row) for pair in pairs for row in pair]
    assert tool.read_pairs(lines) == pairs  # the log reads back as it was played
    summary = tool.summarise(pairs)
    diffs = [first["points"][0] - second["points"][0] for first, second in pairs]
    diffs += [second["points"][1] - first["points"][1] for first, second in pairs]
    assert summary["diff"]["mean"] == round(sum(diffs) / 4, 2)


def test_two_duels_are_compared_deal_by_deal() -> None:
    # X: A's side +20 then +0 on deal 1 (a margin of 10), -10 and -10 on deal 2
    x = [[_row(1, 0, (70, 50)), _row(1, 1, (50, 50))],
         [_row(2, 0, (50, 60)), _row(2, 1, (60, 50))]]
    # Y: the same as X on deal 1; on deal 2, +30 and +10 (a margin of 20)
    y = [[_row(1, 0, (70, 50)), _row(1, 1, (50, 50))],
         [_row(2, 0, (80, 40)), _row(2, 1, (50, 50), bids=("2", "3", "3", "3"))]]
    found = tool.compare(x, y)
    assert found["pairs"] == 2 and found["alike"] == 1
    # per deal, X's margin minus Y's: (10 - 10) = 0, then (-10 - 20) = -30
    assert found["diff"]["mean"] == -15.0
    assert found["first"]["mean"] == tool.summarise(x)["diff"]["mean"] == 0.0
    assert found["second"]["mean"] == tool.summarise(y)["diff"]["mean"] == 15.0
    itself = tool.compare(x, x)
    assert itself["alike"] == 2 and itself["diff"] == {"mean": 0.0, "ci95": [0.0, 0.0]}


def test_hands_on_the_same_cards_are_grouped_by_the_contracts_bid(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def row(a_team: int, bids: str, tricks: tuple[int, ...],
            points: tuple[int, int]) -> dict[str, Any]:
        return {**_row(7, a_team, points, tuple(bids.split())), "tricks": list(tricks)}

    # North-South's cards: A bids 3+3 and takes 5 (set, -60); B bids 3+3 and takes 7 (61).
    # East-West's cards: A bids 3+3 and takes 6 (60); B bids 2+3 and takes 8 (50 with bags).
    pair = [row(0, "3 2 3 3", (2, 3, 3, 5), (-60, 50)),
            row(1, "3 3 3 3", (4, 3, 3, 3), (61, 60))]
    found = tool.by_contract([pair])
    assert found == {
        "0": {"n": 1, "points": -121.0, "tricks": -2.0, "a_set_rate": 1.0, "b_set_rate": 0.0},
        "+1": {"n": 1, "points": 10.0, "tricks": -2.0, "a_set_rate": 0.0, "b_set_rate": 0.0},
    }
    # a team whose cards either side bid a Nil on is left out
    nil = [row(0, "nil 2 3 3", (0, 3, 5, 5), (150, 50)), pair[1]]
    assert list(tool.by_contract([nil])) == ["+1"]
    # --summarise reads written logs, pooled, and prints the same figures
    log = _log(tmp_path / "x.jsonl", pair)
    assert tool.main(["--summarise", str(log), str(log)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["pairs"] == 2 and summary["by_contract"]["0"]["n"] == 2


@pytest.mark.parametrize("change", [
    lambda rows: rows[2].update(deal=9) or rows[3].update(deal=9),
    lambda rows: rows[2].update(start=[[10, 0], [0, 0]]) or rows[3].update(start=[[10, 0], [0, 0]]),
    lambda rows: rows.pop() and rows.pop(),
])
def test_logs_of_other_deals_are_refused(tmp_path: Path, change: Any,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_row(1, 0, (50, 50)), _row(1, 1, (50, 50)), _row(2, 0, (50, 50)), _row(2, 1, (50, 50))]
    first = _log(tmp_path / "x.jsonl", rows)
    change(rows)
    second = _log(tmp_path / "y.jsonl", rows)
    assert tool.main(["--compare", str(first), str(second)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("hand_duel: ") and error.count("\n") == 1


@pytest.mark.parametrize("line", [
    "not json",
    "[1, 2]",
    json.dumps({**_row(1, 0, (50, 50)), "a_team": 2}),
    json.dumps({**_row(1, 0, (50, 50)), "deal": "1"}),
    json.dumps({**_row(1, 0, (50, 50)), "bids": ["3", "3", "3", "14"]}),
    json.dumps({**_row(1, 0, (50, 50)), "bids": ["3", "3", "3", "0"]}),
    json.dumps({**_row(1, 0, (50, 50)), "a_team": False}),
    json.dumps({**_row(1, 0, (50, 50)), "tricks": [3, 3, 4]}),
    json.dumps({**_row(1, 0, (50, 50)), "points": [50, True]}),
    json.dumps({**_row(1, 0, (50, 50)), "start": [[0, 0]]}),
    json.dumps({key: value for key, value in _row(1, 0, (50, 50)).items() if key != "points"}),
])
def test_lines_that_are_not_the_tools_are_refused(tmp_path: Path, line: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    good = _log(tmp_path / "good.jsonl", [_row(1, 0, (50, 50)), _row(1, 1, (50, 50))])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_row(1, 0, (50, 50))) + "\n" + line + "\n", encoding="utf-8")
    assert tool.main(["--compare", str(good), str(bad)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"hand_duel: {bad}: line 2 ") and error.count("\n") == 1


def test_a_pair_out_of_order_an_empty_log_or_a_bad_file_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _log(tmp_path / "good.jsonl", [_row(1, 0, (50, 50)), _row(1, 1, (50, 50))])
    swapped = _log(tmp_path / "swapped.jsonl", [_row(1, 1, (50, 50)), _row(1, 0, (50, 50))])
    empty = _log(tmp_path / "empty.jsonl", [])
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    for other in (swapped, empty, binary, tmp_path / "missing.jsonl"):
        assert tool.main(["--compare", str(good), str(other)]) == 2
        assert capsys.readouterr().err.startswith("hand_duel: ")


def test_an_unknown_bot_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert tool.main(["--a", "no.such.module:Bot", "--b", "normal", "--pairs", "1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("hand_duel: ") and error.count("\n") == 1
