"""The command line.

    python -m graders grade ASSIGNMENT PATH [--json FILE]     one submission (file or folder)
    python -m graders grade-all ASSIGNMENT FOLDER [--out DIR]  a class folder, reports per student
    python -m graders check ASSIGNMENT PATH                    the students' public self-check
    python -m graders list                                     the assignments this kit has

Exit status: 0 when grading finished (whatever the score; a submission refused for holding a
link or a special file scores 0), 2 for bad usage or a missing submission (a path that does not
exist; a folder without the main file still gets a results.json listing what it holds), 1 for
an internal error of the grader.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

from .engine import html, plugin, reports, sandbox, submissions
from .engine.rubric import KIT_ROOT, Rubric

GRADERS = Path(__file__).resolve().parent


class UsageError(Exception):
    """Bad command line or a missing submission (exit status 2)."""


def assignments() -> list[str]:
    """Assignments with both a rubric and a grader module."""
    return sorted(p.parent.name for p in (KIT_ROOT / "assignments").glob("*/rubric.toml")
                  if any((GRADERS / p.parent.name).glob("checks*.py")))


def _rubric(name: str) -> Rubric:
    if name not in assignments():
        raise UsageError(f"unknown assignment {name!r}; this kit has: {', '.join(assignments())}")
    return Rubric.load(name)


def _one(rubric: Rubric, path: str) -> submissions.Submission:
    target = Path(path)
    if not target.exists() and not target.is_symlink():
        raise UsageError(f"no such file or folder: {path}")
    return submissions.from_path(target, rubric.main_file)


def _isolation(quiet: bool = False, student: bool = False) -> None:
    """Check once, before grading, that student programs can be sandboxed: an error (exit
    status 2) when the sandbox is required and missing, else one clear notice if it is."""
    try:
        isolation = sandbox.ensure()
    except sandbox.SandboxRequired as exc:
        raise UsageError(str(exc)) from None
    if not isolation.active and not quiet:
        print(f"note: your program runs without the operating-system sandbox here "
              f"({isolation.why_not})." if student else isolation.warning, file=sys.stderr)


def cmd_grade(args) -> int:
    rubric = _rubric(args.assignment)
    submission = _one(rubric, args.path)
    if not submission.found and not submission.refused:
        # nothing to grade: say what was found, in results.json too (e.g. for Gradescope)
        report = reports.unusable_report(rubric, submission.student, submission.missing_why,
                                         submission.notes, submission.problems)
        folder = Path(args.out) / rubric.assignment / submission.student
        reports.write_submission(report, folder, Path(args.json) if args.json else None)
        raise UsageError(f"{args.path}: {submission.missing_why}")
    _isolation()
    started = time.monotonic()
    (report,) = plugin.run(rubric, [submission], GRADERS / rubric.assignment,
                           quiet=not args.verbose)
    report.execution_time = time.monotonic() - started
    folder = Path(args.out) / rubric.assignment / submission.student
    json_path = reports.write_submission(report, folder, Path(args.json) if args.json else None)
    print(reports.summary_text(report))
    print(f"results: {json_path}\nfeedback: {folder / 'feedback.md'}")
    return 0


def cmd_check(args) -> int:
    rubric = _rubric(args.assignment)
    submission = _one(rubric, args.path)
    if not submission.found:
        raise UsageError(f"{args.path}: {submission.missing_why}")
    _isolation(student=True)
    (report,) = plugin.run(rubric, [submission], GRADERS / rubric.assignment, public_only=True)
    print(reports.summary_text(report))
    print("\nThis self-check runs a few of the grader's scenarios; the full grade has more.")
    print(reports.feedback_markdown(report).split("\n## ", 1)[-1] if args.verbose else "")
    return 0


def cmd_worker(args) -> int:
    """Grade some submissions of a class (run by grade-all, one process per core)."""
    rubric = _rubric(args.assignment)
    _isolation(quiet=True)
    wanted = set(args.students)
    found = [s for s in submissions.discover(Path(args.folder), rubric.main_file, wanted)
             if s.student in wanted]
    for report in plugin.run(rubric, found, GRADERS / rubric.assignment):
        reports.write_submission(report, Path(args.out) / report.student)
    return 0


def cmd_grade_all(args) -> int:
    rubric = _rubric(args.assignment)
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"no such folder: {folder}")
    found = submissions.discover(folder, rubric.main_file)
    if not found:
        raise UsageError(f"no submissions in {folder}")
    out = Path(args.out) / rubric.assignment
    _isolation()
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(found)))
    started = time.monotonic()
    missing = [s for s in found if not s.found]
    for s in missing:              # refused, or no main file: 0, saying why (and what it held)
        reports.write_submission(reports.unusable_report(rubric, s.student, s.missing_why,
                                                         s.notes, s.problems), out / s.student)
    gradable = [s.student for s in found if s.found]
    chunks = [gradable[i::jobs] for i in range(jobs)]
    workers = [subprocess.Popen([sys.executable, "-m", "graders", "_worker", rubric.assignment,
                                 str(folder), str(out), *chunk], cwd=KIT_ROOT)
               for chunk in chunks if chunk]
    failed = [w for w in workers if w.wait() != 0]
    results = []
    for s in found:
        path = out / s.student / "results.json"
        if path.exists():
            results.append(json.loads(path.read_text()))
        else:
            results.append(reports.missing_result(rubric, s.student,
                                                  "the grader failed on it"))
    summary = reports.write_class(results, rubric, out)
    html.write_class_pages(results, rubric, out, found)   # HTML pages, similarity.md
    print(summary)
    elapsed = time.monotonic() - started
    print(f"\nGraded {len(found)} submissions in {elapsed:.1f} s with {jobs} worker(s).")
    print(f"Reports: {out}/index.html, {out}/<student>/feedback.md, {out}/gradebook.csv, "
          f"{out}/needs_review.md, {out}/class_report.md, {out}/similarity.md")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m graders", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    grade = sub.add_parser("grade", help="grade one submission")
    grade.add_argument("assignment")
    grade.add_argument("path", help="the main file, or a folder holding it")
    grade.add_argument("--json", help="where to write the results JSON")
    grade.add_argument("--out", default=str(KIT_ROOT / "reports"), help="reports folder")
    grade.add_argument("-v", "--verbose", action="store_true", help="show pytest's output")
    grade.add_argument("--require-sandbox", action="store_true",
                       help="stop (exit status 2) if student programs cannot be isolated")
    grade.set_defaults(func=cmd_grade)
    every = sub.add_parser("grade-all", help="grade every submission in a folder")
    every.add_argument("assignment")
    every.add_argument("folder")
    every.add_argument("--out", default=str(KIT_ROOT / "reports"), help="reports folder")
    every.add_argument("--jobs", type=int, default=0, help="worker processes (default: cores)")
    every.add_argument("--require-sandbox", action="store_true",
                       help="stop (exit status 2) if student programs cannot be isolated")
    every.set_defaults(func=cmd_grade_all)
    check = sub.add_parser("check", help="students: run the public self-check")
    check.add_argument("assignment")
    check.add_argument("path")
    check.add_argument("-v", "--verbose", action="store_true", help="show the details")
    check.set_defaults(func=cmd_check)
    listing = sub.add_parser("list", help="list assignments")
    listing.set_defaults(func=lambda args: print("\n".join(assignments())) or 0)
    worker = sub.add_parser("_worker")
    worker.add_argument("assignment")
    worker.add_argument("folder")
    worker.add_argument("out")
    worker.add_argument("students", nargs="*")
    worker.set_defaults(func=cmd_worker)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    if getattr(args, "require_sandbox", False):
        os.environ[sandbox.REQUIRE_ENV] = "1"       # the grade-all workers inherit it
    try:
        return args.func(args)
    except BrokenPipeError:       # e.g. piped into `head`
        return 0
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception:   # noqa: BLE001 - any grader bug is exit status 1, with its traceback
        traceback.print_exc()
        return 1
