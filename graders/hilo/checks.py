"""The HiLo grader: one check per rubric item.

The student's classes are called once per submission (the ``evidence`` fixture) and the game
is played in a terminal three times with loaded cards (``games``); the checks only judge what
was gathered, each item from its own requirements (requirements.score).
"""
from __future__ import annotations

import pytest

from graders.engine.judge.readability import check_readability as readability_item
from graders.engine.judge.requirements import require as engine_require
from graders.engine.judge.requirements import score

from . import console, functions

FIRST_ITEM = "Card"           # where an import error is explained in full
TRANSCRIPT = "Transcript («…» is what the grader typed; it chose the cards dealt)"


def require(result, evidence, *names: str) -> None:
    """Fail at once when the file cannot be imported or lacks what the item tests; the import
    error is shown in full once, under card."""
    engine_require(result, evidence.import_error, evidence.available, names,
                   explain_here=names[:1] == (FIRST_ITEM,), explained_under="card",
                   kind="class or function", what="classes and functions",
                   where="handout sections 1 to 3")


def played(result, games, *names: str) -> list[console.GameRun]:
    """The terminal games of these plans; not judged when one could not be played fairly."""
    runs = [games.get(name) for name in names]
    if any(run is None for run in runs):
        result.not_judged("The submission's time budget ran out before this game was played.")
    for run in runs:
        if run.grader_problem:
            result.not_judged(f"The game '{run.plan.name}' was stopped by a safety limit of the "
                              "grader (not a verdict on the program).", evidence=run.transcript)
    plans = "\n".join(f"- {run.plan.name}: {run.plan.describe()}" for run in runs)
    result.note(f"The grader played these games with loaded cards:\n{plans}")
    return runs


@pytest.mark.item("card")
def check_card(result, evidence):
    """Card on every value and suit, a Joker and other rules; Card.random."""
    require(result, evidence, "Card")
    score(result, functions.judge_card(evidence), "parts of the Card class")


@pytest.mark.item("generate_deck")
def check_generate_deck(result, evidence):
    """generate_deck with the game's rules, Jokers and other rules."""
    require(result, evidence, "generate_deck")
    score(result, functions.judge_deck(evidence), "calls of generate_deck")


@pytest.mark.item("stages")
def check_stages(result, evidence):
    """logic through every stage with chosen cards."""
    require(result, evidence, "HiLo_Game", "logic")
    score(result, functions.judge_stages(evidence), "rules of the stages")


@pytest.mark.item("double_or_nothing")
def check_double_or_nothing(result, evidence):
    """The amounts along chains of doubles, and pass."""
    require(result, evidence, "HiLo_Game", "logic")
    score(result, functions.judge_double(evidence), "amounts",
          not_judged="The game never took a guess as right, so no winnings could be checked "
                     "(see the stages item).")


@pytest.mark.item("bets")
def check_bets(result, evidence, games):
    """Refused bets asked again, the whole purse accepted."""
    require(result, evidence)
    (run,) = played(result, games, console.BETS.name)
    if how := console.no_bet_asked(run):
        result.fail(f"The program never asked for a bet, so none of the {len(run.plan.bets)} "
                    f"bets of the plan could be typed: {how}.", expected="the bet question",
                    actual=how, evidence=run.transcript, evidence_title=TRANSCRIPT)
    score(result, console.judge_bets(run), "bets typed", evidence_title=TRANSCRIPT)


@pytest.mark.item("console")
def check_console(result, evidence, games):
    """Whole games: purse, answers asked again, quit, empty purse, summary."""
    require(result, evidence)
    runs = played(result, games, console.CHAIN.name, console.BROKE.name)
    requirements = [req for run in runs for req in
                    console.judge_console(run, evidence.rejects, evidence.logic_hangs)]
    if evidence.logic_hangs and not all(run.ended for run in runs):
        result.note("A game stopped where HiLo_Game did not return (an endless loop); that is "
                    "marked under stages and double_or_nothing, not here.")
    unbet = all(console.no_bet_asked(run) for run in runs)
    score(result, requirements, "steps of the games checked",
          not_judged="The program never asked for a bet, so the purse before each bet and the "
                     "hands and purse of its summary could not be checked against bets the "
                     "grader typed." if unbet else
                     "The games could not be followed far enough to check anything.",
          evidence_title=TRANSCRIPT)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability_item(result, submission, rubric)
