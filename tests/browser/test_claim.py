"""Claiming the rest of the tricks in the page (issue 40): the Claim button says why not, in
the message line, or plays South's cards in the engine's order with the bots answering, at
once (no pacing), and the hand ends on its score sheet as usual, the stored game an
ordinary record of plays. At both sizes, in English and French."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from locales import names
from spades_core import GameState, Phase, Rules, Seat, check_claim
from spades_core.bots import bot_action, make_bot
from spades_core.record import from_dict, to_dict
from spades_core.views import view_for
from tests.browser.apphelpers import FAST, act, open_app, preset, record, step, wait_ready

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]
ROOT = Path(__file__).resolve().parents[2]

# Counts the times a finished trick slides to its winner (the pacing of an ordinary trick).
GATHERS_JS = """
window.__gathers = 0;
new MutationObserver(() => {
  const trick = document.getElementById('trick');
  if (trick && trick.classList.contains('gathering') && !trick.dataset.seenGather) {
    trick.dataset.seenGather = '1'; window.__gathers += 1;
  } else if (trick && !trick.classList.contains('gathering')) { delete trick.dataset.seenGather; }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
"""


def _saved(state: GameState) -> str:
    return json.dumps({"record": to_dict(state), "level": "beginner", "daily": False,
                       "hints": True, "seen": state.hand_index, "sheets": 0,
                       "recorded": False})


@cache
def positions() -> tuple[GameState, GameState]:
    """Two first hands played by the Normal bots up to South's lead: one where South's
    claim is refused (a card of South's can lose to one still out), one where it holds with
    three tricks or more to go."""
    bot = make_bot("normal")
    refused: GameState | None = None
    for deal in range(1, 400):
        state = GameState.new(Rules(target=200), deal=deal)
        while state.hand_index == 0 and state.phase is not Phase.OVER:
            if state.to_act == Seat.S and state.phase is Phase.PLAYING and not state.trick:
                claim = check_claim(view_for(state, Seat.S))
                if claim.holds and len(state.hand_of(Seat.S)) >= 3:
                    assert refused is not None
                    return refused, state
                if (refused is None and claim.refusal is not None
                        and claim.refusal.reason == "claim-card-can-lose"):
                    refused = state
            state = state.apply(bot_action(bot, state))
    raise AssertionError("no position where South may claim")


def _catalogue(lang: str) -> Callable[..., str]:
    texts = json.loads((ROOT / "locales" / lang / "table.json").read_text(encoding="utf-8"))
    return lambda key, **params: str(texts[key]).format(**params)


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("fr", 375, 667)])
def test_claim_is_refused_with_its_reason_or_plays_the_hand_out(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot, lang: str, width: int,
    height: int,
) -> None:
    refused, holds = positions()
    t = _catalogue(lang)
    page = make_page(width, height)
    page.add_init_script(GATHERS_JS)
    # "slow": an ordinary trick would stay on the table and slide to its winner; a claim not
    preset(page, {**FAST, "language": lang, "speed": "slow"},
           raw={"spades.game.v1": _saved(refused)})
    open_app(page, live_server)
    assert step(page) == "play"
    claim_button = page.locator("#toolbar [data-action=claim]")
    expect(claim_button).to_be_enabled()
    expect(claim_button).to_have_text(t("toolbar.claim"))

    # Refused: the reason in the message line, the position untouched.
    before = record(page)
    claim_button.click()
    why = check_claim(view_for(refused, Seat.S)).refusal
    assert why is not None
    sentence = names.refusal_text(why.reason, why.params, t, lambda key: True)
    assert "{" not in sentence
    expect(page.locator("#message.refusal")).to_have_text(sentence)
    assert record(page) == before and step(page) == "play"
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    box = page.locator("#toolbar").bounding_box()
    assert box is not None and box["y"] + box["height"] <= height
    screenshot(page, "refused")

    # Holds: the rest of the hand is played at once, then its score sheet.
    page.evaluate(f"localStorage.setItem('spades.game.v1', {_saved(holds)!r})")
    page.reload()
    wait_ready(page)
    assert step(page) == "play"
    left = len(holds.hand_of(Seat.S))
    won_before = holds.tricks_won[Seat.S]
    order = [str(card) for card in check_claim(view_for(holds, Seat.S)).order]
    expect(claim_button).to_be_enabled()
    screenshot(page, "claim-ready")
    claim_button.click()
    assert step(page) == "sheet"
    expect(page.locator("#message")).to_have_text(t("say.claim"))
    assert page.evaluate("window.__gathers") == 0
    screenshot(page, "claimed")
    # an ordinary record of plays: South's cards in the claim's order, every trick South's
    played = from_dict(record(page))
    hand = played.past_hands[0]
    assert hand.tricks[Seat.S] == won_before + left
    south = [str(card) for seat, card in hand.seated_plays() if seat == Seat.S]
    assert south[-left:] == order
    act(page, "sheet")
    assert step(page) in ("bid", "blind")  # the next hand's bidding: nothing to claim
    expect(claim_button).to_be_disabled()
