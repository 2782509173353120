"""Transcript readers: boxes, big dice, standings."""
from graders.engine.drive.readers.boxes import find_boxed
from graders.engine.drive.readers.dice import find_dice
from graders.engine.drive.readers.standings import last_standings, numbers_by_name
from graders.engine.drive.transcript import clean


def _box(text, n=1):
    found = [b for _, b in find_boxed(text, rf"round\s*{n}\b") if b]
    return found[0] if found else None


def test_fitting_boxes_in_several_styles():
    for text in ("+---------+\n| Round 1 |\n+---------+",
                 "  ╔═════════╗\n  ║ Round 1 ║\n  ╚═════════╝",
                 "***********\n* Round 1 *\n***********",
                 " _________\n| Round 1 |\n|_________|",
                 " ---------\n| Round 1 |\n ---------"):
        assert _box(text).fits, text


def test_boxes_that_do_not_fit():
    assert not _box("+--------+\n| Round 1 |\n+--------+").fits
    assert not _box("+----------------+\n| Round 10 |\n+----------------+", 10).fits
    assert _box("Round 1") is None


def test_box_padding_must_be_even_unless_narrow():
    assert _box("=" * 13 + "\n|  Round 1  |\n" + "=" * 13).fits
    assert _box("*" * 12 + "\n* Round 1  *\n" + "*" * 12).fits       # centred text
    assert not _box("=" * 14 + "\n|  Round 1   |\n" + "=" * 14).fits  # 2 before, 3 after


ART = """\
 -----     -----     -----
| o   |   | o o |   | o o |
|     |   | o o |   |     |
|   o |   | o o |   | o o |
 -----     -----     -----"""


def test_big_dice_side_by_side():
    art = find_dice("Mo rolls:\n" + ART + "\nResult: 66 points", [2, 6, 4])
    assert art and art.side_by_side and art.regular


def test_big_dice_other_pips_and_orientation():
    text = ("╭───────╮ ╭───────╮ ╭───────╮\n│     ● │ │ ● ● ● │ │       │\n"
            "│       │ │       │ │   ●   │\n│ ●     │ │ ● ● ● │ │       │\n"
            "╰───────╯ ╰───────╯ ╰───────╯")
    art = find_dice(text, [2, 6, 1])
    assert art and art.side_by_side and art.regular


def test_big_dice_stacked_are_not_side_by_side():
    one = "+-----+\n|  o  |\n+-----+"
    art = find_dice("\n\n".join([one, one, one]), [1, 1, 1])
    assert art and not art.side_by_side


def test_numbers_alone_are_not_big_dice():
    assert find_dice("You rolled 2 6 4", [2, 6, 4]) is None


def test_standings_formats():
    names = ["Quillon", "Mo", "Barney", "Marge"]
    for text in ("Quillon: 20 chips\nMo: 19 chips\nBarney: 21 chips\nMarge: 20 chips",
                 "| Quillon | 20 |\n| Mo | 19 |\n| Barney | 21 |\n| Marge | 20 |",
                 "Chips -> Quillon: 20 | Mo: 19 | Barney: 21 | Marge: 20",
                 "Quillon has 20 chips, Mo has 19 chips\nBarney has 21, Marge has 20",
                 "quillon currently has 20 chips\nmo currently has 19 chips\n"
                 "barney currently has 21 chips\nmarge currently has 20 chips",
                 "Quillon ......... 20 chips\nMo .............. 19 chips\n"
                 "Barney .......... 21 chips\nMarge ........... 20 chips",
                 "Quillon - 20 chips\nMo - 19 chips\nBarney - 21 chips\nMarge - 20 chips",
                 "Quillon -> 20 jetons\nMo -> 19 jetons\nBarney -> 21 jetons\nMarge -> 20"):
        found, _ = last_standings("== Mo's turn: up to 3 rolls ==\n" + text, names)
        assert found == {"Quillon": 20, "Mo": 19, "Barney": 21, "Marge": 20}, text


def test_clean_removes_colour_and_resolves_carriage_returns():
    assert clean("\x1b[1;32mHello\x1b[0m\nrolling...\rdone") == "Hello\ndone"


def test_big_dice_touching_each_other():
    text = ("+-----++-----++-----+\n|o    ||o   o||o   o|\n|     ||o   o||     |\n"
            "|    o||o   o||o   o|\n+-----++-----++-----+")
    art = find_dice(text, [2, 6, 4])
    assert art and art.side_by_side


def test_big_dice_stacked_in_one_block():
    one = "+-----+\n|  o  |\n+-----+\n"
    art = find_dice(one * 3, [1, 1, 1])
    assert art and not art.side_by_side


def test_final_lines_and_negative_counts():
    names = ["Frank", "Mo"]
    found, _ = last_standings("Frank has 0 chips and wins the game!\nMo finished with 12 chips",
                              names)
    assert found == {"Frank": 0, "Mo": 12}
    found, _ = last_standings("Frank: -2 chips\nMo: 1 chip", names)
    assert found == {"Frank": -2, "Mo": 1}
    assert last_standings("Frank wins 3 chips from Mo\nMo gives Frank 3 chips", names)[0] == {}


def test_a_hyphenated_name_is_another_player():
    """A computer renamed "Robo-Otto" after a clash is not Otto."""
    names = ["Otto", "Robo-Otto", "Wren"]
    assert numbers_by_name("| Robo-Otto |    10 |", names) == {"Robo-Otto": 10}
    assert numbers_by_name("| Otto      |    12 |", names) == {"Otto": 12}
    assert numbers_by_name("Otto: 7 chips, Robo-Otto: 9", names) == {"Otto": 7, "Robo-Otto": 9}


def test_a_name_inside_a_longer_one_is_the_longer_ones():
    """A computer renamed "Hal 9000" after the human typed Hal: its line is not Hal's (the
    9000 is no count of Hal's either)."""
    names = ["Hal", "Robo", "Hal 9000"]
    assert numbers_by_name("Hal 9000           10", names) == {"Hal 9000": 10}
    assert numbers_by_name("Hal                10", names) == {"Hal": 10}
    assert numbers_by_name("Order: Robo, Hal, Hal 9000", names) == {}


def test_a_count_may_end_a_sentence():
    """"... and you (Quillon) have 20." counts 20 for Quillon; "7.5" is no count."""
    names = ["Quillon", "Ann", "Bo"]
    line = "Chips: Ann has 20, Bo has 19 and you (Quillon) have 18."
    assert numbers_by_name(line, names) == {"Ann": 20, "Bo": 19, "Quillon": 18}
    assert numbers_by_name("Ann: 7.5 points, Bo: 3", names) == {"Bo": 3}


def test_a_name_inside_a_longer_name_is_the_longer_ones():
    """A computer renamed "CPU Juno" after the human typed Juno: its standings line was read
    as Juno's, and setup lost half its mark for two players called Juno."""
    names = ["Juno", "Otto", "CPU Juno"]
    assert numbers_by_name("CPU Juno: 10 chips", names) == {"CPU Juno": 10}
    assert numbers_by_name("Juno: 9 chips   CPU Juno: 10 chips", names) == \
        {"Juno": 9, "CPU Juno": 10}


def test_standings_may_read_points_when_a_game_counts_points():
    """"7 points" is no chip count by default; a game of points passes its own words."""
    from graders.engine.drive.readers import standings
    line = "Sam has 12 points, Computer has 20 points"
    assert standings.numbers_by_name(line, ["Sam", "Computer"]) == {}
    assert standings.numbers_by_name(line, ["Sam", "Computer"], not_after=()) == {
        "Sam": 12, "Computer": 20}
    assert standings.last_standings("Sam: 3 points\nComputer: 5 points", ["Sam", "Computer"],
                                    not_after=("rolls?",))[0] == {"Sam": 3, "Computer": 5}


def test_score_rows_in_other_spellings_and_columns():
    from graders.engine.drive.readers import score_table
    text = "You rolled 4.\nYour score: 12\nCPU has 20"
    spellings = {"You": ("your",), "Computer": ("cpu",)}
    assert score_table.rows(text, ["You", "Computer"]) == {"You": 4}
    assert score_table.rows(text, ["You", "Computer"], avoid={"You": "rolled"},
                            spellings=spellings) == {"You": 12, "Computer": 20}
    table = "  Computer     You\n     20        12\n"
    assert score_table.columns(table, ["You", "Computer"]) == {"You": 12, "Computer": 20}
    assert score_table.columns("You 12\nComputer 20", ["You", "Computer"]) == {}


def test_a_score_board_in_a_box_or_on_one_line_beats_a_message_naming_one_player():
    """'+---+' borders between the names and the numbers are no row; 'Scores: You 17, HAL
    115' is read before a later 'The computer reached 100 points' (a message, not a score)."""
    from graders.engine.drive.readers import score_table
    box = "+-----+----------+\n| You | Computer |\n+-----+----------+\n|   5 |       24 |\n"
    assert score_table.columns(box, ["You", "Computer"]) == {"You": 5, "Computer": 24}
    spellings = {"player": ("you",), "computer": ("computer", "HAL")}
    text = "Scores: You 17, HAL 115\nThe computer reached 100 points. HAL wins!"
    assert score_table.scores(text, spellings) == {"player": 17, "computer": 115}
    robot = {"player": ("you",), "computer": ("Robo-9000",)}
    board = "You 17 points\nRobo-9000 115 points\n*** Robo-9000 crosses the line. Robo-9000 wins!"
    assert score_table.scores(board, robot) == {"player": 17, "computer": 115}
    assert score_table.columns("You   Player 2\n 17     115", ["You", "Player 2"]) == {
        "You": 17, "Player 2": 115}
    assert score_table.scores("Your score: 12\nCPU: 20", {"player": ("your",),
                                                          "computer": ("cpu",)}) == {
        "player": 12, "computer": 20}


def test_counts_in_words_and_after_a_bar_of_symbols_are_read():
    names = ["Quillon", "Ruby"]
    found, _ = last_standings("Quillon has twenty chips\nRuby has thirty-two chips", names)
    assert found == {"Quillon": 20, "Ruby": 32}
    found, _ = last_standings("Quillon  " + "●" * 20 + " 20\nRuby     " + "●" * 32 + " 32",
                              names)
    assert found == {"Quillon": 20, "Ruby": 32}
    assert numbers_by_name("Ruby's turn: one roll left", names) == {}


def test_standings_in_a_table_turned_sideways():
    """The names on one line, their chips on the next ('Player | Quillon | Zip' over 'Chips |
    20 | 20'): read in the header's order; a later block of name lines wins."""
    names = ["Quillon", "Zip", "Zap", "Chip Bot", "Chip"]
    table = ("  Player | Quillon | Zip | Chip Bot | Zap | Chip\n"
             "  Chips  |      20 |  18 |        3 |  22 |    1\n  Order  | Zip -> Quillon\n")
    found, _ = last_standings(table, names)
    assert found == {"Quillon": 20, "Zip": 18, "Chip Bot": 3, "Zap": 22, "Chip": 1}
    later = table + "Quillon: 19\nZip: 19\nZap: 21\nChip Bot: 4\nChip: 1\n"
    assert last_standings(later, names)[0]["Quillon"] == 19
