"""The Yahtzee grader. Each scoring item has a check of the functions (all 7776 throws, or
chosen histories: functions.py) and one of the games' final tables (games.py); the console
items are judged from the games alone. The calls and the two games run side by side, once per
submission (``gathered``); the checks only judge what was gathered."""
from __future__ import annotations

import pytest

from graders.engine import readability
from graders.engine.harness import run_folder
from graders.engine.requirements import score

from . import functions, games

CASE_ITEMS = {"joker": "calculate_score", "upper-bonus": "calculate_final_scores",
              "yahtzee-bonus": "calculate_final_scores", "score-table": "calculate_final_scores"}
GAME_ITEMS = list(functions.SWEEPS) + list(CASE_ITEMS) + ["keep-dice", "three-throws",
                                                          "thirteen-rounds", "options-used-up"]


@pytest.fixture(scope="session")
def gathered(submission, budget, notes):
    """The function calls (functions.Evidence), the games' requirements by item, the runs."""
    def job(name):
        if name == "calls":
            return functions.collect(submission, budget)
        with run_folder(submission, "game") as folder:
            return games.play(folder / submission.main_name, folder, games.PLANS[name],
                              budget.limits(cpu_seconds=4))
    calls, *runs = budget.map(job, ["calls", *games.PLANS], workers=1 + len(games.PLANS))
    calls = calls or functions.Evidence(import_error="the time budget ran out")
    if calls.import_error:
        notes(f"{submission.main_name} could not be imported: "
              f"{calls.import_error.strip().splitlines()[-1]}", problem=True)
    return calls, games.judge([run for run in runs if run], calls.fixed), runs


def functions_check(item: str):
    """The check of an item's functions: its sweeps over every throw, or its cases."""
    @pytest.mark.item(item)
    def check(result, gathered):
        calls = gathered[0]
        if calls.import_error:
            result.fail(f"Not tested: your file could not be imported. {calls.import_error}")
        names = [n if n.startswith("is_") else "calculate_score"
                 for n in functions.SWEEPS.get(item, [])] or [CASE_ITEMS[item]]
        missing = [name for name in names if not calls.defined.get(name)]
        if missing:
            result.fail(f"Your file has no function {' or '.join(sorted(set(missing)))} "
                        "(handout section 5), so this could not be tested.")
        for sweep in calls.sweeps.get(item, []):
            sweep.score(result, noun="throws")
        if calls.swapped.get(item):
            result.note("Judged with the kit's is_ functions in place of yours (they did "
                        "better): a mistake in those is marked under its own item.")
        if item in CASE_ITEMS:
            score(result, calls.cases[item], "calls")
    return check


def games_check(item: str):
    """The check of an item in the two games."""
    @pytest.mark.item(item)
    def check(result, gathered):
        calls, judged, runs = gathered
        if calls.import_error:
            result.fail("Not tested: your file could not be imported ("
                        f"{calls.import_error.strip().splitlines()[-1]}).")
        if None in runs:
            result.not_judged("The time budget ran out before every game was played.")
        if any(run.grader_problem for run in runs):
            result.note("A game was stopped by a safety limit of the grader; it is not "
                        "counted here.")
        result.note("The grader played two games with loaded dice: " +
                    " and ".join(f"'{name}'" for name in games.PLANS) + ".")
        score(result, judged.get(item, []), "things checked in the games",
              not_judged="The games never reached anything this item checks.")
    return check


# pytest collects the module's check_* functions: one per item and kind of evidence
for _item in list(functions.SWEEPS) + list(CASE_ITEMS):
    globals()[f"check_{_item.replace('-', '_')}_functions"] = functions_check(_item)
for _item in GAME_ITEMS:
    globals()[f"check_{_item.replace('-', '_')}_games"] = games_check(_item)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability.check_readability(result, submission, rubric)
