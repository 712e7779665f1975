"""The coach in the page: the hint from the bots' worker, the review beside the score sheet,
the deal's par at the end."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from spades_core import Bid, Card, GameState, Phase, Rules, Seat
from spades_core.bots import bot_action, make_bot
from spades_core.hints import hint
from spades_core.record import from_dict
from spades_core.review import review_hand
from spades_core.rules import trick_winner
from spades_core.views import view_for
from tests.browser.apphelpers import FAST, act, open_app, preset, record, step
from ui.shared import i18n

pytestmark = pytest.mark.browser
SHOTS = "/work/shots/coach"
COACH_TIMEOUT_MS = 240_000


LEVEL = "normal"
HINT_COUNT_JS = "() => Number(document.body.dataset.botHintCount || 0)"
AHEAD_DONE_JS = "() => Number(document.body.dataset.botHint_aheadCount || 0)"
FROM_AHEAD_JS = "() => Number(document.body.dataset.botHintAhead || 0)"


def _press_hint(page: Page) -> str:
    """Press Hint and wait for the answer; where it was computed (``worker``/``main``)."""
    count = int(page.evaluate(HINT_COUNT_JS))
    page.click("#hint-button")
    page.wait_for_function(f"() => ({HINT_COUNT_JS})() > {count}", timeout=60_000)
    return page.get_attribute("body", "data-bot-hint-by") or ""


def _expected(page: Page, rules: Rules, deal: int) -> str:
    """CPython's hint for South in the page's saved position, as the table says it."""
    data = record(page)
    state = from_dict(data) if data["hands"] else GameState.new(rules, deal=deal)
    assert state.to_act == Seat.S
    return i18n.hint_message(hint(view_for(state, Seat.S), LEVEL))  # the bots at the table


def test_the_hint_comes_from_the_worker_and_is_cpythons(page: Page, live_server: str) -> None:
    deal = 4242
    rules = Rules(target=FAST["target"], blind_nil=FAST["blind_nil"])
    preset(page, {**FAST, "level": LEVEL, "hints": True})
    open_app(page, live_server, f"?deal={deal}")
    i18n.set_language("en")
    i18n.load()
    assert step(page) == "bid"
    # the first Hint starts the worker; till it answers, the main thread's sliced search
    first = _press_hint(page)
    assert page.text_content("#message") == _expected(page, rules, deal)
    page.wait_for_selector("body[data-bot-worker=ready]", state="attached", timeout=120_000)
    asked = 0
    while asked < 5:
        kind = step(page)
        assert kind in ("bid", "play"), kind
        if asked:  # South's turns since the worker is ready: the hint worked out ahead
            page.wait_for_function(f"() => ({AHEAD_DONE_JS})() >= {asked}", timeout=60_000)
        assert _press_hint(page) == "worker"
        text = page.text_content("#message")
        assert text == _expected(page, rules, deal)
        assert int(page.evaluate(FROM_AHEAD_JS)) == asked  # shown from it, no new search
        asked += 1
        if kind == "bid":  # the hinted bid's button is lit, as a hinted card is
            lit = page.locator("#panel button.hinted")
            expect(lit).to_have_count(1)
            assert i18n.bid_text(lit.get_attribute("data-bid") or "") in (text or "")
            act(page, "bid")
            continue
        hinted = page.get_attribute("#hand .card.hinted", "data-card")
        assert hinted is not None and i18n.card_definite(hinted) in (text or "")
        page.click(f"#hand [data-card='{hinted}']")
    assert first in ("main", "worker")
    assert page.get_attribute("body", "data-bot-worker") == "ready"


def _south(state: GameState) -> tuple[Card | Bid, bool]:
    """South's scripted action: the Normal bot's, but trump partner's winning ace when
    void in its suit (True: this is that decision)."""
    view = view_for(state, Seat.S)
    if state.phase is Phase.PLAYING and view.trick:
        who, card = view.trick[trick_winner([c.id for _, c in view.trick])]
        led = view.trick[0][1].suit
        spades = [c for c in view.legal_plays if c.suit == 3]
        if (who == Seat.N and card.rank == 14 and card.suit != 3 and spades
                and all(c.suit != led for c in view.legal_plays)
                and any(c.suit != 3 for c in view.legal_plays)):
            return min(spades, key=lambda c: c.id), True
    return bot_action(make_bot(LEVEL), state), False


def _find_deal(rules: Rules) -> tuple[int, str]:
    """The first deal whose first hand has the scripted ruff, flagged by the review."""
    others = make_bot(LEVEL)
    for deal in range(1, 600):
        state, ruff = GameState.new(rules, deal=deal), None
        while not state.past_hands:
            if state.to_act == Seat.S:
                action, forced = _south(state)
                if forced and ruff is None:
                    ruff = str(action)
            else:
                action = bot_action(others, state)
            state = state.apply(action)
        if ruff is None:
            continue
        for item in review_hand(state, 0).items:
            if str(item.played) == ruff:
                return deal, str(item.better)
    raise AssertionError("no deal with the scripted ruff")


def test_the_review_flags_trumping_partners_ace(page: Page, live_server: str) -> None:
    rules = Rules(target=FAST["target"], blind_nil=FAST["blind_nil"])
    deal, better = _find_deal(rules)
    preset(page, {**FAST, "level": LEVEL})
    open_app(page, live_server, f"?deal={deal}")
    ruffed = ""
    while step(page) != "sheet":
        state = from_dict(record(page)) if record(page)["hands"] else GameState.new(
            rules, deal=deal)
        action, forced = _south(state)
        if forced:
            ruffed = str(action)
        if isinstance(action, Bid):
            page.click(f"#panel [data-action=bid][data-bid='{action}']")
        else:
            page.click(f"#hand [data-card='{action}']")
    assert ruffed
    page.wait_for_selector("#coach-review[data-state=done]", timeout=COACH_TIMEOUT_MS)
    item = page.locator(f"#coach-review .coach-item[data-played='{ruffed}']")
    assert item.count() == 1
    assert item.get_attribute("data-better") == better
    assert item.locator(f".card[data-card='{ruffed}'].coach-played").count() == 1
    assert item.locator(f".card[data-card='{better}'].coach-better").count() == 1
    assert item.locator("[data-action=lesson-tip]").count() == 1
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/review-{width}.png")
    # the link opens that lesson, not the list of lessons
    item.locator("[data-action=lesson-tip]").click()
    expect(page.locator("#screen-lessons .lx-panel")).to_be_visible()
