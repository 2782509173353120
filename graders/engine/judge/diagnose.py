"""What a failed import or a crashed start really means, said so a student can act on it: the
engine's one wording of import problems (``requirements.require`` uses it too).

A failure reaches a grader as the student's traceback (kit frames left out) or, for a run
stopped by a limit, as a sentence. These helpers read the exception type, its message and the
student's frames, and name the real cause: a circular import, a module that is not installed,
a file of the submission that is missing, a name one file imports but the other does not
define, a syntax error, input() or sys.exit() at import, or code at import that never ends.
``submitted`` names the files a submission should have (the rubric's ``files``): a missing
module among them is a file not handed in, any other a library that is not installed.
"""
from __future__ import annotations

import re

FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)')
MISSING = re.compile(r"No module named '([^']+)'")
CIRCULAR = re.compile(r"partially initialized module '([^']+)'|circular import")
CANNOT = re.compile(r"cannot import name '([^']+)' from '([^']+)'")
MAIN_GUARD = "keep the call of main() under  if __name__ == \"__main__\":"
RUN_FOLDER = re.compile(r"(?:/[^\s()'\"]+)?/kit-[^/\s]+/")


def tidy(text: str) -> str:
    """The text without the grader's run folders: '(/tmp/kit-run-x1/dice.py)' -> '(dice.py)'."""
    return RUN_FOLDER.sub("", text or "")


def frames(error: str) -> list[tuple[str, int, str, str]]:
    """The student's frames of a traceback: (file, line, function, code)."""
    return [(name.rsplit("/", 1)[-1], int(line), where, code.strip())
            for name, line, where, code in FRAME.findall(error)]


def exception_line(error: str) -> str:
    """The last line of a traceback: 'ModuleNotFoundError: No module named ...'."""
    lines = [line.strip() for line in error.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _where(found: list[tuple[str, int, str, str]]) -> str:
    """' (dice.py, line 3: import colorama)' for the innermost student frame."""
    if not found:
        return ""
    name, line, _, code = found[-1]
    return f" ({name}, line {line}{': ' + code if code else ''})"


def _finished(error: str) -> bool:
    """Whether the import ended with an exception (else a limit stopped it: a sentence)."""
    return "Traceback" in error or "Error" in exception_line(error).split(":", 1)[0]


FILE_NAME = re.compile(r"[\w-]+(\.[\w-]+)*\.[A-Za-z]\w*")      # project.py, game/card.py


def _capital(text: str) -> str:
    """``text`` opening a sentence: its first letter capitalised, unless it opens with a file
    name, which is written as the file is named (project.py, never Project.py)."""
    first = text.split(" ", 1)[0].rstrip(",:;")
    if FILE_NAME.fullmatch(first.replace("/", "_")):
        return text
    return text[:1].upper() + text[1:]


sentence_start = _capital


def import_problem(error: str, file: str = "the file", submitted=()) -> str:
    """Why importing ``file`` failed, in one or two sentences with what to do."""
    error = tidy(error)
    last = exception_line(error)
    kind = last.split(":", 1)[0]
    found = frames(error)
    if not _finished(error):
        return (f"Importing {file} did not finish: the program {error.rstrip('.')}. Code at "
                "the top level of a module runs when it is imported, so a game loop there "
                f"never lets the grader reach your functions: keep the game in main() and "
                f"{MAIN_GUARD}")
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        place = re.findall(r'File "([^"]+)", line (\d+)\n', error)
        where = f" ({place[-1][0].rsplit('/', 1)[-1]}, line {place[-1][1]})" if place else ""
        return f"Python cannot read the program: {last}{where}. Fix it, then run it once."
    if CIRCULAR.search(last) or _imports_itself(last, found):
        return _circular(file, found, last)
    missing = MISSING.search(last)
    if kind == "ModuleNotFoundError" and missing:
        return _missing_module(missing.group(1), found, submitted)
    cannot = CANNOT.search(last)
    if kind == "ImportError" and cannot:
        name, module = cannot.groups()
        return (f"The import of {name} from {module}{_where(found)} fails: {module} has no "
                f"{name}. Check the spelling of the name in both files (the handout fixes "
                "the names).")
    if _main_at_import(found):
        return (f"Importing {file} runs the game: main() is called at the top level"
                f"{_where(found[:1])}, and the grader's import cannot play it ({last}). "
                f"{_capital(MAIN_GUARD)}")
    if kind == "EOFError":
        return (f"Importing {file} asks for input{_where(found)}: code at the top level runs "
                "when the module is imported, and the grader types nothing then. Ask "
                f"questions only inside functions, and {MAIN_GUARD}")
    if kind == "SystemExit":
        return (f"Importing {file} stops Python{_where(found)}: sys.exit() or exit() at the "
                f"top level runs when the module is imported. {_capital(MAIN_GUARD)}")
    return f"Importing {file} raised {last}{_where(found)}. Fix the error shown below."


def _circular(file: str, found: list[tuple[str, int, str, str]], last: str) -> str:
    """A circular import, with the chain of files that import each other."""
    chain = [name for name, _, where, _ in found if where == "<module>"]
    match = CIRCULAR.search(last) or CANNOT.search(last)
    module = match.group(match.lastindex or 0) if match.lastindex else None
    if module and f"{module}.py" != (chain[-1:] or [None])[0]:
        chain.append(f"{module}.py")
    steps = chain[0] + "".join(f"{' imports ' if n == 1 else ', which imports '}{name}"
                               for n, name in enumerate(chain[1:], 1)) if chain else ""
    if module:
        how = (f"{module}.py is imported again while it is still half-loaded, so the name "
               "it is asked for does not exist yet")
    else:
        how = "two files import each other"
    return (f"Importing {file} fails because of a circular import ({steps or 'see below'}): "
            f"{how}. Put what both files need in one of them (the one the other imports), "
            "or import inside the function that needs it.")


def _missing_module(name: str, found: list[tuple[str, int, str, str]], submitted) -> str:
    """A module that is neither in the submission nor installed."""
    top = name.split(".", 1)[0]
    if f"{top}.py" in submitted:
        return (f"{top}.py is imported{_where(found)} but is not in the submission: submit "
                "all the files of the handout together.")
    # Without the submission's file names, the sentence covers both causes.
    what = "not installed" if submitted else "neither a file of your submission nor installed"
    return (f"The program imports '{name}'{_where(found)}, a module that is {what} "
            "where programs are graded: the grader has Python's standard library only "
            "(and silent stand-ins for the libraries a handout allows). Third-party menu, "
            "colour or screen libraries cannot run here; ask every question with input().")


def _imports_itself(last: str, found: list[tuple[str, int, str, str]]) -> bool:
    """'cannot import name X from M' where M's own top level is in the traceback: M was
    imported again while half-loaded (Python names the circle only for some imports)."""
    cannot = CANNOT.search(last)
    loading = [name for name, _, where, _ in found if where == "<module>"]
    return bool(cannot) and f"{cannot.group(2)}.py" in loading[:-1]


def _main_at_import(found: list[tuple[str, int, str, str]]) -> bool:
    """The traceback goes from the module's top level into main()."""
    called = any(where == "<module>" and re.search(r"\bmain\s*\(", code)
                 for _, _, where, code in found)
    return called and any(where == "main" for _, _, where, _ in found)


def short_cause(error: str) -> str:
    """The cause of a failed import in a few words (the full story is told once elsewhere)."""
    error = tidy(error)
    last = exception_line(error)
    missing = MISSING.search(last)
    if CIRCULAR.search(last) or _imports_itself(last, frames(error)):
        return "a circular import"
    if missing and last.startswith("ModuleNotFoundError"):
        return f"the module '{missing.group(1)}' is not available"
    if not _finished(error):
        return "the import did not finish"
    return last or "an error"


def fail_import(result, error: str, file: str = "your file",
                lost: str = "none of its functions could be called", here: bool = True,
                see: str = "another item", submitted=()) -> None:
    """Stop a check because ``file`` could not be imported: the cause told in full where
    ``here`` (the first item that needs the file), in a few words pointing to the item ``see``
    in the others, so that one mistake is explained once."""
    if here:
        result.fail(f"{_capital(file)} could not be imported, so {lost}. "
                    f"{import_problem(error, file, submitted)}", actual=tidy(error))
    result.fail(f"{_capital(file)} could not be imported ({short_cause(error)}), so this item "
                f"could not be tested; see {see} for the details.")


def run_problem(outcome: dict, brief: bool = False, see: str = "another item",
                submitted=()) -> str | None:
    """The real cause when a run crashed on an import (a module missing, circular or lacking
    a name), else None; ``brief``: in a few words, pointing to the item ``see`` where it is
    told in full."""
    if outcome.get("status") not in ("exception", "import-error"):
        return None
    error = tidy(outcome.get("error") or "")
    last = exception_line(error)
    if not (MISSING.search(last) or CIRCULAR.search(last) or CANNOT.search(last)):
        return None
    if brief:
        return f"{_capital(short_cause(error))}: see {see} for the details."
    found = frames(error)
    return import_problem(error, found[0][0] if found else "the program", submitted)
