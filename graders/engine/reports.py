"""Reports: a Gradescope-style results JSON and a Markdown feedback file per submission, and a
gradebook CSV, a needs-review list and a rubric report per class.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from . import sandbox
from .rubric import ItemVerdict, Rubric


@dataclass
class SubmissionReport:
    """Everything known about one graded submission."""

    student: str
    rubric: Rubric
    verdicts: list[ItemVerdict]
    execution_time: float
    notes: list[str] = field(default_factory=list)       # how the run went, file problems
    problems: list[str] = field(default_factory=list)    # reasons a human should look
    attachments: dict[str, str] = field(default_factory=dict)   # file name -> text

    @property
    def score(self) -> float:
        return round(sum(v.score for v in self.verdicts), 2)

    @property
    def not_judged(self) -> list[ItemVerdict]:
        """Items no check could judge: 0 for now, a TA decides."""
        return [v for v in self.verdicts if not v.judged]

    @property
    def needs_review(self) -> list[str]:
        reasons = list(self.problems)
        for verdict in self.not_judged:
            reasons.append(f"not judged: {verdict.item.id} ("
                           + " ".join(verdict.why_not_judged) + ")")
        review = [v.item.id for v in self.verdicts if v.item.review]
        if review:
            reasons.append("confirm review items: " + ", ".join(review))
        return reasons


NOT_JUDGED = "Not judged: the grader could not check this; a TA will look at it."


def _check_text(verdict: ItemVerdict, markdown: bool) -> str:
    """The explanation of one item: messages, expected/actual, evidence, notes. An item that
    was not judged says so first, with why; otherwise only the checks that judged it speak."""
    if not verdict.judged:
        parts = [NOT_JUDGED, "Why: " + " ".join(verdict.why_not_judged)]
        for check in verdict.checks:
            for why in check.not_judged_reasons:
                if why.get("evidence"):
                    title = why.get("evidence_title") or "What the grader saw"
                    parts.append(_block(title, why["evidence"], markdown))
        return "\n\n".join(parts)
    parts: list[str] = []
    for check in verdict.judging_checks:
        for detail in check.details:
            parts.append(detail["message"])
            if detail.get("expected") is not None:
                parts.append(_block("Expected", str(detail["expected"]), markdown))
            if detail.get("actual") is not None:
                parts.append(_block("Your program", str(detail["actual"]), markdown))
            if detail.get("evidence"):
                title = detail.get("evidence_title") or (
                    "Transcript («…» is what the grader typed; [dice: …] are the dice it "
                    "loaded)")
                parts.append(_block(title, detail["evidence"], markdown))
        parts.extend(check.notes)
        if check.measurements:
            lines = [f"- {k}: {v}" for k, v in check.measurements.items()]
            parts.append("Measurements:\n" + "\n".join(lines))
    return "\n\n".join(p for p in parts if p)


def _block(title: str, body: str, markdown: bool) -> str:
    if not markdown:
        return f"{title}:\n{body}"
    fence = "````" if "```" in body else "```"
    return f"{title}:\n{fence}text\n{body}\n{fence}"


def results_json(report: SubmissionReport) -> dict:
    """The Gradescope ``results.json`` schema (plus max_score and review tags)."""
    tests = []
    for verdict in report.verdicts:
        tags = ["needs-review"] if verdict.item.review else []
        tests.append({"name": verdict.item.title, "number": verdict.item.id,
                      "score": verdict.score, "max_score": verdict.item.points,
                      "status": verdict.status, "output": _check_text(verdict, False),
                      "tags": tags, "visibility": "visible"})
    return {"score": report.score, "max_score": report.rubric.max_score,
            "execution_time": round(report.execution_time, 3),
            "output": "\n".join(report.notes), "tests": tests,
            "extra_data": {"student": report.student, "assignment": report.rubric.assignment,
                           "needs_review": report.needs_review, "problems": report.problems,
                           "not_judged": [v.item.id for v in report.not_judged],
                           # "bubblewrap", or "none: <why>" when runs were not isolated
                           "isolation": sandbox.status().label}}


def feedback_markdown(report: SubmissionReport) -> str:
    """Feedback for the student: the score table first, then each item explained."""
    rubric = report.rubric
    lines = [f"# {rubric.title}: feedback for {report.student}", "",
             f"**Score: {report.score:g} / {rubric.max_score:g}**", ""]
    if report.not_judged:
        ids = ", ".join(f"`{v.item.id}`" for v in report.not_judged)
        lines += [f"This score is provisional: the grader could not check {ids}, which "
                  "count 0 until a TA has looked at them.", ""]
    if report.notes:
        lines += ["## How the runs went", ""] + [f"- {n}" for n in report.notes] + [""]
    if report.attachments:
        links = ", ".join(f"[{name}]({name})" for name in sorted(report.attachments))
        lines += [f"Full transcripts of every run, nothing left out: {links}.", ""]
    lines += ["| item | points | result |", "|---|---|---|"]
    for v in report.verdicts:
        mark = "✔" if v.passed else ("½" if v.score > 0 else "✘")
        review = " (a TA confirms this)" if v.item.review else ""
        if not v.judged:
            mark, review = "?", " not judged: a TA will look at it"
        lines.append(f"| `{v.item.id}` {v.item.title} | {v.score:g} / {v.item.points:g} | "
                     f"{mark}{review} |")
    lines.append("")
    for v in report.verdicts:
        mark = "passed" if v.passed else ("not judged" if not v.judged else "not full marks")
        lines += [f"## `{v.item.id}`: {v.item.title} ({v.score:g}/{v.item.points:g}, {mark})",
                  ""]
        text = _check_text(v, True)
        lines += [text or "Everything the grader checked here was right.", ""]
    return "\n".join(lines)


def write_submission(report: SubmissionReport, folder: Path,
                     json_path: Path | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    json_path = json_path or folder / "results.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results_json(report), indent=2, ensure_ascii=False))
    (folder / "feedback.md").write_text(feedback_markdown(report), encoding="utf-8")
    for name, text in report.attachments.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return json_path


def summary_text(report: SubmissionReport) -> str:
    """A short plain-text summary for the terminal."""
    width = max(len(v.item.id) for v in report.verdicts)
    lines = [f"{report.rubric.title}: {report.student}  "
             f"{report.score:g}/{report.rubric.max_score:g}"]
    for v in report.verdicts:
        flag = "ok " if v.passed else ("?? " if not v.judged else "-- ")
        first = ""
        for check in v.judging_checks:
            if check.messages:
                first = check.messages[0].splitlines()[0][:90]
                break
        if not v.judged:
            first = "not judged: " + " ".join(v.why_not_judged)[:78]
        review = " [review]" if v.item.review else ""
        lines.append(f"  {flag}{v.item.id:<{width}} {v.score:g}/{v.item.points:g}{review}"
                     f"{'  ' + first if first and not v.passed else ''}")
    for note in report.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def missing_result(rubric: Rubric, student: str, why: str) -> dict:
    """A zero results record for a submission that could not be graded."""
    return {"score": 0, "max_score": rubric.max_score, "execution_time": 0, "output": why,
            "tests": [{"name": i.title, "number": i.id, "score": 0, "max_score": i.points,
                       "status": "failed", "output": why} for i in rubric.items],
            "extra_data": {"student": student, "assignment": rubric.assignment,
                           "needs_review": [why], "problems": [why]}}


def write_class(results: list[dict], rubric: Rubric, folder: Path) -> str:
    """Gradebook CSV, needs-review list and the class rubric report; returns the summary.

    ``results`` are the per-submission results JSON records (so worker processes can write
    them and one process can collect them).
    """
    folder.mkdir(parents=True, exist_ok=True)
    ids = [item.id for item in rubric.items]
    with open(folder / "gradebook.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "score", "max_score", *ids, "needs_review"])
        for r in results:
            by_id = {t["number"]: t["score"] for t in r["tests"]}
            extra = r.get("extra_data", {})
            writer.writerow([extra.get("student"), r["score"], rubric.max_score,
                             *[by_id.get(i, 0) for i in ids], "; ".join(_look_at(r))])
    review_items = [i.id for i in rubric.items if i.review]
    lines = [f"# {rubric.title}: submissions that need a human look", ""]
    for r in sorted(results, key=lambda r: r["score"]):
        extra = r.get("extra_data", {})
        if _look_at(r):
            lines.append(f"- **{extra.get('student')}** ({r['score']:g}): "
                         + "; ".join(_look_at(r)))
    if len(lines) == 2:
        lines.append("No submission crashed, hung or confused the grader, and every item was "
                     "judged.")
    lines += ["", f"Every submission's review items ({', '.join(review_items)}) were scored "
              "from measurements shown in its feedback; confirm or override them."]
    (folder / "needs_review.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = class_summary(results, rubric)
    (folder / "class_report.md").write_text(summary + "\n", encoding="utf-8")
    return summary


def class_summary(results: list[dict], rubric: Rubric) -> str:
    """Per-item averages and full-marks rates, and the score distribution."""
    n = len(results) or 1
    lines = [f"# {rubric.title}: class report ({len(results)} submissions)", "",
             "| item | points | average | full marks |", "|---|---|---|---|"]
    for item in rubric.items:
        scores = [t["score"] for r in results for t in r["tests"] if t["number"] == item.id]
        full = sum(1 for s in scores if abs(s - item.points) < 1e-9)
        lines.append(f"| `{item.id}` | {item.points:g} | {sum(scores) / n:.2f} | "
                     f"{full}/{len(results)} |")
    totals = sorted(r["score"] for r in results)
    if totals:
        lines += ["", f"Total: mean {sum(totals) / n:.2f} / {rubric.max_score:g}, "
                      f"median {totals[len(totals) // 2]:g}, min {totals[0]:g}, "
                      f"max {totals[-1]:g}"]
    flagged = sum(1 for r in results if _look_at(r))
    lines.append(f"Submissions needing a human look beyond the review items: {flagged}")
    return "\n".join(lines)


def _look_at(result: dict) -> list[str]:
    """Why a TA must look at a submission: the grader's problems, then the items it could not
    judge (0 for now; see the student's feedback for why)."""
    extra = result.get("extra_data", {})
    reasons = list(extra.get("problems", []))
    if extra.get("not_judged"):
        reasons.append("not judged (0 for now, see feedback.md): "
                       + ", ".join(extra["not_judged"]))
    return reasons
