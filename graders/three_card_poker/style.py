"""Readability measurements: long lines (over 100 characters, from the engine's
``static.style``), docstrings per function and one-letter names (from the syntax tree; the
program is not run).

The engine's ``static.facts`` counts docstrings but does not say which functions lack one, so
the tree is read here, with the engine's facts as the fallback for syntax newer than the kit's
Python.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine import static

MAX_LINE = static.MAX_LINE
ALLOWED_SHORT = {"_", "i", "j", "k"}          # loop counters nobody minds


@dataclass
class StyleFacts:
    """What was measured in one file."""

    long_lines: list[tuple[int, int]] = field(default_factory=list)   # (line, length)
    functions: list[str] = field(default_factory=list)
    undocumented: list[str] = field(default_factory=list)
    short_names: dict[str, str] = field(default_factory=dict)         # name -> where
    parse_error: str | None = None
    documented_share: float | None = None     # set when only a count of docstrings is known

    @property
    def line_part(self) -> float:
        """1 without long lines, 0.2 less for each one."""
        return max(0.0, 1 - 0.2 * len(self.long_lines))

    @property
    def docstring_part(self) -> float:
        """The share of functions with a docstring."""
        if self.documented_share is not None:
            return self.documented_share
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


def measure(path: Path) -> StyleFacts:
    """Long lines, functions without docstrings and one-letter names of one file."""
    facts = StyleFacts(long_lines=static.style(path).long_lines)
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return _measured_by_the_students_python(path, facts)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            facts.functions.append(node.name)
            if not ast.get_docstring(node):
                facts.undocumented.append(node.name)
    facts.short_names = short_names(tree)
    return facts


def _measured_by_the_students_python(path: Path, facts: StyleFacts) -> StyleFacts:
    """For syntax newer than the kit's Python: the engine's facts, parsed by the student's.

    They count docstrings rather than naming the functions without one.
    """
    code = static.facts(path)
    if code.parse_error:
        facts.parse_error = code.parse_error
        return facts
    facts.functions = list(code.functions)
    missing = max(0, len(code.functions) - code.docstrings)
    facts.undocumented = [f"{missing} of the {len(code.functions)} functions"] if missing else []
    facts.documented_share = 1 - missing / len(code.functions) if code.functions else 0.0
    facts.short_names = {name: "the file" for name in code.names
                         if len(name) == 1 and name not in ALLOWED_SHORT}
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
