"""The par hand by hand, as the coach's worker computes it (ui/botworker.py ``par_step``,
the same text as the main thread's ``ui.shared.botrunner.par_step_steps``)."""

from __future__ import annotations

import json

import pytest

from spades_core import GameState, Phase, Rules
from spades_core.bots import bot_action, make_bot
from spades_core.par import par_game, par_to_dict
from spades_core.record import dumps, loads
from tests.helpers import drain
from ui import botworker
from ui.shared.botrunner import par_step_steps

DEAL = 20261201
RULES = Rules(target=200)


def _player_game() -> GameState:
    """A finished game of the deal, every seat the Beginner (South too)."""
    bot = make_bot("beginner")
    state = GameState.new(RULES, deal=DEAL)
    while state.phase is not Phase.OVER:
        state = state.apply(bot_action(bot, state))
    return state


def test_par_step_plays_one_hand_a_call_to_the_par() -> None:
    player = _player_game()
    player_text = dumps(player)
    expected = par_game(DEAL, "beginner", RULES)
    record, answers = "", []
    while True:
        data = json.loads(botworker.par_step(record, player_text, "beginner"))
        answers.append(data)
        record = data["record"]
        if data["over"]:
            break
        assert data["par"] is None
    assert [data["hands"] for data in answers] == list(range(1, expected.hands + 1))
    for data in answers:  # the running scores: the par game's after that many hands
        hand = expected.game.past_hands[data["hands"] - 1]
        assert (data["scores"]["NS"], data["scores"]["EW"]) == hand.scores
    assert loads(record) == expected.game
    assert answers[-1]["par"] == par_to_dict(expected, player)
    assert answers[-1]["scores"] == {"NS": expected.scores[0], "EW": expected.scores[1]}
    # an over par game plays nothing more: the same answer, at once
    assert json.loads(botworker.par_step(record, player_text, "beginner")) == answers[-1]


def test_the_main_threads_steps_give_the_workers_text() -> None:
    player_text = dumps(GameState.new(RULES, deal=DEAL))
    text, count = drain(par_step_steps("", player_text, "beginner"))
    assert count > 1  # it yields: the main thread can pause
    assert text == botworker.par_step("", player_text, "beginner")


def test_a_par_game_of_another_deal_is_refused() -> None:
    other = dumps(GameState.new(RULES, deal=DEAL + 1))
    with pytest.raises(ValueError, match="deal and rules"):
        botworker.par_step(other, dumps(GameState.new(RULES, deal=DEAL)), "beginner")
