"""Card images, loaded from SVG once per size."""

from __future__ import annotations

import pygame

from ..paths import asset
from ..rules.cards import Card

CARD_W, CARD_H = 78, 106
_RANK_FILE = {14: "a", 13: "k", 12: "q", 11: "j", 10: "t"}


class CardImages:
    """Faces and the two backs at one size; four-colour faces tint diamonds and clubs."""

    def __init__(self, size: tuple[int, int] = (CARD_W, CARD_H), four_colour: bool = False) -> None:
        self.size = size
        self.four_colour = four_colour
        self._faces: dict[int, pygame.Surface] = {}
        self._backs: dict[str, pygame.Surface] = {}

    def _load(self, name: str, size: tuple[int, int]) -> pygame.Surface:
        image = pygame.image.load_sized_svg(str(asset("cards", name)), size)
        if image.get_size() != size:
            image = pygame.transform.smoothscale(image, size)
        return image.convert_alpha() if pygame.display.get_init() and pygame.display.get_surface() else image

    def face(self, card: Card) -> pygame.Surface:
        if card not in self._faces:
            rank = int(card.rank)
            name = f"{_RANK_FILE.get(rank, str(rank))}{'shdc'[card.suit]}.svg"
            image = self._load(name, self.size)
            if self.four_colour and card.suit in (2, 3):
                image = _recolour(image, card.suit)
            _index_suit(image, card, self.four_colour)
            self._faces[card] = image
        return self._faces[card]

    def preload(self) -> None:
        """Load every face and both backs now (2 ms a card), so no frame waits for one later."""
        for i in range(52):
            self.face(Card(i))
        for colour in ("blue", "red"):
            self.back(colour)

    def back(self, colour: str) -> pygame.Surface:
        if colour not in self._backs:
            self._backs[colour] = self._load(f"back-{colour}.svg", self.size)
        return self._backs[colour]


def _index_suit(image: pygame.Surface, card: Card, four_colour: bool) -> None:
    """The suit under the rank in the top corner (the art shows the rank alone there), so a
    card half covered by the next one in a fan still says what it is; and again in the top
    right corner, for a column of open cards where only each card's top band shows."""
    from .theme import FOUR_COLOURS, SUIT_COLOURS, font

    colour = (FOUR_COLOURS if four_colour else SUIT_COLOURS)[int(card.suit)]
    width, height = image.get_size()
    symbol = font(max(9, height // 9), True).render(card.suit.symbol, True, colour)
    image.blit(symbol, (max(2, width // 22), height * 2 // 11))
    corner = font(max(8, height // 8), True).render(card.suit.symbol, True, colour)
    image.blit(corner, (width - corner.get_width() - max(3, width // 20), max(1, height // 50)))


def _recolour(image: pygame.Surface, suit: int) -> pygame.Surface:
    """Diamonds blue, clubs green (a four-colour deck)."""
    out = image.copy()
    target = (30, 90, 210) if suit == 2 else (20, 130, 50)
    source = (255, 0, 0) if suit == 2 else (0, 0, 0)
    pixels = pygame.PixelArray(out)
    pixels.replace(source, target, distance=0.35)
    del pixels
    return out
