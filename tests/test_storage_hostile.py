"""Hostile stored values, key by key: whatever a user (or an old bug) left in localStorage,
reading it gives ``(value, damaged)`` and never raises; damaged values are replaced by the
default (or removed) and read back clean."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spades_core import GameState, Rules
from spades_core.bots import bot_action, make_bot
from spades_core.judge import summarise
from ui.lessons import lessons_progress
from ui.progress import deck, history
from ui.shared import options
from ui.shared.storage import (
    KEYS,
    LIMITS,
    MAX_DEPTH,
    MemoryBackend,
    Storage,
    check_seen,
    depth_within,
)
from ui.table import coach_cache, savegame, stats

from .test_review import ruff_game


def _game_json(**changes: Any) -> dict[str, Any]:
    state = GameState.new(Rules(target=200), deal=7)
    for _ in range(6):
        state = state.apply(bot_action(make_bot("beginner"), state))
    data = savegame.SavedGame(state=state, level="beginner", seen=0).to_json()
    rules = changes.pop("rules", None)
    if rules:
        data["record"]["rules"].update(rules)
    data.update(changes)
    return data


def _progress_json() -> dict[str, Any]:
    judged = summarise([("bidding", True, 0, False), ("lead", False, 70, True)])
    found = history.record_hand(history.empty(), "normal", 12, 0, judged, 60, (0, 0), 1)
    found = history.end_game(found, "normal", 12, True)
    return history.record_hand(found, "expert", 0, 3, judged, -40, (1, 1), 0, practice=True)


def _deck_json() -> dict[str, Any]:
    """Two items: the ruff position's blunder, and the same position again under another key
    in box 2."""
    from dataclasses import replace

    from spades_core import Seat
    from spades_core.mistakes import items_from_review
    from spades_core.review import review_hand

    game = ruff_game()
    first = items_from_review(review_hand(game, 0, Seat.S), game, "0-9", 20_000)[0]
    return deck.to_data([first, replace(first, key="0-9:0:10b", box=2, due=20_002)])


GOOD: dict[str, str] = {
    "game": json.dumps(_game_json()),
    "options": json.dumps({**options.defaults(), "target": 200, "felt": "blue"}),
    "stats": json.dumps(stats.record_game(stats.empty(), "normal", True, 230, "20261129", 90)),
    "lessons": '{"version": 1, "lessons": {"rules-02-tricks": {"done": [0, 1], "at": 2}}}',
    "par": '{"20261201|normal|{}": {"par": 524}}',
    "welcome": '{"seen": true}',
    "progress": json.dumps(_progress_json()),
    "mistakes": json.dumps(_deck_json()),
}
CHECKS = {
    "game": savegame.check,
    "options": lambda data: options.validate(data, "fr"),
    "stats": stats.validate,
    "lessons": lessons_progress.check,
    "par": coach_cache.check,
    "welcome": check_seen,
    "progress": history.check,
    "mistakes": deck.check,
}
# how the lessons screen and the deck are stored
ENCODE = {"lessons": lessons_progress.Progress.to_json, "mistakes": deck.encode}
DEFAULTS: dict[str, Any] = {
    "game": None,
    "options": options.defaults("fr"),
    "stats": stats.empty(),
    "lessons": lessons_progress.Progress(),
    "par": {},
    "welcome": {"seen": False},
    "progress": history.empty(),
    "mistakes": [],
}
BIG = "9" * 4300  # the most digits int() accepts from text
DEEP = 10_000

# Hostile texts under any key.
ANY_KEY = {
    "inf": "1e999",
    "-inf": "-1e999",
    "nan": "NaN",
    "infinity": "[Infinity]",
    "deep-10k": "[" * DEEP + "]" * DEEP,
    "deep-100k": "[" * 100_000 + "]" * 100_000,
    "deep-objects": '{"a":' * DEEP + "1" + "}" * DEEP,
    "deep-unclosed": "[" * 100_000,
    "one-too-deep": "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "4300-digits": BIG,
    "4301-digits": BIG + "9",
    "huge-string": '"' + "x" * (LIMITS["game"] + 1) + '"',
    "huge-text-of-spaces": " " * 300_000 + "{}",
    "array": "[]",
    "string": '"text"',
    "true": "true",
    "null": "null",
    "number": "3",
    "not-json": "{not json",
    "empty": "",
    "lone-surrogate": '"\\ud800"',
}

# Hostile values inside a well-formed value of one key.
IN_KEY: dict[str, dict[str, str]] = {
    "game": {
        "seen-inf": json.dumps(_game_json()).replace('"seen": 0', '"seen": 1e999'),
        "sheets-minus-inf": json.dumps(_game_json()).replace('"sheets": 0', '"sheets": -1e999'),
        "seen-nan": json.dumps(_game_json()).replace('"seen": 0', '"seen": NaN'),
        "seen-big": json.dumps(_game_json()).replace('"seen": 0', f'"seen": {BIG}'),
        "seen-too-far": json.dumps(_game_json(seen=5)),
        "seen-below": json.dumps(_game_json(seen=-2)),
        "seen-float": json.dumps(_game_json(seen=0.0)),
        "seen-bool": json.dumps(_game_json(seen=True)),
        "sheets-ahead": json.dumps(_game_json(sheets=1)),
        "daily-int": json.dumps(_game_json(daily=1)),
        "level-list": json.dumps(_game_json(level=["normal"])),
        "level-unknown": json.dumps(_game_json(level="godlike")),
        "nil-value-big": json.dumps(_game_json()).replace(
            '"nil_value": 100', f'"nil_value": {BIG}'),
        "nil-value-other": json.dumps(_game_json(rules={"nil_value": 50})),
        "target-not-offered": json.dumps(_game_json(rules={"target": 250})),
        "target-bool": json.dumps(_game_json(rules={"target": True})),
        "floor-other": json.dumps(_game_json(rules={"floor": -100})),
        "jokers": json.dumps(_game_json(rules={"jokers": True})),
        "bag-limit-zero": json.dumps(_game_json(rules={"bag_limit": 0})),
        "rules-missing": json.dumps({**_game_json(), "record": {
            k: v for k, v in _game_json()["record"].items() if k != "rules"}}),
        "deal-inf": json.dumps(_game_json()).replace('"deal": 7', '"deal": 1e999'),
        "deal-big": json.dumps(_game_json()).replace('"deal": 7', f'"deal": {BIG}'),
        "plays-huge-string": json.dumps(_game_json()).replace(
            '"plays": [', '"plays": ["' + "x" * 100_000 + '", '),
        "record-string": json.dumps(_game_json(record="x")),
    },
    "options": {
        "target-inf": '{"target": 1e999}',
        "target-big": f'{{"target": {BIG}}}',
        "language-huge": json.dumps({"language": "x" * 60_000}),
        "floor-int": '{"floor": 1}',
        "list": '["level", "expert"]',
    },
    "stats": {
        "played-inf": GOOD["stats"].replace('"played": 1', '"played": 1e999', 1),
        "played-big": GOOD["stats"].replace('"played": 1', f'"played": {BIG}', 1),
        "best-nan": GOOD["stats"].replace('"best": 230', '"best": NaN', 1),
        "best-float": GOOD["stats"].replace('"best": 230', '"best": 230.0', 1),
        "won-bool": GOOD["stats"].replace('"won": 1', '"won": true', 1),
        "won-over-played": GOOD["stats"].replace('"won": 1', '"won": 2', 1),
        "row-string": json.dumps({"levels": {"normal": "x"}, "daily": {}}),
        "daily-score-big": GOOD["stats"].replace('"ns": 230', f'"ns": {BIG}'),
        "daily-bad-date": json.dumps({"levels": {}, "daily": {"x" * 50_000: {}}}),
    },
    "progress": {
        "version-2": GOOD["progress"].replace('"v": 1', '"v": 2', 1),
        "lost-inf": GOOD["progress"].replace('"lost": 70', '"lost": 1e999', 1),
        "lost-big": GOOD["progress"].replace('"lost": 70', f'"lost": {BIG}', 1),
        "lost-negative": GOOD["progress"].replace('"lost": 70', '"lost": -70', 1),
        "n-float": GOOD["progress"].replace('"n": 2', '"n": 2.0', 1),
        "won-string": GOOD["progress"].replace('"won": true', '"won": "yes"', 1),
        "ok-over-n": GOOD["progress"].replace('"ok": 1', '"ok": 3', 1),
        "level-unknown": GOOD["progress"].replace('"normal"', '"godlike"', 1),
        "by-short": GOOD["progress"].replace('"by": [', '"by": [[0, 0, 0], ', 1),
        "done-huge": GOOD["progress"].replace('"done": 1', f'"done": {1 << 64}', 1),
        "done-list": GOOD["progress"].replace('"done": 1', '"done": [0]', 1),
        "games-string": json.dumps({"v": 1, "games": "x", "before": {}}),
        "before-row-bad": json.dumps({"v": 1, "games": [], "before": {"normal": {"games": -1}}}),
        "deep-games": '{"v": 1, "games": ' + "[" * DEEP + "]" * DEEP + ', "before": {}}',
    },
    "mistakes": {
        "version-2": GOOD["mistakes"].replace('"v": 1', '"v": 2', 1),
        "items-string": json.dumps({"v": 1, "items": "x"}),
        "cost-inf": GOOD["mistakes"].replace('"cost": ', '"cost": 1e999, "x": ', 1),
        "cost-big": GOOD["mistakes"].replace('"cost": ', f'"cost": {BIG}, "x": ', 1),
        "box-big": GOOD["mistakes"].replace('"box": 1', '"box": 7', 1),
        "due-float": GOOD["mistakes"].replace('"due": 20001', '"due": 20001.0', 1),
        "due-negative": GOOD["mistakes"].replace('"due": 20001', '"due": -1', 1),
        "hand-big": GOOD["mistakes"].replace('"hand": 0', f'"hand": {BIG}', 1),
        "card-mask-big": GOOD["mistakes"].replace('"cards": [', f'"cards": [{1 << 70}, ', 1),
        "acts-illegal": GOOD["mistakes"].replace('"2C", "2D"', '"2C", "2C"', 1),
        "acts-huge": GOOD["mistakes"].replace('"acts": [', '"acts": ["' + "x" * 50_000 + '", ', 1),
        "reason-text": GOOD["mistakes"].replace('"reason": "review', '"reason": "Why? r', 1),
        "played-not-legal": GOOD["mistakes"].replace('"played": "3S"', '"played": "AS"', 1),
        "params-list": GOOD["mistakes"].replace('"params": {', '"params": {"a": [1], ', 1),
        "key-twice": GOOD["mistakes"].replace('0-9:0:10b', '0-9:0:10', 1),
        "deep-items": '{"v": 1, "items": ' + "[" * DEEP + "]" * DEEP + "}",
    },
    "lessons": {
        "done-inf": '{"version": 1, "lessons": {"a": {"done": [1e999]}}}',
        "at-big": f'{{"version": 1, "lessons": {{"a": {{"done": [], "at": {BIG}}}}}}}',
        "done-float": '{"version": 1, "lessons": {"a": {"done": [1.0]}}}',
        "version-inf": '{"version": 1e999, "lessons": {}}',
        "id-huge": json.dumps({"version": 1, "lessons": {"x" * 50_000: {"done": []}}}),
        "deep-done": '{"version": 1, "lessons": {"a": {"done": ' + "[" * DEEP + "]" * DEEP + "}}}",
    },
}

CASES = [(name, label, text) for name in KEYS for label, text in ANY_KEY.items()]
CASES += [(name, label, text) for name, texts in IN_KEY.items() for label, text in texts.items()]


def _same_default(name: str, value: Any) -> bool:
    if name == "lessons":
        return value.done == {} and value.at == {}
    if name == "mistakes":
        return value == []
    return bool(value == DEFAULTS[name])


# Where a hostile value sits in one part of the stats, the other parts are kept (text that is
# not strict JSON, as 1e999 or NaN, is unreadable as a whole).
_GOOD_STATS = json.loads(GOOD["stats"])
_DAILY_ONLY = {**stats.empty(), "daily": _GOOD_STATS["daily"]}
KEPT: dict[tuple[str, str], Any] = {
    **{("stats", label): _DAILY_ONLY for label in (
        "played-big", "best-float", "won-bool", "won-over-played")},
    ("stats", "daily-score-big"): {**_GOOD_STATS, "daily": {}},
    # one bad game entry goes, the practice entry beside it stays
    **{("progress", label): {**history.empty(), "games": _progress_json()["games"][1:]}
       for label in ("lost-big", "lost-negative", "n-float", "won-string", "ok-over-n",
                     "level-unknown", "by-short", "done-huge", "done-list")},
    # one bad item goes, the other stays
    **{("mistakes", label): deck.check(json.loads(GOOD["mistakes"]))[0][1:]
       for label in ("box-big", "due-float", "due-negative", "hand-big", "card-mask-big",
                     "acts-illegal", "acts-huge", "reason-text", "played-not-legal",
                     "params-list", "cost-big")},
    ("mistakes", "key-twice"): deck.check(json.loads(GOOD["mistakes"]))[0][:1],
}


@pytest.mark.parametrize(("name", "label", "text"), CASES,
                         ids=[f"{name}-{label}" for name, label, _ in CASES])
def test_a_hostile_value_is_reset_with_a_notice(name: str, label: str, text: str) -> None:
    backend = MemoryBackend()
    backend.items[KEYS[name]] = text
    store = Storage(backend)
    value, damaged = store.load(name, CHECKS[name], ENCODE.get(name))
    assert damaged, label
    kept = KEPT.get((name, label))
    assert value == kept if kept is not None else _same_default(name, value)
    if name == "game":
        assert KEYS[name] not in backend.items  # removed: a new game is started
    else:
        assert backend.items[KEYS[name]] != text  # replaced, and now reads clean
        again, damaged = store.load(name, CHECKS[name], ENCODE.get(name))
        assert not damaged and again == value


@pytest.mark.parametrize("name", list(KEYS))
def test_good_values_read_clean_and_nothing_stored_is_no_damage(name: str) -> None:
    backend = MemoryBackend()
    store = Storage(backend)
    value, damaged = store.load(name, CHECKS[name], ENCODE.get(name))
    assert not damaged and _same_default(name, value)
    backend.items[KEYS[name]] = GOOD[name]
    value, damaged = store.load(name, CHECKS[name], ENCODE.get(name))
    assert not damaged and not _same_default(name, value)
    assert backend.items[KEYS[name]] == GOOD[name]


@pytest.mark.parametrize("label", list(ANY_KEY))
def test_the_lessons_screen_reader_never_raises(label: str) -> None:
    progress, damaged = lessons_progress.parse(ANY_KEY[label])
    assert damaged and progress.done == {}


def test_nesting_is_measured_outside_strings() -> None:
    assert depth_within("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert not depth_within("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert depth_within('{"a": "' + "[" * 100 + '\\"{{{"}')
    assert not depth_within("[}")
    assert depth_within("3") and depth_within("")


class FullBackend(MemoryBackend):
    """localStorage once its quota is used up."""

    def setItem(self, key: str, value: str) -> None:
        raise RuntimeError("QuotaExceededError: Failed to execute 'setItem' on 'Storage'")


class BrokenBackend(FullBackend):
    """Storage that is not even readable (a browser that forbids it)."""

    def getItem(self, key: str) -> str | None:
        raise RuntimeError("SecurityError: access denied")


def test_a_full_storage_refuses_writes_without_raising() -> None:
    backend = FullBackend()
    backend.items[KEYS["options"]] = "{not json"
    store = Storage(backend)
    assert not store.write_failed
    value, damaged = store.load("options", CHECKS["options"])
    assert damaged and value == DEFAULTS["options"] and store.write_failed
    assert store.write("game", _game_json()) is False
    assert store.load("stats", stats.validate) == (stats.empty(), False)


def test_unreadable_storage_is_nothing_stored() -> None:
    store = Storage(BrokenBackend())
    for name in KEYS:
        value, damaged = store.load(name, CHECKS[name], ENCODE.get(name))
        assert not damaged and _same_default(name, value)
    assert store.write("stats", stats.empty()) is False and store.write_failed


def test_the_longest_game_fits_the_game_limit() -> None:
    """A 1000-point game without a floor between beginner bots (deal 2: 50 hands, the
    longest of deals 0-29) saves far under the game's size limit and reads back clean."""
    state = GameState.new(Rules(target=1000, floor=None), deal=2)
    bot = make_bot("beginner")
    while state.winner is None:
        state = state.apply(bot_action(bot, state))
    game = savegame.SavedGame(state=state, level="beginner", seen=state.hand_index,
                              sheets=len(state.past_hands), recorded=True)
    backend = MemoryBackend()
    store = Storage(backend)
    assert store.write("game", game.to_json())
    assert len(backend.items[KEYS["game"]]) * 10 < LIMITS["game"]
    loaded, damaged = store.load("game", savegame.check)
    assert not damaged and loaded is not None and loaded.state == state
