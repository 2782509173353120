"""How a count of right answers becomes a share of an item, and how a failed call reads."""
from __future__ import annotations

from dataclasses import dataclass

from graders.engine.rubric import NEVER_FULL, share  # noqa: F401 (used here and by callers)


@dataclass
class Requirement:
    """One thing a scenario needs (the points returned, the hands shown, a total line)."""

    ok: bool
    message: str = ""              # what went wrong (empty when ok)
    expected: str | None = None
    actual: str | None = None
    evidence: str | None = None


def call_problem(outcome: dict, call: str, timeout: float = 1.0) -> str | None:
    """'has_pair([2, 2, 5]) did not return within 1 s', or None when the call returned."""
    error = outcome.get("error")
    if outcome.get("ok") or error is None:
        return None
    if error == "timeout":
        return f"{call} did not return within {timeout:g} s (an endless loop?)"
    if error == "died":
        return f"{call} stopped the program: {outcome.get('message')}"
    if error == "skipped":
        return f"{call} was not run because an earlier call hung"
    if error == "import":
        return f"{call} could not be run because the file could not be imported"
    return f"{call} raised {error}: {outcome.get('message', '')}".rstrip(": ")


def shown_value(value: object) -> str:
    """A returned value as Python would print it (objects the child could not send as JSON
    arrive as {'repr', 'type'})."""
    if isinstance(value, dict) and set(value) == {"repr", "type"}:
        return value["repr"]
    return repr(value)
