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

from .bids import ALL_BIDS, Bid
from .cards import BITS, CARDS, SPADES_MASK, SUIT_OF, Card, CardSet, cards_of_mask
from .deal import check_deal_number, deal_hand
from .errors import IllegalAction, Refusal
from .rules import DEFAULT_RULES, Rules, game_winner, legal_play_mask, refusal, trick_winner
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


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: what happened and how it scored."""

    index: int
    cards: tuple[int, int, int, int]  # the masks dealt, by seat
    bids: tuple[Bid, ...]  # in bidding order, from the dealer's left
    plays: tuple[int, ...]  # card ids in play order
    tricks: tuple[int, int, int, int]  # by seat
    teams: tuple[TeamScore, TeamScore]  # NS, EW
    scores: tuple[int, int]  # running totals after the hand

    @property
    def dealer(self) -> Seat:
        return dealer_of_hand(self.index)

    @property
    def bids_by_seat(self) -> tuple[Bid, Bid, Bid, Bid]:
        return bids_by_seat(self.bids, self.dealer)

    @property
    def bags(self) -> tuple[int, int]:
        return (self.teams[0].bags_after, self.teams[1].bags_after)


def bids_by_seat(bids: Sequence[Bid], dealer: int) -> tuple[Bid, Bid, Bid, Bid]:
    """Four bids in bidding order (from the dealer's left) rearranged by seat N, E, S, W."""
    north = (3 - dealer) & 3  # North's place in the bidding order; the others follow
    return (bids[north], bids[(north + 1) & 3], bids[(north + 2) & 3], bids[(north + 3) & 3])


def check_hands(hands: Sequence[int], deck_mask: int) -> tuple[int, int, int, int]:
    """Check that four masks deal the whole deck, 13 cards each; return them."""
    if len(hands) != 4:
        raise ValueError("a deal has four hands")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & ~deck_mask:
            raise ValueError(f"{CardSet(hand & ~deck_mask)} is not in this deck")
        if hand & seen:
            raise ValueError(f"{CardSet(hand & seen)} is dealt twice")
        if hand.bit_count() != 13:
            raise ValueError(f"{SEATS[seat]} is dealt {hand.bit_count()} cards, not 13")
        seen |= hand
    return (hands[0], hands[1], hands[2], hands[3])


@dataclass(slots=True, unsafe_hash=True)
class _Hand:
    """What changes at most a few times a hand, kept apart so that a play copies little.

    A value, never changed once built, hence hashable.  Not ``frozen=True`` only for
    speed: a frozen dataclass sets each field through ``object.__setattr__``, and one is
    built at every bid.
    """

    rules: Rules
    deal: int | None
    past: tuple[HandResult, ...]
    cards: tuple[int, int, int, int]  # each seat's cards at the start (dealt, or a position's)
    bids: tuple[Bid, ...]
    scores: tuple[int, int]
    bags: tuple[int, int]
    phase: Phase
    all_cards: int  # the union of ``cards``: the hand is over when all are played
    broken: bool = False  # spades broken before the position started (lessons)
    opening_leader: int = -1  # a position's leader; -1: the dealer's left, as in a game

    @property
    def first_leader(self) -> int:
        """The seat leading the first trick recorded in this hand."""
        if self.opening_leader >= 0:
            return self.opening_leader
        return (dealer_of_hand(len(self.past)) + 1) & 3

    def with_bids(self, bids: tuple[Bid, ...], phase: Phase) -> _Hand:
        return _Hand(
            self.rules, self.deal, self.past, self.cards, bids, self.scores, self.bags,
            phase, self.all_cards, self.broken, self.opening_leader,
        )


def _legal_mask(hand: _Hand, plays: tuple[int, ...], played: int, leader: int) -> int:
    """The cards the seat to act may play, by :func:`rules.legal_play_mask`, in a hand
    where ``plays`` (``played`` as a mask) have been made and ``leader`` leads the trick."""
    count = len(plays) & 3
    return legal_play_mask(
        hand.cards[(leader + count) & 3] & ~played,
        SUIT_OF[plays[-count]] if count else -1,
        hand.broken or played & SPADES_MASK != 0,
    )


_NOBODY = -1


class GameState:
    """One point of a game.  Build with :meth:`new` (or :meth:`position` for lessons)."""

    __slots__ = ("_hand", "_played", "_plays", "_leader", "_tricks", "_legal")
    _hand: _Hand
    _played: int  # mask of the cards played this hand
    _plays: tuple[int, ...]  # this hand's card ids in play order
    _leader: int  # the seat leading the current trick; -1 while bidding
    _tricks: tuple[int, int, int, int]  # tricks won this hand, by seat
    _legal: int  # legal_play_mask(), worked out as the state is made: the next apply needs it

    # --- construction ------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules = DEFAULT_RULES,
        deal: int | None = None,
        cards: Sequence[int] | None = None,
    ) -> GameState:
        """A new game.  ``deal`` deals every hand; ``cards`` (four masks) gives the first."""
        if deal is not None:
            check_deal_number(deal)
            dealt = deal_hand(deal, 0, rules.deck_mask)
            if cards is not None and check_hands(cards, rules.deck_mask) != dealt:
                raise ValueError(f"these are not the cards of deal {deal}")
        elif cards is None:
            raise ValueError("a new game needs a deal number or the cards")
        else:
            dealt = check_hands(cards, rules.deck_mask)
        return cls._start(
            _Hand(rules, deal, (), dealt, (), (0, 0), (0, 0), BIDDING, rules.deck_mask)
        )

    @classmethod
    def position(
        cls,
        rules: Rules,
        hands: Sequence[int],
        *,
        leader: Seat,
        bids: Sequence[Bid],
        trick: Sequence[Card] = (),
        tricks: Sequence[int] = (0, 0, 0, 0),
        spades_broken: bool = False,
        scores: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
    ) -> GameState:
        """A partial position during the play, for lessons: hands may hold any cards.

        ``bids`` are by seat (N, E, S, W); ``hands`` are what each seat still holds;
        ``trick`` is the current trick so far, led by ``leader``.  The hand ends when
        every card held has been played.  It is scored as the first hand (East deals).
        """
        if len(bids) != 4 or len(hands) != 4 or len(tricks) != 4:
            raise ValueError("a position has four hands, four bids and four trick counts")
        if len(trick) > 3:
            raise ValueError("a trick in progress has at most three cards")
        union = 0
        for part in (*hands, *(card.bit for card in trick)):
            if part & union or part & ~rules.deck_mask:
                raise ValueError("a card is held twice, or is not in this deck")
            union |= part
        trick_mask = union & ~(hands[0] | hands[1] | hands[2] | hands[3])
        dealer = dealer_of_hand(0)
        hand = _Hand(
            rules, None, (), (hands[0], hands[1], hands[2], hands[3]),
            tuple(bids[(dealer + 1 + i) & 3] for i in range(4)), scores, bags,
            PLAYING, union, spades_broken, int(leader),
        )
        state = cls()
        state._hand = hand
        state._played = trick_mask
        state._plays = plays = tuple(card.id for card in trick)
        state._leader = int(leader)
        state._tricks = (tricks[0], tricks[1], tricks[2], tricks[3])
        state._legal = _legal_mask(hand, plays, trick_mask, int(leader))
        return state

    @classmethod
    def _start(cls, hand: _Hand) -> GameState:
        """The state at the start of ``hand``: bidding, or waiting (dealing, over)."""
        state = cls()
        state._hand = hand
        state._played = 0
        state._plays = ()
        state._leader = _NOBODY
        state._tricks = (0, 0, 0, 0)
        state._legal = 0  # no card may be played before the bidding is done
        return state

    # --- reading -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._hand.rules

    @property
    def deal(self) -> int | None:
        return self._hand.deal

    @property
    def phase(self) -> Phase:
        return self._hand.phase

    @property
    def to_act(self) -> Seat | None:
        """The seat whose turn it is, or None (game over, or waiting for the cards)."""
        seat = self._seat_to_act()
        return SEATS[seat] if seat >= 0 else None

    def _seat_to_act(self) -> int:
        hand = self._hand
        if hand.phase is PLAYING:
            return (self._leader + len(self._plays)) & 3
        if hand.phase is BIDDING:
            return (dealer_of_hand(len(hand.past)) + 1 + len(hand.bids)) & 3
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
    def bids(self) -> tuple[Bid, ...]:
        """This hand's bids so far, in bidding order (from the dealer's left)."""
        return self._hand.bids

    def bid_of(self, seat: Seat) -> Bid | None:
        """``seat``'s bid this hand, or None if it has not bid yet."""
        index = (seat - self.dealer - 1) & 3
        bids = self._hand.bids
        return bids[index] if index < len(bids) else None

    @property
    def plays(self) -> tuple[Card, ...]:
        """This hand's cards in play order."""
        return tuple(CARDS[i] for i in self._plays)

    @property
    def play_ids(self) -> tuple[int, ...]:
        return self._plays

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
        seated: list[tuple[Seat, Card]] = []
        leader = self._hand.first_leader
        plays = self._plays
        for start in range(0, len(plays), 4):
            trick = plays[start:start + 4]
            seated.extend((SEATS[(leader + i) & 3], CARDS[c]) for i, c in enumerate(trick))
            if len(trick) == 4:
                leader = (leader + trick_winner(trick)) & 3
        return tuple(seated)

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
        return self._tricks

    @property
    def spades_broken(self) -> bool:
        """A spade has been played this hand (so a spade may be led)."""
        return bool(self._played & SPADES_MASK) or self._hand.broken

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
        if hand.phase is not OVER:
            return None
        winner = game_winner(hand.scores, hand.rules)
        return TEAMS[winner] if winner is not None else None

    def held_mask(self, seat: int) -> int:
        """The cards ``seat`` still holds, as a mask."""
        return self._hand.cards[seat] & ~self._played

    def hand_of(self, seat: Seat) -> CardSet:
        """The cards ``seat`` still holds."""
        return CardSet(self.held_mask(seat))

    def dealt(self, seat: Seat) -> CardSet:
        """The cards ``seat`` held when this hand (or position) began."""
        return CardSet(self._hand.cards[seat])

    @property
    def dealt_masks(self) -> tuple[int, int, int, int]:
        return self._hand.cards

    @property
    def played_mask(self) -> int:
        """The cards played so far this hand."""
        return self._played

    @property
    def led_suit(self) -> int:
        """The suit led to the current trick, -1 when a card is to be led."""
        count = len(self._plays) & 3
        return SUIT_OF[self._plays[-count]] if count else -1

    # --- what may be done -------------------------------------------------------------

    def legal_play_mask(self) -> int:
        """The cards the seat to act may play, as a mask (0 outside the play)."""
        return self._legal

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to act may play, in id order (empty outside the play)."""
        return cards_of_mask(self._legal)

    def legal_bids(self) -> tuple[Bid, ...]:
        """The bids the seat to act may make (empty outside the bidding)."""
        hand = self._hand
        if hand.phase is not BIDDING:
            return ()
        return ALL_BIDS if hand.rules.blind_nil else ALL_BIDS[:-1]

    def refusal(self, action: Card | Bid, seat: Seat | None = None) -> Refusal | None:
        """Why ``action`` (by ``seat``, by default the seat to act) is refused now, or None."""
        phase = self._hand.phase
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

    def apply(self, action: Card | Bid, seat: Seat | None = None) -> GameState:
        """The state after ``action`` by the seat to act; raise :class:`IllegalAction`.

        Pass ``seat`` to check that it is that seat's turn.  ``self`` is not changed.
        """
        if seat is not None and seat != self._seat_to_act():
            raise self._refused(action, seat)
        if action.__class__ is not Card:
            if action.__class__ is Bid:
                return self._bid(action)
            raise TypeError(f"an action is a Card or a Bid, not {action!r}")
        # play a card: the hot path of every search, so kept short
        card_id = action.id
        if not self._legal & BITS[card_id]:
            raise self._refused(action)
        new = GameState()  # an empty state (the class has no __init__), filled in here
        new._hand = hand = self._hand
        new._played = played = self._played | BITS[card_id]
        new._plays = plays = self._plays + (card_id,)
        leader = self._leader
        tricks = self._tricks
        count = len(plays) & 3  # the cards of the trick in progress
        if not count:  # the trick is complete: its winner leads the next one
            leader = (leader + trick_winner(plays[-4:])) & 3
            won = list(tricks)
            won[leader] += 1
            tricks = (won[0], won[1], won[2], won[3])
        new._leader = leader
        new._tricks = tricks
        if not count and played == hand.all_cards:  # the last trick is complete
            return new._next_hand()
        new._legal = _legal_mask(hand, plays, played, leader)
        return new

    def _refused(self, action: Card | Bid, seat: Seat | None = None) -> IllegalAction:
        why = self.refusal(action, seat) or Refusal("not-playing")
        to_act = self._seat_to_act()
        if seat is None and to_act >= 0:
            seat = SEATS[to_act]
        return IllegalAction(why, seat)

    def _bid(self, bid: Bid) -> GameState:
        hand = self._hand
        if hand.phase is not BIDDING or (bid.blind and not hand.rules.blind_nil):
            raise self._refused(bid)
        bids = hand.bids + (bid,)
        if len(bids) < 4:
            return GameState._start(hand.with_bids(bids, BIDDING))
        hand = hand.with_bids(bids, PLAYING)
        new = GameState._start(hand)
        new._leader = leader = hand.first_leader
        new._legal = _legal_mask(hand, (), 0, leader)
        return new

    def _next_hand(self) -> GameState:
        """Score the hand just completed and go on to the next one (or to the end)."""
        hand = self._hand
        rules = hand.rules
        index = len(hand.past)
        teams = score_hand(
            bids_by_seat(hand.bids, dealer_of_hand(index)), self._tricks, hand.bags, rules
        )
        scores = (hand.scores[0] + teams[0].points, hand.scores[1] + teams[1].points)
        result = HandResult(index, hand.cards, hand.bids, self._plays, self._tricks, teams, scores)
        past = hand.past + (result,)
        bags = (teams[0].bags_after, teams[1].bags_after)
        if game_winner(scores, rules) is not None:
            phase, cards = OVER, (0, 0, 0, 0)
        elif hand.deal is None:
            phase, cards = DEALING, (0, 0, 0, 0)  # deal_cards() gives the next hand
        else:
            phase, cards = BIDDING, deal_hand(hand.deal, index + 1, rules.deck_mask)
        return GameState._start(
            _Hand(rules, hand.deal, past, cards, (), scores, bags, phase, rules.deck_mask)
        )

    def deal_cards(self, hands: Sequence[int]) -> GameState:
        """Give the cards of the next hand (four masks) to a game without a deal number."""
        hand = self._hand
        if hand.phase is not DEALING:
            raise IllegalAction(Refusal("not-dealing"))
        rules = hand.rules
        cards = check_hands(hands, rules.deck_mask)
        return GameState._start(
            _Hand(rules, None, hand.past, cards, (), hand.scores, hand.bags, BIDDING,
                  rules.deck_mask)
        )

    # --- values ---------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (self._hand, self._plays, self._leader, self._tricks, self._played)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"<GameState hand {self.hand_index + 1} {self.phase.value} "
            f"to_act={self.to_act} scores={self.scores} bags={self.bags}>"
        )
