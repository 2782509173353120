"""Requirements: the things one rubric item checks, each with the case that shows it, what was
expected, what the program did and the handout rule behind it; and one way to turn them into a
share of the item and feedback (smallest failing case first, each problem said once).

Nothing here is particular to HiLo (it is the engine layer's "requirements" and "function
cases": a check builds ``Requirement`` objects and calls ``score``).
"""
from __future__ import annotations

from dataclasses import dataclass

from graders.engine.rubric import share

SHOWN = 3                  # failed requirements described in full; the rest are counted


@dataclass
class Requirement:
    """One thing checked: ``case`` is the call or game step ('str(Card(rules, 12, "Hearts"))')."""

    ok: bool
    case: str
    expected: str | None = None
    actual: str | None = None
    why: str = ""                      # the handout's rule, for the student
    size: int = 0                      # smaller cases are shown first
    evidence: str | None = None        # a transcript excerpt, when there is one

    @property
    def sentence(self) -> str:
        """'case. rule' (expected and actual are shown under it by the report)."""
        return f"{self.case.rstrip('.')}. {self.why}".strip()


def check(ok: bool, case: str, expected=None, actual=None, why: str = "",
          size: int = 0, evidence: str | None = None) -> Requirement:
    """A requirement that holds when ``ok``; expected and actual values that are not text are
    shown as Python shows them."""
    return Requirement(bool(ok), case, _shown(expected), _shown(actual), why, size, evidence)


def _shown(value) -> str | None:
    """Text as it is (callers quote what must be exact); other values as Python shows them."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict) and set(value) == {"repr", "type"}:
        return value["repr"]
    return repr(value)


def score(result, requirements: list[Requirement], noun: str = "things checked",
          not_judged: str = "", evidence_title: str | None = None) -> None:
    """Give the item the share of requirements met (never full while one fails) and say
    what went wrong, the smallest failing case first. No requirements: not judged."""
    if not requirements:
        result.not_judged(not_judged or "There was nothing this check could compare.")
    result.judged(len(requirements))
    failed = sorted((req for req in requirements if not req.ok), key=lambda req: req.size)
    total = len(requirements)
    if not failed:
        result.note(f"All {total} {noun} were right.")
        return
    fraction = share(total - len(failed), total)
    shown_evidence: set[str] = set()
    for number, requirement in enumerate(failed[:SHOWN]):
        message = requirement.sentence
        if number == 0:
            message = f"{len(failed)} of {total} {noun} went wrong. {message}"
        evidence = requirement.evidence if requirement.evidence not in shown_evidence else None
        shown_evidence.add(requirement.evidence)
        result.partial(fraction, message, expected=requirement.expected,
                       actual=requirement.actual, evidence=evidence,
                       evidence_title=evidence_title if evidence else None)
    if len(failed) > SHOWN:
        rest = "; ".join(req.case.rstrip(".") for req in failed[SHOWN:SHOWN + 5])
        more = " ..." if len(failed) > SHOWN + 5 else ""
        result.partial(fraction, f"Also wrong ({len(failed) - SHOWN} more): {rest}{more}")
