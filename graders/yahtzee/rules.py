"""The handout's scoring rules as the grader computes them (standard library only: the is_
functions are also swapped into a student's module, see functions.py)."""
from __future__ import annotations

from functools import lru_cache
from itertools import product

OPTIONS = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
           "Three Of A Kind", "Four Of A Kind", "Full House", "Small Straight",
           "Large Straight", "Yahtzee", "Chance")
UPPER = OPTIONS[:6]
FIXED = {"Full House": 25, "Small Straight": 30, "Large Straight": 40, "Yahtzee": 50}
JOKER_OPTIONS = ("Full House", "Small Straight", "Large Straight")


def all_rolls() -> list[list[int]]:
    """The 7776 ordered throws of five dice, smallest first ([1, 1, 1, 1, 1] ...)."""
    return [list(roll) for roll in product(range(1, 7), repeat=5)]


def is_three_of_a_kind(dice) -> bool:
    """At least three dice alike."""
    return max(map(list(dice).count, dice)) >= 3


def is_four_of_a_kind(dice) -> bool:
    """At least four dice alike."""
    return max(map(list(dice).count, dice)) >= 4


def is_full_house(dice) -> bool:
    """Three of one number and two of another."""
    return sorted(map(list(dice).count, set(dice))) == [2, 3]


def is_small_straight(dice) -> bool:
    """Four numbers in a row among the dice."""
    return any({low, low + 1, low + 2, low + 3} <= set(dice) for low in (1, 2, 3))


def is_large_straight(dice) -> bool:
    """Five numbers in a row."""
    return set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_yahtzee(dice) -> bool:
    """Five dice alike."""
    return len(set(dice)) == 1


def score(dice, option: str, history=None) -> int:
    """The points of the dice in an option, without a joker (``history`` is not read: it is
    there for calculate_score's signature)."""
    return _score(tuple(sorted(dice)), option)


@lru_cache(maxsize=None)
def _score(dice: tuple, option: str) -> int:
    """score() of sorted dice (asked for every throw: cached)."""
    if option in UPPER:
        return (UPPER.index(option) + 1) * dice.count(UPPER.index(option) + 1)
    tests = {"Three Of A Kind": is_three_of_a_kind, "Four Of A Kind": is_four_of_a_kind,
             "Full House": is_full_house, "Small Straight": is_small_straight,
             "Large Straight": is_large_straight, "Yahtzee": is_yahtzee, "Chance": bool}
    return FIXED.get(option, sum(dice)) if tests[option](dice) else 0


def joker(dice, used) -> bool:
    """A Yahtzee whose upper box and the Yahtzee box are both used (with 50 or 0)."""
    return is_yahtzee(dice) and "Yahtzee" in used and UPPER[dice[0] - 1] in used


def joker_score(dice, option: str, used=()) -> int:
    """The points of the dice in an option; ``used``: the options played before (the joker)."""
    joker_points = option in JOKER_OPTIONS and joker(dice, used)
    return FIXED[option] if joker_points else score(dice, option)


def final_scores(history) -> tuple[int, int, int, int]:
    """(upper sum, upper bonus, lower sum, Yahtzee bonus) of a history in play order."""
    upper = sum(points for option, (points, _) in history.items() if option in UPPER)
    lower = sum(points for option, (points, _) in history.items() if option not in UPPER)
    bonus, allowed = 0, False
    for option, (points, dice) in history.items():
        bonus += 100 if allowed and is_yahtzee(dice) else 0
        allowed = allowed or (option == "Yahtzee" and points == 50)
    return upper, 35 if upper >= 63 else 0, lower, bonus


ITEMS = dict.fromkeys(UPPER + ("Chance",), "upper-section") | dict.fromkeys(
    ("Three Of A Kind", "Four Of A Kind", "Yahtzee"), "of-a-kind") | {
    "Full House": "full-house", "Small Straight": "straights", "Large Straight": "straights"}


def item_of(option: str, dice=()) -> str:
    """The rubric item of a score in this option (a Yahtzee scored as a Full House or a
    straight is the joker's, whether the joker applies or not)."""
    return "joker" if option in JOKER_OPTIONS and dice and is_yahtzee(dice) else ITEMS[option]
