"""The player's language: Swedish, English or Finnish, through python-i18n.

pygame-gui 0.6 translates its widgets with python-i18n; the game's own words live in the
same system, in JSON catalogs under the ``vira`` namespace (``translations/vira.sv.json``
…), so that one ``set_locale`` switches every text at once. A text is asked for by key::

    t("menu.new_game")                          # "Nytt spel"
    t("language.system", language="Svenska")    # "som systemet (Svenska)": %{language} in the catalog

The games' names and Vira's own terms (gask, köpmisär, pulla, bet, kodilj …) are the same
in every language; the glossary explains them. A key missing from the player's language
falls back to English, never to the key itself; the tests fail on any missing key.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import i18n

__all__ = ["CATALOGS", "LANGUAGES", "configure", "current", "every_language", "mark", "number", "system_language", "t"]

LANGUAGES = {"sv": "Svenska", "en": "English", "fi": "Suomi"}  # Swedish first: the game's own
CATALOGS = Path(__file__).parent / "translations"
NAMESPACE = "vira"
_state = {"language": "en"}


def configure(language: str, extra: str | None = None) -> None:
    """Use ``language`` from now on (the catalogs are found on the first call); ``extra`` is
    one more folder of catalogs (the tests' pseudo-language)."""
    for folder in (str(CATALOGS), extra):
        if folder and folder not in i18n.load_path:
            i18n.load_path.append(folder)
    i18n.set("file_format", "json")
    i18n.set("filename_format", "{namespace}.{locale}.{format}")
    i18n.set("fallback", "en")
    i18n.set("enable_memoization", True)
    i18n.set("available_locales", [*LANGUAGES, *([language] if language not in LANGUAGES else [])])
    i18n.set("locale", language)
    _state["language"] = language
    _said.clear()


def current() -> str:
    return _state["language"]


_said: dict[tuple[str, tuple[tuple[str, object], ...]], str] = {}  # texts already made, this language


def t(key: str, **values: object) -> str:
    """The text of ``key`` in the player's language, its ``%{placeholders}`` filled (kept:
    a frame asks for the same few dozen texts again and again)."""
    asked = (key, tuple(sorted(values.items())))
    text = _said.get(asked)
    if text is not None:
        return text
    if str(CATALOGS) not in i18n.load_path:
        configure(_state["language"])
    made = i18n.t(f"{NAMESPACE}.{key}", **values)
    if made == f"{NAMESPACE}.{key}":
        raise KeyError(f"no text for {key!r} in the catalogs")
    if len(_said) > 4096:
        _said.clear()
    _said[asked] = str(made)
    return str(made)


@cache
def every_language(key: str) -> frozenset[str]:
    """The text of ``key`` in each of the game's languages (a name typed in one language is
    still recognised after a switch: "You", "Du", "Sinä")."""
    if str(CATALOGS) not in i18n.load_path:
        configure(_state["language"])
    return frozenset(str(i18n.t(f"{NAMESPACE}.{key}", locale=code)) for code in LANGUAGES)


def mark(key: str) -> str:
    """A catalog key kept to be translated later (gettext's ``N_``): the key itself, marked so
    that the tests find it among the keys the code uses."""
    return key


def system_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system's locale: sv for sv_SE (or sv_FI), fi for fi_FI, else en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value:
            return _language_of(value)
    try:
        value = locale.getlocale()[0] or ""
    except ValueError:
        value = ""
    return _language_of(value)


def _language_of(tag: str) -> str:
    code = tag.split(":")[0].replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else "en"


def number(value: float, decimals: int = 0) -> str:
    """A number as the player's language writes it: a decimal comma in Swedish and Finnish,
    a space between thousands, and a real minus sign."""
    text = f"{abs(value):,.{decimals}f}"
    if current() in ("sv", "fi"):
        text = text.replace(",", "\u00a0").replace(".", ",")
    return ("−" if value < 0 else "") + text
