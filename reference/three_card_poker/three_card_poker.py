"""Three-card Poker: one player against a dealer who follows fixed rules.

Reference solution.

Student 1: name Reference Solution, email staff@example.edu, student number 0000000
"""
import random

RANK_CHARACTERS = "23456789XJQKA"
LOWEST_RANK = 2
QUEEN = 12
TRIPLE_FEATURE = 16
STRAIGHT_FEATURE = 15
NO_FEATURE = 0
BASE = 16

FOLD_POINTS = -10
DEALER_FOLDS_POINTS = 10
WIN_POINTS = 20
LOSS_POINTS = -20


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
# Solution.
# ---------------------------------------------------------------------------

def hand_to_string(hand: list[int]) -> str:
    """Return the hand as rank characters separated by single spaces, e.g. [14, 9, 4] -> 'A 9 4'.

    The cards are shown in the order they appear in the list.
    """
    characters = [RANK_CHARACTERS[rank - LOWEST_RANK] for rank in hand]
    return " ".join(characters)


def sort_hand(hand: list[int]) -> list[int]:
    """Return a NEW list with the cards of hand from highest to lowest; hand is not changed."""
    return sorted(hand, reverse=True)


def has_pair(hand: list[int]) -> bool:
    """Return True if exactly two of the three cards share a rank (cards in any order)."""
    return len(set(hand)) == 2


def has_straight(hand: list[int]) -> bool:
    """Return True if the three ranks are consecutive, Ace high only (cards in any order)."""
    high, middle, low = sorted(hand, reverse=True)
    return high - middle == 1 and middle - low == 1


def has_triple(hand: list[int]) -> bool:
    """Return True if all three cards have the same rank (cards in any order)."""
    return len(set(hand)) == 1


def score_hand(hand: list[int]) -> int:
    """Return the base-16 score of a hand that is sorted from highest to lowest.

    The feature value (16 triple, 15 straight, paired rank for a pair, 0 otherwise) is the
    most significant base-16 digit, followed by the three cards in the given order.
    """
    if has_triple(hand):
        feature = TRIPLE_FEATURE
    elif has_straight(hand):
        feature = STRAIGHT_FEATURE
    elif has_pair(hand):
        # In a sorted hand with a pair, the middle card always belongs to the pair.
        feature = hand[1]
    else:
        feature = NO_FEATURE
    return feature * BASE ** 3 + hand[0] * BASE ** 2 + hand[1] * BASE + hand[2]


def dealer_plays(hand: list[int]) -> bool:
    """Return True if the dealer plays this hand: it has a feature or a Queen or better."""
    has_feature = has_pair(hand) or has_straight(hand) or has_triple(hand)
    return has_feature or max(hand) >= QUEEN


def play_round() -> int:
    """Play one round and return the player's points: -10, +10, +20 or -20."""
    player_hand = sort_hand(deal())
    print("Your hand:", hand_to_string(player_hand))
    if get_choice() == "f":
        print("You fold.")
        return FOLD_POINTS

    dealer_hand = sort_hand(deal())
    print("Dealer's hand:", hand_to_string(dealer_hand))
    if not dealer_plays(dealer_hand):
        print("The dealer folds.")
        return DEALER_FOLDS_POINTS

    if score_hand(player_hand) >= score_hand(dealer_hand):
        print("Your hand wins.")
        return WIN_POINTS
    print("The dealer's hand wins.")
    return LOSS_POINTS


def main() -> None:
    """Play rounds until the player stops, printing each result and the running total."""
    total = 0
    keep_playing = True
    while keep_playing:
        points = play_round()
        total += points
        print(f"Round result: {points:+d}")
        print(f"Total: {total}")
        answer = ""
        while answer not in ("y", "yes", "n", "no"):
            answer = input("Play another round? (y/n) ").strip().lower()
        keep_playing = answer in ("y", "yes")
    print(f"Final total: {total}")


if __name__ == "__main__":
    main()
