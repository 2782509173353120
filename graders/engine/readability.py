"""Readability, measured from the files (nothing is run), for every assignment alike:

* long lines: more than 100 characters (``static.style``), ``line_penalty`` off per line;
* docstrings: the share of functions (and methods) with one; with ``docstrings = "all"`` the
  module and its classes count too;
* names: one-letter names the student chose (``allowed_short`` ones excepted),
  ``name_penalty`` off per name.

The item's share is the weighted mean of the three parts, rounded to hundredths (0 when a file
cannot be parsed). Settings come from the rubric's ``[readability]`` table (see
``Settings``), so each assignment sets its own weights without code:

    [readability]
    files = ["project.py", "dice.py"]        # docstrings and names (default: the .py files)
    lines_only = ["test_project.py"]        # only their line length counts
    allowed_short = ["_", "i", "j", "k", "d"]
    docstrings = "all"
    weights = { lines = 1, docstrings = 1, names = 1 }
    example_names = "purse, hand or answer"

``check_readability(result, submission, rubric)`` is the whole check of a review item.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from . import static

MAX_LINE = static.MAX_LINE


@dataclass
class Settings:
    """How one assignment measures readability (the rubric's ``[readability]`` table)."""

    files: list[str] | None = None        # None: the rubric's .py files
    lines_only: list[str] = field(default_factory=list)
    allowed_short: set[str] = field(default_factory=lambda: {"_", "i", "j", "k"})
    docstrings: str = "functions"         # or "all": the module and classes count too
    line_penalty: float = 0.2
    name_penalty: float = 0.25
    weights: dict = field(default_factory=lambda: {"lines": 1, "docstrings": 1, "names": 1})
    example_names: str = "total, count or answer"

    @classmethod
    def from_table(cls, table: dict | None) -> "Settings":
        """Settings from a ``[readability]`` table (missing keys keep their defaults)."""
        table = dict(table or {})
        settings = cls()
        for key, value in table.items():
            if not hasattr(settings, key):
                raise ValueError(f"[readability] has no setting {key!r}")
            if key == "allowed_short":
                value = set(value)
            elif key == "weights":
                value = {**settings.weights, **value}
            setattr(settings, key, value)
        return settings


@dataclass
class Readability:
    """What was measured in a submission's files."""

    settings: Settings = field(default_factory=Settings)
    long_lines: list[tuple[str, int, int]] = field(default_factory=list)   # file, line, length
    documentable: list[str] = field(default_factory=list)     # functions (and more) counted
    undocumented: list[str] = field(default_factory=list)
    missing_extra: int = 0                # more missing than named (counted, not named)
    short_names: dict[str, str] = field(default_factory=dict)             # name -> where
    unreadable: list[str] = field(default_factory=list)       # files that could not be parsed
    several_files: bool = False

    @property
    def parts(self) -> dict[str, float]:
        """Line length, docstrings and names, each from 0 to 1."""
        penalty = self.settings
        missing = len(self.undocumented) + self.missing_extra
        docs = 1 - missing / len(self.documentable) if self.documentable else 0.0
        return {"lines": max(0.0, 1 - penalty.line_penalty * len(self.long_lines)),
                "docstrings": docs,
                "names": max(0.0, 1 - penalty.name_penalty * len(self.short_names))}

    @property
    def fraction(self) -> float:
        """The weighted mean of the parts (0 when a file cannot be parsed)."""
        if self.unreadable:
            return 0.0
        weights = self.settings.weights
        total = sum(weights.values()) or 1
        return round(sum(weights[name] * part for name, part in self.parts.items()) / total, 2)

    def where(self, name: str, line: int) -> str:
        return f"{name} line {line}" if self.several_files else f"line {line}"

    def findings(self) -> list[str]:
        """What a reader would want improved, one sentence each."""
        if self.unreadable:
            return [f"Could not be parsed, so readability could not be measured: "
                    f"{'; '.join(self.unreadable)}."]
        notes = []
        if self.long_lines:
            where = ", ".join(f"{self.where(name, line)} ({length})"
                              for name, line, length in self.long_lines[:10])
            notes.append(f"{len(self.long_lines)} line(s) are longer than {MAX_LINE} "
                         f"characters: {where}. Split long expressions over several lines.")
        if self.undocumented:
            notes.append("These have no docstring: " + ", ".join(self.undocumented) + ". Start "
                         "each function with a one-line \"\"\"docstring\"\"\" saying what it "
                         "does or returns.")
        if self.short_names:
            names = ", ".join(f"{name} (in {where})" for name, where in self.short_names.items())
            notes.append(f"These one-letter names say little about what they hold: {names}. "
                         f"Names like {self.settings.example_names} make the code easier to "
                         "follow.")
        if not self.documentable:
            notes.append("The file defines no functions.")
        return notes


def measure(files: dict[str, Path], settings: Settings | None = None) -> Readability:
    """Measure a submission's files (name -> path; missing files are skipped)."""
    settings = settings or Settings()
    names = settings.files or [name for name in files if name.endswith(".py")]
    found = Readability(settings, several_files=len(names) + len(settings.lines_only) > 1)
    for name in list(names) + [n for n in settings.lines_only if n not in names]:
        path = files.get(name)
        if path is None or not Path(path).is_file():
            continue
        found.long_lines += [(name, line, length)
                             for line, length in static.style(Path(path)).long_lines]
        if name in names:
            _measure_code(found, name, Path(path))
    return found


def _measure_code(found: Readability, name: str, path: Path) -> None:
    """Docstrings and one-letter names of one file."""
    prefix = f"{name}: " if found.several_files else ""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        _measured_by_the_students_python(found, name, path)
        return
    nodes = [node for node in ast.walk(tree) if isinstance(node, _documented(found))]
    if found.settings.docstrings == "all":
        nodes.insert(0, tree)
    for node in nodes:
        label = prefix + getattr(node, "name", "the module")
        found.documentable.append(label)
        if not ast.get_docstring(node):
            found.undocumented.append(label)
    for short, owner in short_names(tree, found.settings.allowed_short).items():
        found.short_names.setdefault(short, prefix + owner)


def _documented(found: Readability) -> tuple:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return kinds + (ast.ClassDef,) if found.settings.docstrings == "all" else kinds


def _measured_by_the_students_python(found: Readability, name: str, path: Path) -> None:
    """For syntax newer than the kit's Python: the engine's facts, parsed by the student's
    Python. They count docstrings rather than naming what lacks one."""
    code = static.facts(path)
    if code.parse_error:
        found.unreadable.append(f"{name}: {code.parse_error}")
        return
    documentable = list(code.functions)
    if found.settings.docstrings == "all":
        documentable += list(code.classes) + ["the module"]
    missing = max(0, len(documentable) - code.docstrings)
    found.documentable += documentable
    if missing:
        found.undocumented.append(f"{missing} of the {len(documentable)} in {name}")
        found.missing_extra += missing - 1
    for short in code.names:
        if len(short) == 1 and short not in found.settings.allowed_short:
            found.short_names.setdefault(short, name)


def short_names(tree: ast.Module, allowed: set[str]) -> dict[str, str]:
    """One-letter names the student chose, with the function where each first appears."""
    found: dict[str, str] = {}
    for owner, node in _named_nodes(tree, "module level"):
        for name in _bound_names(node):
            if len(name) == 1 and name not in allowed:
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


def check_readability(result, submission, rubric) -> Readability:
    """The readability item: measured with the rubric's settings, a TA confirms the mark."""
    found = measure(dict(submission.files), rubric.readability)
    result.measure(f"lines longer than {MAX_LINE} characters", len(found.long_lines))
    longest = max((length for _, _, length in found.long_lines), default=0)
    result.measure("longest line", longest or f"<= {MAX_LINE}")
    result.measure("functions" if rubric.readability.docstrings == "functions" else
                   "documentable parts", len(found.documentable))
    result.measure("without a docstring", ", ".join(found.undocumented) or "none")
    result.measure("one-letter names", ", ".join(found.short_names) or "none")
    weights = rubric.readability.weights
    parts = ", ".join(f"{name} {weight:g}" for name, weight in weights.items())
    result.note(f"Measured automatically (weights: {parts}); a TA confirms this mark.")
    if found.fraction < 1:
        result.partial(found.fraction, "\n".join(found.findings()))
    return found
