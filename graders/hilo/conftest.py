"""Fixtures of the HiLo grader: the calls of the student's classes and the terminal games,
each gathered once per submission within its budget."""
from __future__ import annotations

import pytest

from graders.engine.run.harness import run_folder
from graders.engine.grading.replay import attach_game, game_header, slug

from . import console, functions


@pytest.fixture(scope="session")
def evidence(submission, notes, budget):
    """Every direct call of the student's classes (see functions.py)."""
    found = functions.collect(submission, budget)
    if found.import_error:
        last = found.import_error.strip().splitlines()[-1:] or ["?"]
        notes(f"{submission.main_name} could not be imported: {last[0]}", problem=True)
    elif found.games and any((record or {}).get("kit_card") for record in found.games.values()):
        notes("Your Card class did not work for the cards the grader needed, so HiLo_Game "
              "was tested with a correct Card in its place (Card's own mistakes are marked "
              "under card only).")
    return found


@pytest.fixture(scope="session")
def games(submission, evidence, budget, self_check, attach):
    """The terminal games of console.PLANS (console.PUBLIC in the self-check), side by side:
    plan name -> GameRun (None: not played, the budget was used up); their transcripts (and
    replay plans) go to the report."""
    def play(plan):
        with run_folder(submission, "game") as folder:
            return console.play(folder / submission.main_name, folder, plan,
                                [evidence.deck_order], budget.limits(**console.LIMIT_FIELDS))

    plans = [p for p in console.PLANS if p in console.PUBLIC] if self_check else console.PLANS
    runs = dict(zip((plan.name for plan in plans), budget.map(play, plans)))
    for plan in plans:
        run = runs[plan.name]
        if run is not None and run.full is not None:
            attach_game(attach, slug(plan.name), run.full,
                        game_header(plan.name, plan.describe(), dice=False),
                        public=plan in console.PUBLIC, title=plan.name)
    return runs
