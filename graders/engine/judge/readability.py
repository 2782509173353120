"""Readability, measured from the files (nothing is run), for every assignment alike:

* long lines: more than 100 characters (``style``, pycodestyle), ``line_penalty`` off per line;
* docstrings: the share of functions (and methods) with one; with ``docstrings = "all"`` the
  module and its classes count too;
* names: one-letter names the student chose (``allowed_short`` ones excepted),
  ``name_penalty`` off per name beyond the first ``names_allowed``;
* comments (only when weighted): ``#`` comment lines plus docstrings, at least
  ``comments_needed`` and one per ``lines_per_comment`` lines of code, ``comment_penalty`` off
  per one missing;
* layout (only when weighted): pycodestyle's other warnings (E and W, long lines aside),
  ``layout_allowed`` free and one more per ``lines_per_layout_warning`` lines of code,
  ``layout_penalty`` off per warning beyond that.

The item's share is the weighted mean of the parts named in ``weights``, rounded to
``share_decimals`` places (0 when a file cannot be parsed). A penalty of 1 makes a part all or
nothing. Settings come from the rubric's ``[readability]`` table (see ``Settings``), so each
assignment sets its own weights without code:

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

from ..run import static

MAX_LINE = 100                  # characters a line may have
PARTS = ("lines", "docstrings", "names", "comments", "layout")   # what ``weights`` may name
NAME_KINDS = ("all", "variables")


@dataclass
class StyleReport:
    long_lines: list[tuple[int, int]] = field(default_factory=list)   # (line, length)
    issues: dict[str, int] = field(default_factory=dict)              # code -> count
    examples: list[str] = field(default_factory=list)


def style(path: Path) -> StyleReport:
    """pycodestyle with a 100-character limit; E501 lines listed with their lengths."""
    import pycodestyle      # here: the rubric reads Settings from this module at every start
    report = StyleReport()

    class Collect(pycodestyle.BaseReport):
        def error(self, line_number, offset, text, check):
            code = text.split()[0]
            if super().error(line_number, offset, text, check) is None:
                return None
            report.issues[code] = report.issues.get(code, 0) + 1
            if len(report.examples) < 12:
                report.examples.append(f"line {line_number}: {text}")
            return code

    guide = pycodestyle.StyleGuide(max_line_length=MAX_LINE, reporter=Collect, quiet=True)
    guide.check_files([str(path)])
    for number, line in enumerate(static.source_text(path).splitlines(), 1):
        if len(line) > MAX_LINE:
            report.long_lines.append((number, len(line)))
    return report


@dataclass
class Settings:
    """How one assignment measures readability (the rubric's ``[readability]`` table)."""

    files: list[str] | None = None        # None: the rubric's .py files
    lines_only: list[str] = field(default_factory=list)
    allowed_short: set[str] = field(default_factory=lambda: {"_", "i", "j", "k"})
    docstrings: str = "functions"         # or "all": the module and classes count too
    line_penalty: float = 0.2
    name_penalty: float = 0.25
    names_allowed: int = 0                # one-letter names that cost nothing
    # "all": every name the student binds (loop variables, functions, classes too);
    # "variables": assigned variables and function parameters only (see short_names)
    names_counted: str = "all"
    comments_needed: int = 3
    lines_per_comment: int = 40           # one comment (or docstring) per this many code lines
    comment_penalty: float = 0.25
    layout_allowed: int = 10
    lines_per_layout_warning: int = 10    # one more warning allowed per this many code lines
    layout_penalty: float = 0.1
    weights: dict = field(default_factory=lambda: {"lines": 1, "docstrings": 1, "names": 1})
    share_decimals: int = 2
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
                unknown = sorted(set(value) - set(PARTS))
                if unknown:
                    raise ValueError(f"[readability] weights has no part {unknown[0]!r} "
                                     f"(its parts: {', '.join(PARTS)})")
                value = {**settings.weights, **value}
            elif key == "names_counted" and value not in NAME_KINDS:
                raise ValueError(f"[readability] names_counted must be one of "
                                 f"{', '.join(NAME_KINDS)}, not {value!r}")
            setattr(settings, key, value)
        return settings

    def weighs(self, part: str) -> bool:
        """Does this part count towards the share?"""
        return bool(self.weights.get(part))


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
    comments: int = 0                     # comment lines plus docstrings (when weighted)
    code_lines: int = 0                   # lines that are neither blank nor only a comment
    layout_warnings: int = 0              # pycodestyle E and W codes, long lines aside
    layout_examples: list[str] = field(default_factory=list)

    @property
    def comments_needed(self) -> int:
        settings = self.settings
        return max(settings.comments_needed, self.code_lines // settings.lines_per_comment)

    @property
    def layout_allowed(self) -> int:
        settings = self.settings
        return max(settings.layout_allowed, self.code_lines // settings.lines_per_layout_warning)

    @property
    def parts(self) -> dict[str, float]:
        """Each part named in the weights (line length, docstrings, names, and comments and
        layout where an assignment weighs them), from 0 to 1."""
        penalty = self.settings
        missing = len(self.undocumented) + self.missing_extra
        docs = 1 - missing / len(self.documentable) if self.documentable else 0.0
        names = max(0, len(self.short_names) - penalty.names_allowed)
        comments = max(0, self.comments_needed - self.comments)
        layout = max(0, self.layout_warnings - self.layout_allowed)
        every = {"lines": max(0.0, 1 - penalty.line_penalty * len(self.long_lines)),
                 "docstrings": docs,
                 "names": max(0.0, 1 - penalty.name_penalty * names),
                 "comments": max(0.0, 1 - penalty.comment_penalty * comments),
                 "layout": max(0.0, 1 - penalty.layout_penalty * layout)}
        return {name: every[name] for name in penalty.weights}

    @property
    def fraction(self) -> float:
        """The weighted mean of the parts (0 when a file cannot be parsed)."""
        if self.unreadable:
            return 0.0
        weights = self.settings.weights
        total = sum(weights.values()) or 1
        return round(sum(weights[name] * part for name, part in self.parts.items()) / total,
                     self.settings.share_decimals)

    def lost(self, part: str) -> bool:
        """Did a weighted part cost marks?"""
        return self.settings.weighs(part) and self.parts[part] < 1

    def where(self, name: str, line: int) -> str:
        return f"{name} line {line}" if self.several_files else f"line {line}"

    def findings(self) -> list[str]:
        """What a reader would want improved, one sentence each."""
        if self.unreadable:
            return [f"Could not be parsed, so readability could not be measured: "
                    f"{'; '.join(self.unreadable)}."]
        # only a part that cost marks is described: a part weighted 0 (or still within what
        # is allowed) is measured for the TA but not held against the student
        notes = []
        if self.lost("lines"):
            where = ", ".join(f"{self.where(name, line)} ({length})"
                              for name, line, length in self.long_lines[:10])
            notes.append(f"{len(self.long_lines)} line(s) are longer than {MAX_LINE} "
                         f"characters: {where}. Split long expressions over several lines.")
        if self.lost("docstrings") and self.undocumented:
            notes.append("These have no docstring: " + ", ".join(self.undocumented) + ". Start "
                         "each function with a one-line \"\"\"docstring\"\"\" saying what it "
                         "does or returns.")
        if self.lost("names"):
            names = ", ".join(f"{name} (in {where})" for name, where in self.short_names.items())
            allowed = self.settings.names_allowed
            notes.append(f"These one-letter names say little about what they hold: {names}"
                         + (f" (up to {allowed} are fine)" if allowed else "")
                         + f". Names like {self.settings.example_names} make the code easier "
                         "to follow.")
        if self.lost("comments"):
            notes.append(f"Few comments: {self.comments} comment line(s) and docstring(s) "
                         f"together for {self.code_lines} lines of code (at least "
                         f"{self.comments_needed} expected). Say in a comment what each part of "
                         "the program does and why.")
        if self.lost("layout"):
            examples = "; ".join(self.layout_examples[:3])
            notes.append(f"Inconsistent spacing: pycodestyle gives {self.layout_warnings} "
                         f"layout warnings (up to {self.layout_allowed} are fine)"
                         + (f", e.g. {examples}" if examples else "") + ".")
        if self.lost("docstrings") and not self.documentable:
            notes.append("The file defines no functions.")
        return notes


def measure(files: dict[str, Path], settings: Settings | None = None) -> Readability:
    """Measure a submission's files (name -> path; missing files are skipped)."""
    settings = settings or Settings()
    names = settings.files or program_files(files)
    found = Readability(settings, several_files=len(names) + len(settings.lines_only) > 1)
    for name in list(names) + [n for n in settings.lines_only if n not in names]:
        path = files.get(name)
        if path is None or not Path(path).is_file():
            continue
        # pycodestyle (most of this measure's time) only where its layout warnings count;
        # elsewhere the long lines alone, found as static.style finds them
        layout = name in names and settings.weighs("layout")
        report = style(Path(path)) if layout else StyleReport(
            long_lines=_long_lines(Path(path)))
        found.long_lines += [(name, line, length) for line, length in report.long_lines]
        if name in names:
            _measure_code(found, name, Path(path))
            _measure_comments_and_layout(found, name, Path(path), report)
    return found


def program_files(files: dict[str, Path]) -> list[str]:
    """The Python files of the program: those beside the main file, and those in the
    subfolders they import (a package, hilogame/cards.py), not other folders sent along."""
    beside = [name for name in files if name.endswith(".py") and "/" not in name]
    imported = set().union(*(static.imported_modules(files[name]) for name in beside))
    return [name for name in files if name.endswith(".py")
            and ("/" not in name or name.partition("/")[0] in imported)]


def _long_lines(path: Path) -> list[tuple[int, int]]:
    """(line, length) of the lines longer than ``MAX_LINE`` characters, as Python reads the
    file (the same lines ``static.style`` lists)."""
    return [(number, len(line))
            for number, line in enumerate(static.source_text(path).splitlines(), 1)
            if len(line) > MAX_LINE]


def _measure_comments_and_layout(found: Readability, name: str, path: Path,
                                 report: StyleReport) -> None:
    """Comments, code lines and layout warnings of one file, when the settings weigh them.
    They come from the student's Python (``static.facts``), which parses what it runs."""
    settings = found.settings
    if not (settings.weighs("comments") or settings.weighs("layout")):
        return
    code = static.facts(path)
    # docstrings count as comments: both tell a reader what the code is for
    found.comments += code.comment_lines + code.docstrings
    found.code_lines += code.code_lines
    # layout: pycodestyle's errors and warnings (E, W) except the long lines, which are a
    # part of their own; C9 (complexity) is not layout
    layout = {issue: count for issue, count in report.issues.items()
              if issue[0] in "EW" and issue != "E501"}
    found.layout_warnings += sum(layout.values())
    prefix = f"{name} " if found.several_files else ""
    found.layout_examples += [prefix + example for example in report.examples
                              if example.split(": ", 1)[-1].split()[0] in layout]


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
    for short, owner in short_names(tree, found.settings.allowed_short,
                                    found.settings.names_counted).items():
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


def short_names(tree: ast.Module, allowed: set[str], counted: str = "all") -> dict[str, str]:
    """One-letter names the student chose, with the function where each first appears.
    ``counted="variables"`` keeps assigned variables and parameters only (the names the
    engine's ``static.facts`` lists): loop and comprehension variables, where ``d`` for a die
    reads naturally, and function, class and exception names are left out."""
    found: dict[str, str] = {}
    loops = _loop_targets(tree) if counted == "variables" else None
    for owner, node in _named_nodes(tree, "module level"):
        names = _bound_names(node) if loops is None else _variable_names(node, loops)
        for name in names:
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


def _variable_names(node: ast.AST, loops: set[str]) -> list[str]:
    """Parameters of a function (positional, as ``static.facts`` counts them) and assigned
    names that are nowhere a loop variable."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [argument.arg for argument in node.args.args]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in loops:
        return [node.id]
    return []


def _loop_targets(tree: ast.Module) -> set[str]:
    """Names bound by for loops and comprehensions anywhere in the file."""
    return {inner.id for node in ast.walk(tree)
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension))
            for inner in ast.walk(node.target) if isinstance(inner, ast.Name)}


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
    if rubric.readability.weighs("comments"):
        result.measure("comment lines and docstrings",
                       f"{found.comments} for {found.code_lines} lines of code "
                       f"(at least {found.comments_needed} expected)")
    if rubric.readability.weighs("layout"):
        result.measure("pycodestyle layout warnings",
                       f"{found.layout_warnings} (up to {found.layout_allowed} are fine)")
    weights = rubric.readability.weights
    parts = ", ".join(f"{name} {weight:g}" for name, weight in weights.items())
    result.note(f"Measured automatically (weights: {parts}); a TA confirms this mark.")
    if found.fraction < 1:
        result.partial(found.fraction, "\n".join(found.findings()))
    return found


def check_line_length(result, submission) -> None:
    """A line-length item of its own: every line over the limit is one thing wrong (the
    share of lines right is not asked; one long line of many must still cost the item)."""
    long = measure(dict(submission.files)).long_lines
    if not long:
        result.note(f"No line is longer than {MAX_LINE} characters.")
        return
    lines = "\n".join(f"{name}, line {line}: {length} characters" for name, line, length in long)
    result.fail(f"Keep lines to {MAX_LINE} characters; these are longer:\n{lines}")
