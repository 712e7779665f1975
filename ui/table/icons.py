"""Small icons drawn by the project as inline SVG (browser only).

Emoji and pictographic characters (a trophy, the menu trigram, play and warning signs) show as
an empty box where no emoji or symbol font is installed, so the page draws its icons itself.
Suit symbols (♠♥♦♣) stay text: every common font has them. Each icon is decorative
(``aria-hidden``): the text beside it says it all.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

SVG_NS = "http://www.w3.org/2000/svg"

# name -> path data in a 24x24 box, filled with the text colour (currentColor)
PATHS = {
    "trophy": (
        "M7 3h10v2h3.5v2.5c0 2.7-1.9 4.9-4.4 5.4A5 5 0 0 1 13 15.9V18h3v3H8v-3h3v-2.1"
        "a5 5 0 0 1-3.1-3A5.5 5.5 0 0 1 3.5 7.5V5H7zM5.5 7v.5c0 1.5.9 2.7 2.1 3.2A9 9 0 0 1 7 7z"
        "m13 0H17c0 1.3-.2 2.6-.6 3.7 1.2-.5 2.1-1.7 2.1-3.2z"
    ),
    "menu": "M3 5h18v2.6H3zm0 5.7h18v2.6H3zm0 5.7h18V19H3z",
}


def icon(name: str, cls: str = "") -> Any:
    """An ``<svg class="icon icon-NAME">`` element, hidden from assistive technology."""
    svg = js.document.createElementNS(SVG_NS, "svg")
    svg.setAttribute("viewBox", "0 0 24 24")
    svg.setAttribute("aria-hidden", "true")
    svg.setAttribute("focusable", "false")
    svg.setAttribute("class", f"icon icon-{name} {cls}".strip())
    path = js.document.createElementNS(SVG_NS, "path")
    path.setAttribute("d", PATHS[name])
    path.setAttribute("fill", "currentColor")
    svg.appendChild(path)
    return svg
