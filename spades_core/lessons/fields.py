"""The small readers of lesson fields: each takes the place being read (for its error
message) and a raw JSON value, and returns a checked value or raises a LessonError."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from ..bids import Bid, BidParseError, parse_bid
from ..cards import Card, CardParseError, CardSet, Suit, parse_card
from ..errors import IllegalAction
from ..game import GameState, Phase
from ..rules import Rules
from ..seats import SEATS, Seat, Team
from .model import (
    LANGS,
    LEARNER,
    At,
    BiddingPosition,
    Claim,
    Highlights,
    Position,
    Text,
)

_T = TypeVar("_T")


def play_checked(at: At, position: Position, cards: Sequence[Card]) -> Position:
    state = position.state()
    for i, card in enumerate(cards):
        if state.phase is not Phase.PLAYING or state.to_act is None:
            raise at.at(i).error(f"{card}: the hand is over")
        seat = state.to_act
        try:
            state = state.apply(card)
        except IllegalAction as error:
            detail = ", ".join(f"{k}={v}" for k, v in error.refusal.params.items())
            raise at.at(i).error(
                f"{seat.name} may not play {card} ({error.reason}{': ' + detail if detail else ''})"
            ) from None
    return position.then(cards)


# --- small readers -----------------------------------------------------------------------


def read_object(at: At, raw: object, *, required: Sequence[str],
            optional: Sequence[str] = ()) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise at.error("must be an object")
    for key in required:
        if key not in raw:
            raise at.at(key).error("missing")
    for key in raw:
        if key not in required and key not in optional:
            raise at.at(str(key)).error("unknown key")
    return raw


def read_text(at: At, raw: object) -> Text:
    data = read_object(at, raw, required=LANGS)
    values: list[str] = []
    for lang in LANGS:
        value = data[lang]
        if not isinstance(value, str) or not value.strip():
            raise at.at(lang).error("the text is empty")
        values.append(value)
    return Text(values[0], values[1])


def read_texts(
    at: At, raw: object, what: str, read_key: Callable[[At, str], _T]
) -> dict[_T, Text]:
    """An object of texts by ``what`` (a card, a bid, a choice...): each key is read (and
    checked) by ``read_key``, each value by :func:`read_text`."""
    if not isinstance(raw, dict):
        raise at.error(f"must be an object: {what} -> text")
    texts: dict[_T, Text] = {}
    for key, value in raw.items():
        here = at.at(str(key))
        name = read_key(here, str(key))  # the key first: its error is the likelier one
        texts[name] = read_text(here, value)
    return texts


def read_int(at: At, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise at.error(f"must be an integer, not {raw!r}")
    return raw


def list_of(raw: object) -> list[object]:
    return list(raw) if isinstance(raw, list) else [raw]


def read_card(at: At, raw: object) -> Card:
    if not isinstance(raw, str):
        raise at.error(f"a card is written as text (\"QS\"), not {raw!r}")
    try:
        return parse_card(raw)
    except CardParseError as error:
        raise at.error(str(error)) from None


def read_cards(at: At, raw: object) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise at.error("must be a list of cards")
    cards = tuple(read_card(at.at(i), item) for i, item in enumerate(raw))
    if len(set(cards)) != len(cards):
        raise at.error("a card is listed twice")
    return cards


def _seat(at: At, raw: object) -> Seat:
    if not isinstance(raw, str) or raw not in ("N", "E", "S", "W"):
        raise at.error(f"{raw!r} is not a seat (N, E, S, W)")
    return Seat[raw]


def _team(at: At, raw: object) -> Team:
    if not isinstance(raw, str) or raw not in ("NS", "EW"):
        raise at.error(f"{raw!r} is not a team (NS, EW)")
    return Team[raw]


def _bid(at: At, raw: object) -> Bid:
    if not isinstance(raw, str):
        raise at.error("a bid is written as text: \"3\", \"nil\", \"blind-nil\"")
    try:
        return parse_bid(raw)
    except BidParseError as error:
        raise at.error(str(error)) from None


def _by_seat(at: At, raw: object, read: Callable[[At, object], _T]) -> dict[Seat, _T]:
    if not isinstance(raw, dict):
        raise at.error("must be an object by seat (N, E, S, W)")
    return {_seat(at.at(str(key)), key): read(at.at(str(key)), value) for key, value in raw.items()}


def _by_team(at: At, raw: object) -> tuple[tuple[Team, int], ...]:
    if not isinstance(raw, dict) or not raw:
        raise at.error("must be an object by team (NS, EW)")
    return tuple((_team(at.at(str(key)), key), read_int(at.at(str(key)), value))
                 for key, value in raw.items())


def _team_pair(at: At, raw: object) -> tuple[int, int]:
    pairs = dict(_by_team(at, raw))
    return (pairs.get(Team.NS, 0), pairs.get(Team.EW, 0))


def read_rules(at: At, raw: object) -> Rules:
    try:
        return Rules.from_dict(raw)
    except (TypeError, ValueError) as error:
        raise at.error(str(error)) from None


_POSITION_KEYS = ("hands", "hidden", "show", "leader", "bids", "trick", "tricks",
                  "spades_broken", "scores", "bags", "rules", "plays")


def read_position(at: At, raw: object, rules: Rules) -> Position:
    data = read_object(at, raw, required=(), optional=_POSITION_KEYS)
    if "rules" in data:
        rules = read_rules(at.at("rules"), data["rules"])
    hands = _by_seat(at.at("hands"), data.get("hands", {}), read_cards)
    hidden = _by_seat(at.at("hidden"), data.get("hidden", {}), read_int)
    bids = _by_seat(at.at("bids"), data.get("bids", {}), _bid)
    tricks = _by_seat(at.at("tricks"), data.get("tricks", {}), read_int)
    leader = _seat(at.at("leader"), data.get("leader", "S"))
    trick = read_cards(at.at("trick"), data.get("trick", []))
    broken = data.get("spades_broken", False)
    if not isinstance(broken, bool):
        raise at.at("spades_broken").error("must be true or false")

    def masks(values: Mapping[Seat, tuple[Card, ...]]) -> tuple[CardSet, CardSet, CardSet,
                                                                 CardSet]:
        found = [CardSet.of(values.get(seat, ())) for seat in SEATS]
        return (found[0], found[1], found[2], found[3])

    def ints(values: Mapping[Seat, int]) -> tuple[int, int, int, int]:
        found = [values.get(seat, 0) for seat in SEATS]
        return (found[0], found[1], found[2], found[3])

    def bids_of(values: Mapping[Seat, Bid]) -> tuple[Bid | None, Bid | None, Bid | None,
                                                      Bid | None]:
        found = [values.get(seat) for seat in SEATS]
        return (found[0], found[1], found[2], found[3])

    raw_show = data.get("show", [])
    if not isinstance(raw_show, list):
        raise at.at("show").error("must be a list of seats")
    show = {LEARNER, *(_seat(at.at("show").at(i), s) for i, s in enumerate(raw_show))}
    position = Position(
        rules, masks(hands), ints(hidden), leader, bids_of(bids), trick, ints(tricks), broken,
        _team_pair(at.at("scores"), data["scores"]) if "scores" in data else (0, 0),
        _team_pair(at.at("bags"), data["bags"]) if "bags" in data else (0, 0),
        tuple(seat for seat in SEATS if seat in show),
    )
    if any(count < 0 for count in (*position.hidden, *position.tricks)):
        raise at.error("hidden cards and tricks are counts, not negative")
    if sum(position.tricks) > 13:
        raise at.at("tricks").error("a hand has 13 tricks")
    try:
        state = position.start()
    except ValueError as error:
        raise at.error(f"the engine refuses this position: {error}") from None
    _check_trick(at.at("trick"), position, state)
    completed = sum(position.tricks)
    for seat in SEATS:
        in_trick = 1 if any(s == seat for s, _ in state.trick) else 0
        count = len(position.hands[seat]) + position.hidden[seat] + completed + in_trick
        if count > 13:
            raise at.at("hands").at(seat.name).error(
                f"{seat.name} would have held {count} cards: more than 13"
            )
    plays = read_cards(at.at("plays"), data.get("plays", []))
    return play_checked(at.at("plays"), position, plays) if plays else position


def _check_trick(at: At, position: Position, state: GameState) -> None:
    """The trick so far must be one the rules allow, given what the seats still hold."""
    seated = state.trick
    if not seated:
        return
    led = seated[0][1].suit
    leader_hand = position.hands[seated[0][0]].mask
    if (led == Suit.SPADES and not position.spades_broken
            and any(card.suit != Suit.SPADES for card in CardSet(leader_hand))):
        raise at.at(0).error(
            f"{seated[0][0].name} led a spade before spades were broken while holding other suits"
        )
    for i, (seat, card) in enumerate(seated[1:], start=1):
        if card.suit != led and position.hands[seat].suit(led):
            raise at.at(i).error(f"{seat.name} played {card} while holding {led.key}")


def read_bidding(at: At, raw: object, rules: Rules) -> BiddingPosition:
    data = read_object(at, raw, required=("dealer",),
                   optional=("hand", "bids", "scores", "bags", "rules"))
    if "rules" in data:
        rules = read_rules(at.at("rules"), data["rules"])
    dealer = _seat(at.at("dealer"), data["dealer"])
    hand: CardSet | None = None
    if data.get("hand") is not None:
        cards = read_cards(at.at("hand"), data["hand"])
        if len(cards) != 13:
            raise at.at("hand").error(f"a hand to bid has 13 cards, not {len(cards)}")
        hand = CardSet.of(cards)
        if hand.mask & ~rules.deck_mask:
            raise at.at("hand").error("a card is not in this deck")
    given = _by_seat(at.at("bids"), data.get("bids", {}), _bid)
    before = []
    seat = dealer.left
    while seat != LEARNER:
        before.append(seat)
        seat = seat.left
    if set(given) != set(before):
        names = ", ".join(s.name for s in before) or "nobody"
        raise at.at("bids").error(f"with {dealer.name} dealing, the bids before South's are "
                                  f"{names}'s")
    found = [given.get(seat) for seat in SEATS]
    bids = (found[0], found[1], found[2], found[3])
    for seat_bid in bids:
        if isinstance(seat_bid, Bid) and seat_bid.blind and not rules.blind_nil:
            raise at.at("bids").error("Blind Nil is off in these rules")
    return BiddingPosition(
        rules, dealer, hand, bids,
        _team_pair(at.at("scores"), data["scores"]) if "scores" in data else (0, 0),
        _team_pair(at.at("bags"), data["bags"]) if "bags" in data else (0, 0),
    )


def read_highlights(at: At, raw: object) -> Highlights:
    data = read_object(at, raw, required=(), optional=("cards", "seats", "bids", "choices"))
    seats = data.get("seats", [])
    bids = data.get("bids", [])
    choices = data.get("choices", [])
    if not isinstance(seats, list) or not isinstance(bids, list) or not isinstance(choices, list):
        raise at.error("cards, seats, bids and choices are lists")
    return Highlights(
        read_cards(at.at("cards"), data.get("cards", [])),
        tuple(_seat(at.at("seats").at(i), s) for i, s in enumerate(seats)),
        tuple(_seat(at.at("bids").at(i), s) for i, s in enumerate(bids)),
        tuple(str(choice) for choice in choices),
    )


_CLAIM_KEYS = ("winner", "winning", "points", "bags", "bags_after", "penalty", "contract",
               "score_after", "nil_made", "legal", "refused", "game", "dealer", "opens",
               "tricks", "voids", "unseen", "last_trick")
_SUITS_BY_KEY = {suit.key: suit for suit in Suit}


def read_claim(at: At, raw: object) -> Claim:
    data = read_object(at, raw, required=(), optional=_CLAIM_KEYS)
    if not data:
        raise at.error("a claim states at least one fact")

    def hand_seat(key: str) -> tuple[int, Seat] | None:
        if key not in data:
            return None
        part = read_object(at.at(key), data[key], required=("hand", "seat"))
        number = read_int(at.at(key).at("hand"), part["hand"])
        if number < 1:
            raise at.at(key).at("hand").error("hands are numbered from 1")
        return (number, _seat(at.at(key).at("seat"), part["seat"]))

    refused: list[tuple[Card, str]] = []
    if "refused" in data:
        items = data["refused"]
        for i, item in enumerate(items if isinstance(items, list) else [items]):
            part = read_object(at.at("refused").at(i), item, required=("card", "reason"))
            reason = part["reason"]
            if not isinstance(reason, str):
                raise at.at("refused").at(i).at("reason").error("a refusal key, or \"allowed\"")
            refused.append((read_card(at.at("refused").at(i).at("card"), part["card"]), reason))
    nil_made: list[tuple[Seat, bool]] = []
    if "nil_made" in data:
        for seat, made in _by_seat(at.at("nil_made"), data["nil_made"], _boolean).items():
            nil_made.append((seat, bool(made)))
    game = data.get("game")
    if game is not None and game not in ("NS", "EW", "none"):
        raise at.at("game").error("the game result is NS, EW or none")
    return Claim(
        winner=_seat(at.at("winner"), data["winner"]) if "winner" in data else None,
        winning=_seat(at.at("winning"), data["winning"]) if "winning" in data else None,
        points=_by_team(at.at("points"), data["points"]) if "points" in data else (),
        bags=_by_team(at.at("bags"), data["bags"]) if "bags" in data else (),
        bags_after=_by_team(at.at("bags_after"), data["bags_after"]) if "bags_after" in data
        else (),
        penalty=_by_team(at.at("penalty"), data["penalty"]) if "penalty" in data else (),
        contract=_by_team(at.at("contract"), data["contract"]) if "contract" in data else (),
        score_after=_by_team(at.at("score_after"), data["score_after"])
        if "score_after" in data else (),
        nil_made=tuple(nil_made),
        legal=frozenset(read_cards(at.at("legal"), data["legal"])) if "legal" in data else None,
        refused=tuple(refused),
        game=str(game) if game is not None else None,
        dealer=hand_seat("dealer"),
        opens=hand_seat("opens"),
        tricks=_by_team(at.at("tricks"), data["tricks"]) if "tricks" in data else (),
        voids=tuple(
            (seat, suit)
            for seat, suits in _by_seat(at.at("voids"), data.get("voids", {}), _suits).items()
            for suit in suits
        ),
        unseen=tuple(
            (_suit(place, key), read_int(place, value))
            for key, value in _dict(at.at("unseen"), data.get("unseen", {})).items()
            for place in (at.at("unseen").at(str(key)),)
        ),
        last_trick=tuple(
            _by_seat(at.at("last_trick"), data.get("last_trick", {}), read_card).items()
        ),
    )


def _dict(at: At, raw: object) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise at.error("must be an object")
    return {str(key): value for key, value in raw.items()}


def _suit(at: At, raw: object) -> Suit:
    if not isinstance(raw, str) or raw not in _SUITS_BY_KEY:
        raise at.error(f"{raw!r} is not a suit (clubs, diamonds, hearts, spades)")
    return _SUITS_BY_KEY[raw]


def _suits(at: At, raw: object) -> tuple[Suit, ...]:
    if not isinstance(raw, list) or not raw:
        raise at.error("must be a non-empty list of suits")
    return tuple(_suit(at.at(i), item) for i, item in enumerate(raw))


def _boolean(at: At, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise at.error("must be true or false")
    return raw
