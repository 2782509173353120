"""Multi-file programs: a main file that imports its own package from a subfolder
(``hilogame/playmodule.py``) is graded with that package, from a folder, a class download and
a .zip; what cannot be taken (a link, a virtual environment, too deep) is left out and named.
"""
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from graders.engine.judge.readability import measure
from graders.engine.grading.submissions import MAX_DEPTH, discover, from_path

from conftest import FIXTURES, KIT_ROOT

PACKAGE = FIXTURES / "hilo" / "multi_file" / "package_import"
PACKAGE_FILES = ["hilogame/__init__.py", "hilogame/cards.py", "hilogame/playmodule.py"]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "graders", *args], capture_output=True,
                          text=True, cwd=KIT_ROOT, timeout=300)


def test_a_package_in_a_subfolder_is_taken_with_the_main_file():
    submission = from_path(PACKAGE, "hilo.py")
    assert sorted(submission.files) == ["hilo.py"] + PACKAGE_FILES
    assert submission.files["hilogame/cards.py"].read_bytes() == \
        (PACKAGE / "hilogame" / "cards.py").read_bytes()
    assert any("took the files in its subfolders too: hilogame/__init__.py, "
               "hilogame/cards.py and hilogame/playmodule.py" in note
               for note in submission.notes)


def test_the_command_line_grades_the_package_not_a_module_not_found(tmp_path):
    done = _cli("grade", "hilo", str(PACKAGE), "--json", str(tmp_path / "r.json"),
                "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert "ModuleNotFoundError" not in json.dumps(data)
    assert data["score"] == data["max_score"], [(t["number"], t["score"]) for t in data["tests"]]
    assert "hilogame/playmodule.py" in data["output"]


def test_links_virtual_environments_and_deep_folders_are_left_out_and_named(tmp_path):
    student = tmp_path / "student"
    shutil.copytree(PACKAGE, student)
    (student / "hilogame" / "secret.py").symlink_to(KIT_ROOT / "reference" / "hilo" / "hilo.py")
    (student / "env" / "lib").mkdir(parents=True)
    (student / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (student / "env" / "lib" / "site.py").write_text("x = 1\n")
    deep = student.joinpath(*[f"level{n}" for n in range(1, MAX_DEPTH + 2)])
    deep.mkdir(parents=True)
    (deep / "far.py").write_text("x = 1\n")
    (student / ".pytest_cache").mkdir()
    (student / ".pytest_cache" / "README.md").write_text("cache\n")
    submission = from_path(student, "hilo.py")
    assert submission.refused is None
    assert "hilogame/secret.py" not in submission.files
    assert not any(name.startswith(("env/", ".pytest_cache/")) for name in submission.files)
    assert "level1/level2/level3/level4/" not in " ".join(submission.files)
    (said,) = [note for note in submission.notes if note.startswith("left out")]
    assert "hilogame/secret.py (a symbolic link, not a regular file)" in said
    assert "env/ (a virtual environment, not part of the program)" in said
    assert f"level1/level2/level3/level4/level5/ (more than {MAX_DEPTH} folders deep)" in said
    assert said in submission.problems                      # a TA hears of it too
    assert sorted(set(PACKAGE_FILES) - set(submission.files)) == []


def _zip_of(folder: Path, target: Path, inside: str) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{inside}/{path.relative_to(folder).as_posix()}")
        archive.writestr("README.txt", "read me\n")
    return target


def test_grade_all_takes_each_students_package(tmp_path):
    """A class download: a folder per student, and a Canvas .zip upload holding the same
    program in a folder (its README outside that folder is named as left out)."""
    classroom = tmp_path / "class"
    classroom.mkdir()
    shutil.copytree(PACKAGE, classroom / "shankarravi")
    flat = classroom / "flatstudent"
    flat.mkdir()
    shutil.copy2(KIT_ROOT / "reference" / "hilo" / "hilo.py", flat / "hilo.py")
    _zip_of(PACKAGE, classroom / "smithjane_12345_67890_hilo.zip", "myproject")
    found = {s.student: s for s in discover(classroom, "hilo.py")}
    assert sorted(found["smithjane"].files) == ["hilo.py"] + PACKAGE_FILES
    assert any("README.txt (outside myproject/)" in note for note in found["smithjane"].notes)
    done = _cli("grade-all", "hilo", str(classroom), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "out" / "hilo" / "gradebook.csv").read_text().splitlines()
    scores = {row.split(",")[0]: row.split(",")[1:3] for row in rows[1:]}
    assert scores == {name: ["13.0", "13.0"] for name in
                      ("flatstudent", "shankarravi", "smithjane")}, rows


def test_a_lone_file_is_still_renamed_when_a_package_sits_beside_it(tmp_path):
    student = tmp_path / "student"
    shutil.copytree(PACKAGE, student)
    os.rename(student / "hilo.py", student / "my_hilo.py")
    submission = from_path(student, "hilo.py")
    assert "hilo.py" in submission.files and "my_hilo.py" not in submission.files
    assert any("used my_hilo.py as hilo.py" in note for note in submission.notes)


def test_readability_reads_the_imported_package_and_not_other_folders(tmp_path):
    student = tmp_path / "student"
    shutil.copytree(PACKAGE, student)
    long_line = "# " + "x" * 120 + "\n"
    with open(student / "hilogame" / "cards.py", "a") as cards:
        cards.write(long_line)
    (student / "old_labs").mkdir()
    (student / "old_labs" / "lab1.py").write_text(long_line)
    submission = from_path(student, "hilo.py")
    assert "old_labs/lab1.py" in submission.files             # taken, as sent
    long_lines = measure(dict(submission.files)).long_lines
    assert [(name, length) for name, _, length in long_lines] == [("hilogame/cards.py", 122)]
