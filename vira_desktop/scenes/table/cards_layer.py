"""The cards on the table as sprites, laid out from one seat's view and moved by tweens.

A sprite is keyed by what the viewer knows of it: a known card by the card, a
card the viewer cannot see by its place (``("hand", seat, i)``, ``("stock", i)``,
``("aside", seat, i)``). Each frame's layout gives every key a target; a key
that persists glides there, a new key enters from where the events say it came
from (the dealer, the stock, a player's hand).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

import pygame

from ...rules.cards import Card, Suit
from ...rules.decision import Phase
from ...rules.events import Bought, CardPlayed, DealStarted, StockTaken, TrickWon
from ...rules.seat import SEATS
from ...rules.view import View
from ..backdrop import card_shadow, ready, shadow_offset
from ..cards import CARD_H, CARD_W, CardImages
from ..theme import GOLD, KEY_FOCUS
from ..tween import Tweens
from .model import PLACES, STOCK, TURNED, Place

__all__ = ["SELECTED_RAISE", "CardLayer", "CardSprite", "hand_order"]

Key = tuple[object, ...]
MOVE_S = 0.32  # a card's glide at normal speed
SELECTED_RAISE = 16  # how far a selected card of the viewer's stands up from the hand
DEAL_STEP_S = 0.03  # between two cards dealt
TRICK_HOLD_S = 1.5  # a finished trick stays face up in the middle this long (at normal speed), or to the next lead
SPEEDS_KEEPING_THE_TRICK = ("normal", "slow")  # a trick stays in the middle until the next lead


@dataclass
class CardSprite:
    key: Key
    face: Card | None  # None: shown as a back
    x: float
    y: float
    tx: float = 0.0
    ty: float = 0.0
    face_up: bool = False
    lifted: float = 0.0  # a refused card jumps (tweened back to 0)


def hand_order(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """A hand as a player holds it: suits alternating in colour, trump first, high to low."""
    order = [Suit.S, Suit.H, Suit.C, Suit.D]
    if trump is not None:
        order.remove(trump)
        order.insert(0, trump)
    return sorted(cards, key=lambda c: (order.index(c.suit), -c.rank))


@dataclass(frozen=True)
class _Slot:
    x: float
    y: float
    face: Card | None
    face_up: bool


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


class CardLayer:
    """Every card sprite of the table, laid out from a view and animated by ``tweens``."""

    def __init__(
        self,
        images: CardImages,
        tweens: Tweens,
        speed: Callable[[], float],
        wait_after_trick: bool = False,
        keep_last_trick: bool = False,
        replaying: bool = False,
    ) -> None:
        self.images = images
        self.tweens = tweens
        self.speed = speed  # duration factor: 0 instant, 1 normal
        self.sprites: dict[Key, CardSprite] = {}
        self.dragging: Card | None = None  # the card under the pointer, dragged
        self._origins: dict[Key, tuple[float, float]] = {}
        self._delays: dict[Key, float] = {}
        self._hold: tuple[int, float] | None = None  # (trick number, seconds left) shown in the middle
        self.wait_after_trick = wait_after_trick  # the setting: hold each finished trick until a click or key
        self.keep_last_trick = keep_last_trick  # the last finished trick stays in the middle until the next lead
        self.replaying = replaying  # a replay keeps even the deal's last trick there (a table: the banner's place)
        self._dealing = False  # the next layout deals every card from ``_deal_from``
        self._deal_from = (0.0, 0.0)
        self._shade_surface: pygame.Surface | None = None
        self._shadowed_cache: dict[int, tuple[pygame.Surface, pygame.Surface]] = {}
        self._hand_keys: dict[int, list[Key]] = {}

    # ------------------------------------------------------------------ events
    def on_events(self, events: Iterable[object], place: Callable[[int], Place]) -> None:
        """Note where new cards come from; hold a finished trick in the middle a moment."""
        for ev in events:
            if isinstance(ev, DealStarted):
                self._deal(place)
            elif isinstance(ev, CardPlayed):
                self._origins.setdefault(("card", ev.card), place(ev.seat).hand_centre)
                self._hold = None  # the next lead takes the finished trick away
            elif isinstance(ev, TrickWon) and (self.wait_after_trick or TRICK_HOLD_S * self.speed()):
                seconds = math.inf if self.wait_after_trick else TRICK_HOLD_S * self.speed()
                self._hold = (ev.trick_no, seconds)
            elif isinstance(ev, Bought | StockTaken):
                drawn = ev.drawn if isinstance(ev, Bought) else ev.cards
                for card in drawn:
                    if card is not None:  # None: a card this seat may not know (events_for)
                        self._origins[("card", card)] = (float(STOCK[0]), float(STOCK[1]))

    def _deal(self, place: Callable[[int], Place]) -> None:
        """A new deal: every card starts at the dealer, in the order it is dealt."""
        self.sprites = {}
        self._hold = None
        self._origins = {}
        self._delays = {}
        dealer = place(2).hand
        self._deal_from = (float(dealer[0]), float(dealer[1]))
        self._dealing = True

    # ------------------------------------------------------------------ layout
    def layout(self, view: View, place: Callable[[int], Place], selected: Collection[Card] = ()) -> None:
        """Every card to its place in ``view`` (``selected``: the viewer's cards drawn raised)."""
        slots = self._slots(view, place)
        dealing = self._dealing
        speed = self.speed()
        for key, slot in slots.items():
            sp = self.sprites.get(key)
            if sp is None:
                ox, oy = self._origin(key, slot, place)
                if dealing:
                    ox, oy = self._deal_from
                sp = CardSprite(key, slot.face, ox, oy, ox, oy)
                self.sprites[key] = sp
                if dealing:
                    self._delays[key] = self._deal_delay(key, view) * speed
            sp.face, sp.face_up = slot.face, slot.face_up
            if sp.face is not None and sp.face == self.dragging:
                continue  # under the pointer: it glides to its place once it is let go
            ty = slot.y - (SELECTED_RAISE if slot.face in selected and slot.face is not None else 0)
            if (sp.tx, sp.ty) != (slot.x, ty) or key in self._delays:
                sp.tx, sp.ty = slot.x, ty
                delay = self._delays.pop(key, 0.0)
                self.tweens.add(sp, "x", slot.x, MOVE_S * speed, "out_cubic", delay)
                self.tweens.add(sp, "y", ty, MOVE_S * speed, "out_cubic", delay)
        for key in [k for k in self.sprites if k not in slots]:
            self.tweens.cancel(self.sprites.pop(key))
        self._dealing = False
        self._origins.clear()

    def _deal_delay(self, key: Key, view: View) -> float:
        kind, *rest = key
        if kind == "stock":
            return DEAL_STEP_S * DealStarted.positions(3)[_int(rest[0]) % 13]
        if kind == "hand":
            return DEAL_STEP_S * DealStarted.positions(_int(rest[0]))[_int(rest[1]) % 13]
        if kind == "card" and isinstance(key[1], Card):
            for seat, keys in self._hand_keys.items():
                if key in keys:
                    return DEAL_STEP_S * DealStarted.positions(seat)[keys.index(key) % 13]
        return 0.0

    def _origin(self, key: Key, slot: _Slot, place: Callable[[int], Place]) -> tuple[float, float]:
        if key in self._origins:
            return self._origins[key]
        if key[0] == "hand":
            return (float(STOCK[0]), float(STOCK[1]))
        if key[0] == "aside":
            return place(_int(key[1])).hand_centre
        return (slot.x, slot.y)

    def _slots(self, view: View, place: Callable[[int], Place]) -> dict[Key, _Slot]:
        slots: dict[Key, _Slot] = {}
        me = None if view.spectator else view.seat
        self._hand_keys = {}
        for seat in SEATS:
            p = place(seat)
            known = view.hand if seat == me else view.open_hands.get(seat)
            keys: list[Key]
            faces: list[Card | None]
            if known is not None:
                cards = hand_order(known, view.trump)
                keys, faces = [("card", c) for c in cards], list(cards)
            else:
                n = view.hand_sizes[seat]
                keys, faces = [("hand", seat, i) for i in range(n)], [None] * n
            self._hand_keys[seat] = keys
            n = len(keys)
            for i, (key, face) in enumerate(zip(keys, faces, strict=True)):
                if p.vertical:  # an open hand a little wider apart, so each card's suit shows too
                    step = min(31 if face is not None else 24, 359 // max(1, n - 1))  # ends above the plate
                    x, y = float(p.hand[0]), float(p.hand[1] + i * step)
                else:
                    width = min(56, (860 if p is PLACES["bottom"] else 420) // max(1, n))
                    x, y = p.hand[0] - (n - 1) * width / 2 + i * width - CARD_W / 2, float(p.hand[1])
                slots[key] = _Slot(x, y, face, face is not None)
            for j in range(view.aside_sizes[seat]):
                slots[("aside", seat, j)] = _Slot(p.aside[0] + j * 2.0, p.aside[1] + float(j), None, False)
        turned = [c for c in view.stock_turned]
        hidden = view.stock_left - len(turned)
        for i, card in enumerate(turned):
            slots[("card", card)] = _Slot(TURNED[0] - i * 30.0, float(TURNED[1]), card, True)
        for j in range(hidden):
            i = hidden - 1 - j  # from the top
            slots[("stock", j)] = _Slot(STOCK[0] + i * 1.5, STOCK[1] - i * 1.5, None, False)
        for player, card in view.trick:
            tx, ty = place(player).trick
            slots[("card", card)] = _Slot(float(tx), float(ty), card, True)
        last = len(view.tricks)
        held = self.trick_held(view)
        for k, (winner, played) in enumerate(view.tricks):
            pile = place(winner).pile
            for player, card in played:
                if held and k == last - 1:
                    tx, ty = place(player).trick
                    slots[("card", card)] = _Slot(float(tx), float(ty), card, True)
                else:
                    slots[("card", card)] = _Slot(pile[0] + 3.0 * (k % 13), float(pile[1]), card, False)
        return slots

    def trick_held(self, view: View) -> bool:
        """Whether the last finished trick lies in the middle still, not yet on its winner's pile."""
        last = len(view.tricks)
        holding = self._hold is not None and self._hold[0] == last
        kept = self.keep_last_trick and last > 0 and (self.replaying or view.phase is not Phase.DONE)
        return not view.trick and (kept or holding)

    def snap(self) -> None:
        """Every card at its place now."""
        for sp in self.sprites.values():
            self.tweens.cancel(sp)
            sp.x, sp.y, sp.lifted = sp.tx, sp.ty, 0.0

    def end_hold(self) -> None:
        """No finished trick is held in the middle any more (lay the cards out after this)."""
        self._hold = None

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        if self._hold is not None and not any(self.tweens.moving(sp) for sp in self.sprites.values()):
            trick, left = self._hold  # counted from the moment the last card lies in the trick
            self._hold = (trick, left - dt) if left - dt > 0 else None

    def release(self) -> bool:
        """A click or a key while a finished trick waits: it goes to its winner. ``True`` if
        one was waiting."""
        if not self.waiting or self._hold is None:
            return False
        self._hold = (self._hold[0], 0.0)
        return True

    @property
    def waiting(self) -> bool:
        """A finished trick waits for a click or a key."""
        return self._hold is not None and self._hold[1] == math.inf

    @property
    def holding(self) -> bool:
        """A finished trick is still shown in the middle."""
        return self._hold is not None

    def draw(
        self,
        surface: pygame.Surface,
        back: pygame.Surface,
        focus: Card | None = None,
        dimmed: Collection[Card] = (),
        selected: Collection[Card] = (),
        piles_shown: bool = True,
    ) -> None:
        """The cards, ``focus`` framed as the keys' focus, ``dimmed`` shaded, ``selected`` framed
        gold; without ``piles_shown`` (the deal over, its result over the middle) the cards
        laid away and the stock left are not drawn: only their edges would show."""
        # cards on their way (played, bought, dealt) fly over the piles and hands they pass
        shown = [sp for key, sp in self.sprites.items() if piles_shown or key[0] not in ("aside", "stock")]
        order = sorted(shown, key=lambda s: ((s.x, s.y) != (s.tx, s.ty), s.face_up and s.ty > 600, s.x, s.y))
        cast: set[tuple[int, int]] = set()
        frame: pygame.Rect | None = None
        for sp in order:
            image = self.images.face(sp.face) if sp.face_up and sp.face is not None else back
            x, y = int(sp.x), int(sp.y - sp.lifted)
            raised = bool(sp.lifted) or (sp.x, sp.y) != (sp.tx, sp.ty)  # held up or in flight
            dx, dy = shadow_offset(raised)
            if raised:
                if (x // 8, y // 8) not in cast:  # cards flying as one stack cast one shadow
                    cast.add((x // 8, y // 8))
                    surface.blit(card_shadow(True), (x + dx, y + dy))
                surface.blit(image, (x, y))
            else:  # a card at rest: card and shadow in one blit
                surface.blit(self._shadowed(image), (x + dx, y + dy))
            if dimmed and sp.face in dimmed:  # may not be played now (follow suit)
                surface.blit(self._shade(), (x, y))
            if sp.face is not None and sp.face in selected:
                pygame.draw.rect(surface, GOLD, (x, y, CARD_W, CARD_H), 3, border_radius=5)
            if focus is not None and sp.face == focus:
                frame = pygame.Rect(x - 5, y - 5, CARD_W + 10, CARD_H + 10)
        if frame is not None:  # over the cards beside it, outside a selection's gold frame
            pygame.draw.rect(surface, KEY_FOCUS, frame, 3, 8)

    def _shadowed(self, image: pygame.Surface) -> pygame.Surface:
        """``image`` over its resting shadow, made once per card image."""
        held = self._shadowed_cache.get(id(image))
        if held is None or held[0] is not image:
            shadow = card_shadow(False)
            dx, dy = shadow_offset(False)
            both = shadow.copy()
            both.blit(image, (-dx, -dy))
            held = (image, ready(both))
            self._shadowed_cache[id(image)] = held
        return held[1]

    def _shade(self) -> pygame.Surface:
        shade = self._shade_surface
        if shade is None:
            shade = pygame.Surface((CARD_W, CARD_H), pygame.SRCALPHA)
            pygame.draw.rect(shade, (20, 30, 25, 120), shade.get_rect(), border_radius=5)
            self._shade_surface = shade
        return shade

    def card_at(self, pos: tuple[int, int], cards: Iterable[Card]) -> Card | None:
        """The topmost of ``cards`` drawn under ``pos``."""
        for card in reversed(list(cards)):
            sp = self.sprites.get(("card", card))
            if sp is not None and pygame.Rect(int(sp.x), int(sp.y), CARD_W, CARD_H).collidepoint(pos):
                return card
        return None

    def sprite(self, card: Card) -> CardSprite | None:
        return self.sprites.get(("card", card))

    def drag(self, card: Card, pos: tuple[int, int]) -> None:
        """``card`` follows the pointer at ``pos``; let go, it glides from there: to the
        trick, or back to the hand."""
        sp = self.sprite(card)
        if sp is not None:
            self.tweens.cancel(sp)
            self.dragging = card
            sp.x, sp.y = pos[0] - CARD_W / 2, pos[1] - CARD_H / 2
            sp.tx, sp.ty = sp.x, sp.y

    def drop(self) -> bool:
        """The dragged card is let go (``True``: one was dragged)."""
        dropped, self.dragging = self.dragging is not None, None
        return dropped

    def refuse(self, card: Card) -> None:
        """A card that may not be played jumps and settles back."""
        sp = self.sprite(card)
        if sp is not None:
            sp.lifted = 12.0
            self.tweens.add(sp, "lifted", 0.0, 0.4 * max(self.speed(), 0.5), "out_back")
