from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from spades_core.bids import NIL, Bid
from spades_core.bots.expert import ExpertBot, evaluate, evaluate_steps
from spades_core.cards import Suit
from spades_core.errors import SpadesError
from spades_core.hints import hint
from spades_core.lessons import drills
from spades_core.lessons.drills import ITEMS, BidItem, CountItem, NilItem
from spades_core.seats import Seat
from tests.helpers import drain
from ui.drills.drills_run import (
    VOID_SEATS,
    DrillRun,
    answer_token,
    chart,
    chart_summary,
    feedback,
    parse_answer,
    played_tricks,
    read_solved,
    right_token,
    say,
    solve_json,
    solve_steps,
    solved_json,
)
from ui.shared import i18n

ROOT = Path(__file__).resolve().parent.parent
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def english() -> object:
    i18n.load("table", "lessons", "hints")  # card names (card.def*), as the page boots them
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_a_nil_drill_answered_by_the_expert_scores_ten_and_ends() -> None:
    run = DrillRun("nil")
    for _ in range(ITEMS):
        found = run.current
        assert isinstance(found, NilItem)
        assert run.answer(found.nil)
        with pytest.raises(SpadesError):
            run.answer(found.nil)
        run.next()
    assert run.finished and run.score == ITEMS


def test_wrong_answers_count_nothing_and_next_needs_an_answer() -> None:
    run = DrillRun("nil")
    with pytest.raises(SpadesError):
        run.next()
    found = run.current
    assert isinstance(found, NilItem)
    assert not run.answer(not found.nil)
    assert run.score == 0
    with pytest.raises(SpadesError):
        DrillRun("nope")


# --- the answers computed elsewhere (the worker, or in slices) ---------------------------


@pytest.mark.parametrize(("drill", "index"), [("bidding", 3), ("nil", 3), ("counting", 1)])
def test_a_solved_item_round_trips_through_its_json(drill: str, index: int) -> None:
    text = solve_json(drill, index)
    solved = read_solved(drill, index, text)
    assert solved.item == drills.item(drill, index)
    if isinstance(solved.item, BidItem):
        assert solved.counts == drills.trick_counts(solved.item.view, solved.item.expert)
        assert sum(solved.counts) == drills.SAMPLES and len(solved.counts) == 14
    else:
        assert solved.counts == ()
    assert solved_json(solved.item, solved.counts) == text


def test_the_experts_work_comes_in_small_steps() -> None:
    """The main thread runs these in slices: the bid, the Nil evaluation and the chart's
    play-outs each yield once per imagined deal, and give the same answer as in one piece."""
    for drill in ("bidding", "nil"):
        text, count = drain(solve_steps(drill, 0))
        assert count > 100 if drill == "bidding" else count > 20, (drill, count)
        assert text == solve_json(drill, 0)
    view = drills.question("nil", 3)
    stepped, yields = drain(evaluate_steps(view))
    assert yields > 20 and stepped == evaluate(view)
    assert stepped.best == ExpertBot().bid(view) == NIL


@pytest.mark.parametrize("text", [
    "", "{", "[]", "null",
    '{"deal": 1, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,200]}',
    '{"deal": 14001, "expert": "3"}',
    '{"deal": 14001, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,201]}',
    '{"deal": 14001, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,true,0]}',
    '{"deal": 14001, "expert": "14", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,200]}',
    '{"deal": 14001, "expert": 3, "counts": [0,0,0,0,0,0,0,0,0,0,0,0,-1,200]}',
    '{"deal": 14001, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,200], "hint": 1}',
    '{"deal": 14001, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,200], "hint":'
    ' {"reason": "coach.bid.count", "tip": "x", "params": {}, "contrast": "",'
    ' "why": "coach.why.nope", "said": true}}',
    '{"deal": 14001, "expert": "3", "counts": [0,0,0,0,0,0,0,0,0,0,0,0,0,200], "hint":'
    ' {"reason": "coach.bid.count", "tip": "x", "params": {"bid": 3}, "contrast": "",'
    ' "why": "", "said": true}}',
])
def test_a_bad_answer_text_is_refused(text: str) -> None:
    with pytest.raises(SpadesError):
        read_solved("bidding", 0, text)


def test_bad_nil_and_counting_answers_are_refused() -> None:
    view = drills.question("counting", 0)
    for text in ('{"deal": 14201, "spades_out": 14, "voids": []}',
                 '{"deal": 14201, "spades_out": 3, "voids": [["X", 1]]}',
                 '{"deal": 14201, "spades_out": 3, "voids": [["N", 7]]}',
                 '{"deal": 14201, "spades_out": 3}'):
        with pytest.raises(SpadesError):
            read_solved("counting", 0, text, view)
    for text in ('{"deal": 14101, "nil": 1, "made": 0, "worlds": 0}',
                 '{"deal": 14101, "nil": false, "made": 5, "worlds": 2}'):
        with pytest.raises(SpadesError):
            read_solved("nil", 0, text)


def test_an_answer_provided_is_judged_and_the_next_item_starts_clean() -> None:
    run = DrillRun("bidding")
    assert not run.ready and run.view.legal_bids  # the question, without its answer
    other = read_solved("bidding", 1, solve_json("bidding", 1))
    assert not run.provide(other)  # another item's answer
    assert not run.ready
    solved = read_solved("bidding", 0, solve_json("bidding", 0), run.view)
    assert run.provide(solved) and run.ready and run.counts == solved.counts
    assert not run.provide(solved)  # once
    assert isinstance(solved.item, BidItem)
    assert run.answer(solved.item.expert)
    assert run.given == [solved.item.expert]
    run.next()
    assert not run.ready and run.counts == () and run.index == 1
    assert run.provide(other) and run.current == other.item


# --- the controls' tokens -----------------------------------------------------------------


def test_answers_are_read_from_the_controls() -> None:
    assert parse_answer("bid", "nil") == NIL and parse_answer("bid", "4") == Bid(4)
    assert parse_answer("bid", "blind-nil") is None and parse_answer("bid", "14") is None
    assert parse_answer("nil", "yes") is True and parse_answer("nil", "no") is False
    assert parse_answer("nil", "maybe") is None
    assert parse_answer("spades", " 7 ") == 7 and parse_answer("spades", "0") == 0
    for bad in ("", "14", "-1", "x", "1.5", "007", "٣"):
        assert parse_answer("spades", bad) is None, bad
    assert parse_answer("void", "W:hearts") == (Seat.W, int(Suit.HEARTS))
    for bad in ("S:hearts", "W:", "W:stars", "hearts", ""):
        assert parse_answer("void", bad) is None, bad
    for given in (NIL, Bid(5), True, False, 3, (Seat.E, int(Suit.CLUBS))):
        kind = ("bid" if isinstance(given, Bid) else "nil" if isinstance(given, bool)
                else "void" if isinstance(given, tuple) else "spades")
        assert parse_answer(kind, answer_token(given)) == given


def test_the_right_token_is_a_right_answer() -> None:
    for drill in drills.DRILLS:
        for index in (0, 1, 3):
            found = drills.item(drill, index)
            run = DrillRun(drill, index=index)
            kind = run.question_kind
            given = parse_answer(kind, right_token(found, index))
            assert given is not None and drills.judge(index, found, given), (drill, index)


# --- what the screen says -----------------------------------------------------------------


def _answered(drill: str, index: int, right: bool) -> DrillRun:
    run = DrillRun(drill, index=index)
    given = parse_answer(run.question_kind, right_token(run.current, index))
    assert given is not None
    if not right:
        if isinstance(given, bool):
            given = not given
        elif isinstance(given, Bid):
            given = Bid(given.tricks + 3 if given.tricks < 10 else 1)
        elif isinstance(given, int):
            given = given + 1
        else:
            found = run.current
            assert isinstance(found, CountItem)
            given = next((seat, suit) for seat in VOID_SEATS for suit in range(4)
                         if (seat, suit) not in found.voids)
    assert run.answer(given) is right
    return run


def _expert_says(index: int, bid: Bid) -> DrillRun:
    """Bidding item ``index`` with ``bid`` given as the Expert's answer (as the page's
    worker would provide it), answered wrong."""
    run = DrillRun("bidding", index=index)
    fake = BidItem(drills.DEALS["bidding"][index], run.view, bid)
    assert run.provide(read_solved("bidding", index, solved_json(fake, (0,) * 14), run.view))
    wrong = Bid(5) if bid.is_nil or bid.tricks < 4 else Bid(1)
    assert not run.answer(wrong)
    return run


def test_feedback_in_english() -> None:
    expert = drills.item("bidding", 0)
    assert isinstance(expert, BidItem)
    run = _answered("bidding", 0, right=True)
    assert feedback(run)[:2] == ["Right.", f"The Expert bids {expert.expert}."]
    # why that number: the hint's own words for that view (one search, one voice)
    advice = expert.advice
    assert advice is not None and advice == hint(expert.view)
    assert feedback(run)[2] == i18n.hint_sentence(advice.reason, dict(advice.params),
                                                  advice.contrast, None, advice.why,
                                                  advice.said)
    assert "play-outs" in feedback(run)[2]
    assert feedback(_expert_says(2, NIL))[:2] == ["Not quite.", "The Expert bids Nil."]
    assert feedback(_expert_says(2, Bid(7)))[:2] == ["Not quite.", "The Expert bids 7."]
    run = _answered("nil", 3, right=True)  # Nil, made in 49 of 72 play-outs
    assert feedback(run) == [
        "Right.", "The Expert bids Nil with this hand.",
        "Against opponents who play like the app's Normal bots, Nil succeeds about 7 times in"
        " 10 (more often against the Beginner bots, less often against the Expert).",
        "With 5 cards in its suit, the king of hearts can wait: your smaller cards of the suit"
        " go first, and you can throw it later on a trick someone else wins.",
        "Your spades are few and low (3, up to the 9♠): others will overtrump them."]
    run = _answered("nil", 2, right=False)  # not even tried
    assert feedback(run)[1:] == [
        "The Expert does not bid Nil with this hand.",
        "The Expert does not even consider Nil with this hand.",
        "A spade as high as the queen of spades can win a trick on its own.",
        "4 spades are too many: once the others run out of spades, yours will win tricks.",
        "No void and no singleton in a side suit: nowhere to throw a dangerous card early."]
    run = _answered("counting", 0, right=False)
    assert feedback(run) == [
        "Not quite.", "10 spades are still out: 13, less 2 in your hand and 1 played."]
    assert say("counting.spades.answer", count=1, hand=4, played=8) == (
        "1 spade is still out: 13, less 4 in your hand and 8 played.")
    run = _answered("counting", 1, right=True)
    assert feedback(run) == ["Right.", "Voids shown: East in diamonds, West in diamonds."]


def test_feedback_in_french_with_its_plurals_and_spaces() -> None:
    i18n.set_language("fr")
    assert say("counting.spades.answer", count=1, hand=4, played=8) == (
        f"Il reste 1 pique en jeu{NBSP}: 13, moins 4 dans votre main et 8 joués.")
    run = _answered("counting", 0, right=True)
    assert feedback(run)[1] == (
        f"Il reste 10 piques en jeu{NBSP}: 13, moins 2 dans votre main et 1 joué.")
    run = _answered("counting", 1, right=False)
    assert feedback(run) == ["Pas tout à fait.",
                             f"Chicanes montrées{NBSP}: Est à carreau, Ouest à carreau."]
    run = _answered("counting", 3, right=True)
    assert feedback(run)[1].startswith(f"Chicanes montrées{NBSP}: Nord à trèfle, Nord à cœur")
    assert feedback(_expert_says(2, NIL))[1] == "L'Expert annonce Nil."
    assert feedback(_expert_says(2, Bid(7)))[1] == "L'Expert annonce 7."


def test_the_chart_and_its_words() -> None:
    counts = (0, 1, 21, 156, 21, 1, 0, 0, 0, 0, 0, 0, 0, 0)
    bars = chart(counts, Bid(3), Bid(4))
    assert [bar.count for bar in bars] == list(counts)
    assert [bar.height for bar in bars][:6] == [0, 1, 13, 100, 13, 1]
    assert [bar.tricks for bar in bars if bar.expert] == [3]
    assert [bar.tricks for bar in bars if bar.yours] == [4]
    assert bars[1].label == "1 trick: 1 deal" and bars[3].label == "3 tricks: 156 deals"
    assert chart_summary(counts, Bid(4)) == [
        "Most often 3 tricks (156 of 200 deals).",
        "At least 4 tricks, as you bid: 22 of 200 deals."]
    assert chart_summary(counts, NIL)[1] == "No trick at all, as your Nil needs: 0 of 200 deals."
    assert [bar.tricks for bar in chart(counts, NIL, NIL) if bar.yours and bar.expert] == [0]
    i18n.set_language("fr")
    assert chart(counts, Bid(3))[1].label == f"1 pli{NBSP}: 1 donne"
    assert chart(counts, Bid(3))[0].label == f"0 pli{NBSP}: 0 donne"
    assert chart_summary(counts, Bid(1))[1] == (
        f"Au moins 1 pli, comme votre annonce{NBSP}: 200 sur 200 donnes.")


def test_the_tricks_table_names_the_leader_and_the_winner() -> None:
    view = drills.question("counting", 0)
    rows = played_tricks(view)
    assert len(rows) == len(view.plays) // 4 and [row.number for row in rows][:2] == [1, 2]
    for row in rows:
        led = row.cards[0][1].suit
        spades = [(seat, card) for seat, card in row.cards if card.suit == Suit.SPADES]
        pool = spades or [(seat, card) for seat, card in row.cards if card.suit == led]
        assert row.winner == max(pool, key=lambda pair: pair[1].rank)[0]
        assert row.leader == row.cards[0][0]
        for seat, card in row.cards:
            assert row.card_of(seat) == card
    for before, after in itertools.pairwise(rows):
        assert after.leader == before.winner  # the winner leads the next trick


def test_every_drill_key_the_screen_uses_exists_in_both_languages() -> None:
    source = (ROOT / "ui" / "drills" / "drills_screen.py").read_text("utf-8")
    source += (ROOT / "ui" / "drills" / "drills_run.py").read_text("utf-8")
    source += (ROOT / "ui" / "lessons" / "lessons_screen.py").read_text("utf-8")
    used = {f"lessons.drill.{key}" for key in re.findall(r'\bsay\(\s*"([a-z.]+)"', source)}
    used |= {f"lessons.{key}" for key in re.findall(r'\blt\(\s*"([a-z.]+)"', source)}
    used |= {f"lessons.drill.{drill}{part}" for drill in drills.DRILLS
             for part in ("", ".summary")}
    used |= {"lessons.drill.yes", "lessons.drill.no", "lessons.group.drills",
             "lessons.tabs.label", "lessons.drill.reset", "lessons.drill.part-reset",
             "lessons.notice.reset", "lessons.notice.part-reset"}
    assert len(used) > 40
    for lang in ("en", "fr"):
        catalogue = json.loads((ROOT / "locales" / lang / "lessons.json").read_text("utf-8"))
        missing = sorted(key for key in used if not catalogue.get(key))
        assert not missing, (lang, missing)
