"""The Poker Dice grader: one check per rubric item.

When the first check asks for the ``runs`` fixture, every run the selected checks need is made,
side by side within the submission's budget (``Budget.map``): the student's tests (the longest,
started first), the function calls, the class specs, the help runs, five scripted games and
eight won games with different BestScore.txt set-ups. The games wait for the payouts of the
student's calculateScore, which the function child sends first. The checks judge the results.

Each group of runs is started by its own function, listed in ``JOBS``; the student kit leaves
out the hidden items' checks and the groups named in ``student_kit.toml``, and with them the
modules only they use (the games, the classes, the student's tests and the reference).
"""
from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace

import pytest

from graders.engine.drive import scripted
from graders.engine.call import studenttests
from graders.engine.call.calls import LoadReport, swap_note
from graders.engine.run.harness import run_folder
from graders.engine.grading.replay import attach_game
from graders.engine.judge.readability import check_readability as measure_readability
from graders.engine.judge.requirements import Requirement, require, score
from graders.engine.judge.rubric import DATA_ROOT, NotJudged

# one import a line: the student kit drops each module that its public checks do not use
from . import diagnose
from . import functions
from . import rules
from . import scenarios
from .classes import gather as gather_classes
from .helptext import FLAGS, SILENT_PYTTSX3, judge_help, limits, run_help

GROUPS = {"calculateScore": {"functions"}, "isvalidDice": {"functions"},
          "Die": {"classes"}, "Dice": {"classes"}, "Magic8": {"classes"}, "help": {"help"},
          "game": {"games", "functions"}, "best-score": {"wins", "functions"},
          "magic8-award": {"classes", "wins", "functions"}, "student-tests": {"tests"},
          **{name: {"functions"} for name in functions.PREDICATES}}
GAME_NAMES = ("every hand", "re-rolls", "quit", "broke", "win")
MIN_LEFT = 1.5            # CPU seconds a game needs to be worth starting
RUN_WORKERS = 4           # runs side by side: most of them wait for the program


class Runs:
    """The results of every run of one submission, by name."""

    def __init__(self, submission, budget, expected_files=()):
        # only the Python files go into run folders (never a BestScore.txt the student sent)
        self.submission = SimpleNamespace(files={name: path for name, path in
                                                 submission.files.items()
                                                 if name.endswith(".py")})
        self.budget = budget
        self.expected_files = expected_files       # the rubric's: a missing one is named
        self.payouts: Future = Future()
        self.hung_at_start: str | None = None   # how a game run hung before its first prompt
        self.results: dict[str, object] = {}

    def run(self, wanted: set[str]) -> "Runs":
        """Every job the wanted groups need, in the order of ``JOBS``."""
        jobs = [job for make in JOBS for job in make(self, wanted)]
        if not self.payouts.done() and not any(name == "functions" for name, _ in jobs):
            self.payouts.set_result({})
        done = self.budget.map(lambda job: job[1](), jobs, workers=RUN_WORKERS, min_left=0)
        self.results = {name: value for (name, _), value in zip(jobs, done)}
        return self

    def __getitem__(self, name: str):
        """A run's result; a check whose run was never made (no budget left) is not judged."""
        if self.results.get(name) is None and name in ("functions", "classes"):
            raise NotJudged("The grading time for this submission was used up before these "
                            "calls could be made.")
        return self.results.get(name)

    def functions(self) -> functions.Evidence:
        """The function child; it publishes the payouts for the games first."""
        try:
            return functions.gather(self.submission, self.budget, self.payouts.set_result)
        finally:
            if not self.payouts.done():
                self.payouts.set_result({})

    def playable(self) -> bool:
        return not self.hung_at_start and self.budget.left >= MIN_LEFT

    def not_played(self, what: str) -> Requirement:
        """Why a game was not played."""
        if self.hung_at_start:
            why = f"an earlier game did not get to its first question ({self.hung_at_start})"
        elif self.budget.left < MIN_LEFT:
            why = "the grading time for this submission was used up"
        else:
            why = "with your calculateScore no hand pays more than the $10 ante, so no game " \
                  "can be won"
        return Requirement(False, f"The {what} was not played: {why}.")


# ----------------------------------------------------------------------------- the jobs
# Each returns the (name, job) pairs of its group when a selected check wants it.
def tests_jobs(runs: Runs, wanted: set[str]) -> list:
    """The student's tests on their project, the reference and its broken copies (first:
    they take longest)."""
    plan = studenttests.Plan.load(Path(__file__).with_name("student_tests.toml"),
                                  DATA_ROOT / "reference" / "poker_dice")
    return [("tests", lambda: studenttests.run(runs.submission.files, plan, runs.budget))] \
        * ("tests" in wanted)


def functions_jobs(runs: Runs, wanted: set[str]) -> list:
    """The function child (it publishes the games' payouts first)."""
    return [("functions", runs.functions)] * ("functions" in wanted)


def classes_jobs(runs: Runs, wanted: set[str]) -> list:
    """The class specs of dice.py and magic8ball.py."""
    return [("classes", lambda: gather_classes(runs.submission, runs.budget))] \
        * ("classes" in wanted)


def help_jobs(runs: Runs, wanted: set[str]) -> list:
    """project.py -h and --help."""
    return [(f"help {flag}", lambda flag=flag: run_help(runs.submission, flag, runs.budget))
            for flag in FLAGS] * ("help" in wanted)


def games_jobs(runs: Runs, wanted: set[str]) -> list:
    """The scripted games."""
    return [(f"game {name}", lambda i=i: play_game(runs, i))
            for i, name in enumerate(GAME_NAMES)] * ("games" in wanted)


def wins_jobs(runs: Runs, wanted: set[str]) -> list:
    """The games held until won, one per BestScore.txt set-up."""
    return [(f"win {case.name}", lambda name=case.name: play_win(runs, name))
            for case in scenarios.record_cases(0)] * ("wins" in wanted)


JOBS = [tests_jobs, functions_jobs, classes_jobs, help_jobs, games_jobs, wins_jobs]


def payout(runs: Runs):
    """roll -> (value, description) by the student's calculateScore, else the kit's."""
    # Wait as long as the submission's budget lasts (its real-time net leaves out time spent
    # waiting for a CPU), not a fixed time: on a busy machine a fixed wait would judge the
    # games by the kit's payouts instead of the student's, and the score would depend on load.
    while not runs.payouts.done() and not runs.budget.spent:
        try:
            runs.payouts.result(timeout=1.0)
        except TimeoutError:
            continue
    table = runs.payouts.result() if runs.payouts.done() else {}
    return lambda roll: table.get(tuple(roll)) or rules.calculateScore(roll)


def payouts_whose(runs: Runs) -> str:
    """Whose payouts the games expected, in words: the student's calculateScore's only where
    it answered (``payout`` takes the handout's for the other rolls)."""
    table = runs.payouts.result() if runs.payouts.done() else {}
    needed = [tuple(roll) for roll in functions.rolls_needed()]
    own = sum(roll in table for roll in needed)
    if own == len(needed):
        return "your own calculateScore's"
    if own == 0:
        return ("the handout's: the grader got no payout from your calculateScore, which is "
                "marked in its own item")
    return ("your own calculateScore's where it gave one, the handout's for the "
            f"{len(needed) - own} roll(s) where it did not")


def play_game(runs: Runs, index: int):
    """One scripted game."""
    scenario = scenarios.game_scenarios(payout(runs))[index]
    return scenario, started(runs, "game", lambda folder: scripted.follow(
        folder / "project.py", folder, scenario, scenarios.QUESTIONS, limits(runs.budget),
        dice_from=scenarios.DICE_FROM)) if scenario.playable else None


def play_win(runs: Runs, case_name: str):
    """A game held until it is won, with one BestScore.txt set-up."""
    found = scenarios.win_roll(payout(runs))
    case = next(case for case in scenarios.record_cases(found[1] if found else 0)
                if case.name == case_name)
    return case, started(runs, "win", lambda folder: scenarios.play_to_win(
        folder / "project.py", folder, found[0], limits(runs.budget), case)) if found else None


def started(runs: Runs, name: str, game):
    """``game(folder)`` in a fresh run folder; None when the budget is spent or an earlier game
    hung before its first question."""
    if not runs.playable():
        return None
    with run_folder(runs.submission, name, SILENT_PYTTSX3) as folder:
        played = game(folder)
    if played.hung_at_start:
        runs.hung_at_start = played.transcript.ended_how
    return played


@pytest.fixture(scope="session")
def runs(submission, budget, rubric, request):
    """Every run the selected checks need (see the module docstring)."""
    wanted = set()
    for item in request.session.items:
        marker = item.get_closest_marker("item")
        wanted |= GROUPS.get(marker.args[0], set()) if marker else set()
    return Runs(submission, budget, rubric.files).run(wanted)


# ----------------------------------------------------------------------------- functions
def evidence_for(result, runs: Runs, function: str) -> functions.Evidence:
    """The function evidence; fail at once if project.py cannot be imported or lacks it."""
    evidence = runs["functions"]
    require(result, evidence.import_error, evidence.available, [function],
            explain_here=function == "calculateScore", explained_under="calculateScore",
            where="handout: 'Required functions and classes'", file="project.py",
            submitted=runs.expected_files)
    return evidence


def tell_loading(result, for_ta, evidence: functions.Evidence) -> None:
    """Once, under calculateScore: what importing project.py did, and modules replaced by
    stand-ins (a TA looks at those: a stand-in may change what a function does)."""
    loaded = LoadReport.from_report(evidence.load)
    if said := loaded.import_note("project.py"):
        result.note(said)
    if loaded.stubbed_modules:
        names = ", ".join(loaded.stubbed_modules)
        result.note(f"Your files import {names}, which the grader does not have: a stand-in "
                    "that does nothing took its place while your functions were called. The "
                    "games are played without it.")
        # the student was told above (result.note); this is the TA's line
        for_ta(f"functions: the files import {names} (not installed); the functions were "
               "graded with a stand-in")


@pytest.mark.item("calculateScore")
def check_calculateScore(result, runs, for_ta):
    """calculateScore on all 7776 rolls as lists and as Dice objects built with dice.py."""
    evidence = evidence_for(result, runs, "calculateScore")
    own, kit = functions.score_sweeps(evidence), functions.score_sweeps(evidence, kit=True)
    use_kit = kit is not None and kit.fraction > own.fraction
    tell_loading(result, for_ta, evidence)
    if kit is not None:
        result.note(swap_note("calculateScore", "predicates (is2Pair ... is5ofAKind)",
                              own.fraction, kit.fraction, use_kit))
    if evidence.skipped:
        why = next(iter(evidence.skipped.values()))
        result.note(f"Some rolls were not tried as Dice objects, because your Dice/Die classes "
                    f"could not build that hand ({why}). That is marked under Dice and Die, "
                    "not here.")
    (kit if use_kit else own).score(result, noun="calls (every roll as a list and as a Dice)")


def predicate_check(function: str):
    """The check of one predicate on all 7776 rolls (the student kit cuts these by name)."""
    @pytest.mark.item(function)
    def check(result, runs):
        evidence_for(result, runs, function).sweeps[function].score(result, noun="rolls")
    return check


check_is2Pair = predicate_check("is2Pair")
check_is3ofAKind = predicate_check("is3ofAKind")
check_isFullHouse = predicate_check("isFullHouse")
check_isStraight = predicate_check("isStraight")
check_is4ofAKind = predicate_check("is4ofAKind")
check_is5ofAKind = predicate_check("is5ofAKind")


@pytest.mark.item("isvalidDice")
def check_isvalidDice(result, runs):
    """isvalidDice on valid answers, bad numbers, empty answers and words."""
    score(result, evidence_for(result, runs, "isvalidDice").valid, noun="answers")


# ----------------------------------------------------------------------------- classes
def require_module(result, runs: Runs, submission, module: str, first_item: bool) -> None:
    """Fail at once when a required module is missing, or raised while being imported (told
    in full under the first item of the file, in a few words under the others)."""
    if f"{module}.py" not in submission.files:
        result.fail(f"{module}.py is missing: submit the four files with exactly the names of "
                    "the handout ('Files').")
    imported = runs["classes"].imports.get(module)
    if imported is not None and not imported.ok and imported.traceback:
        diagnose.fail_import(result, imported.traceback, f"{module}.py",
                             "its classes could not be tested", first_item, "Die")


@pytest.mark.item("Die")
def check_Die(result, runs, submission):
    """Die: faces and rows, ValueErrors, read-only value, setDieValue, rollDie, genRows, draw."""
    require_module(result, runs, submission, "dice", first_item=True)
    score(result, runs["classes"].requirements("Die"))


@pytest.mark.item("Dice")
def check_Dice(result, runs, submission):
    """Dice: empty, five dice at most, rolls, 0-based positions, replaceDie, drawDice."""
    require_module(result, runs, submission, "dice", first_item=False)
    score(result, runs["classes"].requirements("Dice"))


@pytest.mark.item("Magic8")
def check_Magic8(result, runs, submission):
    """Magic8: ANSWERS, getAnswer, speakAnswer with and without pyttsx3."""
    require_module(result, runs, submission, "magic8ball", first_item=True)
    score(result, runs["classes"].requirements("Magic8"))


# ----------------------------------------------------------------------------- runs
@pytest.mark.item("help")
def check_help(result, runs, attach):
    """-h and --help: the instructions, exit status 0, no questions."""
    found = []
    for flag in FLAGS:
        played = runs[f"help {flag}"]
        if played is None:
            found.append(runs.not_played(f"run with {flag}"))
            continue
        attach_game(attach, f"help{flag}", played.transcript, footer=False)
        found += judge_help(flag, played)
    score(result, found)


@pytest.mark.item("game")
def check_game(result, runs, attach, notes, for_ta):
    """Five games with loaded dice: payouts, re-rolls, invalid answers, quit, running out."""
    found, games, kit_paid = [], [], []
    kit_games = scenarios.game_scenarios(rules.calculateScore)
    for index, name in enumerate(GAME_NAMES):
        scenario, played = runs[f"game {name}"] or (None, None)
        if scenario is not None and not scenario.playable:
            result.note(f"The '{name}' game was not played: with your calculateScore no roll "
                        f"pays enough to reach $200 within {scenarios.MAX_HANDS} hands (that "
                        "is calculateScore's mark), so the end of a won game was not judged "
                        "here.")
        elif played is None:
            found += [runs.not_played(f"'{name}' game")] + \
                [Requirement(False)] * ((scenario.size if scenario else 1) - 1)
        else:
            games.append((scenario, played))
            attach_game(attach, f"game-{name.replace(' ', '-')}", played.transcript,
                        f"Game '{name}': {scenario.purpose}.\n{scripted.HEADER}\n\n",
                        public=False, title=name)
            judged = scripted.judge(scenario, played, scenarios.QUESTIONS)
            # Interpretation: a game that pays what the handout says, where the student's
            # calculateScore called on its own would pay otherwise (it reads a global, say),
            # played right: that calculateScore's mark is its own item's, not the game's
            kit = kit_games[index]
            if kit.size == scenario.size and kit.steps and [s.typed for s in kit.steps] == \
                    [s.typed for s in scenario.steps]:
                fair = scripted.judge(kit, played, scenarios.QUESTIONS)
                if sum(r.ok for r in fair) > sum(r.ok for r in judged):
                    judged = fair
                    kit_paid.append(name)
            found += judged
    if kit_paid:
        result.note("In the " + ", ".join(f"'{name}'" for name in kit_paid) + " game(s) the "
                    "screen showed the payouts the handout gives, though your calculateScore, "
                    "called on its own with the same dice, pays otherwise: the game was judged "
                    "on the handout's payouts (calculateScore's mistake is its own item's).")
    result.note(f"The games played (payouts are {payouts_whose(runs)}):\n" +
                "\n".join(f"- '{scenario.name}': {scenario.purpose}" for scenario, _ in games))
    if runs.hung_at_start:
        notes(f"A game run did not get to its first question: {runs.hung_at_start}", True)
    elif games and not any(played.rolled for _, played in games):
        said = scripted.never_started(*games[0], scenarios.QUESTIONS, every_game=True)
        if not scenarios.QUESTIONS.cause(games[0][1].transcript.outcome):
            # the student reads why in this item's failure; the request is the TA's
            for_ta("game: no dice were rolled in any game run (the game never started); a TA "
                   "should check how the program starts a game")
        result.fail(said.case, expected=said.expected, actual=said.actual,
                    evidence=said.evidence)
    score(result, found)


def wins(runs: Runs) -> list[tuple]:
    """The won games, (BestScore.txt set-up, run) each."""
    return [runs[f"win {case.name}"] or (case, None) for case in scenarios.record_cases(0)]


@pytest.mark.item("best-score")
def check_best_score(result, runs, attach):
    """BestScore.txt after won games: created, kept, replaced, and no crash when unwritable."""
    games, found = wins(runs), []
    baseline = games[0][1]                       # no record
    for case, played in games:
        if played is None:
            found.append(runs.not_played(f"game with {case.name}"))
            continue
        attach_game(attach, f"won-{case.name.replace(' ', '-')}", played.transcript,
                    footer=False, public=False, title=case.name)
        found.append(scenarios.judge_record(case, played, baseline is not None and
                                            baseline.ended_normally))
    message = scenarios.judge_record_message(games)
    found = scenarios.nothing_written(games, found)
    score(result, found + ([message] if message else []), "BestScore.txt set-ups")
    hands = sorted({played.state["holds"] for _, played in games
                    if played is not None and scenarios.won(played)})
    if hands:
        result.note(f"Each game held a winning roll every hand; your game was won after "
                    f"{' or '.join(map(str, hands))} hands, and the record was judged against "
                    "the hands each game really took.")


@pytest.mark.item("magic8-award")
def check_magic8_award(result, runs):
    """After a win: a question with input(), then one of ANSWERS printed."""
    found = []
    for case, played in wins(runs):
        if case.award:
            found += scenarios.judge_award(played, runs["classes"].answers) if played else \
                [runs.not_played(f"game with {case.name}"), Requirement(False)]
    score(result, found)


# ----------------------------------------------------------------------------- tests, style
@pytest.mark.item("student-tests")
def check_student_tests(result, runs, for_ta, attach):
    """test_project.py passes on the student's code, then catches broken reference copies."""
    studenttests.judge(result, runs["tests"], for_ta, attach)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Line length, docstrings and names, measured from the files (a TA confirms)."""
    measure_readability(result, submission, rubric)
