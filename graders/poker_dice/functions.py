"""calculateScore, the six predicates and isvalidDice, called in ONE child process.

Each function is tried on all 7776 rolls with the engine's ``exhaustive`` (a few round trips
per function, one CPU limit per call). calculateScore is tried on lists and on Dice objects
built by the student's own classes, and, when not right, again with the kit's correct
predicates put in place of the student's (a deep ``swap_all``), so that a broken predicate is
not charged twice. The kit's answers do not depend on the student and are computed once.

The calls are made in the steps listed in ``STEPS``; the student kit leaves out the steps of
hidden items (``student_kit.toml``) and so every rule they alone use.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from graders.engine.call.calls import Case, FunctionCalls, Raises, swap_all
from graders.engine.call.exhaustive import Failure, Inputs, Sweep, exhaustive
from graders.engine.run.harness import Limits, run_folder
from graders.engine.judge.requirements import Requirement, shown

from . import rules

PREDICATES = tuple(rules.PREDICATES)
REQUIRED = ("calculateScore",) + PREDICATES + ("isvalidDice", "main")
ROLLS = Inputs(rules.all_rolls())       # every roll, swept by every submission
CALL_CPU = 0.25           # CPU seconds one call (building its Dice included) may take
VALID_CASES = (("2 3 5", True), (" 1  4 ", True), ("3 3", True), ("1", True), ("5", True),
               ("1 2 3 4 5", True), ("5 4 3 2 1", True),
               ("", False), ("   ", False), ("0", False), ("6", False), ("1 6", False),
               ("0 2", False), ("7", False), ("5 6 1", False),
               # numbers of two digits (a comparison of text, "1" <= "10" <= "5", takes them)
               ("10", False), ("15", False), ("1 40", False),
               ("two", ValueError), ("2,3", ValueError), ("1.5", ValueError), ("H", ValueError),
               ("h", ValueError), ("Q", ValueError), ("1 two", ValueError),
               ("3 x 5", ValueError), ("2-3", ValueError))
# calculateScore's sweeps: the kit helper run in the child for Dice objects (None: the
# student's function itself), and whether the kit's predicates stand in for the student's.
SCORE_SWEEPS = {"calculateScore": (None, False), "calculateScore/dice": (rules.score_dice, False),
                "calculateScore/kit": (None, True),
                "calculateScore/dice/kit": (rules.score_dice, True)}


@cache
def hand_names() -> dict[tuple, str]:
    """The hand every roll makes (the same for every student: computed once)."""
    return {tuple(roll): rules.hand_name(roll) for roll in ROLLS}


def kit_answer(function: str, roll: list[int]) -> object:
    """The kit's answer for a roll."""
    name = hand_names()[tuple(roll)]
    if function in PREDICATES:
        return name == rules.PREDICATES[function]
    return rules.PAYOUTS[name], name


@cache
def kit_answers(function: str):
    """The kit's answer function for ``function``: one object per function, so the engine
    keeps its answers for the next submissions (``exhaustive.space``)."""
    return lambda roll: kit_answer(function, roll)


@dataclass
class Evidence:
    """Every sweep and call of the function items."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    sweeps: dict[str, Sweep] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)     # Dice hands not built: why
    valid: list[Requirement] = field(default_factory=list)
    load: dict = field(default_factory=dict)     # FunctionCalls.load: how project.py loaded


def gather(submission, budget, published=None) -> Evidence:
    """Every call, in one sandboxed child. ``published(payouts)`` is called as soon as the
    payouts the games need are known (before the sweeps)."""
    published = published or (lambda payouts: None)
    with run_folder(submission, "functions") as folder, \
            FunctionCalls(folder / "project.py", folder, module="project", budget=budget,
                          limits=Limits(cpu_seconds=20, stuck_cpu_seconds=CALL_CPU + 2,
                                        idle_seconds=10)) as calls:
        available = calls.defined(REQUIRED)
        if available is None:
            published({})
            return Evidence(import_error=calls.import_error or "the import failed")
        evidence = Evidence(available=available, load=dict(calls.load or {}))
        for step in STEPS:
            step(calls, evidence, published)
        return evidence


def publish_payouts(calls: FunctionCalls, evidence: Evidence, published) -> None:
    """The payouts the games need, handed over before the sweeps."""
    published(payouts(calls) if evidence.available.get("calculateScore") else {})


def sweep_predicates(calls: FunctionCalls, evidence: Evidence, published) -> None:
    """Each predicate the file defines, on every roll."""
    for function in PREDICATES:
        if evidence.available.get(function):
            evidence.sweeps[function] = sweep(calls, function, evidence)


def sweep_calculateScore(calls: FunctionCalls, evidence: Evidence, published) -> None:
    """calculateScore on every roll, as a list and as a Dice object."""
    if evidence.available.get("calculateScore"):
        for name in list(SCORE_SWEEPS)[:2]:
            evidence.sweeps[name] = sweep(calls, name, evidence)


def sweep_with_kit_predicates(calls: FunctionCalls, evidence: Evidence, published) -> None:
    """calculateScore again with the kit's predicates, when it was not right."""
    if evidence.available.get("calculateScore") and score_sweeps(evidence).fraction < 1:
        for name in list(SCORE_SWEEPS)[2:]:
            evidence.sweeps[name] = sweep(calls, name, evidence)


def call_isvalidDice(calls: FunctionCalls, evidence: Evidence, published) -> None:
    """isvalidDice on valid answers, bad numbers, empty answers and words."""
    if evidence.available.get("isvalidDice"):
        evidence.valid = calls.check([
            Case(f"isvalidDice({text!r})", Raises("ValueError") if expected is ValueError
                 else expected, valid_reason(text, expected), timeout=CALL_CPU)
            for text, expected in VALID_CASES])


STEPS = [publish_payouts, sweep_predicates, sweep_calculateScore, sweep_with_kit_predicates,
         call_isvalidDice]


def payouts(calls: FunctionCalls) -> dict[tuple, tuple]:
    """The student's calculateScore on the rolls the games score (as Dice, else lists)."""
    cases = [Case(f"kit_payout({roll!r})", subject=tuple(roll),
                  swap={"kit_payout": rules.payout}, timeout=CALL_CPU)
             for roll in rolls_needed()]
    return {case.subject: tuple(case.value) for case in calls.run_cases(cases)
            if isinstance(case.value, list)}


@cache
def rolls_needed() -> list[list[int]]:
    """The rolls the games may score (from the scenarios, with the kit's payouts)."""
    from .scenarios import rolls_needed as needed
    return needed()


def sweep(calls: FunctionCalls, name: str, evidence: Evidence) -> Sweep:
    """One function over every roll; Dice hands the student's classes cannot build are left
    out (they are Dice's and Die's marks) and their reason kept."""
    function = name.split("/")[0]
    helper, kit = SCORE_SWEEPS.get(name, (None, False))
    called = "kit_score_dice" if helper else function
    swap = {called: helper} if helper else {}
    if kit:
        swap.update(swap_all(rules, PREDICATES, deep=True))
    found = exhaustive(calls, called, ROLLS, kit_answers(function),
                       swap=swap, timeout=CALL_CPU, exclude_error="CannotBuild",
                       judge=lambda roll, entry, expected: judged(
                           function, roll, entry, expected, dice="dice" in name),
                       exact_is_right=True, stop_at_zero=True, any_order=name in PREDICATES)
    found.function = function
    if found.excluded:
        evidence.skipped[name] = found.excluded[0]
    return found


def judged(function: str, roll: list[int], entry: dict, expected, dice: bool) -> Failure | None:
    """None when the answer is right, else what went wrong; ``why`` is the same for every
    roll of one kind, so the feedback can group the wrong rolls by the rule they break."""
    value = entry.get("v")
    if "error" not in entry:
        if function in PREDICATES and value is expected:
            return None
        if function not in PREDICATES and entry.get("t") == "tuple" and \
                value == list(expected):
            return None
    kind = rules.hand_name(roll)
    call = f"{function}(<a Dice of Die objects showing {rules.shown(roll)}>)" if dice \
        else f"{function}({roll!r})"
    hand = "none of the six hands" if kind == "Nothing" else f"a {kind}"
    if function not in PREDICATES and kind == "Nothing":
        why = "It is none of the six hands, so it scores (0, \"Nothing\")."
    elif function not in PREDICATES:
        why = f"It is {hand} ({rules.RULE_TEXT[kind]}), which pays ${expected[0]}."
    elif kind == rules.PREDICATES[function]:
        why = f"It is {hand} ({rules.RULE_TEXT[kind]})."
    else:
        target = rules.PREDICATES[function]
        why = f"It is {hand}, not a {target} ({rules.RULE_TEXT[target]})."
    if "error" in entry:
        got = f"raised {entry['error']}: {entry.get('message', '')}".rstrip(": ")
    else:
        tuple_sent = entry.get("t") == "tuple" and isinstance(value, list)   # JSON has no tuple
        got = f"returned {shown(tuple(value) if tuple_sent else value)}"
        if function in PREDICATES and not isinstance(value, bool):
            got += f" ({entry.get('t')}; it must return a real bool, True or False)"
        elif function not in PREDICATES and entry.get("t") != "tuple":
            got += (f" ({entry.get('t')}; it must return a tuple, exactly one of the seven of "
                    "the handout, e.g. (15, \"Full House\"))")
    return Failure(roll, call, got, repr(expected), why, traceback=entry.get("traceback"))


def score_sweeps(evidence: Evidence, kit: bool = False) -> Sweep | None:
    """calculateScore over lists and Dice objects together, with the student's own
    predicates or (``kit``) the kit's; None when that sweep was not made."""
    lists = evidence.sweeps.get("calculateScore" + "/kit" * kit)
    dice = evidence.sweeps.get("calculateScore/dice" + "/kit" * kit)
    if lists is None or dice is None or dice.total == 0:
        return lists
    return Sweep(lists.function, lists.total + dice.total, lists.checked + dice.checked,
                 lists.failures + dice.failures, lists.hang or dice.hang,
                 lists.stopped_early or dice.stopped_early, lists.zero or dice.zero)


def valid_reason(text: str, expected) -> str:
    """Why isvalidDice(text) has its answer."""
    pieces = text.split()
    if expected is ValueError:
        bad = next(piece for piece in pieces if not piece.lstrip("-").isdigit())
        return f"It must raise ValueError: {bad!r} is not a whole number."
    if expected:
        return "It must return True: every piece is a die position from 1 to 5."
    if not pieces:
        return "It must return False: there is no number at all."
    bad = next(piece for piece in pieces if not 1 <= int(piece) <= 5)
    return f"It must return False: {bad} is not a die position (there are five dice, " \
           "numbered 1 to 5)."
