"""After a practice hand: the report on how the lesson's tip went (situation, review items)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades_core.errors import UsageError
from spades_core.game import GameState
from spades_core.lessons import SITUATIONS, PracticeStep, load_library_dir
from spades_core.lessons.practice import play_hand, practice_state, situation_arises
from spades_core.lessons.practice_review import (
    lesson_tips,
    practice_report,
    practice_step,
    report_to_dict,
)
from spades_core.review import review_hand, review_to_dict

LIBRARY = load_library_dir(Path(__file__).resolve().parent.parent / "lessons")


def _played(lesson_id: str) -> tuple[GameState, PracticeStep, tuple[str, ...]]:
    lesson = LIBRARY.lesson(lesson_id)
    step = practice_step(lesson)
    assert step is not None
    end = play_hand(practice_state(step.deal, step.hand), step.level)
    return end, step, lesson_tips(lesson)


def test_every_strategy_lesson_has_tips_and_a_practice() -> None:
    for lesson in LIBRARY.group("strategy"):
        assert lesson_tips(lesson), lesson.id
        step = practice_step(lesson)
        assert step is not None and step.situation, lesson.id
    assert practice_step(LIBRARY.lesson("rules-01-table")) is None


def test_a_costly_decision_on_the_lessons_tip_is_named() -> None:
    end, step, tips = _played("strategy-05-cover-partner-nil")
    other = {"tip": "bags-cost", "cost": 120}
    mine = {"tip": tips[0], "cost": 80}
    report = practice_report(end, step.situation, tips, [other, mine])
    assert report.verdict == "costly" and report.item == 1 and report.tip == tips[0]
    assert report.arose


def test_no_costly_decision_on_the_tip_means_matched_when_the_situation_arose() -> None:
    end, step, tips = _played("strategy-05-cover-partner-nil")
    situation = step.situation
    assert situation_arises(situation, end)
    report = practice_report(end, situation, tips, [{"tip": "bags-cost", "cost": 90}])
    assert (report.verdict, report.item, report.arose) == ("matched", None, True)
    assert report_to_dict(report) == {"situation": situation, "arose": True,
                                      "verdict": "matched", "tip": tips[0], "item": None}
    unreviewed = practice_report(end, situation, tips, None)
    assert (unreviewed.verdict, unreviewed.arose) == ("unreviewed", True)


def test_a_situation_that_did_not_arise_is_said() -> None:
    # strategy-05's hand has North's Nil; no opponent bids Nil in it
    end, _step, tips = _played("strategy-05-cover-partner-nil")
    assert not situation_arises("opponent-nil", end)
    report = practice_report(end, "opponent-nil", tips, [])
    assert (report.verdict, report.arose) == ("absent", False)
    with pytest.raises(UsageError):
        practice_report(end, "no-such-situation", tips, [])
    with pytest.raises(UsageError):
        practice_report(end, "opponent-nil", (), [])


def test_the_report_reads_the_coachs_real_review() -> None:
    end, step, tips = _played("strategy-07-dont-trump-partner")
    review = review_to_dict(review_hand(end, len(end.past_hands) - 1, worlds=8))
    items = review["items"]
    assert isinstance(items, list)
    report = practice_report(end, step.situation, tips, items)
    # the coach played South, so none of its own decisions is flagged
    assert report.verdict == "matched" and report.arose


def test_every_situation_and_verdict_has_its_words_in_both_languages() -> None:
    locales = Path(__file__).resolve().parent.parent / "locales"
    catalogues = {lang: json.loads((locales / lang / "coach.json").read_text("utf-8"))
                  for lang in ("en", "fr")}
    keys = [f"practice.situation.{key}" for key in SITUATIONS] + [
        "practice.title", "practice.computing", "practice.costly", "practice.matched",
        "practice.absent", "practice.absent-too", "practice.arose", "practice.back"]
    for key in keys:
        texts = [catalogues[lang].get(key) for lang in ("en", "fr")]
        assert all(texts), key
        fields = [set(re.findall(r"\{(\w+)", str(text))) for text in texts]
        assert fields[0] == fields[1], key
