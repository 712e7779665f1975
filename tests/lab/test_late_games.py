"""lab/late_games.py: two bots from the same late starts, played to the end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_core.bots import make_bot
from spades_core.rules import Rules
from tests.helpers import load_lab

tool = load_lab("late_games")
games = load_lab("blind_nil_games")


def test_starts_are_late_and_drawn_from_the_seed() -> None:
    found = tool.starts(3, 60)
    assert found == tool.starts(3, 60) and found != tool.starts(4, 60)
    assert len({deal for deal, _, _ in found}) == 60
    seen = set()
    for _deal, scores, bags in found:
        assert all(250 <= score <= 480 and score % 10 == 0 for score in scores)
        assert all(0 <= bag <= 7 for bag in bags)
        seen.update(scores)
    assert min(seen) < 300 and max(seen) > 430  # the whole range, not one corner
    narrow = tool.starts(3, 20, 400, 420)
    assert all(400 <= score <= 420 for _, scores, _ in narrow for score in scores)
    with pytest.raises(tool.UsageError):
        tool.starts(3, 5, 255, 480)
    with pytest.raises(tool.UsageError):
        tool.starts(3, 5, 300, Rules().target)


def test_both_bots_play_the_same_starts_against_the_same_opponent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "late.jsonl"
    assert tool.main(["--a", "normal", "--b", "beginner", "--o", "beginner", "--starts", "6",
                      "--seed", "5", "--low", "400", "--high", "480", "--log", str(log)]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = tool.read_rows(log.read_text(encoding="utf-8").splitlines())
    assert len(rows) == summary["starts"] == 6
    work = tool.starts(5, 6, 400, 480)
    normal, beginner = make_bot("normal"), make_bot("beginner")
    for row, start in zip(rows, work, strict=True):
        assert row["start"] == [start[0], list(start[1]), list(start[2])]
        assert row["a"] == games.play_game(normal, beginner, start, Rules())
        assert row["b"] == games.play_game(beginner, beginner, start, Rules())
    assert summary["a_won"] == sum(row["a"]["won"] for row in rows)
    assert summary["b_won"] == sum(row["b"]["won"] for row in rows)
    assert summary["only_a"] - summary["only_b"] == summary["a_won"] - summary["b_won"]

    assert all((row["b_bot"], row["o_bot"]) == ("beginner", "beginner") for row in rows)

    # B's games reused from a log: taken as written (here one of them turned round), not
    # played again; and only from a log of the same B and O
    edited = [dict(row) for row in rows]
    edited[0]["b"] = {**rows[0]["b"], "won": not rows[0]["b"]["won"]}
    reuse = tmp_path / "reuse.jsonl"
    reuse.write_text("".join(json.dumps(row) + "\n" for row in edited), encoding="utf-8")
    again = tmp_path / "again.jsonl"
    common = ["--a", "normal", "--o", "beginner", "--starts", "6", "--seed", "5",
              "--low", "400", "--high", "480", "--reuse", str(reuse)]
    assert tool.main([*common, "--b", "beginner", "--log", str(again)]) == 0
    turned = 1 if edited[0]["b"]["won"] else -1
    assert json.loads(capsys.readouterr().out)["b_won"] == summary["b_won"] + turned
    assert again.read_text(encoding="utf-8") == reuse.read_text(encoding="utf-8")
    assert tool.main([*common, "--b", "normal"]) == 2
    assert "not normal against beginner" in capsys.readouterr().err


def test_the_summary_pools_logs_and_refuses_malformed_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def line(number: int, a_won: bool, b_won: bool) -> str:
        def game(won: bool) -> dict[str, object]:
            return {"won": won, "hands": 2, "blind": 0, "blind_made": 0, "final": [500, 0]}
        return json.dumps({"start": [number, [300, 400], [1, 2]], "b_bot": "expert",
                           "o_bot": "normal", "a": game(a_won), "b": game(b_won)})

    first = tmp_path / "seed1.jsonl"
    first.write_text(line(1, True, False) + "\n\n" + line(2, True, True) + "\n")
    second = tmp_path / "seed2.jsonl"
    second.write_text(line(3, False, True) + "\n" + line(4, True, False) + "\n")
    assert tool.main(["--summarise", str(first), str(second)]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert (pooled["starts"], pooled["a_won"], pooled["b_won"]) == (4, 3, 2)
    assert (pooled["only_a"], pooled["only_b"], pooled["alike"]) == (2, 1, 1)
    assert pooled["sign_test_p"] == 1.0

    names = '"b_bot": "expert", "o_bot": "normal", '
    for bad in ("not json", '{"start": [1, [300, 400], [1, 2]], ' + names[:-2] + "}", "[1, 2]",
                '{"start": [1, [300, 400]], ' + names + '"a": {"won": true, "hands": 1}, '
                '"b": {"won": true, "hands": 1}}',
                '{"start": [1, [300, 400], [1, 2]], ' + names + '"a": {"won": 1, "hands": 1}, '
                '"b": {"won": true, "hands": 1}}',
                '{"start": [1, [300, 400], [1, true]], ' + names + '"a": {"won": true, '
                '"hands": 1}, "b": {"won": true, "hands": 1}}',
                '{"start": [1, [300, 400], [1, 2]], ' + names + '"a": {"won": true, "hands": 1}, '
                '"b": []}',
                '{"start": [1, [300, 400], [1, 2]], "b_bot": 5, "o_bot": "normal", '
                '"a": {"won": true, "hands": 1}, "b": {"won": true, "hands": 1}}'):
        broken = tmp_path / "broken.jsonl"
        broken.write_text(line(1, True, False) + "\n" + bad + "\n")
        assert tool.main(["--summarise", str(broken)]) == 2
        error = capsys.readouterr().err
        assert "line 2" in error and len(error.strip().splitlines()) == 1
    assert tool.main(["--summarise", str(tmp_path / "missing.jsonl")]) == 2
    assert tool.main(["--a", "normal", "--o", "no.such:Bot"]) == 2
    assert tool.main(["--a", "normal", "--o", "normal", "--low", "305"]) == 2
    with pytest.raises(SystemExit):
        tool.main(["--a", "normal"])  # no opponent
