"""The table view: draws one :class:`~...session.state.TableState` and animates from events.

It is fed by a driver (live play, a deal record, a lesson) and cannot tell which:
it sees the public state of the table, one seat's view, and the events that led
there, and draws beside it one :class:`~.shown.Shown` value (the scene's message and
marks, the runner's log and cover). Every animation runs on the frame clock through
one :class:`Tweens`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pygame

from ...i18n import t
from ...rules.cards import Card
from ...rules.decision import Phase
from ...rules.events import CardPlayed, DealStarted, TrickWon
from ...rules.ledger import TokensMoved
from ...rules.scoring import DealResult
from ...rules.view import View
from ...session.describe import describe_result, is_you
from ...session.state import TableState
from ..backdrop import felt, panel
from ..cards import CARD_H, CARD_W, CardImages
from ..theme import GOLD, INK, MUTED, PLAYER_COLOURS
from ..tween import Tweens
from .bidgrid import BOX as GRID_BOX
from .cards_layer import CardLayer, hand_order
from .model import PLACES, PLACES_FOUR, TABLE_W, Place, place
from .panel_text import PanelText, colour_of
from .shown import Shown
from .widgets import Bowls, Intro, Pulla, SpareDeck, Texts, TokenFlights

__all__ = ["SPEEDS", "TableView"]

SPEEDS = {"instant": 0.0, "fast": 0.55, "normal": 1.0, "slow": 1.8}  # duration factors
BRISK = 0.2  # the factor, at most, of play nobody at the table waits on (a lesson's scripted play)
MAX_STEP_S = 0.05  # the longest step an animation takes in one frame
# The result's box starts under the labels of the spare decks beside the table's top (at 250 it
# covered "spare" of "spare deck": a newcomer's finding).
BANNER_TOP = PLACES["right"].spare[1] + CARD_H + 20


class TableView:
    """Cards, bowls, pulla, spare deck, tokens in flight and the panel's text (the trick
    flags are :class:`~.cards_layer.CardLayer`'s)."""

    colour_of = staticmethod(colour_of)

    def __init__(
        self,
        images: CardImages,
        speed_name: str,
        card_back: str = "blue",
        sound: Callable[[str], None] = lambda name: None,
        *,
        wait_after_trick: bool = False,
        keep_last_trick: bool = False,
        replaying: bool = False,
    ) -> None:
        self.images = images
        self.speed_name = speed_name
        self.brisk = False  # play the table briskly (see BRISK), whatever the speed setting
        self.card_back = card_back
        self.sound = sound
        self.tweens = Tweens()
        self.text = Texts()
        self.panel_text = PanelText(self.text)
        self.cards = CardLayer(images, self.tweens, self.factor, wait_after_trick, keep_last_trick, replaying)
        self.flights = TokenFlights(self.tweens, self.factor)
        self.intro = Intro(self.text, images, self.tweens)
        self.bowls = Bowls(self.text, self.place_of)
        self.pulla = Pulla(self.text)
        self.spare = SpareDeck(self.text, images)
        self.state: TableState | None = None
        self.shown = Shown()  # what is drawn beside the state: the scene's to give (see .shown)
        self.banner: tuple[str, list[str]] | None = None  # the result of the deal just ended
        self.peek = False  # D: the viewer looks at its own discards (until the first lead)
        self.pointer: tuple[int, int] | None = None  # where the mouse is over the table

    # ------------------------------------------------------------------ geometry
    def factor(self) -> float:
        factor = SPEEDS[self.speed_name]
        return min(factor, BRISK) if self.brisk else factor

    def pace(self, brisk: bool) -> None:
        """Play the table briskly from now (see :data:`BRISK`), or at the speed set."""
        self.brisk = brisk

    def place_of(self, name: str) -> Place:
        state = self.state
        assert state is not None
        players = state.players
        rel = (players.index(name) - players.index(state.viewer_name)) % len(players)
        return place(len(players), rel)

    def seat_place(self, seat: int) -> Place:
        assert self.state is not None
        return self.place_of(self.state.seats[seat])

    # ------------------------------------------------------------------ feeding
    def show(self, state: TableState, events: Iterable[object] = (), snap: bool = False) -> None:
        """Take the new state and the events that led to it; lay the cards out again
        (``snap``: at once, when the seat shown changes or a replay steps back)."""
        first = self.state is None
        self.state = state
        events = list(events)
        self.cards.on_events(events, self.seat_place)
        for ev in events:
            if isinstance(ev, DealStarted):
                self.sound("deal")
            elif isinstance(ev, CardPlayed):
                self.sound("play")
            elif isinstance(ev, TrickWon):
                self.sound("trick")
            elif isinstance(ev, TokensMoved):
                self.sound("tokens")
                self.flights.launch(ev, state, self.place_of)
        if state.view.result is None:
            self.banner = None  # a new deal, an undo, a step back in a replay
        elif self.banner is None:  # the deal's result, told the moment it is known
            self.banner = self.result_banner(state.view.result, state)
        if first and state.seating is not None:
            self.intro.start(state, self.factor())
        if snap:
            self.cards.end_hold()  # laid out without a trick held in the middle
        self.cards.layout(state.view, self.seat_place, self.shown.raised)
        if snap:
            self.cards.snap()

    @staticmethod
    def result_banner(result: DealResult, state: TableState) -> tuple[str, list[str]]:
        """The deal's result as the banner tells it: a headline and its lines."""
        level = state.view.contract.suit_level if state.view.contract else 0
        return describe_result(result, state.seats, level, state.ala_om, len(state.players))

    def viewer_hand(self) -> list[Card]:
        """The viewer's cards in the order they are shown."""
        state = self.state
        if state is None or state.view.spectator:
            return []
        return hand_order(state.view.hand, state.view.trump)

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        dt = min(dt, MAX_STEP_S)  # after the window slept, an animation started by the waking input starts whole
        self.tweens.update(dt)
        held = self.cards.holding
        self.cards.update(dt)
        self.flights.update()
        self.intro.update()
        if held and not self.cards.holding and self.state is not None:  # the trick goes to its winner
            self.cards.layout(self.state.view, self.seat_place, self.shown.raised)

    @property
    def busy(self) -> bool:
        """An animation is still running (bots wait for it, as a player's eyes would)."""
        return self.tweens.active or self.cards.holding or self.intro.running

    def finish(self) -> None:
        """Jump every animation to its end."""
        self.intro.skip()
        self.cards.end_hold()  # a hold may be endless ("wait after trick"): end it, do not wait it out
        if self.state is not None:
            self.cards.layout(self.state.view, self.seat_place, self.shown.raised)
        self.tweens.finish_all()

    def point(self, pos: tuple[int, int]) -> None:
        """The mouse is at ``pos`` (the viewer's discards show while it rests on their pile)."""
        self.pointer = pos

    def toggle_peek(self) -> None:
        """D: the viewer's own discards shown, or hidden again."""
        self.peek = not self.peek

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(felt(TABLE_W, 800), (0, 0))
        surface.blit(panel(1280 - TABLE_W, 800), (TABLE_W, 0))
        state, shown = self.state, self.shown
        if state is None:
            return
        if shown.cover:
            msg = self.text(t("table.cover", name=shown.cover), 26, True, GOLD, TABLE_W - 40)
            surface.blit(msg, msg.get_rect(center=(TABLE_W // 2, 400)))
            for i, note in enumerate(shown.cover_note):  # the moves just made, as the log said them
                said = self.text(note, 15, False, MUTED, TABLE_W - 80)
                surface.blit(said, said.get_rect(center=(TABLE_W // 2, 460 + 22 * i)))
            return
        spare_back = self.images.back(self._deck_colour(state.deal_index + 1))
        self.spare.draw(surface, state, self.seat_place(0), spare_back, stock=self.banner is None)
        self.bowls.draw(surface, state, shown.roles_shown)
        self.pulla.draw(surface, state)
        if self.intro.running:
            self.intro.draw(surface, state, self.place_of)
        else:
            back = self.images.back(self._deck_colour(state.deal_index))
            self.cards.draw(surface, back, shown.focus, shown.dimmed, shown.raised, piles_shown=self.banner is None)
            self._pile_labels(surface, state)
            self._top_hand_name(surface, state)
            self._draw_discards(surface, state)
        self.flights.draw(surface)
        if self.banner is not None:
            self._draw_banner(surface, *self.banner)
        elif self.cards.waiting:
            line = self.text(t("table.go_on"), 14, True, GOLD)
            surface.blit(line, line.get_rect(center=(TABLE_W // 2, 590)))
        self.panel_text.draw(surface, state, shown, self.doing(state))
        if self.pointer is not None and self._explains_suits(state, self.pointer):
            self.panel_text.draw_suits_help(surface, state)

    def _explains_suits(self, state: TableState, pointer: tuple[int, int]) -> bool:
        """Whether the mouse rests on the suits' badge, or on the spare deck whose bottom card sets
        it (not in the auction where the deck may lie under the bid grid)."""
        if self.panel_text.badge_rect(state).collidepoint(pointer):
            return True
        spare = self.spare.rect(self.seat_place(0))
        return spare.collidepoint(pointer) and not (state.view.phase is Phase.AUCTION and spare.colliderect(GRID_BOX))

    def doing(self, state: TableState) -> str:
        """The panel's line on what is being done, and by whom (in a replay, who acts next:
        never "your turn", as nothing is asked there)."""
        view = state.view
        if self.intro.running:
            return t("table.seating_draw_now")
        if state.over:
            return t("table.deal_over")
        phase = t(f"table.phase.{view.phase.name.lower()}")
        if not self.shown.roles_shown:  # a lesson asks who is forehand: "Anna to act" would tell
            return phase
        actor = state.seats[view.to_act]
        if self.cards.replaying:
            return t("table.to_act_replay", phase=phase, name=actor)
        you = is_you(actor) and view.to_act == state.viewer
        return t("table.to_act_you", phase=phase) if you else t("table.to_act", phase=phase, name=actor)


    def _pile_labels(self, surface: pygame.Surface, state: TableState) -> None:
        """Under each face-down pile, what it is: a player's tricks, or the cards laid away."""
        view = state.view
        counted = self.pile_counts(view)
        for seat in range(3):
            p = self.seat_place(seat)
            for (x, y), said in (
                (p.pile, t("table.tricks", count=counted[seat]) if counted[seat] else ""),
                (p.aside, self._aside_label(state, seat)),
            ):
                if said:
                    label = self.text(said, 11, False, MUTED)
                    if (x, y) == p.aside and seat == view.seat and not view.spectator:
                        y -= CARD_H + 3 + label.get_height()  # above the viewer's pile: its stack hides its foot
                    elif (x, y) == p.aside:
                        y += max(0, view.aside_sizes[seat] - 1)  # under the stack's foot (a card a pixel lower)
                    surface.blit(label, (x + 2, y + CARD_H + 3))

    def _top_hand_name(self, surface: pygame.Surface, state: TableState) -> None:
        """With four at the table, whose is the row of cards across the top, under it in the
        player's colour (a newcomer took the plate in the corner, the left hand's, for its)."""
        if len(state.players) != 4:
            return
        top = PLACES_FOUR["top"]
        for seat, name in enumerate(state.seats):
            if self.seat_place(seat) is top and state.view.hand_sizes[seat]:
                tag = self.text(name, 13, True, PLAYER_COLOURS[state.colour_index(name)])
                surface.blit(tag, tag.get_rect(midtop=(top.hand[0], top.hand[1] + CARD_H + 2)))

    def pile_counts(self, view: View) -> list[int]:
        """What the label under each player's pile says: the tricks won, as the plate counts them,
        under a pile with cards (0: no label). Playtests saw "1 trick" under an empty pile while
        that trick lay in the middle, then a pile's count one behind the plate's."""
        counts = list(view.tricks_won)
        if self.cards.trick_held(view):
            winner = view.tricks[-1][0]
            if counts[winner] == 1:
                counts[winner] = 0  # the winner's one trick lies in the middle: no pile yet
        return counts

    def _aside_label(self, state: TableState, seat: int) -> str:
        """Under a pile of laid-away cards, what it is; under the viewer's, how to look at them."""
        view = state.view
        if not view.aside_sizes[seat] or state.over:
            return ""
        own = not view.spectator and seat == view.seat and view.own_laid_aside
        return t("table.laid_away_look") if own else t("table.laid_away")

    def own_discards_shown(self, state: TableState) -> tuple[Card, ...]:
        """The viewer's own discards, shown face up while asked for (D, or the mouse on their
        pile): a player may look at them until the first lead, not after (the rulebook)."""
        view = state.view
        if view.spectator or state.over or not view.own_laid_aside:
            self.peek = False  # after the first lead, and in the next deal, they start hidden
            return ()
        x, y = self.place_of(state.viewer_name).aside
        n = view.aside_sizes[view.seat]
        pile = pygame.Rect(x, y - 16, CARD_W + 2 * n, CARD_H + n + 16)  # the cards and their label above
        over = self.pointer is not None and pile.collidepoint(self.pointer)
        return view.own_laid_aside if self.peek or over else ()

    def _draw_discards(self, surface: pygame.Surface, state: TableState) -> None:
        """The viewer's discards fanned face up above their pile, under a line saying what they are."""
        cards = hand_order(self.own_discards_shown(state), state.view.trump)
        if not cards:
            return
        y = self.place_of(state.viewer_name).aside[1] - 16  # over the pile's label
        step = min(30, (TABLE_W - 60 - CARD_W) // max(1, len(cards) - 1))
        width = step * (len(cards) - 1) + CARD_W
        left = (TABLE_W - width) // 2
        box = pygame.Rect(left - 10, y - CARD_H - 44, width + 20, CARD_H + 40)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 20, 16, 235))
        surface.blit(shade, box.topleft)
        pygame.draw.rect(surface, GOLD, box, 1, border_radius=8)
        title = self.text(t("table.your_discards"), 13, True, GOLD, box.width - 16)
        surface.blit(title, (box.x + 8, box.y + 6))
        for i, card in enumerate(cards):
            surface.blit(self.images.face(card), (left + i * step, box.y + 28))

    def _banner_layout(self, headline: str, lines: list[str]) -> tuple[pygame.Rect, list[str], list[str], int]:
        """The result's box, its headline and rows wrapped to it, and the first row's offset."""
        width = 600
        heads = self.text.wrap(headline, 19, True, width - 40)[:2]
        rows = [part for line in lines for part in self.text.wrap(line, 15, False, width - 40)]
        top = 48 + 24 * (len(heads) - 1)  # the first row under the headline
        return pygame.Rect((TABLE_W - width) // 2, BANNER_TOP, width, top + 10 + 22 * len(rows)), heads, rows, top

    def banner_rect(self, headline: str, lines: list[str]) -> pygame.Rect:
        """Where the result ``headline`` with ``lines`` is drawn."""
        return self._banner_layout(headline, lines)[0]

    def _draw_banner(self, surface: pygame.Surface, headline: str, lines: list[str]) -> None:
        """The deal's result over the middle of the table (the tokens fly under it)."""
        box, heads, rows, top = self._banner_layout(headline, lines)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((10, 20, 16, 245))
        surface.blit(shade, box.topleft)
        pygame.draw.rect(surface, GOLD, box, 2, border_radius=10)
        for i, head in enumerate(heads):
            title = self.text(head, 19, True, GOLD)
            surface.blit(title, title.get_rect(midtop=(box.centerx, box.y + 14 + 24 * i)))
        for i, row in enumerate(rows):
            text = self.text(row, 15, False, INK)
            surface.blit(text, text.get_rect(midtop=(box.centerx, box.y + top + 22 * i)))

    def _deck_colour(self, deal_index: int) -> str:
        """The two decks alternate; the first is the card back chosen in the settings."""
        other = "red" if self.card_back == "blue" else "blue"
        return self.card_back if deal_index % 2 == 0 else other
