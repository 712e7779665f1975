"""The hand viewer in the page: a finished hand replayed trick by trick from the score
sheet and from the review, forward and back (buttons and arrow keys), every hand face up,
the tricks' winners and the coach's verdicts, at 1280x800 and 375x667, in both languages.

What the page shows is compared with the engine's own account of the hand in CPython (the
page's record, replayed): the hands before each trick, the plays, each trick's winner, the
review's items."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from spades_core import GameState, Seat
from spades_core.record import from_dict
from spades_core.review import review_hand, review_to_dict
from spades_core.rules import winning_play
from tests.browser.apphelpers import FAST, act, open_app, preset, record, step, stored
from ui.shared import i18n, models

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = Path("/work/shots/viewer")
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
COACH_TIMEOUT_MS = 240_000
SIZES = ((1280, 800), (375, 667))

VIEWER_JS = """() => {
  const v = document.querySelector('dialog[open] #viewer');
  if (!v) return null;
  const hands = {}, backs = v.querySelectorAll('.card.back').length;
  for (const h of v.querySelectorAll('.vw-hand'))
    hands[h.dataset.seat] = [...h.querySelectorAll('.card')].map(c => c.dataset.card || '');
  const verdict = v.querySelector('.vw-verdict');
  return {
    frame: Number(v.dataset.frame), frames: Number(v.dataset.frames), review: v.dataset.review,
    step: v.querySelector('.vw-step').textContent, hands, backs,
    plays: [...v.querySelectorAll('.vw-play')].map(p => [p.dataset.seat,
      p.querySelector('.card').dataset.card, p.classList.contains('winner')]),
    winner: v.querySelector('.vw-winner')?.textContent ?? '',
    bids: [...v.querySelectorAll('.vw-bid')].map(b => [b.dataset.seat,
      b.querySelector('strong').textContent]),
    verdict: verdict ? [verdict.dataset.played, verdict.dataset.better,
      verdict.querySelector('.vw-verdict-sentence').textContent] : null,
  };
}"""

# what does not fit: the page's or the dialog's horizontal overflow, and the buttons shown
# smaller than 40 px
FIT_JS = """(selector) => {
  const d = document.querySelector('dialog[open]');
  const small = [...d.querySelectorAll(selector)].filter(b => b.offsetParent !== null)
    .map(b => b.getBoundingClientRect()).filter(r => r.height < 40 || r.width < 40)
    .map(r => [Math.round(r.width), Math.round(r.height)]);
  const inner = [...d.querySelectorAll('.scroll')].map(s => s.scrollWidth - s.clientWidth);
  return {page: document.documentElement.scrollWidth - window.innerWidth,
          dialog: d.scrollWidth - d.clientWidth, inner: Math.max(0, ...inner),
          out: Math.round(d.getBoundingClientRect().right - window.innerWidth), small};
}"""

AXE_JS = """async () => (await axe.run(document.getElementById('dialog'))).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))"""


def _viewer(page: Page) -> dict[str, Any]:
    data = page.evaluate(VIEWER_JS)
    assert data is not None, "the viewer is not open"
    return data  # type: ignore[no-any-return]


def _at(page: Page, frame: int) -> dict[str, Any]:
    page.wait_for_selector(f"dialog[open] #viewer[data-frame='{frame}']", timeout=10_000)
    return _viewer(page)


def _fits(page: Page, buttons: str = "button") -> None:
    """No horizontal scroll (the page, the dialog, a table's scroller), and the
    ``buttons`` shown are at least 40 px each way."""
    fit = page.evaluate(FIT_JS, buttons)
    assert fit["page"] <= 0 and fit["dialog"] <= 0 and fit["out"] <= 0, fit
    assert fit["inner"] <= 0 and fit["small"] == [], fit


def _shots(page: Page, name: str, buttons: str = "button") -> None:
    """The dialog at both sizes (it must fit each: see _fits)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"() => window.innerWidth === {width}")
        _fits(page, buttons)
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def _play_hand(page: Page) -> None:
    """The obvious play (bid 3, the first playable card) to the hand's score sheet."""
    while (kind := step(page)) != "sheet":
        act(page, kind)


def _finished(page: Page) -> GameState:
    return from_dict(record(page))


def _check_frames(page: Page, state: GameState, hand_index: int) -> None:
    """Every frame against the engine, stepping forward with Next and the arrow key."""
    hand = state.past_hands[hand_index]
    seated = hand.seated_plays()
    shown = _at(page, 0)
    assert shown["frames"] == 14 and shown["backs"] == 0
    for seat in Seat:  # every hand face up, as dealt, in the table's order
        assert shown["hands"][seat.name] == [str(c) for c in models.hand_order(hand.dealt(seat))]
    bidding = [Seat((int(hand.dealer) + 1 + k) & 3).name for k in range(4)]
    assert [seat for seat, _ in shown["bids"]] == bidding
    assert [bid for _, bid in shown["bids"]] == [i18n.bid_text(str(b)) for b in hand.bid_history]
    gone: set[str] = set()
    for trick in range(1, 14):
        if trick == 1:
            page.click("dialog[open] [data-action=viewer-next]")
        else:
            page.keyboard.press("ArrowRight")
        shown = _at(page, trick)
        if trick == 1:  # redrawn in place: Next keeps the focus, to be pressed again
            assert page.evaluate("document.activeElement.dataset.action") == "viewer-next"
        plays = seated[4 * (trick - 1):4 * trick]
        assert [(s, c) for s, c, _ in shown["plays"]] == [(s.name, str(c)) for s, c in plays]
        winner = winning_play(plays)[0]
        assert [s for s, _, won in shown["plays"] if won] == [winner.name]
        assert shown["winner"] == (i18n.t("say.trick.you") if winner == Seat.S
                                   else i18n.t("say.trick", seat=i18n.seat_name(winner.name)))
        for seat in Seat:  # the hands as they were before the trick, face up
            held = [str(c) for c in models.hand_order(hand.dealt(seat)) if str(c) not in gone]
            assert shown["hands"][seat.name] == held
        assert shown["backs"] == 0
        gone |= {str(card) for _, card in plays}
    page.keyboard.press("ArrowRight")  # the last frame has no "next"
    assert _viewer(page)["frame"] == 13
    assert page.is_disabled("dialog[open] [data-action=viewer-next]")
    page.keyboard.press("ArrowLeft")
    assert _at(page, 12)["frame"] == 12
    page.click("dialog[open] [data-action=viewer-prev]")
    assert _at(page, 11)["frame"] == 11
    page.keyboard.press("Home")
    assert _at(page, 0)["step"] == i18n.t("viewer.step.bids")
    assert page.is_disabled("dialog[open] [data-action=viewer-prev]")


def _check_verdicts(page: Page, state: GameState, hand_index: int) -> list[dict[str, Any]]:
    """Once the page's review is in: a verdict on each flagged decision's frame, the review
    panel's sentence, and none elsewhere. Returns CPython's items."""
    page.wait_for_selector("dialog[open] #viewer[data-review=done]", timeout=COACH_TIMEOUT_MS)
    # the page reviews at the game's level (whom a Nil figure assumes): FAST's
    items = review_to_dict(review_hand(state, hand_index, level=str(FAST["level"])))["items"]
    assert items, "the test's deal has a flagged decision"
    frames = {0 if item["kind"] == "bid" else int(item["trick_number"]): item for item in items}
    page.keyboard.press("Home")
    for frame in range(14):
        if frame:
            page.keyboard.press("ArrowRight")
        shown = _at(page, frame)
        item = frames.get(frame)
        if item is None:
            assert shown["verdict"] is None, frame
        else:
            sentence = i18n.review_sentence(item)
            assert shown["verdict"] == [item["played"], item["better"], sentence]
    for frame in frames:  # the verdicts' buttons go to their decisions
        page.click(f"dialog[open] .vw-jump[data-arg='{frame}']")
        assert _at(page, frame)["verdict"] is not None
    return items


def test_the_viewer_replays_a_hand_with_the_coachs_verdicts(page: Page,
                                                            live_server: str) -> None:
    i18n.set_language("en")
    i18n.load()
    preset(page, FAST)
    open_app(page, live_server, "?deal=11")
    _play_hand(page)
    state = _finished(page)
    # from the score sheet: the hand's button opens the viewer at the bids
    page.click("dialog[open] [data-action=viewer][data-arg='0']")
    _check_frames(page, state, 0)
    _fits(page)
    items = _check_verdicts(page, state, 0)
    flagged = 0 if items[0]["kind"] == "bid" else int(items[0]["trick_number"])
    page.click(f"dialog[open] .vw-jump[data-arg='{flagged}']")
    _at(page, flagged)
    # axe-core from node_modules (never part of the site), run in the page's global scope
    page.evaluate("source => { (0, eval)(source); }", AXE.read_text())
    assert page.evaluate(AXE_JS) == []
    _shots(page, "verdict-en")
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    _at(page, 3)
    _shots(page, "trick-en")
    # back to the score sheet: the review is there, and each item opens its decision
    page.click("dialog[open] [data-action=viewer-back]")
    page.wait_for_selector("dialog[open] #coach-review[data-state=done]")
    assert page.locator("dialog[open] [data-action=sheet-next]").count() == 1
    _shots(page, "sheet-en", "[data-action^=viewer]")  # its ways into the viewer
    page.click(f"dialog[open] #coach-review .coach-item[data-played='{items[0]['played']}'] "
               "[data-action=viewer]")
    shown = _at(page, flagged)
    assert shown["verdict"] is not None and shown["verdict"][0] == items[0]["played"]
    # Escape leaves the viewer as the score sheet would be left: the bots play on
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    assert step(page) in ("bid", "play")
    assert stored(page, "game")["sheets"] == 1


def test_the_viewer_in_french_from_each_hands_row(page: Page, live_server: str) -> None:
    i18n.set_language("fr")
    i18n.load()
    try:
        preset(page, {**FAST, "language": "fr"})
        open_app(page, live_server, "?deal=4242")
        _play_hand(page)
        state = _finished(page)
        page.click("dialog[open] [data-action=viewer][data-arg='0']")
        shown = _at(page, 0)
        assert shown["step"] == "Les annonces"
        assert page.text_content("#dialog-title") == "Donne 1, pli par pli"
        _check_verdicts(page, state, 0)  # a bid flagged: its verdict on the bids' frame
        page.keyboard.press("Home")
        _at(page, 0)
        _shots(page, "verdict-fr")
        page.click("dialog[open] [data-action=viewer-next]")
        page.keyboard.press("ArrowRight")
        assert _at(page, 2)["step"] == "Pli 2 sur 13"
        _shots(page, "trick-fr")
        page.click("dialog[open] [data-action=viewer-back]")
        act(page, "sheet")
        _play_hand(page)  # a second hand: the sheet's rows open each hand
        state = _finished(page)
        act(page, "sheet")
        if step(page) == "end":  # the game may end after two hands: its sheet stays
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.querySelector('dialog[open]')")
        page.click("#toolbar [data-action=sheet]")
        row = page.locator("dialog[open] .vw-row[data-arg='0']")
        assert row.text_content() == "Donne 1"
        _shots(page, "sheet-fr", "[data-action^=viewer]")
        row.click()
        _at(page, 0)
        _check_frames(page, state, 0)
        page.click("dialog[open] [data-action=viewer-back]")
        page.click("dialog[open] .vw-row[data-arg='1']")
        shown = _at(page, 0)
        assert page.text_content("#dialog-title") == "Donne 2, pli par pli"
        hand = state.past_hands[1]
        assert shown["hands"]["S"] == [str(c) for c in models.hand_order(hand.dealt(Seat.S))]
        assert shown["review"] != "none"  # the second hand's review is kept too
    finally:
        i18n.set_language("en")
