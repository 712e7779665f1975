"""The models the page draws, built from views without a browser (ui/shared/models.py)."""

from __future__ import annotations

import dataclasses

import pytest

from spades_core import GameState, Phase, Rules, Seat, parse_bid
from spades_core.views import view_for
from ui.shared import cardface, i18n, models
from ui.shared.models import UiState, table_model

S = Seat.S


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")
    i18n.load()


def _to_south(state: GameState) -> GameState:
    """Let every other seat make its first legal move until South is to act."""
    while state.to_act != S:
        if state.phase is Phase.BIDDING:
            state = state.apply(parse_bid("3"))
        else:
            state = state.apply(state.legal_plays()[0])
    return state


def _bidding() -> GameState:
    return _to_south(GameState.new(Rules(blind_nil=False), deal=7))


def _playing() -> GameState:
    state = _bidding().apply(parse_bid("3"))
    while state.phase is Phase.BIDDING:
        state = state.apply(parse_bid("3"))
    return _to_south(state)


def test_the_model_is_frozen_plain_data() -> None:
    model = table_model(view_for(_bidding(), S), UiState(waiting=True, deal=7))
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.panel = ""  # type: ignore[misc]
    assert model.deal_label == "Deal 7"


def test_bidding_shows_the_panel_and_the_cards_face_up_but_not_playable() -> None:
    state = _bidding()
    model = table_model(view_for(state, S), UiState(waiting=True, deal=7))
    assert model.panel == "bid"
    assert model.turn_mine and model.turn == i18n.t("turn.you.bid")
    assert len(model.hand) == 13 and all(card.face_up for card in model.hand)
    assert {card.action for card in model.hand} == {"play"}
    assert all(card.arg == card.text for card in model.hand)
    assert not any("playable" in card.classes or "illegal" in card.classes
                   for card in model.hand)
    assert [s.active for s in model.seats] == [seat == S for seat in Seat]
    # hand order: spades, hearts, clubs, diamonds, high to low
    shown = [card.text for card in model.hand]
    assert shown == [str(c) for c in models.hand_order(state.hand_of(S))]


def test_not_waiting_no_panel() -> None:
    model = table_model(view_for(_bidding(), S), UiState(waiting=False))
    assert model.panel == "" and not model.hint_enabled


def test_claim_is_offered_in_solo_play_when_south_is_to_play() -> None:
    playing, bidding = view_for(_playing(), S), view_for(_bidding(), S)
    model = table_model(playing, UiState(waiting=True, claim_on=True))
    assert model.claim_visible and model.claim_enabled
    for view, ui in ((playing, UiState(waiting=False, claim_on=True)),  # the bots play
                     (bidding, UiState(waiting=True, claim_on=True))):  # nothing to claim
        model = table_model(view, ui)
        assert model.claim_visible and not model.claim_enabled
    model = table_model(playing, UiState(waiting=True))  # a room's table: no claim
    assert not model.claim_visible and not model.claim_enabled


def test_face_down_cards_are_backs_and_blind_nil_is_offered() -> None:
    state = _to_south(GameState.new(Rules(blind_nil=True), deal=7))
    view = view_for(state, S, hand_seen=False)
    model = table_model(view, UiState(waiting=True, face_down=True))
    assert model.hand_face_down and len(model.hand) == 13
    assert not any(card.text for card in model.hand)  # no card of a face-down hand
    assert model.panel == "blind"
    armed = table_model(view, UiState(waiting=True, face_down=True, blind_armed=True))
    assert armed.panel == "blind-confirm"


def test_playing_marks_legal_illegal_and_hinted_cards() -> None:
    state = _playing()
    legal = {str(c) for c in state.legal_plays()}
    hinted = sorted(legal)[0]
    model = table_model(view_for(state, S), UiState(waiting=True, hinted=hinted))
    assert model.panel == ""
    for card in model.hand:
        assert ("playable" in card.classes) == (card.text in legal)
        assert ("illegal" in card.classes) == (card.text not in legal)
        assert ("hinted" in card.classes) == (card.text == hinted)
        if card.text not in legal:
            assert card.label.startswith(i18n.card_name(card.text))
    played = [slot for slot in model.trick if slot.card is not None]
    assert len(played) == len(state.trick)


def test_a_finished_trick_shown_with_its_winner_and_nobody_to_act() -> None:
    state = _playing()
    trick = tuple((seat, state.hand_of(seat)[0]) for seat in Seat)
    model = table_model(view_for(state, S),
                        UiState(waiting=False, shown_trick=trick, trick_winner=Seat.E))
    winners = [slot.seat for slot in model.trick if slot.winner]
    assert winners == ["E"]
    east = next(slot for slot in model.trick if slot.seat == "E")
    assert east.card is not None and "winner" in east.card.classes
    assert not any(seat.active for seat in model.seats)


def test_a_pending_score_sheet_stops_the_turns() -> None:
    state = GameState.new(Rules(blind_nil=False), deal=3)
    while not state.past_hands:
        state = state.apply(state.legal_bids()[2] if state.phase is Phase.BIDDING
                            else state.legal_plays()[0])
    model = table_model(view_for(state, S), UiState(sheets_seen=0))
    assert model.turn == i18n.t("turn.hand-over")
    assert not any(seat.active for seat in model.seats)
    sheet = models.sheet_model(view_for(state, S), pending=True)
    assert sheet.pending and len(sheet.hands) == 1
    assert sheet.seats[2] == i18n.seat_name("S") and sheet.teams[0] == i18n.t("team.NS")
    # in a room the reader may sit anywhere: the sheet names the seats as the table does
    # (it once said "You 4" of South's bot to a player sitting North)
    names = {"N": "Zoé (you)", "E": "Bob", "S": "Bot (South)", "W": "Dee"}
    room = models.sheet_model(view_for(state, Seat.N), pending=False, names=names,
                              teams=("North & South", "East & West"))
    assert room.seats == ("Zoé (you)", "Bob", "Bot (South)", "Dee")
    assert room.teams == ("North & South", "East & West")


def test_menu_and_last_trick_models() -> None:
    menu = models.menu_model(False, 20261129, {"daily": {}})
    assert menu.resume and "2026-11-29" in menu.daily_line
    assert not models.menu_model(None, 20261129, {"daily": {}}).resume
    state = _playing()
    trick = tuple((seat, state.hand_of(seat)[0]) for seat in Seat)
    last = models.last_trick_model(trick, Seat.N)
    assert last.winner == "North" and len(last.cards) == 4
    assert models.last_trick_model(None, None).cards == ()


def test_card_faces_are_markup_of_the_card_alone() -> None:
    queen = cardface.face_markup("QS")
    assert ">Q</text>" in queen and "suit-S" in queen
    assert ">10</text>" in cardface.face_markup("TH")
    with pytest.raises(ValueError):
        cardface.face_markup("<b>")
    assert cardface.suit_letter("BJ") == "S" and cardface.suit_letter("2D") == "D"
    i18n.set_language("fr")
    try:
        dame = cardface.face_markup("QS", i18n.rank_text(12))
        assert ">D</text>" in dame and ">Q</text>" not in dame
    finally:
        i18n.set_language("en")
    # only an index (one or two letters or digits) reaches the markup
    assert "<b>" not in cardface.face_markup("QS", "<b>")



# --- the seat plates and the deal (issue 11, item 3) ---------------------------------------


def test_the_plates_count_the_cards_held_and_show_taken_over_bid() -> None:
    state = _playing()
    played = {seat: sum(1 for s, _ in state.plays if s == seat) for seat in Seat}
    model = table_model(view_for(state, S), UiState(waiting=True, deal=7))
    bids = view_for(state, S).bids  # by seat
    for seat_model in model.seats:
        seat = Seat[seat_model.seat]
        assert seat_model.cards == 13 - played[seat]
        bid = bids[int(seat)]
        assert bid is not None
        taken = state.tricks_won[int(seat)]
        assert seat_model.tricks_text == i18n.t("seat.tricks", tricks=f"{taken}/{bid.tricks}")
        assert seat_model.dealer == (seat == state.dealer)
    assert model.dealer == state.dealer.name


def test_before_a_bid_the_tricks_chip_has_no_contract_and_the_hand_is_fresh() -> None:
    fresh = GameState.new(Rules(blind_nil=False), deal=7)
    model = table_model(view_for(fresh, S), UiState(deal=7))
    assert [s.tricks_text for s in model.seats] == [i18n.t("seat.tricks", tricks=0)] * 4
    assert [s.cards for s in model.seats] == [13] * 4
    assert model.deal_motion and model.deal_key == f"7:{fresh.hand_index}"
    # the fastest speed shows no deal motion; nor does a hand already under way
    assert not table_model(view_for(fresh, S), UiState(deal=7, speed="instant")).deal_motion
    started = table_model(view_for(fresh.apply(parse_bid("3")), S), UiState(deal=7))
    assert not started.deal_motion and started.deal_key == model.deal_key


def test_the_game_over_holds_no_cards() -> None:
    state = GameState.new(Rules(blind_nil=False, target=50), deal=3)
    while state.phase is not Phase.OVER:
        state = state.apply(parse_bid("1") if state.phase is Phase.BIDDING
                            else state.legal_plays()[0])
    model = table_model(view_for(state, S), UiState(deal=3))
    assert [s.cards for s in model.seats] == [0] * 4 and model.hand == ()


def test_the_avatars_differ_by_seat_and_index_html_paints_the_same_ones() -> None:
    from pathlib import Path

    from ui.table.avatar import avatar_markup

    html = (Path(__file__).resolve().parent.parent / "index.html").read_text(encoding="utf-8")
    pictures = {seat: avatar_markup(seat) for seat in "NESW"}
    assert len(set(pictures.values())) == 4
    for seat, svg in pictures.items():
        assert svg.startswith("<svg") and svg.endswith("</svg>")
        assert 'aria-hidden="true"' in svg
        # drawn by the project: no image, no link, no script, no style attribute (CSP), no id
        for banned in ("<image", "href", "<script", "style=", " id=", "url("):
            assert banned not in svg, (seat, banned)
        assert html.count(svg) == 1, seat  # the plate painted before Python is the same


def test_last_trick_shows_the_previous_hands_until_a_trick_of_the_new_one_is_complete() -> None:
    """The Last trick button, solo and in a room alike (models.shown_last_trick): in a new
    hand, the previous hand's last trick until the new hand's first trick is complete."""
    state = _playing()
    while not state.past_hands:  # to the end of the first hand
        state = state.apply(state.legal_plays()[0])
    ended = state.past_hands[0]
    assert len(ended.last_trick) == 4
    for seat in Seat:  # whoever reads, before any card of the new hand, and while bidding
        trick, previous = models.shown_last_trick(view_for(state, seat))
        assert trick == ended.last_trick and previous
    while state.phase is Phase.BIDDING:
        state = state.apply(parse_bid("3"))
    for count in range(4):
        trick, previous = models.shown_last_trick(view_for(state, S))
        assert trick == ended.last_trick and previous, count
        state = state.apply(state.legal_plays()[0])
    trick, previous = models.shown_last_trick(view_for(state, S))  # the first trick is done
    assert trick == state.last_trick and len(trick) == 4 and not previous
    model = models.last_trick_model(trick, trick[0][0], previous=False,
                                    names={"N": "Ann", "E": "Bob"})
    assert {name for name, _ in model.cards} == {"Ann", "Bob", "You", "West"}
    assert not model.previous
    fresh = GameState.new(Rules(blind_nil=False), deal=7)
    assert models.shown_last_trick(view_for(fresh, S)) == ((), False)
    assert models.last_trick_model((), None, previous=True) == models.LastTrickModel((), None)


def _lost_below_the_floor() -> GameState:
    """A game over: North and South bid 6 each every hand and fall below the floor."""
    state = GameState.new(Rules(blind_nil=False), deal=3)
    while state.phase is not Phase.OVER:
        if state.phase is Phase.BIDDING:
            state = state.apply(parse_bid("6" if state.to_act in (Seat.N, S) else "3"))
        else:
            state = state.apply(state.legal_plays()[0])
    return state


def test_after_the_game_the_plates_keep_the_final_hands_bids_and_tricks() -> None:
    """The game over showed every plate at "Bid – · Tricks 0", as if a new hand were dealt."""
    state = _lost_below_the_floor()
    final = state.past_hands[-1]
    model = table_model(view_for(state, S), UiState(deal=3, sheets_seen=len(state.past_hands)))
    assert model.over and model.turn == i18n.t("turn.game-over")
    bids = final.bids_by_seat
    for seat in Seat:
        plate = model.seats[int(seat)]
        bid = i18n.bid_text(str(bids[int(seat)]))
        assert plate.bid == i18n.t("seat.bid", bid=bid), plate
        assert plate.tricks == final.tricks[int(seat)]
        assert plate.tricks_text == i18n.t(
            "seat.tricks", tricks=f"{final.tricks[int(seat)]}/{bids[int(seat)].tricks}")
        assert plate.label == i18n.t("seat.label", seat=plate.name, bid=bid,
                                     tricks=final.tricks[int(seat)])
        assert not plate.active and plate.turn == ""
        assert plate.dealer == (seat == final.dealer)
    assert sum(final.tricks) == 13


def test_after_the_game_last_trick_is_the_final_trick_with_no_previous_hand_line() -> None:
    """ "The last trick of the previous hand: none has been completed yet in this one."
    was said after the game's end, when no hand follows."""
    state = _lost_below_the_floor()
    final = state.past_hands[-1]
    assert len(final.last_trick) == 4
    for seen in (None, final.last_trick):  # after a reload, or as seen being played
        trick, previous = models.shown_last_trick(view_for(state, S), seen)
        assert trick == final.last_trick and not previous
    model = models.last_trick_model(final.last_trick, final.last_trick[0][0], previous=False)
    assert len(model.cards) == 4 and not model.previous


def test_last_trick_seen_being_played_is_the_previous_hands_until_one_is_complete() -> None:
    """The trick the page saw completed (``seen``) stands for the previous hand's in a new
    hand, and this hand's own once one of its tricks is complete."""
    state = _playing()
    while not state.past_hands:
        state = state.apply(state.legal_plays()[0])
    seen = state.past_hands[0].last_trick
    assert models.shown_last_trick(view_for(state, S), seen) == (seen, True)
    while state.phase is Phase.BIDDING:
        state = state.apply(parse_bid("3"))
    for _ in range(4):
        state = state.apply(state.legal_plays()[0])
    assert models.shown_last_trick(view_for(state, S), seen) == (state.last_trick, False)


@pytest.mark.parametrize(("language", "bidding", "playing"),
                         [("en", "to bid", "to play"), ("fr", "à annoncer", "à jouer")])
def test_the_seat_to_act_is_to_bid_while_bidding_and_to_play_after(
        language: str, bidding: str, playing: str) -> None:
    """South's plate said "▸ to play" beside "Your turn: choose your bid."."""
    try:
        i18n.set_language(language)
        i18n.load()
        bid = table_model(view_for(_bidding(), S), UiState(waiting=True, deal=7))
        assert [s.turn for s in bid.seats] == [bidding if s.seat == "S" else "" for s in bid.seats]
        west = _bidding().apply(parse_bid("3"))  # South has bid: West is bidding
        assert west.to_act == Seat.W
        other = table_model(view_for(west, S), UiState(deal=7))
        assert [s.turn for s in other.seats if s.active] == [bidding]
        play = table_model(view_for(_playing(), S), UiState(waiting=True, deal=7))
        assert [s.turn for s in play.seats if s.active] == [playing]
    finally:
        i18n.set_language("en")


def test_the_menus_daily_line_writes_a_negative_score_with_the_minus_sign() -> None:
    stats = {"daily": {"20261205": {"won": False, "ns": -72, "ew": 212}}}
    line = models.menu_model(False, 20261205, stats).daily_line
    assert "\u221272 to 212" in line and "-72" not in line


def test_the_daily_line_says_when_it_is_the_first_game_s_result() -> None:
    kept = {"won": False, "ns": 34, "ew": 228}
    assert models.daily_line(20261205, None) is None
    assert models.daily_line(20261205, kept, (34, 228)) == (
        "Daily deal 2026-12-05: lost, 34 to 228.")
    # a replay that ended otherwise: the kept result is the first game's, and said so
    assert models.daily_line(20261205, kept, (-29, 267)) == (
        "Your first game of the daily deal 2026-12-05, the one that counts: lost, 34 to 228.")
    assert "−20" in (models.daily_line(20261205, {"won": False, "ns": -20, "ew": 510}) or "")
