"""Every decision judged (spades_core.judge): classes by points lost, noise never an error,
the skill of a decision, a hand's accuracy; the review's compact entries and its pieces."""

from __future__ import annotations

from dataclasses import replace

from spades_core import GameState, Seat, parse_bid, parse_card
from spades_core.bots import bot_action, make_bot
from spades_core.judge import (
    BLUNDER,
    CLASSES,
    INACCURACY,
    MISTAKE,
    SKILLS,
    classify,
    lost,
    skill_of,
    summarise,
)
from spades_core.review import review_hand, review_to_dict, weighed_indices
from spades_core.views import view_for

from .test_review import ruff_game, ruff_start


def test_the_classes_by_points_lost() -> None:
    assert classify(True, 0, False) == "best"
    assert classify(False, 0, False) == "good"
    assert classify(False, INACCURACY - 1, True) == "good"
    assert classify(False, INACCURACY, True) == "inaccuracy"
    assert classify(False, MISTAKE - 1, True) == "inaccuracy"
    assert classify(False, MISTAKE, True) == "mistake"
    assert classify(False, BLUNDER - 1, True) == "mistake"
    assert classify(False, BLUNDER, True) == "blunder"
    assert INACCURACY < MISTAKE < BLUNDER


def test_a_difference_within_the_noise_is_never_an_error() -> None:
    for cost in (INACCURACY, MISTAKE, BLUNDER, 10 * BLUNDER):
        assert classify(False, cost, False) == "good"
        assert lost(False, cost, False) == 0
    assert lost(False, 80, True) == 80
    assert lost(True, 80, True) == 0  # the best found loses nothing
    assert lost(False, -30, True) == 0  # played better than the search's choice


def test_a_summary_counts_sound_decisions_and_points_lost() -> None:
    summary = summarise([("bidding", True, 0, False), ("lead", False, 60, True),
                         ("lead", False, 400, False), ("bags", False, 300, True)])
    assert summary.decisions == 4 and summary.sound == 2 and summary.accuracy == 50
    assert summary.lost == 360
    assert summary.classes == (1, 1, 0, 1, 1)
    assert summary.skills[SKILLS.index("lead")] == (2, 1, 60)
    assert summary.skills[SKILLS.index("bags")] == (1, 0, 300)
    assert summarise([]).accuracy is None
    assert summary.plus(summary).lost == 720 and summary.plus(summary).decisions == 8


def test_the_skill_of_each_kind_of_decision() -> None:
    start = ruff_start()  # South (Nil) to play on North's A♥, East's 3♥
    view = view_for(start, Seat.S)
    assert skill_of(view, parse_card("3S")) == "nil"  # South's own Nil alive
    numbers = (parse_bid("3"), parse_bid("1"), parse_bid("2"), parse_bid("1"))  # N E S W
    plain = replace(view, bids=numbers)
    assert skill_of(plain, parse_card("3S")) == "trump"
    assert skill_of(plain, parse_card("2C")) == "discard"
    hearts = view.trick
    assert skill_of(replace(plain, trick=hearts[:1]), parse_card("3S")) == "trump"
    clubs = ((Seat.E, parse_card("AC")),)
    assert skill_of(replace(plain, trick=clubs), parse_card("2C")) == "second"
    partner_first = ((Seat.N, parse_card("AC")), (Seat.E, parse_card("KC")))
    assert skill_of(replace(plain, trick=partner_first), parse_card("2C")) == "third"
    last = ((Seat.W, parse_card("AC")), (Seat.N, parse_card("KC")), (Seat.E, parse_card("QC")))
    assert skill_of(replace(plain, trick=last), parse_card("2C")) == "third"
    assert skill_of(replace(plain, trick=()), parse_card("2C")) == "lead"
    made = replace(plain, trick=(), tricks_won=(4, 0, 1, 0))  # 5 taken for 5
    assert skill_of(made, parse_card("2C")) == "bags"
    partner_nil = replace(plain, bids=(parse_bid("nil"), *numbers[1:]),
                          tricks_won=(0, 1, 0, 0))
    assert skill_of(partner_nil, parse_card("2C")) == "nil"  # covering partner
    broken = replace(partner_nil, tricks_won=(1, 0, 0, 0))  # partner's Nil lost
    assert skill_of(broken, parse_card("2C")) == "discard"
    bidding = replace(view, bids=(None, None, None, None))
    assert skill_of(bidding, parse_bid("4")) == "bidding"
    assert skill_of(bidding, parse_bid("nil")) == "nil"
    cover = replace(bidding, bids=(parse_bid("nil"), None, None, None))
    assert skill_of(cover, parse_bid("4")) == "nil"
    assert set(SKILLS) == {"bidding", "nil", "lead", "second", "third", "discard", "trump",
                           "bags"}


def test_trumping_partners_ace_under_a_nil_is_a_blunder_of_the_nil_skill() -> None:
    game = ruff_game()
    review = review_hand(game, 0, Seat.S)
    assert len(review.judged) == review.decisions
    assert [w.action_index for w in review.judged] == weighed_indices(game, 0)
    ruff = next(w for w in review.judged if w.action_index == 4 + 6)  # the 7th card played
    assert ruff.skill == "nil" and not ruff.best and ruff.clear
    assert classify(ruff.best, ruff.cost, ruff.clear) == "blunder"
    flagged = {item.action_index for item in review.items}
    assert ruff.action_index in flagged
    summary = summarise((w.skill, w.best, w.cost, w.clear) for w in review.judged)
    assert summary.classes[CLASSES.index("blunder")] >= 1
    assert summary.accuracy is not None and summary.accuracy < 100
    assert summary.lost >= ruff.cost


def test_the_experts_own_hand_is_all_best() -> None:
    expert, normal = make_bot("expert"), make_bot("normal")
    state = GameState.new(deal=20261202)
    while not state.past_hands:
        state = state.apply(bot_action(expert if state.to_act == Seat.S else normal, state))
    review = review_hand(state, 0)
    assert review.judged and all(w.best for w in review.judged)
    summary = summarise((w.skill, w.best, w.cost, w.clear) for w in review.judged)
    assert summary.accuracy == 100 and summary.lost == 0


def test_a_hand_reviewed_in_pieces_is_the_whole_review() -> None:
    from ui.shared.botrunner import merge_reviews

    game = ruff_game()
    whole = review_to_dict(review_hand(game, 0))
    count = len(weighed_indices(game, 0))
    pieces = [review_to_dict(review_hand(game, 0, part=(start, start + 2)))
              for start in range(0, count, 2)]
    assert merge_reviews(pieces) == whole
    assert sum(piece["decisions"] for piece in pieces) == count  # type: ignore[misc]
