"""South's moves at the solo table: a card, a bid, Blind Nil and looking, the claim, the hint.

``Moves`` checks each with the engine (a refusal is said in words, never decided here) and hands
the action to the game's flow (``GameFlow.apply``, then the bots' loop).
"""

from __future__ import annotations

from typing import Any

from spades_core import BLIND_NIL, Bid, Card, Phase, Seat, parse_bid, parse_card
from spades_core.claim import check_claim

from ..shared import i18n, models, sound
from ..shared.i18n import t
from . import render
from .flow import GameFlow

S = Seat.S


class Moves:
    def __init__(self, app: Any) -> None:
        self.app = app  # the page's controller (ui.table.app.App)
        self.flow: GameFlow = app.flow  # the game on the table

    def do_play(self, card_text: str) -> None:
        """A card clicked (``data-action="play" data-arg="QS"``) or keyed: played if the engine
        allows it, else its refusal said (only "not your turn" while the bots play)."""
        if self.flow.game is None:
            return
        card = parse_card(card_text)
        refusal = self.flow.state.refusal(card, seat=S)  # the engine's one check
        if refusal is not None and (self.flow.waiting or refusal.reason == "not-your-turn"):
            self.refuse(refusal.reason, refusal.params)
        elif refusal is None and self.flow.waiting:
            self.act(card)

    def act(self, action: Card | Bid) -> None:
        self.flow.waiting = False
        render.message("")
        self.flow.render()

        async def go() -> None:
            gen = self.flow.gen
            await self.flow.apply(action, gen)
            if gen == self.flow.gen:
                await self.flow.run()

        self.app.schedule(go())

    def refuse(self, reason: str, params: dict[str, Any]) -> None:
        # said again in the new language if the language changes while it shows
        self.flow.announce(render.message(lambda: i18n.refusal_text(reason, params), refusal=True))
        if self.app.options["sound"]:
            sound.play("refuse")

    def do_bid(self, arg: str) -> None:
        if not self.flow.waiting or self.flow.state.phase is not Phase.BIDDING:
            return
        bid = parse_bid(arg)
        refusal = self.flow.state.refusal(bid, seat=S)
        if refusal is not None:
            self.refuse(refusal.reason, refusal.params)
            return
        self.act(bid)

    def do_claim(self, arg: str) -> None:
        """Claim the rest of the tricks: the engine's check from South's view says why not,
        or South's cards are played in its order, the bots answering, without pauses."""
        if self.app.in_room() or self.flow.game is None or not self.flow.waiting:
            return
        claim = check_claim(self.flow.view())
        if claim.refusal is not None:
            self.refuse(claim.refusal.reason, claim.refusal.params)
            return
        self.flow.waiting = False
        self.flow.hinted = None
        self.flow.announce(render.message(lambda: t("say.claim")))
        self.flow.render()
        self.app.schedule(self.flow.play_claim(claim.order))

    def do_blind(self, arg: str) -> None:
        """Blind Nil, first step: ask for a confirmation (it cannot be taken back)."""
        if self.flow.waiting and self.flow.blind_offered():
            self.flow.blind_armed = True
            self.flow.render()
            render.focus_panel()

    def do_blind_yes(self, arg: str) -> None:
        if self.flow.waiting and self.flow.blind_offered() and self.flow.blind_armed:
            self.flow.blind_armed = False
            self.act(BLIND_NIL)

    def do_blind_no(self, arg: str) -> None:
        self.flow.blind_armed = False
        self.flow.render()
        render.focus_panel("[data-action=blind]")

    def do_look(self, arg: str) -> None:
        if self.flow.game is not None:
            self.flow.blind_armed = False
            self.flow.game.seen = self.flow.state.hand_index
            self.flow.hinted = None  # a hint given face down ("look first") is answered
            render.clear_message("hint")
            self.flow.save()
            self.flow.render()
            render.focus_hand_or_panel()
            self.hint_ahead()  # the cards seen: their hint

    def do_hint(self, arg: str) -> None:
        if not self.flow.waiting or self.flow.game is None:
            render.message(lambda: t("hint.none"), kind="hint")
            return
        state, hand_seen = self.flow.state, not self.flow.face_down()
        level = self.flow.game.level  # the bots at the table: whom a Nil figure assumes
        render.message(lambda: t("hint.thinking"), kind="hint")

        async def ask() -> None:
            if hand_seen:  # the card (or bid) lit first, its sentence from the same search
                action = await self.app.bots.hint_card(state, hand_seen)
                if self.flow.game is None or self.flow.state is not state:
                    return  # the position moved on while the coach thought
                if self.flow.hints_on():
                    self.flow.hinted = action
                    self.flow.render()
            advice = await self.app.bots.hint(state, hand_seen, level)
            if self.flow.game is None or self.flow.state is not state:
                return  # the position moved on while the coach thought
            self.show_hint(advice)

        self.app.schedule(ask())

    def hint_ahead(self) -> None:
        """South must act: the hint worked out ahead in the bots' worker, ready before it
        is asked (``BotRunner.hint_ahead``), when hints are on, South's cards are seen and
        the worker is ready; otherwise nothing (the Hint button asks as before)."""
        flow = self.flow
        if (flow.game is None or not flow.waiting or not flow.hints_on() or flow.face_down()
                or self.app.in_room()):
            self.app.bots.drop_ahead()
            return
        self.app.bots.hint_ahead(flow.state, True, flow.game.level)

    def show_hint(self, advice: Any) -> None:
        if not self.flow.hints_on():
            return  # hints were turned off while the coach thought
        # the card, the bid or Blind Nil it points at is lit; no action: "look" first
        self.flow.hinted = "look" if advice.action is None else str(advice.action)
        self.flow.render()
        # said again in the new language if the language changes while it shows
        self.flow.announce(render.message(lambda: i18n.hint_message(advice), kind="hint"))

    def on_key(self, event: Any, key: str) -> None:
        """A key on the table: the arrows move the focus, a digit plays that legal card."""
        if key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
            if render.move_focus(-1 if key in ("ArrowLeft", "ArrowUp") else 1):
                event.preventDefault()
        elif (len(key) == 1 and key.isdigit() and not event.ctrlKey and not event.altKey
              and self.flow.waiting and self.flow.state.phase is Phase.PLAYING):
            index = (int(key) or 10) - 1
            legal = models.hand_order(self.flow.state.legal_plays())
            if index < len(legal):
                event.preventDefault()
                self.do_play(str(legal[index]))
