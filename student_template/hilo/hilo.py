"""HiLo: guess whether the face-down card is higher or lower than the card you can see.

Student 1: name <your name>, email <your email>, student number <your student number>
Student 2: name <partner name>, email <partner email>, student number <partner student number>

Fill in the methods and functions marked TODO (see the handout).
"""
import random

SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
STARTING_PURSE = 100


class Card:
    """One playing card: a value, a suit, and the rules that name its rank."""

    def __init__(self, value_rules, value, suit):
        """Store the value-to-rank rules, the card's value and its suit."""
        # TODO: replace pass with your code.
        pass

    @property
    def rank(self):
        """The name of the card's rank, e.g. 'Queen' for the value 12."""
        # TODO: replace pass with your code.
        pass

    def __eq__(self, other):
        """True when other is a card with the same value, rank and suit."""
        # TODO: replace pass with your code.
        pass

    def __str__(self):
        """'Queen of Hearts', or just the rank for a card without a suit (a Joker)."""
        # TODO: replace pass with your code.
        pass

    def __repr__(self):
        """The rank, suit and value, e.g. Card(Queen, Hearts, 12)."""
        # TODO: replace pass with your code.
        pass

    @staticmethod
    def random(value_rules):
        """A new card with a random value from the rules and a random suit."""
        # TODO: replace pass with your code (use the random module).
        pass


def generate_deck(value_rules, jokers=0, joker_value=0):
    """Every card of the rules in every suit, then the given number of Jokers."""
    # TODO: replace pass with your code.
    pass


class HiLo_Game:
    """One bet: guess the face-down card, then double or pass after every right guess."""

    value_rules = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8",
                   9: "9", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}
    responses = {"start": [None], "guess": ["higher", "lower"],
                 "choose": ["double", "pass"], "over": []}

    def __init__(self, bet_amount):
        """A new game staking bet_amount dollars, with two cards of different value dealt.

        Sets bet_amount, stage ("start"), card_visible and card_hidden.
        """
        # TODO: replace pass with your code.
        pass

    def logic(self, answer=None):
        """Play one step of the game: the text to show, or None if the answer is not valid
        at this stage (and then nothing changes)."""
        # TODO: replace pass with your code.
        pass


def main():
    """Play bets until the player quits or the purse is empty, then show a summary."""
    # TODO: replace pass with your code.
    pass


if __name__ == "__main__":
    main()
