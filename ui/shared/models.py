"""What the screens draw, as plain data (pure Python, no browser import).

The controller (``ui/table/app.py``) builds these from ``spades_core.views.view_for(state, Seat.S)``
and its own UI state (waiting, the hinted card, the trick still shown...); the renderers
(``ui/table/render.py``, ``ui/table/dialogs.py``, ``ui/shared/cardview.py``) draw them and import
no controller.
A table on a server's room would receive the same ``View``: nothing here reads a ``GameState``.

Callbacks are declared by name: a model gives an ``action`` and its ``arg`` (``"play"``,
``"QS"``), which the renderer writes as ``data-action`` / ``data-arg`` and the controller
dispatches to ``do_<action>(arg)`` (see ``ui/shared/ports.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from spades_core.bids import Bid
from spades_core.cards import Card
from spades_core.game import HandResult, Phase
from spades_core.seats import Seat
from spades_core.views import View

from . import i18n
from .i18n import t

HAND_SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: colours alternate
HAND_SIZE = 13


# --- a card as the lessons and drills name and colour it --------------------------------

RED_SUITS = frozenset({"hearts", "diamonds"})


def suit_key(card: Card) -> str:
    return card.suit.name.lower()


def card_short(card: Card) -> str:
    """The card as drawn on its face: ``Q♥`` (``D♥`` in French), by the page's namer."""
    return i18n.card_short(str(card))


def card_name(card: Card) -> str:
    """The card's spoken name: "Queen of hearts" / "Dame de cœur", by the page's namer."""
    return i18n.card_name(str(card))


def hand_order(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (HAND_SUIT_ORDER.index(int(c.suit)), -int(c.rank)))


@dataclass(frozen=True)
class CardModel:
    """One card as drawn: face up (``text`` = ``"QS"``) or a back (``text`` = ``""``).

    ``action`` empty: a picture (``role="img"``); otherwise a button with that action.
    ``classes`` are its states (``playable``, ``illegal``, ``hinted``, ``winner``, ``gap``, and a
    screen's own such as ``lx-lit``); ``key`` is the screen's focus key (``data-key``).
    """

    text: str = ""
    label: str = ""
    action: str = ""
    arg: str = ""
    classes: tuple[str, ...] = ()
    pressed: bool | None = None
    disabled: bool = False
    key: str = ""
    fan: float | None = None

    @property
    def face_up(self) -> bool:
        return bool(self.text)


@dataclass(frozen=True)
class SeatModel:
    seat: str  # N E S W
    name: str
    letter: str
    bid: str  # the bid in words, a dash before it is made
    tricks: int
    active: bool
    label: str
    turn: str  # "to play" beside the active seat, else ""
    tricks_text: str = ""  # the tricks chip: "Tricks 2/4" (taken/bid) once the seat has bid
    cards: int = 0  # cards still in the seat's hand (the fan of backs)
    dealer: bool = False
    place: str = ""  # where the plate sits on screen: bottom (the reader), left, top, right
    presence: str = ""  # in a room: "on" (its person is connected), "off", "" (a bot; solo)


@dataclass(frozen=True)
class TrickSlot:
    seat: str
    card: CardModel | None
    winner: bool = False
    place: str = ""  # as the seat's plate: bottom, left, top, right


@dataclass(frozen=True)
class TableModel:
    scores: tuple[int, int]
    bags: tuple[str, str]  # "3 bags" per team, in words
    deal_label: str
    seats: tuple[SeatModel, ...]
    trick: tuple[TrickSlot, ...]
    hand: tuple[CardModel, ...]
    hand_label: str
    hand_face_down: bool
    panel: str  # "" (hidden), "bid", "blind" or "blind-confirm"
    turn: str
    turn_mine: bool
    hint_visible: bool
    hint_enabled: bool
    over: bool
    language: str
    deal_key: str = ""  # which hand of which game: a new key is a new deal
    deal_motion: bool = False  # the hand is fresh and may be dealt with motion
    dealer: str = ""  # N E S W
    # the bid panel's button the hint points at: a bid token ("3", "nil"), "blind-nil", or
    # "look" (look at your cards first); "" when none
    hinted_bid: str = ""
    # the Claim button (solo play): shown in the play, pressable when South is to act
    claim_visible: bool = False
    claim_enabled: bool = False


@dataclass(frozen=True)
class UiState:
    """What the controller knows beyond the view: what the person sees and may do now."""

    waiting: bool = False  # South is asked to act (the bots are not thinking)
    hinted: str | None = None  # the card or bid the hint points at ("look": look first)
    face_down: bool = False  # South's cards are still face down (Blind Nil offered)
    blind_armed: bool = False  # Blind Nil chosen once, awaiting its confirmation
    shown_trick: tuple[tuple[Seat, Card], ...] | None = None  # a finished trick still shown
    trick_winner: Seat | None = None
    sheets_seen: int = 0  # score sheets read: a newer hand's sheet is pending
    deal: int = 0
    daily: bool = False
    hints_on: bool = True  # hints allowed in this game and in the options
    speed: str = "normal"  # the speed option: "instant" shows no deal motion
    claim_on: bool = False  # the rest of the tricks may be claimed (solo play, not rooms)


def sheet_pending(view: View, ui: UiState) -> bool:
    return len(view.past_hands) > ui.sheets_seen


def blind_offered(view: View, ui: UiState) -> bool:
    return ui.face_down and view.my_turn and any(bid.blind for bid in view.legal_bids)


def card_model(text: str, label: str | None = None, action: str = "", arg: str | None = None,
               classes: Iterable[str] = (), **extra: object) -> CardModel:
    """A face-up card named in the language (its accessible name, unless ``label`` is given)."""
    return CardModel(text=text, label=i18n.card_name(text) if label is None else label,
                     action=action, arg=(text if action and arg is None else arg or ""),
                     classes=tuple(c for c in classes if c), **extra)  # type: ignore[arg-type]


PLACES = ("bottom", "left", "top", "right")  # clockwise from the reader's seat


def place_of(seat: Seat, reader: Seat) -> str:
    """Where ``seat`` sits on the reader's screen: the reader at the bottom, the next seat
    in the play (clockwise) on the left, the partner on top. Solo: South at the bottom."""
    return PLACES[(int(seat) - int(reader)) & 3]


def cards_left(view: View, seat: Seat) -> int:
    """How many cards ``seat`` still holds (none once the game is over)."""
    if view.phase is Phase.OVER:
        return 0
    return HAND_SIZE - sum(1 for player, _ in view.plays if player == seat)


def final_hand(view: View) -> HandResult | None:
    """The game's last hand once the game is over (its bids and tricks stay on the table
    and in "Last trick": no new hand follows); None while the game goes on."""
    if view.phase is Phase.OVER and view.past_hands:
        return view.past_hands[-1]
    return None


def shown_bids(view: View) -> tuple[Bid | None, Bid | None, Bid | None, Bid | None]:
    """The bids the plates show, by seat: this hand's, or the final hand's once the game
    is over."""
    final = final_hand(view)
    return view.bids if final is None else final.bids_by_seat


def _seat_models(view: View, to_act: Seat | None) -> tuple[SeatModel, ...]:
    seats = []
    final = final_hand(view)
    bids = shown_bids(view)
    won = view.tricks_won if final is None else final.tricks
    # the seat to act: "to bid" while the hand is bid, "to play" once it is played
    turn = t("seat.turn.bid" if view.phase is Phase.BIDDING else "seat.turn")
    for seat in Seat:
        bid = bids[int(seat)]
        name = i18n.seat_name(seat.name)
        bid_text = i18n.bid_text(None if bid is None else str(bid))
        tricks = won[int(seat)]
        active = seat == to_act
        # taken/bid once the seat has bid (a Nil's contract is 0 tricks)
        taken = str(tricks) if bid is None else f"{tricks}/{bid.tricks}"
        seats.append(SeatModel(
            seat=seat.name, name=name, letter=t(f"seat.{seat.name}.letter"),
            bid=t("seat.bid", bid=bid_text), tricks=tricks, active=active,
            label=t("seat.label", seat=name, bid=bid_text, tricks=tricks),
            turn=turn if active else "",
            tricks_text=t("seat.tricks", tricks=taken),
            cards=cards_left(view, seat),
            dealer=seat == (view.dealer if final is None else final.dealer),
            place=place_of(seat, view.seat),
        ))
    return tuple(seats)


def _trick(view: View, ui: UiState) -> tuple[TrickSlot, ...]:
    shown = ui.shown_trick if ui.shown_trick is not None else view.trick
    winner = ui.trick_winner if ui.shown_trick is not None else None
    slots = []
    for seat in Seat:
        played = next((c for s, c in shown if s == seat), None)
        card = None
        if played is not None:
            text = str(played)
            card = card_model(text, f"{i18n.seat_name(seat.name)}: {i18n.card_name(text)}",
                              classes=("winner",) if seat == winner else ())
        slots.append(TrickSlot(seat.name, card, seat == winner, place_of(seat, view.seat)))
    return tuple(slots)


def _hand(view: View, ui: UiState) -> tuple[CardModel, ...]:
    if view.phase is Phase.OVER:
        return ()
    if view.hand is None or ui.face_down:
        return tuple(CardModel() for _ in range(cards_left(view, view.seat)))
    cards = hand_order(view.hand)
    playing = ui.waiting and view.phase is Phase.PLAYING
    legal = {c.id for c in view.legal_plays} if playing else set()
    middle = (len(cards) - 1) / 2
    models = []
    previous_suit = -1
    for position, card in enumerate(cards):
        text = str(card)
        name = i18n.card_name(text)
        ok = card.id in legal
        classes = ["playable" if ok else ("illegal" if playing else "")]
        if ui.hinted == text:
            classes.append("hinted")
        if previous_suit not in (-1, int(card.suit)):
            classes.append("gap")
        previous_suit = int(card.suit)
        label = name if ok or not playing else t("card.unplayable", card=name)
        models.append(card_model(text, label, action="play", classes=classes,
                                 fan=position - middle))
    return tuple(models)


def _panel(view: View, ui: UiState) -> str:
    if not (ui.waiting and view.phase is Phase.BIDDING and view.my_turn):
        return ""
    if blind_offered(view, ui):
        return "blind-confirm" if ui.blind_armed else "blind"
    return "bid"


def _turn(view: View, ui: UiState) -> tuple[str, bool]:
    if view.phase is Phase.OVER:
        return t("turn.game-over"), False
    if sheet_pending(view, ui):
        return t("turn.hand-over"), False
    seat = view.to_act
    if seat is None:
        return "", False
    if seat == view.seat:
        if not ui.waiting:
            return "", False
        if view.phase is Phase.BIDDING:
            return t("turn.you.bid"), True
        return t("turn.you.lead" if not view.trick else "turn.you.play"), True
    key = "turn.other.bid" if view.phase is Phase.BIDDING else "turn.other.play"
    return t(key, seat=i18n.seat_name(seat.name)), False


def daily_line(number: int, result: dict[str, Any] | None,
               scores: tuple[int, int] | None = None) -> str | None:
    """The daily deal's result as the statistics keep it (``result``: the first game of the
    day, or None). After a replay that ended otherwise (``scores``), it says so."""
    if result is None:
        return None
    first = scores is not None and (result["ns"], result["ew"]) != tuple(scores)
    return t(
        "end.daily-first" if first else "end.daily-result", date=i18n.day_text(number),
        result=t("end.daily.won" if result["won"] else "end.daily.lost"),
        ns=i18n.number(result["ns"]), ew=i18n.number(result["ew"]),
    )


def deal_label(deal: int, daily: bool) -> str:
    """A game's name: "Deal 4242", or "Daily deal 2026-12-05"."""
    return t("deal.daily", date=i18n.day_text(deal)) if daily else t("deal.label", deal=deal)


def table_model(view: View, ui: UiState) -> TableModel:
    """The table as South sees it: a pure function of the view and the UI state."""
    over = view.phase is Phase.OVER
    # While a score sheet waits to be read, nobody is to play: the next hand starts after it.
    to_act = (None if over or sheet_pending(view, ui) or ui.shown_trick is not None
              else view.to_act)
    label = deal_label(ui.deal, ui.daily)
    hand = _hand(view, ui)
    face_down = bool(hand) and not hand[0].face_up
    turn, mine = _turn(view, ui)
    fresh = (view.phase is Phase.BIDDING and not view.plays
             and all(bid is None for bid in view.bids))
    return TableModel(
        scores=view.scores,
        bags=(t("team.bags", bags=view.bags[0]), t("team.bags", bags=view.bags[1])),
        deal_label=label,
        seats=_seat_models(view, to_act),
        trick=_trick(view, ui),
        hand=hand,
        hand_label=t("hand.hidden") if face_down else t("hand.label"),
        hand_face_down=face_down,
        panel=_panel(view, ui),
        turn=turn,
        turn_mine=mine,
        hint_visible=ui.hints_on,
        hint_enabled=ui.waiting,
        over=over,
        language=i18n.language(),
        deal_key=f"{ui.deal}:{view.hand_index}",
        deal_motion=fresh and ui.speed != "instant",
        dealer=view.dealer.name,
        hinted_bid=(ui.hinted or "") if view.phase is Phase.BIDDING else "",
        claim_visible=ui.claim_on,
        claim_enabled=ui.claim_on and ui.waiting and view.phase is Phase.PLAYING,
    )


# --- the menu and the dialogs ------------------------------------------------------------


@dataclass(frozen=True)
class MenuModel:
    resume: bool  # a game to go back to
    daily_line: str
    in_room: bool = False  # at a room's table: "Leave the room" too
    mistakes_due: int | None = None  # "Your mistakes": positions due today (None: none kept)


def menu_model(game_over: bool | None, today: int, stats: dict[str, object],
               in_room: bool = False, mistakes_due: int | None = None) -> MenuModel:
    """``game_over`` None: no game at all."""
    daily = stats.get("daily")
    result = daily.get(str(today)) if isinstance(daily, dict) else None
    if result is None:
        line = t("menu.daily.new", date=i18n.day_text(today))
    else:
        line = t("menu.daily.played", date=i18n.day_text(today),
                 result=t("end.daily.won" if result["won"] else "end.daily.lost"),
                 ns=i18n.number(result["ns"]), ew=i18n.number(result["ew"]))
    return MenuModel(resume=game_over is False, daily_line=line, in_room=in_room,
                     mistakes_due=mistakes_due)


@dataclass(frozen=True)
class SheetModel:
    hands: tuple[HandResult, ...]
    pending: bool
    over: bool
    practice: bool = False  # a lesson's practice hand: the way on is back to the lesson
    seats: tuple[str, str, str, str] = ("", "", "", "")  # each seat's name, N E S W
    teams: tuple[str, str] = ("", "")  # the two teams' names, NS then EW
    replay: bool = False  # each hand can be replayed in the hand viewer (action "viewer")
    title: str = ""  # the sheet's title when not the table's game's (a board's game)
    back: tuple[str, str, str] | None = None  # (text, action, arg): a button back to where
    # the sheet was opened from (a board's game: the board)


def sheet_model(view: View, pending: bool, practice: bool = False,
                names: dict[str, str] | None = None,
                teams: tuple[str, str] | None = None, replay: bool = False, title: str = "",
                back: tuple[str, str, str] | None = None) -> SheetModel:
    """The score sheet; ``names`` and ``teams`` name the seats and the teams where the
    reader is not South (a room's nicknames); the solo names otherwise ("You");
    ``replay``: a button replays each finished hand (the hand viewer); ``title`` and
    ``back``: a game that is not the table's (a board's), and the way back to the board."""
    seats = tuple(names[s] if names and s in names else i18n.seat_name(s) for s in "NESW")
    return SheetModel(view.past_hands, pending, view.phase is Phase.OVER, practice,
                      (seats[0], seats[1], seats[2], seats[3]),
                      teams or (t("team.NS"), t("team.EW")), replay, title, back)


@dataclass(frozen=True)
class LastTrickModel:
    cards: tuple[tuple[str, CardModel], ...]  # (seat's name, card)
    winner: str | None  # the winner's name
    previous: bool = False  # the last trick of the previous hand (none yet in this one)


def shown_last_trick(view: View, seen: tuple[tuple[Seat, Card], ...] | None = None,
                     ) -> tuple[tuple[tuple[Seat, Card], ...], bool]:
    """What "Last trick" shows: this hand's last complete trick; until the first trick of
    a hand is complete, the previous hand's last one (``True``: from the previous hand);
    once the game is over, the final trick of the game, from no "previous" hand (no hand
    follows it). ``seen``: the last trick seen being played, if the page knows it (it is
    the one shown, as the previous hand's until this hand's first trick is complete)."""
    final = final_hand(view)
    if final is not None:
        return final.last_trick, False
    trick = view.last_trick
    if trick:
        return trick, False
    if seen:
        return seen, True
    if not view.past_hands:
        return trick, False
    return view.past_hands[-1].last_trick, True


def last_trick_model(trick: tuple[tuple[Seat, Card], ...] | None,
                     winner: Seat | None, previous: bool = False,
                     names: dict[str, str] | None = None) -> LastTrickModel:
    """``names``: how to name each seat (a room's nicknames); the seat names otherwise."""

    def name(seat: Seat) -> str:
        return names[seat.name] if names and seat.name in names else i18n.seat_name(seat.name)

    cards = tuple(
        (name(seat), card_model(str(card), classes=("winner",) if seat == winner else ()))
        for seat, card in trick or ()
    )
    return LastTrickModel(cards, None if winner is None or not cards else name(winner),
                          previous=previous and bool(cards))
