"""Static facts of a student's source, read by the student's own Python without running it
(``boot/astfacts.py``): functions, names, comments, docstrings, the imports a program makes.
The style checker (pycodestyle) is readability's (``judge/readability.py``)."""
from __future__ import annotations

import ast
import atexit
import functools
import io
import json
import os
import select
import subprocess
import sys
import threading
import time
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from . import pythons


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


SCRIPT = Path(__file__).with_name("boot") / "astfacts.py"
PARSE_SECONDS = 30


class _Parser:
    """One process of the student's Python that parses file after file (``astfacts.py
    --serve``): started at the first file a grader asks about and kept until the grader ends,
    so a grader that measures many submissions starts the interpreter once, not once a file.
    A file whose parsing kills it (or takes too long) is told as a run of its own would tell
    it, and the next file gets a new process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.process: subprocess.Popen | None = None

    def output(self, path: str) -> str:
        """What ``astfacts.py PATH`` prints: a line of JSON, or '' when parsing failed."""
        with self.lock:
            for attempt in (1, 2):
                if self.process is None:
                    # -S: the script uses the standard library only
                    self.process = pythons.popen(
                        [pythons.student_python(), "-I", "-S", str(SCRIPT), "--serve"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL)
                try:
                    self.process.stdin.write((json.dumps(path) + "\n").encode())
                    self.process.stdin.flush()
                except OSError:                 # it ended since the last file: a new one
                    self.stop()
                    if attempt == 2:
                        raise
                    continue
                return self._answer(path)
        return ""

    def _answer(self, path: str) -> str:
        """The process's line for ``path`` ('' if it died before ending it)."""
        stream, line = self.process.stdout, b""
        deadline = time.monotonic() + PARSE_SECONDS
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                self.stop()
                raise subprocess.TimeoutExpired([pythons.student_python(), "-I",
                                                 str(SCRIPT), path], PARSE_SECONDS)
            chunk = os.read(stream.fileno(), 1 << 16)
            if not chunk:                       # it died on this file
                self.stop()
                break
            line += chunk
        return line.decode("utf-8", "replace").strip()

    def stop(self) -> None:
        """End the process (its input closed: it ends by itself; killed if it does not)."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


_parser = _Parser()
atexit.register(_parser.stop)


class ParserUnavailable(RuntimeError):
    """The grader could not start or talk to the student's Python to parse a file: the
    grader's problem, not the file's (raised, and not kept, so a later call tries again)."""


@functools.lru_cache(maxsize=256)
def _facts(path: str, mtime: float) -> CodeFacts:
    # The file's own problems become its parse_error: parsing that kills the student's
    # Python, or takes longer than PARSE_SECONDS, would stop a run of the program too.
    # Failing to start or reach that Python at all (OSError) says nothing about the file.
    try:
        data = json.loads(_parser.output(path))
    except OSError as exc:
        raise ParserUnavailable(f"the grader could not run {pythons.student_python()} to "
                                f"parse {Path(path).name} ({exc})") from None
    except (ValueError, subprocess.TimeoutExpired) as exc:
        return CodeFacts([], {}, 0, 0, 0, [], [], [], f"could not read the file ({exc})")
    return CodeFacts(**data)


def facts(path: Path) -> CodeFacts:
    """Functions, docstrings, comments and names, parsed by the student's Python version.
    Raises ParserUnavailable when the grader cannot run that Python."""
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


TRY_STATEMENTS = (ast.Try, ast.TryStar)        # an import inside one has its own way out
# courses' testing libraries: a program imports one for its own tests, not to play
TESTING_LIBRARIES = {"bakery", "cisc106", "cisc108"}


def unavailable_imports(path: Path) -> list[str]:
    """Modules the program imports outside any try statement that are neither the standard
    library nor files beside it. A terminal run gets stand-ins for those that are a course's
    testing library (``bakery``) if its Python has none, as the function calls do (see
    ``calls.LoadReport``), so that the tests' import does not stop every game; any other
    missing module stops the program, as it would at home. An import inside ``try`` is left
    alone: the program has its own way without it."""
    try:
        names = _imported_outside_try(source_text(path))
    except OSError:
        return []
    beside = {p.stem for p in Path(path).parent.glob("*.py")} | \
        {p.name for p in Path(path).parent.iterdir() if p.is_dir()}
    return sorted(name for name in names if name not in sys.stdlib_module_names
                  and name not in beside and name != "__future__")


def imported_modules(path: Path) -> frozenset[str]:
    """Top-level names of the modules a file imports anywhere (absolute imports only)."""
    try:
        tree = ast.parse(source_text(path))
    except (SyntaxError, ValueError, OSError):
        return frozenset()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return frozenset(names)


@functools.lru_cache(maxsize=64)
def _imported_outside_try(text: str) -> frozenset[str]:
    """Top-level names of the modules a source imports outside try statements (parsed once
    per text: every terminal run of a submission asks). Imports are statements, so only the
    statement lists are read (bodies, else and finally blocks, match cases), never the
    expressions: a tenth of the nodes."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return frozenset()
    names, todo = set(), [tree.body]
    while todo:
        for node in todo.pop():
            if isinstance(node, ast.Import):
                names |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module:
                    names.add(node.module.partition(".")[0])
            elif not isinstance(node, TRY_STATEMENTS):
                todo += [getattr(node, block) for block in ("body", "orelse", "finalbody")
                         if isinstance(getattr(node, block, None), list)]
                todo += [case.body for case in getattr(node, "cases", ())]
    return frozenset(names)
