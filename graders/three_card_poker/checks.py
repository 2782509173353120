"""The Three-card Poker grader: one check per rubric item.

All calls of the student's functions happen once per submission in one student process (the
``evidence`` fixture), in the steps listed in ``STEPS``: each function swept over every hand of
its domain with the student's own helpers and, where that is not perfect, again with the kit's
correct helpers swapped in (for the functions whose oracle names helpers); play_round in every
scenario; main with a stand-in play_round. ``main`` is also played in a terminal by the
``games`` fixture. The checks only judge what was gathered.

The student kit leaves out the checks of hidden items and the steps named in
``student_kit.toml``, and with them every module and rule only they use.
"""

from dataclasses import dataclass, field

import pytest

from graders.engine.call.calls import Case, FunctionCalls, LoadReport, swap_note
from graders.engine.call.exhaustive import Sweep
from graders.engine.run.harness import run_folder
from graders.engine.judge.readability import check_readability as readability_item
from graders.engine.judge.requirements import better, fraction_of, require as engine_require, score
from graders.engine.judge.rubric import NotJudged

# one import a line: the student kit drops each module that its public checks do not use
from . import functions
from . import game
from . import rounds

# main when the file plays or fails when it is imported (handout section 11: nothing may run
# at import); the only item that costs
AT_IMPORT_SHARE = 0.5
PLAY_ROUND_HANGS = "was not played in a terminal: play_round() already hung with loaded cards"


@dataclass
class Evidence:
    """The outcomes of all calls of one submission."""

    import_error: str | None = None
    available: dict[str, bool] = field(default_factory=dict)
    sweeps: dict[str, tuple[Sweep, Sweep | None]] = field(default_factory=dict)  # own, kit
    played_rounds: tuple[list[Case], list[Case] | None] = ([], None)           # own, kit
    stand_ins: list[Case] = field(default_factory=list)       # main with a stand-in round
    loading: LoadReport = field(default_factory=LoadReport)   # what the import did


def collect(submission, budget=None) -> Evidence:
    """Run every call of the grade in one student process (restarted after a hang)."""
    with run_folder(submission, "calls") as folder:
        with FunctionCalls(folder / submission.main_name, folder, budget=budget) as calls:
            available = calls.defined(functions.FUNCTIONS + ("play_round", "main"))
            if available is None and calls.budget_spent:
                raise NotJudged("The submission's time budget ran out before its functions "
                                "could be called.")
            if available is None:
                return Evidence(import_error=calls.import_error or "the import failed")
            source = submission.main.read_text(encoding="utf-8", errors="replace")
            found = Evidence(available=available,
                             loading=LoadReport.from_report(calls.load, source))
            for step in STEPS:
                step(calls, found)
            return found


def sweep_functions(calls: FunctionCalls, found: Evidence) -> None:
    """Each defined function over its whole domain, again with the kit's helpers if needed."""
    for oracle in functions.ORACLES:
        if found.available.get(oracle.function):
            own = functions.sweep(calls, oracle)
            kit = functions.sweep(calls, oracle, kit_helpers=True) \
                if own.fraction < 1 and oracle.helpers else None
            found.sweeps[oracle.function] = (own, kit)


def play_rounds(calls: FunctionCalls, found: Evidence) -> None:
    """play_round in every scenario, again with the kit's helpers if it was not perfect."""
    if found.available.get("play_round"):
        own = calls.run_cases(rounds.cases_for())
        perfect = all(requirement.ok for requirement in rounds.judge(own))
        found.played_rounds = (own, None if perfect else
                               calls.run_cases(rounds.cases_for(kit_helpers=True)))


def main_with_stand_ins(calls: FunctionCalls, found: Evidence) -> None:
    """main() with play_round replaced by a stand-in returning each game's points."""
    if found.available.get("main"):
        found.stand_ins = calls.run_cases(game.stand_in_cases())


STEPS = [sweep_functions, play_rounds, main_with_stand_ins]


@pytest.fixture(scope="session")
def evidence(submission, notes, budget):
    """Every function call of the grade, run once per submission."""
    found = collect(submission, budget)
    if found.import_error:
        last = found.import_error.strip().splitlines()[-1:] or ["?"]
        notes(f"{submission.main_name} could not be imported: {last[0]}", problem=True)
    if stub_note := found.loading.stub_note():
        notes(stub_note, problem=found.loading.needs_review)
    return found


@pytest.fixture(scope="session")
def games(submission, evidence, budget):
    """main played in a terminal (a game at the top level too), once per plan, side by side."""
    if evidence.import_error or not (evidence.available.get("main") or evidence.loading.asked):
        return None
    if any(case.hung for case in evidence.played_rounds[0]):
        return [game.not_played(PLAY_ROUND_HANGS) for _ in game.PLANS]
    stand_ins = evidence.loading.stand_ins(submission.files)

    def play(plan):
        with run_folder(submission, "game", stand_ins) as folder:
            return game.play_in_terminal(folder / submission.main_name, folder, plan,
                                         budget.limits())
    runs = budget.map(play, game.PLANS)
    return [run or game.not_played("was not played: the submission's time budget was used up")
            for run in runs]


def require(result, evidence, function: str) -> None:
    """Fail at once without the import or the function; the import error is shown in full
    once, under hand_to_string."""
    engine_require(result, evidence.import_error, evidence.available, [function],
                   explain_here=function == "hand_to_string",
                   explained_under="hand_to_string", where="handout section 7")


def grade_function(result, evidence, oracle: functions.Oracle) -> None:
    """Score a function on its whole domain, with the kit's helpers when that does better."""
    require(result, evidence, oracle.function)
    own, kit = evidence.sweeps[oracle.function]
    verdict = kit if kit is not None and kit.fraction > own.fraction else own
    if oracle.helpers:
        result.note(swap_note(oracle.function, oracle.helpers, own.fraction,
                              kit and kit.fraction, verdict.swapped))
    verdict.score(result, noun="hands", credit_text=functions.half_text(verdict))


@pytest.mark.item("hand_to_string")
def check_hand_to_string(result, evidence):
    """hand_to_string on every hand, in every order."""
    grade_function(result, evidence, functions.HAND_TO_STRING)


@pytest.mark.item("sort_hand")
def check_sort_hand(result, evidence):
    """sort_hand on every hand, in every order: a new list, high to low."""
    grade_function(result, evidence, functions.SORT_HAND)


@pytest.mark.item("has_pair")
def check_has_pair(result, evidence):
    """has_pair on every hand, in every order."""
    grade_function(result, evidence, functions.HAS_PAIR)


def function_check(oracle: functions.Oracle):
    """The check of a hidden function on its whole domain (the public ones are written out,
    which the student kit keeps; it cuts these by name)."""
    @pytest.mark.item(oracle.function)
    def check(result, evidence):
        grade_function(result, evidence, oracle)
    return check


# every hand in every order, except score_hand: every sorted hand
check_has_straight = function_check(functions.HAS_STRAIGHT)
check_has_triple = function_check(functions.HAS_TRIPLE)
check_dealer_plays = function_check(functions.DEALER_PLAYS)
check_score_hand = function_check(functions.SCORE_HAND)


@pytest.mark.item("play_round")
def check_play_round(result, evidence):
    """play_round in every scenario: the points returned and the hands shown."""
    require(result, evidence, "play_round")
    own_cases, kit_cases = evidence.played_rounds
    own = rounds.judge(own_cases)
    kit = rounds.judge(kit_cases) if kit_cases else None
    requirements, used_kit = better(own, kit)
    result.note(swap_note("play_round", rounds.KIT_HELPERS, fraction_of(own),
                          kit and fraction_of(kit), used_kit))
    score(result, requirements, all_right=f"All {len(rounds.SCENARIOS)} rounds returned the "
          "right points, showed both hands with hand_to_string (yours before get_choice()) "
          "and called dealer_plays and score_hand.")


@pytest.mark.item("main")
def check_main(result, evidence, games):
    """main over two games: in a terminal, or with a stand-in play_round if that does better.
    A file that plays (or fails) when it is imported earns at most AT_IMPORT_SHARE of the item;
    without main(), the game at its top level is judged in the terminal."""
    loading, has_main = evidence.loading, bool(evidence.available.get("main"))
    if loading.troubled:
        result.partial(AT_IMPORT_SHARE, loading.main_item_message(
            has_main, AT_IMPORT_SHARE, calls_where="handout section 7", rule_where="section 11"),
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
    score(result, chosen, fraction=scores[way], all_right="The round results, the running "
          "totals, the repeated question, the stop and the final total were all right.")


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
    else:
        where = ("where the game at the top level of your file runs too" if at_import
                 else "with your own play_round")
        terminal = (f"In a terminal, {where}, the games earned {scores['terminal']:g} of the "
                    f"item ({why.rstrip('.')}).")
    blame = "" if at_import else " Mistakes in play_round are marked in its own item."
    return (text + terminal + " So main was judged with play_round() replaced by a stand-in "
            f"that returns those rounds' points, and earned {scores['stand-in']:g}.{blame}")


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the file (a TA confirms)."""
    readability_item(result, submission, rubric)
