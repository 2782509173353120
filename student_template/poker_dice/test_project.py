"""Tests for Poker Dice. Run them with: pytest test_project.py

Write at least three test functions. Use only the required functions and classes,
so that your tests also run against other people's correct projects.
"""

import pytest

from dice import Dice, Die
from project import calculateScore, isvalidDice


def test_calculateScore():
    assert calculateScore([4, 4, 4, 4, 4]) == (35, "5 of a Kind")
    # TODO: every other kind of hand, in mixed orders, and a Dice object


def test_isvalidDice():
    # TODO: valid answers, invalid numbers, an empty answer, and words (pytest.raises)
    pass


def test_dice():
    # TODO: Die and Dice, including the ValueErrors they must raise
    pass
