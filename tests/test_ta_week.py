"""A TA's grading week through the command line: a Canvas-named class folder graded, resumed,
regraded in part, changed by overrides and a late policy, and exported for Canvas."""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from graders.engine.course import classbook
from graders.engine.judge.rubric import Rubric

from conftest import KIT_ROOT

DEMO = KIT_ROOT / "demo_submissions" / "pocoloco"
CLASS = {                      # Canvas file name in the class folder <- demo submission
    "smithjane_12345_67890_a5.py": "smithjane_12345_67890_a5.py",
    "leekevin_LATE_23456_78901_a5-1.py": "leekevin_LATE_23456_78901_a5-1.py",
    "wongalex_78901_23456_a5.py": "wongalex_78901_23456_a5.py",
}
NO_ID = "doejohn"              # a folder per student: no Canvas user id


def _cli(*args, cwd: Path):
    return subprocess.run([sys.executable, "-m", "graders", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def _make_class(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name, source in CLASS.items():
        shutil.copy(DEMO / source, folder / name)
    (folder / NO_ID).mkdir()
    shutil.copy(DEMO / "brownsam_56789_01234_a5.py", folder / NO_ID / "a5.py")
    return folder


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))


def _gradebook(out: Path) -> dict[str, dict[str, str]]:
    rows = _rows(out / "gradebook.csv")
    return {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}


def _result(out: Path, student: str, name: str = "results.json") -> dict:
    return json.loads((out / student / name).read_text(encoding="utf-8"))


def _snapshot(kit: Path, source: Path = KIT_ROOT) -> Path:
    """A copy of the kit's code and data to grade with: its grader hash cannot change while a
    test runs (the project's own files may be edited meanwhile). The compiled modules come
    along (copied with their times, so they still match their sources: each command run from
    the copy would otherwise compile the kit again); the lent packages' bytecode does not."""
    for part in ("graders", "assignments", "student_template"):
        shutil.copytree(source / part, kit / part, ignore=shutil.ignore_patterns("lent-*"))
    return kit


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return _snapshot(tmp_path_factory.mktemp("kit") / "kit")


@pytest.fixture(scope="module")
def graded(tmp_path_factory, kit):
    """One class graded once: (class folder, reports root, the run's output)."""
    base = tmp_path_factory.mktemp("week")
    folder = _make_class(base / "class")
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(base / "reports"),
                "--jobs", "2", cwd=kit)
    assert done.returncode == 0, done.stderr
    return folder, base / "reports", done


def _copy(graded, tmp_path: Path, class_too: bool = False) -> tuple[Path, Path]:
    """A copy of the graded reports (and of the class folder) for a test that changes them."""
    folder, reports, _ = graded
    shutil.copytree(reports, tmp_path / "reports")
    if class_too:
        # the copied reports belong to the copied class folder (as if both had been moved)
        folder = Path(shutil.copytree(folder, tmp_path / "class"))
        state = tmp_path / "reports" / "pocoloco" / classbook.STATE
        state.write_text(json.dumps({**json.loads(state.read_text()),
                                     "folder": str(folder.resolve())}))
    return folder, tmp_path / "reports"


# ---------------------------------------------------------------------- grading and progress
def test_every_class_file_and_one_progress_line_per_student(graded):
    _, reports, done = graded
    out = reports / "pocoloco"
    for name in ("gradebook.csv", "class_report.md", "needs_review.md", "index.html",
                 "similarity.md", "canvas.csv", "overrides.toml"):
        assert (out / name).is_file(), name
    progress = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 4                       # no TTY: one line per finished student
    assert [line.split("]")[0] for line in progress] == ["[1/4", "[2/4", "[3/4", "[4/4"]
    assert {line.split()[1].rstrip(":") for line in progress} == {
        "smithjane", "leekevin", "wongalex", NO_ID}
    assert "\r" not in done.stdout
    for student in ("smithjane", "leekevin", "wongalex", NO_ID):
        folder = out / student
        assert (folder / ".graded").is_file() and (folder / "automatic.json").is_file()
        assert _result(out, student)["score"] == _result(out, student, "automatic.json")["score"]
    header = (out / "overrides.toml").read_text()
    assert header.startswith("# TA overrides for PocoLoco") and "confirmed = " in header


def test_live_progress_line_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    progress = classbook.Progress(2, screen)
    progress.start("smithjane")
    progress.finish("smithjane", "24/24")
    progress.start("leekevin")
    progress.close()
    text = screen.getvalue()
    assert "\n" not in text and text.count("\r") >= 3
    assert "[0/2]" in text and "grading smithjane" in text
    assert "[1/2]" in text and "left" in text and "grading leekevin" in text


# ---------------------------------------------------------------------- Canvas and LATE
def test_canvas_csv_has_canvas_columns_user_ids_and_lists_a_student_without_id(graded):
    _, reports, done = graded
    out = reports / "pocoloco"
    rows = _rows(out / "canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "PocoLoco"]
    assert rows[1][0].strip() == "Points Possible" and rows[1][-1] == "24"
    ids = {row[1]: row for row in rows[2:]}
    assert set(ids) == {"12345", "23456", "78901"}
    assert ids["12345"][0] == "smithjane"
    assert float(ids["78901"][-1]) == _result(out, "wongalex")["score"]
    assert NO_ID not in (out / "canvas.csv").read_text()
    assert NO_ID in (out / "class_report.md").read_text().split("## Not in canvas.csv")[1]
    assert f"Not in canvas.csv: {NO_ID}" in done.stdout


def test_late_flag_is_kept_in_the_class_files(graded):
    _, reports, _ = graded
    out = reports / "pocoloco"
    book = _gradebook(out)
    assert book["leekevin"]["late"] == "LATE" and book["smithjane"]["late"] == ""
    assert "Late: 1 (leekevin)" in (out / "class_report.md").read_text()
    row = (out / "index.html").read_text().split('data-name="leekevin">')[1].split("</tr>")[0]
    assert "LATE" in row


# ---------------------------------------------------------------------- resume, force, only
def test_a_second_run_skips_unchanged_students_and_force_regrades_them(graded, tmp_path, kit):
    folder, reports = _copy(graded, tmp_path)
    stamp = (reports / "pocoloco" / "smithjane" / ".graded").read_text()
    again = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert again.returncode == 0, again.stderr
    assert "Skipping 4 of 4 submissions" in again.stdout
    assert not [line for line in again.stdout.splitlines() if line.startswith("[")]
    assert (reports / "pocoloco" / "smithjane" / ".graded").read_text() == stamp
    forced = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), "--force",
                  cwd=kit)
    assert forced.returncode == 0, forced.stderr
    assert "Skipping" not in forced.stdout
    assert len([line for line in forced.stdout.splitlines() if line.startswith("[")]) == 4
    assert (reports / "pocoloco" / "smithjane" / ".graded").read_text() != stamp


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path, kit):
    folder = _make_class(tmp_path / "class")
    reports = tmp_path / "reports"
    run = subprocess.Popen([sys.executable, "-m", "graders", "grade-all", "pocoloco",
                            str(folder), "--out", str(reports), "--jobs", "1"],
                           cwd=kit, stdout=subprocess.PIPE, text=True,
                           start_new_session=True)
    first = run.stdout.readline()
    while first and not first.startswith("[1/"):
        first = run.stdout.readline()
    assert first.startswith("[1/4]"), first
    os.kill(run.pid, signal.SIGKILL)                 # the TA's laptop dies mid-run
    run.wait()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:               # the worker ends once its student is done
        try:
            os.killpg(run.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    out = reports / "pocoloco"
    assert not (out / "gradebook.csv").exists()
    finished = sorted(p.parent.name for p in out.glob("*/.graded"))
    assert 1 <= len(finished) < 4
    # a result cut short (no .graded marker) is never taken for a finished one
    cut = finished[-1]
    (out / cut / ".graded").unlink()
    (out / cut / "automatic.json").write_text('{"score": 2')
    # the class files rebuilt now name every student of the class: those with no result
    # (the one cut short too) as not graded yet, none silently missing
    report = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    assert report.returncode == 0, report.stderr
    assert set(_gradebook(out)) == {"smithjane", "leekevin", "wongalex", NO_ID}
    left_out = report.stdout.split("Not in canvas.csv: ")[1].splitlines()[0]
    assert f"{cut} (its stored result could not be read (grade-all --only {cut} grades it " \
        "again))" in left_out, report.stdout
    for student in {"smithjane", "leekevin", "wongalex", NO_ID} - set(finished):
        assert f"{student} (not graded yet: a grade-all without --only grades it)" \
            in left_out, report.stdout
    again = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert again.returncode == 0, again.stderr
    skipped = len(finished) - 1
    assert (f"Skipping {skipped} of 4 submissions" in again.stdout) == bool(skipped)
    graded_now = [line.split()[1].rstrip(":") for line in again.stdout.splitlines()
                  if line.startswith("[")]
    assert cut in graded_now and len(graded_now) == 4 - skipped
    assert set(_gradebook(out)) == {"smithjane", "leekevin", "wongalex", NO_ID}
    assert _result(out, cut, "automatic.json")["max_score"] == 24


def _slow_class(folder: Path, loops: int = 8_000_000) -> Path:
    """smithjane, then zzslow: a correct program that thinks before each answer (``loops``
    steps), several seconds of grading (a sleep would not do: the grader's runs skip a
    program's sleeps)."""
    folder.mkdir()
    shutil.copy(DEMO / "smithjane_12345_67890_a5.py", folder / "smithjane_12345_67890_a5.py")
    slow = ("import builtins\n_ask = builtins.input\n\n\ndef _slow(prompt=''):\n"
            f"    for _ in range({loops}):\n        pass\n    return _ask(prompt)\n\n\n"
            "builtins.input = _slow\n")
    (folder / "zzslow_99999_99999_a5.py").write_text(
        slow + (DEMO / "garciamaria_45678_90123_a5.py").read_text())
    return folder


def _grading_zzslow(folder: Path, reports: Path, kit: Path, preexec_fn=None,
                    wait: float = 1.0) -> subprocess.Popen:
    """grade-all of _slow_class, started and now grading zzslow (its own process group)."""
    run = subprocess.Popen([sys.executable, "-m", "graders", "grade-all", "pocoloco",
                            str(folder), "--out", str(reports), "--jobs", "1"],
                           cwd=kit, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True, preexec_fn=preexec_fn)
    line = run.stdout.readline()
    while line and not line.startswith("[1/"):
        line = run.stdout.readline()
    assert line.startswith("[1/"), line
    time.sleep(wait)
    return run


def test_ctrl_c_prints_only_the_tidy_line(tmp_path, kit):
    """Ctrl-C on a terminal reaches grade-all and its workers (one process group): the TA
    sees one line saying what is kept, no traceback from a worker or from pytest."""
    run = _grading_zzslow(_slow_class(tmp_path / "class"), tmp_path / "reports", kit)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, out + err
    assert err.strip().splitlines() == [
        "Interrupted after 1 of 2: every finished result is kept; run the same command "
        "again to grade the rest."], err
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert (tmp_path / "reports" / "pocoloco" / "smithjane" / ".graded").is_file()


def _worker_of(pid: int) -> int:
    """The pid of grade-all's worker process (``graders _worker``)."""
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"_worker" in command:
            return int(entry)
    raise AssertionError(f"grade-all (pid {pid}) has no worker")


def test_a_killed_worker_costs_only_the_student_it_was_grading(tmp_path, kit):
    """The system kills grade-all's worker (out of memory) while it grades zzslow: zzslow is
    listed as the grader's failure, saying why, and a new worker grades the next student."""
    folder = _slow_class(tmp_path / "class")
    shutil.copy(DEMO / "wongalex_78901_23456_a5.py", folder / "zzzwong_11111_22222_a5.py")
    run = _grading_zzslow(folder, tmp_path / "reports", kit, wait=0.5)
    os.kill(_worker_of(run.pid), signal.SIGKILL)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 1, out + err
    assert "[2/3] zzslow: the grader failed (its worker process was killed (signal 9; out of " \
        "memory?) before it was done)" in out, out
    assert "[3/3] zzzwong: " in out and "Graded 2 of 3 submission(s)" in out, out
    assert (tmp_path / "reports" / "pocoloco" / "zzzwong" / ".graded").is_file()
    assert err.strip() == "The grader failed on: zzslow (listed in needs_review.md).", err
    review = (tmp_path / "reports" / "pocoloco" / "needs_review.md").read_text()
    assert "- **zzslow** (0): the grader failed on it: its worker process was killed " \
        "(signal 9; out of memory?) before it was done" in review, review


def _ignore_ctrl_c():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_grade_all_started_with_ctrl_c_ignored_grades_everyone_through_one(tmp_path, kit):
    """grade-all run by nohup or in the background of a script starts with Ctrl-C ignored;
    a SIGINT sent to its process group then stops nothing: not grade-all, and not a worker
    (which once stopped alone, leaving its student listed as "the grader failed on it")."""
    # zzslow thinks an eighth as long here: its worker is grading it (or about to) when
    # smithjane's line is out, and its whole grading must then run
    run = _grading_zzslow(_slow_class(tmp_path / "class", loops=1_000_000),
                          tmp_path / "reports", kit, preexec_fn=_ignore_ctrl_c, wait=0.0)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, out + err
    assert "Interrupted" not in err and "failed" not in out, out + err
    assert "[2/2] zzslow: 24/24" in out, out


def test_a_second_grade_all_on_the_same_reports_is_refused_naming_the_first(tmp_path, kit):
    folder, reports = _slow_class(tmp_path / "class"), tmp_path / "reports"
    run = _grading_zzslow(folder, reports, kit)
    try:
        second = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
        report = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    finally:
        os.killpg(run.pid, signal.SIGINT)
        run.communicate(timeout=120)
    assert second.returncode == 2, second.stdout + second.stderr
    assert f"is in use by grade-all (pid {run.pid} on {socket.gethostname()}, started " \
        in second.stderr
    assert "[1/" not in second.stdout and "Reports of" not in second.stdout
    assert report.returncode == 2 and f"pid {run.pid}" in report.stderr
    # released when the first ended (the quick student alone: zzslow takes seconds of CPU)
    again = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports),
                 "--only", "smithjane", cwd=kit)
    assert again.returncode == 0, again.stderr
    assert not (reports / "pocoloco" / classbook.LOCK_OWNER).exists()
    # zzslow, never graded (the first run was stopped), is said to be so, not a failure of
    # the grader, and the class figures are smithjane's alone
    assert "Not in canvas.csv: zzslow (not graded yet: a grade-all without --only grades it)" \
        in again.stdout and "failed" not in again.stdout, again.stdout
    assert "Not regraded" not in again.stdout, again.stdout
    summary = (reports / "pocoloco" / "class_report.md").read_text(encoding="utf-8")
    assert "Total: mean 24.00 / 24, median 24, min 24, max 24\n" \
        "No result, left out of these figures: 1 (zzslow)\n" in summary, summary
    assert "| `setup` | 1 | 1.00 | 1/1 |" in summary, summary
    page = (reports / "pocoloco" / "index.html").read_text()
    assert 'not graded yet' in page and "(1 without a result, left out of the figures)" in page
    assert "<b>24.00</b><span>mean</span>" in page


def test_only_regrades_one_student_and_updates_the_class_files(graded, tmp_path, kit):
    folder, reports = _copy(graded, tmp_path, class_too=True)
    out = reports / "pocoloco"
    before = _gradebook(out)
    assert float(before["wongalex"]["score"]) < 24
    smith = (out / "smithjane" / "automatic.json").stat().st_mtime_ns
    # wongalex fixes the typo: the submission now is a correct program
    shutil.copy(DEMO / "garciamaria_45678_90123_a5.py", folder / "wongalex_78901_23456_a5.py")
    # and smithjane resubmits too (a comment more), but only wongalex is asked for
    smith_file = folder / "smithjane_12345_67890_a5.py"
    smith_file.write_text(smith_file.read_text() + "# resubmitted\n")
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports),
                "--only", "wongalex", cwd=kit)
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 1 and "wongalex: 24/24" in progress[0]
    assert "Not regraded (--only), although their submission or the grader changed: " \
        "smithjane; run grade-all without --only to grade them." in done.stdout, done.stdout
    assert (out / "smithjane" / "automatic.json").stat().st_mtime_ns == smith
    assert float(_gradebook(out)["wongalex"]["score"]) == 24
    assert [row for row in _rows(out / "canvas.csv") if row[1] == "78901"][0][-1] == "24"
    assert "wongalex" not in (out / "needs_review.md").read_text().split("## Review")[0]
    page = (out / "index.html").read_text()
    assert "24 / 24" in page.split("wongalex</a>")[1][:600]
    unknown = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports),
                   "--only", "nobody", cwd=kit)
    assert unknown.returncode == 2 and "nobody" in unknown.stderr


def test_a_vanished_submission_is_set_aside_and_dropped_from_the_class_files(
        graded, tmp_path, kit):
    folder, reports = _copy(graded, tmp_path, class_too=True)
    out = reports / "pocoloco"
    (folder / "wongalex_78901_23456_a5.py").unlink()
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    assert "Skipping 3 of 3" in done.stdout
    assert "Set aside 1 result(s)" in done.stdout and "wongalex" in done.stdout
    assert not (out / "wongalex").exists()
    assert (out / ".vanished" / "wongalex" / "automatic.json").is_file()   # not deleted
    assert set(_gradebook(out)) == {"smithjane", "leekevin", NO_ID}
    assert "78901" not in (out / "canvas.csv").read_text()
    assert "wongalex" not in (out / "index.html").read_text()
    assert "wongalex" not in (out / "needs_review.md").read_text()
    report = (out / "class_report.md").read_text()
    assert "(3 submissions)" in report
    assert "wongalex" in report.split("## Set aside")[1]
    once_more = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert "Set aside" not in once_more.stdout                  # listed once


# ---------------------------------------------------------------------- whose reports
def _cli_from(folder: Path, kit: Path, *args):
    """The command line run from a TA's own folder (not the kit's), as an installed kit is."""
    env = dict(os.environ, PYTHONPATH=str(kit))
    return subprocess.run([sys.executable, "-m", "graders", *args], capture_output=True,
                          text=True, cwd=folder, env=env, timeout=300)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_reports_belong_to_the_class_folder_they_were_built_from(graded, tmp_path, kit):
    """grade-all on a second class folder with the first one's reports folder (the default,
    run from the TA's folder) is refused, with both folders named, until --replace; then the
    first class's reports are moved aside whole, never deleted."""
    first, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    before = _files(out)
    other = tmp_path / "Classe Été 2026" / "Devoir 5 — PocoLoco"
    other.mkdir(parents=True)
    shutil.copy(DEMO / "garciamaria_45678_90123_a5.py", other / "garciamaria_45678_90123_a5.py")
    refused = _cli_from(tmp_path, kit, "grade-all", "pocoloco", str(other))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert str(first.resolve()) in refused.stderr and str(other) in refused.stderr
    assert "--replace" in refused.stderr and "[1/" not in refused.stdout
    assert _files(out) == before                         # nothing moved, nothing rewritten
    replaced = _cli_from(tmp_path, kit, "grade-all", "pocoloco", str(other), "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert replaced.stdout.splitlines()[0] == f"Reports of {other} go to {out.resolve()}/"
    assert set(_gradebook(out)) == {"garciamaria"}
    assert [row[1] for row in _rows(out / "canvas.csv")[2:]] == ["45678"]
    (aside,) = (out / ".replaced").iterdir()
    assert _files(aside)["smithjane/automatic.json"] == before["smithjane/automatic.json"]
    assert "overrides.toml" in _files(aside) and not (out / ".vanished").exists()
    assert not (kit / "reports").exists()
    back = _cli_from(tmp_path, kit, "grade-all", "pocoloco", str(first))
    assert back.returncode == 2 and str(other) in back.stderr


def test_a_single_grade_never_touches_a_class(graded, tmp_path, kit):
    """`grade` of one file, run from the folder that holds a class's reports: its report goes
    to reports/single/, said in its first line; the class's files are left as they were and
    `report` still finds only the class's students."""
    _, reports = _copy(graded, tmp_path)
    before = _files(reports)
    shutil.copy(DEMO / "garciamaria_45678_90123_a5.py", tmp_path / "a5.py")
    done = _cli_from(tmp_path, kit, "grade", "pocoloco", "a5.py")
    assert done.returncode == 0, done.stderr
    single = Path("reports") / "single" / "pocoloco" / "a5"
    assert done.stdout.splitlines()[0] == f"Reports go to {single}/"
    assert (tmp_path / single / "results.json").is_file()
    assert {k: v for k, v in _files(reports).items() if not k.startswith("single")} == before
    into = _cli_from(tmp_path, kit, "grade", "pocoloco", "a5.py", "--out", "reports")
    assert into.returncode == 2 and "single grade does not write there" in into.stderr
    report = _cli_from(tmp_path, kit, "report", "pocoloco")
    assert report.returncode == 0, report.stderr
    assert report.stdout.splitlines()[0].startswith(
        f"Rebuilding the class files in {(reports / 'pocoloco').resolve()}/")
    assert set(_gradebook(reports / "pocoloco")) == {"smithjane", "leekevin", "wongalex", NO_ID}
    assert "a5" not in (reports / "pocoloco" / "canvas.csv").read_text()
    assert not (kit / "reports").exists()


# ---------------------------------------------------------------------- overrides
def test_an_override_changes_the_score_shows_comment_and_is_undone(graded, tmp_path, kit):
    _, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    automatic = _result(out, "wongalex", "automatic.json")
    scores = {t["number"]: t["score"] for t in automatic["tests"]}
    review = ("ui", "functions", "readability")
    item = next(i for i, s in scores.items() if s == 0 and i not in review)
    original = (out / "overrides.toml").read_text()
    (out / "overrides.toml").write_text(original + f'\n[wongalex]\n{item} = 1\n'
                                        f'comment = "Checked by hand: right."\n')
    for _ in range(2):                                           # applying twice: same score
        done = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
        assert done.returncode == 0, done.stderr
        assert "nothing was graded" in done.stdout
        result = _result(out, "wongalex")
        assert result["score"] == automatic["score"] + 1
    assert result["extra_data"]["overrides"][item] == {
        "score": 1.0, "automatic": 0.0, "comment": "Checked by hand: right."}
    feedback = (out / "wongalex" / "feedback.md").read_text()
    assert f"**Score: {automatic['score'] + 1:g} / 24**" in feedback
    assert "Checked by hand: right." in feedback
    assert "the grader's automatic score: 0 / 1" in feedback
    page = (out / "wongalex" / "feedback.html").read_text()
    assert "Checked by hand: right." in page and "automatic score: 0 / 1" in page
    assert float(_gradebook(out)["wongalex"]["score"]) == automatic["score"] + 1
    assert _gradebook(out)["wongalex"]["overridden"] == item
    assert _result(out, "wongalex", "automatic.json") == automatic          # untouched
    (out / "overrides.toml").write_text(original)                # the TA removes it
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    assert _result(out, "wongalex")["score"] == automatic["score"]
    assert "Checked by hand" not in (out / "wongalex" / "feedback.md").read_text()


def test_an_override_stays_with_its_student_when_another_takes_the_name(graded, tmp_path,
                                                                      kit):
    """A second Jane Smith arrives: both become smithjane_<user id>. The TA's [smithjane] was
    written for user 12345: it follows her (said in a warning), and never lands on the
    newcomer; a table for someone who left is not applied, and says so."""
    folder, reports = _copy(graded, tmp_path, class_too=True)
    out = reports / "pocoloco"
    before = _result(out, "smithjane")["score"]
    (out / "overrides.toml").write_text((out / "overrides.toml").read_text()
                                        + '\n[smithjane]\nui = 0\n')
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    lowered = _result(out, "smithjane")["score"]
    assert lowered < before
    shutil.copy(DEMO / "smithjane_12345_67890_a5.py", folder / "smithjane_11125_20032_a5.py")
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    assert _result(out, "smithjane_12345")["score"] == lowered           # hers, still
    assert _result(out, "smithjane_11125")["score"] == before            # not the newcomer's
    assert "[smithjane] (user 12345) is graded as smithjane_12345 now" in done.stderr
    (folder / "smithjane_12345_67890_a5.py").unlink()                    # she withdraws
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    assert _result(out, "smithjane")["score"] == before                  # the newcomer
    assert "[smithjane] was written for user 12345, who has no submission any more " \
           "(smithjane is now user 11125)" in done.stderr


def test_overrides_remember_the_code_they_were_set_for(graded, tmp_path, kit):
    """wongalex resubmits different code after the TA set an item and confirmed two review
    items: the points stay, marked "set for an earlier version" for the TA (needs_review.md,
    the class page) and the student; the old confirmations no longer count. A new upload of
    the same code is the same version; changing the table sets it for the new code."""
    folder, reports = _copy(graded, tmp_path, class_too=True)
    out = reports / "pocoloco"
    automatic = _result(out, "wongalex", "automatic.json")
    item = next(t["number"] for t in automatic["tests"]
                if t["score"] == t["max_score"] == 1)
    table = f'\n[wongalex]\n{item} = 0\nconfirmed = ["ui", "functions"]\n'
    (out / "overrides.toml").write_text((out / "overrides.toml").read_text() + table)
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    assert _result(out, "wongalex")["extra_data"]["provisional"] == ["readability"]
    code = (folder / "wongalex_78901_23456_a5.py").read_bytes()
    (folder / "wongalex_78901_23457_a5.py").write_bytes(code)     # the same code again
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    assert not _result(out, "wongalex")["extra_data"]["overrides_for_earlier_version"]
    shutil.copy(DEMO / "garciamaria_45678_90123_a5.py", folder / "wongalex_78901_23458_a5.py")
    done = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    result = _result(out, "wongalex")
    assert {t["number"]: t["score"] for t in result["tests"]}[item] == 0          # kept
    assert _result(out, "wongalex", "automatic.json")["score"] == 24
    assert result["extra_data"]["provisional"] == ["ui", "functions", "readability"]
    review = (out / "needs_review.md").read_text()
    line = next(x for x in review.splitlines() if x.startswith("- **wongalex**"))
    assert f"set for an earlier version ({item}, confirmed functions, confirmed ui)" in line
    assert "**wongalex**: ui, functions, readability" in review
    feedback = (out / "wongalex" / "feedback.md").read_text()
    assert f"set by a TA for an earlier version (automatic: 1)" in feedback
    assert "made for an earlier version of your submission" in feedback
    assert "A TA confirmed this score." not in feedback
    page = (out / "index.html").read_text().split('data-name="wongalex">')[1].split("</tr>")[0]
    assert f"set by a TA for an earlier version: {item}" in page
    # the TA looks at the new code and keeps the table: any change sets it for this version
    (out / "overrides.toml").write_text((out / "overrides.toml").read_text().replace(
        table, table + 'comment = "Checked again."\n'))
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    result = _result(out, "wongalex")
    assert not result["extra_data"]["overrides_for_earlier_version"]
    assert result["extra_data"]["provisional"] == ["readability"]
    assert "earlier version" not in (out / "wongalex" / "feedback.md").read_text()


def test_review_items_are_provisional_until_confirmed(graded, tmp_path, kit):
    _, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    review = (out / "needs_review.md").read_text().split("## Review items still provisional")
    assert "**smithjane**: ui, functions, readability" in review[1]
    assert "(provisional: a TA confirms this)" in (out / "smithjane" / "feedback.md").read_text()
    with open(out / "overrides.toml", "a") as handle:
        handle.write('\n[smithjane]\nconfirmed = ["ui", "functions"]\n')
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    review = (out / "needs_review.md").read_text().split("## Review items still provisional")
    assert "**smithjane**: readability" in review[1]
    feedback = (out / "smithjane" / "feedback.md").read_text()
    assert "`ui` User interface quality | 3 / 3 | ✔ (confirmed by a TA)" in feedback
    assert "A TA confirmed this score." in feedback
    assert _gradebook(out)["smithjane"]["provisional"] == "readability"
    assert _result(out, "smithjane")["score"] == _result(out, "smithjane",
                                                         "automatic.json")["score"]


def test_unknown_names_warn_and_a_malformed_file_names_its_line(graded, tmp_path, kit):
    _, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    original = (out / "overrides.toml").read_text()
    (out / "overrides.toml").write_text(original + '\n[nobody]\nui = 1\n\n[smithjane]\n'
                                        'tiebreak = 1\nconfirmed = ["uii"]\nui = 7\n')
    done = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    assert "[nobody] is not a student of this class" in done.stderr
    assert "[smithjane] tiebreak: no rubric item" in done.stderr
    assert "no review item 'uii'" in done.stderr
    assert "ui = 7: points must be a number from 0 to 3" in done.stderr
    assert "[nobody]" in (out / "needs_review.md").read_text()
    (out / "overrides.toml").write_text(original + '\n[smithjane]\nui = \n')
    lines = (out / "overrides.toml").read_text().splitlines()
    broken = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    assert broken.returncode == 2
    assert f"overrides.toml: line {len(lines)}" in broken.stderr and "ui =" in broken.stderr
    folder = graded[0]
    stopped = _cli("grade-all", "pocoloco", str(folder), "--out", str(reports), "--force",
                   cwd=kit)
    assert stopped.returncode == 2 and f"line {len(lines)}" in stopped.stderr
    assert "[1/" not in stopped.stdout                           # nothing was graded


# ---------------------------------------------------------------------- late policy
def _kit_with_late_policy(tmp_path: Path, policy: str) -> Path:
    """A copy of the kit whose PocoLoco rubric has a late policy (the real rubric has none)."""
    kit = _snapshot(tmp_path / "late-kit")
    with open(kit / "assignments" / "pocoloco" / "rubric.toml", "a") as handle:
        handle.write(f"\n[late]\n{policy}\n")
    return kit


def test_a_flat_late_policy_is_its_own_line(graded, tmp_path):
    _, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    kit = _kit_with_late_policy(tmp_path, 'policy = "flat"\ndeduction = 10')
    done = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    assert done.returncode == 0, done.stderr
    automatic = _result(out, "leekevin", "automatic.json")["score"]
    result = _result(out, "leekevin")
    assert result["score"] == round(automatic - 2.4, 2)
    assert result["extra_data"]["late_deduction"] == 2.4
    feedback = (out / "leekevin" / "feedback.md").read_text()
    assert "Late: -2.4 (10 % late deduction)" in feedback
    assert "Late: -2.4" in (out / "leekevin" / "feedback.html").read_text()
    assert [r for r in _rows(out / "canvas.csv") if r[1] == "23456"][0][-1] == \
        f"{automatic - 2.4:g}"
    assert _gradebook(out)["leekevin"]["late_deduction"] == "2.4"
    assert _result(out, "smithjane")["score"] == _result(out, "smithjane",
                                                         "automatic.json")["score"]
    with open(out / "overrides.toml", "a") as handle:            # an extension: not late
        handle.write("\n[leekevin]\nlate = false\n")
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    assert _result(out, "leekevin")["score"] == automatic
    assert "Late:" not in (out / "leekevin" / "feedback.md").read_text()


def test_a_per_day_late_policy_needs_the_days(graded, tmp_path):
    _, reports = _copy(graded, tmp_path)
    out = reports / "pocoloco"
    kit = _kit_with_late_policy(tmp_path, 'policy = "per-day"\ndeduction = 10')
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    automatic = _result(out, "leekevin", "automatic.json")["score"]
    assert _result(out, "leekevin")["score"] == automatic              # days unknown
    assert "set late_days in overrides.toml" in (out / "needs_review.md").read_text()
    # not exported with a score that is not final; listed, and the student is told
    assert "23456" not in [row[1] for row in _rows(out / "canvas.csv")]
    left_out = (out / "class_report.md").read_text().split("## Not in canvas.csv")[1]
    assert "leekevin (LATE, but how many days late is not set" in left_out
    feedback = (out / "leekevin" / "feedback.md").read_text()
    assert ("Late: the late deduction (10 % a day) is not applied yet: a TA has still to set "
            "how many days late this was, and the score will go down then.") in feedback
    with open(out / "overrides.toml", "a") as handle:
        handle.write("\n[leekevin]\nlate_days = 2\n")
    assert _cli("report", "pocoloco", "--out", str(reports), cwd=kit).returncode == 0
    assert _result(out, "leekevin")["score"] == round(automatic - 4.8, 2)
    assert "Late: -4.8 (2 days × 10 % late deduction)" in \
        (out / "leekevin" / "feedback.md").read_text()
    assert [r for r in _rows(out / "canvas.csv") if r[1] == "23456"][0][-1] == \
        f"{automatic - 4.8:g}"


def test_a_bad_late_policy_is_an_error(graded, tmp_path):
    _, reports = _copy(graded, tmp_path)
    kit = _kit_with_late_policy(tmp_path, 'policy = "weekly"\ndeduction = 10')
    done = _cli("report", "pocoloco", "--out", str(reports), cwd=kit)
    assert done.returncode == 2 and "[late] policy" in done.stderr


# ---------------------------------------------------------------------- the pieces
def test_grader_hash_ignores_the_late_policy_but_not_the_items(tmp_path, monkeypatch):
    kit = _kit_with_late_policy(tmp_path, 'policy = "flat"\ndeduction = 10')
    monkeypatch.setattr(classbook, "KIT_ROOT", kit)
    monkeypatch.setattr(classbook, "DATA_ROOT", kit)      # where the rubric is read
    with_policy = classbook.grader_hash("pocoloco")
    rubric = kit / "assignments" / "pocoloco" / "rubric.toml"
    rubric.write_text(rubric.read_text().split("\n[late]")[0])
    assert classbook.grader_hash("pocoloco") == with_policy
    rubric.write_text(rubric.read_text().replace("points = 2", "points = 3", 1))
    assert classbook.grader_hash("pocoloco") != with_policy


def test_overrides_of_several_kinds(tmp_path):
    rubric = Rubric.load("pocoloco")
    path = tmp_path / "overrides.toml"
    path.write_text('[ann]\nchips = { points = 0.5, comment = "half" }\nconfirmed = true\n'
                    'late_days = 3\n[bob]\nlate = "yes"\n')
    found, warnings = classbook.load_overrides(path, rubric, {"ann", "bob"})
    assert found["ann"].points == {"chips": 0.5} and found["ann"].comments["chips"] == "half"
    assert found["ann"].confirmed == {"ui", "functions", "readability"}
    assert found["ann"].late_days == 3 and found["bob"].late is None
    assert warnings == ["overrides.toml: [bob] late = 'yes': not a valid value (see the "
                        "file's header); ignored"]


def test_a_tables_comment_is_shown_beside_an_items_own_comment():
    """`comment = ...` of a table is for every item changed: an item with a comment of its own
    showed only that one, and the TA's general words reached results.json but no student."""
    rubric = Rubric.load("pocoloco")
    automatic = {"score": 20, "tests": [{"number": "ui", "score": 2.0, "max_score": 3.0,
                                         "output": ""}], "extra_data": {}}
    override = classbook.Override("ann", points={"ui": 3.0}, comments={"ui": "Clear menus."},
                                  comment="Fixed by TA review.")
    result = classbook.applied_result(automatic, rubric, override, None)
    assert result["extra_data"]["overrides"]["ui"]["comment"] == \
        "Clear menus. Fixed by TA review."
    assert "TA's comment: Clear menus. Fixed by TA review." in result["tests"][0]["output"]


def test_tables_of_students_named_in_other_letters_are_quoted(tmp_path):
    """`[möllerjosé]` is a TOML error (bare names are ASCII) and `[o.brien]` a nested table:
    the header says to quote them and names the class's students who need it, the error
    shows the quoted table, and table names in warnings are written as TOML reads them."""
    rubric = Rubric.load("pocoloco")
    header = classbook.overrides_header(rubric, ["smithjane", "möllerjosé", "o.brien"])
    assert '["möllerjosé"], not [möllerjosé]' in header
    assert 'These students\' tables need the quotes: ["möllerjosé"], ["o.brien"]' in header
    assert tomllib.loads(header) == {}
    path = tmp_path / "overrides.toml"
    path.write_text(header + "\n[möllerjosé]\nui = 1\n", encoding="utf-8")
    with pytest.raises(classbook.ClassbookError) as error:
        classbook.load_overrides(path, rubric, {"möllerjosé"})
    assert "[möllerjosé]" in str(error.value)
    assert 'is written in quotes: ["möllerjosé"])' in str(error.value)
    path.write_text(header + '\n["möllerjosé"]\nui = 1\n\n[o.brien]\nui = 2\n',
                    encoding="utf-8")
    found, warnings = classbook.load_overrides(path, rubric, {"möllerjosé", "o.brien"})
    assert found["möllerjosé"].points == {"ui": 1.0}
    assert warnings == ['overrides.toml: [o] is not a student of this class (no submission '
                        'of that name) (a student name with other letters than a-z, 0-9, _ '
                        'and - (é, ö, a dot) is written in quotes: ["o.brien"], not '
                        '[o.brien]); its overrides are not applied']
    assert classbook.table_name("smith-jane_2") == "[smith-jane_2]"
