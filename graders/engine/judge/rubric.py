"""The rubric: items with ids and points (data, from ``assignments/<name>/rubric.toml``) and the
verdict a grader check reaches on each, with its evidence.

A check earns a fraction of its item: 1.0 unless it calls ``fail`` or ``partial``. Several checks
may share an item; the item's score is its points times their weighted average, rounded down to
a tenth of the item (as every check's own share is) unless every check was right.

A check that could not collect its evidence says so with ``not_judged``. Such a check gives no
marks: its item is scored from the checks that did judge it, and when none did, the item gets 0
provisionally, is marked "not judged" and is listed for a TA (never silently full marks).
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .readability import Settings

KIT_ROOT = Path(__file__).resolve().parents[3]
# Where assignments/, student_template/ (and the reference a grader needs) are: the repository
# when the kit runs from it, else the copy a built wheel carries inside the package.
DATA_ROOT = KIT_ROOT if (KIT_ROOT / "assignments").is_dir() else \
    Path(__file__).resolve().parents[2] / "kitdata"


@dataclass
class Item:
    id: str
    points: float
    title: str
    review: bool = False        # measured automatically, confirmed by a TA
    public: bool = False        # part of the students' self-check


@dataclass
class Rubric:
    assignment: str
    title: str
    main_file: str
    files: list[str]
    items: list[Item]
    readability: Settings = field(default_factory=Settings)    # the [readability] table

    @classmethod
    def load(cls, assignment: str) -> "Rubric":
        path = DATA_ROOT / "assignments" / assignment / "rubric.toml"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        items = [Item(i["id"], float(i["points"]), i.get("title", i["id"]),
                      bool(i.get("review", False)), bool(i.get("public", False)))
                 for i in data["item"]]
        files = list(data.get("files", [data["main_file"]]))
        readability = Settings.from_table(data.get("readability"))
        if readability.files is None:
            readability.files = [name for name in files if name.endswith(".py")]
        return cls(data.get("assignment", assignment), data.get("title", assignment),
                   data["main_file"], files, items, readability)

    def problems_with(self, checks: dict[str, list[str]]) -> list[str]:
        """What does not match between a grader and this rubric: ``checks`` maps each check
        to the item ids its markers name. Every id must be an item, and every automatic
        (non-review) item must have a check."""
        known = {item.id for item in self.items}
        problems = [f"{check} is marked for item {item_id!r}, which rubric.toml does not "
                    f"have (its items: {', '.join(sorted(known))})"
                    for check, ids in checks.items() for item_id in ids if item_id not in known]
        checked = {item_id for ids in checks.values() for item_id in ids}
        problems += [f"item {item.id!r} is scored automatically (review = false) but no check "
                     "is marked for it" for item in self.items
                     if not item.review and item.id not in checked]
        return problems

    @property
    def max_score(self) -> float:
        return sum(item.points for item in self.items)

    def item(self, item_id: str) -> Item:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(f"rubric of {self.assignment} has no item {item_id!r}")


NEVER_FULL = 0.9    # an item with any wrong case gets at most this share


def fraction_right(right: int, total: int) -> float:
    """Partial credit for cases checked one by one: the fraction right, rounded down to a
    tenth, and never full marks when anything is wrong (a function wrong on 6 hands of 2197
    is still wrong)."""
    if total <= 0:
        return 0.0
    if right >= total:
        return 1.0
    return min(NEVER_FULL, math.floor(right / total * 10 + 1e-9) / 10)


class Fail(Exception):
    """Raised by a check to fail (or partly fail) its item with a readable explanation."""

    def __init__(self, message: str, *, expected: str | None = None, actual: str | None = None,
                 evidence: str | None = None, fraction: float = 0.0,
                 evidence_title: str | None = None):
        super().__init__(message)
        self.message, self.expected, self.actual = message, expected, actual
        self.evidence, self.fraction = evidence, fraction
        self.evidence_title = evidence_title


class NotJudged(Exception):
    """Raised by a check (or a fixture) whose evidence could not be collected."""

    def __init__(self, reason: str, *, evidence: str | None = None,
                 evidence_title: str | None = None):
        super().__init__(reason)
        self.reason, self.evidence, self.evidence_title = reason, evidence, evidence_title


@dataclass
class CheckResult:
    """What one check found: its share of the item, and why."""

    item_id: str
    name: str
    weight: float = 1.0
    fraction: float = 1.0
    messages: list[str] = field(default_factory=list)
    details: list[dict] = field(default_factory=list)   # expected / actual / evidence
    notes: list[str] = field(default_factory=list)      # shown even when passed
    measurements: dict = field(default_factory=dict)     # for review items
    error: str | None = None                             # the grader's own failure
    judged_cases: int | None = None                      # None: the check did not count
    not_judged_reasons: list[dict] = field(default_factory=list)   # reason, evidence

    def fail(self, message: str, *, expected=None, actual=None, evidence=None,
             fraction: float = 0.0, evidence_title: str | None = None) -> None:
        raise Fail(message, expected=expected, actual=actual, evidence=evidence,
                   fraction=fraction, evidence_title=evidence_title)

    def partial(self, fraction: float, message: str, *, expected=None, actual=None,
                evidence=None, evidence_title: str | None = None) -> None:
        """Record a shortfall without stopping the check; the lowest fraction counts."""
        self.fraction = min(self.fraction, max(0.0, min(1.0, fraction)))
        self.add_detail(message, expected, actual, evidence, evidence_title)

    def judged(self, cases: int = 1) -> None:
        """Record that ``cases`` things were really compared with what the handout asks.
        A check that records cases and ends with 0 (and no failure) is not judged."""
        self.judged_cases = (self.judged_cases or 0) + cases

    def not_judged(self, reason: str, *, evidence: str | None = None,
                   evidence_title: str | None = None) -> None:
        """Stop the check: its evidence could not be collected (say why, for the student and
        the TA). It gives no marks; another check of the item may still judge it."""
        raise NotJudged(reason, evidence=evidence, evidence_title=evidence_title)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def measure(self, name: str, value) -> None:
        self.measurements[name] = value

    def add_detail(self, message, expected=None, actual=None, evidence=None,
                   evidence_title: str | None = None) -> None:
        self.messages.append(message)
        self.details.append({"message": message, "expected": expected, "actual": actual,
                             "evidence": evidence, "evidence_title": evidence_title})

    def record_fail(self, exc: Fail) -> None:
        self.fraction = min(self.fraction, exc.fraction)
        self.add_detail(exc.message, exc.expected, exc.actual, exc.evidence,
                        getattr(exc, "evidence_title", None))

    def record_not_judged(self, reason: str, evidence: str | None = None,
                          evidence_title: str | None = None) -> None:
        self.not_judged_reasons.append({"reason": reason, "evidence": evidence,
                                        "evidence_title": evidence_title})

    @property
    def is_judged(self) -> bool:
        """Did this check judge its item? A failure found is a judgement; a grader error,
        ``not_judged`` or 0 cases counted (with nothing found wrong) are not."""
        if self.error is not None:
            return False
        if self.fraction < 1.0:
            return True
        if self.not_judged_reasons or self.judged_cases is not None:
            return bool(self.judged_cases)
        return True

    @property
    def why_not_judged(self) -> list[str]:
        """Plain sentences saying why this check judged nothing (empty when it did)."""
        if self.is_judged:
            return []
        reasons = [r["reason"] for r in self.not_judged_reasons]
        if self.error is not None:
            reasons.append(f"The grader itself failed on this check ({self.error}).")
        if not reasons:
            reasons.append("There was nothing this check could compare (0 cases).")
        return reasons


@dataclass
class ItemVerdict:
    item: Item
    score: float
    checks: list[CheckResult]
    judged: bool = True          # False: no check could judge it (0 marks, for a TA)

    @property
    def passed(self) -> bool:
        return self.judged and abs(self.score - self.item.points) < 1e-9

    @property
    def status(self) -> str:
        """Gradescope's status: an item not judged is "failed" until a TA has looked."""
        return "passed" if self.passed else "failed"

    @property
    def why_not_judged(self) -> list[str]:
        """Why no check could judge the item, each reason once (empty when judged)."""
        if self.judged:
            return []
        reasons: list[str] = []
        for check in self.checks:
            reasons += [r for r in check.why_not_judged if r not in reasons]
        return reasons

    @property
    def partly_unchecked(self) -> list[str]:
        """Why some checks of a judged item judged nothing (its score comes from the others):
        a TA looks, since nothing checked that part (empty when every check judged)."""
        if not self.judged:
            return []
        reasons: list[str] = []
        for check in self.checks:
            if not check.is_judged:
                reasons += [r for r in check.why_not_judged if r not in reasons]
        return reasons

    @property
    def judging_checks(self) -> list[CheckResult]:
        """The checks the score comes from."""
        return [c for c in self.checks if c.is_judged]


def item_verdicts(rubric: Rubric, checks: list[CheckResult]) -> list[ItemVerdict]:
    """Combine check results into one verdict per rubric item.

    An item is scored from the checks that judged it; an item that no check judged (every
    check was not judged, or none ran) scores 0 and is marked not judged, for a TA.
    """
    verdicts = []
    for item in rubric.items:
        mine = [c for c in checks if c.item_id == item.id]
        judging = [c for c in mine if c.is_judged]
        if not mine:
            missing = CheckResult(item.id, "not run")
            missing.record_not_judged("No check of the grader ran for this item (the grader "
                                      "has none, or grading stopped before it).")
            mine = [missing]
        if judging:
            total = sum(c.weight for c in judging) or 1.0
            share = sum(c.weight * c.fraction for c in judging) / total
            if share < 1 and len(judging) > 1:
                # several checks' average: like each check's own share, rounded down to a
                # tenth (a check saying "this item gets 0.9" must not see the item get 0.95)
                share = min(NEVER_FULL, math.floor(share * 10 + 1e-9) / 10)
        else:
            share = 0.0
        verdicts.append(ItemVerdict(item, round(item.points * share, 2), mine, bool(judging)))
    return verdicts
