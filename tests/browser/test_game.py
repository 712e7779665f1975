"""Playing the game in the browser: a whole game through clicks, same deal same game, resume,
stats, damaged storage, bad deal links, refusals, languages, screens, accessibility."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.browser.apphelpers import (
    FAST,
    act,
    hand_cards,
    open_app,
    play_to_end,
    play_until,
    preset,
    record,
    step,
    stored,
    trick_cards,
    wait_ready,
)

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]
ROOT = Path(__file__).resolve().parents[2]
# axe-core (package.json), for this test only: read from node_modules, never part of the site.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def test_whole_game_through_clicks_then_stats_survive_a_reload(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    preset(page, FAST)
    open_app(page, live_server, "?deal=20261129")
    expect(page.locator("#deal-label")).to_have_text("Deal 20261129")
    assert len(hand_cards(page)) == 13
    assert step(page) == "bid"
    screenshot(page, "bidding")
    act(page, "bid")
    assert step(page) == "play"
    screenshot(page, "playing")
    kinds = play_to_end(page)
    assert "sheet" in kinds
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(re.compile(r"(You and North win!|East and West win\.)"))
    expect(dialog).to_contain_text("Final score")
    screenshot(page, "end")
    final = stored(page, "game")
    assert final["recorded"] is True
    ns, ew = page.evaluate(  # a negative score is written with the minus sign (U+2212)
        "['score-ns', 'score-ew'].map(id =>"
        " +document.getElementById(id).textContent.replace('\u2212', '-'))")
    assert max(ns, ew) >= 200 or min(ns, ew) <= -200

    page.click("dialog[open] [data-action=share]")
    expect(page.locator("#share-link")).to_contain_text("?deal=20261129")

    stats = stored(page, "stats")
    assert stats["levels"]["beginner"]["played"] == 1
    page.reload()
    wait_ready(page)
    assert stored(page, "stats")["levels"]["beginner"]["played"] == 1
    page.keyboard.press("Escape")
    page.click("#menu-button")
    page.click("#screen-menu [data-action=stats]")
    levels = page.locator("#stats-table tr").first.locator("th")
    expect(levels.nth(1)).to_have_text("Beginner")
    played = page.locator("#stats-table tr", has_text="Played").locator("td")
    expect(played).to_have_text(["1", "0", "0", "1"])  # beginner, normal, expert, all
    screenshot(page, "stats")
    page.click("dialog[open] [data-action=close]")

    page.click("#screen-menu [data-action=new]")
    expect(page.locator("#deal-label")).not_to_have_text("Deal 20261129")
    assert step(page) == "bid"


def play_steps(page: Page, plays: int) -> None:
    done = 0
    while done < plays:
        kind = step(page)
        act(page, kind)
        done += kind == "play"


def test_same_deal_same_game_in_two_fresh_contexts(
    make_page: Callable[..., Page], live_server: str
) -> None:
    records = []
    hands = []
    for _ in range(2):
        page = make_page()
        preset(page, {**FAST, "level": "normal"})
        open_app(page, live_server, "?deal=777")
        hands.append(hand_cards(page))
        play_steps(page, 8)
        step(page)
        records.append(record(page))
    assert hands[0] == hands[1] and len(hands[0]) == 13
    assert records[0] == records[1]
    plays = records[0]["hands"][0]["plays"]
    assert len(plays) >= 29  # 8 of ours and the bots' answers


def test_reload_in_the_middle_of_a_trick_resumes_it(page: Page, live_server: str) -> None:
    preset(page, FAST)
    open_app(page, live_server, "?deal=31337")
    for _ in range(60):
        kind = step(page)
        if kind == "play" and page.locator("#trick .card").count() > 0:
            break
        act(page, kind)
    else:
        raise AssertionError("never asked to play in the middle of a trick")
    before = (trick_cards(page), hand_cards(page), record(page))
    assert page.locator("#trick .card").count() in (1, 2, 3)
    page.reload()
    wait_ready(page)
    assert step(page) == "play"
    assert (trick_cards(page), hand_cards(page), record(page)) == before
    expect(page.locator("#deal-label")).to_have_text("Deal 31337")


def test_damaged_storage_is_replaced_with_a_notice(page: Page, live_server: str) -> None:
    preset(page, raw={
        "spades.options.v1": "[1, 2",
        "spades.stats.v1": '{"levels": 5}',
        "spades.game.v1": '{"record": {"format": "spades-record/0"}, "level": "normal"}',
    })
    open_app(page, live_server)
    notices = page.locator("#notices .notice")
    expect(notices).to_have_count(3)
    expect(notices.nth(2)).to_contain_text("saved game could not be read")
    assert stored(page, "options")["target"] == 500
    assert stored(page, "stats")["levels"]["normal"]["played"] == 0
    assert stored(page, "game")["record"]["format"] == "spades-record/1"
    assert len(hand_cards(page)) == 13
    page.click("#notices .notice >> nth=0 >> [data-action=dismiss]")
    expect(notices).to_have_count(2)


def test_one_bad_part_of_stored_data_loses_only_that_part(page: Page, live_server: str) -> None:
    """A day's result under a malformed key, and one option out of range: the notices say
    that the rest was kept, and it is."""
    played = {"played": 50, "won": 30, "best": 510, "streak": 2, "best_streak": 9}
    preset(page, raw={
        "spades.options.v1": json.dumps({"target": 200, "felt": "purple"}),
        "spades.stats.v1": json.dumps({"levels": {"beginner": played}, "daily": {
            "20261201": {"won": True, "ns": 520, "ew": 310},
            "2026-12-02": {"won": True, "ns": 500, "ew": 200}}}),
    })
    open_app(page, live_server)
    notices = page.locator("#notices .notice")
    expect(notices).to_have_count(2)
    expect(notices.nth(0)).to_contain_text("Some saved options could not be read")
    expect(notices.nth(1)).to_contain_text("Part of the saved statistics could not be read")
    assert stored(page, "options")["target"] == 200
    kept = stored(page, "stats")
    assert kept["levels"]["beginner"] == played
    assert list(kept["daily"]) == ["20261201"]


BAD_DEALS = ["abc", "-5", str(2**53), "<b>bold</b>", "", "12abc", "1.5", " 7"]


def test_bad_deal_links_give_a_notice_and_a_random_deal(page: Page, live_server: str) -> None:
    preset(page, FAST)
    first = ""
    for bad in BAD_DEALS:
        open_app(page, live_server, "?deal=" + quote(bad))
        notice = page.locator("#notices .notice")
        expect(notice).to_contain_text("deal link was not valid")
        label = page.locator("#deal-label").text_content() or ""
        assert re.fullmatch(r"Deal \d+", label), (bad, label)
        if not first:  # nothing saved yet: a random deal, and the notice says so
            expect(notice).to_contain_text("here is a new random deal")
            first = label
        else:  # the game saved since stays, and the notice does not promise a new one
            expect(notice).to_contain_text("your saved game is kept")
            assert label == first, (bad, label)
        assert page.locator("b").count() == 0
        assert "deal=" not in page.url
    good = "123456789"
    open_app(page, live_server, "?deal=" + good)
    expect(page.locator("#deal-label")).to_have_text("Deal " + good)
    expect(page.locator("#notices .notice")).to_have_count(0)


def test_a_refused_card_says_why(page: Page, live_server: str) -> None:
    preset(page, {**FAST, "blind_nil": True})
    open_app(page, live_server, "?deal=42")
    assert step(page) == "blind"
    expect(page.locator("#hand .card.back")).to_have_count(13)
    act(page, "blind")
    assert step(page) == "bid"
    page.click("#hand .card >> nth=0")  # still bidding
    expect(page.locator("#message")).to_have_text("Bid first: the cards are not being played yet.")
    act(page, "bid")
    assert step(page) == "play"
    # deal 42: South leads first and holds spades and other suits: spades are not broken
    page.click("#hand .card[data-card$='S'] >> nth=0")
    expect(page.locator("#message")).to_have_text("Spades are not broken yet: lead another suit.")
    expect(page.locator("#live")).to_have_text("Spades are not broken yet: lead another suit.")
    act(page, "play")
    for _ in range(40):
        kind = step(page)
        illegal = page.locator("#hand .card.illegal")
        if kind == "play" and illegal.count() and page.locator("#trick .card").count():
            illegal.first.click()
            expect(page.locator("#message")).to_have_text(
                re.compile(r"You must follow (clubs|diamonds|hearts|spades)\.")
            )
            return
        act(page, kind)
    pytest.skip("no follow-suit refusal came up in this deal")


def test_language_switch_and_keyboard(page: Page, live_server: str, screenshot: Shot) -> None:
    preset(page, FAST)
    open_app(page, live_server, "?deal=42")
    act(page, "bid")
    assert step(page) == "play"
    page.click("[data-action=options]")
    page.select_option("#opt-language", "fr")
    expect(page.locator("#seat-N .seat-name")).to_have_text("Nord")
    expect(page.locator("dialog[open] h2")).to_have_text("Options")
    page.click("dialog[open] [data-action=close]")
    assert page.evaluate("document.documentElement.lang") == "fr"
    expect(page.locator("#turn")).to_contain_text("À vous")
    label = page.locator("#hand .card >> nth=0 >> .sr-only").text_content() or ""
    assert re.match(r"(As|Roi|Dame|Valet|Dix|Neuf|Huit|Sept|Six|Cinq|Quatre|Trois|Deux) de "
                    r"(pique|cœur|carreau|trèfle)", label), label
    screenshot(page, "french")
    page.reload()
    wait_ready(page)
    expect(page.locator("#seat-E .seat-name")).to_have_text("Est")
    # keyboard: arrows move between cards, Enter plays the focused card
    page.locator("#hand .card >> nth=0").focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == hand_cards(page)[1]
    before = len(hand_cards(page))
    page.locator("#hand .card.playable >> nth=0").focus()
    page.keyboard.press("Enter")
    step(page)
    assert len(hand_cards(page)) == before - 1


def test_rules_and_faq_dialog_and_lessons_entry(page: Page, live_server: str) -> None:
    preset(page, FAST)
    open_app(page, live_server)
    page.click("#rules-button")
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Spades are the trump suit")
    page.click("dialog[open] [data-action=faq]")
    expect(dialog).to_contain_text("What are bags?")
    page.keyboard.press("Escape")
    page.click("#menu-button")
    page.click("#screen-menu [data-action=lessons]")
    lessons = page.locator("#screen-lessons")
    menu = page.locator("#screen-menu")
    page.wait_for_function(
        "() => !document.getElementById('screen-lessons').hidden"
        " || document.querySelector('#notices .notice')"
    )
    assert lessons.is_visible() or menu.is_visible()


@pytest.mark.parametrize(("width", "height"), [(375, 667), (1280, 800)],
                         ids=["phone", "desktop"])
def test_screens_fit_and_targets_are_big_enough(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot, width: int, height: int
) -> None:
    page = make_page(width, height)
    preset(page, {**FAST, "blind_nil": True})
    open_app(page, live_server, "?deal=2024")
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    assert step(page) == "blind"
    screenshot(page, "blind")
    act(page, "blind")
    assert step(page) == "bid"
    assert page.evaluate(fits)
    screenshot(page, "bid")
    act(page, "bid")
    assert step(page) == "play"
    small = page.evaluate("""() => [...document.querySelectorAll('button')]
        .filter(b => b.offsetParent !== null)
        .map(b => [b.textContent.trim() || b.getAttribute('aria-label'),
                   b.getBoundingClientRect()])
        .filter(([_, r]) => r.width < 40 || r.height < 40).map(([n]) => n)""")
    if width < 600:
        assert small == []  # on a phone every card is a full-size target
    assert page.evaluate(fits)
    screenshot(page, "play")
    page.click("[data-action=sheet]")
    screenshot(page, "sheet")
    page.keyboard.press("Escape")
    page.click("[data-action=options]")
    assert page.evaluate(fits)
    screenshot(page, "options")


# each table of the open dialog: its width and the room its scrolling box gives it
FITS_IN_DIALOG = """() => [...document.querySelectorAll('dialog[open] .scroll')]
    .map(wrap => [wrap.scrollWidth, wrap.clientWidth])"""


@pytest.mark.parametrize("width", [375, 320])
def test_the_buttons_under_the_hand_keep_to_one_line_on_a_phone_in_french(
    make_page: Callable[..., Page], live_server: str, width: int
) -> None:
    """At 375 and 320 px wide in French ("Feuille de score"), the toolbar's five buttons
    (Claim among them) share one line inside the screen, so the table keeps its height."""
    page = make_page(width, 640)
    preset(page, {**FAST, "language": "fr", "hints": True})
    open_app(page, live_server, "?deal=4242")
    play_until(page, "play", 10)
    boxes = page.eval_on_selector_all(
        "#toolbar button",
        "els => els.filter(e => e.offsetParent).map(e => { const r = e.getBoundingClientRect();"
        " return [r.top, r.left, r.right, e.scrollWidth <= e.clientWidth]; })")
    tops = [box[0] for box in boxes]
    assert len(tops) == 5 and len(set(tops)) == 1, tops
    assert all(box[1] >= 0 and box[2] <= width and box[3] for box in boxes), boxes


LINES = """els => els.map(e => {
    const range = document.createRange(); range.selectNodeContents(e);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })"""


def test_the_score_bar_keeps_the_team_names_on_one_line_on_a_phone_in_french(
    make_page: Callable[..., Page], live_server: str
) -> None:
    """At 375x667 the day's game ("Partie du jour 05/12/2026") takes two lines in the middle
    of the score bar, so that "Vous et Nord" and "Est et Ouest" keep one line each."""
    page = make_page(375, 667)
    preset(page, {**FAST, "language": "fr"})
    today = datetime.date.today()
    open_app(page, live_server, f"?deal={today:%Y%m%d}")
    expect(page.locator("#deal-label")).to_have_text(f"Partie du jour {today:%d/%m/%Y}")
    assert page.eval_on_selector_all(".team-name", LINES) == [1, 1]
    assert page.eval_on_selector_all("#deal-label", LINES) == [2]
    spill = page.eval_on_selector_all(
        ".scorebar > *", "els => els.filter(e => e.scrollWidth > e.clientWidth).length")
    assert spill == 0


@pytest.mark.parametrize("size", [(375, 667), (320, 568)], ids=["375", "320"])
def test_the_score_sheet_and_statistics_fit_a_phone(
    make_page: Callable[..., Page], live_server: str, screenshot: Shot, size: tuple[int, int]
) -> None:
    """After a hand, the sheet's six columns and the statistics' five fit a 375-pixel
    screen in French (the longer language), and the narrowest phones' 320 pixels too:
    nothing to scroll sideways to."""
    page = make_page(*size)
    preset(page, {**FAST, "language": "fr"})
    open_app(page, live_server, "?deal=7")
    play_until(page, "sheet")
    sizes = page.evaluate(FITS_IN_DIALOG)
    assert sizes and all(width <= room for width, room in sizes), sizes
    expect(page.locator("dialog[open] table.dense thead th").last).to_be_in_viewport()
    screenshot(page, "sheet-after-hand")
    act(page, "sheet")
    page.click("#menu-button")
    page.click("#screen-menu [data-action=stats]")
    expect(page.locator("#stats-table")).to_be_visible()
    sizes = page.evaluate(FITS_IN_DIALOG)
    assert sizes and all(width <= room for width, room in sizes), sizes
    screenshot(page, "stats")


def test_no_serious_accessibility_violations(page: Page, live_server: str) -> None:
    preset(page, {**FAST, "blind_nil": True})
    open_app(page, live_server, "?deal=99")
    # Run in the page's global scope by an indirect eval (the page's CSP allows eval, not inline
    # scripts): the server serves only the site, which has no test files.
    page.evaluate("source => { (0, eval)(source); }", AXE.read_text())

    def violations() -> list[str]:
        found = page.evaluate("""async () => (await axe.run(document)).violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))""")
        return list(found)

    assert step(page) == "blind"
    assert violations() == []
    act(page, "blind")
    assert step(page) == "bid"
    assert violations() == []
    act(page, "bid")
    assert step(page) == "play"
    assert violations() == []
    page.click("[data-action=options]")
    assert violations() == []
    page.keyboard.press("Escape")
    page.click("#menu-button")
    assert violations() == []


# every text the live region (read by screen readers) is given, in order: each one is a new
# text node, kept even when several come in one task (the observer is called once for them)
WATCH_LIVE_JS = """() => { window.__said = [];
  new MutationObserver(records => { for (const r of records)
      for (const node of r.addedNodes) window.__said.push(node.textContent); })
    .observe(document.getElementById('live'), {childList: true}); }"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_table_says_each_bid_and_card_in_a_sentence(
    page: Page, live_server: str, language: str
) -> None:
    """What a screen reader hears: South's own bid and card in the second person ("You
    bid 3.", not "You bids 3."), every card with its article ("West plays the 9♣.")."""
    preset(page, {**FAST, "language": language})
    open_app(page, live_server, "?deal=7")
    page.evaluate(WATCH_LIVE_JS)
    for _ in range(8):
        kind = step(page)
        act(page, kind)
        if kind == "play":
            break
    step(page)  # the bots have played after South's card (South may have led)
    said = page.evaluate("window.__said")
    you_bid, you_play, plays = {
        "en": (r"You bid 3\.", r"You play the .+\.", r"(West|North|East) plays the .+\."),
        "fr": (r"Vous annoncez 3\.", r"Vous jouez (le |la |l')\S.*\.",
               r"(Ouest|Nord|Est) joue (le |la |l')\S.*\."),
    }[language]
    assert any(re.fullmatch(you_bid, line) for line in said), said
    assert any(re.fullmatch(you_play, line) for line in said), said
    assert any(re.fullmatch(plays, line) for line in said), said
    assert not any(re.search(r"You (bids|plays)|Vous (annonce|joue)\b", line) for line in said)


MINUS = "\u2212"
HYPHEN_NUMBER = re.compile(r"(?<![\w-])-\d")  # "-60": a hyphen where the minus sign goes


def _finished_daily_game() -> tuple[dict[str, object], tuple[int, int]]:
    """A saved daily game just over (standard rules): North and South bid 6 each every hand
    and fall below the floor, so the page has negative scores to write."""
    from spades_core import GameState, Phase, Rules, Seat, parse_bid
    from ui.table.savegame import SavedGame

    state = GameState.new(Rules(), deal=20261205)
    while state.phase is not Phase.OVER:
        if state.phase is Phase.BIDDING:
            state = state.apply(parse_bid("6" if state.to_act in (Seat.N, Seat.S) else "3"))
        else:
            state = state.apply(state.legal_plays()[0])
    game = SavedGame(state=state, level="beginner", daily=True, seen=state.hand_index,
                     sheets=len(state.past_hands))
    return game.to_json(), state.scores


def test_a_finished_game_keeps_its_last_hand_and_writes_minus_signs(
    page: Page, live_server: str, screenshot: Shot
) -> None:
    """After the game: the plates kept "Bid – · Tricks 0" as if a hand were dealt, Last
    trick said "none has been completed yet in this one", scores were written "-60" (and the
    daily board's nickname box, gone with the offline board, was thin and far right)."""
    saved, (ns, ew) = _finished_daily_game()
    assert ns < 0
    preset(page, FAST, raw={"spades.game.v1": json.dumps(saved)})
    open_app(page, live_server)
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(f"Final score: You & North {MINUS}{-ns}, East & West {ew}.")
    expect(dialog).to_contain_text(f"lost, {MINUS}{-ns} to {ew}.")  # the daily line
    ranked = page.locator("#daily-ranked")  # not ranked: the ranked deal is offered instead
    expect(ranked).to_be_visible()
    assert not HYPHEN_NUMBER.search(dialog.inner_text())
    look = ranked.evaluate("""e => { const s = getComputedStyle(e);
        return {border: s.borderTopWidth, height: e.getBoundingClientRect().height}; }""")
    assert look["border"] == "2px" and look["height"] >= 44, look  # as the other buttons are
    screenshot(page, "end")
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("#score-ns")).to_have_text(f"{MINUS}{-ns}")
    final = saved["record"]["hands"][-1]  # type: ignore[index]
    assert isinstance(final, dict)
    bids = page.eval_on_selector_all("#table .seat .seat-bid", "els => els.map(e => e.textContent)")
    assert "Bid –" not in bids and sorted(bids) == sorted(f"Bid {b}" for b in final["bids"])
    tricks = page.eval_on_selector_all(
        "#table .seat .seat-tricks", "els => els.map(e => e.textContent.split(' ')[1])")
    assert sum(int(text.split("/")[0]) for text in tricks) == 13, tricks
    page.click("[data-action=last]")
    expect(page.locator("dialog[open] .trick-row figure")).to_have_count(4)
    expect(page.locator("dialog[open]")).to_contain_text("Won by")
    expect(page.locator("#last-previous")).to_have_count(0)
    screenshot(page, "last")
    page.click("dialog[open] [data-action=close]")
    page.click("[data-action=sheet]")
    sheet = page.locator("dialog[open]")
    expect(sheet).to_contain_text(f"{MINUS}{-ns}")
    assert not HYPHEN_NUMBER.search(sheet.inner_text())


def _switch_language(page: Page, language: str) -> None:
    page.click("[data-action=options]")
    page.select_option("#opt-language", language)
    page.click("dialog[open] [data-action=close]")


def test_the_message_follows_the_language_and_the_hint_goes_with_hints_off(
    page: Page, live_server: str
) -> None:
    """The hint (or a refusal) under the table stayed in the old language after a change of
    language, and stayed on screen once hints were turned off."""
    preset(page, FAST)
    open_app(page, live_server, "?deal=31337")
    assert step(page) == "bid"
    message = page.locator("#message")
    page.click("#hand .card >> nth=0")  # still bidding: refused
    expect(message).to_have_text("Bid first: the cards are not being played yet.")
    expect(page.locator("#seat-S .seat-turn")).to_have_text("to bid")
    _switch_language(page, "fr")
    expect(message).to_have_text(
        "Annoncez d'abord\u00a0: le jeu de la carte n'a pas commencé.")
    expect(page.locator("#seat-S .seat-turn")).to_have_text("à annoncer")
    # the accessible names of the page's own parts are French too
    assert page.get_attribute("#toolbar", "aria-label") == "Partie"
    assert page.get_attribute("#boot-progress", "aria-label") == "Chargement"
    page.click("#hint-button")
    expect(message).to_have_text(re.compile("^Conseil"), timeout=60_000)
    _switch_language(page, "en")
    expect(message).to_have_text(re.compile(r"^Hint(: bid | — )"))
    assert page.get_attribute("#toolbar", "aria-label") == "Game"
    page.click("[data-action=options]")
    page.uncheck("#opt-hints")
    page.click("dialog[open] [data-action=close]")
    expect(page.locator("#hint-button")).to_be_hidden()
    expect(message).to_have_text("")
    act(page, "bid")
    assert step(page) == "play"
    expect(page.locator("#seat-S .seat-turn")).to_have_text("to play")


def test_enter_on_a_card_keeps_the_focus_in_the_hand(page: Page, live_server: str) -> None:
    """A card played with Enter dropped the focus on <body>: the next Tab started again at
    the Menu button. The focus now stays on the card that took its place."""
    preset(page, {**FAST, "speed": "slow"})  # the bots take their time: focus is seen between
    open_app(page, live_server, "?deal=42")
    act(page, "bid")
    assert step(page) == "play"
    before = hand_cards(page)
    card = page.locator("#hand .card.playable >> nth=0")
    played = card.get_attribute("data-card")
    index = before.index(str(played))
    card.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => !document.querySelector('#hand [data-card=\"{played}\"]')")
    focused = page.evaluate("document.activeElement.closest('#hand') ?"
                            " document.activeElement.dataset.card : null")
    assert focused == before[min(index + 1, len(before) - 1)], (focused, before, played)
    assert step(page) == "play"  # the player's turn again: on a card they may play
    page.wait_for_function("() => document.activeElement.matches('#hand .card.playable')")
    count = len(hand_cards(page))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {count - 1}")
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
