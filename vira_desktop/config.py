"""Settings: defaults in code, the user's ``config.yaml`` layered on top, validated.

Every key is known in advance; an unknown key or a value of the wrong type is
reported with the key's full name (``house_rules.gok_reentry: expected true
or false, got 'yes please'``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from .rules.errors import ViraError
from .rules.houserules import HOUSE_RULE_NAMES, PULLA_TABLE, HouseRules, pulla_rows
from .rules.ledger import Kind

__all__ = ["DEFAULTS", "ConfigError", "Settings", "load_settings", "merge", "validate"]


class ConfigError(ViraError):
    """A settings file with an unknown key or a wrong value."""


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
}

_CHOICES: dict[str, tuple[object, ...]] = {
    "display.animation_speed": ("instant", "fast", "normal", "slow"),
    "display.card_back": ("blue", "red"),
    "display.language": ("system", "sv", "en", "fi"),
    "display.coach_grid": ("practice", "always", "never"),
    "session.players": (3, 4),
}


def _check_value(key: str, default: Any, value: Any) -> Any:
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            allowed = ", ".join(str(c) for c in _CHOICES[key])
            raise ConfigError(f"{key}: expected one of {allowed}, got {value!r}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {value!r}")
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{key}: expected a number, got {value!r}")
        if key == "sound.volume" and not 0 <= value <= 1:
            raise ConfigError(f"{key}: expected a number from 0 to 1, got {value!r}")
        return float(value)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{key}: expected a whole number, got {value!r}")
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected text, got {value!r}")
    elif isinstance(default, list):
        ok = isinstance(value, list) and len(value) == len(default)
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
            raise ConfigError(f"{key}: expected a list of {len(default)} whole numbers, got {value!r}")
    return value


def _check_pulla(key: str, value: Any) -> dict[str, Any]:
    try:
        pulla_rows(value, key)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return {str(row): cells for row, cells in value.items()}


def validate(data: Any, defaults: dict[str, Any] = DEFAULTS, prefix: str = "") -> dict[str, Any]:
    """Check ``data`` against the known keys; returns it with numbers normalised."""
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix.rstrip('.') or 'settings'}: expected a mapping")
    out: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if key not in defaults:
            known = ", ".join(defaults)
            raise ConfigError(f"{full}: unknown setting (known here: {known})")
        default = defaults[key]
        if full == "house_rules.pulla_table":
            out[key] = _check_pulla(full, value)
        elif full == "session.bowl":
            if not isinstance(value, dict):
                raise ConfigError(f"{full}: expected a mapping like {{bet: 20, pin: 20}}")
            out[key] = {k: _check_value(f"{full}.{k}", 0, v) for k, v in value.items() if _known_kind(full, k)}
        elif isinstance(default, dict):
            out[key] = validate(value, default, full + ".")
        else:
            out[key] = _check_value(full, default, value)
    return out


def _known_kind(key: str, kind: object) -> bool:
    if kind not in ("triangle", "bet", "round", "pin"):
        raise ConfigError(f"{key}.{kind}: unknown token (triangle, bet, round or pin)")
    return True


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


def load_settings(*paths: Path) -> Settings:
    """Defaults, then each existing file in order; a broken file raises ConfigError."""
    data: dict[str, Any] = {}
    for path in paths:
        if not path.exists():
            continue
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML ({exc.__class__.__name__})") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start + 1})") from None
        except OSError as exc:
            raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None
        except (RecursionError, ValueError) as exc:
            raise ConfigError(f"{path}: not a settings file ({exc.__class__.__name__})") from None
        try:
            data = merge(data, validate(loaded))
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
    return Settings(data)


def salvage(data: Any, defaults: dict[str, Any] = DEFAULTS, prefix: str = "") -> tuple[dict[str, Any], list[str]]:
    """The settings of ``data`` that are good, and what was wrong with the others: one
    mistyped value must not cost the player every other choice (their language above all)."""
    if not isinstance(data, dict):
        return {}, [f"{prefix.rstrip('.') or 'settings'}: expected a mapping"]
    good: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in data.items():
        try:
            good.update(validate({key: value}, defaults, prefix))
        except ConfigError as exc:
            nested = key in defaults and isinstance(defaults[key], dict) and isinstance(value, dict)
            if nested and f"{prefix}{key}" not in ("house_rules.pulla_table", "session.bowl"):
                kept, more = salvage(value, defaults[key], f"{prefix}{key}.")
                if kept:
                    good[key] = kept
                problems += more
            else:
                problems.append(str(exc))
    return good, problems


def salvage_settings(path: Path) -> Settings:
    """What can be kept of a settings file that :func:`load_settings` refused."""
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError):
        return Settings()
    return Settings(salvage(loaded)[0])
