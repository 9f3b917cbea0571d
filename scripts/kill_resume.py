"""kill -9 an autoplayed session at random moments, then resume: the save must always load
and hold exactly the ledger of the last action it records, and history must hold every deal
it said it kept; both files whole (``PRAGMA integrity_check``).

    python scripts/kill_resume.py [--rounds 20] [--seed 1]

Each round starts (or resumes) `vira --autoplay` with autosave on, kills it with SIGKILL
after a random delay, loads the autosave and checks it against the journal the game
writes after each save: the save's action count must be the journal's last entry, and the ledger
rebuilt from the save must equal the ledger the journal recorded for that count.
(The journal line is written just after the save, so a kill between the two leaves
the save ahead of the journal, which also passes: saves are written by a background
thread, which writes only the newest of a burst of moves.) History writes a journal line
after each deal's transaction: every deal so noted must be in the database after the kill.
At the end one more resume plays a deal to its end: every finished deal of the session is
then in history (a deal killed on its way there is offered again on resume).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vira_desktop.session.autosave import Autosave  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="vira-kill-"))
    journal = work / "journal.jsonl"
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        VIRA_DATA_DIR=str(work / "data"),
        VIRA_CONFIG_DIR=str(work / "config"),
        VIRA_JOURNAL=str(journal),
    )
    ok = 0
    for round_no in range(1, args.rounds + 1):
        command = [sys.executable, "-m", "vira_desktop", "--autoplay", "1000", "--speed", "instant", "--autosave"]
        command.append("--history")
        save = work / "data" / "autosave.sqlite3"
        if Autosave(save).exists():
            command.append("--resume")
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.8, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if not Autosave(save).exists():  # killed while starting, before its first save: nothing lost
            in_history, whole = _history(work / "data" / "history.sqlite3")
            ok += whole
            print(f"round {round_no:2d}: killed before the first save; integrity {'ok' if whole else 'BAD'}")
            continue
        lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line.strip()]
        entries = [e for e in lines if "log" in e]
        kept = {e["history"] for e in lines if "history" in e}
        table = Autosave(save).load()
        count = len(table.log)
        last = entries[-1]["log"] if entries else 0
        recorded = [e for e in entries if e["log"] == count]
        if count == last and recorded:  # the save holds the last action; its ledger must match
            good = recorded[-1]["accounts"] == table.session.ledger.accounts
            good = good and recorded[-1]["pulla"] == table.session.ledger.pulla_bets()
        else:  # killed between the save and its journal line: the save is ahead of the journal
            good = count > last
        in_history, whole = _history(work / "data" / "history.sqlite3")
        whole = whole and _autosave_whole(save)
        good = good and kept <= in_history and whole
        status = "ok" if good and table.session.ledger.conserved() else "MISMATCH"
        ok += status == "ok"
        print(
            f"round {round_no:2d}: killed after {count} actions (deal {table.deal_index + 1}); "
            f"history {len(in_history)} deals, {len(kept)} noted kept, integrity {'ok' if whole else 'BAD'} — {status}"
        )
    # one more resume, left to end: every finished deal of the session is in history
    final = [sys.executable, "-m", "vira_desktop", "--autoplay", "1", "--speed", "instant", "--autosave", "--resume"]
    subprocess.run([*final, "--history"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=True)
    table = Autosave(work / "data" / "autosave.sqlite3").load()
    in_history, whole = _history(work / "data" / "history.sqlite3")
    numbers = _numbers(work / "data" / "history.sqlite3", table.key)
    complete = set(range(len(table.finished))) <= numbers and whole
    verdict = "ok" if complete else "MISSING"
    print(f"at the end: {len(table.finished)} finished deals, {len(numbers)} in history — {verdict}")
    print(f"{ok} passed, {args.rounds - ok} failed")
    return 0 if ok == args.rounds and complete else 1


def _history(path: Path) -> tuple[set[int], bool]:
    """The ids of the deals in the history file, and whether its integrity check is ok."""
    if not path.exists():
        return set(), True
    db = sqlite3.connect(path)
    try:
        made = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'deals'").fetchone()
        if made is None:  # killed after history's thread opened the file, before its first schema: no deal yet
            return set(), _whole(db)
        return {row[0] for row in db.execute("SELECT id FROM deals")}, _whole(db)
    finally:
        db.close()


def _whole(db: sqlite3.Connection) -> bool:
    return bool(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def _autosave_whole(path: Path) -> bool:
    db = sqlite3.connect(path)
    try:
        return _whole(db)
    finally:
        db.close()


def _numbers(path: Path, key: str) -> set[int]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT d.number FROM deals d JOIN sessions s ON s.id = d.session_id WHERE s.key = ?", (key,))
        return {row[0] for row in rows}
    finally:
        db.close()


if __name__ == "__main__":
    raise SystemExit(main())
