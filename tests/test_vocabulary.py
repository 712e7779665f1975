"""One vocabulary per language: the French texts say pli, annonce, contrat and sac, never the
synonyms a player would take for other things (levée, enchère, surlevée, sandbag); the spade
is "ouvert" (not "cassé", the English "broken"), and cards not yet seen are "en jeu" (not
"dehors", the English "out"); a contract made is "réussi" (as on the score sheet), and a
suit other than spades is "hors pique". A "donne" is one hand; a whole game, named by its
number or as the day's, is a "partie" ("partie n° 42", "partie du jour")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_FR = re.compile(
    r"\b(lev[ée]es?|surlev[ée]es?|ench[èe]res?|sandbags?|cass[ée]e?s?|dehors"
    r"|hors atouts?|contrats? (est |sont )?(fait|rempli|assuré)e?s?"
    r"|rempli\w* (son|leur|votre) contrat)\b",
    re.IGNORECASE)


def _french(node: object, inside_fr: bool = False) -> Iterator[str]:
    if isinstance(node, str):
        if inside_fr:
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _french(value, inside_fr or key == "fr")
    elif isinstance(node, list):
        for value in node:
            yield from _french(value, inside_fr)


def _texts() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "locales" / "fr").glob("*.json")):
        for text in _french(json.loads(path.read_text(encoding="utf-8")), inside_fr=True):
            yield path.name, text
    for path in sorted((ROOT / "lessons").glob("*.json")):
        for text in _french(json.loads(path.read_text(encoding="utf-8"))):
            yield path.name, text


def test_the_french_texts_are_found() -> None:
    names = {name for name, _ in _texts()}
    assert {"table.json", "hints.json", "terminal.json"} <= names
    assert any(name.startswith("rules-") for name in names)


@pytest.mark.parametrize("word", ["levée", "Enchères", "surlevées", "sandbag", "cassés", "dehors",
                                  "as hors atout", "Contrat fait", "a rempli son contrat"])
def test_the_check_sees_each_forbidden_word(word: str) -> None:
    assert FORBIDDEN_FR.search(f"Une phrase avec {word} dedans.")


def test_french_uses_one_vocabulary() -> None:
    found = [f"{name}: {text[:80]}" for name, text in _texts() if FORBIDDEN_FR.search(text)]
    assert found == []


def test_french_names_a_game_partie_and_a_hand_donne() -> None:
    """The deal number names a whole game ("Partie n° 42"); "Donne 3" is the third hand of
    it, so "Donne 42" or "donne du jour" would read as one hand."""
    game_as_hand = re.compile(r"\bdonnes?(\s|\u00a0)+(\{deal\}|n°|du jour)", re.IGNORECASE)
    found = [f"{name}: {text[:80]}" for name, text in _texts() if game_as_hand.search(text)]
    assert found == []
    assert game_as_hand.search("Donne\u00a0{deal}") and game_as_hand.search("les donnes du jour")


def test_no_singular_count_with_a_plural_noun() -> None:
    wrong = re.compile(r"\b1 (tricks|plis|bags|sacs|points)\b")
    for directory in (ROOT / "locales" / "en", ROOT / "locales" / "fr"):
        for path in directory.glob("*.json"):
            assert not wrong.search(path.read_text(encoding="utf-8")), path


def test_french_texts_keep_a_non_breaking_space_before_high_punctuation() -> None:
    """Every French catalogue and the lessons' texts, as French typography wants:
    "Salle ABC234\u00a0: …", "Merci\u00a0!", « citation » with non-breaking spaces inside:
    a narrow screen never starts a line with the mark."""
    fr = ROOT / "locales" / "fr"
    texts: dict[str, str] = {}
    for path in sorted(fr.glob("*.json")):
        texts.update({f"{path.stem}:{key}": text for key, text in
                      json.loads(path.read_text(encoding="utf-8")).items()
                      if isinstance(text, str)})
    assert len(texts) > 500
    wrong = {key: text for key, text in texts.items() if re.search(r"[ \t][:;?!»]|«[ \t]", text)}
    assert wrong == {}
    lesson_text = "".join(path.read_text(encoding="utf-8")
                          for path in sorted((ROOT / "lessons").glob("*.json")))
    assert "\u00a0:" in lesson_text
    assert re.findall(r"[ \t][:;?!»]|«[ \t]", lesson_text) == []
    assert texts["table:rooms.move.choice"] == "{place}\u00a0: {who}"
