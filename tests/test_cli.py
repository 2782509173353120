"""The command line contract, submission discovery and the results JSON schema."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from graders.engine.grading.submissions import discover

from conftest import KIT_ROOT


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "graders", *args], capture_output=True,
                          text=True, cwd=KIT_ROOT, timeout=120)


def test_grade_writes_gradescope_json(tmp_path):
    out = tmp_path / "r.json"
    done = _cli("grade", "pocoloco", "reference/pocoloco", "--json", str(out),
                "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert {"score", "max_score", "execution_time", "tests"} <= set(data)
    assert data["max_score"] == 24
    ids = [t["number"] for t in data["tests"]]
    assert ids == ["setup", "instructions", "tie-break", "round-box", "standings",
                   "roll-limit", "roll-again", "special-rolls", "points", "winner-loser",
                   "chips", "game-over", "strategy", "big-dice", "ui", "functions",
                   "readability"]
    for test in data["tests"]:
        assert {"name", "number", "score", "max_score", "status", "output"} <= set(test)
    assert (tmp_path / "pocoloco" / "pocoloco" / "feedback.md").exists()


def test_exit_status_2_for_bad_usage_and_missing_submission(tmp_path):
    assert _cli("grade", "pocoloco", str(tmp_path / "nothing.py")).returncode == 2
    assert _cli("grade", "no_such_assignment", "x.py").returncode == 2
    assert _cli("grade").returncode == 2
    (tmp_path / "notes.txt").write_text("no python here")
    assert _cli("grade", "pocoloco", str(tmp_path), "--out", str(tmp_path / "out")).returncode == 2


def test_exit_status_0_for_a_broken_submission(tmp_path):
    bad = tmp_path / "a5.py"
    bad.write_text("print('unclosed'\n")
    done = _cli("grade", "pocoloco", str(bad), "--json", str(tmp_path / "r.json"),
                "--out", str(tmp_path))
    assert done.returncode == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["score"] < 5
    assert "could not start" in json.dumps(data) or "SyntaxError" in json.dumps(data)


def test_canvas_bulk_download_names(tmp_path):
    for name in ("smithjane_12345_67890_a5.py", "leekevin_LATE_23456_78901_a5-1.py",
                 "nguyenanh_34567_89012_a5.py", "nguyenanh_34567_89012_notes.txt"):
        (tmp_path / name).write_text("print('hi')\n")
    (tmp_path / "folder_student").mkdir()
    (tmp_path / "folder_student" / "a5.py").write_text("print('hi')\n")
    found = {s.student: s for s in discover(tmp_path, "a5.py")}
    assert set(found) == {"smithjane", "leekevin", "nguyenanh", "folder_student"}
    assert all(s.main_name in s.files for s in found.values())
    assert "notes.txt" in found["nguyenanh"].files


def test_grade_all_writes_class_reports(tmp_path):
    done = _cli("grade-all", "pocoloco", "demo_submissions/pocoloco", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "pocoloco"
    rows = (folder / "gradebook.csv").read_text().splitlines()
    assert rows[0].startswith("student,score,max_score,setup,instructions")
    assert len(rows) == 1 + len(list((KIT_ROOT / "demo_submissions/pocoloco").iterdir()))
    review = (folder / "needs_review.md").read_text()
    assert "brownsam" in review and "taylorchris" in review


def test_student_self_check_runs_public_items_only():
    done = _cli("check", "pocoloco", "student_template/pocoloco/a5.py")
    assert done.returncode == 0, done.stderr
    assert "self-check" in done.stdout
    scored = re.findall(r"^  (?:ok |-- |\?\? )(\S+)", done.stdout, re.M)
    assert "setup" in scored and "chips" not in scored and "tie-break" not in scored
    # without -v: the first line of each problem, whole, and how to see it in full
    assert "Run the same command with -v to see each problem in full" in done.stdout


def test_make_grade_and_check_take_paths_with_spaces_and_any_letters(tmp_path):
    """The README's make commands with a Canvas download in "Classe Été 2026/Devoir 5 —
    PocoLoco" and reports in a folder named with an apostrophe: the Makefile quotes them."""
    import shutil
    classe = tmp_path / "Classe Été 2026" / "Devoir 5 — PocoLoco"
    classe.mkdir(parents=True)
    demo = KIT_ROOT / "demo_submissions" / "pocoloco" / "garciamaria_45678_90123_a5.py"
    shutil.copy(demo, classe / "garciamaria_45678_90123_a5.py")
    shutil.copy(demo, classe / "a5 final.py")
    reports = tmp_path / "Rapports d'été"
    # the kit's own Python, without the venv's set-up step (the suite runs in it already)
    make = ["make", "-s", "-o", ".venv/.installed", f"BIN={Path(sys.executable).parent}"]
    done = subprocess.run(make + ["grade", "ASSIGNMENT=pocoloco", f"SUBMISSIONS={classe}",
                                  f"REPORTS={reports}"],
                          capture_output=True, text=True, cwd=KIT_ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (reports / "pocoloco" / "garciamaria" / "results.json").is_file()
    checked = subprocess.run(make + ["check", "ASSIGNMENT=pocoloco",
                                     f"FILE={classe / 'a5 final.py'}"],
                             capture_output=True, text=True, cwd=KIT_ROOT, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "self-check" in checked.stdout


def test_an_oversize_main_file_is_graded_as_refused(tmp_path):
    """A 21 MB a5.py (a program with megabytes of comments) is not "no a5.py": it scores 0,
    saying how big it is and the limit, with a results.json and exit status 0."""
    from graders.engine.grading.submissions import MAX_FILE_BYTES
    source = (KIT_ROOT / "reference" / "pocoloco" / "a5.py").read_bytes()
    big = tmp_path / "a5.py"
    big.write_bytes(source + b"# " + b"x" * (21_076_738 - len(source) - 3) + b"\n")
    assert big.stat().st_size == 21_076_738
    done = _cli("grade", "pocoloco", str(big), "--json", str(tmp_path / "r.json"),
                "--out", str(tmp_path / "reports"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["score"] == 0
    said = f"a5.py is 21,076,738 bytes, over the {MAX_FILE_BYTES:,}-byte limit"
    assert said in json.dumps(data, ensure_ascii=False)
    assert said in (tmp_path / "reports" / "pocoloco" / "a5" / "feedback.md").read_text()


def test_a_main_file_path_takes_the_assignments_files_beside_it(tmp_path):
    """`check poker_dice project.py`, as the students' README says, scored the reference 4/8:
    dice.py beside it was not taken. The main file's path brings the rubric's other files
    from its folder (and nothing else), for check and grade alike."""
    folder = tmp_path / "mon projet"
    shutil.copytree(KIT_ROOT / "reference" / "poker_dice", folder)
    (folder / "notes.py").write_text("print('not an assignment file')\n")
    checked = _cli("check", "poker_dice", str(folder / "project.py"))
    assert checked.returncode == 0, checked.stderr
    assert "Poker Dice (self-check): project  8/8" in checked.stdout
    assert "took dice.py, magic8ball.py and test_project.py from beside project.py" \
        in checked.stdout
    done = _cli("grade", "poker_dice", str(folder / "project.py"), "--out", str(tmp_path),
                "--json", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["score"] == data["max_score"], done.stdout
    assert "notes.py" not in json.dumps(data)


def test_a_syntax_error_comes_first_in_the_self_check(tmp_path):
    """A program Python cannot start: the SyntaxError with its line is the first thing
    after the score, under the heading the items' "see 'How the runs went' above" names."""
    source = (KIT_ROOT / "reference" / "pocoloco" / "a5.py").read_text().splitlines()
    broken = tmp_path / "a5.py"
    broken.write_text("\n".join(source[:40] + ["def broken(:"] + source[40:]) + "\n")
    done = _cli("check", "pocoloco", str(broken))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "How the runs went:"
    assert "SyntaxError" in lines[2] and "line 41" in lines[2]
    above = [i for i, line in enumerate(lines) if "'How the runs went' above" in line]
    assert above and min(above) > 2
