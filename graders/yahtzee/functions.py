"""The scoring functions called directly: each over all 7776 throws (engine ``exhaustive``,
``collect_sweeps``), and calculate_score / calculate_final_scores on chosen histories
(``collect_cases``: the cases of cases.toml), each in one child process.

The joker and final-score cases are run again with the kit's is_ functions swapped in when
they fail (``requirements.better``), so a wrong is_yahtzee costs its own item only; a joker
may give the points the student gives a real Full House or straight (``fixed``).
"""
from __future__ import annotations

import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from graders.engine.call.calls import Case, FunctionCalls, same, swap_all
from graders.engine.call.exhaustive import Inputs, Sweep, exhaustive
from graders.engine.run.harness import run_folder
from graders.engine.judge.requirements import Requirement, better

from . import rules

IS_FUNCTIONS = ("is_three_of_a_kind", "is_four_of_a_kind", "is_full_house",
                "is_small_straight", "is_large_straight", "is_yahtzee")
RULE = {"Three Of A Kind": "Three or more dice alike score the sum of all dice, else 0.",
        "Four Of A Kind": "Four or more dice alike score the sum of all dice, else 0.",
        "Full House": "Three of one number and two of another score 25 (five alike do not).",
        "Small Straight": "Four numbers in a row among the dice score 30 (any fifth die).",
        "Large Straight": "1-2-3-4-5 or 2-3-4-5-6, in any order, scores 40.",
        "Yahtzee": "Five dice alike score 50.", "Chance": "Chance is the sum of all dice."} | {
        name: f"{name} is the sum of the dice showing {number}."
        for number, name in enumerate(rules.UPPER, start=1)}
# what each public item sweeps over every throw, from the rules' option -> item table: the
# is_ function of each of its options that has one (is_full_house), then the options' scores
TESTS = {f"is_{option.lower().replace(' ', '_')}": option for option in rules.OPTIONS}
SWEEPS = {item: [name for name, option in TESTS.items() if name in IS_FUNCTIONS and
                 rules.ITEMS[option] == item] +
          [option for option in rules.OPTIONS if rules.ITEMS[option] == item]
          for item in dict.fromkeys(rules.ITEMS.values())}
PARTS = ("upper sum", "upper bonus", "lower sum", "Yahtzee bonus")
UNSORTED = [5, 2, 6, 2, 4]              # a throw that sorting, or any change, would show
ROLLS = Inputs(rules.all_rolls())       # every throw, swept by every submission
# the hidden items' chosen cases (data, so none of it is in the student kit), and the numbers
# of calculate_final_scores each final-score item is judged on (positions in PARTS)
CASES = Path(__file__).with_name("cases.toml")
PARTS_OF = {"upper-bonus": (1,), "yahtzee-bonus": (3,), "score-table": (0, 2)}


@dataclass
class Evidence:
    """What the calls returned: sweeps and requirements by item."""

    import_error: str | None = None
    defined: dict = field(default_factory=dict)
    sweeps: dict[str, list[Sweep]] = field(default_factory=dict)
    cases: dict[str, list[Requirement]] = field(default_factory=dict)
    changed: dict[str, dict] = field(default_factory=dict)   # item -> call -> args after
    swapped: dict[str, bool] = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)      # option -> the student's points for it
    # (face, option) -> the student's points for five dice of that face in a joker's option,
    # with an empty history (no joker): the game's rows read these to charge a mistake once
    plain: dict = field(default_factory=dict)


def sweep(calls: FunctionCalls, name: str, rolls: list) -> Sweep:
    """An is_ function, or calculate_score for one option with an empty history."""
    function = name if name.startswith("is_") else "calculate_score"
    inputs, reference = (rolls, getattr(rules, name)) if function == name else \
        (option_inputs(name), rules.score)
    return exhaustive(calls, function, inputs, reference, stop_at_zero=True,
                      why=lambda *_: RULE[TESTS.get(name, name)],
                      case="" if function == name else repr(name))


@cache
def option_inputs(option: str) -> Inputs:
    """calculate_score's arguments for an option on every throw, with an empty history (the
    same for every submission: made once per process)."""
    return Inputs((roll, option, {}) for roll in ROLLS)


def history(entry, named: dict) -> dict:
    """A cases.toml history ([option, points, dice] in play order, or a name) as the handout's
    dictionary."""
    return {option: (points, dice) for option, points, dice in
            (named[entry] if isinstance(entry, str) else entry)}


@cache
def _table(path: Path) -> dict:
    """A TOML file of the grader's (read once per process; never changed)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def chosen_cases(item: str, path: Path = CASES) -> list[Case]:
    """The cases.toml cases of a hidden item: calculate_score with the joker's histories, or
    calculate_final_scores judged on the item's own numbers."""
    data, cases = _table(path), []
    for at, entry in enumerate(data[item]):
        played = history(entry["history"], data["histories"])
        if item == "joker":
            dice, option = entry["dice"], entry["option"]
            expected = rules.joker_score(dice, option, played)
            cases.append(Case(f"calculate_score({dice!r}, {option!r}, {played!r})", expected,
                              entry["why"], at, subject=option if expected else None))
        else:
            totals = rules.final_scores(played)
            cases.append(Case(f"calculate_final_scores({played!r})", Parts(tuple(
                (part, totals[part]) for part in PARTS_OF[item])), entry["why"], len(played)))
    return cases


@dataclass(frozen=True)
class Parts:
    """What a calculate_final_scores case expects: (position, value) of the numbers it is
    about (the others are other items')."""

    wanted: tuple

    def __repr__(self) -> str:
        return "four numbers with " + ", ".join(f"{PARTS[at]} {v}" for at, v in self.wanted)

    def matches(self, value) -> bool:
        return isinstance(value, list) and len(value) == 4 and \
            all(same(value[at], want) for at, want in self.wanted)


def judge(calls: FunctionCalls, cases: list[Case], fixed: dict, swap=None) -> list:
    """Requirements of cases: a joker that applies may give the points the student gives a
    real one (``fixed``); final-score cases are compared on their own parts only."""
    def compare(case):
        if isinstance(case.expected, Parts):
            return lambda value, expected: expected.matches(value)
        return lambda value, expected: same(value, expected) or (
            case.subject in fixed and same(value, fixed[case.subject]))
    return [case.requirement(compare(case)) for case in calls.run_cases(cases, swap)]


@contextmanager
def calls_of(submission, budget, evidence: Evidence):
    """A child process holding the student's module; ``evidence`` learns which functions it
    defines, or why it could not be imported."""
    with run_folder(submission, "calls") as folder, \
            FunctionCalls(folder / submission.main_name, folder, budget=budget) as calls:
        evidence.defined = calls.defined(IS_FUNCTIONS + ("calculate_score",
                                                         "calculate_final_scores")) or {}
        if calls.import_error:
            evidence.import_error = calls.import_error
        yield calls


def collect_sweeps(submission, budget=None) -> Evidence:
    """The is_ functions and calculate_score (empty history) over every throw."""
    evidence, rolls = Evidence(), ROLLS
    with calls_of(submission, budget, evidence) as calls:
        for item, names in SWEEPS.items():
            if not evidence.import_error and all(
                    evidence.defined.get(n if n.startswith("is_") else "calculate_score")
                    for n in names):
                evidence.sweeps[item] = [sweep(calls, name, rolls) for name in names]
                evidence.changed[item] = calls.changed_arguments([
                    f"{name}({UNSORTED})" if name.startswith("is_") else
                    f"calculate_score({UNSORTED}, {name!r}, {{}})" for name in names])
    return evidence


def collect_cases(submission, budget=None) -> Evidence:
    """calculate_score with chosen histories (the joker) and calculate_final_scores."""
    evidence = Evidence()
    with calls_of(submission, budget, evidence) as calls:
        if evidence.import_error:
            return evidence
        if evidence.defined.get("calculate_score"):
            genuine = [Case(f"calculate_score({dice!r}, {option!r}, {{}})", subject=option)
                       for dice, option in (([2, 2, 3, 3, 3], "Full House"),
                                            ([1, 2, 3, 4, 6], "Small Straight"),
                                            ([1, 2, 3, 4, 5], "Large Straight"))]
            evidence.fixed = {case.subject: case.value for case in calls.run_cases(genuine)
                              if type(case.value) is int and case.value > 0}
            plain = [Case(f"calculate_score({[face] * 5!r}, {option!r}, {{}})",
                          subject=(face, option))
                     for face in range(1, 7) for option in rules.JOKER_OPTIONS]
            evidence.plain = {case.subject: case.value for case in calls.run_cases(plain)}
        for item in ("joker", "upper-bonus", "yahtzee-bonus", "score-table"):
            if evidence.defined.get("calculate_score" if item == "joker" else
                                    "calculate_final_scores"):
                own = judge(calls, chosen_cases(item), evidence.fixed)
                swapped = None if all(req.ok for req in own) else judge(
                    calls, chosen_cases(item), evidence.fixed, swap_all(rules, IS_FUNCTIONS))
                evidence.cases[item], evidence.swapped[item] = better(own, swapped)
    return evidence
