"""Deal numbers from the URL and the calendar (pure Python).

A deal number is a non-negative integer below 2**53, written in decimal digits only; the ones
drawn at random are short (seven digits at most).
"""

from __future__ import annotations

import datetime

from spades_core.deal import MAX_DEAL, daily_deal_date, daily_deal_number


def parse_deal(text: str | None) -> int | None:
    """The deal number written in ``text`` (``?deal=``), or None when it is not one:
    empty, signs, spaces, letters, markup, decimals, or 2**53 and above."""
    if text is None:
        return None
    if not (0 < len(text) <= 16) or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if value <= MAX_DEAL else None


def daily_number(date: datetime.date) -> int:
    """The daily deal of a calendar date (the engine's ``YYYYMMDD``)."""
    return daily_deal_number(date)


def future_daily(number: int, today: int) -> bool:
    """Whether ``number`` is the daily deal of a day after ``today`` (a daily number): that
    deal opens on its day, not before, so that nobody practises the day's board early."""
    return number > today and daily_deal_date(number) is not None


# Random deals are drawn from 1 to 9,999,999: at most seven digits, easy to read out and type,
# and never an eight-digit YYYYMMDD, so a random deal is never some day's daily deal in disguise.
# Any deal number below 2**53 still opens with ``?deal=N``.
RANDOM_DEALS = 9_999_999


def random_deal(random_words: tuple[int, int]) -> int:
    """A short deal number (1 to ``RANDOM_DEALS``) from two random 32-bit words (the browser's
    crypto); the modulo bias over 53 random bits is below one in 10**8."""
    high, low = random_words
    value = (high & 0x1FFFFF) << 32 | (low & 0xFFFFFFFF)
    return 1 + value % RANDOM_DEALS
