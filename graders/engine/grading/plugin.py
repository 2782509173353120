"""The pytest plugin that turns a grader module into rubric scores.

A grader is a pytest module ``graders/<assignment>/checks.py`` whose check functions are named
``check_*`` and carry ``@pytest.mark.item("rubric-id")``. Fixtures it can use:

* ``submission`` — the student's work (parametrized: one pass over the checks per submission);
* ``result`` — the check's :class:`~graders.engine.judge.rubric.CheckResult` (``fail``, ``partial``,
  ``note``, ``measure``, ``judged``, ``not_judged``); a plain ``assert`` or
  :class:`~graders.engine.judge.rubric.Fail` also fails; a fixture may raise
  :class:`~graders.engine.judge.rubric.NotJudged` for every check that uses it;
* ``budget`` — the submission's time budget (CPU seconds of its runs), shared by all its runs:
  pass it to ``FunctionCalls``/``Child`` (their CPU limits are capped by what is left), and run
  independent runs with ``budget.map`` (the engine's one way of running them side by side).

At collection the grader is checked against ``rubric.toml``: every ``item`` marker must name
an item, and every automatic (non-review) item must have a check; otherwise grading stops
with a clear error before anything runs. ``public = true`` in ``rubric.toml`` selects the
checks of the students' self-check. Each check runs under a time limit (pytest-timeout's
setting, raised here as :class:`CheckTimedOut`, so it is recognised by its type). Results are
kept in each test item's ``stash``; at the end the plugin combines checks into item scores.
"""
from __future__ import annotations

import contextlib
import gc
import math
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ..run import forkserver, harness, pythons, starts, static
from . import replay
from ..judge.rubric import DATA_ROOT, CheckResult, Fail, NotJudged, Rubric, item_verdicts
from .reports import SubmissionReport, unusable_report, without_review_marks
from .submissions import (EMPTY_FILE, NO_OWN_CODE, NOT_SEEN_WORKING, SOURCE_ONLY_REVIEW,
                          Submission, nothing_to_review)
from ..drive.transcript import take_runs


WORKERS = 2          # runs of one submission side by side (the machines have 2 cores)
MIN_LEFT = 0.5       # CPU seconds a run needs to be worth starting
CHECK = pytest.StashKey[CheckResult]()


@dataclass
class Budget:
    """The time one submission may spend in student runs, all scenarios together.

    It counts the CPU seconds of the submission's runs, so a busy machine does not shrink it;
    a hanging program still costs at most about ``seconds``. Real time is only a safety net
    (``wall_seconds``, by default four times as long, at least a minute, counted without the
    time the runs waited for a CPU: see ``harness.Stopwatch``): when that runs out first, no
    run is started any more and the submission is listed for a TA as the grader's problem.
    """

    seconds: float
    wall_seconds: float = 0.0
    started: float = field(default_factory=time.monotonic)
    started_cpu: float = field(default_factory=harness.children_cpu_seconds)
    wall_ran_out: bool = False
    clock: harness.Stopwatch = field(default_factory=harness.Stopwatch)

    def __post_init__(self):
        self.wall_seconds = self.wall_seconds or max(60.0, 4 * self.seconds)

    @property
    def cpu_used(self) -> float:
        """CPU seconds used by student runs since the budget was opened."""
        return harness.children_cpu_seconds() - self.started_cpu

    @property
    def left(self) -> float:
        """CPU seconds left; 0 once the real-time safety net has run out. Only CPU seconds
        size a run's CPU verdict: what is left of the real time never shortens it."""
        cpu_left = self.seconds - self.cpu_used
        if cpu_left > 0 and not self.wall_ran_out and self.clock.past(self.wall_seconds):
            self.wall_ran_out = True
        return 0.0 if self.wall_ran_out else cpu_left

    @property
    def spent(self) -> bool:
        return self.left <= 0

    def limits(self, **fields) -> harness.Limits:
        """harness.Limits with these fields and a CPU verdict within what is left."""
        return harness.within_budget(harness.Limits(**fields), self)

    def map(self, job, items, workers: int = WORKERS, min_left: float = MIN_LEFT) -> list:
        """job(item) for every item, ``workers`` at a time (each job runs its own student
        process, which mostly waits); an item reached when less than ``min_left`` CPU
        seconds are left gets None instead (the caller says it was not played)."""
        def run(item):
            return job(item) if self.left >= min_left else None

        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kit-run") as pool:
            return list(pool.map(run, items))


def _parse_ahead(submission: Submission, rubric: Rubric) -> None:
    """The static facts the review rule reads first (``nothing_to_review``: the main file and
    its twin in the template), found while the checks run instead of after them: each is a
    run of the student's Python. The rule reads them from ``static.facts``'s cache."""
    template = DATA_ROOT / "student_template" / rubric.assignment / submission.main_name
    for path in (submission.main, template):
        try:
            if path is not None and path.is_file():
                static.facts(path)
        except Exception:       # the rule reads the file again itself, and says what is wrong
            pass


class CheckTimedOut(Exception):
    """A check ran past its time limit (a safety net of the grader, not a verdict)."""


class KitPlugin:
    """Collects check results per submission while pytest runs the grader."""

    def __init__(self, rubric: Rubric, submissions: list[Submission], public_only=False,
                 budget_seconds: float = 15.0):
        self.the_rubric = rubric
        self.submissions = submissions
        self.public_only = public_only
        self.budget_seconds = budget_seconds
        self.checks: dict[str, list[CheckResult]] = {s.student: [] for s in submissions}
        self.started: dict[str, float] = {}
        self.finished: dict[str, float] = {}
        self.problems: dict[str, list[str]] = {s.student: list(s.problems)
                                               for s in submissions}
        self.run_notes: dict[str, list[str]] = {s.student: list(s.notes) for s in submissions}
        self._budgets: dict[str, Budget] = {}
        self._parsed_ahead: dict[str, threading.Thread] = {}
        self.attachments: dict[str, dict[str, str]] = {}
        self.grader_problems: list[str] = []     # the grader does not match the rubric
        self.interrupted = False                 # Ctrl-C (pytest caught it)

    # ------------------------------------------------------------------ pytest hooks
    def pytest_keyboard_interrupt(self, excinfo):
        self.interrupted = True

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "item(id, weight=1): the rubric item a check scores")
        if not config.pluginmanager.has_plugin("terminal"):
            # nothing shows pytest's own failure reports (a check's result is read from its
            # exception), so they are not formatted: that parsed the grader's source again
            # for every check a submission failed
            config.option.tbstyle = "no"

    def pytest_generate_tests(self, metafunc):
        if "submission" in metafunc.fixturenames:
            metafunc.parametrize("submission", self.submissions, scope="session",
                                 ids=[s.student for s in self.submissions])

    def pytest_collection_modifyitems(self, config, items):
        checks = {}
        for node in items:
            ids = [marker.args[0] if marker.args else "" for marker in
                   node.iter_markers("item")]
            checks.setdefault(getattr(node, "originalname", node.name), []).extend(ids)
        problems = self.the_rubric.problems_with(checks)
        if problems:
            self.grader_problems = problems
            raise pytest.UsageError("The grader does not match rubric.toml:\n- "
                                    + "\n- ".join(problems))
        if self.public_only:
            public = {item.id for item in self.the_rubric.items if item.public}

            def wanted(node):
                marker = node.get_closest_marker("item")
                return marker is not None and marker.args[0] in public
            items[:] = [i for i in items if wanted(i)]

    @pytest.hookimpl(tryfirst=True)
    def pytest_timeout_set_timer(self, item, settings):
        """The check's time limit raises CheckTimedOut (main thread, signal method only;
        otherwise pytest-timeout's own way applies)."""
        if settings.timeout <= 0 or settings.method != "signal" or \
                threading.current_thread() is not threading.main_thread():
            return None

        clock = harness.Stopwatch()

        def expired(signum, frame):
            # a safety net, counted like the runs' nets: without the time the runs waited
            # for a CPU (a busy machine), up to MAX_STRETCH times the setting
            if not clock.past(settings.timeout):
                signal.setitimer(signal.ITIMER_REAL, max(1.0, settings.timeout / 4))
                return
            raise CheckTimedOut(f"the check ran for more than {settings.timeout:g} s")

        def cancel():
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)

        item.cancel_timeout = cancel
        signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, settings.timeout)
        return True

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        submission = getattr(item, "callspec", None) and item.callspec.params.get("submission")
        if submission is not None:
            harness.current_owner = submission.student     # runs started now are theirs
            if submission.student not in self._parsed_ahead:
                self._parsed_ahead[submission.student] = reader = threading.Thread(
                    target=_parse_ahead, args=(submission, self.the_rubric), daemon=True)
                reader.start()

    def pytest_sessionfinish(self, session):
        harness.current_owner = None
        harness.forget_stuck_owners()
        starts.forget()

    @pytest.fixture
    def result(self, request) -> CheckResult:
        marker = request.node.get_closest_marker("item")
        item_id = marker.args[0] if marker else request.node.name
        weight = float(marker.kwargs.get("weight", 1.0)) if marker else 1.0
        check = CheckResult(item_id, request.node.originalname, weight)
        request.node.stash[CHECK] = check
        return check

    @pytest.fixture(scope="session")
    def budget(self, submission) -> Budget:
        if submission.student not in self._budgets:
            self._budgets[submission.student] = Budget(self.budget_seconds)
        return self._budgets[submission.student]

    @pytest.fixture(scope="session")
    def notes(self, submission):
        """notes(text, problem=False): a line for 'How the runs went' (and the TA list)."""
        return lambda text, problem=False: self.add_note(submission.student, text, problem)

    @pytest.fixture(scope="session")
    def for_ta(self, submission):
        """for_ta(text): a line for the TA's list (needs_review.md) only, not the student's
        feedback: what the grader itself could not settle."""
        def add(text: str) -> None:
            if text not in self.problems[submission.student]:
                self.problems[submission.student].append(text)
        return add

    @pytest.fixture(scope="session")
    def attach(self, submission):
        """attach(name, text): a file for the submission's report folder (e.g. a transcript)."""
        files = self.attachments.setdefault(submission.student, {})
        return lambda name, text: files.__setitem__(name, text)

    @pytest.fixture(scope="session")
    def rubric(self) -> Rubric:
        return self.the_rubric

    @pytest.fixture(scope="session")
    def self_check(self) -> bool:
        """True in the students' self-check: a grader then plays its public scenarios only,
        so the self-check neither runs nor names a hidden game."""
        return self.public_only

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        submission = getattr(item, "callspec", None) and item.callspec.params.get("submission")
        if submission is None:
            return
        student = submission.student
        self.started.setdefault(student, time.monotonic())
        self.finished[student] = time.monotonic()
        check = item.stash.get(CHECK, None)
        marker = item.get_closest_marker("item")
        if check is None and marker is not None and (report.when == "call" or report.failed):
            check = CheckResult(marker.args[0], item.originalname,
                                float(marker.kwargs.get("weight", 1.0)))
            item.stash[CHECK] = check
        if check is None:
            return
        if report.when == "call" or (report.when == "setup" and report.failed):
            self._record(check, call, report, student)
            if check not in self.checks[student]:
                self.checks[student].append(check)

    def _record(self, check: CheckResult, call, report, student: str) -> None:
        if not report.failed or call.excinfo is None:
            return
        exc = call.excinfo.value
        if isinstance(exc, NotJudged):
            check.record_not_judged(exc.reason, exc.evidence, exc.evidence_title)
        elif isinstance(exc, Fail):
            check.record_fail(exc)
        elif isinstance(exc, AssertionError):
            check.fraction = 0.0
            check.add_detail(str(exc).split("\nassert ")[0] or "A check failed.")
        elif isinstance(exc, CheckTimedOut):
            # pytest-timeout is a wall-clock safety net: the grader's problem, not a verdict
            check.record_not_judged("This check ran out of real time (a safety limit of the "
                                    "grader, not a verdict on the program).")
            self.problems[student].append(f"{check.item_id}: the check timed out")
        else:
            check.error = f"{type(exc).__name__}: {exc}"[:300]
            if os.environ.get("GRADER_DEBUG"):
                traceback.print_exception(exc)
            self.problems[student].append(f"{check.item_id}: grader error {check.error}")

    # ------------------------------------------------------------------ results
    def reports(self) -> list[SubmissionReport]:
        rubric = self.the_rubric
        if self.public_only:
            wanted = {c.item_id for checks in self.checks.values() for c in checks}
            rubric = Rubric(rubric.assignment, rubric.title + " (self-check)",
                            rubric.main_file, rubric.files,
                            [i for i in rubric.items if i.id in wanted])
        out = []
        for submission in self.submissions:
            student = submission.student
            elapsed = self.finished.get(student, 0) - self.started.get(student, 0)
            verdicts = item_verdicts(rubric, self.checks[student])
            self._safety_nets(student)
            verdicts = self._nothing_to_review(submission, rubric, verdicts)
            out.append(SubmissionReport(student, rubric, verdicts, elapsed,
                                        self.run_notes[student], self.problems[student],
                                        self.attachments.get(student, {})))
            replay.annotate(out[-1])     # where each failed item shows in a game's replay
        return out

    def _safety_nets(self, student: str) -> None:
        """Runs stopped by a wall-clock safety net, and a budget whose real time ran out: the
        grader's problems, listed once for a TA (unless the grader module already did)."""
        problems = self.problems[student]
        hits = harness.take_grader_problems(student)
        budget = self._budgets.get(student)
        if budget is not None and budget.wall_ran_out:
            hits.append("the submission's real-time safety limit ran out before its CPU "
                        "budget (the machine may have been overloaded)")
        if hits and not any("safety limit" in p for p in problems):
            more = f" (and {len(hits) - 1} more like it)" if len(hits) > 1 else ""
            problems.append(f"{hits[0]}{more}; make sure no mark was lost for it")

    def _nothing_to_review(self, submission: Submission, rubric: Rubric, verdicts):
        """Review items get no marks when there is no working program to review (a file
        Python cannot run, code that does nothing, runs that showed nothing): an engine
        rule, so no grader's review checks can award them by measuring such a file."""
        if submission.student in self._parsed_ahead:
            self._parsed_ahead.pop(submission.student).join()
        try:
            found = nothing_to_review(submission, rubric, take_runs(submission.student),
                                      verdicts)
        except static.ParserUnavailable as exc:
            # the grader's problem: the rule is not applied, and a TA is told (once: the
            # review checks that needed the same facts have said it already)
            problems = self.problems[submission.student]
            if not any(str(exc) in problem for problem in problems):
                problems.append(f"{exc}; the review items were not checked for a working "
                                "program")
            return verdicts
        if not found:
            return verdicts
        brief, why = found
        # runs that showed nothing still leave the source to read (SOURCE_ONLY_REVIEW)
        kept = SOURCE_ONLY_REVIEW if brief == NOT_SEEN_WORKING else ()
        review = [v.item.id for v in verdicts if v.item.review and v.item.id not in kept]
        if not review:
            return verdicts
        judged_anyway = [v.item.id for v in verdicts if v.item.review and v.item.id in kept]
        anyway = (f" ({', '.join(judged_anyway)} is still judged on the source, which it reads "
                  "alone)") if judged_anyway else ""
        self.add_note(submission.student, f"The review items ({', '.join(review)}) get no "
                      f"marks: {why}.{anyway}")
        self.problems[submission.student].append(f"review items set to 0: {why}")
        return without_review_marks(verdicts, f"{brief}, so there is no working program to "
                                    "review (see 'How the runs went').",
                                    unjudged_too=brief in (EMPTY_FILE, NO_OWN_CODE), keep=kept)

    def add_note(self, student: str, text: str, problem: bool = False) -> None:
        """Graders call this (via the ``notes`` helper) for run-level news."""
        if text not in self.run_notes[student]:
            self.run_notes[student].append(text)
        if problem and text not in self.problems[student]:
            self.problems[student].append(text)


def run(rubric: Rubric, submissions: list[Submission], grader_dir: Path, *,
        public_only: bool = False, quiet: bool = True,
        workers: int | None = None) -> list[SubmissionReport]:
    """Run a grader module over submissions with pytest; returns one report each (a
    submission that was refused or has no main file gets 0 on every item, saying why).

    ``workers`` > 1 grades the submissions in that many worker processes at once, a few at a
    time each (one pytest run per handful; the reports come back pickled, in the order of
    ``submissions``). Each submission still runs alone in its process, so its budget counts
    only its own runs. None takes ``GRADER_RUN_WORKERS`` from the environment (default 1).
    """
    gradable = [s for s in submissions if s.found]
    if not gradable:
        return [unusable_report(rubric, s.student, s.missing_why, s.notes, s.problems)
                for s in submissions]
    if workers is None:
        workers = int(os.environ.get("GRADER_RUN_WORKERS") or 1)
    if workers > 1 and len(gradable) > 1:
        reports = _run_in_workers(rubric, gradable, grader_dir, public_only, workers)
    else:
        reports = _run_here(rubric, gradable, grader_dir, public_only, quiet)
    graded = {report.student: report for report in reports}
    return [graded.get(s.student) if s.found else
            unusable_report(rubric, s.student, s.missing_why, s.notes, s.problems)
            for s in submissions]


_FROZEN = threading.Event()     # the process's imports are out of the collector's way


@contextlib.contextmanager
def _fewer_collections():
    """Python's cyclic garbage collector, less often while a grader runs: a sweep of 7776
    rolls makes hundreds of thousands of short-lived objects, and at the default threshold
    (700) the collector ran hundreds of times per submission, now and then over everything
    pytest and the kit had imported (0.2 to 0.5 s of a Poker Dice or Yahtzee grade). What is
    in memory at the first grading run (the imports) is set aside for good (gc.freeze);
    the usual thresholds come back afterwards."""
    if not _FROZEN.is_set():
        _FROZEN.set()
        gc.freeze()
    before = gc.get_threshold()
    gc.set_threshold(10_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _run_here(rubric: Rubric, gradable: list[Submission], grader_dir: Path,
              public_only: bool, quiet: bool) -> list[SubmissionReport]:
    """One pytest run of the grader in this process over submissions that have a main file."""
    forkserver.prestart(pythons.student_python())   # meanwhile pytest collects the grader
    plugin = KitPlugin(rubric, gradable, public_only)
    ini = Path(__file__).with_name("grader.ini")
    # Only the plugins a grader uses: pytest-timeout, named, instead of every installed
    # plugin found by scanning the installed packages (pytest-xdist and the like have nothing
    # to do here); and not pytest's check for unraisable exceptions, whose two full garbage
    # collections at the end of a session walked the whole grader process (0.13 CPU-s of
    # a Poker Dice grade).
    args = [str(grader_dir), "-c", str(ini), "--rootdir", str(grader_dir),
            "--disable-plugin-autoload", "-p", "pytest_timeout",
            "-p", "no:cacheprovider", "-p", "no:unraisableexception"]
    args += ["-p", "no:terminal"] if quiet else ["-v", "--no-header"]
    with _fewer_collections():
        status = pytest.main(args, plugins=[plugin])
    if plugin.interrupted:           # Ctrl-C: pytest stopped; so does whoever asked
        raise KeyboardInterrupt
    if plugin.grader_problems:
        raise RuntimeError(f"The grader in {grader_dir} does not match rubric.toml of "
                           f"{rubric.assignment}:\n- " + "\n- ".join(plugin.grader_problems))
    if status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"pytest could not run the grader in {grader_dir} "
                           f"(exit status {int(status)})")
    return plugin.reports()


def _run_in_workers(rubric: Rubric, gradable: list[Submission], grader_dir: Path,
                    public_only: bool, workers: int) -> list[SubmissionReport]:
    """Grade handfuls of submissions in ``workers`` worker processes, each taking the next
    handful when it is free (about four handfuls per worker, so that a slow submission does
    not leave the others idle at the end)."""
    size = max(1, math.ceil(len(gradable) / (4 * workers)))
    handfuls = [gradable[start:start + size] for start in range(0, len(gradable), size)]
    waiting = list(range(len(handfuls)))
    graded: dict[int, list[SubmissionReport]] = {}
    lock = threading.Lock()

    def work() -> None:
        with _Worker() as worker:
            while True:
                with lock:
                    if not waiting:
                        return
                    index = waiting.pop(0)
                graded[index] = worker.grade(rubric, handfuls[index], grader_dir, public_only)

    with ThreadPoolExecutor(max_workers=min(workers, len(handfuls))) as pool:
        for running in [pool.submit(work) for _ in range(min(workers, len(handfuls)))]:
            running.result()
    return [report for index in range(len(handfuls)) for report in graded[index]]


class _Worker:
    """A grading process of our own (``serve`` below): handfuls of submissions go in as
    pickles on its stdin, their reports come back as pickles on its stdout."""

    def __enter__(self) -> "_Worker":
        package_root = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root,
                                                          env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from graders.engine.grading.plugin import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        return self

    def grade(self, rubric: Rubric, handful: list[Submission], grader_dir: Path,
              public_only: bool) -> list[SubmissionReport]:
        try:
            pickle.dump((rubric, handful, grader_dir, public_only), self.process.stdin)
            self.process.stdin.flush()
            kind, answer = pickle.load(self.process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            raise RuntimeError(f"a grading worker ended unexpectedly ({exc!r})") from None
        if kind == "error":
            raise RuntimeError(answer)
        return answer

    def __exit__(self, *exc_info) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def serve() -> None:
    """A grading worker's loop: (rubric, submissions, grader_dir, public_only) in, the
    reports (or ("error", why)) out, until stdin ends. What the grader prints goes to
    stderr, so that it cannot mix with the answers."""
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    while True:
        try:
            rubric, handful, grader_dir, public_only = pickle.load(requests)
        except EOFError:
            return
        try:
            answer = ("ok", _run_here(rubric, handful, grader_dir, public_only, True))
        except Exception as exc:        # the parent raises it as a RuntimeError
            answer = ("error", f"{type(exc).__name__}: {exc}")
        pickle.dump(answer, answers)
        answers.flush()
