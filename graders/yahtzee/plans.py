"""The games the Yahtzee grader plays with loaded dice (games.py), by name: data an
instructor may edit (a module, not a data file, so that the student kit's self-check has it).

Each round is a row of the engine's ``dicegame.plan``: its first throw; twice (letters typed
at the keep question, the face every die thrown again shows: five faces when none is kept,
none when all are); the option number typed; and answers typed before it that must be
refused. tests/test_yahtzee.py checks what each game must add up to.
"""

GAMES = {
    "63 above, two extra Yahtzees, jokers": [
        ([3, 3, 1, 5, 6], ("ab", [3]), ("abcde", []), 12),              # Yahtzee: 50
        ([1, 4, 1, 6, 2], ("ac", [6]), ("ABCD", [1]), 1),               # Ones: 3
        ([2, 2, 2, 5, 4], ("", [2, 3, 2, 5, 2]), ("abcde", []), 2),     # Twos: 6, keep none
        ([3, 3, 5, 6, 2], ("ABCD", [4]), ("a, b, c, d", [3]), 3),       # Threes: 9
        ([4, 4, 4, 1, 2], ("abc", [2]), ("ccbbaa", [5]), 4),            # Fours: 12, repeats
        ([5, 2, 5, 2, 5], ("ACE", [6]), ("ace", [1]), 5),               # Fives: 15
        ([6, 6, 1, 1, 6], ("abe", [3]), ("EBA", [2]), 6),               # Sixes: 18, 63 above
        ([4, 1, 4, 2, 4], ("aCe", [4]), ("abcde", []), 10),             # joker: 30, bonus 100
        ([6, 6, 6, 6, 6], ("abcde", []), ("ABCDE", []), 11),            # joker: 40, bonus 100
        ([2, 2, 3, 1, 3], ("abce", [3]), ("abcde", []), 9),             # Full House: 25
        ([2, 2, 2, 5, 6], ("abc", [6]), ("abcd", [1]), 7),              # Three Of A Kind: 13
        ([5, 5, 1, 5, 5], ("abde", [2]), ("x-a-b-d-e!", [3]), 8),       # Four Of A Kind: 23
        ([6, 5, 4, 1, 2], ("abc", [6]), ("", [6, 6, 5, 5, 4]), 13),     # Chance: 26
    ],
    "a Yahtzee box with 0, 62 above, used options": [
        ([1, 2, 3, 5, 6], ("ABCDE", []), ("abcde", []), 12, ["seven", "14", "0"]),  # Yahtzee: 0
        ([2, 2, 4, 2, 2], ("abde", [2]), ("abcde", []), 2),             # Twos: 10, no bonus
        ([5, 5, 5, 5, 5], ("abcde", []), ("abcde", []), 9),             # Fives open: no joker, 0
        ([6, 6, 6, 6, 3], ("abcd", [1]), ("ABCD", [2]), 6, ["12", "2"]),  # used options; Sixes: 24
        ([6, 6, 6, 6, 2], ("abcd", [6]), ("abcde", []), 10),            # joker after a 0: 30
        ([5, 5, 5, 1, 1], ("abc", [2]), ("ABC", [3]), 5),               # Fives: 15
        ([4, 4, 1, 2, 3], ("ab", [1]), ("", [4, 1, 4, 2, 6]), 4),       # Fours: 8
        ([3, 1, 2, 5, 6], ("a", [1]), ("a", [2]), 3),                   # Threes: 3
        ([1, 1, 4, 5, 6], ("AB", [5]), ("abcde", []), 1),               # Ones: 2, 62 above
        ([2, 3, 4, 5, 5], ("abcd", [6]), ("abcde", []), 11),            # Large Straight: 40
        ([4, 4, 4, 4, 6], ("abcde", []), ("abcde", []), 7),             # Three Of A Kind: 22
        ([1, 1, 1, 2, 3], ("", [3, 3, 3, 2, 1]), ("ABC", [1]), 8),      # Four Of A Kind: 0
        ([6, 6, 5, 5, 4], ("abcde", []), ("abcde", []), 13),            # Chance: 26
    ],
}
