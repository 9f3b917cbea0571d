"""The coach at the player's shoulder: a hint for the decision at hand, and the partner's
Ågren marking read aloud. Both work from the player's view only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..ai import make_bot
from ..ai.knowledge import read_markings
from ..i18n import t
from ..rules.actions import Action
from ..rules.errors import Keyed
from ..rules.view import View
from .words import pretty, say_action, say_keyed, say_marking

__all__ = ["Coach", "Hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action | None
    reason: str

    def text(self) -> str:
        """ "Hint: pass — no game above the standing bid is likely to go home" (a reason that
        starts by naming the action again does not say it twice)."""
        said = say_action(self.action) if self.action else t("coach.nothing")
        if isinstance(self.reason, Keyed):
            reason = say_keyed(self.reason, "reason")
            return t("coach.hint", action=said, reason=reason.removeprefix(f"{said}: "))
        reason = self.reason.removeprefix(f"{self.action.text}: ") if self.action else self.reason
        return t("coach.hint", action=said, reason=pretty(reason))


class Coach:
    """Suggests what the normal bot would do in the player's place (slow: run it off the
    frame loop)."""

    def __init__(self, seed: int = 99) -> None:
        self._bot = make_bot("normal", seed)

    def hint(self, view: View) -> Hint:
        choice = self._bot.choose(view)
        return Hint(choice.action, choice.reason)


def marking_hint(view: View, names: Sequence[str]) -> str:
    """The partner's Ågren marking as a line for the player (empty when there is none)."""
    if view.spectator or view.declarer in (None, view.seat) or view.low:
        return ""
    for mark in read_markings(view):
        if mark.seat != view.seat:
            return t("coach.marking", name=names[mark.seat], what=say_marking(mark))
    return ""
