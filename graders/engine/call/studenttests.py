"""A student's own test file, judged: it must pass on their project, then catch bugs.

An assignment that asks for a test file states, as data (a TOML file beside its grader, which
the student kit does not carry), the test file's name, the project's modules, the least number
of test functions, the handout section on testing and the mutations: small bugs, each put into
a copy of the reference by replacing one text of one file. ``Plan.load`` reads it.

``run`` tests each copy of the project (the student's own, the correct reference, one broken
copy per mutation) on its own, with the student's Python, in one sandbox and one runner
process (``boot/testrunner.py``, kit code only): the copy is put into the folder ``project/``
(the same folder for every copy, never two copies at once), and a process forked from the
runner runs pytest there. What counts is that process's exit status, which the runner reports
once every process of the copy has ended, signed with a key the grader gives only then (so no
test can forge an outcome, whatever it prints, writes or hooks into pytest). The order of the
reference and the broken copies is shuffled. Nothing printed on a copy other than the
student's own is ever read: the feedback gives only the kit's own summary.

``judge`` is the whole check: the tests must pass on the student's own code with enough test
functions (else 0), and the item gets the share of broken copies caught. A test that fails on
the correct reference does not count as catching anything (the copies are then tested again
with only the tests that pass on the reference).
"""
from __future__ import annotations

import hmac
import json
import random
import re
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..run import pythons, sandbox
from ..run.files import read_regular_file, remove_folder
from ..run.harness import Child, Limits, copy_into, prepare_workdir
from ..drive.transcript import Transcript

OWN, CONTROL = "own", "reference"
PER_TEST_SECONDS = 2          # CPU seconds one test may take
RUNNER = Path(__file__).parents[1] / "run" / "boot" / "testrunner.py"
RUNNER_NAME = "kit_run_tests.py"
INI = "kit-pytest.ini"
LENT = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py")
STOPPED = -2                  # the copy's run stopped (the runner died or hung)


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
    """pytest on one copy: its exit status (0 all passed, 1 a test failed, 2 the file could
    not be collected, 5 no tests; STOPPED) and the outcome per test where it was asked for;
    ``output`` is pytest's own output, kept for the student's own copy only."""

    code: int
    tests: dict[str, str] = field(default_factory=dict)
    output: str = ""
    count: int = 0                # test functions collected (the only thing other copies say)

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
    """Every copy's result, and how the runs went."""

    plan: Plan
    missing: bool = False
    results: dict[str, FolderResult] = field(default_factory=dict)
    problem: str | None = None          # how the runner process ended, when not normally
    transcript: str = ""                # pytest's output on the student's own project
    broken_mutations: list[str] = field(default_factory=list)   # kit problem: did not apply


def caught(control: FolderResult, mutant: FolderResult) -> bool:
    """Whether the tests that pass on the correct reference did not all pass on the mutant
    (its run is made with those tests only): one failed, or the run stopped, or the tests
    could not even be collected."""
    return bool(control.passing) and mutant.code != 0


# ----------------------------------------------------------------------------- running
class _Runner:
    """The runner process (restarted once after it died or hung) and its copies."""

    def __init__(self, plan: Plan, budget, evidence: Evidence):
        self.plan, self.budget, self.evidence = plan, budget, evidence
        self.base: Path | None = None
        self.child: Child | None = None
        self.starts = 0

    def _start(self) -> bool:
        self.close()
        if self.starts >= 3 or self.budget.left < 1:
            return False
        self.starts += 1
        self.base = prepare_workdir({RUNNER_NAME: RUNNER}, {INI: "[pytest]\n"},
                                    prefix="kit-tests-")
        paths = pythons.pure_python_packages(*LENT)
        bytecode = pythons.lent_bytecode(pythons.student_python(), *LENT)
        sandboxed = sandbox.status().active
        self.child = Child(self.base / RUNNER_NAME, workdir=self.base, budget=self.budget,
                           mode="runner",
                           args=[str(PER_TEST_SECONDS), bytecode, self.plan.test_file,
                                 "1" if sandboxed else "0"],
                           # pytest runs silently: never the shorter stuck limit
                           limits=Limits(cpu_seconds=12, stuck_cpu_seconds=PER_TEST_SECONDS + 2,
                                         stuck_again_cpu_seconds=None, idle_seconds=10),
                           paths=paths + [bytecode] * (bytecode != "-")).start()
        return self._wait_for("kit-copy?")

    def _wait_for(self, prompt: str) -> bool:
        event = self.child.next_event()
        if event is None or event.get("ev") != "input" or \
                (event.get("prompt") or "").strip() != prompt:
            self.evidence.problem = Transcript(self.child.log, self.child.outcome).ended_how \
                if self.child.outcome else "the test run stopped"
            self.close()
            return False
        return True

    def _fill(self, files: dict[str, Path | str], order: dict) -> None:
        """The run folder holds the runner, the pytest settings, the order and one copy."""
        for entry in list(self.base.iterdir()):
            if entry.name in (RUNNER_NAME, INI) and entry.is_file() and \
                    not entry.is_symlink():
                continue                 # (read by the runner once, when it started)
            if entry.is_dir() and not entry.is_symlink():
                remove_folder(entry)
            else:
                entry.unlink()
        project = self.base / "project"
        project.mkdir()
        for name, source in files.items():
            if isinstance(source, Path):
                copy_into(project, name, source)       # game/card.py: its folder is made
            else:
                (project / name).write_text(source, encoding="utf-8")
        (self.base / "kit-order.json").write_text(json.dumps(order))
        isolation = sandbox.status()
        if isolation.active and isolation.as_root and isolation.uid is not None:
            sandbox.give_to(str(self.base), isolation.uid)

    def test(self, name: str, files: dict[str, Path | str],
             select: list[str] | None = None) -> FolderResult:
        """pytest on one copy (only the ``select`` tests, if given)."""
        if self.child is None or not self.child.running:
            if not self._start():
                return FolderResult(STOPPED)
        order = {"copy": name, "own": name == OWN, "select": select}
        self._fill(files, order)
        self.child.send_line("go")
        if not self._wait_for("kit-key?"):
            return FolderResult(STOPPED)
        key = secrets.token_bytes(32)
        self.child.send_line(key.hex())
        start = len(self.child.log)
        if not self._wait_for("kit-copy?"):
            return FolderResult(STOPPED)
        return self._report(name, key, Transcript(self.child.log[start:]).text)

    def _report(self, name: str, key: bytes, said: str) -> FolderResult:
        """The signed report of the copy just tested (STOPPED when there is none)."""
        data = read_regular_file(self.base / "kit-report.json", 5_000_000)
        signature = re.findall(r"kit-report ([0-9a-f]{64})", said)
        if data is None or not signature or not hmac.compare_digest(
                signature[-1], hmac.new(key, data, "sha256").hexdigest()):
            self.evidence.problem = "the test runner's report was missing"
            self.close()
            return FolderResult(STOPPED)
        report = json.loads(data)
        if report.get("copy") != name or not isinstance(report.get("status"), int):
            return FolderResult(STOPPED)
        count = report.get("count") if isinstance(report.get("count"), int) else 0
        result = FolderResult(report["status"], output=str(report.get("output", "")),
                              count=count)
        if name == OWN:
            result.tests = dict.fromkeys((_short(test) for test in report.get("ids", [])
                                          if isinstance(test, str)),
                                         "passed" if report["status"] == 0 else "?")
        return result

    def close(self) -> None:
        if self.child is not None:
            self.child.close()
            self.child = None
        if self.base is not None:
            remove_folder(self.base)
            self.base = None


def _short(nodeid: str) -> str:
    """A test's name without its file: test_gold, test_a[1]."""
    return nodeid.split("::", 1)[-1][:200]


def run(files: dict[str, Path], plan: Plan, budget) -> Evidence:
    """pytest on every copy, each on its own (see the module's docstring)."""
    evidence = Evidence(plan)
    if plan.test_file not in files:
        evidence.missing = True
        return evidence
    tests = files[plan.test_file]
    own = {name: path for name, path in files.items()
           if name.endswith(".py") and name != "conftest.py" and path.is_file()
           and path.stat().st_size <= 2_000_000}
    reference = {name: (plan.reference / name).read_text(encoding="utf-8")
                 for name in plan.modules}
    copies = {CONTROL: reference}
    for mutation in plan.mutations:
        texts = plan.mutated(mutation)
        if texts is None:
            evidence.broken_mutations.append(mutation.name)
        else:
            copies[mutation.name] = texts
    runner = _Runner(plan, budget, evidence)
    try:
        mine = evidence.results[OWN] = runner.test(OWN, own)
        evidence.transcript = mine.output
        if mine.code != 0 and mine.tests:
            for test in list(mine.tests):        # which of them fail on the student's own
                mine.tests[test] = _one(runner, OWN, own, test)
        order = list(copies)
        random.SystemRandom().shuffle(order)    # a test cannot tell the copies by their turn
        for name in order:
            evidence.results[name] = runner.test(name, {**copies[name], plan.test_file: tests})
        control = evidence.results[CONTROL]
        if control.code == 0:
            # every test passed there (tests the student's own project could not collect
            # are known by their number only)
            control.tests = {test: "passed" for test in mine.tests} or \
                {f"#{number + 1}": "passed" for number in range(control.count)}
        elif control.code not in (2, STOPPED) and mine.tests:
            # some tests fail on the correct project: each one alone there, then the broken
            # copies again with only those that pass
            control.tests = {test: _one(runner, CONTROL, {**reference, plan.test_file: tests},
                                        test) for test in mine.tests}
            passing = [f"{plan.test_file}::{test}" for test in sorted(control.passing)]
            if passing:
                for name in [name for name in order if name != CONTROL]:
                    evidence.results[name] = runner.test(
                        name, {**copies[name], plan.test_file: tests}, passing)
    finally:
        runner.close()
    return evidence


def _one(runner: _Runner, name: str, files: dict, test: str) -> str:
    """One test alone on one copy: 'passed' or 'failed'."""
    result = runner.test(name, files, [f"{runner.plan.test_file}::{test}"])
    return "passed" if result.code == 0 else "failed"


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
        attach(f"transcripts/{result.item_id}.txt", "pytest on your tests with your own "
               "project (runs on the kit's projects are summed up in the feedback only).\n"
               + evidence.transcript[-20000:])
    for name in evidence.broken_mutations:
        # the kit's own problem: the TA's to fix, nothing the student can act on
        for_ta(f"{result.item_id}: the kit's mutation {name} no longer applies to the "
               "reference (a kit problem; it was left out)")
    if evidence.missing:
        result.fail(f"There is no {plan.test_file}, so this item gets no marks.")
    own = evidence.results.get(OWN)
    if own is None or own.code == STOPPED:
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
    functions = own.functions
    found = len(functions) or (control.count if control is not None else 0)
    wrong_too = own.failed & control.failed if control is not None else own.failed
    found_bug = own.code != 0 and control is not None and control.passing and \
        (own.failed or not own.tests) and not (own.failed - control.passing)
    if own.code != 0 and not found_bug or not ran:
        failing = sorted(wrong_too or own.failed)
        text = own.output[-3000:] or None        # pytest on the student's own project only
        result.fail("Your tests must pass on your own code first (otherwise this item gets "
                    "0); a test that fails there must at least pass on a correct project. " +
                    (f"These failed on both: {', '.join(failing)}." if failing else
                     "pytest did not run any test (see below)."), actual=text)
    if found < plan.min_functions:
        result.fail(f"{plan.test_file} must have at least {_count(plan.min_functions)} test "
                    f"functions; pytest found {found}" +
                    (f": {', '.join(sorted(functions))}." if functions else "."))
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
    if control.code == 2:
        # the kit's own words: nothing printed while the correct project was tested is shown
        section = f" (handout: '{plan.handout_section}')" if plan.handout_section else ""
        result.note("Your tests could not even be collected with a correct project (pytest "
                    "stopped before running any test: an import or a name the correct "
                    f"project does not have?). Import only the required names{section}.")
    elif control.failed:
        result.note("These tests fail on a correct project too, so they cannot count as "
                    f"catching a bug: {', '.join(sorted(control.failed))}.")
