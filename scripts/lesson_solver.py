"""Write ``vira_desktop/tutorial/lessons/solver.yaml``: for every card-play checkpoint of the
shipped lessons, the cards the double-dummy solver finds as good as the lesson's own card
(the same tricks for the declarer with every card as it lies), and of those the ones that
are as good from the learner's seat too, where the other hands are hidden.

A lesson teaches play for hands the learner cannot see, and a habit, so a card equal double
dummy is accepted only when

- it is of the lesson card's suit (another suit is another plan: a playtest found the
  solver's 'good too' for an ace beside the lesson's low card of the same fault);
- the lesson's card is no discard (a discard's rank is an Ågren marking: its message);
- it does as well over layouts of the hidden cards consistent with the learner's view
  (the strong bot's own search: the same worth in bets and the same share going home, or
  beaten, over ``LAYOUTS`` layouts, no time limit);
- the contract's fate is not settled whatever is played (the lesson's point is then its habit);
- the lesson's own card is the best double dummy.

The learner is told it is as good with these cards, and then the habit the lesson teaches
(its checkpoint's principle), which is what works when the cards cannot be seen.

Run after changing a lesson: ``python scripts/lesson_solver.py``. tests/test_judge.py checks
the file against the solver (every card listed has the lesson card's value, and every card
of that value is listed).
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import yaml

from vira_desktop.ai.solver import all_move_values
from vira_desktop.ai.strong import Budget, StrongBot
from vira_desktop.rules.actions import PlayCard
from vira_desktop.session.analysis import position_of
from vira_desktop.tutorial.judge import Kind
from vira_desktop.tutorial.lesson import chapters, lesson

LAYOUTS = 64
OUT = Path(__file__).resolve().parents[1] / "vira_desktop" / "tutorial" / "lessons" / "solver.yaml"


def checkpoint(ident: str, n: int) -> dict[str, Any] | None:
    taught = lesson(ident)
    step = taught.steps[n]
    ask = step.ask
    if ask is None or not isinstance(ask.accept[0], PlayCard):
        return None
    main = ask.accept[0]
    deal = taught.position(step.at)
    p = position_of(deal)
    values = all_move_values(p)
    value = values[main.card]
    equal = sorted(c for c, v in values.items() if v == value and c != main.card)
    entry: dict[str, Any] = {"value": value, "good": [], "not": {}}
    best = (max if p.wants_tricks(p.to_act) else min)(values.values())
    if value != best:
        entry["not"] = {"*": f"the lesson's card is not the best double dummy ({value}; best {best})"}
        return entry
    view = deal.view(p.to_act)
    already = []
    for c in equal:
        card = PlayCard(main.seat, type(main.card)(c))
        verdict = taught.judge(step, card, deal)
        if verdict.kind is not Kind.WRONG and verdict.say != "ui.solver_good":
            already.append(str(card.card))  # right or good already by the lesson's own rules
        elif card in ask.why or (verdict.own and verdict.say != "ui.solver_good"):
            entry["not"][str(card.card)] = "the lesson says why not"
    candidates = [type(main.card)(c) for c in equal if str(type(main.card)(c)) not in already]
    candidates = [c for c in candidates if str(c) not in entry["not"]]
    led = deal.trick[0][1].suit if deal.trick else None
    discard = led is not None and main.card.suit is not led and (deal.low or main.card.suit is not deal.trump)
    for c in candidates:
        if discard:
            entry["not"][str(c)] = "the lesson's card is a discard: its rank is a marking"
        elif c.suit is not main.card.suit:
            entry["not"][str(c)] = "another suit: another plan"
    candidates = [c for c in candidates if str(c) not in entry["not"]]
    if candidates:
        bot = StrongBot(zlib.crc32(ident.encode()) ^ n, Budget(seconds=None, layouts=LAYOUTS))
        searched = bot._search_cards(view, [main.card, *candidates])
        declarer = int(p.to_act) == p.declarer
        sign = 1.0 if declarer else -1.0
        for c in candidates:
            if searched is None:
                entry["not"][str(c)] = "the outcome is settled whatever is played"
                continue
            worth, shares, count = searched
            mine, lessons = shares[c][0], shares[main.card][0]
            if not declarer:  # a defender's share: the contract beaten
                mine, lessons = 1 - mine, 1 - lessons
            if sign * worth[c] >= sign * worth[main.card] - 1e-9 and mine >= lessons - 1e-9:
                entry["good"].append(str(c))
            else:
                entry["not"][str(c)] = f"from the seat: {mine:.0%} against {lessons:.0%} of {count} layouts"
    if already:
        entry["already"] = already
    return entry


def main() -> None:
    out: dict[str, dict[int, Any]] = {}
    for chapter in chapters():
        for ident in chapter.lessons:
            for n in range(len(lesson(ident).steps)):
                entry = checkpoint(ident, n)
                if entry is not None:
                    out.setdefault(ident, {})[n] = entry
                    print(ident, n, entry)
    head = (
        "# Written by scripts/lesson_solver.py (see its docstring): for each card-play checkpoint\n"
        "# (lesson id, step), the lesson card's double-dummy value, the cards of that value accepted\n"
        "# as good (also as good from the learner's seat), and why the others are not.\n"
    )
    OUT.write_text(head + yaml.safe_dump(out, allow_unicode=True, sort_keys=True, width=120), encoding="utf-8")


if __name__ == "__main__":
    main()
