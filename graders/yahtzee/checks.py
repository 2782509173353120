"""The Yahtzee grader. Each scoring item has a check of the functions (all 7776 throws, or
chosen histories) and a check of the games' final tables; the console items are judged from
the games alone (see games.py and functions.py). The checks only judge what the fixtures
gathered once per submission."""
from __future__ import annotations

import pytest

from graders.engine import readability
from graders.engine.requirements import score

from .functions import SWEEPS

CASE_ITEMS = {"joker": "calculate_score", "upper-bonus": "calculate_final_scores",
              "yahtzee-bonus": "calculate_final_scores", "score-table": "calculate_final_scores"}


def require(result, calls, names) -> None:
    """Fail at once when the file cannot be imported or lacks a function the item calls."""
    if calls.import_error:
        result.fail(f"Not tested: your file could not be imported. {calls.import_error}")
    missing = [name for name in names if not calls.defined.get(name)]
    if missing:
        result.fail(f"Your file has no function {' or '.join(missing)} (handout section 5), "
                    "so this could not be tested.")


def functions_check(item: str):
    """The check of an item's functions: its sweeps over every throw, or its cases."""
    @pytest.mark.item(item)
    def check(result, calls):
        if item in SWEEPS:
            require(result, calls, [n if n.startswith("is_") else "calculate_score"
                                    for n in SWEEPS[item]])
            for sweep in calls.sweeps[item]:
                sweep.score(result, noun="throws")
            return
        require(result, calls, [CASE_ITEMS[item]])
        if calls.swapped.get(item):
            result.note("Judged with the kit's is_ functions in place of yours (they did "
                        "better): a mistake in those is marked under its own item.")
        score(result, calls.cases[item], "calls")
    return check


def games_check(item: str):
    """The check of an item in the two games."""
    @pytest.mark.item(item)
    def check(result, played):
        judged, runs = played
        if any(run is None for run in runs):
            result.not_judged("The submission's time budget ran out before every game was "
                              "played.")
        if any(run.grader_problem for run in runs):
            result.note("A game was stopped by a safety limit of the grader; it is not "
                        "counted here.")
        result.note("The grader played two games with loaded dice:\n" +
                    "\n".join(f"- {run.plan.describe()}" for run in runs))
        score(result, judged.get(item, []), "things checked in the games",
              not_judged="The games never reached anything this item checks.")
    return check


# pytest collects the module's check_* functions: one per item and kind of evidence
for _item in list(SWEEPS) + list(CASE_ITEMS):
    globals()[f"check_{_item.replace('-', '_')}_functions"] = functions_check(_item)
for _item in list(SWEEPS) + ["joker", "upper-bonus", "yahtzee-bonus", "score-table",
                             "keep-dice", "three-throws", "thirteen-rounds", "options-used-up"]:
    globals()[f"check_{_item.replace('-', '_')}_games"] = games_check(_item)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability.check_readability(result, submission, rubric)
