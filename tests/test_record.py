"""Game records: round trips, the replay command, and every kind of invalid record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from spades_core import GameState, Phase, RecordError, Rules
from spades_core.cards import CARD_TEXT, ids_of_mask
from spades_core.record import dumps, from_dict, loads, summary, to_dict

DEAL = 20261129


def random_game(deal: int, seed: int, actions: int, rules: Rules | None = None) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(rules or Rules(), deal=deal)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            break
        legal = state.legal_bids()[1:6] if state.phase is Phase.BIDDING else state.legal_plays()
        state = state.apply(rng.choice(legal))
    return state


@pytest.mark.parametrize("actions", [0, 3, 4, 30, 56, 57, 200, 5000])
@pytest.mark.parametrize("jokers", [False, True])
def test_round_trip(actions: int, jokers: bool) -> None:
    state = random_game(DEAL + actions, actions, actions, Rules(jokers=jokers))
    assert loads(dumps(state)) == state
    assert from_dict(json.loads(json.dumps(to_dict(state)))) == state


def test_round_trip_without_deal_number() -> None:
    state = random_game(DEAL, 1, 150)
    record = to_dict(state)
    for hand, past in zip(record["hands"], state.past_hands, strict=False):
        hand["cards"] = {
            seat: [CARD_TEXT[i] for i in ids_of_mask(past.dealt_masks[n])]
            for n, seat in enumerate("NESW")
        }
    current = record["hands"][-1]
    if "cards" not in current:
        current["cards"] = {
            seat: [CARD_TEXT[i] for i in ids_of_mask(state.dealt_masks[n])]
            for n, seat in enumerate("NESW")
        }
    del record["deal"]
    replayed = from_dict(record)
    assert replayed.past_hands == state.past_hands
    assert replayed.scores == state.scores and replayed.play_ids == state.play_ids
    assert from_dict(to_dict(replayed)) == replayed


def test_design_example_record() -> None:
    record = {
        "format": "spades-record/1",
        "rules": {"target": 500, "floor": -200, "blind_nil": True},
        "deal": DEAL,
        "hands": [{"bids": ["3", "nil", "4", "blind-nil"], "plays": []}],
    }
    state = from_dict(record)
    assert state.phase is Phase.PLAYING and str(state.to_act) == "S"
    assert [str(bid) for bid in state.bid_history] == ["3", "nil", "4", "blind-nil"]


def _base(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"format": "spades-record/1", "deal": DEAL, "hands": []}
    record.update(changes)
    return record


def _hand0_cards() -> dict[str, list[str]]:
    state = GameState.new(deal=DEAL)
    return {
        seat: [CARD_TEXT[i] for i in ids_of_mask(state.dealt_masks[n])]
        for n, seat in enumerate("NESW")
    }


def _full_hand_plays() -> tuple[list[str], list[str]]:
    state = random_game(DEAL, 7, 56)
    past = state.past_hands[0]
    return [str(b) for b in past.bid_history], [CARD_TEXT[i] for i in past.play_ids]


def _invalid_records() -> list[tuple[str, Any, str]]:
    cards = _hand0_cards()
    bids, plays = _full_hand_plays()
    dup = {**cards, "N": [*cards["N"][:-1], cards["E"][0]]}
    short = {**cards, "N": cards["N"][:-1]}
    unknown = {**cards, "N": [*cards["N"][:-1], "ZZ"]}
    first = GameState.new(deal=DEAL)
    for _ in range(4):
        first = first.apply(first.legal_bids()[3])
    leader_hand = first.hand_of(first.to_act)  # type: ignore[arg-type]
    spade = next((c for c in leader_hand if c.suit.name == "SPADES"), None)
    return [
        ("json", "{not json", "not valid JSON"),
        ("array", "[]", "a record is a JSON object"),
        ("format", json.dumps(_base(format="spades/2")), '"format" must be'),
        ("top key", json.dumps(_base(extra=1)), "unknown key 'extra'"),
        ("rules key", json.dumps(_base(rules={"trump": "hearts"})), "unknown rules key 'trump'"),
        ("rules type", json.dumps(_base(rules={"target": "500"})), "must be an integer"),
        ("rules bool", json.dumps(_base(rules={"blind_nil": 1})), "must be true or false"),
        ("deal", json.dumps(_base(deal=-4)), "deal:"),
        ("deal type", json.dumps(_base(deal="7")), "deal:"),
        ("no deal", json.dumps({"format": "spades-record/1", "hands": [{"bids": []}]}),
         "hand 1: no \"cards\""),
        ("dup card", json.dumps(_base(deal=None, hands=[{"cards": dup}])), "dealt twice"),
        ("short hand", json.dumps(_base(deal=None, hands=[{"cards": short}])), "12 cards"),
        ("unknown card", json.dumps(_base(deal=None, hands=[{"cards": unknown}])),
         "'ZZ' is not a card"),
        ("wrong cards", json.dumps(_base(hands=[{"cards": {**cards, "N": cards["E"],
                                                           "E": cards["N"]}}])),
         "not the cards of deal"),
        ("bad bid", json.dumps(_base(hands=[{"bids": ["3", "14"]}])), "hand 1, bid 2: '14'"),
        ("five bids", json.dumps(_base(hands=[{"bids": ["3", "3", "3", "3", "3"]}])),
         "hand 1, bid 5"),
        ("blind off", json.dumps(_base(rules={"blind_nil": False},
                                        hands=[{"bids": ["blind-nil"]}])), "blind nil"),
        ("early play", json.dumps(_base(hands=[{"bids": ["3"], "plays": [cards["S"][0]]}])),
         "hand 1, play 1: the bidding is not finished"),
        ("not held", json.dumps(_base(hands=[{"bids": ["3"] * 4, "plays": [cards["N"][0]]}])),
         "hand 1, play 1: S does not hold"),
        ("bad card", json.dumps(_base(hands=[{"bids": ["3"] * 4, "plays": ["1X"]}])),
         "hand 1, play 1: '1X' is not a card"),
        ("too many plays", json.dumps(_base(hands=[{"bids": bids, "plays": [*plays, "AS"]}])),
         "hand 1, play 53"),
        ("unfinished", json.dumps(_base(hands=[{"bids": ["3"] * 4}, {"bids": []}])),
         "hand 2: hand 1 is not finished"),
        ("hands type", json.dumps(_base(hands={})), '"hands" must be a list'),
        ("plays type", json.dumps(_base(hands=[{"bids": ["3"] * 4, "plays": "AS"}])),
         '"plays" must be a list'),
        *(
            [("spade lead", json.dumps(_base(hands=[{"bids": [str(b) for b in first.bid_history],
                                                     "plays": [str(spade)]}])),
              "spades are not broken")]
            if spade is not None and len(leader_hand) != len(leader_hand.suit(spade.suit))
            else []
        ),
    ]


def _follow_suit_violation() -> tuple[str, str]:
    """A record whose play breaks the follow-suit rule, and the expected message."""
    for seed in range(200):
        state = random_game(DEAL, seed, 4)
        state = state.apply(state.legal_plays()[0])
        seat = state.to_act
        assert seat is not None
        hand = state.hand_of(seat)
        led = state.trick[0][1].suit
        if hand.suit(led) and len(hand.suit(led)) < len(hand):
            wrong = next(card for card in hand if card.suit != led)
            record = to_dict(state)
            record["hands"][0]["plays"].append(str(wrong))
            expected = f"hand 1, play 2: {seat} must follow {led.key} with {wrong}"
            return json.dumps(record), expected
    raise AssertionError("no position found")


@pytest.mark.parametrize(
    ("name", "text", "message"), [pytest.param(*case, id=case[0]) for case in _invalid_records()]
)
def test_invalid_records_are_refused_with_a_reason(name: str, text: str, message: str) -> None:
    with pytest.raises(RecordError) as error:
        loads(text)
    assert message in str(error.value), name


def test_follow_suit_violation_message() -> None:
    text, expected = _follow_suit_violation()
    with pytest.raises(RecordError, match=expected):
        loads(text)


def test_a_hand_after_the_game_ended() -> None:
    state = random_game(DEAL, 3, 10_000, Rules(target=200))
    assert state.phase is Phase.OVER
    record = to_dict(state)
    record["hands"].append({"bids": ["3"]})
    with pytest.raises(RecordError, match=f"hand {len(record['hands'])}: the game ended"):
        from_dict(record)


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spades_core", *args], input=stdin, capture_output=True,
        text=True, timeout=60,
    )


def test_replay_command_prints_the_state() -> None:
    state = random_game(DEAL, 11, 120)
    done = _cli("replay", "-", stdin=dumps(state))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == json.loads(json.dumps(summary(state)))
    assert printed["phase"] == state.phase.value
    assert printed["score"] == {"NS": state.scores[0], "EW": state.scores[1]}
    first = printed["hands"][0]
    past = state.past_hands[0]
    assert first["tricks"] == dict(zip("NESW", past.tricks, strict=True))
    assert first["points"] == {"NS": past.teams[0].points, "EW": past.teams[1].points}


def test_replay_command_from_a_file(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(random_game(DEAL, 2, 10)))
    done = _cli("replay", str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["phase"] == "playing"


@pytest.mark.parametrize("text", ["{", '{"format": "spades-record/1"}', "[1]", ""])
def test_replay_command_refuses_invalid_records(text: str) -> None:
    done = _cli("replay", "-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_replay_command_missing_file() -> None:
    done = _cli("replay", "/nonexistent/game.json")
    assert done.returncode == 2 and "cannot read" in done.stderr
