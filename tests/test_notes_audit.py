"""What a grader says with ``notes(...)`` reaches the student ("How the runs went"): it must be
something a student can act on. The grader's own doubts and requests to a TA go through
``for_ta(...)`` (needs_review.md only)."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import KIT_ROOT

# wording that speaks to a TA or about the grader's own workings, not to the student
FOR_TA_ONLY = ("a ta should", "a ta must", "a ta needs", "kit problem", "kit's mutation",
               "the grader could not tell", "unsure", "the grader's reading",
               "(not installed)", "graded with a stand-in")


def _said(call: ast.Call) -> str:
    """The text of a call's string arguments (the constant parts of f-strings)."""
    parts = []
    for arg in call.args[:1]:
        for node in ast.walk(arg):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                parts.append(node.value)
    return "".join(parts)


def notes_calls() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((KIT_ROOT / "graders").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "notes" and node.args):
                found.append((str(path.relative_to(KIT_ROOT)), node.lineno, _said(node)))
    return found


def test_notes_to_students_hold_no_grader_internal_wording():
    calls = notes_calls()
    assert len(calls) >= 8            # the graders' notes are all seen
    internal = [(path, line, text) for path, line, text in calls
                if any(phrase in text.lower() for phrase in FOR_TA_ONLY)]
    assert internal == []
