"""Reading lesson files: JSON texts into a checked :class:`~.model.Library`, every
position built and every expected action checked by the engine."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from ..bids import BLIND_NIL, BidParseError, parse_bid
from ..cards import Card
from ..rules import DEFAULT_RULES, Rules
from .fields import (
    list_of,
    play_checked,
    read_bidding,
    read_card,
    read_cards,
    read_claim,
    read_highlights,
    read_int,
    read_object,
    read_position,
    read_rules,
    read_text,
    read_texts,
)
from .judge import (
    claim_problems,
    scene_after,
)
from .model import (
    ASK_KINDS,
    GROUPS,
    LEARNER,
    LESSON_FORMAT,
    LEVELS,
    LOOK,
    RULE_TOPICS,
    SHARED_FILE,
    SHARED_FORMAT,
    SITUATIONS,
    TIP_KEYS,
    AnswerStep,
    At,
    BiddingPosition,
    BidStep,
    ExplainStep,
    Highlights,
    Lesson,
    LessonError,
    Library,
    PlayStep,
    Position,
    PracticeStep,
    Scene,
    Shared,
    Step,
    Text,
    WatchStep,
)

_ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_NUMBER_PATTERN = re.compile(r"^-?[0-9]+$")


# --- reading the files --------------------------------------------------------------------


def _as_is(_at: At, key: str) -> str:
    """A key kept as written (a refusal reason, a choice's label)."""
    return key


def load_library(files: Mapping[str, str], *, check_claims: bool = True) -> Library:
    """Read every lesson from ``{file name: text}`` (``_shared.json`` gives shared defaults).

    Files whose name does not end in ``.json`` are ignored, as are other names starting
    with ``_``.  Raise :class:`LessonError` for the first problem found.
    """
    shared = Shared()
    if SHARED_FILE in files:
        shared = load_shared(SHARED_FILE, files[SHARED_FILE])
    lessons: list[Lesson] = []
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        if not base.endswith(".json") or base.startswith("_"):
            continue
        lessons.append(load_lesson(name, files[name], shared, check_claims=check_claims))
    seen: dict[str, str] = {}
    orders: dict[tuple[str, int], str] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(lesson.file, None, "id", f"{lesson.id!r} is also {seen[lesson.id]}")
        seen[lesson.id] = lesson.file
        key = (lesson.group, lesson.order)
        if key in orders:
            raise LessonError(lesson.file, None, "order",
                              f"{lesson.group} order {lesson.order} is also {orders[key]}")
        orders[key] = lesson.file
    lessons.sort(key=lambda lesson: (GROUPS.index(lesson.group), lesson.order))
    return Library(tuple(lessons), shared)


def load_library_dir(directory: str | Path = "lessons", *, check_claims: bool = True) -> Library:
    """Read every ``*.json`` file of a directory with :func:`load_library`."""
    root = Path(directory)
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(root.glob("*.json"))}
    return load_library(files, check_claims=check_claims)


def load_shared(name: str, text: str) -> Shared:
    at = At(name)
    data = read_object(at, _parse_json(at, text), required=("format",),
                   optional=("feedback", "success", "refusals"))
    if data["format"] != SHARED_FORMAT:
        raise at.at("format").error(f"expected {SHARED_FORMAT!r}")
    feedback = read_text(at.at("feedback"), data["feedback"]) if "feedback" in data else None
    success = read_text(at.at("success"), data["success"]) if "success" in data else None
    refusals = read_texts(at.at("refusals"), data.get("refusals", {}), "reason", _as_is)
    return Shared(feedback, success, refusals)


def load_lesson(
    name: str, text: str, shared: Shared | None = None, *, check_claims: bool = True
) -> Lesson:
    """Read one lesson file; ``name`` is its file name (it must be ``<id>.json``)."""
    shared = shared or Shared()
    at = At(name)
    data = read_object(
        at, _parse_json(at, text),
        required=("format", "id", "group", "order", "title", "summary", "steps"),
        optional=("rules",),
    )
    if data["format"] != LESSON_FORMAT:
        raise at.at("format").error(f"expected {LESSON_FORMAT!r}, not {data['format']!r}")
    lesson_id = data["id"]
    if not isinstance(lesson_id, str) or not _ID_PATTERN.match(lesson_id):
        raise at.at("id").error("an id is lower-case words joined by '-'")
    base = name.rsplit("/", 1)[-1]
    if base != f"{lesson_id}.json":
        raise at.at("id").error(f"the file of lesson {lesson_id!r} must be named {lesson_id}.json")
    group = data["group"]
    if group not in GROUPS:
        raise at.at("group").error(f"must be one of {', '.join(GROUPS)}")
    order = read_int(at.at("order"), data["order"])
    rules = read_rules(at.at("rules"), data["rules"]) if "rules" in data else DEFAULT_RULES
    raw_steps = data["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise at.at("steps").error("must be a non-empty list")
    reader = _StepReader(name, group, rules, shared, check_claims)
    steps = tuple(reader.read(number, raw) for number, raw in enumerate(raw_steps, start=1))
    if group == "strategy" and not isinstance(steps[-1], PracticeStep):
        raise at.at("steps").error("a strategy lesson ends with a practice step")
    return Lesson(
        lesson_id, group, order, read_text(at.at("title"), data["title"]),
        read_text(at.at("summary"), data["summary"]), steps, name,
    )


def _parse_json(at: At, text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise at.error(f"not valid JSON: {error}") from None


_COMMON_KEYS = ("kind", "position", "bidding", "highlights", "topic", "tip")
_KIND_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # kind: (required, optional) besides the common keys
    "explain": (("text",), ()),
    "watch": (("plays",), ("text",)),
    "play": (("prompt",), ("expect", "any_legal", "feedback", "feedback_for", "success",
                          "hint_agrees")),
    "bid": (("prompt", "expect"), ("feedback", "feedback_for", "success", "hint_agrees")),
    "answer": (
        ("prompt", "ask", "expect"),
        ("choices", "labels", "claim", "feedback", "feedback_for", "success", "hint_agrees"),
    ),
    "practice": (("text", "level", "deal"), ("hints", "hand", "situation")),
}


class _QuestionFields(TypedDict):
    """The fields of model._Question, read once for the three kinds of acting step."""

    index: int
    highlights: Highlights
    topic: str | None
    tip: str | None
    prompt: Text
    feedback: Text
    success: Text
    hint_agrees: bool


class _StepReader:
    """Reads the steps of one lesson in order, carrying the position from step to step."""

    def __init__(self, file: str, group: str, rules: Rules, shared: Shared,
                 check_claims: bool) -> None:
        self.file = file
        self.group = group
        self.rules = rules
        self.shared = shared
        self.check_claims = check_claims
        self.scene: Scene = None
        self.ambiguous_from: int | None = None  # a play step accepting several cards

    def read(self, number: int, raw: object) -> Step:
        at = At(self.file, number)
        if not isinstance(raw, dict):
            raise at.error("a step is an object")
        kind = raw.get("kind")
        if kind not in _KIND_KEYS:
            raise at.at("kind").error(f"must be one of {', '.join(_KIND_KEYS)}")
        required, optional = _KIND_KEYS[kind]
        data = read_object(at, raw, required=required, optional=(*_COMMON_KEYS, *optional))
        scene = self._scene(at, data)
        highlights = read_highlights(at.at("highlights"), data.get("highlights", {}))
        topic = data.get("topic")
        if topic is not None and topic not in RULE_TOPICS:
            raise at.at("topic").error(f"{topic!r} is not a rules topic ({', '.join(RULE_TOPICS)})")
        tip = data.get("tip")
        if tip is not None and tip not in TIP_KEYS:
            raise at.at("tip").error(f"{tip!r} is not a tip key")
        if kind == "explain":
            step: Step = ExplainStep(scene, read_text(at.at("text"), data["text"]),
                                     index=number, highlights=highlights, topic=topic, tip=tip)
        elif kind == "watch":
            step = self._watch(at, number, data, scene, highlights, topic, tip)
        elif kind == "practice":
            step = self._practice(at, number, data, highlights, topic, tip)
        else:
            if self.group == "strategy" and tip is None:
                raise at.at("tip").error("a strategy step where the learner acts names its tip")
            if self.group == "rules" and topic is None:
                raise at.at("topic").error("a rules step where the learner acts names its topic")
            hint_agrees = data.get("hint_agrees", False)
            if not isinstance(hint_agrees, bool):
                raise at.at("hint_agrees").error("must be true or false")
            if hint_agrees and tip is None:
                raise at.at("hint_agrees").error("only a step with a tip can agree with the hint")
            if kind == "play":
                step = self._play(at, number, data, scene, highlights, topic, tip, hint_agrees)
            elif kind == "bid":
                step = self._bid(at, number, data, scene, highlights, topic, tip, hint_agrees)
            else:
                step = self._answer(at, number, data, scene, highlights, topic, tip, hint_agrees)
        self._check_highlights(at.at("highlights"), highlights, step.scene)
        self.scene = scene_after(step)
        return step

    # --- positions ---------------------------------------------------------------------

    def _scene(self, at: At, data: Mapping[str, object]) -> Scene:
        if "position" in data and "bidding" in data:
            raise at.error("a step has a position or a bidding position, not both")
        if "position" in data:
            self.ambiguous_from = None
            raw = data["position"]
            return None if raw is None else read_position(at.at("position"), raw, self.rules)
        if "bidding" in data:
            self.ambiguous_from = None
            return read_bidding(at.at("bidding"), data["bidding"], self.rules)
        if self.ambiguous_from is not None:
            raise at.at("position").error(
                f"step {self.ambiguous_from} accepts several cards, so this step must give "
                "its own position"
            )
        return self.scene

    def _question(self, at: At, number: int, data: Mapping[str, object], highlights: Highlights,
                  topic: str | None, tip: str | None, hint_agrees: bool) -> _QuestionFields:
        """The fields every acting step has (see model._Question), by name."""
        return {
            "index": number, "highlights": highlights, "topic": topic, "tip": tip,
            "prompt": read_text(at.at("prompt"), data["prompt"]),
            "feedback": self._text_or_default(at, data, "feedback"),
            "success": self._text_or_default(at, data, "success"),
            "hint_agrees": hint_agrees,
        }

    def _text_or_default(self, at: At, data: Mapping[str, object], key: str) -> Text:
        if key in data:
            return read_text(at.at(key), data[key])
        default = self.shared.feedback if key == "feedback" else self.shared.success
        if default is None:
            raise at.at(key).error("missing, and no shared default in _shared.json")
        return default

    def _play_position(self, at: At, scene: Scene) -> Position:
        if not isinstance(scene, Position):
            raise at.at("position").error("this step needs a play position")
        run = scene.run()
        if run.over or run.state.to_act is not LEARNER:
            who = "nobody" if run.over or run.state.to_act is None else run.state.to_act.name
            raise at.at("position").error(f"South must be to play here, not {who}")
        return scene

    def _watch(self, at: At, number: int, data: Mapping[str, object], scene: Scene,
               highlights: Highlights, topic: str | None, tip: str | None) -> WatchStep:
        if not isinstance(scene, Position):
            raise at.at("position").error("a watch step needs a play position")
        plays = read_cards(at.at("plays"), data["plays"])
        if not plays:
            raise at.at("plays").error("a watch step plays at least one card")
        after = play_checked(at.at("plays"), scene, plays)
        text = read_text(at.at("text"), data["text"]) if "text" in data else Text("", "")
        return WatchStep(scene, text, plays, after,
                         index=number, highlights=highlights, topic=topic, tip=tip)

    def _practice(self, at: At, number: int, data: Mapping[str, object],
                  highlights: Highlights, topic: str | None, tip: str | None) -> PracticeStep:
        level = data["level"]
        if level not in LEVELS:
            raise at.at("level").error(f"must be one of {', '.join(LEVELS)}")
        deal = read_int(at.at("deal"), data["deal"])
        if not 0 <= deal < 2**53:
            raise at.at("deal").error("a deal number is between 0 and 2**53 - 1")
        hints = data.get("hints", True)
        if not isinstance(hints, bool):
            raise at.at("hints").error("must be true or false")
        hand = read_int(at.at("hand"), data["hand"]) if "hand" in data else 1
        if not 1 <= hand <= 4:
            raise at.at("hand").error("a practice is one of the deal's first four hands (1 to 4)")
        situation = data.get("situation", "")
        if self.group == "strategy" and situation not in SITUATIONS:
            raise at.at("situation").error(f"must be one of {', '.join(SITUATIONS)}")
        if situation and situation not in SITUATIONS:
            raise at.at("situation").error(f"must be one of {', '.join(SITUATIONS)}")
        self.ambiguous_from = None
        return PracticeStep(None, read_text(at.at("text"), data["text"]), str(level), deal, hints,
                            hand, str(situation),
                            index=number, highlights=highlights, topic=topic, tip=tip)

    def _play(self, at: At, number: int, data: Mapping[str, object], scene: Scene,
              highlights: Highlights, topic: str | None, tip: str | None,
              hint_agrees: bool) -> PlayStep:
        position = self._play_position(at, scene)
        state = position.state()
        any_legal = data.get("any_legal", False)
        if not isinstance(any_legal, bool):
            raise at.at("any_legal").error("must be true or false")
        if any_legal:
            if self.group != "rules":
                raise at.at("any_legal").error("only a rules step accepts every legal card")
            if "expect" in data:
                raise at.at("expect").error("a step accepting any legal card expects no card")
            expect = tuple(sorted(state.legal_plays(), key=lambda card: -card.id))
        elif "expect" not in data:
            raise at.at("expect").error("missing (or say any_legal: true)")
        else:
            expect = read_cards(at.at("expect"), list_of(data["expect"]))
        if not expect:
            raise at.at("expect").error("expects at least one card")
        for i, card in enumerate(expect):
            why = state.refusal(card, LEARNER)
            if why is not None:
                raise at.at("expect").at(i).error(f"{card} may not be played here ({why.reason})")
        held = state.hand_of(LEARNER)

        def other_card(here: At, key: str) -> Card:
            card = read_card(here, key)
            if card in expect:
                raise here.error("this card is the expected one")
            if card not in held:
                raise here.error("South does not hold this card")
            return card

        feedback_for = read_texts(
            at.at("feedback_for"), data.get("feedback_for", {}), "card", other_card
        )
        if len(expect) > 1:
            self.ambiguous_from = number
        return PlayStep(
            position, expect, feedback_for, position.then(expect[:1]), any_legal,
            **self._question(at, number, data, highlights, topic, tip, hint_agrees),
        )

    def _bid(self, at: At, number: int, data: Mapping[str, object], scene: Scene,
             highlights: Highlights, topic: str | None, tip: str | None,
             hint_agrees: bool) -> BidStep:
        if not isinstance(scene, BiddingPosition):
            raise at.at("bidding").error("a bid step needs a bidding position")
        allowed = _bid_choices(scene)
        expect = tuple(_bid_token(at.at("expect").at(i), raw, allowed)
                       for i, raw in enumerate(list_of(data["expect"])))
        if not expect:
            raise at.at("expect").error("expects at least one bid")

        def other_bid(here: At, key: str) -> str:
            token = _bid_token(here, key, allowed)
            if token in expect:
                raise here.error("this bid is an expected one")
            return token

        feedback_for = read_texts(
            at.at("feedback_for"), data.get("feedback_for", {}), "bid", other_bid
        )
        return BidStep(
            scene, expect, feedback_for,
            **self._question(at, number, data, highlights, topic, tip, hint_agrees),
        )

    def _answer(self, at: At, number: int, data: Mapping[str, object], scene: Scene,
                highlights: Highlights, topic: str | None, tip: str | None,
                hint_agrees: bool) -> AnswerStep:
        ask = data["ask"]
        if ask not in ASK_KINDS:
            raise at.at("ask").error(f"must be one of {', '.join(ASK_KINDS)}")
        if hint_agrees:
            raise at.at("hint_agrees").error("an answer step has no hint to agree with")
        labels = read_texts(at.at("labels"), data.get("labels", {}), "choice", _as_is)
        if ask == "cards":
            choices, expect = self._card_set_answer(at, data, scene)
        elif ask == "entry":
            if "choices" in data:
                raise at.at("choices").error("a number field offers no choices")
            if "claim" not in data:
                raise at.at("claim").error("a number field needs a claim the engine checks")
            expect = (_choice(at.at("expect"), "number", data["expect"], labels),)
            choices = ()
        else:
            if "choices" not in data:
                raise at.at("choices").error("missing")
            raw_choices = data["choices"]
            if not isinstance(raw_choices, list) or len(raw_choices) < 2:
                raise at.at("choices").error("an answer offers at least two choices")
            choices = tuple(_choice(at.at("choices").at(i), str(ask), raw, labels)
                            for i, raw in enumerate(raw_choices))
            if len(set(choices)) != len(choices):
                raise at.at("choices").error("a choice is listed twice")
            raw_expect = data["expect"]
            if not isinstance(raw_expect, str | int) or isinstance(raw_expect, bool):
                raise at.at("expect").error("the expected answer is one choice")
            token = _choice(at.at("expect"), str(ask), raw_expect, labels)
            if token not in choices:
                raise at.at("expect").error(f"{token!r} is not one of the choices")
            expect = (token,)
        for key in labels:
            if key not in choices:
                raise at.at("labels").at(key).error("not one of the choices")

        def other_choice(here: At, key: str) -> str:
            token = _choice(here, str(ask), key, labels)
            if token not in choices:
                raise here.error("not one of the choices")
            if token in expect:
                raise here.error("this is the expected answer")
            return token

        feedback_for = read_texts(
            at.at("feedback_for"), data.get("feedback_for", {}), "choice", other_choice
        )
        claim = read_claim(at.at("claim"), data["claim"]) if "claim" in data else None
        if claim is not None:
            implied = claim.answer()
            given: str | frozenset[str] = frozenset(expect) if ask == "cards" else expect[0]
            if ask == "entry" and (implied is None or isinstance(implied, frozenset)):
                raise at.at("claim").error("a number field's claim states one number")
            if implied is not None and (ask != "option" or implied in choices) and implied != given:
                raise at.at("expect").error(f"the claim says the answer is {_show(implied)}")
            if self.check_claims:
                problems = claim_problems(claim, scene)
                if problems:
                    raise at.at("claim").error("the engine disagrees: " + "; ".join(problems))
        return AnswerStep(
            scene, str(ask), choices, labels, expect, claim, feedback_for,
            **self._question(at, number, data, highlights, topic, tip, hint_agrees),
        )

    def _card_set_answer(self, at: At, data: Mapping[str, object],
                         scene: Scene) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if "choices" in data:
            choices = tuple(str(card) for card in read_cards(at.at("choices"), data["choices"]))
        elif isinstance(scene, Position):
            choices = tuple(str(card) for card in scene.held(LEARNER))
        else:
            raise at.at("choices").error("give the cards to choose from (no hand to choose in)")
        expect = tuple(str(card) for card in read_cards(at.at("expect"), list_of(data["expect"])))
        for token in expect:
            if token not in choices:
                raise at.at("expect").error(f"{token} is not one of the cards to choose from")
        if len(set(expect)) != len(expect):
            raise at.at("expect").error("a card is listed twice")
        return choices, expect

    def _check_highlights(self, at: At, highlights: Highlights, scene: Scene) -> None:
        if not highlights.cards or not isinstance(scene, Position):
            return
        visible = 0
        for hand in scene.hands:
            visible |= hand.mask
        for card in scene.trick:
            visible |= card.bit
        for card in highlights.cards:
            if not visible >> card.id & 1:
                raise at.at("cards").error(f"{card} is not on the table")


def _show(value: str | frozenset[str]) -> str:
    return value if isinstance(value, str) else " ".join(sorted(value))


def _bid_choices(scene: BiddingPosition) -> tuple[str, ...]:
    if scene.hand is None:
        return (str(BLIND_NIL), LOOK) if scene.rules.blind_nil else (LOOK,)
    return tuple(str(bid) for bid in scene.legal_bids())


def _bid_token(at: At, raw: object, allowed: Sequence[str]) -> str:
    if raw == LOOK:
        token = LOOK
    else:
        if not isinstance(raw, str):
            raise at.error("a bid is written as text: \"3\", \"nil\", \"blind-nil\"")
        try:
            token = str(parse_bid(raw))
        except BidParseError as error:
            raise at.error(str(error)) from None
    if token not in allowed:
        raise at.error(f"{token!r} is not offered here (offered: {', '.join(allowed)})")
    return token


def _choice(at: At, ask: str, raw: object, labels: Mapping[str, Text]) -> str:
    if ask == "number":
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise at.error("a number choice is an integer")
        token = str(raw).strip()
        if not _NUMBER_PATTERN.match(token):
            raise at.error(f"{raw!r} is not an integer")
        return str(int(token))
    if not isinstance(raw, str):
        raise at.error("a choice is written as text")
    if ask == "seat":
        if raw not in ("N", "E", "S", "W"):
            raise at.error(f"{raw!r} is not a seat (N, E, S, W)")
        return raw
    if ask == "team":
        if raw not in ("NS", "EW") and raw not in labels:
            raise at.error(f"{raw!r} is not a team (NS, EW) nor a labelled choice")
        return raw
    if ask == "card":
        return str(read_card(at, raw))
    if not raw or raw not in labels:
        raise at.error(f"option {raw!r} has no label")
    return raw
