"""Deals that travel: history's deals exported as deal records (YAML, one file a deal) and
records imported into history.

An exported file is a plain deal record (``docs/deal-record.md``), readable by ``vira
replay`` and by hand. Its first lines are YAML comments that this game reads back on import
(any reader ignores them): the session, the deal's number in it, when it was played and who
played which seat (a bot's level or a person), so that a deal exported and imported again is
the same deal of the same session, with the same statistics.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..rules.errors import RecordError
from .history import History
from .record import check_result, dump_record, load_record, parse_yaml, replay

__all__ = [
    "RECORD_SUFFIXES",
    "ImportReport",
    "export_deals",
    "export_record",
    "export_session",
    "file_name",
    "import_records",
]

_MARK = "# vira-desktop: "
_UNSAFE = re.compile(r"[^\w.-]+")


def file_name(played: str, number: int, game: str) -> str:
    """A record's file name: when it was played, its number in the session, the game."""
    stamp = played.replace(":", "").replace("+0000", "").replace("+00:00", "")
    return _UNSAFE.sub("_", f"{stamp}-deal{number + 1:03d}-{game}").strip("_") + ".yaml"


def _exported(history: History, deal_id: int) -> tuple[str, str]:
    """A deal's file name and text (its record, after a comment line of what history knows)."""
    (row,) = history.deals(deal_id=deal_id)
    (session,) = history.sessions(row.session_id)
    about = {
        "session": session.key,
        "started": session.started,
        "table": list(session.seats),
        "number": row.number,
        "played": row.played,
        "levels": row.levels,
    }
    text = _MARK + json.dumps(about, ensure_ascii=False) + "\n" + history.record_text(deal_id)
    return file_name(row.played, row.number, row.game), text


def export_deals(history: History, deal_ids: Iterable[int], folder: Path) -> list[Path]:
    """Write each deal as a record file in ``folder`` (made if need be); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for deal_id in deal_ids:
        name, text = _exported(history, deal_id)
        path = folder / name
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def export_record(record: dict[str, Any], number: int, folder: Path) -> Path:
    """Write a deal's record (the table's, not yet in history: no comment line) in ``folder``,
    named by now, its number in the session and its game; the path written."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    path = folder / file_name(stamp, number, str(record["result"]["game"]))
    path.write_text(dump_record(record), encoding="utf-8")
    return path


def export_session(history: History, session_id: int, folder: Path) -> list[Path]:
    """Every deal of a session, one record file each, in ``folder``."""
    return export_deals(history, [r.id for r in history.deals(session_id=session_id)], folder)


@dataclass
class ImportReport:
    """What an import did: deals added, deals history already had, and each file refused
    (with the same one-line error as ``vira replay``)."""

    added: list[int] = field(default_factory=list)
    known: int = 0
    errors: list[str] = field(default_factory=list)


def about_of(text: str) -> dict[str, Any]:
    """What this game wrote of a deal in its exported file's first line (empty for any other)."""
    first = text.split("\n", 1)[0]
    if first.startswith(_MARK):
        try:
            about = json.loads(first[len(_MARK) :])
        except json.JSONDecodeError:
            return {}
        return about if isinstance(about, dict) else {}
    return {}


RECORD_SUFFIXES = (".yaml", ".yml")  # what a deal record's file name ends with (in any case)


def _files(paths: Sequence[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.suffix.lower() in RECORD_SUFFIXES)
        else:
            out.append(path)
    return out


def import_records(history: History, paths: Sequence[Path]) -> ImportReport:
    """Import record files (and the ``.yaml`` files of folders) into history: each must be a
    whole deal that replays to its result. A file this game exported returns to its session;
    any other becomes a deal of a session of imported deals named after its file. A file
    refused leaves history as it was."""
    report = ImportReport()
    before = history.count()
    for path in _files(paths):
        try:
            record = load_record(path)
            deal = replay(record)
            if deal.result is None:
                raise RecordError("the deal is not finished: only whole deals enter history")
            problem = check_result(record, deal)
            if problem:
                raise RecordError(problem)
            text = path.read_text(encoding="utf-8")
            data = parse_yaml(text)
        except RecordError as exc:
            report.errors.append(f"{path.name}: {exc}")
            continue
        about = about_of(text)
        session = str(about.get("session") or f"import:{path.stem}")
        table = about.get("table") or list(data["players"])
        levels = about.get("levels") or {}
        number = int(about.get("number", 0))
        count = history.count()
        deal_id = history.add_deal(
            session, number, data, table, levels, started=about.get("started"), played=about.get("played")
        )
        if history.count() > count:
            report.added.append(deal_id)
        else:
            report.known += 1
    assert history.count() == before + len(report.added)
    return report
