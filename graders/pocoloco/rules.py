"""PocoLoco's rules, as the kit reads the handout: ranking, points, chip transfers.

Interpretations that all score full marks (see the handout's "Where you decide"):
* a player owing more chips than they have may pay what they have (the loser getting what was
  paid, or the full amount) or go below zero;
* ties for highest or lowest may be broken by any fair rule, so every tied player is accepted.
"""
from __future__ import annotations

FACE_POINTS = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
CHIPS_FOR = {"points": 1, "loco": 2, "triple": 3, "poco": 4}
CATEGORY_NAMES = {"points": "a points total", "loco": "Loco!", "triple": "a three-of-a-kind",
                  "poco": "PoCo!"}


def category(roll) -> str:
    faces = sorted(roll)
    if faces == [4, 5, 6]:
        return "poco"
    if faces[0] == faces[2]:
        return "triple"
    if faces == [1, 2, 3]:
        return "loco"
    return "points"


def points(roll) -> int:
    """The points total of a roll (only meaningful for the 'points' category)."""
    return sum(FACE_POINTS[f] for f in roll)


def rank(roll) -> tuple[int, int]:
    """A sortable rank: PoCo > 6-6-6 > ... > 1-1-1 > Loco > points totals."""
    kind = category(roll)
    if kind == "poco":
        return (3, 0)
    if kind == "triple":
        return (2, roll[0])
    if kind == "loco":
        return (1, 0)
    return (0, points(roll))


def describe(roll) -> str:
    kind = category(roll)
    shown = " ".join(str(f) for f in roll)
    if kind == "points":
        return f"{shown} ({points(roll)} points)"
    name = f"three {roll[0]}s" if kind == "triple" else CATEGORY_NAMES[kind]
    return f"{shown} ({name})"


def highest_and_lowest(final_rolls: dict[str, list[int]]) -> tuple[set[str], set[str]]:
    """The players tied for the best roll, and those tied for the worst."""
    ranks = {name: rank(roll) for name, roll in final_rolls.items()}
    best, worst = max(ranks.values()), min(ranks.values())
    return ({n for n, r in ranks.items() if r == best}, {n for n, r in ranks.items() if r == worst})


def transfer_amount(final_rolls: dict[str, list[int]]) -> int:
    best = max(final_rolls.values(), key=rank)
    return CHIPS_FOR[category(best)]


def acceptable_chips(before: dict[str, int], loser: str, amount: int) -> list[dict[str, int]]:
    """Every chip count after the round that a reasonable reading of the rules allows."""
    payers = [n for n in before if n != loser]
    results = []
    # 1. everyone pays the full amount, going below zero if need be
    full = dict(before)
    for name in payers:
        full[name] -= amount
    full[loser] += amount * len(payers)
    results.append(full)
    # 2. short players pay what they have; the loser gets what was paid / the full amount
    paid = {n: max(0, min(amount, before[n])) for n in payers}
    for loser_gets in (sum(paid.values()), amount * len(payers)):
        capped = dict(before)
        for name in payers:
            capped[name] -= paid[name]
        capped[loser] += loser_gets
        results.append(capped)
    unique = []
    for r in results:
        if r not in unique:
            unique.append(r)
    return unique
