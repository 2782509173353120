"""Yahtzee in the console: thirteen rounds of five dice, up to three throws a round.

Student 1: name <your name>, email <your email>, student number <your student number>
Student 2: name <partner name>, email <partner email>, student number <partner student number>

Fill in the functions marked TODO (see the handout). You may add helper functions.
"""
import random

OPTIONS = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
           "Three Of A Kind", "Four Of A Kind", "Full House", "Small Straight",
           "Large Straight", "Yahtzee", "Chance"]


def is_three_of_a_kind(dice):
    """True when at least three of the five dice show the same number."""
    # TODO: replace pass with your code.
    pass


def is_four_of_a_kind(dice):
    """True when at least four of the five dice show the same number."""
    # TODO: replace pass with your code.
    pass


def is_full_house(dice):
    """True for three dice of one number and two dice of another number."""
    # TODO: replace pass with your code.
    pass


def is_small_straight(dice):
    """True when the dice contain 1-2-3-4, 2-3-4-5 or 3-4-5-6."""
    # TODO: replace pass with your code.
    pass


def is_large_straight(dice):
    """True when the dice are 1-2-3-4-5 or 2-3-4-5-6, in any order."""
    # TODO: replace pass with your code.
    pass


def is_yahtzee(dice):
    """True when all five dice show the same number."""
    # TODO: replace pass with your code.
    pass


def calculate_score(dice, name_of_option, history):
    """The points the dice score in the option named, joker included.

    history holds the options played so far: option name -> (points, dice).
    """
    # TODO: replace pass with your code.
    pass


def calculate_final_scores(history):
    """The upper section sum, upper bonus, lower section sum and Yahtzee bonus of a game."""
    # TODO: replace pass with your code.
    pass


def main():
    """Play one game of thirteen rounds, then print the final score table."""
    # TODO: replace pass with your code (use random.randint(1, 6) to throw a die).
    pass


if __name__ == "__main__":
    main()
