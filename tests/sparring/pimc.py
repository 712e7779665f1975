"""A sparring partner: a plain perfect-information Monte Carlo (PIMC) Spades bot.

The kind of bot used as a public reference point, written apart from the expert so that
it shares none of the expert's sampling, play-out policy or match model:

- **Deals.** The unseen cards are dealt uniformly at random among the deals that agree
  with everything the seat saw: its own hand, the cards played, how many cards each seat
  still holds, the suits a seat showed it lacks by not following (and, for a spade led
  before spades were broken, every side suit).  The bids are *not* used as evidence.
  The deal is exactly uniform: how many cards of each suit go to each seat is drawn in
  proportion to the number of deals with that split (a small dynamic programme over the
  suits), then each suit's cards are shuffled into those places.
- **Play-outs.** From a deal, the rest of the hand is played with random legal cards
  for every seat (one exception: a seat whose Nil is still alive plays its highest card
  that does not win the trick so far, its lowest when leading).
- **Value.** The tricks at the end of a play-out are scored with the engine's scoring
  (:func:`spades_core.scoring.score_hand`: Nil, bags, the bag penalty) and the scores
  after the hand are turned into a match equity (:func:`match_equity`: a logistic of
  the lead, bags counted, scaled by how many hands are probably left; a finished game
  is worth 1 or 0).
- **A card.** Each distinct legal card (cards of a suit with no unseen card between them
  play alike) is tried in ``worlds`` deals × ``playouts`` play-outs (the same deals and
  the same random numbers for every card); the best mean equity wins.
- **A bid.** ``worlds`` × ``playouts`` random play-outs of the whole hand give a
  distribution of tricks; each number bid from 1 to 13 is scored against it (the seats
  that have not bid yet are given their mean tricks in that deal) and the best mean
  equity wins.  Nil is tried with its own play-outs (the seat ducking) and bid when it
  succeeds in at least ``nil_success`` of them and its mean equity is higher.  Never
  Blind Nil.

Deterministic: a fixed amount of work (never the clock), and every random number from a
``random.Random`` seeded by :func:`spades_core.bots.base.view_seed`, a function of the
view alone.  The bot reads nothing but the :class:`~spades_core.views.View` it is given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from spades_core.bids import NIL, Bid
from spades_core.bots.base import view_seed
from spades_core.cards import CARDS, SPADES_MASK, SUIT_MASKS, SUIT_OF, Card
from spades_core.rules import Rules, game_winner
from spades_core.scoring import score_hand
from spades_core.views import View

_PLAY_SALT = 0x5AA1
_BID_SALT = 0x5AA2
_NOT_SPADES = ~SPADES_MASK
_NOBODY = 4  # a pseudo-seat for unseen cards that nobody holds (a lesson's partial position)

World = tuple[int, int, int, int]
Tricks = tuple[int, int, int, int]
Bids = tuple[Bid, Bid, Bid, Bid]


def _beats(card: int) -> int:
    """The cards that beat ``card`` when it is winning a trick: higher cards of its suit,
    and every spade if it is not a spade."""
    suit = SUIT_OF[card]
    higher = SUIT_MASKS[suit] & ~((2 << card) - 1)
    return higher if suit == 3 else higher | SPADES_MASK


BEATS: tuple[int, ...] = tuple(_beats(card) for card in range(54))
RANK: tuple[int, ...] = tuple(card % 13 if card < 52 else card - 39 for card in range(54))


# --- match equity ---------------------------------------------------------------------


def match_equity(rules: Rules, team: int, scores: tuple[int, int], bags: tuple[int, int]) -> float:
    """About the chance that ``team`` wins the match from ``scores``/``bags`` at the end
    of a hand (plus a tie-break of a millionth per point of lead)."""
    mine, theirs = scores[team], scores[1 - team]
    tie_break = (mine - theirs) * 1e-6
    winner = game_winner(scores, rules)
    if winner is not None:
        return (1.0 if winner == team else 0.0) + tie_break
    hands_left = max(1.0, (rules.target - max(mine, theirs)) / 70.0)
    bag_cost = rules.bag_penalty / rules.bag_limit
    lead = (mine - theirs) - bag_cost * (bags[team] - bags[1 - team])
    if rules.floor is not None:  # a team close to the floor may lose at the next hand
        for side, sign in ((team, -1.0), (1 - team, 1.0)):
            room = scores[side] - rules.floor
            if room < 100:
                lead += sign * (100 - room) * 0.5
    z = lead / (55.0 * math.sqrt(hands_left))
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z)))) + tie_break


class _Values:
    """Equities of hand outcomes for one decision, memoised by bids and tricks."""

    __slots__ = ("rules", "team", "scores", "bags", "memos")

    def __init__(self, view: View) -> None:
        self.rules = view.rules
        self.team = int(view.seat) & 1
        self.scores = view.scores
        self.bags = view.bags
        self.memos: dict[Bids, dict[Tricks, float]] = {}

    def table(self, bids: Bids) -> dict[Tricks, float]:
        """The memo of outcomes under ``bids`` (to pass to :meth:`value`)."""
        found = self.memos.get(bids)
        if found is None:
            found = self.memos[bids] = {}
        return found

    def value(self, bids: Bids, tricks: Tricks, memo: dict[Tricks, float]) -> float:
        found = memo.get(tricks)
        if found is None:
            teams = score_hand(bids, tricks, self.bags, self.rules)
            scores = (self.scores[0] + teams[0].points, self.scores[1] + teams[1].points)
            found = memo[tricks] = match_equity(
                self.rules, self.team, scores, (teams[0].bags_after, teams[1].bags_after)
            )
        return found


# --- dealing the unseen cards ---------------------------------------------------------


def _splits(total: int, places: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` cards among ``places`` places."""
    if places == 1:
        return [(total,)]
    found: list[tuple[int, ...]] = []
    for first in range(total + 1):
        for rest in _splits(total - first, places - 1):
            found.append((first, *rest))
    return found


_FACTORIAL = tuple(math.factorial(n) for n in range(55))


def _multinomial(parts: Sequence[int]) -> int:
    found = _FACTORIAL[sum(parts)]
    for n in parts:
        found //= _FACTORIAL[n]
    return found


Choices = list[tuple[int, tuple[int, ...], tuple[int, ...]]]


class Dealer:
    """Uniform random deals of a view's unseen cards among the other seats.

    A suit that some seat has shown it lacks is *tight*; the others are *free*.  The
    number of cards of each tight suit per seat is drawn in proportion to the number of
    whole deals with those numbers (the free cards fill the room left in every way, a
    multinomial count), then each tight suit's cards, and the free cards, are shuffled
    into their places.  Every consistent deal is equally likely.
    """

    def __init__(self, view: View) -> None:
        seat = int(view.seat)
        own = view.hand.mask if view.hand is not None else 0
        unseen = view.unseen_mask()
        played = [0, 0, 0, 0]
        shown = list(view.voids)
        inferred = [0, 0, 0, 0]
        broken = False
        for position, (who, card) in enumerate(view.plays):
            player = int(who)
            played[player] += 1
            if SUIT_OF[card.id] == 3:
                if position & 3 == 0 and not broken:
                    inferred[player] = 0b0111  # led a spade unbroken: held only spades
                broken = True
        start = own.bit_count() + played[seat]
        counts = [0, 0, 0, 0, 0]
        for player in range(4):
            if player != seat:
                counts[player] = max(0, start - played[player])
        total = unseen.bit_count()
        others = [(seat + i) & 3 for i in (1, 2, 3)]
        turn = 0
        while sum(counts) > total:  # uneven hands in a partial position
            player = others[turn % 3]
            turn += 1
            if counts[player]:
                counts[player] -= 1
        counts[_NOBODY] = total - sum(counts)
        self.places = tuple(p for p in (*others, _NOBODY) if counts[p] > 0)
        self.room = tuple(counts[p] for p in self.places)
        self.by_suit = tuple(
            tuple(c for c in range(54) if unseen >> c & 1 and SUIT_OF[c] == suit)
            for suit in range(4)
        )
        # the voids seen, then without the inferred ones, then none (an inconsistent
        # partial position): the first that leaves a deal possible
        for voids in ([shown[i] | inferred[i] for i in range(4)], shown, [0, 0, 0, 0]):
            self._prepare(voids)
            if self._choices(0, self.room)[0]:
                break

    def _prepare(self, voids: Sequence[int]) -> None:
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, Choices]] = {}
        tight = [
            suit for suit in range(4)
            if self.by_suit[suit]
            and any(p != _NOBODY and voids[p] >> suit & 1 for p in self.places)
        ]
        self.tight = tuple(tight)
        self.free = tuple(c for s in range(4) if s not in tight for c in self.by_suit[s])
        options: list[list[tuple[tuple[int, ...], int]]] = []
        for suit in tight:
            allowed = [p == _NOBODY or not voids[p] >> suit & 1 for p in self.places]
            options.append([
                (split, _multinomial(split))
                for split in _splits(len(self.by_suit[suit]), len(self.places))
                if all(n == 0 or allowed[i] for i, n in enumerate(split))
            ])
        self.options = options

    def _choices(self, level: int, room: tuple[int, ...]) -> tuple[int, Choices]:
        """The deals of the tight suits from ``level`` on (and of the free cards) into
        ``room``: their number, and per split of this level's suit that leaves a deal
        possible, its number of deals, the split and the room left."""
        if level == len(self.tight):
            return _multinomial(room), []
        key = (level, room)
        found = self.memo.get(key)
        if found is None:
            total = 0
            choices: Choices = []
            for split, multinomial in self.options[level]:
                left = tuple([r - n for r, n in zip(room, split, strict=True)])
                if min(left) >= 0:
                    weight = multinomial * self._choices(level + 1, left)[0]
                    if weight:
                        total += weight
                        choices.append((weight, split, left))
            found = self.memo[key] = (total, choices)
        return found

    def deal(self, rng: random.Random) -> World:
        """One deal, uniform among the consistent ones: the hands of all four seats
        (the viewer's is left empty: the caller knows it)."""
        hands = [0, 0, 0, 0, 0]
        room = self.room
        for level, suit in enumerate(self.tight):
            total, choices = self._choices(level, room)
            pick = rng.randrange(total) if total > 1 else 0
            chosen, room = choices[-1][1], choices[-1][2]
            for weight, split, left in choices:
                if pick < weight:
                    chosen, room = split, left
                    break
                pick -= weight
            self._fill(hands, list(self.by_suit[suit]), chosen, rng)
        self._fill(hands, list(self.free), room, rng)
        return (hands[0], hands[1], hands[2], hands[3])

    def _fill(
        self, hands: list[int], cards: list[int], counts: tuple[int, ...], rng: random.Random
    ) -> None:
        rng.shuffle(cards)
        start = 0
        for place, n in zip(self.places, counts, strict=True):
            for card in cards[start:start + n]:
                hands[place] |= 1 << card
            start += n


# --- play-outs ------------------------------------------------------------------------


def _duck(legal: int, count: int, win_card: int) -> int:
    """A Nil bidder's card: the highest that loses the trick so far (the lowest when
    leading, or when every card wins)."""
    if count:
        losers = legal & ~BEATS[win_card]
        if losers:
            legal = losers
            best, best_rank = -1, -99
            for suit in (0, 1, 2, 3):
                bits = legal & SUIT_MASKS[suit]
                if bits:
                    card = bits.bit_length() - 1
                    if RANK[card] > best_rank:
                        best, best_rank = card, RANK[card]
            return best
    best, best_rank = -1, 99
    for suit in (0, 1, 2, 3):
        bits = legal & SUIT_MASKS[suit]
        if bits:
            card = (bits & -bits).bit_length() - 1
            if RANK[card] < best_rank:
                best, best_rank = card, RANK[card]
    return best


def play_out(
    hands: Sequence[int], leader: int, trick: Sequence[int], tricks: Sequence[int],
    broken: bool, nil_alive: Sequence[bool], rnd: random.Random, first: int = -1,
) -> Tricks:
    """Play the rest of the hand with random legal cards; the tricks taken, by seat.

    ``hands``: the cards each seat holds; ``trick``: the card ids of the trick in
    progress, led by ``leader``; ``first``: the card the seat to act plays now (if any).
    Stops when the seat to act holds nothing."""
    held = [hands[0], hands[1], hands[2], hands[3]]
    taken = [tricks[0], tricks[1], tricks[2], tricks[3]]
    alive = [nil_alive[s] and not taken[s] for s in range(4)]
    nils = alive[0] or alive[1] or alive[2] or alive[3]
    random_ = rnd.random
    count = len(trick)
    led_mask = SUIT_MASKS[SUIT_OF[trick[0]]] if count else 0
    win_card = win_seat = -1
    for position, card in enumerate(trick):
        if position == 0 or BEATS[win_card] >> card & 1:
            win_card, win_seat = card, (leader + position) & 3
    seat = (leader + count) & 3
    card = first
    while True:
        hand = held[seat]
        if not hand:
            break
        if card < 0:
            if count:
                legal = hand & led_mask or hand
            elif broken:
                legal = hand
            else:
                legal = hand & _NOT_SPADES or hand
            if legal & (legal - 1) == 0:
                card = legal.bit_length() - 1
            elif nils and alive[seat]:
                card = _duck(legal, count, win_card)
            else:
                skip = int(random_() * legal.bit_count())
                while skip:
                    legal &= legal - 1
                    skip -= 1
                card = (legal & -legal).bit_length() - 1
        held[seat] = hand ^ (1 << card)
        if card >= 39:
            broken = True
        if count == 0:
            led_mask = SUIT_MASKS[SUIT_OF[card]]
            win_card, win_seat = card, seat
            count = 1
            seat = (seat + 1) & 3
        else:
            if BEATS[win_card] >> card & 1:
                win_card, win_seat = card, seat
            count += 1
            if count == 4:
                taken[win_seat] += 1
                if nils and alive[win_seat]:
                    alive[win_seat] = False
                    nils = alive[0] or alive[1] or alive[2] or alive[3]
                count = 0
                seat = win_seat
            else:
                seat = (seat + 1) & 3
        card = -1
    return (taken[0], taken[1], taken[2], taken[3])


def distinct_cards(legal: int, breaks: int) -> list[int]:
    """The lowest card of each run of ``legal`` cards of a suit with no card of
    ``breaks`` (unseen, or in the trick) between them: such cards play alike."""
    chosen: list[int] = []
    previous = -1
    for card in range(54):
        if not legal >> card & 1:
            continue
        if previous >= 0 and SUIT_OF[card] == SUIT_OF[previous] and not (
            breaks & ((1 << card) - (2 << previous))
        ):
            previous = card
            continue
        chosen.append(card)
        previous = card
    return chosen


# --- the bot --------------------------------------------------------------------------


class PimcBot:
    """PIMC with random play-outs, scored by match equity (see the module)."""

    worlds = 30
    playouts = 30
    nil_success = 0.5  # a Nil needs to succeed in at least this share of its play-outs

    def __init__(self, worlds: int | None = None, playouts: int | None = None) -> None:
        self.worlds = worlds if worlds is not None else type(self).worlds
        self.playouts = playouts if playouts is not None else type(self).playouts

    def blind_nil(self, view: View) -> bool:
        return False  # never Blind Nil

    # --- card play -------------------------------------------------------------------

    def play(self, view: View) -> Card:
        legal_cards = view.legal_plays
        if len(legal_cards) == 1 or view.hand is None:
            return legal_cards[0]
        legal = 0
        for card in legal_cards:
            legal |= card.bit
        trick = tuple(card.id for _, card in view.trick)
        in_trick = 0
        for card_id in trick:
            in_trick |= 1 << card_id
        options = distinct_cards(legal, view.unseen_mask() | in_trick)
        if len(options) == 1:
            return CARDS[options[0]]
        seed = view_seed(view, _PLAY_SALT)
        rng = random.Random(seed)
        dealer = Dealer(view)
        seat = int(view.seat)
        own = view.hand.mask
        bids = tuple(bid if bid is not None else NIL for bid in view.bids)
        by_seat: Bids = (bids[0], bids[1], bids[2], bids[3])
        nil_alive = [b.is_nil for b in by_seat]
        values = _Values(view)
        leader = int(view.leader) if view.leader is not None else seat
        tricks = view.tricks_won
        broken = view.spades_broken
        memo = values.table(by_seat)
        totals = [0.0] * len(options)
        rnd = random.Random()
        for w in range(self.worlds):
            dealt = list(dealer.deal(rng))
            dealt[seat] = own
            world = (dealt[0], dealt[1], dealt[2], dealt[3])
            for m in range(self.playouts):
                stream = seed ^ (w * 7919 + m) << 1
                for index, option in enumerate(options):
                    rnd.seed(stream)  # the same random numbers for every card
                    taken = play_out(world, leader, trick, tricks, broken, nil_alive, rnd, option)
                    totals[index] += values.value(by_seat, taken, memo)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return CARDS[options[best]]

    # --- bidding ---------------------------------------------------------------------

    def bid(self, view: View) -> Bid:
        if view.hand is None:
            raise ValueError("the PIMC bot bids after looking at its cards")
        seat = int(view.seat)
        partner = (seat + 2) & 3
        own = view.hand.mask
        rng = random.Random(view_seed(view, _BID_SALT))
        dealer = Dealer(view)
        leader = (int(view.dealer) + 1) & 3
        values = _Values(view)
        known_nil = [b is not None and b.is_nil for b in view.bids]
        mine_nil = list(known_nil)
        mine_nil[seat] = True
        numbers = [Bid(n) for n in range(1, 14)]
        totals = [0.0] * 13
        nil_total = 0.0
        nil_made = 0
        samples = 0
        for _ in range(self.worlds):
            dealt = list(dealer.deal(rng))
            dealt[seat] = own
            world = (dealt[0], dealt[1], dealt[2], dealt[3])
            outcomes = [
                play_out(world, leader, (), (0, 0, 0, 0), False, known_nil, rng)
                for _ in range(self.playouts)
            ]
            guessed = list(view.bids)
            for player in range(4):
                if guessed[player] is None and player != seat:
                    mean = sum(t[player] for t in outcomes) / len(outcomes)
                    guessed[player] = Bid(max(1, min(13, int(mean + 0.5))))
            for number, bid in enumerate(numbers):
                guessed[seat] = bid
                bids = _as_bids(guessed)
                memo = values.table(bids)
                for taken in outcomes:
                    totals[number] += values.value(bids, taken, memo)
            guessed[seat] = NIL
            bids = _as_bids(guessed)
            memo = values.table(bids)
            for _ in range(self.playouts):
                taken = play_out(world, leader, (), (0, 0, 0, 0), False, mine_nil, rng)
                nil_total += values.value(bids, taken, memo)
                nil_made += taken[seat] == 0
            samples += len(outcomes)
        best = max(range(13), key=lambda n: (totals[n], -n))
        partner_bid = view.bids[partner]
        partner_nil = partner_bid is not None and partner_bid.is_nil
        if (
            not partner_nil
            and samples
            and nil_made >= self.nil_success * samples
            and nil_total > totals[best]
        ):
            return NIL
        return numbers[best]


def _as_bids(bids: Sequence[Bid | None]) -> Bids:
    found = [bid if bid is not None else NIL for bid in bids]
    return (found[0], found[1], found[2], found[3])


class Pimc30x30(PimcBot):
    worlds = 30
    playouts = 30


class Pimc10x10(PimcBot):
    worlds = 10
    playouts = 10


class Pimc4x4(PimcBot):
    """For quick tests only."""

    worlds = 4
    playouts = 4
