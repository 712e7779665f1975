""""Your mistakes" behind the page (ui/progress/deck.py, spades_core.mistakes): the exact
position kept and replayed, the deck stored and read back (hostile values: tests/
test_storage_hostile.py, ``mistakes-*``), its bound in bytes, the round and the schedule,
export and import with the deck, a damaged file refused changing nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from spades_core import GameState, Rules, Seat
from spades_core.bots import bot_action, make_bot
from spades_core.bots.expert import run_steps
from spades_core.mistakes import (
    INTERVALS,
    MAX_ITEMS,
    RETIRED,
    Item,
    answer,
    items_from_review,
    judge_steps,
    position_of,
    state_at,
)
from spades_core.review import hand_states, review_hand
from spades_core.views import view_for
from ui.progress import deck, history
from ui.shared.storage import KEYS, LIMITS, MemoryBackend, Storage

from .test_review import ruff_game

DAY = 20_400


@cache
def deal_seven() -> tuple[GameState, tuple[Item, ...]]:
    """Deal 7, South the Beginner, the others Normal, two hands played: the second hand's
    review has a blunder (a bid of 1 where Nil was better) and a mistake (9♠, J♦ better)."""
    bots = {seat: make_bot("beginner" if seat is Seat.S else "normal") for seat in Seat}
    state = GameState.new(Rules(), deal=7)
    while len(state.past_hands) < 2:
        state = state.apply(bot_action(bots[state.to_act], state))
    items = items_from_review(review_hand(state, 1, Seat.S), state, "7-1", DAY)
    return state, tuple(items)


def test_a_position_later_in_a_game_replays_what_south_saw() -> None:
    state, items = deal_seven()
    assert [(item.played, item.better, item.kind) for item in items] == [
        ("1", "nil", "blunder"), ("9S", "JD", "mistake")]
    for item in items:
        position = item.position
        assert position.hand_index == 1 and len(position.actions) == item.action_index
        again = view_for(state_at(position), Seat.S)
        seen = view_for(hand_states(state, 1)[item.action_index], Seat.S)
        assert replace(seen, past_hands=again.past_hands) == again  # scores, bags, dealer...
        assert again.scores == state.past_hands[0].scores
    assert position_of(state, 1, 200) is None


def test_the_coach_judges_an_answer_with_the_reviews_measure() -> None:
    _state, items = deal_seven()
    for item in items:
        right = run_steps(judge_steps(item.position, item.better))
        assert right["right"] and right["best"] == item.better
        wrong = run_steps(judge_steps(item.position, item.played))
        assert not wrong["right"] and wrong["best"] == item.better
        assert wrong["cost"] == item.cost and wrong["clear"]  # the review's own price
    with pytest.raises(ValueError, match="not a legal answer"):
        run_steps(judge_steps(items[1].position, "AS" if items[1].played != "AS" else "2C"))


def test_the_deck_is_stored_and_read_back_the_same() -> None:
    _state, items = deal_seven()
    ruff = items_from_review(review_hand(ruff_game(), 0, Seat.S), ruff_game(), "0-9", DAY)
    found = [*items, *ruff]
    store = Storage(MemoryBackend())
    store.write("mistakes", deck.to_data(found))
    assert KEYS["mistakes"] == "spades.mistakes.v1"
    again, damaged = store.load("mistakes", deck.check, deck.encode)
    assert not damaged and again == found
    assert all(item.params and not any(" " in key for key, _ in item.params) for item in found)


def _worst(item: Item, index: int) -> Item:
    """An item as long as one can get: the longest key, the most parameters, the longest
    keys and values, the largest numbers (over the last decision of a hand)."""
    return replace(item, key=f"{'9' * 30}-{index:033d}", reason="review.why." + "x" * 53,
                   support="r" * 64, contrast="c" * 64, tip="t" * 64,
                   params=tuple((f"p{i:02d}" + "x" * 21, "v" * 40) for i in range(16)),
                   cost=deck.MAX_COST, due=deck.MAX_DAY, made=deck.MAX_DAY)


def test_a_full_deck_of_the_longest_items_stays_under_the_keys_limit() -> None:
    state, _items = deal_seven()
    last = hand_states(state, 1)
    index = max(i for i, s in enumerate(last) if s.to_act is Seat.S and i < 55)
    position = position_of(state, 1, index)
    assert position is not None and len(position.actions) >= 50
    base = Item("k", position, index, "2C", "3C", "review.why.bags")
    text = deck.encode([_worst(base, i) for i in range(MAX_ITEMS)])
    # the largest position of all: the last decision of a game's 2000th hand, big scores
    bound = len(text) + MAX_ITEMS * 60
    assert bound < deck.LIMIT == LIMITS["mistakes"], bound
    print(f"deck of {MAX_ITEMS} longest items: {len(text)} characters (limit {deck.LIMIT})")


def _stored(items: list[Item]) -> dict[str, Any]:
    return json.loads(deck.encode(items))


def test_an_unreadable_item_is_dropped_alone() -> None:
    _state, items = deal_seven()
    data = _stored(list(items))
    bad = json.loads(json.dumps(data))
    bad["items"][0]["pos"]["acts"][0] = "13"  # the bids replayed differently: not the same
    bad["items"][0]["played"] = "AS"  # ... and not a bid there
    found, clean = deck.check(bad)
    assert not clean and found == [items[1]]
    for change in ({"box": RETIRED + 1}, {"due": -1}, {"cost": 1.5}, {"key": "a b"},
                   {"reason": "Text, not a key"}, {"params": {"card": "x" * 41}},
                   {"skill": "luck"}, {"played": "JD"}, {"i": True}):
        bad = json.loads(json.dumps(data))
        bad["items"][1].update(change)
        found, clean = deck.check(bad)
        assert not clean and found == [items[0]], change
    twice = {"v": 1, "items": [data["items"][0], data["items"][0]]}
    assert deck.check(twice) == ([items[0]], False)
    assert deck.check({"v": 2, "items": []}) == ([], False)
    assert deck.check(None) == ([], True)


def test_the_round_takes_the_due_items_and_a_skill_its_own() -> None:
    _state, items = deal_seven()
    blunder, mistake = items
    later = replace(mistake, key="later", due=DAY + 5)
    found = [blunder, mistake, later]
    assert deck.due_count(found, DAY) == 0  # made today: due tomorrow
    assert deck.due_count(found, DAY + 1) == 2
    assert deck.queue(found, DAY + 1, 5) == [blunder.key, mistake.key]  # the costliest first
    assert deck.queue(found, DAY + 1, 5, mistake.skill) == [mistake.key, "later"]
    # the schedule as documented: right up a box, wrong back to box 1
    up = answer(mistake, True, DAY + 1)
    back = answer(replace(blunder, box=3), False, DAY + 1)
    assert (up.box, up.due) == (2, DAY + 1 + INTERVALS[1])
    assert (back.box, back.due) == (1, DAY + 1 + INTERVALS[0])


def test_export_then_import_gives_the_same_history_and_deck() -> None:
    _state, items = deal_seven()
    found = history.empty()
    text = history.export_text(found, deck.to_data(list(items)))
    assert history.import_text(text) == (found, "")
    assert deck.import_text(text) == (list(items), "")
    old = history.export_text(found)  # a file from before the deck: the deck is left alone
    assert deck.import_text(old) == (None, "")


def test_a_damaged_deck_in_a_file_is_refused_whole() -> None:
    _state, items = deal_seven()
    found = history.record_hand(history.empty(), "normal", 7, 0,
                                history.hand_summary({"judged": []}), 40, (0, 0), 2)
    data = json.loads(history.export_text(found, deck.to_data(list(items))))
    assert deck.import_file(json.dumps(data)) == (found, list(items), "")
    data["deck"]["items"][1]["box"] = 99
    assert deck.import_file(json.dumps(data)) == (None, None, "progress.import.damaged")
    data["deck"] = {"v": 1, "items": "none"}
    assert deck.import_file(json.dumps(data)) == (None, None, "progress.import.damaged")
    data["history"]["games"][0]["n"] = -1  # the history damaged, the deck too: refused
    assert deck.import_file(json.dumps(data))[0] is None
    assert deck.import_file("{") == (None, None, "progress.import.not-json")


def test_a_lessons_position_that_is_not_a_whole_deal_gives_no_item() -> None:
    from spades_core.bids import parse_bid
    from spades_core.cards import CardSet

    hands = [CardSet.of(cards) for cards in (["AS", "KS"], ["2C", "3C"], ["2D", "3D"],
                                             ["2H", "3H"])]
    state = GameState.position(Rules(), hands, leader=Seat.S,
                               bids=[parse_bid(b) for b in ("2", "1", "1", "1")])
    while not state.past_hands:
        state = state.apply(state.legal_plays()[0])
    assert position_of(state, 0, 4) is None  # a lesson's few cards: not kept, no error


def test_the_progress_pages_deliberate_bid_is_a_blunder_well_clear_of_the_noise() -> None:
    """tests/browser/test_progress_screen.py: on deal 20261201 (the others the Beginner),
    South bids 13 first; the review weighs it a blunder, 1 the better bid, far from noise."""
    from spades_core.bids import parse_bid
    from spades_core.judge import BLUNDER, classify
    from spades_core.review import weigh

    bots = {seat: make_bot("beginner") for seat in Seat}
    state = GameState.new(Rules(), deal=20261201)
    while state.to_act is not Seat.S:
        state = state.apply(bot_action(bots[state.to_act], state))
    view = view_for(state, Seat.S)
    assert all(bid is None for bid in view.bids)  # South bids first: the hand's action 0
    weighed = weigh(view, parse_bid("13"))
    assert weighed is not None
    better, _evaluation, price = weighed
    assert str(better) == "1" and price.clear
    assert classify(False, price.cost, price.clear) == "blunder"
    assert price.cost >= 4 * BLUNDER and price.cost >= 20 * price.se


def test_the_deck_is_glanced_at_for_its_count_and_read_in_full_when_needed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's start reads nothing; the menu's count comes from a glance (no position
    replayed); the deck is checked in full the first time a screen needs its items, and a
    damage found then is told."""
    _state, items = deal_seven()
    found = [replace(items[0], due=DAY), replace(items[1], due=DAY + 1)]
    checks: list[object] = []
    real_check = deck.check
    monkeypatch.setattr(deck, "check", lambda data: checks.append(data) or real_check(data))

    def stored(text: str | None) -> tuple[deck.StoredDeck, Storage, list[str]]:
        backend = MemoryBackend()
        if text is not None:
            backend.items[KEYS["mistakes"]] = text
        storage = Storage(backend)
        told: list[str] = []
        return deck.StoredDeck(storage, told.append), storage, told

    held, storage, told = stored(deck.encode(found))
    assert held.items is None and held.schedule is None  # nothing read at the start
    assert held.due_count(DAY) == 1 == deck.due_count(found, DAY)
    assert held.due_count(DAY + 1) == 2 and checks == [] and held.items is None
    assert held.read() == found and len(checks) == 1  # when needed ...
    assert held.read() == found and len(checks) == 1  # ... once
    assert held.due_count(DAY) == 1 and told == []

    # a position that no longer replays: seen only by the full read, then told
    data = _stored(found)
    data["items"][0]["played"] = "AS"
    held, storage, told = stored(json.dumps(data))
    assert held.due_count(DAY + 1) == 2 and told == []
    assert held.read() == found[1:] and told == ["notice.part-mistakes"]
    assert held.due_count(DAY + 1) == 1
    assert json.loads(str(storage.raw("mistakes"))) == _stored(found[1:])

    # visibly damaged (a box out of range, not JSON): read in full at the glance, and told
    for text, notice, kept in ((json.dumps(data).replace('"box": 1', '"box": 9', 1),
                                "notice.part-mistakes", found[1:]),
                               ("{not json", "notice.bad-mistakes", [])):
        held, storage, told = stored(text)
        assert held.look() == [(item.box, item.due) for item in kept]
        assert told == [notice] and held.items == kept
        assert held.read() == kept and told == [notice]

    # nothing stored: nothing to read
    checks.clear()
    held, storage, told = stored(None)
    assert held.due_count(DAY) == 0 and held.read() == [] and told == []


def test_the_glance_refuses_what_the_check_would_reset_or_cut() -> None:
    """Every stored deck the full check finds damaged in its schedule or shape is damaged at
    a glance too (only a position's replay is left to the full read)."""
    _state, items = deal_seven()
    data = _stored(list(items))
    assert deck.glance(data) == ([(item.box, item.due) for item in items], True)
    assert deck.glance(None) == ([], True)
    for change in ({"box": RETIRED + 1}, {"box": 0}, {"due": -1}, {"due": 1.0},
                   {"key": "a b"}, {"extra": 1}):
        bad = json.loads(json.dumps(data))
        bad["items"][1].update(change)
        assert deck.glance(bad) == ([], False), change
        assert not deck.check(bad)[1]
    for whole in ({"v": 2, "items": []}, {"v": 1, "items": "x"}, [], {"v": 1},
                  {"v": 1, "items": [data["items"][0]] * 2},
                  {"v": 1, "items": [data["items"][0]] * (MAX_ITEMS + 1)}):
        assert deck.glance(whole) == ([], False), str(whole)[:40]
        assert not deck.check(whole)[1]
