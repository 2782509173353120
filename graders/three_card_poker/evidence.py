"""Everything the checks read about one submission, gathered once in the student's process.

Each function is swept over every hand of its domain with the student's own helpers; where
that is not perfect, score_hand, dealer_plays and play_round run again with the kit's correct
helpers swapped in. play_round runs in every scenario, and main with a stand-in play_round.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from graders.engine.calls import Case, FunctionCalls, LoadReport
from graders.engine.exhaustive import Sweep
from graders.engine.harness import run_folder

from . import functions, game, rounds

REQUIRED = functions.FUNCTIONS + ("play_round", "main")


@dataclass
class Evidence:
    """The outcomes of all calls of one submission."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    sweeps: dict[str, tuple[Sweep, Sweep | None]] = field(default_factory=dict)  # own, kit
    rounds: tuple[list[Case], list[Case] | None] = ([], None)                  # own, kit
    stand_ins: list[Case] = field(default_factory=list)       # main with a stand-in round
    loading: LoadReport = field(default_factory=LoadReport)   # what the import did

    @property
    def round_hangs(self) -> bool:
        """play_round did not return in one of the scenarios."""
        return any(case.hung for case in self.rounds[0])


def collect(submission, budget=None) -> Evidence:
    """Run every call of the grade in one student process (restarted after a hang)."""
    with run_folder(submission, "calls") as folder:
        with FunctionCalls(folder / submission.main_name, folder, budget=budget) as calls:
            available = calls.defined(REQUIRED)
            if available is None:
                error = calls.import_error or "the import failed"
                return Evidence(import_error=error.replace(str(folder) + "/", ""))
            source = submission.main.read_text(encoding="utf-8", errors="replace")
            found = Evidence(available=available,
                             loading=LoadReport.from_report(calls.load, source))
            for function in functions.FUNCTIONS:
                if available.get(function):
                    own = functions.sweep(calls, function)
                    kit = functions.sweep(calls, function, kit_helpers=True) \
                        if own.fraction < 1 and function in functions.HELPERS_USED else None
                    found.sweeps[function] = (own, kit)
            if available.get("play_round"):
                own = calls.run_cases(rounds.cases_for())
                perfect = all(requirement.ok for requirement in rounds.judge(own))
                found.rounds = (own, None if perfect else
                                calls.run_cases(rounds.cases_for(kit_helpers=True)))
            if available.get("main"):
                found.stand_ins = calls.run_cases(game.stand_in_cases())
            return found
