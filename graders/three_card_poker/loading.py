"""What the student's file did when it was loaded for the function calls (the engine's
``FunctionCalls.load``): questions asked at import (a game that runs when the file is
imported), top-level statements that failed or never stopped, and modules that the grader
does not have and replaced by stand-ins.

Each is said once: the stand-ins in a note at the top of the feedback, everything else under
``main``, the only item it costs (handout section 11: nothing may run when the file is
imported, the game belongs in main() under the ``__name__`` guard).
"""
from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

# The course's testing libraries: their assert functions check the student's own examples,
# so replacing them by stand-ins that do nothing changes no function.
TESTING_LIBRARIES = {"bakery", "cisc106", "cisc108"}
AT_IMPORT_SHARE = 0.5       # main when the file plays or fails when it is imported
SHOWN_STATEMENTS = 4

STUB_PREFIXES = ("assert", "check", "expect", "test", "input")
STUB_SOURCE = '''"""Stand-in for {name}, which the grader does not have: assert-like functions
do nothing, input-like functions ask input(), any other name does nothing and returns None."""

__all__ = {star_names!r}


def _quiet(*args, **kwargs):
    return None


def _ask(*args, **kwargs):
    prompt = kwargs.get("prompt")
    if not isinstance(prompt, str):
        prompt = next((arg for arg in args if isinstance(arg, str)), "")
    return input(prompt)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name.lower().startswith(("assert", "check", "expect", "test")):
        return _quiet
    if name.lower().startswith("input"):
        return _ask
    return _quiet
'''


def star_names(source: str) -> list[str]:
    """The assert-like and input-like names a file uses without defining them: what a
    stand-in must give to ``from bakery import *``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    bound, loaded = set(dir(builtins)), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).partition(".")[0])
    return sorted(name for name in loaded - bound if name.lower().startswith(STUB_PREFIXES))


@dataclass
class Loading:
    """The load report of one submission, in the grader's terms."""

    asked: int = 0                                          # questions asked at import
    problems: list[dict] = field(default_factory=list)     # statements that asked or failed
    stuck: list[dict] = field(default_factory=list)        # statements skipped: never stopped
    stubbed: list[str] = field(default_factory=list)
    printed: str = ""
    definitions_only: bool = False
    source_lines: list[str] = field(default_factory=list)

    @classmethod
    def from_report(cls, load: dict, source: str = "") -> "Loading":
        """Read ``FunctionCalls.load``; ``source`` names the statements that never stopped."""
        stuck = list(load.get("stuck") or [])
        asked = int(load.get("asked") or 0) + sum(int(s.get("asked") or 0) for s in stuck)
        return cls(asked=asked, problems=list(load.get("problems") or []),
                   stuck=stuck, stubbed=list(load.get("stubbed") or []),
                   printed=load.get("printed") or "",
                   definitions_only=load.get("mode") == "definitions",
                   source_lines=source.splitlines())

    @property
    def troubled(self) -> bool:
        """Importing the file asked questions, or a top-level statement failed or hung."""
        return bool(self.asked or self.problems or self.stuck)

    @property
    def stubbed_modules(self) -> list[str]:
        """Top-level names of the modules replaced by stand-ins."""
        return sorted({name.partition(".")[0] for name in self.stubbed})

    def stub_note(self) -> str | None:
        """The note for the top of the feedback, or None when nothing was replaced."""
        if not self.stubbed_modules:
            return None
        modules = self.stubbed_modules
        names = " and ".join([", ".join(modules[:-1]), modules[-1]] if len(modules) > 1
                             else modules)
        one = len(modules) == 1
        return (f"Your file imports {names}, which the grader does not have. "
                f"{'It was' if one else 'They were'} replaced by "
                f"{'a stand-in' if one else 'stand-ins'} whose assert_equal-style functions do "
                "nothing (your own tests were not run) and whose other functions do nothing "
                "and return None. Every function of yours was still graded.")

    @property
    def needs_review(self) -> bool:
        """A replaced module other than a testing library may have changed what a function
        did: a TA should look."""
        return any(name not in TESTING_LIBRARIES for name in self.stubbed_modules)

    def statement(self, line: int | None, given: str = "") -> str:
        """'line 140 (while True:)' for the feedback."""
        if line is None:
            return "the file"
        text = given or (self.source_lines[line - 1].strip()
                         if 0 < line <= len(self.source_lines) else "")
        return f"line {line} ({text[:60]})" if text else f"line {line}"

    def what_happened(self) -> list[str]:
        """One sentence per top-level statement that asked, failed or hung."""
        said = []
        for problem in self.problems:
            where = self.statement(problem.get("line"), problem.get("statement", ""))
            said.append(f"{where} {_outcome(problem)}.")
        for stuck in self.stuck:
            if stuck.get("line") is None:
                continue
            asked = stuck.get("asked") or 0
            questions = f"asked {asked} question{'s' if asked != 1 else ''} and " * bool(asked)
            said.append(f"{self.statement(stuck['line'])} {questions}never stopped "
                        f"({stuck.get('why')}); the grader skipped it.")
        if len(said) > SHOWN_STATEMENTS:
            said = said[:SHOWN_STATEMENTS] + [f"... and {len(said) - SHOWN_STATEMENTS} more."]
        if self.definitions_only:
            why = next((s.get("why") for s in self.stuck if s.get("line") is None), "")
            said.append("In the end the grader loaded only your functions, classes, imports "
                        f"and constants, without running anything else ({why}).")
        return said

    def main_message(self, has_main: bool) -> str:
        """Why main loses part of its points, with what the file did at import."""
        if self.asked:
            lead = (f"When your file is imported, it already asks for input: {self.asked} "
                    f"question{'s' if self.asked != 1 else ''} before any function was called.")
        else:
            lead = "When your file is imported, it does more than define functions."
        lines = [lead + " The grader imports your file to call your functions one at a time "
                 "(handout section 7), so nothing may run at import (section 11):"]
        lines += [f"- {sentence}" for sentence in self.what_happened()]
        steps = ["answered those questions to end the game (fold, no, quit, then the end "
                 "of input)"] if self.asked else []
        if self.stuck or any(problem.get("error") for problem in self.problems):
            steps.append("skipped what failed")
        lines.append(f"The grader {', '.join(steps)} and still graded every function it could "
                     "reach; only this item is marked down for it.")
        if self.asked:
            fix = ("Put the game loop inside main() and call main() only under  "
                   "if __name__ == \"__main__\":  so importing the file runs nothing. With the "
                   "game at import")
        else:
            fix = ("Fix or remove the top-level statements that fail, so that importing the "
                   "file runs without errors. With an error at import")
        if not has_main and self.asked:
            fix = ("Your file has no function main(): the game runs at the top level of the "
                   "file instead, and that game was played in a terminal to judge this item. "
                   + fix)
        lines += ["", f"{fix} this item earns at most {AT_IMPORT_SHARE:g} of its points."]
        return "\n".join(lines)

    def transcript(self) -> str | None:
        """What the import printed, with the grader's answers marked «like this»."""
        parts = [self.printed.rstrip()] if self.printed.strip() else []
        for stuck in self.stuck:
            if (stuck.get("printed") or "").strip():
                parts.append(f"[{self.statement(stuck.get('line'))}, until the grader stopped "
                             f"it:]\n{stuck['printed'].rstrip()}")
        if not parts:
            return None
        return "What your file printed while it was imported:\n" + "\n".join(parts)


def _outcome(problem: dict) -> str:
    """What one top-level statement did, e.g. 'asked 2 questions and finished'."""
    asked = problem.get("asked") or 0
    questions = f"asked {asked} question{'s' if asked != 1 else ''}"
    error, message = problem.get("error"), (problem.get("message") or "").strip()
    if error is None:
        return f"{questions} and finished"
    if problem.get("stopped"):
        return f"was stopped by the grader: it {message}"
    if error == "EOFError":
        return f"{questions} and stopped with EOFError when the grader gave no more answers"
    if error == "SystemExit":
        ended = "ended the program (exit() or quit())"
        return f"{questions} and then {ended}" if asked else ended
    raised = f"raised {error}" + (f": {message}" if message else "")
    return f"{questions} and then {raised}" if asked else raised
