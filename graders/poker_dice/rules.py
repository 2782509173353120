"""The kit's own, correct Poker Dice rules (the handout's "What a hand pays").

Standard library only and Python 3.8+: this file is also copied into the run folder as
``kit_poker_dice_rules.py``, so that grader code in the student's process can patch these
predicates into the student's module (see ``functions.py``).
"""
from collections import Counter
from itertools import product

PAYOUTS = {"5 of a Kind": 35, "4 of a Kind": 25, "Straight": 20, "Full House": 15,
           "3 of a Kind": 10, "2 Pair": 5, "Nothing": 0}
HANDS = tuple(PAYOUTS)                 # best first, "Nothing" last
PATTERNS = {(5,): "5 of a Kind", (4, 1): "4 of a Kind", (3, 2): "Full House",
            (3, 1, 1): "3 of a Kind", (2, 2, 1): "2 Pair"}
STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
PREDICATES = {"is5ofAKind": "5 of a Kind", "is4ofAKind": "4 of a Kind",
              "isStraight": "Straight", "isFullHouse": "Full House",
              "is3ofAKind": "3 of a Kind", "is2Pair": "2 Pair"}
RULE_TEXT = {
    "5 of a Kind": "5 of a Kind: all five dice match",
    "4 of a Kind": "4 of a Kind: exactly four dice match (five equal dice are 5 of a Kind)",
    "Straight": "Straight: 1 2 3 4 5 or 2 3 4 5 6, in any order",
    "Full House": "Full House: three dice of one face and two of another face",
    "3 of a Kind": "3 of a Kind: exactly three dice match and the other two are not a pair",
    "2 Pair": "2 Pair: two pairs of different faces and a fifth die unlike both",
    "Nothing": "Nothing: none of the six hands",
}


def values_of(dice):
    """The five face values of a list/tuple of ints or of a Dice-like object."""
    if hasattr(dice, "diceInSet"):
        return [die.value for die in dice.diceInSet]
    return [int(value) for value in dice]


def hand_name(dice):
    """The name of the hand five dice make, e.g. "Full House", or "Nothing"."""
    values = values_of(dice)
    if sorted(values) in STRAIGHTS:
        return "Straight"
    pattern = tuple(sorted(Counter(values).values(), reverse=True))
    return PATTERNS.get(pattern, "Nothing")


def calculateScore(dice):
    """(value, description) of the best hand, as the handout's calculateScore returns it."""
    name = hand_name(dice)
    return PAYOUTS[name], name


def is2Pair(d):
    """Two pairs of different faces and a fifth die unlike both."""
    return hand_name(d) == "2 Pair"


def is3ofAKind(d):
    """Exactly three alike, the other two not a pair."""
    return hand_name(d) == "3 of a Kind"


def isFullHouse(d):
    """Three of one face and two of another."""
    return hand_name(d) == "Full House"


def isStraight(d):
    """1-2-3-4-5 or 2-3-4-5-6 in any order."""
    return hand_name(d) == "Straight"


def is4ofAKind(d):
    """Exactly four alike."""
    return hand_name(d) == "4 of a Kind"


def is5ofAKind(d):
    """All five alike."""
    return hand_name(d) == "5 of a Kind"


def isvalidDice(s):
    """The handout's isvalidDice: True/False, ValueError for a piece that is not a number."""
    numbers = [int(piece) for piece in s.split()]
    return len(numbers) > 0 and all(1 <= number <= 5 for number in numbers)


def all_rolls():
    """Every roll of five dice, in order: [1, 1, 1, 1, 1], [1, 1, 1, 1, 2], ... (7776)."""
    return [list(roll) for roll in product(range(1, 7), repeat=5)]


def shown(roll):
    """A roll as the handout writes it: '6 1 6 1 6'."""
    return " ".join(str(value) for value in roll)
