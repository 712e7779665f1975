"""The coach's review of a finished hand: "where did the points go?".

:func:`review_hand` goes over one seat's own decisions in a hand (its bid and its cards),
asks the Expert's evaluation (:func:`spades_core.bots.expert.evaluate`, the same search as
the hint) which action it would have chosen, and where that differs from the one played,
prices the difference in **points**: both actions are played out from the same position in
the same imagined deals (deals consistent with what the seat knew then, from
:mod:`.bots.sampling`; the rest of the hand by the bots' fast play-out player, or, in the
last tricks where the Expert's search solves its deals exactly, solved exactly too), and each
play-out is scored with the engine's scoring.  The value of a play-out is the hand's
points of the seat's team minus those of the opponents, a bag counted at its long-run
cost (``+1`` now, ``bag_penalty / bag_limit`` later: ``-9`` with the default rules).  The
Expert's evaluation itself is in match equity (millionths of a win): it chooses the
better action, the play-outs say what it is worth in points.

The cost of a decision is the mean value of the better action minus that of the one
played, in tenths of a point (integers: the same figures in CPython and in the page), split
into the scoring parts of :data:`PARTS` (:func:`split_outcome`, deal by deal; the parts add
up to the cost exactly) and given with its standard error.  Decisions costing at least
:data:`MIN_COST` and at least :data:`NOISE_Z` standard errors are kept, the costliest
first, at most :data:`MAX_ITEMS`.  A forced decision (one distinct card) costs nothing; a
Blind Nil, decided before the cards are seen, is not reviewed.

Each :class:`ReviewItem` says where (hand, trick, the trick so far, the cards held), the
action played and the better one, the cost and its parts, and why: the sentence of the
largest part (:func:`why`, with the facts of the position and of the hand that make it
true), the hint's sentence for the better card where its tip fits the part
(:func:`spades_core.hints.explain`), a "not the X" clause about the card played where a
rule of the trick says it (:func:`spades_core.hints.contrast_against`), and the tip whose
lesson fits the part (docs/hints.md, "The review after each hand").

Pure and deterministic: no text (keys and parameters only), every random draw from a
:class:`~.deal.SplitMix64` seeded by what the seat saw.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from . import record
from .bids import Bid
from .bots.endgame import distinct_cards
from .bots.expert import Evaluation, ExpertBudget, evaluate, run_steps
from .cards import Card, CardSet
from .errors import UsageError
from .game import GameState, HandResult
from .hints import NEUTRAL, NEUTRAL_BID, TEMPLATES, contrast_against, explain
from .judge import skill_of
from .pricing import (
    NOISE_Z,
    PARTS,
    WORLDS,
    Parts,
    Price,
    clear_of_noise,
    confirmed_price,
    exact_endgame,
    odds_against,
    price,
    split_outcome,
    standard_error,
)
from .reasons import PART_TIPS, Why
from .rules import trick_winner
from .seats import SEATS, Seat
from .views import View, view_for

__all__ = [
    "MAX_ITEMS",
    "MIN_COST",
    "NIL_ODDS",
    "NOISE_Z",
    "PARTS",
    "PART_TIPS",
    "REASON_KEYS",
    "WORLDS",
    "Parts",
    "Price",
    "Review",
    "ReviewItem",
    "Weighed",
    "Why",
    "clear_of_noise",
    "confirmed_price",
    "exact_endgame",
    "hand_states",
    "price",
    "review_hand",
    "review_steps",
    "review_to_dict",
    "split_outcome",
    "standard_error",
    "weigh",
    "weighed_indices",
    "why",
]

MIN_COST = 50  # tenths of a point: only decisions costing at least 5 points
MAX_ITEMS = 3


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One costly decision of the reviewed seat."""

    hand_index: int  # 0 for the game's first hand
    trick_number: int  # 1 to 13 for a card; 0 for the bid
    trick: tuple[tuple[Seat, Card], ...]  # the trick so far, before the decision
    held: CardSet  # the seat's cards at the time
    played: Card | Bid
    better: Card | Bid  # the Expert's choice (the hint's action)
    cost: int  # tenths of a point: the better action's mean value minus the played one's
    tip: str  # the tip key (STRATEGY.md) whose lesson fits the largest part
    reason: str  # the main sentence's key: the largest part's (``review.why.*``, coach.json)
    params: dict[str, str] = field(default_factory=dict, hash=False)  # of the three sentences
    contrast: str = ""  # a "not the X" clause key about the card played (hints.json), or ""
    support: str = ""  # the hint's sentence key for the better card where its tip fits, or ""
    parts: Parts = field(default_factory=Parts)  # the cost split into the scoring parts
    se: int = 0  # the cost's standard error, tenths of a point
    action_index: int = 0  # the decision's index in the hand: bids 0-3, then plays 4-55


@dataclass(frozen=True, slots=True)
class Weighed:
    """One decision weighed, flagged or not (for :mod:`.judge`): where, its skill, and what
    it cost against the best action found (``best``: it is that action, or plays alike;
    then no cost)."""

    action_index: int  # bids 0-3, then plays 4-55
    skill: str  # one of judge.SKILLS
    best: bool = True
    cost: int = 0  # tenths of a point
    se: int = 0  # the cost's standard error, tenths
    clear: bool = False  # the cost is positive and at least NOISE_Z standard errors


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one hand for one seat: the costly decisions, the costliest first."""

    hand_index: int
    seat: Seat
    decisions: int  # the seat's decisions weighed (forced ones and Blind Nil left out)
    items: tuple[ReviewItem, ...]
    judged: tuple[Weighed, ...] = ()  # every decision weighed, in the hand's order

    @property
    def total_cost(self) -> int:
        """The flagged decisions' costs added up, in tenths of a point."""
        return sum(item.cost for item in self.items)


# --- the states of a hand -----------------------------------------------------------------


def hand_states(game: GameState, hand_index: int) -> list[GameState]:
    """The states of the finished hand ``hand_index`` of ``game``, one before each action
    (4 bids, 52 plays), replayed from ``game``'s record."""
    past = game.past_hands
    if not 0 <= hand_index < len(past):
        raise UsageError(f"hand {hand_index + 1} is not finished")
    result = past[hand_index]
    data = record.to_dict(game)
    cards = {seat.name: [str(card) for card in result.dealt(seat)] for seat in SEATS}
    data["hands"] = [*data["hands"][:hand_index], {"cards": cards, "bids": [], "plays": []}]
    state = record.from_dict(data)
    states: list[GameState] = []
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    for action in actions:
        states.append(state)
        state = state.apply(action)
    return states


# --- the review -------------------------------------------------------------------------


def _same_card(view: View, one: Card, other: Card) -> bool:
    """Whether two legal cards play alike (no card unseen or in the trick between them)."""
    in_trick = 0
    for _, card in view.trick:
        in_trick |= card.bit
    breaks = view.unseen_mask() | in_trick
    return len(distinct_cards(one.bit | other.bit, breaks)) == 1


# --- why: the sentence of the largest part -------------------------------------------------

#: Every main sentence a review item may have (``coach.json``, both languages).
REASON_KEYS = (
    "review.why.bag-made-won", "review.why.bag-made", "review.why.bags-over", "review.why.bags",
    "review.why.set-us", "review.why.need-us", "review.why.our-contract",
    "review.why.my-nil-won", "review.why.my-nil", "review.why.partner-nil-lost",
    "review.why.partner-nil", "review.why.our-nil", "review.why.their-made",
    "review.why.their-contract", "review.why.their-bags", "review.why.their-nil",
    "review.why.their-nils", "review.why.bid-higher", "review.why.bid-lower",
    "review.why.bid-bags", "review.why.bid-nil", "review.why.bid-no-nil", "review.why.bid-cover",
    *(f"review.why.bid.{part}" for part in PARTS),
)
# The clause beside a bid's sentence that gives the Nil's odds: the better bid is the Nil
# (False), or the bid played was (True).
NIL_ODDS = {False: "review.why.nil-odds", True: "review.why.nil-odds-played"}


def _card(card: Card | Bid) -> str:
    return str(card)


def _contract(bids: tuple[Bid | None, ...], team: int) -> int:
    return sum(bid.tricks for bid in (bids[team], bids[team + 2]) if bid is not None)


def _nil_alive(view: View, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and bid.is_nil and view.tricks_won[seat] == 0


def _in_ten(count: int, worlds: int) -> str:
    """``count`` out of ``worlds`` as times in 10, rounded."""
    return str((20 * count + worlds) // (2 * worlds)) if worlds else "0"


def stated_nil_odds(evaluation: Evaluation | None, found: Price, nil_played: bool) -> str:
    """The Nil's odds a review item states, in tenths: the bid search's (``nil_made`` of
    ``nil_worlds``, the figure the hint and the Nil drill state for the same hand: one
    measure, one voice), or where the search did not weigh Nil, the Nil's share in the
    item's own play-outs (``found``; the Nil is the action played when ``nil_played``).
    Not the item's own share where the search gives one: the item is flagged on those
    deals, so a Nil flagged as a mistake is one whose deals went worse than usual, and
    their share reads low (lab/nil_odds.py, docs/hints.md)."""
    if evaluation is not None and evaluation.nil_worlds:
        return _in_ten(evaluation.nil_made, evaluation.nil_worlds)
    return _in_ten(found.nil_made[1 if nil_played else 0], found.worlds)


def _why_card(view: View, played: Card, better: Card, part: str, result: HandResult,
              index: int) -> Why:
    """The sentence for a card: the part's, with the facts of the position and of the hand
    as it was played that make it true (see docs/hints.md)."""
    seat = int(view.seat)
    team, partner = seat & 1, (seat + 2) & 3
    rules = view.rules
    ours, theirs = _contract(view.bids, team), _contract(view.bids, 1 - team)
    taken = view.tricks_won[team] + view.tricks_won[team + 2]
    final = result.tricks[team] + result.tricks[team + 2]
    final_theirs = result.tricks[1 - team] + result.tricks[3 - team]
    play = index - 4  # the play's index in the hand
    start = play - play % 4
    at = trick_winner(list(result.play_ids[start:start + 4]))
    winner = (seat - play % 4 + at) & 3  # the seat that won the played card's trick
    won = winner == seat
    card, alt = _card(better), _card(played)
    bags = {"limit": str(rules.bag_limit), "penalty": str(rules.bag_penalty)}
    if part == "our-bags":
        made = 0 < ours <= taken
        tip = "duck-when-made" if made else "bags-cost"
        before = [c.id for _, c in view.trick]
        ducks = bool(before) and trick_winner([*before, better.id]) != len(before)
        if made and won and ducks:  # the better card would not have won it as it stood
            return Why("review.why.bag-made-won", tip,
                       {"alt": alt, "taken": str(taken), "contract": str(ours)})
        if made:
            return Why("review.why.bag-made", tip,
                       {"taken": str(taken), "contract": str(ours), **bags})
        if final > ours:
            return Why("review.why.bags-over", tip,
                       {"alt": alt, "final": str(final), "contract": str(ours), **bags})
        return Why("review.why.bags", tip, {"alt": alt, "contract": str(ours), **bags})
    if part == "our-contract":
        if final < ours:
            return Why("review.why.set-us", "count-cards",
                       {"card": card, "contract": str(ours), "final": str(final)})
        if taken < ours:
            return Why("review.why.need-us", "count-cards",
                       {"card": card, "alt": alt, "contract": str(ours),
                        "short": str(ours - taken)})
        return Why("review.why.our-contract", "count-cards",
                   {"card": card, "alt": alt, "contract": str(ours)})
    if part == "our-nil":
        value = str(rules.nil_value)
        if _nil_alive(view, seat):
            if won:
                return Why("review.why.my-nil-won", "nil-hand", {"alt": alt, "value": value})
            return Why("review.why.my-nil", "nil-hand", {"alt": alt, "value": value})
        if _nil_alive(view, partner):
            if winner == partner:
                return Why("review.why.partner-nil-lost", "cover-partner-nil",
                           {"card": card, "value": value})
            return Why("review.why.partner-nil", "cover-partner-nil",
                       {"alt": alt, "value": value})
    if part == "their-contract":
        key = "review.why.their-made" if final_theirs >= theirs else "review.why.their-contract"
        return Why(key, "count-cards", {"card": card, "contract": str(theirs)})
    if part == "their-bags":
        return Why("review.why.their-bags", "bags-cost",
                   {"card": card, "contract": str(theirs), **bags})
    if part == "their-nil":
        alive = [s for s in ((seat + 1) & 3, (seat + 3) & 3) if _nil_alive(view, s)]
        if len(alive) == 1:
            return Why("review.why.their-nil", "attack-nil",
                       {"card": card, "nil_seat": SEATS[alive[0]].name,
                        "value": str(rules.nil_value)})
        return Why("review.why.their-nils", "attack-nil", {"card": card})
    # the Nil part moves only while a Nil of the team is alive: not reached
    return Why("review.why.our-nil", "nil-hand", {"card": card})


def _why_bid(view: View, played: Bid, better: Bid, part: str, found: Price,
             result: HandResult, against: str = "any",
             evaluation: Evaluation | None = None) -> Why:
    """The sentence for a bid: the part's, with the play-outs' figures (the team's tricks,
    how often a Nil is made: :func:`stated_nil_odds` of ``evaluation``, the bid search's, and
    whom that figure assumes: ``against``) that make it true."""
    seat = int(view.seat)
    partner = (seat + 2) & 3
    rules = view.rules
    tricks = str(max(0, found.team_tricks + 5) // 10)
    both = {"bid": str(better), "alt_bid": str(played)}
    numbers = not played.is_nil and not better.is_nil
    if part == "our-contract":
        if numbers and better.tricks > played.tricks:
            return Why("review.why.bid-higher", "count-sure-tricks", {**both, "tricks": tricks})
        if numbers and better.tricks < played.tricks:
            return Why("review.why.bid-lower", "count-sure-tricks", {**both, "tricks": tricks})
    if part == "our-bags" and numbers and better.tricks > played.tricks:
        return Why("review.why.bid-bags", "bags-cost", {**both, "tricks": tricks})
    if part == "our-nil":
        value = str(rules.nil_value)
        if better.is_nil:
            return Why("review.why.bid-nil", "nil-hand",
                       {"made": stated_nil_odds(evaluation, found, False), "value": value,
                        "against": against})
        if played.is_nil:
            return Why("review.why.bid-no-nil", "nil-hand",
                       {**both, "made": stated_nil_odds(evaluation, found, True),
                        "value": value, "against": against})
        if result.bids_by_seat[partner].is_nil:
            return Why("review.why.bid-cover", "cover-partner-nil", both)
    return Why(f"review.why.bid.{part}", PART_TIPS[part][0], both)


def why(view: View, played: Card | Bid, better: Card | Bid, found: Price,
        result: HandResult, index: int, level: str | None = None,
        evaluation: Evaluation | None = None) -> Why:
    """The main sentence of a review item: the one of the largest part of ``found``'s split
    (:attr:`Price.parts`), for the decision ``index`` (bids 0-3, plays 4-55) of the hand
    ``result``, in the position ``view``; ``level``, the opponents' bot level, is whom a
    stated Nil figure is said to assume (:func:`~.pricing.odds_against`); ``evaluation``,
    the bid search's, gives that figure (:func:`stated_nil_odds`)."""
    part = found.parts.largest()
    if isinstance(played, Bid) and isinstance(better, Bid):
        return _why_bid(view, played, better, part, found, result, odds_against(level),
                        evaluation)
    assert isinstance(played, Card) and isinstance(better, Card)
    return _why_card(view, played, better, part, result, index)


def weigh(view: View, played: Card | Bid, budget: ExpertBudget | None = None,
          worlds: int = WORLDS) -> tuple[Card | Bid, Evaluation, Price] | None:
    """The Expert's better action for ``view`` and its price against ``played``; None when
    ``played`` is the Expert's choice (or plays alike) or the decision is forced."""
    if view.hand is None or not view.my_turn:
        return None
    if isinstance(played, Card):
        if len(view.legal_plays) < 2:
            return None
    elif played.blind:
        return None
    evaluation = evaluate(view, budget)
    better = evaluation.best
    if better == played:
        return None
    if isinstance(played, Card) and isinstance(better, Card) and _same_card(view, played, better):
        return None
    return better, evaluation, confirmed_price(view, played, better, worlds)


def review_hand(game: GameState, hand_index: int, seat: Seat = Seat.S,
                budget: ExpertBudget | None = None, worlds: int = WORLDS,
                part: tuple[int, int] | None = None, level: str | None = None) -> Review:
    """The review of the finished hand ``hand_index`` of ``game`` for ``seat``'s own
    decisions (see the module); ``part``: only the weighed decisions ``part[0]`` to
    ``part[1] - 1`` (in the hand's order), for a caller that reviews a hand in pieces;
    ``level``: the opponents' bot level, whom a stated Nil figure is said to assume (it
    changes no figure)."""
    return run_steps(review_steps(game, hand_index, seat, budget, worlds, part, level))


def review_steps(game: GameState, hand_index: int, seat: Seat = Seat.S,
                 budget: ExpertBudget | None = None, worlds: int = WORLDS,
                 part: tuple[int, int] | None = None,
                 level: str | None = None) -> Generator[None, None, Review]:
    """:func:`review_hand` in steps: yields after each decision weighed (for a caller that
    cannot block, the page's main thread); the same review."""
    states = hand_states(game, hand_index)
    result = game.past_hands[hand_index]
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    found: list[ReviewItem] = []
    judged: list[Weighed] = []
    chosen = _weighed(states, actions, seat)
    if part is not None:  # the decisions part[0] to part[1] - 1 only (a page's slice)
        chosen = chosen[part[0]:part[1]]
    for index in chosen:
        played = actions[index]
        view = view_for(states[index], seat)
        weighed = weigh(view, played, budget, worlds)
        yield
        skill = skill_of(view, played)
        if weighed is None:
            judged.append(Weighed(index, skill))
            continue
        better, evaluation, cost = weighed
        judged.append(Weighed(index, skill, False, cost.cost, cost.se, cost.clear))
        if cost.cost < MIN_COST or not cost.clear:
            continue
        found.append(_item(view, played, better, evaluation, cost, result, index, level))
    found.sort(key=lambda item: (-item.cost, item.action_index))
    return Review(hand_index, seat, len(chosen), tuple(found[:MAX_ITEMS]), tuple(judged))


def _weighed(states: list[GameState], actions: tuple[Card | Bid, ...], seat: Seat) -> list[int]:
    """The indices of ``seat``'s decisions that the review weighs: not forced (two legal
    cards at least), not a Blind Nil."""
    chosen = []
    for index, state in enumerate(states):
        if state.to_act != seat:
            continue
        played = actions[index]
        if isinstance(played, Card) and len(state.legal_plays()) < 2:
            continue
        if isinstance(played, Bid) and played.blind:
            continue
        chosen.append(index)
    return chosen


def weighed_indices(game: GameState, hand_index: int, seat: Seat = Seat.S) -> list[int]:
    """The indices (bids 0-3, plays 4-55) of ``seat``'s decisions of the finished hand
    ``hand_index`` that the review weighs: as many as :attr:`Review.decisions`."""
    result = game.past_hands[hand_index]
    actions: tuple[Card | Bid, ...] = (*result.bid_history, *result.plays)
    return _weighed(hand_states(game, hand_index), actions, seat)


def _item(view: View, played: Card | Bid, better: Card | Bid, evaluation: Evaluation,
          cost: Price, result: HandResult, index: int, level: str | None = None) -> ReviewItem:
    """The review item of a flagged decision: where, what, the cost and its split, the
    sentence of the largest part, the hint's sentence where its tip fits the part, and the
    "not the X" clause about the card played where one of the trick's rules says it."""
    reason = why(view, played, better, cost, result, index, level, evaluation)
    params = dict(reason.params)
    tip, support, contrast = reason.tip, "", ""
    hint = explain(view, better, evaluation, contrasts=False, level=level)
    part = cost.parts.largest()
    said = reason.key in ("review.why.bag-made", "review.why.bag-made-won")
    if (isinstance(better, Card) and hint.reason not in (NEUTRAL, NEUTRAL_BID)
            and not (said and hint.reason == "coach.play.bags-duck")  # it says it already
            and hint.tip in ((reason.tip,) if part == "our-nil" else PART_TIPS[part])):
        own = {key: hint.params[key] for key in TEMPLATES[hint.reason].params
               if key in hint.params}  # the template's own (not the hint's clause's)
        if _agrees(params, own):
            tip, support = hint.tip, hint.reason
            params.update(own)
    if isinstance(played, Bid) and isinstance(better, Bid):
        support = _nil_odds(view, played, better, reason.key, cost, params, level, evaluation)
    if isinstance(played, Card) and isinstance(better, Card):
        clause, extra = contrast_against(view, better, evaluation, played)
        if clause and _agrees(params, extra):
            contrast = clause
            params.update(extra)
    assert view.hand is not None
    return ReviewItem(
        hand_index=result.hand_index,
        trick_number=0 if isinstance(played, Bid) else (len(view.plays) // 4) + 1,
        trick=view.trick,
        held=view.hand,
        played=played,
        better=better,
        cost=cost.cost,
        tip=tip,
        reason=reason.key,
        params=params,
        contrast=contrast,
        support=support,
        parts=cost.parts,
        se=cost.se,
        action_index=index,
    )


def _nil_odds(view: View, played: Bid, better: Bid, reason: str, found: Price,
              params: dict[str, str], level: str | None = None,
              evaluation: Evaluation | None = None) -> str:
    """The clause that gives a Nil's odds where one of the two bids is the seat's Nil and the
    main sentence (another part's) does not already say them: a Nil is a bet, and its odds
    are the why of it (``params`` takes the clause's). "" when there is none."""
    if reason in ("review.why.bid-nil", "review.why.bid-no-nil") or played.is_nil == better.is_nil:
        return ""
    nil_played = played.is_nil
    params["made"] = stated_nil_odds(evaluation, found, nil_played)
    params["value"] = str(view.rules.nil_value)
    params["against"] = odds_against(level)
    return NIL_ODDS[nil_played]


def _agrees(params: dict[str, str], extra: dict[str, str]) -> bool:
    """No parameter of ``extra`` given another value in ``params``."""
    return all(params.get(key, value) == value for key, value in extra.items())


def review_to_dict(review: Review) -> dict[str, object]:
    """The review as plain JSON data (cards and bids as their texts), for the page's worker."""
    return {
        "hand": review.hand_index,
        "seat": review.seat.name,
        "decisions": review.decisions,
        "items": [
            {
                "hand": item.hand_index,
                "trick_number": item.trick_number,
                "trick": [[who.name, str(card)] for who, card in item.trick],
                "held": [str(card) for card in item.held],
                "played": str(item.played),
                "better": str(item.better),
                "cost": item.cost,
                "tip": item.tip,
                "reason": item.reason,
                "params": dict(item.params),
                "contrast": item.contrast,
                "support": item.support,
                "parts": dict(item.parts.named()),
                "se": item.se,
                "kind": "bid" if isinstance(item.played, Bid) else "card",
                "index": item.action_index,
            }
            for item in review.items
        ],
        # every decision weighed: [action index, skill, best, cost, se, clear]
        "judged": [[w.action_index, w.skill, w.best, w.cost, w.se, w.clear]
                   for w in review.judged],
    }
