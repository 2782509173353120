"""Tests of the engine's object probes (graders/engine/call/objects.py) on a small class."""
from __future__ import annotations

import pytest

from graders.engine.call.calls import FunctionCalls
from graders.engine.run.draws import ScriptedDice
from graders.engine.run.harness import Limits
from graders.engine.call.objects import Probe, Prober, judge, probes_from
from graders.engine.judge.requirements import check

COUNTER = '''import random


class Counter:
    def __init__(self, start=0):
        if start < 0:
            raise ValueError("start must be 0 or more")
        self.count = start

    def add(self):
        self.count += 1

    def roll(self):
        self.count = random.randint(1, 6) + random.randint(1, 6) * 0

    def show(self):
        print(f"count: {self.count}")

    def speak(self):
        import pyttsx3
        engine = pyttsx3.init()
        engine.say(f"count {self.count}")
        engine.runAndWait()

    def stuck(self):
        while True:
            pass
'''


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """Run one probe of counter.py: probe(Probe) -> (requirement, outcome)."""
    folder = tmp_path_factory.mktemp("objects")
    (folder / "counter.py").write_text(COUNTER)
    (folder / "kit_probe.py").write_text('"""Empty."""\n')
    policy = ScriptedDice()
    with FunctionCalls(folder / "kit_probe.py", folder, module="kit_probe", policy=policy,
                       limits=Limits(cpu_seconds=20)) as calls:
        prober = Prober(calls, policy)

        def run(wanted: Probe, readers=None):
            outcome = prober.run(wanted, "counter")
            return judge(wanted, outcome, readers), outcome
        yield run


def test_an_expected_error_and_values_read_afterwards(probe):
    assert probe(Probe("Counter(-1)", raises="ValueError"))[0].ok
    found, outcome = probe(Probe("c.add()", setup="c = Counter(2)", expect={"c.count": 3}))
    assert found.ok and outcome.looks == {"c.count": 3}


def test_the_first_thing_wrong_is_told_with_the_case(probe):
    found, _ = probe(Probe("c.add()", setup="c = Counter(2)", expect={"c.count": 4},
                           why="add() counts one."))
    assert not found.ok
    assert found.sentence == "After c = Counter(2); c.add(), c.count is 3, not 4. add() counts one."
    assert (found.expected, found.actual) == ("4", "3")
    found, _ = probe(Probe("Counter(-1)"))
    assert found.case == "Counter(-1) raised ValueError: start must be 0 or more; it must not " \
                         "raise an error."
    found, _ = probe(Probe("Counter(1)", raises="ValueError"))
    assert found.case == "Counter(1) returned normally (no error); it must raise ValueError."
    found, _ = probe(Probe("c.add()", setup="c = Counter(2)", raises="ValueError",
                           expect={"c.count": 2}))
    assert found.actual == "returned normally (no error); c.count is then 3"


def test_a_setup_that_fails_fails_the_probe_with_its_traceback(probe):
    found, outcome = probe(Probe("c.add()", setup="c = Counter(-5)", case="c.add()"))
    assert not outcome.ok and not found.ok
    assert found.case.startswith("c.add() raised ValueError: start must be 0 or more")
    assert "counter.py" in found.actual


def test_die_draws_are_loaded_and_counted(probe):
    found, outcome = probe(Probe("c.roll()", setup="c = Counter()", faces=[4, 1], draws=2,
                                 draw_call="randint(1, 6)", expect={"c.count": 4}))
    assert found.ok and len(outcome.draws) == 2
    found, _ = probe(Probe("c.roll()", setup="c = Counter()", faces=[4, 1], draws=1))
    assert not found.ok and "made 2 random draw(s)" in found.case


def test_printed_text_and_a_readers_verdict(probe):
    assert probe(Probe("Counter(7).show()", prints="count: 7"))[0].ok
    found, _ = probe(Probe("Counter(7).show()", prints="count: 8"))
    assert not found.ok and found.actual == "count: 7\n"

    def even(wanted, outcome):
        value = outcome.looks[wanted.read[0]]
        return check(value % 2 == 0, f"{value} is odd.")
    found, _ = probe(Probe("c = Counter(3)", read=["c.count"], reader=["even"]),
                     {"even": even})
    assert not found.ok and found.case == "3 is odd."


def test_stand_in_modules(probe):
    found, outcome = probe(Probe("Counter(2).speak()", stand_ins={"pyttsx3": "recording"},
                                 read=["recorded"]))
    assert found.ok and outcome.looks["recorded"] == ["say('count 2')", "runAndWait()"]
    found, outcome = probe(Probe("Counter(2).speak()", stand_ins={"pyttsx3": "failing"},
                                 raises="RuntimeError"))
    assert found.ok
    _, outcome = probe(Probe("Counter(2).speak()", stand_ins={"pyttsx3": "missing"}))
    assert outcome.raised == "ModuleNotFoundError"


def test_probes_after_two_hangs_of_a_module_are_skipped(tmp_path):
    (tmp_path / "counter.py").write_text(COUNTER)
    (tmp_path / "kit_probe.py").write_text('"""Empty."""\n')
    probes = [Probe("Counter().stuck()"), Probe("c = Counter(1)", expect={"c.count": 1}),
              Probe("Counter().stuck()", faces=[1]), Probe("c = Counter(2)", faces=[2])]
    with FunctionCalls(tmp_path / "kit_probe.py", tmp_path, module="kit_probe",
                       policy=ScriptedDice(), limits=Limits(cpu_seconds=20)) as calls:
        imported, outcomes = Prober(calls, calls.policy).run_all("counter", probes)
    assert imported.ok
    found = [judge(wanted, outcome) for wanted, outcome in zip(probes, outcomes)]
    assert [requirement.ok for requirement in found] == [False, True, False, False]
    assert "did not return within 0.5 s" in found[0].case
    assert "was not run" in found[3].case


def test_a_module_that_does_not_import_stands_for_every_probe(tmp_path):
    (tmp_path / "kit_probe.py").write_text('"""Empty."""\n')
    (tmp_path / "broken.py").write_text("x = 1 / 0\n")
    with FunctionCalls(tmp_path / "kit_probe.py", tmp_path, module="kit_probe",
                       policy=ScriptedDice(), limits=Limits(cpu_seconds=20)) as calls:
        imported, outcomes = Prober(calls, calls.policy).run_all("broken", [Probe("x")] * 2)
    assert not imported.ok and "ZeroDivisionError" in imported.traceback
    assert outcomes == [imported, imported]


def test_probe_tables_are_read_from_toml(tmp_path):
    table = tmp_path / "probes.toml"
    table.write_text('[Counter]\nmodule = "counter"\n\n[[Counter.probe]]\nsetup = "c = '
                     'Counter()"\nrun = "c.add()"\nexpect = { "c.count" = 1 }\n')
    ((module, (only,)),) = probes_from(table).values()
    assert module == "counter" and only.case == "c = Counter(); c.add()"
    assert only.expect == {"c.count": 1}
