"""Check lesson files as the tests will (docs/lesson-format.md), before they are listed in
the contents map: the file reads, its record replays to its stated result, every accepted
answer is legal, the normal bot's answer at each checkpoint is accepted or explained in
``why``, and (with ``--texts FILE.json``) every text key has its three languages.

    python scripts/check_lesson.py vira_desktop/tutorial/lessons/gask_low.yaml [--texts t.json]

With ``--verdicts`` (a lesson already in the catalogs), it prints, for each checkpoint, how
every legal answer is judged and what the learner is told (card sets: a sample of 12).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from vira_desktop.ai import make_bot
from vira_desktop.i18n import configure
from vira_desktop.rules.errors import ViraError
from vira_desktop.session.record import check_result, parse_yaml, replay
from vira_desktop.tutorial.lesson import Lesson, read_lesson
from vira_desktop.tutorial.telling import tell


def problems(taught: Lesson, texts: dict[str, dict[str, str]] | None) -> list[str]:
    out = []
    deal = replay(taught.record)
    if not deal.is_over:
        out.append("the record does not reach the end of the deal")
    elif taught.record.result is None:
        out.append("the record has no result")
    elif (diff := check_result(taught.record, deal)) is not None:
        out.append(diff)
    for n, step in enumerate(taught.steps, 1):
        if step.ask is None:
            continue
        position = taught.position(step.at)
        bot = make_bot("normal", 1).choose(position.view(taught.you)).action
        if bot is not None and not (verdict := taught.judge(step, bot, position)).right and not verdict.own:
            out.append(f"step {n}: the normal bot answers {bot.text!r}: accept it, or explain it under why")
    if texts is not None:
        for key in sorted(taught.texts()):
            entry = texts.get(f"lesson.{key}")
            if not entry or any(not str(entry.get(lang, "")).strip() for lang in ("en", "sv", "fi")):
                out.append(f"text lesson.{key}: missing, or not in all of en, sv, fi")
    return out


def verdicts(taught: Lesson, language: str) -> None:
    """Every legal answer at every checkpoint, its verdict and its words."""
    configure(language)
    rng = random.Random(1)
    for n, step in enumerate(taught.steps, 1):
        if step.ask is None:
            continue
        deal = taught.position(step.at)
        decision = deal.decision()
        answers = list(decision.actions)
        if decision.choice is not None:
            answers += [decision.choice.random(rng) for _ in range(12)]
        print(f"-- step {n} (at {step.at}): {len(answers)} answers")
        for answer in dict.fromkeys([*step.ask.accept, *step.ask.good, *answers]):
            verdict = taught.judge(step, answer, deal)
            print(f"   {answer.text:32} {verdict.kind.value:9} {tell(verdict)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--texts", type=Path, default=None, help='{"lesson.KEY": {"en": …, "sv": …, "fi": …}}')
    parser.add_argument("--verdicts", metavar="LANGUAGE", help="print every answer's verdict (en, sv, fi)")
    args = parser.parse_args(argv)
    texts = json.loads(args.texts.read_text(encoding="utf-8")) if args.texts else None
    bad = 0
    for path in args.files:
        try:
            taught = read_lesson(parse_yaml(path.read_text(encoding="utf-8")), path.name)
            found = problems(taught, texts)
        except ViraError as exc:
            found = [str(exc)]
        for line in found:
            print(f"{path.name}: {line}")
        if found:
            bad += 1
        else:
            counts = f"{len(taught.steps)} steps, {taught.checkpoints} checkpoints"
            print(f"{path.name}: ok ({counts}, rows {taught.teaches})")
            if args.verdicts:
                verdicts(taught, args.verdicts)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
