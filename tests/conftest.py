"""Every test keeps to its own folders: nothing reads or writes the user's config, saves,
history or exports (``VIRA_CONFIG_DIR``, ``VIRA_DATA_DIR`` and ``VIRA_EXPORT_DIR`` point into
the test's temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIRA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("VIRA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("VIRA_EXPORT_DIR", str(tmp_path / "exports"))


@pytest.fixture(autouse=True)
def _no_result_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter goes on to the next deal at once (a player's Enter waits a moment after the deal
    ends: tests/test_gui.py tests that pause itself)."""
    monkeypatch.setattr("vira_desktop.scenes.table.play.RESULT_PAUSE", 0.0)

