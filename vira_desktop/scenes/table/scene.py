"""The table scenes: a session in play, and a deal record stepped in the window.

Both compose the same parts: a driver (what feeds the table), the
:class:`~.view.TableView` (what is drawn and animated), the :class:`~.input.InputMap`
(keys and mouse to intents) and the right-hand panel's buttons.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ...i18n import mark, t
from ...rules.actions import (
    Action,
    AnnounceAces,
    Bid,
    Buy,
    Discard,
    Keep,
    Pass,
    PlayCard,
    Repurchase,
    SetAside,
    parse_action,
)
from ...rules.cards import Card
from ...rules.decision import CardChoice, Phase
from ...rules.errors import ViraError
from ...rules.events import DealScored, TrickWon
from ...rules.ledger import SEXMASTARE, TokensMoved
from ...rules.view import View
from ...session.coach import Hint, marking_hint
from ...session.describe import describe_game, describe_result, is_you
from ...session.flow import Ask, FlowEvent
from ...session.record import Record
from ...session.table import Table
from ...session.thinking import coach_hint
from ...session.words import card_text, say_action, say_refusal
from ..base import Scene
from ..cards import CARD_H, CARD_W, CardImages
from ..theme import GOLD, INK, MUTED, RED
from ..worker import Worker
from .bidgrid import BOX, BidGrid
from .drivers import LiveDriver, ReplayDriver
from .input import OVERLAYS, Command, InputMap, Intent, UseCard
from .model import TABLE_W
from .view import TableView

if TYPE_CHECKING:
    from ..app import App

__all__ = ["ReplayScene", "TableScene"]

log = logging.getLogger(__name__)

BOT_PAUSE_S = 0.45  # between two bot moves at normal speed, so a player can follow


@dataclass(frozen=True)
class ButtonSpec:
    label: str
    what: Action | str | None  # an action to take, a command name, or None (decline an offer)
    y: int
    x: int = TABLE_W + 16
    width: int = 288
    enabled: bool = True
    height: int = 38


def choice_prompt(choice: CardChoice) -> str:
    """What to select for a card choice, in the player's words."""
    low, high = choice.min_count, choice.max_count
    n = str(low) if low == high else t("choice.count_range", low=low, high=high)
    return t(f"choice.prompt.{CHOICE_KEYS[choice.action]}", n=n)


def choice_button(choice: CardChoice, selected: int) -> str:
    """The button for a card choice: "throw away 3 and buy 3", "keep 4 cards" … or what is
    still wrong with the selection ("too many: at most 3")."""
    if selected > choice.max_count:
        return t("choice.too_many", max=choice.max_count)
    if selected < choice.min_count:
        return t("choice.more", count=choice.min_count - selected)
    if choice.action is Buy:
        return t("choice.buy", n=selected) if selected else t("choice.buy_nothing")
    if choice.action is Repurchase:
        return t("choice.repurchase", n=selected) if selected else t("choice.no_repurchase")
    return t(f"choice.{CHOICE_KEYS[choice.action]}", count=selected)


def choice_ready(choice: CardChoice, selected: int) -> bool:
    return choice.min_count <= selected <= choice.max_count


CHOICE_KEYS = {Keep: "keep", Discard: "discard", Buy: "buy", Repurchase: "repurchase", SetAside: "set_aside"}
# What each step of the declarer's choice after buying does, said beside its button.
ACTION_HELP = {"play": mark("help.play"), "lay down": mark("help.lay_down"), "turn again": mark("help.turn_again")}


class Panel:
    """The buttons of the right-hand panel, rebuilt only when what they offer changes."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.key: object = None
        self.buttons: dict[pygame_gui.elements.UIButton, Action | str | None] = {}

    def rebuild(self, key: object, specs: Sequence[ButtonSpec]) -> None:
        if key == self.key:
            return
        self.key = key
        self.scene.clear_widgets()
        self.buttons = {}
        ui = self.scene.ui
        for spec in specs:
            rect = pygame.Rect(spec.x, spec.y, spec.width, spec.height)
            button = pygame_gui.elements.UIButton(rect, spec.label, manager=ui)
            if not spec.enabled:
                button.disable()  # type: ignore[no-untyped-call]
            self.buttons[self.scene.add(button)] = spec.what

    def numbered(self) -> list[Action | str | None]:
        """What buttons 1–9 press: the numbered ones, in order."""
        return [w for b, w in self.buttons.items() if b.text[:2].rstrip(".").isdigit()]


class _TableBase(Scene):
    """What both table scenes share: the view, the input map, overlays, the frame."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        settings = app.settings
        self.images = CardImages(four_colour=bool(settings["display.four_colour_deck"]))
        self.images.preload()
        speed = str(settings["display.animation_speed"])
        self.view = TableView(self.images, speed, str(settings["display.card_back"]), app.sound)
        self.view.cards.wait_after_trick = bool(settings["display.wait_after_trick"])
        self.input = InputMap(self._card_at, self._drag)
        self.panel = Panel(self)
        self.focus = 0
        self.selected: set[Card] = set()

    # ------------------------------------------------------------------ helpers for the input map
    def hand(self) -> list[Card]:
        return self.view.viewer_hand()

    def _card_at(self, pos: tuple[int, int]) -> Card | None:
        if self.view.cover:
            return None
        return self.view.cards.card_at(pos, self.hand())

    def _drag(self, card: Card, pos: tuple[int, int]) -> None:
        sp = self.view.cards.sprite(card)
        if sp is not None:
            self.view.tweens.cancel(sp)
            self.view.cards.dragging = card
            sp.x, sp.y = pos[0] - CARD_W / 2, pos[1] - CARD_H / 2
            sp.tx, sp.ty = sp.x, sp.y  # let go, it glides from here: to the trick, or back to the hand

    def focus_card(self) -> Card | None:
        hand = self.hand()
        return hand[min(self.focus, len(hand) - 1)] if hand else None

    def message(self, text: str, colour: tuple[int, int, int] = INK) -> None:
        self.view.message, self.view.message_colour = text, colour

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.panel.buttons:
            if not self.view.cover:
                self.press(self.panel.buttons[event.ui_element])
            return
        if self.grid_event(event):
            return
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and self.view.cards.release():
            return  # "wait after each trick": this click or key only takes the trick away
        for intent in self.input.intents(event):
            if self.view.intro.running:  # any key or click skips the seating draw, and does nothing else
                self.view.intro.skip()
                continue
            if self.view.cover:  # hot seat: Enter or Space lifts the cover; nothing else acts under it
                if intent in (Command("confirm"), Command("use_focus")):
                    self.lift_cover()
                elif intent == Command("back"):
                    self.intent(intent)
                continue
            self.intent(intent)
        if self.input.dragging is None and self.view.cards.dragging is not None:
            self.view.cards.dragging = None
            self.refresh()

    def intent(self, intent: Intent) -> None:
        if isinstance(intent, UseCard):
            self.use_card(intent.card)
            return
        name = intent.name
        if name in ("focus", "bid_step") and self.grid_shown():
            self.grid_move(intent.arg if name == "focus" else 0, intent.arg if name == "bid_step" else 0)
        elif name == "focus":
            hand = self.hand()
            if hand:  # from the card shown with the focus: the hand may have shrunk since it was set
                self.focus = (min(self.focus, len(hand) - 1) + intent.arg) % len(hand)
        elif name == "use_focus":
            card = self.focus_card()
            if card is not None:
                self.use_card(card)
        elif name == "overlay":
            self.open_overlay(OVERLAYS[intent.arg])
        elif name == "back":
            self.app.open("menu")
        elif name == "dropped":
            self.refresh()
        else:
            self.command(intent)

    # ------------------------------------------------------------------ for the subclasses
    def grid_event(self, event: pygame.event.Event) -> bool:
        """The mouse over the bid grid (``True``: the event was the grid's)."""
        return False

    def use_card(self, card: Card) -> None:
        """A click or Space on one of the viewer's cards."""

    def press(self, what: Action | str | None) -> None:
        """A panel button."""

    def command(self, intent: Command) -> None:
        """A command the subclass knows."""

    def open_overlay(self, name: str) -> None:
        """An overlay sheet (score sheet, bid table, tricks)."""

    def refresh(self) -> None:
        """Lay the cards out again (after a selection or a drag)."""

    def draw(self, surface: pygame.Surface) -> None:
        self.view.cards.focus_card = self.focus_card()
        self.view.dimmed = self.dimmed_cards()
        self.view.draw(surface, focus_shown=self.focus_shown())

    def dimmed_cards(self) -> set[Card]:
        """The viewer's cards it may not play now (drawn dimmed)."""
        return set()

    def focus_shown(self) -> bool:
        return False

    def grid_shown(self) -> bool:
        return False

    def grid_move(self, dx: int, dy: int) -> None:
        """Arrow keys in the bid grid."""

    def lift_cover(self) -> None:
        """Hot seat: the player the screen was passed to takes it."""


class TableScene(_TableBase):
    """A session in play: humans answer with the panel, cards and keys; bots on the worker."""

    ends_session = True  # after a deal, offer the last round and Borup
    deals_on = True  # after a deal, the next one (a lesson is one deal)

    def __init__(self, app: App, table: Table, autoplay: int | None = None, hints: bool = False) -> None:
        super().__init__(app)
        if autoplay is not None and app.autoplay_speed:
            self.view.speed_name = app.autoplay_speed
        self.table = table
        self.autoplay = autoplay
        self.autoplay_hints = hints  # ask the coach at every decision of the viewer's seat
        self.worker = Worker()
        self.driver = LiveDriver(table, self.worker)
        self.wait_s = 0.0
        self.deals_done = 0
        self.hints_asked = 0
        self._hint_tag: object = None
        self._logged = len(table.log)
        self._nothing_confirmed = False  # Enter once more takes no cards (buy -)
        self._marked = ""  # the Ågren marking last told
        self.grid = BidGrid()
        self.view.keys_help = mark("table.keys")

    def save(self) -> None:
        """Keep the game (a lesson keeps its progress instead)."""
        self.app.autosave(self.table)

    def extra_key(self) -> object:
        """What the panel's extra buttons (a lesson's) depend on: they are made again when it changes."""
        return None

    def extra_buttons(self) -> list[ButtonSpec]:
        """More of the panel's buttons (a lesson's)."""
        return []

    # ------------------------------------------------------------------ lifecycle
    @property
    def deal(self):  # type: ignore[no-untyped-def]
        """The deal in play (for tests and tools; the view never reads it)."""
        return self.table.deal

    def enter(self) -> None:
        fresh = not self.table.log and self.table.deal_index == 0
        how = "draw" if self.table.seating == "draw" else "first_come"
        draw = self.table.draw
        self.view.say(t(f"log.seating.{how}", order=", ".join(draw.order), name=draw.forehand))
        if fresh:
            self.view.say(t("log.ala"))
        if len(self.driver.humans) >= 2:  # hot seat: whoever comes back to the table finds it covered
            ask = self.driver.human_ask()
            if ask is not None:
                self.driver.viewer = self.table.name_of(ask.seat)
            self.view.cover = self.driver.viewer
        self.view.show(self.driver.state(with_seating=fresh), self.driver.opening_events())
        if fresh:
            self._announce_deal()
        else:  # a resumed game: the deal so far, as the log told it, and its result if it is over
            self._retell_deal()

    def exit(self) -> None:
        super().exit()
        self.worker.shutdown()

    def resume(self) -> None:
        super().resume()
        self.panel.key = None

    def _announce_deal(self) -> None:
        s = self.table.session
        said = {"number": self.table.deal_index + 1, "dealer": s.seats[2], "forehand": s.seats[0]}
        if s.borup:
            self.view.say(t("log.borup_deal", **said))
        elif s.sitting_out:
            self.view.say(t("log.deal_out", out=s.sitting_out, **said))
        else:
            self.view.say(t("log.deal", **said))

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        for tag, result in self.worker.poll():
            if isinstance(tag, tuple) and tag[:1] == ("hint",):
                self._hint_in(tag, result)
            else:
                self._after(self.driver.receive(tag, result))
        self.view.update(dt)
        self.wait_s = max(0.0, self.wait_s - dt)
        self._hot_seat()
        ready = not self.view.busy and self.wait_s <= 0  # bots play on under a hot-seat cover
        self._only_choice()
        if ready:
            self._autoplay_hint()
            if not self.worker.busy(self._hint_tag) or self._hint_tag is None:
                self.driver.think()
        self._panel()
        if self.autoplay is not None and self.table.deal.is_over and not self.view.busy and self.wait_s <= 0:
            if self.deals_done >= self.autoplay:
                self.app.running = False
            else:
                self._next_deal()

    def _after(self, events: list[FlowEvent]) -> None:
        """Show what an applied action did: animate, log, save."""
        if not events and len(self.table.log) == self._logged:
            return
        self.selected = set()
        self.view.cards.selected = set()
        self.message("")
        self._log_actions()
        self._tell_events(events)
        self.wait_s = BOT_PAUSE_S * self.view.factor()
        self.save()
        self.panel.key = None
        state = self.driver.state()
        self.view.show(state, events)
        if self.view.banner is not None and any(isinstance(ev, DealScored) for ev in events):
            self.view.say(self.view.banner[0])  # the deal's result, as the banner tells it
            self.deals_done += 1
        self._marking(state.view)

    def _marking(self, view: View) -> None:
        """The partner's Ågren marking, in the panel from the moment it is made (and once in the log)."""
        line = marking_hint(view, self.table.session.seats)
        if line and line != self._marked:
            self.view.say(line)
        self._marked = line
        convention = t("log.marking_convention")
        self.view.note = f"{line} {convention}" if line else ""

    def _log_actions(self) -> None:
        """Say each new action of the log."""
        for entry in self.table.log[self._logged :]:
            if entry.deal == self.table.deal_index:
                self._tell_action(parse_action(entry.action, self.table.session.seats.index(entry.player)))
        self._logged = len(self.table.log)

    def _tell_action(self, action: Action) -> None:
        """An action as the other players see it (cards laid aside stay hidden)."""
        if not action.text.startswith("play "):
            self.view.say(f"{self.table.session.seats[action.seat]}: {say_action(action, public=True, told=True)}")

    def _tell_events(self, events: Sequence[object]) -> None:
        for ev in events:
            if isinstance(ev, TrickWon):
                name = self.table.session.seats[ev.seat]
                said = t("log.trick_you", number=ev.trick_no) if is_you(name) else None
                self.view.say(said or t("log.trick", number=ev.trick_no, name=name))
            elif isinstance(ev, TokensMoved):
                self._note_tokens(ev)

    def _retell_deal(self) -> None:
        """The log of the deal in play told again from its start (after Continue or an undo):
        each action and trick as it was said, and the result banner if the deal is over."""
        self.view.log.clear()
        self._announce_deal()
        deal = self.table.deal
        self._marked = ""
        for action, events, view in self.table.story(self.driver.viewer):
            self._tell_action(action)
            self._tell_events(events)
            self._marking(view)
        self._logged = len(self.table.log)
        self.view.banner = None
        if deal.result is not None:
            self.view.banner = self.view.result_banner(deal.result, self.driver.state())
            self.view.say(self.view.banner[0])

    def _note_tokens(self, ev: TokensMoved) -> None:
        """Say the ledger's rarer moves in words: åla om and sexmastare."""
        if ev.reason == "åla om" and ev.source == self.table.session.players[0]:
            self.view.say(t("log.ala_om"))
        elif ev.target == SEXMASTARE:
            self.view.say(t("log.sexmastare", name=ev.source))

    def _only_choice(self) -> None:
        """A step with one possible answer is taken for the player and told in the log
        ("high" for a gask bid in suit, nothing to discard); never a bid or a card to play."""
        ask = self.viewer_ask()
        if ask is None or ask.optional or self.view.cover or self.view.intro.running or ask.view.decision is None:
            return
        decision = ask.view.decision
        if decision.phase in (Phase.AUCTION, Phase.PLAY, Phase.DECIDE):
            return
        choice = decision.choice
        if choice is None and len(decision.actions) == 1:
            only = decision.actions[0]
        elif not decision.actions and choice is not None and choice.max_count == 0:
            only = choice.make([])
        else:
            return
        self.view.say(t("log.only_choice", what=say_action(only)))
        self.press(only)

    def _hot_seat(self) -> None:
        if len(self.driver.humans) < 2:
            return
        ask = self.driver.human_ask()
        if ask is None:
            return
        actor = self.table.name_of(ask.seat)
        if actor != self.driver.viewer:
            self.driver.viewer = actor
            self.view.cover = actor
            self.view.cover_note = self.view.log[-4:]  # what was just done, the last player's move too
            self.panel.key = None
            state = self.driver.state()
            self.view.show(state, snap=True)  # another seat's cards: no glide from the old ones
            self._marked = ""
            self._marking(state.view)

    # ------------------------------------------------------------------ the panel
    def viewer_ask(self) -> Ask | None:
        ask = self.driver.human_ask()
        if ask is None or self.table.name_of(ask.seat) != self.driver.viewer:
            return None
        return ask

    def _panel(self) -> None:
        deal = self.table.deal
        ask = self.viewer_ask()
        key = (
            self.table.deal_index,
            len(deal.history),
            ask,
            deal.is_over,
            self.view.cover,
            self.view.intro.running,
            len(self.selected),
        )
        extra_key = self.extra_key()
        if (key, extra_key) == self.panel.key:
            return
        y = 412 if deal.is_over else 340  # after a deal, below the result's notes (Finnish runs long)
        specs: list[ButtonSpec] = []
        self.view.details = []
        if self.view.cover or self.view.intro.running:
            pass  # the cover, or the seating draw, blocks every control
        elif deal.is_over and not self.deals_on:
            pass  # a lesson's own buttons take the learner on
        elif deal.is_over and self.table.session.is_over:
            specs = [ButtonSpec(t("button.settle"), "next", y)]  # the Borup deal was the last
        elif deal.is_over:
            specs = [ButtonSpec(t("button.next_deal"), "next", y)]
            if self.table.session.deals_left is None and self.ends_session:  # how the session ends, agreed once
                specs.append(ButtonSpec(t("button.last_round"), "last round", y + 44))
                specs.append(ButtonSpec(t("button.borup"), "borup", y + 88))
        elif ask is not None and ask.optional:
            specs = [
                ButtonSpec(t("button.aces"), ask.view.decision.actions[0], y),  # type: ignore[union-attr]
                ButtonSpec(t("button.play_on"), None, y + 42),
            ]
        elif ask is not None and ask.view.decision is not None:
            decision = ask.view.decision
            if decision.phase is Phase.AUCTION:
                bids = [a for a in decision.actions if isinstance(a, Bid)]
                standing = next((text for _, text in reversed(ask.view.bids) if text != "pass"), None)
                self.grid.set_bids(bids, standing, ask.seat)
                specs = [ButtonSpec(t("button.bid"), "bid", 566, width=140)]
                passes = [a for a in decision.actions if isinstance(a, Pass)]
                specs += [ButtonSpec(t("button.pass"), a, 566, TABLE_W + 164, 140) for a in passes]
                specs.append(ButtonSpec(t("button.hint"), "hint", 610))
            elif decision.phase is Phase.PLAY:
                aces = [a for a in decision.actions if isinstance(a, AnnounceAces)]  # low gask, before the lead
                specs = [ButtonSpec(t("button.aces"), aces[0], y)] if aces else []
            else:
                notes = [t(ACTION_HELP[a.text]) for a in decision.actions if a.text in ACTION_HELP]
                choice, n = decision.choice, len(self.selected)
                if choice is not None:
                    if choice.action is Repurchase:
                        notes.append(t("choice.or_repurchase"))
                    prompt = choice_prompt(choice)
                    notes.append(t("choice.selected", n=n, prompt=prompt) if n else prompt)
                self.view.details = notes
                # the buttons go under what the panel says, and close up to stay above the log
                y = 340 + 18 * self.view.detail_lines()
                count = len(decision.actions) + (choice is not None) + 1
                step = max(30, min(42, (640 - y) // count))
                for i, action in enumerate(decision.actions):
                    specs.append(ButtonSpec(f"{i + 1}. {say_action(action)}", action, y, height=step - 4))
                    y += step
                if choice is not None:
                    label = choice_button(choice, n)
                    ready = choice_ready(choice, n)
                    specs.append(ButtonSpec(t("button.confirm", what=label), "choose", y, enabled=ready))
                    y += step
                specs.append(ButtonSpec(t("button.hint"), "hint", y + 2))
        top = min((spec.y for spec in specs if spec.x >= TABLE_W), default=658)
        self.view.notes_bottom = 322 if self.view.details else top - 18
        self.panel.rebuild((key, extra_key), [*specs, *self.extra_buttons()])
        self._grid_note()

    # ------------------------------------------------------------------ intents
    def press(self, what: Action | str | None) -> None:
        if isinstance(what, str):
            self.command(Command(what))
            return
        ask = self.viewer_ask()
        if ask is None:
            return
        try:
            events = self.driver.act(ask, what)
        except ViraError as exc:
            self.message(say_refusal(exc, self.table.session.seats), RED)
            return
        self._nothing_confirmed = False
        self._after(events)

    def command(self, intent: Command) -> None:
        name = intent.name
        deal = self.table.deal
        if name == "confirm":
            if deal.is_over:
                self._next_deal()
            elif self.grid_shown():
                self.command(Command("bid"))
            elif (ask := self.viewer_ask()) is not None and ask.view.decision and ask.view.decision.choice:
                choice = ask.view.decision.choice
                if self.selected or (choice.min_count == 0 and self._nothing_confirmed):
                    self.command(Command("choose"))
                elif choice.min_count == 0:  # Enter with nothing selected: ask before taking nothing
                    self._nothing_confirmed = True
                    self.message(t("choice.confirm_nothing", what=choice_button(choice, 0)), GOLD)
                else:
                    self.message(choice_prompt(choice), GOLD)
            elif deal.phase is Phase.PLAY and (card := self.focus_card()) is not None:
                self.use_card(card)
        elif name == "next":
            self._next_deal()
        elif name in ("borup", "last round"):
            self.table.end_session(name)
            left = self.table.session.deals_left
            self.view.say(t("log.borup") if name == "borup" else t("log.last_round", deals=left))
            self.save()
            self.panel.key = None
            self.view.show(self.driver.state())
        elif name == "bid":
            chosen = self.grid.focused_bid() if self.grid_shown() else None
            if chosen is None:
                self.message(t("message.bid_first"), RED)
            else:
                self.press(chosen)
        elif name == "pass":
            passes = [w for w in self.panel.buttons.values() if isinstance(w, Pass)]
            if passes:
                self.press(passes[0])
            elif self.grid_shown():
                self.message(t("message.must_open"), RED)
        elif name == "choose":
            ask = self.viewer_ask()
            wanted = ask.view.decision.choice if ask is not None and ask.view.decision is not None else None
            if wanted is not None and choice_ready(wanted, len(self.selected)):
                self.press(wanted.make(sorted(self.selected)))
            elif wanted is not None:
                self.message(f"{choice_button(wanted, len(self.selected))} · {choice_prompt(wanted)}", RED)
        elif name == "button":
            numbered = self.panel.numbered()
            if intent.arg < len(numbered):
                self.press(numbered[intent.arg])
        elif name == "hint":
            self._ask_hint()
        elif name == "undo":
            self._undo()
        elif name == "last_trick":
            self._show_last_trick()

    def use_card(self, card: Card) -> None:
        ask = self.viewer_ask()
        if ask is None or ask.view.decision is None or ask.optional:
            return
        decision = ask.view.decision
        if decision.phase is Phase.PLAY:
            action = PlayCard(ask.seat, card)
            if action not in decision.actions:
                try:
                    self.table.deal.check(action)
                except ViraError as exc:
                    self.message(f"{card_text(card)}: {say_refusal(exc, self.table.session.seats)}", RED)
                self.view.cards.refuse(card)
                return
            self.press(action)
        elif decision.choice is not None:
            self.selected ^= {card}
            self._nothing_confirmed = False
            self.refresh()

    def refresh(self) -> None:
        self.view.cards.selected = set(self.selected)
        self.view.show(self.driver.state())

    def lift_cover(self) -> None:
        self.view.cover = None
        self.panel.key = None

    def focus_shown(self) -> bool:
        return self.viewer_ask() is not None and not self.grid_shown()

    # ------------------------------------------------------------------ the bid grid
    def grid_shown(self) -> bool:
        ask = self.viewer_ask()
        return (
            ask is not None
            and not self.view.cover
            and not self.view.intro.running
            and ask.view.decision is not None
            and ask.view.decision.phase is Phase.AUCTION
        )

    def grid_move(self, dx: int, dy: int) -> None:
        self.grid.move(dx, dy)
        self._grid_note()

    def grid_event(self, event: pygame.event.Event) -> bool:
        if not self.grid_shown():
            self.grid.hover = None
            return False
        if event.type == pygame.MOUSEMOTION:
            self.grid.hover = self.grid.cell_at(event.pos)
            self._grid_note()
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and BOX.collidepoint(event.pos):
            cell = self.grid.cell_at(event.pos)
            if cell is not None and cell in self.grid.cells:
                if cell == self.grid.focus:  # a second click on the chosen cell bids it
                    self.command(Command("bid"))
                else:
                    self.grid.focus = cell
                    self._grid_note()
            return True
        return False

    def _grid_note(self) -> None:
        """Under the panel's header: what the cell under the mouse (or focused) asks and pays,
        or why forehand may not pass."""
        if not self.grid_shown():
            return
        ask = self.viewer_ask()
        assert ask is not None and ask.view.decision is not None
        cell = self.grid.described()
        game = self.grid.row_game(cell) if cell is not None else None
        if game is not None and cell is not None and cell[1] < 3:
            lines = describe_game(game, cell[1], ask.view.highest, ask.view.rules.pulla)
        elif cell is not None and cell in self.grid.cells:
            key = "message.hold_bid" if cell[1] == 3 else "message.group_bid"  # hold: the same bid, in forehand
            lines = [t(key, bid=say_action(self.grid.cells[cell].bid))]
        elif not any(isinstance(a, Pass) for a in ask.view.decision.actions):
            lines = [t("message.must_open")]
        else:
            lines = []
        self.view.details = lines

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.grid_shown():
            self.grid.draw(surface)

    def dimmed_cards(self) -> set[Card]:
        ask = self.viewer_ask()
        if ask is None or ask.optional or ask.view.decision is None or ask.view.decision.phase is not Phase.PLAY:
            return set()
        legal = {a.card for a in ask.view.decision.actions if isinstance(a, PlayCard)}
        return set(ask.view.hand) - legal

    def open_overlay(self, name: str) -> None:
        self.app.push(name, table=self.table)

    def _ask_hint(self) -> None:
        ask = self.viewer_ask()
        if ask is None or ask.view.decision is None:
            self.message(t("message.no_hint"), MUTED)
            return
        self._submit_hint(ask)
        self.message(t("message.thinking"), MUTED)

    def _position(self, ask: Ask) -> tuple[object, ...]:
        return ("hint", self.table.deal_index, len(self.table.deal.history), ask.seat, ask.optional)

    def _submit_hint(self, ask: Ask) -> None:
        tag = self._position(ask)
        if self._hint_tag == tag:
            return
        self._hint_tag = tag
        self.worker.submit(tag, coach_hint, ask.view)
        self.hints_asked += 1

    def _autoplay_hint(self) -> None:
        """``--hints``: in an autoplayed session, ask the coach at every decision of the
        viewer's seat, as a player pressing H every time would."""
        if not self.autoplay_hints:
            return
        ask = self.driver.ask()
        if ask is not None and self.table.name_of(ask.seat) == self.driver.viewer:
            self._submit_hint(ask)

    def _hint_in(self, tag: object, hint: object) -> None:
        ask = self.viewer_ask()
        if ask is None or not tag == self._hint_tag == self._position(ask):  # no longer the position asked about
            return
        if isinstance(hint, Hint):
            self.message(hint.text(), GOLD)
            action = hint.action
            if isinstance(action, Bid) and self.grid_shown():
                self.grid.select(action)  # the hint selects the suggested cell
            elif isinstance(action, PlayCard) and action.card in self.hand():
                self.focus = self.hand().index(action.card)  # … or puts the cursor on the card
            elif isinstance(action, Keep | Discard | Buy | Repurchase | SetAside):
                self.selected = set(action.cards) & set(self.hand())  # … or selects the cards
                self.panel.key = None
                self.refresh()
        else:
            log.error("the coach failed: %r", hint)
            self.message(t("message.coach_failed"), MUTED)

    def _undo(self) -> None:
        if not self.table.can_undo():
            self.message(t("message.no_undo"), MUTED)
            return
        self.driver.undo()
        self._hint_tag = None
        self.save()
        self.selected = set()
        self.view.cards.selected = set()
        self._retell_deal()  # the undone moves leave the log too
        self.view.say(t("log.undo"))
        self.panel.key = None
        self.view.show(self.driver.state())

    def _show_last_trick(self) -> None:
        tricks = self.driver.state().view.tricks
        if tricks:
            winner, cards = tricks[-1]
            seats = self.table.session.seats
            shown = ", ".join(f"{seats[s]} {card_text(c)}" for s, c in cards)
            self.message(t("message.last_trick", cards=shown, name=seats[winner]), GOLD)

    def _next_deal(self) -> None:
        session = self.table.session
        if session.is_over:
            self.app.open("settlement", table=self.table)
            return
        events = self.driver.next_deal()
        self.save()
        self._hint_tag = None
        self.panel.key = None
        self.view.show(self.driver.state(), events)
        self._announce_deal()


class ReplayScene(_TableBase):
    """A deal record in the window: → and ← step its actions forward and back, Tab changes
    whose cards are shown, Esc leaves."""

    def __init__(self, app: App, record: Record, title: str = "", quit_on_back: bool = False) -> None:
        super().__init__(app)
        self.driver = ReplayDriver(record)
        self.title = title
        self.quit_on_back = quit_on_back  # ``vira replay FILE --window``: Esc closes the window
        self.view.keys_help = mark("table.replay_keys")

    def enter(self) -> None:
        self.view.show(self.driver.state(), self.driver.start_events())
        self.view.finish()
        self._caption()
        self._buttons()

    def _buttons(self) -> None:
        y = 560
        self.panel.rebuild(
            self.driver.position,
            [
                ButtonSpec(t("button.back"), "back_step", y, width=140),
                ButtonSpec(t("button.forward"), "forward", y, TABLE_W + 164, 140),
                ButtonSpec(t("button.whose_hand"), "viewer", y + 44),
            ],
        )

    def _caption(self) -> None:
        driver = self.driver
        names = driver.record.names
        self.message(t("message.replay", position=driver.position, total=len(driver.actions)), GOLD)
        self.view.note = self.title
        self.view.log = [
            t("replay.showing", name=names[driver.viewer]),
            t("replay.last", action=driver.last_action_text()),
            t("replay.next", action=driver.next_action_text()),
        ]
        deal = driver.session.deal
        if deal is not None and deal.result is not None:
            self.view.log.append(describe_result(deal.result, names, deal.suit_level)[0])

    def step(self, forward: bool) -> None:
        events = self.driver.forward() if forward else self.driver.back()
        self.view.show(self.driver.state(), events, snap=not forward)  # a step back jumps
        self._caption()
        self._buttons()

    def press(self, what: Action | str | None) -> None:
        if isinstance(what, str):
            self.command(Command(what))

    def intent(self, intent: Intent) -> None:
        if isinstance(intent, Command) and intent.name == "focus":
            self.step(intent.arg > 0)
        elif isinstance(intent, Command) and intent.name == "use_focus":
            self.step(True)
        elif isinstance(intent, Command) and intent.name == "back":
            if self.quit_on_back:
                self.app.running = False
            else:
                self.app.open("menu")
        else:
            super().intent(intent)

    def command(self, intent: Command) -> None:
        if intent.name in ("forward", "confirm", "use_focus"):
            self.step(True)
        elif intent.name == "back_step":
            self.step(False)
        elif intent.name == "viewer":
            self.driver.cycle_viewer()
            self.view.show(self.driver.state(), snap=True)
            self._caption()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_HOME, pygame.K_END):
            self.driver.go_to(0 if event.key == pygame.K_HOME else len(self.driver.actions))
            self.view.show(self.driver.state(), snap=True)
            self._caption()
            self._buttons()
            return
        super().handle(event)

    def update(self, dt: float) -> None:
        self.view.update(dt)
