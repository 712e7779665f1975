"""The rooms adapter (ui/rooms_client.py): the server's JSON view back into the View the
table's models are built from, the room, the stored data, nicknames and codes."""

from __future__ import annotations

import random

import pytest

from spades_core import GameState, Phase, Rules, Seat
from spades_core.views import view_for
from spades_server.protocol import view_to_json
from ui import i18n, models, rooms_client
from ui.rooms_client import BadFrame, check_stored, clean_nickname, parse_code, view_from_json

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
        "code": "ACDEFG", "public": False, "status": "playing",
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
    assert parse_code(" acdefg ") == "ACDEFG"
    assert parse_code("ACDEF0") is None and parse_code("ABC") is None and parse_code(None) is None


def test_stored_data_is_checked_and_never_raises() -> None:
    good = {"nickname": "Ann", "muted": True, "last": "ACDEFG",
            "seats": {"acdefg": {"seat": "E", "token": "t" * 20}}}
    value, clean = check_stored(good)
    assert clean and value["seats"] == {"ACDEFG": {"seat": "E", "token": "t" * 20}}
    assert value["last"] == "ACDEFG" and value["muted"] is True
    for bad in (5, "x", {"seats": 3}, {"seats": {"BAD": {}}}, {"nickname": "x" * 99}):
        value, clean = check_stored(bad)
        assert not clean and value["seats"] == {}
    assert check_stored(None) == (rooms_client.empty_stored(), True)


def test_backoff_grows_and_is_bounded() -> None:
    waits = [rooms_client.backoff_seconds(n) for n in range(12)]
    assert waits[0] == 0.5 and waits == sorted(waits) and max(waits) == 10.0
