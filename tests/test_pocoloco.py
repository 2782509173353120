"""The PocoLoco grader on the reference and on varied correct programs (one-defect mutants and
programs marked by a TA: test_pocoloco_defects.py, graded on another worker beside these).

A correct program must get full marks on every objective item (review items are measured and
confirmed by a TA, so they are not asserted here, except for the reference).
"""
from __future__ import annotations

import pytest

import mutants
from graders.pocoloco.judging import doubled_words, tie_order_rule
from graders.pocoloco.play import chips_allowed, classify

from conftest import FIXTURES, KIT_ROOT, grade, objective

POCO = FIXTURES / "pocoloco"
DEMO = KIT_ROOT / "demo_submissions" / "pocoloco"
# Correct programs: the fixtures, plus the four correct ones in the demo class folder
CORRECT = sorted(p for p in (POCO / "correct").iterdir() if (p / "a5.py").exists()) + [
    DEMO / "smithjane_12345_67890_a5.py", DEMO / "leekevin_LATE_23456_78901_a5-1.py",
    DEMO / "nguyenanh_34567_89012_a5.py", DEMO / "garciamaria_45678_90123_a5.py"]
# correct programs the grader cannot follow (docs/known-limits.md): they must reach a TA
FLAGGED = sorted((POCO / "flagged").iterdir())


def _name(path):
    """A fixture folder's name, or a demo submission's student name."""
    return path.name if path.is_dir() else path.name.split("_")[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The reference and the correct programs, in one pytest run of the grader."""
    variants = mutants.build("pocoloco", tmp_path_factory.mktemp("pocoloco-built"), "variants")
    paths = [KIT_ROOT / "reference" / "pocoloco"] + CORRECT + list(variants.values()) + FLAGGED
    names = ["reference"] + [f"correct-{_name(p)}" for p in CORRECT] + \
        [f"correct-{name}" for name in variants] + [f"flagged-{p.name}" for p in FLAGGED]
    return grade("pocoloco", paths, names)


def _lost(report):
    return {item: f"{got:g}/{full:g}" for item, (got, full) in objective(report).items()
            if got < full}


def test_reference_scores_full_marks(graded):
    report = graded["reference"]
    assert report.score == report.rubric.max_score, _lost(report)


VARIANTS = sorted(p.stem for p in (POCO / "variants").glob("*.patch"))


@pytest.mark.parametrize("program", [_name(p) for p in CORRECT] + VARIANTS)
def test_correct_program_gets_every_objective_mark(graded, program):
    report = graded[f"correct-{program}"]
    assert _lost(report) == {}, [c.messages for v in report.verdicts for c in v.checks
                                 if v.score < v.item.points and not v.item.review]


def test_grading_is_repeatable(graded):
    again = grade("pocoloco", [KIT_ROOT / "reference" / "pocoloco"], ["reference"])
    first = {v.item.id: (v.score, [c.messages for c in v.checks])
             for v in graded["reference"].verdicts}
    second = {v.item.id: (v.score, [c.messages for c in v.checks])
              for v in again["reference"].verdicts}
    assert first == second


def test_broken_demo_submissions_are_graded_with_reasons():
    demo = KIT_ROOT / "demo_submissions" / "pocoloco"
    files = {"syntax": demo / "brownsam_56789_01234_a5.py",
             "hang": demo / "taylorchris_67890_12345_a5.py",
             "crash": demo / "wongalex_78901_23456_a5.py"}
    reports = grade("pocoloco", list(files.values()), list(files))
    assert "could not start" in " ".join(reports["syntax"].notes)
    assert reports["syntax"].score < 6
    assert reports["hang"].problems and reports["crash"].problems
    assert "NameError" in " ".join(reports["crash"].notes)
    # what it earned before the crash still counts
    assert objective(reports["crash"])["setup"] == (1.0, 1.0)


def test_short_verbs_are_fine_function_names(graded):
    """Player.pay and Player.receive say what they do (the functions item, a review item,
    took half a mark for them: names under four letters were all called vague)."""
    verdict = next(v for v in graded["correct-player_class_tuple_ranks"].verdicts
                   if v.item.id == "functions")
    assert verdict.score == verdict.item.points, [c.messages for c in verdict.checks]


@pytest.mark.parametrize("wording, kind", [
    ("Roll again? (y/n, or type rules to see the rules) ", "roll"),
    ("Roll again? (yes/no/rules) ", "roll"),
    ("Would you like to read the rules first? (y/n) ", "rules"),
])
def test_a_roll_question_that_offers_the_rules_is_a_roll_question(wording, kind):
    """It was taken for the instructions question: the grader typed y at every one of them
    (roll-again lost its mark)."""
    assert classify(wording, "") == kind


@pytest.mark.parametrize("wording, kind", [("(r)oll or (s)tay? ", "roll"),
                                           ("[k]eep or [r]oll? ", "roll"),
                                           ("What's your name? ", "name")])
def test_a_key_letter_in_brackets_is_part_of_its_word(wording, kind):
    assert classify(wording, "") == kind


@pytest.mark.parametrize("wording", ["Stack size (1-100)? ", "Stack size? (pick 1-100) ",
                                     "Buy-in (1-100)? ", "How many chips each? "])
def test_the_starting_chips_question_in_other_words(wording):
    """'Stack size (1-100)?' was not taken for the chips question: the games were played with
    1 chip each, ended after Round 1, and items kept marks nothing had checked."""
    assert classify(wording, "") == "chips"


def test_a_chips_question_that_starts_like_a_generic_one_is_the_chips_question():
    """'Number of starting chips (normal game = 10):' starts like a generic 'Number:' and was
    read with the instructions above it, whose last lines spoke of rolls: the grader typed y
    (the ui item lost a mark for a roll question without its answers)."""
    wording = "Number of starting chips (normal game = 10): "
    context = ("* TIES: in a tie for the lowest roll the latest of them loses.\n"
               "* You can go below 0 chips if you owe more than you have.\n=====\n"
               "Enter your name: Quillon\n" + wording)
    assert classify(wording, context) == "chips"


def test_the_chips_typed_are_the_nearest_the_question_allows():
    """The game-over game wants 3 chips; "Enter starting chips (5-50): " gets 5."""
    assert chips_allowed("Enter starting chips (5-50): ", 3) == 5
    assert chips_allowed("Chips (at least 5): ", 3) == 5
    assert chips_allowed("How many chips? ", 3) == 3
    assert chips_allowed("Enter starting chips (5-50): ", 20) == 20


def test_an_animation_the_grader_cannot_follow_is_listed_for_a_ta(graded):
    """Frames of random faces printed each on a line of their own, drawn another way than the
    dice (random.randint(0, 5) beside randint(1, 6)), are taken for rolls: the score is not
    to be trusted, and the TA is told which items to check."""
    report = graded["flagged-animation_frames_on_lines"]
    assert any("more than one way" in problem and "randint(0, 5)" in problem
               for problem in report.problems), report.problems
    assert not any("more than one way" in problem for name, other in graded.items()
                   if not name.startswith("flagged-") for problem in other.problems)


@pytest.mark.parametrize("rule, way", [
    ("Tie-break: when players tie for the highest or the lowest roll, the one who went first in "
     "that round's order is chosen.", "first"),
    ("If there is a tie for the lowest roll, the tied player who rolled last is the loser.",
     "last"),
    # a preference: the one who rolled first is better, so the later one loses (not read)
    ("Ties: if two players tie, the one who rolled FIRST this round counts as the better roll.",
     None),
    ("If there is a tie for the lowest roll, the player who went first is safe.", None),
    ("Ties are broken at random among the tied players.", None),
    ("A tie for the highest roll goes to the tied player who rolled last; a tie for the lowest "
     "roll is lost by the tied player who rolled first.", "first"),
])
def test_the_order_rule_for_a_tie_for_the_lowest_roll_is_read_only_when_plain(rule, way):
    """Checked against the tied rounds of the 'ties' game (mutant
    one_game_dict_alphabetical_loser): only a plainly stated rule is held against the program."""
    assert tie_order_rule(rule) == way


def test_doubled_words_are_slips_but_a_noun_before_roll_off_is_english():
    """"players tied for the lowest roll roll off" cost ui half a mark as a doubled word."""
    assert doubled_words("Roll the the dice | Welcome to to PocoLoco") == ["the", "to"]
    assert doubled_words("tied for the highest or lowest roll roll off (one roll each)") == []
    assert doubled_words("I think that that is fair | Otto had had enough") == []
