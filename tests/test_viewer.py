"""The hand viewer's model (ui/table/viewer.py): a finished hand's frames, built from the engine's
record of the hand without a browser, and the coach's verdicts on the right decisions."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from spades_core import GameState, Seat
from spades_core.review import hand_states, review_hand, review_to_dict
from spades_core.views import view_for
from tests.test_review import RUFF_BIDS, RUFF_CARDS, ruff_game
from ui.shared import i18n, models
from ui.table import viewer
from ui.table.viewer import Reviews, frame_for_key, parse_target, verdict_frames, viewer_model

S = Seat.S


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")
    i18n.load()


@pytest.fixture(scope="module")
def game() -> GameState:
    """The review's ruff deal, played to the end of its first hand: South (Nil, twelve
    clubs) trumps North's A♥ with the 3♠ in trick 2."""
    return ruff_game()


@pytest.fixture(scope="module")
def review(game: GameState) -> dict[str, Any]:
    return review_to_dict(review_hand(game, 0, S))


def _hand(game: GameState) -> Any:
    return view_for(game, S).past_hands[0]


def _texts(cards: tuple[models.CardModel, ...]) -> list[str]:
    return [card.text for card in cards]


def test_the_model_is_frozen_plain_data(game: GameState) -> None:
    model = viewer_model(_hand(game), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.frame = 3  # type: ignore[misc]
    assert model.frames == 14 and model.title == "Hand 1, trick by trick"


def test_the_bids_frame_shows_every_hand_as_dealt_and_the_bids_in_order(game: GameState) -> None:
    model = viewer_model(_hand(game), 0)
    assert model.step == "The bids" and not model.has_prev and model.has_next
    assert model.plays == () and model.winner == ""
    by_seat = {hand.seat: hand for hand in model.hands}
    for seat in Seat:
        dealt = RUFF_CARDS[seat.name].split()
        shown = _texts(by_seat[seat.name].cards)
        assert sorted(shown) == sorted(dealt)  # all four hands, face up
        assert all(card.face_up for card in by_seat[seat.name].cards)
        # in the table's order: spades, hearts, clubs, diamonds, high to low
        assert shown == [str(c) for c in models.hand_order(game.past_hands[0].dealt(seat))]
    # East deals the first hand: South bids first, then West, North, East
    assert [bid.seat for bid in model.bids] == ["S", "W", "N", "E"]
    assert [bid.bid for bid in model.bids] == [i18n.bid_text(token) for token in RUFF_BIDS]
    assert by_seat["S"].place == "bottom" and by_seat["N"].place == "top"
    assert by_seat["E"].dealer and not by_seat["S"].dealer


def test_each_trick_frame_holds_the_hands_before_it_the_trick_and_its_winner(
        game: GameState) -> None:
    """Checked against the engine's own replay of the hand (review.hand_states): the
    hands before each trick, the trick's plays and the tricks taken after it."""
    hand = _hand(game)
    states = hand_states(game, 0)
    after = [*states[1:], game]  # the state after each action
    for trick in range(1, 14):
        model = viewer_model(hand, trick)
        before = states[4 + 4 * (trick - 1)]  # four bids, then four plays a trick
        assert before.trick == ()
        assert model.step == f"Trick {trick} of 13"
        for shown in model.hands:
            assert _texts(shown.cards) == [
                str(c) for c in models.hand_order(before.hand_of(Seat[shown.seat]))]
        done = after[4 + 4 * trick - 1]
        played = [(p.seat, p.card.text) for p in model.plays]
        expected = [(seat.name, str(card)) for seat, card in
                    game.past_hands[0].seated_plays()[4 * (trick - 1):4 * trick]]
        assert played == expected
        # the trick's winner leads the next trick (or took the last one)
        winners = [p for p in model.plays if p.winner]
        assert len(winners) == 1
        if trick < 13:
            assert done.to_act == Seat[winners[0].seat]
        assert model.winner in (i18n.t("say.trick", seat=winners[0].name),
                                i18n.t("say.trick.you"))
        # each seat's card of this trick is marked in its hand; the winner's lit too
        for shown in model.hands:
            now = [c for c in shown.cards if "vw-now" in c.classes]
            assert _texts(tuple(now)) == [card for seat, card in played if seat == shown.seat]
            assert ("winner" in now[0].classes) == (shown.seat == winners[0].seat)
        # the tricks taken, once this trick is over
        taken = {s.seat: s.tricks for s in model.hands}
        bids = game.past_hands[0].bids_by_seat
        for seat in Seat:
            expected_taken = done.tricks_won[int(seat)] if trick < 13 else \
                game.past_hands[0].tricks[int(seat)]
            assert taken[seat.name] == f"Tricks {expected_taken}/{bids[int(seat)].tricks}"
    last = viewer_model(hand, 13)
    assert last.has_prev and not last.has_next


def test_the_frame_is_kept_within_the_hand(game: GameState) -> None:
    assert viewer_model(_hand(game), 99).frame == 13
    assert viewer_model(_hand(game), -4).frame == 0


def test_the_verdict_is_on_the_decision_the_review_flagged(
        game: GameState, review: dict[str, Any]) -> None:
    hand = _hand(game)
    items = review["items"]
    ruff = next(item for item in items if item["played"] == "3S")
    assert ruff["trick_number"] == 2
    for frame in range(14):
        model = viewer_model(hand, frame, review)
        flagged = {viewer.review_frame(item) for item in items}
        assert (model.verdict is not None) == (frame in flagged), frame
    model = viewer_model(hand, 2, review)
    verdict = model.verdict
    assert verdict is not None and verdict.kind == "card"
    assert (verdict.played, verdict.better) == ("3S", ruff["better"])
    # the review panel's own sentence (the same i18n function) and heading
    assert verdict.sentence == i18n.review_sentence(ruff)
    for key in (ruff["reason"], ruff.get("support"), ruff["contrast"]):  # every clause said
        if key:
            assert i18n.hint_text(key, ruff["params"]) in verdict.sentence, key
    assert verdict.head == i18n.hint_text("review.card", {
        "trick": "2", "played": i18n.card_short("3S"),
        "better": i18n.card_short(ruff["better"])})
    assert verdict.played_card is not None and verdict.played_card.text == "3S"
    assert verdict.better_card is not None and verdict.better_card.text == ruff["better"]
    assert verdict.cost.startswith("It cost about ")
    # the better card is lit in South's hand as it was then; nowhere else
    south = next(h for h in model.hands if h.seat == "S")
    assert [c.text for c in south.cards if "vw-better" in c.classes] == [ruff["better"]]
    assert not any("vw-better" in c.classes for h in model.hands if h.seat != "S"
                   for c in h.cards)
    assert (2, "Trick 2") in model.flagged
    assert model.review_state == "done"


def test_an_item_that_does_not_match_the_hand_is_left_out(
        game: GameState, review: dict[str, Any]) -> None:
    hand = _hand(game)
    ruff = next(item for item in review["items"] if item["played"] == "3S")
    bid = {**ruff, "kind": "bid", "trick_number": 0, "played": "nil", "better": "2"}
    wrong_bid = {**bid, "played": "4"}  # South bid Nil, not 4
    other_trick = {**ruff, "trick_number": 3}  # South did not play the 3♠ in trick 3
    other_hand = {**ruff, "hand": 1}
    data = {"items": [bid, wrong_bid, other_trick, other_hand, ruff]}
    found = verdict_frames(hand, data)
    assert sorted(found) == [0, 2]
    model = viewer_model(hand, 0, data)
    assert model.verdict is not None and model.verdict.kind == "bid"
    assert model.verdict.played_card is None
    assert model.verdict.head == i18n.hint_text("review.bid", {
        "played": i18n.bid_text("nil"), "better": "2"})
    assert [b.flagged for b in model.bids] == [b.seat == "S" for b in model.bids]
    assert [label for _, label in model.flagged] == ["Your bid", "Trick 2"]
    assert verdict_frames(hand, {"items": [], "failed": True}) == {}


def test_the_review_note_says_what_is_known(game: GameState, review: dict[str, Any]) -> None:
    hand = _hand(game)
    assert viewer_model(hand, 0, None, computing=True).review_state == "computing"
    missing = viewer_model(hand, 0)
    assert missing.review_state == "none" and missing.verdict is None
    assert missing.review_note == i18n.t("viewer.review.missing")
    empty = viewer_model(hand, 2, {"items": []})
    assert empty.review_note == i18n.t("review.none") and empty.verdict is None
    failed = viewer_model(hand, 2, {"items": [], "failed": True})
    assert failed.review_state == "none"
    # a board's game (not reviewed): its players by name, and the note says why no verdict
    names = {"N": "Bot (North)", "E": "Bot (East)", "S": "Zoé", "W": "Bot (West)"}
    board = viewer_model(hand, 2, None, names=names, reviewed=False)
    assert board.review_note == i18n.t("viewer.review.record") and board.verdict is None
    assert [h.name for h in board.hands] == ["Bot (North)", "Bot (East)", "Zoé", "Bot (West)"]


def test_french_names_and_texts(game: GameState, review: dict[str, Any]) -> None:
    i18n.set_language("fr")
    i18n.load()
    model = viewer_model(_hand(game), 2, review)
    assert model.title == "Donne 1, pli par pli" and model.step == "Pli 2 sur 13"
    assert {h.name for h in model.hands} == {"Nord", "Est", "Vous", "Ouest"}
    assert model.verdict is not None and "\u00a0:" in model.verdict.played_label


def test_the_reviews_are_kept_by_hand(game: GameState, review: dict[str, Any]) -> None:
    hand = _hand(game)
    key = viewer.hand_key(hand)
    kept = Reviews(limit=2)
    assert kept.get(key) == (None, False)
    kept.start(key)
    assert kept.get(key) == (None, True)
    kept.put(key, review)
    assert kept.get(key) == (review, False)
    kept.put("b", {})
    kept.put("c", {})
    assert kept.get(key) == (None, False)  # the oldest goes first
    # the same hand index of another game is another key
    other = GameState.new(game.rules, deal=5)
    while not other.past_hands:
        other = other.apply(other.legal_plays()[0] if other.legal_plays()
                            else other.legal_bids()[3])
    assert viewer.hand_key(other.past_hands[0]) != key


def test_the_arrow_keys_step_and_a_target_is_checked(game: GameState) -> None:
    assert frame_for_key("ArrowRight", 0, 14) == 1
    assert frame_for_key("ArrowLeft", 0, 14) is None
    assert frame_for_key("ArrowLeft", 5, 14) == 4
    assert frame_for_key("ArrowRight", 13, 14) is None
    assert frame_for_key("End", 2, 14) == 13 and frame_for_key("Home", 2, 14) == 0
    assert frame_for_key("a", 2, 14) is None
    hands = view_for(game, S).past_hands
    assert parse_target("0", hands) == (0, 0)
    assert parse_target("0:5", hands) == (0, 5)
    assert parse_target("0:40", hands) == (0, 13)
    assert parse_target("1", hands) is None
    assert parse_target("x", hands) is None
    assert parse_target("-1", hands) is None
