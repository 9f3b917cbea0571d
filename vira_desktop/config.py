"""Settings: defaults in code, the user's ``config.yaml`` layered on top, validated.

Every key is known in advance; an unknown key or a value of the wrong type is
reported with the key's full name (``house_rules.gok_reentry: expected true
or false, got 'yes please'``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from .i18n import t
from .rules.errors import Keyed, ViraError
from .rules.houserules import HOUSE_RULE_NAMES, PULLA_TABLE, HouseRules, pulla_rows
from .rules.ledger import Kind

__all__ = [
    "DEFAULTS",
    "ConfigError",
    "Problem",
    "Settings",
    "load_settings",
    "merge",
    "salvage",
    "say_problem",
    "say_problems",
    "validate",
]


class ConfigError(ViraError):
    """A settings file with unknown keys or wrong values: every problem found, each an
    English text that keeps its catalog key (:class:`Problem`) where the game has one."""

    def __init__(self, *problems: str) -> None:
        super().__init__("; ".join(problems))
        self.problems: tuple[str, ...] = problems


class Problem(Keyed):
    """One thing wrong with the settings (catalog keys under ``config.problem.``)."""


def say_problem(problem: object) -> str:
    """A problem in the player's language (a text without a key as it is)."""
    if not isinstance(problem, Keyed):
        return str(problem)
    values = {k: say_problem(v) if isinstance(v, Keyed) else v for k, v in problem.values.items()}
    return t(f"config.problem.{problem.key}", **values)


def say_problems(problems: Sequence[object]) -> str:
    """Every problem, in the player's language, one after the other."""
    return "; ".join(say_problem(p) for p in problems)


DEFAULTS: dict[str, Any] = {
    "house_rules": {
        "aces_low_in_all_miseres": False,
        "royale_defenders_see_each_other": False,
        "gok_reentry": False,
        "pulla_table": {},
    },
    "session": {"bowl": {"triangle": 2, "bet": 20, "round": 10, "pin": 20}, "players": 3},
    "display": {
        "animation_speed": "normal",
        "window": [1280, 800],
        "four_colour_deck": False,
        "card_back": "blue",
        "language": "system",  # the system locale's (sv, fi, else en) until the player chooses
        "wait_after_trick": False,  # each finished trick stays face up until a click or a key
        "coach_grid": "practice",  # the coach's colours in the bid grid: practice (not hot seat), always, never
    },
    "sound": {"enabled": True, "volume": 0.7},
    "bots": {"strong_seconds": 0.4},  # how long the strong bot may think over one decision
}

_CHOICES: dict[str, tuple[object, ...]] = {
    "display.animation_speed": ("instant", "fast", "normal", "slow"),
    "display.card_back": ("blue", "red"),
    "display.language": ("system", "sv", "en", "fi"),
    "display.coach_grid": ("practice", "always", "never"),
    "session.players": (3, 4),
}


def _check_value(key: str, default: Any, value: Any) -> Any:
    """``value`` for ``key`` (numbers normalised); raises :class:`ConfigError` with its problem."""
    got = repr(value)
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            allowed = ", ".join(str(c) for c in _CHOICES[key])
            raise _bad("one_of", f"{key}: expected one of {allowed}, got {got}", key, allowed=allowed, got=got)
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise _bad("bool", f"{key}: expected true or false, got {got}", key, got=got)
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _bad("number", f"{key}: expected a number, got {got}", key, got=got)
        if key == "sound.volume" and not 0 <= value <= 1:
            raise _bad("volume", f"{key}: expected a number from 0 to 1, got {got}", key, got=got)
        if key == "bots.strong_seconds" and not 0.05 <= value <= 10:
            raise _bad("think", f"{key}: expected seconds from 0.05 to 10, got {got}", key, got=got)
        return float(value)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _bad("whole", f"{key}: expected a whole number, got {got}", key, got=got)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise _bad("text", f"{key}: expected text, got {got}", key, got=got)
    elif isinstance(default, list):
        n = len(default)
        ok = isinstance(value, list) and len(value) == n
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
            raise _bad("numbers", f"{key}: expected a list of {n} whole numbers, got {got}", key, count=n, got=got)
    return value


def _bad(key: str, english: str, setting: str, **values: object) -> ConfigError:
    return ConfigError(Problem(key, english, setting=setting, **values))


def _check_pulla(key: str, value: Any) -> dict[str, Any]:
    try:
        pulla_rows(value, key)
    except ValueError as exc:
        reason = exc.args[0] if exc.args else None
        if isinstance(reason, Keyed):
            raise ConfigError(Problem(reason.key, reason, **reason.values)) from None
        raise ConfigError(str(exc)) from None
    return {str(row): cells for row, cells in value.items()}


def _check(data: Any, defaults: dict[str, Any], prefix: str, problems: list[str]) -> dict[str, Any]:
    """The good settings of ``data``; what is wrong with the others goes into ``problems``
    (every problem, not only the first)."""
    where = prefix.rstrip(".") or "settings"
    if not isinstance(data, dict):
        problems.append(Problem("mapping", f"{where}: expected a mapping", setting=where))
        return {}
    out: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if key not in defaults:
            known = ", ".join(defaults)
            problems.append(
                Problem("unknown_setting", f"{full}: unknown setting (known here: {known})", setting=full, known=known)
            )
            continue
        default = defaults[key]
        try:
            if full == "session.bowl":
                out[key] = _check_bowl(full, value, problems)
            elif isinstance(default, dict) and full != "house_rules.pulla_table":
                kept = _check(value, default, full + ".", problems)
                if kept:
                    out[key] = kept
            elif full == "house_rules.pulla_table":
                out[key] = _check_pulla(full, value)
            else:
                out[key] = _check_value(full, default, value)
        except ConfigError as exc:
            problems += exc.problems
    return out


def _check_bowl(key: str, value: Any, problems: list[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad("bowl_mapping", f"{key}: expected a mapping like {{bet: 20, pin: 20}}", key)
    out = {}
    for kind, count in value.items():
        try:
            if kind not in ("triangle", "bet", "round", "pin"):
                said = f"{key}.{kind}: unknown token (triangle, bet, round or pin)"
                raise _bad("unknown_token", said, f"{key}.{kind}")
            out[kind] = _check_value(f"{key}.{kind}", 0, count)
        except ConfigError as exc:
            problems += exc.problems
    return out


def validate(data: Any, defaults: dict[str, Any] = DEFAULTS, prefix: str = "") -> dict[str, Any]:
    """Check ``data`` against the known keys; returns it with numbers normalised. Raises
    :class:`ConfigError` with every problem found."""
    problems: list[str] = []
    out = _check(data, defaults, prefix, problems)
    if problems:
        raise ConfigError(*problems)
    return out


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` layered on ``base`` (mappings merged key by key)."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in ("pulla_table", "bowl"):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class Settings:
    """Validated settings with typed accessors for the parts the rules need."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data = merge(DEFAULTS, validate(data or {}))

    def house_rules(self) -> HouseRules:
        rules = self.data["house_rules"]
        changes = {name: rules[name] for name in HOUSE_RULE_NAMES}
        return HouseRules.from_changes({**changes, PULLA_TABLE: rules[PULLA_TABLE]})

    def bowl(self) -> dict[Kind, int]:
        return {Kind[k.upper()]: int(v) for k, v in self.data["session"]["bowl"].items()}

    def __getitem__(self, dotted: str) -> Any:
        value: Any = self.data
        for part in dotted.split("."):
            value = value[part]
        return value


def _read(path: Path) -> Any:
    """A settings file's YAML; raises :class:`ConfigError` when it is no settings file at all."""
    file = str(path)
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        detail = exc.__class__.__name__
        raise ConfigError(Problem("yaml", f"{file}: not valid YAML ({detail})", file=file, detail=detail)) from None
    except UnicodeDecodeError as exc:
        byte = exc.start + 1
        raise ConfigError(Problem("utf8", f"{file}: not UTF-8 text (byte {byte})", file=file, byte=byte)) from None
    except OSError as exc:
        detail = str(exc.strerror)
        said = f"{file}: cannot be read ({detail})"
        raise ConfigError(Problem("unreadable", said, file=file, detail=detail)) from None
    except (RecursionError, ValueError) as exc:
        detail = exc.__class__.__name__
        raise ConfigError(
            Problem("not_settings", f"{file}: not a settings file ({detail})", file=file, detail=detail)
        ) from None


def _in_file(path: Path, problem: str) -> str:
    return Problem("in_file", f"{path}: {problem}", file=str(path), problem=problem)


def load_settings(*paths: Path) -> Settings:
    """Defaults, then each existing file in order; a broken file raises ConfigError naming
    every problem of every file."""
    data: dict[str, Any] = {}
    problems: list[str] = []
    for path in paths:
        if not path.exists():
            continue
        problems_here: list[str] = []
        data = merge(data, _check(_read(path), DEFAULTS, "", problems_here))
        problems += [_in_file(path, p) for p in problems_here]
    if problems:
        raise ConfigError(*problems)
    return Settings(data)


def salvage(data: Any) -> tuple[dict[str, Any], list[str]]:
    """The settings of ``data`` that are good, and what was wrong with the others: one
    mistyped value must not cost the player every other choice (their language above all)."""
    problems: list[str] = []
    return _check(data, DEFAULTS, "", problems), problems


def salvage_settings(path: Path) -> Settings:
    """What can be kept of a settings file that :func:`load_settings` refused."""
    try:
        loaded = _read(path)
    except ConfigError:
        return Settings()
    return Settings(salvage(loaded)[0])
