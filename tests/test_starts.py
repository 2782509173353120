"""Runs of one submission that start the same way and end before reading anything (see
``graders.engine.run.starts``): the first one runs, the others take its record."""
from __future__ import annotations

import textwrap
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from graders.engine.run import harness, starts
from graders.engine.run.harness import Child, Limits
from graders.engine.drive.session import Session

from conftest import fresh_run_folder

QUICK = Limits(stuck_cpu_seconds=0.2)     # an endless loop is found after 0.2 CPU-s
HANGS_AT_IMPORT = """
    print("loading the tables")
    while True:
        pass
"""
ASKS_THEN_HANGS = """
    name = input("Name? ")
    while True:
        pass
"""
CRASHES_AT_IMPORT = """
    print("starting")
    print(undefined_name)
"""


@pytest.fixture
def owner(monkeypatch):
    """Runs started now belong to one submission's grading, as in a grading session."""
    monkeypatch.setattr(harness, "current_owner", "student-starts")
    yield "student-starts"
    starts.forget("student-starts")


def _folder(tmp_path, source: str, name: str = "prog.py"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return fresh_run_folder([path])


def _run(workdir, args=None, limits=None, answer="Quillon") -> Child:
    """One run to its end, answering every question with ``answer``."""
    session = Session.start(workdir / "prog.py", workdir, args=args,
                            limits=limits or QUICK)
    while session.wait() is not None:
        session.type(answer)
    session.close()
    return session.child


def test_a_run_that_hangs_before_asking_is_run_once(owner, tmp_path):
    cpu_before = harness.children_cpu_seconds()
    runs = [_run(_folder(tmp_path / str(i), HANGS_AT_IMPORT)) for i in range(3)]
    first, *others = runs
    assert first.stopped_by == "stuck" and not first.replayed
    assert all(run.replayed for run in others)
    for run in others:
        assert run.stopped_by == first.stopped_by
        assert run.outcome == first.outcome
        assert [(e.kind, e.text) for e in run.log] == [(e.kind, e.text) for e in first.log]
        assert run.cpu_seconds == first.cpu_seconds
    # the budget is charged as if every run had used the first one's CPU seconds
    assert harness.children_cpu_seconds() - cpu_before >= 3 * first.cpu_seconds - 0.01


def test_runs_started_side_by_side_wait_for_the_first(owner, tmp_path):
    folders = [_folder(tmp_path / str(i), HANGS_AT_IMPORT) for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(_run, folders))
    assert sum(not run.replayed for run in runs) == 1
    assert {run.stopped_by for run in runs} == {"stuck"}


def test_a_crash_at_import_is_shared_too(owner, tmp_path):
    first, second = (_run(_folder(tmp_path / str(i), CRASHES_AT_IMPORT)) for i in range(2))
    assert second.replayed
    assert "NameError" in "".join(e.text for e in second.log)
    assert second.outcome == first.outcome


def test_a_run_that_asked_something_is_not_shared(owner, tmp_path):
    runs = [_run(_folder(tmp_path / str(i), ASKS_THEN_HANGS)) for i in range(2)]
    assert not any(run.replayed for run in runs)
    assert all(run.stopped_by == "stuck" for run in runs)


def test_other_arguments_files_or_owners_start_differently(owner, tmp_path, monkeypatch):
    first = _run(_folder(tmp_path / "a", HANGS_AT_IMPORT))
    assert not first.replayed
    assert not _run(_folder(tmp_path / "b", HANGS_AT_IMPORT), args=["-h"]).replayed
    assert not _run(_folder(tmp_path / "c", HANGS_AT_IMPORT + "# another file\n")).replayed
    monkeypatch.setattr(harness, "current_owner", "someone-else")
    assert not _run(_folder(tmp_path / "d", HANGS_AT_IMPORT)).replayed
    starts.forget("someone-else")
    monkeypatch.setattr(harness, "current_owner", None)       # outside a grading session
    assert not _run(_folder(tmp_path / "e", HANGS_AT_IMPORT)).replayed


def test_a_smaller_cpu_limit_runs_on_its_own(owner, tmp_path):
    _run(_folder(tmp_path / "a", HANGS_AT_IMPORT))
    # the same start, but the CPU verdict would come first: it cannot take the record
    later = _run(_folder(tmp_path / "b", HANGS_AT_IMPORT),
                 limits=Limits(cpu_seconds=0.1, stuck_cpu_seconds=0.2))
    assert not later.replayed and later.stopped_by == "cpu"


def test_a_run_the_grader_closed_is_not_shared(owner, tmp_path):
    folders = [_folder(tmp_path / str(i), HANGS_AT_IMPORT) for i in range(2)]
    child = Child(folders[0] / "prog.py", workdir=folders[0],
                  limits=QUICK).start()
    time.sleep(0.2)
    child.close()                                       # the grader gives up on its own
    assert not starts.repeatable(child)
    assert not _run(folders[1]).replayed


def test_a_later_run_waits_while_the_first_is_still_being_set_up():
    """The first run has claimed its start but has no process yet (a busy fork server): its
    real time has not begun, so a later run waits for its record instead of running too."""
    class NotYetStarted:
        started = 0.0                    # no process yet
        starved_seconds = 0.0
        _cpu = 0.0

        @property
        def elapsed(self):
            return time.monotonic() - self.started

    start = starts.Start(NotYetStarted())
    record = starts.Record([], {"ev": "exit"}, None, 0, 0.0, 0.0, 1.0)

    def settle_later():
        time.sleep(0.5)
        start.record = record
        start.settled.set()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(settle_later)
        assert starts.wait(start) is record
