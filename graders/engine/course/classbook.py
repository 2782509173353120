"""A class's report folder over a whole grading week: what `grade-all` and `report` keep.

``reports/<assignment>/`` holds one folder per student and the class files (gradebook.csv,
class_report.md, needs_review.md, index.html, similarity.md, canvas.csv). This module keeps
them true to the class folder and to the TA's decisions:

* **Stored results.** Each student's folder holds the grader's own result, never edited
  afterwards: ``automatic.json`` (the results.json schema) and ``automatic.md`` (its
  feedback), then ``.graded``, written last, holding the hashes of the submission and of the
  grader that produced them. Every file is written whole (a temporary file, then
  ``os.replace``), so an interrupted run leaves either a complete result or no ``.graded``.
* **Resuming.** A student whose ``.graded`` matches the submission's content hash and the
  grader's hash is not graded again (``--force`` regrades everyone).
* **Applied views.** ``results.json`` and ``feedback.md`` (and the pages) are always made
  again from the automatic result plus ``overrides.toml`` plus the late policy, so applying
  twice changes nothing and deleting an override restores the automatic score.
* **The folder decides.** Results of students with no submission any more are moved aside to
  ``.vanished/`` (never deleted) and left out of every class file.
"""
from __future__ import annotations

import contextlib
import copy
import csv
import hashlib
import json
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..grading import reports
from ..judge.rubric import DATA_ROOT, KIT_ROOT, Rubric

AUTOMATIC_JSON = "automatic.json"
AUTOMATIC_MD = "automatic.md"
MARKER = ".graded"
VANISHED = ".vanished"
STATE = ".classbook.json"          # the class folder the reports were built from, ...
REPLACED = ".replaced"             # reports of another class folder, set aside (--replace)
LOCK = ".lock"                     # held by the grade-all or report writing the folder
LOCK_OWNER = ".lock-owner.json"    # who holds it: pid, host, start time
OVERRIDES = "overrides.toml"
OWNERS = ".override_owners.json"    # each overrides.toml table -> the LMS user id it is for
VERSIONS = ".override_versions.json"  # each table -> its content and the code it was set for
# keys of a student's table in overrides.toml that are not rubric item ids
SETTINGS = ("comment", "confirmed", "late", "late_days")


class ClassbookError(Exception):
    """A TA's file the kit cannot use (a malformed overrides.toml, a bad late policy)."""


# ---------------------------------------------------------------------- writing safely
def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then os.replace)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------------- hashes
def grader_hash(assignment: str) -> str:
    """A hash of everything that decides an automatic score: the engine's and the
    assignment's grader code, and the rubric's items. Documentation (``*.md``), caches and
    the rubric's ``[late]`` and ``[canvas]`` tables are left out: they change no automatic
    score (the late policy and the Canvas column are applied when the results are
    published), so editing them never regrades a class."""
    digest = hashlib.sha256()
    for base in (KIT_ROOT / "graders" / "engine", KIT_ROOT / "graders" / assignment):
        for path in sorted(base.rglob("*")):
            if (not path.is_file() or "__pycache__" in path.parts
                    or path.suffix in (".pyc", ".md")):
                continue
            digest.update(str(path.relative_to(KIT_ROOT)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    rubric = tomllib.loads((DATA_ROOT / "assignments" / assignment / "rubric.toml")
                           .read_text(encoding="utf-8"))
    for table in ("late", "canvas"):
        rubric.pop(table, None)
    digest.update(json.dumps(rubric, sort_keys=True).encode())
    return digest.hexdigest()


def identity(submission) -> dict:
    """What the LMS said about a submission (None or False when it said nothing)."""
    return {"user_id": getattr(submission, "user_id", None),
            "late": bool(getattr(submission, "late", False)),
            "submission_id": getattr(submission, "submission_id", None),
            "display_name": getattr(submission, "display_name", None) or submission.student}


def submission_hash(submission) -> str:
    """A hash of the submission as the grader sees it: its files (names and bytes), what
    discovery noted about them, and what the LMS said (user id, LATE, submission id)."""
    digest = hashlib.sha256()
    facts = {"main": submission.main_name, "refused": submission.refused,
             "notes": submission.notes, "problems": submission.problems,
             "identity": identity(submission)}
    digest.update(json.dumps(facts, sort_keys=True, default=str).encode() + b"\0")
    for name in sorted(submission.files):
        digest.update(name.encode() + b"\0" + submission.files[name].read_bytes() + b"\0")
    return digest.hexdigest()


def content_hash(submission) -> str:
    """A hash of the submission's code alone (its files' names and bytes): what a TA looked
    at. A new upload of the same files (a new submission id) keeps it."""
    digest = hashlib.sha256()
    for name in sorted(submission.files):
        digest.update(name.encode() + b"\0" + submission.files[name].read_bytes() + b"\0")
    return digest.hexdigest()


def is_current(folder: Path, submission_digest: str, grader_digest: str) -> bool:
    """Is the stored result in ``folder`` complete and made from this submission and grader?"""
    try:
        stamp = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (stamp.get("submission") == submission_digest
            and stamp.get("grader") == grader_digest
            and (folder / AUTOMATIC_JSON).is_file())


def write_automatic(report: reports.SubmissionReport, folder: Path, submission,
                    grader_digest: str) -> None:
    """Store the grader's result for one student: transcripts, automatic.json, automatic.md,
    each written whole, and ``.graded`` last (removed first, so a result cut short is never
    taken for a finished one)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).unlink(missing_ok=True)
    inside = folder.resolve()
    for name, text in report.attachments.items():
        path = (folder / name).resolve()
        if path.is_relative_to(inside):      # attachment names are the grader's; keep them in
            atomic_write(path, reports.attachment_text(name, text))
    data = reports.results_json(report)
    data["extra_data"]["submission"] = {**identity(submission),
                                        "content": content_hash(submission),
                                        # which file was graded, as the student named it
                                        "graded_file": getattr(submission, "graded_file", "")}
    atomic_write(folder / AUTOMATIC_JSON, json.dumps(data, indent=2, ensure_ascii=False))
    atomic_write(folder / AUTOMATIC_MD, reports.feedback_markdown(report))
    atomic_write(folder / MARKER, json.dumps({"submission": submission_hash(submission),
                                              "grader": grader_digest,
                                              "graded": time.strftime("%Y-%m-%d %H:%M:%S")}))


def adopt(folder: Path) -> bool:
    """Take a ``results.json`` the kit did not publish (one written by ``grade``, or by an
    older kit) as the folder's automatic result. True when the folder has one now."""
    results = folder / "results.json"
    if results.is_file():
        try:
            data = json.loads(results.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
        if "automatic_score" not in data.get("extra_data", {}):
            (folder / MARKER).unlink(missing_ok=True)     # not graded by grade-all
            os.replace(results, folder / AUTOMATIC_JSON)
            if (folder / "feedback.md").is_file():
                os.replace(folder / "feedback.md", folder / AUTOMATIC_MD)
    return (folder / AUTOMATIC_JSON).is_file()


# ---------------------------------------------------------------------- overrides
@dataclass
class Override:
    """A TA's decisions about one student (a table of overrides.toml)."""

    student: str
    points: dict[str, float] = field(default_factory=dict)     # item id -> points
    comments: dict[str, str] = field(default_factory=dict)     # item id -> its own comment
    comment: str = ""                                          # for every item changed
    confirmed: set[str] = field(default_factory=set)           # review items confirmed
    late: bool | None = None                                   # None: as the LMS said
    late_days: int | None = None
    digest: str = ""                       # of the table as written (see place_overrides)
    earlier_version: bool = False          # set for code the student has replaced since


BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def table_name(student: str) -> str:
    """A student's table in overrides.toml as TOML reads it: bare when the name has only
    a-z, A-Z, 0-9, _ and -; otherwise quoted (``["möllerjosé"]``: TOML's bare keys are
    ASCII only, and a dot would make nested tables)."""
    if BARE_KEY.fullmatch(student):
        return f"[{student}]"
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                      for c in student)
    return f'["{escaped}"]'


QUOTING = ("a student name with other letters than a-z, 0-9, _ and - (é, ö, a dot) is "
           "written in quotes")


def overrides_header(rubric: Rubric, students: list[str] = ()) -> str:
    """The comment that starts a new overrides.toml: what it holds, with an example, and the
    quoted table names of the class's students that need them."""
    review = [i.id for i in rubric.items if i.review] or ["ui"]
    items = [i.id for i in rubric.items]
    item_list = textwrap.fill(", ".join(items), 96, initial_indent="#   ",
                              subsequent_indent="#   ")
    quoted = [table_name(s) for s in students if not BARE_KEY.fullmatch(s)]
    quoted_list = "\n" + textwrap.fill(
        "These students' tables need the quotes: " + ", ".join(quoted), 96,
        initial_indent="# ", subsequent_indent="#   ") if quoted else ""
    return f"""\
# TA overrides for {rubric.title} ({rubric.assignment}).
# Every `grade-all` and `python -m graders report {rubric.assignment}` applies this file. The
# grader's own result (automatic.json in each student's folder) is never changed: delete a
# line and the automatic score is back.
#
# One table per student, named as the student's report folder; {QUOTING}:
# ["möllerjosé"], not [möllerjosé] (TOML's bare names are ASCII only).{quoted_list}
# Keys:
#   <item id> = points            a rubric item's points (0 to the item's maximum)
#   <item id> = {{ points = 1, comment = "..." }}   points with a comment for that item only
#   comment = "..."               shown to the student beside every item changed here
#   confirmed = ["<review item>", ...]   review items a TA checked and keeps as scored
#   confirmed = true              every review item confirmed
#   late = false                  not late after all (an extension); true: late
#   late_days = 2                 days late, for a per-day late policy (Canvas names only
#                                 say LATE, not how late)
# Review items ({", ".join(review)}) are provisional until confirmed or given points;
# needs_review.md lists the ones still open. Item ids:
{item_list}
#
# Example:
# [smithjane]
# {items[min(2, len(items) - 1)]} = 1
# comment = "Your tie rule is in the docstring, which the handout allows."
# confirmed = [{", ".join(f'"{i}"' for i in review[:2])}]
"""


def ensure_overrides_file(folder: Path, rubric: Rubric, students: list[str] = ()) -> Path:
    """``folder/overrides.toml``, written with its explaining header when missing."""
    path = folder / OVERRIDES
    if not path.exists():
        atomic_write(path, overrides_header(rubric, students))
    return path


def load_overrides(path: Path, rubric: Rubric, students: set[str] | None = None) \
        -> tuple[dict[str, Override], list[str]]:
    """The overrides of ``path`` and warnings for whatever is not applied (an unknown student
    or item, a value of the wrong kind). A file TOML cannot read is a ClassbookError naming
    the line."""
    if not path.is_file():
        return {}, []
    text = path.read_text(encoding="utf-8-sig")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        where = ""
        if found:
            number = int(found.group(1))
            lines = text.splitlines()
            shown = lines[number - 1].strip() if 0 < number <= len(lines) else ""
            where = f" line {number}" + (f" ({shown[:80]!r})" if shown else "")
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        fix = ""
        table = re.fullmatch(r"\s*\[\s*([^\[\]\"']+?)\s*\]\s*(#.*)?", shown) if found else None
        if table and not BARE_KEY.fullmatch(table.group(1)):
            fix = f" ({QUOTING}: {table_name(table.group(1))})"
        raise ClassbookError(f"{path}:{where}: {message}{fix}; fix the file (nothing was "
                             f"graded or changed)") from None
    items = {i.id: i for i in rubric.items}
    review = {i.id for i in rubric.items if i.review}
    found: dict[str, Override] = {}
    warnings: list[str] = []
    for student, table in data.items():
        if not isinstance(table, dict):
            warnings.append(f"{path.name}: `{student} = ...` is not a [student] table; "
                            f"ignored")
            continue
        if students is not None and student not in students:
            dotted = [f"{student}.{key}" for key in table if f"{student}.{key}" in students]
            hint = (f" ({QUOTING}: {table_name(dotted[0])}, not [{dotted[0]}])"
                    if dotted else "")
            warnings.append(f"{path.name}: {table_name(student)} is not a student of this "
                            f"class (no submission of that name){hint}; its overrides are not "
                            f"applied")
            continue
        override = Override(student, digest=hashlib.sha256(json.dumps(
            table, sort_keys=True, default=str).encode()).hexdigest())
        for key, value in table.items():
            where = f"{path.name}: {table_name(student)} {key}"
            if key in items:
                points, comment = value, ""
                if isinstance(value, dict):
                    points, comment = value.get("points"), value.get("comment", "")
                    unknown = set(value) - {"points", "comment"}
                    if unknown:
                        warnings.append(f"{where}: unknown key(s) {', '.join(sorted(unknown))}"
                                        f" (use points and comment); ignored")
                if (not isinstance(points, (int, float)) or isinstance(points, bool)
                        or not 0 <= points <= items[key].points):
                    warnings.append(f"{where} = {points!r}: points must be a number from 0 to "
                                    f"{items[key].points:g}; not applied")
                    continue
                override.points[key] = float(points)
                if comment:
                    override.comments[key] = str(comment)
            elif key == "comment":
                override.comment = str(value)
            elif key == "confirmed":
                names = sorted(review) if value is True else value
                if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                    warnings.append(f"{where}: give a list of review item ids, or true; "
                                    f"ignored")
                    continue
                for name in names:
                    if name in review:
                        override.confirmed.add(name)
                    elif name in items:
                        warnings.append(f"{where}: {name} is not a review item (it is scored "
                                        f"automatically; give it points to change it)")
                    else:
                        warnings.append(f"{where}: no review item {name!r} (review items: "
                                        f"{', '.join(sorted(review)) or 'none'}); ignored")
            elif key == "late" and isinstance(value, bool):
                override.late = value
            elif (key == "late_days" and isinstance(value, int) and not isinstance(value, bool)
                  and value >= 0):
                override.late_days = value
            elif key in SETTINGS:
                warnings.append(f"{where} = {value!r}: not a valid value (see the file's "
                                f"header); ignored")
            else:
                warnings.append(f"{where}: no rubric item or setting of that name (items: "
                                f"{', '.join(items)}; settings: {', '.join(SETTINGS)}); "
                                f"ignored")
        found[student] = override
    return found, warnings


# ---------------------------------------------------------------------- late policy
@dataclass
class LatePolicy:
    """``[late]`` in the rubric: a share of the maximum score taken off late work.

    ``flat``: ``deduction`` percent once for a submission marked LATE. ``per-day``:
    ``deduction`` percent for each day late, and only when the days are known (overrides.toml
    ``late_days``): Canvas's file names say LATE, not how late, so the kit never guesses.
    """

    policy: str
    deduction: float            # percent of the maximum score (once, or per day)
    max_deduction: float = 100.0

    def applied(self, late: bool, days: int | None, max_score: float) \
            -> tuple[float, str, str | None]:
        """(points taken off, the feedback line, a reason for a TA or None)."""
        if not late:
            return 0.0, "", None
        if self.policy == "flat":
            points = round(max_score * min(self.deduction, self.max_deduction) / 100, 2)
            return points, f"Late: -{points:g} ({self.deduction:g} % late deduction)", None
        if days is None:
            return 0.0, (f"Late: the late deduction ({self.deduction:g} % a day) is not "
                         f"applied yet: a TA has still to set how many days late this was, "
                         f"and the score will go down then."), \
                ("LATE, but how late is not known: set late_days in overrides.toml (no late "
                 "deduction applied yet; left out of canvas.csv until then)")
        percent = min(self.deduction * days, self.max_deduction)
        points = round(max_score * percent / 100, 2)
        return points, (f"Late: -{points:g} ({days} day{'s' if days != 1 else ''} × "
                        f"{self.deduction:g} % late deduction)"), None


def late_policy(assignment: str) -> LatePolicy | None:
    """The assignment's late policy (``[late]`` in its rubric.toml), or None."""
    path = DATA_ROOT / "assignments" / assignment / "rubric.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("late")
    if table is None:
        return None
    policy, deduction = table.get("policy"), table.get("deduction")
    most = table.get("max_deduction", 100)
    if policy not in ("flat", "per-day"):
        raise ClassbookError(f"{path}: [late] policy must be \"flat\" or \"per-day\", not "
                             f"{policy!r}")
    for name, value in (("deduction", deduction), ("max_deduction", most)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) \
                or not 0 <= value <= 100:
            raise ClassbookError(f"{path}: [late] {name} must be a percentage from 0 to 100, "
                                 f"not {value!r}")
    return LatePolicy(policy, float(deduction), float(most))


def canvas_column(rubric: Rubric) -> str:
    """The assignment's column header in canvas.csv: ``[canvas] column`` in the rubric, e.g.
    "PocoLoco (123456)" with Canvas's assignment id, else the rubric's title (Canvas matches
    a column to an assignment by the id in parentheses, or else by its exact name)."""
    path = DATA_ROOT / "assignments" / rubric.assignment / "rubric.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("canvas", {})
    return str(table.get("column") or rubric.title)


# ---------------------------------------------------------------------- applying
def applied_result(automatic: dict, rubric: Rubric, override: Override | None,
                   policy: LatePolicy | None) -> dict:
    """The result a student gets: the automatic one with the TA's overrides and the late
    policy applied, saying what changed (``extra_data``: automatic_score, overrides,
    provisional, late, late_deduction). ``automatic`` itself is not changed."""
    result = copy.deepcopy(automatic)
    extra = result.setdefault("extra_data", {})
    who = extra.get("submission", {})
    override = override or Override(extra.get("student", ""))
    late = bool(who.get("late")) if override.late is None else override.late
    if override.late_days is not None:
        late = override.late_days > 0
    # Interpretation: points a TA set for code the student has replaced since are kept (a
    # TA's decision is not dropped silently) but marked; a confirmation says "the score I
    # saw is right", which the new code's score may not be: it no longer counts.
    earlier = override.earlier_version
    confirmed = set() if earlier else override.confirmed
    for_earlier = " for an earlier version of this submission" if earlier else ""
    changed = {}
    for test in result.get("tests", []):
        item_id = test["number"]
        if item_id not in override.points:
            if item_id in confirmed:
                test["tags"] = [t for t in test.get("tags", []) if t != "needs-review"]
            continue
        points = override.points[item_id]
        # the item's own comment, then the table's comment for every item changed (both are
        # the TA's words to the student: neither is dropped)
        comment = " ".join(dict.fromkeys(c for c in (override.comments.get(item_id),
                                                      override.comment) if c))
        changed[item_id] = {"score": points, "automatic": test["score"], "comment": comment}
        test["output"] = (f"A TA set this item to {points:g} / {test['max_score']:g}"
                          f"{for_earlier} (the grader's automatic score: {test['score']:g})."
                          + (f" TA's comment: {comment}" if comment else "")
                          + "\n\n" + test.get("output", ""))
        test["score"] = points
        test["status"] = "passed" if points >= test["max_score"] - 1e-9 else "failed"
        test["tags"] = [t for t in test.get("tags", []) if t != "needs-review"]
    review = [i.id for i in rubric.items if i.review]
    provisional = [i for i in review if i not in confirmed and i not in changed]
    items_total = round(sum(t["score"] for t in result.get("tests", [])), 2)
    deduction, late_line, late_problem = (policy.applied(late, override.late_days,
                                                         rubric.max_score)
                                          if policy else (0.0, "", None))
    deduction = min(deduction, items_total)
    reasons = [r for r in extra.get("needs_review", [])
               if not r.startswith("confirm review items")
               and not any(r.startswith(f"not judged: {i} (") for i in changed)]
    stale = None
    if earlier and (changed or override.confirmed):
        what = ", ".join(list(changed) + [f"confirmed {i}" for i in sorted(override.confirmed)
                                          if i in review and i not in changed])
        stale = (f"overrides.toml set for an earlier version ({what}): the student's code has "
                 f"changed since; the points are kept, confirmations no longer count. Look at "
                 f"this version, then change the table (any change sets it for this version)")
    ta_problems = [p for p in (stale, late_problem) if p]
    reasons += ta_problems
    if provisional:
        reasons.append("confirm review items: " + ", ".join(provisional))
    extra.update({
        "automatic_score": automatic.get("score", 0), "overrides": changed,
        "overrides_comment": override.comment,
        "overrides_for_earlier_version": bool(stale),
        "provisional": provisional,
        "not_judged": [i for i in extra.get("not_judged", []) if i not in changed],
        "needs_review": reasons,
        "problems": extra.get("problems", []) + ta_problems,
        "late": late, "late_days": override.late_days, "late_deduction": deduction,
        "late_days_needed": bool(late_problem),
        "late_note": late_line,
        "user_id": who.get("user_id"), "submission_id": who.get("submission_id"),
        "display_name": who.get("display_name") or extra.get("student")})
    result["score"] = round(max(0.0, items_total - deduction), 2)
    return result


TABLE_ROW = re.compile(r"^\| `(?P<id>[^`]+)` ")
ITEM_HEADING = re.compile(r"^## `(?P<id>[^`]+)`: ")
SCORE_LINE = re.compile(r"^\*\*Score: [^*]*\*\*$")
PROVISIONAL = "This score is provisional:"


def applied_markdown(markdown: str, result: dict, rubric: Rubric) -> str:
    """``feedback.md`` for ``result`` (an applied result) from the grader's automatic.md:
    the score, a late line, each changed item's TA comment and automatic score, and which
    review items a TA has confirmed."""
    extra = result.get("extra_data", {})
    changed = extra.get("overrides", {})
    provisional = set(extra.get("provisional", []))
    not_judged = set(extra.get("not_judged", []))
    tests = {t["number"]: t for t in result.get("tests", [])}
    items = {i.id: i for i in rubric.items}
    out: list[str] = []
    lines = markdown.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        row, heading = TABLE_ROW.match(line), ITEM_HEADING.match(line)
        if SCORE_LINE.match(line):
            out.append(f"**Score: {result['score']:g} / {result.get('max_score', 0):g}**")
            out += _changes_summary(result)
        elif line.startswith(PROVISIONAL):
            if not_judged:
                ids = ", ".join(f"`{i}`" for i in items if i in not_judged)
                out.append(f"{PROVISIONAL} the grader could not check {ids}, which count 0 "
                           "until a TA has looked at them.")
            elif lines[index + 1:index + 2] == [""]:
                index += 1                     # a TA decided every item: no paragraph left
        elif row and row.group("id") in tests and row.group("id") in items:
            out.append(_table_row(items[row.group("id")], tests[row.group("id")], changed,
                                  provisional, not_judged,
                                  extra.get("overrides_for_earlier_version", False)))
        elif heading and heading.group("id") in tests and heading.group("id") in items:
            item_id = heading.group("id")
            test = tests[item_id]
            out += [_heading(items[item_id], test, changed, not_judged), ""]
            if item_id in changed:
                change = changed[item_id]
                earlier = (" for an earlier version of your submission"
                           if extra.get("overrides_for_earlier_version") else "")
                out += [f"**A TA set this item to {change['score']:g} / {test['max_score']:g}"
                        f"{earlier}** (the grader's automatic score: {change['automatic']:g} / "
                        f"{test['max_score']:g})."
                        + (f" TA's comment: {change['comment']}" if change["comment"] else ""),
                        "", "What the grader found:", ""]
            elif items[item_id].review and item_id not in provisional:
                out += ["**A TA confirmed this score.**", ""]
            if lines[index + 1:index + 2] == [""]:
                index += 1
        else:
            out.append(line)
        index += 1
    return "\n".join(out)


def _changes_summary(result: dict) -> list[str]:
    extra = result.get("extra_data", {})
    lines = []
    if extra.get("late_note"):
        lines += ["", extra["late_note"]]
    if extra.get("overrides"):
        ids = ", ".join(f"`{i}`" for i in extra["overrides"])
        lines += ["", f"A TA changed {ids}; the grader's automatic score was "
                      f"{extra.get('automatic_score', 0):g} / {result.get('max_score', 0):g}."]
    if extra.get("overrides_for_earlier_version"):
        lines += ["", "A TA's decisions here were made for an earlier version of your "
                      "submission: they are kept until a TA has looked at this version."]
    return lines


def _table_row(item, test: dict, changed: dict, provisional: set, not_judged: set,
               earlier: bool = False) -> str:
    score = test["score"]
    # a part of the points is shown as the points (2/3 is not a half)
    mark = "✔" if score >= item.points - 1e-9 else (
        f"{score:g}/{item.points:g}" if score > 0 else "✘")
    if item.id in changed:
        note = (f" set by a TA{' for an earlier version' if earlier else ''} (automatic: "
                f"{changed[item.id]['automatic']:g})")
    elif item.id in not_judged:
        mark, note = "?", " not judged: a TA will look at it"
    elif item.review:
        note = " (provisional: a TA confirms this)" if item.id in provisional \
            else " (confirmed by a TA)"
    else:
        note = ""
    return f"| `{item.id}` {item.title} | {score:g} / {item.points:g} | {mark}{note} |"


def _heading(item, test: dict, changed: dict, not_judged: set) -> str:
    score = test["score"]
    if item.id in changed:
        mark = "set by a TA"
    elif item.id in not_judged:
        mark = "not judged"
    else:
        mark = "passed" if score >= item.points - 1e-9 else "not full marks"
    return f"## `{item.id}`: {item.title} ({score:g}/{item.points:g}, {mark})"


def publish(folder: Path, rubric: Rubric, override: Override | None,
            policy: LatePolicy | None) -> dict:
    """Write a student's ``results.json`` and ``feedback.md`` from the stored automatic
    result; returns the applied result."""
    automatic = json.loads((folder / AUTOMATIC_JSON).read_text(encoding="utf-8"))
    result = applied_result(automatic, rubric, override, policy)
    markdown_path = folder / AUTOMATIC_MD
    if markdown_path.is_file():
        markdown = applied_markdown(markdown_path.read_text(encoding="utf-8"), result, rubric)
        atomic_write(folder / "feedback.md", reports.fit_bytes(markdown, reports.REPORT_BYTES))
    atomic_write(folder / "results.json", json.dumps(result, indent=2, ensure_ascii=False))
    return result


# ---------------------------------------------------------------------- the class folder
def stored_students(out: Path, any_report: bool = False) -> list[str]:
    """Student folders of a report folder: those holding a result (or a started one); with
    ``any_report``, also those holding only a feedback.md."""
    signs = ("results.json", AUTOMATIC_JSON, MARKER) + (("feedback.md",) if any_report else ())
    if not out.is_dir():
        return []
    return sorted(p.name for p in out.iterdir()
                  if p.is_dir() and not p.name.startswith(".")
                  and any((p / n).exists() for n in signs))


def set_aside_vanished(out: Path, current: set[str]) -> list[str]:
    """Move the folders of students who have no submission any more to ``.vanished/``
    (a TA's files are never deleted); returns their names."""
    moved = []
    for student in stored_students(out, any_report=True):
        if student in current:
            continue
        target = out / VANISHED / student
        if target.exists():
            target = out / VANISHED / f"{student}-{time.strftime('%Y%m%d-%H%M%S')}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(out / student), str(target))
        moved.append(student)
    return moved


def read_state(out: Path) -> dict:
    try:
        return json.loads((out / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_state(out: Path, **facts) -> None:
    atomic_write(out / STATE, json.dumps(facts, indent=2))


class InUse(ClassbookError):
    """Another grade-all or report is writing the reports folder."""


@contextlib.contextmanager
def locked(out: Path, command: str):
    """Hold the reports folder ``out`` while ``command`` (grade-all, report) writes it: a
    second one at the same time stops (InUse), saying who holds it. The lock is the
    operating system's (filelock: released when the holder ends, however it ends); who holds
    it is written beside it for the message."""
    from filelock import FileLock, Timeout

    out.mkdir(parents=True, exist_ok=True)
    lock = FileLock(out / LOCK)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        try:
            owner = json.loads((out / LOCK_OWNER).read_text(encoding="utf-8"))
            who = (f"{owner.get('command', 'a command')} (pid {owner.get('pid')} on "
                   f"{owner.get('host')}, started {owner.get('started')})")
        except (OSError, ValueError):
            who = "another grade-all or report (it did not say who it is)"
        raise InUse(f"{out} is in use by {who}: wait for it to finish (or stop it), then run "
                    f"this again. Nothing was graded or changed.") from None
    try:
        atomic_write(out / LOCK_OWNER, json.dumps({
            "command": command, "pid": os.getpid(), "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S")}))
        yield
    finally:
        (out / LOCK_OWNER).unlink(missing_ok=True)
        lock.release()


def other_class(out: Path, folder: Path) -> str | None:
    """Why ``out`` may not be rebuilt from the class folder ``folder``, or None.

    A reports folder belongs to the class folder it was built from (recorded in
    ``.classbook.json``): rebuilding it from another one would set every student of the
    first class aside and rewrite canvas.csv for the second."""
    state = read_state(out)
    recorded, source = state.get("folder"), str(Path(folder).resolve())
    if not recorded or recorded == source or not (stored_students(out, any_report=True)
                                                  or (out / OVERRIDES).is_file()):
        return None
    gone = "" if Path(recorded).is_dir() else " (that folder is not there any more)"
    when = f", last graded {state['when']}" if state.get("when") else ""
    return (f"{out} holds the reports of another class folder: {recorded}{gone}{when}. "
            f"Grading {source} into it would set that class's students aside and rewrite its "
            f"canvas.csv. Give this class a reports folder of its own (--out), or add "
            f"--replace to move the other class's reports, overrides.toml included, to "
            f"{out / REPLACED}/ (nothing is deleted) and start this one afresh.")


def claim(out: Path, folder: Path) -> str | None:
    """Record ``folder`` as the class folder of ``out`` before anything is graded. Reports
    of another class folder (see ``other_class``; the caller has checked ``--replace``) are
    moved, never deleted, to ``.replaced/<date>/``, which is returned."""
    moved = None
    state = read_state(out)
    if other_class(out, folder):
        moved = out / REPLACED / time.strftime("%Y%m%d-%H%M%S")
        moved.mkdir(parents=True, exist_ok=True)
        for entry in list(out.iterdir()):
            if entry.name not in (REPLACED, LOCK, LOCK_OWNER):
                shutil.move(str(entry), str(moved / entry.name))
        state = {}
    write_state(out, **{**state, "folder": str(Path(folder).resolve())})
    return str(moved) if moved else None


def write_canvas(results: list[dict], rubric: Rubric, path: Path) -> list[str]:
    """canvas.csv for Canvas's gradebook import: Student, ID (Canvas's user id), SIS User ID,
    SIS Login ID, Section, then the assignment's column, with a "Points Possible" row first
    (as Canvas's own export has). Scores are after overrides and the late policy. Students
    without a Canvas user id, whose grading failed, or late under a per-day policy with no
    late_days yet, are left out (never guessed): returns them, with why."""
    left_out = []
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", canvas_column(rubric)],
            ["    Points Possible", "", "", "", "", f"{rubric.max_score:g}"]]
    for result in sorted(results, key=_student):
        extra = result.get("extra_data", {})
        if extra.get("grading_failed"):
            left_out.append(f"{_student(result)} ({extra.get('missing_why', FAILED)})")
        elif not extra.get("user_id"):
            left_out.append(f"{_student(result)} (no Canvas user id in the file names)")
        elif extra.get("late_days_needed"):
            # a per-day late policy: the score is not final until the days are known
            left_out.append(f"{_student(result)} (LATE, but how many days late is not set: "
                            f"late_days in overrides.toml)")
        else:
            rows.append([reports.one_line(extra.get("display_name") or _student(result), 100),
                         str(extra["user_id"]), "", "", "", f"{result.get('score', 0):g}"])
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return left_out


def _student(result: dict) -> str:
    return str(result.get("extra_data", {}).get("student", ""))


FAILED = "the grader failed on it"
NOT_GRADED = "not graded yet: a grade-all without --only grades it"


def failed_result(rubric: Rubric, student: str, why: str, submission=None) -> dict:
    """The record of a student with no stored result (the grader failed on it, or it has
    not been graded yet): 0, listed for a TA, left out of canvas.csv and of the class
    figures."""
    result = reports.missing_result(rubric, student, why)
    who = identity(submission) if submission is not None else {}
    result["extra_data"].update({"grading_failed": True, "missing_why": why,
                                 "not_graded": why == NOT_GRADED,
                                 "late": who.get("late", False),
                                 "user_id": who.get("user_id"),
                                 "display_name": who.get("display_name") or student,
                                 "provisional": [], "overrides": {}})
    return result


@dataclass
class Rebuilt:
    """What rebuilding the class files found."""

    results: list[dict]
    summary: str
    warnings: list[str]
    left_out_of_canvas: list[str]


def stored_submission(folder: Path) -> dict:
    """What was stored about the submission of a student's automatic result: the LMS's
    user id and the content hash of its code (empty when nothing was)."""
    try:
        data = json.loads((folder / AUTOMATIC_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data.get("extra_data", {}).get("submission") or {}


def stored_user_id(folder: Path) -> str | None:
    """The LMS user id stored with a student's automatic result (None if it said none)."""
    user_id = stored_submission(folder).get("user_id")
    return str(user_id) if user_id else None


def place_overrides(out: Path, overrides: dict[str, Override], students: list[str]) \
        -> tuple[dict[str, Override], list[str]]:
    """Each table of overrides.toml on the student it was written for, and warnings.

    Interpretation: a table is written for a person, not for a folder name. The first time a
    table is applied, the LMS user id of its student is kept (``OWNERS``); from then on the
    table follows that user id: to the student's new folder when another student's arrival
    renamed it (two Jane Smiths become smithjane_12345 and smithjane_11125), and never to
    another student who now has the table's name. A table that cannot be placed is not
    applied, and a warning says why (never a silently wrong grade).

    A table is also written for the code the TA looked at: the content hash of the stored
    submission is kept with the table's own (``VERSIONS``) when the table is first applied,
    or applied again after the TA changed it. When the student's code has changed since
    and the table has not, the table is marked ``earlier_version`` (its points are kept,
    marked as such; its confirmations no longer count)."""
    path = out / OWNERS
    try:
        owners = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        owners = {}
    try:
        versions = json.loads((out / VERSIONS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        versions = {}
    ids = {student: stored_user_id(out / student) for student in students}
    folder_of = {user_id: student for student, user_id in ids.items() if user_id}
    placed: dict[str, Override] = {}
    warnings: list[str] = []
    for name, override in overrides.items():
        owner = owners.get(name)
        target = folder_of.get(owner) if owner else (name if name in ids else None)
        if target is None:
            why = (f"was written for user {owner}, who has no submission any more"
                   + (f" ({name} is now user {ids[name]})" if ids.get(name) else "")
                   if owner else "is not a student of this class (no submission of that name)")
            warnings.append(f"{OVERRIDES}: {table_name(name)} {why}; its overrides are not "
                            f"applied")
            continue
        if target != name:
            if target in overrides:
                warnings.append(f"{OVERRIDES}: {table_name(name)} (user {owner}) is graded as "
                                f"{target} now, which has a table of its own: "
                                f"{table_name(name)} is not applied")
                continue
            warnings.append(f"{OVERRIDES}: {table_name(name)} (user {owner}) is graded as "
                            f"{target} now (another student's submission changed the folder "
                            f"names): "
                            f"applied to {target}; rename the table to {table_name(target)}")
        override.student = target
        placed[target] = override
        if ids.get(target):
            owners[name] = ids[target]
        content = stored_submission(out / target).get("content")
        record = versions.get(name) or {}
        if content and (record.get("table") != override.digest or not record.get("content")):
            versions[name] = {"table": override.digest, "content": content}
        elif content and record.get("content") != content:
            override.earlier_version = True
    atomic_write(path, json.dumps(owners, indent=2, ensure_ascii=False))
    atomic_write(out / VERSIONS, json.dumps(versions, indent=2, ensure_ascii=False))
    return placed, warnings


def remember_overrides(out: Path, rubric: Rubric, students: list[str]) -> None:
    """Before grading anew: record each table of overrides.toml against the stored results
    the TA wrote it for (``place_overrides``), so that a resubmission graded now is seen as
    a new version. Warnings wait for the class files."""
    if (out / OVERRIDES).is_file():
        overrides, _ = load_overrides(out / OVERRIDES, rubric)
        place_overrides(out, overrides, students)


def rebuild(out: Path, rubric: Rubric, students: list[str], submissions=None,
            vanished: list[str] = (), failed: Mapping[str, str] | None = None,
            similarity: bool = True) -> Rebuilt:
    """Publish every student's result (overrides and late policy applied) and write every
    class file from them: gradebook.csv, needs_review.md, class_report.md, canvas.csv, the
    HTML pages and (given the submissions) similarity.md. A student with no stored result
    is one the grader failed on; given ``failed`` (student -> why, or ""), only those are,
    and the others were not graded yet (a grade-all with --only, or one stopped before
    them)."""
    from . import html        # the pages need Jinja2; imported only when pages are made

    override_path = ensure_overrides_file(out, rubric, students)
    overrides, warnings = load_overrides(override_path, rubric)
    overrides, placing = place_overrides(out, overrides, students)
    warnings += placing
    policy = late_policy(rubric.assignment)
    by_name = {s.student: s for s in submissions or []}
    results = []
    for student in sorted(students):
        folder = out / student
        if failed is not None and student not in failed:
            why = NOT_GRADED
        elif failed and failed[student]:
            why = f"{FAILED}: {failed[student]}"
        else:
            why = FAILED
        if folder.is_dir() and adopt(folder):
            try:
                results.append(publish(folder, rubric, overrides.get(student), policy))
                continue
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                # a result cut short (the machine stopped while it was written) or damaged:
                # one student's, never a reason to leave the whole class without files
                why = f"its stored result could not be read (grade-all --only {student} " \
                    "grades it again)"
        results.append(failed_result(rubric, student, why, by_name.get(student)))
    left_out = write_canvas(results, rubric, out / "canvas.csv")
    summary = reports.write_class(results, rubric, out, vanished=list(vanished),
                                  left_out_of_canvas=left_out, warnings=warnings)
    chosen = [by_name[s] for s in sorted(students) if s in by_name] if similarity else None
    html.write_class_pages(results, rubric, out, chosen)
    return Rebuilt(results, summary, warnings, left_out)


# ---------------------------------------------------------------------- progress
def clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """What grade-all shows while it grades: on a terminal, one live line (done/total,
    elapsed, an estimate of the time left, who is being graded); otherwise (a log, CI) one
    line per finished student."""

    def __init__(self, total: int, stream=None, live: bool | None = None):
        self.total, self.done = total, 0
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty() if live is None else live
        self.started = time.monotonic()
        self.grading: list[str] = []
        self.width = 0

    def start(self, student: str) -> None:
        self.grading.append(student)
        self.draw()

    def finish(self, student: str, text: str) -> None:
        """``text``: the score, or what went wrong."""
        if student in self.grading:
            self.grading.remove(student)
        self.done += 1
        if self.live:
            self.draw()
        else:
            elapsed = time.monotonic() - self.started
            self.stream.write(f"[{self.done}/{self.total}] {student}: {text} "
                              f"({clock(elapsed)} elapsed)\n")
            self.stream.flush()

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        left = (f"about {clock(elapsed / self.done * (self.total - self.done))} left"
                if self.done else "estimating")
        who = ", ".join(self.grading)
        return (f"[{self.done}/{self.total}] {clock(elapsed)} elapsed, {left}"
                + (f" · grading {who}" if who else ""))

    def draw(self) -> None:
        if not self.live:
            return
        text = self.line()[:max(20, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + text + " " * max(0, self.width - len(text)))
        self.width = len(text)
        self.stream.flush()

    def close(self) -> None:
        if self.live and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


WORKER_INTERRUPTED = 130        # a worker's exit status when Ctrl-C stopped it (cli.cmd_worker)


def grade_in_workers(assignment: str, folder: Path, out: Path, students: list[str],
                     jobs: int, progress: Progress) -> dict[str, str]:
    """Grade ``students`` in ``jobs`` worker processes (``python -m graders _worker``), each
    given the next student as soon as it is free. Workers report on a pipe of their own
    ("start NAME", "done NAME SCORE", "failed NAME WHY"); returns the students they failed
    on (or never finished), with why.

    A worker that ends before the class is done (killed by the system, out of memory) costs
    only the student it was grading: a new worker takes the others (a few times at most, so
    that a worker that cannot start is not started again and again)."""
    queue = list(students)
    unfinished = set(students)
    failed: dict[str, str] = {}             # student -> why
    selector = selectors.DefaultSelector()
    workers: list[subprocess.Popen] = []
    grading: dict[int, str] = {}            # worker pid -> the student it is grading
    replacements = 2 * max(1, jobs)

    def start_worker() -> None:
        read_end, write_end = os.pipe()
        worker = subprocess.Popen(
            # absolute paths: the workers run in the kit's folder, not the TA's
            [sys.executable, "-m", "graders", "_worker", assignment, str(Path(folder).resolve()),
             str(Path(out).resolve()),
             "--progress-fd", str(write_end)],
            cwd=KIT_ROOT, stdin=subprocess.PIPE, text=True, pass_fds=(write_end,))
        os.close(write_end)
        reader = os.fdopen(read_end, "r", encoding="utf-8")
        selector.register(reader, selectors.EVENT_READ, worker)
        workers.append(worker)
        feed(worker)

    def feed(worker: subprocess.Popen) -> None:
        given = _feed(worker, queue)
        if given is not None:
            grading[worker.pid] = given

    def finish(student: str, why: str | None, score: str = "") -> None:
        unfinished.discard(student)
        if why is not None:
            failed[student] = why
        progress.finish(student, score if why is None else f"the grader failed ({why})")

    for _ in range(max(1, min(jobs, len(queue)))):
        start_worker()
    try:
        while selector.get_map():
            events = selector.select(timeout=1.0)
            if not events:
                progress.draw()                 # the elapsed time moves on
            for key, _ in events:
                worker = key.data
                line = key.fileobj.readline()
                if not line:                    # the worker has ended
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    status = worker.wait()
                    student = grading.pop(worker.pid, None)
                    if status in (0, WORKER_INTERRUPTED):    # done, or stopped by Ctrl-C
                        continue
                    if student in unfinished:
                        finish(student, f"its worker process was killed (signal {-status}; "
                                        "out of memory?) before it was done" if status < 0
                               else f"its worker process ended (exit status {status}) before "
                                    "it was done")
                    if queue and replacements > 0:
                        replacements -= 1
                        start_worker()
                    continue
                kind, _, rest = line.rstrip("\n").partition(" ")
                student, _, detail = rest.partition(" ")
                if kind == "start":
                    progress.start(student)
                elif kind in ("done", "failed") and student in unfinished:
                    grading.pop(worker.pid, None)
                    finish(student, detail if kind == "failed" else None, detail)
                    feed(worker)
    except KeyboardInterrupt:
        # Ctrl-C on a terminal reaches the workers too; a signal sent to grade-all alone
        # is passed on, so that no worker goes on grading
        for worker in workers:
            if worker.poll() is None:
                try:
                    worker.send_signal(signal.SIGINT)
                except OSError:
                    pass
        raise
    finally:
        for worker in workers:
            if worker.stdin and not worker.stdin.closed:
                worker.stdin.close()
        for worker in workers:
            worker.wait()
        progress.close()
    return {**failed, **{student: "its grading process ended before it"
                         for student in sorted(unfinished - set(failed))}}


def _feed(worker: subprocess.Popen, queue: list[str]) -> str | None:
    """Give a free worker the next student (returned), or tell it there are no more."""
    student = queue.pop(0) if queue else None
    try:
        if student is not None:
            worker.stdin.write(student + "\n")
            worker.stdin.flush()
        else:
            worker.stdin.close()
    except (BrokenPipeError, OSError):
        pass            # the worker died: its end is seen on its pipe, with this student
    return student
