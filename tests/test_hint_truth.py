"""The coach tells the truth: over positions from random games in every rules variant,
every hint is the Expert's decision and every sentence shown (the reason and the "not the
X" clause) is one whose predicate holds in the position."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from spades_core import Card, GameState, Phase, Rules, Seat, parse_card
from spades_core.bids import Bid, parse_bid
from spades_core.bots.expert import ExpertBot, bid_forecast, evaluate
from spades_core.bots.normal import NormalBot
from spades_core.cards import CARDS
from spades_core.hints import (
    NEUTRAL,
    NEUTRAL_BID,
    RULE_CLAUSES,
    TEMPLATES,
    Hint,
    Spot,
    explain,
    hint,
)
from spades_core.pricing import confirmed_price
from spades_core.reasons import HINT_WHYS, PART_TIPS
from spades_core.views import View, view_for

from .helpers import position, reference_winner

VARIANTS = (
    Rules(),
    Rules(jokers=True),
    Rules(blind_nil=False, target=300),
    Rules(jokers=True, blind_nil=True, target=200, floor=None),
    Rules(target=1000, nil_value=50, bag_limit=5, bag_penalty=50),
)
EXPERT = ExpertBot()
NORMAL = NormalBot()

#: Templates the slow run does not reach; everything else must appear.  coach.bid.best is
#: the fallback where coach.bid.count (a number between 2 and 12) does not hold;
#: coach.bid.look-partner needs a face-down view after the partner's Nil (rare here);
#: coach.play.discard-short needs a trick trumped above every spade held (rare here: its
#: own test below builds one); coach.not.sims-close needs a loss under half a point that is
#: yet clear of the noise in both of the review's draws (in points, not met in this run:
#: tests/test_hints.py prices one); coach.not.overtrump, like every rule of the trick's "not
#: the X", is said only where X loses beyond the noise (else the hint says both score about
#: as well), and its few positions here were all within it.
RARE: set[str] = {"coach.bid.best", "coach.bid.look-partner", "coach.play.discard-short",
                  "coach.play.nil-lost", "coach.not.sims-close", "coach.not.overtrump"}


def positions(count: int, seed: int) -> list[View]:
    """``count`` views of a seat to act, from games played by the Normal bot with some
    random moves, round the rules variants; before some bids, the face-down view."""
    rng = random.Random(seed)
    views: list[View] = []
    game = 0
    while len(views) < count:
        rules = VARIANTS[game % len(VARIANTS)]
        state = GameState.new(rules, deal=rng.randrange(2**53))
        game += 1
        while state.phase is not Phase.OVER and state.hand_index < 2 and len(views) < count:
            seat = state.to_act
            assert seat is not None
            view = view_for(state, seat)
            if state.phase is Phase.BIDDING:
                if rules.blind_nil and rng.random() < 0.15:
                    face_down = view_for(state, seat, hand_seen=False)
                    team = int(seat) & 1
                    behind = rng.choice((0, 80, 150, 300))
                    scores = (0, behind) if team == 0 else (behind, 0)
                    views.append(replace(face_down, scores=scores))
                action: Card | Bid = (rng.choice(view.legal_bids[:6]) if rng.random() < 0.2
                                      else NORMAL.bid(view))
            else:
                action = (rng.choice(view.legal_plays) if rng.random() < 0.25
                          else NORMAL.play(view))
            if rng.random() < 0.35:
                views.append(view)
            state = state.apply(action)
    return views[:count]


def check_hint(view: View, full: bool = True) -> Hint:
    """The hint for ``view`` checked: its sentences hold in the position.  The hint is built
    as :func:`hint` builds it -- the Expert's evaluation (its search kept whole) explained;
    ``full`` also checks that :func:`hint` gives that same hint (a second search: the same
    view, the same hint) and that the Expert bot decides its best (a third).  The slow run
    checks every position's sentences and the two searches on a sample."""
    evaluation = None
    if view.hand is None:  # the face-down choice: Blind Nil or look
        found = hint(view)
        if full:
            assert found == hint(view), "the same view gives the same hint"
            expected = Bid(0, blind=True) if EXPERT.blind_nil(view) else None
            assert found.action == expected, "the hint is the Expert's decision"
    else:
        evaluation = evaluate(view)
        found = explain(view, evaluation.best, evaluation)
        if full:
            assert found == hint(view), "the same view gives the same hint"
            expert = EXPERT.bid(view) if view.phase is Phase.BIDDING else EXPERT.play(view)
            assert found.action == expert, "the hint is the Expert's decision"
    spot = Spot(view, found.action, evaluation)
    template = TEMPLATES[found.reason]
    params = template.check(spot)
    assert params is not None, f"{found.reason} shown where its predicate fails"
    if found.contrast in RULE_CLAUSES:  # a hint naming a lesson's rule links that lesson
        assert found.tip == found.params.get("rule", TEMPLATES[found.contrast].tip)
    elif found.why and not found.said:  # the measured sentence alone: its part's lesson
        assert found.tip in PART_TIPS[HINT_WHYS[found.why][0]]
    else:
        assert found.tip == template.tip
    if found.why:
        check_why(view, found, priced=full)
    else:
        assert found.said
    assert set(params) == set(template.params)
    assert all(found.params[k] == v for k, v in params.items())
    if found.contrast:
        clause = TEMPLATES[found.contrast]
        extra = clause.check(spot)
        assert extra is not None, f"{found.contrast} shown where its predicate fails"
        assert all(found.params[k] == v for k, v in extra.items())
    check_facts(view, found)
    return found


def check_why(view: View, found: Hint, priced: bool = True) -> None:
    """The measured main sentence: the figures it gives are the position's, and (where
    ``priced``) the action against the card or bid it names, priced again on the review's
    deals, is clearly better, and the part its key names is the largest."""
    assert found.action is not None
    part, names = HINT_WHYS[found.why]
    assert set(names) <= set(found.params), found
    params = found.params
    other = (parse_card(params["alt"]) if isinstance(found.action, Card)
             else parse_bid(params["alt_bid"]))
    if priced:
        price = confirmed_price(view, other, found.action)
        assert price.clear and price.parts.largest() == part, (found, price)
    seat = int(view.seat)
    team = seat & 1
    side = team if part.startswith("our-") else 1 - team
    bids = [view.bids[s] for s in (side, side + 2)]
    taken = view.tricks_won[team] + view.tricks_won[team + 2]
    if "contract" in params:
        assert int(params["contract"]) == sum(b.tricks for b in bids if b is not None), found
    if found.why == "coach.why.need-us":
        assert int(params["short"]) == int(params["contract"]) - taken > 0, found
    if found.why == "coach.why.bag-made":
        assert int(params["taken"]) == taken >= int(params["contract"]) > 0, found
    nil = {"coach.why.my-nil": seat, "coach.why.partner-nil": (seat + 2) & 3}.get(found.why)
    if found.why == "coach.why.their-nil":
        nil = "NESW".index(params["nil_seat"])
    if nil is not None:
        bid = view.bids[nil]
        assert bid is not None and bid.is_nil and view.tricks_won[nil] == 0, found


def check_facts(view: View, found: Hint) -> None:
    """A few facts checked again without the coach's own code (the plain trick rule)."""
    if found.reason == "coach.bid.spades":  # its count adds up to the bid
        params = found.params
        assert int(params["aces"]) + int(params["spades"]) - 3 == int(params["bid"]), found
    if found.reason in ("coach.bid.nil-clean", "coach.bid.nil"):  # a Nil said to be good
        assert int(found.params["chance"]) >= 5, found  # succeeds at least half the time
    if found.reason == "coach.bid.table":  # the table is nearly full with the bid
        assert int(found.params["others"]) + int(found.params["bid"]) >= 11, found
    if not isinstance(found.action, Card):
        return
    trick = [card for _, card in view.trick]
    wins = not trick or reference_winner([*trick, found.action]) == len(trick)
    winning = {"coach.play.win-last", "coach.play.win-cheaply", "coach.play.trump-last",
               "coach.play.trump-low", "coach.play.trump-high", "coach.play.third-hand-high",
               "coach.play.top-spade", "coach.play.master", "coach.play.cover-overtake"}
    losing = {"coach.play.cant-win", "coach.play.partner-wins", "coach.play.partner-wins-low",
              "coach.play.nil-under", "coach.play.nil-duck", "coach.play.attack-duck",
              "coach.play.bags-duck", "coach.play.second-hand-low", "coach.play.bags-shed"}
    if found.reason in winning or found.reason == "coach.play.attack-low":
        assert wins, found  # attack-low: the card is the one the Nil after it must beat
    if found.reason in losing:
        assert not wins, found
    if found.reason in ("coach.play.second-hand-low", "coach.play.partner-wins-low",
                        "coach.play.cant-win", "coach.play.attack-low"):  # "play low"
        assert not any(c.suit == found.action.suit and c.rank < found.action.rank
                       for c in view.legal_plays), found
        if found.action.suit == 3:  # a trump is not "your lowest card" beside a side card
            assert not any(c.suit != 3 and c.rank <= found.action.rank
                           for c in view.legal_plays), found
    if found.reason in ("coach.play.master", "coach.play.top-spade", "coach.play.pull-trumps"):
        # "no other player holds a higher card in the suit": none is unplayed and unheld
        held = view.hand.mask if view.hand is not None else 0
        assert not any(c.suit == found.action.suit and c.rank > found.action.rank
                       and view.rules.deck_mask >> c.id & 1
                       and not (view.played_mask | held) >> c.id & 1 for c in CARDS), found
    if found.reason in ("coach.play.discard-short", "coach.play.keep-spades"):
        assert view.hand is not None and any(c.suit == 3 for c in view.hand), found
        # "you cannot win this trick" only when no legal card would win it as it stands
        can_win = any(reference_winner([*trick, card]) == len(trick)
                      for card in view.legal_plays)
        assert can_win == (found.reason == "coach.play.keep-spades"), found
    if found.reason in ("coach.play.lead-spade", "coach.play.pull-trumps"):
        assert not trick and found.action.suit == 3 and found.action in view.legal_plays
    if found.reason in ("coach.play.nil-low", "coach.play.nil-lost"):
        # every legal card wins as the trick stands; "hope someone beats it" only when
        # someone plays after, "nobody plays after you" only when nobody does
        assert all(reference_winner([*trick, card]) == len(trick)
                   for card in view.legal_plays), found
        assert (len(trick) == 3) == (found.reason == "coach.play.nil-lost"), found
    if found.reason == "coach.play.cash-ace":
        assert found.action.rank == 14 and found.action.suit != 3


def run(count: int, seed: int, sample: int = 1) -> Counter[str]:
    """Check the hints of ``count`` positions, every ``sample``-th one in full."""
    seen: Counter[str] = Counter()
    for index, view in enumerate(positions(count, seed)):
        found = check_hint(view, full=index % sample == 0)
        seen[found.reason] += 1
        if found.why:
            seen[found.why] += 1
        if found.contrast:
            seen[found.contrast] += 1
    return seen


def test_a_hundred_positions_tell_the_truth() -> None:
    seen = run(100, seed=12)
    assert sum(seen.values()) >= 100


def test_play_low_is_said_of_the_lowest_card_only() -> None:
    """Second to play with two cards that cannot win, the higher one is not "played low"
    (the coach once said "play low with the jack" while holding the 9)."""
    normal = NormalBot()
    checked = 0
    for deal in range(1, 200):
        state = GameState.new(Rules(), deal=deal)
        while state.phase is not Phase.OVER and state.hand_index == 0 and checked < 3:
            seat = state.to_act
            assert seat is not None
            view = view_for(state, seat)
            led = view.trick[0][1].suit if view.trick else -1
            following = [c for c in view.legal_plays if c.suit == led]
            spot = Spot(view, following[-1], None) if len(following) > 1 else None
            if spot is not None and spot.pos == 1 and not any(spot.wins(c) for c in following):
                low = min(following, key=lambda c: c.rank)
                high = max(following, key=lambda c: c.rank)
                assert explain(view, high, None).reason != "coach.play.second-hand-low"
                if explain(view, low, None).reason == "coach.play.second-hand-low":
                    checked += 1
            action = normal.bid(view) if state.phase is Phase.BIDDING else normal.play(view)
            state = state.apply(action)
        if checked >= 3:
            break
    assert checked >= 3, "positions where the lowest card is second hand low"


def test_a_trump_is_not_the_lowest_card_beside_a_side_card_of_its_rank() -> None:
    # West has no diamond left: the 4♠ and the 4♥ are both legal, and the 4♥ is the
    # lower (the coach once said "play your lowest card, the 4♠" of a trump).
    state = position({"N": "5C 6C 7C", "E": "8C 9C TC", "S": "2H 3H", "W": "4H 4S 6H"},
                     leader="S", trick="QD", bids="3 3 3 nil")
    view = view_for(state, Seat.W)
    assert Spot(view, parse_card("4H"), None).lowest_legal(parse_card("4H"))
    assert not Spot(view, parse_card("4S"), None).lowest_legal(parse_card("4S"))
    assert explain(view, parse_card("4S"), None).reason not in (
        "coach.play.attack-low", "coach.play.cant-win")


@pytest.mark.slow
def test_thousands_of_positions_tell_the_truth_and_reach_every_template() -> None:
    seen = run(3000, seed=2026, sample=10)
    total = sum(n for key, n in seen.items()
                if not key.startswith(("coach.not.", "coach.why.")))
    neutral = seen[NEUTRAL] + seen[NEUTRAL_BID]
    print(f"neutral: {neutral}/{total} = {neutral / total:.1%}; reached: {sorted(seen.items())}")
    never = sorted(set(TEMPLATES) - set(seen) - RARE)
    assert not never, f"templates never reached: {never}"


@pytest.mark.parametrize(("trick", "reason"), [
    ("JD", "coach.play.keep-spades"),  # East leads: any of South's spades would win it
    ("JD AS", "coach.play.discard-short"),  # East trumped with the ace: nothing wins
])
def test_cannot_win_is_said_only_when_no_card_wins(trick: str, reason: str) -> None:
    # South has no diamond; the coach once said "You cannot win this trick: throw the 4♣"
    # to a South holding five spades, any of which would have won the jack led.
    leader = "E" if trick == "JD" else "N"
    hands = {"N": "2C 3C 4H 5H", "E": "6C 7C 8H 9H", "S": "4C TH KH 3S 5S",
             "W": "8C 9C JH QH AH"}
    if leader == "E":
        hands["N"] += " 6H"
    state = position(hands, leader=leader, trick=trick, broken=True)
    view = view_for(state, Seat.S)
    found = explain(view, parse_card("4C"), None)
    assert found.reason == reason
    check_facts(view, found)


def test_a_bid_is_explained_by_counts_that_add_up_to_it() -> None:
    # "Bid 3: you hold 4 spades (each one beyond the third is about a trick) and 1 side-suit
    # ace" once explained a 3 that its own count made 2; and "the others bid 6 in all, and
    # there are only 13" explained a 5 that the table did not constrain.
    for deal in range(1, 400):
        state = GameState.new(Rules(), deal=deal)
        seat = state.to_act
        assert seat is not None
        view = view_for(state, seat)
        assert view.hand is not None
        spades = sum(1 for c in view.hand if c.suit == 3)
        aces = sum(1 for c in view.hand if c.suit != 3 and c.rank == 14)
        if spades == 4 and aces == 1:
            break
    else:
        pytest.fail("no first bidder with four spades and one side ace")
    assert explain(view, Bid(2), None).reason == "coach.bid.spades"
    # the count of the hand is no reason: the number's is what the play-outs give it
    assert explain(view, Bid(3), None).reason == "coach.bid.best"
    ev = evaluate(view)
    assert isinstance(ev.best, Bid) and 1 < ev.best.tricks < 13
    found = TEMPLATES["coach.bid.count"].check(Spot(view, ev.best, ev))
    forecast = bid_forecast(view, ev.best)  # the seat's tricks in the search's play-outs
    mine = sum(tricks[int(view.seat)] for _, tricks in forecast) / len(forecast)
    assert found == {"bid": str(ev.best), "tricks": str(int(mine + 0.5))}
    for made, bid, said in (((4, 4, 3), 2, True), ((1, 2, 2), 4, False)):
        table = GameState.new(Rules(), deal=deal)
        for number in made:
            table = table.apply(Bid(number))
        assert table.to_act is not None
        fourth = view_for(table, table.to_act)
        assert (explain(fourth, Bid(bid), None).reason == "coach.bid.table") is said


@pytest.mark.parametrize(("last", "reason"), [
    (True, "coach.play.nil-lost"),  # South plays last: nobody can beat the 7♥ any more
    (False, "coach.play.nil-low"),  # East still plays after South: it may beat the 7♥
])
def test_a_nil_bidder_is_told_to_hope_only_when_someone_plays_after(last: bool,
                                                                    reason: str) -> None:
    # Daily deal 20261205, hand 7: South (Nil) played last to 4♥ J♦ 6♥ with 7♥ 9♥, and the
    # coach said "play the lowest, the 7♥, and hope someone beats it".
    hands = {"N": "2C 3C", "E": "8C TH", "S": "7H 9H 2D", "W": "9C QC"}
    if last:
        state = position(hands, leader="W", trick="4H JD 6H", bids="nil 3 nil 3")
    else:  # East leads the 6♥, West and North play after South
        hands["W"] += " KD"
        hands["N"] += " 4C"
        state = position(hands, leader="E", trick="6H", bids="nil 3 nil 3")
    view = view_for(state, Seat.S)
    found = explain(view, parse_card("7H"), None)
    assert found.reason == reason
    check_facts(view, found)


def test_a_nil_that_fails_more_often_than_not_is_said_to_be_a_long_shot() -> None:
    # "Bid Nil. No ace, no king and no spade above the 9 in your hand; in the app's
    # simulations Nil succeeds about 3 times in 10 here" argued for a Nil it then showed
    # to fail most of the time; such a Nil is bid for the score, and the hint says so.
    state = GameState.new(Rules(), deal=34)
    seat = state.to_act
    assert seat is not None
    behind = (100, 450) if int(seat) % 2 == 0 else (450, 100)
    view = replace(view_for(state, seat), scores=behind)
    found = check_hint(view)
    assert found.reason == "coach.bid.nil-long"
    assert int(found.params["chance"]) < 5
