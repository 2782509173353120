"""Fixtures of the HiLo grader: the calls of the student's classes and the terminal games,
each gathered once per submission."""
from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

from graders.engine.harness import prepare_workdir

from . import console, functions

WORKERS = 2                      # terminal games in parallel (each is its own process)
MIN_BUDGET = 0.5                 # CPU seconds a game needs to be worth starting


@pytest.fixture(scope="session")
def evidence(submission, notes):
    """Every direct call of the student's classes (see functions.py)."""
    found = functions.collect(submission)
    if found.import_error:
        last = found.import_error.strip().splitlines()[-1:] or ["?"]
        notes(f"{submission.main_name} could not be imported: {last[0]}", problem=True)
    elif found.games and any((record or {}).get("kit_card") for record in found.games.values()):
        notes("Your Card class did not work for the cards the grader needed, so HiLo_Game "
              "was tested with a correct Card in its place (Card's own mistakes are marked "
              "under card only).")
    return found


@pytest.fixture(scope="session")
def games(submission, evidence, budget):
    """The terminal games of console.PLANS: plan name -> GameRun (None: not played)."""
    def run(plan):
        if budget.left < MIN_BUDGET:
            return plan.name, None
        workdir = prepare_workdir(dict(submission.files))
        try:
            return plan.name, console.play(workdir / submission.main_name, workdir, plan,
                                           [evidence.deck_order])
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        return dict(pool.map(run, console.PLANS))
