"""The coach: the Expert's decision for the seat to act, with a sentence that is true.

``hint(view)`` returns a :class:`Hint`: the suggested action (a :class:`~.bids.Bid` or a
:class:`~.cards.Card`) is the Expert bot's own decision for ``view`` (the same search, so
the same view always gives the same hint).  The explanation comes from the position and
from the Expert's evaluation (:func:`spades_core.bots.expert.evaluate`), never from a rule
of thumb: each reason is a :class:`Template` whose *predicate* reads the view and the
action, and a template is used only where its predicate holds (``tests/test_hint_truth.py``
checks it over thousands of positions).  The first template of :data:`PLAY_TEMPLATES` or
:data:`BID_TEMPLATES` that holds is the reason; when none holds, a neutral sentence
(``coach.play.best``: the card that scores best in the app's simulations).

Where a learner would expect another card (the highest, or the lowest), ``Hint.contrast``
may name a second template, a "not the X: because ..." clause about the card ``alt``,
again only where its fact is true.

Before both, ``Hint.why`` is the measured main sentence: the action priced against the card
that clause names (else the search's next best) on the review's imagined deals, and where it
is clearly better, the sentence of the scoring part it gains most on (:mod:`.reasons`); the
template's sentence is then said (``Hint.said``) only where its tip fits that part.  Within
the noise, the hint says the two score about as well (docs/hints.md, "The hint's main
sentence").

Parameters are strings: ``card``, ``winner`` and ``alt`` are card texts (``"AH"``),
``suit`` and ``led`` suit keys (``"hearts"``), ``seat`` and ``alt_seat`` seat letters,
``bid`` a bid token, the rest decimal numbers.  ``ui/shared/i18n.py``'s :func:`hint_text` renders
them (cards with their article, plural forms by language).

Before the seat has looked at its cards (``view.hand is None``, when Blind Nil is
offered), the action is Blind Nil or None, meaning "look at your cards first".
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from .bids import BLIND_NIL, Bid
from .bots.expert import (
    Evaluation,
    ExpertBot,
    ExpertBudget,
    bid_forecast,
    evaluate,
    evaluate_steps,
)
from .bots.strategy import REASONS, TIPS, Decision, decide_bid, decide_play
from .cards import CARD_TEXT, SUIT_MASKS, Card, parse_card
from .errors import UsageError
from .game import Phase
from .pricing import Price, confirmed_price, odds_against
from .reasons import PART_TIPS, hint_why
from .rules import trick_winner
from .views import View

__all__ = [
    "BID_TEMPLATES", "CONTRAST_TEMPLATES", "NEUTRAL", "NEUTRAL_BID", "PLAY_TEMPLATES",
    "REASONS", "RULE_CLAUSES", "RULE_CONTRASTS", "RULE_REASONS", "TEMPLATES", "TIPS", "Hint",
    "NilShape", "Spot", "Template", "clear_difference", "contrast_against", "explain", "hint",
    "hint_steps", "lesson_rule", "next_best", "nil_shape", "normal_hint",
]

SPADES = 3
SUIT_KEYS = ("clubs", "diamonds", "hearts", "spades")
SEAT_LETTERS = "NESW"


@dataclass(frozen=True, slots=True)
class Hint:
    action: Card | Bid | None
    tip: str  # a STRATEGY.md tip key, e.g. "cash-aces-early"
    reason: str  # a reason key, e.g. "coach.play.cash-ace"
    params: dict[str, str] = field(default_factory=dict, hash=False)
    contrast: str = ""  # a "not the X" clause key ("" for none); its params are in params
    # the main sentence, measured (a ``coach.why.*`` key of :mod:`.reasons`, "" for none):
    # the scoring part that the action gains most on against the card or bid compared
    why: str = ""
    said: bool = True  # whether ``reason``'s sentence is said (beside ``why``: see explain)

    @classmethod
    def of(cls, decision: Decision) -> Hint:
        return cls(decision.action, decision.tip, decision.key, dict(decision.params))


# --- the facts of a position ------------------------------------------------------------


def rank_of(card: Card) -> int:
    """0 for a two, 12 for an ace, 13/14 for the jokers: comparable across suits."""
    return card.id - 13 * min(card.id // 13, 3)


class Spot:
    """What the coach reads from a view about one action (a card or a bid)."""

    def __init__(self, view: View, action: Card | Bid | None,
                 evaluation: Evaluation | None = None, alt: Card | None = None,
                 level: str | None = None) -> None:
        self.view = view
        self.action = action
        self.evaluation = evaluation
        self.alt = alt  # the card a "not the X" clause is about, when the caller names it
        # whom a stated Nil figure assumes: the opponents' bot level (pricing.odds_against)
        self.against = odds_against(level)
        self.seat = int(view.seat)
        self.partner = (self.seat + 2) & 3
        self.hand = view.hand.mask if view.hand is not None else 0
        self.unseen = view.unseen_mask()
        self.trick = view.trick
        self.pos = len(view.trick)
        self.led = view.led_suit
        self.legal = view.legal_plays
        self.later = tuple((self.seat + i) & 3 for i in range(1, 4 - self.pos))
        if view.trick:
            at = trick_winner([card.id for _, card in view.trick])
            who, best = view.trick[at]
            self.winner: Card | None = best
            self.winner_seat = int(who)
        else:
            self.winner = None
            self.winner_seat = -1
        self._prices: dict[Card | Bid, Price] = {}

    def priced(self, other: Card | Bid) -> Price:
        """The coach's card against ``other``, priced in points on the review's imagined
        deals (:func:`spades_core.pricing.confirmed_price`: the same deals, play-out player,
        exact endgame and confirming draws as the review's, so that the hint and the review
        say the same of the same two cards); ``cost`` is what ``other`` loses, in tenths of
        a point."""
        found = self._prices.get(other)
        if found is None:
            assert self.action is not None
            found = self._prices[other] = confirmed_price(self.view, other, self.action)
        return found

    # cards
    @property
    def card(self) -> Card:
        assert isinstance(self.action, Card)
        return self.action

    def wins(self, card: Card) -> bool:
        """Does ``card`` win the trick as it stands (a lead always does)?"""
        if not self.trick:
            return True
        ids = [c.id for _, c in self.trick] + [card.id]
        return trick_winner(ids) == self.pos

    def held(self, suit: int) -> int:
        return self.hand & SUIT_MASKS[suit]

    def unseen_above(self, card: Card) -> int:
        """The unseen cards of ``card``'s suit higher than it."""
        suit = min(card.id // 13, 3)
        return self.unseen & SUIT_MASKS[suit] & ~((2 << card.id) - 1)

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.view.voids[seat] >> suit & 1)

    def lowest_of_suit(self, card: Card) -> bool:
        return not self.held(card.suit) & ((1 << card.id) - 1)

    def highest_of_suit(self, card: Card) -> bool:
        return not self.held(card.suit) & ~((2 << card.id) - 1)

    def lowest_legal(self, card: Card) -> bool:
        """No legal card is lower: on equal ranks, a spade (a trump) is the higher."""
        def low(other: Card) -> tuple[int, bool]:
            return rank_of(other), other.suit == SPADES
        return all(low(card) <= low(other) for other in self.legal)

    def lowest_winner(self, card: Card) -> bool:
        """``card`` wins, and no legal card that also wins is lower (the cards that can
        win a trick are all of one suit: the led suit, or spades)."""
        return self.wins(card) and all(
            other.id >= card.id for other in self.legal if self.wins(other))

    def following(self) -> bool:
        return self.led >= 0 and bool(self.held(self.led))

    # bids
    def bid_of(self, seat: int) -> Bid | None:
        return self.view.bids[seat]

    def nil_alive(self, seat: int) -> bool:
        bid = self.view.bids[seat]
        return bid is not None and bid.is_nil and self.view.tricks_won[seat] == 0

    def contract(self, team: int) -> int:
        total = 0
        for seat in (team, team + 2):
            bid = self.view.bids[seat]
            total += bid.tricks if bid is not None else 0
        return total

    def team_tricks(self, team: int) -> int:
        return self.view.tricks_won[team] + self.view.tricks_won[team + 2]


def card_text(card: Card) -> str:
    return CARD_TEXT[card.id]


Params = dict[str, str]
Check = Callable[[Spot], Params | None]


@dataclass(frozen=True, slots=True)
class Template:
    """A reason key, its STRATEGY.md tip, its parameters, and its predicate: ``check``
    returns the parameters where the sentence is true of the spot, None elsewhere."""

    key: str
    tip: str
    params: tuple[str, ...]
    check: Check


TEMPLATES: dict[str, Template] = {}
PLAY_TEMPLATES: list[Template] = []
BID_TEMPLATES: list[Template] = []
CONTRAST_TEMPLATES: list[Template] = []


def _template(into: list[Template], key: str, tip: str, *params: str) -> Callable[[Check], Check]:
    if tip not in TIPS:
        raise UsageError(f"template {key!r} names an unknown tip {tip!r}")

    def register(check: Check) -> Check:
        if key in TEMPLATES:
            raise UsageError(f"template {key!r} registered twice")

        def checked(spot: Spot) -> Params | None:
            found = check(spot)
            if found is not None and sorted(found) != sorted(params):
                raise UsageError(f"template {key!r} takes {params}, not {sorted(found)}")
            return found

        TEMPLATES[key] = template = Template(key, tip, params, checked)
        into.append(template)
        return checked

    return register


def _play(key: str, tip: str, *params: str) -> Callable[[Check], Check]:
    return _template(PLAY_TEMPLATES, key, tip, *params)


def _bid(key: str, tip: str, *params: str) -> Callable[[Check], Check]:
    return _template(BID_TEMPLATES, key, tip, *params)


def _not(key: str, tip: str, *params: str) -> Callable[[Check], Check]:
    return _template(CONTRAST_TEMPLATES, key, tip, *params)


def _cw(spot: Spot, **extra: str) -> Params:
    """The ``card`` and ``winner`` parameters (and more)."""
    found = {"card": card_text(spot.card)}
    if "winner" in extra and spot.winner is not None:
        extra["winner"] = card_text(spot.winner)
    found.update(extra)
    return found


def _card_play(spot: Spot) -> bool:
    return isinstance(spot.action, Card) and spot.view.phase is Phase.PLAYING


# --- card play: the reasons, in order of preference ---------------------------------------


@_play("coach.play.only-card", "count-cards", "card")
def _only_card(spot: Spot) -> Params | None:
    if _card_play(spot) and spot.legal == (spot.card,):
        return _cw(spot)
    return None


@_play("coach.play.alike", "count-cards", "card")
def _alike(spot: Spot) -> Params | None:
    ev = spot.evaluation
    if _card_play(spot) and len(spot.legal) > 1 and ev is not None and len(ev.candidates) == 1:
        return _cw(spot)
    return None


def _my_nil(spot: Spot) -> bool:
    return _card_play(spot) and spot.nil_alive(spot.seat)


@_play("coach.play.nil-duck", "nil-hand", "card", "winner")
def _nil_duck(spot: Spot) -> Params | None:
    if not _my_nil(spot) or spot.winner is None or spot.wins(spot.card):
        return None
    under = [c for c in spot.legal if not spot.wins(c)]
    if len(under) > 1 and all(rank_of(spot.card) >= rank_of(c) for c in under):
        return _cw(spot, winner="")
    return None


@_play("coach.play.nil-under", "nil-hand", "card", "winner")
def _nil_under(spot: Spot) -> Params | None:
    if _my_nil(spot) and spot.winner is not None and not spot.wins(spot.card):
        return _cw(spot, winner="")
    return None


@_play("coach.play.nil-low", "nil-hand", "card", "winner")
def _nil_low(spot: Spot) -> Params | None:
    if (_my_nil(spot) and spot.winner is not None and spot.later
            and all(spot.wins(c) for c in spot.legal) and spot.lowest_winner(spot.card)):
        return _cw(spot, winner="")  # "hope someone beats it": someone plays after
    return None


@_play("coach.play.nil-lost", "nil-hand", "card", "winner")
def _nil_lost(spot: Spot) -> Params | None:
    if (_my_nil(spot) and spot.winner is not None and not spot.later
            and all(spot.wins(c) for c in spot.legal)):
        return _cw(spot, winner="")  # last to play and every card wins: the Nil is gone
    return None


@_play("coach.play.nil-lead", "nil-hand", "card", "suit", "higher")
def _nil_lead(spot: Spot) -> Params | None:
    if not _my_nil(spot) or spot.trick or not spot.lowest_of_suit(spot.card):
        return None
    higher = spot.unseen_above(spot.card).bit_count()
    if higher == 0:
        return None
    return _cw(spot, suit=SUIT_KEYS[spot.card.suit], higher=str(higher))


def _partner_nil(spot: Spot) -> bool:
    return _card_play(spot) and spot.nil_alive(spot.partner) and not spot.nil_alive(spot.seat)


@_play("coach.play.cover-overtake", "cover-partner-nil", "card", "winner")
def _cover_overtake(spot: Spot) -> Params | None:
    if _partner_nil(spot) and spot.winner_seat == spot.partner and spot.wins(spot.card):
        return _cw(spot, winner="")
    return None


@_play("coach.play.cover-high", "cover-partner-nil", "card")
def _cover_high(spot: Spot) -> Params | None:
    if _partner_nil(spot) and spot.partner in spot.later and spot.wins(spot.card) and (
            not spot.lowest_legal(spot.card) or len(spot.legal) == 1):
        return _cw(spot)
    return None


@_play("coach.play.cover-lead-void", "cover-partner-nil", "card", "suit")
def _cover_lead_void(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if card is not None and _partner_nil(spot) and not spot.trick \
            and spot.void(spot.partner, card.suit):
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


def _opponent_nil(spot: Spot) -> list[int]:
    if not _card_play(spot):
        return []
    return [s for s in ((spot.seat + 1) & 3, (spot.seat + 3) & 3) if spot.nil_alive(s)]


@_play("coach.play.attack-duck", "attack-nil", "card", "winner", "seat")
def _attack_duck(spot: Spot) -> Params | None:
    if spot.winner_seat in _opponent_nil(spot) and not spot.wins(spot.card):
        return _cw(spot, winner="", seat=SEAT_LETTERS[spot.winner_seat])
    return None


@_play("coach.play.attack-low", "attack-nil", "card", "seat")
def _attack_low(spot: Spot) -> Params | None:
    if not spot.wins(spot.card):  # a higher card is already in: it is that one they must beat
        return None
    for seat in _opponent_nil(spot):
        if seat in spot.later and spot.lowest_legal(spot.card) and len(spot.legal) > 1:
            return _cw(spot, seat=SEAT_LETTERS[seat])
    return None


@_play("coach.play.attack-lead", "attack-nil", "card", "suit", "seat")
def _attack_lead(spot: Spot) -> Params | None:
    if spot.trick:
        return None
    for seat in _opponent_nil(spot):
        if not spot.void(seat, spot.card.suit) and spot.lowest_of_suit(spot.card):
            return _cw(spot, suit=SUIT_KEYS[spot.card.suit], seat=SEAT_LETTERS[seat])
    return None


def _team(spot: Spot) -> int:
    return spot.seat & 1


def _made(spot: Spot) -> bool:
    team = _team(spot)
    contract = spot.contract(team)
    return contract > 0 and spot.team_tricks(team) >= contract


@_play("coach.play.bags-shed", "duck-when-made", "card", "suit")
def _bags_shed(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is not None and _card_play(spot) and _made(spot) and spot.trick
            and not spot.wins(card) and rank_of(card) >= 8 and spot.highest_of_suit(card)):
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


@_play("coach.play.bags-duck", "bags-cost", "card")
def _bags_duck(spot: Spot) -> Params | None:
    if (_card_play(spot) and _made(spot) and spot.trick and not spot.wins(spot.card)
            and spot.winner_seat != spot.partner):
        return _cw(spot)
    return None


@_play("coach.play.set-them", "bags-cost", "card", "need", "left")
def _set_them(spot: Spot) -> Params | None:
    if not _card_play(spot) or not spot.trick or not spot.wins(spot.card):
        return None
    them = 1 - _team(spot)
    need = spot.contract(them) - spot.team_tricks(them)
    left = 13 - sum(spot.view.tricks_won)
    if 0 < need <= left and 2 * need > left:
        return _cw(spot, need=str(need), left=str(left))
    return None


@_play("coach.play.dont-trump-partner", "dont-trump-partner", "card", "winner")
def _dont_trump_partner(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.winner_seat == spot.partner and not spot.following()
            and spot.card.suit != SPADES and spot.held(SPADES) and spot.led != SPADES):
        return _cw(spot, winner="")
    return None


@_play("coach.play.partner-wins-low", "dont-trump-partner", "card", "winner")
def _partner_wins_low(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.winner_seat == spot.partner and not spot.wins(spot.card)
            and spot.lowest_legal(spot.card) and len(spot.legal) > 1):
        return _cw(spot, winner="")
    return None


@_play("coach.play.partner-wins", "dont-trump-partner", "card", "winner")
def _partner_wins(spot: Spot) -> Params | None:
    if _card_play(spot) and spot.winner_seat == spot.partner and not spot.wins(spot.card):
        return _cw(spot, winner="")
    return None


def _trumping(spot: Spot) -> bool:
    return (_card_play(spot) and bool(spot.trick) and spot.led != SPADES
            and spot.card.suit == SPADES and spot.wins(spot.card))


def _lowest_winning_spade(spot: Spot) -> Card | None:
    for card in sorted(spot.legal):
        if card.suit == SPADES and spot.wins(card):
            return card
    return None


def _overtrumpers(spot: Spot) -> list[int]:
    """The opponents after this seat who have shown no card of the led suit and have
    not shown to be out of spades."""
    return [s for s in spot.later if s != spot.partner and spot.void(s, spot.led)
            and not spot.void(s, SPADES)]


@_play("coach.play.trump-last", "trump-wisely", "card")
def _trump_last(spot: Spot) -> Params | None:
    if _trumping(spot) and spot.pos == 3 and _lowest_winning_spade(spot) == spot.card:
        return _cw(spot)
    return None


@_play("coach.play.trump-high", "trump-wisely", "card", "seat", "led")
def _trump_high(spot: Spot) -> Params | None:
    if not _trumping(spot):
        return None
    low = _lowest_winning_spade(spot)
    threats = _overtrumpers(spot)
    if low is None or low == spot.card or not threats or not spot.unseen_above(low):
        return None
    return _cw(spot, seat=SEAT_LETTERS[threats[0]], led=SUIT_KEYS[spot.led])


@_play("coach.play.trump-low", "trump-wisely", "card", "led")
def _trump_low(spot: Spot) -> Params | None:
    if (_trumping(spot) and _lowest_winning_spade(spot) == spot.card
            and not any(spot.void(s, spot.led) for s in spot.later)):
        return _cw(spot, led=SUIT_KEYS[spot.led])
    return None


@_play("coach.play.win-last", "win-cheaply", "card")
def _win_last(spot: Spot) -> Params | None:
    if _card_play(spot) and spot.pos == 3 and spot.lowest_winner(spot.card):
        return _cw(spot)
    return None


@_play("coach.play.top-spade", "count-cards", "card")
def _top_spade(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.trick and spot.card.suit == SPADES and spot.wins(spot.card)
            and not spot.unseen_above(spot.card)):
        return _cw(spot)
    return None


@_play("coach.play.master", "count-cards", "card", "suit")
def _master(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is not None and _card_play(spot) and spot.trick and card.suit != SPADES
            and card.suit == spot.led and spot.wins(card) and not spot.unseen_above(card)):
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


@_play("coach.play.third-hand-high", "third-hand-high", "card", "winner")
def _third_hand_high(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.pos == 2 and spot.winner_seat != spot.partner
            and spot.wins(spot.card)):
        return _cw(spot, winner="")
    return None


@_play("coach.play.win-cheaply", "win-cheaply", "card", "winner")
def _win_cheaply(spot: Spot) -> Params | None:
    if _card_play(spot) and spot.trick and spot.lowest_winner(spot.card):
        return _cw(spot, winner="")
    return None


def _partner_may_win(spot: Spot) -> bool:
    """Can partner, still to play, beat the winning card with some unseen card?"""
    assert spot.winner is not None
    if spot.partner not in spot.later:
        return False
    if not spot.void(spot.partner, spot.led) and spot.winner.suit == spot.led \
            and spot.unseen_above(spot.winner):
        return True
    spades = spot.unseen & SUIT_MASKS[SPADES]
    if spot.winner.suit == SPADES:
        return not spot.void(spot.partner, SPADES) and bool(spot.unseen_above(spot.winner))
    return spot.led != SPADES and not spot.void(spot.partner, SPADES) and bool(spades)


@_play("coach.play.second-hand-low", "second-hand-low", "card")
def _second_hand_low(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.pos == 1 and not spot.wins(spot.card)
            and spot.lowest_legal(spot.card) and _partner_may_win(spot)):
        return _cw(spot)
    return None


def _short_discard(spot: Spot) -> bool:
    """A side card from the shortest side suit, thrown off a trick it does not win by a
    seat that holds spades (so that the suit, once gone, can be trumped)."""
    if not _card_play(spot) or not spot.trick or spot.following() or spot.wins(spot.card):
        return False
    card = spot.card
    if card.suit == SPADES or not spot.held(SPADES):
        return False
    lengths = [spot.held(s).bit_count() for s in range(3) if spot.held(s)]
    return spot.held(card.suit).bit_count() == min(lengths)


@_play("coach.play.discard-short", "win-cheaply", "card", "suit")
def _discard_short(spot: Spot) -> Params | None:
    """"You cannot win this trick": said only when no legal card wins it."""
    if _short_discard(spot) and not any(spot.wins(c) for c in spot.legal):
        return _cw(spot, suit=SUIT_KEYS[spot.card.suit])
    return None


@_play("coach.play.keep-spades", "trump-wisely", "card", "suit")
def _keep_spades(spot: Spot) -> Params | None:
    """The same discard where a spade would win the trick as it stands."""
    if _short_discard(spot) and any(spot.wins(c) for c in spot.legal):
        return _cw(spot, suit=SUIT_KEYS[spot.card.suit])
    return None


@_play("coach.play.cant-win", "win-cheaply", "card", "winner")
def _cant_win(spot: Spot) -> Params | None:
    if (_card_play(spot) and spot.trick and not any(spot.wins(c) for c in spot.legal)
            and spot.lowest_legal(spot.card)):
        return _cw(spot, winner="")
    return None


@_play("coach.play.cash-ace", "cash-aces-early", "card", "suit")
def _cash_ace(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is None or not _card_play(spot) or spot.trick or card.suit == SPADES
            or rank_of(card) != 12):
        return None
    if any(spot.void(s, card.suit) for s in range(4) if s != spot.seat):
        return None
    return _cw(spot, suit=SUIT_KEYS[card.suit])


@_play("coach.play.lead-master", "count-cards", "card", "suit")
def _lead_master(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if card is None or not _card_play(spot) or spot.trick or card.suit == SPADES:
        return None
    above = SUIT_MASKS[card.suit] & ~((2 << card.id) - 1) & spot.view.rules.deck_mask
    if rank_of(card) < 12 and not above & ~spot.view.played_mask:
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


def _spades_out(spot: Spot) -> int:
    return (spot.unseen & SUIT_MASKS[SPADES]).bit_count()


@_play("coach.play.pull-trumps", "pull-trumps", "card", "out")
def _pull_trumps(spot: Spot) -> Params | None:
    if (_card_play(spot) and not spot.trick and spot.card.suit == SPADES
            and not spot.unseen_above(spot.card) and _spades_out(spot) > 0):
        return _cw(spot, out=str(_spades_out(spot)))
    return None


@_play("coach.play.lead-spade", "pull-trumps", "card", "out")
def _lead_spade(spot: Spot) -> Params | None:
    if _card_play(spot) and not spot.trick and spot.card.suit == SPADES and _spades_out(spot):
        return _cw(spot, out=str(_spades_out(spot)))
    return None


@_play("coach.play.lead-partner-void", "cash-aces-early", "card", "suit")
def _lead_partner_void(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is not None and _card_play(spot) and not spot.trick and card.suit != SPADES
            and spot.void(spot.partner, card.suit) and not spot.void(spot.partner, SPADES)
            and _spades_out(spot) and not spot.nil_alive(spot.partner)):
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


def _no_opponent_void(spot: Spot, suit: int) -> bool:
    return not any(spot.void(s, suit) for s in ((spot.seat + 1) & 3, (spot.seat + 3) & 3))


@_play("coach.play.lead-long", "count-cards", "card", "suit")
def _lead_long(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is None or not _card_play(spot) or spot.trick or card.suit == SPADES
            or not spot.lowest_of_suit(card) or not _no_opponent_void(spot, card.suit)):
        return None
    lengths = [spot.held(s).bit_count() for s in range(3)]
    if lengths[card.suit] == max(lengths) and lengths.count(max(lengths)) == 1:
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


@_play("coach.play.lead-low", "count-cards", "card", "suit")
def _lead_low(spot: Spot) -> Params | None:
    card = spot.card if isinstance(spot.action, Card) else None
    if (card is not None and _card_play(spot) and not spot.trick and card.suit != SPADES
            and spot.lowest_of_suit(card) and _no_opponent_void(spot, card.suit)
            and spot.held(card.suit).bit_count() > 1):
        return _cw(spot, suit=SUIT_KEYS[card.suit])
    return None


#: The neutral sentences, true wherever the Expert chose the action (their predicate:
#: the action is the Expert's decision).
NEUTRAL = "coach.play.best"
NEUTRAL_BID = "coach.bid.best"


@_template([], NEUTRAL, "count-cards", "card")
def _neutral(spot: Spot) -> Params | None:
    ev = spot.evaluation
    if _card_play(spot) and (ev is None or ev.best == spot.card):
        return _cw(spot)
    return None


@_template([], NEUTRAL_BID, "count-sure-tricks", "bid")
def _neutral_bid(spot: Spot) -> Params | None:
    ev = spot.evaluation
    if isinstance(spot.action, Bid) and (ev is None or ev.best == spot.action):
        return {"bid": str(spot.action)}
    return None


# --- the "not the X" clauses -----------------------------------------------------------------


def _alternative(spot: Spot) -> Card | None:
    """The card a learner may expect instead: the highest legal card, or else the lowest,
    when it plays differently from the chosen one."""
    if not _card_play(spot) or len(spot.legal) < 2:
        return None
    card = spot.card
    if spot.alt is not None:  # the caller's card (the review's: the card played)
        return spot.alt if spot.alt != card and spot.alt in spot.legal else None
    ev = spot.evaluation
    highest = max(spot.legal, key=lambda c: (c.suit == SPADES, rank_of(c), c.id))
    lowest = min(spot.legal, key=lambda c: (c.suit == SPADES, rank_of(c), c.id))
    for alt in (highest, lowest):
        if alt == card:
            continue
        if ev is not None and ev.of(alt) is None:
            continue  # plays like another card (no unseen card between them)
        return alt
    return None


def _alt(spot: Spot) -> tuple[Card, Spot] | None:
    alt = _alternative(spot)
    return None if alt is None else (alt, spot)


# --- the lesson's rule against the coach's card --------------------------------------------
#
# The lessons teach rules of thumb (second hand low, third hand high, don't trump your
# partner...); the Normal bot plays them (:func:`.bots.strategy.decide_play`, whose reason
# names the rule's tip).  Where its card is not the coach's, both are priced in points as
# the review prices them (:meth:`Spot.priced`, :func:`spades_core.review.price`): within
# noise (the coach's card not better by ``NOISE_Z`` standard errors of the paired
# difference) the hint says both are fine and names the rule; beyond it, it names the rule
# the card departs from.  One measure: on the same position, the hint's "clear" is the
# review's.

NOISE_Z = 2  # the review's (:data:`spades_core.review.NOISE_Z`), which decides

#: The Normal bot's rules that are a lesson's principle (its reason keys): a hint's "the
#: lesson's rule" clause names only these, by their tip (a lead chosen by a plain count or
#: a bags rule is no principle taught as such).
RULE_REASONS = frozenset((
    "play.second-hand-low", "play.third-hand-high", "play.third-hand-over",
    "play.dont-trump-partner", "play.partner-wins-low", "play.win-cheaply", "play.cash-ace",
    "play.trump-last", "play.trump-low", "play.trump-high", "play.cover-overtake",
    "play.cover-high", "play.cover-trump", "play.nil-duck", "play.attack-duck",
    "play.attack-low"))
_DISCARDS = frozenset(("play.discard-short", "play.cant-win"))  # see :func:`lesson_rule`


def clear_difference(view: View, better: Card, other: Card) -> bool:
    """Is ``better`` worth more than ``other`` by at least ``NOISE_Z`` standard errors of
    their paired difference in points, on the review's imagined deals
    (:func:`spades_core.pricing.confirmed_price`: the review's measure, so that a hint calls a
    difference clear exactly where the review would)?"""
    return Spot(view, better).priced(other).clear


def lesson_rule(spot: Spot) -> tuple[Card, str] | None:
    """The card the lessons' rule of thumb plays here and the tip it teaches, when it is
    another card than the coach's (and one the evaluation weighed), else None."""
    if not _card_play(spot) or spot.evaluation is None or len(spot.legal) < 2:
        return None
    if (spot.winner_seat == spot.partner and spot.winner is not None
            and spot.winner.suit != SPADES and spot.led != SPADES and not spot.following()
            and spot.card.suit == SPADES):
        # the coach trumps partner's winner: the lesson's rule, as the lesson states it,
        # throws a small card of the shortest side suit instead
        side = [c for c in spot.legal if c.suit != SPADES]
        if not side:
            return None
        throw = min(side, key=lambda c: (spot.held(c.suit).bit_count(), rank_of(c), c.suit))
        if spot.evaluation.of(throw) is None:
            return None
        return throw, "dont-trump-partner"
    decision = decide_play(spot.view)
    card = decision.action
    tip = decision.reason.tip
    if not isinstance(card, Card) or card == spot.card:
        return None
    if (decision.reason.key in _DISCARDS and spot.winner_seat == spot.partner
            and card.suit != SPADES and spot.card.suit == SPADES and spot.led != SPADES):
        tip = "dont-trump-partner"  # the rule throws a side card under partner's winner
    elif decision.reason.key not in RULE_REASONS:
        return None
    if spot.evaluation.of(card) is None:
        return None  # plays like another card: no unseen card between them
    return card, tip


def _rule_verdict(spot: Spot) -> tuple[Card, str, bool] | None:
    found = lesson_rule(spot)
    if found is None:
        return None
    card, tip = found
    return card, tip, spot.priced(card).clear


@_not("coach.not.rule-tie", "count-cards", "alt", "rule")
def _not_rule_tie(spot: Spot) -> Params | None:
    found = _rule_verdict(spot)
    if found is None or found[2]:
        return None
    return {"alt": card_text(found[0]), "rule": found[1]}


def _beats_partner_later(spot: Spot) -> int | None:
    """An opponent still to play who may beat partner's winning side card: one out of the
    led suit (shown void, or no card of it is left unseen) who may still hold a spade (one
    is unseen), or one not shown void while a higher card of the led suit is unseen.  The
    first such seat, or None."""
    if spot.winner is None or spot.winner.suit == SPADES:
        return None
    for seat in spot.later:
        if seat == spot.partner:
            continue
        out_of_suit = spot.void(seat, spot.led) or not spot.unseen & SUIT_MASKS[spot.led]
        if out_of_suit and not spot.void(seat, SPADES) and spot.unseen & SUIT_MASKS[SPADES]:
            return seat  # shown void, or no card of the suit is left unseen: it may trump
        if not spot.void(seat, spot.led) and spot.unseen_above(spot.winner):
            return seat
    return None


@_not("coach.not.exception-trump-partner", "dont-trump-partner", "alt", "winner", "alt_seat")
def _not_exception_trump_partner(spot: Spot) -> Params | None:
    found = _rule_verdict(spot)
    if (found is None or not found[2] or found[1] != "dont-trump-partner"
            or spot.winner_seat != spot.partner or spot.card.suit != SPADES
            or spot.led == SPADES or not spot.wins(spot.card)):
        return None
    seat = _beats_partner_later(spot)
    if seat is None or spot.winner is None:
        return None
    return {"alt": card_text(found[0]), "winner": card_text(spot.winner),
            "alt_seat": SEAT_LETTERS[seat]}


def _departs(spot: Spot, rule: Card, tip: str) -> bool:
    """Does the coach's card break what the rule ``tip`` prescribes (rather than being
    another card the rule would allow)?  Trumping partner's winner; second hand, higher than
    the rule's low card; third hand, lower; not the cheapest winner; for the other rules
    (an ace to cash, a Nil's card, a trump chosen), any other card."""
    card = spot.card
    if tip == "dont-trump-partner":
        return card.suit == SPADES and spot.led != SPADES and spot.winner_seat == spot.partner
    if tip == "second-hand-low":
        return rank_of(card) > rank_of(rule) or (spot.wins(card) and not spot.wins(rule))
    if tip == "third-hand-high":
        return spot.wins(rule) and (not spot.wins(card) or rank_of(card) < rank_of(rule))
    if tip == "win-cheaply":
        return spot.wins(rule) and (not spot.wins(card) or card.id > rule.id)
    return True


@_not("coach.not.rule-beaten", "count-cards", "alt", "rule")
def _not_rule_beaten(spot: Spot) -> Params | None:
    found = _rule_verdict(spot)
    if found is None or not found[2] or not _departs(spot, found[0], found[1]):
        return None
    return {"alt": card_text(found[0]), "rule": found[1]}


@_not("coach.not.overtakes", "dont-trump-partner", "alt", "winner")
def _not_overtakes(spot: Spot) -> Params | None:
    found = _alt(spot)
    if found is None or spot.winner is None:
        return None
    alt, _ = found
    if spot.winner_seat == spot.partner and spot.wins(alt) and not spot.wins(spot.card) \
            and not spot.nil_alive(spot.partner):
        return {"alt": card_text(alt), "winner": card_text(spot.winner)}
    return None


@_not("coach.not.enough", "win-cheaply", "alt")
def _not_enough(spot: Spot) -> Params | None:
    found = _alt(spot)
    if found is None:
        return None
    alt, _ = found
    if (spot.pos == 3 and spot.wins(spot.card) and spot.wins(alt)
            and rank_of(alt) > rank_of(spot.card) and alt.suit == spot.card.suit):
        return {"alt": card_text(alt)}
    return None


@_not("coach.not.overtrump", "trump-wisely", "alt", "alt_seat", "led")
def _not_overtrump(spot: Spot) -> Params | None:
    found = _alt(spot)
    if found is None or not spot.trick or spot.led == SPADES:
        return None
    alt, _ = found
    threats = _overtrumpers(spot)
    if alt.suit == spot.led and spot.wins(alt) and threats and _spades_out(spot):
        return {"alt": card_text(alt), "alt_seat": SEAT_LETTERS[threats[0]],
                "led": SUIT_KEYS[spot.led]}
    return None


@_not("coach.not.wasted", "win-cheaply", "alt")
def _not_wasted(spot: Spot) -> Params | None:
    found = _alt(spot)
    if found is None or not spot.trick:
        return None
    alt, _ = found
    if not spot.wins(alt) and not spot.wins(spot.card) and rank_of(alt) > rank_of(spot.card):
        return {"alt": card_text(alt)}
    return None


def _sims_loss(spot: Spot, clear: bool = True) -> tuple[Card, int] | None:
    """The alternative card and what it loses against the chosen one in points (tenths),
    priced as the review prices it (:meth:`Spot.priced`); None when it loses nothing, or
    when whether the loss is beyond the noise is not ``clear``."""
    found = _alt(spot)
    if found is None or spot.evaluation is None:
        return None
    alt, _ = found
    priced = spot.priced(alt)
    if priced.cost <= 0 or priced.clear != clear:
        return None
    return alt, priced.cost


def _whole_points(tenths: int) -> int:
    """A loss in tenths of a point as whole points, rounded."""
    return (tenths + 5) // 10


@_not("coach.not.sims", "count-cards", "alt", "points")
def _not_sims(spot: Spot) -> Params | None:
    found = _sims_loss(spot)
    if found is not None and _whole_points(found[1]) >= 1:
        return {"alt": card_text(found[0]), "points": str(_whole_points(found[1]))}
    return None


@_not("coach.not.sims-close", "count-cards", "alt")
def _not_sims_close(spot: Spot) -> Params | None:
    found = _sims_loss(spot)
    if found is not None and _whole_points(found[1]) < 1:
        return {"alt": card_text(found[0])}
    return None


@_not("coach.not.sims-tie", "count-cards", "alt")
def _not_sims_tie(spot: Spot) -> Params | None:
    """The alternative loses a little on average, but within the noise of the play-outs:
    not called a mistake.  Where the alternative says nothing (none, or it loses nothing),
    the search's next best card, when it is within the noise too (the hint's own: a caller
    naming its card, the review, is not given this)."""
    found = _sims_loss(spot, clear=False)
    if found is not None:
        return {"alt": card_text(found[0])}
    if spot.alt is None and _card_play(spot):
        following = next_best(spot)
        if isinstance(following, Card) and not spot.priced(following).clear:
            return {"alt": card_text(following)}
    return None


def _nil_worse(spot: Spot) -> Evaluation | None:
    """The evaluation, when the seat bids a number, Nil was weighed and is worth no more."""
    ev = spot.evaluation
    action = spot.action
    if (isinstance(action, Bid) and not action.is_nil and ev is not None and ev.nil_worlds
            and not _partner_bid_nil(spot)):
        nil = ev.of(Bid(0))
        mine = ev.of(action)
        if nil is not None and mine is not None and nil.total <= mine.total:
            return ev
    return None


@_not("coach.not.nil-rare", "nil-hand", "against")
def _not_nil_rare(spot: Spot) -> Params | None:
    ev = _nil_worse(spot)
    if ev is not None and _chance(ev) == 0:  # under 1 time in 20
        return {"against": spot.against}
    return None


@_not("coach.not.nil", "nil-hand", "chance", "against")
def _not_nil(spot: Spot) -> Params | None:
    ev = _nil_worse(spot)
    if ev is not None and _chance(ev) > 0:
        return {"chance": str(_chance(ev)), "against": spot.against}
    return None


@_not("coach.not.bid-tie", "count-sure-tricks", "alt_bid")
def _not_bid_tie(spot: Spot) -> Params | None:
    """The search's next best number scores as well, within the noise of the play-outs."""
    action = spot.action
    if isinstance(action, Bid) and not action.is_nil and not action.blind:
        following = next_best(spot)
        if isinstance(following, Bid) and not spot.priced(following).clear:
            return {"alt_bid": str(following)}
    return None


# --- bidding ------------------------------------------------------------------------------------


def _chance(ev: Evaluation) -> int:
    """Nil's success in tenths of the play-outs, rounded."""
    return (20 * ev.nil_made + ev.nil_worlds) // (2 * ev.nil_worlds)


def _partner_bid_nil(spot: Spot) -> bool:
    bid = spot.bid_of(spot.partner)
    return bid is not None and bid.is_nil


def _number_bid(spot: Spot) -> Bid | None:
    action = spot.action
    if isinstance(action, Bid) and not action.is_nil and spot.view.hand is not None:
        return action
    return None


def _counts(spot: Spot) -> tuple[int, int, int]:
    """Side-suit aces, side-suit kings, spades in the hand."""
    aces = kings = 0
    for suit in range(3):
        aces += spot.hand >> (suit * 13 + 12) & 1
        kings += spot.hand >> (suit * 13 + 11) & 1
    return aces, kings, spot.held(SPADES).bit_count()


def _others(spot: Spot) -> tuple[int, int]:
    """How many of the other seats have bid, and the tricks they bid in all."""
    made = [spot.bid_of(s) for s in range(4) if s != spot.seat]
    bids = [b for b in made if b is not None]
    return len(bids), sum(b.tricks for b in bids)


@_bid("coach.bid.blind-nil", "nil-hand", "behind", "value")
def _blind_nil(spot: Spot) -> Params | None:
    team = spot.seat & 1
    behind = spot.view.scores[1 - team] - spot.view.scores[team]
    if spot.action == BLIND_NIL and behind > 0:
        return {"behind": str(behind), "value": str(spot.view.rules.blind_nil_value)}
    return None


@_bid("coach.bid.look-partner", "nil-hand")
def _look_partner(spot: Spot) -> Params | None:
    if spot.action is None and spot.view.hand is None and _partner_bid_nil(spot):
        return {}
    return None


@_bid("coach.bid.look-close", "nil-hand", "far")
def _look_close(spot: Spot) -> Params | None:
    team = spot.seat & 1
    behind = spot.view.scores[1 - team] - spot.view.scores[team]
    far = ExpertBudget().blind_behind
    if spot.action is None and spot.view.hand is None and behind < far:
        return {"far": str(far)}
    return None


@_bid("coach.bid.look-first", "nil-hand")
def _look_first(spot: Spot) -> Params | None:
    if spot.action is None and spot.view.hand is None:
        return {}
    return None


@_bid("coach.bid.nil-clean", "nil-hand", "chance", "against")
def _nil_clean(spot: Spot) -> Params | None:
    ev = spot.evaluation
    if spot.action != Bid(0) or ev is None or not ev.nil_worlds:
        return None
    aces, kings, _ = _counts(spot)
    high_spades = spot.held(SPADES) & ~((1 << (39 + 8)) - 1)  # the 10♠ and higher
    if aces == 0 and kings == 0 and not high_spades and _chance(ev) >= 5:
        return {"chance": str(_chance(ev)), "against": spot.against}
    return None


@_bid("coach.bid.nil-long", "nil-hand", "chance", "against")
def _nil_long(spot: Spot) -> Params | None:
    """A Nil that fails more often than not, bid because at this score it still gives the
    best chance of winning the game (the search's measure): said so, not hidden."""
    ev = spot.evaluation
    if spot.action == Bid(0) and ev is not None and ev.nil_worlds and _chance(ev) < 5:
        return {"chance": str(_chance(ev)), "against": spot.against}
    return None


@dataclass(frozen=True, slots=True)
class NilShape:
    """The facts of a hand that make or unmake a Nil (the Nil drill and the hint say them)."""

    high: tuple[Card, ...]  # side-suit aces and kings, highest first
    lengths: tuple[int, int, int, int]  # cards held in each suit (clubs, diamonds, hearts, spades)
    top_spade: Card | None  # the highest spade held

    @property
    def spades(self) -> int:
        return self.lengths[SPADES]

    @property
    def low_spades(self) -> bool:
        """At most three spades, none above the 9."""
        return self.spades <= 3 and (self.top_spade is None or rank_of(self.top_spade) <= 7)

    @property
    def short(self) -> int | None:
        """The shortest side suit when it has at most one card (a void or a singleton), else
        None: on its first trick led by someone else, a high card can be thrown."""
        length, suit = min((self.lengths[s], s) for s in range(3))
        return suit if length <= 1 else None

    @property
    def high_in_long(self) -> bool:
        """Every side ace and king held sits in a suit of four cards or more (so it need not
        be played on the suit's first rounds: smaller cards go first, the others' high
        cards fall, and a void elsewhere lets it be thrown)."""
        return all(self.lengths[card.suit] >= 4 for card in self.high)


def nil_shape(hand: int) -> NilShape:
    """The :class:`NilShape` of a hand (a card mask)."""
    high = [Card(suit * 13 + rank) for suit in range(3) for rank in (12, 11)
            if hand >> (suit * 13 + rank) & 1]
    high.sort(key=lambda card: (-rank_of(card), card.suit))
    lengths = tuple((hand & SUIT_MASKS[s]).bit_count() for s in range(4))
    spades = hand & SUIT_MASKS[SPADES]
    top = Card(spades.bit_length() - 1) if spades else None
    return NilShape(tuple(high), (lengths[0], lengths[1], lengths[2], lengths[3]), top)


@_bid("coach.bid.nil-ace", "nil-hand", "card", "count", "suit", "chance", "against")
def _nil_ace(spot: Spot) -> Params | None:
    """The exception to "no ace and no king": a Nil the search makes at least 5 times in 10
    with a side ace or king, each in a suit of four cards or more, low spades, and a short
    side suit to throw it on."""
    ev = spot.evaluation
    if spot.action != Bid(0) or ev is None or not ev.nil_worlds or _chance(ev) < 5:
        return None
    shape = nil_shape(spot.hand)
    short = shape.short
    if not shape.high or not shape.high_in_long or not shape.low_spades or short is None:
        return None
    card = shape.high[0]
    return {"card": card_text(card), "count": str(shape.lengths[card.suit]),
            "suit": SUIT_KEYS[short], "chance": str(_chance(ev)), "against": spot.against}


@_bid("coach.bid.nil", "nil-hand", "chance", "against")
def _nil(spot: Spot) -> Params | None:
    ev = spot.evaluation
    if spot.action == Bid(0) and ev is not None and ev.nil_worlds and _chance(ev) >= 5:
        return {"chance": str(_chance(ev)), "against": spot.against}
    return None


@_bid("coach.bid.cover-partner", "cover-partner-nil", "bid")
def _cover_partner(spot: Spot) -> Params | None:
    bid = _number_bid(spot)
    if bid is not None and _partner_bid_nil(spot):
        return {"bid": str(bid)}
    return None


@_bid("coach.bid.table", "read-the-table", "bid", "others", "bidders")
def _table(spot: Spot) -> Params | None:
    bid = _number_bid(spot)
    bidders, others = _others(spot)
    # "there are only 13" explains a bid only when the table is nearly full with it
    if bid is not None and bidders >= 2 and others + bid.tricks >= 11:
        return {"bid": str(bid), "others": str(others), "bidders": str(bidders)}
    return None


@_bid("coach.bid.spades", "count-spades", "bid", "spades", "aces")
def _bid_spades(spot: Spot) -> Params | None:
    bid = _number_bid(spot)
    aces, _, spades = _counts(spot)
    # said only when its count adds up to the bid (a trick a spade beyond the third, one
    # an ace): a reader adds them up
    if bid is not None and spades >= 4 and aces + spades - 3 == bid.tricks:
        return {"bid": str(bid), "spades": str(spades), "aces": str(aces)}
    return None


@_bid("coach.bid.count", "count-sure-tricks", "bid", "tricks")
def _bid_count(spot: Spot) -> Params | None:
    """Why this number: the tricks the seat takes in the bid search's own play-outs of it
    (:func:`~.bots.expert.bid_forecast`), and that the search found a higher number set
    too often and a lower one worth less (it is the number the search ranks first, with a
    number on either side)."""
    bid = _number_bid(spot)
    ev = spot.evaluation
    if bid is None or ev is None or ev.best != bid or not 1 < bid.tricks < 13:
        return None
    found = bid_forecast(spot.view, bid)
    if not found:
        return None
    taken = sum(tricks[spot.seat] for _, tricks in found)
    return {"bid": str(bid), "tricks": str((2 * taken + len(found)) // (2 * len(found)))}


# --- the hint ---------------------------------------------------------------------------------


_EXPERT = ExpertBot()


def explain(view: View, action: Card | Bid | None, evaluation: Evaluation | None,
            contrasts: bool = True, level: str | None = None) -> Hint:
    """The hint for ``action`` in ``view``: the first template whose predicate holds
    (the neutral sentence when none does), and a "not the X" clause where one holds (not
    looked for without ``contrasts``: the review names its own, about the card played).
    ``level``: the opponents' bot level, whom a stated Nil figure is said to assume
    (``params["against"]``, :func:`spades_core.pricing.odds_against`)."""
    spot = Spot(view, action, evaluation, level=level)
    found: tuple[Template, Params] | None = None
    templates = BID_TEMPLATES if view.phase is Phase.BIDDING else PLAY_TEMPLATES
    for template in templates:
        params = template.check(spot)
        if params is not None:
            found = (template, params)
            break
    if found is None:
        template = TEMPLATES[NEUTRAL_BID if view.phase is Phase.BIDDING else NEUTRAL]
        params = template.check(spot) or {}
        found = (template, params)
    template, params = found
    contrast = ""
    if evaluation is not None and contrasts:
        for clause in CONTRAST_TEMPLATES:
            extra = clause.check(spot)
            if extra is not None and all(params.get(k, v) == v for k, v in extra.items()):
                contrast = clause.key
                params = {**params, **extra}
                break
    tip = template.tip
    why, said = "", True
    if evaluation is not None and contrasts:
        measured = _measured(spot, template, params, contrast)
        if measured is not None:
            why, said, tip, params, contrast = measured
    if contrast in RULE_CLAUSES:  # the hint is about the rule it names: its tip, its lesson
        tip = params.get("rule", TEMPLATES[contrast].tip)
    return Hint(action, tip, template.key, params, contrast, why, said)


def next_best(spot: Spot) -> Card | Bid | None:
    """The search's next best action after the spot's: for a card, the next card; for a
    number bid, the next number (a Nil's odds are said by its own sentences); None for a
    Nil, a Blind Nil, or where there is none."""
    ev = spot.evaluation
    action = spot.action
    if ev is None or action is None:
        return None
    if isinstance(action, Card):
        return next((c.action for c in ev.candidates
                     if isinstance(c.action, Card) and c.action != action), None)
    if action.is_nil or action.blind:
        return None
    return next((c.action for c in ev.candidates
                 if isinstance(c.action, Bid) and c.action != action and not c.action.is_nil
                 and not c.action.blind), None)


def _versus(spot: Spot, contrast: str, params: Params) -> Card | Bid | None:
    """What the hint's action is weighed against for its main sentence: the card its "not
    the X" clause names, else the search's next best (:func:`next_best`)."""
    if contrast and "alt" in params and isinstance(spot.action, Card):
        return parse_card(params["alt"])
    return next_best(spot)


def _measured(spot: Spot, template: Template, params: Params,
              contrast: str) -> tuple[str, bool, str, Params, str] | None:
    """The hint's measured main sentence: its action priced against :func:`_versus`'s on
    the review's deals (:meth:`Spot.priced`, the review's measure); where the action is
    clearly better, the sentence of the largest part (:func:`.reasons.hint_why`), the
    template's own sentence kept beside it only where its tip fits that part (as the
    review keeps it); within noise, nothing more (the "both are fine" clauses say it), but a
    rule's "not the X" about a card as good gives way to "both are fine".
    ``(why, said, tip, params, contrast)``, or None where nothing is weighed."""
    versus = _versus(spot, contrast, params)
    if versus is None or spot.action is None:
        return None
    found = spot.priced(versus)
    if not found.clear and contrast in RULE_CONTRASTS:
        # "not the X" by a rule of the trick, yet X scores as well: not called a mistake
        own = TEMPLATES[contrast].params
        params = {k: v for k, v in params.items() if k not in own or k in template.params}
        tie = TEMPLATES["coach.not.sims-tie"].check(spot)
        if tie is not None:
            return "", True, template.tip, {**params, **tie}, "coach.not.sims-tie"
        contrast = ""  # X scores as well or better, and the next best is clearly worse:
        versus = next_best(spot)  # the sentence is weighed against the next best
        if versus is None:
            return "", True, template.tip, params, ""
        found = spot.priced(versus)
    if not found.clear:
        return None  # a clause is said (the ties' among them), or none holds
    why = hint_why(spot.view, spot.action, versus, found)
    if any(params.get(key, value) != value for key, value in why.params.items()):
        return None  # the sentences' parameters agree (the same cards, bids): not expected
    part = found.parts.largest()
    said = (template.key not in (NEUTRAL, NEUTRAL_BID) and template.tip in PART_TIPS[part]
            and not (why.key == "coach.why.bag-made" and template.key == "coach.play.bags-duck")
            and template.key != "coach.bid.count")  # the why says it, against the bid named
    tip = template.tip if said else why.tip
    return why.key, said, tip, {**params, **why.params}, contrast


#: The "not the X" clauses that name a lesson's rule (a tie with it, its exception, where it
#: bends): a hint with one of them takes the rule's tip (the lesson it links, the name it
#: opens with in a lesson), not its main sentence's.
RULE_CLAUSES = ("coach.not.rule-tie", "coach.not.exception-trump-partner",
                "coach.not.rule-beaten")


#: The "not the X" clauses that name a rule of the trick (not the simulations' figure): the
#: review's, which speaks of points and names the card played.
RULE_CONTRASTS = ("coach.not.overtakes", "coach.not.enough", "coach.not.overtrump",
                  "coach.not.wasted")


def contrast_against(view: View, action: Card, evaluation: Evaluation | None,
                     alt: Card) -> tuple[str, Params]:
    """The first of :data:`RULE_CONTRASTS` whose predicate holds for "``action``, not
    ``alt``" in ``view`` (its key and parameters), or ``("", {})``."""
    spot = Spot(view, action, evaluation, alt)
    for key in RULE_CONTRASTS:
        found = TEMPLATES[key].check(spot)
        if found is not None:
            return key, found
    return "", {}


def hint(view: View, level: str | None = None) -> Hint:
    """The suggestion for ``view``, whose seat must act (bid or play): the Expert's
    decision, explained.  ``level`` is the opponents' bot level (``beginner``, ``normal``,
    ``expert``; None where they are not the app's bots of one level): it changes only whom
    a stated Nil figure is said to assume, never the action."""
    if not view.my_turn:
        raise UsageError(f"{view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        if view.hand is None:
            action: Card | Bid | None = BLIND_NIL if _EXPERT.blind_nil(view) else None
            return explain(view, action, None, level=level)
    elif view.phase is not Phase.PLAYING:
        raise UsageError("nothing to decide in this phase")
    # One search, not two: the evaluation is the Expert's own search kept whole (the same
    # worlds and play-outs as ``ExpertBot.play`` / ``.bid``), its best candidate the bot's
    # decision (tests/test_hint_truth.py checks both; tests/test_hint_steps.py that
    # :func:`hint_steps`, which runs the bot's search then the evaluation, agrees).
    evaluation = evaluate(view, _EXPERT.budget)
    return explain(view, evaluation.best, evaluation, level=level)


def hint_from(view: View, evaluation: Evaluation, level: str | None = None) -> Hint:
    """:func:`hint` from its search already made: ``evaluation`` is ``evaluate(view)`` (the
    Expert's search kept whole), run earlier, e.g. to show the card before its sentence.
    The same hint as :func:`hint`, whose second half this is (the sentence, and the prices
    of the cards its clauses name)."""
    if not view.my_turn:
        raise UsageError(f"{view.seat} is not to act")
    return explain(view, evaluation.best, evaluation, level=level)


def hint_steps(view: View, level: str | None = None) -> Generator[None, None, Hint]:
    """:func:`hint` in steps, for a caller that cannot block (the page's main thread when
    its worker is away): the Expert's search kept whole (:func:`evaluate_steps`, the same
    search as the bot's, run once) yields after each imagined deal; the sentence then
    follows in one piece.  The same hint."""
    if not view.my_turn:
        raise UsageError(f"{view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        if view.hand is None:
            blind = yield from _EXPERT.blind_nil_steps(view)
            return explain(view, BLIND_NIL if blind else None, None, level=level)
    elif view.phase is not Phase.PLAYING:
        raise UsageError("nothing to decide in this phase")
    evaluation = yield from evaluate_steps(view, _EXPERT.budget)
    yield
    return explain(view, evaluation.best, evaluation, level=level)


def normal_hint(view: View) -> Hint:
    """The Normal bot's rule for ``view`` and the reason it carries (the rules of
    :mod:`.bots.strategy`; its reason keys are not shown to the learner)."""
    if not view.my_turn:
        raise UsageError(f"{view.seat} is not to act")
    if view.phase is Phase.BIDDING:
        return Hint.of(decide_bid(view))
    if view.phase is Phase.PLAYING:
        return Hint.of(decide_play(view))
    raise UsageError("nothing to decide in this phase")
