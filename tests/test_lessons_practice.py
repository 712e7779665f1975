"""Practice hands: each strategy lesson's practice is one hand where its situation arises."""

from __future__ import annotations

from pathlib import Path

import pytest

from spades_core import GameState, Phase, Rules, Seat
from spades_core.deal import deal_hand
from spades_core.lessons import SITUATIONS, LessonError, PracticeStep, load_library_dir
from spades_core.lessons.practice import (
    play_hand,
    practice_state,
    situation_arises,
    stop_for,
)
from spades_core.seats import dealer_of_hand

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
LIBRARY = load_library_dir(LESSONS)
PRACTICES = [(lesson.id, lesson.steps[-1]) for lesson in LIBRARY.lessons
             if lesson.group == "strategy"]


def _practice(step: object) -> PracticeStep:
    assert isinstance(step, PracticeStep)
    return step


@pytest.mark.parametrize(("lesson_id", "step"), PRACTICES, ids=[i for i, _ in PRACTICES])
def test_the_practice_situation_arises_when_the_hand_is_replayed(lesson_id: str,
                                                                 step: object) -> None:
    practice = _practice(step)
    assert practice.situation in SITUATIONS, lesson_id
    start = practice_state(practice.deal, practice.hand)
    end = play_hand(start, practice.level)  # the whole hand, South played by the coach
    assert end.hand_index == start.hand_index + 1 or end.phase is Phase.OVER
    assert situation_arises(practice.situation, end), (lesson_id, practice.deal)


def test_each_strategy_lesson_has_its_own_practice_deal_and_one_hand() -> None:
    deals = [(_practice(step).deal, _practice(step).hand) for _, step in PRACTICES]
    assert len(set(deals)) == len(deals)
    assert len(PRACTICES) >= 12


def test_every_situation_can_fail() -> None:
    """No check is always true: for each, some deal of 1..80 does not show it."""
    for key in SITUATIONS:
        hand = 2 if key == "bids-last" else 1  # hand 1: South bids first
        for deal in range(1, 81):
            start = practice_state(deal, hand)
            if not situation_arises(key, play_hand(start, "beginner", south="beginner",
                                                   stop=stop_for(key))):
                break
        else:
            pytest.fail(f"{key} arose on every deal")


def test_practice_state_is_the_deals_hand_with_its_dealer() -> None:
    for hand in (1, 2, 3, 4):
        state = practice_state(77, hand)
        assert state.hand_index == hand - 1
        assert state.dealer == dealer_of_hand(hand - 1)
        assert state.phase is Phase.BIDDING and not state.bid_history
        dealt = deal_hand(77, hand - 1, Rules().deck_mask)
        assert state.dealt_masks == dealt
    assert practice_state(77, 3) == practice_state(77, 3)  # deterministic
    assert practice_state(77, 1) == GameState.new(Rules(), deal=77)


def test_south_bids_later_in_later_hands() -> None:
    for hand, place in ((1, 0), (2, 3), (3, 2), (4, 1)):
        state = play_hand(practice_state(5, hand), "normal", stop=stop_for("bids-last"))
        assert state.to_act == Seat.S and len(state.bid_history) == place


def test_a_strategy_practice_must_name_a_known_situation(tmp_path: Path) -> None:
    source = (LESSONS / "strategy-12-second-third-cheap.json").read_text(encoding="utf-8")
    files = {p.name: p.read_text(encoding="utf-8") for p in LESSONS.glob("*.json")}
    for bad, message in (('"situation": "nowhere"', "situation: must be one of"),
                         ('"hand": 9', "hand: a practice is one of the deal's first four hands")):
        key = bad.split(":")[0]
        lines = [line for line in source.splitlines() if line.strip().startswith(key)]
        assert lines, key
        text = source.replace(lines[-1].strip().rstrip(","), bad)
        broken = dict(files, **{"strategy-12-second-third-cheap.json": text})
        from spades_core.lessons import load_library

        with pytest.raises(LessonError, match=message):
            load_library(broken)
