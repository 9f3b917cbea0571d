"""Write ``vira_desktop/tutorial/lessons/solver.yaml``: for every card-play checkpoint of the
shipped lessons, the cards the double-dummy solver finds as good as the lesson's own card
(the same tricks for the declarer with every card as it lies), and of those the ones the
learner may be told are as good.

A lesson teaches play for hands the learner cannot see, and a habit (play low when you
cannot win, draw trumps with the ace). Two playtests found the solver's 'good too' praising
cards that break the habit just taught: a card equal double dummy is not therefore as good
from the seat. So a card of equal value is accepted only where

- the lesson's own card is the best double dummy;
- it is equivalent to the lesson's card from the learner's seat: of the same suit, with no
  card between them that another seat may still hold (they then play alike however the
  hidden cards lie, and break no habit: 2♥ for 3♥ when 4♥ is gone);
- the lesson's card is no discard (a discard's rank is an Ågren marking: its message).

Every other card of the lesson card's value is listed with the reason it is not accepted.
Run after changing a lesson: ``python scripts/lesson_solver.py``. tests/test_judge.py checks
the file against the solver (every card listed has the lesson card's value, and every card
of that value is listed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from vira_desktop.ai.knowledge import Knowledge
from vira_desktop.ai.solver import all_move_values
from vira_desktop.rules.actions import PlayCard
from vira_desktop.session.analysis import position_of
from vira_desktop.tutorial.judge import Kind
from vira_desktop.tutorial.lesson import chapters, lesson

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
    known = Knowledge(view)
    for c in candidates:
        high, low = max(c, main.card), min(c, main.card)
        if discard:
            entry["not"][str(c)] = "the lesson's card is a discard: its rank is a marking"
        elif c.suit is not main.card.suit:
            entry["not"][str(c)] = "another suit: another plan"
        elif known.outside_between(high, low) or (deal.aces_low and 14 in (c.rank, main.card.rank)):
            entry["not"][str(c)] = "not equivalent from the seat: a card between them is still out"
        else:
            entry["good"].append(str(c))
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
        "# as good (equivalent to it from the learner's seat), and why the others are not.\n"
    )
    OUT.write_text(head + yaml.safe_dump(out, allow_unicode=True, sort_keys=True, width=120), encoding="utf-8")


if __name__ == "__main__":
    main()
