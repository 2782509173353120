"""The engine's readers of dice shown as digits (``readers.dice_rows``) and of printed score
tables (``readers.score_table``)."""
from __future__ import annotations

import re

import pytest

from graders.engine.drive.readers import dice_rows, score_table
from graders.engine.drive.readers.dice import find_dice, learn_pictures

MENU = re.compile(r"\b(Twos|Threes|Chance)\b", re.I)


@pytest.mark.parametrize("text, expected, any_order, read", [
    ("Throw 2 of 3\n a  b  c  d  e\n[3, 3, 5, 6, 4]\n", [3, 3, 5, 6, 4], False, [3, 3, 5, 6, 4]),
    ("a:5  b:6  c:6  d:3  e:1\n", [5, 6, 6, 3, 1], False, [5, 6, 6, 3, 1]),
    ("a:5 b:6 c:6 d:3 e:1\n", None, False, [5, 6, 6, 3, 1]),
    ("Turn 2\n  a) 1\n  b) 4\n  c) 1\n  d) 6\n  e) 2\n", [1, 4, 1, 6, 2], True, [1, 4, 1, 6, 2]),
    ("Throw 3 of 3\n 3 3 3 3 1\n", [3, 3, 3, 3, 3], False, [3, 3, 3, 3, 1]),
    ("| 2 | 5 | 2 | 3 | 2 |\n", [2, 3, 2, 5, 2], True, [2, 5, 2, 3, 2]),
    ("| 2 | 5 | 2 | 3 | 2 |\n", [2, 3, 2, 5, 2], False, [2, 5, 2, 3, 2]),
    ("Twos = 6\nRound 4\n| 2 | 6 | 5 | 3 | 3 |\n1 Ones\n", [3, 3, 5, 6, 2], True,
     [2, 6, 5, 3, 3]),
    ("Choose where to score:\n  [2] Twos\n  [3] Threes\n", [2, 2, 2, 2, 2], False, None),
    ("Round 12 of 13, 2.5 s\n", None, False, None),
])
def test_dice_are_read_from_every_display(text, expected, any_order, read):
    assert dice_rows.read_dice(text, expected, any_order=any_order, skip=MENU) == read


def test_the_last_display_counts_and_three_dice_can_be_read():
    text = "[1, 2, 3, 4, 5]\nsorted: [5, 4, 3, 2, 1]\n"
    assert dice_rows.read_dice(text, [1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5]
    assert dice_rows.read_dice(text, [5, 4, 3, 2, 6], any_order=True) == [5, 4, 3, 2, 1]
    assert dice_rows.read_dice(text, [3, 2, 1, 5, 4], any_order=True) == [5, 4, 3, 2, 1]
    assert dice_rows.read_dice("You rolled 4 - 4 - 6\n", count=3) == [4, 4, 6]


def test_big_dice_drawn_as_text_are_read_when_they_show_the_dice_expected():
    art = "\n".join(["+-----+ +-----+ +-----+ +-----+ +-----+",
                     "|     | | o   | | o   | | o o | | o o |",
                     "|  o  | |     | |  o  | |     | |  o  |",
                     "|     | |   o | |   o | | o o | | o o |",
                     "+-----+ +-----+ +-----+ +-----+ +-----+"])
    assert dice_rows.read_dice(art, [1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5]


def test_letters_name_positions_in_any_case_with_repeats_and_junk_ignored():
    assert dice_rows.letters_named("aCe") == {0, 2, 4}
    assert dice_rows.letters_named("x-a-b, A!") == {0, 1}
    assert dice_rows.letters_named("") == set()
    assert dice_rows.letters_named("12", letters="123") == {0, 1}


def test_letters_follow_the_values_to_where_they_are_displayed():
    shown = [2, 6, 5, 3, 3]
    moved = dice_rows.relabel("a, B, c", [3, 3, 5, 6, 2], shown)
    assert moved in ("d, E, c", "e, D, c")
    assert sorted(shown[at] for at in dice_rows.letters_named(moved)) == [3, 3, 5]
    # a sorted display: the kept 4s are wherever the program shows them
    assert dice_rows.letters_named(dice_rows.relabel("ACE", [4, 1, 4, 2, 4],
                                                     [1, 2, 4, 4, 4])) == {2, 3, 4}
    assert dice_rows.relabel("XYZ ab", [4, 4, 1, 2, 3], [1, 2, 3, 4, 4]) == "XYZ de"
    assert dice_rows.relabel("ccbbaa", [4, 4, 4, 1, 2], [4, 4, 4, 1, 2]) == "ccbbaa"
    assert dice_rows.relabel("ab", [1, 1, 1, 1, 1], [1, 1, 2, 1, 1]) == "ab"


def test_a_score_table_is_read_in_every_layout():
    text = ("Chance: 26 points.\nOnes 3 (of 5) [1, 6, 1, 6, 1]\n| Yahtzee         |  50 |\n"
            "Full  house: 25\nChance: 27\nBonus (63+): 35\nsum upper section: 63\n"
            "Yahtzee bonus = 200\nLower section 207\nGrand total: 505\n")
    rows = score_table.rows(text, ["Ones", "Twos", "Yahtzee", "Full House", "Chance"],
                            avoid={"Yahtzee": "bonus"})
    assert rows == {"Ones": 3, "Yahtzee": 50, "Full House": 25, "Chance": 27}
    totals = score_table.totals(text, {"upper sum": (r"upper", r"bonus"),
                                       "upper bonus": (r"bonus", r"yahtzee"),
                                       "final score": (r"total", r"^$"),
                                       "lower sum": (r"lower", r"bonus"),
                                       "missing": (r"grand prize", r"^$")})
    assert totals == {"upper sum": 63, "upper bonus": 35, "lower sum": 207,
                      "final score": 505}


@pytest.mark.parametrize("text, total", [
    ("Total: 10\nRound: +20, total now -20.", -20), ("Total after round 3: 30", 30),
    ("Round 2: +20 | Total: 30 (3 rounds)", 30), ("Your total is now: -10", -10),
    ("Total: 10\nRunning total:\n", 10)])
def test_a_total_is_read_from_its_word_on(text, total):
    """The round's own points before the word do not count (a line 'Round: +20, total now
    -20' was read as 20)."""
    assert score_table.totals(text, {"total": ("total", "(?!)")}) == {"total": total}


@pytest.mark.parametrize("text, total", [
    ("Total: 10\nRound: +20, total now -20.", -20), ("Total: was 20, now 30", 30),
    ("Round 3 TOTAL -> 30", 30), ("Total: 10\nRunning total:\n", None), ("no sum", None)])
def test_the_last_number_on_the_last_line_with_the_word(text, total):
    """Three-card Poker's handout: the running total is the last number on its line."""
    assert score_table.last_number(text, "total") == total


def test_a_name_is_a_whole_word():
    assert score_table.rows("Sixes 12\nSixteen 16\n", ["Six"]) == {}
    assert score_table.name_pattern("Three Of A Kind").search("three  of a kind: 13")


@pytest.mark.parametrize("text", [
    "1:3  2:3  3:1  4:5  5:6\n", "Die 1: 3\nDie 2: 3\nDie 3: 1\nDie 4: 5\nDie 5: 6\n",
    "(1) 3  (2) 3  (3) 1  (4) 5  (5) 6\n",
    "3 (die 1)  3 (die 2)  1 (die 3)  5 (die 4)  6 (die 5)\n",
    "Die:  1  2  3  4  5\nFace: 3  3  1  5  6\n", "  3  3  1  5  6\n  1  2  3  4  5\n"])
def test_dice_numbered_by_their_positions_are_read_without_the_numbers(text):
    """Students number their dice as often as they letter them: the positions 1 to 5 are not
    faces (a numbered display was read as 1 4 5 5 6, and every score judged on that)."""
    assert dice_rows.read_dice(text, [3, 3, 1, 5, 6], any_order=True) == [3, 3, 1, 5, 6]
    assert dice_rows.read_dice(text) == [3, 3, 1, 5, 6]


def test_a_straight_shown_twice_is_not_taken_for_positions():
    assert dice_rows.read_dice("1 2 3 4 5\n1 2 3 4 5\n") == [1, 2, 3, 4, 5]
    assert dice_rows.read_dice("Die 1: 1\nDie 2: 2\nDie 3: 3\nDie 4: 4\nDie 5: 5\n") == \
        [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------- learned pictures
WIDE_PIPS = {1: ["          ", "    @@    ", "          "],
             2: ["@@        ", "          ", "        @@"],
             3: ["@@        ", "    @@    ", "        @@"],
             4: ["@@      @@", "          ", "@@      @@"],
             5: ["@@      @@", "    @@    ", "@@      @@"],
             6: ["@@  @@  @@", "          ", "@@  @@  @@"]}


def _wide(faces):
    """Dice whose pips are two characters wide, with a row of spaces where a die is empty."""
    top = "   ".join(".-" + "-" * 10 + "-." for _ in faces)
    rows = ["   ".join("  " + WIDE_PIPS[f][row] + "  " for f in faces) for row in range(3)]
    return "\n".join([f"You rolled {len(faces)} dice:", top] + rows + [top, "Nice roll!"])


ROLLS = [[2, 3, 5], [1, 5, 6], [4, 4, 6], [6, 2, 1], [3, 3, 3]]


def test_dice_of_a_shape_never_seen_are_learned_from_the_faces_loaded():
    learned = learn_pictures([(faces, _wide(faces)) for faces in ROLLS])
    assert learned.consistent
    assert all(learned.shows(i) for i in range(len(ROLLS)))
    assert learned.found_in(_wide([5, 1, 2]), [5, 1, 2])
    assert not learned.found_in(_wide([5, 1, 2]), [5, 1, 3])
    assert find_dice(_wide([2, 3, 5]), [2, 3, 5]) is None     # no known pattern reads them


def test_digits_in_boxes_or_pictures_that_do_not_follow_the_faces_are_not_big_dice():
    boxed = [(f, "\n".join(["  ".join("+---+" for _ in f), "  ".join(f"| {x} |" for x in f),
                            "  ".join("+---+" for _ in f)])) for f in ROLLS]
    assert not learn_pictures(boxed).consistent
    shuffled = [(faces, _wide(list(reversed(faces)))) for faces in ROLLS]
    assert not learn_pictures(shuffled).consistent
