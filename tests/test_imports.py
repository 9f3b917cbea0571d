"""The import rules, checked by walking every module's syntax tree (no import is run):

- no import loop, counting imports made inside functions;
- imports point one way: ``rules ← ai ← session ← scenes / cli``; ``i18n`` sits beside ai, ``config`` and
  ``paths`` sit beside the session layer, ``net`` (the network host and client) above it, beside ``tutorial``;
- the window uses the engine only through its public view and events: never the
  state machine (``rules.deal``) or its helpers;
- the window never opens a database (``sqlite3``; history and the autosave live in
  ``session/``, behind their own threads), and builds no table itself (``session.factory``
  builds every new one).

Imports under ``if TYPE_CHECKING:`` are type names only: they are held to the
direction rules but cannot make a loop.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "vira_desktop"

# layer of each top-level part; a module may import its own layer and those below it
LAYERS = {
    **{"rules": 0, "ai": 1, "paths": 1, "i18n": 1, "session": 2, "config": 2, "tutorial": 3, "net": 3},
    **{"scenes": 4, "cli": 4, "__main__": 5},
}
# the engine's public face: what the window may import from rules
PUBLIC_RULES = {
    "actions",
    "cards",
    "contract",
    "decision",
    "errors",
    "events",
    "games",
    "glossary",
    "houserules",
    "ledger",
    "scoring",
    "seat",
    "session",
    "view",
}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    typing_only: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _exists(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level:
        base = module.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    if not prefix.startswith("vira_desktop"):
        return []
    names = [f"{prefix}.{alias.name}" for alias in node.names]
    return [n for n in names if _exists(n)] or [prefix]


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def edges() -> list[Edge]:
    out: list[Edge] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_lines = _type_checking_lines(tree)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                targets = _resolve(module, path.name == "__init__.py", node)
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("vira_desktop")]
            for target in targets:
                if target != module and isinstance(node, ast.stmt):
                    out.append(Edge(module, target, node.lineno, node.lineno in typing_lines))
    return out


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_module_is_placed_in_a_layer() -> None:
    parts = {_part(_module_name(p)) for p in PACKAGE.rglob("*.py")} - {""}
    assert parts <= set(LAYERS), f"place these in LAYERS: {sorted(parts - set(LAYERS))}"


def test_imports_point_one_way() -> None:
    wrong = [
        f"{e.source}:{e.line} imports {e.target}"
        for e in edges()
        if _part(e.target) and LAYERS[_part(e.target)] > LAYERS[_part(e.source)]
    ]
    assert not wrong, "\n".join(wrong)


def test_the_window_uses_only_the_engines_public_view_and_events() -> None:
    wrong = [
        f"{e.source}:{e.line} imports {e.target}"
        for e in edges()
        if _part(e.source) == "scenes"
        and _part(e.target) == "rules"
        and e.target.split(".")[2:3] != []
        and e.target.split(".")[2] not in PUBLIC_RULES
    ]
    assert not wrong, "\n".join(wrong)


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every loop a depth-first walk of ``graph`` closes (each as its modules, the first repeated)."""
    loops: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                loops.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return loops


def test_no_import_loops() -> None:
    graph: dict[str, set[str]] = {}
    for e in edges():
        if not e.typing_only:
            graph.setdefault(e.source, set()).add(e.target)
            # importing a submodule runs its package's __init__ first
            parent = e.target.rsplit(".", 1)[0]
            if parent != e.source and parent.startswith("vira_desktop.") and not e.source.startswith(parent + "."):
                graph[e.source].add(parent)
    loops = _loops(graph)
    assert not loops, "\n".join(" → ".join(loop) for loop in loops)


def test_no_import_circle_inside_the_scenes() -> None:
    """The scenes know the app only by its port (``base.AppPort``): not even for their types
    does a scene import ``scenes.app``, which alone knows the concrete ``App`` and, through the
    registry, every scene (imports inside functions and under ``if TYPE_CHECKING:`` count)."""
    graph: dict[str, set[str]] = {}
    for e in edges():
        if e.source.startswith("vira_desktop.scenes") and e.target.startswith("vira_desktop.scenes."):
            graph.setdefault(e.source, set()).add(e.target)
    loops = _loops(graph)
    assert not loops, "\n".join(" → ".join(loop) for loop in loops)


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("vira_desktop/rules/x.py", "from ..scenes import app"),
        ("vira_desktop/scenes/x.py", "from ..rules.deal import Deal"),
    ],
)
def test_the_checks_catch_a_wrong_import(source: str, code: str) -> None:
    """The walker resolves relative imports as Python does (a check that cannot fail proves nothing)."""
    path = ROOT / source
    node = ast.parse(code).body[0]
    assert isinstance(node, ast.ImportFrom)
    (target,) = _resolve(_module_name(path), False, node)
    assert target in ("vira_desktop.scenes.app", "vira_desktop.rules.deal")
    src, dst = _part(_module_name(path)), _part(target)
    assert LAYERS[dst] > LAYERS[src] or target.split(".")[2] not in PUBLIC_RULES


def test_every_package_is_listed_for_the_wheel() -> None:
    """pyproject.toml lists the packages (so assets/ can travel inside): a new one must be there."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {_module_name(p) for p in PACKAGE.rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def deal_reads(root: Path = PACKAGE / "scenes") -> list[str]:
    """Every place under ``root`` that reads an attribute named ``deal`` (of a table, a
    runner, a session: the live deal, which the window must never touch)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "deal":
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_scene_reads_the_live_deal() -> None:
    """The window draws views, states and events; the deal itself stays with the runner."""
    assert deal_reads() == []


def test_the_deal_check_sees_an_attribute_read(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("def f(runner):\n    return runner.table.deal.history\n", encoding="utf-8")
    assert deal_reads(tmp_path) == ["x.py:2"]


# what the window may not import or build: the databases stay in session/, behind their threads
FORBIDDEN_IN_SCENES = {"sqlite3"}


def _stdlib_imports(tree: ast.AST) -> list[tuple[str, int]]:
    """Every module imported by name (not the package's own, relative ones), with its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.module.split(".")[0], node.lineno))
    return found


def database_imports(root: Path = PACKAGE / "scenes") -> list[str]:
    """Every place under ``root`` that imports a database module."""
    return [
        f"{path.relative_to(root)}:{line} imports {name}"
        for path in sorted(root.rglob("*.py"))
        for name, line in _stdlib_imports(ast.parse(path.read_text(encoding="utf-8")))
        if name in FORBIDDEN_IN_SCENES
    ]


def test_no_scene_opens_a_database() -> None:
    """A screen asks history's service (session/history_service.py) and polls its answers."""
    assert database_imports() == []


def test_the_database_check_sees_an_import(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("def f():\n    import sqlite3\n    from sqlite3 import connect\n", encoding="utf-8")
    assert database_imports(tmp_path) == ["x.py:2 imports sqlite3", "x.py:3 imports sqlite3"]


def table_builds(root: Path = PACKAGE) -> list[str]:
    """Every call of ``Table(...)`` or one of its building class methods under ``root``, but in
    the factory and the table's own module (a save read back)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name in ("factory.py", "table.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "Table") or (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "Table"
                and func.attr not in ("load", "from_json", "recover", "recovered")
            ):  # fmt: skip
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_every_new_table_comes_from_the_factory() -> None:
    """The new-game form, a deal played again, practice, a lesson and autoplay all take
    ``session.factory.new_table``, which alone reads what a table takes from the settings."""
    assert table_builds() == []


def test_the_table_check_sees_a_table_built(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("t = Table(seats, 1)\nu = Table.for_deal(seats, d)\nv = Table.load(p)\n")
    assert table_builds(tmp_path) == ["x.py:1", "x.py:2"]


def test_every_scene_name_is_registered() -> None:
    """``SceneName`` (which the type check holds every ``open`` and ``push`` to) and the
    registry name the same scenes, each a ``Scene``."""
    from typing import get_args

    from vira_desktop.scenes.base import Scene, SceneName
    from vira_desktop.scenes.registry import SCENES

    assert sorted(SCENES) == sorted(get_args(SceneName))
    assert all(isinstance(cls, type) and issubclass(cls, Scene) for cls in SCENES.values())


# ---------------------------------------------------------------------- the master stays behind the port
def master_handed(root: Path = PACKAGE / "scenes") -> list[str]:
    """Every place under ``root`` that hands a scene the live table (``table=…`` to ``push`` or
    ``open``, but the table scene's own opening, ``open("table", …)``), or that calls the
    session's ``settle`` (the end of a session belongs to the runner, Command.SETTLE)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "app.py":  # the composition root opens the table scene with its table
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            name = node.func.attr
            first = node.args[0] if node.args else None
            opens_table = isinstance(first, ast.Constant) and first.value == "table"
            if name in ("push", "open") and not opens_table and any(k.arg == "table" for k in node.keywords):
                found.append(f"{path.relative_to(root)}:{node.lineno} hands a scene the table")
            if name == "settle":
                found.append(f"{path.relative_to(root)}:{node.lineno} settles the session")
    return found


def test_no_overlay_is_handed_the_table_and_no_scene_settles_the_session() -> None:
    """The score sheet, the tricks, the last trick, the bid table and the settlement draw from
    the table's state as the seat shown has it (the port's); 17 places handed them the live
    table, and the settlement sheet settled the session itself."""
    assert master_handed() == []


def test_the_master_check_sees_a_table_handed_and_a_settlement(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text(
        "def f(app, table):\n    app.push('score_sheet', table=table)\n    table.session.settle()\n"
        "    app.open('table', table=table)\n",
        encoding="utf-8",
    )
    assert master_handed(tmp_path) == ["x.py:2 hands a scene the table", "x.py:3 settles the session"]


# what only the composition root (scenes/app.py) may import: the master, its table and deal,
# and the machinery behind the port; a scene holds the port (session.port) and draws its state
COMPOSITION_ROOT = {"app.py", "saves.py"}  # the App and its saves: they build the runner and keep the table's save
BEHIND_THE_PORT = {
    "vira_desktop.session.table",
    "vira_desktop.session.master",
    "vira_desktop.session.pace",
    "vira_desktop.session.runner",
    "vira_desktop.session.jobs",
    "vira_desktop.session.thinking",
    "vira_desktop.rules.deal",
}


def master_reached(root: Path = PACKAGE / "scenes") -> list[str]:
    """Every place under ``root`` (but the composition root, ``app.py``) that imports what sits
    behind the port (:data:`BEHIND_THE_PORT`, type-only imports counted), reads an attribute
    named ``table`` or ``master``, or calls a method of a session or a ledger (``x.session.m()``,
    ``x.ledger.m()``; the settings' ``session`` section is a value, not the session)."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        if path.parent == PACKAGE / "scenes" and path.name in COMPOSITION_ROOT:
            continue
        where = str(path.relative_to(root))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = _module_name(path) if path.is_relative_to(ROOT) else "vira_desktop.scenes.x"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = _resolve(module, path.name == "__init__.py", node)
                found += [(where, node.lineno, f"imports {n}") for n in names if n in BEHIND_THE_PORT]
            elif isinstance(node, ast.Import):
                found += [(where, node.lineno, f"imports {a.name}") for a in node.names if a.name in BEHIND_THE_PORT]
            elif isinstance(node, ast.Attribute) and node.attr in ("table", "master") and _holder(node.value):
                found.append((where, node.lineno, f"reads .{node.attr}"))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                inner = owner.value if isinstance(owner, ast.Attribute) else None
                settings = isinstance(inner, ast.Attribute) and inner.attr == "settings"  # the settings' section
                if isinstance(owner, ast.Attribute) and owner.attr in ("session", "ledger") and not settings:
                    found.append((where, node.lineno, f"calls {owner.attr}.{node.func.attr}"))
    return [f"{where}:{line} {what}" for where, line, what in sorted(found)]


def _holder(node: ast.expr) -> bool:
    """Whether ``node`` is a scene or what it holds (``self``, a runner, a port, a client): the
    one whose ``.table`` would be the live table (a lesson's ``table`` is its names)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in ("self", "scene", "runner", "port", "client", "driver")


def test_no_scene_reaches_behind_the_port() -> None:
    """A table scene, a lesson and a replay hold a port and draw its state; the table, the
    session, the deal and the runner's machinery stay in session/ (the app builds them)."""
    assert master_reached() == []


def test_the_port_check_sees_each_kind(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from vira_desktop.session.table import Table\n"
        "import vira_desktop.rules.deal\n"
        "def f(scene, app):\n    scene.runner.table.record()\n    scene.state.session.settle()\n"
        "    scene.x.ledger.move(1)\n    return app.settings.session.players\n",
        encoding="utf-8",
    )
    assert master_reached(tmp_path) == [
        "x.py:3 imports vira_desktop.session.table",
        "x.py:4 imports vira_desktop.rules.deal",
        "x.py:6 reads .table",
        "x.py:7 calls session.settle",
        "x.py:8 calls ledger.move",
    ]
