"""Scores do not depend on how busy the machine is.

The same submissions are graded several times on a quiet machine and again on a busy one: the
grading kept to one core, beside four processes that only compute on that core (a load of
five on it, on top of whatever else runs there, as busy as a shared CI machine gets; see
conftest.busy_machine); every copy must get the same
score on every item, and no safety net of the grader may fire. Verdicts about a program use
CPU seconds and counts, never real time (see harness.Limits); the real-time safety nets count
real time less the time the runs waited for a CPU (harness.Stopwatch). The stuck program is
the hard case: its game-over game makes 5,000 random draws, each a round trip between the
program and the grader, so on a busy machine it takes many times longer than on a quiet one.
"""
from __future__ import annotations

import textwrap

import pytest

from conftest import GRADING_WORKERS, KIT_ROOT, busy_machine, fresh_run_folder, grade, scores
from graders.engine.run.harness import Child, Limits

QUIET_COPIES = 3
BUSY_COPIES = 1
BURNERS_PER_CORE = 4
SUBMISSIONS = {
    "reference": KIT_ROOT / "reference" / "pocoloco" / "a5.py",
    # loops forever after the set-up questions: its games end on the grader's limits
    "stuck": KIT_ROOT / "demo_submissions" / "pocoloco" / "taylorchris_67890_12345_a5.py",
}


def _grade_copies(copies: int, workers: int | None = None) -> dict[str, list]:
    """Every submission ``copies`` times in one grading run: kind -> the copies' reports."""
    paths, names = [], []
    for kind, path in SUBMISSIONS.items():
        paths += [path] * copies
        names += [f"{kind}-{copy}" for copy in range(copies)]
    reports = grade("pocoloco", paths, names, workers)
    return {kind: [reports[f"{kind}-{copy}"] for copy in range(copies)]
            for kind in SUBMISSIONS}


def _verdicts(report) -> tuple:
    return scores(report), sorted(v.item.id for v in report.not_judged)


def _idle_run(tmp_path):
    """A program that waits for something the grader never sends, with a 1 s idle net."""
    path = tmp_path / "waits.py"
    path.write_text(textwrap.dedent("""
        import threading
        print("waiting")
        threading.Event().wait()
    """))
    workdir = fresh_run_folder([path])
    child = Child(workdir / "waits.py", workdir=workdir,
                  limits=Limits(idle_seconds=1.0)).start()
    try:
        while child.next_event() is not None:
            pass
    finally:
        child.close()
    return child


@pytest.mark.timeout(1200)
def test_same_scores_on_a_quiet_and_on_a_busy_machine(tmp_path):
    quiet = _grade_copies(QUIET_COPIES)
    with busy_machine(BURNERS_PER_CORE) as burners:
        # in worker processes, as `make grade` may run
        busy = _grade_copies(BUSY_COPIES, GRADING_WORKERS)
        # the nets still do their job on a busy machine: a program that waits on nothing
        # is stopped by the idle net (as the grader's problem, not the program's)
        idle = _idle_run(tmp_path)
        assert all(b.poll() is None for b in burners), "the load stopped before the end"
    assert quiet["reference"][0].score == 24
    assert quiet["stuck"][0].score > 0
    for kind in SUBMISSIONS:
        expected = _verdicts(quiet[kind][0])
        for run, reports in (("quiet", quiet[kind]), ("busy", busy[kind])):
            for copy, report in enumerate(reports):
                assert _verdicts(report) == expected, f"{kind}, {run} machine, copy {copy}"
                assert not any("safety limit" in p or "timed out" in p
                               for p in report.problems), report.problems
    assert idle.outcome.get("limit") == "idle" and idle.grader_problem, idle.outcome
