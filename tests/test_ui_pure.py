"""The page's pure modules under CPython: catalogues, deal numbers, options, stats, storage,
the saved game and pacing."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest

from spades_core import GameState, Rules, parse_bid
from ui.shared import i18n, options, ports
from ui.shared.storage import KEYS, MemoryBackend, Storage
from ui.table import deals, pacing, savegame, stats

LOCALES = Path(__file__).resolve().parents[1] / "locales"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue_names() -> list[str]:
    return sorted({path.stem for path in LOCALES.glob("*/*.json")})


@pytest.mark.parametrize("name", catalogue_names())
def test_every_key_exists_in_both_languages_with_the_same_placeholders(name: str) -> None:
    en = json.loads((LOCALES / "en" / f"{name}.json").read_text(encoding="utf-8"))
    fr = json.loads((LOCALES / "fr" / f"{name}.json").read_text(encoding="utf-8"))
    assert set(en) == set(fr), set(en) ^ set(fr)
    for key in en:
        assert isinstance(en[key], str) and en[key].strip(), key
        assert isinstance(fr[key], str) and fr[key].strip(), key
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(fr[key])), key


def test_every_key_the_ui_uses_exists() -> None:
    """Literal keys passed to t(...) in ui/*.py are in the table catalogue (or the
    coach's, loaded at boot too)."""
    table = json.loads((LOCALES / "en" / "table.json").read_text(encoding="utf-8"))
    table |= json.loads((LOCALES / "en" / "coach.json").read_text(encoding="utf-8"))
    table_modules = ("table/app", "table/render", "table/dialogs", "main", "shared/botrunner",
                     "shared/models")
    source = "\n".join((LOCALES.parent / "ui" / f"{m}.py").read_text() for m in table_modules)
    used = set(re.findall(r"\bt\(\s*\"([a-z][\w.-]+)\"", source))
    used |= set(re.findall(r"_button\(\s*\"([a-z][\w.-]+)\"", source))
    missing = sorted(key for key in used if key not in table)
    assert not missing


def test_card_names_in_both_languages() -> None:
    try:
        i18n.set_language("fr")
        i18n.load()
        assert i18n.card_name("QS") == "Dame de pique"
        assert i18n.card_name("AH") == "As de cœur"
        assert i18n.card_short("TD") == "10♦"
        assert i18n.t("refusal.must-follow-suit", suit=i18n.suit_name("hearts")) == (
            "Vous devez fournir à cœur."
        )
        i18n.set_language("en")
        assert i18n.card_name("QS") == "Queen of spades"
        assert i18n.card_name("2C") == "Two of clubs"
        assert i18n.t("refusal.must-follow-suit", suit="hearts") == "You must follow hearts."
        assert i18n.t("no.such.key") == "no.such.key"
        assert i18n.day_text(20261205) == "2026-12-05"
        i18n.set_language("fr")
        assert i18n.day_text(20261205) == "05/12/2026"  # a French reader's date
    finally:
        i18n.set_language("en")


def test_language_from_the_browser() -> None:
    assert i18n.pick_language(["fr-CA", "en"]) == "fr"
    assert i18n.pick_language(["de-DE", "en-GB"]) == "en"
    assert i18n.pick_language(["es"]) == "en"


@pytest.mark.parametrize(
    "text",
    ["", "abc", "-5", "+5", " 12", "12 ", "1e5", "1.5", "<b>1</b>", str(2**53), "9" * 40, "٣"],
)
def test_bad_deal_numbers(text: str) -> None:
    assert deals.parse_deal(text) is None


def test_good_deal_numbers() -> None:
    assert deals.parse_deal("0") == 0
    assert deals.parse_deal("20261129") == 20261129
    assert deals.parse_deal(str(2**53 - 1)) == 2**53 - 1
    assert deals.daily_number(datetime.date(2026, 11, 29)) == 20261129
    assert 0 <= deals.random_deal((0xFFFFFFFF, 0xFFFFFFFF)) < 2**53


@pytest.mark.parametrize("words", [(0, 0), (0, 1), (0xFFFFFFFF, 0xFFFFFFFF), (0x1FFFFF, 0),
                                   (12345, 67890), (0xDEADBEEF, 0xCAFEF00D)])
def test_random_deals_are_short_and_never_a_date(words: tuple[int, int]) -> None:
    number = deals.random_deal(words)
    assert 1 <= number <= 9_999_999 and len(str(number)) <= 7
    assert number < deals.daily_number(datetime.date(1000, 1, 1))  # no YYYYMMDD of any real day
    assert deals.parse_deal(str(number)) == number


def test_random_deals_spread_over_the_whole_short_range() -> None:
    drawn = {deals.random_deal((i * 2654435761 & 0xFFFFFFFF, i * 40503 & 0xFFFFFFFF))
             for i in range(2000)}
    assert len(drawn) > 1990
    assert min(drawn) < 1_000_000 and max(drawn) > 9_000_000


def test_a_later_days_daily_deal_waits_for_its_day() -> None:
    today = 20261205
    assert deals.future_daily(20261206, today) and deals.future_daily(20270101, today)
    # today's and earlier days' deals open; so do numbers that name no day
    assert not any(deals.future_daily(n, today) for n in (20261205, 20261204, 19991231))
    assert not any(deals.future_daily(n, today) for n in (20261301, 20261232, 99999999,
                                                          123456789, 2**53 - 1))


def test_old_long_deal_numbers_still_open() -> None:
    for old in (1, 4_503_599_627_370_495, 2**53 - 1, 8_765_432_109_876_543):
        assert deals.parse_deal(str(old)) == old


def test_options_validation() -> None:
    assert options.validate(None, "fr") == (options.defaults("fr"), False)
    found, clean = options.validate({"level": "expert", "target": 200, "floor": False}, "en")
    assert clean and found["level"] == "expert" and found["target"] == 200
    found, clean = options.validate({"target": "200", "felt": "<script>"}, "en")
    assert not clean and found["target"] == 500 and found["felt"] == "green"
    assert options.validate({"floor": 1}, "en")[1] is False
    assert options.rules_kwargs(options.defaults()) == {"target": 500, "floor": -200,
                                                        "blind_nil": True}


def test_stats_record_and_validate() -> None:
    found = stats.empty()
    found = stats.record_game(found, "beginner", True, 230, "20261129", 120)
    found = stats.record_game(found, "beginner", True, 210)
    found = stats.record_game(found, "beginner", False, 150)
    row = found["levels"]["beginner"]
    assert (row["played"], row["won"], row["best"], row["streak"], row["best_streak"]) == (
        3, 2, 230, 0, 2)
    assert stats.win_rate(row) == pytest.approx(2 / 3)
    assert found["daily"] == {"20261129": {"won": True, "ns": 230, "ew": 120}}
    assert stats.validate(json.loads(json.dumps(found))) == (found, True)
    assert stats.validate({"levels": 5})[1] is False
    assert stats.validate({"levels": {"normal": {"played": -1}}})[1] is False
    assert stats.totals(found)["played"] == 3


def test_stats_keep_what_can_be_read() -> None:
    """One bad part (a day's key, a level's row) is dropped; the rest of the history stays."""
    found = stats.empty()
    for _ in range(50):
        found = stats.record_game(found, "beginner", True, 230)
    found = stats.record_game(found, "normal", False, 180, "20261201", 320)
    stored = json.loads(json.dumps(found))
    stored["daily"]["2026-12-02"] = {"won": True, "ns": 510, "ew": 100}
    stored["daily"]["20261203"] = {"won": "yes", "ns": 510, "ew": 100}
    stored["levels"]["expert"] = {"played": 2, "won": 3, "best": 0, "streak": 0,
                                  "best_streak": 0}
    assert stats.validate(stored) == (found, False)
    stored = json.loads(json.dumps(found))
    stored["daily"] = ["20261201"]
    assert stats.validate(stored) == ({**found, "daily": {}}, False)
    stored["levels"] = None
    assert stats.validate(stored) == (stats.empty(), False)


def test_storage_reports_and_replaces_damaged_data() -> None:
    backend = MemoryBackend()
    store = Storage(backend)
    backend.setItem(KEYS["options"], "{not json")
    value, damaged = store.load("options", options.validate)
    assert damaged and value == options.defaults()
    assert json.loads(backend.items[KEYS["options"]]) == options.defaults()
    value, damaged = store.load("options", options.validate)
    assert not damaged
    assert store.load("stats", stats.validate) == (stats.empty(), False)  # nothing stored
    assert all(key.endswith(".v1") for key in KEYS.values())


def test_saved_game_round_trips_mid_trick() -> None:
    state = GameState.new(Rules(target=200), deal=42)
    for token in ("3", "2", "2", "1"):
        state = state.apply(parse_bid(token))
    state = state.apply(state.legal_plays()[0])
    state = state.apply(state.legal_plays()[0])
    game = savegame.SavedGame(state=state, level="beginner", seen=0, sheets=0)
    loaded, clean = savegame.check(json.loads(json.dumps(game.to_json())))
    assert clean and loaded is not None
    assert loaded.state == state and loaded.level == "beginner" and len(loaded.state.trick) == 2
    assert savegame.check(None) == (None, True)
    for bad in ("text", {"record": {"format": "nope"}, "level": "normal"},
                {**game.to_json(), "level": "godlike"}):
        assert savegame.check(bad) == (None, False)


def test_pacing() -> None:
    assert pacing.pace("instant") == {"bot": 0, "trick": 0, "gather": 0}
    assert pacing.pace("slow")["bot"] > pacing.pace("normal")["bot"] > pacing.pace("fast")["bot"]
    assert pacing.bot_delay("normal", 10_000) == 0
    assert pacing.pace("bogus") == pacing.pace("normal")


def test_the_page_catalogues_never_define_a_key_twice() -> None:
    """The page merges its catalogues into one namespace: a key in two files would let one
    silently replace the other (the Nil button once showed a hint's sentence)."""
    import json
    from pathlib import Path

    locales = Path(__file__).resolve().parents[1] / "locales"
    for lang in ("en", "fr"):
        owner: dict[str, str] = {}
        for path in sorted((locales / lang).glob("*.json")):
            if path.stem == "terminal":  # the terminal's own catalogue, never loaded by the page
                continue
            for key in json.loads(path.read_text(encoding="utf-8")):
                assert key not in owner, f"{lang}: {key!r} is in {owner.get(key)} and {path.name}"
                owner[key] = path.name


ROOT = LOCALES.parent
# Symbols the page may show as text: the suits and a few arrows and marks that every common
# font draws. Anything else in the symbol and emoji blocks would be a missing glyph somewhere:
# the page draws such icons itself (ui/table/icons.py, CSS).
TEXT_SYMBOLS = set("♠♥♦♣←→↺★✓")


def _symbol_blocks(char: str) -> bool:
    code = ord(char)
    blocks = ((0x2190, 0x21FF), (0x2300, 0x23FF), (0x25A0, 0x27BF), (0x2B00, 0x2BFF))
    return any(a <= code <= b for a, b in blocks) or code >= 0x1F000 or code in (0xFE0F, 0x200D)


def test_no_emoji_or_pictograph_in_what_the_page_shows() -> None:
    files = [ROOT / "index.html", *sorted((ROOT / "ui").rglob("*.py")),
             *sorted((ROOT / "ui").glob("*.css")), *sorted((ROOT / "ui").glob("*.js")),
             *sorted(LOCALES.glob("*/*.json")), *sorted((ROOT / "lessons").glob("*.json"))]
    found = {
        f"{path.relative_to(ROOT)}: {char} U+{ord(char):04X}"
        for path in files
        for char in set(path.read_text(encoding="utf-8"))
        if _symbol_blocks(char) and char not in TEXT_SYMBOLS
    }
    assert sorted(found) == []


def test_the_seats_before_python_read_as_render_draws_them() -> None:
    i18n.set_language("en")
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert html.count(f'<span class="seat-bid">{i18n.t("seat.bid", bid="–")}</span>') == 4
    assert html.count(f'<span class="seat-tricks">{i18n.t("seat.tricks", tricks=0)}</span>') == 4
    for seat in "NESW":
        label = i18n.t("seat.label", seat=i18n.seat_name(seat), bid="–", tricks=0)
        assert f'data-seat="{seat}" aria-label="{label}"' in html


def test_a_hint_says_its_action_once() -> None:
    """ "Hint: bid 3. Bid 3: you hold…" said the bid twice: a sentence that opens with the
    action the hint gives goes on from there, one that names it follows "Hint —" alone."""
    from spades_core import Bid, parse_card
    from spades_core.hints import Hint

    spades = Hint(Bid(3), "count-spades", "coach.bid.spades",
                  {"bid": "3", "spades": "4", "aces": "0"})
    master = Hint(parse_card("AD"), "count-cards", "coach.play.lead-master",
                  {"card": "AD", "suit": "diamonds"})
    cash = Hint(parse_card("AD"), "cash-aces-early", "coach.play.cash-ace",
                {"card": "AD", "suit": "diamonds"})
    try:
        for language in ("en", "fr"):
            i18n.set_language(language)
            i18n.load()
            i18n.load("hints")
            for advice in (spades, master, cash):
                text = i18n.hint_message(advice)
                action = (i18n.bid_text("3") if advice is spades else i18n.card_definite("AD"))
                assert text.count(action) == 1, text
        i18n.set_language("en")
        assert i18n.hint_message(spades) == (
            "Hint: bid 3. You hold 4 spades (each one beyond the third is about a trick) "
            "and 0 side-suit aces.")
        assert i18n.hint_message(master).startswith(
            "Hint: lead the ace of diamonds. The higher diamonds have all been played")
        assert i18n.hint_message(cash).startswith("Hint — Cash your ace: lead the ace of")
        i18n.set_language("fr")
        assert i18n.hint_message(spades).startswith("Conseil\u00a0: annoncez 3. Vous avez 4 piques")
    finally:
        i18n.set_language("en")


def test_numbers_are_written_with_the_minus_sign_and_percentages_as_the_language_does() -> None:
    """Scores were written "-60" in some places and "−60" in others; the win rate "0 %" in
    English. One formatter (ui/shared/i18n.py) writes every number the page shows."""
    minus = "\u2212"
    assert i18n.number(-60) == f"{minus}60" and i18n.number(0) == "0"
    assert i18n.number(212) == "212"
    assert i18n.signed(60) == "+60" and i18n.signed(-60) == f"{minus}60"
    assert i18n.signed(0) == "0"
    try:
        i18n.set_language("en")
        assert i18n.percent(0) == "0%" and i18n.percent(45) == "45%"
        i18n.set_language("fr")
        assert i18n.percent(45) == "45\u202f%"  # a narrow no-break space: never wraps
    finally:
        i18n.set_language("en")
    # "about 134.2 points": whole points for a learner (amounts come in tenths)
    assert [i18n.whole_points(v) for v in (1342, 1345, 1349, 50, -1346)] == [
        134, 135, 135, 5, -135]


def test_no_number_shown_to_players_is_formatted_by_hand() -> None:
    """The page's text goes through i18n.number / signed / percent: no "-" or " %" made by
    hand, no score turned into text by str() in what the page draws."""
    sources = {name: (ROOT / "ui" / f"{name}.py").read_text(encoding="utf-8")
               for name in ("table/app", "table/dialogs", "table/render", "shared/models",
                            "rooms/rooms_screen", "rooms/rooms", "lessons/lessons_screen")}
    for name, source in sources.items():
        assert not re.search(r"\d\)?\} ?%\"", source), name  # f"{rate} %"
        assert not re.search(r"str\([\w.\[\]\"']*scores?\b", source), name
        assert '"-200"), ' not in source and "\"-500\")," not in source, name
        assert not re.search(r"\b(ns|ew)=(result|scores?)\b[^,)]*[,)]", source), name
    for language in ("en", "fr"):
        table = json.loads((LOCALES / language / "table.json").read_text(encoding="utf-8"))
        assert not [key for key, text in table.items()
                    if re.search(r"(?<![\w{-])-\d", text)], language


def test_the_blind_nil_panel_says_any_trick_loses_it_as_the_confirmation_does() -> None:
    """It said "−200 if you take one", the confirmation "one trick or more: −200"."""
    en = json.loads((LOCALES / "en" / "table.json").read_text(encoding="utf-8"))
    fr = json.loads((LOCALES / "fr" / "table.json").read_text(encoding="utf-8"))
    assert "−200 if you take one or more" in en["bid.blind.help"]
    assert "−200 si vous en faites un ou plus" in fr["bid.blind.help"]



@pytest.mark.parametrize(("choice", "speed", "expected"), [
    ("by-speed", "instant", True), ("by-speed", "fast", True), ("by-speed", "normal", False),
    ("by-speed", "slow", False), ("always", "slow", True), ("never", "instant", False),
])
def test_the_only_card_is_played_by_itself_by_option_and_speed(
    choice: str, speed: str, expected: bool
) -> None:
    chosen, clean = options.validate({"auto_play": choice, "speed": speed})
    assert clean and options.auto_play(chosen) is expected
    assert options.auto_play(options.defaults()) is False  # the default speed is normal


def test_an_action_goes_to_the_handler_of_the_first_controller_that_has_it() -> None:
    """The table's dispatch (ui/table/app.py) finds a click's handler once, among its
    controllers in order: ``data-action="blind-yes"`` is ``do_blind_yes``."""
    calls: list[tuple[str, str]] = []

    class Shell:
        def do_menu(self, arg: str) -> None:
            calls.append(("shell", arg))

    class Moves:
        def do_play(self, arg: str) -> None:
            calls.append(("play", arg))

        def do_blind_yes(self, arg: str) -> None:
            calls.append(("blind", arg))

        def do_menu(self, arg: str) -> None:  # hidden by the shell's, which comes first
            calls.append(("moves-menu", arg))

    owners = (Shell(), Moves())
    for name, arg in (("play", "QS"), ("blind-yes", ""), ("menu", "x")):
        handler = ports.handler_of(owners, name)
        assert handler is not None, name
        handler(arg)
    assert calls == [("play", "QS"), ("blind", ""), ("shell", "x")]
    for name in ("", "deal", "play()", "__class__", "a.b", "do-play"):
        assert ports.handler_of(owners, name) is None, name
    assert ports.dispatch(owners[1], "play", "AH") and calls[-1] == ("play", "AH")
    assert not ports.dispatch(owners[0], "play", "AH") and len(calls) == 4
