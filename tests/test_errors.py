"""Errors split by meaning: one root, SpadesError (a ValueError), and no bare ValueError."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import spades_core
from spades_core import (
    BidParseError,
    BotError,
    CardParseError,
    GameState,
    IllegalAction,
    LessonError,
    ParseError,
    RecordError,
    Rules,
    RulesError,
    Seat,
    SpadesError,
    UsageError,
    errors,
    parse_bid,
    parse_card,
    record,
)
from spades_core.bids import Bid
from spades_core.cards import Card, CardSet
from spades_core.deal import check_deal_number
from spades_core.views import view_for

PACKAGE = Path(spades_core.__file__).parent
ALLOWED: set[str] = set()  # files allowed a bare ValueError: none

ERROR_CLASSES = (
    SpadesError, ParseError, CardParseError, BidParseError, RulesError, RecordError,
    LessonError, IllegalAction, UsageError, BotError,
)


def test_every_error_class_is_a_spades_error_and_a_value_error() -> None:
    for cls in ERROR_CLASSES:
        assert issubclass(cls, SpadesError) and issubclass(cls, ValueError), cls
        assert cls.__doc__ and cls.__doc__.strip(), cls
        assert cls.__name__ in spades_core.__all__
    assert issubclass(CardParseError, ParseError) and issubclass(BidParseError, ParseError)


def test_errors_module_defines_exactly_the_exported_classes() -> None:
    defined = {
        name for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, Exception)
    }
    assert defined == {cls.__name__ for cls in ERROR_CLASSES}


def _bare_raises(text: str, name: str) -> list[str]:
    """The ``raise ValueError(...)`` / ``raise TypeError(...)`` (or without a call) in ``text``."""
    found = []
    for node in ast.walk(ast.parse(text, name)):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(target, ast.Name) and target.id in ("ValueError", "TypeError"):
            found.append(f"{name}:{node.lineno}: raise {target.id}")
    return found


def test_no_bare_value_error_is_raised_in_the_engine() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 20
    found = [
        hit for path in files if path.name not in ALLOWED
        for hit in _bare_raises(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert found == [], "raise a SpadesError subclass instead:\n" + "\n".join(found)


def test_the_scan_sees_a_bare_raise() -> None:
    text = "def f(x):\n    if x:\n        raise ValueError('no')\n    raise TypeError\n"
    text += "def g():\n    raise UsageError('fine')\n"
    found = sorted(_bare_raises(text, "f.py"))
    assert found == ["f.py:3: raise ValueError", "f.py:4: raise TypeError"]


# --- representative misuses raise the documented subclass ------------------------------


def test_parse_errors() -> None:
    with pytest.raises(CardParseError, match="'ZZ' is not a card"):
        parse_card("ZZ")
    with pytest.raises(BidParseError, match="'14' is not a bid"):
        parse_bid("14")
    with pytest.raises(ParseError, match="is not a seat"):
        Seat.parse("X")


def test_rules_errors() -> None:
    with pytest.raises(RulesError, match="'target' must be an integer"):
        Rules(target=-5)
    with pytest.raises(RulesError, match="'floor' must be null or an integer"):
        Rules.from_dict({"floor": 5})
    with pytest.raises(RulesError, match="unknown rules key"):
        Rules.from_dict({"trumps": "hearts"})
    with pytest.raises(RulesError, match="must be an object"):
        Rules.from_dict([])
    with pytest.raises(RulesError, match="true or false"):
        Rules.from_dict({"jokers": 1})


def test_record_errors() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        record.loads("{")
    with pytest.raises(RecordError, match="rules: "):
        record.loads('{"format": "spades-record/1", "rules": {"target": -5}, "deal": 1}')


def test_an_illegal_action() -> None:
    state = GameState.new(deal=1)
    with pytest.raises(IllegalAction) as caught:
        state.apply(state.hand_of(Seat.N)[0])  # a card during the bidding
    assert caught.value.reason == "not-playing"
    with pytest.raises(ValueError):  # still a ValueError, for old callers
        state.apply(state.hand_of(Seat.N)[0])


def test_usage_errors() -> None:
    state = GameState.new(deal=1)
    with pytest.raises(UsageError, match="an action is a Card or a Bid"):
        state.apply("QS")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="no card has id"):
        Card(54)
    with pytest.raises(UsageError, match="no such bid"):
        Bid(14)
    with pytest.raises(UsageError, match="a deal number"):
        check_deal_number(-1)
    with pytest.raises(UsageError, match="a new game needs"):
        GameState.new()
    with pytest.raises(UsageError, match="a deal has four hands"):
        GameState.new(cards=[CardSet()])
    with pytest.raises(UsageError, match="is dealt 0 cards"):
        GameState.new(cards=[CardSet()] * 4)
    with pytest.raises(UsageError, match="at most three cards"):
        GameState.position(Rules(), [CardSet()] * 4, leader=Seat.N, bids=[Bid(3)] * 4,
                           trick=[parse_card(text) for text in ("2C", "3C", "4C", "5C")])


def test_a_bot_asked_off_its_turn_is_a_usage_error() -> None:
    from spades_core.bots import make_bot

    state = GameState.new(deal=1)
    seat = Seat((int(state.to_act or 0) + 1) % 4)
    view = view_for(state, seat)
    assert not view.my_turn
    with pytest.raises(UsageError):
        make_bot("normal").play(view)
    with pytest.raises(UsageError, match="unknown bot"):
        make_bot("nobody")


def test_the_hands_of_a_deal_are_card_sets_or_masks() -> None:
    state = GameState.new(deal=7)
    sets = [state.dealt(seat) for seat in Seat]
    assert GameState.new(cards=sets) == GameState.new(cards=state.dealt_masks)
    assert state.played == CardSet() and state.played_mask == 0
