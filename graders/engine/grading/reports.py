"""Reports: a Gradescope-style results JSON and a Markdown feedback file per submission, and a
gradebook CSV, a needs-review list and a rubric report per class.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..run import sandbox
from ..judge.rubric import CheckResult, ItemVerdict, Rubric
from ..drive.transcript import LINE_CAP, cap_lines, characters

# Bounded output, whatever the program prints: lines of 500 characters, an item's
# explanation of 16 KB, a note of 2 KB; results.json and feedback.md at most 1 MB (evidence is
# trimmed first, then explanations); each full transcript in the report folder at most 2 MB.
ITEM_CHARS = 16_000
NOTE_CHARS = 2_000
MAX_NOTES = 50
REPORT_BYTES = 1_000_000
ATTACHMENT_BYTES = 2_000_000
# (explanation, evidence) sizes tried in turn until the whole file fits in REPORT_BYTES
TRIM_STEPS = [(ITEM_CHARS, 8_000), (ITEM_CHARS, 2_000), (8_000, 500), (4_000, 0), (2_000, 0),
              (800, 0), (200, 0)]
LEFT_OUT = ("(left out to keep this report small; the full transcripts are in the report "
            "folder)")


def _cap_lines(text: str) -> str:
    """``transcript.cap_lines``, called only when some line is longer than ``LINE_CAP``: its
    pattern is tried from every character of every line, so on a long text with no long line
    (nearly always) splitting the text to look is many times cheaper, and the text is the
    same."""
    if len(text) <= LINE_CAP or max(map(len, text.split("\n"))) <= LINE_CAP:
        return text
    return cap_lines(text)


def shorten(text: str, limit: int) -> str:
    """``text`` with long lines cut (see ``transcript.cap_line``) and, when still longer than
    ``limit`` characters, its middle left out (saying how much)."""
    if len(text) > limit:
        marker = "\n… {} left out …\n"
        room = max(0, limit - len(marker) - 20)
        head, tail = room * 2 // 3, room // 3
        text = (_cap_lines(text[:head]) + marker.format(characters(len(text) - head - tail))
                + (_cap_lines(text[-tail:]) if tail else ""))
    else:
        text = _cap_lines(text)
    return text[:limit]


def fit_bytes(text: str, limit: int) -> str:
    """``text`` shortened until its UTF-8 form has at most ``limit`` bytes."""
    text = _cap_lines(text)
    size = len(text.encode("utf-8"))
    while size > limit:
        text = shorten(text, max(0, int(len(text) * limit / size * 0.95) - 100))
        size = len(text.encode("utf-8"))
    return text


def attachment_text(name: str, text: str) -> str:
    """A report folder's file as written: a transcript bounded (``fit_bytes``), a game's
    replay plan (data, bounded when it was made) whole."""
    return text if name.endswith(".replay.json") or name.startswith("replay_") else \
        fit_bytes(text, ATTACHMENT_BYTES)


def one_line(text, limit: int = 1_000) -> str:
    """A reason for a list (needs_review.md, the gradebook): one line, bounded."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + " …"


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
    replays: dict[str, str] = field(default_factory=dict)      # item id -> game (replay)
    replay_where: dict[str, str] = field(default_factory=dict)  # path, folder (replay)

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
        for verdict in self.verdicts:
            # marks given where part of the item was not checked (none given: nothing to see)
            if verdict.partly_unchecked and not verdict.item.review and verdict.score > 0:
                reasons.append(f"partly checked: {verdict.item.id} ("
                               + " ".join(verdict.partly_unchecked) + ")")
        review = [v.item.id for v in self.verdicts if v.item.review]
        if review:
            reasons.append("confirm review items: " + ", ".join(review))
        return reasons


NOT_JUDGED = "Not judged: the grader could not check this; a TA will look at it."


def _check_text(verdict: ItemVerdict, markdown: bool, limit: int = ITEM_CHARS,
                evidence: int = 8_000) -> str:
    """The explanation of one item: messages, expected/actual, evidence, notes. An item that
    was not judged says so first, with why; otherwise only the checks that judged it speak.
    At most ``limit`` characters, each block of evidence at most ``evidence``."""
    if not verdict.judged:
        parts = [NOT_JUDGED, "Why: " + " ".join(verdict.why_not_judged)]
        for check in verdict.checks:
            for why in check.not_judged_reasons:
                if why.get("evidence"):
                    title = why.get("evidence_title") or "What the grader saw"
                    parts.append(_block(title, str(why["evidence"]), markdown, evidence))
        return shorten("\n\n".join(parts), limit)
    parts: list[str] = []
    for check in verdict.judging_checks:
        for detail in check.details:
            parts.append(shorten(str(detail["message"]), NOTE_CHARS))
            if detail.get("expected") is not None:
                parts.append(_block("Expected", str(detail["expected"]), markdown, evidence))
            if detail.get("actual") is not None:
                parts.append(_block("Your program", str(detail["actual"]), markdown,
                                    evidence))
            if detail.get("evidence"):
                # the dice are named only where the transcript shows some (a card game's not)
                title = detail.get("evidence_title") or (
                    "Transcript («…» is what the grader typed; [dice: …] are the dice it "
                    "loaded)" if "[dice: " in str(detail["evidence"]) else
                    "Transcript («…» is what the grader typed)")
                parts.append(_block(title, str(detail["evidence"]), markdown, evidence))
        parts.extend(shorten(str(note), NOTE_CHARS) for note in check.notes)
        if check.measurements:
            lines = [f"- {k}: {v}" for k, v in check.measurements.items()]
            parts.append(shorten("Measurements:\n" + "\n".join(lines), NOTE_CHARS))
    return shorten("\n\n".join(p for p in parts if p), limit)


def _block(title: str, body: str, markdown: bool, limit: int = 8_000) -> str:
    body = shorten(body, limit) if limit else LEFT_OUT
    if not markdown:
        return f"{title}:\n{body}"
    fence = "````" if "```" in body else "```"
    return f"{title}:\n{fence}text\n{body}\n{fence}"


def _notes(report: SubmissionReport) -> list[str]:
    notes = [shorten(str(n), NOTE_CHARS) for n in report.notes[:MAX_NOTES]]
    if len(report.notes) > MAX_NOTES:
        notes.append(f"… and {len(report.notes) - MAX_NOTES} more notes")
    return notes


def _reasons(reasons: list[str]) -> list[str]:
    return [one_line(r) for r in reasons[:MAX_NOTES]]


# Gradescope's visibility of a test. Public items (those of the students' self-check) are shown
# at once; the others are judged from games the students do not know, so their output (the
# hidden games' transcripts) waits for the due date. Review items may wait for the grades to be
# published instead, since a TA may still change them.
VISIBLE, AFTER_DUE_DATE, AFTER_PUBLISHED = "visible", "after_due_date", "after_published"


def results_json(report: SubmissionReport, *, markdown: bool = False,
                 review_visibility: str | None = None) -> dict:
    """The Gradescope ``results.json`` schema (plus max_score and review tags), at most
    REPORT_BYTES as written (evidence is trimmed first, then explanations). ``markdown``:
    outputs in Markdown (``output_format`` "md"), else plain text; ``review_visibility``:
    the visibility of review items (default: as for any other item)."""
    for limit, evidence in TRIM_STEPS:
        data = _results_json(report, limit, evidence, markdown, review_visibility)
        if len(_json_text(data).encode("utf-8")) <= REPORT_BYTES:
            break
    return data


def _json_text(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def _results_json(report: SubmissionReport, limit: int, evidence: int, markdown: bool = False,
                  review_visibility: str | None = None) -> dict:
    tests = []
    text_format = "md" if markdown else "text"
    for verdict in report.verdicts:
        item = verdict.item
        tags = ["needs-review"] if item.review else []
        visibility = VISIBLE if item.public else AFTER_DUE_DATE
        if item.review and review_visibility:
            visibility = review_visibility
        tests.append({"name": item.title, "number": item.id,
                      "score": verdict.score, "max_score": item.points,
                      "status": verdict.status,
                      "output": _check_text(verdict, markdown, limit, evidence),
                      "output_format": text_format,
                      "tags": tags + ["public" if item.public else "hidden"],
                      "visibility": visibility})
    return {"score": report.score, "max_score": report.rubric.max_score,
            "execution_time": round(report.execution_time, 3),
            "output": shorten(_runs_went(report, markdown), max(limit, NOTE_CHARS)),
            "output_format": text_format,
            "tests": tests,
            "extra_data": {"student": report.student, "assignment": report.rubric.assignment,
                           "needs_review": _reasons(report.needs_review),
                           "problems": _reasons(report.problems),
                           "not_judged": [v.item.id for v in report.not_judged],
                           # "bubblewrap", or "none: <why>" when runs were not isolated
                           "isolation": sandbox.status().label}}


def feedback_markdown(report: SubmissionReport) -> str:
    """Feedback for the student: the score table first, then each item explained; at most
    REPORT_BYTES (evidence is trimmed first, then explanations)."""
    for limit, evidence in TRIM_STEPS:
        text = _feedback_markdown(report, limit, evidence)
        if len(text.encode("utf-8")) <= REPORT_BYTES:
            break
    return text


def _feedback_markdown(report: SubmissionReport, limit: int, evidence: int) -> str:
    rubric = report.rubric
    replays = replay_commands(report)
    lines = [f"# {rubric.title}: feedback for {report.student}", "",
             f"**Score: {report.score:g} / {rubric.max_score:g}**", ""]
    if report.not_judged:
        ids = ", ".join(f"`{v.item.id}`" for v in report.not_judged)
        lines += [f"This score is provisional: the grader could not check {ids}, which "
                  "count 0 until a TA has looked at them.", ""]
    if report.notes:
        lines += ["## How the runs went", ""] + [f"- {n}" for n in _notes(report)] + [""]
    if report.attachments:
        links = ", ".join(f"[{name}]({name})" for name in sorted(report.attachments)
                          if not name.endswith(".replay.json")
                          and not name.startswith("replay_"))
        lines += [f"Full transcripts of every run: {links} (a line longer than {LINE_CAP} "
                  f"characters, or a run longer than {ATTACHMENT_BYTES // 1_000_000} MB, is "
                  f"shortened and says so).", ""]
    lines += ["| item | points | result |", "|---|---|---|"]
    for v in report.verdicts:
        # a part of the points is shown as the points (2/3 is not a half)
        mark = "✔" if v.passed else (f"{v.score:g}/{v.item.points:g}" if v.score > 0 else "✘")
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
        text = _check_text(v, True, limit, evidence)
        lines += [text or "Everything the grader checked here was right.", ""]
        if v.item.id in replays:
            lines += [f"Watch this game in your terminal, stopping where this went wrong: "
                      f"`{replays[v.item.id]}`", ""]
    return "\n".join(lines)


def write_submission(report: SubmissionReport, folder: Path,
                     json_path: Path | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    json_path = json_path or folder / "results.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(_json_text(results_json(report)), encoding="utf-8")
    (folder / "feedback.md").write_text(feedback_markdown(report), encoding="utf-8")
    inside = folder.resolve()
    for name, text in report.attachments.items():
        path = (folder / name).resolve()
        if not path.is_relative_to(inside):
            continue                    # attachment names are the grader's; keep them in
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(attachment_text(name, text), encoding="utf-8")
    return json_path


RUNS_WENT = "How the runs went"


def _runs_went(report: SubmissionReport, markdown: bool) -> str:
    """The overall output of results.json: the notes under the heading the items point to
    ("see 'How the runs went' above": a platform shows this output above the items)."""
    notes = _notes(report)
    if not notes:
        return ""
    if markdown:
        return f"**{RUNS_WENT}**\n\n" + "\n".join(f"- {n}" for n in notes)
    return f"{RUNS_WENT}:\n" + "\n".join(notes)


def summary_text(report: SubmissionReport) -> str:
    """A short plain-text summary for the terminal: the score, how the runs went (a program
    that could not start says so first, with its line), then one line per item."""
    width = max(len(v.item.id) for v in report.verdicts)
    replays = replay_commands(report)
    lines = [f"{report.rubric.title}: {report.student}  "
             f"{report.score:g}/{report.rubric.max_score:g}"]
    if report.notes:
        lines.append(f"{RUNS_WENT}:")
        lines += [f"  - {one_line(note, 300)}" for note in report.notes[:MAX_NOTES]]
        lines.append("Items:")
    for v in report.verdicts:
        flag = "ok " if v.passed else ("?? " if not v.judged else "-- ")
        first = ""
        if not v.judged:
            first = "not judged: " + " ".join(v.why_not_judged)
        elif not v.passed:
            first = next((c.messages[0].splitlines()[0] for c in v.judging_checks
                          if c.messages), "")
        elif v.partly_unchecked and not v.item.review:
            # full marks on what was checked: say what was not (a game that stopped early)
            first = "only partly checked: " + " ".join(v.partly_unchecked)
        review = " [review]" if v.item.review else ""
        lines.append(f"  {flag}{v.item.id:<{width}} {v.score:g}/{v.item.points:g}{review}"
                     + (f"  {one_line(first, 160)}" if first else ""))
        if v.item.id in replays:
            lines.append(f"  {'':<{width + 3}} replay: {replays[v.item.id]}")
    return "\n".join(lines)


def unusable_report(rubric: Rubric, student: str, why: str, notes: list[str] = (),
                    problems: list[str] = ()) -> SubmissionReport:
    """The report of a submission that could not be graded at all (refused, or without its
    main file): every item 0, the reason said once, for the student and for a TA."""
    verdicts = []
    for item in rubric.items:
        check = CheckResult(item.id, "submission", fraction=0.0)
        check.add_detail("No marks: the submission could not be graded (see 'How the runs "
                         "went' above).")
        verdicts.append(ItemVerdict(item, 0.0, [check], True))
    return SubmissionReport(student, rubric, verdicts, 0.0,
                            [f"Not graded: {why}", *notes], list(problems) or [why])


def without_review_marks(verdicts: list[ItemVerdict], why: str,
                         unjudged_too: bool = False, keep=()) -> list[ItemVerdict]:
    """The verdicts with every review item at 0 (except the ids in ``keep``): a program that
    could not run, or that does nothing, earns no marks for its interface, functions or
    readability. ``unjudged_too`` (a file with no code of its own): the items the checks could
    not judge are 0 as well, not left for a TA, since there is nothing of the student's to
    look at."""
    changed = []
    for verdict in verdicts:
        if verdict.item.id not in keep and (verdict.item.review or
                                            unjudged_too and not verdict.judged):
            check = CheckResult(verdict.item.id, "nothing to review", fraction=0.0)
            check.add_detail(f"No marks: {why}")
            verdict = ItemVerdict(verdict.item, 0.0, [check], True)
        changed.append(verdict)
    return changed


def missing_result(rubric: Rubric, student: str, why: str) -> dict:
    """A zero results record for a submission that could not be graded."""
    why = one_line(why)
    return {"score": 0, "max_score": rubric.max_score, "execution_time": 0, "output": why,
            "tests": [{"name": i.title, "number": i.id, "score": 0, "max_score": i.points,
                       "status": "failed", "output": why} for i in rubric.items],
            "extra_data": {"student": student, "assignment": rubric.assignment,
                           "needs_review": [why], "problems": [why]}}


def write_class(results: list[dict], rubric: Rubric, folder: Path, *,
                vanished: list[str] = (), left_out_of_canvas: list[str] = (),
                warnings: list[str] = ()) -> str:
    """Gradebook CSV, needs-review list and the class rubric report; returns the summary.

    ``results`` are the per-submission results JSON records (so worker processes can write
    them and one process can collect them), with overrides and the late policy applied
    (``extra_data``: late, late_deduction, automatic_score, overrides, provisional).
    ``vanished``: students whose results were set aside this run (no submission any more);
    ``left_out_of_canvas``: students not in canvas.csv, with why; ``warnings``: about
    overrides.toml.
    """
    folder.mkdir(parents=True, exist_ok=True)
    results = sorted(results, key=lambda r: str(r.get("extra_data", {}).get("student")))
    write_gradebook(results, rubric, folder / "gradebook.csv")
    review_items = [i.id for i in rubric.items if i.review]
    lines = [f"# {rubric.title}: submissions that need a human look", ""]
    for r in sorted(results, key=lambda r: r["score"]):
        extra = r.get("extra_data", {})
        if _look_at(r):
            lines.append(f"- **{one_line(extra.get('student'), 100)}** ({r['score']:g}): "
                         + "; ".join(_look_at(r)))
    if len(lines) == 2:
        lines.append("No submission crashed, hung or confused the grader, and every item was "
                     "judged.")
    open_items = [(one_line(r.get("extra_data", {}).get("student"), 100),
                   r.get("extra_data", {}).get("provisional", review_items))
                  for r in with_a_result(results)]
    open_items = [(student, items) for student, items in open_items if items]
    if review_items:
        lines += ["", "## Review items still provisional", ""]
        if open_items:
            lines += ["The review items were scored from measurements shown in each feedback. "
                      "Confirm or override them in overrides.toml (`confirmed = [...]`, or "
                      "the item's points):", ""]
            lines += [f"- **{student}**: {', '.join(items)}" for student, items in open_items]
        else:
            lines.append("A TA has confirmed or set every review item "
                         f"({', '.join(review_items)}).")
    if warnings:
        lines += ["", "## overrides.toml", ""] + [f"- {one_line(w, 500)}" for w in warnings]
    (folder / "needs_review.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = class_summary(results, rubric)
    extra_lines = []
    if vanished:
        extra_lines += ["", "## Set aside: no submission any more", "",
                        "These students had results here but no submission in the class "
                        "folder now; their folders were moved to `.vanished/` and are left out "
                        "of every class file:", ""]
        extra_lines += [f"- {one_line(name, 100)}" for name in vanished]
    if left_out_of_canvas:
        extra_lines += ["", "## Not in canvas.csv", ""]
        extra_lines += [f"- {one_line(name, 300)}" for name in left_out_of_canvas]
    (folder / "class_report.md").write_text(summary + "\n" + "\n".join(extra_lines)
                                            + ("\n" if extra_lines else ""), encoding="utf-8")
    return summary


def write_gradebook(results: list[dict], rubric: Rubric, path: Path) -> None:
    """One row per student: the score (after overrides and the late policy), each item, then
    what the score is made of (late, its deduction, the automatic score, the items a TA set,
    the review items still provisional), the Canvas user id and what a TA must look at."""
    ids = [item.id for item in rubric.items]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "score", "max_score", *ids, "late", "late_deduction",
                         "automatic_score", "overridden", "provisional", "user_id",
                         "needs_review"])
        for r in results:
            by_id = {t["number"]: t["score"] for t in r["tests"]}
            extra = r.get("extra_data", {})
            writer.writerow([one_line(extra.get("student"), 100), r["score"], rubric.max_score,
                             *[by_id.get(i, 0) for i in ids],
                             "LATE" if extra.get("late") else "",
                             extra.get("late_deduction") or "",
                             extra.get("automatic_score", r["score"]),
                             " ".join(extra.get("overrides", {})),
                             " ".join(extra.get("provisional", [])),
                             one_line(extra.get("user_id") or "", 40),
                             "; ".join(_look_at(r))])


def with_a_result(results: list[dict]) -> list[dict]:
    """The results the grader produced: not those standing in for a student it failed on or
    has not graded yet (``grading_failed``), which class figures leave out."""
    return [r for r in results if not r.get("extra_data", {}).get("grading_failed")]


def class_summary(results: list[dict], rubric: Rubric) -> str:
    """Per-item averages and full-marks rates, the score distribution, and how many
    submissions were late, changed by a TA or still have provisional review items. The
    figures are of the graded submissions: one with no result (the grader failed on it, or
    it was not graded yet) is named, not counted as a 0."""
    graded = with_a_result(results)
    missing = [r for r in results if r not in graded]
    n = len(graded) or 1
    lines = [f"# {rubric.title}: class report ({len(results)} submissions)", "",
             "| item | points | average | full marks |", "|---|---|---|---|"]
    for item in rubric.items:
        scores = [t["score"] for r in graded for t in r["tests"] if t["number"] == item.id]
        full = sum(1 for s in scores if abs(s - item.points) < 1e-9)
        lines.append(f"| `{item.id}` | {item.points:g} | {sum(scores) / n:.2f} | "
                     f"{full}/{len(graded)} |")
    totals = sorted(r["score"] for r in graded)
    if totals:
        lines += ["", f"Total: mean {sum(totals) / n:.2f} / {rubric.max_score:g}, "
                      f"median {totals[len(totals) // 2]:g}, min {totals[0]:g}, "
                      f"max {totals[-1]:g}"]
    if missing:
        names = ", ".join(one_line(r.get("extra_data", {}).get("student"), 100)
                          for r in missing)
        lines += ([] if totals else [""]) + [
            f"No result, left out of these figures: {len(missing)} ({names})"]
    flagged = sum(1 for r in results if _look_at(r))
    lines.append(f"Submissions needing a human look beyond the review items: {flagged}")
    extras = [r.get("extra_data", {}) for r in results]
    late = [one_line(e.get("student"), 100) + (f" -{e['late_deduction']:g}"
                                               if e.get("late_deduction") else "")
            for e in extras if e.get("late")]
    changed = sum(1 for e in extras if e.get("overrides"))
    provisional = sum(1 for e in extras if e.get("provisional"))
    lines.append(f"Late: {len(late)}" + (f" ({', '.join(late)})" if late else ""))
    lines.append(f"Changed by a TA: {changed}; with review items still provisional: "
                 f"{provisional}")
    return "\n".join(lines)


def _look_at(result: dict) -> list[str]:
    """Why a TA must look at a submission: the grader's problems, then the items it could not
    judge (0 for now; see the student's feedback for why)."""
    extra = result.get("extra_data", {})
    reasons = [one_line(r, 500) for r in extra.get("problems", [])]
    if extra.get("not_judged"):
        reasons.append("not judged (0 for now, see feedback.md): "
                       + ", ".join(extra["not_judged"]))
    return reasons


def replay_commands(report: SubmissionReport) -> dict[str, str]:
    """item id -> the command that replays the game where it failed (``replay``)."""
    if not report.replays:
        return {}
    from . import replay
    return replay.commands(report)
