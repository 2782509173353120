"""Objects of a student's classes, probed in a sandboxed child.

Most class behaviour a rubric checks is "build this, call that, expect this value, this error
or this printed text". A :class:`Probe` says so as data (usually a TOML table next to the
grader, read by ``probes_from``); :class:`Prober` runs each probe in one child, one call per
probe, and keeps what it did (:class:`Outcome`: raised or not, the values read afterwards, the
printed text, the die draws); ``judge`` turns it into one
:class:`~graders.engine.judge.requirements.Requirement` worded the engine's way. What a table cannot
say (a picture's layout, a printed table) a grader's reader judges from the same outcome.

A probe runs ``setup`` (not judged: when it fails, the probe fails), then ``run`` (what is
judged), then reads each expression of ``expect`` and ``read``, in a namespace holding the
public names of the student's module (``from dice import *``). ``stand_ins`` replaces modules
for the probe: 'missing' (the import fails), 'failing' (every function raises RuntimeError),
'recording' (method calls of the objects it returns are listed in ``recorded``).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import objects_child
from .calls import Case, FunctionCalls, Kit, call_problem, same
from ..run.draws import Draw, DrawPolicy
from ..judge.requirements import Requirement, check, shown

SECONDS = 0.5              # CPU seconds per probe: each does a few microseconds of work
MAX_HANGS = 2              # probes of one module that may hang before its others are given up


@dataclass
class Probe:
    """One thing tried on a student's objects (see the module's docstring)."""

    run: str
    setup: str = ""
    case: str = ""                     # how the feedback names it (default: setup; run)
    raises: str = ""                   # the error ``run`` must raise ("" none)
    expect: dict = field(default_factory=dict)    # expression -> the value it must have
    read: list = field(default_factory=list)      # expressions a reader judges
    prints: str = ""                   # text the printed output must contain
    draws: int | None = None           # how many die draws ``run`` must make
    draw_call: str = ""                # how each draw must be made: 'randint(1, 6)'
    faces: list = field(default_factory=list)     # the faces the die draws show
    stand_ins: dict = field(default_factory=dict)
    reader: list = field(default_factory=list)    # [name, arguments...] of a grader's reader
    why: str = ""                      # the handout's rule
    name: str = ""                     # for a grader that looks an outcome up

    def __post_init__(self):
        if not self.case:
            self.case = "; ".join(part for part in (self.setup, self.run) if part)


def probes_from(path: Path) -> dict[str, tuple[str, list[Probe]]]:
    """Tables of probes by rubric item: {item: (module, probes)} from a TOML file holding
    ``[item]`` tables with ``module`` and ``[[item.probe]]`` entries."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {item: (table["module"], [Probe(**entry) for entry in table["probe"]])
            for item, table in data.items()}


@dataclass
class Outcome:
    """What one probe did; ``failed`` is the child's outcome when the call did not return
    (its setup raised or hung; for ``calls.call_problem``)."""

    ok: bool
    attempt: list = field(default_factory=list)   # ['ok'] or ['raised', name, message]
    looks: dict = field(default_factory=dict)     # expression -> value read
    stdout: str = ""
    failed: dict = field(default_factory=dict)
    traceback: str | None = None
    draws: list[Draw] = field(default_factory=list)

    @property
    def raised(self) -> str:
        """The error ``run`` raised ('' when it returned)."""
        return self.attempt[1] if self.attempt[:1] == ["raised"] else ""

    @property
    def did(self) -> str:
        """'returned normally (no error)' or 'raised IndexError: list index out of range'."""
        if not self.raised:
            return "returned normally (no error)"
        return f"raised {self.raised}: {self.attempt[2]}".rstrip(": ")


class Prober:
    """Runs probes in one child holding an empty module: each probe imports the student's
    module itself, so a broken main file does not stop them. ``policy`` loads the faces."""

    def __init__(self, calls: FunctionCalls, policy: DrawPolicy):
        self.calls, self.policy = calls, policy

    def imports(self, module: str) -> Outcome:
        """Whether the module imports (its error, with the traceback, if not); it also
        starts counting the module's hangs."""
        self.calls.restarts = 0
        return self.run(Probe("pass", case=f"import {module}"), module)

    def run(self, probe: Probe, module: str) -> Outcome:
        """One probe, with its loaded faces; the die draws it made are kept."""
        if self.calls.restarts >= MAX_HANGS:
            return Outcome(False, failed={"error": "skipped"})
        self.policy.load(probe.faces)
        start = len(self.policy.draws)
        (case,) = self.calls.run_cases([self.case(probe, module)])
        return self.outcome(case, self.policy.die_draws_since(start))

    def run_all(self, module: str, probes: list[Probe]) -> tuple[Outcome, list[Outcome]]:
        """Whether the module imports, and every probe's outcome (the import's failure for
        each when it does not). The probes that roll no dice go first, in one batch; those
        that were skipped because one of them hung run again one by one."""
        imported = self.imports(module)
        if not imported.ok:
            return imported, [imported] * len(probes)
        quiet = [number for number, probe in enumerate(probes)
                 if probe.draws is None and not probe.faces]
        found: dict[int, Outcome] = {}
        cases = self.calls.run_cases([self.case(probes[number], module) for number in quiet])
        for number, case in zip(quiet, cases):
            if not case.skipped:
                found[number] = self.outcome(case, [])
        return imported, [found.get(number) or self.run(probe, module)
                          for number, probe in enumerate(probes)]

    def case(self, probe: Probe, module: str) -> Case:
        """The call of one probe in the child (one group per module: see ``run_all``)."""
        return Case(Kit(objects_child.probe, module, probe.setup, probe.run,
                        list(probe.expect) + list(probe.read), probe.stand_ins),
                    group=module, timeout=SECONDS)

    @staticmethod
    def outcome(case: Case, draws: list[Draw]) -> Outcome:
        found = case.outcome
        if found.get("ok"):
            value = found["value"]
            return Outcome(True, value["attempt"], value["looks"], found.get("stdout", ""),
                           draws=draws)
        return Outcome(False, stdout=found.get("stdout", ""), failed=found,
                       traceback=found.get("traceback"), draws=draws)


def drawn(draw: Draw) -> str:
    """A draw as the program called it: 'randint(1, 6)'."""
    return f"{draw.fn}({', '.join(str(value) for value in draw.request.values())})"


Reader = Callable[[Probe, Outcome], Requirement]


def read_error(value) -> str | None:
    """'NameError: ...' when reading an expression raised (``objects_child.look`` sends
    {'error': ...} then, which is no value of the program's), else None."""
    if isinstance(value, dict) and list(value) == ["error"] and isinstance(value["error"], str):
        return value["error"]
    return None


def never_made(text: str, error: str | None) -> bool:
    """Reading ``text`` raised a NameError for a name of the expression itself: an object
    the failed call never made (die = Die(1) raised, so there is no die)."""
    unbound = re.fullmatch(r"NameError: name '(\w+)' is not defined", error or "")
    return bool(unbound) and unbound.group(1) in re.findall(r"[A-Za-z_]\w*", text)


def value_of(text: str, value, verb: str = "is") -> str:
    """'die.value is 3', or 'reading die.value raised AttributeError: ...'."""
    error = read_error(value)
    return f"reading {text} raised {error}" if error else f"{text} {verb} {shown(value)}"


def judge(probe: Probe, outcome: Outcome, readers: dict[str, Reader] | None = None,
          ) -> Requirement:
    """The probe's requirement: the call returned, ``run`` raised what it must (or nothing),
    made the draws it must, the expressions have their values, the output holds ``prints``;
    then the probe's reader, if it has one. The first thing wrong is the one told."""
    case, why = probe.case, probe.why
    if not outcome.ok:
        problem = call_problem(outcome.failed, case, SECONDS) or case
        return check(False, problem + ".", actual=outcome.traceback, why=why)
    if outcome.raised != probe.raises:
        must = f"it must raise {probe.raises}" if probe.raises else "it must not raise an error"
        # what the expressions are after it; one whose name the failed call never made
        # (die = Die(1) raised, so there is no die) tells nothing more
        changed = [value_of(text, outcome.looks.get(text), "is then")
                   for text, wanted in probe.expect.items()
                   if not same(outcome.looks.get(text), wanted)
                   and not never_made(text, read_error(outcome.looks.get(text)))]
        return check(False, f"{case} {outcome.did}; {must}.", probe.raises or "no error",
                     "; ".join([outcome.did] + changed), why)
    calls = [drawn(draw) for draw in outcome.draws]
    if probe.draws is not None and (len(calls) != probe.draws or any(
            call != probe.draw_call for call in calls if probe.draw_call)):
        wanted = f"{probe.draws} x {probe.draw_call or 'a die draw'}"
        return check(False, f"{case} made {len(calls)} random draw(s); it must make "
                     f"{wanted}.", wanted, ", ".join(calls) or "none", why)
    for text, wanted in probe.expect.items():
        if not same(outcome.looks.get(text), wanted):
            found = outcome.looks.get(text)
            return check(False, f"After {case}, {value_of(text, found)}"
                         f"{'' if read_error(found) else ', not ' + shown(wanted)}.", wanted,
                         read_error(found) or found, why)
    for text in probe.read:
        if read_error(outcome.looks.get(text)):
            return check(False, f"After {case}, {value_of(text, outcome.looks.get(text))}.",
                         actual=read_error(outcome.looks.get(text)), why=why)
    if probe.prints and probe.prints not in outcome.stdout:
        return check(False, f"{case} must print {probe.prints!r}.", probe.prints,
                     outcome.stdout or "(nothing printed)", why)
    if probe.reader:
        return (readers or {})[probe.reader[0]](probe, outcome)
    return check(True, case)
