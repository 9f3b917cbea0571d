"""What a test may look at behind a table scene's port (a scene itself never does): the
runner the app built for it, and its table."""

from __future__ import annotations

from vira_desktop.session.runner import TableRunner
from vira_desktop.session.table import Table


def runner_of(scene: object) -> TableRunner:
    """The runner behind ``scene``'s port."""
    client = getattr(scene, "runner", None)
    assert isinstance(client, TableRunner), f"{scene!r} holds no table runner"
    return client


def table_of(scene: object) -> Table:
    """The table behind ``scene``'s port."""
    return runner_of(scene).table
