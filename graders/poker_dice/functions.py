"""calculateScore, the six predicates and isvalidDice, called in the student's process.

Each function is called on all 7776 rolls in ONE call spec: grader code loops over the rolls
inside the student's process and sends back one character per roll (fast, and one endless loop
costs one timeout). calculateScore is called with lists and with Dice objects built by the
student's own classes, and (when not right) again with the kit's correct predicates put in
place of the student's, so that a broken predicate is not charged twice.

Verdicts do not depend on how busy the machine is: each call may use CALL_CPU seconds of CPU
time (a CPU timer inside the student's process), a sweep SWEEP_CPU seconds in all. The spec's
own timeout is only a safety net; when it is hit the rest of the sweep is "not judged" and the
submission goes to a TA, never "counted as wrong".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import FunctionCalls

from . import rules
from .runner import RULES_MODULE, limits_within, make_workdir, remove_workdir

PREDICATES = tuple(rules.PREDICATES)
REQUIRED = ("calculateScore",) + PREDICATES + ("isvalidDice", "main")
CANONICAL = [(rules.PAYOUTS[name], name) for name in rules.HANDS]   # code "0".."6"
CALL_CPU = 0.25           # CPU seconds one call (or building one Dice) may take
MAX_HANGS = 3             # calls that did not return before a sweep gives up
SWEEP_CPU = 4.0           # CPU seconds a whole sweep may take (a correct one takes ~0.1)
SAFETY_NET = SWEEP_CPU + 4.0   # the spec's timeout: never reached by a sweep that runs
SMALL_SPEC = 5.0          # timeout of a spec of a few dozen calls (a safety net too)
SHOWN_ODD = 20            # errors sent back per function (odd values: 26 kinds at most)

PROBE = "result = {name: callable(getattr(m, name, None)) for name in %r}" % (REQUIRED,)

# Grader code run in the student's process. {build} makes the argument from one roll (`roll`,
# a list), {call} calls the function on it. Codes: "0"-"6" / "0"-"1" canonical answers, "a"-"z"
# other values, "E" raised, "T" did not return within CALL_CPU, "B" the argument could not be
# built. `stop` says why the sweep ended early: ["hung", i] (MAX_HANGS calls did not return),
# ["slow", i] (SWEEP_CPU used up) or ["net", i] (the engine's safety net).
LOOP = '''
import itertools
import signal
import sys
import time
{setup}
CANONICAL = {canonical!r}
CALL_CPU, SWEEP_CPU, MAX_HANGS = {call_cpu!r}, {sweep_cpu!r}, {max_hangs!r}


class RollTimeout(BaseException):
    """One call used more than CALL_CPU seconds of CPU time."""


def on_timer(signum, frame):
    raise RollTimeout()


def build(roll):
    {build}


def call(arg):
    return {call}


def encode(value):
    if {kind!r} == "bool" and (value is True or value is False):
        return "1" if value else "0"
    if {kind!r} == "score" and type(value) is tuple and value in CANONICAL:
        return str(CANONICAL.index(value))
    key = repr(value)[:120]
    if key not in seen and len(seen) < len(LETTERS):
        pair = None
        if type(value) is tuple and len(value) == 2 and isinstance(value[1], str) and \\
                type(value[0]) in (int, float):
            pair = [value[0], value[1]]
        seen[key] = LETTERS[len(seen)]
        odd[seen[key]] = [key, type(value).__name__, pair]
    return seen.get(key, "X")


def describe(exc):
    tell = getattr(sys.modules.get("__main__"), "_student_traceback", None)
    text = type(exc).__name__ + ": " + str(exc)[:200]
    return [text, tell(exc) if tell else text]


LETTERS = "abcdefghijklmnopqrstuvwxyz"
codes, odd, seen, errors, stop, hangs = [], {{}}, {{}}, {{}}, None, 0
old_handler = signal.signal(signal.SIGPROF, on_timer)
old_timer = signal.setitimer(signal.ITIMER_PROF, 0)
began = time.process_time()
for index, roll in enumerate(itertools.product(range(1, 7), repeat=5)):
    if time.process_time() - began > SWEEP_CPU:
        stop = ["slow", index]
        break
    roll, stage, value = list(roll), "build", None
    try:
        signal.setitimer(signal.ITIMER_PROF, CALL_CPU, 0.05)
        arg = build(roll)
        stage = "call"
        value = call(arg)
        stage = "done"
        signal.setitimer(signal.ITIMER_PROF, 0)
    except BaseException as exc:
        signal.setitimer(signal.ITIMER_PROF, 0)
        if type(exc).__name__ == "CallTimeout":
            stop = ["net", index]
            break
        timed_out = isinstance(exc, RollTimeout)
        hangs += timed_out
        codes.append("B" if stage == "build" else "T" if timed_out else "E")
        if len(errors) < {shown}:
            errors[str(index)] = [stage] + (["did not return"] * 2 if timed_out
                                            else describe(exc))
        if hangs >= MAX_HANGS:
            stop = ["hung", index + 1]
            break
        continue
    codes.append(encode(value))
used = time.process_time() - began
signal.signal(signal.SIGPROF, old_handler)
if old_timer[0] > 0:
    signal.setitimer(signal.ITIMER_PROF, max(0.01, old_timer[0] - used), old_timer[1])
{teardown}
result = {{"codes": "".join(codes), "odd": odd, "errors": errors, "stop": stop,
          "cpu": round(used, 3)}}
'''

KIT_PREDICATES = '''
import {rules} as kit
swapped = kit.swap_in(m, {names!r})
'''
RESTORE = "kit.swap_out(swapped)"
DICE_BUILD = '''hand = Dice()
    for face in roll:
        hand.addDie(Die(face))
    if [die.value for die in hand.diceInSet] != roll:
        raise ValueError("the hand shows %r" % ([die.value for die in hand.diceInSet],))
    return hand'''

VALID_CASES = (("2 3 5", True), (" 1  4 ", True), ("3 3", True), ("1", True), ("5", True),
               ("1 2 3 4 5", True), ("5 4 3 2 1", True),
               ("", False), ("   ", False), ("0", False), ("6", False), ("1 6", False),
               ("0 2", False), ("7", False), ("5 6 1", False),
               ("two", ValueError), ("2,3", ValueError), ("1.5", ValueError), ("H", ValueError),
               ("h", ValueError), ("Q", ValueError), ("1 two", ValueError),
               ("3 x 5", ValueError), ("2-3", ValueError))
VALID_CALLS = '''
out = []
for text in {texts!r}:
    try:
        value = m.isvalidDice(text)
    except ValueError as exc:
        out.append(["V", str(exc)[:100]])
    except Exception as exc:
        out.append(["E", type(exc).__name__ + ": " + str(exc)[:200]])
    else:
        kind = "T" if value is True else "F" if value is False else "X"
        out.append([kind, repr(value)[:100]])
result = out
'''


def loop_spec(function: str, *, dice: bool = False, kit: bool = False) -> dict:
    """One spec calling ``function`` on every roll (as lists or as Dice objects)."""
    names = list(PREDICATES)
    setup = "from dice import Dice, Die" if dice else ""
    if kit:
        setup += KIT_PREDICATES.format(rules=RULES_MODULE, names=names)
    build = DICE_BUILD if dice else "return roll"
    kind = "bool" if function in PREDICATES else "score"
    code = LOOP.format(setup=setup, canonical=CANONICAL, kind=kind, build=build,
                       call=f"m.{function}(arg)", shown=SHOWN_ODD, call_cpu=CALL_CPU,
                       sweep_cpu=SWEEP_CPU, max_hangs=MAX_HANGS,
                       teardown=RESTORE if kit else "")
    return {"code": code, "timeout": SAFETY_NET}


# ----------------------------------------------------------------------------- gathering
@dataclass
class Evidence:
    """The raw results of every call, by name ("is2Pair", "calculateScore/dice/kit", ...)."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    loops: dict[str, dict] = field(default_factory=dict)
    valid: list | None = None
    valid_error: str | None = None
    load: dict = field(default_factory=dict)     # FunctionCalls.load: how project.py loaded


def gather(files: dict, seconds_left) -> Evidence:
    """Every call of the function items, in one sandboxed child (two batches at most)."""
    workdir = make_workdir(files, speech=True, rules=True)
    limits = limits_within(seconds_left(), wall=60, idle=SAFETY_NET + 2, cpu=20)
    try:
        with FunctionCalls(workdir / "project.py", workdir, module="project",
                           limits=limits) as calls:
            (probe,) = calls.run([{"code": PROBE, "id": 0}])
            if not probe.get("ok"):
                error = calls.import_error or probe.get("message") or "the import failed"
                return Evidence(import_error=error.replace(str(workdir) + "/", ""))
            evidence = Evidence(available=probe["value"], load=dict(calls.load or {}))
            _first_batch(calls, evidence, seconds_left)
            if not own_score_right(evidence):
                _kit_batch(calls, evidence, seconds_left)
            return evidence
    finally:
        remove_workdir(workdir)


def _run(calls: FunctionCalls, evidence: Evidence, named_specs: dict[str, dict],
         seconds_left) -> None:
    """Run named specs one by one (while the budget lasts) and file the results."""
    for name, spec in named_specs.items():
        if seconds_left() < 1.5:
            outcome = {"ok": False, "error": "skipped", "message": "not run: the grading "
                       "time for this submission was used up"}
        else:
            (outcome,) = calls.run([dict(spec, id=0)])
        if name == "isvalidDice":
            evidence.valid = outcome.get("value") if outcome.get("ok") else None
            evidence.valid_error = None if outcome.get("ok") else _problem(outcome)
        else:
            evidence.loops[name] = outcome


def _first_batch(calls: FunctionCalls, evidence: Evidence, seconds_left) -> None:
    """The predicates, calculateScore (lists and Dice) and isvalidDice, with the student's
    own helpers."""
    specs = {}
    for function in PREDICATES:
        if evidence.available.get(function):
            specs[function] = loop_spec(function)
    if evidence.available.get("calculateScore"):
        specs["calculateScore"] = loop_spec("calculateScore")
        specs["calculateScore/dice"] = loop_spec("calculateScore", dice=True)
    if evidence.available.get("isvalidDice"):
        texts = [text for text, _ in VALID_CASES]
        specs["isvalidDice"] = {"code": VALID_CALLS.format(texts=texts),
                                "timeout": SMALL_SPEC}
    _run(calls, evidence, specs, seconds_left)


def _kit_batch(calls: FunctionCalls, evidence: Evidence, seconds_left) -> None:
    """calculateScore again with the kit's correct predicates in place of the student's."""
    if evidence.available.get("calculateScore"):
        _run(calls, evidence, {
            "calculateScore/kit": loop_spec("calculateScore", kit=True),
            "calculateScore/dice/kit": loop_spec("calculateScore", dice=True, kit=True)},
             seconds_left)


def own_score_right(evidence: Evidence) -> bool:
    """calculateScore was right on every list and every Dice hand with the student's helpers."""
    for name in ("calculateScore", "calculateScore/dice"):
        loop = evidence.loops.get(name)
        if loop is None or not loop.get("ok"):
            return False
        codes = loop["value"]["codes"]
        expected = EXPECTED_SCORE_CODES
        if any(code != want and code != "B" for code, want in zip(codes, expected)) \
                or len(codes) < len(expected):
            return False
    return True


def _problem(outcome: dict) -> str:
    """A failed call outcome in words."""
    error = outcome.get("error")
    if error == "timeout":
        return f"did not return within {SMALL_SPEC:g} s (an endless loop?)"
    if error == "skipped":
        return f"was {outcome.get('message', 'not run')}"
    if error in ("died", "import"):
        return f"stopped the program: {outcome.get('message')}"
    return f"raised {error}: {outcome.get('message', '')}".rstrip(": ")


PAYOUT_CALLS = '''
from dice import Dice, Die
result = {}
for roll in %r:
    try:
        hand = Dice()
        for face in roll:
            hand.addDie(Die(face))
        value = m.calculateScore(hand)
    except Exception:
        try:
            value = m.calculateScore(list(roll))
        except Exception:
            value = None
    if type(value) is tuple and len(value) == 2 and type(value[0]) in (int, float) \\
            and isinstance(value[1], str):
        result[" ".join(map(str, roll))] = [value[0], value[1]]
'''


def payouts(files: dict, rolls: list[list[int]], seconds_left) -> dict[tuple, tuple]:
    """The student's calculateScore on a few rolls (as Dice objects, else as lists), for the
    games; {} when it cannot be called (the games then use the kit's payouts)."""
    workdir = make_workdir(files, speech=True)
    limits = limits_within(seconds_left(), wall=30, idle=SMALL_SPEC + 2, cpu=5)
    try:
        with FunctionCalls(workdir / "project.py", workdir, module="project",
                           limits=limits) as calls:
            (outcome,) = calls.run([{"id": 0, "code": PAYOUT_CALLS % (rolls,),
                                     "timeout": SMALL_SPEC}])
    finally:
        remove_workdir(workdir)
    found = outcome.get("value") if outcome.get("ok") else None
    if not isinstance(found, dict):
        return {}
    return {tuple(int(face) for face in roll.split()): tuple(pair)
            for roll, pair in found.items()}


ROLLS = rules.all_rolls()
EXPECTED_SCORE_CODES = "".join(str(rules.HANDS.index(rules.hand_name(roll))) for roll in ROLLS)
