"""Small DOM helpers (browser only). Text always goes in as ``textContent``, never as HTML."""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

try:  # newer Pyodide hands JavaScript's null to Python as ``jsnull``, not None
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - older Pyodide
    jsnull = None

document = js.document


def nil(value: Any) -> bool:
    """True for JavaScript's null or undefined as Pyodide hands them over."""
    return value is None or value is jsnull or type(value).__name__ in ("JsNull", "JsUndefined")


def byid(name: str) -> Any:
    return document.getElementById(name)


def el(tag: str, text: str | None = None, cls: str | None = None, **attrs: object) -> Any:
    """A new element; ``data_x`` / ``aria_x`` attributes are written ``data-x`` / ``aria-x``."""
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = text
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        node.setAttribute(name, "" if value is True else str(value))
    return node


def add(parent: Any, *children: Any) -> Any:
    for child in children:
        if child is not None:
            parent.appendChild(child)
    return parent


def clear(node: Any) -> Any:
    node.replaceChildren()
    return node


def set_text(node: Any, text: str) -> None:
    if node is not None and node.textContent != text:
        node.textContent = text
