"""The game record (``"format": "spades-record/1"``): read, write and summarise.

A record is the history of a game: the rules, the deal number and, per hand, the cards
(optional when the deal number is given), the bids in bidding order and the plays in
play order.  Reading replays it through the engine, so a record is valid exactly when
the game it describes is legal.  :class:`RecordError` says where and why it is not, in
one line ("hand 1, play 7: E must follow hearts with KS"), which quotes at most a short
prefix of any value it names.

A record is bounded: at most :data:`MAX_RECORD_SIZE` characters of JSON and
:data:`MAX_HANDS` hands, and its rules within :data:`rules.BOUNDS`, so reading any text
takes bounded time and memory.
"""

from __future__ import annotations

import json
from typing import Any

from .bids import BidParseError, parse_bid
from .cards import CARD_TEXT, CardParseError, ids_of_mask, parse_card
from .deal import MAX_DEAL, check_deal_number
from .errors import IllegalAction, RecordError, Refusal, UsageError, quote, shorten
from .game import GameState, HandResult, Phase, bids_by_seat, check_hands
from .rules import Rules
from .seats import SEATS, TEAMS, dealer_of_hand

FORMAT = "spades-record/1"
_TOP_KEYS = {"format", "rules", "deal", "hands"}
_HAND_KEYS = {"cards", "bids", "plays"}
# 4 MiB of JSON: a game of MAX_HANDS hands, each with its cards, written with indent=2
# (about 1.5 kB a hand) fits, and json.loads of it needs some tens of MB at most.
MAX_RECORD_SIZE = 4 * 1024 * 1024
# No rule bounds the length of a game (with the floor off, scores may drift for ever), so
# this is a practical bound: a game to the highest target (10,000) at a typical 50 to 100
# points a hand lasts 100 to 200 hands; 2000 is ten times that, and replays in well under
# a second.
MAX_HANDS = 2000


# --- reading ----------------------------------------------------------------------


def loads(text: str | bytes) -> GameState:
    """Read a record from JSON text (at most :data:`MAX_RECORD_SIZE` characters or bytes);
    raise :class:`RecordError`."""
    if len(text) > MAX_RECORD_SIZE:
        raise RecordError(f"record too large (limit {MAX_RECORD_SIZE >> 20} MiB)")
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None
    except ValueError as error:  # also UnicodeDecodeError and too long a number
        raise RecordError(f"not valid JSON: {shorten(str(error))}") from None
    return from_dict(data)


def from_dict(data: object) -> GameState:
    """Replay a record (already parsed JSON) into the state it describes."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}"')
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise RecordError(f"unknown key {quote(unknown[0])}")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except (ValueError, TypeError) as error:
        raise RecordError(f"rules: {error}") from None
    deal = data.get("deal")
    if deal is not None:
        try:
            check_deal_number(deal)
        except ValueError:
            raise RecordError(
                f"deal: a deal number is an integer from 0 to {MAX_DEAL}, not {quote(deal)}"
            ) from None
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError('"hands" must be a list')
    if len(hands) > MAX_HANDS:
        raise RecordError(f'"hands": at most {MAX_HANDS} hands, not {len(hands)}')
    if not hands:
        if deal is None:
            raise RecordError('a record needs a "deal" or the cards of its first hand')
        return GameState.new(rules, deal=deal)
    game: GameState | None = None
    for number, hand in enumerate(hands, start=1):
        game = _read_hand(game, rules, deal, number, hand)
    assert game is not None
    return game


def _read_hand(
    state: GameState | None, rules: Rules, deal: int | None, number: int, hand: object
) -> GameState:
    """Play ``hand`` (the record's hand ``number``) on from ``state``: the state after it."""
    where = f"hand {number}"
    if not isinstance(hand, dict):
        raise RecordError(f"{where}: a hand is a JSON object")
    unknown = sorted(set(hand) - _HAND_KEYS)
    if unknown:
        raise RecordError(f"{where}: unknown key {quote(unknown[0])}")
    if state is not None and state.phase is Phase.OVER:
        raise RecordError(f"{where}: the game ended after hand {number - 1}")
    if state is not None and state.hand_index != number - 1:
        raise RecordError(f"{where}: hand {number - 1} is not finished")
    cards = _read_cards(where, hand["cards"], rules) if "cards" in hand else None
    try:
        if state is None:
            if deal is None and cards is None:
                raise RecordError(f'{where}: no "cards" and no "deal" to deal them')
            state = GameState.new(rules, deal=deal, cards=cards)
        elif state.phase is Phase.DEALING:
            if cards is None:
                raise RecordError(f'{where}: no "cards" and no "deal" to deal them')
            state = state.deal_cards(cards)
        elif cards is not None and cards != state.dealt_masks:
            raise RecordError(f"{where}, cards: these are not the cards of deal {deal}")
    except UsageError as error:
        raise RecordError(f"{where}, cards: {error}") from None
    bids = _list(hand, "bids", where)
    plays = _list(hand, "plays", where)
    for index, token in enumerate(bids, start=1):
        at = f"{where}, bid {index}"
        if state.phase is not Phase.BIDDING:
            raise RecordError(f"{at}: all four players have bid")
        try:
            bid = parse_bid(token)
        except BidParseError as error:
            raise RecordError(f"{at}: {_not_a(token, 'bid', error)}") from None
        state = _apply(state, bid, at)
    for index, text in enumerate(plays, start=1):
        at = f"{where}, play {index}"
        if state.hand_index != number - 1:
            raise RecordError(f"{at}: the hand is over after 13 tricks")
        if state.phase is Phase.BIDDING:
            raise RecordError(f"{at}: the bidding is not finished")
        try:
            card = parse_card(text)
        except CardParseError as error:
            raise RecordError(f"{at}: {_not_a(text, 'card', error)}") from None
        state = _apply(state, card, at)
    return state


def _not_a(token: object, kind: str, error: ValueError) -> str:
    """The parse error's reason, quoting at most a prefix of a (maybe huge) token."""
    if isinstance(token, str):
        return f"{quote(token)} is not a {kind}"
    return shorten(str(error))


def _list(hand: dict[str, Any], key: str, where: str) -> list[Any]:
    value = hand.get(key, [])
    if not isinstance(value, list):
        raise RecordError(f'{where}: "{key}" must be a list')
    return value


def _read_cards(where: str, cards: object, rules: Rules) -> tuple[int, int, int, int]:
    if not isinstance(cards, dict) or sorted(cards) != ["E", "N", "S", "W"]:
        raise RecordError(f'{where}, cards: an object with the keys "N", "E", "S" and "W"')
    masks = []
    for seat in SEATS:
        texts = cards[seat.name]
        if not isinstance(texts, list):
            raise RecordError(f"{where}, cards: {seat} must be a list of cards")
        mask = 0
        for text in texts:
            try:
                card = parse_card(text)
            except CardParseError as error:
                reason = _not_a(text, "card", error)
                raise RecordError(f"{where}, cards: {seat}: {reason}") from None
            if mask & card.bit:
                raise RecordError(f"{where}, cards: {card} is dealt twice")
            mask |= card.bit
        masks.append(mask)
    try:
        return check_hands(masks, rules.deck_mask)
    except UsageError as error:
        raise RecordError(f"{where}, cards: {error}") from None


def _apply(state: GameState, action: Any, at: str) -> GameState:
    try:
        return state.apply(action)
    except IllegalAction as error:
        raise RecordError(f"{at}: {describe_refusal(error.refusal, error.seat, action)}") from None


def describe_refusal(refusal: Refusal, seat: object, action: object) -> str:
    """A one-line English reason for developers and the command line (the UI translates
    the refusal's key itself)."""
    params = refusal.params
    card = params.get("card", str(action))
    texts = {
        "must-follow-suit": f"{seat} must follow {params.get('suit')} with {card}",
        "not-in-hand": f"{seat} does not hold {card}",
        "spades-not-broken": f"{seat} may not lead {card}: spades are not broken",
        "blind-nil-off": f"{seat} may not bid blind nil: it is off in these rules",
        "not-your-turn": f"it is {params.get('seat')}'s turn",
        "not-bidding": f"{seat} may not bid now: the bidding is over",
        "not-playing": f"{seat} may not play now: the bidding is not finished",
        "game-over": "the game is over",
        "awaiting-deal": "the next hand has not been dealt",
    }
    return texts.get(refusal.reason, refusal.reason)


# --- writing ----------------------------------------------------------------------


def to_dict(state: GameState) -> dict[str, Any]:
    """The record of ``state``'s game so far; ``from_dict(to_dict(s)) == s``."""
    deal = state.deal
    hands: list[dict[str, Any]] = [
        _hand_dict(past.dealt_masks, past.bid_history, past.play_ids, deal is None)
        for past in state.past_hands
    ]
    in_hand = state.phase in (Phase.BIDDING, Phase.PLAYING)
    if in_hand and (deal is None or state.bid_history or state.play_ids):
        hands.append(_hand_dict(state.dealt_masks, state.bid_history, state.play_ids, deal is None))
    record: dict[str, Any] = {"format": FORMAT, "rules": state.rules.to_dict()}
    if deal is not None:
        record["deal"] = deal
    record["hands"] = hands
    return record


def dumps(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def _hand_dict(
    cards: tuple[int, int, int, int], bids: tuple[Any, ...], plays: tuple[int, ...],
    with_cards: bool,
) -> dict[str, Any]:
    hand: dict[str, Any] = {}
    if with_cards:
        hand["cards"] = {
            seat.name: [CARD_TEXT[i] for i in ids_of_mask(cards[seat])] for seat in SEATS
        }
    hand["bids"] = [str(bid) for bid in bids]
    hand["plays"] = [CARD_TEXT[i] for i in plays]
    return hand


# --- the replay summary -----------------------------------------------------------


def summary(state: GameState) -> dict[str, Any]:
    """What ``python -m spades_core replay`` prints: per hand and for the game."""
    hands = [_past_summary(result) for result in state.past_hands]
    if state.phase in (Phase.BIDDING, Phase.PLAYING) and (state.bid_history or state.play_ids):
        hands.append(_current_summary(state))
    phase = state.phase
    to_act = state.to_act
    if phase is Phase.DEALING:  # the next hand is not dealt yet: its bidding is next
        phase = Phase.BIDDING
        to_act = dealer_of_hand(state.hand_index).left
    winner = state.winner
    return {
        "deal": state.deal,
        "phase": phase.value,
        "to_act": to_act.name if to_act is not None else None,
        "winner": winner.name if winner is not None else None,
        "score": _by_team(state.scores),
        "bags": _by_team(state.bags),
        "hands": hands,
    }


def _by_team(values: tuple[int, int]) -> dict[str, int]:
    return {team.name: values[team] for team in TEAMS}


def _by_seat(values: tuple[Any, ...]) -> dict[str, Any]:
    return {seat.name: values[seat] for seat in SEATS}


def _past_summary(result: HandResult) -> dict[str, Any]:
    teams = result.teams
    return {
        "hand": result.hand_index + 1,
        "dealer": result.dealer.name,
        "complete": True,
        "bids": _by_seat(tuple(str(bid) for bid in result.bids_by_seat)),
        "tricks": _by_seat(result.tricks),
        "contract": _by_team((teams[0].contract, teams[1].contract)),
        "points": _by_team((teams[0].points, teams[1].points)),
        "bags_taken": _by_team((teams[0].bags, teams[1].bags)),
        "bag_penalty": _by_team((teams[0].bag_penalty, teams[1].bag_penalty)),
        "score": _by_team(result.scores),
        "bags": _by_team(result.bags),
        "nil": [
            {"seat": SEATS[nil.seat].name, "blind": nil.blind, "made": nil.made,
             "points": nil.points}
            for team in teams for nil in team.nils
        ],
    }


def _current_summary(state: GameState) -> dict[str, Any]:
    bids = tuple(state.bid_of(seat) for seat in SEATS)
    full = len(state.bid_history) == 4
    return {
        "hand": state.hand_index + 1,
        "dealer": state.dealer.name,
        "complete": False,
        "bids": _by_seat(tuple(str(bid) if bid is not None else None for bid in bids)),
        "tricks": _by_seat(state.tricks_won),
        "contract": _by_team(_contracts(state)) if full else None,
        "points": None,
        "score": None,
        "bags": None,
        "nil": [],
    }


def _contracts(state: GameState) -> tuple[int, int]:
    by_seat = bids_by_seat(state.bid_history, state.dealer)
    return (by_seat[0].tricks + by_seat[2].tricks, by_seat[1].tricks + by_seat[3].tricks)
