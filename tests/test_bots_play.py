"""The bots: legal and deterministic in every variant, and the Normal bot (with its hint)
following each tip of STRATEGY.md in positions where the tip decides the play."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from spades_core import BLIND_NIL, NIL, Bid, GameState, Phase, Rules, Seat, parse_card
from spades_core.bots import bot_action, make_bot
from spades_core.bots.beginner import BeginnerBot
from spades_core.bots.normal import NormalBot
from spades_core.hints import normal_hint as hint  # the Normal bot's rules and reasons
from spades_core.views import View, view_for
from tests.helpers import mask, position
from tests.match import deal_numbers, play_game

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = {
    "default": Rules(target=300),
    "jokers": Rules(target=300, jokers=True),
    "no-blind-nil": Rules(target=300, blind_nil=False),
    "jokers-no-blind-nil": Rules(target=300, jokers=True, blind_nil=False, floor=None),
}
PAIRS = [("normal", "beginner"), ("beginner", "normal"), ("normal", "normal"),
         ("beginner", "beginner")]


# --- legality and determinism over whole games ---------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_no_illegal_action_over_games(variant: str, pair: tuple[str, str]) -> None:
    rules = VARIANTS[variant]
    ns, ew = make_bot(pair[0]), make_bot(pair[1])
    for deal in deal_numbers(hash_seed(variant + pair[0] + pair[1]), 6):
        state = play_game(ns, ew, deal, rules)  # GameState.apply raises on anything illegal
        assert state.phase is Phase.OVER


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_illegal_action_over_many_games(variant: str) -> None:
    rules = VARIANTS[variant]
    for index, deal in enumerate(deal_numbers(hash_seed(variant), 250)):
        ns, ew = (make_bot(name) for name in PAIRS[index % len(PAIRS)])
        assert play_game(ns, ew, deal, rules).phase is Phase.OVER


def hash_seed(text: str) -> int:
    """A seed from text that does not depend on PYTHONHASHSEED."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def test_beginner_never_bids_nil_and_normal_only_with_a_nil_hand() -> None:
    beginner, normal = BeginnerBot(), NormalBot()
    for deal in deal_numbers(11, 20):
        state = GameState.new(Rules(), deal=deal)
        for _ in range(4):
            seat = state.to_act
            assert seat is not None
            view = view_for(state, seat)
            assert not beginner.blind_nil(view_for(state, seat, hand_seen=False))
            assert not beginner.bid(view).is_nil
            state = state.apply(bot_action(normal, state))


def test_same_view_same_decision() -> None:
    state = GameState.new(Rules(), deal=4242)
    views = []
    while state.phase is not Phase.OVER and state.hand_index < 2:
        seat = state.to_act
        assert seat is not None
        views.append(view_for(state, seat))
        state = state.apply(bot_action(NormalBot(), state))
    for level in ("normal", "beginner"):
        first, second = make_bot(level), make_bot(level)
        for view in views:
            act = first.bid if view.phase is Phase.BIDDING else first.play
            again = second.bid if view.phase is Phase.BIDDING else second.play
            assert act(view) == again(view) == act(view)


GAME_SCRIPT = """
from spades_core import Rules
from tests.match import play_game
from spades_core.bots import make_bot
from spades_core.record import dumps
state = play_game(make_bot('normal'), make_bot('beginner'), 97531, Rules(jokers=True))
print(dumps(state))
"""


def test_same_game_under_other_hash_seeds() -> None:
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", GAME_SCRIPT], cwd=ROOT, env=env, capture_output=True,
            text=True, check=True, timeout=120,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


# --- positions where a tip decides the play ------------------------------------------------


def decide(state: GameState, card: str, tip: str, reason: str | None = None) -> None:
    """The Normal bot plays ``card``, and the hint says the same with ``tip``."""
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    assert NormalBot().play(view) == parse_card(card)
    suggestion = hint(view)
    assert suggestion.action == parse_card(card)
    assert suggestion.tip == tip
    if reason is not None:
        assert suggestion.reason == reason
    assert suggestion.params.get("card") == str(parse_card(card))


def test_partner_ace_winning_do_not_trump_throw_from_shortest_side_suit() -> None:
    # W leads the 5♥, N (South's partner) takes it with the A♥, E follows: S has no heart.
    state = position(
        {
            "S": "2S 9S KS 3C 8C JC 4D 9D",
            "W": "6H 7C 5D 6D 7D 2C 4S",
            "N": "9H 2D 3D 4C 5C 6C 7S",
            "E": "8H TH QC KC 3S 5S 6S",
        },
        leader="W", trick="5H AH 7H",
    )
    decide(state, "4D", "dont-trump-partner", "play.dont-trump-partner")


def test_partner_ace_stands_third_hand_does_not_trump_either() -> None:
    # N leads the A♥, E follows low: the A♥ is the top heart and W still holds hearts.
    state = position(
        {
            "S": "2S 9S KS 3C 8C JC 4D 9D",
            "W": "6H 8H 5D 6D 7D 2C 4S 2H",
            "N": "9H 2D 3D 4C 5C 6C 7S",
            "E": "KH TH QC KC 3S 5S 6S",
        },
        leader="N", trick="AH 3H",
    )
    decide(state, "4D", "dont-trump-partner")


def test_last_to_play_trumps_with_the_lowest_winning_spade() -> None:
    # W leads the K♦, N follows, E trumps with the 5♠: S must beat it, the 7♠ is enough.
    state = position(
        {
            "S": "3S 7S QS AS 2C 5C 9C",
            "W": "4D 6D 3C 8C 4H 5H",
            "N": "5D 7D 4C 6H 7H 8H",
            "E": "2H 3H 9H TC JC QC",
        },
        leader="W", trick="KD 3D 5S", broken=True,
    )
    decide(state, "7S", "trump-wisely", "play.trump-last")


def test_last_to_play_void_trumps_low_over_an_opponent_ace() -> None:
    state = position(
        {
            "S": "3S 7S QS 2C 5C 9C",
            "W": "4D 6D 3C 8C 4H",
            "N": "5D 7D 4C 6H 7H",
            "E": "2H 3H 9H TC JC",
        },
        leader="W", trick="KD 3D AD",
    )
    decide(state, "3S", "trump-wisely", "play.trump-last")


def test_partner_nil_overtake_partner_winning_card() -> None:
    # N bid Nil; W leads the 4♣, N's 9♣ is winning, E follows low: S overtakes.
    state = position(
        {
            "S": "2C TC QC 5H 6H 2S",
            "W": "3C 8H 9H 3D 4D",
            "N": "2H 3H 4H 5D 6D",
            "E": "5C 7H 7D 8D 9D",
        },
        leader="W", trick="4C 9C 6C", bids="nil 4 4 4",
    )
    decide(state, "TC", "cover-partner-nil", "play.cover-overtake")


def test_partner_nil_plays_after_me_play_high() -> None:
    # E leads the 3♦; S plays before N (Nil): S plays high so that N can play under.
    state = position(
        {
            "S": "KD 4D 5H 6H 2S",
            "W": "3C 8H 9H 8D",
            "N": "2H 3H 4H 6D",
            "E": "5C 7H 7D 9D",
        },
        leader="E", trick="3D", bids="nil 4 4 4",
    )
    decide(state, "KD", "cover-partner-nil", "play.cover-high")


def test_opponent_nil_duck_under_their_card() -> None:
    # E bid Nil; N leads the 3♥ and E's 8♥ is winning: S plays under it, with the 7♥.
    state = position(
        {
            "S": "2H 7H KH 4C 5C",
            "W": "4H 9H 2C 6C",
            "N": "5H 8C 9C 2D",
            "E": "TH 3C 3D 4D",
        },
        leader="N", trick="3H 8H", bids="4 nil 4 4",
    )
    decide(state, "7H", "attack-nil", "play.attack-duck")


def test_opponent_nil_plays_after_me_play_low() -> None:
    # W bid Nil and plays after S; E led the 3♣: S's lowest club, the 4♣, takes the
    # lead, and West must beat it or find a lower club.
    state = position(
        {
            "S": "4C 9C KC 4H 5H",
            "W": "6C 9H 2D 6D 8D",
            "N": "6H 8H TH 3D 7C",
            "E": "3H 4D 5D 7D",
        },
        leader="E", trick="3C", bids="4 4 4 nil",
    )
    decide(state, "4C", "attack-nil", "play.attack-low")


def test_play_low_against_a_nil_is_not_said_under_a_higher_card() -> None:
    # N led the 5♣ and E covered West's Nil with the 10♣: whatever S plays, West must
    # duck under the 10♣, not under S's card, so "play low so that they must beat it"
    # would be false (the coach once said it here).
    state = position(
        {
            "S": "2C 9C KC 4H 5H",
            "W": "4C 9H 2D 6D",
            "N": "6H 8H TH 3D",
            "E": "3H 4D 5D 7D",
        },
        leader="N", trick="5C TC", bids="4 4 4 nil",
    )
    assert hint(view_for(state, Seat.S)).reason != "coach.play.attack-low"


def test_opponent_nil_lead_low_in_a_suit_they_hold() -> None:
    # E bid Nil and has shown no void: S leads its lowest card, the 2♦.
    state = position(
        {
            "S": "2D 8D AC 4C 9H",
            "W": "3D 5C 6C 3H 4H",
            "N": "4D 7C 8C 5H 6H",
            "E": "5D 9C TC 7H 8H",
        },
        leader="S", bids="4 nil 4 4",
    )
    decide(state, "2D", "attack-nil", "play.attack-lead")


def test_second_hand_low() -> None:
    # E leads the 5♦; S holds K♦ 8♦ 3♦ with the A♦ out: second hand low.
    state = position(
        {
            "S": "KD 8D 3D 4C 5H",
            "W": "AD 6D 6C 7H",
            "N": "2D 7D 8C 9H",
            "E": "4D 9C TH JH",
        },
        leader="E", trick="5D",
    )
    decide(state, "3D", "second-hand-low", "play.second-hand-low")


def test_third_hand_high() -> None:
    # N leads the 3♣, E plays the 9♣; S plays high, the cheaper of K♣ Q♣.
    state = position(
        {
            "S": "KC QC 5C 4D 5H",
            "W": "AC TC 6D 7H",
            "N": "2C 7D 8D 9H",
            "E": "JC 9D TH JH",
        },
        leader="N", trick="3C 9C",
    )
    decide(state, "QC", "third-hand-high", "play.third-hand-high")


def test_third_hand_high_takes_the_sure_trick() -> None:
    state = position(
        {
            "S": "AC 5C 4D 5H",
            "W": "KC TC 6D 7H",
            "N": "2C 7D 8D 9H",
            "E": "JC 9D TH JH",
        },
        leader="N", trick="3C 9C",
    )
    decide(state, "AC", "third-hand-high", "play.third-hand-holds")


def test_nil_bidder_plays_highest_losing_card() -> None:
    # S bid Nil; E leads the K♣: S plays the Q♣ under it.
    state = position(
        {
            "S": "QC 9C 2C 3H 4D",
            "W": "5C 6H 7H 8H",
            "N": "4C 5D 6D 7D",
            "E": "7C 8D 9D TD",
        },
        leader="E", trick="KC", bids="4 4 nil 4",
    )
    decide(state, "QC", "nil-hand", "play.nil-duck")


def test_nil_bidder_void_throws_the_dangerous_card() -> None:
    state = position(
        {
            "S": "QH 3H 9D 2D 2S",
            "W": "5C 6H 7H 8H",
            "N": "4C 5D 6D 7D",
            "E": "7C 8D 9H TD",
        },
        leader="E", trick="KC", bids="4 4 nil 4",
    )
    decide(state, "QH", "nil-hand", "play.nil-discard")


def test_cash_a_side_ace_early() -> None:
    state = position(
        {
            "S": "AH 7H 4H KD 6D 2C 9C 3S",
            "W": "2H 3H 5D 7D 3C 4C 5C 4S",
            "N": "5H 6H 8D 9D 6C 7C 8C 5S",
            "E": "8H 9H TD JD TC JC QC 6S",
        },
        leader="S",
    )
    decide(state, "AH", "cash-aces-early", "play.cash-ace")


def test_pull_trumps_with_the_top_spade_and_length() -> None:
    state = position(
        {
            "S": "AS KS QS 5S 4S 7H",
            "W": "2S 3H 5D 7D 3C 4C",
            "N": "6S 6H 8D 9D 6C 7C",
            "E": "7S 8H TD JD TC JC",
        },
        leader="S", broken=True,
    )
    decide(state, "AS", "pull-trumps", "play.pull-trumps")


def test_contract_made_duck_to_avoid_bags() -> None:
    # NS bid 2 + 2 and have 4 tricks; EW can no longer be set: S plays under the J♦.
    state = position(
        {
            "S": "QD 9D 2D 4C 5H",
            "W": "3D 6C 7H 8H",
            "N": "4D 7C 8C 9H",
            "E": "5D TC TH JH",
        },
        leader="E", trick="JD", bids="2 4 2 3", tricks=(2, 4, 2, 0),
    )
    decide(state, "9D", "bags-cost", "play.bags-duck")


# --- bidding examples ---------------------------------------------------------------------


def bidding_state(south: str) -> GameState:
    """The first hand of a game (East deals, so S bids first) where S holds ``south``."""
    rest = [card for card in range(52) if not mask(south) >> card & 1]
    hands = [0, 0, mask(south), 0]
    for index, card in enumerate(rest):
        hands[(0, 1, 3)[index % 3]] |= 1 << card
    return GameState.new(Rules(), cards=hands)


def south_bids_last(south: str, bids: tuple[int, int, int]) -> View:
    """S's view when N, E and W have bid ``bids`` (in seat order N, E, W) before S."""
    view = view_for(bidding_state(south), Seat.S)
    return replace(view, bids=(Bid(bids[0]), Bid(bids[1]), None, Bid(bids[2])))


def test_bid_ace_king_of_hearts_and_four_small_spades_is_three() -> None:
    state = bidding_state("AH KH 4H 2S 3S 4S 5S 9C 6C 3C 8D 5D 2D")
    view = view_for(state, Seat.S)
    assert NormalBot().bid(view) == Bid(3)
    suggestion = hint(view)
    assert suggestion.action == Bid(3)
    assert suggestion.tip == "count-sure-tricks"
    assert suggestion.params == {"bid": "3", "side": "2", "spades": "1"}


def test_bid_counts_spades_and_short_suits() -> None:
    # A♠ K♠ + 5 small spades, a void in clubs: 1 + 1 + 4 beyond the third + a ruff, less
    # a little for the length (about 6.5 tricks), and with seven spades rounded down: 6.
    state = bidding_state("AS KS 2S 3S 4S 5S 6S 2H 3H 4H 2D 3D 4D")
    view = view_for(state, Seat.S)
    assert NormalBot().bid(view) == Bid(6)
    assert hint(view).tip == "count-spades"


def test_bid_nil_with_a_nil_hand() -> None:
    state = bidding_state("2C 3C 5C 8C 2D 4D 7D 3H 5H 9H JH 2S 6S")
    view = view_for(state, Seat.S)
    assert NormalBot().bid(view) == NIL
    assert hint(view).tip == "nil-hand"


def test_no_nil_with_a_bare_king_or_a_high_spade() -> None:
    # (a king with three small cards under it is a Nil hand: tests/test_normal_rules.py)
    for south in ("2C 3C 5C 8C 2D 4D 7D 9D 6D 3H KH 2S 6S",
                  "2C 3C 5C 8C 2D 4D 7D 3H 5H 9H JH 2S JS"):
        state = bidding_state(south)
        assert not NormalBot().bid(view_for(state, Seat.S)).is_nil


def test_read_the_table_when_the_others_bid_ten() -> None:
    south = "AH KH 4H AS 3S 4S 5S 9C 6C 3C 8D 5D 2D"  # about four tricks
    assert NormalBot().bid(view_for(bidding_state(south), Seat.S)) == Bid(4)
    view = south_bids_last(south, (3, 4, 3))
    assert NormalBot().bid(view) == Bid(3)
    suggestion = hint(view)
    assert (suggestion.tip, suggestion.reason) == ("read-the-table", "bid.table-down")
    assert suggestion.params == {"bid": "3", "count": "4", "others": "10"}


def test_read_the_table_when_the_others_bid_seven() -> None:
    south = "AH KH 4H 2S 3S 4S 5S 8D 5D 2D KC 6C 3C"  # a little over three tricks
    assert NormalBot().bid(view_for(bidding_state(south), Seat.S)) == Bid(3)
    view = south_bids_last(south, (2, 3, 2))
    assert NormalBot().bid(view) == Bid(4)
    assert hint(view).reason == "bid.table-up"


def test_blind_nil_only_far_behind() -> None:
    state = bidding_state("AH KH 4H AS 3S 4S 5S 9C 6C 3C 8D 5D 2D")
    view = view_for(state, Seat.S, hand_seen=False)
    assert not NormalBot().blind_nil(view)
    assert hint(view).action is None
    behind = replace(view, scores=(60, 420))
    assert NormalBot().blind_nil(behind)
    assert hint(behind).action == BLIND_NIL
    assert hint(behind).reason == "bid.blind-nil"
