"""Terminal play: scripted input through whole games, refusals explained, hints, the texts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from spades_core import GameState, Phase, Rules
from spades_core.bots import make_bot
from spades_core.terminal import LOCALES, Terminal, Texts, play
from tests.helpers import position

ROOT = Path(__file__).resolve().parent.parent
REFUSALS = (
    "not-your-turn", "not-in-hand", "must-follow-suit", "spades-not-broken", "not-bidding",
    "not-playing", "game-over", "blind-nil-off", "awaiting-deal",
)


def scripted(answers: dict[str, Callable[[], str]], extra: list[str] | None = None
             ) -> tuple[Callable[[str], str], list[str]]:
    """A reader answering each prompt by its kind, after the lines of ``extra``."""
    shown: list[str] = []
    queue = list(extra or [])
    texts = Texts("en")
    kinds = {texts(f"prompt.{kind}"): kind for kind in ("blind", "bid", "card")}

    def read(prompt: str) -> str:
        shown.append(prompt)
        if queue:
            return queue.pop(0)
        return answers[kinds[prompt]]()

    return read, shown


def test_a_whole_game_with_scripted_legal_cards() -> None:
    holder: dict[str, Terminal] = {}
    read, _ = scripted({
        "blind": lambda: "",
        "bid": lambda: "4",
        "card": lambda: str(holder["t"].state.legal_plays()[-1]),
    })
    out: list[str] = []
    state = GameState.new(Rules(target=200), deal=2026)
    terminal = Terminal(state, make_bot("normal"), Texts("en"), read, out.append)
    holder["t"] = terminal
    assert terminal.run() == 0
    assert terminal.state.phase is Phase.OVER
    text = "\n".join(out)
    assert "Score after hand 1" in text
    assert re.search(r"win the game, -?\d+ to -?\d+", text)
    assert not any(re.search(r"\{[a-z]+\}", line) for line in out)  # every placeholder filled


def test_a_refused_card_shows_the_reason() -> None:
    # W leads a heart; South holds one: a club is refused, the heart is taken
    state = position(
        {"S": "2H 3C", "W": "4C", "N": "5C 6C", "E": "7C 8C"}, leader="W", trick="9H",
    )
    out: list[str] = []
    holder: dict[str, Terminal] = {}
    read, _ = scripted({"card": lambda: str(holder["t"].state.legal_plays()[0])},
                       extra=["3C", "ZZ", "last", "help"])
    terminal = holder["t"] = Terminal(state, make_bot("normal"), Texts("en"), read, out.append)
    terminal.run()
    text = "\n".join(out)
    assert "You cannot play that. You must follow hearts." in text
    assert '"ZZ" is not a card' in text
    assert "No trick has been completed" in text
    assert "Commands:" in text
    assert "You play 2♥." in text


def test_refusal_in_french() -> None:
    state = position({"S": "2H 3C", "W": "4C", "N": "5C 6C", "E": "7C 8C"}, leader="W",
                     trick="9H")
    out: list[str] = []
    answers = ["3C", "2H", "3C"]
    Terminal(state, make_bot("normal"), Texts("fr"), lambda prompt: answers.pop(0),
             out.append).run()
    assert any("Vous devez fournir à cœur" in line for line in out)


def test_hint_and_last_trick() -> None:
    out: list[str] = []
    read, _ = scripted({"blind": lambda: "", "bid": lambda: "nil"},
                       extra=["hint", "", "hint", "3"])
    state = GameState.new(Rules(), deal=5)
    terminal = Terminal(state, make_bot("normal"), Texts("en"), read, out.append)

    def stop(prompt: str) -> str:
        if terminal.state.phase is Phase.PLAYING:
            raise EOFError
        return read(prompt)

    terminal.read = stop
    assert terminal.run() == 0
    text = "\n".join(out)
    assert "Hint: look at your cards before you bid." in text or "Hint: bid Blind Nil" in text
    assert "Hint: bid " in text
    assert "You bid 3." in text
    assert out[-1] == Texts("en")("bye")


def test_quit_and_end_of_input_leave_cleanly() -> None:
    out: list[str] = []
    assert play("beginner", deal=1, read=lambda prompt: "quit", write=out.append) == 0
    assert out[-1] == Texts("en")("bye")

    def eof(prompt: str) -> str:
        raise EOFError

    out.clear()
    assert play("beginner", deal=1, read=eof, write=out.append) == 0


def test_command_line_play_with_piped_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_core", "play", "--level", "beginner", "--deal", "7",
         "--lang", "fr"],
        cwd=ROOT, input="\n3\nhint\nZZ\n", capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0
    assert "Vos cartes" in done.stdout
    assert "n'est pas une carte" in done.stdout


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_catalogues_are_complete(lang: str) -> None:
    english = json.loads((LOCALES / "en" / "terminal.json").read_text(encoding="utf-8"))
    texts = json.loads((LOCALES / lang / "terminal.json").read_text(encoding="utf-8"))
    assert set(texts) == set(english)
    for key, text in texts.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key]))
    # names and refusal reasons: the page's catalogue, worded once for both (locales/names.py)
    shared = json.loads((LOCALES / lang / "table.json").read_text(encoding="utf-8"))
    for key in REFUSALS:
        assert f"refusal.{key}" in shared and f"refusal.{key}" not in texts
    for key in ("clubs", "diamonds", "hearts", "spades"):
        assert f"suit.{key}" in shared


def test_terminal_texts_are_not_in_the_code() -> None:
    source = (ROOT / "spades_core" / "terminal.py").read_text(encoding="utf-8")
    for text in ("Your card", "Votre carte", "Score after", "takes the trick"):
        assert text not in source
