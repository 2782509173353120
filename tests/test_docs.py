"""The README stays short, and what it and docs/ point to exists: every relative link (and the
heading it names), every `make` target and variable, every subcommand and option of
`python -m graders` / `gradekit` quoted in code."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from graders.cli import build_parser

KIT = Path(__file__).resolve().parents[1]
README = KIT / "README.md"
PAGES = [README, *sorted((KIT / "docs").glob("*.md"))]
MAX_README_BYTES = 15 * 1024

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^ *```[^\n]*\n(.*?)^ *```", re.S | re.M)
SPAN = re.compile(r"`([^`]+)`")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$", re.M)


def _prose(text: str) -> str:
    """The page without its fenced code blocks (links there are not links)."""
    return FENCE.sub("", text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {_slug(h) for h in HEADING.findall(_prose(page.read_text(encoding="utf-8")))}


def _links(page: Path) -> list[str]:
    return LINK.findall(_prose(page.read_text(encoding="utf-8")))


def _code(page: Path) -> list[str]:
    """Each line of code the page quotes: fenced blocks (without comments) and inline spans."""
    text = page.read_text(encoding="utf-8")
    lines = [line.split("  #")[0] for block in FENCE.findall(text) for line in block.splitlines()]
    return lines + [" ".join(span.split()) for span in SPAN.findall(_prose(text))]


def _link_problems(page: Path) -> list[str]:
    problems = []
    for target in _links(page):
        if re.match(r"[a-z][a-z+.-]*:", target):        # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        if not found.is_file():
            problems.append(f"{target}: no such file")
        elif anchor and found.suffix == ".md" and anchor not in _anchors(found):
            problems.append(f"{target}: no heading #{anchor} in {found.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_relative_links_resolve(page):
    assert _link_problems(page) == []


def test_link_check_catches_a_broken_link(tmp_path):
    (tmp_path / "there.md").write_text("# A TA's week\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](there.md#a-tas-week) [gone](missing.md) [bad](there.md#nowhere)\n"
                    "```\n[in code](not-a-link.md)\n```\n", encoding="utf-8")
    assert _link_problems(page) == ["missing.md: no such file",
                                    "there.md#nowhere: no heading #nowhere in there.md"]


def test_readme_is_short():
    size = len(README.read_bytes())
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes (at most {MAX_README_BYTES})"


def test_readme_links_to_every_docs_page():
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in _links(README)}
    pages = {page.resolve() for page in (KIT / "docs").glob("*.md")}
    assert pages - linked == set()


def _make_targets_and_variables() -> tuple[set[str], str]:
    makefile = (KIT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", makefile, re.M)), makefile


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_quoted_make_commands_exist(page):
    targets, makefile = _make_targets_and_variables()
    quoted = [match.group(1).split() for line in _code(page)
              for match in [re.search(r"(?:^|\s)make\s+(.+)", line)] if match]
    assert any(quoted) or page != README
    for words in quoted:
        for word in words:
            if word.startswith("-") or word == "...":
                continue
            name, equals, _ = word.partition("=")
            if equals:
                assert re.search(rf"\b{name}\b", makefile), f"make {' '.join(words)}: no {name}"
            else:
                assert word in targets, f"make {' '.join(words)}: no target {word}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_quoted_kit_commands_exist(page):
    """`python -m graders SUB ...` and `gradekit SUB ...`: SUB is a subcommand and every
    option quoted with it is one of its options (optional parts in brackets included)."""
    commands = build_parser()._subparsers._group_actions[0].choices
    quoted = [match.group(1) for line in _code(page)
              for match in [re.search(r"(?:python -m graders|\bgradekit)\s+(.+)", line)]
              if match]
    assert quoted or page.name not in ("README.md", "platforms.md", "ta-guide.md")
    for command in quoted:
        words = shlex.split(command.replace("[", " ").replace("]", " ").replace("|", " "))
        if words[0].startswith("-"):
            assert words[0] in ("-h", "--help"), command
            continue
        assert words[0] in commands, f"{command}: no subcommand {words[0]}"
        options = commands[words[0]]._option_string_actions
        for word in words[1:]:
            if word.startswith("-") and word != "-":
                assert word.split("=")[0] in options, f"{command}: no option {word}"
