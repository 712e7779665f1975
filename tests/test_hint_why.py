"""The hint's main sentence is chosen by the scoring part its price measures (issue 41).

Each position here is built so that the answer is known; the price of the hint's card
against the other one is given (``Spot.priced`` replaced), so that only the choice of the
sentence and its figures are tested.  The prices themselves are the review's
(tests/test_review_parts.py pins their split; tests/test_hint_truth.py prices every
measured sentence again in real positions).
"""

from __future__ import annotations

import pytest

from spades_core.bids import Bid
from spades_core.bots.expert import Candidate, Evaluation
from spades_core.cards import Card, parse_card
from spades_core.game import GameState
from spades_core.hints import Spot, explain
from spades_core.pricing import Parts, Price
from spades_core.reasons import HINT_WHYS, PART_TIPS
from spades_core.rules import Rules
from spades_core.seats import Seat
from spades_core.views import View, view_for
from ui.shared import i18n

from .helpers import position


def priced(monkeypatch: pytest.MonkeyPatch, parts: Parts, clear: bool = True,
           team_tricks: int = 0) -> None:
    found = Price(parts.total, 0, 0, 0, parts=parts, se=10, clear=clear, worlds=128,
                  team_tricks=team_tricks)
    monkeypatch.setattr(Spot, "priced", lambda spot, other: found)


def south(bids: str, tricks: tuple[int, int, int, int], trick: str = "9D") -> View:
    """South, second to play to West's lead, holding two diamonds that play differently."""
    hands = {"N": "2C 3C 4C", "E": "5C 6C 7C", "S": "3D KD 8C", "W": "9C TC"}
    state = position(hands, leader="W", trick=trick, bids=bids, tricks=tricks)
    return view_for(state, Seat.S)


def card_hint(view: View, best: str = "3D", other: str = "KD") -> tuple[str, dict[str, str],
                                                                          bool, str, str]:
    low, high = parse_card(best), parse_card(other)
    ev = Evaluation((Candidate(low, 600_000 * 10, 10), Candidate(high, 590_000 * 10, 10)))
    found = explain(view, low, ev)
    return found.why, found.params, found.said, found.tip, found.contrast


def test_a_bag_only_cost_says_the_contract_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    priced(monkeypatch, Parts(our_bags=90, their_bags=-10))
    why, params, _, tip, _ = card_hint(south("2 3 2 3", (2, 3, 2, 3)))
    assert why == "coach.why.bag-made"
    assert (params["taken"], params["contract"], params["alt"]) == ("4", "4", "KD")
    assert tip in PART_TIPS["our-bags"]
    i18n.load("table", "hints", "coach")
    i18n.set_language("en")
    words = i18n.hint_sentence("", params, "", None, why, False)
    assert words.startswith("Your team's contract is already made (4 tricks for 4)")
    assert "fewer of them with the 3♦ than with the king of diamonds" in words


def test_a_contract_still_to_make_says_how_many_tricks_it_needs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    priced(monkeypatch, Parts(our_contract=200, our_bags=-5))
    why, params, said, tip, _ = card_hint(south("4 3 3 3", (2, 4, 2, 2)))
    assert why == "coach.why.need-us"
    assert (params["contract"], params["short"]) == ("7", "3")
    assert tip in PART_TIPS["our-contract"]
    assert isinstance(said, bool)


def test_partners_nil_and_an_opponents_nil_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    priced(monkeypatch, Parts(our_nil=500))
    why, params, *_ = card_hint(south("nil 3 5 3", (0, 4, 3, 3)))
    assert why == "coach.why.partner-nil" and params["value"] == "100"
    priced(monkeypatch, Parts(their_nil=400, our_bags=-20))
    why, params, *_ = card_hint(south("3 3 5 nil", (3, 4, 3, 0)))
    assert why == "coach.why.their-nil" and params["nil_seat"] == "W"


def test_the_opponents_contract_set(monkeypatch: pytest.MonkeyPatch) -> None:
    priced(monkeypatch, Parts(their_contract=150, our_contract=-20))
    why, params, *_ = card_hint(south("3 5 3 4", (3, 3, 2, 2)))
    assert why == "coach.why.their-contract" and params["contract"] == "9"
    assert HINT_WHYS[why][0] == "their-contract"


def test_a_tie_names_no_part(monkeypatch: pytest.MonkeyPatch) -> None:
    priced(monkeypatch, Parts(our_contract=30), clear=False)
    why, params, said, _, contrast = card_hint(south("4 3 3 3", (2, 4, 2, 2)))
    assert why == "" and said
    assert contrast == "coach.not.sims-tie" and params["alt"] == "KD"


def test_a_number_bid_says_why_that_number(monkeypatch: pytest.MonkeyPatch) -> None:
    state = GameState.new(Rules(), deal=7)
    while state.to_act is not Seat.S:  # the others bid 3
        state = state.apply(Bid(3))
    view = view_for(state, Seat.S)
    four, five = Bid(4), Bid(5)
    ev = Evaluation((Candidate(four, 600_000 * 10, 10), Candidate(five, 590_000 * 10, 10)))
    priced(monkeypatch, Parts(our_contract=120, our_bags=-10), team_tricks=72)
    found = explain(view, four, ev)
    assert found.why == "coach.why.bid-lower"
    assert found.params["alt_bid"] == "5"
    assert not (found.said and found.reason == "coach.bid.count")  # not said twice
    priced(monkeypatch, Parts(our_contract=120), clear=False)
    found = explain(view, four, ev)
    assert found.why == "" and found.contrast == "coach.not.bid-tie"
    assert isinstance(found.action, Bid) and not isinstance(found.action, Card)
