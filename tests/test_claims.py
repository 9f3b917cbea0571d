"""A lesson's words about what is legal are checked by the engine: every claim of every lesson
holds at its position, a false claim is refused with what the engine finds instead, and the lint
finds every text (in each language) that says what may, must or cannot be done without a claim
beside it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from vira_desktop.i18n import CATALOGS
from vira_desktop.rules.deal import Deal
from vira_desktop.session.record import parse_yaml
from vira_desktop.tutorial.claims import ClaimError, check, lists_choices, read_claims, words_of_a_claim
from vira_desktop.tutorial.lesson import PACKAGE, Lesson, LessonError, Step, chapters, lesson, read_lesson

LANGUAGES = ("en", "sv", "fi")
LESSONS = [ident for c in chapters() for ident in c.lessons]


def step_texts(step: Step) -> list[str]:
    """The catalog keys (under ``lesson.``) a step shows: its text, and its checkpoint's or question's."""
    keys = [step.say]
    if step.ask is not None:
        keys += [step.ask.hint, step.ask.right, step.ask.wrong, *step.ask.why.values(), *step.ask.good.values()]
    if step.question is not None:
        keys += [step.question.hint, step.question.right, step.question.wrong, *step.question.why.values()]
    return keys


def flat(tree: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from flat(value, f"{prefix}{key}.")
    else:
        yield prefix[:-1], str(tree)


@cache
def texts(language: str) -> dict[str, str]:
    """The lesson texts of one catalog, by their full key (``lesson.vingel_6.s1``)."""
    data = json.loads((CATALOGS / f"vira.{language}.json").read_text(encoding="utf-8"))[language]
    return {key: text for key, text in flat(data) if key.startswith("lesson.")}


def unbacked(taught: Lesson) -> list[str]:
    """Each text of ``taught`` that says what is legal where its step has no claim (or lists the
    declarer's choices where its step has no ``choices`` claim): one line each."""
    out = []
    for n, step in enumerate(taught.steps, 1):
        for key in dict.fromkeys(step_texts(step)):
            for language in LANGUAGES:
                text = texts(language).get(f"lesson.{key}", "")
                words = words_of_a_claim(text, language)
                if words is not None and not step.claims:
                    out.append(f"{taught.id} step {n}: {key} [{language}] says {words!r} with no claim beside it")
                if lists_choices(text, language) and not any(c.choices is not None for c in step.claims):
                    out.append(f"{taught.id} step {n}: {key} [{language}] lists the choices with no choices claim")
    return out


def test_every_text_that_says_what_is_legal_has_a_claim_beside_it() -> None:
    faults = [line for ident in LESSONS for line in unbacked(lesson(ident))]
    assert not faults, "\n".join(faults)


def test_every_claim_is_checked_by_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    """Reading a lesson checks its claims (a false one refuses the lesson); this counts them."""
    claims = [c for ident in LESSONS for s in lesson(ident).steps for c in s.claims]
    steps = sum(1 for ident in LESSONS for s in lesson(ident).steps if s.claims)
    facts = sum(c.assertions for c in claims)
    with capsys.disabled():
        print(f"\n{len(claims)} claims on {steps} steps, {facts} facts checked against the engine")
    assert steps >= 40 and facts >= len(claims)


# ---------------------------------------------------------------------- the lint, by example
OLD_FALSE_TEXTS = {  # vingel_6.s1 and tringel_9.s1 as they stood, teaching a false rule
    "en": [
        "Anna opened 7-spel (row 3). To outbid her you need row 4 or higher. You hold an ace in every suit, "
        "but no long suit.",
        "Diamonds are the highest suit. Anna opened gask 4 (row 21); as middle-hand you must go higher. "
        "You hold A K in every suit, and Q♠ too.",
    ],
    "sv": [
        "Anna öppnade med 7-spel (rad 3). För att bjuda över behöver du rad 4 eller högre.",
        "Ruter är högsta färg. Anna öppnade med gask 4 (rad 21); som mellanhand måste du gå högre.",
    ],
    "fi": [
        "Anna avasi 7-spelillä (rivi 3). Ylittääksesi tarvitset rivin 4 tai ylemmän.",
        "Ruutu on korkein väri. Anna avasi gask 4:llä (rivi 21); keskikätenä sinun on mentävä ylemmäs.",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lint_finds_the_false_lessons_words_in_each_language(language: str) -> None:
    for text in OLD_FALSE_TEXTS[language]:
        assert words_of_a_claim(text, language) is not None, text


def test_the_lint_leaves_strategy_alone() -> None:
    for text in ("You cannot win this trick: play low.", "A two cannot win while the others hold the suit."):
        assert words_of_a_claim(text, "en") is None
    assert lists_choices("Your move: play, lay down or repurchase?", "en")
    assert not lists_choices("Play it out.", "en")


def test_the_false_lesson_is_refused_by_its_own_claim() -> None:
    """vingel_6's old words as a claim: the engine finds 7-spel in suit lower than row 4."""
    data = parse_yaml((PACKAGE / "vingel_6.yaml").read_text(encoding="utf-8"))
    data["steps"][0]["claims"] = [{"lowest_bid": "vingel 6"}]
    with pytest.raises(LessonError, match="'7-spel in suit' is lower"):
        read_lesson(data, "vingel_6.yaml")


# ---------------------------------------------------------------------- each assertion
NAMES = ("Anna", "Bertil", "Cecilia")


def at_claim(raw: Any, deal: Deal) -> None:
    (claim,) = read_claims([raw], "test")
    check(claim, deal, NAMES, "test")


def test_each_assertion_is_checked_and_a_false_one_says_what_the_engine_finds() -> None:
    deal = Deal.from_number(3)
    at_claim({"to_act": "Anna", "choices": ["bid"], "lowest_bid": "begär", "illegal": ["pass"]}, deal)
    at_claim({"after": ["7-spel"], "to_act": "Bertil", "lowest_bid": "7-spel in suit", "legal": ["pass"]}, deal)
    at_claim({"after": ["7-spel", "pass"], "illegal": ["7-spel in forehand"], "legal": ["7-spel in suit"]}, deal)
    at_claim({"after": ["köpmisär 2", "pass", "pass"], "cards": 2, "stock": 13, "choices": ["buy"]}, deal)
    at_claim({"after": ["turné 6", "pass", "pass", "turn"], "cards": {"min": 1, "max": 13}}, deal)
    for raw, said in (
        ({"to_act": "Bertil"}, "Anna acts here"),
        ({"legal": ["pass"]}, "the engine says"),
        ({"illegal": ["begär"]}, "it is"),
        ({"lowest_bid": "7-spel"}, "'begär' is lower"),
        ({"choices": ["bid", "pass"]}, "they are ['bid']"),
        ({"after": ["köpmisär 2", "pass", "pass"], "cards": {"min": 1}}, "2..2 may be chosen"),
        ({"stock": 12}, "it holds 13"),
        ({"after": ["pass"], "stock": 13}, "not legal"),
        ({"illegal": ["AS"]}, "not the kind of action asked here (auction)"),  # a review: it passed vacuously
    ):
        with pytest.raises(ClaimError, match=re.escape(said)):
            at_claim(raw, deal)


@pytest.mark.parametrize(
    "raw",
    [{"legal": "x", "colour": 1}, {"at": -1, "stock": 1}, {"after": ["pass"]}, {"cards": {"least": 1}}, "stock"],
)
def test_a_malformed_claim_is_refused_with_one_message(raw: object) -> None:
    with pytest.raises(ClaimError):
        read_claims([raw], "test")
