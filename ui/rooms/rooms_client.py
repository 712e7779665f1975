"""The rooms adapter (pure Python): what the rooms server sends, as the page's own models.

The server (``spades_server``, protocol ``spades-room/1``, docs/protocol.md) sends each seat
``view_to_json(view_for(state, seat))``. :func:`view_from_json` turns it back into the
``spades_core.views.View`` the table's models are built from, so a room's table is drawn by
the same renderers as a solo game. :func:`room_from_json` reads the room (code, seats,
nudge); :func:`room_table_model` names the seats by their nicknames. Every function here
checks what it reads: a frame that is not what the protocol says raises :class:`BadFrame`,
and the page keeps what it had.
"""

from __future__ import annotations

import dataclasses
import datetime
import unicodedata
from dataclasses import dataclass
from typing import Any

from spades_core import (
    Bid,
    Card,
    CardSet,
    HandResult,
    Phase,
    Rules,
    Seat,
    parse_bid,
    parse_card,
    score_hand,
)
from spades_core.errors import SpadesError
from spades_core.roomcode import parse_code as parse_code
from spades_core.roomcode import show_code
from spades_core.views import View

from ..shared import i18n, models
from ..shared.i18n import t
from ..shared.options import CHOICES

NICKNAME_MAX = 20
MARKS_MAX = 2  # as spades_server.protocol.MARKS_MAX
SEAT_NAMES = ("N", "E", "S", "W")
CLOSE_TRY_LATER = 1013  # as spades_server.app.CLOSE_TRY_LATER: the server is full
CLOSE_REPLACED = 4001  # as spades_server.protocol.CLOSE_REPLACED: the seat is played elsewhere
# Refusals after which the page stops (no reconnection) and says why in the rooms' dialog.
STOPPING_REFUSALS = frozenset({
    "no-such-room", "room-full", "bad-nickname", "seat-taken", "server-full",
    "too-many-rooms", "too-many-joins", "too-many-attempts", "too-many-connections",
    "seats-closed", "too-many-spectators", "game-over",
    "ranked-played", "ranked-unfinished", "too-many-ranked", "ranked-day-over",
})


class BadFrame(SpadesError):
    """A server frame the page cannot read (not what spades-room/1 says)."""


def clean_nickname(text: object) -> str | None:
    """The nickname as the server will keep it (white space folded, accents composed), or
    None when it is empty, too long, not printable or stacks marks on a letter (the
    server's ``protocol._nickname``)."""
    if not isinstance(text, str) or len(text) > 4 * NICKNAME_MAX:
        return None
    nick = unicodedata.normalize("NFC", " ".join(text.split()))
    if not 1 <= len(nick) <= NICKNAME_MAX or not nick.isprintable():
        return None
    run = 0
    for char in unicodedata.normalize("NFD", nick):  # an accented letter counts its marks
        mark = unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me")
        run = run + 1 if mark else 0
        if run > MARKS_MAX:
            return None
    return nick


# --- reading the JSON ------------------------------------------------------------------


def _get(data: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise BadFrame(f"missing {key}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BadFrame(f"bad {key}")
    return value


def _seat(value: Any) -> Seat:
    if not isinstance(value, str) or value not in SEAT_NAMES:
        raise BadFrame(f"bad seat {value!r}")
    return Seat(SEAT_NAMES.index(value))


def _card(value: Any) -> Card:
    try:
        return parse_card(str(value)) if isinstance(value, str) else _fail("card")
    except SpadesError:
        raise BadFrame(f"bad card {value!r}") from None


def _bid(value: Any) -> Bid:
    try:
        return parse_bid(value) if isinstance(value, str) else _fail("bid")
    except SpadesError:
        raise BadFrame(f"bad bid {value!r}") from None


def _fail(what: str) -> Any:
    raise BadFrame(f"bad {what}")


def _ints(data: Any, key: str, size: int) -> tuple[int, ...]:
    values = _get(data, key, list)
    if len(values) != size or not all(isinstance(v, int) and not isinstance(v, bool)
                                      for v in values):
        raise BadFrame(f"bad {key}")
    return tuple(values)


def _pairs(data: Any, key: str) -> tuple[tuple[Seat, Card], ...]:
    values = _get(data, key, list)
    pairs = []
    for item in values:
        if not isinstance(item, list) or len(item) != 2:
            raise BadFrame(f"bad {key}")
        pairs.append((_seat(item[0]), _card(item[1])))
    return tuple(pairs)


def _voids(plays: tuple[tuple[Seat, Card], ...]) -> tuple[int, int, int, int]:
    """By seat, bit s set when the seat did not follow suit s this hand (public)."""
    voids = [0, 0, 0, 0]
    for start in range(0, len(plays), 4):
        trick = plays[start:start + 4]
        led = int(trick[0][1].suit)
        for seat, card in trick[1:]:
            if int(card.suit) != led:
                voids[int(seat)] |= 1 << led
    return (voids[0], voids[1], voids[2], voids[3])


def _bidding_order(by_seat: tuple[Bid, Bid, Bid, Bid], dealer: int) -> tuple[Bid, ...]:
    """Four bids by seat back in bidding order (from the dealer's left)."""
    return tuple(by_seat[(dealer + 1 + step) & 3] for step in range(4))


def _past_hands(items: Any, rules: Rules) -> tuple[HandResult, ...]:
    if not isinstance(items, list):
        raise BadFrame("bad past_hands")
    results: list[HandResult] = []
    bags: tuple[int, int] = (0, 0)
    for item in items:
        index = _get(item, "hand_index", int)
        dealer = _seat(_get(item, "dealer", str))
        raw_bids = _get(item, "bids", list)
        if len(raw_bids) != 4:
            raise BadFrame("bad bids")
        by_seat = tuple(_bid(b) for b in raw_bids)
        plays = tuple(_card(c).id for c in _get(item, "plays", list))
        tricks = _ints(item, "tricks", 4)
        scores = _ints(item, "scores", 2)
        seat_bids = (by_seat[0], by_seat[1], by_seat[2], by_seat[3])
        tricks4 = (tricks[0], tricks[1], tricks[2], tricks[3])
        # The sheet's details (contracts, bags, Nils) are the engine's own scoring of the
        # hand's public bids and tricks; the server sends only its points.
        teams = score_hand(seat_bids, tricks4, bags, rules)
        results.append(HandResult(index, (0, 0, 0, 0), _bidding_order(seat_bids, int(dealer)),
                                  plays, tricks4, teams, (scores[0], scores[1])))
        bags = (teams[0].bags_after, teams[1].bags_after)
    return tuple(results)


def view_from_json(data: Any) -> View:
    """The seat's ``View`` from the server's ``view`` object; raise :class:`BadFrame`."""
    try:
        rules = Rules.from_dict(_get(data, "rules", dict))
    except SpadesError as error:
        raise BadFrame(f"bad rules: {error}") from None
    try:
        phase = Phase(_get(data, "phase", str))
    except ValueError:
        raise BadFrame("bad phase") from None
    to_act_raw = data.get("to_act")
    leader_raw = data.get("leader")
    hand_raw = data.get("hand")
    if hand_raw is not None and not isinstance(hand_raw, list):
        raise BadFrame("bad hand")
    raw_bids = _get(data, "bids", list)
    if len(raw_bids) != 4:
        raise BadFrame("bad bids")
    bids = tuple(None if b is None else _bid(b) for b in raw_bids)
    plays = _pairs(data, "plays")
    tricks = _ints(data, "tricks_won", 4)
    scores = _ints(data, "scores", 2)
    bags = _ints(data, "bags", 2)
    played_mask = 0
    for _, card in plays:
        played_mask |= 1 << card.id
    return View(
        seat=_seat(_get(data, "seat", str)),
        rules=rules,
        phase=phase,
        to_act=None if to_act_raw is None else _seat(to_act_raw),
        hand_index=_get(data, "hand_index", int),
        dealer=_seat(_get(data, "dealer", str)),
        hand=None if hand_raw is None else CardSet.of(_card(c) for c in hand_raw),
        bids=(bids[0], bids[1], bids[2], bids[3]),
        plays=plays,
        trick=_pairs(data, "trick"),
        leader=None if leader_raw is None else _seat(leader_raw),
        tricks_won=(tricks[0], tricks[1], tricks[2], tricks[3]),
        spades_broken=bool(_get(data, "spades_broken", bool)),
        played_mask=played_mask,
        voids=_voids(plays),
        scores=(scores[0], scores[1]),
        bags=(bags[0], bags[1]),
        past_hands=_past_hands(_get(data, "past_hands", list), rules),
        legal_plays=tuple(_card(c) for c in _get(data, "legal_plays", list)),
        legal_bids=tuple(_bid(b) for b in _get(data, "legal_bids", list)),
    )


@dataclass(frozen=True)
class SeatInfo:
    seat: str  # N E S W
    nickname: str | None
    bot: bool
    away: bool
    connected: bool


@dataclass(frozen=True)
class RoomInfo:
    code: str
    public: bool
    status: str  # waiting, playing, over
    seats: tuple[SeatInfo, ...]
    nudge_seat: str | None  # the seat nudged now, if any
    nudge_by: str | None
    hints: bool
    takeover_seconds: float
    host: str | None = None  # the host's seat (None: a public table, or an older server)
    open: bool = False  # the host lets people take the bots' seats of a game under way
    rematch: tuple[str, ...] | None = None  # once over: the seats that asked for a new game
    spectators: int = 0
    timer: TurnTimer | None = None
    ranked: Ranked | None = None  # today's ranked deal (one player, three bots)


@dataclass(frozen=True)
class Ranked:
    """A ranked game's day, bots' level and, once over, its rank on the day's board."""

    day: int
    level: str
    rank: int | None = None


def ranked_from_json(data: Any) -> Ranked | None:
    if not isinstance(data, dict):
        return None
    day, level, rank = data.get("day"), data.get("level"), data.get("rank")
    if isinstance(day, bool) or not isinstance(day, int) or level not in CHOICES["level"]:
        return None
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        rank = None
    return Ranked(day, str(level), rank)


# --- the daily board of ranked games (GET /api/daily/DAY) -------------------------------

BOARD_SHOWN = 10  # the board's first entries the page lists
BOARD_DAYS = 8  # the days the ranked dialog offers: today and the seven before
PUBLISHED_AFTER = 2  # a day's deal and games are published at 00:00 UTC of day + 2


@dataclass(frozen=True)
class BoardEntry:
    """One game on the board: its line ("1. Ann: 120") and, once the day is published,
    the address of its record (``api/ranked/DAY/record/GAME``) and its button's name."""

    line: str
    nickname: str
    record: str = ""  # "" before publication: nothing to open
    label: str = ""  # the record button's accessible name: "Replay Ann's game"


@dataclass(frozen=True)
class BoardModel:
    """The board of one day and bots' level, as the ranked dialog shows it."""

    day: int
    title: str
    entries: tuple[BoardEntry, ...]
    note: str  # published: the deal's number; else when it will be
    empty: str  # said when nobody is on it
    deal: int | None = None  # the day's deal number, once published (a ``?deal=N`` link)


def _date_of(day: int) -> datetime.date | None:
    text = f"{day:08d}" if 0 <= day <= 99_999_999 else ""
    try:
        return datetime.date(int(text[:4]), int(text[4:6]), int(text[6:8]))
    except ValueError:
        return None


def _day_number(date: datetime.date) -> int:
    return date.year * 10_000 + date.month * 100 + date.day


def board_days(today: int) -> tuple[tuple[int, str], ...]:
    """The days whose board the ranked dialog offers, ``(day, label)``: today (named so),
    then the seven days before, the published ones among them."""
    date = _date_of(today)
    if date is None:
        return ()
    days = [_day_number(date - datetime.timedelta(days=back)) for back in range(BOARD_DAYS)]
    return tuple((day, t("ranked.day.today") if day == today else i18n.day_text(day))
                  for day in days)


def record_path(text: object, day: int | None = None) -> str | None:
    """A board entry's record address as the server gives it, checked
    (``api/ranked/YYYYMMDD/record/GAME``, of ``day`` when given); None otherwise."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    parts = text.split("/")
    if (len(parts) != 5 or parts[:2] != ["api", "ranked"] or parts[3] != "record"
            or not (len(parts[2]) == 8 and parts[2].isascii() and parts[2].isdigit())
            or not (1 <= len(parts[4]) <= 12 and parts[4].isascii() and parts[4].isdigit())):
        return None
    if day is not None and int(parts[2]) != day:
        return None
    return text


def board_model(board: Any, day: int, level: str, today: int) -> BoardModel:
    """The day's board (``GET /api/daily/DAY``'s JSON) for the ranked dialog: its first
    entries; once the server says the day is published, its deal number and each entry's
    record; before, nothing but the entries and the day the rest will be published."""
    data = board if isinstance(board, dict) else {}
    level_name = t(f"level.{level}")
    title = (t("ranked.board-title", level=level_name) if day == today
             else t("ranked.board-title.day", level=level_name, date=i18n.day_text(day)))
    deal = data.get("deal")
    published = (data.get("published") is True and isinstance(deal, int)
                 and not isinstance(deal, bool) and deal >= 0)
    entries = []
    raw = data.get("entries")
    for entry in (raw if isinstance(raw, list) else [])[:BOARD_SHOWN]:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("nickname", ""))[:NICKNAME_MAX]
        rank, score = entry.get("rank", 0), entry.get("score", 0)
        line = t("daily.entry", rank=int(rank) if isinstance(rank, int) else 0, name=name,
                 score=i18n.number(int(score) if isinstance(score, int) else 0))
        record = record_path(entry.get("record"), day) if published else None
        entries.append(BoardEntry(line, name, record or "",
                                  t("ranked.replay.label", name=name) if record else ""))
    if published:
        note = t("ranked.published", deal=deal)
    else:
        date = _date_of(day)
        later = (_day_number(date + datetime.timedelta(days=PUBLISHED_AFTER))
                 if date is not None else day)
        note = t("ranked.publish-on", date=i18n.day_text(later))
    empty = t("ranked.board-empty" if day == today else "ranked.board-empty.day")
    return BoardModel(day, title, tuple(entries), note, empty, deal if published else None)


def record_names(nickname: str) -> dict[str, str]:
    """The seats of a board's game, as its viewer and score sheet name them: South the
    player (by nickname), the three others the bots at their places."""
    return {seat: nickname if seat == "S" else
            t("rooms.bot.at", place=i18n.seat_name(seat, person=False)) for seat in SEAT_NAMES}


@dataclass(frozen=True)
class TurnTimer:
    """The turn's clock, as seconds left when the frame was made (the server's own clock
    on both sides: the page's clock does not matter)."""

    seat: str
    nudge_in: float  # seconds until the others may nudge (0: they may)
    takeover_in: float | None  # once nudged: seconds until a bot takes the seat over


def timer_from_json(data: Any, clock: Any) -> TurnTimer | None:
    if not isinstance(data, dict) or not isinstance(clock, int | float):
        return None
    seat, nudge_at, takeover_at = data.get("seat"), data.get("nudge_at"), data.get("takeover_at")
    if seat not in SEAT_NAMES or not isinstance(nudge_at, int | float):
        return None
    takeover = (max(0.0, float(takeover_at) - float(clock))
                if isinstance(takeover_at, int | float) else None)
    return TurnTimer(seat, max(0.0, float(nudge_at) - float(clock)), takeover)


def timer_text(room: RoomInfo, timer: TurnTimer | None, elapsed: float,
               mine: str | None) -> str:
    """The turn timer's line, ``elapsed`` seconds after the frame came: how long before a
    bot takes the seat over (once nudged), else before the others may nudge ("" when no
    person is to act)."""
    if timer is None or room.status != "playing":
        return ""
    who = seat_words(room, timer.seat, mine)
    if timer.takeover_in is not None:
        left = max(0, round(timer.takeover_in - elapsed))
        return t("rooms.timer.takeover", name=who, seconds=left)
    left = max(0, round(timer.nudge_in - elapsed))
    if left == 0:
        return t("rooms.timer.late", name=who)
    return t("rooms.timer.nudge", name=who, seconds=left)


def room_from_json(data: Any) -> RoomInfo:
    code = parse_code(_get(data, "code", str))
    if code is None:
        raise BadFrame("bad code")
    status = _get(data, "status", str)
    if status not in ("waiting", "playing", "over"):
        raise BadFrame("bad status")
    seats_raw = _get(data, "seats", list)
    if len(seats_raw) != 4:
        raise BadFrame("bad seats")
    seats = []
    for item in seats_raw:
        nick = item.get("nickname") if isinstance(item, dict) else None
        if nick is not None and not isinstance(nick, str):
            raise BadFrame("bad nickname")
        seats.append(SeatInfo(
            seat=_seat(_get(item, "seat", str)).name,
            nickname=None if nick is None else nick[:NICKNAME_MAX],
            bot=bool(item.get("bot")), away=bool(item.get("away")),
            connected=bool(item.get("connected")),
        ))
    nudge = data.get("nudge")
    host = data.get("host")
    rematch = data.get("rematch")
    spectators = data.get("spectators")
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    takeover = options.get("takeover_seconds", 30)
    return RoomInfo(
        code=code, public=bool(data.get("public")), status=status, seats=tuple(seats),
        nudge_seat=_seat(nudge.get("seat")).name if isinstance(nudge, dict) else None,
        nudge_by=_seat(nudge.get("by")).name if isinstance(nudge, dict) else None,
        hints=bool(options.get("hints", False)),
        takeover_seconds=float(takeover) if isinstance(takeover, int | float) else 30.0,
        host=None if host is None else _seat(host).name,
        open=data.get("open") is True,
        rematch=(tuple(_seat(seat).name for seat in rematch)
                 if isinstance(rematch, list) else None),
        spectators=spectators if isinstance(spectators, int) and spectators > 0 else 0,
        timer=timer_from_json(data.get("timer"), data.get("clock")),
        ranked=ranked_from_json(options.get("ranked")),
    )


# --- what the page draws ------------------------------------------------------------------


def seat_label(room: RoomInfo, seat: str, mine: str | None) -> str:
    """A seat as the others know it: its nickname (or "Bot"), "you" for the reader's."""
    info = next(s for s in room.seats if s.seat == seat)
    if seat == mine:
        return t("rooms.you", name=info.nickname or "")
    if info.nickname is None:
        return t("rooms.bot")
    if info.away or info.bot:
        return t("rooms.away", name=info.nickname)
    if not info.connected:  # gone (a closed page, a lost network) until a bot takes over
        return t("rooms.offline", name=info.nickname)
    return info.nickname


def seat_words(room: RoomInfo, seat: str, mine: str | None) -> str:
    """A seat named in a sentence or a list (whose turn, who won the last trick): as on
    its plate, but a bot with its place ("Bot (West)"), since several may play."""
    info = next(s for s in room.seats if s.seat == seat)
    if info.nickname is None:
        return t("rooms.bot.at", place=i18n.seat_name(seat, person=False))
    return seat_label(room, seat, mine)


def wait_text(room: RoomInfo, view: View) -> str:
    """What a card clicked off the reader's turn is told: whose turn it is, by name (North,
    seat 0, named too: a Seat is a number, so ``if view.to_act`` once left it out)."""
    if view.to_act is None:  # between hands, or the game over: nothing to say
        return ""
    return t("refusal.not-your-turn", seat=seat_words(room, view.to_act.name, view.seat.name))


def presence(room: RoomInfo, seat: str) -> str:
    """The dot at a seat's plate: "on" (its person's page is connected), "off" (a person's
    seat with no page: gone, or reconnecting), "" (a bot's)."""
    info = next(s for s in room.seats if s.seat == seat)
    if info.nickname is None:
        return ""
    return "on" if info.connected else "off"


def room_table_model(view: View, room: RoomInfo, ui: models.UiState,
                     watching: bool = False) -> models.TableModel:
    """The table of a room: the solo table's model with the seats named by nickname (a
    spectator's: nobody is "you", no hand)."""
    base = models.table_model(view, ui)
    mine: str | None = None if watching else view.seat.name
    bids = models.shown_bids(view)  # the final hand's once the game is over
    seats = tuple(dataclasses.replace(
        seat, name=seat_label(room, seat.seat, mine),
        cards=0 if seat.seat == mine else seat.cards,  # the reader's cards are the hand
        presence=presence(room, seat.seat),
        label=t("seat.label", seat=seat_label(room, seat.seat, mine),
                bid=i18n.bid_text(None if bids[SEAT_NAMES.index(seat.seat)] is None
                                  else str(bids[SEAT_NAMES.index(seat.seat)])),
                tricks=seat.tricks),
    ) for seat in base.seats)
    turn = base.turn
    if (not base.turn_mine and view.to_act is not None and view.to_act != view.seat
            and view.phase is not Phase.OVER and not models.sheet_pending(view, ui)):
        key = "turn.other.bid" if view.phase is Phase.BIDDING else "turn.other.play"
        turn = t(key, seat=seat_words(room, view.to_act.name, mine))
    if watching and view.phase is not Phase.OVER:
        turn = (t("rooms.watching.turn", seat=seat_words(room, view.to_act.name, None))
                if view.to_act is not None else "")
    model = dataclasses.replace(base, seats=seats, turn=turn,
                                deal_label=t("ranked.bar") if room.ranked is not None
                                else t("rooms.label", code=show_code(room.code)))
    if watching:
        model = dataclasses.replace(model, hand=(), panel="", turn_mine=False,
                                    hint_enabled=False, hint_visible=False)
    if is_away(room, mine) and view.phase is not Phase.OVER:
        model = away_model(model)
    return model


def is_away(room: RoomInfo | None, seat: str | None) -> bool:
    """A bot plays ``seat`` after a nudge, until its player says "I'm back"."""
    return room is not None and any(info.seat == seat and info.away for info in room.seats)


def away_model(model: models.TableModel) -> models.TableModel:
    """The table while a bot plays the reader's seat: the cards shown but inert (none
    playable, none a button that would act), no bidding panel, no hint, and the turn line
    saying who plays and how to get the seat back."""
    hand = tuple(
        dataclasses.replace(
            card, disabled=True, label=t("rooms.away.card", card=card.label),
            classes=tuple(c for c in card.classes if c not in ("playable", "illegal", "hinted"))
            + ("away",),
        ) if card.face_up else card
        for card in model.hand
    )
    return dataclasses.replace(model, hand=hand, panel="", turn=t("rooms.away.turn"),
                               turn_mine=False, hint_enabled=False)


@dataclass(frozen=True)
class LobbyRow:
    seat: str  # N E S W
    place: str  # the seat's place name ("North")
    who: str  # who sits there ("Ann (you)", "free seat")
    host: bool  # the host sits there
    movable: bool  # a player sits there and the reader, the host, may move them
    move_label: str  # the name of the seat picker of that player ("Seat of Ann")


@dataclass(frozen=True)
class LobbyModel:
    code: str
    link: str
    rows: tuple[LobbyRow, ...]
    host: bool  # the reader is the host: seats the players, starts the game
    public: bool  # a quick-match table (no host, no link to share)
    host_name: str  # the host's nickname, for the others ("" when none)
    # the seat pickers' options: (seat, "East", "East: Bob"); a picker shows its own seat
    # by its place alone (the row already names who sits there), the others with who
    choices: tuple[tuple[str, str, str], ...]
    status: str


def reader_is_host(room: RoomInfo, mine: str | None) -> bool:
    """The reader hosts the room (a room of an older server, which names no host, lets
    each of its players act as one, as that server does)."""
    if room.public or mine is None:
        return False
    return room.host is None or room.host == mine


def lobby_model(room: RoomInfo, mine: str | None, link: str) -> LobbyModel:
    host = reader_is_host(room, mine)
    rows = []
    choices = []
    for info in room.seats:
        place = i18n.seat_name(info.seat, person=False)
        who = t("rooms.empty") if info.nickname is None else seat_label(room, info.seat, mine)
        rows.append(LobbyRow(
            seat=info.seat, place=place, who=who, host=info.seat == room.host,
            movable=host and info.nickname is not None and room.status == "waiting",
            move_label=t("rooms.move.label", name=info.nickname or ""),
        ))
        choices.append((info.seat, place, t("rooms.move.choice", place=place, who=who)))
    holder = next((s for s in room.seats if s.seat == room.host), None)
    return LobbyModel(room.code, link, tuple(rows), host=host, public=room.public,
                      host_name=(holder.nickname or "") if holder is not None else "",
                      choices=tuple(choices), status=room.status)


def parse_move(arg: str) -> tuple[str, str] | None:
    """A seat picker's change, ``"W:E"`` (the player of West to East), as two seats; None
    when it is not two different seats."""
    source, _, target = arg.partition(":")
    if source in SEAT_NAMES and target in SEAT_NAMES and source != target:
        return source, target
    return None


def chat_line(room: RoomInfo | None, seat: str, phrase: str, mine: str | None) -> str:
    """A received phrase in the reader's language, with who said it."""
    who = seat_label(room, seat, mine) if room is not None else i18n.seat_name(seat)
    return t("rooms.said", name=who, phrase=t(phrase))


def arrivals(before: RoomInfo | None, after: RoomInfo, mine: str | None) -> list[str]:
    """A player who took a bot's seat in a game under way, said to the table ("Cy joins
    the table in South's place"): the others would not know who now plays there."""
    if (before is None or before.code != after.code or before.status != "playing"
            or after.status != "playing"):
        return []
    was = {info.seat: info.nickname for info in before.seats}
    return [t("rooms.joined", name=seat_label(after, info.seat, mine),
              place=i18n.seat_name(info.seat, person=False))
            for info in after.seats
            if info.seat != mine and info.nickname is not None and was.get(info.seat) is None]


@dataclass(frozen=True)
class HostRow:
    seat: str
    who: str
    can_free: bool  # a person other than the host sits there


def host_rows(room: RoomInfo, mine: str | None) -> tuple[HostRow, ...]:
    """The seats dialog: who sits where, with "Free this seat" for the host's guests."""
    host = reader_is_host(room, mine)
    return tuple(HostRow(
        info.seat,
        seat_words(room, info.seat, mine),
        host and info.nickname is not None and info.seat != mine,
    ) for info in room.seats)


def rematch_text(room: RoomInfo, mine: str | None) -> str:
    """Under the end dialog's "Rematch": who asked, or who is still to answer."""
    if room.rematch is None:
        return ""
    waiting = [info for info in room.seats
               if info.nickname is not None and info.seat not in room.rematch]
    if not room.rematch:
        return ""
    if mine in room.rematch:
        names = ", ".join(seat_words(room, info.seat, mine) for info in waiting)
        return t("rooms.rematch.waiting", names=names) if names else ""
    asked = ", ".join(seat_words(room, seat, mine) for seat in room.rematch)
    return t("rooms.rematch.asked", names=asked)


# --- what the page keeps (local storage) -----------------------------------------------


def empty_stored() -> dict[str, Any]:
    return {"nickname": "", "muted": False, "seats": {}, "last": None, "player": ""}


PLAYER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def good_player(text: object) -> bool:
    """The browser's own token for the ranked deal (one game a day per browser)."""
    return isinstance(text, str) and 16 <= len(text) <= 64 and set(text) <= PLAYER_CHARS


def check_stored(data: Any) -> tuple[dict[str, Any], bool]:
    """The rooms' stored data (nickname, mute, seat tokens by room code, the last room)
    checked: ``(value, clean)``; whatever is wrong is dropped, never raised."""
    value = empty_stored()
    if not isinstance(data, dict):
        return value, data is None
    clean = True
    nick = clean_nickname(data.get("nickname")) if data.get("nickname") else ""
    if nick is None:
        nick, clean = "", False
    value["nickname"] = nick
    value["muted"] = data.get("muted") is True
    seats = data.get("seats")
    if isinstance(seats, dict):
        for code, item in list(seats.items())[:20]:
            good = parse_code(code)
            if (good is not None and isinstance(item, dict)
                    and item.get("seat") in SEAT_NAMES
                    and isinstance(item.get("token"), str) and 1 <= len(item["token"]) <= 64):
                value["seats"][good] = {"seat": item["seat"], "token": item["token"]}
            else:
                clean = False
    elif seats is not None:
        clean = False
    last = parse_code(data.get("last"))
    value["last"] = last if last in value["seats"] else None
    player = data.get("player")
    if good_player(player):
        value["player"] = player
    elif player not in (None, ""):
        clean = False
    return value, clean


def backoff_seconds(attempt: int) -> float:
    """Seconds before reconnection attempt ``attempt`` (0, 1, ...): 0.5 s doubling, 10 s at most."""
    return float(min(10.0, 0.5 * (2 ** min(attempt, 10))))
