"""Exact play of the last tricks of an imagined deal, for the expert's search.

When few cards remain, :meth:`Solver.solve` plays the rest of a deal whose four hands are known
(a *world* of :mod:`.sampling`) perfectly for both partnerships: the team of ``team``
chooses the cards that give it the highest value, the other team the lowest (minimax),
where the value of an end of hand is given by ``value`` (the expert's chance of winning
the match; an outcome's value for one team is the complement of the other's, so the game
is zero-sum).  Cards of one seat with no other remaining card between them play alike, so
only the lowest of each such run is tried.  Positions reached again at the start of a trick
are looked up, not searched again, and the card that was best there is tried first when
the search comes back with other bounds.  A trick start whose every possible outcome (all
ways of sharing the tricks left) lies outside the search's window is cut at once.  The
last trick, where no seat has a choice, is played straight through.

The rules are the engine's tables, as in :mod:`.rollout`: :data:`~spades_core.rules.PLAY_FROM`
for what may be played, :data:`~spades_core.rules.BEATEN_BY` for who wins the trick.
Deterministic: no randomness, integer values only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import SUIT_OF, ids_of_mask
from ..rules import BEATEN_BY, PLAY_FROM

Tricks = tuple[int, int, int, int]


def distinct_cards(legal: int, breaks: int) -> list[int]:
    """One card (the lowest) of each run of ``legal`` cards of a suit with no card of
    ``breaks`` (cards not seen, or in the trick) between them: such cards play alike."""
    chosen: list[int] = []
    previous = -1
    for card in ids_of_mask(legal):
        if (
            previous >= 0
            and SUIT_OF[card] == SUIT_OF[previous]
            and not breaks & ((1 << card) - (2 << previous))
        ):
            previous = card
            continue
        chosen.append(card)
        previous = card
    return chosen


_LOW = -(1 << 40)
_HIGH = 1 << 40


class Solver:
    """Minimax over the rest of one deal, with alpha-beta cuts.  ``value(tricks)`` is the
    value of an end of hand for ``team`` (seats ``team`` and ``team + 2``).  One solver
    serves one deal: positions at the start of a trick are remembered (with the bounds
    the search proved) for every later question about the same deal."""

    __slots__ = ("team", "value", "memo", "ranges", "choices")

    def __init__(self, team: int, value: Callable[[Tricks], int]) -> None:
        self.team = team
        self.value = value
        # trick starts: (lowest, highest) value proved, and the best card found there
        self.memo: dict[tuple[int, int, int, int, int, Tricks, bool], tuple[int, int, int]] = {}
        self.ranges: dict[Tricks, tuple[int, int]] = {}
        self.choices: dict[tuple[int, int], list[int]] = {}

    def _range(self, taken: Tricks, left: int) -> tuple[int, int]:
        """The lowest and highest value of any way of sharing ``left`` more tricks
        among the seats, once they hold ``taken``."""
        found = self.ranges.get(taken)
        if found is None:
            low, high = _HIGH, _LOW
            north, east, south, west = taken
            for more_north in range(left + 1):
                for more_east in range(left + 1 - more_north):
                    for more_south in range(left + 1 - more_north - more_east):
                        more_west = left - more_north - more_east - more_south
                        got = self.value((north + more_north, east + more_east,
                                          south + more_south, west + more_west))
                        low = min(low, got)
                        high = max(high, got)
            found = self.ranges[taken] = (low, high)
        return found

    def solve(self, hands: Sequence[int], leader: int, trick: Sequence[int],
              tricks: Sequence[int], broken: bool, first: int = -1) -> int:
        """The value of the rest of the hand with best play on both sides; ``trick`` the
        card ids of the trick in progress, led by ``leader``; ``first`` (optional) the
        card the seat to act plays now."""
        held = [hands[0], hands[1], hands[2], hands[3]]
        taken = (tricks[0], tricks[1], tricks[2], tricks[3])
        count = len(trick)
        led = SUIT_OF[trick[0]] if count else -1
        win_card = win_seat = -1
        for position, card in enumerate(trick):
            if position == 0 or BEATEN_BY[win_card] >> card & 1:
                win_card, win_seat = card, (leader + position) & 3
        seat = (leader + count) & 3
        in_trick = 0
        for card in trick:
            in_trick |= 1 << card
        if first >= 0:
            return self._after(held, seat, first, count, led, win_card, win_seat,
                               in_trick, taken, broken, _LOW, _HIGH)
        return self._turn(held, seat, count, led, win_card, win_seat, in_trick, taken,
                          broken, _LOW, _HIGH)

    def _turn(self, held: list[int], seat: int, count: int, led: int, win_card: int,
              win_seat: int, in_trick: int, taken: Tricks, broken: bool,
              alpha: int, beta: int) -> int:
        hand = held[seat]
        if hand & (hand - 1) == 0:  # one card each (the last trick) or none: no choice left
            if not hand:
                return self.value(taken)
            for _ in range(count, 4):
                card = held[seat].bit_length() - 1
                if win_card < 0 or BEATEN_BY[win_card] >> card & 1:
                    win_card, win_seat = card, seat
                seat = (seat + 1) & 3
            after = list(taken)
            after[win_seat] += 1
            return self.value((after[0], after[1], after[2], after[3]))
        legal = hand & PLAY_FROM[led][broken] or hand
        breaks = (held[0] | held[1] | held[2] | held[3]) ^ hand | in_trick
        options = self.choices.get((legal, breaks))
        if options is None:
            options = self.choices[(legal, breaks)] = distinct_cards(legal, breaks)
        key = None
        if count == 0:
            key = (held[0], held[1], held[2], held[3], seat, taken, broken)
            bounds = self.memo.get(key)
            if bounds is None:
                low, high = self._range(taken, hand.bit_count())
            else:
                low, high, tried_first = bounds
                if options[0] != tried_first:
                    options = [tried_first, *(card for card in options if card != tried_first)]
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        start_alpha, start_beta = alpha, beta
        mine = (seat & 1) == self.team
        best = _LOW if mine else _HIGH
        best_card = options[0]
        for card in options:
            got = self._after(held, seat, card, count, led, win_card, win_seat,
                              in_trick, taken, broken, alpha, beta)
            if mine:
                if got > best:
                    best, best_card = got, card
                    if got > alpha:
                        alpha = got
            elif got < best:
                best, best_card = got, card
                if got < beta:
                    beta = got
            if alpha >= beta:
                break
        if key is not None:  # the bounds known on entry (this position is not below itself)
            if best <= start_alpha:
                high = min(high, best)  # failed low: the value is at most this
            elif best >= start_beta:
                low = max(low, best)  # failed high: at least this
            else:
                low = high = best
            self.memo[key] = (low, high, best_card)
        return best

    def _after(self, held: list[int], seat: int, card: int, count: int, led: int,
               win_card: int, win_seat: int, in_trick: int, taken: Tricks,
               broken: bool, alpha: int, beta: int) -> int:
        """The value once ``seat`` plays ``card``."""
        bit = 1 << card
        held[seat] ^= bit
        now_broken = broken or card >= 39
        if count == 0:
            got = self._turn(held, (seat + 1) & 3, 1, SUIT_OF[card], card, seat, bit,
                             taken, now_broken, alpha, beta)
        else:
            if BEATEN_BY[win_card] >> card & 1:
                win_card, win_seat = card, seat
            if count == 3:
                after = list(taken)
                after[win_seat] += 1
                got = self._turn(held, win_seat, 0, -1, -1, -1, 0,
                                 (after[0], after[1], after[2], after[3]), now_broken,
                                 alpha, beta)
            else:
                got = self._turn(held, (seat + 1) & 3, count + 1, led, win_card, win_seat,
                                 in_trick | bit, taken, now_broken, alpha, beta)
        held[seat] ^= bit
        return got
