"""config.yaml: defaults, layering, validation messages that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from vira_desktop.config import DEFAULTS, ConfigError, Settings, load_settings
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.rules.ledger import Kind

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_config_yaml_is_the_defaults() -> None:
    assert load_settings(ROOT / "config.yaml") == Settings() and Settings().as_data() == DEFAULTS
    assert yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8")) == DEFAULTS


def test_defaults_give_the_rulebook_rules() -> None:
    assert Settings().house_rules == HouseRules()
    assert Settings().session.bowl == {Kind.TRIANGLE: 2, Kind.BET: 20, Kind.ROUND: 10, Kind.PIN: 20}


def test_user_file_is_layered_on_the_defaults(tmp_path: Path) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("house_rules:\n  gok_reentry: true\nsound: {volume: 0.25}\n", encoding="utf-8")
    s = load_settings(ROOT / "config.yaml", user, tmp_path / "missing.yaml")
    assert s.house_rules.gok_reentry is True
    assert s.house_rules.aces_low_in_all_miseres is False
    assert s.sound.volume == 0.25
    assert s.sound.enabled is True


def test_a_game_without_repurchase_may_leave_its_repurchase_cells_empty() -> None:
    s = Settings.from_data(
        {"house_rules": {"pulla_table": {"gök": [2, 2, 4, None, None, None], "solo 7": [1, 1, 2, None, None, None]}}}
    )
    assert s.house_rules.pulla.rows["gök"].home == 2


def test_pulla_rows_can_be_overridden() -> None:
    s = Settings.from_data(
        {"house_rules": {"pulla_table": {"Vingel 8": [2, 2, 5, 0, 6, 11], "ordinary": [1, 1, 2, 0, 3, 6]}}}
    )
    table = s.house_rules.pulla
    assert table.rows["vingel 8"].kodilj == 5
    assert table.rows["ordinary"].re_kodilj == 6
    assert table.rows["gök"].bet == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"house_rules": {"gok_rentry": True}}, "house_rules.gok_rentry: unknown setting"),
        ({"house_rules": {"gok_reentry": "yes"}}, "house_rules.gok_reentry: expected true or false"),
        ({"colour": "red"}, "colour: unknown setting"),
        ({"display": {"animation_speed": "warp"}}, "display.animation_speed: expected one of instant"),
        ({"display": {"window": [1280, "800"]}}, "display.window: expected a list of 2 whole numbers"),
        ({"sound": {"volume": 2}}, "sound.volume: expected a number from 0 to 1"),
        ({"sound": {"volume": True}}, "sound.volume: expected a number"),
        ({"session": {"players": 5}}, "session.players: expected one of 3, 4"),
        ({"session": {"bowl": {"coin": 3}}}, "session.bowl.coin: unknown token"),
        ({"session": {"bowl": {"bet": -1}}}, "session.bowl.bet: expected a whole number"),
        ({"house_rules": {"pulla_table": {"vingel 9": [1, 1, 1, 1, 1, 1]}}}, "pulla_table.vingel 9: unknown row"),
        ({"house_rules": {"pulla_table": {"gök": [1, 2, 4]}}}, "pulla_table.gök: expected [home"),
        ({"house_rules": []}, "house_rules: expected a mapping"),
        (
            {"house_rules": {"pulla_table": {"ordinary": [1, 1, 2, None, None, None]}}},
            "house_rules.pulla_table.ordinary: the repurchase cells may not be empty",
        ),
        (
            {"house_rules": {"pulla_table": {"vingel 7": [1, 2, 4, None, None, None]}}},
            "house_rules.pulla_table.vingel 7: the repurchase cells may not be empty (null): repurchase is legal",
        ),
        (
            {"house_rules": {"pulla_table": {"gask 3": [1, 1, 2, 0, None, 5]}}},
            "pulla_table.gask 3: the repurchase cells are all numbers or all empty",
        ),
    ],
)
def test_bad_settings_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        Settings.from_data(data)
    assert message in str(err.value)


def test_broken_file_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "config.yaml"
    bad.write_text("house_rules: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(bad)
    bad.write_text("house_rules: {gok_reentry: 3}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.yaml: house_rules.gok_reentry"):
        load_settings(bad)


def test_one_bad_setting_costs_only_itself_in_the_window(tmp_path: Path) -> None:
    """A playtester wrote ``window: 1024x640``: the window kept the language they chose."""
    from vira_desktop.config import salvage_settings

    path = tmp_path / "config.yaml"
    path.write_text("display: {language: fi, window: 1024x640, card_back: red}\nsound: {volume: loud}\n", "utf-8")
    with pytest.raises(ConfigError, match=r"display\.window"):
        load_settings(path)
    kept = salvage_settings(path)
    assert kept.display.language == "fi" and kept.display.card_back == "red"
    assert kept.display.window == Settings().display.window and kept.sound.volume == Settings().sound.volume
    path.write_text("display: [not, a, mapping", "utf-8")
    assert salvage_settings(path).display.language == Settings().display.language


def test_every_problem_of_a_file_is_reported_and_said_in_each_language(tmp_path: Path) -> None:
    from vira_desktop.config import Problem, say_problem
    from vira_desktop.i18n import LANGUAGES, configure

    path = tmp_path / "config.yaml"
    path.write_text(
        "display: {window: 1024x640, card_back: green, four_colour_deck: 1}\n"
        "session: {players: 5, bowl: {coin: 3, bet: -1}}\n"
        "house_rules: {gok_reentry: maybe, pulla_table: {vingel 7: [1, 2, 4, null, null, null]}}\n"
        "sound: {volume: 2}\ncolour: 1\n",
        "utf-8",
    )
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    problems = err.value.problems
    named = ["display.window", "display.card_back", "display.four_colour_deck", "session.players",
             "session.bowl.coin", "session.bowl.bet", "house_rules.gok_reentry", "pulla_table.vingel 7",
             "sound.volume", "colour"]  # fmt: skip
    assert len(problems) == len(named)
    assert all(any(n in p for p in problems) for n in named), problems
    assert all(isinstance(p, Problem) and p.startswith(str(path)) for p in problems)
    try:
        for language in LANGUAGES:
            configure(language)
            said = [say_problem(p) for p in problems]
            assert all(any(n in s for s in said) for n in named), said
            if language == "en":
                assert said == list(problems)  # the window's English is the command line's
            else:
                assert not set(said) & set(problems)
    finally:
        configure("en")
    for broken, key in (("a: [unclosed\n", "yaml"), (b"\xff\xfe", "utf8")):
        path.write_bytes(broken.encode() if isinstance(broken, str) else broken)
        with pytest.raises(ConfigError) as err:
            load_settings(path)
        assert [p.key for p in err.value.problems] == [key]  # type: ignore[attr-defined]


def test_a_setting_is_read_and_changed_by_its_dotted_name_and_the_rest_kept() -> None:
    """The Settings screen cycles settings by name; a change keeps every other choice,
    a bowl given in part and overridden pulla rows included."""
    s = Settings.from_data(
        {"house_rules": {"pulla_table": {"vingel 8": [2, 2, 5, 0, 6, 11]}}, "session": {"bowl": {"bet": 10}}}
    )
    changed = s.with_value("display.window", (1024, 640)).with_value("house_rules.gok_reentry", True)
    assert changed.value("display.window") == (1024, 640) and changed.display.window == (1024, 640)
    assert changed.house_rules.gok_reentry and changed.value("house_rules.gok_reentry") is True
    assert changed.house_rules.pulla.rows == s.house_rules.pulla.rows and changed.session.bowl == {Kind.BET: 10}
    assert Settings().value("sound.volume") == 0.7 and Settings().value("session.players") == 3
    with pytest.raises(KeyError):
        Settings().value("session.bowl")
    with pytest.raises(ConfigError, match=r"sound\.volume: expected a number from 0 to 1"):
        s.with_value("sound.volume", 2.0)


def test_a_changed_setting_is_saved_in_the_users_file_as_it_was_written(tmp_path: Path) -> None:
    from vira_desktop.config import change_setting

    path = tmp_path / "config.yaml"
    path.write_text("sound: {volume: 0.25}\n", encoding="utf-8")
    change = change_setting(path, load_settings(path), "display.window", (1024, 640))
    assert change.saved and not change.told and change.settings.display.window == (1024, 640)
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {
        "sound": {"volume": 0.25},
        "display": {"window": [1024, 640]},
    }
    refused = change_setting(path, change.settings, "sound.volume", 2.0)
    assert not refused.saved and refused.settings is change.settings and "sound.volume" in refused.told
    path.write_text("sound: {volume: loud}\n", encoding="utf-8")  # a bad file: kept aside, written anew
    change = change_setting(path, Settings(), "display.card_back", "red")
    assert change.saved and "config.yaml.bad-1" in change.told and (tmp_path / "config.yaml.bad-1").exists()
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {"display": {"card_back": "red"}}
