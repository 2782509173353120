"""A TA's term, end to end through the command line, as a TA drives it: a generated Canvas
download of 24 students (resubmissions, late work, a zip, a renamed file, broken, crashing,
hanging and endless programs) in a folder with spaces and accents, graded from the TA's own
folder; Ctrl-C and the same command again; overrides before and after a resubmission; a second
class folder graded after the first; a single file graded beside them. Nothing is lost and
nothing needs a workaround."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import KIT_ROOT
from test_ta_week import _snapshot

DEMO = KIT_ROOT / "demo_submissions" / "pocoloco"
CORRECT = KIT_ROOT / "tests" / "fixtures" / "pocoloco" / "correct"
OWN = ["animated_rolls", "ansi_colours", "asks_everything", "batch_legend", "chatty_players",
       "class_players_shuffle", "classic_funcs", "clear_words", "dice_class_oop",
       "dict_players", "emoji_story", "flat_script", "globals_style"]
HANG = 'print("PocoLoco")\nname = input("Your name? ")\nwhile True:\n    pass\n'
ENDLESS = 'print("PocoLoco")\nwhile True:\n    print("Round 1")\n'


def _program(name: str) -> bytes:
    return (CORRECT / name / "a5.py").read_bytes()


def _demo(prefix: str) -> bytes:
    return next(DEMO.glob(f"{prefix}_*.py")).read_bytes()


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def canvas_download(folder: Path) -> dict[str, str]:
    """The class folder as Canvas's bulk download gives it; returns student -> the file the
    grader should grade, as the student named it."""
    folder.mkdir(parents=True)
    files: dict[str, bytes] = {}
    graded = {}
    for number, name in enumerate(OWN):                 # thirteen students' own programs
        student = f"student{number:02d}"
        files[f"{student}_{1000 + number}_{5000 + number}_a5.py"] = _program(name)
        graded[student] = "a5.py"
    # a resubmission: the second upload of a5.py (Canvas's a5-1.py), and a newer submission
    files["resubmits_2001_6001_a5.py"] = _demo("wongalex")
    files["resubmits_2001_6001_a5-1.py"] = _program("dict_report_after")
    graded["resubmits"] = "a5-1.py"
    files["newerid_2002_6002_a5.py"] = _demo("brownsam")
    files["newerid_2002_6010_a5.py"] = _program("end_of_round_report")
    graded["newerid"] = "a5.py (submission 6010)"
    files["latework_LATE_2003_6003_a5.py"] = _program("debts_allowed")
    graded["latework"] = "a5.py"
    files["zipped_2004_6004_pocoloco.zip"] = _zip({"PocoLoco/a5.py": _program("dicts_terse"),
                                                  "PocoLoco/notes.txt": b"my notes"})
    graded["zipped"] = "a5.py in pocoloco.zip"
    files["renamed_2005_6005_my_game.py"] = _program("currently_has")
    graded["renamed"] = "my_game.py"
    files["broken_2006_6006_a5.py"] = _demo("brownsam")            # a SyntaxError
    graded["broken"] = "a5.py"
    files["crashing_2007_6007_a5.py"] = _demo("wongalex")         # a NameError
    graded["crashing"] = "a5.py"
    files["hanging_2008_6008_a5.py"] = HANG.encode()
    graded["hanging"] = "a5.py"
    files["endless_2009_6009_a5.py"] = ENDLESS.encode()
    graded["endless"] = "a5.py"
    files["möllerjosé_2010_6011_a5.py"] = _program("dotted_leaders")
    graded["möllerjosé"] = "a5.py"
    files["lastminute_LATE_2011_6012_a5.py"] = _program("emoji_and_table")
    graded["lastminute"] = "a5.py"
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return graded


def _cli(cwd: Path, kit: Path, *args, **popen):
    """`gradekit ...` run from the TA's own folder (the kit installed elsewhere)."""
    env = dict(os.environ, PYTHONPATH=str(kit))
    command = [sys.executable, "-m", "graders", *args]
    if popen:
        return subprocess.Popen(command, cwd=cwd, env=env, text=True, **popen)
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def _gradebook(out: Path) -> dict[str, dict[str, str]]:
    rows = list(csv.reader((out / "gradebook.csv").read_text(encoding="utf-8").splitlines()))
    return {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}


def _result(out: Path, student: str, name: str = "results.json") -> dict:
    return json.loads((out / student / name).read_text(encoding="utf-8"))


def _page_row(out: Path, student: str) -> str:
    page = (out / "index.html").read_text(encoding="utf-8")
    return re.search(rf'<tr [^>]*data-name="{re.escape(student)}">(.*?)</tr>', page,
                     re.S).group(1)


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """The term so far: (kit, the TA's folder, class A, its expected graded files)."""
    base = tmp_path_factory.mktemp("term")
    kit = _snapshot(base / "kit")
    home = base / "ta"                                   # where the TA runs the commands
    home.mkdir()
    klass = base / "Classe Été 2026" / "Devoir 5 — PocoLoco"
    return kit, home, klass, canvas_download(klass)


def test_a_tas_term(term):
    kit, home, klass, expected = term
    students = sorted(expected)
    assert len(students) == 24
    out = home / "reports" / "pocoloco"

    # 1. grade-all from the TA's folder, interrupted with Ctrl-C after a few students
    run = _cli(home, kit, "grade-all", "pocoloco", str(klass), "--jobs", "2",
               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    first = run.stdout.readline()
    assert first.strip() == f"Reports of {klass} go to {out.resolve()}/", first
    line = first
    while line and not line.startswith("[3/"):
        line = run.stdout.readline()
    os.killpg(run.pid, signal.SIGINT)
    rest, err = run.communicate(timeout=120)
    assert run.returncode == 130, rest + err
    assert "Traceback" not in rest + err and "KeyboardInterrupt" not in rest + err
    assert len(err.strip().splitlines()) == 1 and err.strip().startswith("Interrupted after ")
    kept = sorted(p.parent.name for p in out.glob("*/.graded"))
    assert 3 <= len(kept) < 24

    # 2. the same command again: the rest is graded, nothing twice, nothing lost
    again = _cli(home, kit, "grade-all", "pocoloco", str(klass), "--jobs", "2")
    assert again.returncode == 0, again.stderr
    assert f"Skipping {len(kept)} of 24 submissions" in again.stdout
    graded_now = [x.split()[1].rstrip(":") for x in again.stdout.splitlines()
                  if x.startswith("[")]
    assert sorted(graded_now + kept) == students
    book = _gradebook(out)
    assert sorted(book) == students
    canvas = (out / "canvas.csv").read_text(encoding="utf-8")
    for student in students:
        folder = out / student
        for name in ("results.json", "feedback.md", "feedback.html", ".graded"):
            assert (folder / name).is_file(), (student, name)
        graded = _result(out, student)["extra_data"]["submission"]["graded_file"]
        assert graded == expected[student], student
        assert f"<code>{expected[student]}</code>" in _page_row(out, student)
    assert "Traceback" not in (out / "needs_review.md").read_text(encoding="utf-8")
    assert not (kit / "reports").exists()

    # what each kind of submission got, and said so
    assert float(book["broken"]["score"]) == 0
    hanging = " ".join(_result(out, "hanging")["extra_data"]["problems"])
    endless = " ".join(_result(out, "endless")["extra_data"]["problems"])
    assert hanging and endless
    assert "resubmits" in canvas and "2001" in canvas
    assert _result(out, "latework")["extra_data"]["late"]
    assert "LATE" in _page_row(out, "latework") and "LATE" not in _page_row(out, "zipped")
    assert "graded a5-1.py, uploaded after a5.py" in (out / "resubmits" / "feedback.md") \
        .read_text(encoding="utf-8")

    # 3. overrides: the TA confirms one student's review items and sets an item
    student = "student03"
    automatic = _result(out, student, "automatic.json")
    item = next(t["number"] for t in automatic["tests"] if t["score"] == t["max_score"] == 1)
    table = (f'\n[{student}]\n{item} = 0\ncomment = "Asked in class."\n'
             'confirmed = ["ui", "functions", "readability"]\n'
             '\n["möllerjosé"]\nconfirmed = ["ui", "functions", "readability"]\n')
    overrides = out / "overrides.toml"
    overrides.write_text(overrides.read_text(encoding="utf-8") + table, encoding="utf-8")
    report = _cli(home, kit, "report", "pocoloco")
    assert report.returncode == 0, report.stderr
    assert _result(out, student)["score"] == automatic["score"] - 1
    assert ">confirmed</span>" in _page_row(out, student)
    assert ">confirmed</span>" in _page_row(out, "möllerjosé")
    assert "Asked in class." in (out / student / "feedback.md").read_text(encoding="utf-8")

    # 4. the student resubmits other code: only that student is graded again, and the TA's
    #    decisions are kept but marked as set for an earlier version until the TA looks
    (klass / f"{student}_1003_5999_a5.py").write_bytes(_program("flat_script"))
    resubmitted = _cli(home, kit, "grade-all", "pocoloco", str(klass))
    assert resubmitted.returncode == 0, resubmitted.stderr
    assert "Skipping 23 of 24 submissions" in resubmitted.stdout
    result = _result(out, student)
    assert result["extra_data"]["overrides_for_earlier_version"]
    assert {t["number"]: t["score"] for t in result["tests"]}[item] == 0
    assert ">set for an earlier version</span>" in _page_row(out, student)
    review = (out / "needs_review.md").read_text(encoding="utf-8")
    assert f"set for an earlier version ({item}" in review
    assert "made for an earlier version of your submission" in (
        out / student / "feedback.md").read_text(encoding="utf-8")
    # the TA looks at the new code and keeps the table (any change sets it for this version)
    overrides.write_text(overrides.read_text(encoding="utf-8").replace(
        'comment = "Asked in class."', 'comment = "Asked in class; checked again."'),
        encoding="utf-8")
    assert _cli(home, kit, "report", "pocoloco").returncode == 0
    assert not _result(out, student)["extra_data"]["overrides_for_earlier_version"]
    assert ">confirmed</span>" in _page_row(out, student)

    # 5. a second class folder, from the same folder: refused (the reports are class A's),
    #    nothing of class A touched; graded into its own reports folder instead
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    other = home.parent / "Section 2"
    other.mkdir()
    shutil.copy(next(DEMO.glob("garciamaria_*.py")), other)
    shutil.copy(next(DEMO.glob("smithjane_*.py")), other)
    refused = _cli(home, kit, "grade-all", "pocoloco", str(other))
    assert refused.returncode == 2 and "--replace" in refused.stderr
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before
    second = _cli(home, kit, "grade-all", "pocoloco", str(other), "--out", "reports-section-2")
    assert second.returncode == 0, second.stderr
    assert sorted(_gradebook(home / "reports-section-2" / "pocoloco")) == [
        "garciamaria", "smithjane"]
    assert sorted(_gradebook(out)) == students

    # 6. a single file graded from the same folder leaves the class alone
    shutil.copy(CORRECT / "globals_frank" / "a5.py", home / "a5.py")
    single = _cli(home, kit, "grade", "pocoloco", "a5.py")
    assert single.returncode == 0, single.stderr
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before
    assert sorted(_gradebook(out)) == students
