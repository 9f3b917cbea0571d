"""PyInstaller runtime hook: runs in the frozen app before ``vira_desktop`` is imported."""

import os

# pygame prints a banner on import; the frozen app's stdout is for the command's own output
# (``vira bidtable --json``, the ``--autoplay`` stats line).
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
