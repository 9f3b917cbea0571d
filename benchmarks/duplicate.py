"""Duplicate match: the bot of this tree (or of a commit) against the bot of an older commit.

    python benchmarks/duplicate.py [--deals 3000] [--seed 1] [--baseline 7daa9c5]
                                   [--new-from SHA] [--jobs 2] [--json]

The baseline bot runs unmodified from its own commit: the commit's ``vira_desktop``
is exported with ``git archive`` to ``build/duplicate/<sha>/`` (git-ignored) and
its bot answers in a server subprocess that imports only that folder, speaking
JSON lines over stdin/stdout (``--serve FOLDER``). The engine of this tree deals
and referees every table; each server keeps its own copy of each table's deal,
is sent the actions (record notation, docs/deal-record.md) since its last
question, then asked what a seat does, and answers with the action in record
notation. Two packages are never imported in one process. At a table's end each
server reports the result its own engine reached; it must agree.

The scheme, for three seats. Deal ``k`` (the same cards, from a seeded deal
number) is played at four tables: the all-baseline table B, and for each seat
``s`` a table N_s with the new bot in seat ``s`` and baseline bots in the other
two. The deal's score is the sum over ``s`` of seat ``s``'s result at N_s less
seat ``s``'s result at B. Each difference compares the same cards in the same
seat against the same opponents (the same code with the same seeds), so
whatever the cards are worth to that seat cancels and only what the new bot
does with them remains: a good hand scores the same for both sides, and
replacing the baseline by itself gives exactly 0, table for table. Bots are
seeded per deal and seat, alike on both sides (``bot_seed``), so the sampling
luck of a seat is shared as well. Summing over the three seats makes every deal
count each seat's cards once. The score is what one new bot gains over the
baseline in its place, playing each seat of the deal once against two baseline
players. (Four tables, not the six rotations of ``vira match``: the tables with
two new bots would cancel the cards as well, but each difference here is one
substitution, readable per seat, and a deal costs four tables instead of six.)

A seat's result is its net in pins for the deal as the ledger counts it
(``DealResult.net_pins``: pins received from the other seats, less 8 pins for
every bet paid into the pulla, plus 8 for every bet lifted). Every table is a
fresh deal with no session behind it, so no pulla, ante or earlier deal makes
a result depend on the path, and the deals' scores are independent samples:
their mean, standard error and a normal 95% interval are reported.

For each side the contracts it declared are counted too: the new bot's at the
tables N_s where it was the declarer, the baseline's at the tables B.

``--new-from SHA`` takes the new side from a commit too (``--new-from`` equal to
``--baseline``: every difference exactly 0, a self-test of the harness);
``--new-salt N`` seeds the new side's bots apart, for a null match of a bot
against itself whose interval must cover 0.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from vira_desktop.ai import Bot
    from vira_desktop.rules.deal import Deal
    from vira_desktop.rules.scoring import DealResult

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = ROOT / "build" / "duplicate"
BASELINE = "7daa9c5"  # main before any issue-21 change
OUTCOMES = ("home", "bet", "kodilj", "laid")
NEW, BASE = 0, 1  # the two sides, as indices into a pair of sides
SALT = 10**15  # a side's salt moves its bot seeds far from every bot_seed


def bot_seed(seed: int, deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the ``deal``-th deal, the same on both sides and at
    every table (as ``vira simulate`` seeds seat ``i`` with ``seed * 10 + i``, per deal here)."""
    return (seed * 1_000_000 + deal) * 10 + seat


def deal_numbers(deals: int, seed: int) -> list[int]:
    """The deal numbers of a match, as ``vira match`` draws them."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(deals)]


# ---------------------------------------------------------------------- the server
class Server:
    """One side's bots, answering for the tables it is told of. It uses only what every commit
    since 7daa9c5 has (``Deal.from_number``, ``parse_action``, ``make_bot``, ``Deal.view``),
    imported from whatever ``vira_desktop`` this process has."""

    def __init__(self) -> None:
        import vira_desktop
        from vira_desktop.ai import make_bot
        from vira_desktop.rules.actions import parse_action
        from vira_desktop.rules.deal import Deal

        self.package = str(Path(vira_desktop.__file__).resolve().parent)
        self._make_bot, self._parse, self._deal = make_bot, parse_action, Deal
        self.tables: dict[str, tuple[Deal, str, list[int], dict[int, Bot]]] = {}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        """One request, one reply; a fault is an ``error`` reply, never an exception."""
        try:
            return self._handle(msg)
        except Exception as exc:
            return {"error": f"{type(exc).__name__}: {exc}"}

    def _handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        op = msg["op"]
        if op == "hello":
            return {"package": self.package}
        table = str(msg["table"])
        if op == "deal":  # a new table: the deal number, and the hands to check it by
            deal = self._deal.from_number(int(msg["number"]))
            dealt = [sorted(str(c) for c in hand) for hand in deal.dealt]
            if dealt != [sorted(hand) for hand in msg["hands"]]:
                raise ValueError(f"deal {msg['number']} is dealt differently here")
            self.tables[table] = (deal, str(msg["level"]), [int(s) for s in msg["seeds"]], {})
            return {"ok": True}
        deal, level, seeds, bots = self.tables[table]
        for seat, text in msg["actions"]:  # what happened since this server last spoke
            deal.apply(self._parse(text, int(seat)))
        if op == "ask":
            seat = int(msg["seat"])
            if seat not in bots:
                bots[seat] = self._make_bot(level, seeds[seat])
            action = bots[seat].choose(deal.view(seat)).action
            return {"action": None if action is None else action.text}
        if op == "end":
            del self.tables[table]
            result = deal.result
            if result is None:
                raise ValueError(f"table {table}: the deal is not over here")
            return {"pins": list(result.pins), "pulla": list(result.pulla)}
        raise ValueError(f"unknown op: {op!r}")


def serve(folder: Path) -> None:
    """``--serve FOLDER``: import the package from ``FOLDER`` and answer JSON lines on stdin."""
    sys.path.insert(0, str(folder))
    out, sys.stdout = sys.stdout, sys.stderr  # nothing a bot prints can break the protocol
    server = Server()
    try:
        for line in sys.stdin:
            out.write(json.dumps(server.handle(json.loads(line)), ensure_ascii=False) + "\n")
            out.flush()
    except BrokenPipeError:  # the match stopped while this server was answering
        pass


# ---------------------------------------------------------------------- the sides
@dataclass(frozen=True)
class SideSpec:
    """A side: a bot level, and the exported folder its package comes from (``None``: this
    tree, in the calling process)."""

    level: str = "normal"
    folder: Path | None = None
    label: str = "working tree"
    salt: int = 0  # shifts the side's bot seeds (a null match: the same bot, other sampling)


class Side(Protocol):
    level: str
    salt: int

    def request(self, msg: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class Local:
    """A side played in this process by this tree's bots, through the same :class:`Server`."""

    def __init__(self, level: str, salt: int = 0) -> None:
        self.level, self.salt = level, salt
        self.server = Server()

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        return _checked(self.server.handle(msg), msg)

    def close(self) -> None:
        pass


class Remote:
    """A side played by a server subprocess that imports the package of ``folder``."""

    def __init__(self, folder: Path, level: str, salt: int = 0) -> None:
        self.level, self.salt = level, salt
        env = {**os.environ, "PYTHONPATH": str(folder)}
        command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(folder)]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=folder, bufsize=1
        )
        package = Path(self.request({"op": "hello"})["package"])
        if not package.is_relative_to(folder.resolve()):
            self.close()
            raise RuntimeError(f"the server imported {package}, not the package of {folder}")

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the server stopped (exit status {self.proc.wait()}) at {msg['op']}")
        return _checked(json.loads(line), msg)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def _checked(reply: dict[str, Any], msg: dict[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        raise RuntimeError(f"{msg['op']} at table {msg.get('table')}: {reply['error']}")
    return reply


def open_side(spec: SideSpec) -> Side:
    if spec.folder is None:
        return Local(spec.level, spec.salt)
    return Remote(spec.folder, spec.level, spec.salt)


# ---------------------------------------------------------------------- tables and deals
def play_table(sides: Sequence[Side], seating: Sequence[int], number: int, seeds: list[int], table: str) -> Deal:
    """Play deal ``number`` to its end, seat ``s`` answered by ``sides[seating[s]]``; the
    engine of this tree referees, and every side used must reach the same result."""
    from vira_desktop.rules.actions import parse_action
    from vira_desktop.rules.deal import Deal
    from vira_desktop.session.flow import Flow

    deal = Deal.from_number(number)
    flow = Flow(lambda: deal)
    hands = [[str(c) for c in hand] for hand in deal.dealt]
    told = dict.fromkeys(seating, 0)  # side -> actions it has been sent
    for k in told:
        salted = [x + sides[k].salt * SALT for x in seeds]
        start = {"op": "deal", "table": table, "number": number, "hands": hands, "level": sides[k].level}
        sides[k].request({**start, "seeds": salted})

    def news(k: int) -> list[tuple[int, str]]:
        fresh = [(int(a.seat), a.text) for a in deal.history[told[k] :]]
        told[k] = len(deal.history)
        return fresh

    while (ask := flow.ask()) is not None:
        k = seating[ask.seat]
        reply = sides[k].request({"op": "ask", "table": table, "seat": int(ask.seat), "actions": news(k)})
        text = reply["action"]
        try:
            flow.answer(ask, None if text is None else parse_action(str(text), int(ask.seat)))
        except ValueError as exc:  # an answer this engine does not take
            raise RuntimeError(f"table {table}: seat {int(ask.seat)} of side {k} answered {text!r}: {exc}") from None
    result = deal.result
    assert result is not None
    for k in told:
        reply = sides[k].request({"op": "end", "table": table, "actions": news(k)})
        if (tuple(reply["pins"]), tuple(reply["pulla"])) != (result.pins, result.pulla):
            raise RuntimeError(f"table {table}: side {k} scored {reply}, this engine {result.pins, result.pulla}")
    return deal


@dataclass(frozen=True)
class DealScore:
    """One deal of the match: per seat, its result with the new bot there less its result at
    the all-baseline table; the outcomes of the contracts each side declared."""

    index: int
    number: int
    seat_diffs: tuple[int, int, int]
    new_outcomes: tuple[str, ...]  # the new bot's contracts, at the tables where it declared
    base_outcome: str  # the all-baseline table's contract
    same_play: int  # tables N_s that went exactly as the all-baseline table

    @property
    def diff(self) -> int:
        return sum(self.seat_diffs)


def play_deal(sides: Sequence[Side], index: int, number: int, seed: int) -> DealScore:
    """Deal ``number`` at the all-baseline table and at the three tables with the new bot in one seat."""
    seeds = [bot_seed(seed, index, s) for s in range(3)]
    base = play_table(sides, (BASE, BASE, BASE), number, seeds, f"{index}B")
    base_result = _result(base)
    diffs, outcomes, same = [], [], 0
    for seat in range(3):
        seating = tuple(NEW if s == seat else BASE for s in range(3))
        deal = play_table(sides, seating, number, seeds, f"{index}N{seat}")
        result = _result(deal)
        diffs.append(result.net_pins(seat) - base_result.net_pins(seat))
        if result.declarer == seat:
            outcomes.append(result.outcome.value)
        same += [a.text for a in deal.history] == [a.text for a in base.history]
    return DealScore(index, number, (diffs[0], diffs[1], diffs[2]), tuple(outcomes), base_result.outcome.value, same)


def _result(deal: Deal) -> DealResult:
    assert deal.result is not None
    return deal.result


_SIDES: list[Side] = []  # a worker's sides, opened once per process
_FAULT: list[str] = []  # why they could not be opened (a pool restarts a worker whose initializer raises)


def _open(specs: tuple[SideSpec, SideSpec]) -> None:
    try:
        _SIDES[:] = [open_side(spec) for spec in specs]
    except Exception as exc:
        _FAULT.append(f"{type(exc).__name__}: {exc}")


def _work(chunk: list[tuple[int, int]], seed: int) -> list[DealScore]:
    if _FAULT:
        raise RuntimeError(_FAULT[0])
    return [play_deal(_SIDES, index, number, seed) for index, number in chunk]


def run_match(
    deals: int, seed: int, new: SideSpec, baseline: SideSpec, jobs: int = 1, progress: bool = False
) -> tuple[list[DealScore], float]:
    """Play the match; the deals' scores in order, and the seconds it took. ``jobs`` worker
    processes (1: this process) each open their own sides (their own server subprocesses)."""
    work = list(enumerate(deal_numbers(deals, seed)))
    size = max(1, min(20, deals // (8 * max(1, jobs))))
    chunks = [work[i : i + size] for i in range(0, len(work), size)]
    scores: list[DealScore] = []
    start = last = time.perf_counter()

    def report(done: Iterable[DealScore]) -> None:
        nonlocal last
        scores.extend(done)
        now = time.perf_counter()
        if progress and (now - last >= 10 or len(scores) == deals):
            last = now
            mean = sum(s.diff for s in scores) / len(scores)
            rate = len(scores) / (now - start)
            line = f"duplicate: {len(scores)}/{deals} deals, {rate:.1f} deals/s, mean {mean:+.2f} pins a deal"
            print(line, file=sys.stderr, flush=True)

    if jobs <= 1:
        sides = [open_side(new), open_side(baseline)]
        try:
            for chunk in chunks:
                report(play_deal(sides, index, number, seed) for index, number in chunk)
        finally:
            for side in sides:
                side.close()
    else:
        with multiprocessing.Pool(jobs, _open, ((new, baseline),)) as pool:
            for done in pool.imap_unordered(_work_star, [(chunk, seed) for chunk in chunks]):
                report(done)
    return sorted(scores, key=lambda s: s.index), time.perf_counter() - start


def _work_star(args: tuple[list[tuple[int, int]], int]) -> list[DealScore]:
    return _work(*args)


# ---------------------------------------------------------------------- figures
def _side_stats(outcomes: Counter[str], deals: int) -> dict[str, Any]:
    declared = sum(outcomes.values())

    def pct(n: int) -> float | None:
        return round(100 * n / declared, 2) if declared else None

    return {
        "declared": declared,
        "declared_per_deal": round(declared / deals, 3) if deals else None,
        **{f"{o}_pct": pct(outcomes[o]) for o in OUTCOMES},
    }


def summary(scores: Sequence[DealScore], seconds: float) -> dict[str, Any]:
    """The match's figures: the mean difference a deal (pins) with its standard error and 95%
    interval, per seat, and each side's declared contracts."""
    n = len(scores)
    diffs = [s.diff for s in scores]
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n else 0.0
    low, high = mean - 1.96 * se, mean + 1.96 * se
    new_outcomes = Counter(o for s in scores for o in s.new_outcomes)
    base_outcomes = Counter(s.base_outcome for s in scores)
    return {
        "deals": n,
        "tables": 4 * n,
        "mean_pins_per_deal": round(mean, 3),
        "se_pins_per_deal": round(se, 3),
        "ci95_pins_per_deal": [round(low, 3), round(high, 3)],
        "mean_pins_per_100_deals": round(100 * mean, 1),
        "ci95_pins_per_100_deals": [round(100 * low, 1), round(100 * high, 1)],
        "mean_bets_per_100_deals": round(100 * mean / 8, 2),
        "sd_pins_per_deal": round(sd, 2),
        "mean_pins_per_seat": [round(sum(s.seat_diffs[i] for s in scores) / n, 3) if n else 0.0 for i in range(3)],
        "deals_differing": sum(1 for d in diffs if d),
        "tables_as_baseline": sum(s.same_play for s in scores),
        "new": _side_stats(new_outcomes, n),
        "baseline": _side_stats(base_outcomes, n),
        "seconds": round(seconds, 2),
        "deals_per_s": round(n / seconds, 2) if seconds else None,
    }


def _print_summary(info: dict[str, Any]) -> None:
    print(f"new: {info['new_side']}   baseline: {info['baseline_side']}   seed {info['seed']}")
    low, high = info["ci95_pins_per_deal"]
    print(
        f"{info['deals']} deals ({info['tables']} tables):"
        f" new - baseline = {info['mean_pins_per_deal']:+.3f} pins a deal"
        f" (SE {info['se_pins_per_deal']:.3f}, 95% CI [{low:+.3f}, {high:+.3f}]),"
        f" {info['mean_pins_per_100_deals']:+.1f} pins per 100 deals"
        f" (95% CI [{info['ci95_pins_per_100_deals'][0]:+.1f}, {info['ci95_pins_per_100_deals'][1]:+.1f}])"
    )
    seats = ", ".join(f"{v:+.3f}" for v in info["mean_pins_per_seat"])
    print(
        f"per seat (forehand, middle, rear): {seats} pins a deal; deals differing: {info['deals_differing']};"
        f" tables played exactly as the baseline's: {info['tables_as_baseline']} of {3 * info['deals']}"
    )
    for side in ("new", "baseline"):
        s = info[side]
        rates = ", ".join(f"{o} {s[f'{o}_pct']}%" for o in OUTCOMES)
        print(f"{side:>8} declared {s['declared']} ({s['declared_per_deal']} a deal): {rates}")
    print(f"{info['seconds']} s, {info['deals_per_s']} deals/s")


# ---------------------------------------------------------------------- exports and main
def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def export(commit: str) -> tuple[Path, str]:
    """The folder holding ``vira_desktop`` as of ``commit`` (exported once, kept under build/), and the full sha."""
    try:
        sha = _git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"duplicate: no such commit: {commit}") from None
    dest = EXPORTS / sha
    if not (dest / "vira_desktop" / "__init__.py").is_file():
        EXPORTS.mkdir(parents=True, exist_ok=True)
        command = ["git", "-C", str(ROOT), "archive", "--format=tar", sha, "vira_desktop"]
        tar = subprocess.run(command, capture_output=True, check=True).stdout
        tmp = Path(tempfile.mkdtemp(dir=EXPORTS, prefix=".part-"))
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(tmp, filter="data")
        try:
            tmp.rename(dest)
        except OSError:  # another run exported it meanwhile
            shutil.rmtree(tmp)
    return dest, sha


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default=BASELINE, help=f"the baseline's commit (default {BASELINE})")
    parser.add_argument("--new-from", metavar="SHA", help="the new side from this commit (default: this working tree)")
    parser.add_argument("--level", default="normal", help="the new side's bot level")
    parser.add_argument("--baseline-level", default="normal")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes, each with its own servers")
    parser.add_argument("--new-salt", type=int, default=0, help="seed the new side's bots apart (a null match)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(Path(args.serve))
        return 0
    sys.path.insert(0, str(ROOT))  # this tree's package, never the one an editable install points at
    base_folder, base_sha = export(args.baseline)
    baseline = SideSpec(args.baseline_level, base_folder, f"{args.baseline_level} of {base_sha[:7]}")
    if args.new_from:
        new_folder, new_sha = export(args.new_from)
        new = SideSpec(args.level, new_folder, f"{args.level} of {new_sha[:7]}", args.new_salt)
    else:
        here = _git("describe", "--always", "--dirty")
        new = SideSpec(args.level, None, f"{args.level} of the working tree ({here})", args.new_salt)
    if args.new_salt:
        new = replace(new, label=f"{new.label}, bot seeds salted {args.new_salt}")
    print(f"duplicate: {new.label} against {baseline.label}, {args.deals} deals, {args.jobs} jobs", file=sys.stderr)
    try:
        scores, seconds = run_match(args.deals, args.seed, new, baseline, args.jobs, progress=True)
    except RuntimeError as exc:  # a side's fault: one line, not a traceback from a worker
        print(f"duplicate: {exc}", file=sys.stderr)
        return 2
    info = {"new_side": new.label, "baseline_side": baseline.label, "seed": args.seed, **summary(scores, seconds)}
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        _print_summary(info)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
