"""Hints: the Normal bot's decision with its tip and reason, and text for every reason
key in English and French."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades_core import GameState, Phase, Rules
from spades_core.bots import bot_action, strategy
from spades_core.bots.normal import NormalBot
from spades_core.hints import REASONS, TIPS, hint
from spades_core.views import view_for
from tests.match import deal_numbers

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "fr")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def catalogue(language: str) -> dict[str, str]:
    data = json.loads((ROOT / "locales" / language / "hints.json").read_text("utf-8"))
    assert isinstance(data, dict)
    assert all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in data.items())
    return data


def test_registry_matches_the_source() -> None:
    """Every reason the decision rules can return is registered (collected from the code)."""
    source = Path(strategy.__file__).read_text("utf-8")
    in_source = re.findall(r'_reason\(\s*"([a-z.-]+)"', source)
    assert in_source == list(REASONS)
    used = set(re.findall(r"\b([A-Z][A-Z_]+[A-Z])\b", source))
    registered = {name for name, value in vars(strategy).items()
                  if isinstance(value, strategy.Reason)}
    unused = {name for name in registered if source.count(name) < 2}
    assert not unused, f"registered but never returned: {unused}"
    assert registered <= used


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_and_tip_has_text(language: str) -> None:
    texts = catalogue(language)
    expected = set(REASONS) | {f"tip.{tip}.{part}" for tip in TIPS for part in ("name", "summary")}
    assert sorted(expected - set(texts)) == [], "missing text"
    assert sorted(set(texts) - expected) == [], "text for a key the code never returns"
    for key, reason in REASONS.items():  # a text may leave out a parameter, never invent one
        assert set(PLACEHOLDER.findall(texts[key])) <= set(reason.params), key
        texts[key].format(**{name: "x" for name in reason.params})
    for tip in TIPS:
        assert not PLACEHOLDER.findall(texts[f"tip.{tip}.name"])


def test_tips_are_strategy_keys() -> None:
    strategy_md = ROOT.parent / "shared" / "STRATEGY.md"
    if not strategy_md.exists():
        pytest.skip("shared/STRATEGY.md is not beside the repository")
    keys = re.findall(r"^- `([a-z-]+)`", strategy_md.read_text("utf-8"), re.MULTILINE)
    conventions = {"second-hand-low", "third-hand-high", "win-cheaply"}  # its last section
    assert set(TIPS) == set(keys) | conventions


def test_hint_is_the_normal_bots_decision_in_whole_games() -> None:
    bot = NormalBot()
    seen: set[str] = set()
    for rules in (Rules(target=300), Rules(target=300, jokers=True)):
        for deal in deal_numbers(31, 4):
            state = GameState.new(rules, deal=deal)
            while state.phase is not Phase.OVER:
                seat = state.to_act
                assert seat is not None
                if state.phase is Phase.BIDDING and rules.blind_nil:
                    blind = hint(view_for(state, seat, hand_seen=False))
                    assert (blind.action is not None) == bot.blind_nil(
                        view_for(state, seat, hand_seen=False))
                view = view_for(state, seat)
                suggestion = hint(view)
                action = bot_action(bot, state)
                if state.phase is Phase.PLAYING or blind.action is None:
                    assert suggestion.action == action
                assert suggestion.reason in REASONS
                assert suggestion.tip == REASONS[suggestion.reason].tip
                assert set(suggestion.params) == set(REASONS[suggestion.reason].params)
                seen.add(suggestion.reason)
                state = state.apply(action)
    assert len(seen) >= 20


def test_hint_refuses_a_view_where_the_seat_does_not_act() -> None:
    state = GameState.new(Rules(), deal=5)
    seat = state.to_act
    assert seat is not None
    with pytest.raises(ValueError):
        hint(view_for(state, seat.left))
