"""A room's code: its one format, read by the server (``spades_server.protocol``) and by the
page (``ui.rooms``), which both load this package.

Ten characters of an alphabet of 25 (46.4 bits): with 100,000 live rooms and the server's
limit on failed joins per client address (10 a minute), finding any room by guessing takes
about 181 years on average (docs/server.md shows the arithmetic). Shown in two groups of
five (``ACDEF-GHJKM``); read with or without the hyphen or spaces, in either case.
"""

from __future__ import annotations

CODE_LENGTH = 10
GROUP = 5  # characters per group when shown
# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: a code read aloud or copied by hand is not mistaken.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
# What a field or a link may hold: the code, its separators, white space around it.
CODE_INPUT_MAX = 2 * CODE_LENGTH
_SEPARATORS = str.maketrans("", "", "- \t")


def parse_code(text: object) -> str | None:
    """The code in ``text`` (a link's or a field's: case, hyphens and spaces do not
    matter), or None when it is not one."""
    if not isinstance(text, str) or len(text) > CODE_INPUT_MAX:
        return None
    code = text.translate(_SEPARATORS).upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def show_code(code: str) -> str:
    """The code as shown to a reader: groups of five joined by a hyphen."""
    return "-".join(code[index:index + GROUP] for index in range(0, len(code), GROUP))
