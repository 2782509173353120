"""Programs written to another spec (a TA always gets some) get true feedback.

Each fixture under ``tests/fixtures/<assignment>/other_spec`` is a program a student wrote to
another description of the game: other function names, a stake of its own instead of bets,
a first line that crashes. Each test asserts that a sentence the grader used to write beside
such a program is gone AND that what the feedback says instead holds in the program or in the
transcript shown beside it. Readability, which reads only the source, is judged on the source
whether or not the runs crashed at start-up, the same in every grader.
"""
from __future__ import annotations

import ast

import pytest

from conftest import FIXTURES, grade, item_text, verdicts_by_student
from graders.engine.grading import reports as reports_module
from graders.engine.judge.diagnose import sentence_start
from graders.engine.call.objects import Outcome, Probe, judge

# (assignment, fixture) -> the name its report gets
OTHER_SPEC = {("poker_dice", "renamed_functions"), ("poker_dice", "crash_first_line"),
              ("hilo", "crash_first_line"), ("hilo", "fixed_stake"),
              ("three_card_poker", "crash_first_line")}
CRASHED = ("poker_dice", "hilo", "three_card_poker")   # each has a crash_first_line fixture


@pytest.fixture(scope="module")
def graded():
    """assignment -> {fixture name: report}."""
    found = {}
    for assignment in sorted({assignment for assignment, _ in OTHER_SPEC}):
        names = sorted(name for owner, name in OTHER_SPEC if owner == assignment)
        found[assignment] = grade(assignment, [FIXTURES / assignment / "other_spec" / name
                                               for name in names], names)
    return found


def _items(report) -> dict:
    return verdicts_by_student({report.student: report})[report.student]


def _feedback(report) -> str:
    return reports_module.feedback_markdown(report)


def _source(assignment: str, name: str, file: str) -> str:
    return (FIXTURES / assignment / "other_spec" / name / file).read_text()


# ----------------------------------------------------------------------------- Poker Dice
def test_payouts_are_not_called_the_students_when_there_is_no_calculateScore(graded):
    report = graded["poker_dice"]["renamed_functions"]
    items = _items(report)
    assert "def calculateScore" not in _source("poker_dice", "renamed_functions", "project.py")
    assert "project.py has no function named calculateScore" in item_text(
        items["calculateScore"])
    game = item_text(items["game"])
    assert "payouts are your own calculateScore's" not in game
    assert "payouts are the handout's: the grader got no payout from your calculateScore" in game


def test_a_file_name_opening_a_sentence_keeps_its_case(graded):
    for name in ("renamed_functions", "crash_first_line"):
        feedback = _feedback(graded["poker_dice"][name])
        assert "Project.py" not in feedback
        assert "project.py has no function named is2Pair." in feedback
    assert sentence_start("project.py could not be imported") == \
        "project.py could not be imported"
    assert sentence_start("game/card.py has no class") == "game/card.py has no class"
    assert sentence_start("your file has no function") == "Your file has no function"


def test_a_value_that_could_not_be_read_is_not_shown_as_a_value(graded):
    report = graded["poker_dice"]["renamed_functions"]
    die = item_text(_items(report)["Die"])
    assert "{'error'" not in _feedback(report) and "is then" not in die
    # what it says instead holds: this Die() takes no argument
    assert "die = Die(1) raised TypeError: Die.__init__() takes 1 positional argument but 2 " \
           "were given" in die
    tree = ast.parse(_source("poker_dice", "renamed_functions", "dice.py"))
    init = next(node for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    assert [arg.arg for arg in init.args.args] == ["self"]


def test_an_expression_whose_reading_raised_is_said_to_have_raised():
    """Reading an expression raised (not the call): said as such, never as a dict value."""
    probe = Probe(run="die.setDieValue(3)", setup="die = Die(2)", expect={"die.value": 3})
    looks = {"die.value": {"error": "AttributeError: 'Die' object has no attribute '_v'"}}
    raised = judge(probe, Outcome(True, ["raised", "AttributeError", "no setDieValue"], looks))
    assert raised.actual == ("raised AttributeError: no setDieValue; reading die.value raised "
                             "AttributeError: 'Die' object has no attribute '_v'")
    returned = judge(probe, Outcome(True, ["ok"], looks))
    assert returned.case == ("After die = Die(2); die.setDieValue(3), reading die.value raised "
                             "AttributeError: 'Die' object has no attribute '_v'.")
    assert "{'error'" not in str(returned.actual)
    unbound = {"die.value": {"error": "NameError: name 'die' is not defined"}}
    first = judge(Probe(run="die = Die(1)", expect={"die.value": 1}),
                  Outcome(True, ["raised", "TypeError", "takes 1 positional argument"], unbound))
    assert "NameError" not in first.case + str(first.actual)


# ----------------------------------------------------------------------------- HiLo
def test_no_bet_is_said_to_be_typed_when_the_program_crashed_first(graded):
    report = graded["hilo"]["crash_first_line"]
    bets = item_text(_items(report)["bets"])
    assert "bets typed went wrong" not in bets and "The bet 'ten'" not in bets
    assert "The program never asked for a bet, so none of the 7 bets of the plan could be " \
           "typed: it ended before any question (The program crashed: NameError: name " \
           "'clear_screen' is not defined)" in bets
    # what it says holds: the transcript beside it shows the crash and nothing typed
    transcript = next(detail["evidence"] for check in _items(report)["bets"].checks
                      for detail in check.details if detail["evidence"])
    assert "NameError: name 'clear_screen' is not defined" in transcript
    assert "«" not in transcript
    assert "Bets typed:" not in _feedback(report)


def test_hands_played_without_bets_are_not_summed_as_zero(graded):
    report = graded["hilo"]["fixed_stake"]
    feedback = _feedback(report)
    assert "0 hands played" not in feedback
    bets = _items(report)["bets"]
    assert "it asked higher or lower first and never a bet" in item_text(bets)
    transcript = next(detail["evidence"] for check in bets.checks
                      for detail in check.details if detail["evidence"])
    first_question = next(line for line in transcript.splitlines() if "«" in line)
    assert first_question.startswith("Higher or lower?")
    assert "Your bet" not in transcript and "bet" not in transcript.lower()
    # the planned deals were played, then the game was let end: a summary of its own
    assert transcript.rstrip().endswith("You played 1 hands and finished with $90.")
    assert "asked more than 120 questions" not in feedback
    console = _items(report)["console"]
    assert not console.judged
    assert "never asked for a bet, so the purse before each bet and the hands and purse of " \
           "its summary could not be checked" in item_text(console)


# ----------------------------------------------------------------------------- readability
@pytest.mark.parametrize("assignment", CRASHED)
def test_readability_is_judged_on_the_source_when_every_run_crashed(graded, assignment):
    """One rule everywhere: a program whose runs all crash at start-up keeps the readability
    its source earns (and the crash is real: every run of it ends in the first line's
    NameError)."""
    report = graded[assignment]["crash_first_line"]
    readability = _items(report)["readability"]
    assert "no working program" not in item_text(readability)
    assert readability.score > 0
    assert not any("get no marks" in note for note in report.notes)
    assert "NameError" in _feedback(report)
    source = _source(assignment, "crash_first_line", "project.py" if assignment == "poker_dice"
                     else f"{assignment}.py")
    first_line = source.splitlines()[0]
    assert first_line.endswith(")") and not first_line.startswith(("#", "import", '"'))
