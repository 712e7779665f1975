"""spades_core: the rules of partnership Spades, deals, records, views and bots.

Pure Python, standard library only; runs unchanged under CPython and Pyodide.
"""

from __future__ import annotations

from .bids import BLIND_NIL, NIL, Bid, parse_bid
from .cards import CARDS, Card, CardSet, Rank, Suit, parse_card
from .claim import Claim, check_claim
from .deal import daily_deal_number, deal_hand
from .errors import (
    BidParseError,
    BotError,
    CardParseError,
    IllegalAction,
    LessonError,
    ParseError,
    RecordError,
    Refusal,
    RulesError,
    SpadesError,
    UsageError,
)
from .game import GameState, HandResult, Phase
from .rules import DEFAULT_RULES, Rules
from .scoring import TeamScore, score_hand, score_team
from .seats import SEATS, TEAMS, Seat, Team

__all__ = [
    "BLIND_NIL", "CARDS", "DEFAULT_RULES", "NIL", "SEATS", "TEAMS",
    "Bid", "BidParseError", "BotError", "Card", "CardParseError", "CardSet", "Claim",
    "GameState",
    "HandResult", "IllegalAction", "LessonError", "ParseError", "Phase", "Rank", "RecordError",
    "Refusal", "Rules", "RulesError", "Seat", "SpadesError", "Suit", "Team", "TeamScore",
    "UsageError",
    "check_claim", "daily_deal_number", "deal_hand", "parse_bid", "parse_card", "score_hand",
    "score_team",
]
