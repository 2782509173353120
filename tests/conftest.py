"""Shared helpers for the kit's tests."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graders.cli import GRADERS
from graders.engine.grading import plugin
from graders.engine.run.files import remove_folder
from graders.engine.run.harness import Limits, prepare_workdir
from graders.engine.judge.rubric import KIT_ROOT, Rubric
from graders.engine.drive.session import Session
from graders.engine.grading.submissions import from_path

FIXTURES = Path(__file__).parent / "fixtures"
# `make test` keeps every core busy on its own (pytest-xdist runs a module per core and one
# more, and a submission's runs go on side by side within its grading), so the tests grade in
# their own process: worker processes (plugin.run's `workers`, GRADER_RUN_WORKERS for the
# command line) would only add their start-up, about 0.5 CPU-s each (the whole suite took
# 408 CPU-s with three workers per class, 378 without). test_run_workers and the busy part of
# test_load grade in workers, which must give the same reports.
GRADING_WORKERS = 3
os.environ.pop("GRADER_RUN_WORKERS", None)
# Some tests press Ctrl-C at the kit's commands (SIGINT to their process group), as a TA does.
# A shell without job control starts a command put in the background (`make test &`) with
# SIGINT ignored, and an ignored signal stays ignored in every program started from it:
# `grade-all` would never see the Ctrl-C. The suite's own processes get Python's usual
# handler back, so the commands they start get it too.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# `make test` runs the modules on several workers, each module on one worker (xdist's
# --dist loadscope, so a module's grading fixtures run once). Started longest first, no worker
# is left with a long module after the others have finished; the modules that mostly wait
# (for a program's time limits, a sleep) come while the others still compute, so that no core
# waits with them at the end. A module not named here comes after these, in the usual order.
LONGEST_FIRST = ["test_pocoloco.py", "test_pocoloco_defects.py", "test_poker_dice.py",
                 "test_sandbox.py", "test_load.py", "test_yahtzee.py", "test_ta_week.py",
                 "test_ta_term.py", "test_platforms.py",
                 "test_student_kit.py", "test_harness.py", "test_starts.py",
                 "test_inputs.py", "test_calls.py", "test_three_card_poker.py", "test_cli.py",
                 "test_hilo.py", "test_layer.py", "test_html.py", "test_reports.py",
                 "test_run_workers.py", "test_studenttests.py", "test_objects.py"]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """``pytest -n N`` without ``--dist`` keeps each module on one worker too (loadscope, as
    `make test` asks): the modules' grading fixtures are meant to run once, and the clean-up of
    test_sandbox.py kills every process carrying its attack token, its own tests' included,
    so its tests must not run beside each other on other workers."""
    if getattr(config.option, "numprocesses", None) and \
            getattr(config.option, "dist", "no") == "no":
        config.option.dist = "loadscope"


def pytest_collection_modifyitems(config, items):
    """The longest modules first (a stable sort: tests keep their order within a module)."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@contextlib.contextmanager
def busy_machine(burners_per_core: int):
    """``with busy_machine(4) as burners:`` a machine as busy as a shared CI machine gets, for
    the work this thread starts from now on: it runs on one core, beside ``burners_per_core``
    processes that only compute, on that core too. The other cores stay free for the rest of
    the suite: the load takes one core's share instead of every core's (the burners' CPU
    seconds grow with the cores they load). Where a thread cannot be kept to one core, there
    are that many burners per core instead. The burners are handed over to check that they
    kept running to the end."""
    pinned = hasattr(os, "sched_setaffinity")
    before = os.sched_getaffinity(0) if pinned else set()
    if pinned:
        # this thread, and what it starts from now on; each xdist worker its own core, so two
        # busy parts that run at the same time do not share one core and leave another idle
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        index = int(worker[2:]) if worker[2:].isdigit() else -1
        available = sorted(before)
        os.sched_setaffinity(0, {available[index % len(available)]})
    cores = 1 if pinned else os.cpu_count() or 1
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(burners_per_core * cores)]
    try:
        yield burners
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
        if pinned:
            os.sched_setaffinity(0, before)


def grade(assignment: str, paths: list[Path], names: list[str] | None = None,
          workers: int = 1):
    """Grade several submissions in one pytest run; returns {student: SubmissionReport}.
    ``workers``: plugin.run's (by default in this process)."""
    rubric = Rubric.load(assignment)
    subs = [from_path(Path(p), rubric.main_file, (names or [None] * len(paths))[i] or
                      f"{Path(p).parent.name}-{Path(p).name}-{i}")
            for i, p in enumerate(paths)]
    reports = plugin.run(rubric, subs, GRADERS / assignment, workers=workers)
    return {r.student: r for r in reports}


def scores(report) -> dict[str, float]:
    return {v.item.id: v.score for v in report.verdicts}


def objective(report) -> dict[str, tuple[float, float]]:
    """Item -> (score, max) for the items a machine decides alone."""
    return {v.item.id: (v.score, v.item.points) for v in report.verdicts if not v.item.review}


_TEST_RUN_FOLDERS: list[Path] = []      # made by the running test (fresh_run_folder)


def fresh_run_folder(files, extra=None) -> Path:
    """A run folder (harness.prepare_workdir's), removed when the test is over."""
    _TEST_RUN_FOLDERS.append(prepare_workdir(files, extra))
    return _TEST_RUN_FOLDERS[-1]


@pytest.fixture(autouse=True)
def _remove_fresh_run_folders():
    yield
    while _TEST_RUN_FOLDERS:
        remove_folder(_TEST_RUN_FOLDERS.pop())


@pytest.fixture
def run_program(tmp_path):
    """run_program(source, answers=..., policy=..., limits=...) -> Session after the run.

    ``answers`` is a list of intents typed in order (then EOF). The run folders are removed
    when the test is over."""
    def run(source: str, answers=(), policy=None, limits=None, args=None):
        path = tmp_path / "prog.py"
        path.write_text(textwrap.dedent(source))
        workdir = fresh_run_folder([path])
        session = Session.start(workdir / "prog.py", workdir, policy=policy,
                                limits=limits or Limits(wall_seconds=8), args=args)
        queue = list(answers)
        while session.wait() is not None:
            if queue:
                session.answer(queue.pop(0))
            else:
                session.end_input()
        session.close()
        return session
    return run


def item_text(verdict) -> str:
    """All the text a student sees for one item (messages, expected/actual, evidence, notes,
    why it was not judged)."""
    parts = []
    for check in verdict.checks:
        for detail in check.details:
            parts += [detail["message"], str(detail["expected"]), str(detail["actual"]),
                      str(detail["evidence"])]
        parts += check.notes + [r["reason"] for r in check.not_judged_reasons]
    return "\n".join(parts)


def verdicts_by_student(reports: dict) -> dict:
    """student name -> {item id: verdict}."""
    return {student: {verdict.item.id: verdict for verdict in report.verdicts}
            for student, report in reports.items()}


__all__ = ["FIXTURES", "KIT_ROOT", "grade", "scores", "objective", "item_text",
           "verdicts_by_student"]


def not_full(verdicts_by_item: dict, items) -> dict[str, float]:
    """The items among ``items`` that did not get full marks, with their scores."""
    return {item: verdicts_by_item[item].score for item in items
            if not verdicts_by_item[item].passed}


def assert_loses_exactly(verdicts_by_item: dict, item: str, automatic) -> None:
    """A one-defect mutant: ``item`` was judged and lost marks; every other automatic item
    kept full marks."""
    assert verdicts_by_item[item].judged
    assert verdicts_by_item[item].score < verdicts_by_item[item].item.points
    assert not_full(verdicts_by_item, [other for other in automatic if other != item]) == {}
