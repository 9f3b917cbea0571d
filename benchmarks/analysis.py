"""'Could I have won?' benchmark: how long a finished deal's analysis takes, double dummy and
then each card of the player's side judged on what its seat could see (single dummy).

Every deal record under tests/records with trick play, analysed for its player's side (the
record's first name: the declarer's side or the defenders'), CPU seconds a deal in total, and
the single-dummy part per judged card. The layouts are one constant (ai/single_dummy.LAYOUTS):
``--layouts N`` shows what more would cost.
Run: ``python benchmarks/analysis.py [--layouts N] [--json]``; prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from _figures import print_figures

from vira_desktop.ai.single_dummy import LAYOUTS
from vira_desktop.rules.errors import RecordError
from vira_desktop.session.analysis import judge_trick, tricks_given
from vira_desktop.session.record import load_record
from vira_desktop.session.thinking import side_of

RECORDS = Path(__file__).resolve().parents[1] / "tests" / "records"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--layouts", type=int, default=LAYOUTS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    double, single, cards, steps = [], [], 0, []
    for path in sorted(RECORDS.rglob("*.yaml")):
        try:
            record = load_record(path)
            start = time.process_time()
            info = tricks_given(record)
        except RecordError:
            continue  # laid down, or stopped before trick play
        side = frozenset(side_of(record, record.names[0]))
        middle = time.process_time()
        for trick in info.tricks:
            before = time.process_time()
            cards += len(judge_trick(record, side, trick, args.layouts))
            steps.append(time.process_time() - before)
        double.append(middle - start)
        single.append(time.process_time() - middle)
    figures = {
        "deals": len(double),
        "layouts": args.layouts,
        "cards_judged": cards,
        "double_dummy_s_mean": round(statistics.mean(double), 3),
        "single_dummy_s_mean": round(statistics.mean(single), 3),
        "single_dummy_s_max": round(max(single), 3),
        "step_s_max": round(max(steps), 3),  # one trick's job: the longest wait between progress steps
        "per_card_ms": round(1000 * sum(single) / max(1, cards), 1),
    }
    print_figures(figures, args.json)


if __name__ == "__main__":
    main()
