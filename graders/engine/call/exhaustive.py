"""Exhaustive checks: a student function over a whole input space (every hand, all 7776 rolls)
in ONE child process, in batches, with the failures smallest first.

    sweep = exhaustive(calls, "has_pair", rules.ordered_hands(), rules.has_pair,
                       why=explain.why_has_pair)
    sweep.score(result, noun="hands")

Each batch is one call spec whose inputs the child loops over (``each``), so 7776 rolls cost
a few round trips, not 7776. Inputs are given smallest first; a list is one argument, a tuple
is the arguments. The grader compares each answer with ``reference(input)`` in its own
process (``judge`` may replace the comparison, e.g. to give part credit); the expected answers
never reach the student's process.

What does not depend on the submission is done once per process (a class is graded in one):
each input space's batches are encoded once and each reference's answers computed once
(``space``), so ``reference`` must be a pure function of the input. The child answers
compactly (``kitboot._each``) and a batch whose answers all have the reference's own types
and values is compared in one step; only the other inputs are judged one by one.

Stopping early: after the batch in which ``stop_after`` failures were found (the smallest
counterexamples are then known), or, with ``stop_at_zero``, once so many inputs failed that
the item's share is 0 whatever the rest do. Inputs not checked count as right in ``fraction``
(use ``stop_after`` where N failures score like more). A function that does not return for
one input (CPU time, per input) ends the sweep: the item gets 0.
"""
from __future__ import annotations

import json
import marshal
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from .calls import Case, FunctionCalls, call_problem, same
from ..judge.requirements import listed, shown
from ..judge.rubric import fraction_right

BATCH = 1000            # inputs per round trip (the answers of one batch stay well under 1 MB)
RULE_GROUPS = 4         # kinds of mistake listed in the feedback
ANY_ORDER = ("The input may come in any order: {function} must give the same answer for every "
             "order of the same values.")
REAL_BOOL = "{function} must return a real bool (True or False), not {kind}."


@dataclass
class Failure:
    """One input on which the function gave the wrong answer."""

    input: Any
    call: str                      # the call spelled as Python: has_pair([2, 2, 5])
    got: str                       # 'returned True', 'raised IndexError: ...'
    expected: str
    why: str = ""                  # the handout rule (shared by many inputs)
    detail: str = ""               # this input's own working, e.g. a score calculation
    credit: float = 0.0            # the share of a right answer this one still earns
    traceback: str | None = None
    priority: int = 0              # among equal credit, the lowest is the example shown


@dataclass
class Sweep:
    """A function's result over its input space."""

    function: str
    total: int
    checked: int = 0
    failures: list[Failure] = field(default_factory=list)
    hang: str | None = None        # what went wrong with the call that did not return
    stopped_early: bool = False
    zero: bool = False             # stopped because the share could only be 0
    swapped: bool = False          # run with kit helpers swapped in
    excluded: list[str] = field(default_factory=list)    # messages of inputs left out
    case: str = ""                 # which of the function's jobs, e.g. an option's name

    @property
    def right(self) -> float:
        """Inputs right (failures with credit count as their credit; unchecked as right)."""
        return self.total - sum(1 - failure.credit for failure in self.failures)

    @property
    def fraction(self) -> float:
        """The share of the item: none after a hang, never full with a failure."""
        return 0.0 if self.hang or self.zero else fraction_right(self.right, self.total)

    def report(self, noun: str = "inputs",
               credit_text: str = "partly right answers for {count} {noun}") -> dict:
        """The feedback for a sweep that is not full marks: message, expected, actual.
        ``credit_text`` words the failures that still earn credit ({count}, {noun})."""
        if self.hang:
            return {"message": f"{self.hang}. The grader stopped testing {self.function} "
                               "there, so this item gets no marks.",
                    "expected": None, "actual": None}
        first = min(self.failures, key=lambda failure: (failure.credit, failure.priority))
        part = [failure for failure in self.failures if failure.credit]
        wrong = len(self.failures) - len(part)
        at_least = "at least " if self.stopped_early else ""
        counted = [f"a wrong answer for {at_least}{wrong} of the {self.total} {noun} it was "
                   "given"] * bool(wrong)
        if part:
            counted.append(credit_text.format(count=len(part), noun=noun))
        # stopped early, the rest were not tried: "at most" so many can have been right
        right = f"at most {self.right:g}" if self.stopped_early else f"{self.right:g}"
        lines = [f"{self.function} gave {' and '.join(counted)}. Full marks need every one "
                 f"right; with {right} of {self.total} right this item gets "
                 f"{self.fraction:g} of its points.", "",
                 f"The smallest {'partly right' if first.credit else 'wrong'} case: "
                 f"{first.call} {first.got}, but the right answer is {first.expected}.",
                 f"Why: {first.why} {first.detail}".rstrip()]
        groups = Counter(failure.why for failure in self.failures)
        if all(failure.got.startswith("returned None") for failure in self.failures):
            # one problem, said once: rules by case say nothing about a function that
            # answers None to everything (often the template's stub, still a pass)
            lines += ["", f"It returned None for all {len(self.failures)} "
                          f"{noun} tried: a function left as the template's stub (pass) "
                          "returns None. It must return its answer with return."]
            groups = Counter()
        if len(groups) > 1:
            lines += ["", "The wrong cases by rule (with the smallest example of each):"]
            for why, count in groups.most_common(RULE_GROUPS):
                example = next(failure for failure in self.failures if failure.why == why)
                lines.append(f"- {count} case{'s' if count > 1 else ''}: {why} E.g. "
                             f"{example.call} {example.got}; expected {example.expected}.")
            if len(groups) > RULE_GROUPS:
                lines.append(f"- ... and {len(groups) - RULE_GROUPS} more kinds of mistake.")
        actual = f"{first.call} {first.got}"
        if first.traceback:
            actual += "\n\n" + first.traceback
        return {"message": "\n".join(lines), "expected": f"{first.call} == {first.expected}",
                "actual": actual}

    def score(self, result, noun: str = "inputs", *, said: bool = True, **report) -> float:
        """Record the sweep on a check result (a note when all were right, unless ``said``
        is False: ``score_sweeps`` says that once for several sweeps)."""
        result.judged(self.checked or self.total)
        if self.fraction < 1:
            result.partial(self.fraction, **self.report(noun, **report))
        elif said:
            result.note(f"Right on all {self.total} {noun}.")
        return self.fraction


def score_sweeps(result, sweeps: list[Sweep], noun: str = "inputs", **report) -> float:
    """Several sweeps of one item on a check result: each shortfall said on its own, the
    sweeps right everywhere in one line that names them (seven identical "Right on all"
    lines told a student nothing about which function was right). Returns the lowest
    share."""
    fractions = [sweep.score(result, noun, said=False, **report) for sweep in sweeps]
    right = [sweep for sweep, fraction in zip(sweeps, fractions) if fraction >= 1]
    for total in sorted({sweep.total for sweep in right}):
        same = [sweep for sweep in right if sweep.total == total]
        if len(same) == len(sweeps) == 1:
            result.note(f"Right on all {total} {noun}.")
            continue
        cases: dict[str, list[str]] = {}
        for sweep in same:
            cases.setdefault(sweep.function, []).extend([sweep.case] if sweep.case else [])
        named = [function + (f" for {listed(found)}" if found else "")
                 for function, found in cases.items()]
        result.note(f"Right on all {total} {noun}: {listed(named)}.")
    return min(fractions, default=1.0)


def spelled(function: str, item) -> str:
    """The call as Python: has_pair([2, 2, 5]); a tuple input is the arguments."""
    args = item if isinstance(item, tuple) else (item,)
    return f"{function}({', '.join(map(repr, args))})"


def default_judge(function: str, item, entry: dict, expected, why: Callable | None = None,
                  detail: Callable | None = None) -> Failure | None:
    """None when the answer equals the reference's (``calls.same``), else the failure.
    ``why(input, value)`` words the rule, ``detail(input)`` this input's own working; a
    value that is right but not a real bool (1, 'yes', None) is said to be so."""
    if "error" not in entry and same(entry.get("v"), expected):
        return None                 # most answers are right: nothing is spelled for them
    call, working = spelled(function, item), detail(item) if detail else ""
    if "error" in entry:
        return Failure(item, call, f"raised {entry['error']}: {entry.get('message', '')}"
                       .rstrip(": "), repr(expected), why(item, None) if why else "", working,
                       traceback=entry.get("traceback"))
    value = entry.get("v")
    rule = why(item, value) if why else ""
    if isinstance(expected, bool) and not isinstance(value, bool) and bool(value) == expected \
            and (value is None or isinstance(value, (int, float, str, list))):
        kind = "None" if value is None else a_or_an(type(value).__name__)
        rule = REAL_BOOL.format(function=function, kind=kind)
    return Failure(item, call, "returned " + shown(value), repr(expected), rule, working)


def a_or_an(word: str) -> str:
    """'an int', 'a tuple'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def hint_any_order(found: Sweep) -> None:
    """For functions whose answer must not depend on the order of the input (cards, dice):
    a failure whose sorted input was right is said to be about the order."""
    wrong = {tuple(failure.input) for failure in found.failures}
    for failure in found.failures:
        ordered = sorted(failure.input, reverse=True)
        if ordered != list(failure.input) and tuple(ordered) not in wrong:
            failure.why = ANY_ORDER.format(function=found.function)
            failure.detail = f"(It is right for {spelled(found.function, ordered)}.)"


def _entry(value, name: str | None, note: dict | None) -> dict:
    """One input's entry; the type name is sent only where the JSON value does not say it."""
    if note is not None and "error" in note:
        return note
    entry = {"v": value, "t": name or type(value).__name__}
    if note:
        entry.update(note)
    return entry


def exact(value, name: str | None, expected) -> bool:
    """The child's answer is the reference's own type and value (a tuple comes back as a
    list named "tuple"): right for the default judge, and for any ``judge`` that agrees."""
    if name is None:
        return type(value) is type(expected) and value == expected
    return name == "tuple" and type(expected) is tuple and value == list(expected)


# ----------------------------------------------------------------------------- input spaces
# A class is graded in one process, and every submission is swept over the same spaces (all
# 7776 rolls): each space's batches are encoded once, and each reference's answers for them
# computed once, then kept for the next sweeps (the answers never go to the child). A space
# is found again by its value, or kept on itself when it is an ``Inputs`` (a constant).
KEPT_SPACES = 16        # spaces kept by their value (the last ones swept)
KEPT_REFERENCES = 16    # reference functions kept per space
_spaces: OrderedDict = OrderedDict()
_spaces_lock = threading.Lock()


class Space:
    """One input space cut in batches: each batch's arguments for the child, and per reference
    function its answers to each batch (with their types), made when first needed."""

    def __init__(self, size: int, batch: int):
        self.count = -(-size // batch)
        self.texts: list[str | None] = [None] * self.count
        self.answers: OrderedDict = OrderedDict()      # reference -> [answers or None]

    def text(self, number: int, chunk: list) -> str:
        """Batch ``number``'s argument lists for the child (a tuple input is the arguments),
        made once: the values JSON gives (tuples become lists, keys strings, as the child
        always got them) as ``marshal`` bytes in hex, which the child reads faster."""
        text = self.texts[number]
        if text is None:
            args = json.dumps([list(item) if isinstance(item, tuple) else [item]
                               for item in chunk])
            # version 4: what every Python since 3.4 reads
            text = self.texts[number] = marshal.dumps(json.loads(args), 4).hex()
        return text

    def expected(self, reference: Callable, number: int, chunk: list) -> tuple[list, list]:
        """The reference's answers to batch ``number`` and their types."""
        try:
            with _spaces_lock:
                kept = self.answers.get(reference)
                if kept is None:
                    kept = self.answers[reference] = [None] * self.count
                    while len(self.answers) > KEPT_REFERENCES:
                        self.answers.popitem(last=False)
                self.answers.move_to_end(reference)
        except TypeError:           # an unhashable callable: its answers are not kept
            kept = [None] * self.count
        if kept[number] is None:
            answers = [reference(*item) if isinstance(item, tuple) else reference(item)
                       for item in chunk]
            kept[number] = (answers, list(map(type, answers)))
        return kept[number]


class Inputs(tuple):
    """An input space made once and swept many times (a grader's constant, e.g. all rolls):
    its batches and the reference's answers are kept on it, so it is not compared with the
    spaces kept before (``space``). Its items must never change."""

    def space(self, batch: int) -> Space:
        """This space cut in batches of ``batch``."""
        with _spaces_lock:
            cuts = self.__dict__.setdefault("cuts", {})
            return cuts.setdefault(batch, Space(len(self), batch))


def space(inputs: list, batch: int) -> Space:
    """The kept space of these inputs (equal values of equal types), or a new one."""
    if isinstance(inputs, Inputs):
        return inputs.space(batch)
    try:
        key = (marshal.dumps(inputs), batch)    # exact: 1 and True, lists and tuples differ
    except ValueError:                          # values marshal cannot write: not kept
        return Space(len(inputs), batch)
    with _spaces_lock:
        found = _spaces.get(key)
        if found is None:
            found = _spaces[key] = Space(len(inputs), batch)
            while len(_spaces) > KEPT_SPACES:
                _spaces.popitem(last=False)
        _spaces.move_to_end(key)
    return found


def exhaustive(calls: FunctionCalls, function: str, inputs: list, reference: Callable,
               *, batch: int = BATCH, stop_after: int | None = None,
               stop_at_zero: bool = False, swap: dict | None = None, timeout: float = 1.0,
               why: Callable | None = None, detail: Callable | None = None,
               judge: Callable | None = None, any_order: bool = False,
               args_after: bool = False, exclude_error: str | None = None,
               exact_is_right: bool = False, case: str = "") -> Sweep:
    """Run ``function`` over every input in the child, compare with ``reference``.

    ``judge(input, entry, expected)`` may replace the comparison: it gets the child's entry
    ({"v": value, "t": type name, "a": arguments after the call and "same": the index of an
    argument returned as the result, with ``args_after``; or "error", "message",
    "traceback"}) and returns a :class:`Failure` or None; ``exact_is_right``: the judge is
    asked only about answers that are not ``exact`` (it finds those right anyway).
    ``case``: which of the function's jobs this sweep covers (an option's name), for the
    feedback of ``score_sweeps``.
    ``why(input, value)`` words the rule for the default judge and ``detail(input)`` an
    input's own working; ``any_order``: the answer must not depend on the order of a list
    input (see ``hint_any_order``).
    ``exclude_error``: an error name (raised by a kit helper) meaning the input cannot be
    tried with this submission, e.g. its own classes cannot build that hand: such inputs are
    left out of the total (another item marks that) and their messages kept in ``excluded``.
    ``reference`` must be a pure function of the input: its answers are kept for later
    sweeps over the same inputs (see ``space``).
    """
    given, inputs = inputs, list(inputs)
    kept = space(given if isinstance(given, Inputs) else inputs, batch)
    sweep = Sweep(function, len(inputs), swapped=bool(swap), case=case)
    case = Case(f"{function}()", group=f"{function}/each", timeout=timeout)
    call = calls.spec(case, swap, timeout)
    call.update(func=function, args_after=args_after)
    call.pop("literal", None)
    # right answers need no entry: the default judge and an agreeing judge say None to them
    quick = judge is None or exact_is_right
    for number, start in enumerate(range(0, len(inputs), batch)):
        chunk = inputs[start:start + batch]
        case = Case(f"{function}()", group=f"{function}/each", timeout=timeout)
        calls._run_chunk([(case, dict(call, each=kept.text(number, chunk)))], set())
        if not case.outcome.get("ok"):
            where = f"{function} (given the inputs from {spelled(function, chunk[0])} on)"
            sweep.hang = call_problem(case.outcome, where, timeout)
            return sweep
        answer = case.outcome["value"]
        values, names, notes = answer["values"], dict(answer["types"]), dict(answer["notes"])
        expected = None
        if quick and not names and not notes and len(values) == len(chunk):
            expected, kinds = kept.expected(reference, number, chunk)
            # every answer of the reference's own type and equal to it (types first: 1 == True)
            if list(map(type, values)) == kinds and values == expected:
                sweep.checked += len(chunk)
                values = ()
        for index, (item, value) in enumerate(zip(chunk, values)):
            note = notes.get(index)
            if note is not None and "error" in note:
                if note["error"] == "timeout":
                    sweep.hang = f"{spelled(function, item)} did not return within " \
                                 f"{timeout:g} s (an endless loop?)"
                    return sweep
                if exclude_error is not None and note["error"] == exclude_error:
                    sweep.total -= 1
                    sweep.excluded.append(note.get("message", ""))
                    continue
            sweep.checked += 1
            if expected is None:
                expected = kept.expected(reference, number, chunk)[0]
            wanted = expected[index]
            if quick and (note is None or "error" not in note) and (
                    same(value, wanted) if judge is None else exact(value, names.get(index),
                                                                    wanted)):
                continue
            entry = _entry(value, names.get(index), note)
            failure = (judge(item, entry, wanted) if judge else
                       default_judge(function, item, entry, wanted, why, detail))
            if failure is not None:
                sweep.failures.append(failure)
        if sweep.checked < sweep.total:
            if stop_after is not None and len(sweep.failures) >= stop_after:
                sweep.stopped_early = True
                break
            if stop_at_zero and fraction_right(sweep.total - len(sweep.failures), sweep.total) == 0:
                sweep.stopped_early = sweep.zero = True
                break
    if any_order:
        hint_any_order(sweep)
    return sweep
