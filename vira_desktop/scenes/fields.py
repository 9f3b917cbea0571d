"""Text fields and the keyboard focus: one field at a time takes the typing, and it is the one
the form's gold ring is drawn around.

pygame-gui's manager keeps the focused set itself: a click focuses the field under it and
unfocuses the set it knew of. A field focused by its own ``focus()`` is not in that set, so
a later click on another field left both focused (the typing went into both) while the form's
ring stayed where the keys had put it. So a form focuses through the manager
(:func:`focus_field`) and follows a click (:func:`clicked_field`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame_gui

__all__ = ["clicked_field", "focus_field"]

Field = pygame_gui.elements.UITextEntryLine


def focus_field(ui: pygame_gui.UIManager, field: Field | None) -> None:
    """Give ``field`` the keyboard focus, the caret at the end of its text (``None``: no field
    has it, a row of buttons is chosen); whatever had the focus before loses it."""
    ui.set_focus_set(field)
    if field is not None:
        field.edit_position = len(field.get_text())


def clicked_field(fields: Sequence[Field | None]) -> int | None:
    """The index of the field a click has just focused (``None``: none of them has the focus)."""
    return next((i for i, field in enumerate(fields) if field is not None and field.is_focused), None)
