"""One measure: the hint and the review price the same two cards alike (issue 41, point 2).

On the same position the review's better card is the hint's card, and the hint's "not the
X" clause says what the review measures of X: the same price in points (the same imagined
deals, the same play-out player, the same exact endgame in the last tricks), the same
verdict on the noise.  And the review's "not the X" clause always names the card played.
"""

from __future__ import annotations

import pytest

from spades_core import hints, review
from spades_core.bids import Bid
from spades_core.bots import bot_action, make_bot
from spades_core.bots.expert import ExpertBudget
from spades_core.cards import Card, parse_card
from spades_core.game import GameState, Phase
from spades_core.reasons import HINT_WHYS
from spades_core.rules import DEFAULT_RULES
from spades_core.seats import Seat
from spades_core.views import View, view_for
from tests.helpers import south_at

#: clauses that call the other card clearly worse, and those that call it as good
CLEAR = ("coach.not.sims", "coach.not.sims-close", "coach.not.rule-beaten",
         "coach.not.exception-trump-partner")
TIE = ("coach.not.sims-tie", "coach.not.rule-tie")


@pytest.mark.parametrize(("deal", "actions", "clause"), [
    (501, 33, "coach.not.sims"),  # 6 tricks left: played out
    (501, 44, "coach.not.sims"),  # 3 tricks left: solved exactly
    (504, 45, "coach.not.sims-tie"),  # 2 tricks left: solved, within noise
    (504, 16, "coach.not.sims-tie"),
    (500, 13, "coach.not.rule-tie"),
    (503, 29, "coach.not.rule-beaten"),
])
def test_the_hint_and_the_review_price_the_same_cards_alike(deal: int, actions: int,
                                                            clause: str) -> None:
    view = south_at(deal, actions)
    advice = hints.hint(view)
    assert advice.contrast == clause
    card = advice.action
    assert isinstance(card, Card)
    other = parse_card(advice.params["alt"])
    weighed = review.weigh(view, other)  # the review, had the player played the other card
    assert weighed is not None
    better, _, priced = weighed
    assert better == card  # the review's better card is the hint's
    assert priced == review.confirmed_price(view, other, card)  # one price, in points
    assert priced.clear is (clause in CLEAR)  # one verdict on the noise
    assert hints.clear_difference(view, card, other) is priced.clear
    # one reason: where the difference is clear, the hint's main sentence names the part
    # the review's item would (the largest of the same split); within noise, no part
    if priced.clear:
        assert HINT_WHYS[advice.why][0] == priced.parts.largest()
    else:
        assert advice.why == ""
    if clause == "coach.not.sims":  # the hint quotes the review's figure
        assert advice.params["points"] == str((priced.cost + 5) // 10)
    flagged = priced.clear and priced.cost >= review.MIN_COST
    assert flagged or clause in TIE or priced.cost < review.MIN_COST


def test_the_last_tricks_are_solved_in_the_searchs_deals() -> None:
    """In the last tricks the Expert's search solves its deals; the review's price does too
    (as many deals as the search solves), so that the two no longer disagree there."""
    view = south_at(501, 44)
    assert review.exact_endgame(view) and not review.exact_endgame(south_at(502, 36))
    advice = hints.hint(view)
    assert isinstance(advice.action, Card)
    priced = review.price(view, parse_card(advice.params["alt"]), advice.action)
    assert priced.worlds == ExpertBudget().exact_worlds
    assert priced.parts.total == priced.cost
    same = review.price(view, advice.action, advice.action)  # best play either way: no cost
    assert same.cost == 0 and same.se == 0 and not same.clear


def _south_choices(deal: int) -> list[tuple[View, Card]]:
    """South's card decisions with a choice in ``deal``'s first hand (the Normal bots at
    every seat), with the card South plays."""
    bot = make_bot("normal")
    state = GameState.new(DEFAULT_RULES, deal=deal)
    found = []
    while state.phase is not Phase.OVER and not state.past_hands:
        action = bot_action(bot, state)
        if state.to_act is Seat.S and state.phase is Phase.PLAYING \
                and len(state.legal_plays()) > 1:
            assert isinstance(action, Card)
            found.append((view_for(state, Seat.S), action))
        state = state.apply(action)
    return found


def test_the_reviews_contrast_names_the_card_played() -> None:
    """Every "not the X" clause the review may give (:func:`hints.contrast_against`, each
    legal card as the one played against the Normal bot's card as the better one) is about
    that card: X is the card played, never another."""
    said = 0
    for deal in (500, 501, 502, 503):
        for view, better in _south_choices(deal):
            for played in view.legal_plays:
                if played == better:
                    continue
                clause, params = hints.contrast_against(view, better, None, played)
                if clause:
                    said += 1
                    assert params["alt"] == str(played), (clause, params)
    assert said >= 5  # the check met clauses


def test_a_reviewed_hand_names_the_card_played() -> None:
    """The review of a whole hand (South the Beginner): every item's contrast clause is
    about the card played, and a bid's item has none."""
    beginner, normal = make_bot("beginner"), make_bot("normal")
    state = GameState.new(DEFAULT_RULES, deal=3913295173865899)
    while not state.past_hands:
        state = state.apply(bot_action(beginner if state.to_act is Seat.S else normal, state))
    found = review.review_hand(state, 0, Seat.S)
    contrasts = [item for item in found.items if item.contrast]
    assert contrasts
    for item in found.items:
        if isinstance(item.played, Bid):
            assert not item.contrast
        elif item.contrast:
            assert item.params["alt"] == str(item.played)
