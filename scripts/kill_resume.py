"""kill -9 an autoplayed session at random moments, then resume: the save must always load
and hold exactly the ledger of the last action it records.

    python scripts/kill_resume.py [--rounds 20] [--seed 1]

Each round starts (or resumes) `vira --autoplay` with autosave on, kills it with SIGKILL
after a random delay, loads the autosave and checks it against the journal the game
writes after each save: the save's action count must be the journal's last entry, and the ledger
rebuilt from the save must equal the ledger the journal recorded for that count.
(The journal line is written just after the save, so a kill between the two leaves
the save ahead of the journal, which also passes: saves are written by a background
thread, which writes only the newest of a burst of moves.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vira_desktop.session.table import Table  # noqa: E402


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
        if round_no > 1:
            command.append("--resume")
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.8, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        save = work / "data" / "autosave.json"
        entries = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line.strip()]
        table = Table.load(save)
        count = len(table.log)
        last = entries[-1]["log"] if entries else 0
        recorded = [e for e in entries if e["log"] == count]
        if count == last and recorded:  # the save holds the last action; its ledger must match
            good = recorded[-1]["accounts"] == table.session.ledger.accounts
            good = good and recorded[-1]["pulla"] == table.session.ledger.pulla_bets()
        else:  # killed between the save and its journal line: the save is ahead of the journal
            good = count > last
        status = "ok" if good and table.session.ledger.conserved() else "MISMATCH"
        ok += status == "ok"
        print(f"round {round_no:2d}: killed after {count} actions (deal {table.deal_index + 1}) — {status}")
    print(f"{ok} passed, {args.rounds - ok} failed")
    return 0 if ok == args.rounds else 1


if __name__ == "__main__":
    raise SystemExit(main())
