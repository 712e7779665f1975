"""The deal's par (spades_core.par) and ``python -m spades_core par``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_core import GameState, Phase, Rules, Seat
from spades_core.bots import bot_action, make_bot
from spades_core.bots.expert import ExpertBot
from spades_core.par import par_game, par_to_dict, parting
from spades_core.record import dumps
from tests.test_cli_contract import _one_line_error, _run, _usage_error

SHORT = Rules(target=200)  # a short game keeps the tests quick


def test_par_is_a_pure_function_of_deal_level_and_rules() -> None:
    one = par_game(20261201, "beginner", SHORT)
    two = par_game(20261201, "beginner", SHORT)
    assert one.game == two.game
    assert one.game.phase is Phase.OVER
    assert par_to_dict(one)["par"] == one.game.scores[0]
    other = par_game(20261202, "beginner", SHORT)
    assert other.game != one.game


def test_the_par_game_is_the_expert_in_south_against_the_level() -> None:
    par = par_game(20261203, "beginner", SHORT)
    expert, others = ExpertBot(), make_bot("beginner")
    state = GameState.new(SHORT, deal=20261203)
    first = par.game.past_hands[0]
    for action in (*first.bid_history, *first.plays):
        bot = expert if state.to_act == Seat.S else others
        assert bot_action(bot, state) == action
        state = state.apply(action)


def _player_game(deal: int, rules: Rules, level: str, south: str, actions: int) -> GameState:
    """``actions`` actions of a game where ``south`` (a level) plays South."""
    bots = {"S": make_bot(south), "X": make_bot(level)}
    state = GameState.new(rules, deal=deal)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            break
        bot = bots["S"] if state.to_act == Seat.S else bots["X"]
        state = state.apply(bot_action(bot, state))
    return state


def test_parting_is_the_first_decision_that_differs() -> None:
    par = par_game(20261201, "beginner", SHORT)
    assert parting(par, par.game) is None
    player = _player_game(20261201, SHORT, "beginner", "beginner", 120)
    found = parting(par, player)
    assert found is not None
    assert found.seat == Seat.S  # the bots answer alike: only South can leave the par
    assert found.played != found.par
    mine = [(*p.bid_history, *p.plays) for p in player.past_hands]
    if player.phase in (Phase.BIDDING, Phase.PLAYING):
        mine.append((*player.bid_history, *player.plays))
    theirs = [(*p.bid_history, *p.plays) for p in par.game.past_hands]
    for hand in range(found.hand_index):
        assert mine[hand] == theirs[hand]
    at = found.action_index
    assert mine[found.hand_index][:at] == theirs[found.hand_index][:at]
    assert mine[found.hand_index][at] == found.played
    assert theirs[found.hand_index][at] == found.par
    # a prefix of the par game has not left it
    prefix = _player_game(20261201, SHORT, "beginner", "expert", 10)
    assert parting(par, prefix) is None


def test_par_command_prints_the_same_par() -> None:
    done = _run("par", "--deal", "20261201", "--level", "beginner", "--target", "200",
                timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == par_to_dict(par_game(20261201, "beginner", SHORT))
    assert "parted" not in printed


def test_par_command_with_a_record(tmp_path: Path) -> None:
    player = _player_game(20261201, SHORT, "beginner", "beginner", 60)
    path = tmp_path / "game.json"
    path.write_text(dumps(player))
    done = _run("par", "--deal", "20261201", "--level", "beginner", "--target", "200",
                "--record", str(path), timeout=300)
    assert done.returncode == 0, done.stderr
    parted = json.loads(done.stdout)["parted"]
    found = parting(par_game(20261201, "beginner", SHORT), player)
    assert found is not None and parted["seat"] == "S"
    assert (parted["hand"], parted["action"], parted["played"], parted["par"]) == (
        found.hand_index + 1, found.action_index + 1, str(found.played), str(found.par))


@pytest.mark.parametrize("args, argument", [
    (("par",), "--deal"),
    (("par", "--deal", "-1"), "--deal"),
    (("par", "--deal", "x" * 5000), "--deal"),
    (("par", "--deal", "1", "--target", "7"), "--target"),
])
def test_par_argument_errors(args: tuple[str, ...], argument: str) -> None:
    _usage_error(_run(*args), argument)


def test_par_errors_are_one_line(tmp_path: Path) -> None:
    assert "unknown bot" in _one_line_error(_run("par", "--deal", "1", "--level", "grandmaster"))
    other = tmp_path / "other.json"
    other.write_text(dumps(GameState.new(SHORT, deal=2)))
    line = _one_line_error(_run("par", "--deal", "1", "--target", "200", "--record", str(other)))
    assert "not a game of deal 1" in line
    assert _one_line_error(_run("par", "--deal", "1", "--record", str(tmp_path / "none")))
    assert _one_line_error(_run("par", "--deal", "1", "--record", "-", stdin=b"{"))


@pytest.mark.parametrize(("deal", "level", "rules"), [
    (20261201, "beginner", SHORT),
    (20261202, "normal", SHORT),
    (20261204, "beginner", Rules(target=150, blind_nil=False, bag_limit=5)),
])
def test_the_par_hand_by_hand_is_the_par_game(deal: int, level: str, rules: Rules) -> None:
    from spades_core.par import par_hand, par_of, par_start

    state = par_start(deal, rules)
    hands = 0
    while state.phase is not Phase.OVER:
        before = len(state.past_hands)
        state = par_hand(state, level)
        hands += 1
        assert len(state.past_hands) == before + 1  # one hand a call
    par = par_game(deal, level, rules)
    assert state == par.game
    assert hands == par.hands
    assert par_to_dict(par_of(state, level)) == par_to_dict(par)
    assert par_hand(state, level) is state  # a game over plays nothing
