"""lab/blind_nil_games.py: desperate starts played with and without the expert's Blind Nil."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from spades_core.bots.expert import ExpertBot
from spades_core.deal import deal_hand
from spades_core.game import GameState, Phase, _new_hand
from spades_core.rules import Rules
from spades_core.seats import Seat
from spades_core.views import view_for
from tests.helpers import load_lab

tool = load_lab("blind_nil_games")


def test_the_sign_test_is_two_sided_and_exact() -> None:
    assert tool.sign_test(0, 0) == 1.0
    assert tool.sign_test(5, 5) == 1.0
    assert abs(tool.sign_test(7, 3) - 352 / 1024) < 1e-12  # 2 * P(X <= 3), X ~ B(10, 1/2)
    assert tool.sign_test(3, 7) == tool.sign_test(7, 3)
    assert abs(tool.sign_test(10, 0) - 2 / 1024) < 1e-12


def test_starts_are_desperate_and_drawn_from_the_seed() -> None:
    found = tool.starts(7, 50)
    assert found == tool.starts(7, 50) and found != tool.starts(8, 50)
    for _deal, (ours, theirs), bags in found:
        assert 100 <= ours <= 300 and 400 <= theirs <= 480
        assert all(0 <= bag <= 5 for bag in bags)


def test_the_summary_counts_only_starts_where_blind_nil_was_bid() -> None:
    def game(won: bool, blind: int) -> dict[str, object]:
        return {"won": won, "hands": 2, "blind": blind, "final": [0, 500]}

    rows = [
        {"start": [1, [100, 450], [0, 0]], "with": game(True, 0)},
        {"start": [2, [100, 450], [0, 0]], "with": game(True, 1), "without": game(False, 0)},
        {"start": [3, [100, 450], [0, 0]], "with": game(False, 2), "without": game(True, 0)},
        {"start": [4, [100, 450], [0, 0]], "with": game(True, 1), "without": game(True, 0)},
    ]
    summary = tool.summarise(rows)
    assert summary["starts"] == 4 and summary["won_overall"] == 3
    assert summary["blind_nil_starts"] == 3 and summary["blind_nil_bids"] == 4
    assert (summary["wins_with"], summary["wins_without"]) == (2, 2)
    assert (summary["only_with"], summary["only_without"]) == (1, 1)


def test_the_plain_expert_never_bids_blind_nil_where_the_expert_may() -> None:
    rules = Rules()
    for deal in range(1, 40):
        cards = deal_hand(deal, 0, rules.deck_mask)
        first = GameState._start(_new_hand(rules, deal, (), cards, (0, 0), (0, 0)), Phase.BIDDING)
        seat = first.to_act
        assert seat is not None
        # its team 145 behind, the opponents 30 from the target
        scores = (325, 470) if int(seat) % 2 == 0 else (470, 325)
        state = GameState._start(_new_hand(rules, deal, (), cards, scores, (0, 0)), Phase.BIDDING)
        view = view_for(state, seat, hand_seen=False)
        if ExpertBot().blind_nil(view):
            assert tool.NoBlindExpert().blind_nil(view) is False
            assert tool.NoBlindExpert().bid(view_for(state, seat)) == \
                ExpertBot().bid(view_for(state, seat))
            return
    raise AssertionError("no desperate start where the expert bids Blind Nil")


def test_the_recording_expert_decides_as_the_expert_and_notes_what_it_weighed() -> None:
    view = view_for(GameState.new(Rules(), deal=3), Seat.S, hand_seen=False)
    recorder = tool.RecordingExpert()
    assert recorder.blind_nil(view) is False and recorder.weighed == []  # not weighed
    for scores in ((325, 480), (120, 440)):
        at = replace(view, scores=scores)
        assert recorder.blind_nil(at) is ExpertBot().blind_nil(at)
        assert recorder.weighed[-1]["opponents"] == scores[1]
        assert recorder.weighed[-1]["bid"] is ExpertBot().blind_nil(at)
    assert [seen["bid"] for seen in recorder.weighed] == [True, False]
    assert recorder.weighed[0]["margin"] >= 10_000 >= recorder.weighed[1]["margin"]


def test_the_summary_splits_the_blind_nil_starts_by_margin_and_by_score() -> None:
    def row(number: int, weighed: list[tuple[int, int, bool]] | None, won: bool,
            won_without: bool) -> dict[str, object]:
        game: dict[str, object] = {"won": won, "hands": 1, "blind": 1, "final": [0, 500]}
        if weighed is not None:
            game["weighed"] = [{"opponents": opponents, "margin": margin, "bid": bid}
                               for opponents, margin, bid in weighed]
        return {"start": [number, [100, 450], [0, 0]], "with": game,
                "without": {"won": won_without, "hands": 1, "blind": 0, "final": [0, 500]}}

    rows = [
        # the first one weighed was not bid: the band is the first bid one's
        row(1, [(400, 5_000, False), (430, 12_000, True)], True, False),
        row(2, [(450, 60_000, True), (470, 1_000, False)], True, False),
        row(3, [(405, 25_000, True)], False, True),
        row(4, [(440, 19_999, True)], True, True),
        {"start": [5, [100, 450], [0, 0]],
         "with": {"won": False, "hands": 1, "blind": 0, "final": [0, 500], "weighed": []}},
    ]
    summary = tool.summarise(rows)
    assert summary["by_margin"] == {
        "1-2%": {"starts": 2, "only_with": 1, "only_without": 0},
        "2-3%": {"starts": 1, "only_with": 0, "only_without": 1},
        "5%+": {"starts": 1, "only_with": 1, "only_without": 0},
    }
    assert summary["by_opponents"] == {
        "400-419": {"starts": 1, "only_with": 0, "only_without": 1},
        "420-439": {"starts": 1, "only_with": 1, "only_without": 0},
        "440+": {"starts": 2, "only_with": 1, "only_without": 0},
    }
    older = [*rows, row(6, None, True, False)]  # a line written before ``weighed``
    assert tool.summarise(older)["by_margin"] is None
    assert tool.summarise(older)["by_opponents"] is None


def test_the_summary_counts_made_blind_nils_when_the_log_has_them() -> None:
    def game(won: bool, blind: int, made: int | None) -> dict[str, object]:
        found: dict[str, object] = {"won": won, "hands": 2, "blind": blind, "final": [0, 500]}
        if made is not None:
            found["blind_made"] = made
        return found

    rows = [
        {"start": [1, [100, 450], [0, 0]], "with": game(True, 2, 1), "without": game(False, 0, 0)},
        {"start": [2, [100, 450], [0, 0]], "with": game(False, 1, 0), "without": game(False, 0, 0)},
        {"start": [3, [100, 450], [0, 0]], "with": game(False, 0, 0)},
    ]
    assert tool.summarise(rows)["blind_nil_made"] == 1
    old = [*rows, {"start": [4, [100, 450], [0, 0]], "with": game(True, 1, None),
                   "without": game(True, 0, None)}]
    assert tool.summarise(old)["blind_nil_made"] is None


def test_logs_are_pooled_and_malformed_ones_refused(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def line(number: int, won: bool, blind_won: bool | None) -> str:
        row: dict[str, object] = {
            "start": [number, [100, 450], [0, 0]],
            "with": {"won": won, "hands": 1, "blind": int(blind_won is not None),
                     "blind_made": 0, "final": [0, 500]},
        }
        if blind_won is not None:
            row["without"] = {"won": blind_won, "hands": 1, "blind": 0, "blind_made": 0,
                              "final": [0, 500]}
        return json.dumps(row)

    first = tmp_path / "seed1.jsonl"
    first.write_text(line(1, True, False) + "\n\n" + line(2, False, None) + "\n")
    second = tmp_path / "seed2.jsonl"
    second.write_text(line(3, True, False) + "\n" + line(4, False, True) + "\n")
    assert tool.main(["--summarise", str(first), str(second)]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert pooled["starts"] == 4 and pooled["blind_nil_starts"] == 3
    assert (pooled["only_with"], pooled["only_without"]) == (2, 1)
    assert pooled["blind_nil_made"] == 0

    for bad in ("not json", '{"start": [1], "with": {"won": "yes", "blind": 0}}',
                '{"start": [1]}', "[1, 2]",
                '{"with": {"won": true, "blind": 1, "blind_made": "one"}}', '{"with": 5}',
                '{"with": {"won": true, "blind": 0}, "without": []}', '"text"',
                '{"with": {"won": true, "blind": 0, "weighed": [{"margin": 1}]}}',
                '{"with": {"won": true, "blind": 0, "weighed": {"margin": 1}}}',
                '{"with": {"won": true, "blind": 1, "weighed": [{"opponents": 400, '
                '"margin": true, "bid": true}]}}'):
        broken = tmp_path / "broken.jsonl"
        broken.write_text(line(1, True, False) + "\n" + bad + "\n")
        assert tool.main(["--summarise", str(broken)]) == 2
        error = capsys.readouterr().err
        assert "line 2" in error and len(error.strip().splitlines()) == 1
    undecodable = tmp_path / "latin.jsonl"
    undecodable.write_bytes(b"\xff\xfe\x00")
    assert tool.main(["--summarise", str(undecodable)]) == 2
    assert tool.main(["--summarise", str(tmp_path / "missing.jsonl")]) == 2


def test_the_replaying_bot_can_be_named() -> None:
    tool._init("normal", "tests.sparring.pimc:Pimc4x4")
    assert type(tool._BOTS["plain"]).__name__ == "Pimc4x4"
    tool._init("normal")
    assert isinstance(tool._BOTS["plain"], tool.NoBlindExpert)
    with pytest.raises(SystemExit):
        tool.main([])  # no bot B, no logs
    assert tool.main(["--b", "normal", "--without", "no.such:Bot"]) == 2
