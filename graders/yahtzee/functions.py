"""The scoring functions called directly: every one over all 7776 throws (engine
``exhaustive``), and calculate_score / calculate_final_scores with chosen histories.

All calls run in one child process. The joker and final-score cases are also run with the
kit's is_ functions swapped in for the student's (``requirements.better``), so a mistake in
is_yahtzee is charged to its own item, not again to the joker or a bonus.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import Case, FunctionCalls, same, swap_all
from graders.engine.exhaustive import Sweep, default_judge, exhaustive
from graders.engine.harness import run_folder
from graders.engine.requirements import Requirement, better, shown

from . import rules

IS_FUNCTIONS = ("is_three_of_a_kind", "is_four_of_a_kind", "is_full_house",
                "is_small_straight", "is_large_straight", "is_yahtzee")
REQUIRED = IS_FUNCTIONS + ("calculate_score", "calculate_final_scores")
SWEEPS = {
    "upper-section": list(rules.UPPER) + ["Chance"],
    "of-a-kind": ["is_three_of_a_kind", "is_four_of_a_kind", "is_yahtzee",
                  "Three Of A Kind", "Four Of A Kind", "Yahtzee"],
    "full-house": ["is_full_house", "Full House"],
    "straights": ["is_small_straight", "is_large_straight", "Small Straight", "Large Straight"],
}
RULE = {"Three Of A Kind": "At least three dice alike score the sum of all dice, else 0.",
        "Four Of A Kind": "At least four dice alike score the sum of all dice, else 0.",
        "Full House": "Three dice of one number and two of another score 25; five alike are "
                      "not a Full House (no joker with an empty history).",
        "Small Straight": "Four numbers in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6) among the dice "
                          "score 30, whatever the fifth die shows.",
        "Large Straight": "1-2-3-4-5 or 2-3-4-5-6, in any order, scores 40.",
        "Yahtzee": "Five dice alike score 50.", "Chance": "Chance is the sum of all dice."}
RULE.update({f"is_{name.lower().replace(' ', '_')}": text for name, text in RULE.items()})
RULE.update({name: f"{name} is the sum of the dice showing {number}."
             for number, name in enumerate(rules.UPPER, start=1)})
SWAP = swap_all(rules, IS_FUNCTIONS)


@dataclass
class Evidence:
    """What the calls returned: sweeps by item, requirements by item."""

    import_error: str | None = None
    defined: dict = field(default_factory=dict)
    sweeps: dict[str, list[Sweep]] = field(default_factory=dict)
    cases: dict[str, list[Requirement]] = field(default_factory=dict)
    swapped: dict[str, bool] = field(default_factory=dict)


def sweep(calls: FunctionCalls, name: str, rolls: list) -> Sweep:
    """An is_ function, or calculate_score for one option with an empty history."""
    function = name if name.startswith("is_") else "calculate_score"
    inputs = rolls if name.startswith("is_") else [(roll, name, {}) for roll in rolls]

    def judge(item, entry, expected):
        """A right answer is passed at once; a wrong one is worded by the engine."""
        if "error" not in entry and same(entry.get("v"), expected):
            return None
        return default_judge(function, item, entry, expected, lambda *_: RULE[name])
    reference = getattr(rules, name) if name.startswith("is_") else rules.score
    return exhaustive(calls, function, inputs, reference, stop_at_zero=True, judge=judge)


def joker_cases() -> list[Case]:
    """calculate_score with histories where the joker applies and where it does not."""
    cases = []
    for number, option in ((4, "Full House"), (2, "Small Straight"), (6, "Large Straight"),
                           (1, "Full House"), (5, "Small Straight"), (3, "Large Straight")):
        dice, upper = [number] * 5, rules.UPPER[number - 1]
        other = rules.UPPER[number % 6]
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
            cases.append(Case(f"calculate_score({dice!r}, {option!r}, {history!r})",
                              rules.score(dice, option, history), why, size=len(cases)))
    used = {"Yahtzee": (50, [5] * 5), "Twos": (4, [2, 2, 1, 3, 4])}
    for dice, option in (([2, 2, 2, 2, 3], "Full House"), ([2, 2, 3, 4, 5], "Small Straight"),
                         ([2, 2, 2, 2, 2], "Yahtzee"), ([2, 2, 2, 2, 2], "Twos"),
                         ([2, 2, 2, 2, 2], "Chance")):
        cases.append(Case(f"calculate_score({dice!r}, {option!r}, {used!r})",
                          rules.score(dice, option, used), "The joker changes only a "
                          "Yahtzee's Full House and straights; other scores stay as usual.",
                          size=len(cases)))
    return cases


GAME_ONE = {"Yahtzee": (50, [3] * 5), "Ones": (3, [1, 6, 1, 6, 1]), "Twos": (6, [2, 3, 2, 5, 2]),
            "Threes": (9, [3, 3, 5, 6, 3]), "Fours": (12, [4, 4, 4, 5, 5]),
            "Fives": (15, [5, 1, 5, 1, 5]), "Sixes": (18, [6, 6, 2, 2, 6]),
            "Small Straight": (30, [4] * 5), "Large Straight": (40, [6] * 5),
            "Full House": (25, [2, 2, 3, 3, 3]), "Three Of A Kind": (13, [2, 2, 2, 6, 1]),
            "Four Of A Kind": (23, [5, 5, 3, 5, 5]), "Chance": (26, [6, 6, 5, 5, 4])}


def without(number: int) -> list[int]:
    """Five dice none of which shows ``number``."""
    return [face for face in range(1, 7) if face != number][:5]


def _upper(points: list[int]) -> dict:
    """A history of the six upper boxes with these points, each with dice that score it."""
    return {rules.UPPER[number - 1]: (total, [number] * (total // number) +
                                      without(number)[:5 - total // number])
            for number, total in enumerate(points, start=1)}


def final_cases() -> dict[str, list[Case]]:
    """calculate_final_scores: the bonuses and the sums, each judged on its own numbers."""
    bonus_cases = [
        (_upper([2, 6, 9, 12, 15, 18]), "62 in the upper section: no bonus."),
        (_upper([3, 6, 9, 12, 15, 18]), "Exactly 63 in the upper section earns the bonus."),
        (_upper([4, 6, 9, 12, 15, 18]), "64 in the upper section earns the bonus."),
        (_upper([5, 10, 15, 20, 25, 30]), "105 in the upper section earns the bonus."),
        ({"Chance": (30, [6, 6, 6, 6, 6]), "Four Of A Kind": (40, [6, 6, 6, 6, 4])},
         "Lower boxes never count towards the upper bonus."),
        (GAME_ONE, "A whole game with exactly 63 in the upper section.")]
    yahtzee_cases = [
        ({"Yahtzee": (50, [2] * 5), "Twos": (10, [2] * 5)},
         "A Yahtzee after the Yahtzee box got 50 earns 100."),
        ({"Yahtzee": (50, [2] * 5), "Twos": (10, [2] * 5), "Threes": (15, [3] * 5)},
         "Two Yahtzees after the 50 earn 200."),
        ({"Yahtzee": (0, [1, 2, 3, 4, 6]), "Twos": (10, [2] * 5)},
         "After a Yahtzee box filled with 0, no bonus."),
        ({"Twos": (10, [2] * 5), "Yahtzee": (50, [2] * 5)},
         "A Yahtzee played before the Yahtzee box got its 50 earns no bonus."),
        ({"Yahtzee": (50, [6] * 5)}, "The Yahtzee that fills the box is not a bonus."),
        ({"Yahtzee": (50, [4] * 5), "Chance": (20, [4, 4, 4, 4, 4]),
          "Full House": (0, [1, 1, 2, 2, 3])}, "Only Yahtzees earn the bonus."),
        (GAME_ONE, "A whole game with two Yahtzees after the 50.")]
    sum_cases = [({}, "Nothing played: both sums are 0."),
                 (_upper([2, 6, 9, 12, 15, 18]), "The upper sum adds Ones to Sixes."),
                 ({"Chance": (23, [6, 5, 4, 5, 3]), "Fours": (8, [4, 4, 1, 2, 3]),
                   "Yahtzee": (0, [1, 2, 3, 4, 5])}, "Each box counts in its own section."),
                 (GAME_ONE, "A whole game: 63 above, 207 below.")]

    def cases(pairs, position):
        made = []
        for history, why in pairs:
            expected = rules.final_scores(history)
            wanted = tuple(expected[at] for at in position)
            made.append(Case(f"calculate_final_scores({history!r})", wanted, why,
                             size=len(history), subject=position))
        return made
    return {"upper-bonus": cases(bonus_cases, (1,)), "yahtzee-bonus": cases(yahtzee_cases, (3,)),
            "score-table": cases(sum_cases, (0, 2))}


def judge(calls: FunctionCalls, cases: list[Case], swap: dict | None = None):
    """Requirements of cases; final-score cases are compared on their own parts only."""
    requirements = []
    for case in calls.run_cases(cases, swap):
        if case.subject is None or case.problem:
            requirements.append(case.requirement())
            continue
        value, names = case.value, ("upper sum", "upper bonus", "lower sum", "Yahtzee bonus")
        ok = isinstance(value, list) and len(value) == 4 and \
            all(same(value[at], want) for at, want in zip(case.subject, case.expected))
        wanted = ", ".join(f"{names[at]} {want}" for at, want in zip(case.subject,
                                                                     case.expected))
        requirements.append(Requirement(ok, case.call, f"four numbers with {wanted}",
                                        "returned " + shown(value), case.why, case.size))
    return requirements


def collect(submission, budget=None) -> Evidence:
    """Every function call of the grade, in one child process."""
    evidence, rolls = Evidence(), rules.all_rolls()
    with run_folder(submission, "calls") as folder, \
            FunctionCalls(folder / submission.main_name, folder, budget=budget) as calls:
        evidence.defined = calls.defined(REQUIRED) or {}
        if calls.import_error:
            evidence.import_error = calls.import_error.replace(str(folder) + "/", "")
            return evidence
        for item, names in SWEEPS.items():
            needed = [name if name.startswith("is_") else "calculate_score" for name in names]
            if all(evidence.defined.get(name) for name in needed):
                evidence.sweeps[item] = [sweep(calls, name, rolls) for name in names]
        groups = {"joker": joker_cases()} | final_cases()
        for item, cases in groups.items():
            function = "calculate_score" if item == "joker" else "calculate_final_scores"
            if not evidence.defined.get(function):
                continue
            own = judge(calls, cases)
            swapped = None
            if not all(req.ok for req in own):
                fresh = joker_cases() if item == "joker" else final_cases()[item]
                swapped = judge(calls, fresh, SWAP)
            evidence.cases[item], evidence.swapped[item] = better(own, swapped)
    return evidence
