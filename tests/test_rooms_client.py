"""The rooms adapter (ui/rooms/rooms_client.py): the server's JSON view back into the View the
table's models are built from, the room, the stored data, nicknames and codes."""

from __future__ import annotations

import random

import pytest

from spades_core import GameState, Phase, Rules, Seat
from spades_core.views import view_for
from spades_server.protocol import view_to_json
from ui.rooms import rooms_client
from ui.rooms.rooms_client import (
    BadFrame,
    check_stored,
    clean_nickname,
    parse_code,
    show_code,
    view_from_json,
)
from ui.shared import i18n, models

FIELDS = ("seat", "rules", "phase", "to_act", "hand_index", "dealer", "hand", "bids", "plays",
          "trick", "leader", "tricks_won", "spades_broken", "played_mask", "voids", "scores",
          "bags", "legal_plays", "legal_bids")


def _game(seed: int, target: int = 100) -> list[GameState]:
    """Every position of a game played by random legal actions."""
    rng = random.Random(seed)
    state = GameState.new(Rules(target=target), deal=seed)
    states = [state]
    while state.phase is not Phase.OVER and len(states) < 400:
        if state.phase is Phase.BIDDING:
            bids = [b for b in state.legal_bids() if not b.blind]
            action = rng.choice(bids[:5])
        else:
            action = rng.choice(state.legal_plays())
        state = state.apply(action)
        states.append(state)
    return states


@pytest.mark.parametrize("seed", [1, 7])
def test_the_json_view_comes_back_as_the_same_view(seed: int) -> None:
    states = _game(seed)
    assert states[-1].phase is Phase.OVER or len(states[-1].past_hands) >= 2
    for state in states[::3]:
        for seat in Seat:
            view = view_for(state, seat)
            back = view_from_json(view_to_json(view))
            for name in FIELDS:
                assert getattr(back, name) == getattr(view, name), (name, seat)
            assert len(back.past_hands) == len(view.past_hands)
            for mine, theirs in zip(back.past_hands, view.past_hands, strict=True):
                # the score sheet's details are the engine's scoring of the public hand
                assert mine.teams == theirs.teams
                assert mine.bid_history == theirs.bid_history
                assert mine.bids_by_seat == theirs.bids_by_seat
                assert mine.plays == theirs.plays
                assert mine.scores == theirs.scores and mine.tricks == theirs.tricks


def test_the_table_model_of_a_room_is_the_solo_one_with_nicknames() -> None:
    i18n.set_language("en")
    i18n.load()
    state = _game(3)[10]
    view = view_for(state, Seat.E)
    room = rooms_client.room_from_json({
        "code": "ACDEFGHJKM", "public": False, "status": "playing",
        "options": {"hints": False, "takeover_seconds": 5},
        "seats": [{"seat": s, "nickname": n, "bot": n is None, "away": False, "connected": True}
                  for s, n in zip("NESW", ("Ann", "Bob", None, "Dee"), strict=True)],
        "nudge": {"by": "N", "seat": "W"},
    })
    assert room.nudge_seat == "W" and room.nudge_by == "N" and room.takeover_seconds == 5
    back = view_from_json(view_to_json(view))
    ui = models.UiState(waiting=back.my_turn)
    model = rooms_client.room_table_model(back, room, ui)
    solo = models.table_model(back, ui)
    names = {seat.seat: seat.name for seat in model.seats}
    assert names["N"] == "Ann" and "Bob" in names["E"] and names["E"] != "Bob"
    assert names["W"] == "Dee" and names["S"] != "Ann"
    assert model.hand == solo.hand and model.trick == solo.trick


@pytest.mark.parametrize("bad", [
    None, [], {"seat": "Q"}, {"seat": "N", "rules": {}},
])
def test_a_frame_that_is_not_a_view_is_refused(bad: object) -> None:
    with pytest.raises(BadFrame):
        view_from_json(bad)


def test_a_view_with_a_bad_card_is_refused() -> None:
    data = view_to_json(view_for(_game(2)[5], Seat.N))
    data["hand"] = ["ZZ"]
    with pytest.raises(BadFrame):
        view_from_json(data)
    data = view_to_json(view_for(_game(2)[5], Seat.N))
    data["bids"] = [None]
    with pytest.raises(BadFrame):
        view_from_json(data)


def test_nicknames_and_codes() -> None:
    assert clean_nickname("  Ann   Lee ") == "Ann Lee"
    assert clean_nickname("") is None and clean_nickname("x" * 21) is None
    assert clean_nickname("a\u0007b") is None and clean_nickname(5) is None
    assert parse_code(" acdefghjkm ") == "ACDEFGHJKM"
    assert parse_code("acdef-ghjkm") == parse_code("ACDEF GHJKM") == "ACDEFGHJKM"
    assert show_code("ACDEFGHJKM") == "ACDEF-GHJKM"
    assert parse_code(show_code("ACDEFGHJKM")) == "ACDEFGHJKM"


def test_the_page_knows_the_servers_limits_and_close_codes() -> None:
    """The page cannot import the server package, so it copies a few constants: these
    must stay the server's."""
    from spades_server import app, protocol

    assert rooms_client.CLOSE_TRY_LATER == app.CLOSE_TRY_LATER
    assert rooms_client.CLOSE_REPLACED == protocol.CLOSE_REPLACED
    assert rooms_client.parse_code is protocol.parse_code  # the code's one format
    assert rooms_client.MARKS_MAX == protocol.MARKS_MAX


NAMES = [
    "Ann", "  Ann   Lee ", "Zoe\u0308",  # a decomposed ë, kept and composed
    "Vie\u0323\u0302t",  # two marks on one letter (ệ), as Vietnamese writes it
    "Z\u0301\u0302\u0303",  # three marks stacked: refused
    "Z" + "".join(chr(0x0300 + i) for i in range(19)),  # a tower over the other names
    "a\u20dd\u20dd\u20ddb",  # enclosing marks
    "a\u202eb",  # a right-to-left override (not printable)
    "", "x" * 21, "a\u0007b", 5, None,
]


@pytest.mark.parametrize("name", NAMES)
def test_the_page_checks_a_nickname_as_the_server_does(name: object) -> None:
    from spades_server.protocol import ProtocolError, _nickname

    try:
        kept: object = _nickname("nickname", name)
    except ProtocolError:
        kept = None
    assert clean_nickname(name) == kept


def test_accents_are_kept_and_stacks_refused() -> None:
    assert clean_nickname("Zoe\u0308") == "Zo\u00eb"
    assert clean_nickname("Vie\u0323\u0302t") == "Vi\u1ec7t"
    assert clean_nickname("Z\u0301\u0302\u0303") is None
    assert clean_nickname("a\u20dd\u20dd\u20ddb") is None
    assert parse_code("ACDEFGHJK0") is None and parse_code("ABC") is None
    assert parse_code(None) is None and parse_code("ACDEFG") is None  # the old six: no more


def test_stored_data_is_checked_and_never_raises() -> None:
    good = {"nickname": "Ann", "muted": True, "last": "ACDEFGHJKM",
            "seats": {"acdefghjkm": {"seat": "E", "token": "t" * 20}}}
    value, clean = check_stored(good)
    assert clean and value["seats"] == {"ACDEFGHJKM": {"seat": "E", "token": "t" * 20}}
    assert value["last"] == "ACDEFGHJKM" and value["muted"] is True
    for bad in (5, "x", {"seats": 3}, {"seats": {"BAD": {}}}, {"nickname": "x" * 99}):
        value, clean = check_stored(bad)
        assert not clean and value["seats"] == {}
    assert check_stored(None) == (rooms_client.empty_stored(), True)


def test_backoff_grows_and_is_bounded() -> None:
    waits = [rooms_client.backoff_seconds(n) for n in range(12)]
    assert waits[0] == 0.5 and waits == sorted(waits) and max(waits) == 10.0


def _room(status: str = "waiting", host: str | None = "N", public: bool = False,
          away: str = "", names: tuple[str | None, ...] = ("Ann", "Bob", None, None)
          ) -> rooms_client.RoomInfo:
    return rooms_client.room_from_json({
        "code": "ACDEFGHJKM", "public": public, "status": status, "options": {}, "host": host,
        "seats": [{"seat": s, "nickname": n, "bot": n is None or s == away, "away": s == away,
                   "connected": n is not None} for s, n in zip("NESW", names, strict=True)],
        "nudge": None,
    })


def test_the_waiting_room_lets_only_the_host_seat_the_players() -> None:
    i18n.set_language("en")
    i18n.load()
    link = "http://x/?room=ACDEFGHJKM"
    host = rooms_client.lobby_model(_room(), "N", link)
    assert host.host and not host.public and host.host_name == "Ann"
    assert [row.movable for row in host.rows] == [True, True, False, False]  # players only
    assert [row.host for row in host.rows] == [True, False, False, False]
    assert host.rows[0].who == "Ann (you)" and host.rows[2].who == "free seat"
    assert host.choices == (("N", "North", "North: Ann (you)"), ("E", "East", "East: Bob"),
                            ("S", "South", "South: free seat"), ("W", "West", "West: free seat"))
    assert host.rows[1].move_label == "Seat of Bob"
    guest = rooms_client.lobby_model(_room(), "E", link)
    assert not guest.host and not any(row.movable for row in guest.rows)
    assert guest.host_name == "Ann"
    # once started nobody moves; a public table has no host
    assert not any(r.movable for r in rooms_client.lobby_model(_room("playing"), "N", link).rows)
    public = rooms_client.lobby_model(_room(host=None, public=True), "N", link)
    assert public.public and not public.host and not any(row.movable for row in public.rows)
    # a room of an older server names no host: each of its players may act as one
    assert rooms_client.lobby_model(_room(host=None), "E", link).host
    with pytest.raises(BadFrame):
        _room(host="Q")


@pytest.mark.parametrize(("arg", "move"), [
    ("W:E", ("W", "E")), ("N:S", ("N", "S")), ("W:W", None), ("W:", None), (":E", None),
    ("X:E", None), ("W:E:S", None), ("", None), ("w:e", None),
])
def test_a_seat_pickers_change_is_read_as_a_move(arg: str, move: tuple[str, str] | None) -> None:
    assert rooms_client.parse_move(arg) == move


def test_while_a_bot_plays_the_readers_seat_the_cards_are_inert() -> None:
    i18n.set_language("en")
    i18n.load()
    state = _game(4)[9]
    seat = state.to_act
    assert seat is not None and state.phase is Phase.PLAYING  # the seat is to play
    view = view_from_json(view_to_json(view_for(state, seat)))
    names = ("Ann", "Bob", "Cy", "Dee")
    ui = models.UiState(waiting=True)
    here = rooms_client.room_table_model(view, _room("playing", names=names), ui)
    assert any("playable" in card.classes for card in here.hand) and here.turn_mine
    away = rooms_client.room_table_model(view, _room("playing", names=names, away=seat.name), ui)
    assert away.hand and all(card.disabled and "away" in card.classes for card in away.hand)
    assert not any({"playable", "illegal", "hinted"} & set(card.classes) for card in away.hand)
    assert [card.text for card in away.hand] == [card.text for card in here.hand]
    assert away.panel == "" and not away.turn_mine and not away.hint_enabled
    assert "I'm back" in away.turn
    assert rooms_client.is_away(_room("playing", away="E"), "E")
    assert not rooms_client.is_away(_room("playing", away="E"), "N")
    assert not rooms_client.is_away(None, "E")


def test_a_card_clicked_off_turn_names_whose_turn_it_is_north_too() -> None:
    # "Wait: it is 's turn.": North is seat 0, and the page once tested the seat's truth.
    i18n.set_language("en")
    i18n.load()
    room = rooms_client.room_from_json({
        "code": "ACDEFGHJKM", "public": False, "status": "playing",
        "options": {"hints": False, "takeover_seconds": 5},
        "seats": [{"seat": s, "nickname": n, "bot": n is None, "away": False, "connected": True}
                  for s, n in zip("NESW", ("Zoé <b>x</b>", "Bob", None, "Dee"), strict=True)],
    })
    seen = set()
    for state in _game(5)[:60]:
        if state.to_act is None or state.to_act == Seat.E:
            continue
        view = view_from_json(view_to_json(view_for(state, Seat.E)))
        text = rooms_client.wait_text(room, view)
        expected = {Seat.N: "Zoé <b>x</b>", Seat.S: "Bot (South)", Seat.W: "Dee"}[state.to_act]
        assert text == f"Wait: it is {expected}'s turn.", text
        seen.add(state.to_act)
    assert Seat.N in seen


def test_a_player_whose_page_is_gone_is_shown_offline() -> None:
    # a player who closed the page looked exactly as before to the others, who waited
    i18n.set_language("en")
    i18n.load()
    seats = [{"seat": s, "nickname": n, "bot": False, "away": False, "connected": s != "W"}
             for s, n in zip("NESW", ("Ann", "Bob", "Cy", "Dee"), strict=True)]
    room = rooms_client.room_from_json({
        "code": "ACDEFGHJKM", "public": False, "status": "playing",
        "options": {"hints": False, "takeover_seconds": 30}, "seats": seats})
    assert rooms_client.seat_label(room, "W", "N") == "Dee (offline)"
    assert rooms_client.seat_label(room, "E", "N") == "Bob"
    seats[3]["away"] = True  # then a bot plays the seat: said so instead
    room = rooms_client.room_from_json({
        "code": "ACDEFGHJKM", "public": False, "status": "playing",
        "options": {"hints": False, "takeover_seconds": 30}, "seats": seats})
    assert rooms_client.seat_label(room, "W", "N") == "Dee (bot playing)"


def test_a_player_taking_a_bots_seat_mid_game_is_announced() -> None:
    i18n.set_language("en")
    i18n.load()

    def room(names: tuple[str | None, ...], status: str = "playing") -> rooms_client.RoomInfo:
        return rooms_client.room_from_json({
            "code": "ACDEFGHJKM", "public": False, "status": status,
            "options": {"hints": False, "takeover_seconds": 30},
            "seats": [{"seat": s, "nickname": n, "bot": n is None, "away": False,
                       "connected": True} for s, n in zip("NESW", names, strict=True)]})

    before = room(("Ann", None, None, "Dee"))
    after = room(("Ann", None, "Cy", "Dee"))
    assert rooms_client.arrivals(before, after, "N") == [
        "Cy joins the table in South's place."]
    assert rooms_client.arrivals(before, before, "N") == []
    assert rooms_client.arrivals(room(("Ann", None, None, "Dee"), "waiting"), after, "N") == []
    assert rooms_client.arrivals(None, after, "N") == []


def test_the_limits_refusals_stop_the_page_and_are_said_in_both_languages() -> None:
    """A refusal for too many rooms, entries, failed codes or connections from the address
    stops the page (no retry) with its own words, in English and French; so does a seat
    taken up by another page ("replaced")."""
    import json
    from pathlib import Path

    from spades_server import guard

    reasons = {*guard.TOO_MANY.values(), "too-many-connections"}
    assert reasons <= rooms_client.STOPPING_REFUSALS
    root = Path(__file__).resolve().parents[1]
    for language in ("en", "fr"):
        table = json.loads((root / "locales" / language / "table.json").read_text("utf-8"))
        for reason in reasons:
            assert table[f"rooms.refused.{reason}"], (language, reason)
        assert table["rooms.replaced"] and table["rooms.replaced.back"]
        assert table["rooms.refused.busy"]  # the server overloaded (app.py): not a stop
    assert "busy" not in rooms_client.STOPPING_REFUSALS


def _feel_room(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "code": "ACDEFGHJKM", "public": False, "status": "playing",
        "options": {"hints": False, "takeover_seconds": 30},
        "seats": [{"seat": s, "nickname": n, "bot": n is None, "away": False,
                   "connected": s != "W"}
                  for s, n in zip("NESW", ("Ann", None, "Cy", "Dee"), strict=True)],
        "host": "N", "open": False, "rematch": None, "spectators": 2,
        "timer": {"seat": "S", "since": 1000.0, "nudge_at": 1020.0, "takeover_at": None},
        "clock": 1005.0,
    }
    data.update(changes)
    return data


def test_presence_dots_the_turn_timer_and_the_spectators_table() -> None:
    """Revision 3's room, as the page reads it: a dot per person's seat (none for a bot),
    the turn timer counted from the frame's arrival with the server's clock, and a
    spectator's table that names nobody "you" and has no hand, panel nor hint."""
    i18n.set_language("en")
    i18n.load()
    room = rooms_client.room_from_json(_feel_room())
    assert [rooms_client.presence(room, s) for s in "NESW"] == ["on", "", "on", "off"]
    assert room.spectators == 2 and room.timer is not None and room.timer.nudge_in == 15
    assert rooms_client.timer_text(room, room.timer, 3.2, "N") == (
        "Cy · nudge in 12 s")
    assert rooms_client.timer_text(room, room.timer, 30, "N") == "Cy · may be nudged"
    nudged = rooms_client.room_from_json(_feel_room(
        timer={"seat": "S", "since": 1000.0, "nudge_at": 1020.0, "takeover_at": 1055.0},
        clock=1025.0))
    assert rooms_client.timer_text(nudged, nudged.timer, 0, "S") == (
        "Cy (you) · a bot plays in 30 s")
    assert rooms_client.room_from_json(_feel_room(timer=None)).timer is None
    state = _game(4)[9]
    view = view_from_json(view_to_json(view_for(state, Seat.S)))
    here = rooms_client.room_table_model(view, room, models.UiState(waiting=True))
    assert [seat.presence for seat in here.seats] == ["on", "", "on", "off"]
    watcher_view = view_from_json(
        {**view_to_json(view_for(state, Seat.S, hand_seen=False)), "hand": None,
         "legal_plays": [], "legal_bids": []})
    watched = rooms_client.room_table_model(watcher_view, room, models.UiState(),
                                            watching=True)
    assert watched.hand == () and watched.panel == "" and not watched.turn_mine
    assert not watched.hint_visible and all("(you)" not in s.name for s in watched.seats)
    fr = []
    i18n.set_language("fr")
    fr.append(rooms_client.timer_text(room, room.timer, 3.2, "N"))
    i18n.set_language("en")
    assert fr[0] == "Cy · relance dans 12\u00a0s"


def test_the_rematch_line_and_the_hosts_seat_list() -> None:
    i18n.set_language("en")
    i18n.load()
    over = rooms_client.room_from_json(_feel_room(status="over", rematch=["S"], timer=None))
    assert rooms_client.rematch_text(over, "N") == "Cy would like a rematch."
    assert rooms_client.rematch_text(over, "S") == "Waiting for: Ann, Dee (offline)"
    assert rooms_client.rematch_text(
        rooms_client.room_from_json(_feel_room(status="over", rematch=[])), "N") == ""
    rows = rooms_client.host_rows(over, "N")
    assert [row.can_free for row in rows] == [False, False, True, True]  # not self, not a bot
    assert not any(row.can_free for row in rooms_client.host_rows(over, "S"))  # not the host
    assert "seats-closed" in rooms_client.STOPPING_REFUSALS


def test_a_ranked_room_says_its_day_level_and_rank_and_the_browser_token_is_kept() -> None:
    def ranked_room(ranked: object) -> rooms_client.RoomInfo:
        return rooms_client.room_from_json({
            "code": "ACDEFGHJKM", "public": False, "status": "over", "nudge": None,
            "options": {"ranked": ranked},
            "seats": [{"seat": s, "nickname": "Ann" if s == "S" else None, "bot": s != "S",
                       "away": False, "connected": s == "S"} for s in "NESW"]})

    assert ranked_room({"day": 20261207, "level": "expert", "rank": 3}).ranked == \
        rooms_client.Ranked(20261207, "expert", 3)
    assert ranked_room({"day": 20261207, "level": "normal"}).ranked == \
        rooms_client.Ranked(20261207, "normal", None)
    for bad in (None, 5, {"day": "x", "level": "normal"}, {"day": 1, "level": "master"},
                {"day": True, "level": "normal"}):
        assert ranked_room(bad).ranked is None, bad
    assert ranked_room({"day": 1, "level": "normal", "rank": 0}).ranked == \
        rooms_client.Ranked(1, "normal", None)
    assert _room().ranked is None
    value, clean = check_stored({"player": "p" * 32})
    assert clean and value["player"] == "p" * 32
    for bad in ("short", "p" * 65, "p" * 20 + "<", 7):
        value, clean = check_stored({"player": bad})
        assert not clean and value["player"] == ""
    assert {"ranked-played", "too-many-ranked", "ranked-day-over"} <= \
        rooms_client.STOPPING_REFUSALS


def test_the_board_lists_a_published_days_records_and_nothing_of_an_unpublished_one() -> None:
    """The ranked dialog's board (GET /api/daily/DAY): before publication the entries carry
    no record and nothing says the deal; once the server says published, each entry's
    record (checked: of that day, the server's path) and the deal's number are given."""
    i18n.set_language("en")
    i18n.load()
    day, today = 20261205, 20261207
    entries = [{"rank": 1, "nickname": "Ann", "score": 120, "opponents": -40, "won": True,
                "hands": 3, "record": f"api/ranked/{day}/record/7"},
               {"rank": 2, "nickname": "Bob", "score": -210, "opponents": 80, "won": False,
                "hands": 2, "record": "https://elsewhere.example/x"},
               {"rank": 3, "nickname": "Cy", "score": 10, "opponents": 0, "won": False,
                "hands": 2, "record": f"api/ranked/{day + 1}/record/9"}]
    board = rooms_client.board_model({"day": day, "published": True, "deal": 4242,
                                      "entries": entries}, day, "normal", today)
    assert [(e.line, e.record) for e in board.entries] == [
        ("1. Ann: 120", f"api/ranked/{day}/record/7"), ("2. Bob: −210", ""), ("3. Cy: 10", "")]
    assert board.entries[0].label == "Replay the game of Ann" and board.deal == 4242
    assert board.title == "Board of 2026-12-05, normal bots: ranked deal only"
    assert "4242" in board.note
    # not published (the server says so, whatever the page's clock): no record, no deal
    hidden = rooms_client.board_model({"day": today, "published": False, "deal": None,
                                       "entries": entries}, today, "normal", today)
    assert [e.record for e in hidden.entries] == ["", "", ""] and hidden.deal is None
    assert hidden.title == "Today's board, normal bots: ranked deal only"
    assert hidden.note == "This day's deal and its games are published on 2026-12-09 (UTC)."
    forged = rooms_client.board_model({"published": False, "deal": 4242, "entries": entries},
                                      day, "normal", today)
    assert forged.deal is None and "4242" not in forged.note
    assert all(e.record == "" for e in forged.entries)
    empty = rooms_client.board_model({"published": True, "deal": 1, "entries": []}, day,
                                     "expert", today)
    assert empty.entries == () and empty.empty.startswith("Nobody finished")
    assert rooms_client.board_model("nonsense", day, "normal", today).entries == ()
    for bad in ("api/ranked/2026120/record/1", "api/ranked/20261205/record/", "/api/x",
                "api/ranked/20261205/record/1/../../x", 7, "api/ranked/２０２６１２０５/record/1"):
        assert rooms_client.record_path(bad) is None, bad
    days = rooms_client.board_days(20260301)
    assert [d for d, _ in days] == [20260301, 20260228, 20260227, 20260226, 20260225,
                                    20260224, 20260223, 20260222]
    assert days[0][1] == "Today" and days[1][1] == "2026-02-28"
    i18n.set_language("fr")
    i18n.load()
    assert rooms_client.board_model({"published": True, "deal": 4242, "entries": entries}, day,
                                    "normal", today).entries[0].label == "Revoir la partie de Ann"
    assert rooms_client.record_names("Zoé") == {
        "N": "Robot (Nord)", "E": "Robot (Est)", "S": "Zoé", "W": "Robot (Ouest)"}
    i18n.set_language("en")
    i18n.load()
