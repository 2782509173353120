"""Readability measurements: long lines (pycodestyle E501 at 100 columns), docstrings and
one-letter names, from the file's text and syntax tree (the program is not run).

Written here for now; it belongs in ``graders/engine/static.py`` once that exists.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pycodestyle

MAX_LINE = 100
ALLOWED_SHORT = {"_", "i", "j", "k"}          # loop counters nobody minds
NOQA = re.compile(r"no(qa|pep8)", re.I)      # '# noqa' must not hide a long line


@dataclass
class StyleFacts:
    """What was measured in one file."""

    long_lines: list[tuple[int, int]] = field(default_factory=list)   # (line, length)
    functions: list[str] = field(default_factory=list)
    undocumented: list[str] = field(default_factory=list)
    short_names: dict[str, str] = field(default_factory=dict)         # name -> where
    parse_error: str | None = None

    @property
    def line_part(self) -> float:
        """1 without long lines, 0.2 less for each one."""
        return max(0.0, 1 - 0.2 * len(self.long_lines))

    @property
    def docstring_part(self) -> float:
        """The share of functions with a docstring."""
        if not self.functions:
            return 0.0
        return 1 - len(self.undocumented) / len(self.functions)

    @property
    def name_part(self) -> float:
        """1 without one-letter names, 0.25 less for each one."""
        return max(0.0, 1 - 0.25 * len(self.short_names))

    @property
    def fraction(self) -> float:
        """The mean of the three parts (0 when the file cannot be parsed)."""
        if self.parse_error:
            return 0.0
        return round((self.line_part + self.docstring_part + self.name_part) / 3, 2)


class _Collect(pycodestyle.BaseReport):
    """A pycodestyle report that keeps the line numbers of the errors it counts."""

    def __init__(self, options):
        """A report with no long lines yet."""
        super().__init__(options)
        self.long_line_numbers: list[int] = []

    def error(self, line_number, offset, text, check):
        """Count the error as pycodestyle does, and keep its line number."""
        code = super().error(line_number, offset, text, check)
        if code:
            self.long_line_numbers.append(line_number)
        return code


def long_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(line number, length) of every line pycodestyle finds longer than 100 characters."""
    guide = pycodestyle.StyleGuide(max_line_length=MAX_LINE, select=["E501"], quiet=True)
    report = _Collect(guide.options)
    checked = [NOQA.sub(lambda found: "n0" + found.group(1), line) for line in lines]
    pycodestyle.Checker("submission.py", lines=checked, options=guide.options,
                        report=report).check_all()
    return [(number, len(lines[number - 1].rstrip("\r\n"))) for number in report.long_line_numbers]


def measure(path: Path) -> StyleFacts:
    """Long lines, functions without docstrings and one-letter names of one file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    facts = StyleFacts(long_lines=long_lines(text.splitlines(keepends=True)))
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        facts.parse_error = f"{err.msg} (line {err.lineno})"
        return facts
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            facts.functions.append(node.name)
            if not ast.get_docstring(node):
                facts.undocumented.append(node.name)
    facts.short_names = short_names(tree)
    return facts


def short_names(tree: ast.Module) -> dict[str, str]:
    """One-letter names the student chose, with the function where each first appears."""
    found: dict[str, str] = {}
    for owner, node in _named_nodes(tree, "module level"):
        for name in _bound_names(node):
            if len(name) == 1 and name not in ALLOWED_SHORT:
                found.setdefault(name, owner)
    return found


def _named_nodes(node: ast.AST, owner: str):
    """Every node with the name of the function it belongs to."""
    for child in ast.iter_child_nodes(node):
        inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.ClassDef)) else owner
        yield inner, child
        yield from _named_nodes(child, inner)


def _bound_names(node: ast.AST) -> list[str]:
    """Names a node introduces: functions, parameters, assigned variables, loop variables."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    return []


def findings(facts: StyleFacts) -> list[str]:
    """What a reader would want improved, one sentence each."""
    if facts.parse_error:
        return [f"The file could not be parsed ({facts.parse_error}), so readability could "
                "not be measured."]
    notes = []
    if facts.long_lines:
        where = ", ".join(f"{line} ({length})" for line, length in facts.long_lines[:10])
        notes.append(f"{len(facts.long_lines)} line(s) are longer than {MAX_LINE} characters: "
                     f"line {where}. Split long expressions over several lines.")
    if facts.undocumented:
        notes.append("These functions have no docstring: " + ", ".join(facts.undocumented)
                     + ". Start each function with a one-line \"\"\"docstring\"\"\" saying "
                     "what it returns.")
    if facts.short_names:
        names = ", ".join(f"{name} (in {owner})" for name, owner in facts.short_names.items())
        notes.append(f"These one-letter names say little about what they hold: {names}. "
                     "Names like hand, rank or total make the code easier to follow.")
    if not facts.functions:
        notes.append("The file defines no functions.")
    return notes
