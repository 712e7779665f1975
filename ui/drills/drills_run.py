"""One drill under way (pure, no browser import): its ten items, one at a time.

The Drills tab of the lessons screen (``ui/lessons/lessons_screen.py``, drawing through
``ui/drills/drills_screen.py``) draws from this: the current item's question (South's view, cheap
to build), whether its answer is known yet, the answer given, the score so far, and the end.

The answers of *Bidding* and *Nil or not* are the Expert's (and, for Bidding, the tricks
the hand took over 200 sampled deals): about 100 to 300 ms of work in the page, so the
screen has them computed off the main thread (the bots' worker, ``ui/botworker.py``'s
``drill``, or :func:`solve_steps` in slices), as JSON text (:func:`solved_json`,
:func:`read_solved`), and hands them to the run with :meth:`DrillRun.provide`.
*Counting* is answered by the engine in a few milliseconds, on the spot.

The words after an answer (:func:`feedback`) and the Bidding chart's bars (:func:`chart`)
are built here, in the page's language, so that the CPython tests check them.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass, field

from spades_core.bids import Bid, parse_bid
from spades_core.bots.expert import run_steps
from spades_core.cards import Card, Suit
from spades_core.errors import UsageError
from spades_core.hints import TEMPLATES, Hint
from spades_core.lessons.drills import (
    DEALS,
    DRILLS,
    ITEMS,
    SAMPLES,
    Answer,
    BidItem,
    CountItem,
    Item,
    NilItem,
    counting_question,
    item,
    item_steps,
    judge,
    nil_why,
    question,
    score,
    trick_counts_steps,
)
from spades_core.reasons import HINT_WHYS
from spades_core.rules import winning_play
from spades_core.seats import Seat
from spades_core.views import View

from ..shared import i18n

ENGINE_DRILLS = frozenset({"bidding", "nil"})  # answered by the Expert: off the main thread
VOID_SEATS = (Seat.W, Seat.N, Seat.E)  # the seats a void question offers, left to right
TRICKS = 14  # a count for 0 to 13 tricks


@dataclass(frozen=True, slots=True)
class Solved:
    """An item with its answer; for Bidding, how many tricks the hand took (playing to
    the Expert's bid) in each of :data:`SAMPLES` deals, by number of tricks 0 to 13."""

    item: Item
    counts: tuple[int, ...] = ()


def solve_steps(drill: str, index: int) -> Generator[None, None, str]:
    """The item and its answer in steps (yields after each imagined deal), as the JSON
    text of :func:`solved_json`."""
    found = yield from item_steps(drill, index)
    counts: tuple[int, ...] = ()
    if isinstance(found, BidItem):
        counts = yield from trick_counts_steps(found.view, found.expert)
    return solved_json(found, counts)


def solve_json(drill: str, index: int) -> str:
    """:func:`solve_steps` in one piece (the worker's ``drill``)."""
    return run_steps(solve_steps(drill, index))


def solved_json(found: Item, counts: tuple[int, ...] = ()) -> str:
    """An item's answer as JSON (the view is not in it: :func:`read_solved` builds it
    again from the deal number)."""
    data: dict[str, object] = {"deal": found.deal}
    if isinstance(found, BidItem):
        data.update(expert=str(found.expert), counts=list(counts))
        advice = found.advice
        if advice is not None:
            data["hint"] = {"reason": advice.reason, "tip": advice.tip,
                            "params": dict(advice.params), "contrast": advice.contrast,
                            "why": advice.why, "said": advice.said}
    elif isinstance(found, NilItem):
        data.update(nil=found.nil, made=found.made, worlds=found.worlds)
    else:
        data.update(spades_out=found.spades_out,
                    voids=sorted([seat.name, suit] for seat, suit in found.voids))
    return json.dumps(data, separators=(",", ":"))


def _count(value: object, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise UsageError(f"not a count from 0 to {top}: {value!r}")
    return value


def read_solved(drill: str, index: int, text: str, view: View | None = None) -> Solved:
    """The item ``index`` of ``drill`` from :func:`solved_json`'s text and its question
    (``view``, else built again); anything malformed raises ``UsageError``."""
    if drill not in DEALS or not 0 <= index < ITEMS:
        raise UsageError(f"no drill item {drill!r} {index!r}")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise UsageError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("deal") != DEALS[drill][index]:
        raise UsageError("not this item's answer")
    view = view if view is not None else question(drill, index)
    deal = DEALS[drill][index]
    try:
        if drill == "bidding":
            counts = data.get("counts")
            if not isinstance(counts, list) or len(counts) != TRICKS:
                raise UsageError("the trick counts are missing")
            expert = parse_bid(str(data.get("expert")))
            found: Item = BidItem(deal, view, expert, _read_hint(data.get("hint"), expert))
            return Solved(found, tuple(_count(c, SAMPLES) for c in counts))
        if drill == "nil":
            nil = data.get("nil")
            if not isinstance(nil, bool):
                raise UsageError("no Nil verdict")
            worlds = _count(data.get("worlds"), 10_000)
            return Solved(NilItem(deal, view, nil, _count(data.get("made"), worlds), worlds))
        voids = data.get("voids")
        if not isinstance(voids, list):
            raise UsageError("no voids")
        pairs = frozenset((Seat[str(pair[0])], _count(pair[1], 3)) for pair in voids
                          if isinstance(pair, list) and len(pair) == 2)
        return Solved(CountItem(deal, view, _count(data.get("spades_out"), 13), pairs))
    except (KeyError, TypeError, ValueError) as error:  # a bad bid or seat name
        raise UsageError(f"a bad answer: {error}") from None


def _read_hint(data: object, expert: Bid) -> Hint | None:
    """The Bidding answer's hint from :func:`solved_json`'s text (None when it has none);
    every key one the catalogues have, every parameter a string."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise UsageError("a bad hint")
    reason, why, contrast = data.get("reason"), data.get("why"), data.get("contrast")
    params, tip, said = data.get("params"), data.get("tip"), data.get("said")
    if (reason not in TEMPLATES or not isinstance(tip, str)
            or not (why == "" or why in HINT_WHYS)
            or not (contrast == "" or contrast in TEMPLATES) or not isinstance(said, bool)
            or not isinstance(params, dict)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in params.items())):
        raise UsageError("a bad hint")
    assert isinstance(reason, str) and isinstance(why, str) and isinstance(contrast, str)
    return Hint(expert, tip, reason, dict(params), contrast, why, said)


@dataclass
class DrillRun:
    drill: str
    index: int = 0
    right: list[bool] = field(default_factory=list)
    given: list[Answer] = field(default_factory=list)
    answered: bool = False
    _item: Item | None = None
    _counts: tuple[int, ...] = ()
    _view: View | None = None

    def __post_init__(self) -> None:
        if self.drill not in DRILLS:
            raise UsageError(f"no drill {self.drill!r}")

    @property
    def view(self) -> View:
        """The current item's question (South's view), without waiting for its answer."""
        if self._item is not None:
            return self._item.view
        if self._view is None:
            self._view = question(self.drill, self.index)
        return self._view

    @property
    def ready(self) -> bool:
        """Whether the current item's answer is known (else :attr:`current` computes it
        here and now, on the caller's thread)."""
        return self._item is not None

    @property
    def current(self) -> Item:
        if self._item is None:
            self._item = item(self.drill, self.index)
            if isinstance(self._item, BidItem):
                self._counts = run_steps(trick_counts_steps(self._item.view, self._item.expert))
        return self._item

    @property
    def counts(self) -> tuple[int, ...]:
        """The Bidding chart's counts for the current item (empty before its answer)."""
        return self._counts

    def provide(self, solved: Solved) -> bool:
        """Take the current item's answer computed elsewhere; False (and nothing changes)
        when it is for another item or the answer is already known."""
        if self._item is not None or self.finished \
                or solved.item.deal != DEALS[self.drill][self.index]:
            return False
        self._item = solved.item
        self._counts = solved.counts
        return True

    def answer(self, given: Answer) -> bool:
        """Judge ``given`` once per item; a second answer to the same item is refused."""
        if self.answered or self.finished:
            raise UsageError("this item is already answered")
        verdict = judge(self.index, self.current, given)
        self.right.append(verdict)
        self.given.append(given)
        self.answered = True
        return verdict

    def next(self) -> bool:
        """Go on to the next item; False at the end (after the tenth)."""
        if not self.answered:
            raise UsageError("answer the item first")
        self.index += 1
        self.answered = False
        self._item = None
        self._counts = ()
        self._view = None
        return not self.finished

    @property
    def question_kind(self) -> str:
        """What the current item asks: ``"bid"``, ``"nil"``, ``"spades"`` or ``"void"``."""
        if self.drill == "bidding":
            return "bid"
        if self.drill == "nil":
            return "nil"
        found = self.current  # counting: a few milliseconds
        assert isinstance(found, CountItem)
        return counting_question(self.index, found)

    @property
    def finished(self) -> bool:
        return self.index >= ITEMS

    @property
    def score(self) -> int:
        return score(self.right)


# --- reading the answer controls ---------------------------------------------------------


@dataclass
class Pick:
    """What the player has done on the current item before it is judged."""

    seat: str = ""  # a void question: the seat chosen ("W", "N", "E")
    suit: str = ""  # and the suit ("hearts")
    waiting: Answer | None = None  # given before the Expert's answer came: judged when it does
    note: str = ""  # a drill text key to show (an entry that is not a number...)
    failed: bool = False  # the answer could not be computed


def answer_token(given: Answer) -> str:
    """The control's token of an answer (the inverse of :func:`parse_answer`)."""
    if isinstance(given, Bid):
        return str(given)
    if isinstance(given, bool):
        return "yes" if given else "no"
    if isinstance(given, tuple):
        return f"{given[0].name}:{i18n.SUIT_KEYS[given[1]]}"
    return str(given)


def right_token(found: Item, index: int) -> str:
    """The token of the right answer (for a void question, the first shown void)."""
    if isinstance(found, BidItem):
        return str(found.expert)
    if isinstance(found, NilItem):
        return "yes" if found.nil else "no"
    if counting_question(index, found) == "void":
        return answer_token(sorted(found.voids)[0])
    return str(found.spades_out)


def parse_answer(kind: str, token: str) -> Answer | None:
    """The answer a control's token stands for, or None when it is not one: a bid token
    (``"nil"``, ``"4"``), ``"yes"`` / ``"no"``, a number typed by the player (0 to 13),
    or a seat and a suit (``"W:hearts"``)."""
    text = token.strip()
    try:
        if kind == "bid":
            bid = parse_bid(text)
            return None if bid.blind else bid
        if kind == "nil":
            return {"yes": True, "no": False}.get(text)
        if kind == "spades":
            if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > 13:
                return None
            return int(text)
        if kind == "void":
            seat, _, suit = text.partition(":")
            if seat not in {s.name for s in VOID_SEATS} or suit not in i18n.SUIT_KEYS:
                return None
            return (Seat[seat], i18n.SUIT_KEYS.index(suit))
    except (ValueError, KeyError):
        return None
    return None


# --- what the screen says after an answer -------------------------------------------------


def say(key: str, **params: object) -> str:
    """The drill text ``lessons.drill.<key>``, its plural marks resolved by ``params``."""
    values = {name: str(value) for name, value in params.items()}
    text = i18n.plural(i18n.t(f"lessons.drill.{key}"), values)
    return text.format_map(_Keep(values))


class _Keep(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _bid_words(bid: Bid) -> str:
    return i18n.bid_text("nil" if bid.is_nil else str(bid))


def _suit_words(suit: int) -> str:
    return i18n.suit_name(i18n.SUIT_KEYS[suit])


def answer_words(kind: str, given: Answer) -> str:
    """The answer given, in words (``"4"``, ``"Nil"``, ``"Yes"``, ``"West, hearts"``)."""
    if isinstance(given, Bid):
        return _bid_words(given)
    if isinstance(given, bool):
        return say("yes" if given else "no")
    if isinstance(given, tuple):
        return say("counting.void.item", seat=i18n.seat_name(given[0].name, person=False),
                   suit=_suit_words(given[1]))
    return str(given)


def feedback(run: DrillRun) -> list[str]:
    """The sentences shown after the current item's answer: right or not, then the
    answer and what stands behind it (empty before the answer)."""
    if not run.answered or not run.right:
        return []
    found = run.current
    lines = [say("right" if run.right[-1] else "wrong")]
    if isinstance(found, BidItem):
        lines.append(say("bidding.expert", bid=_bid_words(found.expert)))
        advice = found.advice
        if advice is not None:  # why that number: the hint's words (one voice)
            i18n.load("hints")
            lines.append(i18n.hint_sentence(advice.reason, dict(advice.params),
                                            advice.contrast, None, advice.why, advice.said))
        lines.append(say("bidding.rule"))
    elif isinstance(found, NilItem):
        lines.append(say("nil.yes" if found.nil else "nil.no"))
        if found.worlds:
            lines.append(say("nil.estimate", count=round(10 * found.made / found.worlds)))
        else:
            lines.append(say("nil.untried"))
        for fact in nil_why(found):  # why, from the hand's facts
            lines.append(say(f"nil.why.{fact.key}", count=fact.count,
                             card=i18n.card_definite(str(fact.card)) if fact.card else "",
                             suit=_suit_words(fact.suit) if fact.suit >= 0 else ""))
    elif run.question_kind == "void":
        pairs = sorted(found.voids)
        lines.append(say("counting.voids", list=", ".join(
            say("counting.void.item", seat=i18n.seat_name(seat.name, person=False),
                suit=_suit_words(suit)) for seat, suit in pairs)))
    else:
        view = found.view
        assert view.hand is not None
        held = sum(1 for card in view.hand if card.suit == Suit.SPADES)
        played = sum(1 for _, card in view.plays if card.suit == Suit.SPADES)
        lines.append(say("counting.spades.answer", count=found.spades_out, hand=held,
                         played=played))
    return lines


# --- the Bidding chart ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bar:
    tricks: int
    count: int
    height: int  # percent of the tallest bar (0 to 100)
    expert: bool  # the Expert's bid (Nil: no trick)
    yours: bool  # the bid given (Nil: no trick)
    label: str  # "3 tricks: 78 deals", for assistive technology


def _tricks_of(bid: Bid | None) -> int | None:
    if bid is None:
        return None
    return 0 if bid.is_nil else bid.tricks


def chart(counts: tuple[int, ...], expert: Bid, given: Bid | None = None) -> tuple[Bar, ...]:
    """The bars of the trick counts, 0 to 13 tricks."""
    top = max(counts, default=0) or 1
    aim, yours = _tricks_of(expert), _tricks_of(given)
    return tuple(Bar(tricks, count, round(100 * count / top), tricks == aim, tricks == yours,
                     say("bidding.bar", tricks=tricks, count=count))
                 for tricks, count in enumerate(counts))


def chart_summary(counts: tuple[int, ...], given: Bid | None = None) -> list[str]:
    """What the chart shows, in sentences: the most frequent number of tricks, and how
    often the hand took at least the bid given (Nil: no trick at all)."""
    total = sum(counts)
    if not total:
        return []
    mode = max(range(len(counts)), key=lambda n: (counts[n], -n))
    lines = [say("bidding.mode", tricks=mode, count=counts[mode], total=total)]
    if given is not None and given.is_nil:
        lines.append(say("bidding.nilmade", count=counts[0], total=total))
    elif given is not None:
        lines.append(say("bidding.atleast", bid=given.tricks,
                         count=sum(counts[given.tricks:]), total=total))
    return lines



# --- the Counting table: the tricks played so far -------------------------------------


@dataclass(frozen=True, slots=True)
class TrickRow:
    number: int  # from 1
    cards: tuple[tuple[Seat, Card], ...]  # in play order, the leader first
    winner: Seat

    @property
    def leader(self) -> Seat:
        return self.cards[0][0]

    def card_of(self, seat: Seat) -> Card | None:
        for player, card in self.cards:
            if player is seat:
                return card
        return None


def played_tricks(view: View) -> tuple[TrickRow, ...]:
    """The complete tricks of ``view``'s hand, with who led and who won each (the engine's
    :func:`spades_core.rules.winning_play`)."""
    plays = view.plays
    rows = []
    for start in range(0, len(plays) - len(plays) % 4, 4):
        cards = tuple(plays[start:start + 4])
        rows.append(TrickRow(start // 4 + 1, cards, winning_play(cards)[0]))
    return tuple(rows)
