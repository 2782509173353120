"""A student's own test file, judged: it must pass on their project, then catch bugs.

An assignment that asks for a test file states, as data (a TOML file beside its grader, which
the student kit does not carry), the test file's name, the project's modules, the least number
of test functions, the handout section on testing and the mutations: small bugs, each put into
a copy of the reference by replacing one text of one file. ``Plan.load`` reads it.

``run`` tests every folder (the student's own project, the correct reference, one broken copy
per mutation) in ONE sandboxed process with the student's Python and one pytest session
(``boot/testrunner.py``, copied into the run folder), which appends each folder's outcome per
test to a results file. ``judge`` is the whole check: the tests must pass on the student's own
code with enough test functions (else 0), and the item gets the share of broken copies caught.
A test that fails on the correct reference does not count as catching anything.
"""
from __future__ import annotations

import json
import re
import shutil
import tomllib
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from . import pythons
from .harness import Child, Limits, copy_into, prepare_workdir, remove_folder
from .session import Session
from .submissions import read_regular_file

OWN, CONTROL = "own", "reference"
PER_TEST_SECONDS = 2          # CPU seconds one test may take
RUNNER = Path(__file__).with_name("boot") / "testrunner.py"
LENT = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py")


@dataclass(frozen=True)
class Mutation:
    """One small bug put into a copy of the reference project."""

    name: str
    file: str
    old: str
    new: str
    bug: str                      # the bug in words, for the feedback


@dataclass(frozen=True)
class Plan:
    """What an assignment asks of the student's tests, and the bugs they must catch."""

    test_file: str
    modules: tuple[str, ...]      # the project's files, copied from the reference
    reference: Path
    mutations: tuple[Mutation, ...]
    min_functions: int = 3
    handout_section: str = ""

    @classmethod
    def load(cls, path: Path, reference: Path) -> "Plan":
        """The plan in a TOML file: test_file, modules, min_test_functions, handout_section
        and [[mutation]] tables (name, file, old, new, bug)."""
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(data["test_file"], tuple(data["modules"]), reference,
                   tuple(Mutation(**mutation) for mutation in data.get("mutation", [])),
                   int(data.get("min_test_functions", 3)), data.get("handout_section", ""))

    def mutated(self, mutation: Mutation) -> dict[str, str] | None:
        """The reference's modules with the mutation applied (None if it no longer applies)."""
        texts = {name: (self.reference / name).read_text(encoding="utf-8")
                 for name in self.modules}
        if mutation.old not in texts[mutation.file]:
            return None
        texts[mutation.file] = texts[mutation.file].replace(mutation.old, mutation.new)
        return texts


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

    @property
    def functions(self) -> set[str]:
        """The test functions pytest collected (parametrized cases count once)."""
        return {re.sub(r"\[.*\]$", "", test.split("::", 1)[-1]) for test in self.tests}


@dataclass
class Evidence:
    """Every folder's result, and how the runs went."""

    plan: Plan
    missing: bool = False
    results: dict[str, FolderResult] = field(default_factory=dict)
    problem: str | None = None          # how the runner process ended, when not normally
    transcript: str = ""
    broken_mutations: list[str] = field(default_factory=list)   # kit problem: did not apply


def caught(control: FolderResult, mutant: FolderResult) -> bool:
    """Whether a test that passes on the correct reference fails on the mutant (a folder whose
    run stopped, or whose tests could not even be collected, counts as caught)."""
    if not control.passing:
        return False
    if mutant.code == -2 or (mutant.errors and not mutant.tests):
        return True
    return bool(control.passing & (mutant.failed | (control.passing - set(mutant.tests))))


# ----------------------------------------------------------------------------- running
def run(files: dict[str, Path], plan: Plan, budget) -> Evidence:
    """pytest on every folder; a second process picks up after one that died or hung."""
    evidence = Evidence(plan)
    if plan.test_file not in files:
        evidence.missing = True
        return evidence
    base, folders = _prepare(files, evidence)
    results_file = f"kit-results-{uuid.uuid4().hex[:8]}.jsonl"
    try:
        for _ in range(2):
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


def _prepare(files: dict[str, Path], evidence: Evidence) -> tuple[Path, list[str]]:
    """The base folder with the runner, and one folder per run (own, reference, mutants)."""
    plan = evidence.plan
    base = prepare_workdir({"kit_run_tests.py": RUNNER}, {"kit-pytest.ini": "[pytest]\n"})
    own = base / OWN
    own.mkdir()
    for name, path in files.items():
        if name.endswith(".py") and path.is_file() and path.stat().st_size <= 2_000_000:
            copy_into(own, name, path)
    folders = [OWN, CONTROL]
    reference = {name: (plan.reference / name).read_text(encoding="utf-8")
                 for name in plan.modules}
    _fill(base / CONTROL, reference, files[plan.test_file], plan.test_file)
    for mutation in plan.mutations:
        texts = plan.mutated(mutation)
        if texts is None:
            evidence.broken_mutations.append(mutation.name)
            continue
        _fill(base / mutation.name, texts, files[plan.test_file], plan.test_file)
        folders.append(mutation.name)
    return base, folders


def _fill(folder: Path, texts: dict[str, str], tests: Path, test_file: str) -> None:
    """A folder holding the given modules and the student's test file."""
    folder.mkdir()
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    shutil.copy2(tests, folder / test_file)


def _run(base: Path, results_file: str, folders: list[str], budget,
         evidence: Evidence) -> None:
    """One runner process over some folders (questions from input() get end-of-file)."""
    paths = pythons.pure_python_packages(*LENT)
    bytecode = pythons.lent_bytecode(pythons.student_python(), *LENT)
    child = Child(base / "kit_run_tests.py", workdir=base, budget=budget,
                  args=[results_file, str(PER_TEST_SECONDS), bytecode,
                        evidence.plan.test_file] + folders,
                  # pytest collects and runs silently: never the shorter stuck limit
                  limits=Limits(cpu_seconds=12, stuck_cpu_seconds=PER_TEST_SECONDS + 1.5,
                                stuck_again_cpu_seconds=None, idle_seconds=10),
                  paths=paths + [bytecode] * (bytecode != "-"))
    session = Session(child.start())
    while session.wait() is not None:
        session.end_input()
    session.close()
    transcript = session.transcript
    evidence.transcript += transcript.render(max_lines=80) + "\n"
    if transcript.outcome.get("status") not in ("finished", "exit"):
        evidence.problem = transcript.ended_how


def _read(path: Path, evidence: Evidence) -> None:
    """The folders' results from the results file."""
    data = read_regular_file(path, 5_000_000)       # written in the run folder: no links
    if data is None:
        return
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            found = json.loads(line)
        except ValueError:
            continue
        evidence.results[found["folder"]] = FolderResult(
            int(found.get("code", -1)), dict(found.get("tests", {})),
            dict(found.get("failures", {})), list(found.get("errors", [])))


# ----------------------------------------------------------------------------- judging
def judge(result, evidence: Evidence | None, for_ta, attach) -> None:
    """The whole check of a student-tests item (``for_ta`` and ``attach`` are the plugin's
    fixtures): not judged without a run, 0 unless the tests run and pass on the student's own
    code (or fail there only where they pass on a correct project: a bug they found), else
    the share of broken copies caught, each bug missed said in words."""
    if evidence is None:
        result.not_judged("The student's tests were not run: the grading time for this "
                          "submission was used up.")
    plan = evidence.plan
    if evidence.transcript:
        attach(f"transcripts/{result.item_id}.txt", "pytest on your tests in folders 'own' (your "
               "project), 'reference' (a correct project) and one per broken copy of it.\n"
               + evidence.transcript)
    for name in evidence.broken_mutations:
        # the kit's own problem: the TA's to fix, nothing the student can act on
        for_ta(f"{result.item_id}: the kit's mutation {name} no longer applies to the "
               "reference (a kit problem; it was left out)")
    if evidence.missing:
        result.fail(f"There is no {plan.test_file}, so this item gets no marks.")
    own = evidence.results.get(OWN)
    if own is None:
        result.fail(f"Your tests could not be run. {evidence.problem or ''}".strip(),
                    evidence=evidence.transcript[-3000:] or None)
    control = evidence.results.get(CONTROL)
    _require_tests(result, own, control, plan)
    tried = [m for m in plan.mutations if m.name not in evidence.broken_mutations]
    found = [m for m in tried if m.name in evidence.results and control is not None
             and caught(control, evidence.results[m.name])]
    if any(m.name not in evidence.results for m in tried):
        result.note("Some broken projects could not be tried (the test run stopped or the "
                    "time ran out); they count as not caught.")
    _explain_control(result, control, plan)
    missed = [m for m in tried if m not in found]
    fraction = round(len(found) / len(tried), 2) if tried else 0.0
    if missed:
        bugs = "\n".join(f"- {m.bug}" for m in missed)
        result.partial(fraction, f"Your tests caught {len(found)} of the {len(tried)} "
                                 f"broken projects, so this item gets {fraction:g} of its "
                                 f"marks. None of your tests failed on these bugs:\n{bugs}")
    else:
        result.note(f"Your tests caught all {len(tried)} broken projects.")


def _require_tests(result, own: FolderResult, control: FolderResult | None, plan: Plan) -> None:
    """Full stop unless there are enough tests and they run. Tests that fail on the student's
    own code must pass on the correct project.

    Interpretation: a test that fails on the student's own project but passes on a correct one
    has found a bug in that project. The bug costs marks under its own item ("a mistake costs
    marks once"); the tests did their job and are judged as usual. Tests that fail on the
    correct project too are wrong, and so is a test file that runs on neither."""
    ran = own.tests or (control is not None and control.tests)
    functions = own.functions or (control.functions if control is not None else set())
    wrong_too = own.failed & control.failed if control is not None else own.failed
    found_bug = own.code != 0 and control is not None and control.passing and \
        (own.failed or not own.tests) and not (own.failed - control.passing)
    if own.code != 0 and not found_bug or not ran:
        failing = sorted(wrong_too or own.failed)
        text = "\n\n".join(own.failures.get(test, "") for test in failing[:2]) or \
            "\n".join(own.errors) or None
        result.fail("Your tests must pass on your own code first (otherwise this item gets "
                    "0); a test that fails there must at least pass on a correct project. " +
                    (f"These failed on both: {', '.join(failing)}." if failing else
                     "pytest did not run any test (see below)."), actual=text)
    if len(functions) < plan.min_functions:
        result.fail(f"{plan.test_file} must have at least {_count(plan.min_functions)} test "
                    f"functions; pytest found {len(functions)}: "
                    f"{', '.join(sorted(functions)) or 'none'}.")
    if found_bug:
        which = f": {', '.join(sorted(own.failed))}" if own.failed else \
            " (they could not even be collected with your project)"
        result.note("Your tests fail on your own project but pass on a correct one" + which +
                    ". They found a bug in your project, which costs marks under its own item, "
                    "not here.")


def _count(number: int) -> str:
    """'three' for 3 (the handouts spell small numbers)."""
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[number] if 0 <= number < len(words) else str(number)


def _explain_control(result, control: FolderResult | None, plan: Plan) -> None:
    """A note about tests that fail on the correct reference project (they cannot count)."""
    if control is None:
        return
    if control.errors and not control.tests:
        section = f" (handout: '{plan.handout_section}')" if plan.handout_section else ""
        result.note("Your tests could not even be collected with a correct project: "
                    f"{control.errors[0][-600:]}\nImport only the required names{section}.")
    elif control.failed:
        result.note("These tests fail on a correct project too, so they cannot count as "
                    f"catching a bug: {', '.join(sorted(control.failed))}.")
