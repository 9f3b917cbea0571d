"""Does the analysis call the coach's cards mistakes? Over deal records (by default the
project's test records with their play), every card that followed the coach's hint is
judged on what its seat could see (``analyse_record``, every seat), and counted by verdict;
the coach's hint time in trick play is timed too. ``--habit``: the coach of habit alone (the
normal bot's card, not searched), as the coach was before issue 39, for a before and after.

    python benchmarks/coach_analysis.py [--records N] [--habit] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from _figures import print_figures

from vira_desktop.ai.single_dummy import CardOdds
from vira_desktop.rules.view import View
from vira_desktop.session import analysis
from vira_desktop.session.analysis import analyse_record
from vira_desktop.session.coach import Coach, Hint
from vira_desktop.session.record import load_record

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "records"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=30, help="the first N records with play")
    parser.add_argument("--habit", action="store_true", help="the coach's card not searched")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    hint_ms: list[float] = []

    def timed_coach(seed: int = 99) -> Coach:
        """The coach the analysis asks, its hints in trick play timed."""
        coach = Coach(seed, search=not args.habit)
        asked = coach.hint

        def hint(view: View, odds: CardOdds | None = None) -> Hint:
            start = time.perf_counter()
            out = asked(view)  # searched as in the window (the same hint as with the analysis's odds)
            hint_ms.append(1000 * (time.perf_counter() - start))
            return out

        coach.hint = hint  # type: ignore[method-assign]
        return coach

    setattr(analysis, "Coach", timed_coach)  # noqa: B010 - the analysis asks this coach
    calls: Counter[str] = Counter()
    done = 0
    start = time.perf_counter()
    for path in sorted(RECORDS.rglob("*.yaml")):
        if done >= args.records:
            break
        try:
            info = analyse_record(load_record(path), None)
        except Exception:  # a record without play, or one that stops early: not counted
            continue
        if not info.seen:
            continue
        done += 1
        calls.update(s.call for s in info.seen if s.coached)
    hint_ms.sort()
    print_figures(
        {
            "coach": "habit alone" if args.habit else "searched",
            "records": done,
            "coached_cards": sum(calls.values()),
            "coached_mistakes": calls["mistake"],
            "coached_doubtful": calls["doubtful"],
            "hint_ms_median": round(statistics.median(hint_ms), 1) if hint_ms else None,
            "hint_ms_p95": round(hint_ms[int(0.95 * len(hint_ms))], 1) if hint_ms else None,
            "hint_ms_max": round(hint_ms[-1], 1) if hint_ms else None,
            "seconds": round(time.perf_counter() - start, 1),
        },
        args.json,
    )


if __name__ == "__main__":
    main()
