"""Die, Dice and Magic8, exercised by the kit's probes (``probes.py``) in the student's process.

The child imports nothing of the student's by itself (its module is an empty kit file), so a
broken project.py does not stop these checks: each probe imports dice or magic8ball.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import Case, FunctionCalls, Kit
from graders.engine.draws import Draw, ScriptedDice
from graders.engine.harness import Limits, run_folder

from . import probes

SPEC_SECONDS = 0.5        # each probe does a few microseconds of work
MAX_HANGS = 2             # probes of a class that may hang before its others are given up
PROBE_MODULE = '"""Empty: the grader imports dice and magic8ball itself."""\n'
# item -> probe name -> (the probe, the faces its die draws show)
PROBES = {
    "dice": {"faces": (probes.faces, []), "bad values": (probes.bad_values, []),
             "read-only": (probes.read_only, []), "setDieValue": (probes.set_value, []),
             "rollDie 4": (probes.roll_die, [4]), "rollDie 2": (probes.roll_die, [2]),
             "genRows": (probes.gen_rows, []), "draw": (probes.draw, [])},
    "hand": {"empty": (probes.empty, []), "addDie": (probes.add_die, []),
             "rollAll": (probes.roll_all, [3, 1, 4, 1, 5]),
             "rollADie": (probes.roll_a_die, [6, 6, 6, 6, 6]),
             "rollADie bad": (probes.roll_a_die_bad, []),
             "replaceDie": (probes.replace_die, []), "drawDice": (probes.draw_dice, [])},
    "magic8ball": {"ANSWERS": (probes.answers, []), "getAnswer": (probes.get_answer, []),
                   "speak missing": (probes.speak_missing, []),
                   "speak broken": (probes.speak_broken, []),
                   "speak working": (probes.speak_working, [])},
}


@dataclass
class Outcome:
    """One spec's result and the dice it rolled (``failed``: the child's outcome of a spec
    that did not return, for ``calls.call_problem``)."""

    ok: bool
    value: object = None
    stdout: str = ""
    failed: dict = field(default_factory=dict)
    traceback: str | None = None
    draws: list[Draw] = field(default_factory=list)


@dataclass
class ClassEvidence:
    """The outcomes of every class spec, by item and name."""

    die: dict[str, Outcome] = field(default_factory=dict)
    dice: dict[str, Outcome] = field(default_factory=dict)
    magic: dict[str, Outcome] = field(default_factory=dict)
    imports: dict[str, Outcome] = field(default_factory=dict)    # "dice", "magic8ball"

    @property
    def answers(self) -> list[str] | None:
        """The program's Magic 8 ball answers, when ANSWERS could be read."""
        found = self.magic.get("ANSWERS")
        if found and found.ok and isinstance(found.value, dict):
            answers = found.value.get("answers")
            return [a for a in answers if isinstance(a, str) and a.strip()] if answers else None
        return None


def gather(submission, budget) -> ClassEvidence:
    """Run every probe in one sandboxed child, one at a time (so that the dice each one rolled
    are known)."""
    policy = ScriptedDice()
    evidence = ClassEvidence()
    with run_folder(submission, "classes", {"kit_probe.py": PROBE_MODULE}) as folder, \
            FunctionCalls(folder / "kit_probe.py", folder, module="kit_probe", policy=policy,
                          limits=Limits(cpu_seconds=8, stuck_cpu_seconds=2.5, idle_seconds=10),
                          budget=budget) as calls:
        for store, group in ((evidence.die, "dice"), (evidence.dice, "hand"),
                             (evidence.magic, "magic8ball")):
            module = "dice" if group == "hand" else group
            calls.restarts = 0               # counts this group's hangs
            imported = _call(calls, policy, Kit(probes.imports, module), [])
            evidence.imports[module] = imported
            for name, (probe, faces) in PROBES[group].items():
                store[name] = _call(calls, policy, Kit(probe), faces) if imported.ok \
                    else imported
    return evidence


def _call(calls: FunctionCalls, policy: ScriptedDice, call: Kit, faces: list[int]) -> Outcome:
    """One probe, with its loaded faces; the die draws it made are kept."""
    if calls.restarts >= MAX_HANGS:
        return Outcome(False, failed={"error": "skipped"})
    policy.load(faces)
    start = len(policy.draws)
    (case,) = calls.run_cases([Case(call, timeout=SPEC_SECONDS)])
    outcome, draws = case.outcome, policy.die_draws_since(start)
    if outcome.get("ok"):
        return Outcome(True, outcome.get("value"), outcome.get("stdout", ""), draws=draws)
    return Outcome(False, None, outcome.get("stdout", ""), outcome, outcome.get("traceback"),
                   draws)
