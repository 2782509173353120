"""The scenarios the PocoLoco grader plays, each with loaded dice.

Dice are planned by (round, position in that round's order): a list of rolls, the last one
repeating if the player rolls more often. Positions let one plan fit every program, whoever
its computer players are. Rounds are numbered from 0 here (the program's "Round 1").
"""
from __future__ import annotations

from .play import Scenario
from .policy import Plan

POCO, SIX3, ONE3, LOCO = [4, 5, 6], [6, 6, 6], [1, 1, 1], [1, 2, 3]


def _rounds(*rounds):
    """dice[(round, pos)] from per-round lists of per-position roll lists."""
    return {(r, pos): rolls for r, per_pos in enumerate(rounds) for pos, rolls in
            enumerate(per_pos)}


# Seven rounds with 20 chips each: nobody can reach 0 (a payer loses at most 18).
LONG = Scenario(
    "long", 20, Plan(
        human_position=[1, 0, 3, 2, 1, 2, 0],
        dice=_rounds(
            # 0: PoCo first, so everyone is limited to one roll; loser 2 2 4 (8 points)
            [[POCO], [[2, 3, 5]], [[1, 4, 6]], [[2, 2, 4]]],
            # 1: the human rolls three times (ends on 2 2 5 = 9) and loses to 6 6 6
            [[[2, 3, 4], [3, 3, 5], [2, 2, 5]], [SIX3], [ONE3], [LOCO]],
            # 2: points only, no 1s or 6s: 14 beats 12, 10; the human's 8 loses
            [[[5, 5, 4]], [[3, 4, 5]], [[2, 3, 5]], [[2, 2, 4]]],
            # 3: 1 = 100 and 6 = 60 decide it: 162 wins, 14 loses (plain face sums differ)
            [[[1, 6, 2]], [[6, 6, 5]], [[1, 3, 5]], [[5, 5, 4]]],
            # 4: Loco! (the human's) beats 165 points; 11 loses; 2 chips each
            [[[1, 5, 6]], [LOCO], [[2, 6, 6]], [[3, 4, 4]]],
            # 5: three-of-a-kinds in order: 5 5 5 beats 2 2 2 and 1 1 1; 14 loses
            [[ONE3], [[5, 5, 5]], [[2, 2, 2]], [[4, 5, 5]]],
            # 6: an unsorted PoCo (6 5 4) beats 6 6 6; 7 loses; 4 chips each
            [[SIX3], [[6, 5, 4]], [[3, 3, 3]], [[2, 2, 3]]],
        )),
    human_rolls={1}, rounds=7,
    purpose="seven rounds covering every kind of roll")

# Ties: two-way and three-way for lowest, then two PoCos tie for highest. No 1s or 6s in
# the points rolls, so how a program scores those cannot change who ties.
TIES = Scenario(
    "ties", 10, Plan(
        human_position=[0, 0, 0],
        dice=_rounds(
            [[[5, 5, 4]], [[2, 3, 5]], [[4, 4, 5]], [[3, 3, 4]]],
            [[[5, 5, 4]], [[2, 3, 5]], [[2, 4, 4]], [[3, 3, 4]]],
            [[POCO], [[6, 5, 4]], [[2, 2, 3]], [[3, 4, 5]]],
        )),
    rounds=3, purpose="ties for the lowest (two and three players) and for the highest")

# Three rounds from 3 chips: the human is the only one to reach 0. The third round's PoCo!
# asks 4 chips of a human who has 1 left (3 left where the program asks for 5 chips or more):
# "not enough chips", paid in any of the ways the handout allows, ends the game.
GAME_OVER = Scenario(
    "game-over", 3, Plan(
        human_position=[0, 0, 0, 0],
        dice=_rounds(
            [[[1, 5, 6]], [[2, 2, 3]], [[1, 4, 6]], [[1, 3, 6]]],
            [[[1, 5, 6]], [[1, 4, 6]], [[2, 2, 3]], [[1, 3, 6]]],
            [[POCO], [[1, 4, 6]], [[1, 3, 6]], [[2, 2, 3]]],
        ), filler=[[1, 5, 6], [1, 4, 6], [1, 3, 6], [2, 2, 3]]),
    rounds=None, purpose="a whole game, which the human wins after three rounds, paying the "
                         "last round's chips with fewer than it owes")

# Eleven one-chip rounds, to see the round box at two digits.
ROUND_TEN = Scenario(
    "round-ten", 30, Plan(human_position=[0], filler=[[1, 1, 6], [5, 5, 4], [3, 4, 4],
                                                      [2, 2, 3]]),
    rounds=10, purpose="ten rounds, to check the round box at Round 10")

# Strategy: the human always rolls three times, so computers have rolls to spend.
STRATEGY = Scenario(
    "strategy", 20, Plan(
        human_position=[0, 0],
        dice=_rounds(
            # 0: a computer with 6 6 6 (only PoCo! beats it) should hold; then everyone has
            #    one roll: the last player's 2 2 3 (the worst roll) may not be rolled again
            #    (a limit taken from the first player's rolls, not the one before, shows)
            [[[5, 5, 4]], [SIX3, [2, 2, 3]], [[1, 5, 6]], [[2, 2, 3], [1, 4, 6]]],
            # 1: computers on 2 2 3 (the worst roll) should roll again; the last one on 260
            #    points, below everyone's three-of-a-kinds, should roll again too
            [[[5, 5, 5]], [[2, 2, 3], [2, 2, 3], [4, 4, 4]], [[2, 2, 3], [2, 2, 3], SIX3],
             [[1, 1, 6]]],
        )),
    human_rolls=True, rounds=2, purpose="computer decisions where one choice is clearly better")

ALL = [LONG, TIES, GAME_OVER, ROUND_TEN, STRATEGY]
# the students' self-check plays these only (the games of the public items)
PUBLIC = [LONG, ROUND_TEN]


def name_clash(computer: str) -> Scenario:
    """Two rounds in which the human types a computer's name (learned from the 'long' game),
    and says no to an optional "read the rules?" question: the names must stay distinct, and
    a game that let two players share a name often breaks only when the first round ends."""
    return Scenario(
        "name-clash", 10, Plan(human_position=[0], filler=[[2, 3, 5], [5, 5, 4], [3, 4, 4],
                                                           [2, 2, 3]]),
        rounds=2, rules="no", typed_name=computer,
        purpose=f"the human types a computer player's name ({computer})")
