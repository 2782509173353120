"""The kit's own, correct Poker Dice rules (the handout's "What a hand pays").

Standard library only and Python 3.8+: this file is also lent to the child that calls the
student's functions (as ``kit_poker_dice_rules``), where ``score_dice`` and ``payout`` call
the student's calculateScore on Dice objects or for the games, and the predicates may stand in
for the student's (see ``functions.py``).
"""
import sys
from collections import Counter
from itertools import product

PAYOUTS = {"5 of a Kind": 35, "4 of a Kind": 25, "Straight": 20, "Full House": 15,
           "3 of a Kind": 10, "2 Pair": 5, "Nothing": 0}
PATTERNS = {(5,): "5 of a Kind", (4, 1): "4 of a Kind", (3, 2): "Full House",
            (3, 1, 1): "3 of a Kind", (2, 2, 1): "2 Pair"}
STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
PREDICATES = {"is5ofAKind": "5 of a Kind", "is4ofAKind": "4 of a Kind",
              "isStraight": "Straight", "isFullHouse": "Full House",
              "is3ofAKind": "3 of a Kind", "is2Pair": "2 Pair"}
RULE_TEXT = {
    "5 of a Kind": "5 of a Kind: all five dice match",
    "4 of a Kind": "4 of a Kind: exactly four dice match (five equal dice are 5 of a Kind)",
    "Straight": "Straight: 1 2 3 4 5 or 2 3 4 5 6, in any order",
    "Full House": "Full House: three dice of one face and two of another face",
    "3 of a Kind": "3 of a Kind: exactly three dice match and the other two are not a pair",
    "2 Pair": "2 Pair: two pairs of different faces and a fifth die unlike both",
    "Nothing": "Nothing: none of the six hands",
}


def hand_name(dice):
    """The name of the hand five dice make (any form ``five_faces`` reads), e.g. "Full House",
    or "Nothing"."""
    values = five_faces(dice)
    if sorted(values) in STRAIGHTS:
        return "Straight"
    pattern = tuple(sorted(Counter(values).values(), reverse=True))
    return PATTERNS.get(pattern, "Nothing")


def calculateScore(dice):
    """(value, description) of the best hand, as the handout's calculateScore returns it."""
    name = hand_name(dice)
    return PAYOUTS[name], name


def five_faces(dice):
    """Five faces 1-6 from a list/tuple of ints or Die objects or a Dice object, else None."""
    try:
        if hasattr(dice, "diceInSet"):
            dice = dice.diceInSet
        if not isinstance(dice, (list, tuple)):
            return None
        values = [int(getattr(value, "value", value)) for value in dice]
    except Exception:
        return None
    return values if len(values) == 5 and all(1 <= v <= 6 for v in values) else None


def _is(hand, args, kwargs):
    """Whether the first argument, five dice in any form, makes ``hand``. The predicates are
    also swapped (deeply) into the student's calculateScore, so that a wrong predicate is
    charged once: an argument that is not five dice (a Counter, a tuple of counts) is a form
    only the student's own predicate knows, and NotImplemented hands the call back to it."""
    given = args[0] if args else next(iter(kwargs.values()), None)
    values = five_faces(given)
    return NotImplemented if values is None else hand_name(values) == hand


def is2Pair(*args, **kwargs):
    """Two pairs of different faces and a fifth die unlike both."""
    return _is("2 Pair", args, kwargs)


def is3ofAKind(*args, **kwargs):
    """Exactly three alike, the other two not a pair."""
    return _is("3 of a Kind", args, kwargs)


def isFullHouse(*args, **kwargs):
    """Three of one face and two of another."""
    return _is("Full House", args, kwargs)


def isStraight(*args, **kwargs):
    """1-2-3-4-5 or 2-3-4-5-6 in any order."""
    return _is("Straight", args, kwargs)


def is4ofAKind(*args, **kwargs):
    """Exactly four alike."""
    return _is("4 of a Kind", args, kwargs)


def is5ofAKind(*args, **kwargs):
    """All five alike."""
    return _is("5 of a Kind", args, kwargs)


def isvalidDice(s):
    """The handout's isvalidDice: True/False, ValueError for a piece that is not a number."""
    numbers = [int(piece) for piece in s.split()]
    return len(numbers) > 0 and all(1 <= number <= 5 for number in numbers)


def all_rolls():
    """Every roll of five dice, in order: [1, 1, 1, 1, 1], [1, 1, 1, 1, 2], ... (7776)."""
    return [list(roll) for roll in product(range(1, 7), repeat=5)]


def shown(roll):
    """A roll as the handout writes it: '6 1 6 1 6'."""
    return " ".join(str(value) for value in roll)


# ----------------------------------------------------------------------------- in the child
class CannotBuild(Exception):
    """The student's Dice and Die classes could not make a hand showing the roll."""


def as_dice(roll):
    """A Dice object of the student's dice.py showing ``roll`` (CannotBuild if it cannot)."""
    try:
        import dice
        hand = dice.Dice()
        for face in roll:
            hand.addDie(dice.Die(face))
        shown = [die.value for die in hand.diceInSet]
    except Exception as exc:
        raise CannotBuild("%s: %s" % (type(exc).__name__, str(exc)[:200])) from None
    if shown != list(roll):
        raise CannotBuild("the hand shows %r" % (shown,))
    return hand


def score_dice(roll):
    """calculateScore on the roll as a Dice object."""
    return sys.modules["project"].calculateScore(as_dice(roll))


def payout(roll):
    """[value, description] by the student's calculateScore (a Dice, else a list), or None."""
    for make in (as_dice, list):
        try:
            value = sys.modules["project"].calculateScore(make(roll))
        except Exception:
            continue
        if type(value) is tuple and len(value) == 2 and type(value[0]) in (int, float) \
                and isinstance(value[1], str):
            return list(value)
    return None
