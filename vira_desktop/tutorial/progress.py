"""The learner's progress through the tutorial, saved the moment a step is done.

One small JSON file in the user's data folder (``tutorial.json``), rewritten atomically
at every step, so a kill at any moment keeps everything up to the last finished step.
Stars are kept against par, as lichess's lessons do: three for a lesson whose every
checkpoint was answered right the first time, one less for each checkpoint whose first
answer was wrong (at least one star for a lesson finished); a skipped checkpoint earns none
for that try; a lesson played again keeps its best try's stars.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..paths import quarantine, tutorial_progress_file, write_atomically

__all__ = ["LessonProgress", "Progress"]

VERSION = 1


@dataclass
class LessonProgress:
    step: int = 0  # steps finished: the lesson opens again at this one
    done: bool = False
    wrong: int = 0  # wrong answers at checkpoints
    skipped: int = 0  # steps skipped
    hints: int = 0
    best: int = 0  # the most stars an earlier try of the lesson earned

    @property
    def stars(self) -> int:
        """This try's stars, or an earlier try's where it earned more (a lesson played again
        never loses what was earned)."""
        if not self.done or self.skipped:
            return self.best
        return max(self.best, 1, 3 - self.wrong)


class Progress:
    """Every lesson's progress; each change is on disk before the call returns."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or tutorial_progress_file()
        self.lessons: dict[str, LessonProgress] = {}
        self.damaged = False  # the file was there but unreadable (it is kept aside, not lost)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") != VERSION:
                raise ValueError("unknown version")
            self.lessons = {str(k): LessonProgress(**v) for k, v in data["lessons"].items()}
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            self.damaged = True
            quarantine(self.path)  # as a damaged save: a second damage never overwrites the first

    def of(self, lesson: str) -> LessonProgress:
        return self.lessons.get(lesson, LessonProgress())

    def _save(self) -> None:
        data: dict[str, Any] = {"version": VERSION, "lessons": {k: asdict(v) for k, v in self.lessons.items()}}
        write_atomically(self.path, json.dumps(data, indent=1))

    def _update(self, lesson: str, **changes: Any) -> LessonProgress:
        now = self.lessons.setdefault(lesson, LessonProgress())
        for key, value in changes.items():
            setattr(now, key, value)
        self._save()
        return now

    def step_done(self, lesson: str, step: int, steps: int, skipped: bool = False) -> LessonProgress:
        """Step ``step`` (0-based) of a lesson of ``steps`` steps is finished (or skipped)."""
        now = self.of(lesson)
        finished = max(now.step, step + 1)
        return self._update(
            lesson,
            step=min(finished, steps),
            done=now.done or finished >= steps,
            skipped=now.skipped + skipped,
        )

    def wrong_answer(self, lesson: str) -> None:
        self._update(lesson, wrong=self.of(lesson).wrong + 1)

    def hint_asked(self, lesson: str) -> None:
        self._update(lesson, hints=self.of(lesson).hints + 1)

    def replay(self, lesson: str) -> None:
        """Start a lesson again from its first step; a finished lesson stays finished (its
        stars are earned again from this try, the best kept)."""
        self._update(lesson, step=0, wrong=0, skipped=0, hints=0, best=self.of(lesson).stars)

    def reset(self, lessons: list[str]) -> None:
        """Forget these lessons (a chapter reset from the contents map)."""
        for lesson in lessons:
            self.lessons.pop(lesson, None)
        self._save()
