"""The card table: hands, stock, spare deck, tricks, token bowls and pulla, the auction and every
after-auction step, with bots thinking in a worker thread so the frame loop never waits."""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import pygame
import pygame_gui

from ..ai import Choice, make_bot
from ..ai.knowledge import read_markings
from ..rules.actions import Action, AnnounceAces, Bid, PlayCard, public_text
from ..rules.cards import Card, Suit, suit_class
from ..rules.deal import Deal, Phase, deal_number_decks
from ..rules.errors import ViraError
from ..rules.events import CardPlayed, DealScored, TrickWon
from ..rules.ledger import SEXMASTARE, Kind, TokensMoved
from ..table import Table
from .base import Scene
from .cards import CARD_H, CARD_W, CardImages, Sprite
from .theme import FELT, FELT_DARK, FOCUS, GOLD, GOOD, INK, MUTED, PANEL, PLAYER_COLOURS, RED, font

log = logging.getLogger(__name__)

TABLE_W = 960
SPEEDS = {"instant": 0.0, "fast": 16.0, "normal": 9.0, "slow": 5.0}
BOT_PAUSE = {"instant": 0.0, "fast": 0.15, "normal": 0.45, "slow": 0.9}
SUIT_WORDS = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


@dataclass
class Place:
    """Where a player sits on screen: hand, trick slot, won tricks, laid-aside cards,
    name plate with the token bowl, and the spare deck when this player is forehand."""

    hand: tuple[int, int]
    vertical: bool
    trick: tuple[int, int]
    pile: tuple[int, int]
    aside: tuple[int, int]
    plate: tuple[int, int]
    spare: tuple[int, int]


PLACES = {
    "bottom": Place((480, 680), False, (441, 452), (770, 556), (660, 556), (20, 584), (240, 560)),
    "left": Place((40, 110), True, (318, 330), (140, 410), (140, 290), (20, 12), (140, 140)),
    "top": Place((480, 16), False, (441, 208), (700, 130), (780, 130), (230, 140), (150, 20)),
    "right": Place((842, 110), True, (564, 330), (740, 410), (740, 290), (740, 12), (740, 140)),
}


@dataclass
class Flight:
    """A token on its way from one place to another."""

    kind: Kind
    colour: str
    start: tuple[float, float]
    end: tuple[float, float]
    t0: float
    seconds: float

    def started(self, now: float) -> bool:
        return now >= self.t0

    def done(self) -> bool:
        return time.monotonic() > self.t0 + self.seconds

    def position(self, now: float) -> tuple[float, float]:
        u = min(1.0, max(0.0, (now - self.t0) / self.seconds))
        u = u * u * (3 - 2 * u)  # ease in and out
        return (self.start[0] + (self.end[0] - self.start[0]) * u, self.start[1] + (self.end[1] - self.start[1]) * u)


STOCK = (441, 330)
TURNED = (351, 330)


class TableScene(Scene):
    """A session in play."""

    def __init__(self, app: object, table: Table, autoplay_deals: int | None = None) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.table = table
        self.autoplay = autoplay_deals
        self.speed_name = self.app.settings["display.animation_speed"]
        if autoplay_deals is not None and self.app.autoplay_speed:
            self.speed_name = self.app.autoplay_speed
        self.images = CardImages(four_colour=bool(self.app.settings["display.four_colour_deck"]))
        self.sprites: dict[Card, Sprite] = {}
        self.focus = 0
        self.selected: set[Card] = set()
        self.message = ""
        self.message_colour = INK
        self.log: list[str] = []
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        self.future: Future[Choice] | None = None
        self.think_started = 0.0
        self.pause_until = 0.0
        self.panel_key: object = None
        self.buttons: dict[object, Action | str] = {}
        self.bid_list: pygame_gui.elements.UISelectionList | None = None
        self.bid_items: dict[str, Action] = {}
        self.deals_done = 0
        self.hidden_for: str | None = None
        self.viewer = self._first_human()
        self.text_cache: dict[tuple[str, int, bool, tuple[int, int, int]], pygame.Surface] = {}
        self.coach = make_bot("normal", 99)
        self.flights: list[Flight] = []
        self.dragging: Card | None = None
        self.drag_from = (0, 0)
        self.intro_started: float | None = None
        self.hint_cache: tuple[object, str] = (None, "")

    # ------------------------------------------------------------------ helpers
    def _first_human(self) -> str:
        humans = [s.name for s in self.table.seats if s.human]
        return humans[0] if humans else self.table.session.seats[0]

    @property
    def deal(self) -> Deal:
        return self.table.deal

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_name]

    def text(self, s: str, size: int = 15, bold: bool = False, colour: tuple[int, int, int] = INK) -> pygame.Surface:
        key = (s, size, bold, colour)
        surf = self.text_cache.get(key)
        if surf is None:
            if len(self.text_cache) > 600:
                self.text_cache.clear()
            surf = font(size, bold).render(s, True, colour)
            self.text_cache[key] = surf
        return surf

    def place_of(self, name: str) -> Place:
        players = self.table.session.players
        n = len(players)
        rel = (players.index(name) - players.index(self.viewer)) % n
        order = ["bottom", "left", "right"] if n == 3 else ["bottom", "left", "top", "right"]
        return PLACES[order[rel]]

    def seat_place(self, seat: int) -> Place:
        return self.place_of(self.table.session.seats[seat])

    def viewer_seat(self) -> int | None:
        seats = self.table.session.seats
        return seats.index(self.viewer) if self.viewer in seats else None

    def say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-9]

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        self._new_deal_sprites()
        how = "drew" if self.table.seating == "draw" else "was dealt the first"
        self.say(f"Seating: {', '.join(self.table.draw.order)}; {self.table.draw.forehand} {how} hearts.")
        if not self.table.log and self.table.deal_index == 0 and self.speed > 0:
            self.intro_started = time.monotonic()  # show the seating draw as it happens
            self.say("Åla: everyone puts a bet into the pulla.")
            for ev in self.table.opening_events:
                if isinstance(ev, TokensMoved):
                    self._fly(ev)
        self._announce_deal()

    def _intro_length(self) -> float:
        return 0.5 * len(self.table.draw.cards) + 1.8

    def _in_intro(self) -> bool:
        if self.intro_started is None:
            return False
        if time.monotonic() - self.intro_started > self._intro_length():
            self.intro_started = None
            return False
        return True

    def exit(self) -> None:
        super().exit()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def _announce_deal(self) -> None:
        s = self.table.session
        out = f", {s.sitting_out} sits out" if s.sitting_out else ""
        self.say(f"Deal {self.table.deal_index + 1}: {s.seats[2]} deals, {s.seats[0]} is forehand{out}.")
        self.app.sound("deal")

    def _new_deal_sprites(self) -> None:
        number = self.deal.number or 0
        dealt, _ = deal_number_decks(number)
        dealer = self.seat_place(2).hand
        self.sprites = {}
        step = 0.0 if self.speed <= 0 else 0.018 * 9.0 / self.speed
        for i, card in enumerate(dealt):
            self.sprites[card] = Sprite(card, dealer[0], dealer[1], dealer[0], dealer[1], delay=i * step)
        self.selected = set()
        self.focus = 0
        self._layout()

    # ------------------------------------------------------------------ layout (targets for every card)
    def _layout(self) -> None:
        deal = self.deal
        me = self.viewer_seat()
        for seat in range(3):
            place = self.seat_place(seat)
            cards = self._hand_order(seat)
            visible = seat == me or (deal.open_hand and seat == deal.declarer) or deal.is_over
            n = len(cards)
            for i, card in enumerate(cards):
                sp = self.sprites[card]
                x: float
                y: float
                if place.vertical:
                    x, y = place.hand[0], place.hand[1] + i * min(24, 320 // max(1, n))
                else:
                    width = min(56, (860 if place is PLACES["bottom"] else 420) // max(1, n))
                    x = place.hand[0] - (n - 1) * width / 2 + i * width - CARD_W / 2
                    y = place.hand[1] - (16 if card in self.selected else 0)
                sp.target(x, y)
                sp.face_up = bool(visible)
            for j, card in enumerate(deal.laid_aside(seat)):
                sp = self.sprites[card]
                sp.target(place.aside[0] + j * 2, place.aside[1] + j)
                sp.face_up = False
        for i, card in enumerate(deal.remaining_stock):
            sp = self.sprites[card]
            if card in deal.turned:
                sp.target(TURNED[0] - i * 30, TURNED[1])
                sp.face_up = True
            else:
                sp.target(STOCK[0] + i * 1.5, STOCK[1] - i * 1.5)
                sp.face_up = False
        for seat, card in deal.trick:
            sp = self.sprites[card]
            sp.target(*self.seat_place(seat).trick)
            sp.face_up = True
        last = len(deal.tricks_played)
        for k, (winner, played) in enumerate(deal.tricks_played):
            pile = self.seat_place(winner).pile
            for seat, card in played:
                sp = self.sprites[card]
                if k == last - 1 and not deal.trick and self.speed > 0 and time.monotonic() < self.pause_until:
                    sp.target(*self.seat_place(seat).trick)
                    sp.face_up = True
                else:
                    sp.target(pile[0] + 3 * (k % 13), pile[1])
                    sp.face_up = False

    def _hand_order(self, seat: int) -> list[Card]:
        """A hand as a player holds it: suits alternating in colour, trump first, high to low."""
        trump = self.deal.trump
        order = [Suit.S, Suit.H, Suit.C, Suit.D]
        if trump is not None:
            order.remove(trump)
            order.insert(0, trump)
        return sorted(self.deal.hand(seat), key=lambda c: (order.index(c.suit), -c.rank))

    # ------------------------------------------------------------------ applying actions
    def act(self, action: Action, human: bool = False) -> bool:
        try:
            events = self.table.apply(action, human)
        except ViraError as exc:
            self.message, self.message_colour = str(exc), RED
            return False
        self.message = ""
        self.selected = set()
        name = self.table.session.seats[action.seat]
        for ev in events:
            if isinstance(ev, CardPlayed):
                self.app.sound("play")
            elif isinstance(ev, TrickWon):
                self.app.sound("trick")
                self.pause_until = time.monotonic() + BOT_PAUSE[self.speed_name] * 1.6
                self.say(f"Trick {ev.trick_no} to {self.table.session.seats[ev.seat]}.")
            elif isinstance(ev, TokensMoved):
                self.app.sound("tokens")
                self._fly(ev)
                self._note_tokens(ev)
            elif isinstance(ev, DealScored):
                self._deal_over()
        if not isinstance(action, PlayCard):
            self.say(f"{name}: {public_text(action)}")  # cards laid aside stay hidden from the others
        self.app.autosave(self.table)
        self.panel_key = None
        self._layout()
        return True

    def _note_tokens(self, ev: TokensMoved) -> None:
        """Say the ledger's rarer moves in words: åla om and sexmastare."""
        if ev.reason == "åla om" and ev.source == self.table.session.players[0]:
            self.say("Åla om: the pulla cannot pay, so everyone (the sitter-out too) antes a bet.")
        elif ev.target == SEXMASTARE:
            self.say(f"{ev.source} has no bets left: a pin goes under the pulla (sexmastare, six bets).")

    def _fly(self, ev: TokensMoved) -> None:
        """A token moving between a bowl and the pulla (drawn, not just counted)."""
        if self.speed <= 0 or len(self.flights) > 40:
            return
        now = time.monotonic() + 0.06 * len(self.flights)
        for _ in range(min(ev.count, 4)):
            self.flights.append(Flight(ev.kind, ev.colour, self._spot(ev.source), self._spot(ev.target), now, 0.7))
            now += 0.05

    def _spot(self, place: object) -> tuple[float, float]:
        if isinstance(place, str) and place in self.table.session.players:
            x, y = self.place_of(place).plate
            return (x + 60.0, y + 56.0)
        return (465.0, 138.0) if len(self.table.session.players) == 3 else (675.0, 188.0)

    def _deal_over(self) -> None:
        result = self.deal.result
        assert result is not None
        seats = self.table.session.seats
        self.say(
            f"{seats[result.declarer]} {result.game.name}: {result.outcome}, "
            f"tricks {result.tricks[result.declarer]}, pulla {result.pulla[result.declarer]:+d}"
        )
        self.deals_done += 1

    # ------------------------------------------------------------------ bots
    def _run_bots(self) -> None:
        if self.future is not None:
            if self.future.done():
                choice = self.future.result()
                self.future = None
                if choice.action is not None:
                    name = self.table.session.seats[choice.action.seat]
                    # the reason stays out of the table's log: it would give the bot's hand away
                    log.debug("%s: %s", name, choice.reason)
                    self.act(choice.action)
            return
        if self.deal.is_over or time.monotonic() < self.pause_until or self._animating():
            return
        job = self.table.bot_job()
        if job is None:
            return
        bot, view = job
        self.think_started = time.monotonic()
        self.pause_until = self.think_started + BOT_PAUSE[self.speed_name]
        self.future = self.executor.submit(bot.choose, view)

    def _animating(self) -> bool:
        return self.speed > 0 and any(s.moving for s in self.sprites.values())

    # ------------------------------------------------------------------ the panel (legal actions only)
    def _panel(self) -> None:
        deal = self.deal
        human_turn = self.table.human_to_act() and self.table.player_to_act() == self.viewer
        offer = self.table.pending_offer()
        key = (self.table.deal_index, len(deal.history), human_turn, offer, deal.is_over, self.hidden_for)
        if key == self.panel_key:
            return
        self.panel_key = key
        self.clear_widgets()
        self.buttons = {}
        self.bid_list = None
        y = 340
        if deal.is_over:
            self._button("Next deal  [Enter]", "next", y)
            self._button("End session (Borup)", "borup", y + 44)
            return
        if offer == self.viewer:
            self._button("Announce four aces", AnnounceAces(deal.declarer), y - 44)
        if not human_turn:
            return
        decision = self.table.decision()
        if decision.phase is Phase.AUCTION:
            bids = [a for a in decision.actions if isinstance(a, Bid)]
            self.bid_items = {a.text: a for a in bids}
            self.bid_list = pygame_gui.elements.UISelectionList(
                pygame.Rect(TABLE_W + 16, 324, 288, 236), list(self.bid_items), manager=self.ui
            )
            self.add(self.bid_list)
            self._button("Bid  [Enter]", "bid", 566, width=140)
            passes = [a for a in decision.actions if not isinstance(a, Bid)]
            if passes:
                self.buttons[
                    self.add(
                        pygame_gui.elements.UIButton(
                            pygame.Rect(TABLE_W + 164, 566, 140, 38), "Pass  [P]", manager=self.ui
                        )
                    )
                ] = passes[0]
            self._button("Hint  [H]", "hint", 610)
            return
        if decision.phase is Phase.PLAY:
            return
        for i, action in enumerate(decision.actions):
            self._button(f"{i + 1}. {action.text}", action, y)
            y += 42
        if decision.choice is not None:
            verb = decision.choice.action.__name__.lower()
            self._button(f"{verb} selected  [Enter]", "choose", y)
        self._button("Hint  [H]", "hint", y + 44)

    def _button(self, label: str, action: Action | str, y: int, width: int = 288) -> None:
        button = pygame_gui.elements.UIButton(pygame.Rect(TABLE_W + 16, y, width, 38), label, manager=self.ui)
        self.add(button)
        self.buttons[button] = action

    def _press(self, what: Action | str) -> None:
        if isinstance(what, str):
            self._command(what)
        else:
            self.act(what, human=True)

    def _command(self, what: str) -> None:
        deal = self.deal
        if what == "next":
            self._next_deal()
        elif what == "borup":
            self.table.session.announce_borup()
            self.say("Borup: the next deal is the last.")
            self._next_deal()
        elif what == "bid" and self.bid_list is not None:
            chosen = self.bid_list.get_single_selection()
            if isinstance(chosen, tuple):
                chosen = chosen[0]
            if chosen is None:
                self.message, self.message_colour = "choose a bid in the list first", RED
            else:
                self.act(self.bid_items[chosen], human=True)
        elif what == "choose":
            decision = self.table.decision()
            if decision.choice is not None:
                self.act(decision.choice.make(sorted(self.selected)), human=True)
        elif what == "hint" and not deal.is_over:
            view = self.table.view_for(self.viewer) if self.viewer in self.table.session.seats else None
            if view is None or view.decision is None:
                self.message, self.message_colour = "Hint: nothing for you to decide just now", MUTED
                return
            choice = self.coach.choose(view)
            text = choice.action.text if choice.action else "nothing"
            self.message, self.message_colour = f"Hint: {text} — {choice.reason}", GOLD

    def _next_deal(self) -> None:
        session = self.table.session
        if session.deals and session.deals[-1].borup:
            from .overlays import SettlementScene

            self.app.stack.replace(SettlementScene(self.app, self.table))
            return
        self.table.next_deal()
        self.app.autosave(self.table)
        self._new_deal_sprites()
        self._announce_deal()
        self.panel_key = None

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self._press(self.buttons[event.ui_element])
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and self.bid_list is not None:
            self._command("bid")
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press_card(event.pos)
        elif event.type == pygame.MOUSEMOTION and self.dragging is not None:
            sp = self.sprites[self.dragging]
            sp.x, sp.y = event.pos[0] - CARD_W / 2, event.pos[1] - CARD_H / 2
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging is not None:
            card, start = self.dragging, self.drag_from
            self.dragging = None
            moved = abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1])
            if moved < 12 or event.pos[1] < 620:  # a click, or dropped on the table
                self._use_card(card)
        elif event.type == pygame.KEYDOWN:
            self._key(event)

    def _press_card(self, pos: tuple[int, int]) -> None:
        """A press on one of your cards: click it, or drag it onto the table to play it."""
        if self.hidden_for:
            return
        me = self.viewer_seat()
        if me is None:
            return
        for card in reversed(self._hand_order(me)):
            sp = self.sprites[card]
            if pygame.Rect(int(sp.x), int(sp.y), CARD_W, CARD_H).collidepoint(pos):
                self.dragging, self.drag_from = card, pos
                return

    def _use_card(self, card: Card) -> None:
        if not self.table.human_to_act() or self.table.player_to_act() != self.viewer:
            return
        decision = self.table.decision()
        if decision.phase is Phase.PLAY:
            seat = decision.seat
            action = PlayCard(seat, card)
            if not self.deal.is_legal(action):
                try:
                    self.deal.check(action)
                except ViraError as exc:
                    self.message, self.message_colour = f"{card}: {exc}", RED
                    self.sprites[card].y -= 12
                return
            self.act(action, human=True)
        elif decision.choice is not None:
            self.selected ^= {card}
            n = len(self.selected)
            c = decision.choice
            want = str(c.min_count) if c.min_count == c.max_count else f"{c.min_count}–{c.max_count}"
            self.message, self.message_colour = f"{n} selected (choose {want})", INK
            self._layout()

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        if self.intro_started is not None:
            self.intro_started = None  # any key skips the seating draw
            return
        if self.hidden_for:
            if key in (pygame.K_RETURN, pygame.K_SPACE):
                self.hidden_for = None
                self.panel_key = None
            return
        me = self.viewer_seat()
        hand = self._hand_order(me) if me is not None else []
        if key == pygame.K_ESCAPE:
            self.app.to_menu()
        elif key == pygame.K_s:
            from .overlays import ScoreSheetScene

            self.app.stack.push(ScoreSheetScene(self.app, self.table))
        elif key == pygame.K_b:
            from .overlays import BidTableScene

            self.app.stack.push(BidTableScene(self.app))
        elif key == pygame.K_l:
            self._show_last_trick()
        elif key == pygame.K_t:
            from .overlays import TrickHistoryScene

            self.app.stack.push(TrickHistoryScene(self.app, self.table))
        elif key == pygame.K_u:
            self._undo()
        elif key == pygame.K_h:
            self._command("hint")
        elif key == pygame.K_p:
            passes = [a for a in self.buttons.values() if not isinstance(a, str) and a.text == "pass"]
            if passes:
                self._press(passes[0])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and hand:
            # from the card shown with the focus: the hand may have shrunk since the focus was set
            self.focus = (min(self.focus, len(hand) - 1) + (1 if key == pygame.K_RIGHT else -1)) % len(hand)
        elif key in (pygame.K_UP, pygame.K_DOWN) and self.bid_list is not None:
            self._move_bid(1 if key == pygame.K_DOWN else -1)
        elif key == pygame.K_SPACE and hand:
            self._use_card(hand[min(self.focus, len(hand) - 1)])
        elif key == pygame.K_RETURN:
            self._enter(hand)
        elif pygame.K_1 <= key <= pygame.K_9:
            actions = [a for a in self.buttons.values() if not isinstance(a, str)]
            index = key - pygame.K_1
            if index < len(actions):
                self._press(actions[index])

    def _enter(self, hand: list[Card]) -> None:
        if self.deal.is_over:
            self._command("next")
        elif self.bid_list is not None:
            self._command("bid")
        elif self.table.human_to_act() and (choice := self.table.decision().choice) is not None:
            if self.selected or choice.min_count == 0:
                self._command("choose")
        elif hand and self.table.human_to_act() and self.deal.phase is Phase.PLAY:
            self._use_card(hand[min(self.focus, len(hand) - 1)])

    def _move_bid(self, step: int) -> None:
        assert self.bid_list is not None
        names = list(self.bid_items)
        current = self.bid_list.get_single_selection()
        index = names.index(current) + step if current in names else 0
        index = max(0, min(len(names) - 1, index))
        for item in self.bid_list.item_list:
            item["selected"] = item["text"] == names[index]
        self.bid_list.rebuild_from_changed_theme_data()

    def _undo(self) -> None:
        if not self.table.can_undo():
            self.message, self.message_colour = "nothing of yours to undo in this deal", MUTED
            return
        if self.future is not None:
            self.future.cancel()
            self.future = None
        self.table.undo()
        self.app.autosave(self.table)
        self._new_deal_sprites()
        self.say("Undo: your last action was taken back (marked in the score sheet).")
        self.panel_key = None

    def _show_last_trick(self) -> None:
        if self.deal.tricks_played:
            winner, cards = self.deal.tricks_played[-1]
            seats = self.table.session.seats
            shown = ", ".join(f"{seats[s]} {c.rank.letter}{c.suit.symbol}" for s, c in cards)
            self.message, self.message_colour = f"Last trick: {shown} — won by {seats[winner]}", GOLD

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self.flights = [f for f in self.flights if not f.done()]
        if self._in_intro():
            return
        self._hot_seat()
        self._run_bots()
        self._hot_seat()  # a bot's move may have handed the turn to another human
        self._panel()
        self._layout()
        speed = self.speed
        for sp in self.sprites.values():
            if sp.card is not self.dragging:
                sp.update(dt, speed)
        if self.autoplay is not None and self.deal.is_over and self.future is None and not self._animating():
            if self.deals_done >= self.autoplay:
                self.app.running = False
            elif time.monotonic() >= self.pause_until:
                self._next_deal()

    def _hot_seat(self) -> None:
        humans = [s.name for s in self.table.seats if s.human]
        if len(humans) < 2 or self.deal.is_over or not self.table.human_to_act():
            return
        actor = self.table.player_to_act()
        if actor != self.viewer:
            self.viewer = actor
            self.hidden_for = actor
            self.panel_key = None

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(FELT)
        pygame.draw.rect(surface, FELT_DARK, (0, 0, TABLE_W, 800), 6)
        pygame.draw.rect(surface, PANEL, (TABLE_W, 0, 1280 - TABLE_W, 800))
        if self.hidden_for:
            self._draw_cover(surface)
            return
        self._draw_spare_deck(surface)
        self._draw_players(surface)
        self._draw_pulla(surface)
        if self.intro_started is not None:
            self._draw_intro(surface)
        else:
            self._draw_cards(surface)
        self._draw_flights(surface)
        self._draw_panel_text(surface)

    def _draw_intro(self, surface: pygame.Surface) -> None:
        """The seating draw (or the first-come heart deal), card by card."""
        assert self.intro_started is not None
        elapsed = time.monotonic() - self.intro_started
        draw = self.table.draw
        title = "Seating draw by hearts" if self.table.seating == "draw" else "First come: the heart deal"
        banner = self.text(title, 24, True, GOLD)
        surface.blit(banner, banner.get_rect(center=(TABLE_W // 2, 260)))
        counts: dict[str, int] = {}
        shown = draw.cards[: int(elapsed / 0.5) + 1]
        for name, card in shown:
            x, y = self.place_of(name).plate
            k = counts.get(name, 0)
            counts[name] = k + 1
            surface.blit(self.images.face(card), (x + 210 + 16 * k, y))
        if len(shown) == len(draw.cards):
            line = f"{draw.forehand} has hearts: forehand for the first deal"
            text = self.text(line, 18, True, INK)
            surface.blit(text, text.get_rect(center=(TABLE_W // 2, 300)))

    def _draw_flights(self, surface: pygame.Surface) -> None:
        now = time.monotonic()
        players = self.table.session.players
        for f in self.flights:
            x, y = f.position(now)
            if f.started(now):
                _token(surface, f.kind, PLAYER_COLOURS[players.index(f.colour) % 4], int(x), int(y))

    def _draw_cover(self, surface: pygame.Surface) -> None:
        msg = self.text(f"Pass the screen to {self.hidden_for} — press Enter", 26, True, GOLD)
        surface.blit(msg, msg.get_rect(center=(TABLE_W // 2, 400)))

    def _draw_cards(self, surface: pygame.Surface) -> None:
        back = self.images.back(self._deck_colour(self.table.deal_index))
        me = self.viewer_seat()
        focus_card = None
        if me is not None:
            hand = self._hand_order(me)
            if hand and not self.deal.is_over:
                focus_card = hand[min(self.focus, len(hand) - 1)]
        order = sorted(self.sprites.values(), key=lambda s: (s.delay > 0, s.face_up and s.ty > 600, s.x, s.y))
        for sp in order:
            image = self.images.face(sp.card) if sp.face_up else back
            surface.blit(image, (int(sp.x), int(sp.y)))
            if sp.card in self.selected:
                pygame.draw.rect(surface, GOLD, (int(sp.x), int(sp.y), CARD_W, CARD_H), 3, border_radius=5)
            if sp.card is focus_card and self.table.human_to_act():
                pygame.draw.rect(surface, FOCUS, (int(sp.x) - 2, int(sp.y) - 2, CARD_W + 4, CARD_H + 4), 2, 6)

    def _deck_colour(self, deal_index: int) -> str:
        """The two decks alternate; the first is the card back chosen in the settings."""
        first = str(self.app.settings["display.card_back"])
        other = "red" if first == "blue" else "blue"
        return first if deal_index % 2 == 0 else other

    def _draw_spare_deck(self, surface: pygame.Surface) -> None:
        """The other deck, face down with its bottom card visible: it sets the highest suit."""
        number = self.deal.number or 0
        _, spare = deal_number_decks(number)
        x, y = self.seat_place(0).spare
        other = self.images.back(self._deck_colour(self.table.deal_index + 1))
        for i in range(5):
            surface.blit(other, (x + 2 * i, y - 2 * i))
        bottom = self.images.face(spare[-1])
        surface.blit(bottom, (x + 14, y - 14))
        surface.blit(self.text("spare deck", 12, False, MUTED), (x, y + CARD_H - 8))
        if self.deal.stock_left:
            label = self.text(f"stock {self.deal.stock_left}", 12, False, MUTED)
            surface.blit(label, (STOCK[0], STOCK[1] + CARD_H + 2))

    def _draw_players(self, surface: pygame.Surface) -> None:
        session = self.table.session
        deal = self.deal
        ledger = session.ledger
        for i, name in enumerate(session.players):
            place = self.place_of(name)
            colour = PLAYER_COLOURS[i % 4]
            x, y = place.plate
            pygame.draw.rect(surface, FELT_DARK, (x, y, 200, 84), border_radius=10)
            if name == self.table.player_to_act() and not deal.is_over:
                pygame.draw.rect(surface, FOCUS, (x, y, 200, 84), 2, border_radius=10)
            if name in session.seats:
                seat = session.seats.index(name)
                role = ("forehand", "middle-hand", "rear-hand · deals")[seat]
                if seat == deal.declarer:
                    role = "declarer · " + role
                if deal.phase in (Phase.PLAY, Phase.DONE):
                    role += f" · {deal.tricks_won[seat]} tr."
            else:
                role = "sits out this deal"
            if self.future is not None and name == self.table.player_to_act():
                role = "thinking" + "." * (1 + int(time.monotonic() * 3) % 3)
            surface.blit(self.text(name, 16, True, colour), (x + 10, y + 6))
            surface.blit(self.text(role, 12, False, INK), (x + 10, y + 28))
            self._draw_bowl(surface, (x + 10, y + 50), ledger.holdings(name), session.players)

    def _draw_bowl(
        self, surface: pygame.Surface, pos: tuple[int, int], held: dict[tuple[str, Kind], int], players: list[str]
    ) -> None:
        """Tokens by colour and kind: triangle, bet, round, pin, each with its count."""
        x, y = pos
        for kind in (Kind.TRIANGLE, Kind.BET, Kind.ROUND, Kind.PIN):
            owners = [o for o in players if held.get((o, kind), 0)]
            for owner in owners[:2]:
                colour = PLAYER_COLOURS[players.index(owner) % 4]
                _token(surface, kind, colour, x, y + 2)
                count = self.text(str(held[(owner, kind)]), 11, True, INK)
                surface.blit(count, (x + 13, y + 4))
                x += 18 + count.get_width()
                if x > pos[0] + 170:
                    return

    def _draw_pulla(self, surface: pygame.Surface) -> None:
        ledger = self.table.session.ledger
        x, y = (380, 100) if len(self.table.session.players) == 3 else (590, 150)
        pygame.draw.ellipse(surface, (150, 150, 160), (x, y, 170, 76))
        pygame.draw.ellipse(surface, (105, 105, 115), (x + 10, y + 8, 150, 60))
        bets = ledger.pulla_bets()
        label = self.text(f"pulla {bets} bets", 14, True, INK)
        surface.blit(label, label.get_rect(center=(x + 85, y + 38)))
        under = sum(ledger.holdings(SEXMASTARE).values())
        if under:
            surface.blit(self.text(f"sexmastare {under} (6 bets each)", 12, False, GOLD), (x, y + 80))

    def _draw_panel_text(self, surface: pygame.Surface) -> None:
        deal = self.deal
        x = TABLE_W + 16
        highest = deal.highest
        surface.blit(self.text(f"Deal {self.table.deal_index + 1}  ·  no. {deal.number}", 14, True, INK), (x, 12))
        badge = (
            f"Highest {highest.symbol}  färg {highest.partner.symbol}  "
            f"ofärger {' '.join(s.symbol for s in Suit if s not in (highest, highest.partner))}"
        )
        surface.blit(self.text(badge, 16, True, GOLD), (x, 36))
        y = 66
        for seat, text in deal.bids[-7:]:
            surface.blit(self.text(f"{self.table.session.seats[seat]}: {text}", 13, False, INK), (x, y))
            y += 18
        y = 196
        if deal.game is not None:
            contract = f"{deal.game.printed} — declarer {self.table.session.seats[deal.declarer]}"
            surface.blit(self.text(contract, 15, True, GOOD), (x, y))
            y += 20
            if deal.trump is not None:
                klass = suit_class(deal.trump, highest).label
                surface.blit(self.text(f"trump {deal.trump.symbol} {SUIT_WORDS[deal.trump]} ({klass})", 14), (x, y))
                y += 18
            elif deal.low:
                surface.blit(self.text("misère: no trump, no trick to take", 14), (x, y))
                y += 18
            need = 0 if deal.low else deal.game.tricks
            won = deal.tricks_won[deal.declarer]
            surface.blit(self.text(f"tricks {won} of {need} needed", 13, False, MUTED), (x, y))
            y += 18
        phase = self.text(f"{deal.phase.value}: {self._who()}", 13, False, MUTED)
        surface.blit(phase, (x, 256))
        notes = _wrapped(self.message, 42)[:2] if self.message else []
        hint = self._marking_hint()
        for i, line in enumerate(notes or _wrapped(hint, 42)[:2]):
            surface.blit(self.text(line, 13, True, self.message_colour if notes else GOLD), (x, 276 + 18 * i))
        y = 650
        lines = [part for line in self.log[-7:] for part in _wrapped(line, 46)]
        for line in lines[-7:]:
            surface.blit(self.text(line, 12, False, MUTED), (x, y))
            y += 17
        keys = "S score · B bids · L last · T tricks · U undo · H hint · Esc"
        surface.blit(self.text(keys, 11, False, MUTED), (x, 780))

    def _who(self) -> str:
        if self.deal.is_over:
            return "deal over"
        return f"{self.table.player_to_act()} to act"

    def _marking_hint(self) -> str:
        """The partner's Ågren marking, worked out once per action (not every frame)."""
        me = self.viewer_seat()
        key = (self.table.deal_index, len(self.deal.history), me)
        if self.hint_cache[0] != key:
            self.hint_cache = (key, self._read_marking(me))
        return self.hint_cache[1]

    def _read_marking(self, me: int | None) -> str:
        if me is None or self.deal.declarer in (-1, me) or self.deal.low:
            return ""
        for mark in read_markings(self.deal.view(me)):
            if mark.seat != me:
                return f"Ågren: {self.table.session.seats[mark.seat]} shows {mark.describe()}"
        return ""


def _wrapped(text: str, width: int) -> list[str]:
    """Break a log line into lines of at most ``width`` characters at spaces."""
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*out, line] if line else out


def _token(surface: pygame.Surface, kind: Kind, colour: tuple[int, int, int], x: int, y: int) -> None:
    if kind is Kind.PIN:
        pygame.draw.rect(surface, colour, (x, y, 4, 16), border_radius=2)
    elif kind is Kind.ROUND:
        pygame.draw.circle(surface, colour, (x + 4, y + 8), 7)
    elif kind is Kind.BET:
        pygame.draw.rect(surface, colour, (x - 2, y + 2, 10, 12), border_radius=2)
    else:
        pygame.draw.polygon(surface, colour, [(x + 4, y), (x - 4, y + 16), (x + 12, y + 16)])
