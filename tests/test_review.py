"""The review after a hand (spades_core.review): the player's costly decisions, priced in
points by play-outs, the better action being the Expert's (the hint's)."""

from __future__ import annotations

from spades_core import BLIND_NIL, Bid, Card, GameState, Phase, Rules, Seat, parse_bid, parse_card
from spades_core.bots import bot_action, make_bot
from spades_core.cards import CardSet
from spades_core.record import to_dict
from spades_core.review import MAX_ITEMS, MIN_COST, hand_states, price, review_hand, review_to_dict
from spades_core.rules import trick_winner
from spades_core.views import view_for

# A deal made for the lesson "do not trump partner's winning ace": South bids Nil with
# twelve clubs and one small spade and no heart; North wins the first trick with the A♣
# and leads the A♥; South, void in hearts, may trump it with the 3♠ (and take a trick:
# the Nil fails) or throw a club.
RUFF_CARDS = {
    "N": "AC AH 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "E": "3H 5H 7H 9H JH KH 3D 5D 7D 9D JD KD AD",
    "S": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 3S",
    "W": "2S 2H 4H 6H 8H TH QH 2D 4D 6D 8D TD QD",
}
RUFF_BIDS = ("nil", "2", "9", "1")  # in bidding order: S, W, N, E (East deals first)
RUFF_BEFORE = ("2C", "2D", "AC", "3D", "AH", "3H")  # then South is to play


def lowest(state: GameState) -> Card:
    """The scripted players' card: the lowest legal one (no bot: the deal stays fixed)."""
    return min(state.legal_plays(), key=lambda card: card.id)


def ruff_start(rules: Rules | None = None) -> GameState:
    """The ruff deal up to South's decision on North's A♥."""
    hands = [CardSet.of(RUFF_CARDS[seat.name].split()) for seat in Seat]
    state = GameState.new(rules or Rules(), cards=hands)
    for token in RUFF_BIDS:
        state = state.apply(parse_bid(token))
    for text in RUFF_BEFORE:
        state = state.apply(parse_card(text))
    return state


def ruff_game(rules: Rules | None = None) -> GameState:
    """The ruff deal played to the end of the hand: South trumps the A♥ with the 3♠,
    then everybody plays their lowest legal card."""
    state = ruff_start(rules)
    assert state.to_act == Seat.S
    state = state.apply(parse_card("3S"))
    while not state.past_hands:
        state = state.apply(lowest(state))
    return state


def test_the_ruff_position_is_what_the_test_means() -> None:
    state = ruff_start()
    view = view_for(state, Seat.S)
    seat, winning = view.trick[trick_winner([card.id for _, card in view.trick])]
    assert (seat, str(winning)) == (Seat.N, "AH")
    assert parse_card("3S") in view.legal_plays
    assert all(card.suit != winning.suit for card in view.legal_plays)


def test_trumping_partners_winning_ace_is_flagged_with_the_better_card() -> None:
    game = ruff_game()
    review = review_hand(game, 0, Seat.S)
    ruffs = [item for item in review.items if item.played == parse_card("3S")]
    assert len(ruffs) == 1, review.items
    item = ruffs[0]
    assert isinstance(item.better, Card) and item.better.suit.name == "CLUBS"
    assert item.trick_number == 2
    assert [(who, str(card)) for who, card in item.trick] == [(Seat.N, "AH"), (Seat.E, "3H")]
    assert parse_card("3S") in item.held and len(item.held) == 12
    assert item.cost >= MIN_COST
    # South's Nil is lost by the ruff: the Nil's part, its sentence, the Nil lesson
    assert item.parts.largest() == "our-nil" and item.parts.total == item.cost
    assert item.reason == "review.why.my-nil-won" and item.tip == "nil-hand"
    assert item.params.get("alt") == "3S"  # the card played
    data = review_to_dict(review)
    assert data["items"][review.items.index(item)]["better"] == str(item.better)


def test_the_review_is_deterministic() -> None:
    game = ruff_game()
    assert review_hand(game, 0) == review_hand(game, 0)


def test_costs_are_sorted_bounded_and_at_least_the_threshold() -> None:
    normal = make_bot("normal")
    beginner = make_bot("beginner")
    state = GameState.new(deal=20261201)
    while len(state.past_hands) < 2:
        bot = beginner if state.to_act == Seat.S else normal
        state = state.apply(bot_action(bot, state))
    for hand in (0, 1):
        review = review_hand(state, hand)
        costs = [item.cost for item in review.items]
        assert len(costs) <= MAX_ITEMS
        assert costs == sorted(costs, reverse=True)
        assert all(cost >= MIN_COST for cost in costs)
        assert review.decisions >= len(costs)
        for item in review.items:
            assert item.played != item.better
            assert item.hand_index == hand


def test_the_experts_own_hand_has_no_costly_decision() -> None:
    expert = make_bot("expert")
    normal = make_bot("normal")
    state = GameState.new(deal=20261202)
    while not state.past_hands:
        bot = expert if state.to_act == Seat.S else normal
        state = state.apply(bot_action(bot, state))
    review = review_hand(state, 0)
    assert review.decisions > 0
    assert review.items == ()


def test_hand_states_replay_the_hand() -> None:
    game = ruff_game()
    states = hand_states(game, 0)
    assert len(states) == 56
    assert states[0].phase is Phase.BIDDING and not states[0].bid_history
    result = game.past_hands[0]
    actions = (*result.bid_history, *result.plays)
    assert states[-1].apply(actions[-1]).past_hands == game.past_hands
    # a game whose record has no deal number (the cards given) replays too
    assert to_dict(game).get("deal") is None


def test_price_of_an_action_against_itself_is_zero() -> None:
    view = view_for(ruff_start(), Seat.S)
    card = parse_card("5C")
    same = price(view, card, card)
    assert (same.cost, same.tricks, same.bags, same.theirs) == (0, 0, 0, 0)
    ruff = price(view, parse_card("3S"), card)
    assert ruff.cost >= MIN_COST  # the Nil is lost when South takes the A♥


def test_blind_nil_is_not_reviewed() -> None:
    state = GameState.new(deal=7)
    assert state.to_act == Seat.S
    state = state.apply(BLIND_NIL)
    normal = make_bot("normal")
    while not state.past_hands:
        state = state.apply(bot_action(normal, state) if state.to_act != Seat.S
                            else lowest(state) if state.phase is Phase.PLAYING else Bid(1))
    review = review_hand(state, 0)
    assert all(not isinstance(item.played, Bid) for item in review.items)


def test_the_terminal_shows_the_review_in_both_languages() -> None:
    from spades_core.terminal import Terminal, Texts

    for lang, title, better in (("en", "Where did the points go?", "better: 3♣"),
                                ("fr", "Où sont passés les points\u00a0?", "mieux\u00a0: 3♣")):
        out: list[str] = []
        terminal = Terminal(ruff_game(), make_bot("normal"), Texts(lang), input, out.append)
        terminal.show_review(0)
        text = "\n".join(out)
        assert title in text and better in text and "3♠" in text
        assert "review." not in text and "{" not in text  # every key found, every mark resolved


def test_the_terminal_says_when_no_decision_was_costly() -> None:
    from spades_core.terminal import Terminal, Texts

    expert, normal = make_bot("expert"), make_bot("normal")
    state = GameState.new(deal=20261202)
    while not state.past_hands:
        state = state.apply(bot_action(expert if state.to_act == Seat.S else normal, state))
    out: list[str] = []
    Terminal(state, normal, Texts("en"), input, out.append).show_review(0)
    assert any("No costly decision this hand." in line for line in out)


def test_amounts_in_tenths_take_the_right_plural() -> None:
    from locales import names

    assert (names.tenths(26, "en"), names.tenths(26, "fr"), names.tenths(30, "en")) == (
        "2.6", "2,6", "3")
    assert names.tenths_count(10, "en") == "1" and names.tenths_count(15, "en") == "2"
    assert names.tenths_count(15, "fr") == "1" and names.tenths_count(20, "fr") == "2"


# South holds a Nil hand (nothing above a five, one small spade) and bids 2.
NIL_CARDS = {
    "N": "AC KC QC JC AH KH QH AS KS QS JS TS 9S",
    "E": "TC 9C 8C 7C JH TH 9H 8H AD KD QD JD 8S",
    "S": "2C 3C 4C 2D 3D 4D 2H 3H 4H 5H 5C 5D 2S",
    "W": "6C 6D 7D 8D 9D TD 6H 7H 3S 4S 5S 6S 7S",
}


def test_a_missed_nil_is_flagged_for_its_bonus_not_for_tricks() -> None:
    """The Nil's worth is its bonus: "the team would take more tricks" may be true of the
    play-outs but is not why Nil was better; the item's largest part is the Nil's."""
    hands = [CardSet.of(NIL_CARDS[seat.name].split()) for seat in Seat]
    state = GameState.new(Rules(), cards=hands)
    for token in ("2", "3", "7", "3"):  # S, W, N, E
        state = state.apply(parse_bid(token))
    while not state.past_hands:
        state = state.apply(lowest(state))
    review = review_hand(state, 0, Seat.S)
    bids = [item for item in review.items if isinstance(item.played, Bid)]
    assert len(bids) == 1, review.items
    item = bids[0]
    assert item.played == Bid(2) and item.better.is_nil
    assert item.reason == "review.why.bid-nil" and item.tip == "nil-hand"
    assert item.parts.largest() == "our-nil"
    assert price(view_for(hand_states(state, 0)[0], Seat.S), Bid(2), item.better).tricks > 0
