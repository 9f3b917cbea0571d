"""The small widgets of the table: name plates with token bowls, the pulla, the spare
deck and stock label, tokens in flight, the seating draw, and a text cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pygame

from ...i18n import current, t
from ...rules.decision import Phase
from ...rules.ledger import SEXMASTARE, Kind, TokensMoved
from ...rules.seat import Seat
from ...session.describe import is_you
from ...session.state import Holdings, TableState
from ..backdrop import pewter_bowl, ready
from ..cards import CARD_H, CARD_W, CardImages
from ..theme import FOCUS, GOLD, INK, MUTED, PLAYER_COLOURS, SUIT_COLOURS, fit_text, font, wrap_text
from ..tween import Tweens
from .model import STOCK, TABLE_W, Place

__all__ = ["Bowls", "Intro", "Pulla", "SpareDeck", "Texts", "TokenFlights", "draw_token"]

Colour = tuple[int, int, int]
ROLES = ("forehand", "middle", "rear")  # catalog keys under table.role
FLIGHT_S = 0.7
PULLA_W = 400  # the pulla and its legend of tokens, their worth and colour
LEGEND_END = 372  # the legend's line ends here (with three at the table the spare deck lies beyond)
PLATE_TEXT_W = 180  # a player's plate is 200 pixels wide


class Texts:
    """Rendered text, cached by (text, size, bold, colour)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int, bool, Colour], pygame.Surface] = {}

    def __call__(
        self, s: str, size: int = 15, bold: bool = False, colour: Colour = INK, width: int | None = None
    ) -> pygame.Surface:
        """``s`` rendered; with ``width``, cut with an ellipsis to fit that many pixels."""
        if width is not None:
            s = fit_text(s, size, bold, width)
        key = (s, size, bold, colour)
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 600:
                self._cache.clear()
            surf = font(size, bold).render(s, True, colour)
            self._cache[key] = surf
        return surf

    wrap = staticmethod(wrap_text)


TOKEN_W = {Kind.TRIANGLE: 16, Kind.BET: 10, Kind.ROUND: 14, Kind.PIN: 4}  # each token lies in [x, x + width)


def draw_token(surface: pygame.Surface, kind: Kind, colour: Colour, x: int, y: int) -> None:
    """One token with its left edge at ``x`` (16 pixels high from ``y``)."""
    edge = (20, 20, 20)
    if kind is Kind.PIN:
        pygame.draw.rect(surface, colour, (x, y, 4, 16), border_radius=2)
    elif kind is Kind.ROUND:
        pygame.draw.circle(surface, colour, (x + 7, y + 8), 7)
        pygame.draw.circle(surface, edge, (x + 7, y + 8), 7, 1)
    elif kind is Kind.BET:
        pygame.draw.rect(surface, colour, (x, y + 2, 10, 12), border_radius=2)
        pygame.draw.rect(surface, edge, (x, y + 2, 10, 12), 1, border_radius=2)
    else:
        pygame.draw.polygon(surface, colour, [(x + 8, y), (x, y + 16), (x + 16, y + 16)])


PLATE_H = 84  # a plate's height with one row of stacks in its bowl


@cache
def plate(height: int = PLATE_H) -> pygame.Surface:
    """A player's plate: a dark translucent card on the felt with a soft edge and a shadow."""
    surface = pygame.Surface((210, height + 10), pygame.SRCALPHA)
    pygame.draw.rect(surface, (0, 0, 0, 70), (5, 6, 200, height), border_radius=11)
    surface = pygame.transform.gaussian_blur(surface, 3)
    pygame.draw.rect(surface, (12, 40, 26, 225), (3, 1, 200, height), border_radius=10)
    pygame.draw.rect(surface, (255, 255, 255, 28), (3, 1, 200, height), 1, border_radius=10)
    return ready(surface)


def pulla_spot(players: int) -> tuple[int, int]:
    """Where the pulla lies: at the top with three; with four (someone sits across) low in the
    middle, between the forehand's spare deck and the bottom player's piles."""
    return (380, 100) if players == 3 else (362, 566)


class Bowls:
    """Each player's plate: name, role in this deal, and the bowl's tokens by colour and kind."""

    def __init__(self, texts: Texts, place_of: Callable[[str], Place]) -> None:
        self.text = texts
        self.place_of = place_of
        self._bowls: dict[object, pygame.Surface] = {}  # each bowl drawn once for what it holds

    def draw(self, surface: pygame.Surface, state: TableState, roles_shown: bool = True) -> None:
        """The plates (without ``roles_shown``, no role, trick count or turn on them: a lesson
        asking who is forehand, deals, cuts … hides the answer)."""
        view = state.view
        to_act = None if state.over or not roles_shown else state.seats[view.to_act]
        for name in state.players:
            bowl, plate_at, bowl_at = self._placed(name, state)
            x, y, _, height = plate_at
            colour = PLAYER_COLOURS[state.colour_index(name)]
            surface.blit(plate(height), (x - 3, y - 1))
            pygame.draw.rect(surface, colour, (x + 3, y + 10, 3, height - 20), border_radius=2)  # the player's colour
            if name == to_act:
                pygame.draw.rect(surface, FOCUS, (x, y, 200, height), 2, border_radius=10)
            if name in state.seats and not roles_shown:
                role = tricks = ""
            elif name in state.seats:
                seat = Seat(state.seats.index(name))
                role = t(f"table.role.{ROLES[seat]}")
                if seat == view.declarer:
                    role = t("table.role.declarer", role=role)
                counted = view.phase in (Phase.PLAY, Phase.DONE)
                tricks = t("table.tricks", count=view.tricks_won[seat]) if counted else ""
            else:
                role = tricks = ""  # said over the greyed plate below
            if state.thinking == name:
                role = t("table.thinking") + "." * (1 + int(pygame.time.get_ticks() / 333) % 3)
            won = self.text(tricks, 12, True, INK)  # on the name's line, at the right
            surface.blit(won, won.get_rect(topright=(x + 192, y + 9)))
            name_w = PLATE_TEXT_W - (won.get_width() + 8 if tricks else 0)
            surface.blit(self.text(name, 16, True, colour, name_w), (x + 10, y + 6))
            surface.blit(self.text(role, 12, False, INK, PLATE_TEXT_W), (x + 10, y + 26))
            surface.blit(bowl, bowl_at)
            if name not in state.seats and roles_shown:  # the sitter-out: set apart, greyed over
                shade = pygame.Surface((200, height), pygame.SRCALPHA)
                shade.fill((20, 30, 25, 140))
                surface.blit(shade, (x, y))
                surface.blit(self.text(t("table.sits_out"), 12, True, GOLD, PLATE_TEXT_W), (x + 10, y + 26))

    def plate_rect(self, name: str, state: TableState) -> pygame.Rect:
        """Where ``name``'s plate is drawn (see :meth:`_placed`)."""
        return self._placed(name, state)[1]

    def bowl_rect(self, name: str, state: TableState) -> pygame.Rect:
        """Where ``name``'s bowl is drawn, on the plate."""
        return self._placed(name, state)[2]

    def _placed(self, name: str, state: TableState) -> tuple[pygame.Surface, pygame.Rect, pygame.Rect]:
        """``name``'s bowl, and where its plate and the bowl go: the plate a row taller for
        each row more of stacks in the bowl; at the bottom it grows upwards, clear of the hand."""
        bowl = self._bowl(name, state)
        x, y = self.place_of(name).plate
        height = PLATE_H + bowl.get_height() - BOWL_H
        plate_at = pygame.Rect(x, min(y, PLATES_END - height), 200, height)
        return bowl, plate_at, bowl.get_rect(topleft=(plate_at.x + 5, plate_at.y + 44))

    def _bowl(self, owner: str, state: TableState) -> pygame.Surface:
        """The bowl in the player's colour with its tokens in stacks, a count beside each:
        the player's own first, then those of other players, in their colours (drawn once for
        each new content); a row of stacks more where one row does not hold them."""
        held = state.bowls.get(owner, {})
        colours = tuple((o, state.colour_index(o)) for o in sorted({o for o, _ in held} | {owner}))
        key = (owner, tuple(sorted(held.items())), colours)
        image = self._bowls.get(key)
        if image is None:
            if len(self._bowls) > 64:
                self._bowls.clear()
            rows = stack_rows(self.text, held, state, BOWL_ROW_W, first=owner)
            grow = ROW_H * (len(rows) - 1)  # a second row of stacks rather than a count cut short
            image = pygame.Surface((190, BOWL_H + grow), pygame.SRCALPHA)
            rim = PLAYER_COLOURS[state.colour_index(owner)]
            pygame.draw.ellipse(image, (14, 52, 32), (1, 2, 188, 30 + grow))
            pygame.draw.ellipse(image, rim, (1, 2, 188, 30 + grow), 2)
            draw_stacks(image, self.text, rows, (13, 8), state, BOWL_ROW_W)  # inside the oval
            self._bowls[key] = image
        return image


STACK_GAP, ROW_H = 4, 16  # between two stacks; between two rows of stacks
BOWL_ROW_W = 166  # a bowl's row of stacks: the own four and two won stacks of pins fit in one
BOWL_H = 34  # a bowl's height with one row of stacks
PLATES_END = 676  # no plate reaches below this: the hand is dealt there


def stack_rows(
    text: Texts, held: Holdings, state: TableState, width: int, first: str | None = None
) -> list[list[tuple[str, Kind, int, int]]]:
    """Tokens as stacks (owner, kind, count, width on screen) by owner and kind, in rows no
    wider than ``width``: measured, so every count is shown whole (none cut with "…")."""
    owners = sorted({o for o, _ in held}, key=lambda o: (o != first, state.colour_index(o)))
    rows: list[list[tuple[str, Kind, int, int]]] = [[]]
    used = 0
    for owner in owners:
        for kind in (Kind.TRIANGLE, Kind.BET, Kind.ROUND, Kind.PIN):
            n = held.get((owner, kind), 0)
            if not n:
                continue
            w = TOKEN_W[kind] + 2 + text(str(n), 11, True, INK).get_width()  # the stack, then its count
            if rows[-1] and used + STACK_GAP + w > width:
                rows.append([])
                used = 0
            used += (STACK_GAP if rows[-1] else 0) + w
            rows[-1].append((owner, kind, n, w))
    return rows


def draw_stacks(
    surface: pygame.Surface,
    text: Texts,
    rows: list[list[tuple[str, Kind, int, int]]],
    pos: tuple[int, int],
    state: TableState,
    width: int = 0,
) -> None:
    """The rows of :func:`stack_rows`: up to four tokens drawn in each stack, its count after it;
    with ``width``, a row after the first is centred in it (an oval narrows at its ends)."""
    for r, row in enumerate(rows):
        used = sum(w for *_, w in row) + STACK_GAP * (len(row) - 1)
        x, y = pos[0] + (max(0, width - used) // 2 if r and width else 0), pos[1] + ROW_H * r
        for owner, kind, n, w in row:
            colour = PLAYER_COLOURS[state.colour_index(owner)]
            for k in range(min(n, 4)):
                draw_token(surface, kind, colour, x, y + 2 - 2 * k)
            surface.blit(text(str(n), 11, True, INK), (x + TOKEN_W[kind] + 2, y + 4))
            x += w + STACK_GAP


class Pulla:
    """The pulla: a bowl in the middle of the table with its tokens, its size in bets and any
    sexmastare; a legend says what each token is worth."""

    def __init__(self, texts: Texts) -> None:
        self.text = texts
        self._drawn: tuple[object, pygame.Surface] | None = None  # drawn once for what it holds

    def draw(self, surface: pygame.Surface, state: TableState) -> None:
        x, y = pulla_spot(len(state.players))
        colours = tuple((o, state.colour_index(o)) for o in sorted({o for o, _ in state.pulla}))
        key = (tuple(sorted(state.pulla.items())), state.pulla_bets, state.sexmastare, colours, current())
        if self._drawn is None or self._drawn[0] != key:
            image = pygame.Surface((PULLA_W, 130 + 2 * ROW_H), pygame.SRCALPHA)
            self._draw(image, state, 20, 6)
            self._drawn = (key, image)
        surface.blit(self._drawn[1], (x - 20, y - 6))

    def _draw(self, surface: pygame.Surface, state: TableState, x: int, y: int) -> None:
        rows = stack_rows(self.text, state.pulla, state, 142)
        grow = ROW_H * max(0, len(rows) - 2)  # two rows of stacks fit the bowl; it deepens for more
        surface.blit(pewter_bowl(192, 82 + grow), (x - 12, y - 4))
        label = self.text(t("table.pulla", count=state.pulla_bets), 13, True, INK)
        surface.blit(label, label.get_rect(center=(x + 90, y + 22)))
        draw_stacks(surface, self.text, rows, (x + 22, y + 38), state, 142)
        below = y + 82 + grow
        if state.sexmastare:
            line = t("table.sexmastare", count=state.sexmastare)
            surface.blit(self.text(line, 11, False, GOLD), (x - 10, below))
        self._legend(surface, state, (x - 10, below + (14 if state.sexmastare else 0)))

    def _legend(self, surface: pygame.Surface, state: TableState, pos: tuple[int, int]) -> None:
        x, y = pos
        for kind, worth in (
            (Kind.TRIANGLE, t("table.legend.triangle")),
            (Kind.BET, t("table.legend.bet")),
            (Kind.ROUND, t("table.legend.round")),
            (Kind.PIN, t("table.legend.pin")),
        ):
            draw_token(surface, kind, MUTED, x, y)
            text = self.text(worth, 11, False, MUTED)
            surface.blit(text, (x + TOKEN_W[kind] + 3, y + 2))
            x += TOKEN_W[kind] + 14 + text.get_width()
        if state.pulla:  # a bet in the pulla has its owner's colour (a newcomer asked why they differ)
            text = self.text(t("table.legend.colour"), 11, False, MUTED)
            at = (x, y + 2) if x + text.get_width() <= LEGEND_END else (pos[0], y + 16)  # clear of the spare deck
            surface.blit(text, at)


class SpareDeck:
    """The other deck, face down with its bottom card visible (it sets the highest suit),
    and the count of the stock."""

    def __init__(self, texts: Texts, images: CardImages) -> None:
        self.text = texts
        self.images = images

    def rect(self, place: Place) -> pygame.Rect:
        """Where the spare deck at ``place`` is drawn, its bottom card included."""
        x, y = place.spare
        return pygame.Rect(x, y - 14, CARD_W + 14, CARD_H + 14)

    def label_rect(self, place: Place) -> pygame.Rect:
        """Where the words "spare deck" go, under the deck at ``place``."""
        x, y = place.spare
        return self.text(t("table.spare_deck"), 12, False, MUTED).get_rect(topleft=(x, y + CARD_H + 2))

    def draw(
        self, surface: pygame.Surface, state: TableState, place: Place, back: pygame.Surface, stock: bool = True
    ) -> None:
        """The spare deck at ``place``, and the stock's count where ``stock`` (not under a result:
        the stock is not drawn then, and its count stood alone)."""
        x, y = place.spare
        for i in range(5):
            surface.blit(back, (x + 2 * i, y - 2 * i))
        if state.spare_bottom is not None:
            surface.blit(self.images.face(state.spare_bottom), (x + 14, y - 14))
        else:  # a deal record names only the suit of the bottom card
            highest = state.view.highest
            pygame.draw.rect(surface, (250, 250, 244), (x + 18, y + 16, 52, 60), border_radius=8)
            badge = self.text(highest.symbol, 40, True, SUIT_COLOURS[highest])
            surface.blit(badge, badge.get_rect(center=(x + 44, y + 46)))
        surface.blit(self.text(t("table.spare_deck"), 12, False, MUTED), self.label_rect(place))
        if state.view.stock_left and stock:
            label = self.text(t("table.stock", count=state.view.stock_left), 12, False, MUTED)
            surface.blit(label, (STOCK[0], STOCK[1] + CARD_H + 2))


@dataclass
class Flight:
    """A token on its way between a bowl and the pulla."""

    kind: Kind
    colour: Colour
    x: float
    y: float
    shown: float = 0.0  # 1 once its delay is over


class TokenFlights:
    """Tokens flying between bowls and the pulla, one tween per token on the frame clock."""

    def __init__(self, tweens: Tweens, speed: Callable[[], float]) -> None:
        self.tweens = tweens
        self.speed = speed
        self.flights: list[Flight] = []

    def launch(self, ev: TokensMoved, state: TableState, place_of: Callable[[str], Place]) -> None:
        factor = self.speed()
        if len(self.flights) > 40:
            return
        start, end = self._spot(ev.source, state, place_of), self._spot(ev.target, state, place_of)
        colour = PLAYER_COLOURS[state.colour_index(ev.colour)]
        delay = 0.06 * len(self.flights)
        for _ in range(min(ev.count, 4)):
            f = Flight(ev.kind, colour, *start)
            self.tweens.add(f, "shown", 1.0, 0.0, "linear", delay * factor)
            self.tweens.add(f, "x", end[0], FLIGHT_S * factor, "smooth", delay * factor)
            self.tweens.add(f, "y", end[1], FLIGHT_S * factor, "smooth", delay * factor)
            self.flights.append(f)
            delay += 0.05

    @staticmethod
    def _spot(where: object, state: TableState, place_of: Callable[[str], Place]) -> tuple[float, float]:
        if isinstance(where, str) and where in state.players:
            x, y = place_of(where).plate
            return (x + 60.0, y + 56.0)
        px, py = pulla_spot(len(state.players))
        return (px + 85.0, py + 38.0) if where != SEXMASTARE else (px + 40.0, py + 90.0)

    def update(self) -> None:
        self.flights = [f for f in self.flights if self.tweens.moving(f)]

    def draw(self, surface: pygame.Surface) -> None:
        for f in self.flights:
            if f.shown:
                draw_token(surface, f.kind, f.colour, int(f.x), int(f.y))


class Intro:
    """The seating draw (or the first-come heart deal), card by card, on the frame clock."""

    STEP_S = 0.5  # a card of the draw a half second at normal speed (the timeline is in those units)

    def __init__(self, texts: Texts, images: CardImages, tweens: Tweens) -> None:
        self.text = texts
        self.images = images
        self.tweens = tweens
        self.t = 0.0
        self.running = False

    def start(self, state: TableState, factor: float) -> None:
        if state.seating is None:
            return
        length = self.STEP_S * len(state.seating.cards) + 1.8
        self.t = 0.0
        self.tweens.add(self, "t", length, length * factor, "linear")
        self.running = self.tweens.moving(self)  # at instant speed it is over already

    def skip(self) -> None:
        self.tweens.cancel(self)
        self.running = False

    def update(self) -> None:
        if self.running and not self.tweens.moving(self):
            self.running = False

    def draw(self, surface: pygame.Surface, state: TableState, place_of: Callable[[str], Place]) -> None:
        draw = state.seating
        if draw is None:
            return
        title = t("table.seating.draw") if state.seating_kind == "draw" else t("table.seating.first_come")
        banner = self.text(title, 24, True, GOLD)
        surface.blit(banner, banner.get_rect(center=(TABLE_W // 2, 260)))
        counts: dict[str, int] = {}
        shown = draw.cards[: int(self.t / self.STEP_S) + 1]
        for name, card in shown:
            x, y = place_of(name).plate
            k = counts.get(name, 0)
            counts[name] = k + 1
            # beside the plate, towards the middle of the table (never over the side panel)
            cx = x + 210 + 16 * k if x < TABLE_W // 2 else x - 90 - 16 * k
            surface.blit(self.images.face(card), (cx, y))
        if len(shown) == len(draw.cards):
            you = is_you(draw.forehand)
            said = t("table.seating.forehand_you") if you else t("table.seating.forehand", name=draw.forehand)
            line = self.text(said, 18, True, INK, TABLE_W - 40)
            surface.blit(line, line.get_rect(center=(TABLE_W // 2, 300)))
