"""What the table view draws besides the table's state, as one value: what the scene says
and marks (its message, the panel's details, the keys' focus, the cards raised and dimmed)
and what the runner tells beside the table (its log, the standing note, the hot-seat
cover, from :meth:`~...session.runner.TableRunner.seen`). The scene makes a new one where
it changes; the view only reads it."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules.cards import Card
from ..theme import INK

__all__ = ["Shown"]


@dataclass(frozen=True)
class Shown:
    """The panel's words and the hand's marks, as the view draws them (see the module)."""

    message: str = ""
    colour: tuple[int, int, int] = INK  # the message's
    details: tuple[str, ...] = ()  # the panel's middle: what the bid under the mouse asks and pays
    text_bottom: int = 640  # the panel's words end here: its first button (or its log) is below
    keys_help: str = ""  # the catalog key of the keys' line at the panel's foot
    focus: Card | None = None  # the card framed as the keys' focus (``None``: no frame)
    raised: frozenset[Card] = frozenset()  # drawn raised and framed: the cards selected (or a lesson's)
    dimmed: frozenset[Card] = frozenset()  # the viewer's cards that may not be played now
    roles_shown: bool = True  # a lesson asking who is forehand (or deals, cuts …) hides the plates' roles
    log: tuple[str, ...] = ()  # the log's newest lines (a runner's narration)
    note: str = ""  # a standing hint (the partner's Ågren marking)
    cover: str | None = None  # hot seat: the name the screen is passed to
    cover_note: tuple[str, ...] = ()  # under the hot-seat cover: the moves just made
