"""The table painted before Python is ready (ui/paint.js, issue 45): reading the stored copy.

The copy under ``spades.paint.v1`` is read by ui/paint.js before Python starts; these tests run
that script's ``read``/``why`` under Node (as the build does Pyodide) on hostile values: every
one is refused without an exception (the page then removes the key and starts as before), and
a good copy is read back whole. Then the Python that decides what a click kept on the painted
table becomes (ui/table/savegame.py), and the first visit's welcome: the words the build writes
for it from the catalogues, and what a choice kept on it becomes (ui/table/welcome.py)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from spades_core import GameState, Rules
from spades_core.bots import bot_action, make_bot
from tests.helpers import load_tool
from ui.table import savegame, welcome

PAINT_JS = Path(__file__).resolve().parent.parent / "ui" / "paint.js"
HARNESS = """
const fs = require("fs");
const vm = require("vm");
const context = {};
context.globalThis = context;
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), context);
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
const found = texts.map((text) => {
  const value = context.spadesPaint.read(text);
  const read = value === null ? null : JSON.stringify(value);
  return { why: context.spadesPaint.why(text), read };
});
process.stdout.write(JSON.stringify(found));
"""


def run_read(texts: list[Any]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node is needed (tools/build_web.py needs it too)")
    done = subprocess.run([node, "-e", HARNESS, str(PAINT_JS)], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    return list(json.loads(done.stdout))


CARD_SVG = ["svg", {"class": "cf suit-S rank-A", "viewBox": "0 0 250 350", "aria-hidden": "true"},
            ["rect", {"x": "1", "y": "1", "width": "248", "height": "348", "fill": "#fffdf7"}],
            ["text", {"x": "33", "y": "72", "font-size": "80"}, "A"]]


def good() -> dict[str, Any]:
    hand = ["div", {"class": "hand", "role": "group", "aria-label": "Your hand",
                    "style": {"--n": "13"}},
            ["button", {"class": "card suit-S playable has-face", "type": "button",
                        "data-action": "play", "data-arg": "AS", "data-card": "AS"},
             ["@", 0], ["span", {"class": "sr-only"}, "ace of spades"]]]
    centre = ["div", {"class": "centre"},
              ["div", {"class": "trick", "role": "group"},
               ["span", {"class": "slot slot-N at-top"}]]]
    return {"v": 1, "key": "7:0:0:0:4:1", "lang": "en", "ready": "Getting ready…",
            "queued": "Getting ready… your move is kept", "body": "felt-green back-classic",
            "refs": [copy.deepcopy(CARD_SVG)],
            "parts": {"scorebar": [["div", {"class": "team team-ns"}, "You & North"]],
                      "table": [["div", {"class": "table"}, centre], hand]}}


def changed(path: tuple[Any, ...], value: Any) -> str:
    """The good record's JSON with the item at ``path`` replaced by ``value``."""
    record = good()
    target: Any = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return json.dumps(record)


HAND = ("parts", "table", 1)
CARD = (*HAND, 2)


def hostile() -> dict[str, Any]:
    text = json.dumps(good())
    deep = "[" * 100_000 + "]" * 100_000
    many = ["div", {}] + [["span", {}, "x"] for _ in range(99)]
    return {
        "not JSON": "{not json",
        "empty": "",
        "null": "null",
        "a number": "7",
        "not text": 7,
        "an array": "[1, 2]",
        "too long": text[:-1] + ", \"pad\": \"" + "x" * 400_000 + "\"}",
        "100k deep": deep,
        "deep in a part": changed(("parts", "scorebar"), [json.loads(
            "[\"div\", {}, " * 60 + "\"x\"" + "]" * 60)]),
        "version 2": changed(("v",), 2),
        "no version": json.dumps({k: v for k, v in good().items() if k != "v"}),
        "language de": changed(("lang",), "de"),
        "key not text": changed(("key",), 7),
        "ready too long": changed(("ready",), "x" * 300),
        "body with a quote": changed(("body",), 'felt-green" onload="x'),
        "a third part": changed(("parts", "dialog"), []),
        "a part missing": json.dumps({**good(), "parts": {"table": []}}),
        "a part not a list": changed(("parts", "table"), "text"),
        "script": changed(CARD, ["script", {}, "alert(1)"]),
        "iframe": changed(CARD, ["iframe", {}]),
        "img": changed(CARD, ["img", {}]),
        "onclick": changed((*HAND, 1, "onclick"), "alert(1)"),
        "href": changed((*HAND, 1, "href"), "https://example.com"),
        "id": changed((*HAND, 1, "id"), "dialog"),
        "src": changed((*HAND, 1, "src"), "x.js"),
        "javascript: in data-": changed((*HAND, 1, "data-arg"), "javascript:alert(1)"),
        "url( in fill": changed(("refs", 0, 1, "fill"), "url(https://example.com/x)"),
        "class with a quote": changed((*HAND, 1, "class"), 'hand" x="'),
        "a style property": changed((*HAND, 1, "style"), {"background": "red"}),
        "a style url": changed((*HAND, 1, "style"), {"--n": "url(x)"}),
        "a style as text": changed((*HAND, 1, "style"), "--n: 13"),
        "attributes not an object": changed((*HAND, 1), ["class", "hand"]),
        "a number as a node": changed(CARD, 7),
        "reference out of range": changed((*CARD, 2), ["@", 1]),
        "reference negative": changed((*CARD, 2), ["@", -1]),
        "reference not an integer": changed((*CARD, 2), ["@", 0.5]),
        "a picture refers to itself": changed(("refs", 0, 2), ["@", 0]),
        "svg drawing in HTML": changed(CARD, ["path", {"d": "M0 0"}]),
        "HTML in svg": changed(("refs", 0, 2), ["div", {}, "x"]),
        "too many nodes": changed(("parts", "scorebar"), [many] * 99 + [["div", {}] + [many] * 99]),
        "a text too long": changed(("parts", "scorebar", 0, 2), "x" * 3000),
    }


# Each hostile value is refused by the check meant for it (paint.js's `why`), not by another.
REASONS = {
    "not JSON": "JSON", "empty": "JSON", "null": "not an object", "a number": "not an object",
    "not text": "not text", "an array": "not an object", "too long": "too long",
    "100k deep": "not an object", "deep in a part": "not a node", "version 2": "version",
    "no version": "version", "language de": "language", "key not text": "key or lines",
    "ready too long": "key or lines", "body with a quote": "body classes",
    "a third part": "part names", "a part missing": "part names", "a part not a list": "part",
    "script": "tag", "iframe": "tag", "img": "tag", "onclick": "attribute onclick",
    "href": "attribute href", "id": "attribute id", "src": "attribute src",
    "javascript: in data-": "value of data-arg", "url( in fill": "value of fill",
    "class with a quote": "class", "a style property": "style value",
    "a style url": "style value", "a style as text": "style", "attributes not an object": "attrs",
    "a number as a node": "not a node", "reference out of range": "bad reference",
    "reference negative": "bad reference", "reference not an integer": "bad reference",
    "a picture refers to itself": "bad reference", "svg drawing in HTML": "tag",
    "HTML in svg": "tag", "too many nodes": "too many nodes", "a text too long": "text too long",
}


def test_a_good_copy_is_read_back_whole() -> None:
    text = json.dumps(good())
    [found] = run_read([text])
    assert found["why"] == ""
    assert json.loads(found["read"]) == good()


def test_hostile_copies_are_refused_without_an_exception() -> None:
    cases = hostile()
    assert set(cases) == set(REASONS)
    found = run_read(list(cases.values()))
    for (label, _), result in zip(cases.items(), found, strict=True):
        assert result["read"] is None, label
        assert REASONS[label] in result["why"], (label, result["why"])  # never thrown


def _game(steps: int) -> GameState:
    state = GameState.new(Rules(), deal=2024)
    bot = make_bot("beginner")
    for _ in range(steps):
        state = state.apply(bot_action(bot, state))
    return state


def test_the_paint_key_names_each_point_of_the_game() -> None:
    keys = [savegame.paint_key(_game(n)) for n in (0, 1, 4, 5, 8)]
    assert len(set(keys)) == len(keys)
    assert savegame.paint_key(_game(5)) == keys[3]  # the same point, the same key


def test_a_kept_move_is_played_only_at_the_point_painted() -> None:
    key = savegame.paint_key(_game(4))
    kept = {"key": key, "action": "play", "arg": "AS"}
    assert savegame.kept_move(kept, key) == ("play", "play", "AS")
    assert savegame.kept_move({**kept, "action": "bid", "arg": "3"}, key) == ("play", "bid", "3")
    assert savegame.kept_move(kept, savegame.paint_key(_game(5))) == ("drop", "play", "AS")
    # nothing painted, nothing kept, or what was kept is not a move: nothing to do
    for painted in (None, "play", {**kept, "action": ""}, {**kept, "action": "options"},
                    {**kept, "action": "new"}, {**kept, "arg": 7}, {**kept, "arg": "x" * 20},
                    {**kept, "key": None}, {"action": "play", "arg": "AS"}):
        assert savegame.kept_move(painted, key) == ("none", "", ""), painted


# --- the first visit's welcome, painted from the words the build writes (ui/table/welcome.py)


def _catalogue(lang: str) -> dict[str, str]:
    root = Path(__file__).resolve().parent.parent / "locales"
    return dict(json.loads((root / lang / f"{welcome.CATALOGUE}.json").read_text("utf-8")))


def test_the_early_welcomes_words_come_from_each_languages_catalogue() -> None:
    found = welcome.paint_words(("en", "fr"), _catalogue)
    assert found["choices"] == [list(choice) for choice in welcome.CHOICES]
    for lang in ("en", "fr"):
        entries = _catalogue(lang)
        assert found["words"][lang] == {key: entries[key] for key in welcome.WORDS}
    assert found["words"]["fr"]["welcome.title"] != found["words"]["en"]["welcome.title"]
    # a word missing in a language is said in the first one's (as i18n.t does) ...
    partial = {**_catalogue("fr")}
    del partial["welcome.intro"]
    words = welcome.paint_words(("en", "fr"), lambda lang: partial if lang == "fr"
                                else _catalogue(lang))["words"]
    assert words["fr"]["welcome.intro"] == _catalogue("en")["welcome.intro"]
    # ... and missing in the first one too, the build stops
    with pytest.raises(KeyError, match=r"welcome\.intro"):
        welcome.paint_words(("en",), lambda lang: partial)


def test_the_built_script_holds_the_words_and_the_page_loads_it_before_paint_js() -> None:
    script = welcome.paint_script(("en", "fr"), _catalogue)
    head, _, body = script.partition("globalThis.spadesPaintWords = ")
    assert head.startswith("//") and body.endswith(";\n")
    assert json.loads(body[:-2]) == welcome.paint_words(("en", "fr"), _catalogue)
    build_web = load_tool("build_web")
    assert build_web.paint_words_script() == script
    assert "ui/paint-words.js" in build_web.precache_files()
    page = (PAINT_JS.parent.parent / "index.html").read_text()
    # deferred classic scripts run in order: the words are there when paint.js runs
    assert 0 < page.index('src="./ui/paint-words.js" defer') < page.index(
        'src="./ui/paint.js" defer')


def test_a_choice_kept_on_the_painted_welcome_opens_only_on_pythons_welcome() -> None:
    for action in ("welcome-learn", "daily", "new", "rooms"):
        kept = {"key": welcome.PAINT_KEY, "action": action, "arg": ""}
        assert welcome.kept_choice(kept, True) == ("open", action)
        assert welcome.kept_choice(kept, False) == ("drop", action)
    kept = {"key": welcome.PAINT_KEY, "action": "welcome-learn", "arg": ""}
    for painted in (None, "welcome", {**kept, "action": ""}, {**kept, "action": "options"},
                    {**kept, "action": 3}, {**kept, "key": "deal-1"},
                    {"key": "x", "action": "play", "arg": "AS"}):
        assert welcome.kept_choice(painted, True) == ("none", ""), painted
