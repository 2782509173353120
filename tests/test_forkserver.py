"""The fork server (graders/engine/run/forkserver.py): runs forked from one warm interpreter must be
as isolated as runs in a sandbox of their own, behave the same, and fall back to starting on
their own wherever the server cannot work.

The isolation is checked from outside, below the boot file's guards: while a forked run waits
for input, the test (root, like the grader) looks at the run's process, its namespaces and what
its mount namespace shows (``/proc/PID/root``).
"""
from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest

from graders.engine.run import forkserver, sandbox
from graders.engine.run.harness import Child, Limits
from graders.engine.run.processes import children_of, process_tree

from conftest import fresh_run_folder

ISOLATION = sandbox.status()
pytestmark = pytest.mark.skipif(not forkserver.enabled(ISOLATION),
                                reason="runs are forked only in a sandbox set up by root")

WAITER = textwrap.dedent("""
    import os
    print("pid", os.getpid(), "cwd", os.getcwd() == os.environ["HOME"])
    input("Ready? ")
    print("done")
""")


def _start(source: str, **kwargs) -> Child:
    folder = fresh_run_folder([], {"prog.py": source})
    return Child(folder / "prog.py", workdir=folder, **kwargs).start()


def _until_input(child: Child) -> dict:
    event = child.next_event()
    assert event is not None and event["ev"] == "input", child.outcome
    return event


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as handle:
        return dict(line.rstrip("\n").split(":\t", 1) for line in handle if ":\t" in line)


def _namespaces(pid: int) -> dict[str, str]:
    return {kind: os.readlink(f"/proc/{pid}/ns/{kind}")
            for kind in ("mnt", "pid", "ipc", "net", "uts")}


def test_a_forked_run_is_as_isolated_as_a_run_of_its_own():
    first, second = _start(WAITER), _start(WAITER)
    try:
        _until_input(first)
        _until_input(second)
        assert first.forked and second.forked
        program = first.program_pid
        status = _status(program)
        # the program: the sandbox's user, no capabilities, none to gain, PID 2 of its own
        # namespace (PID 1 is its init, as in a sandbox of its own)
        assert status["Uid"].split()[0] == str(ISOLATION.uid)
        assert status["CapEff"] == status["CapPrm"] == status["CapAmb"] == "0" * 16
        assert status["NoNewPrivs"] == "1"
        assert status["NSpid"].split()[-1] == "2"
        # namespaces of its own: not the server's, not another run's
        server = forkserver._servers[first.python]._pid
        mine, theirs = _namespaces(program), _namespaces(second.program_pid)
        assert all(mine[kind] != theirs[kind] for kind in mine), (mine, theirs)
        assert all(mine[kind] != _namespaces(server)[kind] for kind in mine)
        # what it sees: its own folder, a /tmp with nothing else, its own processes only
        root = Path(f"/proc/{program}/root")
        assert (root / str(first.workdir).lstrip("/") / "prog.py").is_file()
        assert not (root / str(second.workdir).lstrip("/")).exists()
        visible = sorted(int(p) for p in os.listdir(root / "proc") if p.isdigit())
        assert visible == [1, 2], visible
        assert not (root / str(Path(__file__).parent).lstrip("/")).exists()
    finally:
        first.close()
        second.close()


def test_tmp_is_fresh_for_every_run():
    """A file one run leaves in /tmp is not there for the next (written from outside, as root,
    through the first run's own view of its /tmp)."""
    first = _start(WAITER)
    try:
        _until_input(first)
        planted = Path(f"/proc/{first.program_pid}/root/tmp/left-by-the-first-run")
        planted.write_text("x")
        second = _start(WAITER)
        try:
            _until_input(second)
            assert planted.exists()
            assert not Path(f"/proc/{second.program_pid}/root/tmp/"
                            "left-by-the-first-run").exists()
        finally:
            second.close()
    finally:
        first.close()


def test_nothing_a_forked_run_started_survives_it():
    """The run's init is PID 1 of its namespace: when the run is closed, no process is left
    in that namespace (whatever the program started and however it left its session)."""
    child = _start(WAITER)
    _until_input(child)
    pid_namespace = _namespaces(child.program_pid)["pid"]
    tree = process_tree(child._proc.pid)
    assert len(tree) >= 3                       # the run's first process, its init, the program
    child.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = [pid for pid in os.listdir("/proc") if pid.isdigit() and
                _namespace_or_none(int(pid)) == pid_namespace]
        if not left:
            break
        time.sleep(0.05)
    assert not left


def _namespace_or_none(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


PROGRAM = textwrap.dedent("""
    import random, sys, time
    name = input("Your name? ")
    rolls = [random.randint(1, 6) for _ in range(5)]
    time.sleep(3)
    print("Hello", name, rolls, sys.argv[1:], __name__)
    try:
        open("/etc/shadow").read()
    except OSError as error:
        print("refused:", type(error).__name__)
    raise SystemExit(3)
""")


def _play(source: str) -> tuple[list, dict]:
    """The run's log (kind, text) and outcome, the grader answering every question."""
    child = _start(source, args=["one", "two"])
    log = []
    while (event := child.next_event()) is not None:
        if event["ev"] == "input":
            child.send_line("Quillon")
    child.close()
    for entry in child.log:
        text = entry.text if entry.kind != "exit" else entry.data.get("status")
        log.append((entry.kind, text))
    return log, {key: child.outcome.get(key) for key in ("status", "code", "slept")}


def test_a_program_behaves_the_same_forked_and_on_its_own(monkeypatch):
    forked = _play(PROGRAM)
    monkeypatch.setenv(forkserver.ENV, "off")
    alone = _play(PROGRAM)
    assert forked == alone
    assert forked[1] == {"status": "exit", "code": 3, "slept": 3.0}
    assert any("Hello Quillon [" in text and "['one', 'two'] __main__" in text
               for kind, text in forked[0] if kind == "out")


def test_the_cpu_of_a_forked_run_is_measured():
    child = _start("total = 0\nfor n in range(3_000_000):\n    total += n\nprint(total)\n")
    while child.next_event() is not None:
        pass
    child.close()
    assert child.outcome["status"] == "finished"
    assert child.cpu_seconds > 0.05


def test_a_loop_in_a_forked_run_is_stopped_as_stuck():
    limits = Limits(stuck_cpu_seconds=0.5, stuck_again_cpu_seconds=None)
    child = _start("while True:\n    pass\n", limits=limits)
    while child.next_event() is not None:
        pass
    assert child.stopped_by == "stuck"
    assert 0.5 <= child.cpu_seconds < 1.5


def test_runs_start_on_their_own_where_the_server_cannot(monkeypatch, tmp_path):
    """A server that does not start (here: a file that exits at once) is set aside once, and
    every run then starts in a sandbox of its own."""
    broken = tmp_path / "forkserver.py"
    broken.write_text("raise SystemExit(0)\n")
    monkeypatch.setattr(forkserver, "SERVER", broken)
    monkeypatch.setattr(forkserver, "READY_SECONDS", 5.0)
    monkeypatch.setattr(forkserver, "_servers", {})
    for _ in range(2):
        child = _start(WAITER)
        _until_input(child)
        assert not child.forked
        child.send_line("x")
        while child.next_event() is not None:
            pass
        child.close()
        assert child.outcome["status"] == "finished"
    [server] = forkserver._servers.values()
    assert server.dead and server.why_not


def test_runs_that_need_other_folders_or_an_opt_out_start_on_their_own(monkeypatch, tmp_path):
    lent = tmp_path / "lent"
    lent.mkdir()
    child = _start(WAITER, paths=[lent])
    _until_input(child)
    assert not child.forked
    child.close()
    monkeypatch.setenv(forkserver.ENV, "off")
    assert forkserver.folder() is None
    child = _start(WAITER)
    _until_input(child)
    assert not child.forked
    child.close()


def test_a_run_ended_by_its_servers_end_is_the_graders_problem(monkeypatch):
    """Not the program's fault: the run is not called 'died', and a TA is told."""
    monkeypatch.setattr(forkserver, "_servers", {})
    child = _start(WAITER)
    _until_input(child)
    server = forkserver._servers[child.python]
    server.close()
    while child.next_event() is not None:
        pass
    assert child.outcome.get("grader_problem") and child.stopped_by == "server", child.outcome
    assert "fork server" in child.outcome["error"]


def test_a_run_the_grader_cannot_find_is_killed_and_started_on_its_own(monkeypatch):
    """The server forked it, but the grader could not find its process (so could neither
    measure nor stop it): the server kills it, and the run starts in a sandbox of its own,
    on a side channel of its own."""
    monkeypatch.setattr(forkserver, "_servers", {})
    first = _start(WAITER)                          # starts the server
    _until_input(first)
    first.close()
    server = forkserver._servers[first.python]
    monkeypatch.setattr(forkserver, "_find", lambda candidates, inner: None)
    child = _start(PROGRAM, args=["one", "two"])
    assert not child.forked and server.dead
    while (event := child.next_event()) is not None:
        if event["ev"] == "input":
            child.send_line("Quillon")
    child.close()
    assert child.outcome["status"] == "exit" and child.outcome["code"] == 3
    printed = "".join(e.text for e in child.log if e.kind == "out")
    assert printed.count("Hello Quillon") == 1, printed
    deadline = time.monotonic() + 3
    while _live_children(server._pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _live_children(server._pid)
    server.close()


def _live_children(pid: int) -> list[int]:
    """Children of ``pid`` that are not zombies."""
    found = []
    for child in children_of(pid):
        try:
            if _status(child)["State"][0] != "Z":
                found.append(child)
        except OSError:
            continue
    return found


def test_a_server_whose_runs_cannot_start_checks_that_first(monkeypatch, tmp_path):
    """Where the machine refuses what a run needs (here: a /proc of its own), the server says
    so before its first run, and runs start on their own: no program is blamed for a run
    that never started."""
    refusing = tmp_path / "forkserver.py"
    source = forkserver.SERVER.read_text()
    assert 'MOUNT("proc", "/proc", "proc"' in source
    refusing.write_text(source.replace('MOUNT("proc", "/proc", "proc"',
                                       'MOUNT("proc", "/proc", "no-such-filesystem"'))
    monkeypatch.setattr(forkserver, "SERVER", refusing)
    monkeypatch.setattr(forkserver, "_servers", {})
    child = _start(WAITER)
    _until_input(child)
    assert not child.forked
    child.send_line("x")
    while child.next_event() is not None:
        pass
    child.close()
    assert child.outcome["status"] == "finished"
    [server] = forkserver._servers.values()
    assert server.dead and "could not be given its own namespaces here (mount)" in server.why_not
