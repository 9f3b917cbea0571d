"""Settings: defaults in code, the user's ``config.yaml`` layered on top, validated once
into typed settings (:class:`Settings`: a frozen dataclass per section). Reading, checking,
setting a bad file aside and writing a changed setting back all happen here.

Every key is known in advance; an unknown key or a value of the wrong type is
reported with the key's full name (``house_rules.gok_reentry: expected true
or false, got 'yes please'``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args, get_origin, get_type_hints

import yaml

from .i18n import t
from .paths import quarantine, write_atomically
from .rules.errors import Keyed, ViraError
from .rules.houserules import HOUSE_RULE_NAMES, PULLA_TABLE, HouseRules, pulla_rows
from .rules.ledger import DEFAULT_BOWL, Kind

__all__ = [
    "DEFAULTS",
    "BotSettings",
    "Change",
    "ConfigError",
    "DisplaySettings",
    "FriendsSettings",
    "Problem",
    "SessionSettings",
    "SettingValue",
    "Settings",
    "SoundSettings",
    "change_setting",
    "load_settings",
    "salvage_settings",
    "say_problem",
    "say_problems",
    "user_settings",
    "validate",
]

AnimationSpeed = Literal["instant", "fast", "normal", "slow"]
CardBack = Literal["blue", "red"]
Language = Literal["system", "sv", "en", "fi"]  # system: the system locale's (sv, fi, else en)
CoachGrid = Literal["practice", "always", "never"]  # practice: not at a hot seat
Players = Literal[3, 4]
BotLevel = Literal["normal", "strong", "easy", "random"]  # the levels a player chooses a bot from
SettingValue = bool | int | float | str | tuple[int, ...]
"""A value the Settings screen shows and cycles (by the setting's dotted name)."""


@dataclass(frozen=True)
class SessionSettings:
    """``session:`` a new game's table."""

    bowl: Mapping[Kind, int] = field(default_factory=lambda: MappingProxyType(dict(DEFAULT_BOWL)))
    """Each player's bowl of own-colour tokens at the start (a bowl in config.yaml is the whole bowl)."""
    players: Players = 3


@dataclass(frozen=True)
class DisplaySettings:
    """``display:`` how the table looks and moves."""

    animation_speed: AnimationSpeed = "normal"
    window: tuple[int, int] = (1280, 800)
    four_colour_deck: bool = False
    card_back: CardBack = "blue"
    language: Language = "system"  # the system locale's until the player chooses
    wait_after_trick: bool = False  # each finished trick stays face up until a click or a key
    coach_grid: CoachGrid = "practice"  # the coach's colours in the bid grid


@dataclass(frozen=True)
class SoundSettings:
    """``sound:``"""

    enabled: bool = True
    volume: float = 0.7


@dataclass(frozen=True)
class BotSettings:
    """``bots:``"""

    strong_seconds: float = 0.4  # how long the strong bot may think over one decision


@dataclass(frozen=True)
class FriendsSettings:
    """``friends:`` the Play-with-friends forms as the player last filled them in (a password
    is never kept)."""

    name: str = ""  # the player's name at a table
    table: str = ""  # the name of the table hosted ("": the player's name)
    players: Players = 3
    friends: int = 1  # seats for friends at the table hosted (the others: bots)
    bots: BotLevel = "normal"  # the level of the bots in the seats no friend takes
    lan: bool = True  # hosted for the local network (else for this computer only)
    address: str = ""  # the address or table code last joined
    chat: bool = True  # the friends' chat shown, in the lobby and at the table (false: hidden)


@dataclass(frozen=True)
class Settings:
    """Every setting, validated and typed: ``settings.display.animation_speed``,
    ``settings.house_rules`` (the rules' own :class:`HouseRules`, pulla table included)."""

    house_rules: HouseRules = field(default_factory=HouseRules)
    session: SessionSettings = field(default_factory=SessionSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    sound: SoundSettings = field(default_factory=SoundSettings)
    bots: BotSettings = field(default_factory=BotSettings)
    friends: FriendsSettings = field(default_factory=FriendsSettings)

    @classmethod
    def from_data(cls, data: Any) -> Settings:
        """``data`` as config.yaml holds it, layered on the defaults; :class:`ConfigError`
        with every problem found."""
        return _typed(validate(data or {}))

    def as_data(self) -> dict[str, Any]:
        """The settings as config.yaml writes them (plain YAML data, every key)."""
        rules = self.house_rules
        return {
            "house_rules": {
                **{name: getattr(rules, name) for name in HOUSE_RULE_NAMES},
                PULLA_TABLE: rules.changed().get(PULLA_TABLE, {}),
            },
            "session": {
                "bowl": {k.name.lower(): n for k, n in self.session.bowl.items()},
                "players": self.session.players,
            },
            "display": {**asdict(self.display), "window": list(self.display.window)},
            "sound": asdict(self.sound),
            "bots": asdict(self.bots),
            "friends": asdict(self.friends),
        }

    def value(self, dotted: str) -> SettingValue:
        """One setting by its dotted name (``"display.animation_speed"``), as the Settings
        screen cycles them; :class:`KeyError` for a name that is no such setting."""
        section, _, name = dotted.partition(".")
        value: object = getattr(getattr(self, section, None), name, None)
        if not isinstance(value, bool | int | float | str | tuple):
            raise KeyError(dotted)
        return value

    def with_value(self, dotted: str, value: SettingValue) -> Settings:
        """These settings with one changed (by its dotted name), validated: :class:`ConfigError`."""
        return Settings.from_data(merge(self.as_data(), _change(dotted, value)))


def _typed(data: Mapping[str, Any]) -> Settings:
    """The typed settings of validated ``data`` (the defaults where it says nothing)."""
    session = dict(data.get("session", {}))
    if "bowl" in session:
        session["bowl"] = MappingProxyType({Kind[k.upper()]: n for k, n in session["bowl"].items()})
    display = dict(data.get("display", {}))
    if "window" in display:
        display["window"] = tuple(display["window"])
    return Settings(
        house_rules=HouseRules.from_changes(data.get("house_rules")),
        session=replace(SessionSettings(), **session),
        display=replace(DisplaySettings(), **display),
        sound=replace(SoundSettings(), **data.get("sound", {})),
        bots=replace(BotSettings(), **data.get("bots", {})),
        friends=replace(FriendsSettings(), **data.get("friends", {})),
    )


def _change(dotted: str, value: SettingValue) -> dict[str, Any]:
    """One setting as config.yaml holds it (``{"display": {"window": [1024, 640]}}``)."""
    section, _, name = dotted.partition(".")
    return {section: {name: list(value) if isinstance(value, tuple) else value}}


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


DEFAULTS: dict[str, Any] = Settings().as_data()
"""Every setting's default as config.yaml writes it (the shipped config.yaml is these)."""

_CHOICES: dict[str, tuple[object, ...]] = {
    f"{section}.{name}": get_args(hint)
    for section, kind in get_type_hints(Settings).items()
    for name, hint in get_type_hints(kind).items()
    if get_origin(hint) is Literal
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
    return Settings.from_data(data)


def salvage_settings(path: Path) -> Settings:
    """What can be kept of a settings file that :func:`load_settings` refused: its good
    settings (one mistyped value must not cost the player every other choice, their language
    above all)."""
    try:
        loaded = _read(path)
    except ConfigError:
        return Settings()
    return Settings.from_data(_check(loaded, DEFAULTS, "", []))


def user_settings(path: Path) -> tuple[Settings, tuple[str, ...]]:
    """The user's settings file read once at start: the settings, and what is wrong with the
    file (every problem; its good settings are kept)."""
    try:
        return load_settings(path), ()
    except ConfigError as exc:
        return salvage_settings(path), exc.problems


@dataclass(frozen=True)
class Change:
    """What :func:`change_setting` did: the settings in use now (as they were when nothing
    was saved), whether the change was saved, and what the player should be told ("" when
    all went well)."""

    settings: Settings
    saved: bool
    told: str = ""


def change_setting(path: Path, settings: Settings, dotted: str, value: SettingValue) -> Change:
    """Set one setting (by its dotted name) and save it in the user's config at ``path``
    (atomically; the file's other settings as they are). Never raises: a config file that
    cannot be read or is not valid is kept aside (``config.yaml.bad-N``) and written anew;
    a value or a file that cannot be saved leaves ``settings`` as they were, and says why."""
    told = ""
    try:
        current = _read(path) if path.exists() else {}
        validate(current)
    except ConfigError:
        current = {}
        if path.exists():
            kept = quarantine(path, "bad")
            told = t("settings.kept_aside", file=path.name, kept=kept.name)
    updated = merge(current, _change(dotted, value))
    try:
        validate(updated)
        changed = settings.with_value(dotted, value)
        write_atomically(path, yaml.safe_dump(updated, allow_unicode=True, sort_keys=False))
    except ConfigError as exc:
        return Change(settings, False, t("settings.not_saved", problem=say_problems(exc.problems)))
    except OSError as exc:
        return Change(settings, False, t("settings.not_saved", problem=exc))
    return Change(changed, True, told)
