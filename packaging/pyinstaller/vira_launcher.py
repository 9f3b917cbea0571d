"""The frozen app's entry point: ``vira_desktop/__main__.py`` uses a relative import, which
PyInstaller cannot run as a top-level script, so the bundle starts here instead.
``freeze_support`` lets the bundle start the window's worker process (bots, hints)."""

import multiprocessing

from vira_desktop.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    raise SystemExit(main())
