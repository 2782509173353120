"""Three-card Poker: one player against a dealer who follows fixed rules.

Student 1: name <your name>, email <your email>, student number <your student number>
Student 2: name <partner name>, email <partner email>, student number <partner student number>

Fill in the functions marked TODO. Do not change deal() or get_choice().
"""
import random


# ---------------------------------------------------------------------------
# Provided functions: use them, do not change them.
# ---------------------------------------------------------------------------

def deal() -> list[int]:
    """Return a new hand: three random card ranks (2..14), in no particular order."""
    return [random.randint(2, 14), random.randint(2, 14), random.randint(2, 14)]


def get_choice() -> str:
    """Ask the player whether to play or fold; return 'p' or 'f'.

    Keeps asking until the answer (ignoring case and surrounding spaces) is p or f.
    """
    while True:
        answer = input("Play or fold? (p/f) ").strip().lower()
        if answer in ("p", "f"):
            return answer


# ---------------------------------------------------------------------------
# Your functions.
# ---------------------------------------------------------------------------

def hand_to_string(hand: list[int]) -> str:
    """Return the hand as rank characters separated by single spaces, e.g. [14, 9, 4] -> 'A 9 4'.

    The cards are shown in the order they appear in the list.
    """
    # TODO: replace pass with your code.
    pass


def sort_hand(hand: list[int]) -> list[int]:
    """Return a NEW list with the cards of hand from highest to lowest; hand is not changed."""
    # TODO: replace pass with your code.
    pass


def has_pair(hand: list[int]) -> bool:
    """Return True if exactly two of the three cards share a rank (cards in any order)."""
    # TODO: replace pass with your code.
    pass


def has_straight(hand: list[int]) -> bool:
    """Return True if the three ranks are consecutive, Ace high only (cards in any order)."""
    # TODO: replace pass with your code.
    pass


def has_triple(hand: list[int]) -> bool:
    """Return True if all three cards have the same rank (cards in any order)."""
    # TODO: replace pass with your code.
    pass


def score_hand(hand: list[int]) -> int:
    """Return the base-16 score of a hand that is sorted from highest to lowest.

    Use has_triple, has_straight and has_pair to find the feature value.
    """
    # TODO: replace pass with your code.
    pass


def dealer_plays(hand: list[int]) -> bool:
    """Return True if the dealer plays this hand: it has a feature or a Queen or better."""
    # TODO: replace pass with your code.
    pass


def play_round() -> int:
    """Play one round and return the player's points: -10, +10, +20 or -20."""
    # TODO: replace pass with your code.
    pass


def main() -> None:
    """Play rounds until the player stops, printing each result and the running total."""
    # TODO: replace pass with your code.
    pass


if __name__ == "__main__":
    main()
