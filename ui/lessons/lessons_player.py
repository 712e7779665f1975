"""The lesson player's logic, without the DOM: which step, what the table shows, judging choices.

Pure Python over :mod:`spades_core.lessons` (no browser import), so the CPython tests can walk
every lesson through it. ``ui/lessons/lessons_screen.py`` draws what this says and sends it the
clicks.
Nothing here decides a rule: legality, refusals and the right answers come from ``check_action``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from spades_core.cards import parse_card
from spades_core.lessons import (
    LOOK,
    ActingStep,
    AnswerStep,
    BiddingPosition,
    BidStep,
    Lesson,
    PlayStep,
    Position,
    PracticeStep,
    Scene,
    Shared,
    Step,
    Text,
    WatchStep,
    check_action,
)

from ..shared import i18n
from ..shared.models import card_short

Translate = Callable[..., str]  # t(key, **params) -> text (the lessons' own keys)

def choice_label(step: AnswerStep | BidStep, token: str, lang: str, t: Translate) -> str:
    """The text of an answer or bid choice in the language."""
    if isinstance(step, BidStep):
        if token == LOOK:
            return t("bid.look")
        return i18n.bid_text(token)
    label = step.labels.get(token)
    if label is not None:
        return label.get(lang)
    if step.ask == "seat" and token in ("N", "E", "S", "W"):
        return i18n.seat_name(token, person=False)
    if step.ask == "team" and token in ("NS", "EW", "none"):
        return t(f"team.{token}")
    if step.ask in ("card", "cards"):
        return card_short(parse_card(token))
    if step.ask == "number" and token.lstrip("-").isdigit():
        return i18n.number(int(token))  # "−49", with the minus sign
    return token


@dataclass
class StepState:
    """What the learner has done on one step (kept while the lesson is open)."""

    solved: bool = False
    chosen: str | None = None  # the right choice made (a card for play steps)
    wrong: str | None = None  # the last wrong choice
    wrong_cards: set[str] = field(default_factory=set)  # "cards" answers: picked, not right
    hint: bool = False  # the Hint button was pressed, or a wrong choice lit the answer up
    message: Text | None = None  # feedback or success text to show
    fallback: str | None = None  # a locale key when the lesson gives no text (an engine refusal)
    refusal: str | None = None  # the engine's refusal key for an illegal card
    refusal_params: dict[str, str] = field(default_factory=dict)  # and its parameters
    selected: set[str] = field(default_factory=set)  # "cards" answers: the cards picked so far
    watched: int = 0  # watch steps: the scripted plays shown so far
    misses: int = 0  # wrong actions so far (the answer is shown after the second)
    hinted: bool = False  # the Hint button was pressed

    @property
    def stars(self) -> int | None:
        """3 right at the first try, 2 after a hint or one miss, 1 otherwise (None: unsolved)."""
        if not self.solved:
            return None
        slips = self.misses + (1 if self.hinted else 0)
        return 3 if slips == 0 else 2 if slips == 1 else 1


@dataclass(frozen=True)
class Verdict:
    correct: bool
    message: Text | None
    refusal: str | None = None


class Player:
    """One lesson being played: the current step and what was done on each step."""

    def __init__(self, lesson: Lesson, shared: Shared, start: int = 0,
                 on_done: Callable[[int], None] | None = None) -> None:
        self.lesson = lesson
        self.shared = shared
        self.states: dict[int, StepState] = {}
        self.on_done = on_done or (lambda _index: None)
        self.index = 0
        self.go(start)

    # --- navigation -------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def total(self) -> int:
        return len(self.lesson.steps)

    @property
    def state(self) -> StepState:
        return self.states.setdefault(self.index, StepState())

    def go(self, index: int) -> None:
        self.index = max(0, min(index, self.total - 1))
        step = self.step
        seen = isinstance(step, WatchStep) and self.state.watched >= len(step.plays)
        if step.kind == "explain" or seen:
            self.on_done(self.index)

    def next(self) -> bool:
        """Go to the next step; False at the last one."""
        if self.index + 1 >= self.total:
            return False
        self.go(self.index + 1)
        return True

    def previous(self) -> bool:
        if self.index == 0:
            return False
        self.go(self.index - 1)
        return True

    # --- what the table shows ---------------------------------------------------------

    def scene(self) -> Scene:
        step = self.step
        state = self.state
        if isinstance(step, PlayStep) and state.solved and state.chosen is not None:
            return step.scene.then((parse_card(state.chosen),))
        if isinstance(step, WatchStep):
            return step.scene.then(step.plays[: state.watched])
        return step.scene

    def watch_more(self) -> bool:
        """Show one more scripted play of a watch step; False when all are shown."""
        step = self.step
        if not isinstance(step, WatchStep):
            return False
        state = self.state
        if state.watched >= len(step.plays):
            return False
        state.watched += 1
        if state.watched == len(step.plays):
            self.on_done(self.index)
        return True

    def watch_all(self) -> None:
        while self.watch_more():
            pass

    def replay_watch(self) -> None:
        self.state.watched = 0

    def lit(self) -> frozenset[str]:
        """Tokens (cards, choices) the hint lights up now."""
        step = self.step
        if not isinstance(step, PlayStep | BidStep | AnswerStep) or not self.state.hint:
            return frozenset()
        hint = step.hint
        return frozenset(str(card) for card in hint.cards) | frozenset(hint.choices)

    def marked(self) -> frozenset[str]:
        """Tokens the step itself highlights (cards, choices)."""
        hl = self.step.highlights
        return frozenset(str(card) for card in hl.cards) | frozenset(hl.choices)

    # --- acting -------------------------------------------------------------------------

    def acting(self) -> ActingStep | None:
        step = self.step
        return step if isinstance(step, PlayStep | BidStep | AnswerStep) else None

    def show_hint(self) -> None:
        if self.acting() is not None:
            if not self.state.solved:
                self.state.hinted = True
            self.state.hint = True

    def lesson_stars(self) -> int | None:
        """The lesson's stars once every acting step is solved: the mean of the steps'
        stars, rounded down (3 when the lesson has no acting step)."""
        stars = []
        for index, step in enumerate(self.lesson.steps):
            if isinstance(step, PlayStep | BidStep | AnswerStep):
                value = self.states.get(index, StepState()).stars
                if value is None:
                    return None
                stars.append(value)
        return sum(stars) // len(stars) if stars else 3

    def submit_entry(self, text: str) -> Verdict | None:
        """Judge a number typed in a number field (``ask: "entry"``)."""
        step = self.acting()
        if not isinstance(step, AnswerStep) or not step.entry or self.state.solved:
            return None
        if not text.strip():
            return None
        return self._judge(step, text)

    def choose(self, token: str) -> Verdict | None:
        """Judge a card, bid or answer choice (None when the step is not waiting for one)."""
        step = self.acting()
        if step is None or self.state.solved:
            return None
        if isinstance(step, AnswerStep) and step.ask == "cards":
            selected = self.state.selected
            selected.symmetric_difference_update({token})
            self.state.wrong_cards.discard(token)  # a card put back is no longer marked
            return None
        return self._judge(step, token)

    def submit_cards(self) -> Verdict | None:
        """Judge a "cards" answer with the cards selected so far."""
        step = self.acting()
        if not isinstance(step, AnswerStep) or step.ask != "cards" or self.state.solved:
            return None
        return self._judge(step, sorted(self.state.selected))

    def _judge(self, step: ActingStep, action: str | list[str]) -> Verdict:
        outcome = check_action(step, action, self.shared)
        state = self.state
        token = action if isinstance(action, str) else " ".join(action)
        refusal = outcome.refusal.reason if outcome.refusal is not None else None
        if outcome.correct:
            state.solved = True
            state.chosen = str(parse_card(token)) if isinstance(step, PlayStep) else token
            if isinstance(step, AnswerStep) and step.entry:
                state.chosen = step.expect[0]
            state.wrong = None
            state.message = outcome.feedback
            state.fallback = None if outcome.feedback is not None else "feedback.right"
            state.refusal = None
            self.on_done(self.index)
        else:
            if isinstance(step, AnswerStep) and step.ask == "cards":
                state.wrong = None  # the cards picked that are not right; a right one never
                state.wrong_cards = set(outcome.wrong)
            else:
                state.wrong = str(parse_card(token)) if isinstance(step, PlayStep) else token
            state.misses += 1
            state.hint = state.hint or state.misses >= 2  # try again; the answer after two
            state.message = outcome.feedback
            state.refusal = refusal
            state.refusal_params = ({k: str(v) for k, v in outcome.refusal.params.items()}
                                    if outcome.refusal is not None else {})
            state.fallback = None
            if outcome.feedback is None and not refusal:
                state.fallback = "feedback.wrong"
        return Verdict(outcome.correct, outcome.feedback, refusal)

    def practice(self) -> PracticeStep | None:
        step = self.step
        if isinstance(step, PracticeStep):
            self.on_done(self.index)
            return step
        return None


def bidding_scene(scene: Scene) -> BiddingPosition | None:
    return scene if isinstance(scene, BiddingPosition) else None


def play_scene(scene: Scene) -> Position | None:
    return scene if isinstance(scene, Position) else None
