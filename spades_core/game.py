"""A game of Spades as an action history: ``state.apply(action)`` returns the next state.

The history (the cards dealt, the bids and the plays of every hand) is the truth.  What
else a state tells (the cards still held, whose turn, spades broken, the tricks won,
the scores) is derived from it: either computed when asked or carried forward as each
action is applied, never set any other way.  States are immutable values.

Phases: ``BIDDING`` → ``PLAYING`` → (the hand is scored) → ``BIDDING`` of the next hand
… → ``OVER``.  Without a deal number the engine cannot deal the next hand itself: it
waits in ``DEALING`` for :meth:`GameState.deal_cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Self

from .bids import ALL_BIDS, Bid
from .cards import (
    BITS,
    CARDS,
    SUIT_OF,
    Card,
    CardSet,
    Suit,
    cards_of_suits,
)
from .deal import check_deal_number, deal_hand
from .errors import IllegalAction, Refusal, UsageError
from .rules import (
    DEFAULT_RULES,
    PLAY_FROM,
    Rules,
    game_winner,
    last_trick,
    refusal,
    seated_plays,
    trick_winner_seat,
)
from .scoring import TeamScore, score_hand
from .seats import SEATS, TEAMS, Seat, Team, dealer_of_hand


class Phase(Enum):
    DEALING = "dealing"
    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


# The phases as plain names: on Python 3.11 ``Phase.PLAYING`` is a slow lookup (an Enum
# class has a ``__getattr__``), worth 4% of a hand's time at the bids and hand ends.
DEALING, BIDDING, PLAYING, OVER = Phase.DEALING, Phase.BIDDING, Phase.PLAYING, Phase.OVER


class HandResult(NamedTuple):
    """A finished hand: what happened and how it scored (a NamedTuple, as the scores in
    :mod:`.scoring` are: immutable and cheap to build)."""

    hand_index: int  # 0 for the first hand of the game
    dealt_masks: tuple[int, int, int, int]  # the masks dealt, by seat (dealt(seat): a CardSet)
    bid_history: tuple[Bid, ...]  # in bidding order, from the dealer's left
    play_ids: tuple[int, ...]  # card ids in play order (plays: the Cards)
    tricks: tuple[int, int, int, int]  # by seat
    teams: tuple[TeamScore, TeamScore]  # NS, EW
    scores: tuple[int, int]  # running totals after the hand

    @property
    def dealer(self) -> Seat:
        return dealer_of_hand(self.hand_index)

    def dealt(self, seat: Seat) -> CardSet:
        """The cards ``seat`` was dealt this hand."""
        return CardSet(self.dealt_masks[seat])

    @property
    def plays(self) -> tuple[Card, ...]:
        """The cards played, in play order."""
        return tuple(CARDS[card_id] for card_id in self.play_ids)

    @property
    def bids_by_seat(self) -> tuple[Bid, Bid, Bid, Bid]:
        """The four bids by seat (N, E, S, W), as ``View.bids`` holds them."""
        return bids_by_seat(self.bid_history, self.dealer)

    @property
    def bags(self) -> tuple[int, int]:
        return (self.teams[0].bags_after, self.teams[1].bags_after)

    def seated_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The hand's plays with the seat of each, as dealt in a game: the dealer's left
        leads the first trick, each trick's winner the next."""
        return seated_plays((self.dealer + 1) & 3, self.play_ids)

    @property
    def last_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The hand's last complete trick, (seat, card) pairs in play order (the last
        four plays of a finished hand); empty if no trick was completed."""
        return last_trick(self.seated_plays())


def bids_by_seat(bids: Sequence[Bid], dealer: int) -> tuple[Bid, Bid, Bid, Bid]:
    """Four bids in bidding order (from the dealer's left) rearranged by seat N, E, S, W."""
    north = (3 - dealer) & 3  # North's place in the bidding order; the others follow
    return (bids[north], bids[(north + 1) & 3], bids[(north + 2) & 3], bids[(north + 3) & 3])


Hands = Sequence[CardSet | int]
"""Four hands by seat (N, E, S, W), each a :class:`CardSet` or its bit mask."""


def _masks(hands: Hands) -> list[int]:
    return [hand.mask if isinstance(hand, CardSet) else hand for hand in hands]


def check_hands(hands: Hands, deck_mask: int) -> tuple[int, int, int, int]:
    """Check that four hands deal the whole deck, 13 cards each; return them as masks."""
    if len(hands) != 4:
        raise UsageError("a deal has four hands")
    masks = _masks(hands)
    seen = 0
    for seat, hand in enumerate(masks):
        if hand & ~deck_mask:
            raise UsageError(f"{CardSet(hand & ~deck_mask)} is not in this deck")
        if hand & seen:
            raise UsageError(f"{CardSet(hand & seen)} is dealt twice")
        if hand.bit_count() != 13:
            raise UsageError(f"{SEATS[seat]} is dealt {hand.bit_count()} cards, not 13")
        seen |= hand
    return (masks[0], masks[1], masks[2], masks[3])


@dataclass(slots=True, unsafe_hash=True)
class _Hand:
    """What stays the same for a whole hand, kept apart so that an action copies little.

    A value, never changed once built, hence hashable; not ``frozen=True`` because a
    frozen dataclass is slow to build (each field through ``object.__setattr__``), and
    not a NamedTuple because CPython 3.11 reads a slot faster than a tuple's field."""

    rules: Rules
    deal: int | None
    past: tuple[HandResult, ...]
    cards: tuple[int, int, int, int]  # each seat's cards at the start (dealt, or a position's)
    scores: tuple[int, int]
    bags: tuple[int, int]
    size: int  # cards in play (and a position's trick): the hand ends when all are played
    broken: bool = False  # spades broken before the position started (lessons)
    opening_leader: int = -1  # a position's leader; -1: the dealer's left, as in a game

    @property
    def first_leader(self) -> int:
        """The seat leading the first trick recorded in this hand."""
        if self.opening_leader >= 0:
            return self.opening_leader
        return (dealer_of_hand(len(self.past)) + 1) & 3


def _new_hand(
    rules: Rules, deal: int | None, past: tuple[HandResult, ...], cards: tuple[int, int, int, int],
    scores: tuple[int, int], bags: tuple[int, int],
) -> _Hand:
    """A hand of a game, dealt ``cards`` (a whole deck)."""
    return _Hand(rules, deal, past, cards, scores, bags, rules.deck_mask.bit_count())


_NOBODY = -1
_SPADES = int(Suit.SPADES)  # a plain int: an Enum member is a slow lookup on Python 3.11

# Tricks won this hand, by seat, packed four bits a seat (13 fits) in one small int: a
# trick won adds ``_TRICK[seat]``, cheaper than building a new tuple of four counts.
_TRICK = (1, 1 << 4, 1 << 8, 1 << 12)


def _unpack_tricks(packed: int) -> tuple[int, int, int, int]:
    return (packed & 15, packed >> 4 & 15, packed >> 8 & 15, packed >> 12)


class GameState:
    """One point of a game, an immutable value: :meth:`apply` returns the next state.
    Build one with :meth:`new` (or :meth:`position` for lessons).

    An action moves a state on by the rule functions of :mod:`.rules`, called, never
    restated: what the next seat may play is :func:`rules.legal_play_mask`'s (worked out
    as each action is applied, so that the next action is checked against it and
    :meth:`legal_plays` only reads it), the winner of a trick
    :func:`rules.trick_winner_seat`'s.  ``_leader``, ``_turn``, ``_led`` and ``_broken``
    repeat what the history says, so that a play reads its answers rather than working
    them out again.  (The bots' search does not step through states: it plays out
    imagined deals on masks, :func:`.bots.rollout.play_out`, by the same rules' tables.)
    """

    __slots__ = (
        "_hand", "_phase", "_bids", "_held", "_plays", "_leader", "_turn", "_led", "_tricks",
        "_broken", "_legal_mask", "_legal",
    )
    _hand: _Hand
    _phase: Phase
    _bids: tuple[Bid, ...]  # this hand's bids, in bidding order (from the dealer's left)
    _held: list[int]  # the cards each seat holds, masks by seat (each state has its own list)
    _plays: list[int]  # this hand's card ids in play order (each state has its own list)
    _leader: int  # the seat leading the current trick; -1 while bidding
    _turn: int  # the seat to play
    _led: int  # the suit led to the current trick; -1 before its first card
    _tricks: int  # tricks won this hand by seat, packed (see _TRICK)
    _broken: bool  # a spade has been played this hand (or the position began so)
    _legal_mask: int  # the cards the seat to act may play (0 outside the play)
    _legal: tuple[Card, ...]  # the same, as Cards in id order

    # --- construction ------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules = DEFAULT_RULES,
        deal: int | None = None,
        cards: Hands | None = None,
    ) -> Self:
        """A new game.  ``deal`` deals every hand; ``cards`` (four hands by seat, CardSets or
        masks) gives the first."""
        if deal is not None:
            check_deal_number(deal)
            dealt = deal_hand(deal, 0, rules.deck_mask)
            if cards is not None and check_hands(cards, rules.deck_mask) != dealt:
                raise UsageError(f"these are not the cards of deal {deal}")
        elif cards is None:
            raise UsageError("a new game needs a deal number or the cards")
        else:
            dealt = check_hands(cards, rules.deck_mask)
        return cls._start(_new_hand(rules, deal, (), dealt, (0, 0), (0, 0)), BIDDING)

    @classmethod
    def at_hand(
        cls,
        rules: Rules,
        cards: Hands,
        hand_index: int,
        scores: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
    ) -> Self:
        """The start (bidding) of hand ``hand_index`` of a game whose earlier hands are not
        kept, dealt ``cards`` (a whole deck), the teams at ``scores`` and ``bags``: the same
        hand, dealer and view as in the game (``spades_core.mistakes`` stores a position so).
        ``past_hands`` holds ``hand_index`` empty results (no card, no bid, no points) only so
        that the hand's index and dealer are the game's."""
        if not 0 <= hand_index <= 2000:
            raise UsageError("a hand index is from 0 to 2000")
        dealt = check_hands(cards, rules.deck_mask)
        none = TeamScore(0, 0, 0, 0, (), 0, 0, 0)
        past = tuple(HandResult(index, (0, 0, 0, 0), (), (), (0, 0, 0, 0), (none, none), scores)
                     for index in range(hand_index))
        return cls._start(_new_hand(rules, None, past, dealt, scores, bags), BIDDING)

    @classmethod
    def position(
        cls,
        rules: Rules,
        hands: Hands,
        *,
        leader: Seat,
        bids: Sequence[Bid],
        trick: Sequence[Card] = (),
        tricks: Sequence[int] = (0, 0, 0, 0),
        spades_broken: bool = False,
        scores: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
    ) -> Self:
        """A partial position during the play, for lessons: hands may hold any cards.

        ``bids`` are by seat (N, E, S, W); ``hands`` are what each seat still holds
        (CardSets or masks);
        ``trick`` is the current trick so far, led by ``leader``.  The hand ends when
        every card held has been played.  It is scored as the first hand (East deals).
        """
        if len(bids) != 4 or len(hands) != 4 or len(tricks) != 4:
            raise UsageError("a position has four hands, four bids and four trick counts")
        if len(trick) > 3:
            raise UsageError("a trick in progress has at most three cards")
        if not all(0 <= count <= 13 for count in tricks):
            raise UsageError("a seat wins from 0 to 13 tricks")
        masks = _masks(hands)
        union = 0
        for part in (*masks, *(card.bit for card in trick)):
            if part & union or part & ~rules.deck_mask:
                raise UsageError("a card is held twice, or is not in this deck")
            union |= part
        dealer = dealer_of_hand(0)
        cards = (masks[0], masks[1], masks[2], masks[3])
        hand = _Hand(
            rules, None, (), cards, scores, bags, union.bit_count(), spades_broken, int(leader),
        )
        state = cls._start(hand, PLAYING)
        state._bids = tuple(bids[(dealer + 1 + i) & 3] for i in range(4))
        state._plays = [card.id for card in trick]
        state._leader = int(leader)
        state._tricks = sum(count * unit for count, unit in zip(tricks, _TRICK, strict=True))
        state._turn = (int(leader) + len(trick)) & 3
        state._led = SUIT_OF[trick[0].id] if trick else -1
        state._broken = spades_broken or any(card.suit == Suit.SPADES for card in trick)
        state._allow()
        return state

    @classmethod
    def _start(cls, hand: _Hand, phase: Phase) -> Self:
        """The state at the start of ``hand``: bidding, or waiting (dealing, over)."""
        state = cls()
        state._begin(hand, phase)
        return state

    def _begin(self, hand: _Hand, phase: Phase) -> None:
        self._hand = hand
        self._phase = phase
        self._bids = ()
        self._held = list(hand.cards)
        self._plays = []
        self._leader = _NOBODY
        self._turn = 0
        self._led = -1
        self._tricks = 0
        self._broken = hand.broken
        self._legal_mask = 0  # no card may be played before the bidding is done
        self._legal = ()

    def _allow(self) -> None:
        """Work out what the seat to act (``_turn``) may play: :func:`rules.legal_play_mask`
        (read from its table, :data:`rules.PLAY_FROM`, as the bots' play-outs read it)."""
        hand = self._held[self._turn]
        legal = hand & PLAY_FROM[self._led][self._broken] or hand  # legal_play_mask's table
        self._legal_mask = legal
        self._legal = cards_of_suits(  # cards_of_mask(legal), without the call to split it
            legal & 0x1FFF, legal >> 13 & 0x1FFF, legal >> 26 & 0x1FFF, legal >> 39
        )

    # --- reading -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._hand.rules

    @property
    def deal(self) -> int | None:
        return self._hand.deal

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """The seat whose turn it is, or None (game over, or waiting for the cards)."""
        seat = self._seat_to_act()
        return SEATS[seat] if seat >= 0 else None

    def _seat_to_act(self) -> int:
        phase = self._phase
        if phase is PLAYING:
            return self._turn
        if phase is BIDDING:
            return (dealer_of_hand(len(self._hand.past)) + 1 + len(self._bids)) & 3
        return _NOBODY

    @property
    def hand_index(self) -> int:
        """0 for the first hand of the game."""
        return len(self._hand.past)

    @property
    def dealer(self) -> Seat:
        return dealer_of_hand(len(self._hand.past))

    @property
    def past_hands(self) -> tuple[HandResult, ...]:
        return self._hand.past

    @property
    def bid_history(self) -> tuple[Bid, ...]:
        """This hand's bids so far, in bidding order (from the dealer's left); by seat, see
        :meth:`bid_of` (and ``View.bids``: the name ``bids`` always means by seat)."""
        return self._bids

    def bid_of(self, seat: Seat) -> Bid | None:
        """``seat``'s bid this hand, or None if it has not bid yet."""
        index = (seat - self.dealer - 1) & 3
        bids = self._bids
        return bids[index] if index < len(bids) else None

    @property
    def plays(self) -> tuple[Card, ...]:
        """This hand's cards in play order."""
        return tuple(CARDS[i] for i in self._plays)

    @property
    def play_ids(self) -> tuple[int, ...]:
        return tuple(self._plays)

    @property
    def trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick in progress (empty between tricks), with who played each card."""
        count = len(self._plays) & 3
        if not count:
            return ()
        cards = self._plays[-count:]
        return tuple((SEATS[(self._leader + i) & 3], CARDS[c]) for i, c in enumerate(cards))

    def seated_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """This hand's plays with the seat of each (a trick's winner leads the next)."""
        return seated_plays(self._hand.first_leader, self._plays)

    @property
    def last_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """This hand's last complete trick, (seat, card) pairs in play order; empty
        before the first is complete (:func:`rules.last_trick`).  Its winner is
        ``rules.winning_play(state.last_trick)[0]``."""
        return last_trick(self.seated_plays())

    def shown_voids(self) -> tuple[int, int, int, int]:
        """By seat, the suits (bit ``s`` for suit ``s``) it has shown it lacks this hand."""
        voids = [0, 0, 0, 0]
        led = -1
        for position, (seat, card) in enumerate(self.seated_plays()):
            suit = SUIT_OF[card.id]
            if position & 3 == 0:
                led = suit
            elif suit != led:
                voids[seat] |= 1 << led
        return (voids[0], voids[1], voids[2], voids[3])

    @property
    def leader(self) -> Seat | None:
        """Who leads (or led) the current trick; None while bidding."""
        return SEATS[self._leader] if self._leader >= 0 else None

    @property
    def tricks_won(self) -> tuple[int, int, int, int]:
        """Tricks taken this hand, by seat."""
        return _unpack_tricks(self._tricks)

    @property
    def spades_broken(self) -> bool:
        """A spade has been played this hand (so a spade may be led)."""
        return self._broken

    @property
    def scores(self) -> tuple[int, int]:
        """Running scores (NS, EW) before the current hand."""
        return self._hand.scores

    @property
    def bags(self) -> tuple[int, int]:
        """Running bag counts (NS, EW)."""
        return self._hand.bags

    @property
    def winner(self) -> Team | None:
        hand = self._hand
        if self._phase is not OVER:
            return None
        winner = game_winner(hand.scores, hand.rules)
        return TEAMS[winner] if winner is not None else None

    def held_mask(self, seat: int) -> int:
        """The cards ``seat`` still holds, as a bit mask: the fast accessor of
        :meth:`hand_of` for the bots and the tests."""
        return self._held[seat]

    def hand_of(self, seat: Seat) -> CardSet:
        """The cards ``seat`` still holds."""
        return CardSet(self.held_mask(seat))

    def dealt(self, seat: Seat) -> CardSet:
        """The cards ``seat`` held when this hand (or position) began."""
        return CardSet(self._hand.cards[seat])

    @property
    def dealt_masks(self) -> tuple[int, int, int, int]:
        """The cards dealt this hand by seat, as bit masks (fast accessor of :meth:`dealt`)."""
        return self._hand.cards

    @property
    def played_mask(self) -> int:
        """The cards played so far this hand, as a bit mask (fast accessor of :attr:`played`)."""
        return sum(BITS[card_id] for card_id in self._plays)

    @property
    def played(self) -> CardSet:
        """The cards played so far this hand."""
        return CardSet(self.played_mask)

    @property
    def led_suit(self) -> int:
        """The suit led to the current trick, -1 when a card is to be led."""
        return self._led

    # --- what may be done -------------------------------------------------------------

    def legal_play_mask(self) -> int:
        """The cards the seat to act may play, as a bit mask (0 outside the play): the fast
        accessor of :meth:`legal_plays` for the bots and the tests."""
        return self._legal_mask

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to act may play, in id order (empty outside the play)."""
        return self._legal

    def legal_bids(self) -> tuple[Bid, ...]:
        """The bids the seat to act may make (empty outside the bidding)."""
        if self._phase is not BIDDING:
            return ()
        return ALL_BIDS if self._hand.rules.blind_nil else ALL_BIDS[:-1]

    def refusal(self, action: Card | Bid, seat: Seat | None = None) -> Refusal | None:
        """Why ``action`` (by ``seat``, by default the seat to act) is refused now, or None."""
        phase = self._phase
        if phase is OVER:
            return Refusal("game-over")
        if phase is DEALING:
            return Refusal("awaiting-deal")
        to_act = self._seat_to_act()
        if seat is not None and seat != to_act:
            return Refusal("not-your-turn", {"seat": SEATS[to_act].name})
        if isinstance(action, Bid):
            if phase is not BIDDING:
                return Refusal("not-bidding")
            if action.blind and not self._hand.rules.blind_nil:
                return Refusal("blind-nil-off")
            return None
        if phase is not PLAYING:
            return Refusal("not-playing")
        return refusal(self.held_mask(to_act), action.id, self.led_suit, self.spades_broken)

    # --- acting ---------------------------------------------------------------------

    def _advance(self, action: Card | Bid, seat: Seat | None = None) -> None:
        """Apply ``action`` by the seat to act to this new state, in place (:meth:`apply`
        has just copied it); raise :class:`IllegalAction` if it may not be done.  Pass
        ``seat`` to check that it is that seat's turn."""
        if seat is not None and seat != self._seat_to_act():
            raise self._refused(action, seat)
        if action.__class__ is Card:
            card_id = action.id
            if not self._legal_mask >> card_id & 1:
                raise self._refused(action)
            self._held[self._turn] ^= BITS[card_id]
            plays = self._plays
            plays.append(card_id)
            suit = SUIT_OF[card_id]
            if suit == _SPADES:
                self._broken = True
            if self._led < 0:  # that card led the trick
                self._led = suit
            if len(plays) & 3:  # the trick goes on
                self._turn = (self._turn + 1) & 3
                self._allow()
                return None
            # the trick is complete: its winner leads the next one
            self._leader = leader = trick_winner_seat(self._leader, plays[-4:])
            self._tricks += _TRICK[leader]
            self._led = -1
            if len(plays) == self._hand.size:  # that was the last trick
                return self._next_hand()
        elif action.__class__ is Bid:
            if not self._bid(action):
                return None
            leader = self._leader  # the bidding is over: the first trick is to be led
        else:
            raise UsageError(f"an action is a Card or a Bid, not {action!r}")
        self._turn = leader
        self._allow()
        return None

    def _refused(self, action: Card | Bid, seat: Seat | None = None) -> IllegalAction:
        why = self.refusal(action, seat) or Refusal("not-playing")
        to_act = self._seat_to_act()
        if seat is None and to_act >= 0:
            seat = SEATS[to_act]
        return IllegalAction(why, seat)

    def _bid(self, bid: Bid) -> bool:
        """Record ``bid``; True when it ends the bidding (the first trick is to be led)."""
        if self._phase is not BIDDING or (bid.blind and not self._hand.rules.blind_nil):
            raise self._refused(bid)
        self._bids = bids = self._bids + (bid,)
        if len(bids) < 4:
            return False
        self._phase = PLAYING
        self._leader = self._hand.first_leader
        return True

    def _next_hand(self) -> None:
        """Score the hand just completed and go on to the next one (or to the end)."""
        hand = self._hand
        rules = hand.rules
        index = len(hand.past)
        tricks = _unpack_tricks(self._tricks)
        teams = score_hand(
            bids_by_seat(self._bids, dealer_of_hand(index)), tricks, hand.bags, rules
        )
        scores = (hand.scores[0] + teams[0].points, hand.scores[1] + teams[1].points)
        plays = tuple(self._plays)
        result = HandResult(index, hand.cards, self._bids, plays, tricks, teams, scores)
        past = hand.past + (result,)
        bags = (teams[0].bags_after, teams[1].bags_after)
        if game_winner(scores, rules) is not None:
            phase, cards = OVER, (0, 0, 0, 0)
        elif hand.deal is None:
            phase, cards = DEALING, (0, 0, 0, 0)  # deal_cards() gives the next hand
        else:
            phase, cards = BIDDING, deal_hand(hand.deal, index + 1, rules.deck_mask)
        self._begin(_new_hand(rules, hand.deal, past, cards, scores, bags), phase)

    def _deal(self, hands: Hands) -> None:
        """Give the cards of the next hand (four hands by seat) to a game without a deal number."""
        hand = self._hand
        if self._phase is not DEALING:
            raise IllegalAction(Refusal("not-dealing"))
        rules = hand.rules
        cards = check_hands(hands, rules.deck_mask)
        self._begin(_new_hand(rules, None, hand.past, cards, hand.scores, hand.bags), BIDDING)

    def _copy(self) -> GameState:
        """A state with this one's data (shared but for the two lists: all else is
        immutable), for :meth:`_advance` or :meth:`_deal` to move on."""
        new = GameState.__new__(GameState)
        new._hand = self._hand
        new._phase = self._phase
        new._bids = self._bids
        new._held = self._held.copy()
        new._plays = self._plays.copy()
        new._leader = self._leader
        new._turn = self._turn
        new._led = self._led
        new._tricks = self._tricks
        new._broken = self._broken
        new._legal_mask = self._legal_mask
        new._legal = self._legal
        return new

    # --- values ---------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self._hand, self._phase, self._bids, tuple(self._plays), self._leader, self._tricks,
        )

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} hand {self.hand_index + 1} {self.phase.value} "
            f"to_act={self.to_act} scores={self.scores} bags={self.bags}>"
        )



    def apply(self, action: Card | Bid, seat: Seat | None = None) -> GameState:
        """The state after ``action`` by the seat to act; raise :class:`IllegalAction`.

        Pass ``seat`` to check that it is that seat's turn.  ``self`` is not changed.
        """
        new = self._copy()
        new._advance(action, seat)
        return new

    def deal_cards(self, hands: Hands) -> GameState:
        """Give the cards of the next hand (four hands by seat, CardSets or masks) to a game
        without a deal number."""
        new = self._copy()
        new._deal(hands)
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())
