"""calculateScore, the six predicates and isvalidDice, called in the student's process.

Each function is called on all 7776 rolls in ONE call spec: grader code loops over the rolls
inside the student's process and sends back one character per roll (fast, and one endless loop
costs one timeout). calculateScore is called with lists and with Dice objects built by the
student's own classes, and (when not right) again with the kit's correct predicates patched
into the module, so that a broken predicate is not charged twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import FunctionCalls

from . import rules
from .runner import RULES_MODULE, limits_within, make_workdir, remove_workdir

PREDICATES = tuple(rules.PREDICATES)
REQUIRED = ("calculateScore",) + PREDICATES + ("isvalidDice", "main")
CANONICAL = [(rules.PAYOUTS[name], name) for name in rules.HANDS]   # code "0".."6"
LOOP_SECONDS = 3.0
SHOWN_ODD = 20            # odd results / errors sent back per function

PROBE = "result = {name: callable(getattr(m, name, None)) for name in %r}" % (REQUIRED,)

# Grader code run in the student's process. {call} is the call on one roll (`roll`, a list).
LOOP = '''
import itertools
import sys
{setup}
CANONICAL = {canonical!r}


def encode(value):
    if {kind!r} == "bool":
        if value is True or value is False:
            return "1" if value else "0"
        return "X"
    if type(value) is tuple and value in CANONICAL:
        return str(CANONICAL.index(value))
    return "X"


def describe(exc):
    tell = getattr(sys.modules.get("__main__"), "_student_traceback", None)
    text = type(exc).__name__ + ": " + str(exc)[:200]
    return [text, tell(exc) if tell else text]


codes, odd, errors, hung = [], {{}}, {{}}, None
for index, roll in enumerate(itertools.product(range(1, 7), repeat=5)):
    roll = list(roll)
    try:
        {build}
    except Exception as exc:
        codes.append("B")
        if len(errors) < {shown}:
            errors[str(index)] = ["build"] + describe(exc)
        continue
    try:
        value = {call}
    except BaseException as exc:
        if type(exc).__name__ == "CallTimeout":
            hung = index
            break
        codes.append("E")
        if len(errors) < {shown}:
            errors[str(index)] = ["call"] + describe(exc)
        continue
    code = encode(value)
    codes.append(code)
    if code == "X" and len(odd) < {shown}:
        odd[str(index)] = [repr(value)[:120], type(value).__name__]
{teardown}
result = {{"codes": "".join(codes), "odd": odd, "errors": errors, "hung": hung}}
'''

KIT_PREDICATES = '''
import {rules} as kit
saved = {{name: vars(m)[name] for name in {names!r} if name in vars(m)}}
for name in {names!r}:
    setattr(m, name, getattr(kit, name))
'''
RESTORE = '''
for name in {names!r}:
    if name in saved:
        setattr(m, name, saved[name])
    else:
        delattr(m, name)
'''
DICE_BUILD = '''hand = Dice()
        for face in roll:
            hand.addDie(Die(face))
        if [die.value for die in hand.diceInSet] != roll:
            raise ValueError("the hand shows %r" % ([die.value for die in hand.diceInSet],))
        arg = hand'''

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
    build = DICE_BUILD if dice else "arg = roll"
    kind = "bool" if function in PREDICATES else "score"
    code = LOOP.format(setup=setup, canonical=CANONICAL, kind=kind, build=build,
                       call=f"m.{function}(arg)", shown=SHOWN_ODD,
                       teardown=RESTORE.format(names=names) if kit else "")
    return {"code": code, "timeout": LOOP_SECONDS}


# ----------------------------------------------------------------------------- gathering
@dataclass
class Evidence:
    """The raw results of every call, by name ("is2Pair", "calculateScore/dice/kit", ...)."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    loops: dict[str, dict] = field(default_factory=dict)
    valid: list | None = None
    valid_error: str | None = None


def gather(files: dict, seconds_left) -> Evidence:
    """Every call of the function items, in one sandboxed child (two batches at most)."""
    workdir = make_workdir(files, speech=True, rules=True)
    limits = limits_within(seconds_left(), wall=10, idle=LOOP_SECONDS + 1.5, cpu=20)
    try:
        with FunctionCalls(workdir / "project.py", workdir, module="project",
                           limits=limits) as calls:
            (probe,) = calls.run([{"code": PROBE, "id": 0}])
            if not probe.get("ok"):
                error = calls.import_error or probe.get("message") or "the import failed"
                return Evidence(import_error=error.replace(str(workdir) + "/", ""))
            evidence = Evidence(available=probe["value"])
            _first_batch(calls, evidence)
            if not own_score_right(evidence):
                _kit_batch(calls, evidence)
            return evidence
    finally:
        remove_workdir(workdir)


def _run(calls: FunctionCalls, evidence: Evidence, named_specs: dict[str, dict]) -> None:
    """Run named specs in one batch and file the results."""
    specs = [dict(spec, id=number) for number, spec in enumerate(named_specs.values())]
    outcomes = calls.run(specs)
    for name, outcome in zip(named_specs, outcomes):
        if name == "isvalidDice":
            evidence.valid = outcome.get("value") if outcome.get("ok") else None
            evidence.valid_error = None if outcome.get("ok") else _problem(outcome)
        else:
            evidence.loops[name] = outcome


def _first_batch(calls: FunctionCalls, evidence: Evidence) -> None:
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
        specs["isvalidDice"] = {"code": VALID_CALLS.format(texts=texts), "timeout": 1.0}
    _run(calls, evidence, specs)


def _kit_batch(calls: FunctionCalls, evidence: Evidence) -> None:
    """calculateScore again with the kit's correct predicates patched in."""
    if evidence.available.get("calculateScore"):
        _run(calls, evidence, {
            "calculateScore/kit": loop_spec("calculateScore", kit=True),
            "calculateScore/dice/kit": loop_spec("calculateScore", dice=True, kit=True)})


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
        return "did not return within 1 s (an endless loop?)"
    if error in ("died", "import"):
        return f"stopped the program: {outcome.get('message')}"
    return f"raised {error}: {outcome.get('message', '')}".rstrip(": ")


ROLLS = rules.all_rolls()
EXPECTED_SCORE_CODES = "".join(str(rules.HANDS.index(rules.hand_name(roll))) for roll in ROLLS)


def student_payouts(evidence: Evidence | None) -> dict[tuple, tuple[int, str]]:
    """The student's own (value, description) per roll where calculateScore answered one
    of the seven tuples; Dice-object answers first (the game passes a Dice)."""
    table: dict[tuple, tuple[int, str]] = {}
    if evidence is None:
        return table
    for name in ("calculateScore", "calculateScore/dice"):
        loop = evidence.loops.get(name) or {}
        codes = (loop.get("value") or {}).get("codes", "") if loop.get("ok") else ""
        for roll, code in zip(ROLLS, codes):
            if code.isdigit():
                table[tuple(roll)] = CANONICAL[int(code)]
    return table
