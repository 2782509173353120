"""Scores do not depend on how busy the machine is.

The same submissions are graded ten times each on a quiet machine and again while two other
processes keep both cores busy; every copy must get the same score on every item. Verdicts
about a program use CPU seconds and counts, never real time (see harness.Limits).
"""
from __future__ import annotations

import subprocess
import sys

from conftest import KIT_ROOT, grade, scores

COPIES = 10
SUBMISSIONS = {
    "reference": KIT_ROOT / "reference" / "pocoloco" / "a5.py",
    # loops forever after the set-up questions: its games end on the grader's limits
    "stuck": KIT_ROOT / "demo_submissions" / "pocoloco" / "taylorchris_67890_12345_a5.py",
}


def _grade_copies() -> dict[str, list]:
    """Every submission COPIES times in one grading run: kind -> the copies' reports."""
    paths, names = [], []
    for kind, path in SUBMISSIONS.items():
        paths += [path] * COPIES
        names += [f"{kind}-{copy}" for copy in range(COPIES)]
    reports = grade("pocoloco", paths, names)
    return {kind: [reports[f"{kind}-{copy}"] for copy in range(COPIES)]
            for kind in SUBMISSIONS}


def _verdicts(report) -> tuple:
    return scores(report), sorted(v.item.id for v in report.not_judged)


def test_same_scores_on_a_quiet_and_on_a_busy_machine():
    quiet = _grade_copies()
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(2)]
    try:
        busy = _grade_copies()
        assert all(b.poll() is None for b in burners), "the load stopped before the end"
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert quiet["reference"][0].score == 24
    for kind in SUBMISSIONS:
        expected = _verdicts(quiet[kind][0])
        for run, reports in (("quiet", quiet[kind]), ("busy", busy[kind])):
            for copy, report in enumerate(reports):
                assert _verdicts(report) == expected, f"{kind}, {run} machine, copy {copy}"
                assert not any("safety limit" in p for p in report.problems), report.problems
