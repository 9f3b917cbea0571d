"""The three languages: the catalogs agree with each other and with the code, the player's
language follows the system until chosen, numbers are written as each language writes them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from vira_desktop import i18n
from vira_desktop.i18n import CATALOGS, LANGUAGES, configure, number, system_language, t
from vira_desktop.tutorial.lesson import chapters, lesson

PACKAGE = Path(i18n.__file__).parent
PLACEHOLDER = re.compile(r"%\{(\w+)\}")


PLURAL_FORMS = {"zero", "one", "few", "many", "other"}


def flat(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Dotted keys to texts; a plural entry ({"one": …, "other": …}) is one key, its forms
    joined (each must have the same placeholders, and "other" must be there)."""
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict) and set(value) <= PLURAL_FORMS:
            assert "other" in value, f"{prefix}{key}: a plural needs its 'other' form"
            out[f"{prefix}{key}"] = " | ".join(value[form] for form in sorted(value))
        elif isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def catalog(language: str) -> dict[str, str]:
    data = json.loads((CATALOGS / f"vira.{language}.json").read_text(encoding="utf-8"))
    assert list(data) == [language], "a catalog's root is its language"
    return flat(data[language])


@pytest.fixture(autouse=True)
def english() -> Any:
    yield
    configure("en")


def test_the_three_catalogs_have_the_same_keys_and_placeholders_and_no_empty_text() -> None:
    english_keys = catalog("en")
    for language in LANGUAGES:
        texts = catalog(language)
        assert set(texts) == set(english_keys), f"{language}: {set(texts) ^ set(english_keys)}"
        for key, text in texts.items():
            assert isinstance(text, str) and text.strip(), f"{language}: {key} is empty"
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english_keys[key])), (language, key)


def used_keys() -> tuple[set[str], set[str]]:
    """Keys the code asks for: literal ones, and the prefixes of keys built from data."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        literal |= set(re.findall(r"""\b(?:t|mark|tell)\(\s*["']([a-z0-9_.]+)["']""", text))
        literal |= set(re.findall(r"""["']vira\.([a-z0-9_.]+)["']""", text))
        prefixes |= set(re.findall(r"""\bt\(\s*f["']([a-z0-9_.]+\.)\{""", text))
        prefixes |= set(re.findall(r"""f["']vira\.([a-z0-9_.]+\.)\{""", text))
        # the engine's refusals and the bots' reasons carry their keys: Refusal("must_follow", …)
        literal |= {
            f"{kind.lower()}.{key}" for kind, key in re.findall(r"""\b(Refusal|Reason)\(\s*["']([a-z_]+)["']""", text)
        }
    return literal, prefixes


def test_every_key_in_the_code_is_in_the_catalogs_and_every_catalog_key_is_used() -> None:
    """A key is used if the code names it (in ``t()``, ``mark()``, any string of a key's shape)
    or builds it from a prefix; ``key_you`` is the player's own form of ``key``."""
    texts = catalog("en")
    literal, prefixes = used_keys()
    assert literal - set(texts) == set(), "asked for but missing from the catalogs"
    named = literal | {k for path in PACKAGE.rglob("*.py") for k in KEY_SHAPE.findall(path.read_text("utf-8"))}
    named |= {f"{k}_you" for k in named}
    # the lessons name their own texts (in their YAML files), so "lesson." is no prefix that uses all
    prefixes.discard("lesson.")
    named |= {f"lesson.{k}" for c in chapters() for k in (c.title, *(x for i in c.lessons for x in lesson(i).texts()))}
    unused = {k for k in texts if k not in named and not any(k.startswith(p) for p in prefixes)}
    assert unused == set(), "in the catalogs but never used"


KEY_SHAPE = re.compile(r"""["']([a-z_]+(?:\.[a-z0-9_]+)+)["']""")


def test_a_missing_key_fails_and_never_shows_its_name() -> None:
    with pytest.raises(KeyError, match=re.escape("no text for 'menu.no_such_entry'")):
        t("menu.no_such_entry")


def test_each_language_says_its_own_words() -> None:
    said = {}
    for language in LANGUAGES:
        configure(language)
        said[language] = t("menu.new_game")
    assert said == {"sv": "Nytt spel", "en": "New game", "fi": "Uusi peli"}


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LANG": "sv_FI.UTF-8"}, "sv"),
        ({"LC_ALL": "fi_FI", "LANG": "en_GB"}, "fi"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
    ],
)
def test_the_default_language_follows_the_system_locale(environ: dict[str, str], language: str) -> None:
    assert system_language(environ) == language


def test_numbers_are_written_as_each_language_writes_them() -> None:
    configure("sv")
    assert number(-1234.5, 1) == "−1\u00a0234,5"
    configure("fi")
    assert number(0.25, 2) == "0,25"
    configure("en")
    assert number(1234) == "1,234"


def test_pygame_gui_speaks_swedish_and_finnish_too() -> None:
    """pygame-gui ships no Swedish or Finnish for its own widget strings: the project adds them,
    with the same keys as its English file."""
    import pygame_gui

    shipped = Path(pygame_gui.__file__).parent / "data" / "translations" / "pygame-gui.en.json"
    english = json.loads(shipped.read_text(encoding="utf-8"))["en"]
    for language in ("sv", "fi"):
        ours = json.loads((CATALOGS / f"pygame-gui.{language}.json").read_text(encoding="utf-8"))[language]
        assert set(ours) == set(english) and all(ours.values())


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_glossary_term_is_explained_in_every_catalog_and_nothing_else_is(language: str) -> None:
    """One list of Vira's words (rules/glossary.py), the sheet's and the lessons' alike; each
    explained in every language."""
    from vira_desktop.rules.glossary import GLOSSARY_TERMS

    texts = catalog(language)
    explained = {key.removeprefix("glossary.term.") for key in texts if key.startswith("glossary.term.")}
    assert explained == {slug for slug, _ in GLOSSARY_TERMS}
    assert all(texts[f"glossary.term.{slug}"].strip() for slug, _ in GLOSSARY_TERMS)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_glossary_shows_every_meaning_whole_inside_its_page(language: str) -> None:
    """Each entry once, in order, wrapped but never cut, above the sheet's note; one page in
    every language today (the sheet pages if the words outgrow it)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from vira_desktop.rules.glossary import GLOSSARY_TERMS
    from vira_desktop.scenes.overlays import GLOSSARY_BOTTOM, GLOSSARY_LINE, glossary_pages
    from vira_desktop.scenes.theme import font

    pygame.init()
    font.cache_clear()  # fonts made under an earlier pygame.init (another test's window) are no longer valid
    configure(language)
    pages = glossary_pages()
    entries = [entry for page in pages for entry in page]
    assert [slug for _, _, _, slug, _ in entries] == [slug for slug, _ in GLOSSARY_TERMS]
    for _, y, _, slug, lines in entries:
        assert " ".join(lines) == t(f"glossary.term.{slug}"), slug  # nothing cut
        assert y + len(lines) * GLOSSARY_LINE <= GLOSSARY_BOTTOM, slug
    assert len(pages) == 1


# Words the sources do not use, by the catalogs they must stay out of (issue 20): Swedish says
# efterhand, omköp, turnéra om / vingla om; Finnish pinna, kierros, and the games' Swedish names.
BANNED_TERMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("bakhand", r"\bbakhand", tuple(LANGUAGES)),
    ("återköp", r"återköp", tuple(LANGUAGES)),
    ("köp om", r"\bköp(?:a|er|te|t)? om\b", ("sv",)),
    ("vänd igen", r"\bvän(?:d|da|der|de|ds|t)? igen\b", ("sv",)),
    ("tappi", r"\bta(?:ppi(?!o)|pi|ppe|pe)\w*", ("fi",)),  # not tappio, a loss
    ("kiekko", r"\bkie(?:kko|ko)\w*", ("fi",)),
    ("N-peli", r"\d-pel[ie]", ("fi",)),
    ("motspelare", r"\bmotspelar", ("sv",)),  # the quick reference: motståndarna, försvararna
    ("bekänna", r"\bbekän", ("sv",)),  # följa färg
    ("stjäla", r"\bstj[äa]l|\bstulit", ("sv",)),  # trumfa
    ("uusintaosto", r"uusintaost", ("fi",)),  # the Finnish summary: ostaa uudelleen
    ("tunnustaa maata", r"\btunnust", ("fi",)),  # the Finnish summary: maapakko
)


def test_no_catalog_uses_a_term_the_sources_do_not() -> None:
    """Every text of every catalog (lessons too, and pygame-gui's) is free of the words the
    rulebook and the Swedish and Finnish summaries do not use."""
    found = []
    for language in LANGUAGES:
        texts = catalog(language)
        gui = CATALOGS / f"pygame-gui.{language}.json"
        if gui.exists():
            texts |= {f"pygame-gui.{k}": v for k, v in json.loads(gui.read_text(encoding="utf-8"))[language].items()}
        for term, pattern, languages in BANNED_TERMS:
            if language in languages:
                found += [(language, key, term) for key, text in texts.items() if re.search(pattern, text, re.I)]
    assert found == []


def test_the_banned_terms_are_found_where_they_would_stand() -> None:
    """The patterns above catch the words in their inflected forms, and spare their neighbours."""
    said = {
        "bakhand": "sedan Bakhand",
        "återköp": "efter återköpet",
        "köp om": "köpte om med 2♣",
        "vänd igen": "att vända igen",
        "tappi": "3 tappia ja tapit",
        "kiekko": "kiekoilla",
        "N-peli": "Bertil tarjosi 9-peliä",
        "motspelare": "Motspelarna har köpt",
        "bekänna": "Båda bekände till ♥A",
        "stjäla": "de andra stjäl dina spader",
        "uusintaosto": "Uusintaoston jälkeen",
        "tunnustaa maata": "Molemmat tunnustivat ♥A:han",
    }
    for term, pattern, _ in BANNED_TERMS:
        assert re.search(pattern, said[term], re.I), term
    assert not any(re.search(p, "tappio, tappiota, tapauksessa, 7-spelin", re.I) for _, p, _ in BANNED_TERMS)


def test_the_engines_refusals_are_said_in_the_players_language() -> None:
    import pickle

    from vira_desktop.rules.actions import PlayCard
    from vira_desktop.rules.deal import Deal
    from vira_desktop.rules.errors import IllegalAction, Refusal
    from vira_desktop.session.words import say_refusal

    deal = Deal.from_number(7)
    refusal = Refusal("must_follow", "must follow suit in hearts", suit="H")
    assert pickle.loads(pickle.dumps(refusal)).values == {"suit": "H"}  # it crosses to the worker intact
    configure("sv")
    assert say_refusal(IllegalAction(refusal), ["Anna", "Bo", "Cissi"]) == "du måste följa färg i hjärter"
    try:
        deal.check(PlayCard((deal.to_act + 1) % 3, deal.hand((deal.to_act + 1) % 3)[0]))
    except IllegalAction as exc:
        configure("fi")
        assert say_refusal(exc, ["Anna", "Bo", "Cissi"]).startswith("on pelaajan")
    else:
        raise AssertionError("playing out of turn was not refused")


def test_a_keyed_texts_english_in_the_code_is_the_english_catalogs() -> None:
    """Refusals and reasons are written in English in the code (for the command line and the
    logs) and in the catalog (for the window): the two must say the same."""
    texts = catalog("en")
    pairs = [
        (f"{kind.lower()}.{key}", english)
        for path in PACKAGE.rglob("*.py")
        for kind, key, english in re.findall(
            r"""\b(Refusal|Reason)\(\s*"([a-z_]+)",\s*"([^"{}]*)"\s*\)""", path.read_text(encoding="utf-8")
        )
    ]
    assert len(pairs) > 30
    assert [(key, english) for key, english in pairs if texts[key] != english] == []


def test_no_text_hedges_a_plural_with_brackets() -> None:
    """"card(s)", "färg(er)": a count's noun agrees with it through the plural forms instead."""
    for language in LANGUAGES:
        hedged = {k: v for k, v in catalog(language).items() if re.search(r"\w\((s|er|ar|a|ä)\)", v)}
        assert hedged == {}, language


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "choose 1 card to keep, then Enter", "choose the 2 cards to keep, then Enter"),
        ("sv", "välj 1 kort att behålla, sedan Enter", "välj de 2 kort du behåller, sedan Enter"),
        ("fi", "valitse 1 kortti pidettäväksi ja paina Enter", "valitse 2 korttia pidettäväksi ja paina Enter"),
    ],
)
def test_a_count_of_one_is_said_in_the_singular(language: str, one: str, two: str) -> None:
    from vira_desktop.rules.actions import Keep
    from vira_desktop.rules.decision import CardChoice
    from vira_desktop.rules.errors import Keyed
    from vira_desktop.rules.ledger import Settlement
    from vira_desktop.scenes.table.panel import choice_prompt
    from vira_desktop.session.words import say_keyed

    configure(language)
    assert choice_prompt(CardChoice(Keep, 0, (), 1, 1)) == one
    assert choice_prompt(CardChoice(Keep, 0, (), 2, 2)) == two
    singular = {
        "en": ("1 pin under", "the last pin goes", "in 1 suit"),
        "sv": ("1 pinne under", "den sista pinnen", "i 1 färg"),
        "fi": ("1 pinna pullan", "viimeisen pinnan", "1 matala maa"),
    }[language]
    assert singular[0] in t("table.sexmastare", count=1)
    settled = Settlement(pulla_bets=2, shares={"A": 5, "B": 5, "C": 6}, remainder_to=("C",), results={})
    assert settled.last_pins == 1  # 16 pins among three: 5 each and one over
    assert singular[1] in t("sheet.settle.remainder", count=settled.last_pins, names="C").lower()
    assert singular[2] in say_keyed(Keyed("pass_gok", "", count=1), "reason")


def test_the_glossary_says_what_the_number_in_a_games_name_counts() -> None:
    """A newcomer met "7-spel", "turné 6" and "solo 7" with nothing to say what the numbers
    were (the rulebook: tricks to take in the games with trump, cards kept in gask, cards
    bought away in köpmisär); the glossary's 7-spel entry says it, in every language."""
    from vira_desktop.rules.glossary import GLOSSARY_TERMS

    assert ("spel", "7-spel / 8-spel / 9-spel") in GLOSSARY_TERMS
    for lang in ("en", "sv", "fi"):
        i18n.configure(lang)
        said = i18n.t("glossary.term.spel")
        assert all(word in said for word in ("7", "8", "9", "gask", "köpmisär", "turné", "solo")), (lang, said)
    i18n.configure("en")
