"""The card faces of ui/shared/cardface.py: well-formed, complete, safe under the page's CSP,
small."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ui.shared.cardface import RANKS, SUITS, back_markup, face_markup

SVG = "{http://www.w3.org/2000/svg}"
CARDS = [r + s for s in SUITS for r in RANKS]
ALL = [*CARDS, "BJ", "LJ"]
LIMIT = 4096  # bytes of markup per face or back


def _markups() -> list[tuple[str, str]]:
    return [(text, face_markup(text)) for text in ALL] + [("back", back_markup())]


def test_the_deck_is_complete() -> None:
    assert len(CARDS) == 52
    assert len(set(CARDS)) == 52


@pytest.mark.parametrize("name,markup", _markups())
def test_well_formed_and_safe(name: str, markup: str) -> None:
    root = ET.fromstring(markup)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "0 0 250 350"
    assert "cf" in (root.get("class") or "").split()
    assert "style=" not in markup and "<style" not in markup
    assert "<script" not in markup.lower() and "javascript:" not in markup.lower()
    assert not re.search(r'href="(?!#)', markup), "no external references"
    assert "href=\"http" not in markup and "url(" not in markup
    assert " id=" not in markup, "cards share a page: no ids"
    assert re.search(r"\son\w+=", markup) is None, "no event handlers"
    assert len(markup.encode()) < LIMIT, f"{name}: {len(markup)} bytes"


def _pips(markup: str) -> list[ET.Element]:
    root = ET.fromstring(markup)
    return [node for node in root.iter(SVG + "path") if node.get("class") == "cf-pip"]


@pytest.mark.parametrize("rank", "23456789T")
def test_pip_count(rank: str) -> None:
    want = 10 if rank == "T" else int(rank)
    for suit in SUITS:
        assert len(_pips(face_markup(rank + suit))) == want, rank + suit


def test_pips_are_the_suit_and_follow_css_colour() -> None:
    for suit in SUITS:
        markup = face_markup("7" + suit)
        root = ET.fromstring(markup)
        assert f"suit-{suit}" in root.get("class", "").split()
        assert root.get("fill") == "currentColor"
        shapes = {node.get("d") for node in _pips(markup)}
        assert len(shapes) == 1
    assert len({_pips(face_markup("5" + s))[0].get("d") for s in SUITS}) == 4


def test_layouts_are_symmetric() -> None:
    """Every pip has its partner turned half a turn about the centre (the 7's extra pip aside)."""
    for rank in "2345689T":
        spots = set()
        for node in _pips(face_markup(rank + "S")):
            x, y = (float(v) for v in re.findall(r"translate\(([\d.]+) ([\d.]+)\)",
                                                 node.get("transform", ""))[0])
            spots.add((round(x), round(y), "rotate(180)" in node.get("transform", "")))
        for x, y, turned in spots:
            if (x, y) == (125, 175):
                continue
            partner = (250 - x, y, turned) if y == 175 else (250 - x, 350 - y, not turned)
            assert partner in spots, (rank, x, y)


def _index_texts(markup: str) -> list[str]:
    root = ET.fromstring(markup)
    return [node.text or "" for node in root.iter(SVG + "text") if node.get("class") == "cf-rank"]


@pytest.mark.parametrize("text", CARDS)
def test_corner_index_shows_the_rank(text: str) -> None:
    rank = "10" if text[0] == "T" else text[0]
    assert _index_texts(face_markup(text)) == [rank, rank]  # top-left and bottom-right
    assert "rotate(180 125 175)" in face_markup(text)


@pytest.mark.parametrize("rank", "JQKA")
def test_courts_and_aces_have_their_own_drawing(rank: str) -> None:
    faces = {face_markup(rank + s).replace(f"suit-{s}", "") for s in SUITS}
    assert len(faces) == 4  # each suit's pip is drawn in
    assert not _pips(face_markup(rank + "H")) or rank == "A"


def test_ace_of_spades_is_ornate() -> None:
    assert len(face_markup("AS")) > len(face_markup("AH")) + 400


def test_jokers() -> None:
    big, little = face_markup("BJ"), face_markup("LJ")
    assert big != little
    assert "BIG JOKER" in big and "LITTLE JOKER" in little
    assert "joker-big" in ET.fromstring(big).get("class", "")


def test_back_has_three_patterns() -> None:
    root = ET.fromstring(back_markup())
    kinds = [node.get("class") for node in root.iter() if "bk" in (node.get("class") or "").split()]
    assert kinds == ["bk bk-classic", "bk bk-navy", "bk bk-gold"]
    assert "cf-back" in root.get("class", "")


def test_spellings_and_cache() -> None:
    assert face_markup("10H") == face_markup("TH") == face_markup("th")
    assert face_markup("QS") is face_markup("QS")
    for bad in ("", "1S", "QX", "XJ", "QSS"):
        with pytest.raises(ValueError):
            face_markup(bad)


def test_cards_css_names_every_class_the_ui_uses() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "ui" / "cards.css").read_text()
    for name in (".card.dealing", ".trick.gathering", '[data-winner="N"]', ".card.playable",
                 "prefers-reduced-motion", ".four-colour", ".back-navy", ".back-gold",
                 "suit-H", "suit-D", "suit-C"):
        assert name in css, name
