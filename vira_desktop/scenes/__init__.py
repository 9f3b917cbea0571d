"""The game window's scenes (pygame-ce + pygame-gui)."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the player's terminal
