"""Judging the pure functions on every hand of their domain against the kit's rules."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import explain, rules
from .runner import Case, call_spec, kit_helpers_spec, sort_spec
from .verdicts import call_problem, share, shown_value

BOOL_FUNCTIONS = ("has_pair", "has_straight", "has_triple", "dealer_plays")
ORDERED_FUNCTIONS = ("hand_to_string", "sort_hand") + BOOL_FUNCTIONS
HELPERS_USED = {"score_hand": ("has_pair", "has_straight", "has_triple"),
                "dealer_plays": ("has_pair", "has_straight", "has_triple")}
EXAMPLES = 4          # rule groups listed in the feedback
# sort_hand: the right list, but the argument was sorted in place (or returned as the result)
# breaks only the "new list" part of the rule, so such a hand counts half.
HALF_RIGHT = 0.5


def domain(function: str) -> list[list[int]]:
    """score_hand gets every sorted hand; the others every hand in every order."""
    return rules.sorted_hands() if function == "score_hand" else rules.ordered_hands()


def cases_for(function: str, kit_helpers: bool = False) -> list[Case]:
    """One case per hand of the function's domain."""
    cases = []
    for hand in domain(function):
        if kit_helpers:
            spec = kit_helpers_spec(function, HELPERS_USED[function], hand)
            cases.append(Case(function + "/kit", hand, spec))
        elif function == "sort_hand":
            cases.append(Case(function, hand, sort_spec(hand)))
        else:
            cases.append(Case(function, hand, call_spec(function, hand)))
    return cases


@dataclass
class Wrong:
    """One hand on which the student's function gave the wrong answer."""

    hand: list[int]
    call: str                      # the call spelled as Python
    got: str                       # 'returned True', 'raised IndexError: ...'
    expected: str
    rule: str                      # the handout rule (shared by many hands)
    traceback: str | None = None
    detail: str = ""               # this hand's own working, e.g. a score calculation
    credit: float = 0.0            # the share of a right answer this one still earns
    changed_argument: bool = False


@dataclass
class Judgement:
    """A function's result over its whole domain."""

    function: str
    total: int
    wrong: list[Wrong] = field(default_factory=list)
    hang: str | None = None        # the call that hung, spelled out
    kit_helpers: bool = False

    @property
    def right(self) -> float:
        """How many hands were right (half-right ones count as their credit)."""
        return self.total - sum(1 - wrong.credit for wrong in self.wrong)

    @property
    def half_right(self) -> list[Wrong]:
        """The hands that earned part of a right answer."""
        return [wrong for wrong in self.wrong if wrong.credit]

    @property
    def fraction(self) -> float:
        """The share of the item: none after a hang, never full with a wrong hand."""
        return 0.0 if self.hang else share(self.right, self.total)


def judge(function: str, cases: list[Case], kit_helpers: bool = False) -> Judgement:
    """Compare every case with the kit's answer."""
    verdict = Judgement(function, len(cases), kit_helpers=kit_helpers)
    answers = {}
    for case in cases:
        call = spelled(function, case.subject)
        if case.hung or case.skipped:
            verdict.hang = verdict.hang or call_problem(case.outcome, call)
            continue
        wrong = check(function, case.subject, case.outcome, call)
        answers[tuple(case.subject)] = wrong is None
        if wrong:
            verdict.wrong.append(wrong)
    if function in BOOL_FUNCTIONS:
        _hint_any_order(verdict, answers)
    return verdict


def spelled(function: str, hand: list[int]) -> str:
    """The call as Python, e.g. has_pair([2, 2, 5])."""
    return f"{function}({list(hand)!r})"


def check(function: str, hand: list[int], outcome: dict, call: str) -> Wrong | None:
    """None when the call gave the right answer, else what went wrong."""
    expected = getattr(rules, function)(list(hand))
    detail = explain.score_sum(hand) + "." if function == "score_hand" else ""
    if not outcome.get("ok"):
        return Wrong(hand, call, "raised " + f"{outcome.get('error')}: "
                     f"{outcome.get('message', '')}".rstrip(": "), repr(expected),
                     explain.why(function, hand), outcome.get("traceback"), detail)
    if function == "sort_hand":
        return _check_sort(hand, outcome["value"], call, expected)
    value = outcome.get("value")
    if _same(value, expected):
        return None
    rule = explain.why(function, hand, value)
    if function in BOOL_FUNCTIONS and not isinstance(value, bool) and \
            (value is None or isinstance(value, (int, float, str, list))):
        kind = "None" if value is None else explain.a_or_an(type(value).__name__)
        if bool(value) == expected:
            rule = explain.REAL_BOOL.format(function=function, kind=kind)
    return Wrong(hand, call, "returned " + shown_value(value), repr(expected), rule,
                 detail=detail)


def _same(value: object, expected: object) -> bool:
    """Equal and of the right kind (True is not 1; a score may be an int or a whole float)."""
    if isinstance(expected, bool) or isinstance(value, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(expected, int):
        return isinstance(value, (int, float)) and value == expected
    return type(value) is type(expected) and value == expected


def _check_sort(hand: list[int], value: dict, call: str, expected: list[int]) -> Wrong | None:
    """A new list, high to low, with the argument left as it was."""
    returned = value.get("returned")
    if value.get("kind") == "NoneType":
        problem = "none"
    elif value.get("after") != list(hand):
        problem = "changed"
    elif value.get("kind") != "list":
        problem = "type"
    elif returned != expected:
        problem = "order"
    elif value.get("same"):
        problem = "same"
    else:
        return None
    got = "returned " + shown_value(returned)
    if value.get("kind") not in ("list", "NoneType"):
        got += f" ({explain.a_or_an(value.get('kind'))})"
    if problem == "changed":
        got += f" and changed its argument to {value.get('after')!r}"
    elif problem == "same":
        got += " (the same list object it was given)"
    credit = 0.0
    if problem in ("changed", "same") and value.get("kind") == "list" and returned == expected:
        credit = HALF_RIGHT
    return Wrong(hand, call, got, repr(expected), explain.why_sort_hand(problem), credit=credit,
                 changed_argument=problem == "changed")


def _hint_any_order(verdict: Judgement, answers: dict) -> None:
    """Wrong only for some orders of the cards: say that the order must not matter."""
    for wrong in verdict.wrong:
        ordered = rules.sort_hand(wrong.hand)
        if ordered != wrong.hand and answers.get(tuple(ordered)):
            wrong.rule = explain.ANY_ORDER.format(function=verdict.function)
            wrong.detail = explain.RIGHT_WHEN_SORTED.format(
                sorted_call=spelled(verdict.function, ordered))


def better(own: Judgement, kit: Judgement | None) -> Judgement:
    """The judgement to keep: with the student's helpers unless the kit's give more."""
    if kit is not None and kit.fraction > own.fraction:
        return kit
    return own


def report(verdict: Judgement, points_word: str = "marks") -> dict:
    """The feedback for a judgement that is not full marks: message, expected, actual."""
    if verdict.hang:
        return {"message": f"{verdict.hang}. The grader stopped testing {verdict.function} "
                           f"there, so this item gets no {points_word}.",
                "expected": None, "actual": None, "evidence": None}
    # the smallest hand with no credit at all; else the smallest with a changed argument
    first = min(verdict.wrong, key=lambda wrong: (wrong.credit, not wrong.changed_argument))
    half = len(verdict.half_right)
    wrong = len(verdict.wrong) - half
    counted = [f"a wrong answer for {wrong} of the {verdict.total} hands it was given"] * \
        bool(wrong)
    if half:
        counted.append(f"the right cards in the right order for {half} hands, but not as a new "
                       "list, which counts half")
    lines = [f"{verdict.function} gave {' and '.join(counted)}. Full {points_word} need every "
             f"hand right; with {verdict.right:g} of {verdict.total} right this item gets "
             f"{verdict.fraction:g} of its points.",
             "",
             f"The smallest {'half-right' if first.credit else 'wrong'} hand: {first.call} "
             f"{first.got}, but the right answer is {first.expected}"
             f"{' as a new list' if first.credit else ''}.",
             f"Why: {first.rule} {first.detail}".rstrip()]
    groups = Counter(wrong.rule for wrong in verdict.wrong)
    if len(groups) > 1:
        lines += ["", "The wrong hands by rule (with the smallest example of each):"]
        for rule, count in groups.most_common(EXAMPLES):
            example = next(wrong for wrong in verdict.wrong if wrong.rule == rule)
            lines.append(f"- {count} hand{'s' if count > 1 else ''}: {rule} "
                         f"E.g. {example.call} {example.got}; expected {example.expected}.")
        if len(groups) > EXAMPLES:
            lines.append(f"- ... and {len(groups) - EXAMPLES} more kinds of mistake.")
    actual = f"{first.call} {first.got}"
    if first.traceback:
        actual += "\n\n" + first.traceback
    return {"message": "\n".join(lines), "expected": f"{first.call} == {first.expected}",
            "actual": actual, "evidence": None}
