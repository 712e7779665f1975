"""The one card widget (browser only): the table, the lessons, the review and the dialogs
draw every card through :func:`card_element`.

It takes a :class:`ui.shared.models.CardModel` (plain data) and returns an element whose face is
``cardface.py``'s markup. Classes: ``card``, ``suit-S`` (``-H``, ``-D``, ``-C``), ``back``,
and the model's states (``playable``, ``illegal``, ``hinted``, ``winner``...). A card with an
``action`` is a ``<button data-action=... data-arg=...>``; others are pictures
(``role="img"``) named by their ``aria-label``; a card button is named by a visually hidden
span (``.sr-only``) holding the model's label. ``data-card`` holds the card's text.
"""

from __future__ import annotations

from typing import Any

from .cardface import back_markup, face_markup, suit_letter
from .dom import el
from .i18n import rank_text
from .models import CardModel


def card_element(model: CardModel) -> Any:
    classes = " ".join(model.classes)
    attrs: dict[str, Any] = {}
    if model.key:
        attrs["data_key"] = model.key
    if not model.face_up:
        node = el("span", cls=f"card back {classes}".strip(), aria_hidden="true", **attrs)
        node.innerHTML = back_markup()
        node.classList.add("has-face")
        return node
    button = bool(model.action)
    if button:
        attrs.update(type="button", data_action=model.action, data_arg=model.arg or None,
                     disabled=model.disabled)
        if model.pressed is not None:
            attrs["aria_pressed"] = "true" if model.pressed else "false"
    else:
        attrs["role"] = "img"
        attrs["aria_label"] = model.label or None
    node = el("button" if button else "span",
              cls=f"card suit-{suit_letter(model.text)} {classes}".strip(),
              data_card=model.text, **attrs)
    # The face is drawn markup made from the card's own text only (see cardface.py), hidden
    # from assistive technology. A picture is named by its aria-label; a button by its content,
    # a visually hidden name, so that its name holds all the text it shows (no aria-label
    # that would differ from the indices drawn on the face).
    rank = "23456789TJQKA".find(model.text[:1])
    node.innerHTML = face_markup(model.text, rank_text(rank + 2) if rank >= 0 else "")
    if button and model.label:
        node.appendChild(el("span", model.label, cls="sr-only"))
    node.classList.add("has-face")
    if model.fan is not None:
        node.style.setProperty("--fan", f"{model.fan:.1f}")
    return node
