"""Tests of the Poker Dice grader.

The reference and every correct project get full marks on every automatic item; each mutant of
the manifest loses exactly its item and keeps full marks on every other automatic item; broken
projects (an endless loop at import, in the game or in a predicate for one roll, a lone
project.py, a game that never starts, a circular import, a third-party menu library) are graded
without crashing the grader, within the time budget, and with feedback that names the real
cause. Everything is graded in one ``plugin.run`` call.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import mutants
from conftest import FIXTURES, KIT_ROOT, grade, objective
from graders.engine.judge import diagnose as engine_diagnose
from graders.engine.grading import plugin
from graders.engine.call import studenttests
from graders.engine.judge.rubric import Rubric
from graders.poker_dice import functions, helptext, rules, scenarios

POKER = FIXTURES / "poker_dice"
REFERENCE = KIT_ROOT / "reference" / "poker_dice"
MANIFEST = mutants.manifest("poker_dice")
CORRECT = sorted(folder.name for folder in (POKER / "correct").iterdir() if folder.is_dir())
# correct projects kept as patches of the reference (a choice the handout leaves open)
VARIANTS = sorted(path.stem for path in (POKER / "variants").glob("*.patch"))
BUDGET = 15.0


def _broken(root: Path) -> dict[str, Path]:
    """Projects made from the reference with a fatal fault (and one that tests the kit's
    predicate patching): name -> folder."""
    folders = {}

    def variant(name: str, source: Path, file: str, old: str, new: str) -> None:
        folder = root / name
        shutil.copytree(source, folder)
        text = (folder / file).read_text()
        assert old in text, f"{name}: {old!r} not found in {file}"
        (folder / file).write_text(text.replace(old, new, 1))
        folders[name] = folder

    variant("hang-import", REFERENCE, "project.py", "import sys\n",
            "import sys\nwhile True:\n    pass\n")
    variant("hang-game", REFERENCE, "project.py", "        answer = input(prompt).strip()\n",
            "        answer = input(prompt).strip()\n        while answer:\n            pass\n")
    variant("four-kind-never", POKER / "correct" / "count_dict", "project.py",
            'return count_shape(d) == [1, 4]', "return False")
    # a menu whose "start" never matches (input() gives a str): no die is ever rolled
    variant("never-starts", REFERENCE, "project.py",
            '    print("Welcome to Poker Dice! Run with --help to read the rules.")\n',
            '    print("Welcome to Poker Dice! Run with --help to read the rules.")\n'
            '    choice = ""\n    while choice != 1:\n        print("1 - start a game")\n'
            '        choice = input("Your choice: ").strip()\n')
    # dice.py takes a constant from project.py: `import project` finds project half-loaded
    variant("circular-import", REFERENCE, "dice.py", "import random\n",
            "import random\n\nfrom project import HAND_SIZE\n")
    variant("menu-library", REFERENCE, "project.py", "import sys\n",
            "import sys\n\nfrom simple_term_menu import TerminalMenu\n")
    # a correct is2Pair that waits 0.5 ms of real time per call (as on a very busy machine):
    # the 7776 calls take seconds of real time but almost no CPU time, and lose nothing
    variant("slow-clock", REFERENCE, "project.py",
            '    """Return True if d holds two different pairs and a fifth die unlike both."""\n',
            '    """Return True if d holds two different pairs and a fifth die unlike both."""\n'
            '    __import__("select").select([], [], [], 0.0005)\n')
    # is2Pair never returns for one roll: the sweep stops there and the item gets nothing
    variant("hang-two-pair", REFERENCE, "project.py",
            '    """Return True if d holds two different pairs and a fifth die unlike both."""\n',
            '    """Return True if d holds two different pairs and a fifth die unlike both."""\n'
            '    while list(d) == [1, 2, 1, 2, 3]:\n        pass\n')
    lone = root / "lone-project"
    lone.mkdir()
    shutil.copy2(REFERENCE / "project.py", lone / "project.py")
    folders["lone-project"] = lone
    return folders


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every submission graded in one run: name -> SubmissionReport."""
    folders = {"reference": REFERENCE}
    folders.update({f"correct-{name}": POKER / "correct" / name for name in CORRECT})
    folders["again-checks_table"] = POKER / "correct" / "checks_table"     # graded twice
    built = tmp_path_factory.mktemp("poker-dice-mutants")
    folders.update({f"mutant-{name}": path
                    for name, path in mutants.build("poker_dice", built).items()})
    folders.update({f"correct-{name}": path
                    for name, path in mutants.build("poker_dice", built, "variants").items()})
    folders.update(_broken(tmp_path_factory.mktemp("poker-dice-broken")))
    return grade("poker_dice", list(folders.values()), list(folders))


def _lost(report) -> dict[str, tuple[float, float]]:
    """The automatic items that did not get full marks."""
    return {item: marks for item, marks in objective(report).items() if marks[0] < marks[1]}


def _text(report, item: str) -> str:
    """Everything a student reads for one item."""
    verdict = next(v for v in report.verdicts if v.item.id == item)
    parts = []
    for check in verdict.checks:
        for detail in check.details:
            parts += [detail["message"], str(detail["expected"]), str(detail["actual"])]
        parts += check.notes
    return "\n".join(parts)


# ----------------------------------------------------------------------------- grading
def test_reference_gets_full_marks(graded):
    report = graded["reference"]
    assert report.score == report.rubric.max_score, _lost(report)
    assert not report.problems


@pytest.mark.parametrize("name", CORRECT + VARIANTS)
def test_correct_projects_get_full_automatic_marks(graded, name):
    report = graded[f"correct-{name}"]
    assert _lost(report) == {}
    assert not [p for p in report.problems if "grader error" in p]


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_each_mutant_loses_exactly_its_item(graded, name):
    report = graded[f"mutant-{name}"]
    loses = MANIFEST[name]["loses"]
    lost = _lost(report)
    if loses == "readability":
        assert lost == {}
        readability = next(v for v in report.verdicts if v.item.id == "readability")
        assert readability.score < readability.item.points
    else:
        assert set(lost) == {loses}, lost
    assert not [p for p in report.problems if "grader error" in p]


def test_grading_twice_gives_the_same_marks(graded):
    first, again = graded["correct-checks_table"], graded["again-checks_table"]
    marks = {verdict.item.id: verdict.score for verdict in first.verdicts}
    assert marks == {verdict.item.id: verdict.score for verdict in again.verdicts}


def test_feedback_names_the_smallest_wrong_roll(graded):
    text = _text(graded["mutant-two_pair_counts_three_kind"], "is2Pair")
    assert "is2Pair([1, 1, 1, 2, 3]) returned True, but the right answer is False" in text
    assert "3 of a Kind" in text


def test_calculate_score_is_judged_with_the_kits_predicates_when_that_is_better(graded):
    report = graded["four-kind-never"]
    lost = _lost(report)
    assert "is4ofAKind" in lost and "calculateScore" not in lost
    assert "kit's correct predicates" in _text(report, "calculateScore")


def test_student_tests_feedback_lists_the_bugs_not_caught(graded):
    text = _text(graded["four-kind-never"], "student-tests") + \
        _text(graded["mutant-two_trivial_tests"], "student-tests")
    assert "at least three test functions" in text


@pytest.mark.parametrize("name", ["hang-import", "hang-game", "lone-project"])
def test_broken_projects_are_graded_within_the_budget(graded, name):
    report = graded[name]
    # the budget counts CPU seconds; real time is bounded only by its safety net
    assert report.execution_time < plugin.Budget(BUDGET).wall_seconds
    assert not [p for p in report.problems if "grader error" in p]
    assert report.score < report.rubric.max_score


def test_an_endless_game_still_gets_its_function_marks(graded):
    lost = _lost(graded["hang-game"])
    assert set(lost) == {"game", "best-score", "magic8-award"}


def _all_text(report) -> str:
    """Everything a student reads, all items."""
    return "\n".join(_text(report, verdict.item.id) for verdict in report.verdicts)


def test_a_predicate_table_built_at_import_gets_the_kits_predicates(graded):
    for name in ("table_five_kind_checks_ends", "table_two_pair_any_pair"):
        text = _text(graded[f"mutant-{name}"], "calculateScore")
        assert "judged with the kit's correct predicates" in text, name
        assert "with your own it earned 0." in text, name


def test_a_game_that_never_starts_earns_no_game_marks(graded):
    report = graded["never-starts"]
    lost = _lost(report)
    assert lost["game"][0] == 0
    assert set(lost) == {"game", "best-score", "magic8-award"}
    text = _text(report, "game")
    assert "In none of the games did the program roll any dice: the game never started" in text
    assert any("game never started" in problem for problem in report.problems)
    assert "won after" not in _text(report, "best-score")


def test_best_score_says_how_many_hands_only_after_a_win(graded):
    assert "your game was won after 4 hands" in _text(graded["reference"], "best-score")
    assert "won after 6 hands" in _text(graded["mutant-plays_on_to_250"], "best-score")


def test_playing_on_past_the_goal_is_shown_in_words(graded):
    text = _text(graded["mutant-plays_on_to_250"], "game")
    assert "the game to end with a win after hand 4 (the purse reached $200" in text
    assert "but the program asked 'Play another hand? (y/n)' instead" in text
    assert "but the grader expected" not in _all_text(graded["mutant-plays_on_to_250"])
    text = _text(graded["mutant-plays_on_below_ante"], "game")
    assert "below the $10 ante: game over" in text and "the game should end here" in text


@pytest.mark.parametrize("name, cause, wrong", [
    ("circular-import", "circular import (project.py imports dice.py, which imports project.py)",
     "if __name__"),
    ("menu-library", "imports 'simple_term_menu'", "if __name__"),
])
def test_a_failed_import_names_its_real_cause(graded, name, cause, wrong):
    text = _all_text(graded[name])
    assert cause in text
    assert wrong not in text


def test_functions_are_still_graded_beside_a_missing_library(graded):
    report = graded["menu-library"]
    lost = _lost(report)
    assert "calculateScore" not in lost and "is2Pair" not in lost and "game" in lost
    assert "import simple_term_menu, which the grader does not have" in \
        _text(report, "calculateScore")
    assert any("simple_term_menu" in problem for problem in report.problems)


def test_sweeps_do_not_depend_on_real_time(graded):
    report = graded["slow-clock"]
    assert _lost(report) == {}
    assert "Right on all 7776 rolls." in _text(report, "is2Pair")


def test_a_function_that_hangs_on_one_roll_loses_its_item(graded):
    report = graded["hang-two-pair"]
    assert set(_lost(report)) == {"is2Pair"}
    assert objective(report)["is2Pair"][0] == 0
    text = _text(report, "is2Pair")
    assert "is2Pair([1, 2, 1, 2, 3]) did not return within" in text


# ----------------------------------------------------------------------------- pieces
def test_a_wrong_kind_of_answer_is_named():
    wrong = functions.judged("is2Pair", [1, 1, 2, 2, 3], {"v": 1, "t": "int"}, True, False)
    assert "must return a real bool" in wrong.got and wrong.expected == "True"
    assert "It is a 2 Pair" in wrong.why
    right = functions.judged("calculateScore", [1, 1, 2, 2, 3],
                             {"v": [5, "2 Pair"], "t": "tuple"}, (5, "2 Pair"), False)
    assert right is None
    listed = functions.judged("calculateScore", [1, 1, 2, 2, 3],
                              {"v": [5, "2 Pair"], "t": "list"}, (5, "2 Pair"), True)
    assert "must return a tuple" in listed.got and "Dice of Die objects" in listed.call


@pytest.mark.parametrize("error, says", [
    ('Traceback (most recent call last):\n  File "project.py", line 9, in <module>\n'
     '    import dice\n  File "dice.py", line 3, in <module>\n'
     '    from project import HAND_SIZE\n'
     "ImportError: cannot import name 'HAND_SIZE' from 'project' (project.py)",
     "circular import (project.py imports dice.py, which imports project.py)"),
    ('Traceback (most recent call last):\n  File "dice.py", line 2, in <module>\n'
     "    import colorama\nModuleNotFoundError: No module named 'colorama'",
     "imports 'colorama' (dice.py, line 2: import colorama), a module that is not installed"),
    ('Traceback (most recent call last):\n  File "project.py", line 3, in <module>\n'
     "    from magic8ball import Magic8\nModuleNotFoundError: No module named 'magic8ball'",
     "magic8ball.py is imported (project.py, line 3: from magic8ball import Magic8) but is not "
     "in the submission"),
    ('Traceback (most recent call last):\n  File "project.py", line 90, in <module>\n'
     '    main()\n  File "project.py", line 20, in main\n    name = input("Name? ")\n'
     "EOFError: EOF when reading a line", "main() is called at the top level"),
    ("computed for 1.5 CPU seconds without printing, asking or rolling anything",
     "Importing project.py did not finish"),
])
def test_import_problems_are_named(error, says):
    files = Rubric.load("poker_dice").files
    assert says in engine_diagnose.import_problem(error, "project.py", files)


def test_rolls_a_dice_class_cannot_build_are_left_out(tmp_path):
    """A Dice that refuses a six: calculateScore's Dice sweep leaves out every roll with a six
    (Dice's mark, not calculateScore's) and keeps why; the rest are judged as usual."""
    for name in ("project.py", "dice.py"):
        shutil.copy2(REFERENCE / name, tmp_path / name)
    dice = tmp_path / "dice.py"
    old = "        self.diceInSet.append(d)\n"
    assert old in dice.read_text()
    dice.write_text(dice.read_text().replace(old, "        if d.value == 6:\n"
                                             "            raise ValueError('no sixes')\n" + old))
    evidence = functions.Evidence()
    with functions.FunctionCalls(tmp_path / "project.py", tmp_path, module="project") as calls:
        found = functions.sweep(calls, "calculateScore/dice", evidence)
    assert found.total == 5 ** 5 and found.fraction == 1
    assert "no sixes" in evidence.skipped["calculateScore/dice"]


def test_kit_rules_follow_the_handout():
    assert rules.calculateScore([4, 4, 4, 4, 4]) == (35, "5 of a Kind")
    assert rules.calculateScore([2, 5, 2, 2, 2]) == (25, "4 of a Kind")
    assert rules.calculateScore([3, 1, 5, 2, 4]) == (20, "Straight")
    assert rules.calculateScore([6, 1, 6, 1, 6]) == (15, "Full House")
    assert rules.calculateScore([3, 6, 3, 1, 3]) == (10, "3 of a Kind")
    assert rules.calculateScore([5, 2, 2, 6, 5]) == (5, "2 Pair")
    assert rules.calculateScore([1, 2, 3, 4, 6]) == (0, "Nothing")
    assert len(rules.all_rolls()) == 7776
    assert not rules.is3ofAKind([3, 3, 3, 1, 1]) and not rules.is2Pair([6, 6, 6, 6, 1])
    assert rules.isvalidDice(" 1  4 ") and not rules.isvalidDice("6")
    with pytest.raises(ValueError):
        rules.isvalidDice("2,3")


def test_scenario_rolls_are_what_they_claim():
    for name, roll in scenarios.SAMPLE_ROLLS.items():
        assert rules.hand_name(roll) == name
    broke = next(game for game in scenarios.GAMES["game"] if game["name"] == "broke")
    rolls = [hand["first"] for hand in broke["hands"]]
    assert all(rules.hand_name(roll) == "Nothing" for roll in rolls[:-1])
    assert rules.hand_name(rolls[-1]) == "2 Pair" and len(rolls) == 10


def test_every_mutation_applies_to_the_reference():
    plan = studenttests.Plan.load(KIT_ROOT / "graders" / "poker_dice" / "student_tests.toml",
                                  REFERENCE)
    assert len(plan.mutations) == 7
    for mutation in plan.mutations:
        texts = plan.mutated(mutation)
        assert texts is not None, mutation.name
        original = (REFERENCE / mutation.file).read_text()
        assert texts[mutation.file] != original


@pytest.mark.parametrize("wording, kind", [
    ("Roll 2 of 3: dice to re-roll (e.g. 2 3 5), H=hold, Q=quit? ", scenarios.REROLL),
    ("Which dice do you want to roll again? (1-5 / H / Q) ", scenarios.REROLL),
    ("Your move: ", None),
    ("Play another hand? (y/n) ", scenarios.AGAIN),
    ("Please answer y or n: ", scenarios.AGAIN),
    ("Ask the Magic 8 ball a yes/no question: ", scenarios.ORACLE),
    ("Ask a yes or no question: ", scenarios.ORACLE),
])
def test_prompts_are_recognised_from_their_wording(wording, kind):
    assert scenarios.QUESTIONS.kind_of(wording) == kind


def test_the_handouts_instructions_mention_everything():
    handout = (KIT_ROOT / "assignments" / "poker_dice" / "handout.md").read_text()
    text = handout.split("This is the reference version:")[1].split("```")[1]
    assert helptext.missing_topics(text) == []
    assert "Full House with $15 on the same line" in helptext.missing_topics(
        text.replace("$15", "$ 1 5"))


def test_tests_that_find_the_students_own_bug_keep_their_marks(graded):
    """The student's tests fail on their unfinished is3ofAKind but pass on a correct project:
    they did their job; the bug costs is3ofAKind only, and the feedback says so."""
    report = graded["mutant-is3ofAKind_left_a_stub"]
    text = _text(report, "student-tests")
    assert "found a bug in your project" in text and "test_" in text
    assert next(v for v in report.verdicts if v.item.id == "student-tests").score == 3


def test_a_record_never_written_earns_no_best_score_marks(graded):
    """No BestScore.txt code at all: the set-ups where the file must stay as it was are no
    evidence of record-keeping (they earned 0.8 of 2 before)."""
    verdict = next(v for v in graded["mutant-best_score_not_written"].verdicts
                   if v.item.id == "best-score")
    assert verdict.score == 0
    assert "never wrote BestScore.txt" in _text(graded["mutant-best_score_not_written"],
                                                "best-score")
