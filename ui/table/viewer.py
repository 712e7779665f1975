"""The hand viewer's model: a finished hand replayed trick by trick (pure Python).

Built from a finished hand as the engine keeps it (``spades_core.game.HandResult``: a
``View``'s ``past_hands``, so an online table could draw it too), a frame index and the
coach's review of the hand (``spades_core.review.review_to_dict``, as the coach's worker
returns it), it gives plain frozen dataclasses that ``ui/table/viewer_screen.py`` draws:

- frame 0, the bids: the four hands as dealt, face up, and the bids in bidding order;
- frame ``k`` (1 to 13), trick ``k``: the four hands as they were before it, face up (each
  seat's card of the trick marked), the trick in play order, who won it, the tricks taken
  so far.

Where the review flagged one of South's decisions, that frame carries the coach's
verdict: the card (or bid) played, the better one, the review's sentence
(``i18n.hint_sentence``, as the review panel says it) and its cost. Every rule comes from
the engine: the seats of the plays (``HandResult.seated_plays``), the winner of a trick
(``spades_core.rules.winning_play``). Cards are in the table's order (``models.hand_order``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spades_core.cards import Card
from spades_core.game import HandResult
from spades_core.rules import winning_play
from spades_core.seats import Seat

from ..shared import i18n
from ..shared.i18n import t
from ..shared.models import CardModel, card_model, hand_order, place_of

BIDS_FRAME = 0


@dataclass(frozen=True)
class Verdict:
    """The coach's verdict on one of the reader's decisions (a review item)."""

    kind: str  # "bid" or "card"
    head: str  # "Trick 3: you played Q♠; better: 2♣."
    played: str  # the card ("QS") or the bid ("3") played
    better: str  # the Expert's choice
    played_card: CardModel | None  # the two cards as pictures (None for a bid)
    better_card: CardModel | None
    played_label: str  # "Played" / "Better" beside the pictures, or the bids in words
    better_label: str
    sentence: str  # the review's sentence (the hint's reason and "not the X" clause)
    cost: str  # "It cost about 12 points on average."


@dataclass(frozen=True)
class ViewerHand:
    """One seat's cards before the frame's trick (as dealt, on the bids' frame)."""

    seat: str  # N E S W
    name: str
    place: str  # bottom (the reader), left, top, right
    bid: str  # "Bid 3"
    tricks: str  # "Tricks 2/3": taken once this frame's trick is over, of the bid
    cards: tuple[CardModel, ...]
    label: str  # the group's accessible name: "North's cards"
    dealer: bool = False


@dataclass(frozen=True)
class ViewerPlay:
    """One card of the frame's trick, in play order."""

    seat: str
    name: str
    card: CardModel
    winner: bool = False


@dataclass(frozen=True)
class ViewerBid:
    """One bid, in bidding order (the dealer's left first)."""

    seat: str
    name: str
    bid: str  # in words: "3", "Nil"
    flagged: bool = False  # the coach has a verdict on it


@dataclass(frozen=True)
class ViewerModel:
    hand_index: int  # 0 for the game's first hand
    frame: int  # 0: the bids; k: trick k
    frames: int  # 1 + the hand's tricks
    title: str  # "Hand 2, trick by trick"
    step: str  # "The bids" / "Trick 3 of 13"
    hands: tuple[ViewerHand, ...]  # N E S W
    bids: tuple[ViewerBid, ...]
    plays: tuple[ViewerPlay, ...]  # the trick in play order; empty on the bids' frame
    winner: str  # "North wins the trick."; "" on the bids' frame
    verdict: Verdict | None  # the coach's verdict on the reader's decision of this frame
    flagged: tuple[tuple[int, str], ...]  # (frame, "Trick 3" / "Bid") of every verdict
    review_note: str  # what is known of the review: computing, none kept, nothing costly
    review_state: str  # "computing", "none" (no review kept), "done"

    @property
    def has_prev(self) -> bool:
        return self.frame > 0

    @property
    def has_next(self) -> bool:
        return self.frame < self.frames - 1


def hand_key(hand: HandResult) -> str:
    """Which played hand this is (its index, its deal, its plays): the key under which the
    page keeps the hand's review, the same hand of another game never taking it."""
    masks = ".".join(f"{mask:x}" for mask in hand.dealt_masks)
    plays = ".".join(str(card_id) for card_id in hand.play_ids)
    return f"{hand.hand_index}:{masks}:{plays}"


def frame_count(hand: HandResult) -> int:
    """The bids' frame and one frame a trick."""
    return 1 + len(hand.play_ids) // 4


def clamp_frame(hand: HandResult, frame: int) -> int:
    return max(0, min(frame_count(hand) - 1, frame))


def tricks_of(hand: HandResult) -> list[tuple[tuple[Seat, Card], ...]]:
    """The hand's tricks, each a tuple of (seat, card) in play order."""
    seated = hand.seated_plays()
    return [seated[start:start + 4] for start in range(0, len(seated) - len(seated) % 4, 4)]


def _bid_order(hand: HandResult) -> list[Seat]:
    """The seats in bidding order: the dealer's left first."""
    first = (int(hand.dealer) + 1) & 3
    return [Seat((first + step) & 3) for step in range(len(hand.bid_history))]


def verdict_frames(hand: HandResult, review: Mapping[str, Any] | None,
                   reader: Seat = Seat.S) -> dict[int, Mapping[str, Any]]:
    """The review's items by the frame of the decision they judge: a bid on the bids'
    frame, a card on its trick's. An item that does not match the hand (another hand's,
    or a card the reader did not play in that trick) is left out."""
    if not review or review.get("failed"):
        return {}
    found: dict[int, Mapping[str, Any]] = {}
    tricks = tricks_of(hand)
    bids = dict(zip(_bid_order(hand), hand.bid_history, strict=False))
    for item in review.get("items", []) or []:
        try:
            if int(item.get("hand", hand.hand_index)) != hand.hand_index:
                continue
            kind, played = str(item["kind"]), str(item["played"])
            if kind == "bid":
                bid = bids.get(reader)
                if bid is not None and str(bid) == played:
                    found[BIDS_FRAME] = item
                continue
            number = int(item["trick_number"])
            if not 1 <= number <= len(tricks):
                continue
            mine = [str(card) for seat, card in tricks[number - 1] if seat == reader]
            if mine == [played]:
                found[number] = item
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return found


def _coach(key: str, **params: object) -> str:
    """A sentence of the coach's catalogue with its plural marks resolved (as the review
    panel says it)."""
    return i18n.hint_text(key, {name: str(value) for name, value in params.items()})


def verdict_model(item: Mapping[str, Any]) -> Verdict:
    """A review item (``review_to_dict``'s) as the viewer shows it."""
    kind = str(item["kind"])
    played, better = str(item["played"]), str(item["better"])
    if kind == "bid":
        played_name, better_name = i18n.bid_text(played), i18n.bid_text(better)
        head = _coach("review.bid", played=played_name, better=better_name)
        played_card = better_card = None
    else:
        played_name, better_name = i18n.card_short(played), i18n.card_short(better)
        head = _coach("review.card", trick=item["trick_number"], played=played_name,
                      better=better_name)
        played_card = card_model(played, classes=("small", "vw-played-card"))
        better_card = card_model(better, classes=("small", "vw-better-card"))
    sentence = i18n.review_sentence(item)
    points = i18n.whole_points(int(item["cost"]))
    cost = _coach("review.cost", points=i18n.number(points), n=str(points))
    return Verdict(
        kind=kind, head=head, played=played, better=better, played_card=played_card,
        better_card=better_card,
        played_label=t("viewer.played", action=played_name),
        better_label=t("viewer.better", action=better_name),
        sentence=sentence, cost=cost,
    )


def _step_name(frame: int, frames: int) -> str:
    if frame == BIDS_FRAME:
        return t("viewer.step.bids")
    return t("viewer.step.trick", trick=frame, tricks=frames - 1)


def _review_note(review: Mapping[str, Any] | None, computing: bool, verdicts: int) -> tuple[
        str, str]:
    if computing:
        return t("viewer.review.computing"), "computing"
    if review is None or review.get("failed"):
        return t("viewer.review.missing"), "none"
    if not verdicts:
        return t("review.none"), "done"
    return t("viewer.review.some"), "done"


def viewer_model(hand: HandResult, frame: int, review: Mapping[str, Any] | None = None,
                 computing: bool = False, reader: Seat = Seat.S,
                 names: Mapping[str, str] | None = None, reviewed: bool = True) -> ViewerModel:
    """Frame ``frame`` of the finished ``hand`` (clamped to the hand's frames); ``review``:
    the coach's review of it (``review_to_dict``), None when none is kept (``computing``:
    the coach is still at it); ``reader``: whose decisions were reviewed, at the bottom;
    ``names``: the seats' names where they are not the solo table's (a room's);
    ``reviewed`` False: a game the coach does not review (a board's), and the note says so."""
    frames = frame_count(hand)
    frame = clamp_frame(hand, frame)
    tricks = tricks_of(hand)

    def name(seat: Seat) -> str:
        return names[seat.name] if names and seat.name in names else i18n.seat_name(seat.name)

    found = verdict_frames(hand, review, reader)
    bids_by_seat = hand.bids_by_seat
    trick = tricks[frame - 1] if frame > BIDS_FRAME else ()
    win_seat = winning_play(trick)[0] if trick else None
    now = {seat: card for seat, card in trick}
    verdict_item = found.get(frame)
    better = str(verdict_item["better"]) if verdict_item and frame > BIDS_FRAME else ""
    # each seat's cards before this frame's trick: dealt, less the earlier tricks' cards
    gone = {card.id for done in tricks[:max(0, frame - 1)] for _, card in done}
    taken = [0, 0, 0, 0]
    for done in tricks[:frame]:
        taken[int(winning_play(done)[0])] += 1
    hands = []
    for seat in Seat:
        held = [card for card in hand_order(hand.dealt(seat)) if card.id not in gone]
        cards = []
        for card in held:
            classes = ["small"]
            if now.get(seat) == card:
                classes.append("vw-now")
                if seat == win_seat:
                    classes.append("winner")
            if seat == reader and str(card) == better:
                classes.append("vw-better")
            cards.append(card_model(str(card), classes=classes))
        bid = bids_by_seat[int(seat)]
        hands.append(ViewerHand(
            seat=seat.name, name=name(seat), place=place_of(seat, reader),
            bid=t("seat.bid", bid=i18n.bid_text(str(bid))),
            tricks=t("seat.tricks", tricks=f"{taken[int(seat)]}/{bid.tricks}"),
            cards=tuple(cards), label=t("viewer.cards", seat=name(seat)),
            dealer=seat == hand.dealer,
        ))
    plays = tuple(
        ViewerPlay(seat.name, name(seat),
                   card_model(str(card), f"{name(seat)}: {i18n.card_name(str(card))}",
                              classes=("winner",) if seat == win_seat else ()),
                   seat == win_seat)
        for seat, card in trick
    )
    bids = tuple(
        ViewerBid(seat.name, name(seat), i18n.bid_text(str(bid)),
                  flagged=seat == reader and BIDS_FRAME in found)
        for seat, bid in zip(_bid_order(hand), hand.bid_history, strict=False)
    )
    winner = ""
    if win_seat is not None:
        winner = (t("say.trick.you") if win_seat == Seat.S and not names
                  else t("say.trick", seat=name(win_seat)))
    note, state = (_review_note(review, computing, len(found)) if reviewed
                   else (t("viewer.review.record"), "none"))
    return ViewerModel(
        hand_index=hand.hand_index, frame=frame, frames=frames,
        title=t("viewer.title", number=hand.hand_index + 1),
        step=_step_name(frame, frames),
        hands=tuple(hands), bids=bids, plays=plays, winner=winner,
        verdict=verdict_model(verdict_item) if verdict_item is not None else None,
        flagged=tuple((index, t("viewer.jump.bid") if index == BIDS_FRAME
                       else t("viewer.jump.trick", trick=index)) for index in sorted(found)),
        review_note=note, review_state=state,
    )


def review_frame(item: Mapping[str, Any]) -> int:
    """The frame a review item's decision is on (the review panel's "see it" button)."""
    return BIDS_FRAME if item.get("kind") == "bid" else int(item.get("trick_number", 0))


def parse_target(arg: str, hands: Sequence[HandResult]) -> tuple[int, int] | None:
    """A ``data-arg`` of the ``viewer`` action, ``"H"`` or ``"H:F"`` (hand index, frame;
    the bids' frame when absent), checked against the finished hands; None when bad."""
    head, _, tail = arg.partition(":")
    try:
        index = int(head)
        frame = int(tail) if tail else BIDS_FRAME
    except ValueError:
        return None
    if not 0 <= index < len(hands):
        return None
    return index, clamp_frame(hands[index], frame)


# the keys that step through the frames while the viewer is open: -1 / +1 a frame, or
# "first" / "last"
KEY_STEPS: dict[str, int | str] = {"ArrowLeft": -1, "ArrowRight": 1, "Home": "first",
                                   "End": "last"}


def frame_for_key(key: str, frame: int, frames: int) -> int | None:
    """The frame a key leads to from ``frame`` (None: the key does not step, or the frame
    stays where it is: the first frame has no "back")."""
    step = KEY_STEPS.get(key)
    if step is None:
        return None
    target = 0 if step == "first" else frames - 1 if step == "last" else frame + int(step)
    target = max(0, min(frames - 1, target))
    return None if target == frame else target


class Reviews:
    """The coach's reviews kept for the viewer, by :func:`hand_key`: the page computes each
    hand's review once, as its score sheet opens, and the viewer shows its verdicts. At
    most ``limit`` hands are kept, the oldest dropped first."""

    def __init__(self, limit: int = 40) -> None:
        self.limit = limit
        self._done: dict[str, Mapping[str, Any]] = {}
        self._computing: set[str] = set()

    def start(self, key: str) -> None:
        self._computing.add(key)

    def put(self, key: str, data: Mapping[str, Any]) -> None:
        self._computing.discard(key)
        self._done.pop(key, None)
        self._done[key] = data
        while len(self._done) > self.limit:
            del self._done[next(iter(self._done))]

    def get(self, key: str) -> tuple[Mapping[str, Any] | None, bool]:
        """The review kept for the hand (None if none), and whether it is being computed."""
        return self._done.get(key), key in self._computing
