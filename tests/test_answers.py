"""Answer forms chosen from prompt wording."""
import pytest

from graders.engine.drive import answers
from graders.engine.drive.answers import forms, options


@pytest.mark.parametrize("prompt, intent, first", [
    ("Roll again? (y/n) ", "yes", "y"),
    ("Roll again? (y/n) ", "no", "n"),
    ("Would you like to roll again? (yes/no): ", "yes", "yes"),
    ("[r]oll again or [s]top? ", "yes", "r"),
    ("[r]oll again or [s]top? ", "no", "s"),
    ("1) Roll again\n2) Stop\nChoose 1 or 2: ", "no", "2"),
    ("1) Roll again\n2) Stop\nChoose 1 or 2: ", "yes", "1"),
    ("Enter R to roll or H to hold: ", "no", "H"),
    ("Press Enter to roll...", "yes", ""),
    ("Roll again, Quillon? Enter y or n: ", "yes", "y"),
    ("Keep rolling? 'roll' or 'stop': ", "no", "stop"),
    ("Roll again?\nEnter 1 for yes, 2 for no: ", "no", "2"),
    ("Roll again (R) or stay (S)? ", "yes", "R"),
    ("Roll again (R) or stay (S)? ", "no", "S"),
    ("Lancer encore? (o/n) ", "yes", "o"),
    ("Roll again? (Enter = roll again, anything else = stop): ", "yes", ""),
    ("Roll again? (Enter = roll again, anything else = stop): ", "no", "n"),
    ("Enter to stop, r to roll: ", "no", ""),
    ("Enter to stop, r to roll: ", "yes", "r"),
    ("Which dice do you want to re-roll? (D1 D2 D3, ALL, or NONE to keep): ", "all-dice",
     "ALL"),
    ("Which dice do you want to re-roll? (D1 D2 D3, ALL, or NONE to keep): ", "no-dice",
     "NONE"),
])
def test_first_form(prompt, intent, first):
    assert forms(prompt, intent)[0] == first


def test_literal_text_is_typed_as_is():
    assert forms("What is your name? ", "Quillon") == ["Quillon"]


def test_other_forms_follow():
    assert forms("Again?", "yes")[:3] == ["y", "yes", "Y"]


def test_dice_and_plurals_above_a_numbered_question_are_not_its_answers():
    """The dice [2, 2, 4] printed above "(1 = yes, 2 = no)" do not take the 2's meaning away,
    and the plural "roll(s)" is no key 's' (both made the grader type 1 for no)."""
    prompt = ">>> Quillon, it's your turn! (max 3 roll(s))\nQuillon rolled [2, 2, 4] -> 8 " \
             "points\nRoll again? (1 = yes, 2 = no) "
    assert forms(prompt, "no")[0] == "2" and forms(prompt, "yes")[0] == "1"


@pytest.mark.parametrize("prompt", [
    "Quillon rolled [3, 4, 6]\n1) Roll again   2) Stop\nChoose 1 or 2: ",
    "[1] Roll again | [2] Stop\n> "])
def test_a_menu_on_one_line_offers_each_of_its_items(prompt):
    """"1) Roll again   2) Stop" over "Choose 1 or 2:": only the first item was read (its
    label ran on to "2"), the dice above gave the other numbers, and the grader typed 1 for
    no, then y, n, yes ... until the run was stopped (PocoLoco lost 3.5 marks)."""
    assert forms(prompt, "yes")[0] == "1" and forms(prompt, "no")[0] == "2"


def test_a_menu_item_may_hold_a_hyphenated_word():
    """Yahtzee: "1) Keep all   2) Re-roll some" read as "Re" for the second item."""
    prompt = "   3  3  1  5  6\n1) Keep all   2) Re-roll some\nChoose 1 or 2: "
    assert forms(prompt, "yes")[0] == "2" and forms(prompt, "no")[0] == "1"


def test_a_two_item_menu_with_one_answer_known_gives_the_other_for_the_other_intent():
    """Yahtzee: "[1] Score these  [2] Throw again" over "> ": 2 throws again (yes), so 1 is
    the no, though "Score these" says neither."""
    prompt = "[1] Score these  [2] Throw again\n> "
    assert forms(prompt, "yes")[0] == "2" and forms(prompt, "no")[0] == "1"


def test_a_dice_list_before_a_question_is_no_menu():
    assert forms("Dice: [3, 4, 6] Roll again? (y/n) ", "no")[0] == "n"


def test_numbered_choice_in_one_sentence():
    prompt = "Type 1 to roll again or 2 to keep your dice: "
    assert forms(prompt, "yes")[0] == "1" and forms(prompt, "no")[0] == "2"


@pytest.mark.parametrize("prompt, shown", [
    ("roll again? y/n ", ["y", "n"]),
    ("Hold/Roll? ", ["Hold", "Roll"]),
    ("keep rolling? yes/no: ", ["yes", "no"]),
    ("Your roll 1/3. Continue? ", []),              # a count, not answers
    ("Chips won and/or lost: ", []),                # neither word is a yes or a no
])
def test_answers_offered_without_brackets(prompt, shown):
    """A question that offers "y/n" without brackets shows its answers too."""
    assert [option.text for option in options(prompt)] == shown


@pytest.mark.parametrize("prompt, yes, no", [
    ("¿Quieres ver las instrucciones? (s/n): ", "s", "n"),
    ("Por favor, answer s (sí) or n (no): ", "s", "n"),
    ("Jogar de novo? (s/n) ", "s", "n"),
    ("Roll again? [r]oll or [s]top: ", "r", "s"),      # beside a stop, s is the stop
])
def test_s_beside_n_is_a_yes_in_spanish_and_portuguese(prompt, yes, no):
    assert forms(prompt, "yes")[0] == yes
    assert forms(prompt, "no")[0] == no


@pytest.mark.parametrize("wording, stop", [
    ("Do you want to hold? (y/n) ", True), ("Hold? [Y/n] ", True),
    ("Bank your points? (y/n) ", True), ("Would you like to stop? (y/n) ", True),
    ("Pass the dice? (yes/no) ", True), ("Keep going? (yes/no) ", False),
    ("Roll again? (y/n) ", False), ("(r)oll or (h)old? ", False),
    ("Continue your turn? (y/n) ", False), ("1 = roll, 2 = hold: ", False),
    ("Keep this roll? (y/n) ", True)])
def test_a_question_about_stopping_is_told_from_one_about_going_on(wording, stop):
    """Where yes means stop ("Bank your points?"), an answer meaning "roll on" is a no."""
    assert answers.asks_to_stop(wording) == stop


def test_a_key_then_enter_is_an_option():
    """'Press Enter to roll, or type h and Enter to hold': h holds, Enter rolls."""
    prompt = "Press Enter to roll, or type h and Enter to hold: "
    assert answers.forms(prompt, "no")[0] == "h" and answers.forms(prompt, "yes")[0] == ""


def test_an_indented_menu_and_keys_with_words_in_brackets_are_options():
    """'    1 - Roll again' under 'What next?', below dice labelled '[2] [3] [4]'; 'Type 1 (roll
    again) or 2 (keep)'."""
    menu = "   [2]   [3]   [4]\n  What next?\n    1 - Roll again\n    2 - Keep this roll\n" \
           "  Choose 1 or 2: "
    assert forms(menu, "yes")[0] == "1" and forms(menu, "no")[0] == "2"
    again = "That's not a choice. Type 1 (roll again) or 2 (keep): "
    assert forms(again, "yes")[0] == "1" and forms(again, "no")[0] == "2"
