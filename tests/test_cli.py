"""The vira command: bidtable, replay and simulate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from vira_desktop.cli import main
from vira_desktop.rules.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def test_bidtable_json_has_the_40_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bidtable", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["no"] for r in rows] == list(range(1, 41))
    assert rows[5] == {
        "no": 6,
        "name": "gök",
        "printed": "Gök",
        "tricks": 0,
        "can_play_low": False,
        "misere": {"open": True, "cards": 13},
        "pins": {"off_suit": 0, "suit": None, "highest": None},
    }
    assert rows[13]["tricks"] == 9 and rows[13]["can_play_low"] is True


def test_bidtable_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bidtable"]) == 0
    out = capsys.readouterr().out
    assert "Gask på 2" in out and "9/0" in out and "Solo Vira" in out
    assert len(out.strip().splitlines()) == 41


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "bidtable" in out and "simulate" in out and "match" in out and "--autoplay" in out


def test_module_entry_point_and_version() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "vira_desktop", "--version"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0 and run.stdout.startswith("vira ")


@pytest.mark.parametrize("players", [3, 4])
def test_simulate_json(capsys: pytest.CaptureFixture[str], players: int) -> None:
    code = main(["simulate", "--deals", "60", "--seed", "1", "--players", str(players), "--json"])
    info = json.loads(capsys.readouterr().out)
    assert code == 0
    assert info["deals"] == 60 and info["errors"] == 0 and info["conservation_ok"] is True
    for key in ("deals_per_s", "contracts", "outcomes", "declarer_home_pct", "kodilj_pct"):
        assert key in info
    assert sum(info["outcomes"].values()) == 60


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.name)
def test_simulate_every_forced_contract(capsys: pytest.CaptureFixture[str], g: object) -> None:
    name = getattr(g, "name")  # noqa: B009
    assert main(["simulate", "--deals", "8", "--seed", "3", "--contract", name, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["contracts"] == {name: 8} and info["errors"] == 0 and info["conservation_ok"]


def test_simulate_rejects_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert "unknown bot level: 'genius'" in _one_line_error(capsys, ["simulate", "--deals", "1", "--bots", "genius"])


def test_replay_reports_invalid_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("vira: 1\nplayers: [A, B]\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "missing field" in err


def test_simulate_with_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(
        "house_rules: {aces_low_in_all_miseres: true}\nsession: {bowl: {bet: 1, pin: 3}}\n", encoding="utf-8"
    )
    assert main(["simulate", "--deals", "20", "--config", str(cfg), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["errors"] == 0 and info["conservation_ok"] is True
    cfg.write_text("house_rules: {aces_low: true}\n", encoding="utf-8")
    assert main(["simulate", "--deals", "1", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "house_rules.aces_low: unknown setting" in err
    assert err.count("\n") == 1 and "usage" not in err  # one line, not the usage text


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_config_files_that_cannot_be_used_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ["simulate", "--deals", "1", "--config"]
    assert "no such file" in _one_line_error(capsys, [*run, str(tmp_path / "missing.yaml")])
    assert "Is a directory" in _one_line_error(capsys, [*run, str(tmp_path)])
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("# Björn\nsession: {players: 4}\n".encode("latin-1"))
    assert f"{latin}: not UTF-8 text" in _one_line_error(capsys, [*run, str(latin)])


def test_simulate_takes_the_players_from_the_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "four.yaml"
    cfg.write_text("session: {players: 4}\n", encoding="utf-8")
    argv = ["simulate", "--deals", "1", "--bots", "random,random,random", "--config", str(cfg)]
    assert "one per player (4)" in _one_line_error(capsys, argv)
    assert main([*argv[:-2], "--players", "3", "--config", str(cfg)]) == 0  # the option wins


def test_match_options_are_not_mistaken_for_window_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "easy", "--b", "random", "--deals", "2", "--seed", "1", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["a"] == "easy" and info["b"] == "random" and info["deals"] == 2



def _replayed(folder: Path) -> list[tuple[str, Any]]:
    """Every record in ``folder``: its comment line and its mapping, each replaying to the
    result written in it."""
    from vira_desktop.session.record import check_result, load_record, parse_yaml, replay

    out = []
    for path in sorted(folder.glob("*.yaml")):
        record = load_record(path)
        assert check_result(record, replay(record)) is None, path.name
        text = path.read_text(encoding="utf-8")
        out.append((text.splitlines()[0], parse_yaml(text)))
    return out


def test_simulate_writes_every_deal_as_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--deals", "3", "--seed", "5", "--players", "4", "--bots", "easy", "--json"]
    assert main([*argv, "--records", str(tmp_path / "out")]) == 0
    info = json.loads(capsys.readouterr().out)
    records = _replayed(tmp_path / "out")
    assert [head for head, _ in records] == [f"# vira simulate --seed 5: deal {i}" for i in (1, 2, 3)]
    games = sorted(name for name, n in info["contracts"].items() for _ in range(n))
    assert sorted(data["result"]["game"] for _, data in records) == games
    assert all("sitting_out" in data for _, data in records)  # four players: one sits out each deal


def test_match_writes_every_play_as_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--a", "easy", "--b", "random", "--deals", "1", "--seed", "2"]
    assert main([*argv, "--records", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    records = _replayed(tmp_path / "out")
    assert len({tuple(data["stock"]) for _, data in records}) == 1  # one deal ...
    sides = sorted("".join(p[0] for p in data["players"]) for _, data in records)
    assert sides == sorted(["ABB", "BAB", "BBA", "AAB", "ABA", "BAA"])  # ... six times, the sides round the seats
    assert all(head.startswith("# vira match --a easy --b random --seed 2: deal 1") for head, _ in records)
