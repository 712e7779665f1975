"""After a lesson's practice hand: how the lesson's tip went in it.

The coach's review (:mod:`spades_core.review`) lists the hand's costliest decisions of
South, each with the hint's tip for the better action.  :func:`practice_report` puts it
beside the lesson: whether the situation the practice was chosen for arose in the hand
as it was played (:func:`.practice.situation_arises`), and which of the review's items,
if any, is about one of the lesson's tips (the costliest; the review lists them
costliest first).  The verdict is one of

- ``"costly"``: a decision on the lesson's tips cost points (``item`` is its index in
  the review's items);
- ``"matched"``: the situation arose and no decision on the lesson's tips cost points
  (the review flags every decision costing at least :data:`spades_core.review.MIN_COST`);
- ``"absent"``: the situation did not arise and no decision on the tips cost points;
- ``"unreviewed"``: the review could not be made (``review`` is None); ``arose`` still says
  whether the situation arose.

Keys only, no text: the page words the line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import UsageError
from ..game import GameState
from .model import SITUATIONS, Lesson, PracticeStep
from .practice import situation_arises

__all__ = [
    "VERDICTS", "PracticeReport", "lesson_tips", "practice_report", "practice_step",
    "report_to_dict",
]

VERDICTS = ("costly", "matched", "absent", "unreviewed")


@dataclass(frozen=True, slots=True)
class PracticeReport:
    """How a lesson's tip went in its practice hand (see the module)."""

    situation: str
    arose: bool
    verdict: str  # one of VERDICTS
    tip: str  # the lesson's tip the line is about: the costly item's, else the lesson's first
    item: int | None = None  # index of the costly decision in the review's items


def lesson_tips(lesson: Lesson) -> tuple[str, ...]:
    """The tips a lesson's acting steps teach, in the order first taught."""
    found: list[str] = []
    for step in lesson.acting_steps:
        if step.tip is not None and step.tip not in found:
            found.append(step.tip)
    return tuple(found)


def practice_step(lesson: Lesson) -> PracticeStep | None:
    """The lesson's practice step (a strategy lesson's last), or None."""
    for step in lesson.steps:
        if isinstance(step, PracticeStep):
            return step
    return None


def practice_report(state: GameState, situation: str, tips: Sequence[str],
                    review: Sequence[Mapping[str, object]] | None) -> PracticeReport:
    """The report on the practice hand just finished in ``state`` (after its last card):
    ``situation`` is the practice step's, ``tips`` the lesson's, ``review`` the review's
    items (``review_to_dict(...)["items"]``) or None when there is no review."""
    if situation not in SITUATIONS:
        raise UsageError(f"unknown situation {situation!r}")
    if not tips:
        raise UsageError("a practice report needs the lesson's tips")
    arose = situation_arises(situation, state)
    if review is None:
        return PracticeReport(situation, arose, "unreviewed", tips[0])
    for index, item in enumerate(review):
        tip = item.get("tip")
        if isinstance(tip, str) and tip in tips:
            return PracticeReport(situation, arose, "costly", tip, index)
    return PracticeReport(situation, arose, "matched" if arose else "absent", tips[0])


def report_to_dict(report: PracticeReport) -> dict[str, object]:
    """The report as plain data, for the page."""
    return {"situation": report.situation, "arose": report.arose, "verdict": report.verdict,
            "tip": report.tip, "item": report.item}
