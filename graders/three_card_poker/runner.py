"""Running the student's functions: every call of the grade, in as few batches as possible.

A :class:`Case` is one call of one student function (or of grader code around it) and belongs
to a *group* (``has_pair``, ``score_hand/kit``, ...). When a call hangs or kills the process,
the rest of its group is skipped: one endless loop costs one second, not one per hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.calls import FunctionCalls
from graders.engine.harness import prepare_workdir

from .loading import STUB_SOURCE, star_names

RULES_MODULE = "kit_poker_rules"
RULES_SOURCE = Path(__file__).with_name("rules.py")
CALL_TIMEOUT = 1.0
CHUNK = 400           # calls per batch; a batch must answer within the harness's idle limit
REQUIRED = ("hand_to_string", "sort_hand", "has_pair", "has_straight", "has_triple",
            "score_hand", "dealer_plays", "play_round", "main")

PROBE = "result = {name: callable(getattr(m, name, None)) for name in %r}" % (REQUIRED,)


@dataclass
class Case:
    """One call: what it tests, the spec sent to the student's process, and the outcome."""

    group: str                  # e.g. "has_pair", "score_hand/kit", "play_round", "main/calls"
    subject: object             # the hand, scenario or plan the call is about
    spec: dict
    outcome: dict = field(default_factory=dict)

    @property
    def hung(self) -> bool:
        """The call did not return in time, or took the process down."""
        return self.outcome.get("error") in ("timeout", "died")

    @property
    def skipped(self) -> bool:
        """The call was not made because an earlier call of its group hung."""
        return self.outcome.get("error") == "skipped"


def make_workdir(submission, with_rules: bool, stubs: list[str] = ()) -> Path:
    """A private run folder with the submission's files under their required names, plus a
    stand-in module for each name in ``stubs`` (modules the grader does not have, which the
    function calls replaced too: see loading.py)."""
    extra = {RULES_MODULE + ".py": RULES_SOURCE.read_text()} if with_rules else {}
    if stubs:
        used = star_names(submission.main.read_text(encoding="utf-8", errors="replace"))
    for name in stubs:
        if f"{name}.py" not in submission.files:
            extra[f"{name}.py"] = STUB_SOURCE.format(name=name, star_names=used)
    return prepare_workdir(dict(submission.files), extra)


class GroupedCalls(FunctionCalls):
    """FunctionCalls that gives up on a group once one of its calls hangs or kills the child."""

    def probe(self) -> dict[str, bool] | None:
        """Which required functions the module defines; None when it cannot be imported."""
        (outcome,) = self.run([{"id": 0, "code": PROBE}], timeout=CALL_TIMEOUT)
        return outcome.get("value") if outcome.get("ok") else None

    def run_cases(self, cases: list[Case]) -> None:
        """Fill in every case's outcome (calls of given-up groups become 'skipped')."""
        given_up: set[str] = set()
        for start in range(0, len(cases), CHUNK):
            self._run_chunk(cases[start:start + CHUNK], given_up)

    def _run_chunk(self, chunk: list[Case], given_up: set[str]) -> None:
        """Like FunctionCalls.run, but dropping a group's calls once one of them hangs."""
        pending = _still_wanted(chunk, given_up)
        while pending:
            if self.child is None or not self.child.running:
                if self.import_error or not self._start():
                    for case in pending:
                        case.outcome = _failed("import", self.import_error or "")
                    return
            self.child.reply({"calls": [dict(case.spec, id=i) for i, case in
                                        enumerate(pending)]})
            event = self.child.next_event()
            if event is None or event.get("ev") != "result":
                reason = self.child.outcome.get("error") or "the program stopped"
                pending[0].outcome = _failed("died", reason)
                done = [pending[0]]
            else:
                done = pending[:len(event.get("results", []))]
                for case, outcome in zip(done, event["results"]):
                    case.outcome = outcome
            if done and done[-1].hung:
                given_up.add(done[-1].group)
                self.close()                 # start afresh: the module may be broken now
                self.restarts += 1
            pending = _still_wanted(pending[len(done):], given_up)


def _still_wanted(cases: list[Case], given_up: set[str]) -> list[Case]:
    """The cases of groups still being tested; the others are marked as skipped."""
    wanted = []
    for case in cases:
        if case.group in given_up:
            case.outcome = _failed("skipped", "not called after an earlier call hung")
        else:
            wanted.append(case)
    return wanted


def _failed(error: str, message: str) -> dict:
    """An outcome for a call that could not be made or did not finish."""
    return {"ok": False, "error": error, "message": message, "stdout": "", "spies": {}}


def call_spec(function: str, hand: list[int]) -> dict:
    """A plain call of one student function on one hand."""
    return {"func": function, "args": [list(hand)], "timeout": CALL_TIMEOUT}


SORT_CALL = """
hand = %r
returned = m.sort_hand(hand)
result = {"returned": returned, "kind": type(returned).__name__,
          "same": returned is hand, "after": hand}
"""


def sort_spec(hand: list[int]) -> dict:
    """sort_hand on a hand, reporting whether it changed or returned its argument."""
    return {"code": SORT_CALL % (list(hand),), "timeout": CALL_TIMEOUT}


WITH_KIT_HELPERS = """
import %s as kit
names = %r
saved = {name: vars(m)[name] for name in names if name in vars(m)}
for name in names:
    setattr(m, name, getattr(kit, name))
try:
    result = m.%s(%r)
finally:
    for name in names:
        if name in saved:
            setattr(m, name, saved[name])
        else:
            delattr(m, name)
"""


def kit_helpers_spec(function: str, helpers: tuple[str, ...], hand: list[int]) -> dict:
    """function(hand) with the kit's correct helpers patched into the student's module."""
    code = WITH_KIT_HELPERS % (RULES_MODULE, list(helpers), function, list(hand))
    return {"code": code, "timeout": CALL_TIMEOUT}
