"""Die, Dice and Magic8, exercised by grader code in the student's process.

The child imports nothing of the student's by itself (its module is an empty kit file), so a
broken project.py does not stop these checks: each spec imports dice or magic8ball. Specs run
one at a time, so the loaded-dice policy can count the dice each one rolled.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import FunctionCalls

from .loaded import LoadedDice
from .runner import limits_within, make_workdir, remove_workdir

SPOKEN = "Outlook good, says the grader."
SPEC_SECONDS = 0.5        # each spec does a few microseconds of work
MAX_HANGS = 2             # specs of a class that may hang before its others are given up
PROBE_MODULE = '"""Empty: the grader imports dice and magic8ball itself."""\n'
PRELUDE = '''
import sys
import dice


def outcome(action):
    try:
        action()
        return ["ok"]
    except Exception as exc:
        return ["raised", type(exc).__name__, str(exc)[:200]]


def faces_of(hand):
    return [die.value for die in hand.diceInSet]


def hand_of(faces):
    hand = dice.Dice()
    for face in faces:
        hand.addDie(dice.Die(face))
    return hand


def rows_of(die):
    rows = die.rows
    if isinstance(rows, (list, tuple)) and all(isinstance(row, str) for row in rows):
        return list(rows)
    return {"repr": repr(rows)[:200], "type": type(rows).__name__}
'''
MAGIC_PRELUDE = '''
import sys
import types
import magic8ball


def outcome(action):
    try:
        action()
        return ["ok"]
    except Exception as exc:
        return ["raised", type(exc).__name__, str(exc)[:200]]


def speak_with(module):
    saved = sys.modules.get("pyttsx3", "absent")
    sys.modules["pyttsx3"] = module
    try:
        return outcome(lambda: magic8ball.Magic8().speakAnswer(%r))
    finally:
        if saved == "absent":
            sys.modules.pop("pyttsx3", None)
        else:
            sys.modules["pyttsx3"] = saved
''' % SPOKEN

DIE_SPECS = {
    "faces": '''
faces = {}
for face in range(1, 7):
    try:
        die = dice.Die(face)
        faces[str(face)] = {"value": die.value, "rows": rows_of(die)}
    except Exception as exc:
        faces[str(face)] = {"error": type(exc).__name__ + ": " + str(exc)[:200]}
result = faces
''',
    "bad values": '''
result = {"Die(0)": outcome(lambda: dice.Die(0)), "Die(7)": outcome(lambda: dice.Die(7)),
          "setDieValue(0)": outcome(lambda: dice.Die(3).setDieValue(0)),
          "setDieValue(7)": outcome(lambda: dice.Die(3).setDieValue(7))}
''',
    "read-only": '''
die = dice.Die(3)
attempt = outcome(lambda: setattr(die, "value", 5))
result = {"attempt": attempt, "after": die.value}
''',
    "setDieValue": '''
die = dice.Die(1)
die.setDieValue(5)
result = {"value": die.value, "rows": rows_of(die)}
''',
    "rollDie 4": '''
die = dice.Die(6)
die.rollDie()
result = {"value": die.value, "rows": rows_of(die)}
''',
    "rollDie 2": '''
die = dice.Die(6)
die.rollDie()
result = {"value": die.value, "rows": rows_of(die)}
''',
    "genRows": '''
die = dice.Die(2)
try:
    die.rows = []
except Exception:
    pass
die.genRows()
result = {"rows": rows_of(die)}
''',
    "draw": '''
die = dice.Die(5)
die.draw()
result = {"rows": rows_of(die)}
''',
}
DICE_SPECS = {
    "empty": '''
hand = dice.Dice()
result = {"type": type(hand.diceInSet).__name__, "length": len(hand.diceInSet)}
''',
    "addDie": '''
hand = dice.Dice()
added = [outcome(lambda: hand.addDie(dice.Die(face))) for face in (1, 2, 3, 4, 5)]
first = faces_of(hand)
sixth = outcome(lambda: hand.addDie(dice.Die(6)))
result = {"added": added, "faces": first, "sixth": sixth, "after": faces_of(hand)}
''',
    "rollAll": '''
hand = hand_of([6, 6, 6, 6, 6])
hand.rollAll()
result = faces_of(hand)
''',
    "rollADie": '''
result = []
for pos in range(5):
    hand = hand_of([1, 2, 3, 4, 5])
    attempt = outcome(lambda: hand.rollADie(pos))
    result.append([attempt, faces_of(hand)])
''',
    "rollADie bad": '''
result = {}
for pos in (5, -1):
    hand = hand_of([1, 2, 3, 4, 5])
    attempt = outcome(lambda: hand.rollADie(pos))
    result[str(pos)] = [attempt, faces_of(hand)]
''',
    "replaceDie": '''
good = []
for pos in range(5):
    hand = hand_of([1, 2, 3, 4, 5])
    good.append([outcome(lambda: hand.replaceDie(pos, 6)), faces_of(hand)])
bad = {}
for pos, face in ((5, 3), (-1, 3), (0, 0), (0, 7)):
    hand = hand_of([1, 2, 3, 4, 5])
    bad["%d, %d" % (pos, face)] = [outcome(lambda: hand.replaceDie(pos, face)), faces_of(hand)]
result = {"good": good, "bad": bad}
''',
    "drawDice": '''
hand = hand_of([6, 2, 3, 4, 5])
hand.drawDice()
result = [rows_of(die) for die in hand.diceInSet]
''',
}
MAGIC_SPECS = {
    "ANSWERS": '''
cls = magic8ball.Magic8
answers = getattr(cls, "ANSWERS", None)
listed = isinstance(answers, (list, tuple))
result = {"class_level": any("ANSWERS" in vars(k) for k in cls.__mro__),
          "type": type(answers).__name__,
          "answers": [a if isinstance(a, str) else repr(a) for a in answers] if listed else None}
''',
    "getAnswer": '''
oracle = magic8ball.Magic8()
result = [oracle.getAnswer() for _ in range(20)]
''',
    "speak missing": '''
result = {"attempt": speak_with(None)}
''',
    "speak broken": '''
fake = types.ModuleType("pyttsx3")


def init(*args, **kwargs):
    raise RuntimeError("no speech driver on this computer")


fake.init = init
result = {"attempt": speak_with(fake)}
''',
    "speak working": '''
said = []


class Engine:
    def say(self, text, *args, **kwargs):
        said.append(str(text))

    def runAndWait(self):
        said.append("<runAndWait>")

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


fake = types.ModuleType("pyttsx3")
fake.init = lambda *args, **kwargs: Engine()
result = {"attempt": speak_with(fake), "said": said}
''',
}
LOADS = {"rollDie 4": [4], "rollDie 2": [2], "rollAll": [3, 1, 4, 1, 5],
         "rollADie": [6, 6, 6, 6, 6]}


@dataclass
class Outcome:
    """One spec's result and the dice it rolled."""

    ok: bool
    value: object = None
    stdout: str = ""
    problem: str = ""              # why the spec failed, in words
    traceback: str | None = None
    draws: list[dict] = field(default_factory=list)


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


def gather(files: dict, seconds_left) -> ClassEvidence:
    """Run every class spec in one sandboxed child."""
    workdir = make_workdir(files)
    (workdir / "kit_probe.py").write_text(PROBE_MODULE)
    policy = LoadedDice()
    limits = limits_within(seconds_left(), wall=6, idle=2.5, cpu=8)
    evidence = ClassEvidence()
    try:
        with FunctionCalls(workdir / "kit_probe.py", workdir, module="kit_probe",
                           policy=policy, limits=limits) as calls:
            for store, specs, prelude, module in (
                    (evidence.die, DIE_SPECS, PRELUDE, "dice"),
                    (evidence.dice, DICE_SPECS, PRELUDE, "dice"),
                    (evidence.magic, MAGIC_SPECS, MAGIC_PRELUDE, "magic8ball")):
                calls.restarts = 0               # counts this group's hangs
                imported = _call(calls, policy, "import", f"import {module}", seconds_left)
                evidence.imports[module] = imported
                for name, code in specs.items():
                    store[name] = _call(calls, policy, name, prelude + code, seconds_left) \
                        if imported.ok else imported
    finally:
        remove_workdir(workdir)
    return evidence


def _call(calls: FunctionCalls, policy: LoadedDice, name: str, code: str,
          seconds_left) -> Outcome:
    """One spec, with its loaded faces; the die draws it made are kept."""
    if seconds_left() < 2.0:
        return Outcome(False, problem="was not run: the grading time for this submission "
                                      "was used up")
    if calls.restarts >= MAX_HANGS:
        return Outcome(False, problem=f"was not run: {MAX_HANGS} earlier calls of this class "
                                      "did not return, so the grader stopped calling it")
    policy.load(LOADS.get(name, []))
    start = len(policy.draws)
    (outcome,) = calls.run([{"id": 0, "code": code, "timeout": SPEC_SECONDS}])
    draws = policy.die_draws_since(start)
    if outcome.get("ok"):
        return Outcome(True, outcome.get("value"), outcome.get("stdout", ""), draws=draws)
    return Outcome(False, None, outcome.get("stdout", ""), _problem(outcome),
                   outcome.get("traceback"), draws)


def _problem(outcome: dict) -> str:
    """Why a spec failed, in words."""
    error = outcome.get("error")
    if error == "timeout":
        return (f"did not finish within {SPEC_SECONDS:g} s (an endless loop, or waiting for "
                "input?)")
    if error == "import":
        message = (outcome.get("message") or "").strip().splitlines()
        return "could not run: " + (message[-1] if message else "the file could not be imported")
    if error == "died":
        return f"stopped the program: {outcome.get('message')}"
    return f"raised {error}: {outcome.get('message', '')}".rstrip(": ")
