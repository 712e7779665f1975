"""A lesson under way, drawn (renderer): the lesson player's state (``lessons_player.Player``)
as the step list, the board or the bidding table, the step's text, its choices and verdict,
and the controls; and the lessons screen's small DOM helpers and words.

Plain data in, elements out: callbacks are action names (``data-action`` / ``data-arg``) that
the lessons screen dispatches (``ui/lessons/lesson_controller.py`` acts on them). Cards are
drawn by the page's one card widget (``ui/shared/cardview.py``); lesson text goes in as
``textContent``, never as HTML.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from spades_core.cards import parse_card
from spades_core.lessons import (
    LOOK,
    AnswerStep,
    BiddingPosition,
    BidStep,
    PlayStep,
    Position,
    PracticeStep,
    WatchStep,
)
from spades_core.seats import Seat

from ..shared import i18n
from ..shared.cardview import card_element
from ..shared.dom import el
from ..shared.models import RED_SUITS, CardModel, card_name, hand_order, suit_key
from .lessons_player import Player, choice_label
from .lessons_progress import Progress

# --- text: the lessons.* keys of locales/<lang>/lessons.json, through ui.shared.i18n ------------


class _Text:
    def __init__(self) -> None:
        i18n.load("lessons")

    def language(self) -> str:
        return i18n.language()

    def t(self, key: str, **params: object) -> str:
        return i18n.t(f"lessons.{key}", **params)


# --- DOM helpers ---------------------------------------------------------------------------


def h(tag: str, cls: str | None = None, text: str | None = None, **attrs: object) -> Any:
    """``dom.el`` with the class before the text, as this screen writes it."""
    return el(tag, text, cls, **attrs)


def button(text: str, action: str, arg: str = "", cls: str = "lx-btn", key: str | None = None,
           **attrs: object) -> Any:
    element = h("button", cls, text, type="button", data_action=action, data_arg=arg or None,
                data_key=key or f"{action}:{arg}", **attrs)
    return element


def _seat_area(seat: Seat) -> str:
    return {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}[seat]



class LessonView:
    """Draws a lesson under way, in the lessons' words (``_Text``)."""

    def __init__(self, text: _Text) -> None:
        self.text = text

    def t(self, key: str, **params: object) -> str:
        return self.text.t(key, **params)

    @property
    def lang(self) -> str:
        return self.text.language()

    def step_text(self, step: Any) -> str:
        lang = self.lang
        if isinstance(step, PlayStep | BidStep | AnswerStep):
            return step.prompt.get(lang)
        text = getattr(step, "text", None)
        return text.get(lang) if text is not None else ""

    def message(self, state: Any) -> str:
        text = self._verdict_text(state)
        if text and not state.solved and state.misses and not state.hint:
            text = self.t("try.again") + " " + text  # one miss: the verdict, then why
        return text

    def _verdict_text(self, state: Any) -> str:
        if state.message is not None:
            return str(state.message.get(self.lang))
        if state.fallback:
            return self.t(state.fallback)
        if state.refusal:  # an illegal card: the engine's reason, worded as on the table
            return i18n.refusal_text(state.refusal, state.refusal_params)
        return ""

    def render_player(self, view: Any, player: Player, progress: Progress) -> None:
        """Draw the lesson under way (the player's state) into ``view``."""
        lesson = player.lesson
        lang = self.lang
        step = player.step
        head = h("header", "lx-head")
        head.append(button("← " + self.t("back"), "list", cls="lx-btn lx-back",
                           aria_label=self.t("back.label")),
                    h("h2", "lx-title", lesson.title.get(lang), tabindex="-1",
                      data_key="heading"))
        view.append(head)
        view.append(self._step_nav(player, progress))

        body = h("div", "lx-body")
        scene = player.scene()
        if isinstance(scene, Position):
            body.append(self._board(player, scene))
        elif isinstance(scene, BiddingPosition):
            body.append(self._bidding_board(player, scene))

        panel = h("div", "lx-panel", data_step=str(player.index + 1), data_kind=step.kind)
        panel.append(h("p", "lx-step-of", self.t("step.of", number=player.index + 1,
                                                 total=player.total)
                       + " · " + self.t(f"kind.{step.kind}")))
        panel.append(h("p", "lx-text", self.step_text(step)))
        state = player.state
        if isinstance(step, AnswerStep) and step.entry:
            panel.append(self._entry(player, step))
        elif isinstance(step, BidStep | AnswerStep) and not (
                isinstance(step, AnswerStep) and step.ask == "cards"):
            panel.append(self._choices(player, step))
        if isinstance(step, AnswerStep) and step.ask == "cards" and not state.solved:
            panel.append(button(self.t("check"), "check", cls="lx-btn lx-primary",
                                aria_label=self.t("check.label")))
        if isinstance(step, PracticeStep):
            panel.append(h("p", "lx-practice-info",
                           self.t("practice.info", level=self.t(f"level.{step.level}"),
                                  hand=str(step.hand), deal=str(step.deal))))
            panel.append(button(self.t("practice.start"), "practice",
                                cls="lx-btn lx-primary lx-practice"))
        message = self.message(state)
        if message:
            tone = "good" if state.solved else "bad"
            if isinstance(step, PracticeStep):
                tone = "bad"
            panel.append(h("p", f"lx-feedback lx-{tone}", message, data_tone=tone))
        coach = self._coach(player)
        if coach:
            panel.append(h("p", "lx-coach", coach))
        panel.append(self._controls(player))
        body.append(panel)
        view.append(body)

    def _coach(self, player: Player) -> str:
        """Why the hint engine suggests the expected action (strategy steps it agrees with)."""
        step = player.step
        if not getattr(step, "hint_agrees", False) or not player.state.hint:
            return ""
        try:
            from spades_core.hints import hint
            from spades_core.lessons import step_view

            from ..shared import i18n

            i18n.load("hints")
            view = step_view(step)
            if view is None:
                return ""
            suggestion = hint(view)
            if not suggestion.reason:
                return ""
            reason = i18n.hint_sentence(suggestion.reason, dict(suggestion.params),
                                        suggestion.contrast, None, suggestion.why,
                                        suggestion.said)
            if suggestion.tip and i18n.has(f"tip.{suggestion.tip}.name"):
                return self.t("coach", tip=i18n.t(f"tip.{suggestion.tip}.name"), reason=reason)
            return reason
        except Exception as error:  # the coach's words are a bonus: never break the step
            js.console.warn(f"lessons: no hint text ({error})")
            return ""

    def _step_nav(self, player: Player, progress: Progress) -> Any:
        nav = h("nav", "lx-steps", aria_label=self.t("steps.label"))
        items = h("ol", "lx-step-list")
        lesson_id = player.lesson.id
        for index, step in enumerate(player.lesson.steps):
            done = progress.is_done(lesson_id, index)
            cls = "lx-step"
            if done:
                cls += " lx-step-done"
            if index == player.index:
                cls += " lx-step-current"
            label = self.t("step.goto", number=index + 1, total=player.total,
                           kind=self.t(f"kind.{step.kind}"),
                           done=self.t("step.done") if done else "")
            item = h("li")
            item.append(button(str(index + 1), "goto", str(index), cls=cls, aria_label=label,
                               aria_current="step" if index == player.index else None))
            items.append(item)
        nav.append(items)
        return nav

    def _controls(self, player: Player) -> Any:
        bar = h("div", "lx-controls")
        bar.append(button("← " + self.t("previous"), "prev", cls="lx-btn",
                          disabled=player.index == 0))
        step = player.step
        acting = player.acting()
        if acting is not None and not player.state.solved:
            bar.append(button(self.t("hint"), "hint", cls="lx-btn lx-hint",
                              aria_label=self.t("hint")))
        if isinstance(step, WatchStep):
            bar.append(button("↺ " + self.t("replay"), "replay", cls="lx-btn",
                              aria_label=self.t("replay")))
        last = player.index + 1 >= player.total
        label = self.t("finish") if last else self.t("next")
        cls = "lx-btn lx-next"
        if acting is None or player.state.solved:
            cls += " lx-primary"
        bar.append(button(label + " →", "next", cls=cls, aria_label=label))
        return bar

    def _card_face(self, card: Any, tag: str = "span", extra: str = "",
                   pressed: bool | None = None) -> Any:
        """A card through the page's one widget: a picture, or a button (``do_card``)."""
        suit = suit_key(card)
        token = str(card)
        classes = [f"lx-card lx-{suit}" + (" lx-red" if suit in RED_SUITS else "") + extra]
        if tag == "button":
            classes.append("lx-card-btn")
        model = CardModel(text=token, label=card_name(card),
                          action="card" if tag == "button" else "",
                          arg=token if tag == "button" else "",
                          classes=tuple(" ".join(classes).split()), pressed=pressed,
                          key=f"card:{token}" if tag == "button" else "")
        return card_element(model)

    def _backs(self, count: int) -> Any:
        group = h("span", "lx-backs", role="img",
                  aria_label=self.t("seat.backs", count=count))
        for _ in range(min(count, 4)):
            group.append(card_element(CardModel(classes=("lx-cardback",))))
        if count > 4:  # many cards: a short fan and their number
            group.append(h("span", "lx-backs-count", f"×{count}", aria_hidden="true"))
        return group

    def _classes(self, player: Player, token: str) -> str:
        extra = ""
        if token in player.marked():
            extra += " lx-marked"
        if token in player.lit():
            extra += " lx-lit"
        state = player.state
        if state.wrong == token or token in state.wrong_cards:
            extra += " lx-wrong"
        if state.solved and state.chosen == token:
            extra += " lx-right"
        return extra

    def _seat_box(self, player: Player, seat: Seat, bid: str | None, tricks: int | None,
                  dealer: bool) -> Any:
        hl = player.step.highlights
        cls = f"lx-seat lx-seat-{_seat_area(seat)}"
        if seat in hl.seats:
            cls += " lx-seat-marked"
        box = h("div", cls, data_seat=seat.name)
        name = i18n.seat_name(seat.name)
        label = h("div", "lx-seat-label")
        label.append(h("span", "lx-seat-name", name))
        if dealer:
            label.append(h("span", "lx-badge lx-dealer", self.t("seat.dealer")))
        if bid is not None:
            bid_cls = "lx-badge lx-bid" + (" lx-marked" if seat in hl.bids else "")
            label.append(h("span", bid_cls, self.t("seat.bid", bid=self._bid_text(bid))))
        if tricks is not None:
            label.append(h("span", "lx-badge lx-tricks", self.t("seat.tricks", count=tricks)))
        box.append(label)
        return box

    def _bid_text(self, token: str) -> str:
        return i18n.bid_text(token)

    def _board(self, player: Player, scene: Position) -> Any:
        board = h("div", "lx-board", role="group", aria_label=self.t("table.label"))
        run = scene.run()
        bids_shown = any(bid is not None for bid in scene.bids)
        show_tricks = bids_shown or any(run.tricks)
        step = player.step
        for seat in (Seat.N, Seat.W, Seat.E):
            bid = scene.bids[seat]
            box = self._seat_box(player, seat, str(bid) if bid is not None else None,
                                 run.tricks[seat] if show_tricks else None, False)
            held = scene.held(seat)
            cards = h("div", "lx-seat-cards")
            if seat in scene.show:
                for card in hand_order(held):
                    cards.append(self._card_face(card, extra=self._classes(player, str(card))
                                                 + " lx-small"))
                backs = scene.hidden[seat]
            else:
                backs = len(held) + scene.hidden[seat]
            if backs:
                cards.append(self._backs(backs))
            box.append(cards)
            board.append(box)
        board.append(self._trick(player, scene))
        south_bid = scene.bids[Seat.S]
        south = self._seat_box(player, Seat.S,
                               str(south_bid) if south_bid is not None else None,
                               run.tricks[Seat.S] if show_tricks else None, False)
        hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.label"))
        state = player.state
        clickable = (isinstance(step, PlayStep) and not state.solved) or (
            isinstance(step, AnswerStep) and step.ask == "cards" and not state.solved)
        choosable = set(step.choices) if isinstance(step, AnswerStep) else None
        for card in hand_order(scene.held(Seat.S)):
            token = str(card)
            extra = self._classes(player, token)
            if clickable and (choosable is None or token in choosable):
                pressed: bool | None = None
                if isinstance(step, AnswerStep):
                    pressed = token in state.selected
                    if pressed:
                        extra += " lx-selected"
                hand.append(self._card_face(card, "button", extra, pressed))
            else:
                hand.append(self._card_face(card, extra=extra))
        if scene.hidden[Seat.S]:
            hand.append(self._backs(scene.hidden[Seat.S]))
        south.append(hand)
        board.append(south)
        if scene.scores != (0, 0) or scene.bags != (0, 0):
            board.append(self._scores(scene.scores, scene.bags))
        return board

    def _trick(self, player: Player, scene: Position) -> Any:
        centre = h("div", "lx-trick", role="group", aria_label=self.t("trick.label"))
        seated = scene.table_trick()
        if not seated:
            centre.append(h("span", "lx-trick-empty", self.t("trick.empty")))
        for seat, card in seated:
            slot = h("div", f"lx-slot lx-slot-{_seat_area(seat)}")
            face = self._card_face(card, extra=self._classes(player, str(card)))
            face.setAttribute("aria-label", self.t(
                "seat.card.played",
                seat=i18n.seat_name(seat.name),
                card=card_name(card)))
            slot.append(face)
            centre.append(slot)
        return centre

    def _scores(self, scores: tuple[int, int], bags: tuple[int, int]) -> Any:
        line = h("p", "lx-scores")
        for index, team in enumerate(("NS", "EW")):
            line.append(h("span", "lx-score", self.t("score", team=self.t(f"team.{team}"),
                                                     score=i18n.number(scores[index]),
                                                     bags=bags[index])))
        return line

    def _bidding_board(self, player: Player, scene: BiddingPosition) -> Any:
        board = h("div", "lx-board lx-bidding", role="group", aria_label=self.t("table.label"))
        for seat in (Seat.N, Seat.W, Seat.E):
            bid = scene.bids[seat]
            box = self._seat_box(player, seat, str(bid) if bid is not None else None, None,
                                 scene.dealer is seat)
            cards = h("div", "lx-seat-cards")
            cards.append(self._backs(13))
            box.append(cards)
            board.append(box)
        board.append(h("div", "lx-trick"))
        south = self._seat_box(player, Seat.S, None, None, scene.dealer is Seat.S)
        if scene.hand is None:
            hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.hidden"))
            hand.append(self._backs(13))
        else:
            hand = h("div", "lx-hand", role="group", aria_label=self.t("hand.label"))
            for card in hand_order(scene.hand):
                hand.append(self._card_face(card, extra=self._classes(player, str(card))))
        south.append(hand)
        board.append(south)
        if scene.scores != (0, 0) or scene.bags != (0, 0):
            board.append(self._scores(scene.scores, scene.bags))
        return board

    def _entry(self, player: Player, step: AnswerStep) -> Any:
        """A number field and its Check button (a score, a count: typed, not chosen)."""
        state = player.state
        box = h("div", "lx-entry")
        field = h("input", "lx-entry-input", type="text", inputmode="numeric",
                  autocomplete="off", aria_label=self.t("entry.label"), data_key="entry")
        if state.solved:
            field.value = state.chosen or ""
            field.disabled = True
        elif state.hint:
            field.placeholder = step.expect[0]
        box.append(field)
        if not state.solved:
            box.append(button(self.t("check"), "enter", cls="lx-btn lx-primary lx-entry-check",
                              aria_label=self.t("check.label")))
        return box

    def _choices(self, player: Player, step: BidStep | AnswerStep) -> Any:
        lang = self.lang
        if isinstance(step, BidStep):
            scene = step.scene
            if scene.hand is None:
                tokens = (["blind-nil"] if scene.rules.blind_nil else []) + [LOOK]
            else:
                tokens = [str(bid) for bid in scene.legal_bids()]
            cls = "lx-choices lx-bids"
        else:
            tokens = list(step.choices)
            cls = "lx-choices" + (" lx-numbers" if step.ask == "number" else "")
        group = h("div", cls, role="group", aria_label=self.t("choices.label"))
        solved = player.state.solved
        for token in tokens:
            label = choice_label(step, token, lang, self.t)
            extra = self._classes(player, token)
            attrs: dict[str, Any] = {"disabled": solved}
            if isinstance(step, AnswerStep) and step.ask == "card":
                card = parse_card(token)
                suit = suit_key(card)
                extra += " lx-card-choice" + (" lx-red" if suit in RED_SUITS else "")
                attrs["aria_label"] = card_name(card)
            group.append(button(label, "choice", token, cls="lx-btn lx-choice" + extra,
                                **attrs))
        return group

