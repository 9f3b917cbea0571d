"""The right-hand panel's words: the deal's number, the suits, the bids, the contract, who
is to act, the message and note, the details, the log and the keys' line (the buttons are
:mod:`.panel`'s)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from ...i18n import current, t
from ...rules.cards import Suit
from ...session.describe import deal_name, is_you
from ...session.state import TableState
from ...session.words import card_text, say_text
from ..theme import GOLD, GOOD, INK, MUTED, PLAYER_COLOURS, fitting_size
from .model import TABLE_W
from .shown import Shown
from .widgets import Texts

__all__ = ["PanelText", "W", "colour_of"]

W = 1280 - TABLE_W - 32  # the panel's text width in pixels


def colour_of(state: TableState, seat: int) -> tuple[int, int, int]:
    """The colour of the player in ``seat``."""
    return PLAYER_COLOURS[state.colour_index(state.seats[seat])]


def _ofarger(highest: Suit) -> str:
    """The symbols of the two suits of the other colour than ``highest``'s."""
    return " ".join(s.symbol for s in Suit if s not in (highest, highest.partner))


DETAILS_Y = 332  # where the panel's details stand when the message leaves room
# the details' type size and line pitch, roomiest first (a hint and a bid's figures fill the panel)
DETAIL_TYPES = ((13, 18), (13, 17), (13, 16), (12, 15), (11, 14))


class PanelText:
    """Draws the panel's words (see the module) with ``text``'s cached renders."""

    def __init__(self, text: Texts) -> None:
        self.text = text

    def detail_parts(self, lines: Sequence[str]) -> list[str]:
        """``lines`` (the panel's details) wrapped to the panel."""
        return [part for line in lines for part in self.text.wrap(line, 13, False, W)]

    def detail_lines(self, lines: Sequence[str]) -> int:
        """How many lines ``lines`` take in the panel."""
        return min(12, len(self.detail_parts(lines)))

    def draw(self, surface: pygame.Surface, state: TableState, shown: Shown, doing: str) -> None:
        """The panel's words for ``state``: the deal, the suits, the bids, the contract,
        ``doing`` (who is to act), ``shown``'s message, note, details and log, the keys."""
        view = state.view
        x = TABLE_W + 16
        surface.blit(self.text(deal_name(state.deal_index, state.again), 17, True, INK, W // 2), (x, 10))
        if state.ending:  # the agreed end of the session, in place of the deal's number
            mark = self.text(state.ending, 13, True, GOLD, W * 2 // 3)
            surface.blit(mark, mark.get_rect(topright=(1280 - 16, 13)))
        elif state.deal_number is not None:  # reproduces the deal: small, for the curious
            number = self.text(t("table.deal_number", number=state.deal_number), 11, False, MUTED, W // 2)
            surface.blit(number, number.get_rect(topright=(1280 - 16, 15)))
        surface.blit(*self._badge(state))
        y = 66
        for seat, text in view.bids[-7:]:  # each bidder's name in their colour
            name = self.text(f"{state.seats[seat]}:", 13, True, colour_of(state, seat), W // 2)
            surface.blit(name, (x, y))
            said = say_text(text, seat)
            surface.blit(self.text(said, 13, False, INK, W - name.get_width() - 6), (x + name.get_width() + 6, y))
            y += 18
        y = 196
        contract = view.contract
        if contract is not None:
            game = contract.game
            # the bid table's printed name ("Begär (6-spel)"), but in English and Finnish no Swedish
            # "på" beside the lessons' "köpmisär 3" (a playtest): the game's own name there
            printed = game.printed if current() == "sv" or " på " not in game.printed else game.name
            said = t("table.contract", game=printed[:1].upper() + printed[1:], name=state.seats[contract.declarer])
            head = self.text.wrap(said, 15, True, W)
            for part in head[:2]:
                surface.blit(self.text(part, 15, True, GOOD), (x, y))
                y += 20
            if contract.trump is not None and contract.trump_class is not None:
                klass = t(f"words.class.{contract.trump_class.name.lower()}")
                suit = t(f"words.suit.{contract.trump.name}")
                line = t("table.trump", symbol=contract.trump.symbol, suit=suit, klass=klass)
                surface.blit(self.text(line, 14, width=W), (x, y))
                y += 18
            elif contract.low:
                surface.blit(self.text(t("table.misere"), 14, width=W), (x, y))
                y += 18
            for told in contract_lines(state):
                surface.blit(self.text(told, 13, False, MUTED, W), (x, y))
                y += 18
        y = max(y + 2, 256)
        surface.blit(self.text(doing, 13, False, MUTED, W), (x, y))
        self._notes_and_details(surface, shown, x, y + 20)
        y = 652
        lines: list[str] = []
        for entry in reversed(shown.log):  # the newest whole entries that fit in six lines
            parts = self.text.wrap(entry, 12, False, W)
            if len(lines) + len(parts) > 6:
                break
            lines = parts + lines
        for line in lines:
            surface.blit(self.text(line, 12, False, MUTED), (x, y))
            y += 17
        keys = self.text.wrap(t(shown.keys_help), 11, False, W, sep=" · ")[:2] if shown.keys_help else []
        for i, part in enumerate(keys):
            surface.blit(self.text(part, 11, False, MUTED), (x, 784 - 14 * (len(keys) - i)))

    def _badge(self, state: TableState) -> tuple[pygame.Surface, pygame.Rect]:
        """The suits' badge ("Highest ♣  färg ♠  ofärger ♥ ♦") and where it is drawn."""
        highest = state.view.highest
        badge = t("table.suits", highest=highest.symbol, farg=highest.partner.symbol, ofarger=_ofarger(highest))
        size = fitting_size(badge, 16, 13, True, W)  # "värittömät" runs long
        drawn = self.text(badge, size, True, GOLD, W)
        return drawn, drawn.get_rect(topleft=(TABLE_W + 16, 36 + (16 - size) // 2))

    def badge_rect(self, state: TableState) -> pygame.Rect:
        """Where the suits' badge is drawn (the mouse resting on it explains it)."""
        return self._badge(state)[1]

    def suits_help(self, state: TableState) -> list[str]:
        """What the badge's words mean: each suit's symbol and glossary entry, and what each pays."""
        highest = state.view.highest
        # the card itself: the viewer's own spare deck lies under the bid grid (a newcomer looked for it)
        here = t("table.spare_bottom", card=card_text(state.spare_bottom)) if state.spare_bottom is not None else ""
        return [
            f"{highest.symbol} {t('glossary.term.hogsta_farg').rstrip('.')}{here}.",
            f"{highest.partner.symbol} {t('glossary.term.farg')}",
            f"{_ofarger(highest)} {t('glossary.term.ofarg')}",
            t("table.suits_pay"),
            t("table.two_decks"),  # the bottom card played from this deal's deck read as a card twice
        ]

    def draw_suits_help(self, surface: pygame.Surface, state: TableState) -> None:
        """:meth:`suits_help` in a box under the badge (newcomers met its words unexplained)."""
        said = self.suits_help(state)
        rows = [part for line in said for part in self.text.wrap(line, 13, False, W - 8)]
        anchor = self.badge_rect(state)
        box = pygame.Rect(TABLE_W + 8, anchor.bottom + 4, W + 16, 12 + 18 * len(rows))
        pygame.draw.rect(surface, (10, 20, 16), box, border_radius=8)
        pygame.draw.rect(surface, GOLD, box, 1, border_radius=8)
        for i, row in enumerate(rows):
            surface.blit(self.text(row, 13, False, INK), (box.x + 8, box.y + 6 + 18 * i))

    def _notes_and_details(self, surface: pygame.Surface, shown: Shown, x: int, top: int) -> None:
        """The message (a hint, a refusal) and note whole from ``top``, then the details (what
        the bid under the mouse asks and pays, the decision's notes) in whole entries, all
        above the panel's first button: the details at their place (y 332) where the message
        leaves it free and they fit, else moved up or down (a long hint once ran into the
        coach's figures, and figures were cut mid-sentence above the buttons); closer and
        smaller where they would not fit, and an entry left out marked "…"."""
        notes = [(part, shown.colour) for part in self.text.wrap(shown.message, 13, True, W)]
        notes += [(part, GOLD) for part in self.text.wrap(shown.note, 13, True, W)]
        after = top + 18 * len(notes) + (4 if notes else 0)  # the first free line under the message
        for size, pitch in DETAIL_TYPES:  # closer, then smaller, where the figures would not fit
            entries = [self.text.wrap(line, size, False, W) for line in shown.details]
            lines = sum(len(entry) for entry in entries)
            if after + pitch * lines <= shown.text_bottom:
                break
        place = max(DETAILS_Y, after)
        if place + pitch * lines > shown.text_bottom:
            place = max(after, shown.text_bottom - pitch * lines)
        bottom = place if entries else shown.text_bottom
        for i, (part, colour) in enumerate(notes):
            if top + 18 * i + 14 > bottom and i:
                break  # no room left even for the message: its first line is drawn anyway
            surface.blit(self.text(part, 13, True, colour), (x, top + 18 * i))
        y = place
        for k, entry in enumerate(entries):
            if y + pitch * len(entry) - 4 > shown.text_bottom:  # only whole entries: a sentence cut
                if k:  # at the buttons read as said; what is left out is marked, not dropped unseen
                    mark = self.text("…", size, True, MUTED)
                    surface.blit(mark, mark.get_rect(bottomright=(x + W, y - pitch + 15)))
                break
            for part in entry:
                surface.blit(self.text(part, size, False, INK), (x, y))
                y += pitch


def contract_lines(state: TableState) -> list[str]:
    """Under the contract, whose tricks are counted ("Bertil's tricks 2, 6 needed"; yours:
    "your tricks …"), and to a defender who the partner is and their side's tricks (a
    newcomer read the coach's "partner" not knowing whom it meant, and added them up)."""
    view, contract = state.view, state.view.contract
    assert contract is not None
    won, declarer = view.tricks_won[contract.declarer], contract.declarer
    name = state.seats[declarer]
    mine = is_you(name)  # "You" is the player, whoever's seat is shown
    if contract.low:
        lines = [t("table.tricks_yours_low", won=won) if mine else t("table.tricks_of_low", won=won, name=name)]
    else:
        said = {"won": won, "needed": contract.tricks_needed}
        lines = [t("table.tricks_yours", **said) if mine else t("table.tricks_of", name=name, **said)]
    if state.viewer is not None and state.viewer != declarer:
        partner = next(s for s in range(3) if s not in (declarer, state.viewer))
        ours = view.tricks_won[state.viewer] + view.tricks_won[partner]
        lines.append(t("table.partner", name=state.seats[partner], won=ours))
    return lines

