"""Claiming the rest of the tricks (:mod:`spades_core.claim`): positions it accepts and
refuses, and its soundness checked by brute force: for random endgames of a few tricks,
every claim it accepts wins every trick under every distribution of the unseen cards and
every legal play of the other three (by the plain words of RULES.md: tests/helpers.py)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest

from locales import names
from spades_core import Card, CardSet, GameState, Phase, Rules, Seat, check_claim, parse_bid
from spades_core.cards import CARDS, ids_of_mask
from spades_core.views import View, view_for

from .helpers import cards, mask, position, reference_legal, reference_winner

ROOT = Path(__file__).resolve().parents[1]


def exact_view(state: GameState, seat: Seat) -> View:
    """The view of a position, with every card no one holds counted as played (a position
    of ``GameState.position`` plays none): the unseen cards are the other hands'."""
    view = view_for(state, seat)
    held = 0
    for other in Seat:
        held |= state.held_mask(other)
    return dataclasses.replace(view, played_mask=state.rules.deck_mask & ~held)


def claim_of(hands: dict[str, str], leader: str = "S", seat: str = "S", **kwargs: object):
    state = position(hands, leader=leader, **kwargs)  # type: ignore[arg-type]
    return check_claim(exact_view(state, Seat[seat]))


def texts(order: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in order]


# --- accepted ------------------------------------------------------------------------


def test_top_cards_with_no_spade_out_are_claimed_other_suits_first() -> None:
    claim = claim_of({"S": "AS AH KH AC", "W": "QH 2C 3D 4D", "N": "5D 6D 7D 8D",
                      "E": "9D TD JD QD"})
    assert claim.holds and claim.refusal is None
    # spades are not broken: the other suits first, the spade once it is all that is left
    assert texts(claim.order) == ["AH", "KH", "AC", "AS"]


def test_spades_still_out_are_drawn_first() -> None:
    claim = claim_of({"S": "AS KS AH", "W": "3S 2H 2C", "N": "4S 3H 3C", "E": "5H 6H 7H"},
                     broken=True)
    assert claim.holds
    assert texts(claim.order) == ["AS", "KS", "AH"]


def test_a_low_card_wins_once_the_cards_above_it_are_drawn() -> None:
    # the ace draws the seven (its holder must follow): the five then wins
    claim = claim_of({"S": "AH 5H", "W": "7H 2C", "N": "2D 3D", "E": "4D 5D"})
    assert claim.holds and texts(claim.order) == ["AH", "5H"]


def test_a_hand_of_spades_leads_them_before_they_are_broken() -> None:
    claim = claim_of({"S": "AS KS 2S", "W": "QS 2C 3C", "N": "4C 5C 6C", "E": "7C 8C 9C"})
    assert claim.holds and texts(claim.order) == ["AS", "KS", "2S"]


def test_a_single_top_card_beats_several_still_out() -> None:
    claim = claim_of({"S": "AH", "W": "7H", "N": "8H", "E": "2C"})
    assert claim.holds and texts(claim.order) == ["AH"]


def test_the_big_joker_is_the_top_spade() -> None:
    claim = claim_of({"S": "BJ AH", "W": "LJ 3C", "N": "AS 4C", "E": "5C 6C"},
                     broken=True, rules=Rules(jokers=True))
    assert claim.holds is False  # two spades out, one spade to draw them
    assert claim.refusal is not None and claim.refusal.reason == "claim-trumps-out"
    assert claim.refusal.params == {"card": "LJ"}
    claim = claim_of({"S": "BJ LJ AH", "W": "AS 3C 7C", "N": "KS 4C 8C", "E": "5C 6C 9C"},
                     broken=True, rules=Rules(jokers=True))
    assert claim.holds and texts(claim.order) == ["BJ", "LJ", "AH"]


# --- refused -------------------------------------------------------------------------


def test_a_card_that_can_lose_is_named_with_the_card_that_beats_it() -> None:
    claim = claim_of({"S": "AH 5H 3H", "W": "7H 8H 2C", "N": "2D 3D 4D", "E": "5D 6D 7D"})
    assert not claim.holds and claim.order == ()
    assert claim.refusal is not None
    assert (claim.refusal.reason, claim.refusal.params) == (
        "claim-card-can-lose", {"card": "5H", "winner": "8H"})


def test_a_spade_still_out_can_trump_a_hand_without_spades() -> None:
    claim = claim_of({"S": "AH AD", "W": "2S 2C", "N": "3C 4C", "E": "5C 6C"})
    assert claim.refusal is not None
    assert (claim.refusal.reason, claim.refusal.params) == ("claim-trumps-out", {"card": "2S"})


def test_too_few_top_spades_leave_a_spade_out_to_trump() -> None:
    claim = claim_of({"S": "AS AH", "W": "3S 4S", "N": "3C 4C", "E": "5C 6C"}, broken=True)
    assert claim.refusal is not None
    assert (claim.refusal.reason, claim.refusal.params) == ("claim-trumps-out", {"card": "4S"})


def test_spades_out_that_cannot_be_drawn_before_spades_are_broken() -> None:
    hands = {"S": "AS AH", "W": "3S 2C", "N": "3C 4C", "E": "5C 6C"}
    claim = claim_of(hands)
    assert claim.refusal is not None
    assert (claim.refusal.reason, claim.refusal.params) == (
        "claim-spades-not-broken", {"card": "3S"})
    assert texts(claim_of(hands, broken=True).order) == ["AS", "AH"]


def test_a_claim_is_made_on_lead_on_ones_turn_in_the_play() -> None:
    following = claim_of({"S": "AH", "W": "2H", "N": "3H", "E": "5H"}, leader="E",
                         trick="4H")
    assert following.refusal is not None and following.refusal.reason == "claim-not-your-lead"
    waiting = claim_of({"S": "AH", "W": "2H", "N": "3H", "E": "4H"}, leader="W")
    assert waiting.refusal is not None
    assert (waiting.refusal.reason, waiting.refusal.params) == ("not-your-turn", {"seat": "W"})
    state = GameState.new(Rules(), deal=7)
    assert check_claim(view_for(state, state.to_act)).refusal.reason == "not-playing"  # type: ignore


# --- soundness, by brute force ---------------------------------------------------------


def _claim_player(claimer: int, order: tuple[Card, ...]) -> Callable[..., bool]:
    """``wins(hands, broken, leader)``: whether ``claimer``, playing ``order`` from the
    lead, wins every trick against every legal play of the others (legality and the
    winner by tests/helpers.py's plain rules); remembered across deals of the same cards."""

    @cache
    def run(hands: tuple[frozenset[Card], ...], trick: tuple[Card, ...], leader: int,
            broken: bool, step: int) -> bool:
        if not any(hands):
            return True
        seat = (leader + len(trick)) & 3
        legal = reference_legal(sorted(hands[seat]), list(trick), broken)
        if seat == claimer:
            if order[step] not in legal:
                return False  # the claim's order breaks a rule
            choices = [order[step]]
            step += 1
        else:
            choices = sorted(legal)
        for card in choices:
            after = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
            played = (*trick, card)
            now_broken = broken or card.suit.name == "SPADES"
            if len(played) < 4:
                if not run(after, played, leader, now_broken, step):
                    return False
                continue
            winner = (leader + reference_winner(list(played))) & 3
            if winner != claimer or not run(after, (), winner, now_broken, step):
                return False
        return True

    return lambda hands, broken, leader: run(hands, (), leader, broken, 0)


def _claimer_wins(hands: tuple[frozenset[Card], ...], claimer: int, order: tuple[Card, ...],
                  broken: bool, leader: int) -> bool:
    return _claim_player(claimer, order)(hands, broken, leader)


def _distributions(unseen: list[Card], sizes: list[int]) -> Iterator[list[frozenset[Card]]]:
    """Every way of dealing ``unseen`` into hands of ``sizes`` cards."""
    if not sizes:
        yield []
        return
    for first in itertools.combinations(unseen, sizes[0]):
        rest = [card for card in unseen if card not in first]
        for others in _distributions(rest, sizes[1:]):
            yield [frozenset(first), *others]


def _random_endgame(rng: random.Random, rules: Rules) -> GameState:
    """A position of 1 to 3 tricks left, the claimer (South) on lead, holding high cards
    more often than not; the cards no one holds count as played (see :func:`exact_view`)."""
    size = rng.randint(1, 3)
    deck = list(ids_of_mask(rules.deck_mask))
    rng.shuffle(deck)
    high = [c for c in deck if CARDS[c].rank >= 12]
    mine = set(rng.sample(high, rng.randint(size // 2, size)))
    mine |= set(rng.sample([c for c in deck if c not in mine], size - len(mine)))
    rest = [c for c in deck if c not in mine]
    if rng.random() < 0.4:  # spades out more often than chance: what a claim reckons with
        rest.sort(key=lambda c: (CARDS[c].suit.name != "SPADES" or rng.random() < 0.5))
    others = rest[:3 * size]
    rng.shuffle(others)
    hands = [0, 0, 0, 0]
    hands[Seat.S] = sum(1 << c for c in mine)
    for i, seat in enumerate((Seat.W, Seat.N, Seat.E)):
        hands[seat] = sum(1 << c for c in others[i * size:(i + 1) * size])
    return GameState.position(rules, hands, leader=Seat.S, bids=[parse_bid("3")] * 4,
                              spades_broken=rng.random() < 0.5)


@pytest.mark.parametrize("seed", range(3))
def test_every_accepted_claim_wins_whatever_the_others_hold_and_play(seed: int) -> None:
    rng = random.Random(seed)
    accepted = refused = 0
    reasons: set[str] = set()
    for _ in range(400):
        rules = Rules(jokers=rng.random() < 0.3)
        state = _random_endgame(rng, rules)
        claim = check_claim(exact_view(state, Seat.S))
        if not claim.holds:
            refused += 1
            assert claim.refusal is not None
            reasons.add(claim.refusal.reason)
            continue
        accepted += 1
        mine = frozenset(state.hand_of(Seat.S))
        assert sorted(claim.order) == sorted(mine)  # each card once
        unseen = sorted(card for seat in (Seat.W, Seat.N, Seat.E) for card in state.hand_of(seat))
        sizes = [len(state.hand_of(seat)) for seat in Seat if seat != Seat.S]
        wins = _claim_player(int(Seat.S), claim.order)
        for dealt in _distributions(unseen, sizes):
            hands = (dealt[0], dealt[1], mine, dealt[2])  # N, E, S, W
            assert wins(hands, state.spades_broken, int(Seat.S)), (claim.order, hands)
    assert accepted >= 30 and refused >= 30, (accepted, refused)
    assert {"claim-card-can-lose", "claim-trumps-out"} <= reasons


def test_the_brute_force_catches_a_claim_that_can_fail() -> None:
    """The check of soundness can fail: a claim of a king under an ace still out loses."""
    hands = (frozenset(cards("AH 2C")), frozenset(cards("2D 3D")), frozenset(cards("KH QH")),
             frozenset(cards("4D 5D")))
    assert not _claimer_wins(hands, int(Seat.S), tuple(cards("KH QH")), True, int(Seat.S))
    # and a spade led before spades are broken breaks a rule
    hands = (frozenset(cards("2D 3C")), frozenset(cards("2C 3D")), frozenset(cards("AS AH")),
             frozenset(cards("4D 5D")))
    assert not _claimer_wins(hands, int(Seat.S), tuple(cards("AS AH")), False, int(Seat.S))
    assert _claimer_wins(hands, int(Seat.S), tuple(cards("AH AS")), False, int(Seat.S))


def test_claims_in_real_hands_play_out_through_the_game() -> None:
    """In hands played at random, whenever the seat on lead may claim, its order is
    played through ``GameState`` (every card legal) against random answers and wins
    every trick left."""
    rng = random.Random(11)
    checked = 0
    for deal in range(60):
        state = GameState.new(Rules(), deal=deal)
        for token in ("3", "3", "3", "3"):
            state = state.apply(parse_bid(token))
        while state.phase is Phase.PLAYING and state.hand_index == 0:
            seat = state.to_act
            assert seat is not None
            claim = check_claim(view_for(state, seat)) if not state.trick else None
            if claim is not None and claim.holds:
                checked += 1
                won = state.tricks_won[seat]
                left = len(state.hand_of(seat))
                replay = state
                order = list(claim.order)
                while replay.hand_index == 0:
                    mover = replay.to_act
                    card = order.pop(0) if mover == seat else rng.choice(replay.legal_plays())
                    replay = replay.apply(card)
                assert replay.past_hands[0].tricks[seat] == won + left
                break
            state = state.apply(rng.choice(state.legal_plays()))
    assert checked >= 30, checked


def test_claimed_cards_are_the_claimers_own() -> None:
    claim = claim_of({"S": "AS AH", "W": "3C 2C", "N": "3D 4C", "E": "5C 6C"})
    assert claim.holds and CardSet.of([str(c) for c in claim.order]).mask == mask("AS AH")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_refusal_is_said_in_both_languages(lang: str) -> None:
    texts = json.loads((ROOT / "locales" / lang / "table.json").read_text(encoding="utf-8"))

    def t(key: str, **params: object) -> str:
        return str(texts[key]).format(**params)

    refusals = [
        claim_of({"S": "AH", "W": "2H", "N": "3H", "E": "5H"}, leader="E", trick="4H"),
        claim_of({"S": "AH 5H 3H", "W": "7H 8H 2C", "N": "2D 3D 4D", "E": "5D 6D 7D"}),
        claim_of({"S": "AH AD", "W": "2S 2C", "N": "3C 4C", "E": "5C 6C"}),
        claim_of({"S": "AS AH", "W": "3S 2C", "N": "3C 4C", "E": "5C 6C"}),
    ]
    reasons = set()
    for claim in refusals:
        assert claim.refusal is not None
        reasons.add(claim.refusal.reason)
        sentence = names.refusal_text(claim.refusal.reason, claim.refusal.params, t,
                                      lambda key: key in texts)
        assert sentence != t("refusal.unknown") and "{" not in sentence, sentence
    assert reasons == {"claim-not-your-lead", "claim-card-can-lose", "claim-trumps-out",
                       "claim-spades-not-broken"}
