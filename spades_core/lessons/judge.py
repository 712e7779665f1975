"""Judging the learner: an action against a step (:func:`check_action`), and the engine's
own answer to what a step claims (:func:`claim_problems`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ..bids import Bid, parse_bid
from ..cards import SUIT_MASKS, Card, parse_card
from ..errors import Refusal, UsageError
from ..rules import game_winner, winning_play
from ..scoring import TeamScore, score_hand
from ..seats import TEAMS, Seat, Team, dealer_of_hand
from ..views import View
from .model import (
    LEARNER,
    LOOK,
    PLACEHOLDER_BID,
    ActingStep,
    AnswerStep,
    BiddingPosition,
    BidStep,
    Claim,
    Highlights,
    PlayStep,
    Position,
    Scene,
    Shared,
    Step,
    Text,
    WatchStep,
)

# --- judging the learner ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """The verdict on one action of the learner.

    ``refusal`` is the engine's reason when the card may not be played at all;
    ``feedback`` is the step's text (its success text, or its feedback for this choice,
    or its default feedback); for an illegal card without a text of its own, the
    shared refusal text when a :class:`Shared` was given, else None (show the
    refusal).  ``highlight`` is what to light up now: the right action.
    ``after`` is the position after a right card (play steps).  ``wrong``: for a
    ``cards`` answer, the cards chosen that are not right (a right card chosen alone is
    not wrong, the answer only incomplete).
    """

    correct: bool
    refusal: Refusal | None
    feedback: Text | None
    highlight: Highlights
    after: Scene = None
    wrong: frozenset[str] = frozenset()


Action: TypeAlias = Card | Bid | str | int | Iterable[Card | str]


def check_action(step: ActingStep, action: Action, shared: Shared | None = None) -> Outcome:
    """Judge the learner's action on an acting step.

    A play step takes a :class:`Card` (or its text); a bid step a :class:`Bid`, its
    token, or :data:`LOOK`; an answer step the choice's token (a card for ``card``,
    several cards for ``cards``).  Raise UsageError for an action of the wrong type.
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
        if isinstance(action, str | Card | Bid | int):
            raise UsageError("this answer is a set of cards")
        chosen = frozenset(str(_as_card(item)) for item in action)
        if chosen == frozenset(step.expect):
            return Outcome(True, None, step.success, highlight, step.scene)
        return Outcome(False, None, step.feedback, highlight,
                       wrong=chosen - frozenset(step.expect))
    typed = isinstance(action, int) and not isinstance(action, bool) and step.ask == "entry"
    if isinstance(action, Card) or typed:
        token = str(action)
    elif isinstance(action, str) and step.ask == "entry":
        number = _typed_number(action)
        if number is None:
            return Outcome(False, None, step.feedback, highlight)
        token = number
    elif isinstance(action, str):
        token = str(parse_card(action)) if step.ask == "card" else action.strip()
    else:
        raise UsageError(f"an answer is one of the step's choices, not {action!r}")
    if token in step.expect:
        return Outcome(True, None, step.success, highlight, step.scene)
    return Outcome(False, None, step.feedback_for.get(token, step.feedback), highlight)


def _typed_number(text: str) -> str | None:
    """A number as the learner typed it ("71", " -159", "\u2212159", "+50"), or None."""
    cleaned = text.strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "")
    if cleaned.startswith("+"):
        cleaned = cleaned[1:]
    body = cleaned[1:] if cleaned.startswith("-") else cleaned
    if not body.isascii() or not body.isdigit():
        return None
    return str(int(cleaned))


def _as_card(action: object) -> Card:
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        return parse_card(action)
    raise UsageError(f"a card is expected, not {action!r}")


def _as_bid_token(action: object) -> str:
    if isinstance(action, Bid):
        return str(action)
    if isinstance(action, str):
        if action.strip().lower() == LOOK:
            return LOOK
        return str(parse_bid(action))
    raise UsageError(f"a bid is expected, not {action!r}")


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
        raise UsageError("the position does not show all four bids")
    known = (bids[0] or PLACEHOLDER_BID, bids[1] or PLACEHOLDER_BID,
             bids[2] or PLACEHOLDER_BID, bids[3] or PLACEHOLDER_BID)
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
            actual, _ = winning_play(table)
            if actual != claim.winner:
                problems.append(f"the trick is won by {actual.name}, not {claim.winner.name}")
    if claim.winning is not None:
        table = position.table_trick()
        if not table:
            problems.append("there is no trick on the table")
        else:
            leading, _ = winning_play(table)
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
