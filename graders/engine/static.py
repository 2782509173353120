"""Static measurements of a student's source: pycodestyle at 100 columns and AST facts."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import pycodestyle

MAX_LINE = 100


@dataclass
class StyleReport:
    long_lines: list[tuple[int, int]] = field(default_factory=list)   # (line, length)
    issues: dict[str, int] = field(default_factory=dict)              # code -> count
    examples: list[str] = field(default_factory=list)


def style(path: Path) -> StyleReport:
    """pycodestyle with a 100-character limit; E501 lines listed with their lengths."""
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
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace")
                                  .splitlines(), 1):
        if len(line) > MAX_LINE:
            report.long_lines.append((number, len(line)))
    return report


@dataclass
class CodeFacts:
    functions: list[str]                 # top-level and method names, in order
    function_lines: dict[str, int]
    docstrings: int
    comment_lines: int
    code_lines: int
    names: list[str]                     # assigned variable and parameter names
    classes: list[str]
    parse_error: str | None = None


def facts(path: Path) -> CodeFacts:
    source = path.read_text(encoding="utf-8", errors="replace")
    code_lines = sum(1 for line in source.splitlines()
                     if line.strip() and not line.strip().startswith("#"))
    comments = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments += 1
    except (tokenize.TokenError, SyntaxError):
        comments = len(re.findall(r"(?m)^\s*#", source))
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return CodeFacts([], {}, 0, comments, code_lines, [], [], f"{exc.msg} (line {exc.lineno})")
    functions, lines, names, classes, docs = [], {}, [], [], 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append(node.name)
            lines[node.name] = (node.end_lineno or node.lineno) - node.lineno + 1
            names += [a.arg for a in node.args.args if a.arg != "self"]
            docs += ast.get_docstring(node) is not None
        elif isinstance(node, ast.ClassDef):
            classes.append(node.name)
            docs += ast.get_docstring(node) is not None
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
    docs += ast.get_docstring(tree) is not None
    return CodeFacts(functions, lines, docs, comments, code_lines, names, classes)


def calls_to_print_and_input(path: Path) -> list[str]:
    """String literals passed to print() and input() (for spelling and wording checks)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return []
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("print", "input"):
            for arg in node.args:
                for inner in ast.walk(arg):
                    if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                        texts.append(inner.value)
    return texts
