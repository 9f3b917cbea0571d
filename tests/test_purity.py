"""The layers point one way: rules and ai import no pygame, no yaml, and ai no scenes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = [
    "vira_desktop.rules.cards",
    "vira_desktop.rules.games",
    "vira_desktop.rules.deal",
    "vira_desktop.rules.view",
    "vira_desktop.rules.ledger",
    "vira_desktop.rules.session",
    "vira_desktop.rules.glossary",
    "vira_desktop.ai",
    "vira_desktop.session.match",
    "vira_desktop.session.flow",
    "vira_desktop.session.table",
    "vira_desktop.session.thinking",
    "vira_desktop.session.runner",
    "vira_desktop.session.narration",
    "vira_desktop.session.state",
    "vira_desktop.session.replay",
    "vira_desktop.session.saving",
    "vira_desktop.session.worker",
    "vira_desktop.session.factory",
    "vira_desktop.session.history_service",
    "vira_desktop.tutorial.runner",
]


@pytest.mark.parametrize("module", PURE)
def test_pure_module_imports_no_pygame(module: str) -> None:
    code = (
        f"import sys, {module}; bad = [m for m in ('pygame', 'pygame_gui', 'vira_desktop.scenes') if m in sys.modules];"
        f" rules_bad = [m for m in ('yaml',) if m in sys.modules and '{module}'.startswith('vira_desktop.rules')];"
        " print(bad + rules_bad); sys.exit(1 if bad + rules_bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_rules_use_no_global_randomness() -> None:
    for path in (ROOT / "vira_desktop" / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for bad in (
            "random.random(",
            "random.shuffle(",
            "random.choice(",
            "random.randint(",
            "import pygame",
            " open(",
            "Path(",
        ):
            assert bad not in text, f"{path.name} uses {bad}"


def test_project_does_not_read_shared() -> None:
    for path in list((ROOT / "vira_desktop").rglob("*.py")) + list((ROOT / "tests").glob("*.py")):
        if path.name == "test_purity.py":
            continue
        assert "../shared" not in path.read_text(encoding="utf-8"), path
