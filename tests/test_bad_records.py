"""Bad record files: whatever is in the file, ``vira replay --check`` ends with one line on
stderr and exit 2, never a traceback (issue 12's cases, then a hypothesis fuzz)."""

from __future__ import annotations

import contextlib
import copy
import io
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vira_desktop.cli import main

RECORD = Path(__file__).parent / "records" / "7spel_highest_bet.yaml"
TEXT = RECORD.read_text(encoding="utf-8")
DATA: dict[str, Any] = yaml.safe_load(TEXT)


def replay_check(raw: bytes) -> tuple[int, str]:
    """``vira replay --check`` on a file holding ``raw``: the exit status and stderr."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.yaml"
        path.write_bytes(raw)
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(["replay", "--check", str(path)])
    return code, err.getvalue()


def assert_one_line_error(raw: bytes, *words: str) -> str:
    code, err = replay_check(raw)
    assert code == 2 and err.count("\n") == 1, err
    for word in words:
        assert word in err
    return err


def without_result() -> str:
    return TEXT.split("\nresult:")[0] + "\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (without_result() + "result: 5\n", ["result must be a mapping", "not int"]),
        (without_result() + "result: [1, 2]\n", ["result must be a mapping", "not list"]),
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", ["nested too deeply"]),
        ("vira: " + "9" * 5000 + "\n", ["not a deal record", "4300 digits"]),
        (TEXT.replace("vira: 1", "vira: 1.0"), ["unknown record version: 1.0"]),
        (TEXT.replace("vira: 1", "vira: true"), ["unknown record version: True"]),
        (TEXT.replace("forehand:", "forhand: Anna\nforehand:"), ["unknown field: forhand (did you mean forehand?)"]),
        (TEXT.replace("  - Cecilia: pass", "  - Cecilia: no", 1), ["action 3 (Cecilia: no)"]),
        (TEXT.replace("AS,", "JK,", 1), ["not a card: 'JK'", "rank A K Q J T 9"]),
    ],
    ids=["result-number", "result-list", "deep", "long-integer", "version-float", "version-bool", "typo", "no", "JK"],
)
def test_bad_record_is_one_line_and_exit_2(text: str, words: list[str]) -> None:
    assert_one_line_error(text.encode("utf-8"), *words)


def test_a_record_that_is_not_utf8_is_one_line() -> None:
    assert_one_line_error(("# Björn\n" + TEXT).encode("latin-1"), "not UTF-8 text")


def test_unquoted_yes_no_on_off_stay_words() -> None:
    """YAML 1.1 made ``no`` a boolean ("action False is not a Vira action", no position)."""
    err = assert_one_line_error(TEXT.replace("  - Cecilia: pass", "  - Cecilia: off", 1).encode())
    assert "action 3 (Cecilia: off)" in err


def test_players_written_as_numbers_pass_their_own_check() -> None:
    text = TEXT
    for name, number in (("Anna", "1"), ("Bertil", "2"), ("Cecilia", "3")):
        text = text.replace(name, number)
    assert replay_check(text.encode("utf-8"))[0] == 0  # declarer 1 was compared with '1'


# ---------------------------------------------------------------------- fuzz
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=4),
    max_leaves=12,
)
FIELDS = list(DATA)


@st.composite
def broken_records(draw: st.DrawFn) -> Any:
    """A valid record with a few fields replaced, removed or added, or junk at some depth."""
    data = copy.deepcopy(DATA)
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from([*FIELDS, "extra"]))
        how = draw(st.sampled_from(["replace", "delete", "inner"]))
        if how == "delete":
            data.pop(key, None)
        elif how == "inner" and isinstance(data.get(key), list | dict) and data[key]:
            inner = data[key]
            at = draw(st.sampled_from(list(inner) if isinstance(inner, dict) else list(range(len(inner)))))
            inner[at] = draw(values)
        else:
            data[key] = draw(values)
    return data


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(broken_records())
def test_fuzzed_records_never_give_a_traceback(data: Any) -> None:
    code, err = replay_check(yaml.safe_dump(data, allow_unicode=True).encode("utf-8"))
    assert code in (0, 2)
    assert code == 0 or err.count("\n") == 1, err


@SETTINGS
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8")))
def test_fuzzed_bytes_never_give_a_traceback(raw: bytes) -> None:
    code, err = replay_check(raw)
    assert code == 2 and err.count("\n") == 1, err


def test_a_line_break_in_a_records_own_words_keeps_the_error_on_one_line() -> None:
    """Hypothesis found an action by a player named with a line break: the error quoted the
    name and ran to two lines. Control characters are written as their escapes."""
    data = copy.deepcopy(DATA)
    data["actions"] = [{"\n": "pass"}, *data["actions"][1:]]
    code, err = replay_check(yaml.safe_dump(data, allow_unicode=True).encode("utf-8"))
    assert code == 2 and err.count("\n") == 1 and "\\n" in err, err
