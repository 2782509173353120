"""The kit's own correct Three-card Poker rules (handout sections 1 to 6).

The grader compares the student's functions with these on every hand. Some of them are also
lent to the student's process (``swap=``: the correct helpers patched in): each goes there as
its own source and what it uses of this file, nothing else (``engine.calls.lent_source``), in
a child of its own. They must therefore use the standard library only.
"""
# the student's interpreter may be older than the kit's: annotations stay unevaluated
from __future__ import annotations

from itertools import combinations_with_replacement, product

RANKS = range(2, 15)
RANK_CHARACTERS = "23456789XJQKA"
QUEEN = 12
TRIPLE_FEATURE = 16
STRAIGHT_FEATURE = 15
NO_FEATURE = 0
BASE = 16

FOLD_POINTS = -10
DEALER_FOLDS_POINTS = 10
WIN_POINTS = 20
LOSS_POINTS = -20


def ordered_hands() -> list[list[int]]:
    """All 13**3 = 2197 hands as dealt (any order), smallest first: [2, 2, 2], [2, 2, 3], ..."""
    return [list(hand) for hand in product(RANKS, repeat=3)]


def sorted_hands() -> list[list[int]]:
    """All 455 different hands sorted high to low, smallest first: [2, 2, 2], [3, 2, 2], ..."""
    return sorted(sort_hand(list(hand)) for hand in combinations_with_replacement(RANKS, 3))


def hand_to_string(hand: list[int]) -> str:
    """The rank characters of the hand in the order given, joined by single spaces."""
    return " ".join(RANK_CHARACTERS[rank - 2] for rank in hand)


def sort_hand(hand: list[int]) -> list[int]:
    """A new list with the cards from highest to lowest."""
    return sorted(hand, reverse=True)


def has_pair(hand: list[int]) -> bool:
    """Exactly two of the three ranks are equal."""
    return len(set(hand)) == 2


def has_straight(hand: list[int]) -> bool:
    """Three different, consecutive ranks (the Ace only counts high)."""
    return len(set(hand)) == 3 and max(hand) - min(hand) == 2


def has_triple(hand: list[int]) -> bool:
    """All three ranks are equal."""
    return len(set(hand)) == 1


def feature_value(hand: list[int]) -> int:
    """16 for a triple, 15 for a straight, the paired rank for a pair, 0 for no feature."""
    if has_triple(hand):
        return TRIPLE_FEATURE
    if has_straight(hand):
        return STRAIGHT_FEATURE
    if has_pair(hand):
        return max(hand, key=hand.count)
    return NO_FEATURE


def score_hand(hand: list[int]) -> int:
    """The base-16 score of a hand sorted high to low: feature, then the three cards."""
    high, middle, low = hand
    return feature_value(hand) * BASE ** 3 + high * BASE ** 2 + middle * BASE + low


def dealer_plays(hand: list[int]) -> bool:
    """The dealer plays a hand with a feature, or with a Queen or higher."""
    return feature_value(hand) != NO_FEATURE or max(hand) >= QUEEN


def round_points(player: list[int], choice: str, dealer: list[int] | None) -> int:
    """The points of one round: the hands as dealt and the player's choice ('p' or 'f')."""
    if choice == "f":
        return FOLD_POINTS
    player_hand, dealer_hand = sort_hand(player), sort_hand(dealer)
    if not dealer_plays(dealer_hand):
        return DEALER_FOLDS_POINTS
    if score_hand(player_hand) >= score_hand(dealer_hand):
        return WIN_POINTS
    return LOSS_POINTS
