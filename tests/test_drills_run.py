from __future__ import annotations

import pytest

from spades_core.errors import SpadesError
from spades_core.lessons.drills import ITEMS, NilItem
from ui.drills_run import DrillRun


def test_a_nil_drill_answered_by_the_expert_scores_ten_and_ends() -> None:
    run = DrillRun("nil")
    for _ in range(ITEMS):
        found = run.current
        assert isinstance(found, NilItem)
        assert run.answer(found.nil)
        with pytest.raises(SpadesError):
            run.answer(found.nil)
        run.next()
    assert run.finished and run.score == ITEMS


def test_wrong_answers_count_nothing_and_next_needs_an_answer() -> None:
    run = DrillRun("nil")
    with pytest.raises(SpadesError):
        run.next()
    found = run.current
    assert isinstance(found, NilItem)
    assert not run.answer(not found.nil)
    assert run.score == 0
    with pytest.raises(SpadesError):
        DrillRun("nope")
