"""The Three-card Poker grader: one check per rubric item.

All calls of the student's functions happen once per submission in the ``evidence`` fixture
(every hand of every function's domain, play_round scenarios, main with a stand-in); ``main``
is also played in a terminal by the ``games`` fixture. The checks only judge what was gathered.
"""
from __future__ import annotations

import pytest

from graders.engine.calls import stand_in_files, swap_note
from graders.engine.harness import run_folder
from graders.engine.readability import check_readability as check_readability_item
from graders.engine.requirements import better, fraction_of, score

from . import evidence as gathering
from . import functions, game, rounds
from .loading import AT_IMPORT_SHARE, main_message

HELPER_NAMES = {"score_hand": "has_pair, has_straight and has_triple",
                "dealer_plays": "has_pair, has_straight and has_triple",
                "play_round": "sort_hand, hand_to_string, has_pair, has_straight, has_triple, "
                              "score_hand and dealer_plays"}
PLAY_ROUND_HANGS = "was not played in a terminal, because play_round() already hung " \
                   "with loaded cards"


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def evidence(submission, notes, budget):
    """Every function call of the grade, run once per submission (see evidence.py)."""
    found = gathering.collect(submission, budget)
    if found.import_error:
        last = found.import_error.strip().splitlines()[-1:] or ["?"]
        notes(f"{submission.main_name} could not be imported: {last[0]}", problem=True)
    stub_note = found.loading.stub_note()
    if stub_note:
        notes(stub_note, problem=found.loading.needs_review)
    return found


@pytest.fixture(scope="session")
def games(submission, evidence, budget):
    """main played in a terminal, once per plan, side by side: the file run as a program, so
    a game at its top level is played too (None when there is no game to play)."""
    if evidence.import_error or not (evidence.available.get("main") or evidence.loading.asked):
        return None
    if evidence.round_hangs:
        return [game.not_played(PLAY_ROUND_HANGS) for _ in game.PLANS]
    source = submission.main.read_text(encoding="utf-8", errors="replace")
    stand_ins = stand_in_files(source, evidence.loading.stubbed_modules, submission.files)

    def play(plan):
        with run_folder(submission, "game", stand_ins) as folder:
            return game.play_in_terminal(folder / submission.main_name, folder, plan,
                                         budget.limits())
    runs = budget.map(play, game.PLANS)
    return [run or game.not_played("was not played: the submission's time budget was used up")
            for run in runs]


# ----------------------------------------------------------------------------- shared steps
FIRST_FUNCTION = "hand_to_string"      # where an import error is explained in full


def require(result, evidence, function: str) -> None:
    """Fail the item at once when the file cannot be imported or lacks the function. The
    error is shown in full once, under the first function; the other items point there."""
    if evidence.import_error and function == FIRST_FUNCTION:
        result.fail(import_message(evidence.import_error), actual=evidence.import_error)
    if evidence.import_error:
        last = (evidence.import_error.strip().splitlines() or ["an error"])[-1]
        result.fail(f"Not tested: your file could not be imported ({last}). The error is "
                    f"shown under {FIRST_FUNCTION}.")
    if not evidence.available.get(function):
        result.fail(f"Your file has no function named {function}. The grader calls it by "
                    f"exactly this name (handout section 7), so it could not be tested.")


def import_message(error: str) -> str:
    """Why nothing could be tested, with a hint for the usual causes."""
    text = "Your file could not be imported, so none of its functions could be called. "
    if "EOFError" in error or "no more answers" in error:
        return text + ("It asks for input while it is being imported: keep the call to main() "
                       "under  if __name__ == \"__main__\":  (handout section 11).")
    if "SyntaxError" in error or "IndentationError" in error:
        return text + "Python found a syntax error; fix it first (see below)."
    if "endless loop" in error or "ran for more than" in error:
        return text + "Importing it did not finish: is there a loop at the top level?"
    return text + "Importing it raised an error (see below)."


def grade_function(result, evidence, function: str) -> None:
    """Score a function on its whole domain, with the kit's helpers when that does better."""
    require(result, evidence, function)
    own, kit = evidence.sweeps[function]
    verdict = kit if kit is not None and kit.fraction > own.fraction else own
    if function in HELPER_NAMES:
        result.note(swap_note(function, HELPER_NAMES[function], own.fraction,
                              kit and kit.fraction, verdict.swapped))
    verdict.score(result, noun="hands", credit_text=functions.HALF_TEXT)


# ----------------------------------------------------------------------------- checks
@pytest.mark.item("hand_to_string")
def check_hand_to_string(result, evidence):
    """hand_to_string on all 2197 hands."""
    grade_function(result, evidence, "hand_to_string")


@pytest.mark.item("sort_hand")
def check_sort_hand(result, evidence):
    """sort_hand on all 2197 hands: a new list, high to low, argument unchanged."""
    grade_function(result, evidence, "sort_hand")


@pytest.mark.item("has_pair")
def check_has_pair(result, evidence):
    """has_pair on all 2197 hands."""
    grade_function(result, evidence, "has_pair")


@pytest.mark.item("has_straight")
def check_has_straight(result, evidence):
    """has_straight on all 2197 hands."""
    grade_function(result, evidence, "has_straight")


@pytest.mark.item("has_triple")
def check_has_triple(result, evidence):
    """has_triple on all 2197 hands."""
    grade_function(result, evidence, "has_triple")


@pytest.mark.item("score_hand")
def check_score_hand(result, evidence):
    """score_hand on all 455 sorted hands."""
    grade_function(result, evidence, "score_hand")


@pytest.mark.item("dealer_plays")
def check_dealer_plays(result, evidence):
    """dealer_plays on all 2197 hands."""
    grade_function(result, evidence, "dealer_plays")


@pytest.mark.item("play_round")
def check_play_round(result, evidence):
    """play_round in every scenario: the points returned and the hands shown."""
    require(result, evidence, "play_round")
    own_cases, kit_cases = evidence.rounds
    own = rounds.judge(own_cases)
    kit = rounds.judge(kit_cases) if kit_cases else None
    requirements, used_kit = better(own, kit)
    result.note(swap_note("play_round", HELPER_NAMES["play_round"], fraction_of(own),
                          kit and fraction_of(kit), used_kit))
    score(result, requirements, all_right=f"All {len(requirements) // 2} rounds returned the "
          "right points and showed both hands with hand_to_string.")


@pytest.mark.item("main")
def check_main(result, evidence, games):
    """main over two games: in a terminal, or with a stand-in play_round if that does better.
    A file that plays (or fails) when it is imported earns at most AT_IMPORT_SHARE of the item;
    without main(), the game at its top level is judged in the terminal."""
    loading, has_main = evidence.loading, bool(evidence.available.get("main"))
    if loading.troubled:
        result.partial(AT_IMPORT_SHARE, main_message(loading, has_main),
                       evidence=loading.transcript())
    if not (has_main and not evidence.import_error) and not (games and loading.asked):
        require(result, evidence, "main")
    terminal = [req for plan, run in zip(game.PLANS, games or ()) for req in game.judge(plan, run)]
    stand_in = [req for case in evidence.stand_ins
                for req in game.judge(case.subject, game.stand_in_run(case))]
    scores = {"terminal": fraction_of(terminal), "stand-in": fraction_of(stand_in)}
    played = bool(games) and all(run.played for run in games)
    way = "terminal" if not has_main or played and scores["terminal"] >= scores["stand-in"] \
        else "stand-in"
    chosen = terminal if way == "terminal" else stand_in
    why = next((req.sentence for req in terminal if not req.ok and req.case), "")
    result.note(main_note(way, scores, None if played else games[0].problem, why,
                          loading.troubled, has_main))
    score(result, chosen, fraction=scores[way], all_right="The running totals, the repeated "
          "question, the stop and the final total were all right.")


def main_note(way: str, scores: dict[str, float], skipped: str | None, why: str,
              at_import: bool = False, has_main: bool = True) -> str:
    """The games played, and which way main was judged."""
    games_played = "\n".join(f"- Game {number}: {plan.describe()}"
                             for number, plan in enumerate(game.PLANS, 1))
    text = f"The grader played these games with loaded cards:\n{games_played}\n\n"
    if not has_main:
        return text + "The game at the top level of your file was judged on the full games, " \
                      "run in a terminal."
    if way == "terminal":
        return text + "main was judged on the full games, run in a terminal."
    if skipped:
        terminal = f"The full game {skipped}."
    elif at_import:
        terminal = (f"In a terminal, where the game at the top level of your file runs too, "
                    f"the games earned {scores['terminal']:g} of the item "
                    f"({why.rstrip('.')}).")
    else:
        terminal = f"In a terminal, with your own play_round, the games earned " \
                   f"{scores['terminal']:g} of the item ({why.rstrip('.')})."
    blame = "" if at_import else " Mistakes in play_round are marked in its own item."
    return (text + terminal + " So main was judged with play_round() replaced by a stand-in "
            f"that returns those rounds' points, and earned {scores['stand-in']:g}.{blame}")


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    check_readability_item(result, submission, rubric)
