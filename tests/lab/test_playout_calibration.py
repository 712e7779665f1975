"""lab/playout_calibration.py: the play-out player's outcomes against the table's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spades_core.bids import parse_bid
from spades_core.bots.expert import ExpertBudget
from spades_core.bots.policy import PolicyBot
from spades_core.cards import CARDS
from spades_core.game import GameState, Phase, _new_hand
from spades_core.rules import Rules
from spades_core.views import view_for
from tests.helpers import load_lab

tool = load_lab("playout_calibration")
POLICY = "spades_core.bots.policy:PolicyBot"


def _figures(rows: list[dict[str, Any]], eager: str = "none") -> dict[str, Any]:
    found: dict[str, Any] = tool.summarise(rows, eager)
    return found


def test_the_play_out_player_at_the_table_is_predicted_exactly() -> None:
    # Four seats playing the play-out player's own card: replayed in the true deal from
    # any of A's decisions (or from the bids), the play-out must take the same tricks.
    rows = list(tool.run(POLICY, POLICY, 3, 2, 1))
    assert len(rows) == 6 and all(len(row["plays"]) == 52 for row in rows)
    figures = _figures(rows)
    assert figures["early our tricks bias"]["n"] > 20 and figures["mid our tricks bias"]["n"] > 10
    for key, value in figures.items():
        if "bias" in key or "miss" in key or "squared" in key:
            assert value["mean"] == 0, key
    assert not [key for key in figures if key.startswith("turns")]  # no card differs
    for side in ("a", "b"):
        assert (figures[f"bid {side} set at the table"]["mean"]
                == figures[f"bid {side} set in the play-out"]["mean"])


def _engine_biases(row: dict[str, Any]) -> list[int]:
    """The tool's per-decision "our tricks bias", worked out on the engine instead: the
    hand rebuilt with GameState, and each of A's decisions (a choice, five tricks or more
    to go) played on with A's card and then the play-out player at every seat."""
    rules = Rules()
    state = GameState._start(_new_hand(rules, row["deal"], (), tuple(row["dealt"]),
                                       tuple(row["start"][0]), tuple(row["start"][1])),
                             Phase.BIDDING)
    for offset in range(4):
        seat = (row["leader"] + offset) & 3
        state = state.apply(parse_bid(row["bids"][seat]), state.to_act)
    player = PolicyBot()
    found = []
    for card_id in row["plays"]:
        seat = state.to_act
        assert seat is not None
        to_go = 13 - sum(state.tricks_won)
        if int(seat) & 1 == row["a_team"] and to_go >= 5 and len(state.legal_plays()) > 1:
            after = state.apply(CARDS[card_id], seat)
            while after.hand_index == 0 and after.phase is not Phase.OVER:
                who = after.to_act
                assert who is not None
                after = after.apply(player.play(view_for(after, who)), who)
            played = after.past_hands[0].tricks
            team = int(seat) & 1
            found.append(row["tricks"][team] + row["tricks"][team + 2]
                         - played[team] - played[team + 2])
        state = state.apply(CARDS[card_id], seat)
    return found


def test_each_decision_is_played_on_as_the_engine_plays_it_on() -> None:
    rows = list(tool.run("normal", "beginner", 2, 4, 1))
    for row in rows:
        measured = tool.measure(row)
        assert (measured["early our tricks bias"] + measured["mid our tricks bias"]
                == _engine_biases(row))


def test_other_players_are_not_predicted_exactly_and_biases_are_table_less_play_out() -> None:
    rows = list(tool.run("normal", "beginner", 2, 4, 1))
    figures = _figures(rows)
    assert figures["early our tricks squared error"]["mean"] > 0
    assert [key for key in figures if key.startswith("turns of A's contract by")]
    # the two teams' bid-level biases are opposite: the tricks of a hand add up to 13
    assert figures["bid a tricks bias"]["mean"] == -figures["bid b tricks bias"]["mean"]


def test_eager_names_the_team_that_plays_for_every_trick() -> None:
    bids = [tool.Bid(3)] * 4
    assert tool._contracts(bids, 0, "none").eager == (False, False)
    assert tool._contracts(bids, 1, "ours").eager == (False, True)
    assert tool._contracts(bids, 1, "theirs").eager == (True, False)
    assert tool._contracts(bids, 0, "both").eager == (True, True)
    rows = list(tool.run("normal", "beginner", 2, 4, 1))
    assert _figures(rows, "both") != _figures(rows)


def test_forecasts_give_a_share_of_imagined_deals_for_each_of_as_bids() -> None:
    budget = ExpertBudget(bid_worlds=6)
    for row in tool.run("normal", "beginner", 2, 6, 1):
        found = tool.forecasts(row, budget)
        foreseen = [share for key, shares in found.items() if key.endswith("foreseen")
                    and ", no Nil" not in key for share in shares]
        table = [value for key, values in found.items() if key.endswith("at the table")
                 and ", no Nil" not in key for value in values]
        assert len(foreseen) == len(table) == 2  # one a seat of A's team
        assert all(share in {n / 6 for n in range(7)} for share in foreseen)
        assert all(value in (0, 1) for value in table)


def test_a_log_is_read_back_to_the_same_figures(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "calibration.jsonl"
    assert tool.main(["--a", "normal", "--b", "beginner", "--pairs", "1", "--seed", "3",
                      "--log", str(log)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert tool.main(["--from", str(log)]) == 0
    assert json.loads(capsys.readouterr().out) == played
    assert played["hands"] == 2 and len(log.read_text(encoding="utf-8").splitlines()) == 2


def test_a_log_whose_plays_do_not_give_its_tricks_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = next(tool.run("normal", "beginner", 1, 3, 1))
    wrong = dict(row, tricks=[row["tricks"][1], row["tricks"][0], *row["tricks"][2:]])
    if wrong["tricks"] == row["tricks"]:
        wrong["tricks"] = [13, 0, 0, 0]
    for bad in (json.dumps(wrong), '{"deal": 1}', "not json",
                json.dumps(dict(row, bids=["3", "3", "3", "banana"]))):
        log = tmp_path / "bad.jsonl"
        log.write_text(json.dumps(row) + "\n" + bad + "\n", encoding="utf-8")
        assert tool.main(["--from", str(log)]) == 2
        assert capsys.readouterr().err.startswith("playout_calibration: ")
