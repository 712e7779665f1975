"""Card faces and the card back, drawn as SVG by the project (no image files, no third-party art).

Pure module (standard library only, no browser import), so the tests run it under CPython.

``face_markup("QS")`` returns the SVG of one card: a 250x350 viewBox, full pip layouts for 2-10,
court figures for J/Q/K, large aces (the ace of spades ornate), the two jokers (``BJ``, ``LJ``) and
corner indices (rank + suit, top-left and rotated bottom-right).  ``back_markup()`` returns the back
with its three patterns; ``ui/cards.css`` shows the one the body class asks for (``back-classic``,
``back-navy``, ``back-gold``).

Use: ``ui/cards.css`` must be linked by the page (after ``ui/table.css``; index.html does not link
it yet). Put the string in the card element with ``innerHTML`` and add the class ``has-face`` to
that element (the SVG then draws the whole card); see the top of cards.css for the motion classes.

Colours: the suit colour is ``currentColor``; the root ``<svg>`` carries ``class="cf suit-S"``
(etc.) and ``ui/cards.css`` sets its colour (red hearts and diamonds; ``body.four-colour`` makes
diamonds blue and clubs green). Fixed colours (gold, skin, the card's white) are presentation
attributes, which the page's CSP (``style-src 'self'``) allows; there is no ``style`` attribute, no
script, no ``id`` (many cards share a page, so nothing is referenced by id) and no external
reference: every string renders alone when inserted with ``innerHTML``. Strings are cached per
card.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["RANKS", "SUITS", "back_markup", "face_markup", "suit_letter"]

RANKS = "23456789TJQKA"
SUITS = "SHDC"
W, H = 250, 350
CX, CY = W // 2, H // 2

# Suit pips in a 20-unit box centred on the origin (y from -10 to 10).
PIP = {
    "S": "M0-10C-2-6-10-2-10 3C-10 6.5-7.5 8-5.5 8C-3.5 8-2 7-1 5.5C-1.2 7.5-2 9-3.5 10H3.5"
         "C2 9 1.2 7.5 1 5.5C2 7 3.5 8 5.5 8C7.5 8 10 6.5 10 3C10-2 2-6 0-10Z",
    "H": "M0 9.5C-3 6-10 1.5-10-3.5C-10-7.5-7-10-4.5-10C-2.5-10-.8-8.8 0-7C.8-8.8 2.5-10 4.5-10"
         "C7-10 10-7.5 10-3.5C10 1.5 3 6 0 9.5Z",
    "D": "M0-10Q3.5-4 7.5 0Q3.5 4 0 10Q-3.5 4-7.5 0Q-3.5-4 0-10Z",
    "C": "M0-10A4.8 4.8 0 0 0-4.2-2.8A4.8 4.8 0 1 0-1.2 5.6Q-1.6 8.4-3.8 10H3.8Q1.6 8.4 1.2 5.6"
         "A4.8 4.8 0 1 0 4.2-2.8A4.8 4.8 0 0 0 0-10Z",
}

FONT = ("'Liberation Sans Narrow','Arial Narrow','Roboto Condensed','Helvetica Neue',Arial,"
        "sans-serif")

# Pip columns and rows of the 2-10 layouts.
LX, MX, RX = 88, 125, 162
TOP, BOT = 72, 278
R4 = [TOP, TOP + (BOT - TOP) / 3, TOP + 2 * (BOT - TOP) / 3, BOT]
LAYOUT: dict[str, list[tuple[float, float]]] = {
    "2": [(MX, TOP), (MX, BOT)],
    "3": [(MX, TOP), (MX, CY), (MX, BOT)],
    "4": [(LX, TOP), (RX, TOP), (LX, BOT), (RX, BOT)],
    "5": [(LX, TOP), (RX, TOP), (MX, CY), (LX, BOT), (RX, BOT)],
    "6": [(x, y) for y in (TOP, CY, BOT) for x in (LX, RX)],
    "7": [(x, y) for y in (TOP, CY, BOT) for x in (LX, RX)] + [(MX, (TOP + CY) / 2)],
    "8": [(x, y) for y in (TOP, CY, BOT) for x in (LX, RX)]
         + [(MX, (TOP + CY) / 2), (MX, (CY + BOT) / 2)],
    "9": [(float(x), y) for y in R4 for x in (LX, RX)] + [(MX, CY)],
    "10": [(float(x), y) for y in R4 for x in (LX, RX)]
          + [(MX, (R4[0] + R4[1]) / 2), (MX, (R4[2] + R4[3]) / 2)],
}


def _n(value: float) -> str:
    return f"{round(value, 1):g}"


def _pip(suit: str, x: float, y: float, scale: float, cls: str = "cf-pip",
         flip: bool = False) -> str:
    turn = "rotate(180)" if flip else ""
    return (f'<path class="{cls}" d="{PIP[suit]}" '
            f'transform="translate({_n(x)} {_n(y)}){turn}scale({_n(scale)})"/>')


def _svg(classes: str, body: str, label: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" viewBox="0 0 {W} {H}" '
            f'font-family="{FONT}" font-weight="700" fill="currentColor" aria-hidden="true"'
            f'{label}>'
            f'<rect class="cf-bg" x="1" y="1" width="{W - 2}" height="{H - 2}" rx="16" '
            f'fill="#fffdf7" stroke="#9a968c" stroke-width="2"/>{body}</svg>')


def _turned(body: str) -> str:
    """The same drawing turned half a turn about the card's centre (the bottom-right corner)."""
    return f'<g transform="rotate(180 {CX} {CY})">{body}</g>'


def _index(rank: str, suit: str, printed: str = "") -> str:
    text = printed or ("10" if rank == "T" else rank)
    fit = ' textLength="56" lengthAdjust="spacingAndGlyphs"' if len(text) > 1 else ""
    corner = (f'<text class="cf-rank" x="33" y="72" font-size="80" text-anchor="middle"{fit}>'
              f'{text}</text>' + _pip(suit, 33, 104, 2.1, "cf-ix"))
    return corner + _turned(corner)


def _pips(rank: str, suit: str) -> str:
    key = "10" if rank == "T" else rank
    return "".join(_pip(suit, x, y, 2.05, flip=y > CY) for x, y in LAYOUT[key])


def _ace(suit: str) -> str:
    if suit != "S":
        return _pip(suit, CX, CY, 5.2)
    # The ace of spades: a large spade in a ring with a thin inner outline and flourishes.
    ring = (f'<circle cx="{CX}" cy="{CY}" r="80" fill="none" stroke="currentColor" '
            f'stroke-width="3"/>'
            f'<circle cx="{CX}" cy="{CY}" r="72" fill="none" stroke="{GOLD}" stroke-width="2.5" '
            f'stroke-dasharray="1 7" stroke-linecap="round"/>')
    curls = "".join(_pip("D", CX + dx, CY + dy, 0.9, "cf-orn").replace('"/>', f'" fill="{GOLD}"/>')
                    for dx, dy in ((0, -80), (0, 80), (-80, 0), (80, 0)))
    inner = (f'<path d="{PIP["S"]}" fill="none" stroke="#fffdf7" stroke-width=".7" '
             f'transform="translate({CX} {CY - 4})scale(4.3)"/>')
    return ring + curls + _pip("S", CX, CY - 4, 5.2) + inner


# --- court cards: a framed half-figure, mirrored as on a real card ------------------------------
GOLD = "#d9a83a"
SKIN = "#f5d7b5"
INK = "#1d1d1d"
FX, FY, FW, FH = 66, 24, 118, 302  # the frame between the two corner indices

HEADWEAR = {
    # A king's crown, a queen's tiara, a knave's cap with its feather.
    "K": f'<path d="M101 66l-3-30 14 14 13-20 13 20 14-14-3 30z" fill="{GOLD}" stroke="{INK}" '
         f'stroke-width="2"/><circle cx="125" cy="29" r="4" fill="currentColor"/>',
    "Q": f'<path d="M104 66q-2-18 6-24q6 10 15-8q9 18 15 8q8 6 6 24z" fill="{GOLD}" stroke="{INK}" '
         f'stroke-width="2"/><circle cx="125" cy="50" r="4" fill="currentColor"/>',
    "J": f'<path d="M100 68q4-26 27-26q22 0 24 22z" fill="currentColor" stroke="{INK}" '
         f'stroke-width="2"/><path d="M146 52q14-20 30-22q-8 12-26 28z" fill="{GOLD}" '
         f'stroke="{INK}" stroke-width="1.5"/>',
}
HAIR = {
    "K": f'<path d="M108 92q0 22 17 24q17-2 17-24q-4 10-17 10t-17-10z" fill="{INK}"/>',  # beard
    "Q": f'<path d="M104 70q-6 30 2 44l6-4q-4-18-1-34zm42 0q6 30-2 44l-6-4q4-18 1-34z" '
         f'fill="{INK}"/>',
    "J": '<path d="M105 72q-4 18 2 30l5-3q-3-12 0-25zm40 0q4 18-2 30l-5-3q3-12 0-25z" '
         'fill="#8a5a2b"/>',
}
HELD = {
    # The king's sword, the queen's flower, the knave's halberd (held on the figure's right).
    "K": f'<path d="M165 40v96M157 58h16" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>',
    "Q": f'<path d="M166 132v-62" stroke="#2f7a34" stroke-width="3"/>'
         f'<circle cx="166" cy="64" r="9" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
         f'<circle cx="166" cy="64" r="3" fill="currentColor"/>',
    "J": f'<path d="M167 140V46" stroke="#7a4a1c" stroke-width="4"/>'
         f'<path d="M167 34l-7 16h14z M167 56q14 4 14 16q-8-6-14-6z" fill="#8e969c" '
         f'stroke="{INK}" stroke-width="1.5"/>',
}


def _court_half(rank: str, suit: str) -> str:
    robe = (f'<path d="M78 {CY}q0-50 26-60l21 10 21-10q26 10 26 60z" fill="currentColor" '
            f'stroke="{INK}" stroke-width="2"/>'
            f'<path d="M95 {CY}v-42M155 {CY}v-42" stroke="{GOLD}" stroke-width="5"/>'
            f'<path d="M104 115l21 14 21-14 5 9-26 16-26-16z" fill="{GOLD}" stroke="{INK}" '
            f'stroke-width="1.5"/><circle cx="125" cy="156" r="13" fill="#fffdf7" stroke="{INK}" '
            f'stroke-width="1.5"/>' + _pip(suit, 125, 156, 0.8, "court-pip"))
    head = (f'<ellipse cx="125" cy="88" rx="19" ry="23" fill="{SKIN}" stroke="{INK}" '
            f'stroke-width="2"/><path d="M117 85h1m14 0h1M119 99q6 4 12 0" stroke="{INK}" '
            f'stroke-width="3.5" fill="none" stroke-linecap="round"/>')
    hand = f'<circle cx="163" cy="124" r="6" fill="{SKIN}" stroke="{INK}" stroke-width="1.5"/>'
    return robe + head + HAIR[rank] + HEADWEAR[rank] + HELD[rank] + hand


def _court(rank: str, suit: str) -> str:
    frame = (f'<rect x="{FX}" y="{FY}" width="{FW}" height="{FH}" rx="6" fill="#f3ead2" '
             f'stroke="currentColor" stroke-width="3"/>')
    half = _court_half(rank, suit)
    # The figure is clipped to the top half of the frame by drawing it above the middle line only.
    line = (f'<path d="M{FX} {CY}h{FW}" stroke="{GOLD}" stroke-width="4"/>')
    return frame + half + _turned(half) + line


# --- jokers ---------------------------------------------------------------------------------------
STAR = "M0-10L2.9-4 9.5-3.1 4.7 1.5 5.9 8.1 0 5 -5.9 8.1-4.7 1.5-9.5-3.1-2.9-4Z"


def _joker(big: bool) -> str:
    one, two = ("#c0182b", "#1346b8") if big else (INK, "#8a8a8a")
    star = f'<path d="{STAR}" transform="translate(31 30)scale(2.3)" fill="{one}"/>'
    word = "".join(
        f'<text x="30" y="{88 + 33 * i}" font-size="34" text-anchor="middle" fill="{one}">{ch}'
        f'</text>' for i, ch in enumerate("JOKER"))
    corner = star + word
    hat = (f'<path d="M125 150q-30-50-70-52q30 22 36 70zM125 150q30-50 70-52q-30 22-36 70z" '
           f'fill="{two}" stroke="{INK}" stroke-width="2"/>'
           f'<path d="M125 152q-10-60 0-92q10 32 0 92z" fill="{one}" stroke="{INK}" '
           f'stroke-width="2"/><circle cx="55" cy="98" r="8" fill="{GOLD}"/>'
           f'<circle cx="195" cy="98" r="8" fill="{GOLD}"/><circle cx="125" cy="58" r="8" '
           f'fill="{GOLD}"/>')
    face = (f'<path d="M88 166h74l-6 10h-62z" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
            f'<ellipse cx="125" cy="206" rx="34" ry="32" fill="#fff" stroke="{INK}" '
            f'stroke-width="2"/>'
            f'<path d="M110 198h6m18 0h6M106 214q19 20 38 0" stroke="{INK}" stroke-width="3" '
            f'fill="none" stroke-linecap="round"/><circle cx="125" cy="208" r="4" fill="{one}"/>'
            f'<path d="M72 252q53 34 106 0l-10 22q-43 22-86 0z" fill="{one}" stroke="{INK}" '
            f'stroke-width="2"/>')
    title = (f'<text x="125" y="316" font-size="26" text-anchor="middle" fill="{one}">'
             f'{"BIG" if big else "LITTLE"} JOKER</text>')
    return corner + _turned(corner) + hat + face + title


def suit_letter(card_text: str) -> str:
    """``"QS"`` -> ``"S"``; the jokers count as spades (and anything unreadable too)."""
    text = card_text.strip().upper()
    return text[-1] if text[-1:] in SUITS and text not in ("BJ", "LJ") else "S"


_INDEX_TEXT = re.compile(r"[0-9A-Za-zÀ-ÿ]{1,2}")


@cache
def face_markup(card_text: str, index: str = "") -> str:
    """The SVG of one face: ``"QS"``, ``"TH"``, ``"2C"``, ``"BJ"`` or ``"LJ"`` (``10`` for T).

    ``index`` is the rank as printed in the corners in the reader's language (``"D"`` for the
    French Dame); by default the card text's own (``Q``). Only one or two letters or digits are
    taken, so nothing but an index can reach the markup."""
    text = card_text.strip().upper()
    if text in ("BJ", "LJ"):
        return _svg(f"cf joker {'joker-big' if text == 'BJ' else 'joker-little'}",
                    _joker(text == "BJ"))
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {card_text!r}")
    rank, suit = text[0], text[1]
    if rank == "A":
        middle = _ace(suit)
    elif rank in "JQK":
        middle = _court(rank, suit)
    else:
        middle = _pips(rank, suit)
    printed = index if _INDEX_TEXT.fullmatch(index) else ""
    return _svg(f"cf suit-{suit} rank-{rank}", middle + _index(rank, suit, printed))


# --- the back -------------------------------------------------------------------------------------
IN = 14  # the white margin round the pattern
PW, PH = W - 2 * IN, H - 2 * IN
PX, PY = PW // 2, PH // 2


def _panel(cls: str, ground: str, body: str) -> str:
    """One pattern, in a nested <svg> whose viewport clips it to the panel (no clipPath id)."""
    return (f'<svg class="bk {cls}" x="{IN}" y="{IN}" width="{PW}" height="{PH}" '
            f'viewBox="0 0 {PW} {PH}"><rect width="{PW}" height="{PH}" fill="{ground}"/>'
            f'{body}</svg>')


def _spade(x: float, y: float, scale: float, colour: str) -> str:
    return (f'<path d="{PIP["S"]}" fill="{colour}" '
            f'transform="translate({_n(x)} {_n(y)})scale({_n(scale)})"/>')


@cache
def back_markup() -> str:
    """The card back: three patterns, of which ``ui/cards.css`` shows the chosen one."""
    # Stripes by dashes: a very wide dashed line paints bands across its own direction; two of them
    # cross into a lattice, and a dashed circle as wide as twice its radius paints a sunburst.
    lattice = "".join(f'<path d="{d}" stroke="#d9505b" stroke-width="600" stroke-dasharray="3 15"/>'
                      for d in ("M-250-250L472 472", f"M-250 {PH + 250}L472-250"))
    classic = _panel("bk-classic", "#a51d2a",
                     lattice + f'<ellipse cx="{PX}" cy="{PY}" rx="48" ry="66" fill="#a51d2a" '
                     f'stroke="#fffdf7" stroke-width="4"/>' + _spade(PX, PY, 3.3, "#fffdf7"))
    dots = "".join(f"M7 {y}H{PW}" for y in range(7, PH, 14))
    frames = "".join(f'<rect x="{d}" y="{d}" width="{PW - 2 * d}" height="{PH - 2 * d}" rx="6" '
                     f'fill="none" stroke="#b9cdf5" stroke-width="2"/>' for d in (8, 14))
    navy = _panel("bk-navy", "#14306b",
                  f'<path d="{dots}" stroke="#4d74c4" stroke-width="5" stroke-dasharray="0 14" '
                  f'stroke-linecap="round"/>{frames}<circle cx="{PX}" cy="{PY}" r="42" '
                  f'fill="#14306b" stroke="#b9cdf5" stroke-width="3"/>'
                  + _spade(PX, PY, 2.5, "#b9cdf5"))
    rays = (f'<circle cx="{PX}" cy="{PY}" r="100" fill="none" stroke="#b8891f" '
            f'stroke-width="200" stroke-dasharray="{_n(628.3 / 72)}"/>')
    gold = _panel("bk-gold", "#5a3e0c",
                  rays + f'<circle cx="{PX}" cy="{PY}" r="46" '
                  f'fill="#e9c45a" stroke="#5a3e0c" stroke-width="6"/>'
                  + _spade(PX, PY, 2.8, "#5a3e0c"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="cf cf-back" viewBox="0 0 {W} {H}" '
            f'aria-hidden="true"><rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="16" '
            f'fill="#fffdf7" stroke="#9a968c" stroke-width="2"/>{classic}{navy}{gold}'
            f'<rect x="{IN}" y="{IN}" width="{PW}" height="{PH}" rx="3" fill="none" '
            f'stroke="#fffdf7" stroke-width="3"/></svg>')
