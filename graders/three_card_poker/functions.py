"""Judging the pure functions on every hand of their domain against the kit's rules (one
exhaustive sweep per function, in the student's process)."""
from __future__ import annotations

from graders.engine.calls import FunctionCalls, same, swap_all
from graders.engine.exhaustive import Failure, Sweep, exhaustive, spelled
from graders.engine.requirements import shown

from . import explain, rules

BOOL_FUNCTIONS = ("has_pair", "has_straight", "has_triple", "dealer_plays")
FUNCTIONS = ("hand_to_string", "sort_hand") + BOOL_FUNCTIONS + ("score_hand",)
HELPERS_USED = {"score_hand": ("has_pair", "has_straight", "has_triple"),
                "dealer_plays": ("has_pair", "has_straight", "has_triple")}
# sort_hand: the right list, but the argument was sorted in place (or returned as the result)
# breaks only the "new list" part of the rule, so such a hand counts half.
HALF_RIGHT = 0.5
HALF_TEXT = "the right cards in the right order for {count} {noun}, but not as a new list, " \
            "which counts half"


def domain(function: str) -> list[list[int]]:
    """score_hand gets every sorted hand; the others every hand in every order."""
    return rules.sorted_hands() if function == "score_hand" else rules.ordered_hands()


def sweep(calls: FunctionCalls, function: str, kit_helpers: bool = False) -> Sweep:
    """The function on its whole domain (with the kit's helpers swapped in, if asked)."""
    swap = swap_all(rules, HELPERS_USED[function]) if kit_helpers else None
    found = exhaustive(calls, function, domain(function), getattr(rules, function), swap=swap,
                       judge=lambda hand, entry, expected: judge(function, hand, entry, expected),
                       args_after=function == "sort_hand")
    if function in BOOL_FUNCTIONS:
        _hint_any_order(found)
    return found


def judge(function: str, hand: list[int], entry: dict, expected) -> Failure | None:
    """None when the call gave the right answer, else what went wrong."""
    call = spelled(function, hand)
    detail = explain.score_sum(hand) + "." if function == "score_hand" else ""
    if "error" in entry:
        return Failure(hand, call, f"raised {entry['error']}: {entry.get('message', '')}"
                       .rstrip(": "), repr(expected), explain.why(function, hand), detail,
                       traceback=entry.get("traceback"))
    if function == "sort_hand":
        return _judge_sort(hand, entry, call, expected)
    value = entry.get("v")
    if same(value, expected):
        return None
    rule = explain.why(function, hand, value)
    if function in BOOL_FUNCTIONS and not isinstance(value, bool) and \
            (value is None or isinstance(value, (int, float, str, list))):
        kind = "None" if value is None else explain.a_or_an(type(value).__name__)
        if bool(value) == expected:
            rule = explain.REAL_BOOL.format(function=function, kind=kind)
    return Failure(hand, call, "returned " + shown(value), repr(expected), rule, detail)


def _judge_sort(hand: list[int], entry: dict, call: str, expected: list[int]) -> Failure | None:
    """A new list, high to low, with the argument left as it was."""
    returned, kind, after = entry.get("v"), entry.get("t"), (entry.get("a") or [None])[0]
    if kind == "NoneType":
        problem = "none"
    elif after != list(hand):
        problem = "changed"
    elif kind != "list":
        problem = "type"
    elif returned != expected:
        problem = "order"
    elif entry.get("same") is not None:
        problem = "same"
    else:
        return None
    got = "returned " + shown(returned)
    if kind not in ("list", "NoneType"):
        got += f" ({explain.a_or_an(kind)})"
    if problem == "changed":
        got += f" and changed its argument to {after!r}"
    elif problem == "same":
        got += " (the same list object it was given)"
    credit = 0.0
    if problem in ("changed", "same") and kind == "list" and returned == expected:
        credit = HALF_RIGHT
    # the example shown first: a hand with no credit, else one whose argument was changed
    return Failure(hand, call, got, repr(expected), explain.why_sort_hand(problem),
                   credit=credit, priority=0 if problem == "changed" else 1)


def _hint_any_order(found: Sweep) -> None:
    """Wrong only for some orders of the cards: say that the order must not matter."""
    wrong = {tuple(failure.input) for failure in found.failures}
    for failure in found.failures:
        ordered = rules.sort_hand(failure.input)
        if ordered != failure.input and tuple(ordered) not in wrong:
            failure.why = explain.ANY_ORDER.format(function=found.function)
            failure.detail = explain.RIGHT_WHEN_SORTED.format(
                sorted_call=spelled(found.function, ordered))
