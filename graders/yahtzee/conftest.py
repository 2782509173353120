"""Fixtures of the Yahtzee grader: the function calls (one child) and the two games, run side
by side once per submission."""
from __future__ import annotations

import pytest

from graders.engine.harness import run_folder

from . import functions, games

GAME_CPU_SECONDS = 4


@pytest.fixture(scope="session")
def gathered(submission, budget):
    """{"calls": functions.Evidence, plan name: games.GameRun or None (no budget left)}."""
    def job(name):
        if name == "calls":
            return functions.collect(submission, budget)
        with run_folder(submission, "game") as folder:
            return games.play(folder / submission.main_name, folder, games.PLANS[name],
                              budget.limits(cpu_seconds=GAME_CPU_SECONDS))
    names = ["calls"] + list(games.PLANS)
    return dict(zip(names, budget.map(job, names, workers=len(names))))


@pytest.fixture(scope="session")
def calls(gathered, notes, submission):
    """What the scoring functions returned (functions.Evidence)."""
    found = gathered["calls"] or functions.Evidence(import_error="the time budget ran out")
    if found.import_error:
        notes(f"{submission.main_name} could not be imported: "
              f"{found.import_error.strip().splitlines()[-1]}", problem=True)
    return found


@pytest.fixture(scope="session")
def played(gathered):
    """The games' requirements by rubric item, and the runs (None: not played)."""
    runs = [gathered[name] for name in games.PLANS]
    return games.judge([run for run in runs if run is not None]), runs
