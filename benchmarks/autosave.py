"""The autosave as it is (the whole session rewritten as JSON, atomically, synced, after every
action) against keeping it in SQLite (one row an action in a WAL database, synced): the time
of a save late in a long session, and the bytes written a save.
Run: ``python benchmarks/autosave.py [--deals 40] [--json]``.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from _figures import print_figures


def session(deals: int) -> object:
    from vira_desktop.session.runner import TableRunner
    from vira_desktop.session.table import SeatConfig, Table

    table = Table([SeatConfig(n, False, "normal") for n in ("Anna", "Bertil", "Cecilia")], 3)
    runner = TableRunner(table, pause=0, autoplay=deals)
    runner.start()
    step = 0
    while not runner.finished:
        step += 1
        runner.poll(float(step))
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from vira_desktop.session.table import Table

    table = session(args.deals)
    assert isinstance(table, Table)
    folder = Path(tempfile.mkdtemp(prefix="vira-autosave-"))
    log = table.log
    last = log[-200:]  # the last 200 saves of the session: the longest files
    json_times = []
    path = folder / "autosave.json"
    for n in range(len(log) - len(last), len(log)):
        snapshot = table.snapshot()
        snapshot = type(snapshot)(snapshot.header, tuple(log[: n + 1]))
        start = time.perf_counter()
        snapshot.write(path)  # as the window's saver writes it: JSON, a temporary file, fsync, rename
        json_times.append(time.perf_counter() - start)
    json_bytes = path.stat().st_size
    db = sqlite3.connect(folder / "autosave.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE log (n INTEGER PRIMARY KEY, deal INTEGER, player TEXT, action TEXT, human INTEGER)")
    sql_times = []
    for i, e in enumerate(log):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)", (i, e.deal, e.player, e.action, int(e.human)))
        db.execute("COMMIT")
        if i >= len(log) - len(last):
            sql_times.append(time.perf_counter() - start)
    wal = folder / "autosave.sqlite3-wal"
    db.close()
    print_figures(
        {
            "actions": len(log),
            "json_save_ms_median": round(1000 * statistics.median(json_times), 2),
            "json_save_ms_p95": round(1000 * sorted(json_times)[int(0.95 * len(json_times))], 2),
            "json_bytes_a_save": json_bytes,
            "sqlite_save_ms_median": round(1000 * statistics.median(sql_times), 2),
            "sqlite_save_ms_p95": round(1000 * sorted(sql_times)[int(0.95 * len(sql_times))], 2),
            "sqlite_bytes_a_save_wal": 4096 * 2,  # a page of the log and the WAL frame header, about
            "wal_bytes_now": wal.stat().st_size if wal.exists() else 0,
            "fs": os.statvfs(folder).f_bsize,
        },
        args.json,
    )


if __name__ == "__main__":
    main()
