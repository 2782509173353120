"""The command line.

    python -m graders grade ASSIGNMENT PATH [--json FILE]     one submission (file or folder)
    python -m graders grade-all ASSIGNMENT FOLDER [--out DIR]  a class folder, reports per student
        [--force] [--only STUDENT ...]                         regrade all / just these students
    python -m graders report ASSIGNMENT [--out DIR]            rebuild the class files (overrides)
    python -m graders grade ... --format gradescope|prairielearn  a platform's results file
    python -m graders grade ... --item ID [--format classroom] exit 0 only for full marks
    python -m graders check ASSIGNMENT PATH [-v]               the students' public self-check
    python -m graders export PLATFORM ASSIGNMENT --out PATH    gradescope, prairielearn,
                                                               classroom, student-kit
    python -m graders list                                     the assignments this kit has

Exit status: 0 when grading finished (whatever the score; a submission refused for holding a
link or a special file scores 0), 2 for bad usage or a missing submission (a path that does not
exist; a folder without the main file still gets a results.json listing what it holds), 1 for
an internal error of the grader; with --item, 3 when that item did not earn full marks.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path

from .engine.course import classbook
from .engine.grading import replay_command, reports, submissions
from .engine.run import sandbox
from .engine.judge.rubric import DATA_ROOT, KIT_ROOT, Rubric
from .platforms import classroom, gradescope, outputs, prairielearn, student_kit

GRADERS = Path(__file__).resolve().parent
# A class's reports go to reports/ in the folder the command is run from (`make grade` runs
# in the kit's folder), never to the kit's own folder when run from elsewhere; a single
# `grade` writes beside them, in reports/single/, never into a class's reports.
REPORTS = Path("reports")
SINGLE = REPORTS / "single"


class UsageError(Exception):
    """Bad command line or a missing submission (exit status 2)."""


NOT_FULL_MARKS = 3      # grade --item: the item did not earn full marks


def assignments() -> list[str]:
    """Assignments with both a rubric and a grader module."""
    return sorted(p.parent.name for p in (DATA_ROOT / "assignments").glob("*/rubric.toml")
                  if any((GRADERS / p.parent.name).glob("checks*.py")))


def _rubric(name: str) -> Rubric:
    if name not in assignments():
        raise UsageError(f"unknown assignment {name!r}; this kit has: {', '.join(assignments())}")
    return Rubric.load(name)


def _run_grader(rubric: Rubric, graded: list, **options) -> list:
    """``plugin.run`` with the assignment's grader, imported only when something is graded:
    pytest and the grading engine are most of the kit's start-up, and a Classroom step that
    reads the stored result, ``list``, ``report`` and ``export`` need neither."""
    from .engine.grading import plugin
    return plugin.run(rubric, graded, GRADERS / rubric.assignment, **options)


def _one(rubric: Rubric, path: str) -> submissions.Submission:
    target = Path(path)
    if not target.exists() and not target.is_symlink():
        raise UsageError(f"no such file or folder: {path}")
    return submissions.from_path(target, rubric.main_file, siblings=rubric.files)


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
    if args.item is not None or args.format == "classroom":
        return _grade_item(args, rubric)
    args.out = args.out or str(SINGLE)
    _not_a_class(Path(args.out), rubric)
    platform = args.format if args.format in outputs.PLATFORMS else None
    target = Path(args.path)
    if platform and not target.exists() and not target.is_symlink():
        # a platform always gets its results file: 0, saying that nothing was submitted
        why = f"nothing was submitted ({args.path} does not exist)"
        report = reports.unusable_report(rubric, "submission", why)
        outputs.write(platform, report, rubric, None, _platform_json(args, rubric, "submission"),
                      args.hide_review)
        raise UsageError(f"no such file or folder: {args.path}")
    submission = _one(rubric, args.path)
    folder = Path(args.out) / rubric.assignment / submission.student
    print(f"Reports go to {folder}/")
    kit_json = None if platform or not args.json else Path(args.json)
    if not submission.found and not submission.refused:
        # nothing to grade: say what was found, in results.json too (e.g. for Gradescope)
        report = reports.unusable_report(rubric, submission.student, submission.missing_why,
                                         submission.notes, submission.problems)
        reports.write_submission(report, folder, kit_json)
        if platform:
            outputs.write(platform, report, rubric, submission,
                          _platform_json(args, rubric, submission.student), args.hide_review)
        raise UsageError(f"{args.path}: {submission.missing_why}")
    _isolation()
    started = time.monotonic()
    (report,) = _run_grader(rubric, [submission], quiet=not args.verbose)
    report.execution_time = time.monotonic() - started
    report.replay_where = {"path": args.path, "folder": str(folder)}
    json_path = reports.write_submission(report, folder, kit_json)
    if platform:
        json_path = outputs.write(platform, report, rubric, submission,
                                  _platform_json(args, rubric, submission.student),
                                  args.hide_review)
    print(reports.summary_text(report))
    print(f"results: {json_path}\nfeedback: {folder / 'feedback.md'}")
    return 0


def _not_a_class(out: Path, rubric: Rubric) -> None:
    """A single ``grade`` never writes into a class's reports folder (made by grade-all): it
    would become a student of that class in the next report."""
    for folder in (out, out / rubric.assignment):
        owner = classbook.read_state(folder).get("folder")
        if owner:
            raise UsageError(f"{folder} holds the class reports of {owner} (grade-all): a "
                             f"single grade does not write there. Give another --out (the "
                             f"default is {SINGLE}).")


def _platform_json(args, rubric: Rubric, student: str) -> Path:
    """Where a platform's results go: --json, else beside the kit's own."""
    if args.json:
        return Path(args.json)
    return Path(args.out) / rubric.assignment / student / f"results.{args.format}.json"


def _grade_item(args, rubric: Rubric) -> int:
    """``grade --item ID``: 0 only when that item earned full marks (3 otherwise), for a
    platform step worth the item's points. The submission is graded once: a later item's
    step reads the result stored for the same files. ``--format classroom`` also hands the
    item's score to GitHub Classroom's reporter (the step's ``result`` output)."""
    if args.item is None:
        raise UsageError("--format classroom reports one rubric item: add --item ID")
    if args.item not in {item.id for item in rubric.items}:
        raise UsageError(f"{rubric.assignment} has no item {args.item!r} (its items: "
                         f"{', '.join(item.id for item in rubric.items)})")
    try:
        data = _item_results(args, rubric)
    except Exception as exc:
        # the reporter still needs this step's result: 0, saying the grading failed
        if args.format == "classroom":
            _hand_to_reporter(classroom.error_result(rubric.item(args.item), exc))
        raise
    result, full = classroom.item_result(data, args.item)
    test = result["tests"][0]
    print(f"{test['name']}: {test['score']:g} / {result['max_score']:g}"
          + (" (full marks)" if full else ""))
    if not full:
        print(test["message"])
    if args.format == "classroom":
        _hand_to_reporter(result)
    return 0 if full else NOT_FULL_MARKS


def _item_results(args, rubric: Rubric) -> dict:
    """The kit's results of the submission at args.path: stored by an earlier step for the
    same files, or graded now (and stored); a path that does not exist scores 0."""
    target = Path(args.path)
    if not target.exists() and not target.is_symlink():
        why = f"nothing was submitted ({args.path} does not exist)"
        return reports.results_json(reports.unusable_report(rubric, "submission", why))
    submission = _one(rubric, args.path)
    store = Path(args.json) if args.json else classroom.STORE
    digest = classbook.submission_hash(submission)
    data = classroom.stored(store, digest)
    if data is not None:
        return data
    if submission.found:
        _isolation()
        started = time.monotonic()
        (report,) = _run_grader(rubric, [submission], quiet=not args.verbose)
        report.execution_time = time.monotonic() - started
    else:
        report = reports.unusable_report(rubric, submission.student, submission.missing_why,
                                         submission.notes, submission.problems)
    # a platform step grades the repository it runs in: its feedback stays there, beside the
    # stored result, never in the kit's own reports folder (an editable install's)
    folder = Path(args.out or store.parent / "reports") / rubric.assignment / submission.student
    reports.write_submission(report, folder, store)
    classroom.store(store, digest)
    return json.loads(store.read_text(encoding="utf-8"))


def _hand_to_reporter(result: dict) -> None:
    """GitHub Classroom: the step's ``result`` output, which the grading reporter reads."""
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
            handle.write(f"result={classroom.encoded(result)}\n")


def cmd_check(args) -> int:
    """The students' self-check: the public items only, played on the public scenarios."""
    rubric = _rubric(args.assignment)
    submission = _one(rubric, args.path)
    if not submission.found:
        raise UsageError(f"{args.path}: {submission.missing_why}")
    _isolation(student=True)
    (report,) = _run_grader(rubric, [submission], public_only=True)
    # the replay plans are kept, -v or not, where the summary prints how to replay a failure
    report.replay_where = {"path": args.path, "folder": args.out}
    if report.replays:
        replay_command.store_plans(report, Path(args.out))
    print(reports.summary_text(report))
    print("\n" + student_kit.what_ran(rubric, report))
    if args.verbose:
        # the feedback links to the transcripts of the self-check's games: write them all
        folder = Path(args.out)
        reports.write_submission(report, folder)
        # drawn for a terminal (tables, code, links as paths); the file stays Markdown
        from .engine.course import terminal
        print()
        terminal.print_markdown("## " + reports.feedback_markdown(report).split("\n## ", 1)[-1],
                                folder)
        kept = ", with the transcripts it links to" if report.attachments else ""
        print(f"\nThis feedback is also in {folder / 'feedback.md'}{kept}.")
    else:
        print("\nRun the same command with -v to see each problem in full: what was expected, "
              "what your program did, and the lines that show it.")
    return 0


def cmd_worker(args) -> int:
    """Grade students of a class, one at a time as grade-all hands them over (a name per
    line on standard input, or the names given), storing each result as soon as it is done
    and saying so on the progress pipe (run by grade-all, one process per core). Ctrl-C
    reaches grade-all and its workers together: a worker stops quietly (grade-all says what
    is kept), leaving the student it was grading without a result. Started with Ctrl-C
    ignored (grade-all run by nohup or in the background of a script), it ignores it too, as
    grade-all does: a worker that stopped while grade-all went on would leave its students
    ungraded ("the grader failed on it")."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _interrupted_once)
    try:
        return _work(args)
    except KeyboardInterrupt:
        return 130


def _interrupted_once(signum, frame) -> None:
    """A worker's first Ctrl-C stops it; another one (grade-all passes it on too) must not
    cut its clean-up short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _work(args) -> int:
    rubric = _rubric(args.assignment)
    _isolation(quiet=True)
    folder, out = Path(args.folder), Path(args.out)
    progress = os.fdopen(args.progress_fd, "w", encoding="utf-8") if args.progress_fd \
        else None
    grader = classbook.grader_hash(rubric.assignment)

    def tell(*words) -> None:
        nonlocal progress
        if progress is not None:
            try:
                progress.write(" ".join(str(w) for w in words) + "\n")
                progress.flush()
            except OSError:          # grade-all has gone: finish this student quietly
                progress = None

    names = args.students or (line.strip() for line in sys.stdin)
    failed = False
    for student in names:
        if not student:
            continue
        tell("start", student)
        try:
            found = [s for s in submissions.discover(folder, rubric.main_file, {student})
                     if s.student == student]
            if not found:
                raise RuntimeError("the submission is no longer in the class folder")
            started = time.monotonic()
            # one pytest session per student: each result is stored the moment it is done
            (report,) = _run_grader(rubric, found[:1])
            report.execution_time = time.monotonic() - started
            classbook.write_automatic(report, out / student, found[0], grader)
            tell("done", student, f"{report.score:g}/{rubric.max_score:g}")
        except Exception as exc:   # noqa: BLE001 - one student's failure must not stop a class
            failed = True
            traceback.print_exc()
            tell("failed", student, reports.one_line(f"{type(exc).__name__}: {exc}", 200))
    return 1 if failed else 0


def _class_folder(rubric: Rubric, path: str) -> tuple[Path, list[submissions.Submission]]:
    folder = Path(path)
    if not folder.is_dir():
        raise UsageError(f"no such folder: {folder}")
    for warning in submissions.layout_warnings(folder, rubric.main_file):
        print(f"warning: {warning}", file=sys.stderr)      # once per run, before grading
    found = submissions.discover(folder, rubric.main_file)
    if not found:
        raise UsageError(f"no submissions in {folder}")
    return folder, found


def _ta_files(rubric: Rubric, out: Path, students: set[str]) -> None:
    """Check overrides.toml and the late policy before anything is graded: a file the kit
    cannot read stops here (exit status 2), not after an hour of grading."""
    try:
        classbook.late_policy(rubric.assignment)
        classbook.load_overrides(out / classbook.OVERRIDES, rubric, students)
    except classbook.ClassbookError as exc:
        raise UsageError(str(exc)) from None


def cmd_grade_all(args) -> int:
    rubric = _rubric(args.assignment)
    folder, found = _class_folder(rubric, args.folder)
    out = Path(args.out) / rubric.assignment
    try:
        with classbook.locked(out, "grade-all"):
            return _grade_all(args, rubric, folder, found, out)
    except classbook.InUse as exc:
        raise UsageError(str(exc)) from None


def _grade_all(args, rubric: Rubric, folder: Path, found: list, out: Path) -> int:
    current = {s.student: s for s in found}
    only = list(dict.fromkeys(args.only or []))
    unknown = [name for name in only if name not in current]
    if unknown:
        raise UsageError(f"--only: no submission of {', '.join(unknown)} in {folder} "
                         f"(students: {', '.join(sorted(current))})")
    other = classbook.other_class(out, folder)
    if other and not args.replace:
        raise UsageError(other)
    if not other:               # --replace: the other class's overrides are set aside
        _ta_files(rubric, out, set(current))
    _isolation()
    replaced = classbook.claim(out, folder)
    print(f"Reports of {folder.resolve()} go to {out.resolve()}/")
    if replaced:
        print(f"The reports of the class folder graded there before were moved to {replaced}/ "
              f"(--replace).")
    # the TA's overrides are for the results stored now: remember which code they saw
    classbook.remember_overrides(out, rubric, classbook.stored_students(out))
    started = time.monotonic()
    grader = classbook.grader_hash(rubric.assignment)
    if only:
        todo = [current[name] for name in only]
    else:
        todo = [s for s in found if args.force or not classbook.is_current(
            out / s.student, classbook.submission_hash(s), grader)]
    skipped = len(found) - len(todo) if not only else 0
    for s in todo:
        if not s.found:        # refused, or no main file: 0, saying why (and what it held)
            report = reports.unusable_report(rubric, s.student, s.missing_why, s.notes,
                                             s.problems)
            classbook.write_automatic(report, out / s.student, s, grader)
    gradable = [s.student for s in todo if s.found]
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(gradable) or 1))
    if skipped:
        print(f"Skipping {skipped} of {len(found)} submissions: unchanged since they were "
              f"graded, and so is the grader (--force regrades them).")
    progress = classbook.Progress(len(gradable))
    try:
        failed = classbook.grade_in_workers(rubric.assignment, folder, out, gradable, jobs,
                                            progress) if gradable else {}
    except KeyboardInterrupt:
        again = "the same command without --force" if args.force else "the same command"
        print(f"\nInterrupted after {progress.done} of {len(gradable)}: every finished result "
              f"is kept; run {again} again to grade the rest.", file=sys.stderr)
        return 130
    vanished = classbook.set_aside_vanished(out, set(current))
    classbook.write_state(out, folder=str(folder.resolve()), vanished=vanished,
                          when=time.strftime("%Y-%m-%d %H:%M:%S"))
    rebuilt = classbook.rebuild(out, rubric, sorted(current), found, vanished, failed=failed)
    print(rebuilt.summary)
    _tell_ta(rebuilt, out, vanished, folder)
    if only:
        # a student never graded is said to be so already (left out of canvas.csv, why)
        never = {r["extra_data"]["student"] for r in rebuilt.results
                 if r["extra_data"].get("not_graded")}
        stale = [s.student for s in found if s.student not in only and s.student not in never
                 and not classbook.is_current(out / s.student, classbook.submission_hash(s),
                                              grader)]
        if stale:
            print(f"\nNot regraded (--only), although their submission or the grader changed: "
                  f"{', '.join(stale)}; run grade-all without --only to grade them.")
    elapsed = time.monotonic() - started
    unusable = len(todo) - len(gradable)
    graded = f"{len(gradable) - len(failed)} of {len(gradable)}" if failed else len(gradable)
    print(f"\nGraded {graded} submission(s) in {elapsed:.1f} s with {jobs} worker(s)"
          + (f"; {unusable} could not be graded (0, listed in needs_review.md)"
             if unusable else "")
          + (f"; skipped {skipped} unchanged." if skipped else "."))
    if failed:
        print(f"The grader failed on: {', '.join(failed)} (listed in needs_review.md).",
              file=sys.stderr)
    print(f"Reports: {out}/index.html, {out}/<student>/feedback.md, {out}/gradebook.csv, "
          f"{out}/canvas.csv, {out}/needs_review.md, {out}/class_report.md, "
          f"{out}/similarity.md; TA overrides: {out}/{classbook.OVERRIDES}")
    return 1 if failed else 0


def _tell_ta(rebuilt, out: Path, vanished: list[str], folder: Path | None) -> None:
    """What a TA must know after the class files were written: overrides not applied,
    results set aside, students left out of canvas.csv."""
    for warning in rebuilt.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if vanished:
        print(f"\nSet aside {len(vanished)} result(s) with no submission in {folder} any more "
              f"(moved to {out / classbook.VANISHED}/, left out of the class files): "
              f"{', '.join(vanished)}")
    if rebuilt.left_out_of_canvas:
        print(f"\nNot in canvas.csv: {'; '.join(rebuilt.left_out_of_canvas)}")


def cmd_report(args) -> int:
    """Rebuild every class file and each student's feedback from the stored results, with
    overrides.toml and the late policy applied; nothing is graded."""
    rubric = _rubric(args.assignment)
    out = Path(args.out) / rubric.assignment
    students = classbook.stored_students(out)
    if not students:
        raise UsageError(f"no stored results in {out}; run grade-all first")
    try:
        with classbook.locked(out, "report"):
            return _report(rubric, out, students)
    except classbook.InUse as exc:
        raise UsageError(str(exc)) from None


def _report(rubric: Rubric, out: Path, students: list[str]) -> int:
    print(f"Rebuilding the class files in {out.resolve()}/ from the stored results")
    _ta_files(rubric, out, set(students))
    state = classbook.read_state(out)
    folder = Path(state["folder"]) if state.get("folder") else None
    found, ungraded = None, []
    if folder is not None and folder.is_dir():     # only for similarity.md: nothing is graded
        found = [s for s in submissions.discover(folder, rubric.main_file, set(students))
                 if s.student in students]
        # students of the class with no result (a grade-all stopped before them) are in the
        # class files as not graded yet, not silently missing from them
        ungraded = [name for name in submissions.students_in(folder, rubric.main_file)
                    if name not in students]
    rebuilt = classbook.rebuild(out, rubric, sorted([*students, *ungraded]), found,
                                state.get("vanished", []), failed=dict.fromkeys(students, ""),
                                similarity=found is not None)
    print(rebuilt.summary)
    _tell_ta(rebuilt, out, [], folder)
    if found is None:
        print("\nsimilarity.md was left as it was: the class folder of the last grade-all "
              "is not there to compare.")
    print(f"\nRebuilt the class files and {len(students)} students' feedback in {out} from "
          f"the stored results (nothing was graded).")
    return 0


def cmd_export(args) -> int:
    """Write what a platform needs to grade the assignment (or the students' kit)."""
    rubric = _rubric(args.assignment)
    out = Path(args.out)
    if args.platform == "gradescope":
        gradescope.export(rubric.assignment, out, args.hide_review)
        print(f"Gradescope autograder: {out} (upload it in the assignment's Configure "
              f"Autograder page)")
    elif args.platform == "prairielearn":
        prairielearn.export(rubric.assignment, out, args.image)
        print(f"PrairieLearn: {out}/serverFilesCourse/{prairielearn.SERVER_FOLDER}/ and "
              f"{out}/questions/{rubric.assignment}/ go into the course; {out}/image/ builds "
              f"the grading image {args.image}")
    elif args.platform == "classroom":
        if not args.install:
            # no package index holds the kit: a name pip cannot find would fail every
            # student's run, so the instructor says where the grader comes from
            raise UsageError("export classroom needs --install: what pip installs the grader "
                             "from in the students' repositories, e.g. the URL of the kit's "
                             "wheel (pip wheel . -w dist, then publish it) or "
                             "git+https://github.com/<you>/<kit>.git; no package index holds "
                             "the kit")
        classroom.export(rubric.assignment, out, args.install)
        print(f"GitHub Classroom: copy {out}/.github/ into the assignment's template "
              f"repository (the grader is installed with: pip install {args.install})")
    else:
        try:
            kit = student_kit.build(rubric.assignment, out)
        except student_kit.KitError as exc:
            raise UsageError(str(exc)) from None
        print(f"Student kit: {kit}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m graders", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    grade = sub.add_parser("grade", help="grade one submission")
    grade.add_argument("assignment")
    grade.add_argument("path", help="the main file, or a folder holding it")
    grade.add_argument("--json", help="where to write the results JSON")
    grade.add_argument("--out", help="reports folder (default: reports/single, never a "
                       "class's reports; with --item, beside the stored result, in the "
                       "graded repository)")
    grade.add_argument("-v", "--verbose", action="store_true", help="show pytest's output")
    grade.add_argument("--require-sandbox", action="store_true",
                       help="stop (exit status 2) if student programs cannot be isolated")
    grade.add_argument("--format", default="kit",
                       choices=("kit", "gradescope", "prairielearn", "classroom"),
                       help="the results file --json writes: the kit's (default), "
                            "Gradescope's, PrairieLearn's, or GitHub Classroom's (with --item)")
    grade.add_argument("--item", metavar="ID",
                       help="exit 0 only if this rubric item earned full marks (3 if not); "
                            "the submission is graded once, later items read the stored "
                            "result (--json, default .gradekit/results.json)")
    grade.add_argument("--hide-review", action="store_true",
                       help="Gradescope: show the review items only once grades are published")
    grade.set_defaults(func=cmd_grade)
    every = sub.add_parser("grade-all", help="grade every submission in a folder")
    every.add_argument("assignment")
    every.add_argument("folder")
    every.add_argument("--out", default=str(REPORTS),
                       help="reports folder (default: reports/ in the current folder)")
    every.add_argument("--jobs", type=int, default=0, help="worker processes (default: cores)")
    every.add_argument("--require-sandbox", action="store_true",
                       help="stop (exit status 2) if student programs cannot be isolated")
    every.add_argument("--force", action="store_true",
                       help="regrade every submission, also those unchanged since last time")
    every.add_argument("--replace", action="store_true",
                       help="the reports folder was built from another class folder: move "
                            "those reports aside (.replaced/) and build it for this one")
    every.add_argument("--only", action="append", metavar="STUDENT",
                       help="regrade just this student (repeatable); the class files are "
                            "rebuilt from every stored result")
    every.set_defaults(func=cmd_grade_all)
    report = sub.add_parser("report", help="rebuild the class files from stored results "
                                           "(applies overrides.toml; grades nothing)")
    report.add_argument("assignment")
    report.add_argument("--out", default=str(REPORTS), help="reports folder")
    report.set_defaults(func=cmd_report)
    check = sub.add_parser("check", help="students: run the public self-check")
    check.add_argument("assignment")
    check.add_argument("path")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="show the details and write them, with the transcripts, to --out")
    check.add_argument("--out", default="selfcheck-report",
                       help="where -v writes the feedback and transcripts")
    check.set_defaults(func=cmd_check)
    export = sub.add_parser("export", help="files for a grading platform, or the student kit")
    export.add_argument("platform", choices=("gradescope", "prairielearn", "classroom",
                                             "student-kit"))
    export.add_argument("assignment")
    export.add_argument("--out", required=True,
                        help="the zip to write (gradescope, student-kit) or a folder")
    export.add_argument("--hide-review", action="store_true",
                        help="gradescope: review items shown once grades are published")
    export.add_argument("--image", default=prairielearn.DEFAULT_IMAGE,
                        help="prairielearn: the grading image named in info.json")
    export.add_argument("--install",
                        help="classroom (required): what pip installs the grader from (a "
                             "wheel's URL, a private repository)")
    export.set_defaults(func=cmd_export)
    replay_command.add_parser(sub, UsageError)     # gradekit replay (engine/replay.py)
    listing = sub.add_parser("list", help="list assignments")
    listing.set_defaults(func=lambda args: print("\n".join(assignments())) or 0)
    worker = sub.add_parser("_worker")
    worker.add_argument("assignment")
    worker.add_argument("folder")
    worker.add_argument("out")
    worker.add_argument("students", nargs="*", help="(default: one name per line on stdin)")
    worker.add_argument("--progress-fd", type=int, default=0)
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
    except KeyboardInterrupt:     # Ctrl-C: no traceback (grade-all says what it kept)
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception:   # noqa: BLE001 - any grader bug is exit status 1, with its traceback
        traceback.print_exc()
        return 1
