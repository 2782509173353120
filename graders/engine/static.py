"""Static measurements of a student's source: pycodestyle at 100 columns and AST facts."""
from __future__ import annotations

import functools
import io
import json
import subprocess
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import pycodestyle

from . import pythons

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
    for number, line in enumerate(source_text(path).splitlines(), 1):
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
    names: list[str]                     # assigned names and parameters (not loop variables)
    classes: list[str]
    strings: list[str]                   # string literals given to print() and input()
    parse_error: str | None = None       # also: bytes Python refuses to read (not UTF-8)
    work: dict = field(default_factory=dict)   # statements that do something (see own_work)


@functools.lru_cache(maxsize=256)
def _facts(path: str, mtime: float) -> CodeFacts:
    script = Path(__file__).with_name("boot") / "astfacts.py"
    try:
        out = subprocess.run([pythons.student_python(), "-I", str(script), path],
                             capture_output=True, text=True, timeout=30)
        data = json.loads(out.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        return CodeFacts([], {}, 0, 0, 0, [], [], [], f"could not read the file ({exc})")
    return CodeFacts(**data)


def facts(path: Path) -> CodeFacts:
    """Functions, docstrings, comments and names, parsed by the student's Python version."""
    path = Path(path)
    return _facts(str(path.resolve()), path.stat().st_mtime)


def calls_to_print_and_input(path: Path) -> list[str]:
    """String literals passed to print() and input() (for spelling and wording checks)."""
    return facts(path).strings


def source_text(path: Path) -> str:
    """The file's text as Python reads it: a byte-order mark dropped, a coding line honoured
    (bytes that do not decode are replaced)."""
    data = Path(path).read_bytes()
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return data.decode("utf-8", "replace").removeprefix("\ufeff")


def own_work(path: Path, template: Path | None = None) -> int:
    """How many statements of the file do something (not pass, docstrings, imports,
    constants or a bare ``main()``), leaving out functions copied unchanged from the
    template. 0 means the file does nothing of its own: it is empty, or it is the template
    (perhaps with comments or docstrings filled in)."""
    work = facts(path).work or {}
    given = (facts(template).work or {}).get("functions", {}) \
        if template is not None and Path(template).is_file() else {}
    total = work.get("top", 0)
    for name, (fingerprint, count) in work.get("functions", {}).items():
        if given.get(name, [None])[0] != fingerprint:
            total += count
    return total
