"""pygame-gui's file dialog, answered by the keyboard as well as the mouse."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

__all__ = ["FileDialog"]


class FileDialog(pygame_gui.windows.UIFileDialog):
    """The file dialog with keys: ↑ ↓ choose a file or folder of the folder shown, → opens the
    folder chosen, ← or Backspace goes up a folder, Enter picks what is chosen (OK), Esc
    cancels. Typing in its path box works as ever (Esc there leaves the box)."""

    def key(self, key: int) -> bool:
        """Answer one key; whether it was taken (the path box, when focused, has the keys)."""
        if self.file_path_text_line.is_focused:
            if key == pygame.K_ESCAPE:
                self.file_path_text_line.unfocus()  # type: ignore[no-untyped-call]
                return True
            return False
        entries = [entry[0] if isinstance(entry, tuple) else entry for entry in self.current_file_list or []]
        here = Path(self.current_directory_path)
        chosen = self.current_file_path.name if self.current_file_path is not None else None
        at = entries.index(chosen) if chosen in entries else -1
        if key == pygame.K_ESCAPE:
            self.kill()  # type: ignore[no-untyped-call]
        elif key in (pygame.K_UP, pygame.K_DOWN) and entries:
            self._choose(entries, max(0, min(len(entries) - 1, at + (1 if key == pygame.K_DOWN else -1))))
        elif key in (pygame.K_LEFT, pygame.K_BACKSPACE):
            self._change_directory_path(here.parent)
        elif key == pygame.K_RIGHT and at >= 0 and (here / entries[at]).is_dir():
            self._change_directory_path(here / entries[at])
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.ok_button.is_enabled:
            self._process_ok_cancel_events(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=self.ok_button))
        else:
            return False
        return True

    def _choose(self, entries: list[str], index: int) -> None:
        """Entry ``index`` of the folder shown chosen, shown chosen in the list and kept in view."""
        self.current_file_path = Path(self.current_directory_path) / entries[index]
        self._prepare_valid_file_path_for_interaction()  # type: ignore[no-untyped-call]
        listing = self.file_selection_list
        for i, item in enumerate(listing.item_list):
            item["selected"] = i == index
            button = item["button_element"]
            if button is not None:
                button.select() if i == index else button.unselect()
        bar = listing.scroll_bar
        if bar is not None and len(entries) > 1:
            bar.set_scroll_from_start_percentage(max(0.0, (index - 3) / len(entries)))
