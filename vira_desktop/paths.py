"""Where things are: bundled assets (checkout, installed package or frozen bundle) and
the user's own folders (config, saves) from platformdirs — never the install folder."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import platformdirs

APP = "vira-desktop"


def assets_dir() -> Path:
    """The ``assets/`` folder, wherever the program runs from.

    The wheel and the frozen bundle (pyinstaller.spec) both keep it beside this module as
    ``vira_desktop/assets/``; a source checkout (or an editable install) has it at the top
    level. The bid table and pulla data are package data of ``vira_desktop.rules`` and are
    read with importlib.resources, which finds them in all three places too.
    """
    override = os.environ.get("VIRA_ASSETS")
    candidates = [Path(override)] if override else []
    here = Path(__file__).resolve().parent
    candidates.append(here / "assets")  # installed wheel, frozen bundle
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.append(Path(frozen) / "assets")
    candidates.append(here.parent / "assets")  # source checkout
    for path in candidates:
        if (path / "cards").is_dir():
            return path
    raise FileNotFoundError("the game's assets folder was not found (set VIRA_ASSETS)")


def asset(*parts: str) -> Path:
    """One bundled file, e.g. ``asset("cards", "ah.svg")``."""
    return assets_dir().joinpath(*parts)


def config_dir() -> Path:
    return Path(os.environ.get("VIRA_CONFIG_DIR") or platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    return Path(os.environ.get("VIRA_DATA_DIR") or platformdirs.user_data_dir(APP))


def user_config_file() -> Path:
    return config_dir() / "config.yaml"


def autosave_file() -> Path:
    """The game in play (an SQLite database: session/autosave.py)."""
    return data_dir() / "autosave.sqlite3"


def host_save_dir(prefix: str) -> Path:
    """Where ``vira host --prefix PREFIX`` keeps its tables by default (net/keep.py)."""
    return data_dir() / "host" / prefix


def export_dir() -> Path:
    """Where exported deal records go: a folder of the player's documents."""
    return Path(os.environ.get("VIRA_EXPORT_DIR") or Path(platformdirs.user_documents_dir()) / "Vira")


def history_file() -> Path:
    """Every finished deal (an SQLite database: session/history.py)."""
    return data_dir() / "history.sqlite3"


def last_table_file() -> Path:
    """The seats of the last new game (the new-game form starts from them)."""
    return data_dir() / "last_table.json"


def friends_file() -> Path:
    """The seat a joining window holds at a friend's table: its token and where it is (what
    the forms were last filled in with is a setting: ``friends:`` in config.yaml)."""
    return data_dir() / "friends.json"


def tutorial_progress_file() -> Path:
    """The tutorial's progress: saved the moment a step is done."""
    return data_dir() / "tutorial.json"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` so that a crash at any moment leaves the old file or the new one, never
    half of either: a temporary file in the same folder, flushed to disk, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def database_files(path: Path) -> list[Path]:
    """An SQLite database in WAL mode and the two files that go with it (``-wal``, ``-shm``)."""
    return [Path(f"{path}{tail}") for tail in ("", "-wal", "-shm")]


def move_database(path: Path, target: Path) -> None:
    """Move the database at ``path`` to ``target``, with its ``-wal`` and ``-shm`` where they are."""
    for part, to in zip(database_files(path), database_files(target), strict=True):
        if part.exists():
            part.replace(to)


def quarantine(path: Path, suffix: str = "damaged", database: bool = False) -> Path:
    """Move a damaged file aside (``name.damaged-N``, the first N free; a ``database``: its
    ``-wal`` and ``-shm`` with it); where it went."""
    n = 1
    while (target := path.with_name(f"{path.name}.{suffix}-{n}")).exists():
        n += 1
    if database:
        move_database(path, target)
    else:
        path.replace(target)
    return target
