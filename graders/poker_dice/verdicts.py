"""Requirements (one thing a check looks at) and how a list of them becomes a share of an item."""
from __future__ import annotations

from dataclasses import dataclass

from graders.engine.rubric import NEVER_FULL, share  # noqa: F401 (used here and by callers)

SHOWN = 3            # failed requirements spelled out in the feedback


@dataclass
class Requirement:
    """One thing checked: ok, or what went wrong with expected / actual / evidence."""

    ok: bool
    message: str = ""              # what went wrong (empty when ok, or when already said)
    expected: str | None = None
    actual: str | None = None
    evidence: str | None = None
    evidence_title: str | None = None


def passed() -> Requirement:
    """A requirement that was met."""
    return Requirement(True)


def fraction_of(requirements: list[Requirement]) -> float:
    """The share of an item earned by a list of requirements."""
    return share(sum(requirement.ok for requirement in requirements), len(requirements))


def report(result, requirements: list[Requirement], what: str = "things checked") -> float:
    """Record the fraction and the first few failures on a CheckResult; returns the fraction."""
    fraction = fraction_of(requirements)
    failed = [requirement for requirement in requirements if not requirement.ok]
    said, messages = [], set()
    for requirement in failed:
        if requirement.message and requirement.message not in messages:
            messages.add(requirement.message)
            said.append(requirement)
    shown_evidence: set[str] = set()
    for number, requirement in enumerate(said[:SHOWN]):
        evidence = None if requirement.evidence in shown_evidence else requirement.evidence
        shown_evidence.add(requirement.evidence)
        message = requirement.message
        if number == 0:
            message = (f"{len(failed)} of the {len(requirements)} {what} went wrong, so this "
                       f"item gets {fraction:g} of its marks. " + message)
        result.partial(fraction, message, expected=requirement.expected,
                       actual=requirement.actual, evidence=evidence,
                       evidence_title=requirement.evidence_title)
    if len(said) > SHOWN:
        result.partial(fraction, f"... and {len(said) - SHOWN} more (see the list above for "
                                 "the kind of mistake).")
    if failed and not said:
        result.partial(fraction, f"{len(failed)} of the {len(requirements)} {what} went wrong.")
    return fraction


def plural(count: int, word: str) -> str:
    """'1 roll', '3 rolls'."""
    return f"{count} {word}{'' if count == 1 else 's'}"
