"""student-tests: the student's test_project.py on their own code, on the correct reference
project, and on copies of the reference with one small bug each (the mutations below).

All folders are tested in ONE sandboxed process with the student's Python, in one pytest
session (``testrunner.py``, copied into the run folder), which appends each folder's per-test
outcomes to a results file. A test that fails on the correct reference does not count as
catching anything.
"""
from __future__ import annotations

import json
import re
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine import pythons
from graders.engine.harness import Child, Limits, prepare_workdir, remove_folder
from graders.engine.rubric import DATA_ROOT
from graders.engine.session import Session
from graders.engine.submissions import read_regular_file

REFERENCE = DATA_ROOT / "reference" / "poker_dice"
MODULES = ("project.py", "dice.py", "magic8ball.py")
TEST_FILE = "test_project.py"
OWN, CONTROL = "own", "reference"
PER_TEST_SECONDS = 2


@dataclass(frozen=True)
class Mutation:
    """One small bug put into a copy of the reference project."""

    name: str
    file: str
    old: str
    new: str
    bug: str                      # the bug in words, for the feedback


MUTATIONS = (
    Mutation("straight_pays_15", "project.py", '"Straight": 20,', '"Straight": 15,',
             "a Straight pays $15 instead of $20"),
    Mutation("full_house_is_three_kind", "project.py", '(3, 2): "Full House",',
             '(3, 2): "3 of a Kind",', "a Full House is scored as 3 of a Kind (so "
             "isFullHouse is never True)"),
    Mutation("no_high_straight", "project.py", "STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])",
             "STRAIGHTS = ([1, 2, 3, 4, 5],)", "2 3 4 5 6 is not a Straight"),
    Mutation("lowercase_kind", "project.py", '"3 of a Kind"', '"3 of a kind"',
             "the description of 3 of a Kind is spelled \"3 of a kind\""),
    Mutation("two_pair_too_generous", "project.py", 'return handName(d) == "2 Pair"',
             "return len(set(d)) <= 3", "is2Pair is True for every roll with at most three "
             "different faces (a Full House or 3 of a Kind too)"),
    Mutation("empty_answer_valid", "project.py", "return len(numbers) > 0 and all(",
             "return all(", "isvalidDice(\"\") returns True (an empty answer is valid)"),
    Mutation("die_value_unchecked", "dice.py", "if v not in FACES:", "if False:",
             "Die.setDieValue has no range check (no ValueError for 0 or 7)"),
)

RUNNER = Path(__file__).with_name("testrunner.py")
LENT = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging")


@dataclass
class FolderResult:
    """pytest in one folder: exit code, outcome per test, failure texts, collection errors."""

    code: int
    tests: dict[str, str] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def passing(self) -> set[str]:
        """The tests that passed."""
        return {test for test, outcome in self.tests.items() if outcome == "passed"}

    @property
    def failed(self) -> set[str]:
        """The tests that failed (or errored)."""
        return {test for test, outcome in self.tests.items() if outcome == "failed"}


@dataclass
class TestEvidence:
    """Every folder's result, and how the runs went."""

    missing: bool = False
    results: dict[str, FolderResult] = field(default_factory=dict)
    problem: str | None = None          # how the runner process ended, when not normally
    transcript: str = ""
    broken_mutations: list[str] = field(default_factory=list)   # kit problem: did not apply


def mutated(mutation: Mutation) -> dict[str, str] | None:
    """The reference's modules with the mutation applied (None if it no longer applies)."""
    texts = {name: (REFERENCE / name).read_text(encoding="utf-8") for name in MODULES}
    if mutation.old not in texts[mutation.file]:
        return None
    texts[mutation.file] = texts[mutation.file].replace(mutation.old, mutation.new)
    return texts


def prepare(files: dict, evidence: TestEvidence) -> tuple[Path, list[str]]:
    """The base folder with the runner, and one folder per run (own, reference, mutants)."""
    base = prepare_workdir({"kit_run_tests.py": RUNNER}, {"kit-pytest.ini": "[pytest]\n"})
    tests = files[TEST_FILE]
    own = base / OWN
    own.mkdir()
    for name, path in files.items():
        if name.endswith(".py") and path.is_file() and path.stat().st_size <= 2_000_000:
            shutil.copy2(path, own / name)
    folders = [OWN, CONTROL]
    _fill(base / CONTROL, {name: (REFERENCE / name).read_text(encoding="utf-8")
                           for name in MODULES}, tests)
    for mutation in MUTATIONS:
        texts = mutated(mutation)
        if texts is None:
            evidence.broken_mutations.append(mutation.name)
            continue
        _fill(base / mutation.name, texts, tests)
        folders.append(mutation.name)
    return base, folders


def _fill(folder: Path, texts: dict[str, str], tests: Path) -> None:
    """A folder holding the given modules and the student's test file."""
    folder.mkdir()
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    shutil.copy2(tests, folder / TEST_FILE)


def run_student_tests(submission, budget) -> TestEvidence:
    """pytest on every folder; a second process picks up after one that died or hung."""
    files, evidence = submission.files, TestEvidence()
    if TEST_FILE not in files:
        evidence.missing = True
        return evidence
    base, folders = prepare(files, evidence)
    results_file = f"kit-results-{uuid.uuid4().hex[:8]}.jsonl"
    try:
        for attempt in range(2):
            waiting = [folder for folder in folders if folder not in evidence.results]
            if not waiting or budget.left < 2:
                break
            _run(base, results_file, waiting, budget, evidence)
            _read(base / results_file, evidence)
            left = [folder for folder in folders if folder not in evidence.results]
            if left:
                evidence.results[left[0]] = FolderResult(-2, errors=[
                    evidence.problem or "the test run stopped here"])
            if evidence.results[OWN].code != 0:
                break                  # the item gets 0 anyway: no need to try the rest
    finally:
        remove_folder(base)
    return evidence


def _run(base: Path, results_file: str, folders: list[str], budget,
         evidence: TestEvidence) -> None:
    """One runner process over some folders (questions from input() get end-of-file)."""
    paths = pythons.pure_python_packages(*LENT)
    bytecode = pythons.lent_bytecode(pythons.student_python(), *LENT)
    child = Child(base / "kit_run_tests.py", workdir=base, budget=budget,
                  args=[results_file, str(PER_TEST_SECONDS), bytecode] + folders,
                  limits=Limits(cpu_seconds=12, stuck_cpu_seconds=PER_TEST_SECONDS + 1.5,
                                idle_seconds=10),
                  paths=paths + [bytecode] * (bytecode != "-"))
    session = Session(child.start())
    while session.wait() is not None:
        session.end_input()
    session.close()
    transcript = session.transcript
    evidence.transcript += transcript.render(max_lines=80) + "\n"
    if transcript.outcome.get("status") not in ("finished", "exit"):
        evidence.problem = transcript.ended_how


def _read(path: Path, evidence: TestEvidence) -> None:
    """The folders' results from the results file."""
    data = read_regular_file(path, 5_000_000)       # written in the run folder: no links
    if data is None:
        return
    lines = data.decode("utf-8", "replace").splitlines()
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        evidence.results[data["folder"]] = FolderResult(
            int(data.get("code", -1)), dict(data.get("tests", {})),
            dict(data.get("failures", {})), list(data.get("errors", [])))


def test_functions(result: FolderResult) -> set[str]:
    """The test functions pytest collected (parametrized cases count once)."""
    return {re.sub(r"\[.*\]$", "", test.split("::", 1)[-1]) for test in result.tests}


def caught(control: FolderResult, mutant: FolderResult) -> bool:
    """Whether a test that passes on the correct reference fails on the mutant."""
    if not control.passing:
        return False
    if mutant.code == -2 or (mutant.errors and not mutant.tests):
        return True
    return bool(control.passing & (mutant.failed | (control.passing - set(mutant.tests))))
