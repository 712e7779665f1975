"""Fast play-outs of a determinized hand, on bit masks, for the expert's search.

A *world* gives every seat's cards (see :mod:`.sampling`).  :func:`play_out` plays the
rest of the hand in that world with :func:`policy_card`, a cheap rule-of-thumb player
(win cheaply, duck when the contract is made, do not overtake a partner who is winning,
cover a partner's Nil, attack an opponent's Nil, Nil bidders play their highest losing
card), and returns the tricks taken by each seat.  The rules are the engine's: a trick's
best card so far is beaten by the cards of :data:`spades_core.rules.BEATEN_BY` (the
table of :func:`~spades_core.rules.trick_winner`'s rule), and the legal cards are read
from :data:`spades_core.rules.PLAY_FROM` (the table of
:func:`~spades_core.rules.legal_play_mask`), once a trick: no rule is restated here (the
tests check that a play-out agrees with :class:`~spades_core.GameState`).

:func:`play_out` is the engine's fast path: the expert's search runs on it, and so does
``python -m spades_core bench`` (with a random player in place of :func:`policy_card`),
so that the speed the benchmark measures is the speed of the bots' search.

Everything here is deterministic: :func:`policy_card` has no randomness at all, and
:class:`RandomPolicy` draws from its own generator, seeded by its caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bids import Bid
from ..cards import SPADES_MASK, SUIT_MASKS, SUIT_OF
from ..rules import BEATEN_BY, PLAY_FROM

_SIDE_SUITS = (0, 1, 2)
_NOT_SPADES = ~SPADES_MASK


# rank order inside a suit, comparable across suits: 0 for a two ... 12 for an ace; jokers 13, 14
RANK: tuple[int, ...] = tuple(card % 13 if card < 52 else card - 39 for card in range(54))


@dataclass(frozen=True, slots=True)
class Contracts:
    """What the players of a play-out aim at: the bids by seat, and per team whether it
    plays for every trick (``eager``, used to measure what a hand can take)."""

    bids: tuple[int, int, int, int]  # tricks bid, by seat (0 for Nil)
    nil: tuple[bool, bool, bool, bool]  # by seat: bid Nil or Blind Nil
    eager: tuple[bool, bool] = (False, False)  # by team

    @classmethod
    def of(cls, bids: Sequence[Bid], eager: tuple[bool, bool] = (False, False)) -> Contracts:
        return cls(
            (bids[0].tricks, bids[1].tricks, bids[2].tricks, bids[3].tricks),
            (bids[0].is_nil, bids[1].is_nil, bids[2].is_nil, bids[3].is_nil),
            eager,
        )


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


_S0, _S1, _S2, _S3 = SUIT_MASKS  # a card's rank in its suit: its id less 13 × the suit's index
# (the spades' 39 also for the jokers: ranks 13 and 14, as in RANK); unrolled over the
# four suits below, where a loop was: these run at most cards of every play-out


def _low_rank(mask: int) -> int:
    """The card of ``mask`` with the lowest rank (side suits before spades on ties)."""
    best = -1
    best_rank = 99
    bits = mask & _S0
    if bits:
        best = best_rank = (bits & -bits).bit_length() - 1
    bits = mask & _S1
    if bits:
        card = (bits & -bits).bit_length() - 1
        if card - 13 < best_rank:
            best, best_rank = card, card - 13
    bits = mask & _S2
    if bits:
        card = (bits & -bits).bit_length() - 1
        if card - 26 < best_rank:
            best, best_rank = card, card - 26
    bits = mask & _S3
    if bits:
        card = (bits & -bits).bit_length() - 1
        if card - 38 < best_rank:  # a spade's rank, plus one
            best = card
    return best


def _high_rank(mask: int) -> int:
    """The card of ``mask`` with the highest rank (side suits before spades on ties)."""
    best = -1
    best_rank = -99
    bits = mask & _S0
    if bits:
        best = best_rank = bits.bit_length() - 1
    bits = mask & _S1
    if bits:
        card = bits.bit_length() - 1
        if card - 13 > best_rank:
            best, best_rank = card, card - 13
    bits = mask & _S2
    if bits:
        card = bits.bit_length() - 1
        if card - 26 > best_rank:
            best, best_rank = card, card - 26
    bits = mask & _S3
    if bits:
        card = bits.bit_length() - 1
        if card - 40 > best_rank:  # a spade's rank, less one
            best = card
    return best


def _discard_low(hand: int, legal: int) -> int:
    """A card to throw away cheaply: the lowest card of the shortest side suit."""
    best = -1
    best_len = 99
    bits = legal & _S0
    if bits:
        best, best_len = (bits & -bits).bit_length() - 1, (hand & _S0).bit_count()
    bits = legal & _S1
    if bits:
        length = (hand & _S1).bit_count()
        if length < best_len:
            best, best_len = (bits & -bits).bit_length() - 1, length
    bits = legal & _S2
    if bits and (hand & _S2).bit_count() < best_len:
        best = (bits & -bits).bit_length() - 1
    if best < 0:
        return _low(legal)
    return best


def _masters(hand: int, others: int) -> int:
    """The cards of ``hand`` that no other seat can beat in their own suit."""
    found = 0
    mine = hand & _S0
    if mine:
        top = (others & _S0).bit_length()  # cards at or above this bit are masters
        found = mine >> top << top
    mine = hand & _S1
    if mine:
        top = (others & _S1).bit_length()
        found |= mine >> top << top
    mine = hand & _S2
    if mine:
        top = (others & _S2).bit_length()
        found |= mine >> top << top
    mine = hand & _S3
    if mine:
        top = (others & _S3).bit_length()
        found |= mine >> top << top
    return found


def policy_card(
    seat: int,
    hand: int,
    legal: int,
    trick_len: int,
    led: int,
    win_card: int,
    win_seat: int,
    others: int,
    nil_alive: Sequence[bool],
    nils: bool,
    need: int,
    opp_need: int,
    tricks_left: int,
    eager: bool,
) -> int:
    """The rollout player's card (an id of ``legal``).

    ``others`` holds the cards still in the other seats' hands; ``win_card``/``win_seat``
    the trick's best card so far (ignored when leading, ``trick_len == 0``); ``need`` the
    tricks the seat's team still needs for its contract, ``opp_need`` the opponents'.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    partner = (seat + 2) & 3
    if trick_len == 0:
        if nils:
            left = (seat + 1) & 3
            right = (seat + 3) & 3
            if nil_alive[seat]:
                return _low_rank(legal)
            if nil_alive[partner]:
                masters = _masters(legal, others) & _NOT_SPADES
                if masters:
                    return _high_rank(masters)
                side = legal & _NOT_SPADES
                return _high_rank(side or legal)
            if nil_alive[left] or nil_alive[right]:
                return _low_rank(legal)
        want = eager or need > 0 or 0 < opp_need <= tricks_left < opp_need + 3
        if want:
            masters = _masters(legal, others)
            side_masters = masters & _NOT_SPADES
            if side_masters:
                return _high_rank(side_masters)
            if masters & SPADES_MASK and others & SPADES_MASK:
                return (masters & SPADES_MASK).bit_length() - 1  # pull trumps
            side = legal & _NOT_SPADES
            if not side:
                return _low(legal)
            if hand & SPADES_MASK:
                # the shortest side suit: to trump it soon
                return _discard_low(hand, side)
            best = -1
            best_len = -1
            for suit in _SIDE_SUITS:
                bits = side & SUIT_MASKS[suit]
                if bits and bits.bit_count() > best_len:
                    best, best_len = (bits & -bits).bit_length() - 1, bits.bit_count()
            return best
        side = legal & _NOT_SPADES
        return _low_rank(side or legal)

    led_mask = SUIT_MASKS[led]
    follows = legal & led_mask
    winners = legal & BEATEN_BY[win_card]
    last = trick_len == 3
    if nils:
        losers = legal ^ winners
        if nil_alive[seat]:
            if losers:
                return _high_rank(losers)
            return legal.bit_length() - 1 if last else (legal & -legal).bit_length() - 1
        if nil_alive[partner]:
            if trick_len < 2:  # partner plays after this seat: win it high so partner can duck
                if winners:
                    if follows:
                        return winners.bit_length() - 1
                    return (winners & -winners).bit_length() - 1
                return _cheap(hand, legal, follows)
            if win_seat == partner:  # overtake partner's winning card
                if winners:
                    return (winners & -winners).bit_length() - 1
                return _cheap(hand, legal, follows)
        left = (seat + 1) & 3
        for opponent in (left, (seat + 3) & 3):
            if nil_alive[opponent]:
                if win_seat == opponent:  # duck under the Nil bidder
                    return _high_rank(losers) if losers else (legal & -legal).bit_length() - 1
                if opponent == left and trick_len < 3:  # the Nil bidder plays next: stay low
                    return _cheap(hand, legal, follows)
    if eager or need > 0 or 0 < opp_need <= tricks_left < opp_need + 3:
        if not winners or (win_seat == partner and (
                last or not others & led_mask & BEATEN_BY[win_card])):
            return _cheap(hand, legal, follows)  # partner's card stands, or no hope
        if last:
            return (winners & -winners).bit_length() - 1
        if follows:
            top = (others & led_mask).bit_length()
            masters = winners >> top << top
            if masters:
                return (masters & -masters).bit_length() - 1
            if trick_len == 1:
                return (legal & -legal).bit_length() - 1  # second hand low
            return winners.bit_length() - 1  # third hand high
        top = (others & SPADES_MASK).bit_length()
        masters = winners >> top << top or winners
        return (masters & -masters).bit_length() - 1  # trump cheaply, safely if possible
    # the contract is safe: avoid bags
    losers = legal ^ winners
    if losers:
        if not follows and losers & _NOT_SPADES:
            return _high_rank(losers & _NOT_SPADES)
        return _high_rank(losers)
    return legal.bit_length() - 1 if last else (legal & -legal).bit_length() - 1


def _cheap(hand: int, legal: int, follows: int) -> int:
    """The cheapest card: the lowest of the suit followed, else a low discard."""
    if follows:
        return (legal & -legal).bit_length() - 1
    return _discard_low(hand, legal)


_MASK64 = (1 << 64) - 1


class RandomPolicy:
    """A play-out player for the card search's second opinion: every seat plays a random
    legal card, except a seat whose Nil is alive, which ducks as the policy does (its
    highest card that does not win the trick so far; its lowest card when it leads).
    The table as a plain PIMC bot imagines it: no seat plans, so a card that needs the
    others' help to win is worth less than one that wins now.

    The random numbers come from a xorshift generator on 64-bit integers (the same bits
    in CPython and in the page); :meth:`reseed` starts a new stream, so that every card
    of one imagined deal can be played out with the same numbers.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 1) -> None:
        self.state = seed & _MASK64 | 1

    def reseed(self, seed: int) -> None:
        self.state = seed & _MASK64 | 1

    def __call__(
        self, seat: int, hand: int, legal: int, trick_len: int, led: int, win_card: int,
        win_seat: int, others: int, nil_alive: Sequence[bool], nils: bool, need: int,
        opp_need: int, tricks_left: int, eager: bool,
    ) -> int:
        if nil_alive[seat]:
            if trick_len:
                losers = legal & ~BEATEN_BY[win_card]
                if losers:
                    return _high_rank(losers)
            return _low_rank(legal)
        x = self.state
        x ^= (x << 13) & _MASK64
        x ^= x >> 7
        x ^= (x << 17) & _MASK64
        self.state = x
        for _ in range((x >> 11) % legal.bit_count()):
            legal &= legal - 1
        return (legal & -legal).bit_length() - 1


Policy = Callable[
    [int, int, int, int, int, int, int, int, Sequence[bool], bool, int, int, int, bool], int
]
"""A play-out player: :func:`policy_card`'s arguments, a card id of ``legal`` back."""


def play_out(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    tricks: Sequence[int],
    broken: bool,
    contracts: Contracts,
    first: int = -1,
    policy: Policy = policy_card,
) -> tuple[int, int, int, int]:
    """Play the rest of the hand with ``policy`` (:func:`policy_card`); the tricks
    taken, by seat.

    ``hands`` are the cards each seat still holds, ``trick`` the card ids of the trick in
    progress (led by ``leader``), ``tricks`` those taken so far.  ``first`` (optional) is
    the card the seat to act plays now, instead of the policy's.  The play stops when the
    seat to act holds nothing (every hand empty, or uneven hands in a partial position).
    The policy is asked only when the seat has a choice (more than one legal card).
    A :class:`RandomPolicy` is not called but inlined (:func:`_play_out_random`: the same
    cards, the same random numbers, without a call per card).
    """
    if type(policy) is RandomPolicy:
        return _play_out_random(hands, leader, trick, tricks, broken, contracts.nil, first,
                                policy)
    held = [hands[0], hands[1], hands[2], hands[3]]
    taken = [tricks[0], tricks[1], tricks[2], tricks[3]]
    bids = contracts.bids
    eager = contracts.eager
    nil_alive = [contracts.nil[s] and not taken[s] for s in range(4)]
    nils = nil_alive[0] or nil_alive[1] or nil_alive[2] or nil_alive[3]
    need = [bids[0] + bids[2] - taken[0] - taken[2], bids[1] + bids[3] - taken[1] - taken[3]]
    remaining = held[0] | held[1] | held[2] | held[3]
    count = len(trick)
    tricks_left = (remaining.bit_count() + count + 3) >> 2
    led = SUIT_OF[trick[0]] if count else -1
    play_from = PLAY_FROM[led][broken]  # the rule of what may be played, for this trick
    win_card = win_seat = -1
    for position, card in enumerate(trick):
        if position == 0 or BEATEN_BY[win_card] >> card & 1:
            win_card, win_seat = card, (leader + position) & 3
    seat = (leader + count) & 3
    while True:
        hand = held[seat]
        if not hand:
            break
        legal = hand & play_from or hand
        if first >= 0:
            card, first = first, -1
        elif legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        else:
            team = seat & 1
            card = policy(
                seat, hand, legal, count, led, win_card, win_seat, remaining ^ hand,
                nil_alive, nils, need[team], need[1 - team], tricks_left, eager[team],
            )
        bit = 1 << card
        held[seat] = hand ^ bit
        remaining ^= bit
        if card >= 39:
            broken = True
        if count == 0:
            led = SUIT_OF[card]
            play_from = PLAY_FROM[led][broken]
            win_card, win_seat = card, seat
            count = 1
        else:
            if BEATEN_BY[win_card] >> card & 1:
                win_card, win_seat = card, seat
            count += 1
            if count == 4:
                taken[win_seat] += 1
                need[win_seat & 1] -= 1
                if nils and nil_alive[win_seat]:
                    nil_alive[win_seat] = False
                    nils = nil_alive[0] or nil_alive[1] or nil_alive[2] or nil_alive[3]
                tricks_left -= 1
                count = 0
                play_from = PLAY_FROM[-1][broken]  # the winner leads the next trick
                seat = win_seat
                continue
        seat = (seat + 1) & 3
    return (taken[0], taken[1], taken[2], taken[3])


def _play_out_random(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    tricks: Sequence[int],
    broken: bool,
    nil: Sequence[bool],
    first: int,
    player: RandomPolicy,
) -> tuple[int, int, int, int]:
    """:func:`play_out` with ``player`` (a :class:`RandomPolicy`) inlined: the same cards
    as calling it at every choice (its Nil seat's duck, its generator's numbers, drawn at
    the same choices, its state left where the calls would leave it), without a call per
    card, and without what the random player does not read (the contracts, the cards
    still out)."""
    held = [hands[0], hands[1], hands[2], hands[3]]
    taken = [tricks[0], tricks[1], tricks[2], tricks[3]]
    nil_alive = [nil[s] and not taken[s] for s in range(4)]
    nils = nil_alive[0] or nil_alive[1] or nil_alive[2] or nil_alive[3]
    count = len(trick)
    led = SUIT_OF[trick[0]] if count else -1
    play_from = PLAY_FROM[led][broken]
    win_card = win_seat = -1
    for position, card in enumerate(trick):
        if position == 0 or BEATEN_BY[win_card] >> card & 1:
            win_card, win_seat = card, (leader + position) & 3
    seat = (leader + count) & 3
    x = player.state
    while True:
        hand = held[seat]
        if not hand:
            break
        legal = hand & play_from or hand
        if first >= 0:
            card, first = first, -1
        elif legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        elif nils and nil_alive[seat]:  # RandomPolicy's Nil seat: its highest loser, or low
            losers = legal & ~BEATEN_BY[win_card] if count else 0
            card = _high_rank(losers) if losers else _low_rank(legal)
        else:  # RandomPolicy's draw
            x ^= (x << 13) & _MASK64
            x ^= x >> 7
            x ^= (x << 17) & _MASK64
            for _ in range((x >> 11) % legal.bit_count()):
                legal &= legal - 1
            card = (legal & -legal).bit_length() - 1
        held[seat] = hand ^ (1 << card)
        if card >= 39:
            broken = True
        if count == 0:
            led = SUIT_OF[card]
            play_from = PLAY_FROM[led][broken]
            win_card, win_seat = card, seat
            count = 1
        else:
            if BEATEN_BY[win_card] >> card & 1:
                win_card, win_seat = card, seat
            count += 1
            if count == 4:
                taken[win_seat] += 1
                if nils and nil_alive[win_seat]:
                    nil_alive[win_seat] = False
                    nils = nil_alive[0] or nil_alive[1] or nil_alive[2] or nil_alive[3]
                count = 0
                play_from = PLAY_FROM[-1][broken]
                seat = win_seat
                continue
        seat = (seat + 1) & 3
    player.state = x
    return (taken[0], taken[1], taken[2], taken[3])
