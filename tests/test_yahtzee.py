"""Tests of the Yahtzee grader.

The reference and every correct program get full marks on every automatic item; each mutant
loses exactly the item its manifest names; the template does nothing of its own; the games
read the dice of every display and load the planned dice whatever order a program throws
them in. All submissions are graded in one ``plugin.run`` call (once per test session).
"""
from __future__ import annotations

import tomllib

import pytest

import mutants

from conftest import item_text, not_full, verdicts_by_student

from graders.engine.drive import dicegame
from graders.engine.grading import plugin, submissions
from graders.engine.drive.readers import prompts, score_table
from graders.engine.judge.rubric import KIT_ROOT, Rubric
from graders.yahtzee import functions, games, rules

FIXTURES = KIT_ROOT / "tests" / "fixtures" / "yahtzee"
GRADER = KIT_ROOT / "graders" / "yahtzee"
REFERENCE = KIT_ROOT / "reference" / "yahtzee"
TEMPLATE = KIT_ROOT / "student_template" / "yahtzee"
RUBRIC = Rubric.load("yahtzee")
MANIFEST = mutants.manifest("yahtzee")
CORRECT = sorted(folder.name for folder in (FIXTURES / "correct").iterdir() if folder.is_dir())
# correct programs kept as patches of the reference (a choice the handout leaves open)
VARIANTS = sorted(path.stem for path in (FIXTURES / "variants").glob("*.patch"))
AUTOMATIC = [item.id for item in RUBRIC.items if not item.review]


@pytest.fixture(scope="session")
def reports(tmp_path_factory):
    """Every fixture graded in one run: student name -> its report."""
    built = tmp_path_factory.mktemp("yahtzee-mutants")
    folders = {"reference": REFERENCE, "template": TEMPLATE,
               "broken-syntax_error": FIXTURES / "broken" / "syntax_error"}
    folders.update({f"correct-{name}": FIXTURES / "correct" / name for name in CORRECT})
    folders.update({f"mutant-{name}": path
                    for name, path in mutants.build("yahtzee", built).items()})
    folders.update({f"correct-{name}": path
                    for name, path in mutants.build("yahtzee", built, "variants").items()})
    found = [submissions.from_path(path, RUBRIC.main_file, name)
             for name, path in folders.items()]
    return {report.student: report for report in plugin.run(RUBRIC, found, GRADER)}


@pytest.fixture(scope="session")
def graded(reports):
    """student name -> {item id: verdict}."""
    return verdicts_by_student(reports)


# ----------------------------------------------------------------------------- grading
@pytest.mark.parametrize("name", ["reference"] + [f"correct-{name}"
                                                  for name in CORRECT + VARIANTS])
def test_correct_programs_get_full_marks(graded, reports, name):
    assert not_full(graded[name], AUTOMATIC) == {}
    assert all(graded[name][item].judged for item in AUTOMATIC)
    assert not reports[name].problems
    if name == "reference":
        assert graded[name]["readability"].passed


def test_there_are_enough_correct_programs_and_mutants():
    assert len(CORRECT) >= 4
    assert len(MANIFEST) >= 15
    assert {item for entry in MANIFEST.values() for item in _lost_items(entry)} == \
        set(AUTOMATIC)


def _lost_items(entry: dict) -> list[str]:
    """What a mutant must lose: one item, or (a crash partway) the items it never showed."""
    return entry["loses"] if isinstance(entry["loses"], list) else [entry["loses"]]


@pytest.mark.parametrize("mutant", sorted(MANIFEST))
def test_each_mutant_loses_exactly_its_item(graded, mutant):
    lost = _lost_items(MANIFEST[mutant])
    verdicts = graded[f"mutant-{mutant}"]
    for item in lost:
        assert verdicts[item].judged and verdicts[item].score < verdicts[item].item.points, item
    assert not_full(verdicts, [other for other in AUTOMATIC if other not in lost]) == {}


def test_the_template_scores_nothing_automatic(graded):
    assert all(graded["template"][item].score == 0 for item in AUTOMATIC)
    assert graded["template"]["readability"].score == 0


def test_a_file_with_a_syntax_error_fails_every_automatic_item(graded):
    for item in AUTOMATIC:
        verdict = graded["broken-syntax_error"][item]
        assert verdict.score == 0, item
        assert "could not be imported" in item_text(verdict), item


def test_feedback_names_the_smallest_wrong_throw(graded):
    text = item_text(graded["mutant-three_of_a_kind_exactly_three"]["of-a-kind"])
    assert "is_three_of_a_kind([1, 1, 1, 1, 1]) returned False" in text
    assert "7776" in text
    text = item_text(graded["mutant-small_straight_sorted_start"]["straights"])
    assert "is_small_straight([1, 1, 2, 3, 4]) returned False" in text


def test_sweeps_right_everywhere_are_named_once(graded):
    """One line names every sweep that was right (not one bare line per sweep), and a wrong
    sweep's item still names the ones that were right."""
    text = item_text(graded["reference"]["upper-section"])
    assert text.count("Right on all") == 1, text
    assert "Right on all 7776 throws: calculate_score for 'Ones', 'Twos', 'Threes', 'Fours', " \
        "'Fives', 'Sixes' and 'Chance'." in text
    text = item_text(graded["mutant-three_of_a_kind_exactly_three"]["of-a-kind"])
    assert "Right on all 7776 throws: is_four_of_a_kind, is_yahtzee and calculate_score for " \
        "'Four Of A Kind' and 'Yahtzee'." in text, text
    assert "The one thing checked in the games was right." in \
        item_text(graded["reference"]["full-house"])


def test_games_feedback_shows_the_round_and_the_transcript(graded):
    text = item_text(graded["mutant-upper_bonus_above_63"]["upper-bonus"])
    assert "the upper bonus with 63 in the upper section" in text and "Upper bonus" in text
    text = item_text(graded["mutant-keep_case_sensitive"]["keep-dice"])
    assert "«ABCD» typed at the keep question" in text and "[dice:" in text
    text = item_text(graded["mutant-used_option_taken_again"]["options-used-up"])
    assert "«12» typed at the option question" in text and "refused, and asked again" in text


def test_a_broken_helper_is_charged_to_its_own_item_only(graded):
    """is_full_house is wrong; the joker's cases are judged with the kit's helpers."""
    verdicts_by_item = graded["mutant-full_house_two_numbers"]
    assert verdicts_by_item["joker"].passed
    assert "the kit's is_ functions" in item_text(verdicts_by_item["joker"])


# ----------------------------------------------------------------------------- reading games
@pytest.mark.parametrize("text, expected, read", [
    ("Throw 2 of 3\n a  b  c  d  e\n[3, 3, 5, 6, 4]\n", [3, 3, 5, 6, 4], [3, 3, 5, 6, 4]),
    ("(a) 1 (b) 2 (c) 4 (d) 4 (e) 4\n", [4, 1, 4, 2, 4], [1, 2, 4, 4, 4]),
    ("a:5  b:6  c:6  d:3  e:1\n", [5, 6, 6, 3, 1], [5, 6, 6, 3, 1]),
    ("Twos = 6\nRound 4\n| 2 | 6 | 5 | 3 | 3 |\n1 Ones\n", [3, 3, 5, 6, 2], [2, 6, 5, 3, 3]),
    ("Choose where to score:\n  [2] Twos 4\n  [3] Threes 3\n  [13] Chance 9\n", [2] * 5, None),
])
def test_dice_are_read_from_every_display_but_menus(text, expected, read):
    game = dicegame.DiceGame(games.BONUS_GAME, games.WORDS, None, None)
    game.text = text
    assert game.shown(expected) == read


def test_keeping_dice_follows_the_plan():
    assert dicegame.after_keep([4, 4, 4, 1, 2], "ccbbaa", (5,)) == [4, 4, 4, 5, 5]
    assert dicegame.after_keep([4, 4, 4, 1, 2], "", (1, 2, 3, 4, 5)) == [1, 2, 3, 4, 5]
    assert dicegame.after_keep([4, 4, 4, 1, 2], "x-A-e!", (6,)) == [4, 6, 6, 6, 2]


def test_prompts_are_told_apart_by_wording_menu_and_state():
    def kind_of(asked, expected, menu=False):
        return prompts.kind_of(asked, dicegame.TIERS, expected, "option" if menu else None)
    assert kind_of("Type letter(s) of dice to keep and press ENTER >>>", "option") == "keep"
    assert kind_of("enter number of option to play >>>", "keep") == "option"
    assert kind_of("press ENTER to start the next game round >>>", "keep") == "enter"
    # a pause that names the options is still a pause; a question about them is not
    assert kind_of("Press Enter to see the options", "option") == "enter"
    assert kind_of("Press Enter to keep them all, or type the letters: ", "keep") == "keep"
    assert kind_of("Press Enter, then type the number of an option: ", "option") == "option"
    assert kind_of("Your choice: ", "keep", menu=True) == "option"
    assert kind_of("> ", "keep") == "keep"
    assert kind_of("Your name, and the letters to keep? ", "option") == "keep"
    assert kind_of("Player name? Press Enter for Sam ", "keep") == "name"
    for asked in ("Roll again? (y/n) ", "Do you want to re-roll?", "Throw again [Y/N]: ",
                  "Would you like to roll again? yes or no: "):
        assert kind_of(asked, "keep") == "reroll", asked
    for asked in ("Which dice do you want to re-roll? ", "Dice to re-roll (e.g. ace): ",
                  "Letters of the dice to roll again: ",
                  "Re-roll which dice (letters, empty = none)? ",
                  "Roll again which dice? Type letters: "):
        assert kind_of(asked, "option") == "keep", asked
    assert kind_of("Keep which dice, or choose an option number? ", "option") == "option"


def test_plans_are_read_from_their_rows():
    plan = dicegame.plan("p", [([1, 2, 3, 4, 5], ("ab", [6]), ("", [1, 1, 2, 2, 3]), 7),
                               ([6] * 5, ("abcde", []), 12, ["x", "0"])])
    assert plan.rounds[0] == dicegame.Round((1, 2, 3, 4, 5), (("ab", (6,)),
                                            ("", (1, 1, 2, 2, 3))), 7, ())
    assert plan.rounds[1] == dicegame.Round((6,) * 5, (("abcde", ()),), 12, ("x", "0"))


def test_the_final_table_is_read_in_every_layout():
    text = ("Chance: 26 points.\nOnes 3 (of 5) [1, 6, 1, 6, 1]\n| Yahtzee         |  50 |\n"
            "Chance .... 26\nBonus (63+): 35\nsum upper section: 63\nYahtzee bonus = 200\n"
            "Lower section 207\nGrand total: 505\n")
    assert score_table.rows(text, rules.OPTIONS, avoid={"Yahtzee": "bonus"}) == \
        {"Ones": 3, "Yahtzee": 50, "Chance": 26}
    assert score_table.totals(text, games.SECTIONS) == {
        "upper sum": 63, "upper bonus": 35, "lower sum": 207, "Yahtzee bonus": 200,
        "final score": 505}


def test_the_plans_test_what_the_handout_promises():
    """Game one: exactly 63 above, a Yahtzee of 50 then two more, jokers; game two: 62
    above, a Yahtzee box with 0 and a Yahtzee after it, used options typed."""
    finals = {}
    for plan in games.PLANS.values():
        history = {}
        for planned in plan.rounds:
            dice = list(planned.first)
            for typed, faces in planned.keeps:
                dice = dicegame.after_keep(dice, typed, faces)
            option = rules.OPTIONS[planned.option - 1]
            assert option not in history
            history[option] = (rules.joker_score(dice, option, history), dice)
        finals[plan.name] = rules.final_scores(history)
        if plan is games.BONUS_GAME:            # the whole game of the hidden items' cases
            named = tomllib.loads(functions.CASES.read_text())["histories"]
            assert functions.history("game one", named) == history
    assert finals[games.BONUS_GAME.name] == (63, 35, 207, 200)
    assert finals[games.ZERO_GAME.name] == (62, 0, 118, 0)


def test_the_hidden_cases_hold_what_their_reasons_say():
    """Each joker case applies the joker exactly when its reason says so."""
    cases = functions.chosen_cases("joker")
    assert len(cases) >= 30
    for case in cases:
        applies = case.why.endswith("the joker applies.")
        assert (case.expected == rules.FIXED[case.call.split("'")[1]]) == applies, case.call
    # 62, 63, 64, only lower boxes, 7, 105 (far from 63 either way: a sum compared as text
    # gives the wrong answer for both), a whole game with 63
    assert [case.expected.wanted for case in functions.chosen_cases("upper-bonus")] == \
        [((1, 0),), ((1, 35),), ((1, 35),), ((1, 0),), ((1, 0),), ((1, 35),), ((1, 35),)]


def test_kit_rules_agree_with_the_handout_examples():
    assert rules.score([1, 1, 4, 1, 6], "Ones") == 3
    assert rules.score([2, 3, 4, 5, 2], "Small Straight") == 30
    assert rules.score([2, 3, 4, 5, 2], "Large Straight") == 0
    assert rules.score([4] * 5, "Full House") == rules.joker_score([4] * 5, "Full House") == 0
    assert rules.score([1, 2, 3, 4, 6], "Chance") == 16
    used = {"Yahtzee": (50, [3] * 5), "Fours": (12, [4, 4, 4, 5, 5])}
    assert rules.joker_score([4] * 5, "Full House", used) == 25
    assert rules.joker_score([4] * 5, "Full House", {"Yahtzee": (50, [3] * 5)}) == 0
    assert len(rules.all_rolls()) == 7776
