"""Judging the pure functions on every hand of their domain against the kit's rules (one
exhaustive sweep per function, in the student's process).

Each function has its :class:`Oracle`, named here one by one and listed in ``ORACLES``: the
student kit leaves out the hidden items' oracles by name (``student_kit.toml``), and with
them every rule of ``rules`` that only they use.
"""

from dataclasses import dataclass
from typing import Callable

from graders.engine.call.calls import FunctionCalls, swap_all
from graders.engine.call.exhaustive import (Failure, Sweep, a_or_an, default_judge, exhaustive,
                                            spelled)
from graders.engine.judge.requirements import shown

from . import explain, rules

PREDICATES = ("has_pair", "has_straight", "has_triple")
# sort_hand: the right list, but the argument was sorted in place (or returned as the result)
# breaks only the "new list" part of the rule, so such a hand counts half (the handout says
# so in its marking scheme, section 13).
HALF_RIGHT = 0.5
SAME_LIST = "It returned the list it was given, not a new one."


def half_text(sweep: Sweep) -> str:
    """How sort_hand's half-right hands are worded (``credit_text``): true of each of them,
    whether it returned the list it was given or a new list after changing its argument."""
    part = [failure for failure in sweep.failures if failure.credit]
    same = sum(failure.detail == SAME_LIST or failure.why == explain.why_sort_hand("same")
               for failure in part)
    how = (", but not as a new list" if same == len(part) else
           " as a new list, but it changed the list it was given" if same == 0 else
           ", but not as a new list, or with the list it was given changed")
    return "the right cards in the right order for {count} {noun}" + how + ", which counts half"


@dataclass(frozen=True)
class Oracle:
    """How one function is judged: the kit's correct version, the rule behind a wrong answer
    (``why(hand, returned)``), the kit helpers swapped in for a second sweep when the
    student's own do worse, and the hands it gets (every hand in every order by default)."""

    function: str
    expected: Callable
    why: Callable | None
    helpers: tuple[str, ...] = ()
    domain: Callable = rules.ordered_hands
    any_order: bool = True             # a yes/no answer must not depend on the cards' order
    detail: Callable | None = None     # a hand's own working, shown beside the rule
    judge: Callable | None = None      # replaces the comparison (see engine.exhaustive)
    args_after: bool = False           # the argument is read back after the call


def _judge_sort(hand: list[int], entry: dict, expected: list[int]) -> Failure | None:
    """A new list, high to low, with the argument left as it was."""
    if "error" in entry:
        return default_judge("sort_hand", hand, entry, expected,
                             lambda _, value: explain.why_sort_hand("order"))
    returned, kind, after = entry.get("v"), entry.get("t"), (entry.get("a") or [None])[0]
    # the first of these problems names the rule broken (explain.why_sort_hand)
    found = [("none", kind == "NoneType"), ("changed", after != list(hand)),
             ("type", kind != "list"), ("order", returned != expected),
             ("same", entry.get("same") is not None)]
    problem = next((name for name, present in found if present), None)
    if problem is None:
        return None
    got = "returned " + shown(returned)
    if kind not in ("list", "NoneType"):
        got += f" ({a_or_an(kind)})"
    if problem == "changed":
        got += f" and changed its argument to {after!r}"
    elif problem == "same":
        got += " (the same list object it was given)"
    new_list_only = problem in ("changed", "same") and kind == "list" and returned == expected
    credit = HALF_RIGHT if new_list_only else 0.0
    # the example shown first: a hand with no credit, else one whose argument was changed
    return Failure(hand, spelled("sort_hand", hand), got, repr(expected),
                   explain.why_sort_hand(problem),
                   detail=SAME_LIST if problem == "changed" and entry.get("same") is not None
                   else "",
                   credit=credit, priority=0 if problem == "changed" else 1)


HAND_TO_STRING = Oracle("hand_to_string", rules.hand_to_string, explain.why_hand_to_string,
                        any_order=False)
SORT_HAND = Oracle("sort_hand", rules.sort_hand, None, any_order=False, judge=_judge_sort,
                   args_after=True)
HAS_PAIR = Oracle("has_pair", rules.has_pair, explain.why_has_pair)
HAS_STRAIGHT = Oracle("has_straight", rules.has_straight, explain.why_has_straight)
HAS_TRIPLE = Oracle("has_triple", rules.has_triple, explain.why_has_triple)
DEALER_PLAYS = Oracle("dealer_plays", rules.dealer_plays, explain.why_dealer_plays,
                      helpers=PREDICATES)
# score_hand is given sorted hands only, as the handout says
SCORE_HAND = Oracle("score_hand", rules.score_hand, explain.why_score_hand, helpers=PREDICATES,
                    domain=rules.sorted_hands, any_order=False,
                    detail=lambda hand: explain.score_sum(hand) + ".")

ORACLES = (HAND_TO_STRING, SORT_HAND, HAS_PAIR, HAS_STRAIGHT, HAS_TRIPLE, DEALER_PLAYS,
           SCORE_HAND)
FUNCTIONS = tuple(oracle.function for oracle in ORACLES)


def sweep(calls: FunctionCalls, oracle: Oracle, kit_helpers: bool = False) -> Sweep:
    """The function on its whole domain (with the kit's helpers swapped in, if asked)."""
    swap = swap_all(rules, oracle.helpers) if kit_helpers and oracle.helpers else None
    return exhaustive(calls, oracle.function, oracle.domain(), oracle.expected, swap=swap,
                      any_order=oracle.any_order, why=oracle.why, detail=oracle.detail,
                      judge=oracle.judge, args_after=oracle.args_after)
