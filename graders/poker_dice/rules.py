"""The kit's own, correct Poker Dice rules (the handout's "What a hand pays").

Standard library only and Python 3.8+: this file is also lent to the child that calls the
student's functions (as ``kit_poker_dice_rules``), where ``score_dice``, ``score_kit`` and
``payout`` call the student's calculateScore on Dice objects, with the kit's predicates, or
for the games (see ``functions.py``).
"""
import sys
import types
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


def values_of(dice):
    """The five face values of a list/tuple of ints or of a Dice-like object."""
    if hasattr(dice, "diceInSet"):
        return [die.value for die in dice.diceInSet]
    return [int(value) for value in dice]


def hand_name(dice):
    """The name of the hand five dice make, e.g. "Full House", or "Nothing"."""
    values = values_of(dice)
    if sorted(values) in STRAIGHTS:
        return "Straight"
    pattern = tuple(sorted(Counter(values).values(), reverse=True))
    return PATTERNS.get(pattern, "Nothing")


def calculateScore(dice):
    """(value, description) of the best hand, as the handout's calculateScore returns it."""
    name = hand_name(dice)
    return PAYOUTS[name], name


def is2Pair(d):
    """Two pairs of different faces and a fifth die unlike both."""
    return hand_name(d) == "2 Pair"


def is3ofAKind(d):
    """Exactly three alike, the other two not a pair."""
    return hand_name(d) == "3 of a Kind"


def isFullHouse(d):
    """Three of one face and two of another."""
    return hand_name(d) == "Full House"


def isStraight(d):
    """1-2-3-4-5 or 2-3-4-5-6 in any order."""
    return hand_name(d) == "Straight"


def is4ofAKind(d):
    """Exactly four alike."""
    return hand_name(d) == "4 of a Kind"


def is5ofAKind(d):
    """All five alike."""
    return hand_name(d) == "5 of a Kind"


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


# ----------------------------------------------------------------------------- stand-ins
# calculateScore is also judged with the kit's predicates in place of the student's, so that a
# wrong predicate is charged once. A program may reach its predicates by name, through a table
# built at import (CHECKS = [(is5ofAKind, 35, ...)]), a dict or getattr: so the student's
# function objects themselves get the kit's code (every reference sees it), and only what is
# not a plain function is replaced by name.
ORIGINALS = {}


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


def stand_in(name, args, kwargs):
    """The kit's answer for predicate ``name``; the student's own when the argument is not
    five dice (a Counter, a sorted tuple of counts...: a form only the student's code knows)."""
    given = args[0] if args else next(iter(kwargs.values()), None)
    values = five_faces(given)
    if values is None:
        return ORIGINALS[name](*args, **kwargs)
    return hand_name(values) == PREDICATES[name]


def _stand_in_template(*args, **kwargs):
    """The code given to a student's predicate: it needs no globals of the module it runs in
    ("NAME" is replaced by the predicate's name)."""
    import kit_poker_dice_rules as kit
    return kit.stand_in("NAME", args, kwargs)


def _stand_in_code(name):
    """A function running _stand_in_template's code for predicate ``name``."""
    code = _stand_in_template.__code__
    code = code.replace(co_consts=tuple(name if const == "NAME" else const
                                        for const in code.co_consts), co_name=name,
                        co_names=tuple(__name__ if used == "kit_poker_dice_rules" else used
                                       for used in code.co_names))
    return types.FunctionType(code, {"__builtins__": __builtins__}, name)


def swap_in(module, names):
    """Put the kit's predicates in place of the module's; returns what swap_out restores."""
    saved = []
    for name in names:
        target = getattr(module, name, None)
        if not callable(target):
            continue
        replacement = _stand_in_code(name)
        if isinstance(target, types.FunctionType) and not target.__code__.co_freevars:
            copy = types.FunctionType(target.__code__, target.__globals__, name,
                                      target.__defaults__, target.__closure__)
            copy.__kwdefaults__ = target.__kwdefaults__
            ORIGINALS[name] = copy
            saved.append(("code", target, (target.__code__, target.__defaults__,
                                           target.__kwdefaults__)))
            target.__code__ = replacement.__code__
            target.__defaults__ = target.__kwdefaults__ = None
        else:
            ORIGINALS[name] = target
            saved.append(("name", module, (name, target)))
            setattr(module, name, replacement)
    return saved


def swap_out(saved):
    """Undo swap_in."""
    for kind, owner, old in reversed(saved):
        if kind == "code":
            owner.__code__, owner.__defaults__, owner.__kwdefaults__ = old
        else:
            setattr(owner, old[0], old[1])


# ----------------------------------------------------------------------------- in the child
class CannotBuild(Exception):
    """The student's Dice and Die classes could not make a hand showing the roll."""


def student():
    """The student's project module, as the grader's child loaded it."""
    return sys.modules["project"]


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
    return student().calculateScore(as_dice(roll))


def score_kit(roll, dice=False):
    """calculateScore with the kit's predicates in place of the student's."""
    hand = as_dice(roll) if dice else roll
    saved = swap_in(student(), list(PREDICATES))
    try:
        return student().calculateScore(hand)
    finally:
        swap_out(saved)


def score_dice_kit(roll):
    """calculateScore on a Dice object, with the kit's predicates."""
    return score_kit(roll, dice=True)


def payout(roll):
    """[value, description] by the student's calculateScore (a Dice, else a list), or None."""
    for make in (as_dice, list):
        try:
            value = student().calculateScore(make(roll))
        except Exception:
            continue
        if type(value) is tuple and len(value) == 2 and type(value[0]) in (int, float) \
                and isinstance(value[1], str):
            return list(value)
    return None
