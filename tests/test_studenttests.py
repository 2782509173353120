"""Tests of the engine's student-tests lane (graders/engine/call/studenttests.py) on a small project
of its own: a plan read from TOML, the student's tests run in one sandboxed pytest session on
their project, the reference and its broken copies, and the judging of what they caught."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from graders.engine.grading import plugin
from graders.engine.call import studenttests
from graders.engine.judge.rubric import CheckResult, Fail, NotJudged
from graders.engine.call.studenttests import FolderResult

REFERENCE = 'RATES = {"gold": 3, "silver": 2}\n\n\ndef price(metal, grams):\n' \
            '    """The price of some grams of a metal."""\n' \
            '    if grams < 0:\n        raise ValueError("negative")\n' \
            '    return RATES[metal] * grams\n'
PLAN = '''test_file = "test_shop.py"
modules = ["shop.py"]
min_test_functions = 2
handout_section = "Testing"

[[mutation]]
name = "gold_cheap"
file = "shop.py"
old = '"gold": 3'
new = '"gold": 1'
bug = "gold costs 1 a gram instead of 3"

[[mutation]]
name = "negative_allowed"
file = "shop.py"
old = "if grams < 0:"
new = "if False:"
bug = "price accepts a negative weight"
'''
# catches gold_cheap only; test_silver fails even on the reference (expects 3)
TESTS = '''from shop import price


def test_gold():
    assert price("gold", 2) == 6


def test_silver():
    assert price("silver", 1) == 3


def test_zero():
    assert price("gold", 0) == 0
'''
PASSING = TESTS.replace('price("silver", 1) == 3', 'price("silver", 1) == 2')


@pytest.fixture
def plan(tmp_path):
    reference = tmp_path / "reference"
    reference.mkdir()
    (reference / "shop.py").write_text(REFERENCE)
    (tmp_path / "plan.toml").write_text(PLAN)
    return studenttests.Plan.load(tmp_path / "plan.toml", reference)


def student(tmp_path, tests: str | None, shop: str = REFERENCE) -> dict:
    """The student's files: name -> path."""
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "shop.py").write_text(shop)
    files = {"shop.py": folder / "shop.py"}
    if tests is not None:
        (folder / "test_shop.py").write_text(tests)
        files["test_shop.py"] = folder / "test_shop.py"
    return files


def judged(evidence) -> tuple[CheckResult, list, dict]:
    """The check's result, the notes for a TA and the attachments."""
    result, notes, attached = CheckResult("tests", "check"), [], {}
    try:
        studenttests.judge(result, evidence, lambda *note: notes.append(note),
                           attached.__setitem__)
    except Fail as failure:
        result.fraction = failure.fraction
        result.messages.append(failure.message)
    return result, notes, attached


def test_the_plan_reads_its_mutations(plan):
    assert plan.test_file == "test_shop.py" and plan.min_functions == 2
    assert [m.name for m in plan.mutations] == ["gold_cheap", "negative_allowed"]
    assert '"gold": 1' in plan.mutated(plan.mutations[0])["shop.py"]


def test_a_mutation_that_no_longer_applies_is_left_out_and_told(plan, tmp_path):
    (plan.reference / "shop.py").write_text(REFERENCE.replace("if grams < 0:", "if grams<0:"))
    assert plan.mutated(plan.mutations[1]) is None
    evidence = studenttests.run(student(tmp_path, PASSING), plan, plugin.Budget(15))
    assert evidence.broken_mutations == ["negative_allowed"]
    assert "negative_allowed" not in evidence.results
    result, notes, _ = judged(evidence)
    assert any(note[0].startswith("tests: the kit's mutation negative_allowed no longer applies")
               for note in notes)
    assert result.fraction == 1.0          # caught the one mutation that was tried


def test_tests_run_on_every_folder_and_catch_what_they_catch(plan, tmp_path):
    evidence = studenttests.run(student(tmp_path, TESTS), plan, plugin.Budget(15))
    own, control = evidence.results["own"], evidence.results["reference"]
    assert own.code == 1 and own.failed == {"test_silver"}
    assert control.passing == {"test_gold", "test_zero"}
    assert studenttests.caught(control, evidence.results["gold_cheap"])
    assert not studenttests.caught(control, evidence.results["negative_allowed"])
    result, _, attached = judged(evidence)
    # they fail on the student's own code: nothing else counts
    assert result.fraction == 0 and "must pass on your own code first" in result.messages[0]
    assert "test_silver" in result.messages[0]
    shown = attached["transcripts/tests.txt"]                     # named after the item
    assert "your own project" in shown and "test_silver" in shown


def test_the_share_caught_and_the_bugs_missed(plan, tmp_path):
    evidence = studenttests.run(student(tmp_path, PASSING), plan, plugin.Budget(15))
    result, _, _ = judged(evidence)
    assert result.fraction == 0.5
    assert "caught 1 of the 2 broken projects" in result.messages[0]
    assert "- price accepts a negative weight" in result.messages[0]
    assert "gold costs 1" not in result.messages[0]


def test_a_missing_test_file_gets_nothing(plan, tmp_path):
    evidence = studenttests.run(student(tmp_path, None), plan, plugin.Budget(15))
    assert evidence.missing and not evidence.results
    result, _, _ = judged(evidence)
    assert result.fraction == 0 and "There is no test_shop.py" in result.messages[0]


def test_too_few_test_functions(plan):
    evidence = studenttests.Evidence(plan, results={
        "own": FolderResult(0, {"test_shop.py::test_a[1]": "passed",
                                "test_shop.py::test_a[2]": "passed"})})
    result, _, _ = judged(evidence)
    assert result.fraction == 0
    assert "at least two test functions; pytest found 1: test_a." in result.messages[0]


def test_tests_that_fail_on_the_reference_catch_nothing():
    # a broken copy is run with the tests that pass on the reference only: its exit status
    control = FolderResult(1, {"t::a": "failed", "t::b": "passed"})
    assert studenttests.caught(control, FolderResult(1))
    assert not studenttests.caught(control, FolderResult(0))
    nothing_passes = FolderResult(1, {"t::a": "failed"})
    assert not studenttests.caught(nothing_passes, FolderResult(-2))
    # a copy whose run stopped, or whose tests could not be collected, is caught
    assert studenttests.caught(control, FolderResult(studenttests.STOPPED))
    assert studenttests.caught(control, FolderResult(2))


def test_no_run_is_not_judged():
    result = CheckResult("tests", "check")
    with pytest.raises(NotJudged, match="were not run"):
        studenttests.judge(result, None, print, print)


def test_tests_that_fail_on_a_correct_project_are_named(plan, tmp_path):
    own_rates = REFERENCE.replace('"silver": 2', '"silver": 3')     # test_silver passes here
    evidence = studenttests.run(student(tmp_path, TESTS, own_rates), plan, plugin.Budget(15))
    assert evidence.results["own"].code == 0
    result, _, _ = judged(evidence)
    assert result.fraction == 0.5
    assert any("fail on a correct project too" in note and "test_silver" in note
               for note in result.notes)


def test_lent_bytecode_is_made_again_when_the_packages_are_reinstalled(tmp_path, monkeypatch):
    """The lent packages' bytecode (read-only in the sandbox) matches the files installed now:
    after a reinstall (new files, new times) a folder made before would be stale, and every
    import in a student-test run would compile the package from source."""
    from graders.engine.run import pythons
    monkeypatch.setattr(pythons, "BYTECODE_ROOT", tmp_path / "bytecode")
    site = tmp_path / "site"
    package = site / "lentpkg"
    package.mkdir(parents=True)
    init = package / "__init__.py"
    init.write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(site))
    python = pythons.student_python()
    first = pythons.lent_bytecode(python, "lentpkg")
    assert first != "-" and pythons.lent_bytecode(python, "lentpkg") == first
    stat = init.stat()
    init.write_text("VALUE = 22\n")                       # reinstalled: new size and time
    os.utime(init, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = pythons.lent_bytecode(python, "lentpkg")
    assert second not in ("-", first)
    (pyc,) = Path(second).rglob("__init__*.pyc")
    header = pyc.read_bytes()[8:16]                     # the source's time and size it matches
    now = init.stat()
    assert int.from_bytes(header[:4], "little") == int(now.st_mtime) & 0xFFFFFFFF
    assert int.from_bytes(header[4:], "little") == now.st_size
