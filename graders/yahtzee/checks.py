"""The Yahtzee grader. Each scoring item has a check of the functions (all 7776 throws, or
chosen histories: functions.py) and one of the games' final tables (games.py); the console
items are judged from the games alone. The sweeps and the two games run side by side once
per submission (``played``), the chosen histories after them (``cases``: hidden items only,
so the public checks never compute a hidden item's answers); the checks judge what was
gathered."""
from __future__ import annotations

import pytest

from graders.engine import readability
from graders.engine.harness import run_folder
from graders.engine.requirements import score

from . import functions, games
from .games import playing, table_bonuses, table_rows, table_sums


@pytest.fixture(scope="session")
def played(submission, budget, notes):
    """The sweeps over every throw (functions.Evidence) and the games (games.Game)."""
    def job(name):
        if name == "sweeps":
            return functions.collect_sweeps(submission, budget)
        with run_folder(submission, "game") as folder:
            return games.play(folder / submission.main_name, folder, games.PLANS[name],
                              budget.limits(cpu_seconds=4))
    sweeps, *runs = budget.map(job, ["sweeps", *games.PLANS], workers=1 + len(games.PLANS))
    sweeps = sweeps or functions.Evidence(import_error="the time budget ran out")
    if sweeps.import_error:
        notes(f"{submission.main_name} could not be imported: "
              f"{sweeps.import_error.strip().splitlines()[-1]}", problem=True)
    return sweeps, runs


@pytest.fixture(scope="session")
def cases(submission, budget, played):
    """calculate_score and calculate_final_scores on chosen histories (after the games)."""
    return played[0] if played[0].import_error else \
        functions.collect_cases(submission, budget)


def functions_verdict(result, calls: functions.Evidence, item: str, function: str = ""):
    """An item's functions: its sweeps over every throw, or its cases of ``function``."""
    if calls.import_error:
        result.fail(f"Not tested: your file could not be imported. {calls.import_error}")
    names = [name if name.startswith("is_") else "calculate_score"
             for name in functions.SWEEPS.get(item, [])] or [function]
    missing = [name for name in names if not calls.defined.get(name)]
    if missing:
        result.fail(f"Your file has no function {' or '.join(sorted(set(missing)))} "
                    "(handout section 5), so this could not be tested.")
    for sweep in calls.sweeps.get(item, []):
        sweep.score(result, noun="throws")
    if calls.swapped.get(item):
        result.note("Judged with the kit's is_ functions in place of yours (they did "
                    "better): a mistake in those is marked under its own item.")
    if function:
        score(result, calls.cases[item], "calls")


def games_verdict(result, played, item: str, *judges):
    """An item in the two games, from what ``judges`` find in each (games.judge)."""
    calls, runs = played
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
    score(result, games.judge(runs, item, *judges), "things checked in the games",
          not_judged="The games never reached anything this item checks.")


@pytest.mark.item("upper-section")
def check_upper_section_functions(result, played):
    functions_verdict(result, played[0], "upper-section")


@pytest.mark.item("upper-section")
def check_upper_section_games(result, played):
    games_verdict(result, played, "upper-section", table_rows)


@pytest.mark.item("of-a-kind")
def check_of_a_kind_functions(result, played):
    functions_verdict(result, played[0], "of-a-kind")


@pytest.mark.item("of-a-kind")
def check_of_a_kind_games(result, played):
    games_verdict(result, played, "of-a-kind", table_rows)


@pytest.mark.item("full-house")
def check_full_house_functions(result, played):
    functions_verdict(result, played[0], "full-house")


@pytest.mark.item("full-house")
def check_full_house_games(result, played):
    games_verdict(result, played, "full-house", table_rows)


@pytest.mark.item("straights")
def check_straights_functions(result, played):
    functions_verdict(result, played[0], "straights")


@pytest.mark.item("straights")
def check_straights_games(result, played):
    games_verdict(result, played, "straights", table_rows)


@pytest.mark.item("joker")
def check_joker_functions(result, cases):
    functions_verdict(result, cases, "joker", "calculate_score")


@pytest.mark.item("joker")
def check_joker_games(result, played, cases):
    """A joker's row may give the points the student gives a real Full House or straight."""
    games_verdict(result, played, "joker", lambda run: table_rows(run, cases.fixed))


@pytest.mark.item("upper-bonus")
def check_upper_bonus_functions(result, cases):
    functions_verdict(result, cases, "upper-bonus", "calculate_final_scores")


@pytest.mark.item("upper-bonus")
def check_upper_bonus_games(result, played):
    games_verdict(result, played, "upper-bonus", table_bonuses)


@pytest.mark.item("yahtzee-bonus")
def check_yahtzee_bonus_functions(result, cases):
    functions_verdict(result, cases, "yahtzee-bonus", "calculate_final_scores")


@pytest.mark.item("yahtzee-bonus")
def check_yahtzee_bonus_games(result, played):
    games_verdict(result, played, "yahtzee-bonus", table_bonuses)


@pytest.mark.item("keep-dice")
def check_keep_dice(result, played):
    games_verdict(result, played, "keep-dice", playing)


@pytest.mark.item("three-throws")
def check_three_throws(result, played):
    games_verdict(result, played, "three-throws", playing)


@pytest.mark.item("thirteen-rounds")
def check_thirteen_rounds(result, played):
    games_verdict(result, played, "thirteen-rounds", playing)


@pytest.mark.item("options-used-up")
def check_options_used_up(result, played):
    games_verdict(result, played, "options-used-up", playing)


@pytest.mark.item("score-table")
def check_score_table_functions(result, cases):
    functions_verdict(result, cases, "score-table", "calculate_final_scores")


@pytest.mark.item("score-table")
def check_score_table_games(result, played):
    games_verdict(result, played, "score-table", table_rows, table_sums)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability.check_readability(result, submission, rubric)
