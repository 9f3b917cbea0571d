"""The table's log in words: what each player did, each trick, the result, the rarer moves
of the ledger and the partner's Ågren marking — told from actions and events (never read
back from text), the same for the window, the command line and a lesson.

:class:`Narrator` tells a deal as it is played; :meth:`Narrator.retell` tells the deal in
play again from its start (after Continue, an undo or a lesson's Try again).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..i18n import t
from ..rules.actions import Action, PlayCard
from ..rules.decision import Phase
from ..rules.events import CardsTurned, DealScored, TrickWon
from ..rules.ledger import SEXMASTARE, TokensMoved, reantes
from ..rules.session import SeatingDraw, Session
from ..rules.view import View
from .coach import marking_hint
from .describe import deal_name, describe_result, is_you
from .words import card_text, say_action

__all__ = ["LOG_LINES", "Narrator", "deal_heading", "seating_lines", "tell_action", "tell_events"]

LOG_LINES = 9  # the log keeps its newest lines


def seating_lines(draw: SeatingDraw, kind: str, first_deal: bool) -> list[str]:
    """How the seats were found, and in the first deal the åla made before it."""
    how = "draw" if kind == "draw" else "first_come"
    lines = [t(f"log.seating.{how}", order=", ".join(draw.order), name=draw.forehand)]
    return [*lines, t("log.ala")] if first_deal else lines


def deal_heading(session: Session, deal_index: int, again: bool = False) -> str:
    """ "Deal 3 · dealer: Bertil · forehand: Cecilia" (Borup and a player sitting out said too;
    ``again``: a deal from history played again, headed "Played again", not by a number)."""
    said = {"deal": deal_name(deal_index, again), "dealer": session.seats[2], "forehand": session.seats[0]}
    if session.borup:
        return t("log.borup_deal", **said)
    if session.sitting_out:
        return t("log.deal_out", out=session.sitting_out, **said)
    return t("log.deal", **said)


def tell_action(action: Action, names: Sequence[str]) -> str | None:
    """An action as the other players see it (cards laid aside stay hidden); a card played
    is told by its trick instead."""
    if isinstance(action, PlayCard):
        return None
    return f"{names[action.seat]}: {say_action(action, public=True, told=True)}"


def tell_events(events: Iterable[object], names: Sequence[str], players: Sequence[str]) -> list[str]:
    """Each trick won, and the ledger's rarer moves: åla om (by everyone at the table of
    ``players``: with four, the sitter-out too) and sexmastare."""
    lines = []
    for ev in events:
        if isinstance(ev, TrickWon):
            name = names[ev.seat]
            said = t("log.trick_you", number=ev.trick_no) if is_you(name) else None
            lines.append(said or t("log.trick", number=ev.trick_no, name=name))
        elif isinstance(ev, TokensMoved):
            if reantes((ev,), players[0]):
                lines.append(t("log.ala_om_four" if len(players) == 4 else "log.ala_om"))
            elif ev.target == SEXMASTARE:
                lines.append(t("log.sexmastare", name=ev.source))
    return lines


@dataclass
class Narrator:
    """Tells one table's deals into ``lines`` (the newest :data:`LOG_LINES`), and keeps the
    partner's Ågren marking as a standing ``note``."""

    lines: list[str] = field(default_factory=list)
    note: str = ""
    _marked: set[str] = field(default_factory=set)  # the markings told in the log in this deal

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)
        del self.lines[:-LOG_LINES]

    def told(
        self, action: Action | None, events: Sequence[object], view: View, session: Session
    ) -> None:
        """Tell one step of play: the action, its tricks and ledger moves, the result, the marking."""
        names = session.seats
        turned = next((ev for ev in events if isinstance(ev, CardsTurned)), None)
        if turned is not None:  # the turned cards are public: "turned up 7♦ 5♣", not "turned a card"
            cards = " ".join(card_text(c) for c in turned.cards)
            self.say(f"{names[turned.seat]}: {t('told.turned_again' if turned.again else 'told.turned', cards=cards)}")
        elif action is not None and (line := tell_action(action, names)) is not None:
            self.say(line)
        self.say(*tell_events(events, names, session.players))
        for ev in events:
            if isinstance(ev, DealScored):
                level = view.contract.suit_level if view.contract is not None else 0
                self.say(describe_result(ev.result, names, level)[0])
        self.marking(view, names)

    def marking(self, view: View, names: Sequence[str]) -> None:
        """The partner's Ågren marking, in the note from the moment it is made until the deal
        is over (a newcomer read it, standing after the deal, as a hint still in force); once a
        deal in the log (which the players of a hot seat share: a seat shown again tells it no
        more)."""
        line = marking_hint(view, names)
        if line and line not in self._marked:
            self._marked.add(line)
            self.say(line)
        standing = line and view.phase is not Phase.DONE
        self.note = f"{line} {t('log.marking_convention')}" if standing else ""

    def next_deal(self, heading: str) -> None:
        """A new deal: its heading in the log, and no marking yet."""
        self.say(heading)
        self._marked.clear()
        self.note = ""

    def retell(
        self,
        heading: Sequence[str],
        story: Iterable[tuple[Action, Sequence[object], View]],
        session: Session,
    ) -> None:
        """The deal in play told again from its start: ``heading``, then each action as it
        was told (its tricks, the marking, and the result if the deal is over)."""
        self.lines.clear()
        self._marked.clear()
        self.note = ""
        self.say(*heading)
        for action, events, view in story:
            self.told(action, events, view, session)
