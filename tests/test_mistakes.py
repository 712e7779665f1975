"""'Your mistakes' (spades_core.mistakes): items from a review's mistakes, the Leitner
schedule as documented (docs/progress.md), the daily round, the deck's bound."""

from __future__ import annotations

from spades_core import Seat
from spades_core.judge import BLUNDER, INACCURACY, MISTAKE
from spades_core.mistakes import (
    INTERVALS,
    RETIRED,
    ROUND,
    Item,
    Position,
    answer,
    daily_round,
    is_right,
    items_from_review,
    merge,
)
from spades_core.review import review_hand

from .test_review import ruff_game

DAY = 20_000


POSITION = Position((), 0, (0, 0), (0, 0), (0, 0, 0, 0), ())


def _item(key: str, box: int = 1, due: int = DAY, cost: int = 100, made: int = 0) -> Item:
    return Item(key, POSITION, 4, "2C", "3C", "review.why.bags", tip="bags-cost", cost=cost,
                skill="bags", kind="mistake", box=box, due=due, made=made)


def test_a_blunder_of_a_review_becomes_an_item_due_the_next_day() -> None:
    game = ruff_game()
    review = review_hand(game, 0, Seat.S)
    items = items_from_review(review, game, "g1", DAY)
    ruff = next(item for item in items if item.played == "3S")
    assert ruff.kind == "blunder" and ruff.skill == "nil" and ruff.better.endswith("C")
    assert ruff.key == f"g1:0:{ruff.action_index}" and ruff.action_index == 10
    assert (ruff.box, ruff.due, ruff.made) == (1, DAY + INTERVALS[0], DAY)
    assert ruff.tip == "nil-hand" and ruff.reason == "review.why.my-nil-won"
    assert all(item.cost >= MISTAKE for item in items)


def test_right_answers_climb_the_boxes_and_retire_a_wrong_one_starts_again() -> None:
    item = _item("a")
    day = DAY
    for box in range(2, len(INTERVALS) + 1):
        item = answer(item, True, day)
        assert (item.box, item.due) == (box, day + INTERVALS[box - 1])
        day = item.due
    item = answer(item, True, day)
    assert item.box == RETIRED and daily_round([item], day + 1000) == []
    assert answer(item, False, day) == item  # a retired item stays retired
    again = answer(_item("b", box=4, due=DAY), False, DAY)
    assert (again.box, again.due) == (1, DAY + INTERVALS[0])


def test_within_the_noise_of_the_best_is_right() -> None:
    assert is_right(True, 0, False)
    assert is_right(False, 10 * BLUNDER, False)  # a large cost the play-outs cannot tell
    assert is_right(False, INACCURACY - 1, True)
    assert not is_right(False, INACCURACY, True)
    assert not is_right(False, BLUNDER, True)


def test_the_daily_round_takes_the_longest_overdue_first() -> None:
    deck = [_item("late", due=DAY - 3), _item("box2", box=2, due=DAY),
            _item("dear", due=DAY, cost=400), _item("cheap", due=DAY, cost=60),
            _item("later", due=DAY + 1), *(_item(f"x{i}", due=DAY, cost=50) for i in range(4))]
    chosen = daily_round(deck, DAY)
    assert len(chosen) == ROUND
    assert [item.key for item in chosen][:4] == ["late", "dear", "cheap", "x0"]
    assert "later" not in [item.key for item in daily_round(deck, DAY, size=100)]


def test_merge_keeps_one_item_per_position_and_the_bound() -> None:
    deck = [_item("a", made=1), _item("b", made=2, box=RETIRED)]
    merged = merge(deck, [_item("a", made=9), _item("c", made=3)], limit=3)
    assert [item.key for item in merged] == ["a", "b", "c"]
    assert merged[0].made == 1  # the position already there is kept as it was
    bounded = merge(merged, [_item("d", made=4)], limit=3)
    assert [item.key for item in bounded] == ["a", "c", "d"]  # the retired one went first
    assert [item.key for item in merge(bounded, [_item("e", made=5)], limit=3)] == [
        "c", "d", "e"]  # then the oldest
