"""Text fields and the keyboard focus: one field at a time takes the typing, and it is the one
the form's gold ring is drawn around.

pygame-gui's manager keeps the focused set itself: a click focuses the field under it and
unfocuses the set it knew of. A field focused by its own ``focus()`` is not in that set, so
a later click on another field left both focused (the typing went into both) while the form's
ring stayed where the keys had put it. So a form focuses through the manager
(:func:`focus_field`) and follows a click (:func:`clicked_field`).

Every field is made by :func:`text_field`, which refuses the invisible format characters
(bidi overrides, zero-width spaces): typed or pasted into an empty field, pygame-gui fails to
draw a text of no width, and the frame would fail with it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

import pygame
import pygame_gui

__all__ = ["clicked_field", "focus_field", "text_field"]

Field = pygame_gui.elements.UITextEntryLine


@cache
def format_characters() -> list[str]:
    """Unicode's format characters (category Cf: bidi marks and overrides, zero-width spaces,
    tags), which draw nothing: the planes that hold them (0, 1 and 14)."""
    planes = (range(0x20000), range(0xE0000, 0xE1000))
    return [chr(c) for plane in planes for c in plane if unicodedata.category(chr(c)) == "Cf"]


def text_field(rect: pygame.Rect, ui: pygame_gui.UIManager, limit: int, text: str = "") -> Field:
    """A one-line text field of at most ``limit`` characters, holding ``text``, that takes no
    format character (typed or pasted)."""
    made = Field(rect, manager=ui)
    made.set_forbidden_characters(format_characters())
    made.set_text_length_limit(limit)
    made.set_text("".join(c for c in text[:limit] if c not in format_characters()))
    return made


def focus_field(ui: pygame_gui.UIManager, field: Field | None) -> None:
    """Give ``field`` the keyboard focus, the caret at the end of its text (``None``: no field
    has it, a row of buttons is chosen); whatever had the focus before loses it."""
    ui.set_focus_set(field)
    if field is not None:
        field.edit_position = len(field.get_text())


def clicked_field(fields: Sequence[Field | None]) -> int | None:
    """The index of the field a click has just focused (``None``: none of them has the focus)."""
    return next((i for i, field in enumerate(fields) if field is not None and field.is_focused), None)
