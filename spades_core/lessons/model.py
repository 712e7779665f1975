"""The lessons' values: constants, the error that names a place in a file, positions,
claims, the steps and the library, all frozen."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias

from ..bids import ALL_BIDS, BLIND_NIL, Bid
from ..cards import Card, CardSet, Suit, parse_card
from ..errors import IllegalAction, Refusal
from ..errors import LessonError as LessonError  # re-exported: lessons.LessonError
from ..game import GameState, Phase
from ..rules import Rules, last_trick
from ..seats import Seat, Team, dealer_of_hand
from ..views import View, view_for

LESSON_FORMAT = "spades-lesson/1"
SHARED_FORMAT = "spades-lessons-shared/1"
SHARED_FILE = "_shared.json"
LANGS = ("en", "fr")
GROUPS = ("rules", "strategy")
LEARNER = Seat.S
LOOK = "look"  # the choice that is not Blind Nil when the hand has not been seen yet
LEVELS = ("beginner", "normal", "expert")
SITUATIONS = (
    "sure-tricks", "long-spades", "bids-last", "south-nil", "partner-nil", "opponent-nil",
    "partner-winning-void", "contract-early", "cash-aces", "trump-last", "void-shown",
    "third-hand",
)
"""What a practice hand is chosen for (checked on the replayed hand by lessons.practice)."""
ASK_KINDS = ("seat", "team", "number", "card", "cards", "option", "entry")
#: the acting steps whose action is made on the table (a card, a bid, cards selected in the
#: hand) rather than chosen in a list or typed
TABLE_ASKS = ("cards",)

RULE_TOPICS: tuple[str, ...] = (
    "seats-dealing",
    "bidding",
    "nil",
    "blind-nil",
    "follow-suit",
    "trumping",
    "spades-broken",
    "only-spades",
    "trick-winner",
    "contract-made",
    "contract-set",
    "bags",
    "bag-penalty",
    "nil-scoring",
    "game-end",
    "ties",
)
"""The rules of RULES.md a rules lesson teaches; every one has a step where the learner acts."""

TIP_KEYS: tuple[str, ...] = (
    "count-sure-tricks",
    "count-spades",
    "read-the-table",
    "nil-hand",
    "cover-partner-nil",
    "attack-nil",
    "dont-trump-partner",
    "bags-cost",
    "duck-when-made",
    "cash-aces-early",
    "pull-trumps",
    "trump-wisely",
    "count-cards",
    "last-trick",
    "second-hand-low",
    "third-hand-high",
    "win-cheaply",
)
"""The tip keys of STRATEGY.md, and the coach's three about where you sit in the trick (the
hint engine, ``spades_core.bots.strategy.TIPS``, names the same keys)."""

PLACEHOLDER_BID = Bid(3)  # given to the engine for a seat whose bid the position does not show


# --- errors ----------------------------------------------------------------------------


class At:
    """Where we are reading, to name it in errors (the path is only spelled out then)."""

    __slots__ = ("file", "parts", "step")

    def __init__(self, file: str, step: int | None = None,
                 parts: tuple[str | int, ...] = ()) -> None:
        self.file = file
        self.step = step
        self.parts = parts

    def at(self, key: str | int) -> At:
        return At(self.file, self.step, (*self.parts, key))

    @property
    def path(self) -> str:
        text = ""
        for part in self.parts:
            if isinstance(part, int):
                text += f"[{part}]"
            else:
                text += f".{part}" if text else part
        return text

    def error(self, message: str) -> LessonError:
        return LessonError(self.file, self.step, self.path, message)


# --- values ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """A player-facing text in every language of the lessons."""

    en: str
    fr: str

    def get(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


@dataclass(frozen=True, slots=True)
class Highlights:
    """What to light up: cards, seats, the bids shown by seats, and answer or bid choices."""

    cards: tuple[Card, ...] = ()
    seats: tuple[Seat, ...] = ()
    bids: tuple[Seat, ...] = ()  # the seats whose bids light up
    choices: tuple[str, ...] = ()  # bid tokens or answer choices

    def __bool__(self) -> bool:
        return bool(self.cards or self.seats or self.bids or self.choices)


NO_HIGHLIGHTS = Highlights()


@dataclass(frozen=True, slots=True)
class Run:
    """A position played out: the engine state and what the table shows."""

    state: GameState
    seated: tuple[tuple[Seat, Card], ...]  # the cards of the position's trick, then its plays
    tricks: tuple[int, int, int, int]  # tricks won by seat, now (the hand's last trick included)
    over: bool  # every card held has been played (the engine has scored the hand)


@dataclass(frozen=True, slots=True)
class Position:
    """A partial position during the play: only the cards that matter.

    ``hands`` are what each seat holds when the position starts (by seat N, E, S, W);
    ``hidden`` counts face-down cards to draw beside them (drawing only: the engine
    never sees them); ``show`` are the seats whose cards are drawn face up (South's
    always are; the others' given cards are face down unless shown); ``trick`` is the
    trick in progress, led by ``leader``; ``plays`` are cards played from there by the
    engine (scripted history, watch steps, the learner's correct cards), so that what
    follows is always the engine's.
    """

    rules: Rules
    hands: tuple[CardSet, CardSet, CardSet, CardSet]
    hidden: tuple[int, int, int, int]
    leader: Seat
    bids: tuple[Bid | None, Bid | None, Bid | None, Bid | None]
    trick: tuple[Card, ...]
    tricks: tuple[int, int, int, int]
    spades_broken: bool
    scores: tuple[int, int]
    bags: tuple[int, int]
    show: tuple[Seat, ...] = (LEARNER,)
    plays: tuple[Card, ...] = ()

    def start(self) -> GameState:
        """The engine's state where the position starts (before ``plays``)."""
        return GameState.position(
            self.rules,
            [hand.mask for hand in self.hands],
            leader=self.leader,
            bids=[bid if bid is not None else PLACEHOLDER_BID for bid in self.bids],
            trick=self.trick,
            tricks=self.tricks,
            spades_broken=self.spades_broken,
            scores=self.scores,
            bags=self.bags,
        )

    def run(self) -> Run:
        """Play ``plays`` with the engine (raises :class:`IllegalAction` on an illegal one)."""
        state = self.start()
        seated = list(state.trick)
        tricks = state.tricks_won
        for card in self.plays:
            seat = state.to_act
            if seat is None:
                raise IllegalAction(Refusal("not-playing", {"card": str(card)}))
            state = state.apply(card)
            seated.append((seat, card))
            if state.phase is Phase.PLAYING:
                tricks = state.tricks_won
            else:
                tricks = state.past_hands[-1].tricks
        over = state.phase is not Phase.PLAYING
        return Run(state, tuple(seated), tricks, over)

    def state(self) -> GameState:
        """The engine's state now (after ``plays``)."""
        return self.run().state

    def then(self, cards: Iterable[Card]) -> Position:
        """The same position with more cards played."""
        return Position(
            self.rules, self.hands, self.hidden, self.leader, self.bids, self.trick,
            self.tricks, self.spades_broken, self.scores, self.bags, self.show,
            (*self.plays, *cards),
        )

    # --- what the table shows ----------------------------------------------------------

    def held(self, seat: Seat) -> CardSet:
        """The cards ``seat`` holds now."""
        played = 0
        for card in self.plays:
            played |= card.bit
        return CardSet(self.hands[seat].mask & ~played)

    def table_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick on the table: the one in progress, or the one just completed."""
        seated = self.run().seated
        if not seated:
            return ()
        count = len(seated) % 4 or 4
        return seated[-count:]

    def last_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The completed trick before the one on the table, if the position played it."""
        # the last play is on the table: the last trick complete before it is the one
        return last_trick(self.run().seated[:-1])

    def to_act(self) -> Seat | None:
        run = self.run()
        return None if run.over else run.state.to_act

    def finished(self) -> bool:
        """The hand is complete: 13 tricks counted (the scoring questions' positions)."""
        return sum(self.run().tricks) == 13

    def view(self, seat: Seat = LEARNER) -> View:
        return view_for(self.state(), seat)


@dataclass(frozen=True, slots=True)
class BiddingPosition:
    """The learner (South) is to bid: their hand (None while unseen) and the bids so far."""

    rules: Rules
    dealer: Seat
    hand: CardSet | None
    bids: tuple[Bid | None, Bid | None, Bid | None, Bid | None]  # by seat; None: not yet
    scores: tuple[int, int]
    bags: tuple[int, int]

    @property
    def hand_seen(self) -> bool:
        return self.hand is not None

    def legal_bids(self) -> tuple[Bid, ...]:
        """The bids offered: Blind Nil only before looking (and when the rules allow it)."""
        if self.hand is None:
            return (BLIND_NIL,) if self.rules.blind_nil else ()
        return tuple(bid for bid in ALL_BIDS if not bid.blind)

    def view(self) -> View:
        """South's view, as the bots and hints read it."""
        hand_index = (self.dealer - dealer_of_hand(0)) & 3
        return View(
            seat=LEARNER,
            rules=self.rules,
            phase=Phase.BIDDING,
            to_act=LEARNER,
            hand_index=hand_index,
            dealer=self.dealer,
            hand=self.hand,
            bids=self.bids,
            plays=(),
            trick=(),
            leader=None,
            tricks_won=(0, 0, 0, 0),
            spades_broken=False,
            played_mask=0,
            voids=(0, 0, 0, 0),
            scores=self.scores,
            bags=self.bags,
            past_hands=(),
            legal_plays=(),
            legal_bids=self.legal_bids() if self.hand is not None else ALL_BIDS,
        )


Scene: TypeAlias = Position | BiddingPosition | None


@dataclass(frozen=True, slots=True)
class Claim:
    """Facts an answer states that the engine can check (see :func:`claim_problems`)."""

    winner: Seat | None = None  # who wins the trick on the table (it must be complete)
    winning: Seat | None = None  # who is winning the trick on the table so far
    points: tuple[tuple[Team, int], ...] = ()  # the hand's points per team
    bags: tuple[tuple[Team, int], ...] = ()  # bags taken this hand
    bags_after: tuple[tuple[Team, int], ...] = ()  # the running bag count after the hand
    penalty: tuple[tuple[Team, int], ...] = ()  # the bag penalty of the hand (0 or negative)
    contract: tuple[tuple[Team, int], ...] = ()
    score_after: tuple[tuple[Team, int], ...] = ()  # running score after the hand
    nil_made: tuple[tuple[Seat, bool], ...] = ()
    legal: frozenset[Card] | None = None  # exactly the cards the seat to act may play
    refused: tuple[tuple[Card, str], ...] = ()  # (card, refusal key) for the seat to act
    game: str | None = None  # "NS", "EW" (the game is over, won by it) or "none" (play on)
    dealer: tuple[int, Seat] | None = None  # (hand number from 1, dealer)
    opens: tuple[int, Seat] | None = None  # (hand number from 1, first to bid and lead)
    tricks: tuple[tuple[Team, int], ...] = ()  # tricks taken so far this hand, per team
    voids: tuple[tuple[Seat, Suit], ...] = ()  # suits these seats have shown they lack
    unseen: tuple[tuple[Suit, int], ...] = ()  # cards of a suit South has not seen yet
    last_trick: tuple[tuple[Seat, Card], ...] = ()  # cards of the trick before the table's

    def answer(self) -> str | frozenset[str] | None:
        """The one answer the claim implies, if it states a single fact, else None."""
        facts: list[str | frozenset[str]] = []
        for seat in (self.winner, self.winning):
            if seat is not None:
                facts.append(seat.name)
        for pairs in (self.points, self.bags, self.bags_after, self.penalty, self.contract,
                      self.score_after, self.tricks):
            facts.extend(str(value) for _, value in pairs)
        facts.extend(str(count) for _, count in self.unseen)
        facts.extend(seat.name for seat, _ in self.voids)
        facts.extend(str(card) for _, card in self.last_trick)
        if self.legal is not None:
            facts.append(frozenset(str(card) for card in self.legal))
        if self.game is not None:
            facts.append(self.game)
        for pair in (self.dealer, self.opens):
            if pair is not None:
                facts.append(pair[1].name)
        if self.nil_made or self.refused or len(facts) != 1:
            return None
        return facts[0]


# --- steps ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Step:
    """What every step has: its number in the lesson (``index``, from 0), what it lights up
    on the table, and the rules topic or the strategy tip it teaches."""

    acting: ClassVar[bool] = False  # whether the learner acts (and is judged) here
    index: int
    highlights: Highlights
    topic: str | None
    tip: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Question(_Step):
    """What every step where the learner acts has: the question, the texts of a wrong and
    of a right action, and whether the hint engine must agree with the expected action."""

    acting: ClassVar[bool] = True
    prompt: Text
    feedback: Text  # for a wrong action without a text of its own
    success: Text
    hint_agrees: bool = False


@dataclass(frozen=True, slots=True)
class ExplainStep(_Step):
    kind: ClassVar[str] = "explain"
    scene: Scene
    text: Text


@dataclass(frozen=True, slots=True)
class WatchStep(_Step):
    kind: ClassVar[str] = "watch"
    scene: Position  # before the plays
    text: Text
    plays: tuple[Card, ...]
    after: Position


@dataclass(frozen=True, slots=True)
class PlayStep(_Question):
    kind: ClassVar[str] = "play"
    scene: Position
    expect: tuple[Card, ...]  # any of these is right
    feedback_for: Mapping[Card, Text]
    after: Position  # the position after the (first) expected card
    any_legal: bool = False  # a rules step: every legal card is right (expect is all of them)

    @property
    def hint(self) -> Highlights:
        return Highlights(cards=self.expect)


@dataclass(frozen=True, slots=True)
class BidStep(_Question):
    kind: ClassVar[str] = "bid"
    scene: BiddingPosition
    expect: tuple[str, ...]  # bid tokens ("3", "nil", "blind-nil") or LOOK
    feedback_for: Mapping[str, Text]

    @property
    def hint(self) -> Highlights:
        return Highlights(choices=self.expect)


@dataclass(frozen=True, slots=True)
class AnswerStep(_Question):
    kind: ClassVar[str] = "answer"
    scene: Scene
    ask: str  # one of ASK_KINDS
    choices: tuple[str, ...]
    labels: Mapping[str, Text]
    expect: tuple[str, ...]  # one choice; for ask "cards", the set of cards to select
    claim: Claim | None
    feedback_for: Mapping[str, Text]

    @property
    def entry(self) -> bool:
        """A number typed in a field (``ask: "entry"``): no choices, the claim's number."""
        return self.ask == "entry"

    @property
    def hint(self) -> Highlights:
        if self.ask in ("card", "cards"):
            return Highlights(cards=tuple(parse_card(token) for token in self.expect),
                              choices=self.expect)
        return Highlights(choices=self.expect)


@dataclass(frozen=True, slots=True)
class PracticeStep(_Step):
    """A practice hand against the bots (the table screen plays it; no judging here)."""

    kind: ClassVar[str] = "practice"
    scene: None
    text: Text
    level: str
    deal: int
    hints: bool
    hand: int = 1  # the hand of the deal played (from 1): its dealer sets South's bidding place
    situation: str = ""  # what the practice is chosen for, one of SITUATIONS


Step: TypeAlias = ExplainStep | WatchStep | PlayStep | BidStep | AnswerStep | PracticeStep
ActingStep: TypeAlias = PlayStep | BidStep | AnswerStep


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    group: str
    order: int
    title: Text
    summary: Text
    steps: tuple[Step, ...]
    file: str

    @property
    def acting_steps(self) -> tuple[ActingStep, ...]:
        return tuple(
            step for step in self.steps if isinstance(step, PlayStep | BidStep | AnswerStep)
        )


@dataclass(frozen=True, slots=True)
class Shared:
    """Shared defaults (``lessons/_shared.json``): texts used when a step gives none."""

    feedback: Text | None = None
    success: Text | None = None
    refusals: Mapping[str, Text] = field(default_factory=dict)  # "reason" or "reason:suit"

    def refusal_text(self, refusal: Refusal) -> Text | None:
        """The text for an engine refusal (``must-follow-suit`` is worded per suit)."""
        suit = refusal.params.get("suit")
        if suit is not None:
            found = self.refusals.get(f"{refusal.reason}:{suit}")
            if found is not None:
                return found
        return self.refusals.get(refusal.reason)


@dataclass(frozen=True, slots=True)
class Library:
    """Every lesson, in the order of the lesson list (rules first, then by ``order``)."""

    lessons: tuple[Lesson, ...]
    shared: Shared

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(lesson_id)

    def group(self, group: str) -> tuple[Lesson, ...]:
        return tuple(lesson for lesson in self.lessons if lesson.group == group)
