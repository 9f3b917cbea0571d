"""Lessons as data (``docs/lesson-format.md``): a deal record played as the main line, and
steps that stop along it to explain, highlight and ask "your move".

A lesson file is YAML. Its ``record`` is a whole deal record (``docs/deal-record.md``),
played right; its ``steps`` walk through that record: each step stands at a position
(``at``: how many of the record's actions are played) and says one thing (a catalog key
under ``lesson.``). A step with ``ask`` is a checkpoint: the learner makes the record's
next action, or any other answer in ``accept``. Reading checks everything: every
position exists, every accepted answer is legal there and the record's own answer is
among them, every text key is in the catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from importlib import resources
from typing import Any

from ..rules.actions import Action, PlayCard, parse_action
from ..rules.cards import Card
from ..rules.deal import Deal
from ..rules.errors import RecordError, ViraError
from ..rules.scoring import DealResult
from ..session.record import Record, parse_yaml, read_record, record_actions
from .claims import Claim, ClaimError, check, read_claims
from .judge import CLASSES, CardRule, Rules, Verdict, judge
from .question import PULLA_MAX, Question, QuestionError, read_question, unknown_field

__all__ = [
    "CHAPTERS",
    "Chapter",
    "Checkpoint",
    "Lesson",
    "LessonError",
    "Question",
    "Step",
    "Verdict",
    "chapter_index",
    "chapters",
    "lesson",
    "lessons_by_row",
    "read_lesson",
]

VERSION = 1
FIELDS = ("lesson", "id", "chapter", "title", "teaches", "you", "record", "steps")
OPTIONAL = ("pulla",)
STEP_FIELDS = ("at", "say", "rows", "cards", "ask", "claims")
ASK_FIELDS = ("accept", "good", "choose", "hint", "right", "wrong", "why")
CHOOSE_FIELDS = ("always", "any_of")


class LessonError(ViraError):
    """A lesson file that cannot be used: one message naming the lesson, step and fault."""


@dataclass(frozen=True)
class Checkpoint:
    """ "Your move": the record's answer, what else is as good, and what the learner is told."""

    accept: tuple[Action, ...]  # the record's own answer first, then answers named as good
    hint: str  # catalog keys, under ``lesson.``
    right: str
    wrong: str  # the principle, told with the facts of an answer no text was written for
    why: Mapping[Action | str, str] = field(default_factory=dict)  # a wrong answer's (or class's) own text
    good: Mapping[Action, str] = field(default_factory=dict)  # as good, another line: its own text
    choose: CardRule | None = None  # a card-set answer as good as the record's

    @property
    def rules(self) -> Rules:
        return Rules(self.accept[1:], self.good, self.choose, self.why)


@dataclass(frozen=True)
class Step:
    at: int  # the record's actions played when the step shows
    say: str
    rows: tuple[int, ...] = ()  # bid-table rows to highlight
    cards: tuple[Card, ...] = ()  # cards to highlight
    ask: Checkpoint | None = None
    question: Question | None = None  # a question about the table, answered by a choice (``ask: {question: …}``)
    claims: tuple[Claim, ...] = ()  # what its texts say is legal, checked by the engine (:mod:`.claims`)

    @property
    def asks(self) -> bool:
        """The step waits for an answer: a move on the table or a choice."""
        return self.ask is not None or self.question is not None


@dataclass(frozen=True)
class Lesson:
    id: str
    chapter: str
    title: str
    teaches: tuple[int, ...]  # bid-table rows this lesson checks with a checkpoint
    you: int  # the learner's seat (0 forehand, 1 middle-hand, 2 rear-hand)
    record: Record
    actions: tuple[Action, ...]  # the main line: the record's actions, parsed
    steps: tuple[Step, ...]
    pulla: int | None = None  # bets in the pulla as the lesson opens (None: the åla, one from each player)

    @property
    def checkpoints(self) -> int:
        """The "your move" checkpoints (moves on the table)."""
        return sum(1 for s in self.steps if s.ask is not None)

    @property
    def questions(self) -> int:
        """The questions about the table (answered by a choice)."""
        return sum(1 for s in self.steps if s.question is not None)

    @property
    def table(self) -> tuple[str, ...]:
        return seated(self.record)

    def position(self, at: int) -> Deal:
        """The deal after the main line's first ``at`` actions."""
        deal = self.record.deal.clone()
        for action in self.actions[:at]:
            deal.apply(action)
        return deal

    @cached_property
    def result(self) -> DealResult | None:
        """The result of the main line."""
        return self.position(len(self.actions)).result

    def judge(self, step: Step, answer: Action, deal: Deal | None = None) -> Verdict:
        """The verdict on ``answer`` (legal there) at ``step``'s checkpoint (see :mod:`.judge`);
        ``deal`` is the checkpoint's position when the caller has it."""
        ask = step.ask
        if ask is None:
            raise ValueError("this step asks nothing")
        at = deal if deal is not None else self.position(step.at)
        rest = self.actions[step.at + 1 :]
        rules = ask.rules
        solved = solver_checked().get(self.id, {}).get(self.steps.index(step))
        if solved is not None and isinstance(ask.accept[0], PlayCard):
            seat = ask.accept[0].seat
            good = frozenset(PlayCard(seat, Card.parse(c)) for c in solved["good"])
            seen = frozenset(PlayCard(seat, Card.parse(c)) for c in solved.get("seen", ()))
            layouts = int(solved.get("layouts", 0))
            rules = replace(rules, solver=good, solver_tricks=int(solved["value"]), seen=seen, seen_layouts=layouts)
        return judge(at, answer, ask.accept[0], rules, (ask.right, ask.wrong), rest, self.result)

    def texts(self) -> set[str]:
        """Every catalog key the lesson names (each under ``lesson.``)."""
        keys = {self.title}
        for s in self.steps:
            keys.add(s.say)
            if s.ask is not None:
                keys |= {s.ask.hint, s.ask.right, s.ask.wrong, *s.ask.why.values(), *s.ask.good.values()}
            if s.question is not None:
                keys |= {s.question.hint, s.question.right, s.question.wrong, *s.question.why.values()}
        return keys


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str  # catalog key, under ``lesson.``
    lessons: tuple[str, ...]


def seated(record: Record) -> tuple[str, ...]:
    """A record's table, clockwise from the deal's forehand; a fourth player, sitting out, at
    the dealer's right."""
    names, out = record.names, record.sitting_out
    return (*names[:2], out, names[2]) if out else tuple(names)


def _known(data: Mapping[Any, Any], allowed: Sequence[str], where: str) -> None:
    fault = unknown_field(data, allowed, f"known: {', '.join(allowed)}")
    if fault is not None:
        raise LessonError(f"{where}: {fault}")


def _key(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or any(c.isspace() for c in value):
        raise LessonError(f"{where}: a text is a catalog key such as 'deal_suits.s1', not {value!r}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(type(v) is int and 1 <= v <= 40 for v in value):
        raise LessonError(f"{where}: a list of bid-table rows (1–40)")
    return tuple(value)


def read_lesson(data: Any, name: str = "lesson") -> Lesson:
    """Check a loaded lesson and build it; any fault is one :class:`LessonError`."""
    if not isinstance(data, dict):
        raise LessonError(f"{name}: a lesson is a YAML mapping")
    _known(data, FIELDS + OPTIONAL, name)
    for key in FIELDS:
        if key not in data:
            raise LessonError(f"{name}: missing field {key}")
    if type(data["lesson"]) is not int or data["lesson"] != VERSION:
        raise LessonError(f"{name}: unknown lesson version {data['lesson']!r} (this program reads {VERSION})")
    ident = _key(data["id"], name)
    where = f"lesson {ident}"
    try:
        record = read_record(data["record"])
        actions = tuple(record_actions(record))
    except RecordError as exc:
        raise LessonError(f"{where}: record: {exc}") from None
    you = str(data["you"])
    if you not in record.names:
        raise LessonError(f"{where}: you: {you!r} is not one of the players")
    seat = record.names.index(you)
    deal = record.deal.clone()
    positions = [deal.clone()]
    for i, action in enumerate(actions, 1):
        try:
            deal.apply(action)
        except ViraError as exc:
            raise LessonError(f"{where}: record action {i} ({record.actions[i - 1][1]}): {exc}") from None
        positions.append(deal.clone())
    steps_in = data["steps"]
    if not isinstance(steps_in, list) or not steps_in:
        raise LessonError(f"{where}: steps must be a non-empty list")
    steps: list[Step] = []
    last = 0
    for n, raw in enumerate(steps_in, 1):
        at_step = f"{where}, step {n}"
        if not isinstance(raw, dict):
            raise LessonError(f"{at_step}: a step is a mapping")
        _known(raw, STEP_FIELDS, at_step)
        at = raw.get("at", last)
        if type(at) is not int or not last <= at <= len(actions):
            raise LessonError(f"{at_step}: at must be a position from {last} to {len(actions)}, not {at!r}")
        ask, question = None, None
        if isinstance(raw.get("ask"), dict) and "question" in raw["ask"]:
            question = _question(raw["ask"], record, at_step)
            last = at  # nothing is played: the answer is a choice on the card
        elif "ask" in raw:
            ask = _checkpoint(raw["ask"], positions[at], actions[at] if at < len(actions) else None, seat, at_step)
            last = at + 1  # the learner's answer is played
        else:
            last = at
        try:
            cards = tuple(Card.parse(str(c)) for c in raw.get("cards") or ())
        except ValueError as exc:
            raise LessonError(f"{at_step}: cards: {exc}") from None
        say = _key(raw.get("say"), f"{at_step}: say")
        claims = _claims(raw.get("claims"), positions, at, record.names, at_step)
        steps.append(Step(at, say, _ints(raw.get("rows"), at_step), cards, ask, question, claims))
    if not deal.is_over:  # a wrong answer's play-out is set against the lesson's own result
        raise LessonError(f"{where}: record: the main line plays the deal to its end (it stops after {len(actions)})")
    teaches = _ints(data["teaches"], f"{where}: teaches")
    if teaches and not any(s.ask for s in steps):
        raise LessonError(f"{where}: a lesson that teaches bid-table rows has a checkpoint")
    title = _key(data["title"], f"{where}: title")
    pulla = data.get("pulla")
    if pulla is not None and (type(pulla) is not int or not 0 <= pulla <= PULLA_MAX):
        raise LessonError(f"{where}: pulla: the bets in the pulla as the lesson opens, 0 to {PULLA_MAX}, not {pulla!r}")
    return Lesson(ident, str(data["chapter"]), title, teaches, seat, record, actions, tuple(steps), pulla)


def _checkpoint(raw: Any, deal: Deal, main: Action | None, seat: int, where: str) -> Checkpoint:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: ask is a mapping")
    _known(raw, ASK_FIELDS, f"{where}: ask")
    if main is None or main.seat != seat:
        raise LessonError(f"{where}: the record's next action is not the learner's: nothing to ask")
    decision = deal.decision()
    if decision is None or decision.seat != seat:
        raise LessonError(f"{where}: the learner is not asked anything here")

    def answer(text: Any) -> Action:
        try:
            action = parse_action(str(text), seat)
            deal.check(action)
        except (ValueError, ViraError) as exc:
            raise LessonError(f"{where}: answer {text!r}: {exc}") from None
        return action

    accept = [main] + [a for a in (answer(x) for x in raw.get("accept") or ()) if a != main]
    why_in = raw.get("why") or {}
    if not isinstance(why_in, dict):
        raise LessonError(f"{where}: why maps a wrong answer (or a class: {', '.join(CLASSES)}) to its explanation")
    why: dict[Action | str, str] = {
        (str(k) if str(k) in CLASSES else answer(k)): _key(v, f"{where}: why") for k, v in why_in.items()
    }
    good_in = raw.get("good") or {}
    if not isinstance(good_in, dict):
        raise LessonError(f"{where}: good maps an answer as good as the record's to its own text")
    good = {answer(k): _key(v, f"{where}: good") for k, v in good_in.items()}
    named = set(accept) | set(good)
    if named & set(why):
        raise LessonError(f"{where}: an answer is both accepted and explained as wrong")
    return Checkpoint(
        tuple(accept),
        _key(raw.get("hint"), f"{where}: hint"),
        _key(raw.get("right"), f"{where}: right"),
        _key(raw.get("wrong"), f"{where}: wrong"),
        why,
        good,
        _choose(raw.get("choose"), deal, main, where),
    )


def _claims(raw: Any, positions: Sequence[Deal], at: int, names: Sequence[str], where: str) -> tuple[Claim, ...]:
    """A step's claims, each checked against the engine at its position (:mod:`.claims`)."""
    try:
        claims = read_claims(raw, where)
        for n, claim in enumerate(claims, 1):
            position = at if claim.at is None else claim.at
            if not 0 <= position < len(positions):
                raise ClaimError(f"{where}: claim {n}: at must be a position from 0 to {len(positions) - 1}")
            check(claim, positions[position], names, f"{where}: claim {n}")
    except ClaimError as exc:
        raise LessonError(str(exc)) from None
    return claims


def _question(raw: dict[Any, Any], record: Record, where: str) -> Question:
    """A question checkpoint (``ask: {question: …}``, see :mod:`.question`) at the record's table."""
    texts: dict[str, Any] = {k: _key(raw.get(k), f"{where}: {k}") for k in ("hint", "right", "wrong")}
    why = raw.get("why") or {}
    if not isinstance(why, dict):
        raise LessonError(f"{where}: why maps a choice (a name, a number) to its own explanation")
    texts["why"] = {str(k): _key(v, f"{where}: why") for k, v in why.items()}
    try:
        return read_question(raw, seated(record), texts, where)
    except QuestionError as exc:
        raise LessonError(str(exc)) from None


def _choose(raw: Any, deal: Deal, main: Action, where: str) -> CardRule | None:
    """A card rule (``choose: {always: [...], any_of: [...]}``): the record's answer obeys it,
    and every card it names is one the learner may choose."""
    if raw is None:
        return None
    choice = deal.decision().choice
    if not isinstance(raw, dict) or choice is None or not isinstance(main, choice.action):
        raise LessonError(f"{where}: choose is a card rule, for a choice of cards only")
    _known(raw, CHOOSE_FIELDS, f"{where}: choose")
    try:
        always, any_of = (frozenset(Card.parse(str(c)) for c in raw.get(k) or ()) for k in CHOOSE_FIELDS)
    except ValueError as exc:
        raise LessonError(f"{where}: choose: {exc}") from None
    if not (always | any_of) <= set(choice.candidates):
        raise LessonError(f"{where}: choose names a card the learner cannot choose here")
    rule = CardRule(always, any_of)
    if not rule.admits(main.cards):
        raise LessonError(f"{where}: choose does not admit the record's own answer")
    return rule


# ---------------------------------------------------------------------- the shipped lessons
PACKAGE = resources.files(__package__) / "lessons"


def _yaml(name: str) -> Any:
    try:
        return parse_yaml((PACKAGE / name).read_text(encoding="utf-8"))
    except RecordError as exc:
        raise LessonError(f"{name}: {exc}") from None


@cache
def chapters() -> tuple[Chapter, ...]:
    """The contents map, a term taught before it is used (``lessons/contents.yaml``)."""
    data = _yaml("contents.yaml")
    out = []
    for raw in data["chapters"]:
        out.append(Chapter(str(raw["id"]), str(raw["title"]), tuple(str(x) for x in raw.get("lessons") or ())))
    return tuple(out)


@cache
def solver_checked() -> dict[str, dict[int, dict[str, Any]]]:
    """For each lesson's card-play checkpoints (by step), the cards the solver accepts as good:
    equivalent from the learner's seat, or as good on what the learner could see
    (``lessons/solver.yaml``, written by ``scripts/lesson_solver.py``)."""
    data = _yaml("solver.yaml") or {}
    return {str(k): {int(n): dict(v) for n, v in steps.items()} for k, steps in data.items()}


@cache
def lesson(ident: str) -> Lesson:
    """A shipped lesson by its id (file ``lessons/<id>.yaml``)."""
    made = read_lesson(_yaml(f"{ident}.yaml"), f"{ident}.yaml")
    if made.id != ident:
        raise LessonError(f"{ident}.yaml: its id says {made.id!r}")
    return made


def chapter_index(chapter: str) -> int:
    """Where chapter ``chapter`` (its id) stands in the contents map (0 if it is not there)."""
    return next((i for i, c in enumerate(chapters()) if c.id == chapter), 0)


@cache
def lessons_by_row() -> dict[int, str]:
    """For each bid-table row, the first lesson (in the contents map's order) that teaches it."""
    out: dict[int, str] = {}
    for chapter in chapters():
        for ident in chapter.lessons:
            for row in lesson(ident).teaches:
                out.setdefault(row, ident)
    return out


CHAPTERS = (  # a term taught before it is used: the auction before trick play, the payments before the games
    "deal",
    "auction",
    "tricks",
    "tokens",
    "payments",
    "buying",
    "turned",
    "gask",
    "gok",
    "laggard",
    "kopmisar",
    "solo",
    "solo_misere",
    "vira",
    "agren",
    "session",
    "borup",
)
