"""tools/blind_nil_games.py: desperate starts played with and without the expert's Blind Nil."""

from __future__ import annotations

from spades_core.bots.expert import ExpertBot
from spades_core.deal import deal_hand
from spades_core.game import GameState, Phase, _new_hand
from spades_core.rules import Rules
from spades_core.views import view_for
from tests.helpers import load_tool

tool = load_tool("blind_nil_games")


def test_the_sign_test_is_two_sided_and_exact() -> None:
    assert tool.sign_test(0, 0) == 1.0
    assert tool.sign_test(5, 5) == 1.0
    assert abs(tool.sign_test(7, 3) - 352 / 1024) < 1e-12  # 2 * P(X <= 3), X ~ B(10, 1/2)
    assert tool.sign_test(3, 7) == tool.sign_test(7, 3)
    assert abs(tool.sign_test(10, 0) - 2 / 1024) < 1e-12


def test_starts_are_desperate_and_drawn_from_the_seed() -> None:
    found = tool.starts(7, 50)
    assert found == tool.starts(7, 50) and found != tool.starts(8, 50)
    for _deal, (ours, theirs), bags in found:
        assert 100 <= ours <= 300 and 400 <= theirs <= 480
        assert all(0 <= bag <= 5 for bag in bags)


def test_the_summary_counts_only_starts_where_blind_nil_was_bid() -> None:
    def game(won: bool, blind: int) -> dict[str, object]:
        return {"won": won, "hands": 2, "blind": blind, "final": [0, 500]}

    rows = [
        {"start": [1, [100, 450], [0, 0]], "with": game(True, 0)},
        {"start": [2, [100, 450], [0, 0]], "with": game(True, 1), "without": game(False, 0)},
        {"start": [3, [100, 450], [0, 0]], "with": game(False, 2), "without": game(True, 0)},
        {"start": [4, [100, 450], [0, 0]], "with": game(True, 1), "without": game(True, 0)},
    ]
    summary = tool.summarise(rows)
    assert summary["starts"] == 4 and summary["won_overall"] == 3
    assert summary["blind_nil_starts"] == 3 and summary["blind_nil_bids"] == 4
    assert (summary["wins_with"], summary["wins_without"]) == (2, 2)
    assert (summary["only_with"], summary["only_without"]) == (1, 1)


def test_the_plain_expert_never_bids_blind_nil_where_the_expert_may() -> None:
    rules = Rules()
    for deal in range(1, 40):
        cards = deal_hand(deal, 0, rules.deck_mask)
        first = GameState._start(_new_hand(rules, deal, (), cards, (0, 0), (0, 0)), Phase.BIDDING)
        seat = first.to_act
        assert seat is not None
        # its team 145 behind, the opponents 30 from the target
        scores = (325, 470) if int(seat) % 2 == 0 else (470, 325)
        state = GameState._start(_new_hand(rules, deal, (), cards, scores, (0, 0)), Phase.BIDDING)
        view = view_for(state, seat, hand_seen=False)
        if ExpertBot().blind_nil(view):
            assert tool.NoBlindExpert().blind_nil(view) is False
            assert tool.NoBlindExpert().bid(view_for(state, seat)) == \
                ExpertBot().bid(view_for(state, seat))
            return
    raise AssertionError("no desperate start where the expert bids Blind Nil")
