"""The drills: deterministic items, answers from the Expert and the engine, scoring, text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_core.bids import NIL, Bid
from spades_core.bots.expert import ExpertBot, evaluate
from spades_core.cards import Suit
from spades_core.lessons import drills
from spades_core.seats import Seat

ROOT = Path(__file__).resolve().parent.parent


def test_items_are_deterministic() -> None:
    for drill in drills.DRILLS:
        for index in (0, 5, 9):
            assert drills.item(drill, index) == drills.item(drill, index)


def test_bidding_answer_is_the_experts_bid() -> None:
    for index in range(drills.ITEMS):
        found = drills.item("bidding", index)
        assert isinstance(found, drills.BidItem)
        assert found.view.seat is Seat.S and found.view.legal_bids
        assert found.view.hand is not None and len(found.view.hand) == 13
        assert found.expert == ExpertBot().bid(found.view)
        # the seats before South have bid, the others not yet
        assert found.view.bids[int(Seat.S)] is None


def test_nil_answer_is_the_experts_evaluation() -> None:
    for index in range(drills.ITEMS):
        found = drills.item("nil", index)
        assert isinstance(found, drills.NilItem)
        evaluation = evaluate(found.view)
        assert found.nil == (evaluation.best == NIL)
        assert (found.made, found.worlds) == (evaluation.nil_made, evaluation.nil_worlds)
        assert 0 <= found.made <= found.worlds


def test_counting_answers_agree_with_the_engine() -> None:
    for index in range(drills.ITEMS):
        found = drills.item("counting", index)
        assert isinstance(found, drills.CountItem)
        view = found.view
        assert view.hand is not None and len(view.plays) >= 16
        seen = [c for c in view.hand if c.suit == Suit.SPADES]
        seen += [c for _, c in view.plays if c.suit == Suit.SPADES]
        assert found.spades_out == 13 - len(seen)
        for seat, suit in found.voids:
            assert seat is not Seat.S
            # a shown void: the seat did not follow a trick led in that suit
            tricks = [view.plays[i:i + 4] for i in range(0, len(view.plays), 4)]
            assert any(t[0][1].suit == suit and any(s == seat and c.suit != suit
                                                    for s, c in t) for t in tricks)


def test_trick_counts_over_two_hundred_deals() -> None:
    found = drills.item("bidding", 0)
    assert isinstance(found, drills.BidItem)
    counts = drills.trick_counts(found.view, found.expert)
    assert len(counts) == 14 and sum(counts) == drills.SAMPLES
    assert counts == drills.trick_counts(found.view, found.expert)


def test_scoring() -> None:
    assert drills.bid_right(Bid(4), Bid(4)) and drills.bid_right(Bid(3), Bid(4))
    assert drills.bid_right(Bid(5), Bid(4)) and not drills.bid_right(Bid(6), Bid(4))
    assert drills.bid_right(NIL, NIL) and not drills.bid_right(NIL, Bid(1))
    assert not drills.bid_right(Bid(1), NIL)
    assert drills.score([True, False] * 5) == 5
    assert drills.score([True] * 12) == 10


def test_bad_item_is_refused() -> None:
    from spades_core.errors import SpadesError
    with pytest.raises(SpadesError):
        drills.item("bidding", 10)
    with pytest.raises(SpadesError):
        drills.item("chess", 0)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_drill_has_its_text(lang: str) -> None:
    catalogue = json.loads((ROOT / "locales" / lang / "lessons.json").read_text("utf-8"))
    keys = ["group.drills", "drill.best", "drill.score", "drill.item", "drill.right",
            "drill.wrong", "drill.reset", "drill.part-reset", "drill.bidding.ask",
            "drill.bidding.expert",
            "drill.bidding.chart", "drill.nil.ask", "drill.nil.estimate", "drill.nil.untried",
            "drill.counting.spades", "drill.counting.void", "drill.counting.none"]
    keys += [f"drill.{drill}" for drill in drills.DRILLS]
    for key in keys:
        assert catalogue.get(f"lessons.{key}"), (lang, key)


def test_best_scores_are_kept_and_bad_storage_resets() -> None:
    from ui.drills import drills_progress

    best, damaged = drills_progress.parse(None)
    assert not damaged and best.scores == {}
    assert best.record("bidding", 6) and not best.record("bidding", 5)
    assert best.record("bidding", 8) and not best.record("chess", 3)
    again, damaged = drills_progress.parse(best.to_json())
    assert not damaged and again.scores == {"bidding": 8}
    for text in ("", "{", "[]", '{"version":1,"best":{"nil":11}}',
                 '{"version":1,"best":{"nil":true}}', '{"version":2,"best":{}}'):
        reset, damaged = drills_progress.parse(text)
        assert damaged and reset.scores == {}, text
    kept, damaged = drills_progress.parse('{"version":1,"best":{"nil":11,"bidding":7,"x":1}}')
    assert damaged and kept.scores == {"bidding": 7}  # only the scores that can be read


def test_judge_follows_each_drill() -> None:
    bid = drills.item("bidding", 1)
    assert isinstance(bid, drills.BidItem)
    assert drills.judge(1, bid, bid.expert) and not drills.judge(1, bid, True)
    nil = drills.item("nil", 2)
    assert isinstance(nil, drills.NilItem)
    assert drills.judge(2, nil, nil.nil) and not drills.judge(2, nil, not nil.nil)
    for index in range(drills.ITEMS):
        count = drills.item("counting", index)
        assert isinstance(count, drills.CountItem)
        if drills.counting_question(index, count) == "void":
            pair = sorted(count.voids)[0]
            assert drills.judge(index, count, pair)
            assert not drills.judge(index, count, (Seat.S, pair[1]))
        else:
            assert drills.judge(index, count, count.spades_out)
            assert not drills.judge(index, count, count.spades_out + 1)
            assert not drills.judge(index, count, True)
    kinds = {drills.counting_question(i, drills.item("counting", i))  # type: ignore[arg-type]
             for i in range(drills.ITEMS)}
    assert kinds == {"spades", "void"}
