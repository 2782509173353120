"""Judging the pure functions on every hand of their domain against the kit's rules (one
exhaustive sweep per function, in the student's process)."""
from __future__ import annotations

from graders.engine.calls import FunctionCalls, swap_all
from graders.engine.exhaustive import Failure, Sweep, a_or_an, default_judge, exhaustive, spelled
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
    if function == "sort_hand":
        return exhaustive(calls, function, domain(function), rules.sort_hand, judge=_judge_sort,
                          args_after=True)
    return exhaustive(calls, function, domain(function), getattr(rules, function), swap=swap,
                      any_order=function in BOOL_FUNCTIONS,
                      why=lambda hand, value: explain.why(function, hand, value),
                      detail=lambda hand: explain.score_sum(hand) + "."
                      if function == "score_hand" else "")


def _judge_sort(hand: list[int], entry: dict, expected: list[int]) -> Failure | None:
    """A new list, high to low, with the argument left as it was."""
    if "error" in entry:
        return default_judge("sort_hand", hand, entry, expected,
                             lambda _, value: explain.why_sort_hand("order"))
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
        got += f" ({a_or_an(kind)})"
    if problem == "changed":
        got += f" and changed its argument to {after!r}"
    elif problem == "same":
        got += " (the same list object it was given)"
    credit = 0.0
    if problem in ("changed", "same") and kind == "list" and returned == expected:
        credit = HALF_RIGHT
    # the example shown first: a hand with no credit, else one whose argument was changed
    return Failure(hand, spelled("sort_hand", hand), got, repr(expected),
                   explain.why_sort_hand(problem),
                   credit=credit, priority=0 if problem == "changed" else 1)
