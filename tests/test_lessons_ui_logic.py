"""The lessons screen's pure logic: stored progress, the player walking every lesson, texts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades_core.cards import parse_card
from spades_core.lessons import AnswerStep, BidStep, PlayStep, WatchStep, load_library_dir
from ui.lessons import lessons_progress
from ui.lessons.lessons_player import Player, choice_label
from ui.lessons.lessons_progress import Progress, parse
from ui.shared import i18n
from ui.shared.models import card_name, card_short

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = load_library_dir(ROOT / "lessons", check_claims=False)


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "locales" / lang / "lessons.json").read_text("utf-8"))
    return {key.removeprefix("lessons."): value for key, value in data.items()}


def translator(lang: str):
    entries = catalogue(lang)

    def t(key: str, **params: object) -> str:
        assert key in entries, f"missing text {key!r} ({lang})"
        return entries[key].format(**params)

    return t


# --- stored progress ---------------------------------------------------------------------


def test_progress_round_trips() -> None:
    progress = Progress()
    assert progress.mark("rules-02-tricks", 0)
    assert not progress.mark("rules-02-tricks", 0)
    progress.mark("rules-02-tricks", 3)
    progress.at["rules-02-tricks"] = 3
    again, damaged = parse(progress.to_json())
    assert not damaged
    assert again.done == {"rules-02-tricks": {0, 3}}
    assert again.at == {"rules-02-tricks": 3}
    assert again.count("rules-02-tricks", 7) == 2
    assert again.resume_at("rules-02-tricks", 7) == 3
    assert json.loads(progress.to_json())["version"] == 1
    assert lessons_progress.KEY == "spades.lessons.v1"


@pytest.mark.parametrize("text", [
    "not json", "", "[]", "{}", '{"version": 2, "lessons": {}}', '{"version": 1, "lessons": []}',
    '{"version": 1, "lessons": {"x": {"done": ["a"]}}}',
    '{"version": 1, "lessons": {"x": {"done": [-1]}}}',
    '{"version": 1, "lessons": {"x": {"done": [true]}}}',
    '{"version": 1, "lessons": {"x": {"done": [1], "at": "2"}}}',
    '{"version": 1, "lessons": {"x": 5}}',
])
def test_unreadable_progress_is_reported_and_replaced(text: str) -> None:
    progress, damaged = parse(text)
    assert damaged
    assert progress.done == {} and progress.at == {}


def test_one_unreadable_lesson_entry_loses_only_that_lesson() -> None:
    progress, damaged = parse(json.dumps({"version": 1, "lessons": {
        "rules-02-tricks": {"done": [0, 1], "at": 2, "stars": 3},
        "rules-03-follow": {"done": [0, "x"]},
        "rules-04-spades": {"done": [4], "stars": 9},
        "rules-05-bidding": 5,
        "strategy-01-count-tricks": {"done": [2]},
    }}))
    assert damaged
    assert progress.done == {"rules-02-tricks": {0, 1}, "strategy-01-count-tricks": {2}}
    assert progress.at == {"rules-02-tricks": 2}
    assert progress.stars == {"rules-02-tricks": 3}


def test_nothing_stored_is_not_damage() -> None:
    assert parse(None)[1] is False


def test_stale_indexes_do_not_count() -> None:
    progress, _ = parse('{"version": 1, "lessons": {"a": {"done": [0, 1, 99], "at": 50}}}')
    assert progress.count("a", 3) == 2
    assert progress.resume_at("a", 3) == 2  # "at" is out of range: the first step not done
    assert not progress.complete("a", 3)


# --- the player --------------------------------------------------------------------------


def solve(player: Player) -> None:
    """Do what the step asks with the hint's answer."""
    step = player.step
    if isinstance(step, AnswerStep) and step.ask == "cards":
        for token in step.expect:
            player.choose(token)
        verdict = player.submit_cards()
    elif isinstance(step, PlayStep | BidStep | AnswerStep):
        player.show_hint()
        lit = player.lit()
        token = next(iter(step.expect)) if isinstance(step, BidStep | AnswerStep) else str(
            step.expect[0])
        assert token in lit
        verdict = player.choose(token)
    elif isinstance(step, WatchStep):
        player.watch_all()
        return
    else:
        player.practice()
        return
    assert verdict is not None and verdict.correct, (player.lesson.id, player.index)
    assert player.state.solved


@pytest.mark.parametrize("lesson", LIBRARY.lessons, ids=lambda lesson: lesson.id)
def test_every_lesson_can_be_completed(lesson) -> None:
    progress = Progress()
    player = Player(lesson, LIBRARY.shared, on_done=lambda i: progress.mark(lesson.id, i))
    while True:
        solve(player)
        assert player.scene() is not None or player.step.scene is None
        if not player.next():
            break
    assert progress.complete(lesson.id, len(lesson.steps))


def test_a_cards_answer_marks_only_the_cards_picked_wrongly() -> None:
    # "Select every card you may play" (the Q♣ and the 4♣): picking the 4♣ alone once
    # framed the 4♣, a card that may be played, as wrong.
    lesson = LIBRARY.lesson("rules-03-follow-suit")
    player = Player(lesson, LIBRARY.shared, start=1)
    step = player.step
    assert isinstance(step, AnswerStep) and step.ask == "cards"
    assert set(step.expect) == {"QC", "4C"}
    player.choose("4C")
    verdict = player.submit_cards()
    assert verdict is not None and not verdict.correct
    assert player.state.wrong is None and player.state.wrong_cards == set()
    held = [str(card) for card in player.scene().hands[2]]  # type: ignore[union-attr]
    other = next(token for token in held if not token.endswith("C"))
    player.choose(other)
    assert not player.submit_cards().correct  # type: ignore[union-attr]
    assert player.state.wrong_cards == {other}
    player.choose(other)  # put back: no longer marked
    assert player.state.wrong_cards == set()
    player.choose("QC")
    assert player.submit_cards().correct  # type: ignore[union-attr]


def test_wrong_card_gets_the_engine_reason_then_the_right_card_is_lit() -> None:
    lesson = LIBRARY.lesson("rules-02-tricks")
    player = Player(lesson, LIBRARY.shared, start=1)
    step = player.step
    assert isinstance(step, PlayStep)
    verdict = player.choose("5C")  # a club while hearts were led: illegal
    assert verdict is not None and not verdict.correct
    assert verdict.refusal == "must-follow-suit"
    assert player.state.message is not None
    assert "follow suit" in player.state.message.en
    assert player.lit() == frozenset()  # one miss: try again, the answer stays hidden
    verdict = player.choose("3H")  # legal, but wrong: the step's own feedback
    assert verdict is not None and verdict.refusal is None
    assert "J♥" in player.state.message.en
    assert player.lit() == {"QH"}  # the second miss shows the answer
    assert player.choose("QH").correct
    assert player.state.message == step.success
    assert player.state.stars == 1
    assert [str(card) for _, card in player.scene().table_trick()][-1] == "QH"


def test_watch_step_moves_the_position_on() -> None:
    lesson = LIBRARY.lesson("rules-13-whole-hand")
    index = next(i for i, step in enumerate(lesson.steps) if isinstance(step, WatchStep))
    done: list[int] = []
    player = Player(lesson, LIBRARY.shared, start=index, on_done=done.append)
    step = player.step
    assert player.scene() == step.scene
    assert player.watch_more()
    assert index not in done or len(step.plays) == 1
    player.watch_all()
    assert player.scene() == step.after
    assert index in done


# --- texts -------------------------------------------------------------------------------


def test_catalogues_have_the_same_keys_and_fr_spacing() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    assert en.keys() == fr.keys()
    for key, text in fr.items():
        assert text.strip(), key
        assert not re.search(r" [:;!?]", text), f"{key}: use a non-breaking space"


def test_every_key_the_screen_uses_exists() -> None:
    source = (ROOT / "ui" / "lessons" / "lessons_screen.py").read_text("utf-8")
    source += (ROOT / "ui" / "lessons" / "lessons_player.py").read_text("utf-8")
    used = set(re.findall(r'\bt\(\s*"([a-z0-9.\-]+)"', source))
    used |= {f"kind.{kind}" for kind in ("explain", "watch", "play", "bid", "answer", "practice")}
    used |= {f"group.{group}" for group in ("rules", "strategy")}
    used |= {f"level.{level}" for level in ("beginner", "normal", "expert")}
    for lang in ("en", "fr"):
        missing = used - catalogue(lang).keys()
        assert not missing, (lang, sorted(missing))


def test_card_and_choice_names_in_both_languages() -> None:
    """The lessons name cards by the page's one namer (ui.shared.i18n), in both languages."""
    en, fr = translator("en"), translator("fr")
    queen = parse_card("QH")
    i18n.set_language("fr")
    assert card_short(queen) == "D♥" and card_name(queen) == "Dame de cœur"
    assert card_short(parse_card("TC")) == "10♣"
    i18n.set_language("en")
    assert card_short(queen) == "Q♥" and card_name(queen) == "Queen of hearts"
    assert card_name(queen) == i18n.card_name("QH")
    for lesson in LIBRARY.lessons:
        for step in lesson.steps:
            if isinstance(step, AnswerStep):
                for token in step.choices:
                    assert choice_label(step, token, "en", en)
                    assert choice_label(step, token, "fr", fr)


# --- try again, with stars ------------------------------------------------------------------


def _acting_indexes(lesson_id: str) -> list[int]:
    lesson = LIBRARY.lesson(lesson_id)
    return [i for i, step in enumerate(lesson.steps)
            if isinstance(step, PlayStep | BidStep | AnswerStep)]


def _solve(player: Player, index: int) -> None:
    player.go(index)
    step = player.step
    if isinstance(step, AnswerStep) and step.ask == "cards":
        for token in step.expect:
            player.choose(token)
        assert player.submit_cards() is not None
    elif isinstance(step, AnswerStep) and step.entry:
        assert player.submit_entry(f" {step.expect[0]} ") is not None
    else:
        token = str(step.expect[0])
        assert player.choose(token) is not None
    assert player.state.solved


def test_stars_three_at_first_try_two_after_a_hint_or_a_miss_one_otherwise() -> None:
    lesson = LIBRARY.lesson("rules-13-whole-hand")
    indexes = _acting_indexes(lesson.id)
    player = Player(lesson, LIBRARY.shared)
    for index in indexes[:-1]:
        _solve(player, index)
        assert player.state.stars == 3
    assert player.lesson_stars() is None  # a step is not solved yet
    last = indexes[-1]
    player.go(last)
    step = player.step
    assert isinstance(step, AnswerStep) and step.entry
    assert player.submit_entry("") is None  # nothing typed: nothing judged
    wrong = str(int(step.expect[0]) + 10)
    assert not player.submit_entry(wrong).correct  # type: ignore[union-attr]
    assert not player.state.hint and player.state.misses == 1
    assert player.submit_entry(step.expect[0]).correct  # type: ignore[union-attr]
    assert player.state.stars == 2
    assert player.lesson_stars() == (3 * (len(indexes) - 1) + 2) // len(indexes)
    hinted = Player(lesson, LIBRARY.shared, start=last)
    hinted.show_hint()
    assert hinted.lit() and hinted.state.hinted
    assert hinted.submit_entry(step.expect[0]).correct  # type: ignore[union-attr]
    assert hinted.state.stars == 2


def test_an_entry_accepts_what_a_learner_types_and_the_engine_scored() -> None:
    from spades_core.lessons import check_action

    entries = [step for lesson in LIBRARY.lessons for step in lesson.steps
               if isinstance(step, AnswerStep) and step.entry]
    assert len(entries) >= 5
    for step in entries:
        value = int(step.expect[0])
        assert check_action(step, str(value)).correct
        assert check_action(step, value).correct
        assert check_action(step, f"+{value}" if value >= 0 else "\u2212" + str(-value)).correct
        assert not check_action(step, str(value + 1)).correct
        assert not check_action(step, "abc").correct


def test_best_stars_are_kept_and_stored() -> None:
    progress = lessons_progress.Progress()
    assert progress.record_stars("rules-02-tricks", 2)
    assert not progress.record_stars("rules-02-tricks", 1)
    assert progress.record_stars("rules-02-tricks", 3)
    again, damaged = lessons_progress.parse(progress.to_json())
    assert not damaged and again.stars == {"rules-02-tricks": 3}
    bad = progress.to_json().replace('"stars":3', '"stars":7')
    fresh, damaged = lessons_progress.parse(bad)
    assert damaged and fresh.stars == {}
