"""Lessons: data files read into frozen values, and the small predicates that judge them.

A lesson is one JSON file in ``lessons/`` (the format is described in
``docs/lessons.md``): a title, and steps on partial positions (``explain``, ``play``,
``bid``, ``answer``, ``watch``, ``practice``).  This module reads and checks those
files against the engine (every position is built with :meth:`GameState.position`,
every expected card is legal there, every scripted play is applied by the engine,
every claim an answer makes is computed by the engine) and judges the learner's
actions with :func:`check_action`.

There is no player-facing text here: every text comes from the lesson files, in
English and French (:class:`Text`).  The loader is pure: :func:`load_library` takes
the files' texts; :func:`load_library_dir` only reads a directory first.  Adding a
lesson is adding a file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, TypeAlias, TypeVar

from .bids import ALL_BIDS, BLIND_NIL, Bid, BidParseError, parse_bid
from .cards import SUIT_MASKS, Card, CardParseError, CardSet, Suit, parse_card
from .errors import IllegalAction, Refusal
from .game import GameState, Phase
from .rules import DEFAULT_RULES, Rules, game_winner, trick_winner
from .scoring import TeamScore, score_hand
from .seats import SEATS, TEAMS, Seat, Team, dealer_of_hand
from .views import View, view_for

LESSON_FORMAT = "spades-lesson/1"
SHARED_FORMAT = "spades-lessons-shared/1"
SHARED_FILE = "_shared.json"
LANGS = ("en", "fr")
GROUPS = ("rules", "strategy")
LEARNER = Seat.S
LOOK = "look"  # the choice that is not Blind Nil when the hand has not been seen yet
LEVELS = ("beginner", "normal", "expert")
ASK_KINDS = ("seat", "team", "number", "card", "cards", "option")

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
)
"""The tip keys of STRATEGY.md (the hint engine names the same keys)."""

_ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_NUMBER_PATTERN = re.compile(r"^-?[0-9]+$")
_T = TypeVar("_T")
_PLACEHOLDER_BID = Bid(3)  # given to the engine for a seat whose bid the position does not show


# --- errors ----------------------------------------------------------------------------


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file, the step and the field."""

    def __init__(self, file: str, step: int | None, where: str, message: str) -> None:
        self.file = file
        self.step = step  # 1-based, as an author counts; None for the lesson's own fields
        self.where = where
        self.detail = message
        place = file if step is None else f"{file}: step {step}"
        super().__init__(f"{place}: {where}: {message}" if where else f"{place}: {message}")


class _At:
    """Where we are reading, to name it in errors (the path is only spelled out then)."""

    __slots__ = ("file", "parts", "step")

    def __init__(self, file: str, step: int | None = None,
                 parts: tuple[str | int, ...] = ()) -> None:
        self.file = file
        self.step = step
        self.parts = parts

    def at(self, key: str | int) -> _At:
        return _At(self.file, self.step, (*self.parts, key))

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
            bids=[bid if bid is not None else _PLACEHOLDER_BID for bid in self.bids],
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
        seated = self.run().seated
        count = len(seated) % 4 or 4
        earlier = seated[:-count] if seated else ()
        return earlier[-4:] if len(earlier) >= 4 else ()

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


@dataclass(frozen=True, slots=True)
class ExplainStep:
    kind: ClassVar[str] = "explain"
    acting: ClassVar[bool] = False
    index: int
    scene: Scene
    text: Text
    highlights: Highlights
    topic: str | None
    tip: str | None


@dataclass(frozen=True, slots=True)
class WatchStep:
    kind: ClassVar[str] = "watch"
    acting: ClassVar[bool] = False
    index: int
    scene: Position  # before the plays
    text: Text
    plays: tuple[Card, ...]
    after: Position
    highlights: Highlights
    topic: str | None
    tip: str | None


@dataclass(frozen=True, slots=True)
class PlayStep:
    kind: ClassVar[str] = "play"
    acting: ClassVar[bool] = True
    index: int
    scene: Position
    prompt: Text
    expect: tuple[Card, ...]  # any of these is right
    feedback: Text  # for a wrong card
    feedback_for: Mapping[Card, Text]
    success: Text
    highlights: Highlights
    topic: str | None
    tip: str | None
    hint_agrees: bool
    after: Position  # the position after the (first) expected card

    @property
    def hint(self) -> Highlights:
        return Highlights(cards=self.expect)


@dataclass(frozen=True, slots=True)
class BidStep:
    kind: ClassVar[str] = "bid"
    acting: ClassVar[bool] = True
    index: int
    scene: BiddingPosition
    prompt: Text
    expect: tuple[str, ...]  # bid tokens ("3", "nil", "blind-nil") or LOOK
    feedback: Text
    feedback_for: Mapping[str, Text]
    success: Text
    highlights: Highlights
    topic: str | None
    tip: str | None
    hint_agrees: bool

    @property
    def hint(self) -> Highlights:
        return Highlights(choices=self.expect)


@dataclass(frozen=True, slots=True)
class AnswerStep:
    kind: ClassVar[str] = "answer"
    acting: ClassVar[bool] = True
    index: int
    scene: Scene
    prompt: Text
    ask: str  # one of ASK_KINDS
    choices: tuple[str, ...]
    labels: Mapping[str, Text]
    expect: tuple[str, ...]  # one choice; for ask "cards", the set of cards to select
    claim: Claim | None
    feedback: Text
    feedback_for: Mapping[str, Text]
    success: Text
    highlights: Highlights
    topic: str | None
    tip: str | None
    hint_agrees: bool = False

    @property
    def hint(self) -> Highlights:
        if self.ask in ("card", "cards"):
            return Highlights(cards=tuple(parse_card(token) for token in self.expect),
                              choices=self.expect)
        return Highlights(choices=self.expect)


@dataclass(frozen=True, slots=True)
class PracticeStep:
    """A practice hand against the bots (the table screen plays it; no judging here)."""

    kind: ClassVar[str] = "practice"
    acting: ClassVar[bool] = False
    index: int
    scene: None
    text: Text
    level: str
    deal: int
    hints: bool
    highlights: Highlights
    topic: str | None
    tip: str | None


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


# --- judging the learner ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """The verdict on one action of the learner.

    ``refusal`` is the engine's reason when the card may not be played at all;
    ``feedback`` is the step's text (its success text, or its feedback for this choice,
    or its default feedback); for an illegal card without a text of its own, the
    shared refusal text when a :class:`Shared` was given, else None (show the
    refusal).  ``highlight`` is what to light up now: the right action.
    ``after`` is the position after a right card (play steps).
    """

    correct: bool
    refusal: Refusal | None
    feedback: Text | None
    highlight: Highlights
    after: Scene = None


Action: TypeAlias = Card | Bid | str | Iterable[Card | str]


def check_action(step: ActingStep, action: Action, shared: Shared | None = None) -> Outcome:
    """Judge the learner's action on an acting step.

    A play step takes a :class:`Card` (or its text); a bid step a :class:`Bid`, its
    token, or :data:`LOOK`; an answer step the choice's token (a card for ``card``,
    several cards for ``cards``).  Raise ValueError for an action of the wrong type.
    """
    if isinstance(step, PlayStep):
        return _check_play(step, _as_card(action), shared)
    if isinstance(step, BidStep):
        return _check_bid(step, _as_bid_token(action))
    return _check_answer(step, action)


def _check_play(step: PlayStep, card: Card, shared: Shared | None) -> Outcome:
    highlight = step.hint
    if card in step.expect:
        return Outcome(True, None, step.success, highlight, step.scene.then((card,)))
    state = step.scene.state()
    refusal = state.refusal(card, LEARNER)
    own = step.feedback_for.get(card)
    if refusal is not None:
        if own is None and shared is not None:
            own = shared.refusal_text(refusal)
        return Outcome(False, refusal, own, highlight)
    return Outcome(False, None, own or step.feedback, highlight)


def _check_bid(step: BidStep, token: str) -> Outcome:
    highlight = step.hint
    if token in step.expect:
        return Outcome(True, None, step.success, highlight, step.scene)
    return Outcome(False, None, step.feedback_for.get(token, step.feedback), highlight)


def _check_answer(step: AnswerStep, action: Action) -> Outcome:
    highlight = step.hint
    if step.ask == "cards":
        if isinstance(action, str | Card | Bid):
            raise ValueError("this answer is a set of cards")
        chosen = frozenset(str(_as_card(item)) for item in action)
        if chosen == frozenset(step.expect):
            return Outcome(True, None, step.success, highlight, step.scene)
        return Outcome(False, None, step.feedback, highlight)
    if isinstance(action, Card):
        token = str(action)
    elif isinstance(action, str):
        token = str(parse_card(action)) if step.ask == "card" else action.strip()
    else:
        raise ValueError(f"an answer is one of the step's choices, not {action!r}")
    if token in step.expect:
        return Outcome(True, None, step.success, highlight, step.scene)
    return Outcome(False, None, step.feedback_for.get(token, step.feedback), highlight)


def _as_card(action: object) -> Card:
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        return parse_card(action)
    raise ValueError(f"a card is expected, not {action!r}")


def _as_bid_token(action: object) -> str:
    if isinstance(action, Bid):
        return str(action)
    if isinstance(action, str):
        if action.strip().lower() == LOOK:
            return LOOK
        return str(parse_bid(action))
    raise ValueError(f"a bid is expected, not {action!r}")


def apply_watch(step: WatchStep) -> tuple[tuple[tuple[Seat, Card], ...], Position]:
    """The scripted plays of a watch step with their seats, and the position after them."""
    before = len(step.scene.run().seated)
    seated = step.after.run().seated
    return seated[before:], step.after


def scene_after(step: Step) -> Scene:
    """The position the next step continues from when it gives none."""
    if isinstance(step, PlayStep | WatchStep):
        return step.after
    return step.scene


def step_view(step: Step) -> View | None:
    """South's view of the step's position (the input of the hint engine), if any."""
    scene = step.scene
    if scene is None:
        return None
    if isinstance(scene, BiddingPosition):
        return scene.view()
    return scene.view(LEARNER)


# --- the engine's answer to a claim -------------------------------------------------------


def hand_scores(position: Position) -> tuple[TeamScore, TeamScore]:
    """Score the position's hand with the engine's scoring (all four bids must be shown)."""
    bids = position.bids
    if any(bid is None for bid in bids):
        raise ValueError("the position does not show all four bids")
    known = (bids[0] or _PLACEHOLDER_BID, bids[1] or _PLACEHOLDER_BID,
             bids[2] or _PLACEHOLDER_BID, bids[3] or _PLACEHOLDER_BID)
    return score_hand(known, position.run().tricks, position.bags, position.rules)


def claim_problems(claim: Claim, scene: Scene) -> list[str]:
    """What the engine disagrees with in ``claim`` (empty when every fact checks)."""
    problems: list[str] = []
    if claim.dealer is not None:
        number, seat = claim.dealer
        actual = dealer_of_hand(number - 1)
        if actual != seat:
            problems.append(f"dealer of hand {number} is {actual.name}, not {seat.name}")
    if claim.opens is not None:
        number, seat = claim.opens
        actual = dealer_of_hand(number - 1).left
        if actual != seat:
            problems.append(f"hand {number} is opened by {actual.name}, not {seat.name}")
    needs_play = (claim.winner is not None or claim.winning is not None
                  or claim.legal is not None or claim.refused
                  or claim.points or claim.bags or claim.bags_after or claim.penalty
                  or claim.score_after or claim.nil_made or claim.contract or claim.tricks
                  or claim.voids or claim.unseen or claim.last_trick)
    if not needs_play and claim.game is None:
        return problems
    if not isinstance(scene, Position):
        return [*problems, "this claim needs a play position"]
    position = scene
    run = position.run()
    if claim.winner is not None:
        table = position.table_trick()
        if len(table) != 4:
            problems.append("the trick on the table is not complete")
        else:
            offset = trick_winner([card.id for _, card in table])
            actual = table[offset][0]
            if actual != claim.winner:
                problems.append(f"the trick is won by {actual.name}, not {claim.winner.name}")
    if claim.winning is not None:
        table = position.table_trick()
        if not table:
            problems.append("there is no trick on the table")
        else:
            leading = table[trick_winner([card.id for _, card in table])][0]
            if leading != claim.winning:
                problems.append(f"{leading.name} is winning the trick, not {claim.winning.name}")
    if claim.legal is not None or claim.refused:
        if run.over or run.state.to_act is None:
            problems.append("nobody is to play here")
        else:
            state = run.state
            if claim.legal is not None:
                legal = frozenset(state.legal_plays())
                if legal != claim.legal:
                    problems.append(
                        f"the legal cards are {_cards_text(legal)}, not {_cards_text(claim.legal)}"
                    )
            for card, reason in claim.refused:
                why = state.refusal(card)
                actual_reason = why.reason if why is not None else "allowed"
                if actual_reason != reason:
                    problems.append(f"{card} is {actual_reason}, not {reason}")
    for team, value in claim.tricks:
        taken = sum(run.tricks[seat] for seat in team.seats)
        if taken != value:
            problems.append(f"{team.name} has taken {taken} tricks, not {value}")
    if claim.voids:
        voids = run.state.shown_voids() if not run.over else _voids_of(run.seated)
        for seat, suit in claim.voids:
            if not voids[seat] >> suit & 1:
                problems.append(f"{seat.name} has not shown a void in {suit.key}")
    if claim.unseen:
        learner_cards = len(position.hands[LEARNER]) + sum(
            1 for seat, _ in position.start().trick if seat == LEARNER
        )
        if sum(position.tricks) or learner_cards != 13:
            problems.append("counting unseen cards needs the whole hand: no earlier tricks, "
                            "and South's 13 cards")
        else:
            seen = position.held(LEARNER).mask
            for _, card in run.seated:
                seen |= card.bit
            for suit, count in claim.unseen:
                unseen = (SUIT_MASKS[suit] & position.rules.deck_mask & ~seen).bit_count()
                if unseen != count:
                    problems.append(f"{unseen} {suit.key} are unseen, not {count}")
    if claim.last_trick:
        last = position.last_trick()
        for seat, card in claim.last_trick:
            if (seat, card) not in last:
                problems.append(f"{seat.name} did not play {card} in the last trick")
    scored = (claim.points or claim.bags or claim.bags_after or claim.penalty
              or claim.score_after or claim.nil_made)
    teams: tuple[TeamScore, TeamScore] | None = None
    if scored or claim.contract or (claim.game is not None and position.finished()):
        if any(bid is None for bid in position.bids):
            return [*problems, "scoring needs all four bids"]
        if scored and not position.finished():
            return [*problems, "scoring needs a finished hand (13 tricks)"]
        teams = hand_scores(position)
    if teams is not None:
        checks: tuple[tuple[str, tuple[tuple[Team, int], ...], Callable[[TeamScore], int]], ...]
        checks = (
            ("points", claim.points, lambda score: score.points),
            ("bags", claim.bags, lambda score: score.bags),
            ("bags_after", claim.bags_after, lambda score: score.bags_after),
            ("penalty", claim.penalty, lambda score: score.bag_penalty),
            ("contract", claim.contract, lambda score: score.contract),
        )
        for name, pairs, read in checks:
            for team, value in pairs:
                actual_value = read(teams[team])
                if actual_value != value:
                    problems.append(f"{name} of {team.name} is {actual_value}, not {value}")
        for team, value in claim.score_after:
            after = position.scores[team] + teams[team].points
            if after != value:
                problems.append(f"score_after of {team.name} is {after}, not {value}")
        for seat, made in claim.nil_made:
            results = [nil for nil in teams[seat.team].nils if nil.seat == seat]
            if not results:
                problems.append(f"{seat.name} did not bid Nil")
            elif results[0].made != made:
                problems.append(f"{seat.name}'s Nil made is {results[0].made}, not {made}")
    if claim.game is not None:
        scores = position.scores
        if teams is not None and position.finished():
            scores = (scores[0] + teams[0].points, scores[1] + teams[1].points)
        winner = game_winner(scores, position.rules)
        actual_game = TEAMS[winner].name if winner is not None else "none"
        if actual_game != claim.game:
            problems.append(f"the game result is {actual_game}, not {claim.game}")
    return problems


def _voids_of(seated: Sequence[tuple[Seat, Card]]) -> tuple[int, int, int, int]:
    voids = [0, 0, 0, 0]
    led = -1
    for i, (seat, card) in enumerate(seated):
        if i % 4 == 0:
            led = card.suit
        elif card.suit != led:
            voids[seat] |= 1 << led
    return (voids[0], voids[1], voids[2], voids[3])


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards)) or "(none)"


# --- reading the files --------------------------------------------------------------------


def load_library(files: Mapping[str, str], *, check_claims: bool = True) -> Library:
    """Read every lesson from ``{file name: text}`` (``_shared.json`` gives shared defaults).

    Files whose name does not end in ``.json`` are ignored, as are other names starting
    with ``_``.  Raise :class:`LessonError` for the first problem found.
    """
    shared = Shared()
    if SHARED_FILE in files:
        shared = load_shared(SHARED_FILE, files[SHARED_FILE])
    lessons: list[Lesson] = []
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        if not base.endswith(".json") or base.startswith("_"):
            continue
        lessons.append(load_lesson(name, files[name], shared, check_claims=check_claims))
    seen: dict[str, str] = {}
    orders: dict[tuple[str, int], str] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(lesson.file, None, "id", f"{lesson.id!r} is also {seen[lesson.id]}")
        seen[lesson.id] = lesson.file
        key = (lesson.group, lesson.order)
        if key in orders:
            raise LessonError(lesson.file, None, "order",
                              f"{lesson.group} order {lesson.order} is also {orders[key]}")
        orders[key] = lesson.file
    lessons.sort(key=lambda lesson: (GROUPS.index(lesson.group), lesson.order))
    return Library(tuple(lessons), shared)


def load_library_dir(directory: str | Path = "lessons", *, check_claims: bool = True) -> Library:
    """Read every ``*.json`` file of a directory with :func:`load_library`."""
    root = Path(directory)
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(root.glob("*.json"))}
    return load_library(files, check_claims=check_claims)


def load_shared(name: str, text: str) -> Shared:
    at = _At(name)
    data = _object(at, _parse_json(at, text), required=("format",),
                   optional=("feedback", "success", "refusals"))
    if data["format"] != SHARED_FORMAT:
        raise at.at("format").error(f"expected {SHARED_FORMAT!r}")
    feedback = _text(at.at("feedback"), data["feedback"]) if "feedback" in data else None
    success = _text(at.at("success"), data["success"]) if "success" in data else None
    refusals: dict[str, Text] = {}
    raw = data.get("refusals", {})
    if not isinstance(raw, dict):
        raise at.at("refusals").error("must be an object")
    for key, value in raw.items():
        refusals[str(key)] = _text(at.at("refusals").at(str(key)), value)
    return Shared(feedback, success, refusals)


def load_lesson(
    name: str, text: str, shared: Shared | None = None, *, check_claims: bool = True
) -> Lesson:
    """Read one lesson file; ``name`` is its file name (it must be ``<id>.json``)."""
    shared = shared or Shared()
    at = _At(name)
    data = _object(
        at, _parse_json(at, text),
        required=("format", "id", "group", "order", "title", "summary", "steps"),
        optional=("rules",),
    )
    if data["format"] != LESSON_FORMAT:
        raise at.at("format").error(f"expected {LESSON_FORMAT!r}, not {data['format']!r}")
    lesson_id = data["id"]
    if not isinstance(lesson_id, str) or not _ID_PATTERN.match(lesson_id):
        raise at.at("id").error("an id is lower-case words joined by '-'")
    base = name.rsplit("/", 1)[-1]
    if base != f"{lesson_id}.json":
        raise at.at("id").error(f"the file of lesson {lesson_id!r} must be named {lesson_id}.json")
    group = data["group"]
    if group not in GROUPS:
        raise at.at("group").error(f"must be one of {', '.join(GROUPS)}")
    order = _int(at.at("order"), data["order"])
    rules = _rules(at.at("rules"), data["rules"]) if "rules" in data else DEFAULT_RULES
    raw_steps = data["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise at.at("steps").error("must be a non-empty list")
    reader = _StepReader(name, group, rules, shared, check_claims)
    steps = tuple(reader.read(number, raw) for number, raw in enumerate(raw_steps, start=1))
    if group == "strategy" and not isinstance(steps[-1], PracticeStep):
        raise at.at("steps").error("a strategy lesson ends with a practice step")
    return Lesson(
        lesson_id, group, order, _text(at.at("title"), data["title"]),
        _text(at.at("summary"), data["summary"]), steps, name,
    )


def _parse_json(at: _At, text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise at.error(f"not valid JSON: {error}") from None


_COMMON_KEYS = ("kind", "position", "bidding", "highlights", "topic", "tip")
_KIND_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # kind: (required, optional) besides the common keys
    "explain": (("text",), ()),
    "watch": (("plays",), ("text",)),
    "play": (("prompt", "expect"), ("feedback", "feedback_for", "success", "hint_agrees")),
    "bid": (("prompt", "expect"), ("feedback", "feedback_for", "success", "hint_agrees")),
    "answer": (
        ("prompt", "ask", "expect"),
        ("choices", "labels", "claim", "feedback", "feedback_for", "success", "hint_agrees"),
    ),
    "practice": (("text", "level", "deal"), ("hints",)),
}


class _StepReader:
    """Reads the steps of one lesson in order, carrying the position from step to step."""

    def __init__(self, file: str, group: str, rules: Rules, shared: Shared,
                 check_claims: bool) -> None:
        self.file = file
        self.group = group
        self.rules = rules
        self.shared = shared
        self.check_claims = check_claims
        self.scene: Scene = None
        self.ambiguous_from: int | None = None  # a play step accepting several cards

    def read(self, number: int, raw: object) -> Step:
        at = _At(self.file, number)
        if not isinstance(raw, dict):
            raise at.error("a step is an object")
        kind = raw.get("kind")
        if kind not in _KIND_KEYS:
            raise at.at("kind").error(f"must be one of {', '.join(_KIND_KEYS)}")
        required, optional = _KIND_KEYS[kind]
        data = _object(at, raw, required=required, optional=(*_COMMON_KEYS, *optional))
        scene = self._scene(at, data)
        highlights = _highlights(at.at("highlights"), data.get("highlights", {}))
        topic = data.get("topic")
        if topic is not None and topic not in RULE_TOPICS:
            raise at.at("topic").error(f"{topic!r} is not a rules topic ({', '.join(RULE_TOPICS)})")
        tip = data.get("tip")
        if tip is not None and tip not in TIP_KEYS:
            raise at.at("tip").error(f"{tip!r} is not a tip key of STRATEGY.md")
        if kind == "explain":
            step: Step = ExplainStep(number, scene, _text(at.at("text"), data["text"]),
                                     highlights, topic, tip)
        elif kind == "watch":
            step = self._watch(at, number, data, scene, highlights, topic, tip)
        elif kind == "practice":
            step = self._practice(at, number, data, highlights, topic, tip)
        else:
            if self.group == "strategy" and tip is None:
                raise at.at("tip").error("a strategy step where the learner acts names its tip")
            if self.group == "rules" and topic is None:
                raise at.at("topic").error("a rules step where the learner acts names its topic")
            hint_agrees = data.get("hint_agrees", False)
            if not isinstance(hint_agrees, bool):
                raise at.at("hint_agrees").error("must be true or false")
            if hint_agrees and tip is None:
                raise at.at("hint_agrees").error("only a step with a tip can agree with the hint")
            if kind == "play":
                step = self._play(at, number, data, scene, highlights, topic, tip, hint_agrees)
            elif kind == "bid":
                step = self._bid(at, number, data, scene, highlights, topic, tip, hint_agrees)
            else:
                step = self._answer(at, number, data, scene, highlights, topic, tip, hint_agrees)
        self._check_highlights(at.at("highlights"), highlights, step.scene)
        self.scene = scene_after(step)
        return step

    # --- positions ---------------------------------------------------------------------

    def _scene(self, at: _At, data: Mapping[str, object]) -> Scene:
        if "position" in data and "bidding" in data:
            raise at.error("a step has a position or a bidding position, not both")
        if "position" in data:
            self.ambiguous_from = None
            raw = data["position"]
            return None if raw is None else _position(at.at("position"), raw, self.rules)
        if "bidding" in data:
            self.ambiguous_from = None
            return _bidding(at.at("bidding"), data["bidding"], self.rules)
        if self.ambiguous_from is not None:
            raise at.at("position").error(
                f"step {self.ambiguous_from} accepts several cards, so this step must give "
                "its own position"
            )
        return self.scene

    def _text_or_default(self, at: _At, data: Mapping[str, object], key: str) -> Text:
        if key in data:
            return _text(at.at(key), data[key])
        default = self.shared.feedback if key == "feedback" else self.shared.success
        if default is None:
            raise at.at(key).error("missing, and no shared default in _shared.json")
        return default

    def _play_position(self, at: _At, scene: Scene) -> Position:
        if not isinstance(scene, Position):
            raise at.at("position").error("this step needs a play position")
        run = scene.run()
        if run.over or run.state.to_act is not LEARNER:
            who = "nobody" if run.over or run.state.to_act is None else run.state.to_act.name
            raise at.at("position").error(f"South must be to play here, not {who}")
        return scene

    def _watch(self, at: _At, number: int, data: Mapping[str, object], scene: Scene,
               highlights: Highlights, topic: str | None, tip: str | None) -> WatchStep:
        if not isinstance(scene, Position):
            raise at.at("position").error("a watch step needs a play position")
        plays = _cards(at.at("plays"), data["plays"])
        if not plays:
            raise at.at("plays").error("a watch step plays at least one card")
        after = _checked_then(at.at("plays"), scene, plays)
        text = _text(at.at("text"), data["text"]) if "text" in data else Text("", "")
        return WatchStep(number, scene, text, plays, after, highlights, topic, tip)

    def _practice(self, at: _At, number: int, data: Mapping[str, object],
                  highlights: Highlights, topic: str | None, tip: str | None) -> PracticeStep:
        level = data["level"]
        if level not in LEVELS:
            raise at.at("level").error(f"must be one of {', '.join(LEVELS)}")
        deal = _int(at.at("deal"), data["deal"])
        if not 0 <= deal < 2**53:
            raise at.at("deal").error("a deal number is between 0 and 2**53 - 1")
        hints = data.get("hints", True)
        if not isinstance(hints, bool):
            raise at.at("hints").error("must be true or false")
        self.ambiguous_from = None
        return PracticeStep(number, None, _text(at.at("text"), data["text"]), str(level), deal,
                            hints, highlights, topic, tip)

    def _play(self, at: _At, number: int, data: Mapping[str, object], scene: Scene,
              highlights: Highlights, topic: str | None, tip: str | None,
              hint_agrees: bool) -> PlayStep:
        position = self._play_position(at, scene)
        expect = _cards(at.at("expect"), _list_of(data["expect"]))
        if not expect:
            raise at.at("expect").error("expects at least one card")
        state = position.state()
        for i, card in enumerate(expect):
            why = state.refusal(card, LEARNER)
            if why is not None:
                raise at.at("expect").at(i).error(f"{card} may not be played here ({why.reason})")
        feedback_for: dict[Card, Text] = {}
        raw = data.get("feedback_for", {})
        if not isinstance(raw, dict):
            raise at.at("feedback_for").error("must be an object: card -> text")
        held = state.hand_of(LEARNER)
        for key, value in raw.items():
            card = _card(at.at("feedback_for").at(key), key)
            if card in expect:
                raise at.at("feedback_for").at(key).error("this card is the expected one")
            if card not in held:
                raise at.at("feedback_for").at(key).error("South does not hold this card")
            feedback_for[card] = _text(at.at("feedback_for").at(key), value)
        if len(expect) > 1:
            self.ambiguous_from = number
        return PlayStep(
            number, position, _text(at.at("prompt"), data["prompt"]), expect,
            self._text_or_default(at, data, "feedback"), feedback_for,
            self._text_or_default(at, data, "success"), highlights, topic, tip, hint_agrees,
            position.then(expect[:1]),
        )

    def _bid(self, at: _At, number: int, data: Mapping[str, object], scene: Scene,
             highlights: Highlights, topic: str | None, tip: str | None,
             hint_agrees: bool) -> BidStep:
        if not isinstance(scene, BiddingPosition):
            raise at.at("bidding").error("a bid step needs a bidding position")
        allowed = _bid_choices(scene)
        expect = tuple(_bid_token(at.at("expect").at(i), raw, allowed)
                       for i, raw in enumerate(_list_of(data["expect"])))
        if not expect:
            raise at.at("expect").error("expects at least one bid")
        feedback_for: dict[str, Text] = {}
        raw_for = data.get("feedback_for", {})
        if not isinstance(raw_for, dict):
            raise at.at("feedback_for").error("must be an object: bid -> text")
        for key, value in raw_for.items():
            token = _bid_token(at.at("feedback_for").at(key), key, allowed)
            if token in expect:
                raise at.at("feedback_for").at(key).error("this bid is an expected one")
            feedback_for[token] = _text(at.at("feedback_for").at(key), value)
        return BidStep(
            number, scene, _text(at.at("prompt"), data["prompt"]), expect,
            self._text_or_default(at, data, "feedback"), feedback_for,
            self._text_or_default(at, data, "success"), highlights, topic, tip, hint_agrees,
        )

    def _answer(self, at: _At, number: int, data: Mapping[str, object], scene: Scene,
                highlights: Highlights, topic: str | None, tip: str | None,
                hint_agrees: bool) -> AnswerStep:
        ask = data["ask"]
        if ask not in ASK_KINDS:
            raise at.at("ask").error(f"must be one of {', '.join(ASK_KINDS)}")
        if hint_agrees:
            raise at.at("hint_agrees").error("an answer step has no hint to agree with")
        labels: dict[str, Text] = {}
        raw_labels = data.get("labels", {})
        if not isinstance(raw_labels, dict):
            raise at.at("labels").error("must be an object: choice -> text")
        for key, value in raw_labels.items():
            labels[str(key)] = _text(at.at("labels").at(str(key)), value)
        if ask == "cards":
            choices, expect = self._card_set_answer(at, data, scene)
        else:
            if "choices" not in data:
                raise at.at("choices").error("missing")
            raw_choices = data["choices"]
            if not isinstance(raw_choices, list) or len(raw_choices) < 2:
                raise at.at("choices").error("an answer offers at least two choices")
            choices = tuple(_choice(at.at("choices").at(i), str(ask), raw, labels)
                            for i, raw in enumerate(raw_choices))
            if len(set(choices)) != len(choices):
                raise at.at("choices").error("a choice is listed twice")
            raw_expect = data["expect"]
            if not isinstance(raw_expect, str | int) or isinstance(raw_expect, bool):
                raise at.at("expect").error("the expected answer is one choice")
            token = _choice(at.at("expect"), str(ask), raw_expect, labels)
            if token not in choices:
                raise at.at("expect").error(f"{token!r} is not one of the choices")
            expect = (token,)
        for key in labels:
            if key not in choices:
                raise at.at("labels").at(key).error("not one of the choices")
        feedback_for: dict[str, Text] = {}
        raw_for = data.get("feedback_for", {})
        if not isinstance(raw_for, dict):
            raise at.at("feedback_for").error("must be an object: choice -> text")
        for key, value in raw_for.items():
            token = _choice(at.at("feedback_for").at(key), str(ask), key, labels)
            if token not in choices:
                raise at.at("feedback_for").at(key).error("not one of the choices")
            if token in expect:
                raise at.at("feedback_for").at(key).error("this is the expected answer")
            feedback_for[token] = _text(at.at("feedback_for").at(key), value)
        claim = _claim(at.at("claim"), data["claim"]) if "claim" in data else None
        if claim is not None:
            implied = claim.answer()
            given: str | frozenset[str] = frozenset(expect) if ask == "cards" else expect[0]
            if implied is not None and (ask != "option" or implied in choices) and implied != given:
                raise at.at("expect").error(f"the claim says the answer is {_show(implied)}")
            if self.check_claims:
                problems = claim_problems(claim, scene)
                if problems:
                    raise at.at("claim").error("the engine disagrees: " + "; ".join(problems))
        return AnswerStep(
            number, scene, _text(at.at("prompt"), data["prompt"]), str(ask), choices, labels,
            expect, claim, self._text_or_default(at, data, "feedback"), feedback_for,
            self._text_or_default(at, data, "success"), highlights, topic, tip, hint_agrees,
        )

    def _card_set_answer(self, at: _At, data: Mapping[str, object],
                         scene: Scene) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if "choices" in data:
            choices = tuple(str(card) for card in _cards(at.at("choices"), data["choices"]))
        elif isinstance(scene, Position):
            choices = tuple(str(card) for card in scene.held(LEARNER))
        else:
            raise at.at("choices").error("give the cards to choose from (no hand to choose in)")
        expect = tuple(str(card) for card in _cards(at.at("expect"), _list_of(data["expect"])))
        for token in expect:
            if token not in choices:
                raise at.at("expect").error(f"{token} is not one of the cards to choose from")
        if len(set(expect)) != len(expect):
            raise at.at("expect").error("a card is listed twice")
        return choices, expect

    def _check_highlights(self, at: _At, highlights: Highlights, scene: Scene) -> None:
        if not highlights.cards or not isinstance(scene, Position):
            return
        visible = 0
        for hand in scene.hands:
            visible |= hand.mask
        for card in scene.trick:
            visible |= card.bit
        for card in highlights.cards:
            if not visible >> card.id & 1:
                raise at.at("cards").error(f"{card} is not on the table")


def _show(value: str | frozenset[str]) -> str:
    return value if isinstance(value, str) else " ".join(sorted(value))


def _checked_then(at: _At, position: Position, cards: Sequence[Card]) -> Position:
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


def _bid_choices(scene: BiddingPosition) -> tuple[str, ...]:
    if scene.hand is None:
        return (str(BLIND_NIL), LOOK) if scene.rules.blind_nil else (LOOK,)
    return tuple(str(bid) for bid in scene.legal_bids())


def _bid_token(at: _At, raw: object, allowed: Sequence[str]) -> str:
    if raw == LOOK:
        token = LOOK
    else:
        if not isinstance(raw, str):
            raise at.error("a bid is written as text: \"3\", \"nil\", \"blind-nil\"")
        try:
            token = str(parse_bid(raw))
        except BidParseError as error:
            raise at.error(str(error)) from None
    if token not in allowed:
        raise at.error(f"{token!r} is not offered here (offered: {', '.join(allowed)})")
    return token


def _choice(at: _At, ask: str, raw: object, labels: Mapping[str, Text]) -> str:
    if ask == "number":
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise at.error("a number choice is an integer")
        token = str(raw).strip()
        if not _NUMBER_PATTERN.match(token):
            raise at.error(f"{raw!r} is not an integer")
        return str(int(token))
    if not isinstance(raw, str):
        raise at.error("a choice is written as text")
    if ask == "seat":
        if raw not in ("N", "E", "S", "W"):
            raise at.error(f"{raw!r} is not a seat (N, E, S, W)")
        return raw
    if ask == "team":
        if raw not in ("NS", "EW") and raw not in labels:
            raise at.error(f"{raw!r} is not a team (NS, EW) nor a labelled choice")
        return raw
    if ask == "card":
        return str(_card(at, raw))
    if not raw or raw not in labels:
        raise at.error(f"option {raw!r} has no label")
    return raw


# --- small readers -----------------------------------------------------------------------


def _object(at: _At, raw: object, *, required: Sequence[str],
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


def _text(at: _At, raw: object) -> Text:
    data = _object(at, raw, required=LANGS)
    values: list[str] = []
    for lang in LANGS:
        value = data[lang]
        if not isinstance(value, str) or not value.strip():
            raise at.at(lang).error("the text is empty")
        values.append(value)
    return Text(values[0], values[1])


def _int(at: _At, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise at.error(f"must be an integer, not {raw!r}")
    return raw


def _list_of(raw: object) -> list[object]:
    return list(raw) if isinstance(raw, list) else [raw]


def _card(at: _At, raw: object) -> Card:
    if not isinstance(raw, str):
        raise at.error(f"a card is written as text (\"QS\"), not {raw!r}")
    try:
        return parse_card(raw)
    except CardParseError as error:
        raise at.error(str(error)) from None


def _cards(at: _At, raw: object) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise at.error("must be a list of cards")
    cards = tuple(_card(at.at(i), item) for i, item in enumerate(raw))
    if len(set(cards)) != len(cards):
        raise at.error("a card is listed twice")
    return cards


def _seat(at: _At, raw: object) -> Seat:
    if not isinstance(raw, str) or raw not in ("N", "E", "S", "W"):
        raise at.error(f"{raw!r} is not a seat (N, E, S, W)")
    return Seat[raw]


def _team(at: _At, raw: object) -> Team:
    if not isinstance(raw, str) or raw not in ("NS", "EW"):
        raise at.error(f"{raw!r} is not a team (NS, EW)")
    return Team[raw]


def _bid(at: _At, raw: object) -> Bid:
    if not isinstance(raw, str):
        raise at.error("a bid is written as text: \"3\", \"nil\", \"blind-nil\"")
    try:
        return parse_bid(raw)
    except BidParseError as error:
        raise at.error(str(error)) from None


def _by_seat(at: _At, raw: object, read: Callable[[_At, object], _T]) -> dict[Seat, _T]:
    if not isinstance(raw, dict):
        raise at.error("must be an object by seat (N, E, S, W)")
    return {_seat(at.at(str(key)), key): read(at.at(str(key)), value) for key, value in raw.items()}


def _by_team(at: _At, raw: object) -> tuple[tuple[Team, int], ...]:
    if not isinstance(raw, dict) or not raw:
        raise at.error("must be an object by team (NS, EW)")
    return tuple((_team(at.at(str(key)), key), _int(at.at(str(key)), value))
                 for key, value in raw.items())


def _team_pair(at: _At, raw: object) -> tuple[int, int]:
    pairs = dict(_by_team(at, raw))
    return (pairs.get(Team.NS, 0), pairs.get(Team.EW, 0))


def _rules(at: _At, raw: object) -> Rules:
    try:
        return Rules.from_dict(raw)
    except (TypeError, ValueError) as error:
        raise at.error(str(error)) from None


_POSITION_KEYS = ("hands", "hidden", "show", "leader", "bids", "trick", "tricks",
                  "spades_broken", "scores", "bags", "rules", "plays")


def _position(at: _At, raw: object, rules: Rules) -> Position:
    data = _object(at, raw, required=(), optional=_POSITION_KEYS)
    if "rules" in data:
        rules = _rules(at.at("rules"), data["rules"])
    hands = _by_seat(at.at("hands"), data.get("hands", {}), _cards)
    hidden = _by_seat(at.at("hidden"), data.get("hidden", {}), _int)
    bids = _by_seat(at.at("bids"), data.get("bids", {}), _bid)
    tricks = _by_seat(at.at("tricks"), data.get("tricks", {}), _int)
    leader = _seat(at.at("leader"), data.get("leader", "S"))
    trick = _cards(at.at("trick"), data.get("trick", []))
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
    plays = _cards(at.at("plays"), data.get("plays", []))
    return _checked_then(at.at("plays"), position, plays) if plays else position


def _check_trick(at: _At, position: Position, state: GameState) -> None:
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


def _bidding(at: _At, raw: object, rules: Rules) -> BiddingPosition:
    data = _object(at, raw, required=("dealer",),
                   optional=("hand", "bids", "scores", "bags", "rules"))
    if "rules" in data:
        rules = _rules(at.at("rules"), data["rules"])
    dealer = _seat(at.at("dealer"), data["dealer"])
    hand: CardSet | None = None
    if data.get("hand") is not None:
        cards = _cards(at.at("hand"), data["hand"])
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


def _highlights(at: _At, raw: object) -> Highlights:
    data = _object(at, raw, required=(), optional=("cards", "seats", "bids", "choices"))
    seats = data.get("seats", [])
    bids = data.get("bids", [])
    choices = data.get("choices", [])
    if not isinstance(seats, list) or not isinstance(bids, list) or not isinstance(choices, list):
        raise at.error("cards, seats, bids and choices are lists")
    return Highlights(
        _cards(at.at("cards"), data.get("cards", [])),
        tuple(_seat(at.at("seats").at(i), s) for i, s in enumerate(seats)),
        tuple(_seat(at.at("bids").at(i), s) for i, s in enumerate(bids)),
        tuple(str(choice) for choice in choices),
    )


_CLAIM_KEYS = ("winner", "winning", "points", "bags", "bags_after", "penalty", "contract",
               "score_after", "nil_made", "legal", "refused", "game", "dealer", "opens",
               "tricks", "voids", "unseen", "last_trick")
_SUITS_BY_KEY = {suit.key: suit for suit in Suit}


def _claim(at: _At, raw: object) -> Claim:
    data = _object(at, raw, required=(), optional=_CLAIM_KEYS)
    if not data:
        raise at.error("a claim states at least one fact")

    def hand_seat(key: str) -> tuple[int, Seat] | None:
        if key not in data:
            return None
        part = _object(at.at(key), data[key], required=("hand", "seat"))
        number = _int(at.at(key).at("hand"), part["hand"])
        if number < 1:
            raise at.at(key).at("hand").error("hands are numbered from 1")
        return (number, _seat(at.at(key).at("seat"), part["seat"]))

    refused: list[tuple[Card, str]] = []
    if "refused" in data:
        items = data["refused"]
        for i, item in enumerate(items if isinstance(items, list) else [items]):
            part = _object(at.at("refused").at(i), item, required=("card", "reason"))
            reason = part["reason"]
            if not isinstance(reason, str):
                raise at.at("refused").at(i).at("reason").error("a refusal key, or \"allowed\"")
            refused.append((_card(at.at("refused").at(i).at("card"), part["card"]), reason))
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
        legal=frozenset(_cards(at.at("legal"), data["legal"])) if "legal" in data else None,
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
            (_suit(at.at("unseen").at(str(key)), key), _int(at.at("unseen").at(str(key)), value))
            for key, value in _dict(at.at("unseen"), data.get("unseen", {})).items()
        ),
        last_trick=tuple(
            _by_seat(at.at("last_trick"), data.get("last_trick", {}), _card).items()
        ),
    )


def _dict(at: _At, raw: object) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise at.error("must be an object")
    return {str(key): value for key, value in raw.items()}


def _suit(at: _At, raw: object) -> Suit:
    if not isinstance(raw, str) or raw not in _SUITS_BY_KEY:
        raise at.error(f"{raw!r} is not a suit (clubs, diamonds, hearts, spades)")
    return _SUITS_BY_KEY[raw]


def _suits(at: _At, raw: object) -> tuple[Suit, ...]:
    if not isinstance(raw, list) or not raw:
        raise at.error("must be a non-empty list of suits")
    return tuple(_suit(at.at(i), item) for i, item in enumerate(raw))


def _boolean(at: _At, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise at.error("must be true or false")
    return raw
