"""Lessons: data files read into frozen values, and the small predicates that judge them.

A lesson is one JSON file in ``lessons/`` (the format is described in
``docs/lessons.md``): a title, and steps on partial positions (``explain``, ``play``,
``bid``, ``answer``, ``watch``, ``practice``).  This package reads and checks those
files against the engine (every position is built with :meth:`GameState.position`,
every expected card is legal there, every scripted play is applied by the engine,
every claim an answer makes is computed by the engine) and judges the learner's
actions with :func:`check_action`.

There is no player-facing text here: every text comes from the lesson files, in
English and French (:class:`Text`).  The loader is pure: :func:`load_library` takes
the files' texts; :func:`load_library_dir` only reads a directory first.  Adding a
lesson is adding a file.

Modules: :mod:`.model` (the values: positions, claims, steps, the library),
:mod:`.reader` (files into a checked library) with :mod:`.fields` (its small readers),
:mod:`.judge` (the learner's actions, and the engine's answer to a claim).
"""

from __future__ import annotations

from .judge import (
    Action,
    Outcome,
    apply_watch,
    check_action,
    claim_problems,
    hand_scores,
    scene_after,
    step_view,
)
from .model import (
    ASK_KINDS,
    GROUPS,
    LANGS,
    LEARNER,
    LESSON_FORMAT,
    LEVELS,
    LOOK,
    NO_HIGHLIGHTS,
    PLACEHOLDER_BID,
    RULE_TOPICS,
    SHARED_FILE,
    SHARED_FORMAT,
    SITUATIONS,
    TABLE_ASKS,
    TIP_KEYS,
    ActingStep,
    AnswerStep,
    BiddingPosition,
    BidStep,
    Claim,
    ExplainStep,
    Highlights,
    Lesson,
    LessonError,
    Library,
    PlayStep,
    Position,
    PracticeStep,
    Run,
    Scene,
    Shared,
    Step,
    Text,
    WatchStep,
)
from .reader import (
    load_lesson,
    load_library,
    load_library_dir,
    load_shared,
)

__all__ = [
    "ASK_KINDS",
    "GROUPS",
    "LANGS",
    "LEARNER",
    "LESSON_FORMAT",
    "LEVELS",
    "LOOK",
    "NO_HIGHLIGHTS",
    "PLACEHOLDER_BID",
    "RULE_TOPICS",
    "SHARED_FILE",
    "SHARED_FORMAT",
    "SITUATIONS",
    "TABLE_ASKS",
    "TIP_KEYS",
    "ActingStep",
    "Action",
    "AnswerStep",
    "BidStep",
    "BiddingPosition",
    "Claim",
    "ExplainStep",
    "Highlights",
    "Lesson",
    "LessonError",
    "Library",
    "Outcome",
    "PlayStep",
    "Position",
    "PracticeStep",
    "Run",
    "Scene",
    "Shared",
    "Step",
    "Text",
    "WatchStep",
    "apply_watch",
    "check_action",
    "claim_problems",
    "hand_scores",
    "load_lesson",
    "load_library",
    "load_library_dir",
    "load_shared",
    "scene_after",
    "step_view",
]
