"""The frozen app's entry point: ``vira_desktop/__main__.py`` uses a relative import, which
PyInstaller cannot run as a top-level script, so the bundle starts here instead."""

from vira_desktop.cli import main

raise SystemExit(main())
