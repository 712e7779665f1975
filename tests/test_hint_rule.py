"""The hint against the lessons' rules: noise is not a mistake, and a rule that bends is named.

Positions where the answer is known: a tie within noise naming the principle (second hand
low), a clear exception (trumping partner's winner that West, shown void, would trump), the
"Not the X" clause of the simulations only beyond noise, the hint and the review agreeing
on one position, a Nil with aces in long suits, and the Nil drill's explanations.
"""

from __future__ import annotations

import pytest

from spades_core import hints, review
from spades_core.bids import NIL, Bid
from spades_core.bots.expert import evaluate
from spades_core.cards import parse_card
from spades_core.lessons import drills, load_library_dir
from spades_core.lessons.judge import step_view
from spades_core.views import View
from tests.helpers import south_at
from ui.shared import i18n


def words(advice: hints.Hint, language: str) -> str:
    i18n.load("table", "hints")
    i18n.set_language(language)
    try:
        return i18n.hint_message(advice)
    finally:
        i18n.set_language("en")


def test_the_evaluation_keeps_each_candidates_values_deal_by_deal() -> None:
    for view in (south_at(2008, 13), drills.question("nil", 5)):  # a card, a bid
        found = evaluate(view)
        for candidate in found.candidates:
            assert len(candidate.values) == candidate.worlds
            assert sum(candidate.values) == candidate.total
        best, other = found.candidates[0], found.candidates[1]
        paired = found.paired(best.action, other.action)
        assert paired is not None
        total, squares, count = paired
        assert count == min(best.worlds, other.worlds)
        assert total == sum(a - b for a, b in zip(best.values, other.values, strict=False))
        assert squares >= total * total // count


def test_a_tie_within_noise_names_the_lessons_principle() -> None:
    view = south_at(2008, 13)  # South second to play; the rule plays low, the coach the K♥
    advice = hints.hint(view)
    assert str(advice.action) == "KH"
    assert advice.contrast == "coach.not.rule-tie"
    assert advice.params["rule"] == "second-hand-low" and advice.params["alt"] == "3H"
    assert hints.clear_difference(view, parse_card("KH"), parse_card("3H")) is False
    assert "Both are fine here" in words(advice, "en") and "Second hand low" in words(advice, "en")
    assert "Les deux se valent ici" in words(advice, "fr")


def _lesson_step(lesson: str, index: int) -> View:
    library = load_library_dir("lessons")
    view = step_view(library.lesson(lesson).steps[index])
    assert view is not None
    return view


def test_a_clear_exception_names_it_trumping_partners_winner() -> None:
    view = _lesson_step("strategy-07-dont-trump-partner", 4)
    advice = hints.hint(view)
    assert str(advice.action) == "KS"  # over partner's K♣: West has shown no club
    assert advice.contrast == "coach.not.exception-trump-partner"
    assert advice.params["alt_seat"] == "W" and advice.params["winner"] == "KC"
    alt = parse_card(advice.params["alt"])
    assert alt.suit != 3 and hints.clear_difference(view, parse_card("KS"), alt)
    assert "exception to “Don't trump your partner”" in words(advice, "en")
    assert "exception à «\u00a0Ne pas couper son partenaire\u00a0»" in words(advice, "fr")


def test_a_rule_that_bends_beyond_noise_is_said_so() -> None:
    view = south_at(503, 29)  # East leads the 9♥, South void: the coach trumps with the Q♠
    advice = hints.hint(view)
    assert str(advice.action) == "QS"
    assert advice.contrast == "coach.not.rule-beaten"
    assert advice.params["rule"] == "trump-wisely" and advice.params["alt"] == "2S"
    assert hints.clear_difference(view, parse_card("QS"), parse_card("2S")) is True


@pytest.mark.parametrize(("deal", "actions", "clause", "clear"), [
    (501, 33, "coach.not.sims", True),
    (504, 16, "coach.not.sims-tie", False),
])
def test_the_simulations_clause_speaks_only_beyond_noise(deal: int, actions: int, clause: str,
                                                        clear: bool) -> None:
    view = south_at(deal, actions)
    advice = hints.hint(view)
    assert advice.contrast == clause
    assert advice.action is not None and not isinstance(advice.action, Bid)
    found = hints.clear_difference(view, advice.action, parse_card(advice.params["alt"]))
    assert found is clear
    if clear:
        assert "points less on average" in words(advice, "en")
    else:
        assert "within their noise" in words(advice, "en")
    assert "in 100" not in words(advice, "en")  # one quantity: points, never a chance


def test_the_hint_and_the_review_agree_on_one_position() -> None:
    """Deal 501, East leads the Q♣ and South trumps: the hint's 3♠ over the K♠ is beyond
    noise, and its clause quotes what the review measures, in points: the review flags the
    K♠ at that cost."""
    view = south_at(501, 33)
    advice = hints.hint(view)
    assert str(advice.action) == "3S" and advice.params["alt"] == "KS"
    priced = review.confirmed_price(view, parse_card("KS"), parse_card("3S"))
    assert priced.clear and priced.cost >= review.MIN_COST
    assert advice.params["points"] == str((priced.cost + 5) // 10)


def test_the_hint_and_the_review_agree_on_a_tie() -> None:
    view = south_at(500, 4)  # South leads: the 5♦ or the K♥
    advice = hints.hint(view)
    assert advice.action is not None and not isinstance(advice.action, Bid)
    alt = parse_card(advice.params["alt"])
    assert advice.contrast in ("coach.not.rule-tie", "coach.not.sims-tie")
    assert hints.clear_difference(view, advice.action, alt) is False
    assert not review.confirmed_price(view, alt, advice.action).clear


def test_a_nil_with_aces_in_long_suits_says_why() -> None:
    view = drills.question("nil", 5)  # deal 14116: ♠32 ♥AJ854 ♦AQ875 ♣3
    advice = hints.hint(view)
    assert advice.action == NIL and advice.reason == "coach.bid.nil-ace"
    assert advice.params["card"] == "AD" and advice.params["count"] == "5"
    assert advice.params["suit"] == "clubs" and int(advice.params["chance"]) >= 5
    assert "even with the ace of diamonds" in words(advice, "en")


@pytest.mark.slow
def test_every_nil_drill_answer_is_explained_by_true_facts() -> None:
    for index in range(drills.ITEMS):
        found = drills.item("nil", index)
        assert isinstance(found, drills.NilItem)
        facts = drills.nil_why(found)
        assert facts, f"item {index}: no explanation"
        assert found.view.hand is not None
        hand = list(found.view.hand)
        spades = [card for card in hand if card.suit == 3]
        short = min(sum(1 for c in hand if c.suit == s) for s in range(3))
        for fact in facts:
            if fact.card is not None:
                assert fact.card in hand
            if fact.key == "clean":
                assert not [c for c in hand if c.suit < 3 and hints.rank_of(c) >= 11]
            elif fact.key in ("high-long", "high-short"):
                assert fact.card is not None and hints.rank_of(fact.card) >= 11
                length = sum(1 for c in hand if c.suit == fact.card.suit)
                assert length == fact.count
                assert (length >= 4) == (fact.key == "high-long")
            elif fact.key in ("void", "singleton"):
                assert sum(1 for c in hand if c.suit == fact.suit) == (fact.key == "singleton")
            elif fact.key == "low-spades":
                assert fact.count == len(spades) <= 3 and max(spades) == fact.card
                assert hints.rank_of(max(spades)) <= 7
            elif fact.key == "no-spades":
                assert not spades
            elif fact.key == "high-spade":
                assert fact.card == max(spades) and hints.rank_of(fact.card) >= 8
            elif fact.key == "many-spades":
                assert fact.count == len(spades) >= 4
            elif fact.key == "no-short":
                assert short >= 2
            else:
                raise AssertionError(fact.key)
            in_favour = fact.key in ("clean", "high-long", "void", "singleton", "low-spades",
                                     "no-spades")
            assert in_favour == found.nil, (index, fact.key)
