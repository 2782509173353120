"""The rule behind each expected answer, in words a student can act on.

Every ``why_<function>(hand, returned)`` (sort_hand's: ``why_sort_hand(problem)``) returns one
sentence naming the handout rule that decides the hand. The sentences do not mention the hand
itself, so the grader can group wrong hands by rule.
"""

from . import rules

FEATURE_NAMES = {rules.TRIPLE_FEATURE: "a triple", rules.STRAIGHT_FEATURE: "a straight",
                 rules.NO_FEATURE: "no feature"}


def kind_of(hand: list[int]) -> str:
    """'a triple', 'a straight', 'a pair of 9s' or 'no feature'."""
    feature = rules.feature_value(hand)
    return FEATURE_NAMES.get(feature) or f"a pair of {rules.hand_to_string([feature])}s"


def why_hand_to_string(hand: list[int], returned: object) -> str:
    """The display rule the returned text breaks (spacing, order, the X for 10)."""
    expected = rules.hand_to_string(hand)
    if isinstance(returned, str):
        if "10" in returned and 10 in hand:
            return "Rank 10 is shown as X, so that every card is exactly one character."
        if returned.split() == rules.hand_to_string(rules.sort_hand(hand)).split() \
                and returned.split() != expected.split():
            return ("hand_to_string keeps the order it is given; it does not sort "
                    "([4, 10, 14] is shown as '4 X A').")
        if returned.replace(" ", "") == expected.replace(" ", ""):
            return "The characters are joined by single spaces, with no space at either end."
    return ("Each card is one character of 23456789XJQKA (10 is X, 11 J, 12 Q, 13 K, 14 A), "
            "in the order given, joined by single spaces.")


def why_sort_hand(problem: str) -> str:
    """The sort_hand rule for a kind of problem: none, changed, same, type or order."""
    return {
        "none": "sort_hand must return the sorted list. list.sort() sorts in place and returns "
                "None; sorted(hand, reverse=True) returns a new list.",
        "changed": "sort_hand must leave the list it is given unchanged and return a NEW list.",
        "same": "sort_hand must return a NEW list, not the list it was given.",
        "type": "sort_hand must return a list.",
        "order": "sort_hand returns the cards from highest to lowest.",
    }[problem]


def why_has_pair(hand: list[int], returned: object = None) -> str:
    """Why the hand is or is not a pair."""
    # counted here rather than with the kit's has_triple, which the student kit leaves out
    if hand.count(hand[0]) == len(hand):
        return "A triple is not a pair: has_pair is True only when exactly two cards match."
    if rules.has_pair(hand):
        return "Two cards have the same rank and the third is different: that is a pair."
    return "No two cards have the same rank, so there is no pair."


def why_has_straight(hand: list[int], returned: object = None) -> str:
    """Why the hand is or is not a straight (the Ace cases first)."""
    ranks = set(hand)
    if ranks == {14, 2, 3}:
        return "An Ace counts only high in a straight: A 2 3 is not a straight."
    if ranks == {13, 14, 2}:
        return "The Ace counts only high and a straight does not wrap around: K A 2 is not one."
    if rules.has_straight(hand):
        return "Three consecutive ranks are a straight, e.g. 7 6 5 or Q J X."
    if len(ranks) < 3:
        return "A straight needs three different ranks: a pair or a triple is never a straight."
    return "A straight needs all three ranks consecutive: 9 8 2 is not a straight."


def why_has_triple(hand: list[int], returned: object = None) -> str:
    """Why the hand is or is not a triple."""
    if rules.has_triple(hand):
        return "All three cards have the same rank: that is a triple."
    if rules.has_pair(hand):
        return "Only two of the three ranks are equal; a triple needs all three equal."
    return "The three ranks are different, so there is no triple."


def why_score_hand(hand: list[int], returned: object = None) -> str:
    """The feature value rule for the hand's kind."""
    feature = rules.feature_value(hand)
    if feature == rules.TRIPLE_FEATURE:
        return "A triple has the feature value 16."
    if feature == rules.STRAIGHT_FEATURE:
        return "A straight has the feature value 15 (a triple is checked first)."
    if feature:
        return "A pair's feature value is the rank that appears twice (a triple is not a pair)."
    return "A hand without a feature has the feature value 0; the three cards still count."


def score_sum(hand: list[int]) -> str:
    """The handout's calculation for one sorted hand, e.g. '9·4096 + 9·256 + 9·16 + 2 = 39314'."""
    high, middle, low = hand
    feature = rules.feature_value(hand)
    return (f"{rules.hand_to_string(hand)} has {kind_of(hand)}, feature {feature}: "
            f"{feature}·4096 + {high}·256 + {middle}·16 + {low} = {rules.score_hand(hand)}")


def why_dealer_plays(hand: list[int], returned: object = None) -> str:
    """Why the dealer plays or folds this hand."""
    if rules.feature_value(hand):
        return ("The dealer plays every hand with a feature (pair, straight or triple), even "
                "without a Queen: 7 7 2 is played.")
    if max(hand) == rules.QUEEN:
        return "A Queen (rank 12) is enough for the dealer to play: Q 7 5 is played."
    if max(hand) > rules.QUEEN:
        return "A King or an Ace (rank 13 or 14) is enough for the dealer to play."
    return ("Without a feature and without a card of rank 12 (Queen) or higher, the dealer "
            "folds: J 9 4 is folded.")
