"""Judging calculateScore, the predicates and isvalidDice against the kit's rules."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import rules
from .functions import (CALL_CPU, CANONICAL, MAX_HANGS, PREDICATES, ROLLS, SWEEP_CPU,
                        VALID_CASES, Evidence)
from .verdicts import plural, share

GROUPS_SHOWN = 4


@dataclass
class Wrong:
    """One call that gave the wrong answer."""

    roll: list[int]
    call: str              # the call spelled as Python
    got: str               # 'returned True', 'raised KeyError: 7'
    expected: str
    kind: str              # what the roll really is, e.g. "Full House" (groups the feedback)
    rule: str              # why the expected answer is right
    traceback: str | None = None


@dataclass
class Judgement:
    """A function's result over the rolls it was given."""

    function: str
    total: int = 0
    wrong: list[Wrong] = field(default_factory=list)
    hang: str | None = None
    skipped: int = 0                   # Dice hands the student's classes could not build
    build_error: str | None = None
    lost: int = 0                      # rolls not tried after the function hung: wrong
    untried: int = 0                   # rolls not tried for the grader's reasons: not judged
    review: str | None = None          # why some rolls were not judged (a TA looks)

    @property
    def right(self) -> int:
        """Rolls answered right."""
        return max(0, self.total - len(self.wrong) - self.lost - self.untried)

    @property
    def judged(self) -> int:
        """Rolls that count: every roll but those the grader could not try."""
        return self.total - self.untried

    @property
    def fraction(self) -> float:
        """The share of the item (of the rolls judged)."""
        return share(self.right, self.judged)


def article(name: str) -> str:
    """'a Full House', 'an 2 Pair' is wrong: 'a 2 Pair'; 'Nothing' stays bare."""
    return name if name == "Nothing" else f"a {name}"


def spelled(function: str, roll: list[int], dice: bool) -> str:
    """The call as Python: is2Pair([1, 1, 2, 2, 3]) or calculateScore(<Dice showing ...>)."""
    if dice:
        return f"{function}(<a Dice holding Die objects showing {rules.shown(roll)}>)"
    return f"{function}({roll!r})"


def predicate_rule(function: str, roll: list[int]) -> tuple[str, bool]:
    """Why function(roll) is True or False, and the right answer."""
    target, actual = rules.PREDICATES[function], rules.hand_name(roll)
    if actual == target:
        return f"{rules.shown(roll)} is {article(actual)}. {rules.RULE_TEXT[actual]}.", True
    return (f"{rules.shown(roll)} is {article(actual)}, not {article(target)}. "
            f"{rules.RULE_TEXT[target]}.", False)


def score_rule(roll: list[int]) -> tuple[str, tuple[int, str]]:
    """Why calculateScore(roll) has its value, and the right answer."""
    name = rules.hand_name(roll)
    rule = f"{rules.shown(roll)} is {article(name)} ({rules.RULE_TEXT[name]}), which pays " \
           f"${rules.PAYOUTS[name]}."
    if name == "Nothing":
        rule = f"{rules.shown(roll)} is none of the six hands, so it scores (0, \"Nothing\")."
    return rule, (rules.PAYOUTS[name], name)


def judge_loop(function: str, outcome: dict | None, *, dice: bool = False) -> Judgement:
    """Compare one all-rolls loop with the kit's answers."""
    verdict = Judgement(function)
    if outcome is None:
        verdict.hang = f"{function} was not called"
        return verdict
    if not outcome.get("ok"):
        verdict.total = len(ROLLS)
        if outcome.get("error") == "timeout":       # the spec's safety net, not a verdict
            verdict.untried = verdict.total
            verdict.review = _stopped(function, outcome)
        else:
            verdict.lost = verdict.total
            verdict.hang = _stopped(function, outcome)
        return verdict
    value = outcome["value"]
    codes, odd, errors = value["codes"], value["odd"], value["errors"]
    stop, at = (value.get("stop") or [None, len(codes)])[:2]
    for index, roll in enumerate(ROLLS):
        code = codes[index] if index < len(codes) else None
        if code == "B":
            verdict.skipped += 1
            if verdict.build_error is None and str(index) in errors:
                verdict.build_error = errors[str(index)][1]
            continue
        verdict.total += 1
        if code is None:
            # rolls after an early stop: wrong after real hangs, not judged otherwise
            if stop == "hung":
                verdict.lost += 1
            else:
                verdict.untried += 1
            continue
        wrong = _check(function, roll, code, odd.get(code), errors.get(str(index)), dice)
        if wrong:
            verdict.wrong.append(wrong)
    if stop == "hung":
        verdict.hang = (f"{MAX_HANGS} calls of {function} did not return within "
                        f"{CALL_CPU:g} CPU seconds each (an endless loop?), so the grader "
                        f"stopped after {plural(at, 'roll')}")
    elif stop in ("slow", "net") and verdict.untried:
        reason = (f"{function} had used {SWEEP_CPU:g} CPU seconds" if stop == "slow" else
                  "the grader's safety time limit was reached (a grader problem, not a "
                  "verdict on your code)")
        verdict.review = (f"{reason} after {plural(at, 'roll')}, so the other "
                          f"{verdict.untried} were not tried; the mark is based on the rolls "
                          "tried, and a TA will confirm it")
    return verdict


def _stopped(function: str, outcome: dict) -> str:
    """Why a whole loop failed."""
    error = outcome.get("error")
    if error == "timeout":
        return f"{function} did not finish all {len(ROLLS)} rolls within the grader's " \
               "safety time limit (a grader problem, not a verdict on your code); a TA " \
               "will judge it"
    if error == "import":
        return f"{function} could not be called: the file could not be imported"
    if error == "skipped":
        return f"{function} was {outcome.get('message', 'not run')}"
    return f"calling {function} stopped the program: {outcome.get('message', '')}".rstrip(": ")


def _check(function: str, roll: list[int], code: str, odd, error, dice: bool) -> Wrong | None:
    """None when the answer was right, else what went wrong."""
    call = spelled(function, roll, dice)
    if function in PREDICATES:
        rule, right = predicate_rule(function, roll)
        expected = repr(right)
        if code in "01":
            return None if (code == "1") == right else \
                Wrong(roll, call, f"returned {code == '1'}", expected, rules.hand_name(roll),
                      rule)
    else:
        rule, right = score_rule(roll)
        expected = repr(right)
        if code.isdigit():
            got = CANONICAL[int(code)]
            return None if got == right else \
                Wrong(roll, call, f"returned {got!r}", expected, rules.hand_name(roll), rule)
    if code == "T":
        return Wrong(roll, call, f"did not return within {CALL_CPU:g} CPU seconds (an endless "
                     "loop?)", expected, rules.hand_name(roll), rule)
    if code == "E":
        message = error[1] if error else "an exception"
        return Wrong(roll, call, f"raised {message}", expected, rules.hand_name(roll), rule,
                     error[2] if error else None)
    shown, kind = odd[:2] if odd else ("a value the grader could not show", "?")
    if function in PREDICATES:
        hint = f" It must return a real bool (True or False), not {_a(kind)}."
    elif kind == "tuple":
        return Wrong(roll, call, f"returned {shown}", expected, rules.hand_name(roll), rule)
    else:
        hint = (" It must return a tuple, exactly one of the seven of the handout, e.g. "
                "(15, \"Full House\").")
    return Wrong(roll, call, f"returned {shown} ({_a(kind)})", expected, rules.hand_name(roll),
                 rule + hint)


def _a(kind: str) -> str:
    """'an int', 'a tuple'."""
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind


def combined(lists: Judgement, dice: Judgement | None) -> Judgement:
    """calculateScore over lists and Dice objects together."""
    if dice is None or dice.total == 0:
        return lists
    return Judgement(lists.function, lists.total + dice.total, lists.wrong + dice.wrong,
                     lists.hang or dice.hang, dice.skipped, dice.build_error,
                     lists.lost + dice.lost, lists.untried + dice.untried,
                     lists.review or dice.review)


def any_order_hint(verdict: Judgement, function: str, evidence_codes: str) -> str:
    """A sentence when some orders of a roll are right and others wrong."""
    index = {tuple(roll): number for number, roll in enumerate(ROLLS)}
    for wrong in verdict.wrong:
        ordered = sorted(wrong.roll)
        if ordered != wrong.roll and not wrong.got.startswith("did not return"):
            code = evidence_codes[index[tuple(ordered)]] if evidence_codes else ""
            rule_right = predicate_rule(function, ordered)[1] if function in PREDICATES \
                else None
            if function in PREDICATES and code in "01" and code and \
                    (code == "1") == rule_right:
                return (f"{function} gives the right answer for {ordered} but not for "
                        f"{wrong.roll}: the order of the dice must not matter (the handout: "
                        "\"The order of the dice never matters\").")
    return ""


def feedback(verdict: Judgement, hint: str = "") -> dict:
    """message / expected / actual for a judgement that is not full marks."""
    if verdict.hang and not verdict.wrong:
        return {"message": f"{verdict.hang}, so this item gets {verdict.fraction:g} of its "
                           "marks.", "expected": None, "actual": None}
    first = verdict.wrong[0]
    unit = "calls (every roll as a list and as a Dice)" if verdict.total > len(ROLLS) \
        else "rolls"
    lines = [f"{verdict.function} gave a wrong answer for {len(verdict.wrong)} of the "
             f"{verdict.total} {unit} it was given. Full marks need every one right; with "
             f"{verdict.right} right this item gets {verdict.fraction:g} of its marks.",
             "",
             f"The smallest wrong roll: {first.call} {first.got}, but the right answer is "
             f"{first.expected}.",
             f"Why: {first.rule}"]
    if hint:
        lines += ["", hint]
    if verdict.hang:
        lines += ["", f"Also: {verdict.hang}; the {verdict.lost} rolls not tried count as "
                      "wrong."]
    groups = Counter(wrong.kind for wrong in verdict.wrong)
    if len(groups) > 1:
        lines += ["", "The wrong rolls by what they really are (with the smallest of each):"]
        for kind, count in groups.most_common(GROUPS_SHOWN):
            example = next(wrong for wrong in verdict.wrong if wrong.kind == kind)
            lines.append(f"- {plural(count, 'roll')} that {'is' if count == 1 else 'are'} "
                         f"{article(kind)}: e.g. {example.call} {example.got}; expected "
                         f"{example.expected}.")
        if len(groups) > GROUPS_SHOWN:
            lines.append(f"- ... and {len(groups) - GROUPS_SHOWN} more kinds of roll.")
    actual = f"{first.call} {first.got}"
    if first.traceback:
        actual += "\n\n" + first.traceback
    return {"message": "\n".join(lines), "expected": f"{first.call} == {first.expected}",
            "actual": actual}


# ----------------------------------------------------------------------------- isvalidDice
def valid_reason(text: str, expected) -> str:
    """Why isvalidDice(text) has its answer."""
    pieces = text.split()
    if expected is ValueError:
        bad = next(piece for piece in pieces if not _is_int(piece))
        return (f"{bad!r} is not a whole number, so isvalidDice must raise ValueError "
                "(not return False or crash with another error).")
    if expected:
        return "every piece is a die position from 1 to 5."
    if not pieces:
        return "there is no number at all."
    bad = next(piece for piece in pieces if not 1 <= int(piece) <= 5)
    return f"{bad} is not a die position: there are five dice, numbered 1 to 5."


def _is_int(piece: str) -> bool:
    """Whether int() accepts the piece."""
    try:
        int(piece)
    except ValueError:
        return False
    return True


def judge_valid(evidence: Evidence) -> tuple[list[str], int]:
    """The wrong isvalidDice cases in words, and how many cases there were."""
    wrong = []
    answers = evidence.valid or []
    for (text, expected), answer in zip(VALID_CASES, answers):
        kind, shown = answer
        want = {True: "T", False: "F", ValueError: "V"}[expected]
        if kind == want:
            continue
        got = {"T": "returned True", "F": "returned False", "V": "raised ValueError",
               "E": f"raised {shown}", "X": f"returned {shown} (not a bool)"}[kind]
        right = "raise ValueError" if expected is ValueError else f"return {expected}"
        wrong.append(f"isvalidDice({text!r}) {got}, but it must {right}: "
                     f"{valid_reason(text, expected)}")
    return wrong, len(VALID_CASES)


def note_for_helpers(own: Judgement, kit: Judgement | None, used_kit: bool) -> str:
    """Which predicates calculateScore was judged with, and why."""
    if used_kit:
        return (f"calculateScore was judged with the kit's correct predicates (is2Pair ... "
                f"is5ofAKind) in place of yours, however your code reaches them (by name or "
                f"through a table): with your own it earned "
                f"{own.fraction:g} of the item, with the kit's {kit.fraction:g}. Mistakes in "
                "the predicates are marked in their own items, not charged twice.")
    if kit is not None:
        return ("calculateScore was judged with your own predicates. The kit's correct "
                "predicates put in place of yours did not do better, so the mistakes are in "
                "calculateScore itself.")
    return "calculateScore was judged with your own predicates."


def score_codes(evidence: Evidence, name: str) -> str:
    """The raw answer codes of one loop ('' when it did not run)."""
    loop = evidence.loops.get(name) or {}
    return (loop.get("value") or {}).get("codes", "") if loop.get("ok") else ""
