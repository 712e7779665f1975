"""The decision rules of STRATEGY.md, shared by the Normal bot and the hints.

Every decision is a :class:`Decision`: the action (a bid or a card), the *reason* that
produced it (a registered :class:`Reason`, which names its STRATEGY.md tip) and the
reason's parameters as strings.  :mod:`spades_core.bots.normal` plays the action;
:mod:`spades_core.hints` shows the reason.  Nothing here searches: each rule reads the
view (cards seen, voids shown, bids, tricks) and decides in well under a millisecond.

Parameter conventions (for the text catalogues ``locales/*/hints.json``):
``card``/``winner`` are card texts (``"AH"``, ``"10"`` is ``"T"``), ``suit`` a suit key
(``"hearts"``), ``seat`` a seat letter (``"N"``), every other parameter a decimal number.

Masks, never sets or dicts keyed by strings, drive every choice, so the same view gives
the same decision on any machine and under any ``PYTHONHASHSEED``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bids import BLIND_NIL, NIL, Bid
from ..cards import CARD_TEXT, CARDS, SPADES_MASK, SUIT_MASKS, SUIT_OF, Card, Suit
from ..errors import UsageError
from ..rules import BEATEN_BY, winning_play
from ..views import View
from .handeval import estimate_tricks, nil_risk, split_tricks

SPADES = 3
SIDE_SUITS = (0, 1, 2)
SUIT_KEYS = ("clubs", "diamonds", "hearts", "spades")
SEAT_LETTERS = "NESW"

# --- tips and reasons: the registry the text catalogues are checked against ---------------

#: The tip keys of STRATEGY.md (the last three name its "play conventions" section).
TIPS: tuple[str, ...] = (
    "count-sure-tricks", "count-spades", "read-the-table", "nil-hand",
    "cover-partner-nil", "attack-nil", "dont-trump-partner",
    "bags-cost", "duck-when-made",
    "cash-aces-early", "pull-trumps", "trump-wisely", "count-cards", "last-trick",
    "second-hand-low", "third-hand-high", "win-cheaply",
)


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason key, the tip it illustrates, and the names of its parameters."""

    key: str
    tip: str
    params: tuple[str, ...]


#: Every reason a decision can carry, by key (filled below, in source order).
REASONS: dict[str, Reason] = {}


def _reason(key: str, tip: str, *params: str) -> Reason:
    if key in REASONS:
        raise UsageError(f"reason {key!r} registered twice")
    if tip not in TIPS:
        raise UsageError(f"reason {key!r} names an unknown tip {tip!r}")
    reason = REASONS[key] = Reason(key, tip, params)
    return reason


# bidding
BID_COUNT = _reason("bid.count", "count-sure-tricks", "bid", "side", "spades")
BID_SPADES = _reason("bid.count-spades", "count-spades", "bid", "side", "spades")
BID_TABLE_DOWN = _reason("bid.table-down", "read-the-table", "bid", "count", "others")
BID_TABLE_UP = _reason("bid.table-up", "read-the-table", "bid", "count", "others")
BID_NIL = _reason("bid.nil", "nil-hand")
BID_NO_NIL_PARTNER = _reason("bid.no-nil-partner", "nil-hand", "bid")
BID_BLIND_NIL = _reason("bid.blind-nil", "nil-hand", "behind")
BID_LOOK = _reason("bid.look-first", "nil-hand")
# play: general
ONLY_CARD = _reason("play.only-card", "count-cards", "card")
CASH_ACE = _reason("play.cash-ace", "cash-aces-early", "card", "suit")
LEAD_MASTER = _reason("play.lead-master", "count-cards", "card", "suit")
PULL_TRUMPS = _reason("play.pull-trumps", "pull-trumps", "card", "count", "out")
LEAD_PARTNER_VOID = _reason("play.lead-partner-void", "cash-aces-early", "card", "suit")
LEAD_SAFE_SUIT = _reason("play.lead-safe-suit", "count-cards", "card", "suit")
LEAD_AVOID_VOID = _reason("play.lead-avoid-void", "count-cards", "card", "suit", "seat")
LEAD_SPADE = _reason("play.lead-spade", "count-cards", "card")
PARTNER_WINS_LOW = _reason("play.partner-wins-low", "dont-trump-partner", "card", "winner")
DONT_TRUMP_PARTNER = _reason("play.dont-trump-partner", "dont-trump-partner", "card", "winner")
SECOND_HAND_LOW = _reason("play.second-hand-low", "second-hand-low", "card")
SECOND_HAND_MASTER = _reason("play.second-hand-master", "cash-aces-early", "card", "suit")
SECOND_HAND_WIN = _reason("play.second-hand-win", "second-hand-low", "card")
LOW_SPADE_FIRST = _reason("play.low-spade-first", "win-cheaply", "card", "count")
THIRD_HAND_HIGH = _reason("play.third-hand-high", "third-hand-high", "card", "winner")
THIRD_HAND_OVER = _reason("play.third-hand-over", "third-hand-high", "card", "winner")
THIRD_HAND_HOLDS = _reason("play.third-hand-holds", "third-hand-high", "card")
WIN_CHEAPLY = _reason("play.win-cheaply", "win-cheaply", "card", "winner")
CANT_WIN = _reason("play.cant-win", "win-cheaply", "card", "winner")
DISCARD_SHORT = _reason("play.discard-short", "win-cheaply", "card", "suit")
TRUMP_LAST = _reason("play.trump-last", "trump-wisely", "card")
TRUMP_HIGH = _reason("play.trump-high", "trump-wisely", "card", "seat")
TRUMP_LOW = _reason("play.trump-low", "trump-wisely", "card", "suit")
# play: Nil
NIL_DUCK = _reason("play.nil-duck", "nil-hand", "card", "winner")
NIL_LOW = _reason("play.nil-low", "nil-hand", "card")
NIL_DISCARD = _reason("play.nil-discard", "nil-hand", "card", "suit")
NIL_LEAD = _reason("play.nil-lead", "nil-hand", "card", "higher")
NIL_FORCED = _reason("play.nil-forced", "nil-hand", "card")
COVER_OVERTAKE = _reason("play.cover-overtake", "cover-partner-nil", "card", "winner")
COVER_HIGH = _reason("play.cover-high", "cover-partner-nil", "card")
COVER_TRUMP = _reason("play.cover-trump", "cover-partner-nil", "card")
COVER_LEAD = _reason("play.cover-lead", "cover-partner-nil", "card")
COVER_LEAD_VOID = _reason("play.cover-lead-void", "cover-partner-nil", "card", "suit")
ATTACK_DUCK = _reason("play.attack-duck", "attack-nil", "card", "winner", "seat")
ATTACK_LOW = _reason("play.attack-low", "attack-nil", "card", "seat")
ATTACK_LEAD = _reason("play.attack-lead", "attack-nil", "card", "suit", "seat")
# play: bags and contracts
BAGS_DUCK = _reason("play.bags-duck", "bags-cost", "card")
BAGS_DISCARD = _reason("play.bags-discard", "duck-when-made", "card")
BAGS_LEAD = _reason("play.bags-lead", "bags-cost", "card")
BAGS_FORCED = _reason("play.bags-forced", "duck-when-made", "card")
SET_THEM = _reason("play.set-them", "bags-cost", "card", "need", "left")


@dataclass(frozen=True, slots=True)
class Decision:
    """An action with the reason that chose it (``params`` as ``(name, text)`` pairs)."""

    action: Card | Bid | None  # None: look at the cards first (no Blind Nil)
    reason: Reason
    params: tuple[tuple[str, str], ...] = ()

    @property
    def tip(self) -> str:
        return self.reason.tip

    @property
    def key(self) -> str:
        return self.reason.key


def _decide(action: Card | Bid | None, reason: Reason, **params: object) -> Decision:
    names = tuple(params)
    if sorted(names) != sorted(reason.params):
        raise UsageError(f"reason {reason.key!r} takes {reason.params}, not {names}")
    return Decision(action, reason, tuple((name, _text(params[name])) for name in reason.params))


def _text(value: object) -> str:
    return str(value)


def _play(card_id: int, reason: Reason, **params: object) -> Decision:
    if "card" in reason.params:
        params["card"] = CARD_TEXT[card_id]
    if "suit" in reason.params and "suit" not in params:
        params["suit"] = SUIT_KEYS[SUIT_OF[card_id]]
    return _decide(CARDS[card_id], reason, **params)


# --- masks ------------------------------------------------------------------------------


def low_id(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high_id(mask: int) -> int:
    return mask.bit_length() - 1


def above(card_id: int) -> int:
    """The cards of ``card_id``'s suit that are higher than it."""
    return SUIT_MASKS[SUIT_OF[card_id]] & ~((2 << card_id) - 1)


def below(card_id: int) -> int:
    """The cards of ``card_id``'s suit that are lower than it."""
    return SUIT_MASKS[SUIT_OF[card_id]] & ((1 << card_id) - 1)


def rank_index(card_id: int) -> int:
    """0 for a two, 12 for an ace, 13/14 for the jokers: comparable across suits."""
    return card_id - 13 * SUIT_OF[card_id]


def beats(card_id: int, best_id: int) -> bool:
    """Does ``card_id`` beat ``best_id``, the card now winning the trick?
    (:data:`rules.BEATEN_BY`, the rule of :func:`rules.trick_winner`.)"""
    return bool(BEATEN_BY[best_id] >> card_id & 1)


def beating_mask(mask: int, best_id: int) -> int:
    """The cards of ``mask`` that beat ``best_id``, the card now winning the trick."""
    return mask & BEATEN_BY[best_id]


def mask_of_cards(cards: tuple[Card, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.id
    return mask


BAG_COST = 10  # what a bag costs in the long run, with a margin (STRATEGY.md says about 9)
SET_GAIN = 20  # a set turns their +10 a trick into -10 a trick


# --- reading the table --------------------------------------------------------------------


class Table:
    """What a seat knows at its turn, in masks and counts (built once per decision)."""

    __slots__ = (
        "view", "me", "partner", "hand", "legal", "unseen", "trick", "led", "voids",
        "nil_alive", "contract", "won", "left", "win_seat", "win_id", "later",
    )

    def __init__(self, view: View) -> None:
        if view.hand is None:
            raise UsageError("the seat has not looked at its cards")
        self.view = view
        self.me = me = int(view.seat)
        self.partner = (me + 2) & 3
        self.hand = view.hand.mask
        self.legal = mask_of_cards(view.legal_plays)
        self.unseen = unseen = view.unseen_mask()
        self.trick = tuple((int(seat), card.id) for seat, card in view.trick)
        self.led = SUIT_OF[self.trick[0][1]] if self.trick else -1
        voids = list(view.voids)
        for suit in range(4):  # nobody else holds a card of this suit: all are void
            if not unseen & SUIT_MASKS[suit]:
                for seat in range(4):
                    if seat != me:
                        voids[seat] |= 1 << suit
        self.voids = voids
        bids = view.bids
        self.nil_alive = tuple(
            bid is not None and bid.is_nil and view.tricks_won[s] == 0
            for s, bid in enumerate(bids)
        )
        numbers = [bid.tricks if bid is not None else 0 for bid in bids]
        self.contract = (numbers[0] + numbers[2], numbers[1] + numbers[3])
        won = view.tricks_won
        self.won = (won[0] + won[2], won[1] + won[3])
        self.left = self.hand.bit_count()  # tricks still to play, this one included
        if view.trick:
            win_seat, win_card = winning_play(view.trick)
            self.win_seat, self.win_id = int(win_seat), win_card.id
        else:
            self.win_seat, self.win_id = -1, -1
        self.later = tuple((me + k) & 3 for k in range(1, 4 - len(self.trick)))

    # -- facts about seats and cards --

    def is_opponent(self, seat: int) -> bool:
        return (seat - self.me) & 1 == 1

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def unseen_in(self, suit: int) -> int:
        return (self.unseen & SUIT_MASKS[suit]).bit_count()

    def may_trump(self, seat: int, suit: int) -> bool:
        """Might ``seat`` trump a lead of ``suit``: void in it (or nearly all gone) with spades."""
        if suit == SPADES or self.void(seat, SPADES) or not self.unseen & SPADES_MASK:
            return False
        return self.void(seat, suit) or self.unseen_in(suit) <= 1

    def is_master(self, card_id: int) -> bool:
        """No unseen card of its suit is higher."""
        return not self.unseen & above(card_id)

    def holds(self, card_id: int, seats: tuple[int, ...]) -> bool:
        """Will ``card_id`` (winning now) stay ahead of the opponents among ``seats``?"""
        suit = SUIT_OF[card_id]
        higher = self.unseen & above(card_id)
        led = self.led if self.led >= 0 else suit
        for seat in seats:
            if not self.is_opponent(seat):
                continue
            if suit == SPADES:
                if higher and not self.void(seat, SPADES) and (
                    led == SPADES or self.may_trump(seat, led)
                ):
                    return False
            else:
                if higher and not self.void(seat, suit):
                    return False
                if self.may_trump(seat, suit):
                    return False
        return True

    def later_opponents(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.later if self.is_opponent(seat))

    def suit_length(self, suit: int) -> int:
        return (self.hand & SUIT_MASKS[suit]).bit_count()

    def top_tricks(self) -> int:
        """My cards that beat every unseen card of their suit (spades, and side suits no
        opponent has shown void in)."""
        count = 0
        for suit in range(4):
            mine = self.hand & SUIT_MASKS[suit]
            unseen = self.unseen & SUIT_MASKS[suit]
            if not mine:
                continue
            opponents = ((self.me + 1) & 3, (self.me + 3) & 3)
            if suit != SPADES and any(self.may_trump(seat, suit) for seat in opponents):
                continue
            top = mine & ~((1 << (high_id(unseen) + 1)) - 1) if unseen else mine
            count += top.bit_count()
        return count

    # -- the team's goal --

    def need(self, team: int) -> int:
        return self.contract[team] - self.won[team]

    def set_chance(self) -> tuple[int, int] | None:
        """(tricks they need, tricks left) when we can still hope to set the opponents,
        and setting them is worth the bags it may cost (``bags-cost``)."""
        us = self.me & 1
        them = 1 - us
        need = self.need(them)
        if need <= 0 or need > self.left:
            return None
        to_set = self.left - need + 1
        if to_set > self.top_tricks() + 1:
            return None
        rules = self.view.rules
        bags = max(0, -self.need(us)) + to_set  # every trick beyond our contract is a bag
        cost = BAG_COST * to_set
        if self.view.bags[us] + bags >= rules.bag_limit:
            cost += rules.bag_penalty
        if SET_GAIN * self.contract[them] <= cost:
            return None
        return need, self.left

    def wants_tricks(self) -> bool:
        return self.need(self.me & 1) > 0 or self.set_chance() is not None

    def alive_nil_opponent(self) -> int:
        for seat in ((self.me + 1) & 3, (self.me + 3) & 3):
            if self.nil_alive[seat]:
                return seat
        return -1


# --- bidding -------------------------------------------------------------------------------
# The counts are :mod:`.handeval`'s, the project's one hand evaluator (the expert's prior).

LONG_SPADES = 6  # with this many spades the estimate is rounded down: the length is counted
# generously (``lab/handeval_mse.py``, 4,000 deals: the other hands take about half a trick
# more than their estimate, these about as many as it says, so rounding up bid one too many)
NIL_RISK_MAX = 0.6  # a Nil hand: :func:`.handeval.nil_risk` below this (a guarded king
# or queen, a lone small spade pass; a king with one card, an ace, the J♠ do not) ...
NIL_TRICKS_MAX = 1.5  # ... and fewer tricks than this in :func:`.handeval.estimate_tricks`


def bid_tricks(hand: int, jokers: bool = False) -> int:
    """The plain bid for ``hand``: its estimate rounded (a half counts up; down with six
    spades or more), from 1 to 13."""
    tricks = estimate_tricks(hand, jokers)
    if (hand & SPADES_MASK).bit_count() >= LONG_SPADES:
        return max(1, min(13, int(tricks)))
    return max(1, min(13, int(tricks + 0.5)))


def is_nil_hand(hand: int, jokers: bool = False) -> bool:
    """STRATEGY.md ``nil-hand``: no card likely to take a trick (:func:`.handeval.nil_risk`:
    no ace, no high spade, no king or queen without small cards under it, few spades) and
    almost no trick in the count."""
    return nil_risk(hand) < NIL_RISK_MAX and estimate_tricks(hand, jokers) < NIL_TRICKS_MAX


BLIND_NIL_BEHIND = 250  # points behind before a Blind Nil is worth its risk
BLIND_NIL_CLOSE = 100  # ... and the opponents this close to the target


def decide_blind_nil(view: View) -> Decision:
    """Blind Nil only when far behind and the opponents are about to win: the last chance."""
    rules = view.rules
    me = int(view.seat)
    team = me & 1
    behind = view.scores[1 - team] - view.scores[team]
    partner_bid = view.bids[(me + 2) & 3]
    if (
        rules.blind_nil
        and behind >= BLIND_NIL_BEHIND
        and view.scores[1 - team] >= rules.target - BLIND_NIL_CLOSE
        and not (partner_bid is not None and partner_bid.is_nil)
    ):
        return _decide(BLIND_NIL, BID_BLIND_NIL, behind=behind)
    return _decide(None, BID_LOOK)


def decide_bid(view: View) -> Decision:
    if view.hand is None:
        return decide_blind_nil(view)
    hand = view.hand.mask
    jokers = view.rules.jokers
    me = int(view.seat)
    partner_bid = view.bids[(me + 2) & 3]
    partner_nil = partner_bid is not None and partner_bid.is_nil
    nil_hand = is_nil_hand(hand, jokers)
    if nil_hand and not partner_nil:
        return _decide(NIL, BID_NIL)
    tricks = estimate_tricks(hand, jokers)
    bid = bid_tricks(hand, jokers)
    long_spades = (hand & SPADES_MASK).bit_count() >= LONG_SPADES
    others = [b.tricks for s, b in enumerate(view.bids) if s != me and b is not None]
    total = sum(others)
    side_part, spades_part = split_tricks(hand, jokers)
    side = int(side_part + 0.5)
    spades = int(spades_part + 0.5)
    if total + bid > 13 and others:
        lower = max(1, 13 - total)
        if lower < bid:
            return _decide(Bid(lower), BID_TABLE_DOWN, bid=lower, count=bid, others=total)
    if (
        len(others) == 3
        and total + bid <= 10
        and tricks >= bid + (0.5 if long_spades else 0.0)  # the count is not rounded up
        and bid < 13
    ):
        return _decide(Bid(bid + 1), BID_TABLE_UP, bid=bid + 1, count=bid, others=total)
    if partner_nil and nil_hand:
        return _decide(Bid(bid), BID_NO_NIL_PARTNER, bid=bid)
    reason = BID_SPADES if spades_part > side_part else BID_COUNT
    return _decide(Bid(bid), reason, bid=bid, side=side, spades=spades)


# --- card play ------------------------------------------------------------------------------


def decide_play(view: View) -> Decision:
    table = Table(view)
    legal = table.legal
    if not legal:
        raise UsageError("the seat has no card to play now")
    if not legal & (legal - 1):
        return _play(low_id(legal), ONLY_CARD)
    if table.nil_alive[table.me]:
        return _nil_lead(table) if table.led < 0 else _nil_follow(table)
    if table.led < 0:
        return _lead(table)
    return _follow(table)


# -- shared choices --


def _lowest_by_rank(mask: int) -> int:
    """The card of lowest rank (a two before a three, whatever the suit; spades last)."""
    best = -1
    for suit in (0, 1, 2, 3):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            card = low_id(cards)
            if best < 0 or rank_index(card) < rank_index(best):
                best = card
    return best


def _discard(table: Table) -> tuple[int, Reason]:
    """A card thrown away (void in the led suit, not trumping): the lowest card of the
    shortest side suit, keeping masters; a spade only when nothing else is left."""
    legal = table.legal
    side = legal & ~SPADES_MASK
    if not side:
        return low_id(legal), CANT_WIN
    plain = 0
    for suit in SIDE_SUITS:
        cards = side & SUIT_MASKS[suit]
        if cards:
            top = high_id(cards)
            plain |= cards & ~(1 << top) if table.is_master(top) else cards
    pool = plain or side
    best = -1
    best_key = (99, 99, 99)
    for suit in SIDE_SUITS:
        cards = pool & SUIT_MASKS[suit]
        if not cards:
            continue
        card = low_id(cards)
        key = (table.suit_length(suit), rank_index(card), suit)
        if key < best_key:
            best, best_key = card, key
    return best, DISCARD_SHORT


def _dump(table: Table, mask: int) -> int:
    """The most dangerous card of ``mask`` to keep: the highest rank, non-spades first."""
    side = mask & ~SPADES_MASK
    pool = side or mask
    best = -1
    for suit in (0, 1, 2, 3):
        cards = pool & SUIT_MASKS[suit]
        if cards:
            card = high_id(cards)
            if best < 0 or rank_index(card) > rank_index(best):
                best = card
    return best


def _winner_text(table: Table) -> str:
    return CARD_TEXT[table.win_id]


# -- following --


def _follow(table: Table) -> Decision:
    nil_partner = table.nil_alive[table.partner]
    if nil_partner:
        decision = _cover_follow(table)
        if decision is not None:
            return decision
    elif table.alive_nil_opponent() >= 0:
        decision = _attack_follow(table)
        if decision is not None:
            return decision
    if table.need(table.me & 1) > 0:
        return _follow_to_win(table)
    chance = table.set_chance()
    if chance is not None:
        return _setting(_follow_to_win(table), chance)
    return _follow_to_lose(table)


_WINNING = (
    WIN_CHEAPLY, TRUMP_LAST, TRUMP_LOW, TRUMP_HIGH, THIRD_HAND_HIGH, THIRD_HAND_OVER,
    THIRD_HAND_HOLDS,
    SECOND_HAND_MASTER, CASH_ACE, LEAD_MASTER, PULL_TRUMPS,
)


def _setting(decision: Decision, chance: tuple[int, int]) -> Decision:
    """A winning play made to set the opponents says so (``bags-cost``: unless you can
    still set them)."""
    if decision.reason not in _WINNING or not isinstance(decision.action, Card):
        return decision
    need, left = chance
    return _play(decision.action.id, SET_THEM, need=need, left=left)


def _follow_to_win(table: Table) -> Decision:
    legal = table.legal
    led = table.led
    position = len(table.trick)
    later_opps = table.later_opponents()
    winner = _winner_text(table)
    following = legal & SUIT_MASKS[led]
    if table.win_seat == table.partner:
        partner_holds = table.holds(table.win_id, later_opps) or _stands(table, later_opps)
        if not later_opps or partner_holds:
            if following:
                return _play(low_id(following), PARTNER_WINS_LOW, winner=winner)
            card, _ = _discard(table)
            reason = DONT_TRUMP_PARTNER if legal & SPADES_MASK and SUIT_OF[card] != SPADES else (
                PARTNER_WINS_LOW
            )
            return _play(card, reason, winner=winner)
        # third hand, partner's card may not stand: third hand high
        if following:
            over = beating_mask(following, table.win_id)
            sure = _holding(table, over, later_opps)
            if sure:
                return _play(low_id(sure), THIRD_HAND_HOLDS)
            if over and not _ruff_threat(table, later_opps):
                return _play(_top_of_sequence_low(table, over), THIRD_HAND_OVER, winner=winner)
            return _play(low_id(following), PARTNER_WINS_LOW, winner=winner)
        return _trump_or_discard(table, later_opps)
    # an opponent is winning
    if following:
        over = beating_mask(following, table.win_id)
        if not over:
            return _play(low_id(following), CANT_WIN, winner=winner)
        if position == 3:
            return _play(low_id(over), WIN_CHEAPLY, winner=winner)
        sure = _holding(table, over, later_opps)
        if position == 1:
            if sure and led != SPADES:
                return _play(low_id(sure), SECOND_HAND_MASTER)
            if led == SPADES and _must_win_now(table):
                # second-hand-low's exception: the contract needs the trick, or partner
                # cannot win it; the lowest spade that is sure to win, else the highest
                if sure:
                    return _play(low_id(sure), SECOND_HAND_WIN)
                if _partner_cannot_win(table):
                    return _play(_top_of_sequence_low(table, over), SECOND_HAND_WIN)
            return _play(low_id(following), SECOND_HAND_LOW)
        if sure:
            return _play(low_id(sure), THIRD_HAND_HOLDS)
        if _ruff_threat(table, later_opps):
            return _play(low_id(following), CANT_WIN, winner=winner)
        return _play(_top_of_sequence_low(table, over), THIRD_HAND_HIGH, winner=winner)
    return _trump_or_discard(table, later_opps)


def _must_win_now(table: Table) -> bool:
    """The trick must be won by the team: the contract needs every trick left, or partner
    (who plays later) cannot win it."""
    return table.need(table.me & 1) >= table.left or _partner_cannot_win(table)


def _partner_cannot_win(table: Table) -> bool:
    """On a spade lead: partner is void in spades, or no unseen spade beats the trick."""
    return table.void(table.partner, SPADES) or not table.unseen & above(table.win_id)


def _stands(table: Table, later_opps: tuple[int, ...]) -> bool:
    """``dont-trump-partner``: partner's card is the top card of the suit led (partner's
    ace stands) and no later opponent has shown a void in that suit (who could trump it)."""
    if table.led == SPADES or SUIT_OF[table.win_id] != table.led:
        return False
    if not table.is_master(table.win_id):
        return False
    return not any(table.void(seat, table.led) and not table.void(seat, SPADES)
                   for seat in later_opps)


def _ruff_threat(table: Table, seats: tuple[int, ...]) -> bool:
    return table.led != SPADES and any(table.may_trump(seat, table.led) for seat in seats)


def _holding(table: Table, mask: int, later_opps: tuple[int, ...]) -> int:
    """The cards of ``mask`` that would win the trick whatever the later opponents hold."""
    sure = 0
    cards = mask
    while cards:
        card = high_id(cards)
        cards ^= 1 << card
        if table.holds(card, later_opps):
            sure |= 1 << card
    return sure


def _top_of_sequence_low(table: Table, mask: int) -> int:
    """The highest card of ``mask``, or the lowest card equal to it in play (Q from K-Q,
    or from K-Q with the J played: the cards between them are gone)."""
    card = high_id(mask)
    suit_mask = SUIT_MASKS[SUIT_OF[card]]
    lower = card - 1
    while lower >= 0 and suit_mask >> lower & 1 and not table.unseen >> lower & 1:
        if mask >> lower & 1:
            card = lower
        elif table.hand >> lower & 1:
            break  # a card of mine outside ``mask`` (not legal, cannot happen in one suit)
        lower -= 1
    return card


def _trump_or_discard(table: Table, later_opps: tuple[int, ...]) -> Decision:
    legal = table.legal
    trumps = beating_mask(legal & SPADES_MASK, table.win_id) if table.led != SPADES else 0
    if trumps:
        if not later_opps:
            return _play(low_id(trumps), TRUMP_LAST)
        threats = tuple(
            seat for seat in later_opps
            if table.may_trump(seat, table.led) and table.unseen & above(low_id(trumps))
        )
        if threats:
            sure = _holding(table, trumps, later_opps)
            if sure:
                return _play(low_id(sure), TRUMP_HIGH, seat=SEAT_LETTERS[threats[0]])
            return _play(high_id(trumps), TRUMP_HIGH, seat=SEAT_LETTERS[threats[0]])
        return _play(low_id(trumps), TRUMP_LOW, suit=SUIT_KEYS[table.led])
    card, reason = _discard(table)
    if reason is CANT_WIN:
        return _play(card, CANT_WIN, winner=_winner_text(table))
    return _play(card, reason)


def _follow_to_lose(table: Table) -> Decision:
    """Contract made, no set in sight: let the others take the tricks (``bags-cost``)."""
    legal = table.legal
    following = legal & SUIT_MASKS[table.led]
    if following:
        under = following & ~beating_mask(following, table.win_id)
        if under:
            return _play(high_id(under), BAGS_DUCK)
        if table.later_opponents():  # an opponent after me may still take it
            return _play(low_id(following), BAGS_DUCK)
        return _play(high_id(following), BAGS_FORCED)
    side = legal & ~SPADES_MASK
    if side:
        return _play(_dump(table, side), BAGS_DISCARD)
    under = legal & ~beating_mask(legal, table.win_id)
    if under:
        return _play(high_id(under), BAGS_DUCK)
    return _play(low_id(legal), BAGS_FORCED)


# -- Nil: my own, partner's, an opponent's --


def _nil_follow(table: Table) -> Decision:
    legal = table.legal
    following = legal & SUIT_MASKS[table.led]
    winner = _winner_text(table)
    if following:
        under = following & ~beating_mask(following, table.win_id)
        if under:
            return _play(high_id(under), NIL_DUCK, winner=winner)
        if table.later:
            return _play(low_id(following), NIL_LOW)
        return _play(high_id(following), NIL_FORCED)
    side = legal & ~SPADES_MASK
    if side:
        return _play(_dump(table, side), NIL_DISCARD)
    under = legal & ~beating_mask(legal, table.win_id)
    if under:
        return _play(high_id(under), NIL_DUCK, winner=winner)
    if table.later:
        return _play(low_id(legal), NIL_LOW)
    return _play(high_id(legal), NIL_FORCED)


def _nil_lead(table: Table) -> Decision:
    """Lead the card with the most unseen cards above it (a low card of a suit still out)."""
    best = -1
    best_key = (-1, 0)
    cards = table.legal
    while cards:
        card = low_id(cards)
        cards ^= 1 << card
        higher = (table.unseen & above(card)).bit_count()
        key = (higher, -rank_index(card) - (SUIT_OF[card] == SPADES))
        if key > best_key:
            best, best_key = card, key
    if best_key[0] == 0:
        return _play(_lowest_by_rank(table.legal), NIL_FORCED)
    return _play(best, NIL_LEAD, higher=best_key[0])


def _cover_follow(table: Table) -> Decision | None:
    """Partner bid Nil: take the tricks that could land on them."""
    legal = table.legal
    partner = table.partner
    following = legal & SUIT_MASKS[table.led]
    if table.win_seat == partner:
        over = beating_mask(legal, table.win_id)
        if over:
            return _play(low_id(over), COVER_OVERTAKE, winner=_winner_text(table))
        return None
    if partner in table.later and not table.void(partner, table.led):  # void: partner is safe
        if following:
            top = high_id(following)
            if beats(top, table.win_id):
                return _play(_top_of_sequence_low(table, following), COVER_HIGH)
            return None
        trumps = beating_mask(legal & SPADES_MASK, table.win_id) if table.led != SPADES else 0
        if trumps and not table.is_master(table.win_id):
            return _play(low_id(trumps), COVER_TRUMP)
    return None


def _attack_follow(table: Table) -> Decision | None:
    """An opponent bid Nil: make them take a trick."""
    nil_seat = table.alive_nil_opponent()
    legal = table.legal
    seat = SEAT_LETTERS[nil_seat]
    played = any(s == nil_seat for s, _ in table.trick)
    if played:
        if table.win_seat != nil_seat:
            return None
        under = legal & ~beating_mask(legal, table.win_id)
        if not under:
            return None
        following = under & SUIT_MASKS[table.led]
        card = high_id(following) if following else _dump(table, under)
        return _play(card, ATTACK_DUCK, winner=_winner_text(table), seat=seat)
    if nil_seat in table.later:
        following = legal & SUIT_MASKS[table.led]
        if table.win_seat == (nil_seat + 2) & 3 and table.is_master(table.win_id):
            return None  # the Nil can play under that card whatever I do
        if following:
            return _play(low_id(following), ATTACK_LOW, seat=seat)
        under = legal & ~beating_mask(legal, table.win_id)
        if under:
            return _play(_dump(table, under), ATTACK_LOW, seat=seat)
    return None


# -- leading --


def _lead(table: Table) -> Decision:
    if table.nil_alive[table.partner]:
        return _cover_lead(table)
    nil_seat = table.alive_nil_opponent()
    if nil_seat >= 0:
        decision = _attack_lead(table, nil_seat)
        if decision is not None:
            return decision
    if table.need(table.me & 1) > 0:
        return _lead_to_win(table)
    chance = table.set_chance()
    if chance is not None:
        return _setting(_lead_to_win(table), chance)
    return _lead_to_lose(table)


def _opponents(table: Table) -> tuple[int, int]:
    return ((table.me + 1) & 3, (table.me + 3) & 3)


def _ruff_risk(table: Table, suit: int) -> int:
    """An opponent who may trump ``suit``, or -1."""
    for seat in _opponents(table):
        if table.may_trump(seat, suit):
            return seat
    return -1


def _lead_to_win(table: Table) -> Decision:
    legal = table.legal
    # cash-aces-early: a side-suit master before the suit can be trumped
    best = -1
    best_key = (0, 0, 0)
    for suit in SIDE_SUITS:
        cards = legal & SUIT_MASKS[suit]
        if not cards or _ruff_risk(table, suit) >= 0:
            continue
        top = high_id(cards)
        if not table.is_master(top) or table.unseen_in(suit) < 2:
            continue
        key = (1 + (rank_index(top) == 12), -table.suit_length(suit), -suit)
        if key > best_key:
            best, best_key = top, key
    if best >= 0:
        return _play(best, CASH_ACE if rank_index(best) == 12 else LEAD_MASTER)
    spades = legal & SPADES_MASK
    # win-cheaply: only spades left, and the masters alone make the contract: the low
    # spades first (each may lose; the masters win later whatever happens)
    if spades == table.hand and table.unseen & SPADES_MASK:
        masters = _top_masters(table, spades)
        low = spades & ~masters
        if low and 0 < table.need(table.me & 1) <= masters.bit_count():
            return _play(low_id(low), LOW_SPADE_FIRST, count=masters.bit_count())
    # pull-trumps: the top spade, with length
    unseen_spades = (table.unseen & SPADES_MASK).bit_count()
    if spades and unseen_spades:
        top = high_id(spades)
        count = spades.bit_count()
        if table.is_master(top) and (count >= 4 or count > unseen_spades or count == table.left):
            return _play(top, PULL_TRUMPS, count=count, out=unseen_spades)
    # lead a suit partner is void in, so partner can trump
    partner = table.partner
    if not table.void(partner, SPADES) and table.unseen & SPADES_MASK:
        for suit in SIDE_SUITS:
            cards = legal & SUIT_MASKS[suit]
            if cards and table.void(partner, suit) and _ruff_risk(table, suit) < 0:
                return _play(low_id(cards), LEAD_PARTNER_VOID)
    # otherwise a low card of a side suit no opponent can trump, longest first
    best = -1
    best_key2 = (-1, 0, 0)
    for suit in SIDE_SUITS:
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        safe = _ruff_risk(table, suit) < 0
        key2 = (safe, table.suit_length(suit), -suit)
        if key2 > best_key2:
            best, best_key2 = low_id(cards), key2
    if best >= 0:
        if best_key2[0]:
            return _play(best, LEAD_SAFE_SUIT)
        if spades:  # every side suit can be trumped: lead a spade instead
            return _play(_spade_lead(table, spades), LEAD_SPADE)
        return _play(best, LEAD_AVOID_VOID, seat=SEAT_LETTERS[_ruff_risk(table, SUIT_OF[best])])
    return _play(_spade_lead(table, spades), LEAD_SPADE)


def _top_masters(table: Table, spades: int) -> int:
    """My spades above every unseen spade."""
    unseen = table.unseen & SPADES_MASK
    return spades & ~((2 << high_id(unseen)) - 1) if unseen else spades


def _spade_lead(table: Table, spades: int) -> int:
    top = high_id(spades)
    return top if table.is_master(top) else low_id(spades)


def _lead_to_lose(table: Table) -> Decision:
    """Contract made: lead a card that others will beat, the higher the better to shed."""
    best = -1
    best_key = (-1, 0, 0)
    cards = table.legal
    while cards:
        card = low_id(cards)
        cards ^= 1 << card
        higher = (table.unseen & above(card)).bit_count()
        key = (min(higher, 2), SUIT_OF[card] != SPADES, rank_index(card))
        if key > best_key:
            best, best_key = card, key
    return _play(best, BAGS_LEAD)


def _cover_lead(table: Table) -> Decision:
    """Partner bid Nil: lead high, masters first, in the suits partner cannot follow."""
    legal = table.legal
    partner = table.partner
    best = -1
    best_key = (False, False, -1)
    for suit in (0, 1, 2, 3):
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        top = high_id(cards)
        key = (table.is_master(top), table.void(partner, suit), rank_index(top))
        if key > best_key:
            best, best_key = top, key
    if best_key[1] and not best_key[0]:
        return _play(best, COVER_LEAD_VOID)
    return _play(best, COVER_LEAD)


def _attack_lead(table: Table, nil_seat: int) -> Decision | None:
    """Lead low in a suit the Nil bidder still holds."""
    nil_partner = (nil_seat + 2) & 3
    best = -1
    best_key = (False, 99, 99)
    for suit in (0, 1, 2, 3):
        cards = table.legal & SUIT_MASKS[suit]
        if not cards or table.void(nil_seat, suit):
            continue
        card = low_id(cards)
        lower = (table.unseen & below(card)).bit_count()
        key = (not table.may_trump(nil_partner, suit), -lower, -rank_index(card))
        if best < 0 or key > best_key:
            best, best_key = card, key
    if best < 0:
        return None
    return _play(best, ATTACK_LEAD, seat=SEAT_LETTERS[nil_seat])


__all__ = [
    "REASONS", "TIPS", "Decision", "Reason", "Suit", "Table",
    "bid_tricks", "decide_bid", "decide_blind_nil", "decide_play", "is_nil_hand",
]
