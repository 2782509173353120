"""Requirements: the things one rubric item checks, each with the case that shows it, what was
expected, what the program did and the handout rule behind it; and one way to turn a list of
them into a share of the item and feedback.

    score(result, calls.check(cases))                # function cases (calls.py)
    score(result, [check(total == 30, "after round 2", 30, total, "the total adds up")])

The share is the fraction met, rounded down to a tenth and never full while one fails
(``rubric.share``). The feedback names how many went wrong, then the smallest failing cases
first (by ``size``), each problem said once: a requirement whose ``case`` is empty counts but
is not described (its reason was given by another), and the same sentence is not repeated.
"""
from __future__ import annotations

from dataclasses import dataclass

from .diagnose import fail_import, sentence_start

SHOWN = 3                  # failed requirements described in full; the rest are listed


@dataclass
class Requirement:
    """One thing checked: ``case`` is the call or game step ('has_pair([5, 5, 9])')."""

    ok: bool
    case: str = ""
    expected: str | None = None
    actual: str | None = None
    why: str = ""                      # the handout's rule, for the student
    size: int = 0                      # smaller cases are shown first
    evidence: str | None = None        # a transcript excerpt, when there is one
    evidence_title: str | None = None

    @property
    def sentence(self) -> str:
        """'case. rule' (expected and actual are shown under it by the report)."""
        if not self.case:
            return self.why
        return f"{self.case.rstrip('.')}. {self.why}".strip()


def check(ok: bool, case: str, expected=None, actual=None, why: str = "",
          size: int = 0, evidence: str | None = None) -> Requirement:
    """A requirement that holds when ``ok``; expected and actual values that are not text are
    shown as Python shows them."""
    return Requirement(bool(ok), case, _text(expected), _text(actual), why, size, evidence)


def shown(value) -> str:
    """A value as Python would print it (objects the child could not send as JSON arrive as
    {'repr', 'type'})."""
    if isinstance(value, dict) and set(value) == {"repr", "type"}:
        return value["repr"]
    return repr(value)


def listed(words, limit: int | None = None) -> str:
    """'a', 'a and b', 'a, b and c' (past ``limit`` words: the first ones and how many more)."""
    words = list(words)
    if limit is not None and len(words) > limit:
        return ", ".join(words[:limit]) + f" and {len(words) - limit} more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _text(value) -> str | None:
    """Text as it is (callers quote what must be exact); other values as Python shows them."""
    if value is None or isinstance(value, str):
        return value
    return shown(value)


def fraction_of(requirements: list[Requirement]) -> float:
    """The share of an item earned by a list of requirements (0 for an empty list)."""
    # imported here: the rubric reads readability settings, which need pycodestyle; a grader
    # that only builds Requirements should not load them
    from .rubric import fraction_right
    return fraction_right(sum(requirement.ok for requirement in requirements), len(requirements))


def better(own: list[Requirement], swapped: list[Requirement] | None) -> tuple[list, bool]:
    """The requirements to score a function by: with the student's own helpers, unless the
    run with the kit's helpers swapped in did better. Returns (requirements, swapped used)."""
    if swapped and fraction_of(swapped) > fraction_of(own):
        return swapped, True
    return own, False


def singular(noun: str) -> str:
    """'calls of generate_deck' -> 'call of generate_deck', 'classes' -> 'class': the
    nouns the graders count with are plurals in their first word."""
    first, _, rest = noun.partition(" ")
    first = first[:-2] if first.endswith("sses") else \
        first[:-1] if first.endswith("s") and not first.endswith("ss") else first
    return f"{first} {rest}".rstrip()


def score(result, requirements: list[Requirement], noun: str = "things checked",
          not_judged: str = "", evidence_title: str | None = None,
          all_right: str | None = None, fraction: float | None = None) -> float:
    """Give the item the share of requirements met (or ``fraction``) and say what went wrong,
    the smallest failing case first; returns the share. No requirements: not judged."""
    if not requirements:
        result.not_judged(not_judged or "There was nothing this check could compare.")
    result.judged(len(requirements))
    total = len(requirements)
    failed = sorted((req for req in requirements if not req.ok), key=lambda req: req.size)
    if not failed:
        result.note(all_right or (f"All {total} {noun} were right." if total > 1 else
                                  f"The one {singular(noun)} was right."))
        return 1.0
    fraction = fraction_of(requirements) if fraction is None else fraction
    said, sentences = [], set()
    for requirement in failed:
        if requirement.sentence and requirement.sentence not in sentences:
            sentences.add(requirement.sentence)
            said.append(requirement)
    shown_evidence: set[str] = set()
    shown_long: set[str] = set()
    for number, requirement in enumerate(said[:SHOWN]):
        message = requirement.sentence
        if number == 0:
            message = f"{len(failed)} of {total} {noun} went wrong. {message}"
        evidence = requirement.evidence if requirement.evidence not in shown_evidence else None
        shown_evidence.add(requirement.evidence)
        # a long expectation several cases share (a whole game's plan) is shown once; a short
        # one stays beside the value it is compared with
        expected = requirement.expected
        if expected is not None and _long(expected):
            expected = None if expected in shown_long else expected
            shown_long.add(requirement.expected)
        title = requirement.evidence_title or evidence_title
        result.partial(fraction, message, expected=expected,
                       actual=requirement.actual, evidence=evidence,
                       evidence_title=title if evidence else None)
    if len(said) > SHOWN:
        rest = "; ".join(req.case.rstrip(".") or req.why for req in said[SHOWN:SHOWN + 5])
        more = " ..." if len(said) > SHOWN + 5 else ""
        result.partial(fraction, f"Also wrong ({len(said) - SHOWN} more): {rest}{more}")
    if not said:
        result.partial(fraction, f"{len(failed)} of {total} {noun} went wrong.")
    return fraction


def _long(text: str) -> bool:
    """Text too long to repeat under every case that expects it."""
    return len(text) > 60 or "\n" in text


def require(result, import_error: str | None, available: dict, names, *, explain_here: bool,
            explained_under: str, kind: str = "function", where: str = "",
            what: str = "functions", file: str = "your file", submitted=()) -> None:
    """Stop a check at once when the file cannot be imported or lacks what it tests. The
    import error is explained in full once (the check with ``explain_here``, in the words of
    ``diagnose``); the others point to the item ``explained_under``. ``where`` names the
    handout's section; ``kind`` and ``what`` name what is missing ('function') and what could
    not be called; ``file`` the file, and ``submitted`` the files a submission should have
    (a module among them that is missing is a file not handed in)."""
    if import_error:
        fail_import(result, import_error, file, f"none of its {what} could be called",
                    explain_here, explained_under, submitted)
    missing = [name for name in names if not available.get(name)]
    if missing:
        where = f" ({where})" if where else ""
        result.fail(f"{sentence_start(file)} has no {kind} named "
                    f"{' or '.join(missing)}. The grader calls "
                    f"it by exactly this name{where}, so it could not be tested.")
