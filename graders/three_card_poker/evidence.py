"""Everything the checks read about one submission, gathered once in the student's process.

Batch one calls every function on every hand of its domain with the student's own helpers,
play_round in every scenario, and main with stand-ins. Batch two (only when needed) repeats
score_hand, dealer_plays and play_round with the kit's correct helpers patched in.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field

from . import functions, game, rounds
from .loading import Loading
from .runner import Case, GroupedCalls, make_workdir

WITH_HELPERS = ("score_hand", "dealer_plays")


@dataclass
class Evidence:
    """The outcomes of all calls of one submission, by group."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    cases: dict[str, list[Case]] = field(default_factory=dict)      # group -> cases
    restarts: int = 0
    loading: Loading = field(default_factory=Loading)               # what the import did

    def add(self, cases: list[Case]) -> None:
        """File the cases under their groups."""
        for case in cases:
            self.cases.setdefault(case.group, []).append(case)

    def judge_function(self, function: str) -> tuple[functions.Judgement,
                                                     functions.Judgement | None]:
        """The judgement with the student's helpers, and with the kit's (if that was run)."""
        own = functions.judge(function, self.cases.get(function, []))
        kit_cases = self.cases.get(function + "/kit")
        kit = functions.judge(function, kit_cases, kit_helpers=True) if kit_cases else None
        return own, kit

    def judge_rounds(self) -> tuple[rounds.RoundJudgement, rounds.RoundJudgement | None]:
        """play_round with the student's helpers, and with the kit's (if that was run)."""
        own = rounds.judge(self.cases.get("play_round", []))
        kit_cases = self.cases.get("play_round/kit")
        return own, (rounds.judge(kit_cases, kit_helpers=True) if kit_cases else None)


def collect(submission) -> Evidence:
    """Run every call of the grade in the student's process (two batches at most)."""
    workdir = make_workdir(submission, with_rules=True)
    try:
        with GroupedCalls(workdir / submission.main_name, workdir) as calls:
            available = calls.probe()
            if available is None:
                error = calls.import_error or "the import failed"
                return Evidence(import_error=error.replace(str(workdir) + "/", ""))
            source = submission.main.read_text(encoding="utf-8", errors="replace")
            evidence = Evidence(available=available,
                                loading=Loading.from_report(calls.load, source))
            first = first_batch(available)
            calls.run_cases(first)
            evidence.add(first)
            second = second_batch(evidence)
            calls.run_cases(second)
            evidence.add(second)
            evidence.restarts = calls.restarts
            return evidence
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def first_batch(available: dict[str, bool]) -> list[Case]:
    """Every call with the student's own helpers, for the functions the module defines."""
    cases: list[Case] = []
    for function in functions.ORDERED_FUNCTIONS + ("score_hand",):
        if available.get(function):
            cases += functions.cases_for(function)
    if available.get("play_round"):
        cases += rounds.cases_for()
    if available.get("main"):
        cases += game.stand_in_cases()
    return cases


def second_batch(evidence: Evidence) -> list[Case]:
    """The kit-helper repeats of the functions that were not right with the student's own."""
    cases: list[Case] = []
    for function in WITH_HELPERS:
        if evidence.available.get(function):
            own, _ = evidence.judge_function(function)
            if own.fraction < 1:
                cases += functions.cases_for(function, kit_helpers=True)
    if evidence.available.get("play_round"):
        own, _ = evidence.judge_rounds()
        if own.fraction < 1:
            cases += rounds.cases_for(kit_helpers=True)
    return cases
