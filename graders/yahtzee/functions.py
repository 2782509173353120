"""The scoring functions called directly: each over all 7776 throws (engine ``exhaustive``,
``collect_sweeps``), and calculate_score / calculate_final_scores on chosen histories
(``collect_cases``), each in one child process.

The joker and final-score cases are run again with the kit's is_ functions swapped in when
they fail (``requirements.better``), so a wrong is_yahtzee costs its own item only; a joker
may give the points the student gives a real Full House or straight (``fixed``).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from graders.engine.calls import Case, FunctionCalls, same, swap_all
from graders.engine.exhaustive import Sweep, exhaustive
from graders.engine.harness import run_folder
from graders.engine.requirements import Requirement, better

from . import rules

IS_FUNCTIONS = ("is_three_of_a_kind", "is_four_of_a_kind", "is_full_house",
                "is_small_straight", "is_large_straight", "is_yahtzee")
SWEEPS = {"upper-section": list(rules.UPPER) + ["Chance"],
          "of-a-kind": ["is_three_of_a_kind", "is_four_of_a_kind", "is_yahtzee",
                        "Three Of A Kind", "Four Of A Kind", "Yahtzee"],
          "full-house": ["is_full_house", "Full House"],
          "straights": ["is_small_straight", "is_large_straight", "Small Straight",
                        "Large Straight"]}
RULE = {"Three Of A Kind": "Three or more dice alike score the sum of all dice, else 0.",
        "Four Of A Kind": "Four or more dice alike score the sum of all dice, else 0.",
        "Full House": "Three of one number and two of another score 25 (five alike do not).",
        "Small Straight": "Four numbers in a row among the dice score 30 (any fifth die).",
        "Large Straight": "1-2-3-4-5 or 2-3-4-5-6, in any order, scores 40.",
        "Yahtzee": "Five dice alike score 50.", "Chance": "Chance is the sum of all dice."}
RULE |= {f"is_{name.lower().replace(' ', '_')}": text for name, text in RULE.items()}
RULE |= {name: f"{name} is the sum of the dice showing {number}."
         for number, name in enumerate(rules.UPPER, start=1)}
PARTS = ("upper sum", "upper bonus", "lower sum", "Yahtzee bonus")
GAME_ONE = {"Yahtzee": (50, [3] * 5), "Ones": (3, [1, 6, 1, 6, 1]), "Twos": (6, [2, 3, 2, 5, 2]),
            "Threes": (9, [3, 3, 5, 6, 3]), "Fours": (12, [4, 4, 4, 5, 5]),
            "Fives": (15, [5, 1, 5, 1, 5]), "Sixes": (18, [6, 6, 2, 2, 6]),
            "Small Straight": (30, [4] * 5), "Large Straight": (40, [6] * 5),
            "Full House": (25, [2, 2, 3, 3, 3]), "Three Of A Kind": (13, [2, 2, 2, 6, 1]),
            "Four Of A Kind": (23, [5, 5, 3, 5, 5]), "Chance": (26, [6, 6, 5, 5, 4])}


@dataclass
class Evidence:
    """What the calls returned: sweeps and requirements by item."""

    import_error: str | None = None
    defined: dict = field(default_factory=dict)
    sweeps: dict[str, list[Sweep]] = field(default_factory=dict)
    cases: dict[str, list[Requirement]] = field(default_factory=dict)
    swapped: dict[str, bool] = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)      # option -> the student's points for it


def sweep(calls: FunctionCalls, name: str, rolls: list) -> Sweep:
    """An is_ function, or calculate_score for one option with an empty history."""
    function = name if name.startswith("is_") else "calculate_score"
    inputs, reference = (rolls, getattr(rules, name)) if function == name else \
        ([(roll, name, {}) for roll in rolls], rules.score)
    return exhaustive(calls, function, inputs, reference, stop_at_zero=True,
                      why=lambda *_: RULE[name])


def without(number: int) -> list[int]:
    """Five dice none of which shows ``number``."""
    return [face for face in range(1, 7) if face != number][:5]


def joker_cases() -> list[Case]:
    """calculate_score with histories where the joker applies and where it does not."""
    cases = []
    for number, option in ((4, "Full House"), (2, "Small Straight"), (6, "Large Straight"),
                           (1, "Full House"), (5, "Small Straight"), (3, "Large Straight")):
        dice, upper, other = [number] * 5, rules.UPPER[number - 1], rules.UPPER[number % 6]
        for history, why in (
                ({"Yahtzee": (50, [3] * 5), upper: (number * 3, [number] * 3 + [1, 2])},
                 "The Yahtzee box and the dice's upper box are used: the joker applies."),
                ({"Yahtzee": (0, [1, 2, 3, 5, 6]), upper: (0, without(number))},
                 "A Yahtzee box filled with 0 is used too: the joker applies."),
                ({"Yahtzee": (50, [2] * 5)}, f"{upper} is still open: no joker."),
                ({upper: (number, [number, 1, 2, 3, 5])}, "The Yahtzee box is open: no joker."),
                ({"Yahtzee": (50, [2] * 5), other: (0, without(number % 6 + 1))},
                 f"Only {other} is used, not {upper}: no joker."),
                ({}, "Nothing is used yet: no joker.")):
            expected = rules.joker_score(dice, option, history)
            cases.append(Case(f"calculate_score({dice!r}, {option!r}, {history!r})", expected,
                              why, len(cases), subject=option if expected else None))
    used = {"Yahtzee": (50, [5] * 5), "Twos": (4, [2, 2, 1, 3, 4])}
    return cases + [Case(f"calculate_score({dice!r}, {option!r}, {used!r})", 0,
                         "The joker is for Yahtzees only.", len(cases))
                    for dice, option in (([2, 2, 2, 2, 3], "Full House"),
                                         ([1, 2, 3, 5, 6], "Small Straight"))]


def final_cases(item: str) -> list[Case]:
    """calculate_final_scores cases of one item, each judged on its own numbers only."""
    def upper(points):
        return {rules.UPPER[number - 1]: (total, [number] * (total // number) +
                                          without(number)[:5 - total // number])
                for number, total in enumerate(points, start=1)}
    yahtzees = {"Yahtzee": (50, [2] * 5), "Twos": (10, [2] * 5)}
    pairs, parts = {
        "upper-bonus": ([(upper([2, 6, 9, 12, 15, 18]), "62 in the upper section: no bonus."),
                         (upper([3, 6, 9, 12, 15, 18]), "Exactly 63 earns the bonus."),
                         (upper([4, 6, 9, 12, 15, 18]), "64 earns the bonus."),
                         ({"Chance": (30, [6] * 5), "Four Of A Kind": (40, [6, 6, 6, 6, 4])},
                          "Lower boxes never count towards the upper bonus."),
                         (GAME_ONE, "A whole game with exactly 63 above.")], (1,)),
        "yahtzee-bonus": ([(yahtzees, "A Yahtzee after the Yahtzee box got 50 earns 100."),
                           (yahtzees | {"Threes": (15, [3] * 5)}, "Two after the 50 earn 200."),
                           ({"Yahtzee": (0, [1, 2, 3, 4, 6]), "Twos": (10, [2] * 5)},
                            "After a Yahtzee box filled with 0, no bonus."),
                           ({"Twos": (10, [2] * 5), "Yahtzee": (50, [2] * 5)},
                            "A Yahtzee played before the box got its 50 earns no bonus."),
                           ({"Yahtzee": (50, [6] * 5)}, "The Yahtzee that fills the box is "
                            "not a bonus."),
                           (GAME_ONE, "A whole game with two Yahtzees after the 50.")], (3,)),
        "score-table": ([({}, "Nothing played: both sums are 0."),
                         (upper([2, 6, 9, 12, 15, 18]), "The upper sum adds Ones to Sixes."),
                         ({"Chance": (23, [6, 5, 4, 5, 3]), "Fours": (8, [4, 4, 1, 2, 3])},
                          "Each box counts in its own section."),
                         (GAME_ONE, "A whole game: 63 above, 207 below.")], (0, 2))}[item]
    return [Case(f"calculate_final_scores({history!r})",
                 Parts(tuple((at, rules.final_scores(history)[at]) for at in parts)), why,
                 len(history)) for history, why in pairs]


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
            evidence.import_error = calls.import_error.replace(str(folder) + "/", "")
        yield calls


def collect_sweeps(submission, budget=None) -> Evidence:
    """The is_ functions and calculate_score (empty history) over every throw."""
    evidence, rolls = Evidence(), rules.all_rolls()
    with calls_of(submission, budget, evidence) as calls:
        for item, names in SWEEPS.items():
            if not evidence.import_error and all(
                    evidence.defined.get(n if n.startswith("is_") else "calculate_score")
                    for n in names):
                evidence.sweeps[item] = [sweep(calls, name, rolls) for name in names]
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
        for item in ("joker", "upper-bonus", "yahtzee-bonus", "score-table"):
            make = joker_cases if item == "joker" else lambda: final_cases(item)
            if evidence.defined.get("calculate_score" if item == "joker" else
                                    "calculate_final_scores"):
                own = judge(calls, make(), evidence.fixed)
                swapped = None if all(req.ok for req in own) else \
                    judge(calls, make(), evidence.fixed, swap_all(rules, IS_FUNCTIONS))
                evidence.cases[item], evidence.swapped[item] = better(own, swapped)
    return evidence
