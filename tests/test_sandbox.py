"""OS-level isolation (bubblewrap), its fallback, and the adversarial suite.

The attack submissions in ``tests/fixtures/attacks/<name>/a5.py`` are graded through the kit's
CLI as a TA runs it (``grade-all`` on a class folder that also holds honest programs, and
``grade`` on single files), with the sandbox and with it turned off (the fallback). Each run is
checked for the properties no submission may break:

* its automatic score is not above an honest but empty program's (the student template);
* no hidden line of the reference appears in its report;
* grading ends in bounded time, with exit status 0 and a report for every submission;
* the kit tree, ``$HOME`` and the student interpreter are unchanged;
* no process it started survives;
* the other submissions of the class, and their scores, are unaffected.

Without the sandbox the kit has only its older guards (an audit hook, rlimits, a private
folder): ``SANDBOX_ONLY`` lists the attacks that are not run there, and why.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graders.engine.run import forkserver, pythons, sandbox
from graders.engine.run.harness import Child, Limits
from graders.engine.judge.rubric import Rubric
from graders.engine.drive.session import Session

from conftest import FIXTURES, KIT_ROOT, fresh_run_folder

ATTACKS = FIXTURES / "attacks"
TOKEN = "kitattack7f3e"          # every attack puts it into whatever it manages to create
NAMES = sorted(p.name for p in ATTACKS.iterdir() if (p / "a5.py").is_file())
REFERENCE = KIT_ROOT / "reference" / "pocoloco" / "a5.py"
TEMPLATE = KIT_ROOT / "student_template" / "pocoloco" / "a5.py"
HONEST = FIXTURES / "pocoloco" / "correct" / "dicts_terse" / "a5.py"
ISOLATED = sandbox.status().active
SECONDS_PER_SUBMISSION = 60      # far above the 15 CPU seconds a submission may use

# Not run without the sandbox. There a program that gets past the audit hook (which is not a
# security boundary) runs as the grader's user with no limit on processes that the kernel
# enforces for root: on a shared machine that could take down everyone's work.
SANDBOX_ONLY = {
    "fork_bomb": "without the sandbox nothing the kernel enforces limits the processes of a "
                 "grader run as root",
}

pytestmark = pytest.mark.timeout(1800)


@functools.lru_cache(maxsize=None)
def _review_items() -> frozenset[str]:
    return frozenset(item.id for item in Rubric.load("pocoloco").items if item.review)


def automatic_score(result: dict) -> float:
    """Marks of the items a machine decides alone (review items are a TA's to confirm)."""
    review = _review_items()
    return sum(t["score"] for t in result["tests"] if t["number"] not in review)


@functools.lru_cache(maxsize=None)
def hidden_lines() -> list[str]:
    """Lines only the reference has: its long string literals, docstring lines and code."""
    source = REFERENCE.read_text(encoding="utf-8")
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(line.strip() for line in node.value.splitlines())
    found.update(line.strip() for line in source.splitlines() if not line.strip().startswith("#"))
    public = TEMPLATE.read_text(encoding="utf-8") + \
        (KIT_ROOT / "assignments" / "pocoloco" / "handout.md").read_text(encoding="utf-8")
    public += "".join((ATTACKS / name / "a5.py").read_text(encoding="utf-8") for name in NAMES)
    return sorted(line for line in found if len(line) >= 30 and line not in public)


def report_text(folder: Path) -> str:
    """Everything in a submission's report folder."""
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(folder.rglob("*")) if p.is_file())


def token_processes(marker: str = TOKEN) -> list[int]:
    """Processes whose command line carries the attacks' marker."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def interpreter_targets() -> list[Path]:
    """Files the home_tamper attack tries to plant in the student interpreter."""
    out = subprocess.run([pythons.student_python(), "-I", "-c",
                          "import json, os, sys, sysconfig; p = sysconfig.get_paths(); "
                          "print(json.dumps([p['purelib'], p['stdlib'], "
                          "os.path.dirname(sys.executable)]))"],
                         capture_output=True, text=True, check=True).stdout
    return [Path(folder) / name for folder in json.loads(out)
            for name in ("sitecustomize.py", f"{TOKEN}.pth")]


def tampering() -> list[str]:
    """Traces of the attacks outside run folders and reports: files named with the marker in
    /tmp, /var/tmp, /dev/shm, $HOME and the kit; kit files or start-up files holding it."""
    traces = []
    for folder in (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"), Path.home(), KIT_ROOT,
                   KIT_ROOT.parent):
        try:
            traces += [str(p) for p in folder.iterdir() if TOKEN in p.name]
        except OSError:
            continue
    for sub in ("graders", "reference", "assignments", "student_template", "demo_submissions"):
        for path in (KIT_ROOT / sub).rglob("*"):
            if TOKEN in path.name or path.is_file() and path.suffix in (".py", ".md", ".toml") \
                    and TOKEN in path.read_text(encoding="utf-8", errors="replace"):
                traces.append(str(path))
    for name in (".bashrc", ".profile", ".ssh/authorized_keys", ".pyenv/version"):
        path = Path.home() / name
        if path.is_file() and TOKEN in path.read_text(errors="replace"):
            traces.append(str(path))
    traces += [str(p) for p in interpreter_targets() if p.exists()]
    return traces


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def run_cli(args: list[str], mode: str, timeout: float,
            extra_env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """``python -m graders ...`` from the kit folder, in its own session (so an attack that
    signals the grader's process group cannot reach the test run); killed at ``timeout``."""
    env = dict(os.environ)
    env.pop(sandbox.REQUIRE_ENV, None)
    env.update(extra_env or {})
    if mode == "fallback":
        env[sandbox.SANDBOX_ENV] = "off"
    else:
        env.pop(sandbox.SANDBOX_ENV, None)
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "graders", *args], cwd=KIT_ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGCONT)
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        err += f"\n[killed after {timeout:g} s]"
    return subprocess.CompletedProcess(process.args, process.returncode, out, err), \
        time.monotonic() - started


@dataclass
class ClassRun:
    """One grade-all over a class folder of attacks and honest programs."""

    mode: str
    students: list[str]
    done: subprocess.CompletedProcess
    seconds: float
    out: Path
    class_before: dict[str, str]
    class_after: dict[str, str]
    reference_same: bool
    traces: list[str]
    survivors: list[int]
    results: dict[str, dict] = field(default_factory=dict)

    def report(self, student: str) -> Path:
        return self.out / "pocoloco" / student


def _needs(mode: str) -> None:
    if mode == "sandbox" and not ISOLATED:
        pytest.skip(f"bubblewrap cannot run here ({sandbox.status().why_not})")


def _attacks(mode: str) -> list[str]:
    return [name for name in NAMES if mode == "sandbox" or name not in SANDBOX_ONLY]


def _clean_traces() -> None:
    """Remove what an earlier, failed run of this suite may have left (so nothing found
    afterwards can be old)."""
    for folder in (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")):
        for path in folder.glob(f"{TOKEN}*"):
            if path.is_file() or path.is_symlink():
                path.unlink()
    _kill(token_processes())


@pytest.fixture(scope="module", params=["sandbox", "fallback"])
def class_run(request, tmp_path_factory) -> ClassRun:
    mode = request.param
    _needs(mode)
    _clean_traces()
    root = tmp_path_factory.mktemp(f"class-{mode}")
    klass = root / "class"
    students = _attacks(mode) + ["honest_empty", "honest_correct", "symlink_ref"]
    for name in _attacks(mode):
        (klass / name).mkdir(parents=True)
        shutil.copy(ATTACKS / name / "a5.py", klass / name / "a5.py")
    for name, source in (("honest_empty", TEMPLATE), ("honest_correct", HONEST)):
        (klass / name).mkdir(parents=True)
        shutil.copy(source, klass / name / "a5.py")
    (klass / "symlink_ref").mkdir()
    (klass / "symlink_ref" / "a5.py").symlink_to(REFERENCE)     # a repository can hold one
    before = _digest(klass)
    reference = hashlib.sha256(REFERENCE.read_bytes()).hexdigest()
    timeout = 120 + SECONDS_PER_SUBMISSION * len(students) / 2
    done, seconds = run_cli(["grade-all", "pocoloco", str(klass), "--out", str(root / "out")],
                            mode, timeout)
    time.sleep(0.5)                   # processes killed at the end are gone by now
    survivors = token_processes()
    _kill(survivors)
    run = ClassRun(mode, students, done, seconds, root / "out", before, _digest(klass),
                   reference == hashlib.sha256(REFERENCE.read_bytes()).hexdigest(),
                   tampering(), survivors)
    for student in students:
        path = run.report(student) / "results.json"
        if path.is_file():
            run.results[student] = json.loads(path.read_text(encoding="utf-8"))
    return run


# ----------------------------------------------------------------------------- class folder
def test_grading_the_class_ends_in_bounded_time_with_every_report(class_run):
    run = class_run
    assert run.done.returncode == 0, run.done.stderr[-3000:]
    assert run.seconds < 60 + SECONDS_PER_SUBMISSION * len(run.students) / 2
    assert sorted(run.results) == sorted(run.students)
    slow = {s: r["execution_time"] for s, r in run.results.items()
            if r["execution_time"] > SECONDS_PER_SUBMISSION}
    assert not slow


def test_the_fallback_is_said_once_and_recorded(class_run):
    run = class_run
    expected = "bubblewrap" if run.mode == "sandbox" else "none: turned off by GRADER_SANDBOX=off"
    assert {r["extra_data"]["isolation"] for r in run.results.values()} == {expected}
    notices = run.done.stderr.count("NOT isolated")
    assert notices == (0 if run.mode == "sandbox" else 1), run.done.stderr[-2000:]


@pytest.mark.parametrize("name", NAMES + ["symlink_ref"])
def test_no_attack_scores_above_an_honest_empty_program(class_run, name):
    run = class_run
    if name not in run.students:
        pytest.skip(SANDBOX_ONLY[name])
    baseline = automatic_score(run.results["honest_empty"])
    assert automatic_score(run.results[name]) <= baseline, \
        [(t["number"], t["score"]) for t in run.results[name]["tests"] if t["score"]]


@pytest.mark.parametrize("name", NAMES + ["symlink_ref"])
def test_no_hidden_line_reaches_the_report(class_run, name):
    run = class_run
    if name not in run.students:
        pytest.skip(SANDBOX_ONLY[name])
    text = report_text(run.report(name))
    honest = report_text(run.report("honest_empty"))
    leaked = [line for line in hidden_lines() if line in text and line not in honest]
    assert not leaked, leaked[:5]
    assert "STOLEN" not in text


def test_kit_home_and_interpreter_are_unchanged(class_run):
    assert class_run.reference_same
    assert not class_run.traces


def test_files_written_in_the_run_folder_are_bounded(class_run):
    """disk_fill writes 7.9 MB files (just under the file-size limit) as fast as it can."""
    text = report_text(class_run.report("disk_fill"))
    written = [int(n) for n in re.findall(rf"{TOKEN} wrote (\d+) MB", text)]
    assert written and max(written) <= 64 + 250       # the limit, and 0.1 s of fast writing
    assert "bytes of files in its folder" in text


def test_no_process_survives_the_grading(class_run):
    assert not class_run.survivors


def test_other_submissions_are_unaffected(class_run, tmp_path):
    run = class_run
    assert run.class_after == run.class_before      # nothing in the class folder changed
    alone, _ = run_cli(["grade", "pocoloco", str(HONEST), "--out", str(tmp_path),
                        "--json", str(tmp_path / "alone.json")], run.mode, 120)
    assert alone.returncode == 0, alone.stderr[-2000:]
    solo = json.loads((tmp_path / "alone.json").read_text(encoding="utf-8"))
    in_class = run.results["honest_correct"]
    assert {t["number"]: t["score"] for t in in_class["tests"]} == \
        {t["number"]: t["score"] for t in solo["tests"]}
    assert automatic_score(in_class) > automatic_score(run.results["honest_empty"])


# ----------------------------------------------------------------------------- one file
@pytest.mark.parametrize("mode", ["sandbox", "fallback"])
@pytest.mark.parametrize("name", ["ref_proc", "kill_grader", "stop_grader", "symlink_ref"])
def test_one_attack_graded_alone_as_a_ta_would(name, mode, tmp_path):
    """`python -m graders grade pocoloco a5.py`: the attack's parent is the command itself."""
    _needs(mode)
    _clean_traces()
    folder = tmp_path / "submission"
    folder.mkdir()
    if name == "symlink_ref":
        (folder / "a5.py").symlink_to(REFERENCE)
    else:
        shutil.copy(ATTACKS / name / "a5.py", folder / "a5.py")
    done, seconds = run_cli(["grade", "pocoloco", str(folder / "a5.py"), "--out",
                             str(tmp_path / "out"), "--json", str(tmp_path / "r.json")],
                            mode, 120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert seconds < SECONDS_PER_SUBMISSION
    result = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert automatic_score(result) == 0
    text = report_text(tmp_path / "out")
    assert not [line for line in hidden_lines() if line in text]
    time.sleep(0.3)
    survivors = token_processes()
    _kill(survivors)
    assert not survivors


# ----------------------------------------------------------------------------- the sandbox
def run_program(source: str, tmp_path: Path, limits: Limits | None = None) -> Session:
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(source))
    workdir = fresh_run_folder([path])
    session = Session.start(workdir / "prog.py", workdir, limits=limits or Limits())
    while session.wait() is not None:
        session.answer("yes")
    session.close()
    return session


needs_sandbox = pytest.mark.skipif(not ISOLATED, reason="bubblewrap cannot run here")


@pytest.fixture(params=["forked", "own sandbox"])
def how_runs_start(request, monkeypatch):
    """Both ways a sandboxed run starts: forked from the grader's fork server (where the
    sandbox is set up by root) and in a sandbox of its own (elsewhere, and when turned off)."""
    if request.param == "forked" and not forkserver.enabled():
        pytest.skip("runs are forked only in a sandbox set up by root")
    if request.param != "forked":
        monkeypatch.setenv(forkserver.ENV, "off")
    return request.param


@needs_sandbox
def test_a_sandboxed_program_sees_only_the_system_and_its_own_folder(tmp_path, how_runs_start):
    other = fresh_run_folder([])                 # another run folder of the same grader
    session = run_program(f"""
        import os, sys
        print("kit", os.path.exists({str(KIT_ROOT)!r}))
        print("other", os.path.exists({str(other)!r}))
        print("home", os.path.exists({str(Path.home() / '.pyenv')!r}) and
              {str(Path.home())!r} not in sys.prefix)
        print("tmp", os.path.exists({str(tmp_path)!r}))
        print("writable", os.access(sys.prefix, os.W_OK), os.access("/usr", os.W_OK))
        print("uid", os.getuid() != 0)
        print("pid", os.getpid() < 10, os.path.exists("/proc/{os.getpid()}/cwd"))
        print("net", sorted(line.split(":")[0].strip()
                            for line in open("/proc/self/net/dev").readlines()[2:]))
        input("Ready? ")
        print("answered")
    """, tmp_path)
    text = session.transcript.text
    for expected in ("kit False", "other False", "home False", "tmp False",
                     "writable False False", "uid True", "pid True False", "net ['lo']",
                     "answered"):
        assert expected in text, text
    assert session.child.isolation.active
    assert session.child.forked == (how_runs_start == "forked")


@needs_sandbox
def test_rlimits_and_session_inside_the_sandbox(tmp_path, how_runs_start):
    session = run_program("""
        import os, resource
        for name in ("NPROC", "NOFILE", "AS", "FSIZE", "CPU", "CORE"):
            print(name, resource.getrlimit(getattr(resource, "RLIMIT_" + name))[0])
        # the session's leader is inside the sandbox (outside it, its id would read 0)
        print("own session", 0 < os.getsid(0) <= os.getpid(), os.isatty(0), os.isatty(1))
    """, tmp_path, Limits(processes=20, open_files=100, memory_mb=500, file_bytes=1000,
                          cpu_seconds=4))
    text = session.transcript.text
    for expected in ("NPROC 20", "NOFILE 100", f"AS {500 * 1024 * 1024}", "FSIZE 1000",
                     "CPU 5", "CORE 0", "own session True True True"):
        assert expected in text, text


@needs_sandbox
def test_nothing_started_inside_survives_the_run(tmp_path):
    """Below the boot file's guards: a process that double-forks and leaves its session ends
    with the sandbox's PID namespace when the run is closed."""
    isolation = sandbox.status()
    workdir = fresh_run_folder([])
    code = textwrap.dedent(f"""
        import os, sys, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c",
                         "import time; time.sleep(60)", "-".join(["{TOKEN}", "survivor"])])
            os._exit(0)
        print("forked", flush=True)
        time.sleep(60)
    """)
    python = pythons.student_python()
    command = sandbox.wrap([python, "-I", "-c", code], isolation, python=python,
                           workdir=str(workdir))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    marker = f"{TOKEN}-survivor"
    try:
        assert process.stdout.readline().strip() == "forked"
        deadline = time.monotonic() + 10
        while not token_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert token_processes(marker)          # the daemon really runs
        os.killpg(process.pid, signal.SIGKILL)  # what Child.close does to the bwrap it started
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while token_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = token_processes(marker)
    finally:
        _kill(token_processes(marker))
        process.kill()
    assert not survivors


@needs_sandbox
def test_processes_are_limited_by_the_kernel(tmp_path):
    workdir = fresh_run_folder([])
    isolation = sandbox.status()
    if not isolation.as_root and os.geteuid() == 0:
        pytest.skip("in a user namespace made by root the program is still root to the "
                    "kernel, which exempts root from the process limit")
    code = textwrap.dedent("""
        import os, resource, time
        uid = int(os.environ.get("KIT_UID", "-1"))
        if uid >= 0:
            os.setgroups([]); os.setgid(uid); os.setuid(uid)
        resource.setrlimit(resource.RLIMIT_NPROC, (8, 8))
        count = 0
        try:
            for _ in range(50):
                if os.fork() == 0:
                    time.sleep(5)
                    os._exit(0)
                count += 1
        except OSError:
            pass
        print("forked", count)
    """)
    python = pythons.student_python()
    command = sandbox.wrap([python, "-I", "-c", code], isolation, python=python,
                           workdir=str(workdir))
    env = {"PATH": "/usr/bin:/bin", "KIT_UID": str(isolation.uid if isolation.as_root else -1)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    count = int(done.stdout.split()[-1])
    assert count < 8, done.stdout + done.stderr


@needs_sandbox
def test_the_pty_and_the_side_channel_work_across_the_boundary(tmp_path, how_runs_start):
    limits = Limits(wall_seconds=8)
    path = tmp_path / "prog.py"
    path.write_text("import random\nname = input('Name? ')\n"
                    "print(name, [random.randint(1, 6) for _ in range(3)])\n")
    workdir = fresh_run_folder([path])
    child = Child(workdir / "prog.py", workdir=workdir, limits=limits).start()
    event = child.next_event()
    assert event["ev"] == "input" and event["prompt"] == "Name? "
    child.send_line("Quillon")
    while child.next_event() is not None:
        pass
    assert child.outcome["status"] == "finished"
    text = "".join(e.text for e in child.log if e.kind == "out")
    assert "Quillon [" in text
    assert sum(1 for e in child.log if e.kind == "draw") == 3
    assert child.isolation.active


# ----------------------------------------------------------------------------- the fallback
def test_without_bubblewrap_the_fallback_says_why(monkeypatch):
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: None)
    sandbox._status.cache_clear()
    try:
        isolation = sandbox.status()
        assert not isolation.active and "not installed" in isolation.label
        monkeypatch.setenv(sandbox.REQUIRE_ENV, "1")
        with pytest.raises(sandbox.SandboxRequired, match="not installed"):
            sandbox.ensure()
    finally:
        sandbox._status.cache_clear()


def test_a_bwrap_that_cannot_run_falls_back(monkeypatch, tmp_path):
    broken = tmp_path / "bwrap"
    broken.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                      "exit 1\n")
    broken.chmod(0o755)
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: str(broken))
    sandbox._status.cache_clear()
    try:
        isolation = sandbox.status()
        assert not isolation.active
        assert isolation.label.startswith("none: bubblewrap cannot run here")
        assert "No permissions to create new namespace" in isolation.label
    finally:
        sandbox._status.cache_clear()


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_require_sandbox_makes_the_fallback_an_error(how, tmp_path):
    args = ["grade", "pocoloco", str(TEMPLATE), "--out", str(tmp_path)]
    extra = {}
    if how == "flag":
        args.append("--require-sandbox")
    else:
        extra[sandbox.REQUIRE_ENV] = "1"
    done, _ = run_cli(args, "fallback", 60, extra)
    assert done.returncode == 2
    assert "the sandbox is required" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.rglob("results.json"))


@needs_sandbox
def test_require_sandbox_grades_where_bubblewrap_works(tmp_path):
    done, _ = run_cli(["grade", "pocoloco", str(TEMPLATE), "--out", str(tmp_path),
                       "--json", str(tmp_path / "r.json"), "--require-sandbox"], "sandbox", 60)
    assert done.returncode == 0, done.stderr
    assert "NOT isolated" not in done.stderr
    result = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert result["extra_data"]["isolation"] == "bubblewrap"
