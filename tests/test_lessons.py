"""The lessons: every file loads, every position and expected action is legal, every claim
an answer makes is recomputed here with the engine, both languages are present, and the
rules topics and strategy tips are all taught by a step where the learner acts."""

from __future__ import annotations

import importlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import spades_core
from spades_core import BLIND_NIL, Bid, Card, GameState, Phase, Seat, Team, parse_bid, parse_card
from spades_core.bids import ALL_BIDS
from spades_core.cards import SUIT_MASKS
from spades_core.lessons import (
    LANGS,
    LOOK,
    RULE_TOPICS,
    SHARED_FILE,
    TABLE_ASKS,
    TIP_KEYS,
    AnswerStep,
    BiddingPosition,
    BidStep,
    Claim,
    ExplainStep,
    Lesson,
    LessonError,
    Library,
    PlayStep,
    Position,
    PracticeStep,
    Step,
    Text,
    WatchStep,
    apply_watch,
    check_action,
    load_lesson,
    load_library,
    load_library_dir,
    step_view,
)
from spades_core.rules import game_winner, trick_winner
from spades_core.scoring import score_hand
from spades_core.seats import dealer_of_hand
from spades_core.views import view_for

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
LESSON_FILES = sorted(p for p in LESSONS_DIR.glob("*.json") if not p.name.startswith("_"))
HINTS_FILE = Path(spades_core.__file__).resolve().parent / "hints.py"

LIBRARY: Library = load_library_dir(LESSONS_DIR)
STEPS: list[tuple[Lesson, Step]] = [(lesson, step) for lesson in LIBRARY.lessons
                                    for step in lesson.steps]


def step_id(item: tuple[Lesson, Step]) -> str:
    lesson, step = item
    return f"{lesson.id}#{step.index}"


def steps_of(kind: type[Any]) -> list[tuple[Lesson, Any]]:
    return [(lesson, step) for lesson, step in STEPS if isinstance(step, kind)]


# --- the files load ---------------------------------------------------------------------


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_every_lesson_file_loads_on_its_own(path: Path) -> None:
    shared = load_library({SHARED_FILE: (LESSONS_DIR / SHARED_FILE).read_text("utf-8")}).shared
    lesson = load_lesson(path.name, path.read_text("utf-8"), shared)
    assert lesson.id == path.stem
    assert lesson.group in ("rules", "strategy")


def test_the_library_has_enough_lessons_and_acting_steps() -> None:
    acting = [step for lesson in LIBRARY.lessons for step in lesson.acting_steps]
    assert len(LIBRARY.lessons) >= 20
    assert len(acting) >= 80
    assert len(LIBRARY.lessons) == len(LESSON_FILES)


def test_ids_are_unique_and_the_order_is_rules_then_strategy() -> None:
    ids = [lesson.id for lesson in LIBRARY.lessons]
    assert len(set(ids)) == len(ids)
    groups = [lesson.group for lesson in LIBRARY.lessons]
    assert groups == sorted(groups, key=("rules", "strategy").index)
    for group in ("rules", "strategy"):
        orders = [lesson.order for lesson in LIBRARY.group(group)]
        assert orders == sorted(set(orders))


def test_the_rules_list_starts_with_the_table_and_the_deal() -> None:
    """What a learner meets first: the seats, the deal and who leads (reneging, a word on
    following suit at a real table, comes with the deal)."""
    rules = LIBRARY.group("rules")
    assert [lesson.id for lesson in rules[:2]] == ["rules-01-table", "rules-14-deal-and-renege"]
    for lesson in rules[:2]:
        assert lesson.acting_steps[0].topic == "seats-dealing", lesson.id


# the rule each topic builds on: it must be acted upon in the same lesson or an earlier one
PREREQUISITES = {
    "trumping": "follow-suit", "spades-broken": "trumping",
    "only-spades": "spades-broken", "nil": "bidding", "blind-nil": "nil",
    "contract-made": "bidding", "contract-set": "contract-made", "bags": "contract-made",
    "bag-penalty": "bags", "nil-scoring": "nil", "game-end": "contract-made", "ties": "game-end",
}


def test_no_rules_lesson_relies_on_a_later_one() -> None:
    rules = LIBRARY.group("rules")
    first: dict[str, int] = {}
    for place, lesson in enumerate(rules):
        for step in lesson.acting_steps:
            assert step.topic is not None
            first.setdefault(step.topic, place)
    assert set(PREREQUISITES) | set(PREREQUISITES.values()) <= set(first)
    for topic, before in PREREQUISITES.items():
        assert first[before] <= first[topic], (
            f"{topic} is asked in {rules[first[topic]].id}, before {before} "
            f"({rules[first[before]].id})")
    for place, lesson in enumerate(rules):  # a score is asked only once scoring is taught
        for step in lesson.acting_steps:
            if isinstance(step, AnswerStep) and step.claim is not None and step.claim.points:
                assert place >= first["contract-made"], (lesson.id, step.index)


def test_the_loader_is_pure_and_a_new_file_is_a_new_lesson() -> None:
    files = {path.name: path.read_text("utf-8") for path in LESSONS_DIR.glob("*.json")}
    assert load_library(files) == LIBRARY
    extra = {
        "format": "spades-lesson/1", "id": "rules-99-extra", "group": "rules", "order": 99,
        "title": {"en": "Extra", "fr": "En plus"}, "summary": {"en": "S", "fr": "R"},
        "steps": [{
            "kind": "answer", "topic": "follow-suit", "position": {
                "hands": {"S": ["2H", "3C"]}, "leader": "E", "trick": ["9H"]},
            "prompt": {"en": "Legal?", "fr": "Permis ?"}, "ask": "cards", "expect": ["2H"],
            "claim": {"legal": ["2H"]},
        }],
    }
    library = load_library({**files, "rules-99-extra.json": json.dumps(extra),
                            "README.txt": "not a lesson"})
    assert library.lessons[len(LIBRARY.group("rules"))].id == "rules-99-extra"
    step = library.lesson("rules-99-extra").steps[0]
    assert isinstance(step, AnswerStep)
    assert step.feedback == library.shared.feedback  # the shared default


def test_strategy_lessons_end_with_a_practice_hand() -> None:
    for lesson in LIBRARY.group("strategy"):
        last = lesson.steps[-1]
        assert isinstance(last, PracticeStep), lesson.id
        assert last.hints and last.level in ("beginner", "normal", "expert")
        assert 0 <= last.deal < 2**53


# --- every text in both languages ---------------------------------------------------------


def texts_of(value: object) -> Iterator[Text]:
    if isinstance(value, Text):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts_of(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from texts_of(item)


def raw_texts(value: object) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if "en" in value or "fr" in value:
            yield value
        else:
            for item in value.values():
                yield from raw_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from raw_texts(item)


@pytest.mark.parametrize("path", [*LESSON_FILES, LESSONS_DIR / SHARED_FILE], ids=lambda p: p.name)
def test_every_text_exists_in_both_languages(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    found = list(raw_texts(data))
    assert found
    for text in found:
        assert set(text) == set(LANGS), text
        for lang in LANGS:
            assert isinstance(text[lang], str) and text[lang].strip(), (path.name, text)


@pytest.mark.parametrize("path", [*LESSON_FILES, LESSONS_DIR / SHARED_FILE], ids=lambda p: p.name)
def test_french_punctuation_uses_non_breaking_spaces(path: Path) -> None:
    for text in raw_texts(json.loads(path.read_text("utf-8"))):
        french = text["fr"]
        for mark in ":;!?»":
            assert f" {mark}" not in french, (
                f"{path.name}: put a non-breaking space (U+00A0) before {mark!r}: {french!r}"
            )
        assert "« " not in french, f"{path.name}: a non-breaking space after «: {french!r}"


def test_the_loaded_lessons_carry_text_for_every_learner_step() -> None:
    for lesson, step in STEPS:
        texts = [lesson.title, lesson.summary]
        if isinstance(step, PlayStep | BidStep | AnswerStep):
            texts += [step.prompt, step.feedback, step.success, *step.feedback_for.values()]
        if isinstance(step, AnswerStep):
            texts += list(step.labels.values())
            for choice in step.choices:
                if step.ask == "option":
                    assert choice in step.labels
        if isinstance(step, ExplainStep | PracticeStep):
            texts.append(step.text)
        for text in texts:
            for lang in LANGS:
                assert text.get(lang).strip(), (lesson.id, step.index, lang)
        for text in texts_of(texts):
            assert "  " not in text.en and "  " not in text.fr, (lesson.id, step.index)


# --- what is taught -------------------------------------------------------------------------


def test_every_rules_topic_has_a_step_where_the_learner_acts() -> None:
    taught = {step.topic for lesson in LIBRARY.group("rules") for step in lesson.acting_steps}
    assert set(RULE_TOPICS) <= taught, set(RULE_TOPICS) - taught


def test_every_strategy_tip_has_a_step_where_the_learner_acts() -> None:
    taught = {step.tip for lesson in LIBRARY.group("strategy") for step in lesson.acting_steps}
    assert set(TIP_KEYS) <= taught, set(TIP_KEYS) - taught


def test_the_tip_keys_are_those_of_strategy_md() -> None:
    strategy = ROOT.parent / "shared" / "STRATEGY.md"
    if not strategy.exists():
        pytest.skip("STRATEGY.md is not beside the repository")
    text = strategy.read_text("utf-8")
    keys = [line.split("`")[1] for line in text.splitlines() if line.startswith("- `")]
    assert set(keys) <= set(TIP_KEYS)


def test_the_tip_keys_are_the_coachs() -> None:
    from spades_core.bots.strategy import TIPS

    assert sorted(TIPS) == sorted(TIP_KEYS)


def test_acting_steps_name_their_topic_or_tip() -> None:
    for lesson in LIBRARY.lessons:
        for step in lesson.acting_steps:
            if lesson.group == "rules":
                assert step.topic in RULE_TOPICS, (lesson.id, step.index)
            else:
                assert step.tip in TIP_KEYS, (lesson.id, step.index)


# --- positions and expected actions are legal -----------------------------------------------


def engine_run(position: Position) -> tuple[GameState, list[GameState]]:
    """Build the position with the engine and play its cards; return the states."""
    state = GameState.position(
        position.rules,
        [hand.mask for hand in position.hands],
        leader=position.leader,
        bids=[bid or Bid(3) for bid in position.bids],
        trick=list(position.trick),
        tricks=position.tricks,
        spades_broken=position.spades_broken,
        scores=position.scores,
        bags=position.bags,
    )
    states = [state]
    for card in position.plays:
        assert state.refusal(card) is None, (card, state.refusal(card))
        state = state.apply(card)
        states.append(state)
    return state, states


def tricks_of(state: GameState) -> tuple[int, int, int, int]:
    return state.tricks_won if state.phase is Phase.PLAYING else state.past_hands[-1].tricks


@pytest.mark.parametrize(
    "item", [item for item in STEPS if item[1].scene is not None], ids=step_id
)
def test_every_position_is_a_legal_partial_state(item: tuple[Lesson, Step]) -> None:
    _, step = item
    scene = step.scene
    if isinstance(scene, BiddingPosition):
        if scene.hand is not None:
            assert len(scene.hand) == 13
            assert scene.hand.mask & ~scene.rules.deck_mask == 0
        before = []
        seat = scene.dealer.left
        while seat != Seat.S:
            before.append(seat)
            seat = seat.left
        assert {s for s in Seat if scene.bids[s] is not None} == set(before)
        return
    assert isinstance(scene, Position)
    state, _ = engine_run(scene)
    held = sum(len(hand) for hand in scene.hands) + len(scene.trick) + sum(scene.hidden)
    assert held + 4 * sum(scene.tricks) <= 52
    for seat in Seat:
        assert len(scene.hands[seat]) + scene.hidden[seat] + sum(scene.tricks) <= 13
    assert state.phase in (Phase.PLAYING, Phase.DEALING)


@pytest.mark.parametrize("item", steps_of(PlayStep), ids=step_id)
def test_every_expected_card_is_legal_and_south_is_to_play(
    item: tuple[Lesson, PlayStep],
) -> None:
    _, step = item
    state, _ = engine_run(step.scene)
    assert state.to_act is Seat.S
    for card in step.expect:
        assert state.refusal(card, Seat.S) is None
        assert card in state.legal_plays()
    for card in step.feedback_for:
        assert card in state.hand_of(Seat.S), f"feedback for {card}, which South does not hold"
    after, _ = engine_run(step.after)
    assert after.plays[-1] == step.expect[0] or after.phase is not Phase.PLAYING


@pytest.mark.parametrize("item", steps_of(BidStep), ids=step_id)
def test_every_expected_bid_is_offered(item: tuple[Lesson, BidStep]) -> None:
    _, step = item
    scene = step.scene
    if scene.hand is None:
        offered = {str(BLIND_NIL), LOOK}
    else:
        offered = {str(bid) for bid in ALL_BIDS if not bid.blind}
    assert set(step.expect) <= offered
    assert set(step.feedback_for) <= offered
    for token in step.expect:
        if token != LOOK:
            assert str(parse_bid(token)) == token


@pytest.mark.parametrize("item", steps_of(WatchStep), ids=step_id)
def test_every_watch_step_is_played_by_the_engine(item: tuple[Lesson, WatchStep]) -> None:
    _, step = item
    state, _ = engine_run(step.scene)
    for card in step.plays:
        assert state.refusal(card) is None
        state = state.apply(card)
    seated, after = apply_watch(step)
    assert [card for _, card in seated] == list(step.plays)
    assert after == step.after
    assert engine_run(after)[0] == state


@pytest.mark.parametrize("item", steps_of(AnswerStep), ids=step_id)
def test_every_answer_is_one_of_its_choices(item: tuple[Lesson, AnswerStep]) -> None:
    _, step = item
    if step.entry:  # a number field: the claim, recomputed below, states the number
        assert step.choices == () and step.claim is not None
        assert step.claim.answer() == step.expect[0]
        return
    assert set(step.expect) <= set(step.choices)
    assert len(set(step.choices)) == len(step.choices) >= 2
    if step.ask == "cards" and isinstance(step.scene, Position):
        held = engine_run(step.scene)[0].hand_of(Seat.S)
        assert all(parse_card(token) in held for token in step.choices)


# --- the claims, recomputed with the engine ----------------------------------------------------


def complete_trick_winner(position: Position) -> Seat:
    """Who won the trick on the table: play its last card and see whose count went up."""
    _, states = engine_run(position)
    assert len(states) >= 2, "the trick must be completed by the position's plays"
    before, after = states[-2], states[-1]
    assert after.phase is not Phase.PLAYING or not after.trick, "the trick is not complete"
    gained = [seat for seat in Seat if tricks_of(after)[seat] == tricks_of(before)[seat] + 1]
    assert len(gained) == 1
    return gained[0]


def check_claim(claim: Claim, scene: object) -> None:
    if claim.dealer is not None:
        number, seat = claim.dealer
        assert dealer_of_hand(number - 1) == seat
    if claim.opens is not None:
        number, seat = claim.opens
        assert dealer_of_hand(number - 1).left == seat
    if not isinstance(scene, Position):
        assert not (claim.winner or claim.winning or claim.legal or claim.refused
                    or claim.points or claim.game), "a claim on play needs a position"
        return
    state, _ = engine_run(scene)
    if claim.winner is not None:
        assert complete_trick_winner(scene) == claim.winner
    if claim.winning is not None:
        trick = state.trick
        assert trick
        assert trick[trick_winner([card.id for _, card in trick])][0] == claim.winning
    if claim.legal is not None:
        assert frozenset(state.legal_plays()) == claim.legal
    for card, reason in claim.refused:
        why = state.refusal(card)
        assert (why.reason if why else "allowed") == reason
        if why is not None:
            with pytest.raises(spades_core.IllegalAction):
                state.apply(card)
    tricks = tricks_of(state)
    for team, value in claim.tricks:
        assert tricks[team] + tricks[team + 2] == value
    if claim.voids:
        assert state.phase is Phase.PLAYING
        voids = view_for(state, Seat.S).voids
        for seat, suit in claim.voids:
            assert voids[seat] >> suit & 1
    if claim.unseen:
        assert sum(scene.tricks) == 0 and len(scene.hands[Seat.S]) == 13
        view = view_for(state, Seat.S)
        for suit, count in claim.unseen:
            assert (view.unseen_mask() & SUIT_MASKS[suit]).bit_count() == count
    if claim.last_trick:
        seated = state.seated_plays()
        current = len(state.trick)
        last = seated[len(seated) - current - 4: len(seated) - current]
        for pair in claim.last_trick:
            assert pair in last
    scoring = (claim.points or claim.bags or claim.bags_after or claim.penalty
               or claim.contract or claim.score_after or claim.nil_made)
    finished = sum(tricks) == 13
    if scoring or (claim.game is not None and finished):
        bids = scene.bids
        assert all(bid is not None for bid in bids)
        if claim.contract and not (claim.points or claim.bags or claim.score_after):
            finished = True  # a contract is read from the bids alone
        assert finished, "scoring needs the 13 tricks of a hand"
        ns, ew = score_hand(
            (bids[0] or Bid(1), bids[1] or Bid(1), bids[2] or Bid(1), bids[3] or Bid(1)),
            tricks, scene.bags, scene.rules,
        )
        teams = (ns, ew)
        for team, value in claim.points:
            assert teams[team].points == value
        for team, value in claim.bags:
            assert teams[team].bags == value
        for team, value in claim.bags_after:
            assert teams[team].bags_after == value
        for team, value in claim.penalty:
            assert teams[team].bag_penalty == value
        for team, value in claim.contract:
            assert teams[team].contract == value
        for team, value in claim.score_after:
            assert scene.scores[team] + teams[team].points == value
        for seat, made in claim.nil_made:
            assert [nil.made for nil in teams[seat.team].nils if nil.seat == seat] == [made]
        scores = (scene.scores[0] + ns.points, scene.scores[1] + ew.points)
    else:
        scores = scene.scores
    if claim.game is not None:
        winner = game_winner(scores, scene.rules)
        assert (Team(winner).name if winner is not None else "none") == claim.game


CLAIMED = [(lesson, step) for lesson, step in steps_of(AnswerStep) if step.claim is not None]


@pytest.mark.parametrize("item", CLAIMED, ids=step_id)
def test_every_claim_is_verified_by_the_engine(item: tuple[Lesson, AnswerStep]) -> None:
    _, step = item
    assert step.claim is not None
    check_claim(step.claim, step.scene)


def test_claims_check_a_good_share_of_the_answers() -> None:
    answers = steps_of(AnswerStep)
    assert len(CLAIMED) * 2 >= len(answers)
    kinds = set()
    for _, step in CLAIMED:
        assert step.claim is not None
        for name in ("winner", "winning", "points", "bags", "bags_after", "contract",
                     "score_after", "legal", "refused", "game", "dealer", "opens", "voids",
                     "unseen", "last_trick", "tricks"):
            if getattr(step.claim, name):
                kinds.add(name)
    assert {"winner", "points", "bags", "legal", "refused", "game"} <= kinds


def test_an_answer_matches_what_its_claim_implies() -> None:
    for lesson, step in CLAIMED:
        assert step.claim is not None
        implied = step.claim.answer()
        if implied is None or (step.ask == "option" and implied not in step.choices):
            continue
        given = frozenset(step.expect) if step.ask == "cards" else step.expect[0]
        assert implied == given, (lesson.id, step.index)


def test_the_engine_would_catch_a_wrong_claim() -> None:
    path = LESSONS_DIR / "rules-09-contract.json"
    data = json.loads(path.read_text("utf-8"))
    entry = next(i for i, step in enumerate(data["steps"]) if step.get("ask") == "entry")
    data["steps"][entry]["claim"] = {"points": {"NS": 70}}
    data["steps"][entry]["expect"] = 70
    with pytest.raises(LessonError) as error:
        load_lesson(path.name, json.dumps(data), LIBRARY.shared)
    message = str(error.value)
    assert f"rules-09-contract.json: step {entry + 1}: claim" in message
    assert "points of NS is 71, not 70" in message


# --- every play and bid step agrees with the coach -----------------------------------------------


PLAYS_AND_BIDS = [(lesson, step) for lesson, step in STEPS if isinstance(step, PlayStep | BidStep)]


@pytest.mark.parametrize("item", PLAYS_AND_BIDS, ids=step_id)
def test_every_play_and_bid_step_agrees_with_the_coach(
    item: tuple[Lesson, PlayStep | BidStep],
) -> None:
    """The coach (the Expert's decision) suggests one of the step's expected actions, or
    the step says in its data that any legal card is right, and then it accepts them all."""
    hints = importlib.import_module("spades_core.hints")
    lesson, step = item
    if isinstance(step, PlayStep) and step.any_legal:
        assert lesson.group == "rules"
        state, _ = engine_run(step.scene)
        assert set(step.expect) == set(state.legal_plays())
        for card in state.legal_plays():
            assert check_action(step, card).correct
        return
    view = step_view(step)
    assert view is not None
    action = hints.hint(view).action
    if isinstance(step, PlayStep):
        assert isinstance(action, Card) and action in step.expect, (action, step.expect)
    elif action is None:  # the coach says: look at your cards first
        assert LOOK in step.expect
    else:
        assert isinstance(action, Bid) and str(action) in step.expect, (action, step.expect)


BID_STEPS = [(lesson, step) for lesson, step in STEPS if isinstance(step, BidStep)]


@pytest.mark.parametrize("item", BID_STEPS, ids=step_id)
def test_a_bid_the_texts_give_to_the_expert_is_the_coachs(
    item: tuple[Lesson, BidStep],
) -> None:
    """"The Expert bids 3" / "L'Expert annonce 3" in a step's texts is the coach's bid."""
    hints = importlib.import_module("spades_core.hints")
    _, step = item
    view = step_view(step)
    assert view is not None
    action = hints.hint(view).action
    texts = " ".join(text.en + " " + text.fr for text in (
        step.success, step.feedback, step.prompt, *step.feedback_for.values()))
    for said in re.findall(r"(?:Expert bids|Expert annonce) (\w+)", texts):
        assert str(action) == said.lower(), (said, action)


def test_a_step_accepting_any_legal_card_says_so_in_its_data() -> None:
    data = json.loads(minimal({**PLAY, "expect": None}))
    del data["steps"][0]["expect"]
    data["steps"][0]["any_legal"] = True
    step = load_lesson("rules-50-test.json", json.dumps(data), LIBRARY.shared).steps[0]
    assert isinstance(step, PlayStep) and step.any_legal and step.expect == (parse_card("2H"),)
    del data["steps"][0]["any_legal"]
    with pytest.raises(LessonError, match="expect: missing"):
        load_lesson("rules-50-test.json", json.dumps(data), LIBRARY.shared)


# --- judging the learner ------------------------------------------------------------------------


def test_check_action_on_a_play_step() -> None:
    lesson = LIBRARY.lesson("rules-07-nil")
    step = next(s for s in lesson.steps if isinstance(s, PlayStep))
    right = check_action(step, "2H")
    assert right.correct and right.refusal is None and right.feedback == step.success
    assert isinstance(right.after, Position) and right.after.plays[-1] == parse_card("2H")
    wrong = check_action(step, parse_card("QH"))
    assert not wrong.correct and wrong.refusal is None
    assert wrong.feedback == step.feedback_for[parse_card("QH")]
    assert wrong.highlight.cards == (parse_card("2H"),)
    illegal = check_action(step, "7C", LIBRARY.shared)
    assert not illegal.correct
    assert illegal.refusal is not None and illegal.refusal.reason == "must-follow-suit"
    assert illegal.refusal.params["suit"] == "hearts"
    assert illegal.feedback == LIBRARY.shared.refusals["must-follow-suit:hearts"]
    assert check_action(step, "7C").feedback is None  # without shared texts: show the refusal
    assert check_action(step, "AS").refusal.reason == "not-in-hand"  # type: ignore[union-attr]


def test_check_action_on_a_cards_answer_names_the_wrong_picks_only() -> None:
    lesson = LIBRARY.lesson("rules-03-follow-suit")
    step = lesson.steps[1]
    assert isinstance(step, AnswerStep) and set(step.expect) == {"QC", "4C"}
    short = check_action(step, ["4C"])  # right but incomplete: nothing picked is wrong
    assert not short.correct and short.wrong == frozenset()
    extra = check_action(step, ["4c", "AH"])  # read as cards, then judged
    assert not extra.correct and extra.wrong == {"AH"}
    assert check_action(step, ["QC", "4C"]).correct


def test_check_action_reports_spades_not_broken() -> None:
    lesson = LIBRARY.lesson("rules-05-spades-broken")
    step = next(s for s in lesson.steps if isinstance(s, PlayStep))
    outcome = check_action(step, "AS", LIBRARY.shared)
    assert outcome.refusal is not None and outcome.refusal.reason == "spades-not-broken"
    assert outcome.feedback == LIBRARY.shared.refusals["spades-not-broken"]
    assert set(outcome.highlight.cards) == {parse_card("5H"), parse_card("3D")}
    assert check_action(step, "3D").correct


def test_check_action_on_bid_and_answer_steps() -> None:
    blind = next(s for _, s in steps_of(BidStep) if s.scene.hand is None)
    assert check_action(blind, BLIND_NIL).correct
    look = check_action(blind, "look")
    assert not look.correct and look.feedback == blind.feedback_for[LOOK]
    assert look.highlight.choices == ("blind-nil",)
    nil = next(s for lesson, s in steps_of(BidStep) if lesson.id == "rules-07-nil")
    assert check_action(nil, "0").correct and check_action(nil, "nil").correct
    assert not check_action(nil, Bid(2)).correct
    cards = next(s for _, s in steps_of(AnswerStep) if s.ask == "cards")
    assert check_action(cards, list(cards.expect)).correct
    assert not check_action(cards, list(cards.expect)[:1]).correct
    seat = next(s for _, s in steps_of(AnswerStep) if s.ask == "seat")
    assert check_action(seat, seat.expect[0]).correct
    other = next(c for c in seat.choices if c not in seat.expect)
    outcome = check_action(seat, other)
    assert not outcome.correct and outcome.highlight.choices == seat.expect
    with pytest.raises(ValueError):
        check_action(cards, "2H")


# --- the loader's errors name the file, the step and the field ----------------------------------


def minimal(step: dict[str, Any]) -> str:
    return json.dumps({
        "format": "spades-lesson/1", "id": "rules-50-test", "group": "rules", "order": 50,
        "title": {"en": "T", "fr": "T"}, "summary": {"en": "S", "fr": "S"}, "steps": [step],
    })


PLAY: dict[str, Any] = {
    "kind": "play", "topic": "follow-suit",
    "position": {"hands": {"S": ["2H", "3C"]}, "leader": "E", "trick": ["9H"]},
    "prompt": {"en": "P", "fr": "P"}, "expect": "2H",
}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"expect": "3C"}, "step 1: expect[0]: 3C may not be played here (must-follow-suit)"),
        ({"prompt": {"en": "P"}}, "step 1: prompt.fr: missing"),
        ({"prompt": {"en": "P", "fr": " "}}, "step 1: prompt.fr: the text is empty"),
        ({"colour": 1}, "step 1: colour: unknown key"),
        ({"topic": "nope"}, "step 1: topic: 'nope' is not a rules topic"),
        ({"position": {"hands": {"S": ["2H"], "N": ["2H"]}}}, "step 1: position: the engine"),
        ({"position": {"hands": {"S": ["2H"], "W": ["5S"]}, "leader": "W"}},
         "step 1: position: South must be to play here, not W"),
        ({"position": {"hands": {"S": ["2H"]}, "leader": "E", "trick": ["9H"],
                       "plays": ["2H", "4H"]}},
         "step 1: position.plays[1]: W may not play 4H (not-in-hand"),
        ({"position": {"hands": {"S": ["2H", "3C"], "N": ["4H"]}, "leader": "E",
                       "trick": ["9H"], "plays": ["3C"]}},
         "step 1: position.plays[0]: S may not play 3C (must-follow-suit"),
        ({"position": {"hands": {"S": ["2H", "3C"], "W": ["KH"]}, "leader": "W",
                       "trick": ["9C"]}},
         "step 1: position: South must be to play here, not N"),
        ({"position": {"hands": {"S": ["2H"], "E": ["4H"]}, "leader": "N",
                       "trick": ["9H", "3S"]}}, "step 1: position.trick[1]: E played 3S"),
        ({"feedback_for": {"2H": {"en": "x", "fr": "x"}}},
         "step 1: feedback_for.2H: this card is the expected one"),
        ({"hint_agrees": True}, "step 1: hint_agrees: only a step with a tip"),
    ],
)
def test_loader_errors_name_the_file_step_and_field(change: dict[str, Any], where: str) -> None:
    with pytest.raises(LessonError) as error:
        load_lesson("rules-50-test.json", minimal({**PLAY, **change}), LIBRARY.shared)
    assert str(error.value).startswith("rules-50-test.json: ")
    assert where in str(error.value)


TEXT = {"en": "x", "fr": "x"}
BID: dict[str, Any] = {
    "kind": "bid", "topic": "bidding", "bidding": {"dealer": "E"}, "prompt": TEXT,
    "expect": "look",
}
ANSWER: dict[str, Any] = {
    "kind": "answer", "topic": "seats-dealing", "prompt": TEXT, "ask": "seat",
    "choices": ["N", "E", "W"], "expect": "N",
}


@pytest.mark.parametrize(
    ("step", "where"),
    [
        ({**PLAY, "feedback_for": ["2H"]}, "step 1: feedback_for: must be an object: card -> text"),
        ({**PLAY, "feedback_for": {"AS": TEXT}},
         "step 1: feedback_for.AS: South does not hold this card"),
        ({**PLAY, "feedback_for": {"2H": {"en": "x"}}},  # the key is read before its text
         "step 1: feedback_for.2H: this card is the expected one"),
        ({**PLAY, "feedback_for": {"3C": {"en": "x"}}}, "step 1: feedback_for.3C.fr: missing"),
        ({**BID, "feedback_for": {"look": TEXT}},
         "step 1: feedback_for.look: this bid is an expected one"),
        ({**BID, "feedback_for": {"3": TEXT}}, "step 1: feedback_for.3: '3' is not offered here"),
        ({**BID, "feedback_for": "x"}, "step 1: feedback_for: must be an object: bid -> text"),
        ({**ANSWER, "labels": []}, "step 1: labels: must be an object: choice -> text"),
        ({**ANSWER, "feedback_for": {"N": TEXT}},
         "step 1: feedback_for.N: this is the expected answer"),
        ({**ANSWER, "feedback_for": {"S": TEXT}}, "step 1: feedback_for.S: not one of the choices"),
    ],
)
def test_texts_by_key_are_checked_key_first(step: dict[str, Any], where: str) -> None:
    with pytest.raises(LessonError) as error:
        load_lesson("rules-50-test.json", minimal(step), LIBRARY.shared)
    assert where in str(error.value)


def test_loader_errors_for_the_lesson_itself() -> None:
    with pytest.raises(LessonError, match=r"other\.json: id: the file of lesson"):
        load_lesson("other.json", minimal(PLAY), LIBRARY.shared)
    with pytest.raises(LessonError, match="not valid JSON"):
        load_lesson("rules-50-test.json", "{", LIBRARY.shared)
    data = json.loads(minimal(PLAY))
    data["group"] = "strategy"
    data["steps"][0]["tip"] = "nil-hand"
    with pytest.raises(LessonError, match="steps: a strategy lesson ends with a practice step"):
        load_lesson("rules-50-test.json", json.dumps(data), LIBRARY.shared)
    duplicate = {path.name: path.read_text("utf-8") for path in LESSONS_DIR.glob("*.json")}
    duplicate["rules-50-test.json"] = minimal(PLAY).replace('"order": 50', '"order": 1')
    with pytest.raises(LessonError, match=r"order: rules order 1 is also rules-01-table\.json"):
        load_library(duplicate)


def test_a_play_step_accepting_several_cards_cannot_be_continued_implicitly() -> None:
    data = json.loads(minimal({**PLAY, "position": {
        "hands": {"S": ["2H", "5H"]}, "leader": "E", "trick": ["9H"]}, "expect": ["2H", "5H"]}))
    data["steps"].append({"kind": "explain", "text": {"en": "x", "fr": "x"}})
    with pytest.raises(LessonError, match="step 2: position: step 1 accepts several cards"):
        load_lesson("rules-50-test.json", json.dumps(data), LIBRARY.shared)


def test_every_learner_step_without_its_own_feedback_uses_the_shared_default() -> None:
    shared = LIBRARY.shared
    assert shared.feedback is not None and shared.success is not None
    assert set(shared.refusals) >= {
        "spades-not-broken", "must-follow-suit", "must-follow-suit:clubs",
        "must-follow-suit:diamonds", "must-follow-suit:hearts", "must-follow-suit:spades",
    }
    for text in texts_of(list(shared.refusals.values())):
        assert text.en.strip() and text.fr.strip()


# --- doing over reading -------------------------------------------------------------------------

_SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_RANKS = {"en": {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
          "fr": {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"}}


def written(card: Card, lang: str) -> str:
    """A card as the lessons write it in ``lang`` ("Q♥" / "D♥", "10♦")."""
    rank, suit = str(card)[0], str(card)[1]
    return _RANKS[lang].get(rank, rank) + _SUIT_SIGNS[suit]


@pytest.mark.parametrize("item", steps_of(PlayStep), ids=step_id)
def test_no_prompt_names_the_card_to_play(item: tuple[Lesson, PlayStep]) -> None:
    _, step = item
    state, _ = engine_run(step.scene)
    if len(state.legal_plays()) == 1 or step.any_legal:
        return  # nothing to find: a forced card, or any legal card is right
    for lang in LANGS:
        prompt = step.prompt.get(lang)
        for card in step.expect:
            mark = written(card, lang)
            assert not any(prompt[i:].startswith(mark) and not prompt[i + len(mark):][:1].isdigit()
                           and (i == 0 or not prompt[i - 1].isdigit())
                           for i in range(len(prompt))), (lang, mark, prompt)


def test_number_fields_are_checked_by_the_engines_scoring() -> None:
    entries = [(lesson, step) for lesson, step in steps_of(AnswerStep) if step.entry]
    scoring = [step for _, step in entries if step.claim is not None and (
        step.claim.points or step.claim.bags or step.claim.score_after)]
    assert len(scoring) >= 5
    for _, step in entries:
        assert step.claim is not None and step.claim.answer() == step.expect[0]
        check_claim(step.claim, step.scene)  # recomputed with spades_core.scoring


# --- doing over reading ---------------------------------------------------------------------


def table_share() -> tuple[int, int]:
    """(acting steps done on the table: a card, a bid, cards selected in the hand; all acting
    steps), counted from the lesson data."""
    acting = [step for lesson in LIBRARY.lessons for step in lesson.acting_steps]
    table = [step for step in acting if isinstance(step, PlayStep | BidStep)
             or (isinstance(step, AnswerStep) and step.ask in TABLE_ASKS)]
    return len(table), len(acting)


def test_the_table_share_counts_the_acting_steps() -> None:
    table, acting = table_share()
    kinds = Counter(step.kind for lesson in LIBRARY.lessons for step in lesson.steps)
    assert acting == kinds["play"] + kinds["bid"] + kinds["answer"]
    assert 0 < table < acting


def test_most_acting_steps_are_cards_or_bids_on_a_table() -> None:
    table, acting = table_share()
    assert table / acting >= 0.65, f"{table} of {acting} acting steps ({table / acting:.1%})"


def test_scoring_is_practised_by_playing_out_the_last_tricks() -> None:
    """In more than one lesson, South plays the hand's last cards and then types a score
    that the engine's scoring checks."""
    found = []
    for lesson in LIBRARY.lessons:
        for before, step in zip(lesson.steps, lesson.steps[1:], strict=False):
            if (isinstance(step, AnswerStep) and step.ask == "entry" and step.claim is not None
                    and (step.claim.points or step.claim.bags)
                    and isinstance(before, WatchStep)):
                earlier = lesson.steps[:step.index - 1]
                plays = [s for s in earlier if isinstance(s, PlayStep)]
                scene = step.scene
                assert isinstance(scene, Position) and scene.finished()
                if plays:
                    found.append(lesson.id)
    assert len(set(found)) >= 2, found


def _texts(node: object) -> Iterator[tuple[str, str]]:
    """Every text of a lesson file with its two languages."""
    if isinstance(node, dict):
        if isinstance(node.get("en"), str) and isinstance(node.get("fr"), str):
            yield node["en"], node["fr"]
        for value in node.values():
            yield from _texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from _texts(value)


@pytest.mark.parametrize("path", sorted(LESSONS_DIR.glob("*.json")), ids=lambda path: path.stem)
def test_both_languages_give_the_same_numbers(path: Path) -> None:
    """A translation that drifted from the position shows first in its numbers."""
    texts = list(_texts(json.loads(path.read_text(encoding="utf-8"))))
    assert texts
    for english, french in texts:
        assert sorted(re.findall(r"\d+", english)) == sorted(re.findall(r"\d+", french)), english
