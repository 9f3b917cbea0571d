"""Write ``vira_desktop/tutorial/lessons/solver.yaml``: for every card-play checkpoint of the
shipped lessons, the cards the double-dummy solver finds as good as the lesson's own card
(the same tricks for the declarer with every card as it lies), and the cards the learner
may be told are as good.

A lesson teaches play for hands the learner cannot see, and a habit (play low when you
cannot win, draw trumps with the ace). Two playtests found the solver's 'good too' praising
cards that break the habit just taught (ruffable aces, any lead in a begär): a card equal
double dummy is not therefore as good from the seat. So a card is accepted only where the
lesson's own card is the best double dummy, the lesson's card is no discard (a discard's
rank is an Ågren marking: its message), and

- it is equivalent to the lesson's card from the learner's seat: of the same suit, with no
  card between them that another seat may still hold (they then play alike however the
  hidden cards lie, and break no habit: 2♥ for 3♥ when 4♥ is gone): ``good``; or
- it is as good on what the learner could see (``tutorial/judge.py``, ``seen_good``): played
  in each layout of the hidden cards that fit the learner's view (the strong bot's sampler),
  its result and tricks are no worse than the lesson card's: ``seen``, with the ``layouts``
  they were compared over. A card equal double dummy that is worse on the
  learner's view is listed under ``not`` with its figures.

The equivalence is the judge's own (``tutorial/judge.py``, ``not_same_card``), which also
accepts a card that is the same card as another accepted one (``accept``, ``good``): such
a card is listed under ``already``. Every other card of the lesson card's value is listed
with the reason it is not accepted.
Run after changing a lesson: ``python scripts/lesson_solver.py``. tests/test_judge.py checks
the file against the solver (every card listed has the lesson card's value, and every card
of that value is listed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from vira_desktop.ai.solver import all_move_values
from vira_desktop.rules.actions import PlayCard
from vira_desktop.session.analysis import position_of
from vira_desktop.tutorial.judge import LESSON_LAYOUTS, Kind, not_same_card, seen_good
from vira_desktop.tutorial.lesson import chapters, lesson

OUT = Path(__file__).resolve().parents[1] / "vira_desktop" / "tutorial" / "lessons" / "solver.yaml"
WHY_NOT = {  # the judge's reason (not_same_card) in this file's words
    "discard": "the lesson's card is a discard: its rank is a marking",
    "suit": "another suit: another plan",
    "ace": "not equivalent from the seat: a card between them is still out",
    "between": "not equivalent from the seat: a card between them is still out",
}


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
    seen = seen_good(deal, main)
    discard = not_same_card(deal, main, main) == "discard"  # its rank is the message: no other card says it
    on_view = {str(c) for c, good in (seen or {}).items() if good and not discard}
    already = []
    for c in sorted(set(equal) | {int(type(main.card).parse(x)) for x in on_view}):
        card = PlayCard(main.seat, type(main.card)(c))
        verdict = taught.judge(step, card, deal)
        twin = verdict.detail.twin if verdict.detail is not None else None
        if twin == main or verdict.say in ("ui.solver_good", "ui.seen_good"):
            continue  # the same card as the lesson's: a candidate below, whatever the file said before
        if verdict.kind is not Kind.WRONG:
            already.append(str(card.card))  # right or good already by the lesson's own rules
        elif card in ask.why or (verdict.own and verdict.say not in ("ui.solver_good", "ui.seen_good")):
            entry["not"][str(card.card)] = "the lesson says why not"
    told = set(already) | set(entry["not"])
    for c in [type(main.card)(c) for c in equal if str(type(main.card)(c)) not in told]:
        reason = not_same_card(deal, PlayCard(main.seat, c), main)
        if reason is None:
            entry["good"].append(str(c))
        elif str(c) not in on_view:
            worse = reason != "discard" and seen is not None
            entry["not"][str(c)] = "worse on what the learner could see" if worse else WHY_NOT[reason]
    accepted = sorted(on_view - told - set(entry["good"]))
    if accepted:
        entry["seen"], entry["layouts"] = accepted, LESSON_LAYOUTS
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
