"""The Poker Dice grader: one check per rubric item.

Every run of the student's code starts at once, in the background, when the first check asks
for the ``runs`` fixture (only the runs the selected checks need): the function calls, the
class specs, the help runs, four scripted games, eight won games with different
BestScore.txt set-ups, and the student's tests. The checks wait for what they read and judge it.
"""
from __future__ import annotations

import pytest

from . import diagnose, functions, objects, rules, scenarios, selftests, style
from .classes import gather as gather_classes
from .helptext import FLAGS, judge_help, run_help
from .play import MAX_HANDS, Played, play_script, play_to_win
from .runner import Runs
from .scoring import (any_order_hint, combined, feedback, judge_loop, judge_valid,
                      note_for_helpers, score_codes)
from .verdicts import Requirement, report, share

GROUPS = {"calculateScore": {"functions"}, "isvalidDice": {"functions"},
          "Die": {"classes"}, "Dice": {"classes"}, "Magic8": {"classes"}, "help": {"help"},
          "game": {"games"}, "best-score": {"wins"}, "magic8-award": {"classes", "wins"},
          "student-tests": {"tests"},
          **{name: {"functions"} for name in functions.PREDICATES}}
GAME_NAMES = ("every hand", "re-rolls", "quit", "broke", "win")


# ----------------------------------------------------------------------------- running
@pytest.fixture(scope="session")
def runs(submission, budget, request):
    """Every run the selected checks need, started together (see the module docstring)."""
    wanted = set()
    for item in request.session.items:
        marker = item.get_closest_marker("item")
        wanted |= GROUPS.get(marker.args[0], set()) if marker else set()
    started = Runs(submission, budget)
    start_runs(started, wanted)
    yield started
    started.close()


def start_runs(runs: Runs, wanted: set[str]) -> None:
    """Submit the jobs. The games wait for the payouts job, which is never behind more than
    three others, so it always has a worker of its own (no deadlock)."""
    files, left = runs.submission.files, lambda: runs.seconds_left
    if "functions" in wanted:
        runs.start("functions", functions.gather, files, left)
    if "tests" in wanted:
        runs.start("tests", selftests.run_student_tests, files, left)
    if "classes" in wanted:
        runs.start("classes", gather_classes, files, left)
    if wanted & {"games", "wins"}:
        runs.start("payouts", functions.payouts, files, scenarios.rolls_needed(), left)
    if "help" in wanted:
        runs.start("help", lambda: [run_help(files, flag, left()) for flag in FLAGS])
    if "games" in wanted:
        for index, name in enumerate(GAME_NAMES):
            runs.start(f"game {name}", play_game, runs, index)
    if "wins" in wanted:
        for case in scenarios.record_cases(0):
            runs.start(f"win {case.name}", play_win, runs, case.name)


def payout_of(runs: Runs):
    """roll -> (value, description) by the student's calculateScore, else the kit's rules."""
    table = runs.result("payouts") or {}
    return lambda roll: table.get(tuple(roll)) or rules.calculateScore(roll)


def play_game(runs: Runs, index: int) -> tuple[scenarios.Scenario, Played | None]:
    """One scripted game (skipped when an earlier game hung before its first question)."""
    scenario = scenarios.game_scenarios(payout_of(runs))[index]
    if not scenario.playable or runs.hung_at_start or runs.seconds_left < 1.5:
        return scenario, None
    played = play_script(runs.submission.files, scenario.first_roll,
                         [step.ask for step in scenario.steps], runs.seconds_left)
    if played.hung_at_start:
        runs.hung_at_start = played.transcript.ended_how
    return scenario, played


def play_win(runs: Runs, case_name: str) -> tuple[scenarios.RecordCase, Played | None]:
    """A game held until it is won, with one BestScore.txt set-up."""
    found = scenarios.win_roll(payout_of(runs))
    hands = found[1] if found else 0
    case = next(c for c in scenarios.record_cases(hands) if c.name == case_name)
    if found is None or runs.hung_at_start or runs.seconds_left < 1.5:
        return case, None
    played = play_to_win(runs.submission.files, found[0], runs.seconds_left,
                         scenarios.prepare_record(case, hands))
    if played.hung_at_start:
        runs.hung_at_start = played.transcript.ended_how
    return case, played


def not_played(runs: Runs, what: str) -> Requirement:
    """Why a game was not played."""
    if runs.hung_at_start:
        why = f"an earlier game did not get to its first question ({runs.hung_at_start})"
    elif runs.seconds_left < 1.5:
        why = "the grading time for this submission was used up"
    else:
        why = "with your calculateScore no hand pays more than the $10 ante, so no game can " \
              "be won"
    return Requirement(False, f"The {what} was not played: {why}.")


# ----------------------------------------------------------------------------- functions
def evidence_for(result, runs: Runs, function: str) -> functions.Evidence:
    """The function evidence; fail at once if the file cannot be imported or lacks it."""
    evidence = runs.result("functions")
    if evidence.import_error and function == "calculateScore":
        result.fail("project.py could not be imported, so none of its functions could be "
                    f"called. {diagnose.import_problem(evidence.import_error)}",
                    actual=diagnose.tidy(evidence.import_error))
    if evidence.import_error:        # told in full once, under calculateScore
        cause = diagnose.short_cause(evidence.import_error)
        result.fail(f"project.py could not be imported ({cause}), so {function} could not be "
                    "called; see calculateScore for the details.")
    if not evidence.available.get(function):
        result.fail(f"project.py has no function named {function}. The grader calls it by "
                    "exactly this name (handout: 'Required functions and classes').")
    return evidence


def tell_loading(result, notes, evidence: functions.Evidence) -> None:
    """Once, under calculateScore: top-level statements of project.py that failed or asked
    questions when it was imported, and modules replaced by stand-ins (a TA looks at those:
    a stand-in may change what a function does)."""
    said, stubbed = diagnose.load_story(evidence.load)
    if said:
        result.note("When the grader imported project.py to call its functions:\n"
                    + "\n".join(f"- {sentence}" for sentence in said)
                    + "\nThe functions were still called; a function that needs what was "
                      "skipped fails its own items.")
    if stubbed:
        names = ", ".join(stubbed)
        result.note(f"Your files import {names}, which the grader does not have: a stand-in "
                    "that does nothing took its place while your functions were called. The "
                    "games are played without it.")
        notes(f"functions: the files import {names} (not installed); the functions were "
              "graded with a stand-in", True)


def flag_untried(result, notes, verdict) -> None:
    """Count the rolls judged; rolls the grader could not try are said in the feedback and
    listed for a TA (an item with no roll judged is 'not judged', never full marks)."""
    if verdict.review and not verdict.judged:
        result.not_judged(f"{verdict.review}.")
    if verdict.review:
        result.note(f"Not all rolls were judged: {verdict.review}.")
        notes(f"{verdict.function}: {verdict.review}", True)
    result.judged(verdict.judged)


def grade_predicate(result, runs: Runs, notes, function: str) -> None:
    """A predicate on all 7776 rolls."""
    evidence = evidence_for(result, runs, function)
    verdict = judge_loop(function, evidence.loops.get(function))
    flag_untried(result, notes, verdict)
    if verdict.fraction < 1:
        hint = any_order_hint(verdict, function, score_codes(evidence, function))
        result.partial(verdict.fraction, **feedback(verdict, hint))
    else:
        result.note(f"Right on all {verdict.judged} rolls.")


@pytest.mark.item("calculateScore")
def check_calculateScore(result, runs, notes):
    """calculateScore on all 7776 rolls as lists and as Dice objects built with dice.py."""
    evidence = evidence_for(result, runs, "calculateScore")
    own = combined(judge_loop("calculateScore", evidence.loops.get("calculateScore")),
                   judge_loop("calculateScore", evidence.loops.get("calculateScore/dice"),
                              dice=True))
    kit = None
    if "calculateScore/kit" in evidence.loops:
        kit = combined(judge_loop("calculateScore", evidence.loops["calculateScore/kit"]),
                       judge_loop("calculateScore", evidence.loops.get(
                           "calculateScore/dice/kit"), dice=True))
    use_kit = kit is not None and kit.fraction > own.fraction
    verdict = kit if use_kit else own
    tell_loading(result, notes, evidence)
    result.note(note_for_helpers(own, kit, use_kit))
    flag_untried(result, notes, verdict)
    if verdict.skipped:
        result.note(f"{verdict.skipped} rolls were not tried as Dice objects, because your "
                    f"Dice/Die classes could not build that hand ({verdict.build_error}). "
                    "That is marked under Dice and Die, not here.")
    if verdict.fraction < 1:
        result.partial(verdict.fraction, **feedback(verdict))
    else:
        result.note(f"Right on all {verdict.judged} calls (lists and Dice objects).")


@pytest.mark.item("is2Pair")
def check_is2Pair(result, runs, notes):
    """is2Pair on all 7776 rolls."""
    grade_predicate(result, runs, notes, "is2Pair")


@pytest.mark.item("is3ofAKind")
def check_is3ofAKind(result, runs, notes):
    """is3ofAKind on all 7776 rolls."""
    grade_predicate(result, runs, notes, "is3ofAKind")


@pytest.mark.item("isFullHouse")
def check_isFullHouse(result, runs, notes):
    """isFullHouse on all 7776 rolls."""
    grade_predicate(result, runs, notes, "isFullHouse")


@pytest.mark.item("isStraight")
def check_isStraight(result, runs, notes):
    """isStraight on all 7776 rolls."""
    grade_predicate(result, runs, notes, "isStraight")


@pytest.mark.item("is4ofAKind")
def check_is4ofAKind(result, runs, notes):
    """is4ofAKind on all 7776 rolls."""
    grade_predicate(result, runs, notes, "is4ofAKind")


@pytest.mark.item("is5ofAKind")
def check_is5ofAKind(result, runs, notes):
    """is5ofAKind on all 7776 rolls."""
    grade_predicate(result, runs, notes, "is5ofAKind")


@pytest.mark.item("isvalidDice")
def check_isvalidDice(result, runs):
    """isvalidDice on valid answers, bad numbers, empty answers and words."""
    evidence = evidence_for(result, runs, "isvalidDice")
    if evidence.valid is None:
        result.fail(f"isvalidDice could not be tested: it {evidence.valid_error}.")
    wrong, total = judge_valid(evidence)
    if wrong:
        fraction = share(total - len(wrong), total)
        lines = [f"isvalidDice gave a wrong answer for {len(wrong)} of the {total} answers it "
                 f"was given, so this item gets {fraction:g} of its marks.", ""]
        lines += [f"- {line}" for line in wrong[:10]]
        result.partial(fraction, "\n".join(lines), expected=None, actual=None)
    else:
        result.note(f"Right on all {total} answers.")


# ----------------------------------------------------------------------------- classes
def require_file(result, submission, name: str) -> None:
    """Fail at once when a required module is not in the submission."""
    if name not in submission.files:
        result.fail(f"{name} is missing: submit the four files with exactly the names of the "
                    "handout ('Files').")


def require_import(result, runs: Runs, module: str, first_item: bool) -> None:
    """Fail at once, with the real cause, when the module raised while being imported (told
    in full under the first item of the file, in a few words under the others)."""
    imported = runs.result("classes").imports.get(module)
    if imported is None or imported.ok or not imported.traceback:
        return
    error = imported.traceback
    if first_item:
        result.fail(f"{module}.py could not be imported, so its classes could not be tested. "
                    f"{diagnose.import_problem(error, f'{module}.py')}",
                    actual=diagnose.tidy(error))
    result.fail(f"{module}.py could not be imported ({diagnose.short_cause(error)}); see Die "
                "for the details.")


@pytest.mark.item("Die")
def check_Die(result, runs, submission):
    """Die: faces and rows, ValueErrors, read-only value, setDieValue, rollDie, genRows, draw."""
    require_file(result, submission, "dice.py")
    require_import(result, runs, "dice", first_item=True)
    report(result, objects.die_requirements(runs.result("classes")))


@pytest.mark.item("Dice")
def check_Dice(result, runs, submission):
    """Dice: empty, five dice at most, rolls, 0-based positions, replaceDie, drawDice."""
    require_file(result, submission, "dice.py")
    require_import(result, runs, "dice", first_item=False)
    report(result, objects.dice_requirements(runs.result("classes")))


@pytest.mark.item("Magic8")
def check_Magic8(result, runs, submission):
    """Magic8: ANSWERS, getAnswer, speakAnswer with and without pyttsx3."""
    require_file(result, submission, "magic8ball.py")
    require_import(result, runs, "magic8ball", first_item=True)
    report(result, objects.magic_requirements(runs.result("classes")))


# ----------------------------------------------------------------------------- runs
@pytest.mark.item("help")
def check_help(result, runs, attach):
    """-h and --help: the instructions, exit status 0, no questions."""
    found = []
    for flag, played in zip(FLAGS, runs.result("help")):
        attach(f"transcripts/help{flag}.txt", played.transcript.render(max_lines=100_000))
        found += judge_help(flag, played)
    report(result, found)


@pytest.mark.item("game")
def check_game(result, runs, attach, notes):
    """Four games with loaded dice: payouts, re-rolls, invalid answers, quit, running out."""
    found, started, played_games = [], 0, []
    for name in GAME_NAMES:
        scenario, played = runs.result(f"game {name}")
        if not scenario.playable:
            result.note(f"The '{name}' game was not played: with your calculateScore no roll "
                        f"pays enough to reach $200 within {MAX_HANDS} hands (that is "
                        "calculateScore's mark), so the end of a won game was not judged here.")
            continue
        if played is None:
            count = scenarios.script_size(scenario)
            found += [not_played(runs, f"'{name}' game")] + [Requirement(False)] * (count - 1)
            continue
        started += any(segment.faces for segment in played.segments)
        played_games.append((scenario, played))
        attach(f"transcripts/game-{name.replace(' ', '-')}.txt",
               f"Game '{name}': {scenario.purpose}.\n«...» is what the grader typed; "
               f"[dice: ...] are the dice it loaded.\n\n"
               + played.transcript.render(max_lines=100_000)
               + f"\n\n{played.transcript.ended_how}\n")
        found += scenarios.judge_script(scenario, played)
    result.note("The games played (payouts are your own calculateScore's):\n" +
                "\n".join(f"- '{name}': {runs.result(f'game {name}')[0].purpose}"
                          for name in GAME_NAMES if runs.result(f"game {name}")[0].playable))
    if runs.hung_at_start:
        notes(f"A game run did not get to its first question: {runs.hung_at_start}", True)
    elif not started and played_games:
        scenario, played = played_games[0]
        if not scenarios.crashed_at_start(played):
            notes("game: no dice were rolled in any game run (the game never started); a TA "
                  "should check how the program starts a game", True)
        said = scenarios.never_started(scenario, played, every_game=True)
        result.fail(said.message, expected=said.expected, actual=said.actual,
                    evidence=said.evidence)
    report(result, found)


def wins(runs: Runs) -> dict[str, tuple]:
    """The won games by BestScore.txt set-up."""
    return {case.name: runs.result(f"win {case.name}") for case in scenarios.record_cases(0)}


@pytest.mark.item("best-score")
def check_best_score(result, runs, attach):
    """BestScore.txt after won games: created, kept, replaced, and no crash when unwritable."""
    games = wins(runs)
    baseline = games["no record"][1]
    baseline_ended = baseline is not None and baseline.ended_normally
    found = []
    for name, (case, played) in games.items():
        if played is None:
            found.append(not_played(runs, f"game with {name}"))
            continue
        attach(f"transcripts/won-{name.replace(' ', '-')}.txt",
               played.transcript.render(max_lines=100_000))
        found.append(scenarios.judge_record(case, played, baseline_ended))
    report(result, found, "BestScore.txt set-ups")
    hands = sorted({played.holds for _, played in games.values()
                    if played is not None and scenarios.won(played)})
    if hands:
        took = " or ".join(map(str, hands))
        result.note(f"Each game held a winning roll every hand; your game was won after "
                    f"{took} hands, and the record was judged against the hands each game "
                    "really took.")


@pytest.mark.item("magic8-award")
def check_magic8_award(result, runs):
    """After a win: a question with input(), then one of ANSWERS printed."""
    games = wins(runs)
    answers = runs.result("classes").answers
    found = []
    for name in scenarios.AWARD_CASES:
        _, played = games[name]
        if played is None:
            found += [not_played(runs, f"game with {name}"), Requirement(False)]
            continue
        found += scenarios.judge_award(played, answers)
    report(result, found)


# ----------------------------------------------------------------------------- tests, style
@pytest.mark.item("student-tests")
def check_student_tests(result, runs, notes, attach):
    """test_project.py passes on the student's code, then catches broken reference copies."""
    evidence = runs.result("tests")
    if evidence.transcript:
        attach("transcripts/student-tests.txt", "pytest on your tests in folders 'own' (your "
               "project), 'reference' (a correct project) and one per broken copy of it.\n"
               + evidence.transcript)
    for name in evidence.broken_mutations:
        notes(f"student-tests: the kit's mutation {name} no longer applies to the reference "
              "(a kit problem; it was left out)", True)
    if evidence.missing:
        result.fail("There is no test_project.py, so this item gets no marks.")
    own = evidence.results.get(selftests.OWN)
    if own is None:
        result.fail(f"Your tests could not be run. {evidence.problem or ''}".strip(),
                    evidence=evidence.transcript[-3000:] or None)
    _require_own_pass(result, own)
    control = evidence.results.get(selftests.CONTROL)
    folders = [m for m in selftests.MUTATIONS if m.name not in evidence.broken_mutations]
    caught = [m for m in folders if m.name in evidence.results and
              selftests.caught(control, evidence.results[m.name])]
    if any(m.name not in evidence.results for m in folders):
        result.note("Some broken projects could not be tried (the test run stopped or the "
                    "time ran out); they count as not caught.")
    _explain_control(result, control)
    missed = [m for m in folders if m not in caught]
    fraction = round(len(caught) / len(folders), 2) if folders else 0.0
    if missed:
        bugs = "\n".join(f"- {m.bug}" for m in missed)
        result.partial(fraction, f"Your tests caught {len(caught)} of the {len(folders)} "
                                 f"broken projects, so this item gets {fraction:g} of its "
                                 f"marks. None of your tests failed on these bugs:\n{bugs}")
    else:
        result.note(f"Your tests caught all {len(folders)} broken projects.")


def _require_own_pass(result, own: selftests.FolderResult) -> None:
    """Full stop unless the tests pass on the student's own code, with three test functions."""
    functions_found = selftests.test_functions(own)
    if own.code != 0 or not own.tests:
        failing = sorted(own.failed)
        text = "\n\n".join(own.failures.get(test, "") for test in failing[:2]) or \
            "\n".join(own.errors) or None
        result.fail("Your tests must pass on your own code first (otherwise this item gets "
                    "0). " + (f"These failed: {', '.join(failing)}." if failing else
                              "pytest did not run any test (see below)."),
                    actual=text)
    if len(functions_found) < 3:
        result.fail(f"test_project.py must have at least three test functions; pytest found "
                    f"{len(functions_found)}: {', '.join(sorted(functions_found)) or 'none'}.")


def _explain_control(result, control: selftests.FolderResult | None) -> None:
    """A note about tests that fail on the correct reference project (they cannot count)."""
    if control is None:
        return
    if control.errors and not control.tests:
        result.note("Your tests could not even be collected with a correct project: "
                    f"{control.errors[0][-600:]}\nImport only the required names (handout: "
                    "'Testing your code').")
    elif control.failed:
        result.note("These tests fail on a correct project too, so they cannot count as "
                    f"catching a bug: {', '.join(sorted(control.failed))}.")


@pytest.mark.item("readability")
def check_readability(result, submission):
    """Line length, docstrings and names, measured from the files (a TA confirms)."""
    found = style.measure(submission.files)
    result.measure("lines longer than 100 characters", len(found.long_lines))
    result.measure("missing docstrings", sum(found.undocumented.values()))
    result.measure("one-letter names", sum(len(v) for v in found.short_names.values()))
    result.note("Measured automatically (each third: line length, docstrings, names); "
                "a TA confirms this mark.")
    if found.fraction < 1:
        result.partial(found.fraction, "\n".join(style.findings(found)))
