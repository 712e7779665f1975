"""The seats' avatars, drawn as SVG by the project (no image files, no third-party art).

Pure module (standard library only, no browser import): ``avatar_markup("N")`` returns the SVG
of one seat's portrait, a head and shoulders on a coloured disc in a 64x64 viewBox. Each seat
has its own colours, hair and clothes, so the four plates differ at a glance; the picture is
decorative (``aria-hidden``): the plate's name and aria-label say who sits there.

Like ``ui/shared/cardface.py``: presentation attributes only (no ``style`` attribute, allowed by the
page's CSP), no ``id``, no external reference; index.html holds the same markup so that the
plates are painted before Python runs (``tests/test_ui_models.py`` checks the two agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["SEATS", "avatar_markup"]

SEATS = "NESW"


@dataclass(frozen=True)
class _Look:
    ground: str  # the disc
    skin: str
    hair: str
    shirt: str
    hair_path: str  # drawn over the head
    extra: str = ""  # glasses, a cap, a collar...


# The head is a circle at (32, 27) r 11; shoulders below it.
_LOOKS = {
    # North, the partner: short hair, a bow tie
    "N": _Look(
        ground="#2f7fd0", skin="#f1c7a1", hair="#5a3a22", shirt="#f4f1e8",
        hair_path="M21 26C20 16 27 12.5 33 13C40 13.5 44 18 43 26C40 21 35 19.5 30 19.5"
                  "C26 19.5 23 22 21 26Z",
        extra='<path d="M27 49L32 52L27 55ZM37 49L32 52L37 55Z" fill="#c0182b"/>',
    ),
    # East: long hair, earrings
    "E": _Look(
        ground="#b8457a", skin="#c98e64", hair="#1e1410", shirt="#f2c14e",
        hair_path="M20 40C17 28 19 14 32 14C45 14 47 28 44 40C42 35 42 30 41 24"
                  "C38 21 33 20 27 21C24 23 23 28 23 33C22 36 21 38 20 40Z",
        extra='<circle cx="21.5" cy="31" r="1.6" fill="#f2c14e"/>'
              '<circle cx="42.5" cy="31" r="1.6" fill="#f2c14e"/>',
    ),
    # South, the player: a cap
    "S": _Look(
        ground="#2e9b5c", skin="#e8b48a", hair="#8a5a2b", shirt="#24324a",
        hair_path="M21 27C21 22 23 20 25 19L39 19C41 20 43 22 43 27C41 24 37 23 32 23"
                  "C27 23 23 24 21 27Z",
        extra='<path d="M20.5 20C21 12 27 10 32 10C38 10 43 12 43.5 20Z" fill="#c0182b"/>'
              '<path d="M38 19.5C43 18.5 48 19 50 21L43 21.5Z" fill="#8e101e"/>',
    ),
    # West: grey hair, glasses, a beard
    "W": _Look(
        ground="#7d5bbf", skin="#f0c9a8", hair="#c9c5bd", shirt="#3b5d3a",
        hair_path="M21 27C20 18 25 14 32 14C39 14 44 18 43 27C42 23 41 21 39 20"
                  "C35 22 29 22 25 20C23 21 22 23 21 27Z",
        extra='<path d="M23.5 31C24 37 28 39.5 32 39.5C36 39.5 40 37 40.5 31C38 34 35 34.5 32 34.5'
              'C29 34.5 26 34 23.5 31Z" fill="#c9c5bd"/>'
              '<g fill="none" stroke="#1e1410" stroke-width="1.4">'
              '<circle cx="27.5" cy="27.5" r="3.2"/><circle cx="36.5" cy="27.5" r="3.2"/>'
              '<path d="M30.7 27.5H33.3"/></g>',
    ),
}


@cache
def avatar_markup(seat: str) -> str:
    """The SVG portrait of ``seat`` (``"N"``, ``"E"``, ``"S"`` or ``"W"``)."""
    look = _LOOKS[seat]
    return (
        f'<svg class="avatar avatar-{seat}" viewBox="0 0 64 64" aria-hidden="true" '
        'focusable="false" xmlns="http://www.w3.org/2000/svg">'
        f'<circle cx="32" cy="32" r="32" fill="{look.ground}"/>'
        # shoulders, clipped by the disc's lower edge
        f'<path d="M12 58C13 46 21 42 32 42C43 42 51 46 52 58C46 62 39 64 32 64'
        f'C25 64 18 62 12 58Z" fill="{look.shirt}"/>'
        f'<rect x="28" y="34" width="8" height="9" rx="3" fill="{look.skin}"/>'
        f'<circle cx="32" cy="27" r="11" fill="{look.skin}"/>'
        f'<path d="{look.hair_path}" fill="{look.hair}"/>'
        '<circle cx="28" cy="28" r="1.3" fill="#1e1410"/>'
        '<circle cx="36" cy="28" r="1.3" fill="#1e1410"/>'
        '<path d="M28.5 33Q32 35.5 35.5 33" fill="none" stroke="#7a3b2a" '
        'stroke-width="1.3" stroke-linecap="round"/>'
        f"{look.extra}</svg>"
    )
