"""Class folders as Canvas's bulk download gives them: which upload is graded, and what the
grader keeps of Canvas's names (user id, LATE, submission id)."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from graders.engine.judge.rubric import KIT_ROOT
from graders.engine.grading.submissions import (discover, from_path, layout_warnings,
                                                parse_canvas_name, safe_student)

REFERENCE = KIT_ROOT / "reference" / "pocoloco" / "a5.py"
TEMPLATE = KIT_ROOT / "student_template" / "pocoloco" / "a5.py"


def _class(folder: Path, files: dict[str, str | bytes]) -> Path:
    """A class folder holding ``files`` (name -> content; each file says which it is)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return folder


def _zip(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def _students(folder: Path, students=None) -> dict:
    return {s.student: s for s in discover(folder, "a5.py", students)}


def _graded(submission, name: str = "a5.py") -> str:
    """What the grader will run: its own staged copy of the file."""
    return submission.files[name].read_text()


# ---------------------------------------------------------------- the latest upload wins
def test_a_re_uploaded_file_is_graded_from_its_latest_copy(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": "first",
        "smithjane_12345_67890_a5-1.py": "second",
        "smithjane_12345_67890_a5-2.py": "third",
        "smithjane_12345_67890_notes.txt": "notes",
    })
    (jane,) = discover(klass, "a5.py")
    assert jane.student == "smithjane" and jane.display_name == "smithjane"
    assert _graded(jane) == "third"
    assert set(jane.files) == {"a5.py", "notes.txt"}
    assert jane.notes == ["graded a5-2.py, uploaded after a5-1.py and a5.py"]
    assert jane.user_id == "12345" and jane.submission_id == "67890" and not jane.late


def test_a_higher_submission_id_wins_over_a_higher_copy_number(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5-2.py": "older submission, third copy",
        "smithjane_12345_67891_a5.py": "newer submission",
    })
    (jane,) = discover(klass, "a5.py")
    assert _graded(jane) == "newer submission"
    assert jane.submission_id == "67891"
    assert jane.notes == ["graded a5.py, uploaded after a5-2.py"]


def test_uploads_with_the_same_shown_name_are_told_apart_by_submission(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": "old",
        "smithjane_12345_67999_a5.py": "new",
    })
    (jane,) = discover(klass, "a5.py")
    assert _graded(jane) == "new"
    assert jane.notes == ["graded a5.py (submission 67999), uploaded after a5.py "
                          "(submission 67890)"]


def test_late_flag_user_and_submission_ids_are_kept(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": "on time",
        "leekevin_LATE_23456_78901_a5-1.py": "late",
        "wongalex_34567_11111_a5.py": "on time first",
        "wongalex_LATE_34567_11112_a5.py": "late second",
    })
    found = _students(klass)
    assert not found["smithjane"].late and found["leekevin"].late
    assert found["leekevin"].user_id == "23456"
    assert found["leekevin"].submission_id == "78901"
    assert _graded(found["leekevin"]) == "late"
    assert found["leekevin"].notes == []       # a lone -1 replaced nothing here
    # the graded upload was late, so the work is late (the on-time one was replaced)
    assert found["wongalex"].late and _graded(found["wongalex"]) == "late second"


def test_an_older_late_upload_that_was_replaced_does_not_make_the_work_late(tmp_path):
    # a LATE upload of a file that a newer upload replaced, the newer being on time, cannot
    # happen in one Canvas download; what matters is only the uploads that are graded
    klass = _class(tmp_path / "class", {
        "smithjane_LATE_12345_67890_notes.txt": "late notes, replaced",
        "smithjane_12345_67891_notes.txt": "notes",
        "smithjane_12345_67891_a5.py": "program",
    })
    (jane,) = discover(klass, "a5.py")
    assert not jane.late and _graded(jane, "notes.txt") == "notes"


# ---------------------------------------------------------------- who is who
def test_two_students_with_the_same_name_part_are_two_students(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_11111_50000_a5.py": "jane one",
        "smithjane_22222_50001_a5.py": "jane two",
        "smithjane_22222_50002_a5.py": "jane two, again",
        "leekevin_33333_50003_a5.py": "kevin",
    })
    found = _students(klass)
    assert set(found) == {"smithjane_11111", "smithjane_22222", "leekevin"}
    assert _graded(found["smithjane_11111"]) == "jane one"
    assert _graded(found["smithjane_22222"]) == "jane two, again"
    assert {found[s].display_name for s in ("smithjane_11111", "smithjane_22222")} == \
        {"smithjane"}
    assert found["smithjane_22222"].user_id == "22222"
    # a regrade of one student finds the same name for them
    (only,) = discover(klass, "a5.py", {"smithjane_22222"})
    assert only.student == "smithjane_22222" and _graded(only) == "jane two, again"


def test_names_in_other_alphabets_stay_readable_and_apart(tmp_path):
    """Two names that differ only in accented letters were both made m_llerjos_, so the
    second student was renamed after the first, and a TA's override could move between
    them when a third arrived; a TA reads the names as Canvas wrote them."""
    klass = _class(tmp_path / "class", {
        "möllerjosè_11122_20013_a5.py": "one",
        "müllerjosé_11121_20012_a5.py": "two",
        "名前_11123_20014_a5.py": "three",
    })
    found = _students(klass)
    assert set(found) == {"möllerjosè", "müllerjosé", "名前"}
    assert _graded(found["müllerjosé"]) == "two"
    # a direction mark or a separator is still no part of a folder name
    assert safe_student("zoë\u202eevil/../x") == "zoë_evil_.._x"


def test_the_older_one_number_names_still_work(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_67890_a5.py": "old upload",
        "smithjane_67895_a5.py": "new upload",
        "leekevin_LATE_55555_a5-1.py": "kevin",
    })
    found = _students(klass)
    assert set(found) == {"smithjane", "leekevin"}
    assert _graded(found["smithjane"]) == "new upload"
    # one number could be either id: neither is guessed
    assert found["smithjane"].user_id is None and found["smithjane"].submission_id is None
    assert found["leekevin"].late and _graded(found["leekevin"]) == "kevin"


def test_canvas_names_are_read_as_canvas_writes_them():
    name = parse_canvas_name("smithjane_LATE_12345_67890_my_game.v2-3.py")
    assert (name.display_name, name.late, name.user_id, name.submission_id) == \
        ("smithjane", True, "12345", "67890")
    assert (name.original, name.copy, name.label) == ("my_game.v2.py", 3, "my_game.v2-3.py")
    late_student = parse_canvas_name("late_12345_67890_a5.py")   # a student called Late
    assert late_student.display_name == "late" and not late_student.late
    assert parse_canvas_name("a5.py") is None and parse_canvas_name("notes.txt") is None
    assert parse_canvas_name("smith_jane.py") is None


def test_one_canvas_file_given_to_grade_keeps_its_ids(tmp_path):
    path = tmp_path / "leekevin_LATE_23456_78901_a5-1.py"
    path.write_text("print('hi')\n")
    submission = from_path(path, "a5.py")
    assert set(submission.files) == {"a5.py"}
    assert (submission.user_id, submission.submission_id, submission.late,
            submission.display_name) == ("23456", "78901", True, "leekevin")


# ---------------------------------------------------------------- zips, folders, mixes
def test_a_zip_per_student_is_unpacked(tmp_path):
    klass = _class(tmp_path / "class", {
        "nguyenanh_34567_89012_PocoLoco.zip": _zip({"PocoLoco/a5.py": "zipped program",
                                                    "PocoLoco/readme.txt": "readme"}),
    })
    (anh,) = discover(klass, "a5.py")
    assert anh.student == "nguyenanh" and anh.user_id == "34567"
    assert _graded(anh) == "zipped program" and set(anh.files) == {"a5.py", "readme.txt"}
    assert anh.notes == ["unpacked PocoLoco.zip and took the files in PocoLoco/"]


def test_a_student_with_a_zip_and_loose_files(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_work.zip": _zip({"a5.py": "zipped, older",
                                                "helper.py": "zipped helper"}),
        "smithjane_12345_67891_a5.py": "loose, newer",
        # same submission: the file chosen on its own wins over the .zip's copy
        "leekevin_23456_70000_work.zip": _zip({"a5.py": "zipped", "extra.py": "extra"}),
        "leekevin_23456_70000_a5.py": "loose",
        # a newer .zip replaces an older loose file
        "wongalex_34567_80000_a5.py": "loose, older",
        "wongalex_34567_80001_work.zip": _zip({"a5.py": "zipped, newer"}),
    })
    found = _students(klass)
    jane, kevin, alex = found["smithjane"], found["leekevin"], found["wongalex"]
    assert _graded(jane) == "loose, newer" and _graded(jane, "helper.py") == "zipped helper"
    assert "graded a5.py, uploaded after a5.py in work.zip" in jane.notes
    assert _graded(kevin) == "loose" and _graded(kevin, "extra.py") == "extra"
    assert _graded(alex) == "zipped, newer"
    assert "graded a5.py in work.zip, uploaded after a5.py" in alex.notes
    assert alex.submission_id == "80001"


def test_a_folder_per_student(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane/a5.py": "jane's folder",
        "smithjane/notes.txt": "notes",
        "leekevin/submission/a5.py": "kevin's inner folder",
    })
    found = _students(klass)
    assert _graded(found["smithjane"]) == "jane's folder"
    assert _graded(found["leekevin"]) == "kevin's inner folder"
    assert found["smithjane"].user_id is None and not found["smithjane"].late
    assert layout_warnings(klass, "a5.py") == []


def test_a_folder_and_canvas_files_with_the_same_name_stay_apart(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane/a5.py": "folder",
        "smithjane_12345_67890_a5.py": "canvas",
    })
    found = _students(klass)
    assert set(found) == {"smithjane", "smithjane_12345"}
    assert _graded(found["smithjane"]) == "folder"
    assert _graded(found["smithjane_12345"]) == "canvas"
    (warning,) = layout_warnings(klass, "a5.py")
    assert "smithjane_12345_67890_a5.py" in warning and "graded as smithjane_12345" in warning


# ---------------------------------------------------------------- what is not understood
def test_files_no_layout_explains_are_named_in_a_warning(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": "jane",
        "grades.csv": "a,b\n",
        "README.txt": "what the TA wrote",
        "brownsam.py": "a student's file, named by hand",
        ".DS_Store": "finder",
    })
    found = _students(klass)
    assert set(found) == {"smithjane", "brownsam"}
    assert _graded(found["brownsam"]) == "a student's file, named by hand"
    (warning,) = layout_warnings(klass, "a5.py")
    assert "README.txt and grades.csv" in warning and "left out" in warning
    assert "DS_Store" not in warning and "smithjane" not in warning


def test_a_lone_main_file_in_a_class_folder_is_questioned(tmp_path):
    klass = _class(tmp_path / "one_student", {"a5.py": "program", "notes.md": "notes"})
    warnings = layout_warnings(klass, "a5.py")
    assert any("a5.py" in w and "named like the assignment's own file" in w
               for w in warnings)
    assert any("notes.md" in w for w in warnings)


def test_the_demo_class_folder_is_fully_understood():
    demo = KIT_ROOT / "demo_submissions" / "pocoloco"
    found = _students(demo)
    assert len(found) == len(list(demo.iterdir()))
    assert found["leekevin"].late and found["smithjane"].user_id == "12345"
    assert all(s.found for s in found.values())
    assert layout_warnings(demo, "a5.py") == []


# ---------------------------------------------------------------- still files, not links
def test_a_link_among_a_students_uploads_refuses_the_submission(tmp_path):
    klass = _class(tmp_path / "class", {"smithjane_12345_67891_a5.py": "newest, real"})
    (klass / "smithjane_12345_67890_a5.py").symlink_to(REFERENCE)     # older, a link
    (jane,) = discover(klass, "a5.py")
    assert jane.refused and "symbolic link" in jane.refused and jane.files == {}


def test_a_canvas_zip_naming_paths_outside_itself_is_refused(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": "program",
        "smithjane_12345_67891_work.zip": _zip({"../../a5.py": "escape"}),
    })
    (jane,) = discover(klass, "a5.py")
    assert jane.refused and "outside itself" in jane.refused
    assert not (tmp_path / "a5.py").exists()


# ---------------------------------------------------------------- through the command line
def test_grade_all_grades_the_resubmission_and_says_so(tmp_path):
    klass = _class(tmp_path / "class", {
        "smithjane_12345_67890_a5.py": TEMPLATE.read_bytes(),
        "smithjane_12345_67890_a5-1.py": REFERENCE.read_bytes(),
        "grades_export.csv": b"Student,Score\n",
    })
    done = subprocess.run([sys.executable, "-m", "graders", "grade-all", "pocoloco",
                           str(klass), "--out", str(tmp_path / "reports")],
                          cwd=KIT_ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "reports" / "pocoloco" / "smithjane"
    assert json.loads((out / "results.json").read_text())["score"] == 24
    assert "graded a5-1.py, uploaded after a5.py" in (out / "feedback.md").read_text()
    # a file no layout explains is named once, before grading, and graded as nobody
    assert done.stderr.count("grades_export.csv") == 1, done.stderr
    assert not (tmp_path / "reports" / "pocoloco" / "grades_export").exists()
