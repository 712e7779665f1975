"""placeholder"""

from __future__ import annotations


def main(argv: list[str]) -> int:
    return 0
