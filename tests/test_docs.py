"""The documentation holds together: every relative link in README.md and docs/*.md points at
a file that exists (and at a heading of it where a ``#anchor`` is given, by GitHub's slug
rules), and the README keeps exactly the two set-up commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, inline code spans blanked."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, INLINE_CODE.sub("", line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text as shown, lowercased, punctuation dropped
    (letters, digits, '_' and '-' kept), spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file; a repeated slug gets -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every inline and reference-style link and image."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        found += [(number, m.group(1)) for m in INLINE_LINK.finditer(line)]
        reference = REFERENCE_LINK.match(line)
        if reference:
            found.append((number, reference.group(1)))
    return found


def broken_links(files: list[Path], root: Path = ROOT) -> list[str]:
    """Each relative link that points at no file, out of the repository, or at no heading."""
    problems = []
    for path in files:
        where = path.relative_to(root)
        for number, target in links(path):
            if SCHEME.match(target):  # https:, mailto: … are not checked here
                continue
            file_part, _, anchor = target.partition("#")
            goal = (path.parent / file_part).resolve() if file_part else path
            if not goal.is_relative_to(root.resolve()):
                problems.append(f"{where}:{number}: {target} leaves the repository")
            elif not goal.exists():
                problems.append(f"{where}:{number}: {target}: no such file")
            elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
                problems.append(f"{where}:{number}: {target}: no heading #{anchor} in {goal.name}")
    return problems


def test_every_relative_link_in_the_documentation_resolves() -> None:
    assert broken_links(doc_files()) == []


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A title\n\n## Set-up (Python 3.11+)\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "# R\n\n[ok](docs/a.md) [ok](docs/a.md#set-up-python-311) [ok](#r) [web](https://x.org/y)\n"
        "`[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n"
        "[gone](docs/b.md)\n[bad](docs/a.md#setup)\n[ref]: ../outside.md\n",
        encoding="utf-8",
    )
    assert broken_links(doc_files(tmp_path), tmp_path) == [
        "README.md:9: docs/b.md: no such file",
        "README.md:10: docs/a.md#setup: no heading #setup in a.md",
        "README.md:11: ../outside.md leaves the repository",
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Set-up (a fresh machine with Python 3.11+)", "set-up-a-fresh-machine-with-python-311"),
        ("The `vira` command", "the-vira-command"),
        ("Ågren markings in normal self-play", "ågren-markings-in-normal-self-play"),
        ('The analysis of a deal ("Could I have won?")', "the-analysis-of-a-deal-could-i-have-won"),
        ("The ledger: accounts and tokens", "the-ledger-accounts-and-tokens"),
    ],
)
def test_slugs_follow_github(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_the_readme_keeps_exactly_the_two_set_up_commands() -> None:
    text = README.read_text(encoding="utf-8")
    commands, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif fenced and line.split("#")[0].strip():
            commands.append(line.split("#")[0].strip())
    assert commands == ["make run", "make test"]
    assert "`make test` is exactly what CI runs (`.ci/run`)." in text
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_the_readme_stays_short() -> None:
    """The README is what the project is, the set-up, how to play and where to read on;
    everything else has its page under docs/."""
    assert len(README.read_text(encoding="utf-8")) < 10_000, "move the detail into docs/"
