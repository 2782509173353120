"""Tests for the Poker Dice scoring functions and classes (run: pytest test_project.py)."""

import random
import sys

import pytest

from dice import Dice, Die
from magic8ball import Magic8
from project import (calculateScore, is2Pair, is3ofAKind, is4ofAKind, is5ofAKind,
                     isFullHouse, isStraight, isvalidDice)


def make_dice(values):
    """Return a Dice object holding dice that show values."""
    dice = Dice()
    for value in values:
        dice.addDie(Die(value))
    return dice


def test_calculateScore_every_hand():
    assert calculateScore([4, 4, 4, 4, 4]) == (35, "5 of a Kind")
    assert calculateScore([2, 5, 2, 2, 2]) == (25, "4 of a Kind")
    assert calculateScore([3, 1, 5, 2, 4]) == (20, "Straight")
    assert calculateScore([6, 2, 4, 3, 5]) == (20, "Straight")
    assert calculateScore([6, 1, 6, 1, 6]) == (15, "Full House")
    assert calculateScore([3, 6, 3, 1, 3]) == (10, "3 of a Kind")
    assert calculateScore([5, 2, 2, 6, 5]) == (5, "2 Pair")
    assert calculateScore([1, 2, 3, 4, 6]) == (0, "Nothing")
    assert calculateScore([6, 6, 1, 2, 3]) == (0, "Nothing")


def test_calculateScore_takes_a_dice_object():
    assert calculateScore(make_dice([5, 3, 5, 3, 5])) == (15, "Full House")
    assert calculateScore(make_dice([1, 2, 3, 4, 5])) == (20, "Straight")


def test_pairs_and_threes():
    assert is2Pair([1, 3, 1, 4, 3])
    assert not is2Pair([1, 3, 1, 3, 3])
    assert not is2Pair([2, 2, 2, 5, 6])
    assert not is2Pair([6, 6, 6, 6, 1])
    assert is3ofAKind([5, 1, 5, 2, 5])
    assert not is3ofAKind([5, 1, 5, 1, 5])
    assert not is3ofAKind([5, 5, 5, 5, 1])


def test_full_house():
    assert isFullHouse([2, 4, 4, 2, 4])
    assert not isFullHouse([4, 4, 4, 4, 2])
    assert not isFullHouse([3, 3, 3, 3, 3])
    assert not isFullHouse([4, 4, 4, 1, 2])


def test_straight():
    assert isStraight([5, 4, 3, 2, 1])
    assert isStraight([4, 6, 2, 5, 3])
    assert not isStraight([1, 2, 3, 4, 6])
    assert not isStraight([1, 2, 2, 3, 4])


def test_four_and_five_of_a_kind():
    assert is4ofAKind([6, 2, 6, 6, 6])
    assert not is4ofAKind([6, 6, 6, 6, 6])
    assert not is4ofAKind([6, 6, 6, 2, 2])
    assert is5ofAKind([1, 1, 1, 1, 1])
    assert not is5ofAKind([3, 1, 1, 1, 3])


def test_isvalidDice():
    assert isvalidDice("2 3 5")
    assert isvalidDice(" 1   5 ")
    assert not isvalidDice("")
    assert not isvalidDice("0 2")
    assert not isvalidDice("6")
    with pytest.raises(ValueError):
        isvalidDice("1 two")
    with pytest.raises(ValueError):
        isvalidDice("2,3")


def test_die(monkeypatch):
    die = Die(3)
    assert die.value == 3
    assert len(die.rows) == 5
    die.setDieValue(6)
    assert die.value == 6
    with pytest.raises(ValueError):
        die.setDieValue(7)
    with pytest.raises(AttributeError):
        die.value = 2
    monkeypatch.setattr(random, "randint", lambda low, high: 4)
    die.rollDie()
    assert die.value == 4


def test_dice():
    dice = make_dice([1, 2, 3, 4, 5])
    with pytest.raises(ValueError):
        dice.addDie(Die(6))
    dice.replaceDie(4, 6)
    assert [die.value for die in dice.diceInSet] == [1, 2, 3, 4, 6]
    for position in (5, -1):
        with pytest.raises(ValueError):
            dice.rollADie(position)
    with pytest.raises(ValueError):
        dice.replaceDie(0, 0)


def test_magic8_prints_when_it_cannot_speak(monkeypatch, capsys):
    oracle = Magic8()
    assert oracle.getAnswer() in Magic8.ANSWERS
    monkeypatch.setitem(sys.modules, "pyttsx3", None)
    oracle.speakAnswer("Most probably.")
    assert "Most probably." in capsys.readouterr().out
