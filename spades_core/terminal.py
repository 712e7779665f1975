"""Playing South in a terminal: ``python -m spades_core play --level normal --deal N``.

The three other seats are bots of the chosen level.  The person types a bid (``3``,
``nil``, ``blind-nil`` before looking at the cards), a card (``QS``, ``10h``), or a
command: ``hint``, ``last`` (the last trick), ``help``, ``quit``.  A refused card is
explained with the engine's refusal reason.  The score sheet follows every hand.

No rule is decided here: legality, refusals, scores and bot decisions come from the
engine, the bots and the hints.  Every sentence shown comes from the text catalogues
shared with the page, ``locales/<lang>/terminal.json`` (and ``table.json`` for the names of
cards, seats and bids and the refusal reasons, ``hints.json`` for the hints' reasons,
``coach.json`` for the review after each hand), flat
``key -> text`` objects with ``{param}`` placeholders; a key missing in a language falls
back to English, then to the key itself.  Cards, seats, bids and refusals are named by the
page's own namer, ``locales/names.py``: the terminal and the page say them alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .bids import BLIND_NIL, Bid, BidParseError, parse_bid
from .bots import Bot, bot_action, make_bot
from .cards import CARD_TEXT, SUIT_MASKS, Card, CardParseError, ids_of_mask, parse_card
from .errors import Refusal, SpadesError
from .game import GameState, HandResult, Phase
from .rules import Rules, winning_play
from .seats import SEATS, Seat
from .views import view_for

# The catalogues beside this package (repository root / the page's app.zip): no ui import.
LOCALES = Path(__file__).resolve().parents[1] / "locales"
LANGUAGES = ("en", "fr")
PERSON = Seat.S

Read = Callable[[str], str]
Write = Callable[[str], None]

_T = TypeVar("_T")


class Texts:
    """The terminal's sentences in one language (with English as the fallback)."""

    def __init__(self, lang: str = "en", root: Path = LOCALES) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self.entries: dict[str, str] = {}
        self.hints: dict[str, str] = {}  # the hints' own catalogue (reasons and tips)
        for language in ("en", self.lang):
            self.entries.update(_load(root / language / "table.json"))  # names, refusals
        for language in ("en", self.lang):
            self.entries.update(_load(root / language / "terminal.json"))
            self.entries.update(_load(root / language / "coach.json"))  # the review, the par
            self.hints.update(_load(root / language / "hints.json"))

    def __call__(self, key: str, **params: object) -> str:
        return _format(self.entries.get(key, key), params)

    def hint_text(self, key: str, **params: object) -> str | None:
        """A sentence of the hints' catalogue, or None if it has none for ``key``."""
        text = self.hints.get(key)
        return None if text is None else _format(text, params)

    def coach(self, key: str, params: dict[str, str]) -> str | None:
        """A coach template (``coach.*``) in words: plural forms resolved, each card ``X``
        given as ``X`` and, with its article, ``X_def``."""
        text = self.hints.get(key, self.entries.get(key))  # the review's are in coach.json
        if text is None:
            return None
        names = _names()
        both = _Both(self)
        return _format(names.plural(text, params, self.lang),
                       dict(names.coach_params(params, both, person=False)))

    def has(self, key: str) -> bool:
        return key in self.entries

    def card(self, text: str) -> str:
        """A card's text for the screen: ``QS`` -> ``Q♠`` (``D♠`` in French)."""
        try:
            card = parse_card(text)
        except CardParseError:
            return text
        return str(_names().card_short(str(card), self))

    def seat(self, seat: int) -> str:
        return str(_names().seat_name(SEATS[seat].name, self, person=False))

    def bid(self, bid: Bid) -> str:
        return str(_names().bid_text(str(bid), self))

    def params(self, params: dict[str, str]) -> dict[str, str]:
        """Parameters made readable: cards with symbols, suits and seats named."""
        return dict(_names().params(params, self, person=False))

    def refusal(self, refusal: Refusal) -> str:
        return str(_names().refusal_text(refusal.reason, refusal.params, self, self.has,
                                         person=False))


class _Both:
    """A translate function over the hints' catalogue and then the others (the coach's
    parameters need both: ``card.def*`` and the names)."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts

    def __call__(self, key: str, **params: object) -> str:
        text = self.texts.hints.get(key)
        return self.texts(key, **params) if text is None else _format(text, params)


def _names() -> Any:
    """The page's namer, ``locales/names.py`` (beside this package, not inside it: it holds
    no text, only the catalogues' keys)."""
    import importlib.util
    import sys

    module = sys.modules.get("locales.names")
    if module is None:
        spec = importlib.util.spec_from_file_location("locales.names", LOCALES / "names.py")
        if spec is None or spec.loader is None:
            raise ImportError(f"no namer in {LOCALES}")
        module = importlib.util.module_from_spec(spec)
        sys.modules["locales.names"] = module
        spec.loader.exec_module(module)
    return module


def _format(text: str, params: dict[str, object]) -> str:
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def _load(path: Path) -> dict[str, str]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(key): str(value) for key, value in data.items()}


def _hint_function() -> Callable[..., Any] | None:
    try:
        from .hints import hint
    except ImportError:
        return None
    return hint


class Terminal:
    """One game at the terminal; :meth:`run` plays it to the end."""

    def __init__(self, state: GameState, bot: Bot, texts: Texts, read: Read, write: Write,
                 level: str | None = None) -> None:
        self.state = state
        self.bot = bot
        self.level = level  # the bots' level: whom the coach's Nil odds are said to assume
        self.t = texts
        self.read = read
        self.write = write
        self.hint = _hint_function()

    # --- showing -----------------------------------------------------------------

    def hand_text(self, mask: int) -> str:
        groups = []
        for suit in (3, 2, 1, 0):
            cards = [self.t.card(CARD_TEXT[c]) for c in reversed(list(ids_of_mask(
                mask & SUIT_MASKS[suit])))]
            if cards:
                groups.append(" ".join(cards))
        return "   ".join(groups) if groups else self.t("hand.empty")

    def show_table(self) -> None:
        state = self.state
        view = view_for(state, PERSON)
        bids = []
        for seat in SEATS:
            bid = view.bids[seat]
            if bid is not None:
                bids.append(self.t("bids.entry", seat=self.t.seat(seat), bid=self.t.bid(bid)))
        if bids:
            self.write(self.t("bids.so-far", bids=", ".join(bids)))
        if state.phase is Phase.PLAYING:
            taken = view.tricks_won
            self.write(self.t(
                "tricks.so-far", ns=taken[0] + taken[2], ew=taken[1] + taken[3]))
            if view.trick:
                self.write(self.t("trick.now", cards=self.trick_text(view.trick)))
            else:
                self.write(self.t("trick.lead"))
        self.write(self.t("hand.yours", cards=self.hand_text(state.held_mask(PERSON))))

    def trick_text(self, trick: tuple[tuple[Seat, Card], ...]) -> str:
        return ", ".join(
            self.t("trick.entry", seat=self.t.seat(seat), card=self.t.card(str(card)))
            for seat, card in trick
        )

    def show_last_trick(self) -> None:
        trick = self.state.last_trick
        if not trick:
            self.write(self.t("last.none"))
            return
        winner, _ = winning_play(trick)
        self.write(self.t("last.trick", cards=self.trick_text(trick), seat=self.t.seat(winner)))

    def show_sheet(self, result: HandResult) -> None:
        t = self.t
        self.write("")
        self.write(t("sheet.title", number=result.hand_index + 1))
        bids = result.bids_by_seat
        for team, score in enumerate(result.teams):
            seats = (SEATS[team], SEATS[team + 2])
            self.write(t(
                "sheet.row", team=t(f"team.{'NS' if team == 0 else 'EW'}"),
                bids=" + ".join(t.bid(bids[s]) for s in seats),
                tricks=score.tricks, contract=score.contract, points=f"{score.points:+d}",
                bags=score.bags_after, total=result.scores[team],
            ))
            if score.contract > 0 and not score.made:
                self.write(t("sheet.set", contract=score.contract, tricks=score.tricks))
            for nil in score.nils:
                self.write(t(
                    "sheet.nil-made" if nil.made else "sheet.nil-failed",
                    seat=t.seat(nil.seat), bid=t.bid(BLIND_NIL if nil.blind else bids[nil.seat]),
                    points=f"{nil.points:+d}",
                ))
            if score.bag_penalty:
                self.write(t("sheet.bag-penalty", points=score.bag_penalty))
        self.write("")

    def say(self, key: str, **params: object) -> str:
        """A sentence of the coach's catalogue (``coach.json``), plural marks resolved."""
        values = {name: str(value) for name, value in params.items()}
        text = _names().plural(self.t.entries.get(key, key), values, self.t.lang)
        return _format(text, dict(values))

    def show_review(self, hand_index: int) -> None:
        """The coach's review of the hand: the person's costliest decisions
        (:mod:`spades_core.review`), or that there was none."""
        from .review import review_hand

        try:
            review = review_hand(self.state, hand_index, PERSON, level=self.level)
        except SpadesError:  # a lesson's position: no record to replay it from
            return
        t, names = self.t, _names()
        self.write(self.say("review.title"))
        if not review.items:
            self.write("  " + self.say("review.none"))
            self.write("")
            return
        for item in review.items:
            if isinstance(item.played, Bid) and isinstance(item.better, Bid):
                self.write("- " + self.say("review.bid", played=t.bid(item.played),
                                           better=t.bid(item.better)))
            else:
                self.write("- " + self.say("review.card", trick=item.trick_number,
                                           played=t.card(str(item.played)),
                                           better=t.card(str(item.better))))
                self.write("  " + (t("trick.now", cards=self.trick_text(item.trick))
                                   if item.trick else self.say("review.lead")))
            said = [t.coach(key, dict(item.params))
                    for key in (item.reason, item.support, item.contrast) if key]
            self.write("  " + " ".join(text for text in said if text is not None))
            points = names.whole_points(item.cost)  # "about 134", as the page says
            self.write("  " + self.say("review.cost", points=points, n=points))
            parts = [self.say(f"review.part.{name}", amount=amount)
                     for name, amount in names.review_parts(dict(item.parts.named()))]
            if parts:
                self.write("  " + self.say("review.parts", parts=", ".join(parts)))
            tip = t.hint_text(f"tip.{item.tip}.name")
            if tip is not None:
                self.write("  " + t("hint.tip", tip=tip))
        self.write("")

    # --- asking ------------------------------------------------------------------

    def ask(self, prompt_key: str, **params: object) -> str | None:
        """A line from the person (stripped), or None when they quit or input ends."""
        try:
            line = self.read(self.t(prompt_key, **params))
        except EOFError:
            self.write("")
            return None
        line = line.strip()
        if line.lower() in ("quit", "exit", "q"):
            return None
        return line

    def common(self, word: str) -> bool:
        """Handle ``help`` and ``last``; True if ``word`` was one of them."""
        if word == "help":
            self.write(self.t("help"))
            return True
        if word == "last":
            self.show_last_trick()
            return True
        if word in ("hand", "table"):
            self.show_table()
            return True
        return False

    def show_hint(self, hand_seen: bool = True) -> None:
        if self.hint is None:
            self.write(self.t("hint.none"))
            return
        view = view_for(self.state, PERSON, hand_seen=hand_seen)
        found = self.hint(view, self.level)
        action = found.action
        if action is None:
            head = self.t("hint.look")
        elif isinstance(action, Bid):
            head = self.t("hint.bid", bid=self.t.bid(action))
        else:
            head = self.t("hint.card", card=self.t.card(str(action)))
        self.write(head)
        keys = _names().hint_keys(found.reason, found.contrast, found.why, found.said,
                                  lambda key: key in self.t.hints)
        said = [self.t.coach(key, dict(found.params)) for key in keys]
        if any(text is not None for text in said):  # the page's words, joined as the page does
            self.write("  " + " ".join(text for text in said if text is not None))
        tip = self.t.hint_text(f"tip.{found.tip}.name")
        if tip is not None:
            self.write("  " + self.t("hint.tip", tip=tip))

    def person_blind_nil(self) -> bool | None:
        """Ask whether to bid Blind Nil before looking; None if the person quits."""
        while True:
            line = self.ask("prompt.blind")
            if line is None:
                return None
            word = line.lower()
            if word in ("", "look", "no", "n"):
                return False
            if word in ("blind-nil", "blind nil", "blind"):
                return True
            if word == "hint":
                self.show_hint(hand_seen=False)
            elif not self.common(word):
                self.write(self.t("error.blind-answer"))

    def person_bid(self) -> Bid | None:
        return self._prompt("prompt.bid", self._read_bid)

    def person_card(self) -> Card | None:
        return self._prompt("prompt.card", self._read_card)

    def _prompt(self, key: str, read: Callable[[str], _T | None]) -> _T | None:
        """Ask with ``key`` until ``read`` takes the answer (it says why when it does not),
        answering "hint" and the common words on the way; None when the input has ended."""
        self.show_table()
        while True:
            line = self.ask(key)
            if line is None:
                return None
            word = line.lower()
            if word == "hint":
                self.show_hint()
            elif not self.common(word):
                value = read(line)
                if value is not None:
                    return value

    def _read_bid(self, line: str) -> Bid | None:
        try:
            bid = parse_bid(line.lower())
        except BidParseError:
            self.write(self.t("error.not-a-bid", text=line))
            return None
        if bid.blind:
            self.write(self.t("error.blind-too-late"))
            return None
        return bid

    def _read_card(self, line: str) -> Card | None:
        try:
            card = parse_card(line)
        except CardParseError:
            self.write(self.t("error.not-a-card", text=line))
            return None
        refusal = self.state.refusal(card, PERSON)
        if refusal is not None:
            self.write(self.t("refused", reason=self.t.refusal(refusal)))
            return None
        return card

    # --- the game ------------------------------------------------------------------

    def announce(self, seat: Seat, action: Card | Bid) -> None:
        you = ".you" if seat == PERSON else ""
        if isinstance(action, Bid):
            self.write(self.t("bid.made" + you, seat=self.t.seat(seat), bid=self.t.bid(action)))
        else:
            self.write(self.t(
                "play.made" + you, seat=self.t.seat(seat), card=self.t.card(str(action))))

    def run(self) -> int:
        t = self.t
        hands_seen = -1
        while self.state.phase is not Phase.OVER:
            state = self.state
            if state.hand_index != hands_seen:
                hands_seen = state.hand_index
                self.write(t("hand.start", number=state.hand_index + 1,
                             dealer=t.seat(state.dealer)))
            seat = state.to_act
            if seat is None:  # a game without a deal number would wait here
                break
            action: Card | Bid | None
            if seat == PERSON:
                if state.phase is Phase.BIDDING:
                    blind = self.person_blind_nil() if state.rules.blind_nil else False
                    if blind is None:
                        return self.quit()
                    action = BLIND_NIL if blind else self.person_bid()
                else:
                    action = self.person_card()
                if action is None:
                    return self.quit()
            else:
                action = bot_action(self.bot, state)
            self.announce(seat, action)
            self.state = state.apply(action, seat)
            self.after(state, seat, action)
        winner = self.state.winner
        ns, ew = self.state.scores
        if winner is not None:
            self.write(t("game.won" if winner == 0 else "game.lost", ns=ns, ew=ew))
        return 0

    def after(self, before: GameState, seat: Seat, action: Card | Bid) -> None:
        """Tell what the last action completed: a trick, a hand."""
        if not isinstance(action, Card):
            return
        trick = (*before.trick, (seat, action))
        if len(trick) == 4:
            winner, _ = winning_play(trick)
            key = "trick.won.you" if winner == PERSON else "trick.won"
            self.write(self.t(key, seat=self.t.seat(winner)))
        if len(self.state.past_hands) > len(before.past_hands):
            self.show_sheet(self.state.past_hands[-1])
            self.show_review(len(self.state.past_hands) - 1)

    def quit(self) -> int:
        self.write(self.t("bye"))
        return 0


def play(level: str = "normal", deal: int = 1, lang: str = "en", rules: Rules | None = None,
         read: Read = input, write: Write = print) -> int:
    """Play a game as South against bots of ``level``; 0 when it ends or the person quits."""
    texts = Texts(lang)
    bot = make_bot(level)
    state = GameState.new(rules or Rules(), deal=deal)
    write(texts("welcome", deal=deal, level=texts.entries.get(f"options.level.{level}", level)))
    return Terminal(state, bot, texts, read, write, level).run()
