"""The Yahtzee grader. Each scoring item has a check of the functions (all 7776 throws, or
chosen histories: functions.py) and one of the games' final tables (games.py); the console
items are judged from the games alone.

The sweeps and the two games run side by side once per submission (``played``); the chosen
histories of the hidden items run after them in a child of their own (``histories``), so no
public check computes a hidden item's answers. The public checks are written out; the hidden
ones are made by ``cases_check`` and ``games_check``, and the student kit cuts them by name
(student_kit.toml) with all that only they use.
"""
from __future__ import annotations

import pytest

from graders.engine.drive import dicegame
from graders.engine.judge import readability
from graders.engine.drive.dicegame import playing
from graders.engine.call.exhaustive import score_sweeps
from graders.engine.run.harness import run_folder
from graders.engine.grading.replay import attach_game, game_header, slug
from graders.engine.judge.requirements import require, score

from . import functions, games
from .games import table_bonuses, table_jokers, table_rows, table_sums


@pytest.fixture(scope="session")
def played(submission, budget, notes, attach):
    """The sweeps over every throw (functions.Evidence) and the games (dicegame.DiceGame),
    whose transcripts (and replay plans) go to the report."""
    def job(name):
        if name == "sweeps":
            return functions.collect_sweeps(submission, budget)
        with run_folder(submission, "game") as folder:
            return dicegame.play(folder / submission.main_name, folder, games.PLANS[name],
                                 games.WORDS, budget.limits(cpu_seconds=4))
    sweeps, *runs = budget.map(job, ["sweeps", *games.PLANS], workers=1 + len(games.PLANS))
    sweeps = sweeps or functions.Evidence(import_error="the time budget ran out")
    for name, run in zip(games.PLANS, runs):
        if run is not None and run.transcript is not None:
            attach_game(attach, slug(name), run.transcript, game_header(
                name, f"{len(games.PLANS[name].rounds)} rounds with loaded dice"), title=name)
    # said once, at the top: each failure names its game
    notes("The grader played two games with loaded dice: " +
          " and ".join(f"'{name}'" for name in games.PLANS) + ".")
    if sweeps.import_error:
        notes(f"{submission.main_name} could not be imported: "
              f"{sweeps.import_error.strip().splitlines()[-1]}", problem=True)
    return sweeps, runs


@pytest.fixture(scope="session")
def histories(submission, budget, played):
    """calculate_score and calculate_final_scores on chosen histories (after the games)."""
    return played[0] if played[0].import_error else \
        functions.collect_cases(submission, budget)


def functions_verdict(result, calls: functions.Evidence, item: str, function: str = ""):
    """An item's functions: its sweeps over every throw, or its cases of ``function``."""
    names = sorted({name if name.startswith("is_") else "calculate_score"
                    for name in functions.SWEEPS.get(item, [])}) or [function]
    require(result, calls.import_error, calls.defined, names, explain_here=item ==
            "upper-section", explained_under="upper-section", where="handout section 5")
    score_sweeps(result, calls.sweeps.get(item, []), noun="throws")
    changed = calls.changed.get(item)
    if changed:
        call, after = next(iter(changed.items()))
        # never full marks while something is wrong; the answers themselves were right
        result.partial(0.9, f"{call} changed the list it was given, to {after[0]!r}: the "
                            "functions must not change the dice (handout section 5). Work "
                            "on a copy (sorted(dice) makes a new list).")
    if calls.swapped.get(item):
        result.note("Judged with the kit's is_ functions in place of yours (they did "
                    "better): a mistake in those is marked under its own item.")
    if function:
        score(result, calls.cases[item], "calls")


def games_verdict(result, played, item: str, *judges, context=None):
    """An item in the two games, from what ``judges`` find in each (dicegame.judge)."""
    calls, runs = played
    require(result, calls.import_error, {}, [], explain_here=False,
            explained_under="upper-section")
    if None in runs:
        result.not_judged("The time budget ran out before every game was played.")
    if any(run.grader_problem for run in runs):
        result.note("A game was stopped by a safety limit of the grader; it is not "
                    "counted here.")
    score(result, dicegame.judge(runs, item, *judges, context=context),
          "things checked in the games",
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


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability.check_readability(result, submission, rubric)


def cases_check(item: str, function: str):
    """The check of a hidden item's cases of ``function``."""
    @pytest.mark.item(item)
    def check(result, histories):
        functions_verdict(result, histories, item, function)
    return check


def games_check(item: str, *judges):
    """The check of a hidden item in the games (a joker's row may give the points the
    student gives a real Full House or straight: ``histories.fixed``, see table_jokers)."""
    @pytest.mark.item(item)
    def check(result, played, histories):
        games_verdict(result, played, item, *judges, context=histories)
    return check


# the hidden items' checks (pytest collects them by their names here)
check_joker_functions = cases_check("joker", "calculate_score")
check_joker_games = games_check("joker", table_jokers)
check_upper_bonus_functions = cases_check("upper-bonus", "calculate_final_scores")
check_upper_bonus_games = games_check("upper-bonus", table_bonuses)
check_yahtzee_bonus_functions = cases_check("yahtzee-bonus", "calculate_final_scores")
check_yahtzee_bonus_games = games_check("yahtzee-bonus", table_bonuses)
check_keep_dice = games_check("keep-dice", playing)
check_three_throws = games_check("three-throws", playing)
check_thirteen_rounds = games_check("thirteen-rounds", playing)
check_options_used_up = games_check("options-used-up", playing)
check_score_table_functions = cases_check("score-table", "calculate_final_scores")
check_score_table_games = games_check("score-table", table_rows, table_sums)
