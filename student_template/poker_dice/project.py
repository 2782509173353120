"""Poker Dice: grow a $100 purse to $200 in as few hands as possible.

Name: <your name>
Email: <your email>

Run "python project.py" to play, or "python project.py --help" for the rules.
Replace every TODO. Keep the names and parameters of the required functions.
"""

import sys

from dice import Dice, Die
from magic8ball import Magic8

START_PURSE = 100
ANTE = 10
WIN_AMOUNT = 200
BEST_SCORE_FILE = "BestScore.txt"

# TODO: write the instructions in your own words (see the handout for what they must say).
INSTRUCTIONS = """TODO: Poker Dice instructions"""


def main():
    """Print the instructions for -h/--help, otherwise play one game of Poker Dice."""
    # TODO: handle -h and --help (print INSTRUCTIONS, then stop with exit status 0).
    # TODO: play hands until the player wins, runs out of money, quits or stops.
    pass


def calculateScore(dice):
    """Score five dice: dice is a Dice object or a list of five ints.

    Return (value, description) for the best hand, for example (10, "3 of a Kind"),
    or (0, "Nothing") when the dice make no hand.
    """
    # TODO
    pass


def is2Pair(d):
    """Return True if the five values in d hold two different pairs plus an odd die."""
    # TODO
    pass


def is3ofAKind(d):
    """Return True if exactly three values in d match and the other two are not a pair."""
    # TODO
    pass


def isFullHouse(d):
    """Return True if three values in d match and the other two are a pair of another face."""
    # TODO
    pass


def isStraight(d):
    """Return True if d is 1-2-3-4-5 or 2-3-4-5-6, in any order."""
    # TODO
    pass


def is4ofAKind(d):
    """Return True if exactly four of the five values in d match."""
    # TODO
    pass


def is5ofAKind(d):
    """Return True if all five values in d match."""
    # TODO
    pass


def isvalidDice(s):
    """Return True if s lists at least one die number and every number is 1-5.

    Split s on whitespace; raise ValueError if a piece is not a whole number.
    """
    # TODO
    pass


if __name__ == "__main__":
    main()
