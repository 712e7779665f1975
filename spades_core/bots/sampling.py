"""Imagining the hidden hands: deals of the unseen cards consistent with a seat's view.

:func:`knowledge` reads from a :class:`~spades_core.views.View` what the seat knows:
the cards it has not seen, how many cards each other seat still holds, and the suits each
has shown it lacks (by not following suit, or by leading a spade before spades were
broken, which only a hand of spades may do).  :func:`deal_worlds` deals the unseen cards
at random under those hard constraints (never a card in a suit its holder has shown it
lacks), then weighs each deal by how well it fits the bids made (soft evidence: a seat
that bid 5 probably holds more than one honour, a Nil bidder few high cards) and keeps a
weighted resample.  All randomness comes from the :class:`~spades_core.deal.SplitMix64`
passed in; every loop runs over tuples and ranges, never over sets.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ..bids import Bid
from ..cards import SUIT_OF, ids_of_mask
from ..deal import SplitMix64
from ..views import View
from .handeval import estimate_tricks, nil_risk

_NOT_SPADES = 0b0111

World = tuple[int, int, int, int]  # the cards each seat holds, by seat


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows about where the unseen cards are."""

    seat: int
    known: tuple[int, int, int, int]  # cards known to be in each seat's hand (its own)
    unseen: int  # the cards to deal (in a partial position, some belong to nobody)
    counts: tuple[int, int, int, int]  # how many unseen cards each seat holds
    voids: tuple[int, int, int, int]  # by seat: bit s = holds no card of suit s
    played: tuple[int, int, int, int]  # the cards each seat has played this hand
    bids: tuple[Bid | None, Bid | None, Bid | None, Bid | None]


def knowledge(view: View) -> Knowledge:
    """What ``view``'s seat knows of the others' hands."""
    seat = int(view.seat)
    own = view.hand.mask if view.hand is not None else 0
    unseen = view.unseen_mask()
    played = [0, 0, 0, 0]
    voids = list(view.voids)
    only_spades = [-1, -1, -1, -1]  # from which play on a seat has shown it holds only spades
    broken = False
    for position, (who, card) in enumerate(view.plays):
        player = int(who)
        played[player] |= card.bit
        suit = SUIT_OF[card.id]
        if suit == 3:
            if position & 3 == 0 and not broken and only_spades[player] < 0:
                only_spades[player] = position  # led a spade before they were broken
            broken = True
        elif only_spades[player] >= 0:
            only_spades[player] = -2  # contradicted: a partial position that began broken
    for player in range(4):
        if only_spades[player] >= 0:
            voids[player] |= _NOT_SPADES
    counts = [0, 0, 0, 0]
    if view.hand is None:
        share = unseen.bit_count() // 4
        counts = [share, share, share, share]
        counts[seat] += unseen.bit_count() - 4 * share
    else:
        start = own.bit_count() + played[seat].bit_count()
        for player in range(4):
            if player != seat:
                counts[player] = max(0, start - played[player].bit_count())
        _fit_counts(counts, seat, unseen.bit_count())
    known = [0, 0, 0, 0]
    known[seat] = own
    return Knowledge(
        seat, (known[0], known[1], known[2], known[3]), unseen,
        (counts[0], counts[1], counts[2], counts[3]),
        (voids[0], voids[1], voids[2], voids[3]),
        (played[0], played[1], played[2], played[3]),
        view.bids,
    )


def _fit_counts(counts: list[int], seat: int, total: int) -> None:
    """Make the other seats' counts add up to at most ``total`` (only a partial position
    where the hands began uneven needs it), one card at a time round the table.  Fewer
    is fine: in a partial position some unseen cards are in nobody's hand."""
    others = [(seat + i) & 3 for i in (1, 2, 3)]
    guard = 0
    while sum(counts) > total and guard < 200:
        guard += 1
        player = others[guard % 3]
        if counts[player] > 0:
            counts[player] -= 1


class Entropy:
    """Small random numbers drawn from a :class:`SplitMix64`, several per 64-bit output."""

    __slots__ = ("generator", "bits", "room")

    def __init__(self, generator: SplitMix64) -> None:
        self.generator = generator
        self.bits = 0
        self.room = 1

    def below(self, bound: int) -> int:
        """A number from 0 to ``bound - 1`` (bias below 2**-24)."""
        if self.room < bound << 24:
            self.bits = self.generator.next()
            self.room = 1 << 64
        self.bits, value = divmod(self.bits, bound)
        self.room //= bound
        return value

    def shuffle(self, items: list[int]) -> None:
        """Fisher–Yates, in place (the same draws as :meth:`below`, inlined)."""
        bits, room = self.bits, self.room
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            if room < bound << 24:
                bits = self.generator.next()
                room = 1 << 64
            bits, j = divmod(bits, bound)
            room //= bound
            items[i], items[j] = items[j], items[i]
        self.bits, self.room = bits, room


class Dealer:
    """Deals worlds for one :class:`Knowledge`; what does not change between deals is
    prepared once.  Suits that some seat has shown it lacks are dealt first, card by card,
    each card to a seat allowed to hold it with a chance in proportion to the room left
    in that seat's hand, keeping Hall's condition (for every group of seats, the cards
    only they may hold fit in their room) so that the deal never runs into a dead end;
    the other suits then fill the room left, shuffled together."""

    __slots__ = ("know", "counts", "takers", "tight", "free", "allowed", "checks")

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        counts = list(know.counts)
        spare = know.unseen.bit_count() - sum(counts)
        counts.append(max(0, spare))  # seat 4: the cards out of play in a partial position
        self.counts = tuple(counts)
        takers = tuple(s for s in range(5) if counts[s] > 0)
        by_suit: list[list[int]] = [[], [], [], []]
        for card in ids_of_mask(know.unseen):
            by_suit[SUIT_OF[card]].append(card)
        allowed = [0, 0, 0, 0]
        everyone = 0
        for player in takers:
            everyone |= 1 << player
            for suit in range(4):
                if player == 4 or not know.voids[player] >> suit & 1:
                    allowed[suit] |= 1 << player
        tight = [s for s in range(4) if by_suit[s] and allowed[s] != everyone]
        tight.sort(key=lambda s: (allowed[s].bit_count(), s))
        self.takers = takers
        self.allowed = tuple(allowed)
        self.tight = tuple((s, tuple(by_suit[s])) for s in tight)
        self.free = tuple(c for s in range(4) if s not in tight for c in by_suit[s])
        checks: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for pattern in range(1, (1 << len(takers)) - 1):  # the proper groups of seats
            seats = tuple(takers[i] for i in range(len(takers)) if pattern >> i & 1)
            group = 0
            for player in seats:
                group |= 1 << player
            suits = tuple(s for s in tight if allowed[s] & ~group == 0)
            if suits:
                checks.append((seats, suits))
        self.checks = tuple(checks)
        left = [len(by_suit[s]) if s in tight else 0 for s in range(4)]
        if not self._feasible(counts, left):  # inconsistent: forget the voids
            self.tight = ()
            self.free = tuple(ids_of_mask(know.unseen))
            self.checks = ()

    def _feasible(self, counts: list[int], left: list[int]) -> bool:
        for seats, suits in self.checks:
            need = 0
            for suit in suits:
                need += left[suit]
            if need:
                room = 0
                for player in seats:
                    room += counts[player]
                if need > room:
                    return False
        return True

    def deal(self, entropy: Entropy) -> World:
        know = self.know
        counts = list(self.counts)
        hands = [*know.known, 0]
        if self.tight:
            left = [0, 0, 0, 0]
            for suit, cards in self.tight:
                left[suit] = len(cards)
            for suit, cards in self.tight:
                mask = self.allowed[suit]
                order = list(cards)
                entropy.shuffle(order)
                for card in order:
                    left[suit] -= 1
                    choices = [p for p in self.takers if mask >> p & 1 and counts[p]]
                    pick = entropy.below(sum(counts[p] for p in choices))
                    first = choices[-1]
                    for player in choices:
                        pick -= counts[player]
                        if pick < 0:
                            first = player
                            break
                    chosen = -1
                    for player in (first, *choices):
                        counts[player] -= 1
                        if self._feasible(counts, left):
                            chosen = player
                            break
                        counts[player] += 1
                    if chosen < 0:  # cannot happen: every step keeps the deal feasible
                        chosen = first
                        counts[chosen] -= 1
                    hands[chosen] |= 1 << card
        free = list(self.free)
        entropy.shuffle(free)
        start = 0
        for player in self.takers:
            mask = 0
            for card in free[start:start + counts[player]]:
                mask |= 1 << card
            hands[player] |= mask
            start += counts[player]
        return (hands[0], hands[1], hands[2], hands[3])


def deal_one(know: Knowledge, rng: SplitMix64) -> World:
    """One random deal of the unseen cards that respects the counts and the voids."""
    return Dealer(know).deal(Entropy(rng))


def bid_fit(know: Knowledge, world: World) -> float:
    """How well ``world`` fits the bids the other seats made (a likelihood, up to a
    constant factor): the hand each seat bid on is what it holds plus what it played.
    The kernel is rational (``1 / (1 + x)**2``), so that the weights are the same bits on
    every platform (no ``exp``)."""
    weight = 1.0
    for player in range(4):
        bid = know.bids[player]
        if player == know.seat or bid is None or bid.blind:
            continue
        hand = world[player] | know.played[player]
        if bid.is_nil:
            risk = nil_risk(hand)
            factor = 1.0 + risk * risk / 4.8  # about exp(-risk² / 2.4) near 0
        else:
            gap = estimate_tricks(hand) - bid.tricks
            factor = 1.0 + gap * gap / 8.0  # about exp(-gap² / 4) near 0
        weight /= factor * factor
    return weight


def deal_worlds(
    know: Knowledge, rng: SplitMix64, count: int, candidates: int | None = None
) -> list[World]:
    """``count`` deals consistent with ``know``: ``candidates`` deals (twice ``count`` by
    default) are drawn, weighed by :func:`bid_fit`, and ``count`` of them resampled
    (systematic resampling) in proportion to their weights."""
    steps = deal_worlds_steps(know, rng, count, candidates)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


DEALS_PER_STEP = 48  # deals drawn between two pauses of :func:`deal_worlds_steps`


def deal_worlds_steps(
    know: Knowledge, rng: SplitMix64, count: int, candidates: int | None = None
) -> Generator[None, None, list[World]]:
    """:func:`deal_worlds` in steps: pauses after every ``DEALS_PER_STEP`` deals drawn
    (and weighed), so that a caller that cannot block keeps its slices short.  The same
    deals."""
    if count <= 0:
        return []
    if know.unseen == 0:
        return [know.known] * count
    dealer = Dealer(know)
    entropy = Entropy(rng)
    weigh = any(bid is not None and not bid.blind and player != know.seat
                for player, bid in enumerate(know.bids))
    wanted = count if not weigh else (candidates or 2 * count)
    drawn: list[World] = []
    weights: list[float] = []
    while len(drawn) < wanted:
        for _ in range(min(DEALS_PER_STEP, wanted - len(drawn))):
            world = dealer.deal(entropy)
            drawn.append(world)
            if weigh:
                weights.append(bid_fit(know, world))
        if len(drawn) < wanted:
            yield
    if not weigh:
        return drawn
    total = sum(weights)
    if total <= 0.0:
        return drawn[:count]
    step = total / count
    offset = (rng.next() >> 11) / float(1 << 53) * step
    chosen: list[World] = []
    cumulative = 0.0
    index = -1
    for k in range(count):
        target = offset + k * step
        while cumulative <= target and index + 1 < len(drawn):
            index += 1
            cumulative += weights[index]
        chosen.append(drawn[index])
    return chosen
