"""Tests of the Three-card Poker grader.

The reference and every correct solution get full marks, except that a correct program whose
game runs when the file is imported loses part of ``main`` and nothing else; each mutant loses
exactly the item its manifest names and keeps every other automatic item; broken files (a
syntax error, an error at import, an endless loop in has_pair) are graded without crashing the
grader. All submissions are graded in one ``plugin.run`` call (about 30 s); the CLI is run once
for its exit status.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mutants

from conftest import item_text, verdicts_by_student

from graders.engine.grading import plugin, submissions
from graders.engine.judge import readability
from graders.engine.grading import reports as reports_module
from graders.engine.judge.rubric import KIT_ROOT, Rubric, fraction_right
from graders.three_card_poker import game, rounds, rules
from graders.three_card_poker.checks import AT_IMPORT_SHARE

FIXTURES = KIT_ROOT / "tests" / "fixtures" / "three_card_poker"
GRADER = KIT_ROOT / "graders" / "three_card_poker"
RUBRIC = Rubric.load("three_card_poker")
MANIFEST = mutants.manifest("three_card_poker")
CORRECT = sorted(folder.name for folder in (FIXTURES / "correct").iterdir() if folder.is_dir())
BROKEN = ("syntax_error", "import_raises")   # has_pair_hangs is a patch in variants/
AUTOMATIC = [item.id for item in RUBRIC.items if not item.review]
# correct programs whose game runs when the file is imported: line -> statement, as the
# feedback under main must name them
AT_IMPORT = {"loop_at_bottom": {105: "while keep_going:"},
             "loop_pasted_twice": {113: "while True:", 139: "while True:"},
             "loop_ignores_eof": {92: "while True:"},
             "main_call_unguarded": {119: "main()"}}
# correct programs importing modules the grader does not have, as the note at the top names them
STUBBED = {"bakery_asserts": "bakery", "unknown_import": "cisc108 and pyinputplus",
           "pasted_course_modules": "hands and poker", "pasted_module_calls": "hands and poker"}
# programs pasted together from the course's pages: they import the course's modules and
# define the same functions themselves (names taken from those modules, all their own)
PASTED = {"pasted_course_modules": "deal, dealer_plays, get_choice, hand_to_string, has_pair, "
                                   "has_straight, has_triple, score_hand and sort_hand",
          "pasted_module_calls": "deal, get_choice, has_pair, has_straight, has_triple and "
                                 "sort_hand"}


def _folders(built: Path) -> dict[str, Path]:
    """Every submission to grade: student name -> folder (mutants are built under ``built``)."""
    folders = {"reference": KIT_ROOT / "reference" / "three_card_poker"}
    folders.update({f"correct-{name}": FIXTURES / "correct" / name for name in CORRECT})
    folders.update({f"mutant-{name}": path
                    for name, path in mutants.build("three_card_poker", built).items()})
    folders.update({f"broken-{name}": FIXTURES / "broken" / name for name in BROKEN})
    folders.update({f"broken-{name}": path for name, path in
                    mutants.build("three_card_poker", built, "variants").items()})
    return folders


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Every fixture graded in one run: student name -> its report."""
    built = tmp_path_factory.mktemp("three-card-poker-mutants")
    found = [submissions.from_path(path, RUBRIC.main_file, name)
             for name, path in _folders(built).items()]
    return {report.student: report for report in plugin.run(RUBRIC, found, GRADER)}


@pytest.fixture(scope="module")
def graded(reports):
    """student name -> {item id: verdict}."""
    return verdicts_by_student(reports)


def _not_full(verdicts_by_item: dict, items: list[str]) -> dict[str, float]:
    """The items (of those given) without full marks, with their scores."""
    return {item: verdicts_by_item[item].score for item in items
            if not verdicts_by_item[item].passed}


# ----------------------------------------------------------------------------- the kit's rules
def test_rules_agree_with_the_handout_examples():
    scores = {(12, 7, 5): 3189, (13, 9, 2): 3474, (13, 4, 4): 19780, (9, 9, 2): 39314,
              (14, 14, 13): 61165, (4, 3, 2): 62514, (14, 13, 12): 65244, (2, 2, 2): 66082,
              (7, 4, 4): 18244, (11, 10, 9): 64425, (3, 3, 3): 66355}
    for hand, score in scores.items():
        assert rules.score_hand(list(hand)) == score, hand
    assert rules.hand_to_string([14, 9, 4]) == "A 9 4"
    assert rules.hand_to_string([4, 10, 14]) == "4 X A"
    assert not rules.has_straight([14, 2, 3]) and not rules.has_straight([13, 14, 2])
    assert rules.has_straight([8, 9, 7]) and not rules.has_pair([8, 8, 8])
    assert rules.dealer_plays([12, 7, 5]) and rules.dealer_plays([7, 7, 2])
    assert not rules.dealer_plays([11, 9, 4])
    assert len(rules.ordered_hands()) == 13 ** 3 and len(rules.sorted_hands()) == 455


def test_scenarios_reach_every_branch_of_a_round():
    points = [scenario.points for scenario in rounds.SCENARIOS]
    assert set(points) == {-10, 10, 20, -20}
    assert any(sorted(scenario.player) == sorted(scenario.dealer or ())
               for scenario in rounds.SCENARIOS)
    for plan in game.PLANS:
        assert len(set(plan.totals())) == len(plan.totals()), plan.name


def test_a_wrong_case_never_earns_full_marks():
    assert fraction_right(2197, 2197) == 1.0
    assert fraction_right(2196, 2197) == 0.9
    assert fraction_right(1, 3) == 0.3
    assert fraction_right(0, 5) == 0.0


def test_the_graders_own_lines_fit_in_100_columns():
    for path in sorted(GRADER.glob("*.py")) + [Path(__file__)]:
        assert readability.measure({path.name: path}).long_lines == [], path.name


# ----------------------------------------------------------------------------- grading
@pytest.mark.parametrize("name", ["reference"] + [f"correct-{name}" for name in CORRECT
                                                  if name not in AT_IMPORT])
def test_correct_solutions_get_full_marks(graded, name):
    assert _not_full(graded[name], AUTOMATIC) == {}
    assert graded[name]["readability"].score >= 0
    if name == "reference":
        assert graded[name]["readability"].passed


@pytest.mark.parametrize("name", sorted(AT_IMPORT))
def test_a_game_at_import_costs_part_of_main_and_nothing_else(graded, reports, name):
    verdicts_by_item = graded[f"correct-{name}"]
    others = [item for item in AUTOMATIC if item != "main"]
    assert _not_full(verdicts_by_item, others) == {}
    main = verdicts_by_item["main"]
    assert main.score == AT_IMPORT_SHARE * main.item.points
    # the problem is said once, under main, naming every statement that ran at import
    lead = "When your file is imported, it already asks for input"
    assert [item for item, verdict in verdicts_by_item.items()
            if lead in item_text(verdict)] == ["main"]
    text = item_text(main)
    assert text.count(lead) == 1
    for line, statement in AT_IMPORT[name].items():
        assert f"line {line} ({statement}" in text, (line, statement)
    assert "What your file printed while it was imported" in text
    assert not any("imported" in note for note in reports[f"correct-{name}"].notes)


def test_a_game_at_import_without_main_is_judged_in_the_terminal(graded):
    text = item_text(graded["correct-loop_at_bottom"]["main"])
    assert "Your file has no function main()" in text
    assert "The game at the top level of your file was judged on the full games" in text
    assert "Play another round? (y/n) «n»" in text          # the game the import played


def test_a_statement_that_never_stops_is_skipped_in_a_fresh_process(graded):
    text = item_text(graded["correct-loop_ignores_eof"]["main"])
    assert "never stopped (it kept asking after the end of input" in text
    assert "until the grader stopped it" in text and "«end of input»" in text


@pytest.mark.parametrize("name", sorted(STUBBED))
def test_missing_testing_libraries_are_replaced_and_said_once(graded, reports, name):
    report = reports[f"correct-{name}"]
    said = [note for note in report.notes if "which the grader does not have" in note]
    assert len(said) == 1 and f"imports {STUBBED[name]}, which" in said[0]
    assert not any("does not have" in item_text(verdict) for verdict in graded[report.student]
                   .values())
    # a testing library changes no function; another library might: a TA looks at it
    assert bool(report.problems) == (name == "unknown_import")


@pytest.mark.parametrize("name", sorted(PASTED))
def test_a_stand_in_never_replaces_a_function_the_file_defines(graded, reports, name):
    """The course's modules (hands, poker) are stand-ins, but every name the file takes from
    them is its own definition: the note says so, no TA is needed, no item calls a function a
    stub."""
    report = reports[f"correct-{name}"]
    (said,) = [note for note in report.notes if "which the grader does not have" in note]
    assert f"Every name your file takes from them ({PASTED[name]}) is defined in your file " \
        "itself, so your own definitions were used" in said
    assert "return None" not in said and report.problems == []
    for verdict in graded[report.student].values():
        assert "template's stub" not in item_text(verdict)
        assert "returned None" not in item_text(verdict)


@pytest.mark.parametrize("mutant", sorted(MANIFEST))
def test_each_mutant_loses_exactly_its_item(graded, mutant):
    item = MANIFEST[mutant]["loses"]
    verdicts_by_item = graded[f"mutant-{mutant}"]
    assert verdicts_by_item[item].score < verdicts_by_item[item].item.points
    if "share" in MANIFEST[mutant]:
        points = verdicts_by_item[item].item.points
        assert verdicts_by_item[item].score == MANIFEST[mutant]["share"] * points
    others = [other for other in AUTOMATIC if other != item]
    assert _not_full(verdicts_by_item, others) == {}


def test_sorting_the_argument_in_place_counts_half(graded):
    text = item_text(graded["mutant-sort_in_place"]["sort_hand"])
    assert "the right cards in the right order for 2197 hands, but not as a new list" in text
    assert "sort_hand([2, 2, 3]) returned [3, 2, 2] and changed its argument to [3, 2, 2]" \
        in text
    # a new list, but the argument sorted first: the hands it changed count half, and the
    # feedback says what it did (it did return a new list), as the handout's marking scheme
    text = item_text(graded["mutant-sort_copy_after_sorting_argument"]["sort_hand"])
    assert "the right cards in the right order for 1742 hands as a new list, but it changed " \
        "the list it was given, which counts half" in text
    assert "not as a new list" not in text and "with 1326 of 2197 right" in text
    handout = (KIT_ROOT / "assignments" / "three_card_poker" / "handout.md").read_text()
    assert "changes the list it was given (for example with\n  `hand.sort()`) or returns " \
        "that same list instead of a new one, counts as half a right\n  hand." in handout
    text = item_text(graded["mutant-sort_returns_none"]["sort_hand"])
    assert "a wrong answer for 2197 of the 2197 hands" in text and "half" not in text


def test_feedback_names_the_smallest_failing_case_and_its_rule(graded):
    text = item_text(graded["mutant-ace_low_straight"]["has_straight"])
    assert "has_straight([2, 3, 14]) returned True" in text
    assert "An Ace counts only high in a straight: A 2 3 is not a straight" in text
    text = item_text(graded["mutant-score_base_10"]["score_hand"])
    assert "score_hand([2, 2, 2]) returned 16222" in text and "66082" in text
    text = item_text(graded["mutant-sort_ascending"]["play_round"])
    assert "kit's correct" in text


def test_main_feedback_shows_the_totals(graded):
    text = item_text(graded["mutant-total_not_accumulated"]["main"])
    assert "running total must be -10, but the program showed the total 10" in text
    assert "Total: 10" in text


def test_a_file_with_a_syntax_error_fails_every_automatic_item(graded):
    for item in AUTOMATIC:
        verdict = graded["broken-syntax_error"][item]
        assert verdict.score == 0, item
        text = item_text(verdict)
        assert "could not be imported" in text and "SyntaxError" in text, item


def test_an_error_at_import_hides_no_function(graded):
    verdicts_by_item = graded["broken-import_raises"]
    assert verdicts_by_item["hand_to_string"].passed      # defined after the failing line
    text = item_text(verdicts_by_item["main"])
    assert "line 3 (EXAMPLE = hand_to_string([14, 9, 4])) raised NameError" in text
    assert "Fix or remove the top-level statements that fail" in text
    for item in AUTOMATIC:
        if item != "hand_to_string":
            assert verdicts_by_item[item].score == 0, item
            assert f"Your file has no function named {item}." in item_text(verdicts_by_item[item])
        if item != "main":
            assert "NameError" not in item_text(verdicts_by_item[item]), item


def test_an_endless_loop_fails_only_its_own_item(graded):
    verdicts_by_item = graded["broken-has_pair_hangs"]
    assert verdicts_by_item["has_pair"].score == 0
    hang = item_text(verdicts_by_item["has_pair"])
    assert "has_pair([2, 2, 2]) did not return within 1 s" in hang
    others = [item for item in AUTOMATIC if item != "has_pair"]
    assert _not_full(verdicts_by_item, others) == {}


def test_the_command_line_grades_a_broken_file_with_exit_status_0(tmp_path):
    results = tmp_path / "results.json"
    command = [sys.executable, "-m", "graders", "grade", "three_card_poker",
               str(FIXTURES / "broken" / "syntax_error"), "--json", str(results),
               "--out", str(tmp_path / "reports")]
    finished = subprocess.run(command, cwd=KIT_ROOT, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    data = json.loads(results.read_text())
    assert data["score"] == 0 and data["max_score"] == RUBRIC.max_score
    assert all("could not" in test["output"] for test in data["tests"])


def test_a_yes_the_program_does_not_take_is_told_once(reports):
    """'y' asks the question again instead of playing a round: the feedback says that, once,
    and not the rounds missing after it (nor that the program played an extra round)."""
    verdict = next(v for v in reports["mutant-while_true_y_not_yes"].verdicts
                   if v.item.id == "main")
    text = item_text(verdict)
    assert text.count("After the answer 'y' the program did not play another round") == 1, text
    assert "played another round" not in text.replace("did not play another round", "")
    assert "round(s) to have been played" not in text


def test_each_answer_is_judged_on_what_it_did_itself(reports):
    """A program that takes 'y' but not 'YES': the forms it does not take are told, and its
    totals (right for the rounds it played) are not called wrong; a card game's transcript
    does not speak of dice."""
    verdict = next(v for v in reports["mutant-while_true_y_not_yes"].verdicts
                   if v.item.id == "main")
    assert "the final total printed must be" not in item_text(verdict)
    feedback = reports_module.feedback_markdown(reports["mutant-while_true_y_not_yes"])
    assert "Transcript («…» is what the grader typed)" in feedback
    assert "[dice: " not in feedback and "dice it loaded" not in feedback
    assert 0 < verdict.score < verdict.item.points
