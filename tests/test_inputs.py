"""Bad inputs to the kit: links and special files, zips, encodings, empty and template-only
files, folders without the main file, and programs that never ran. Each gets a clear message,
a place in needs_review.md, and no marks it did not earn."""
import errno
import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graders.engine.run import pythons, static
from graders.engine.judge.rubric import Rubric
from graders.engine.grading.submissions import MAX_ZIP_BYTES, MAX_ZIP_MEMBERS, discover, from_path
from graders.engine.run.files import read_regular_file

from conftest import FIXTURES, KIT_ROOT, grade, objective, scores

INPUTS = FIXTURES / "inputs"
REFERENCE = KIT_ROOT / "reference" / "pocoloco" / "a5.py"
TEMPLATE = KIT_ROOT / "student_template" / "pocoloco" / "a5.py"
REVIEW = ("ui", "functions", "readability")
LATIN_1 = b"# Jeu de d\xe9s: PocoLoco (saved by an editor as Latin-1)\n"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "graders", *args], capture_output=True,
                          text=True, cwd=KIT_ROOT, timeout=300)


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------- encodings, empty, template
@pytest.fixture(scope="module")
def pocoloco(tmp_path_factory):
    """The reference and the bad inputs, graded in one run: name -> report."""
    base = tmp_path_factory.mktemp("inputs")
    source = REFERENCE.read_bytes()
    nested = base / "zipped"
    nested.mkdir()
    with zipfile.ZipFile(nested / "submission.zip", "w") as archive:
        archive.writestr("__MACOSX/a5/._a5.py", b"junk")
        archive.writestr("a5/a5.py", source)
        archive.writestr("a5/notes.txt", b"my notes\n")
    paths = {"reference": REFERENCE,
             "bom": _write(base / "bom" / "a5.py", b"\xef\xbb\xbf" + source),
             "latin1": _write(base / "latin1" / "a5.py", LATIN_1 + source),
             "empty": _write(base / "empty" / "a5.py", b""),
             "template": TEMPLATE,
             "zip": nested / "submission.zip",
             "noise": INPUTS / "noise" / "a5.py",
             "crash": INPUTS / "crash_at_start" / "a5.py"}
    return grade("pocoloco", list(paths.values()), list(paths))


def test_a_bom_is_graded_as_python_runs_it(pocoloco):
    bom, reference = pocoloco["bom"], pocoloco["reference"]
    assert scores(bom) == scores(reference)
    assert scores(bom)["functions"] == 3
    assert any("byte-order mark" in note for note in bom.notes)
    assert any("byte-order mark" in p and "nothing deducted" in p for p in bom.needs_review)


def test_a_file_python_refuses_is_graded_as_the_crash(pocoloco):
    latin = pocoloco["latin1"]
    assert latin.score == 0, scores(latin)
    notes = " ".join(latin.notes)
    assert "Non-UTF-8 code starting with '\\xe9' on line 1" in notes
    assert "save the file with the UTF-8 encoding" in notes
    assert any("not saved as UTF-8" in p for p in latin.needs_review)
    assert any("review items set to 0" in p for p in latin.needs_review)


def test_an_empty_file_gets_nothing_and_is_flagged(pocoloco):
    empty = pocoloco["empty"]
    assert empty.score == 0, scores(empty)
    assert any(p == "review items set to 0: a5.py is empty" for p in empty.needs_review)
    assert any("get no marks: a5.py is empty" in n for n in empty.notes)
    # nothing of the student's to look at: no item is left 'provisional' for a TA
    assert not empty.not_judged, [v.item.id for v in empty.not_judged]
    assert not [r for r in empty.needs_review if r.startswith(("not judged", "partly"))]


def test_the_unchanged_template_gets_no_review_marks(pocoloco):
    template = pocoloco["template"]
    assert all(scores(template)[item] == 0 for item in REVIEW)
    assert any("no code of its own" in n for n in template.notes)
    assert any("review items set to 0" in p for p in template.needs_review)
    for item in REVIEW:
        verdict = next(v for v in template.verdicts if v.item.id == item)
        assert verdict.judged and verdict.checks[0].messages[0].startswith("No marks")


def test_a_zip_is_unpacked_and_graded(pocoloco):
    zipped = pocoloco["zip"]
    assert objective(zipped) == objective(pocoloco["reference"])
    assert any("unpacked submission.zip" in n and "a5/" in n for n in zipped.notes)


def test_noise_and_a_crash_at_start_get_no_review_marks(pocoloco):
    """The review items about the working program get nothing; readability, which reads only
    the source, is judged on the source as in every grader (submissions.SOURCE_ONLY_REVIEW)."""
    for name in ("noise", "crash"):
        report = pocoloco[name]
        assert all(scores(report)[item] == 0 for item in REVIEW if item != "readability"), \
            (name, scores(report))
        assert any("did the program ask a question or print readable text" in n
                   and "(readability is still judged on the source" in n
                   for n in report.notes), report.notes
        readability = next(v for v in report.verdicts if v.item.id == "readability")
        assert "No marks" not in " ".join(m for c in readability.checks for m in c.messages), name
    assert any("No module named 'pocoloco_graphics_that_does_not_exist'" in n
               for n in pocoloco["crash"].notes)


def test_the_reference_keeps_its_review_marks(pocoloco):
    reference = pocoloco["reference"]
    assert reference.score == reference.rubric.max_score, scores(reference)
    assert not any("review items set to 0" in p for p in reference.needs_review)


def test_own_work_tells_the_template_from_a_solution():
    for assignment in ("pocoloco", "three_card_poker", "poker_dice"):
        rubric = Rubric.load(assignment)
        for name in rubric.files:
            template = KIT_ROOT / "student_template" / assignment / name
            if name.endswith(".py") and template.exists():
                assert static.own_work(template, template) == 0, (assignment, name)
                assert static.own_work(KIT_ROOT / "reference" / assignment / name,
                                       template) > 0, (assignment, name)


@pytest.fixture(scope="module")
def three_card(tmp_path_factory):
    base = tmp_path_factory.mktemp("three-card-inputs")
    reference = KIT_ROOT / "reference" / "three_card_poker" / "three_card_poker.py"
    source = reference.read_bytes()
    crashing = source.replace(b"    total = 0\n", b"    raise SystemError('boom')\n", 1)
    assert crashing != source
    paths = {"template": KIT_ROOT / "student_template" / "three_card_poker" /
             "three_card_poker.py",
             "latin1": _write(base / "latin1" / "three_card_poker.py", LATIN_1 + source),
             "main-crashes": _write(base / "crash" / "three_card_poker.py", crashing)}
    return grade("three_card_poker", list(paths.values()), list(paths))


def test_three_card_template_and_a_refused_file(three_card):
    assert scores(three_card["template"])["readability"] == 0
    latin = three_card["latin1"]
    assert latin.score == 0, scores(latin)
    assert "Non-UTF-8" in " ".join(latin.notes + latin.problems)


def test_a_broken_main_loses_its_items_not_the_review_items(three_card):
    # the functions still work when called, so the program did run: readability stays
    crashing = scores(three_card["main-crashes"])
    assert crashing["readability"] > 0 and crashing["has_pair"] == 1, crashing


# ---------------------------------------------------------------- files, not links
def test_links_pipes_and_hard_links_are_refused(tmp_path):
    copy = _write(tmp_path / "copy" / "a5.py", REFERENCE.read_bytes())
    cases = {"symlink": lambda p: p.symlink_to(REFERENCE),
             "relative-link": lambda p: p.symlink_to(os.path.relpath(REFERENCE, p.parent)),
             "fifo": lambda p: os.mkfifo(p),
             "hard-link": lambda p: os.link(copy, p)}
    for name, make in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        make(folder / "a5.py")
        for path in (folder, folder / "a5.py"):
            submission = from_path(path, "a5.py")
            assert not submission.found and submission.refused, (name, path)
            assert submission.files == {}
            kind = "hard link" if name == "hard-link" else \
                ("named pipe" if name == "fifo" else "symbolic link")
            assert kind in submission.refused
            assert submission.problems[0].startswith("refused: ")


def test_a_refused_submission_scores_0_with_a_results_json(tmp_path):
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "a5.py").symlink_to(REFERENCE)
    out = tmp_path / "r.json"
    done = _cli("grade", "pocoloco", str(folder), "--json", str(out), "--out",
                str(tmp_path / "reports"))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["score"] == 0 and all(t["score"] == 0 for t in data["tests"])
    assert "symbolic link" in data["output"]
    assert any("symbolic link" in r for r in data["extra_data"]["needs_review"])
    feedback = (tmp_path / "reports" / "pocoloco" / "linked" / "feedback.md").read_text()
    assert feedback.count("symbolic link") == 1


def test_a_class_folder_with_links_and_pipes(tmp_path):
    klass = tmp_path / "class"
    (klass / "honest").mkdir(parents=True)
    (klass / "honest" / "a5.py").write_bytes(REFERENCE.read_bytes())
    (klass / "linkedfolder").symlink_to(KIT_ROOT / "reference" / "pocoloco")
    (klass / "smithjane_123_456_a5.py").symlink_to(REFERENCE)
    os.mkfifo(klass / "leekevin_123_456_a5.py")
    (klass / "inner").mkdir()
    (klass / "inner" / "a5.py").symlink_to(REFERENCE)
    (klass / "inner" / "notes.txt").write_text("notes\n")
    (klass / "nomain").mkdir()
    (klass / "nomain" / "notes.txt").write_text("notes\n")
    (klass / "nomain" / "draft.txt").write_text("draft\n")
    found = {s.student: s for s in discover(klass, "a5.py")}
    assert found["honest"].found
    for student in ("linkedfolder", "smithjane", "leekevin", "inner"):
        assert found[student].refused, student
    done = _cli("grade-all", "pocoloco", str(klass), "--out", str(tmp_path / "reports"))
    assert done.returncode == 0, done.stderr
    # the count agrees with the progress lines: one graded, five that could not be
    assert "Graded 1 submission(s)" in done.stdout and "5 could not be graded" in done.stdout
    out = tmp_path / "reports" / "pocoloco"
    review = (out / "needs_review.md").read_text()
    for student in ("linkedfolder", "smithjane", "leekevin", "inner", "nomain"):
        data = json.loads((out / student / "results.json").read_text())
        assert data["score"] == 0, student
        line = next(line for line in review.splitlines() if f"**{student}**" in line)
        assert "refused" in line or student == "nomain", line
    assert "named pipe" in review and "symbolic link" in review
    assert "no a5.py: the submission holds draft.txt, notes.txt" in review
    honest = json.loads((out / "honest" / "results.json").read_text())
    assert honest["score"] == 24


def test_the_grader_reads_its_own_copies(tmp_path):
    original = _write(tmp_path / "student" / "a5.py", REFERENCE.read_bytes())
    submission = from_path(original.parent, "a5.py")
    copy = submission.files["a5.py"]
    assert copy != original and not copy.is_relative_to(original.parent)
    original.unlink()
    original.symlink_to(TEMPLATE)          # changing the student's folder changes nothing
    assert copy.read_bytes() == REFERENCE.read_bytes()
    assert stat.S_ISREG(os.lstat(copy).st_mode)


def test_read_regular_file_follows_no_link(tmp_path):
    target = _write(tmp_path / "secret.txt", b"secret")
    (tmp_path / "link.txt").symlink_to(target)
    os.mkfifo(tmp_path / "pipe")
    assert read_regular_file(target) == b"secret"
    assert read_regular_file(tmp_path / "link.txt") is None
    assert read_regular_file(tmp_path / "pipe") is None
    assert read_regular_file(target, limit=3) is None
    assert read_regular_file(tmp_path / "missing") is None


def test_student_names_stay_on_one_line(tmp_path):
    klass = tmp_path / "class"
    (klass / "evil\n- **alice** (24): fine").mkdir(parents=True)
    (klass / "evil\n- **alice** (24): fine" / "a5.py").write_text("print('hi')\n")
    (student,) = discover(klass, "a5.py")
    assert "\n" not in student.student and "*" not in student.student


# ---------------------------------------------------------------- zips
def _zip(path: Path, members: dict[str, bytes], links: dict[str, str] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in dict(links).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


def test_unsafe_zips_are_refused(tmp_path):
    source = REFERENCE.read_bytes()
    cases = {
        "traversal": (_zip(tmp_path / "t.zip", {"../../a5.py": source}), "outside itself"),
        "absolute": (_zip(tmp_path / "a.zip", {"/tmp/a5.py": source}), "outside itself"),
        "link": (_zip(tmp_path / "l.zip", {}, {"a5.py": str(REFERENCE)}), "symbolic link"),
        "bomb": (_zip(tmp_path / "b.zip", {"a5.py": source,
                                           "big.bin": bytes(MAX_ZIP_BYTES + 1)}),
                 "unpacks to"),
        "many": (_zip(tmp_path / "m.zip", {f"f{i}.txt": b"x"
                                           for i in range(MAX_ZIP_MEMBERS + 1)}),
                 "holds"),
        "corrupt": (_write(tmp_path / "c.zip", b"PK\x03\x04 not really a zip"),
                    "could not be opened"),
    }
    for name, (path, why) in cases.items():
        submission = from_path(path, "a5.py")
        assert not submission.found and why in (submission.refused or ""), (name,
                                                                            submission)
    assert not (tmp_path.parent / "a5.py").exists() and not Path("/tmp/a5.py").exists()


def test_a_zip_in_a_canvas_class_folder(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    _zip(klass / "nguyenanh_123_456_submission.zip",
         {"PocoLoco/a5.py": REFERENCE.read_bytes(), "PocoLoco/readme.txt": b"hi"})
    (student,) = discover(klass, "a5.py")
    assert student.student == "nguyenanh" and student.found
    assert set(student.files) == {"a5.py", "readme.txt"}


# ---------------------------------------------------------------- no main file
def test_a_folder_without_the_main_file_lists_what_it_holds(tmp_path):
    folder = tmp_path / "lost"
    (folder / "old").mkdir(parents=True)
    (folder / "pocoloco.txt").write_text("print('hi')\n")
    (folder / "notes.md").write_text("notes\n")
    out = tmp_path / "r.json"
    done = _cli("grade", "pocoloco", str(folder), "--json", str(out), "--out", str(tmp_path))
    assert done.returncode == 2
    assert "no a5.py: the submission holds notes.md, old/, pocoloco.txt" in done.stderr
    assert "Traceback" not in done.stderr
    data = json.loads(out.read_text())
    assert data["score"] == 0 and "notes.md, old/, pocoloco.txt" in data["output"]
    check = _cli("check", "pocoloco", str(folder))
    assert check.returncode == 2 and "notes.md" in check.stderr


def test_a_start_that_fails_for_a_moment_is_tried_once_more(monkeypatch):
    """EFAULT, EAGAIN or ENOMEM when a process starts says nothing about the program: one
    more try. Other errors (a missing interpreter) are raised at once."""
    real, tries = subprocess.Popen, []

    def flaky(argv, **kwargs):
        tries.append(argv)
        if len(tries) == 1:
            raise OSError(errno.EFAULT, "Bad address", argv[0])
        return real(argv, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", flaky)
    assert pythons.popen([sys.executable, "-c", "pass"]).wait() == 0 and len(tries) == 2

    def missing(argv, **kwargs):
        tries.append(argv)
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", argv[0])

    tries.clear()
    monkeypatch.setattr(subprocess, "Popen", missing)
    with pytest.raises(FileNotFoundError):
        pythons.popen(["/nowhere/python3"])
    assert len(tries) == 1


def test_a_parser_the_grader_cannot_start_is_not_the_programs_fault(monkeypatch):
    """When the student's Python cannot be started to parse the file, the file is not said
    to be unreadable (no 'cannot start', review items not set to 0 for it): a TA is told,
    and once the parser starts again the file is read as usual (the failure was not kept)."""
    real = pythons.popen

    def no_parser(argv, **kwargs):
        if "--serve" in argv:
            raise OSError(errno.EFAULT, "Bad address", argv[0])
        return real(argv, **kwargs)

    static._parser.stop()
    static._facts.cache_clear()          # facts found by earlier tests in this process
    monkeypatch.setattr(pythons, "popen", no_parser)
    with pytest.raises(static.ParserUnavailable):
        static.facts(REFERENCE)
    report = grade("pocoloco", [REFERENCE], ["reference"])["reference"]
    told = " ".join(report.notes + report.problems)
    assert "cannot start" not in told and "does not parse" not in told, told
    assert "could not run" in " ".join(report.problems)
    # the review items are left to a TA (not judged), the automatic ones keep their marks
    assert not [v.item.id for v in report.verdicts if v.item.id in REVIEW and v.judged]
    assert {item: marks for item, marks in objective(report).items()
            if marks[0] < marks[1]} == {}
    monkeypatch.setattr(pythons, "popen", real)
    assert static.facts(REFERENCE).parse_error is None
