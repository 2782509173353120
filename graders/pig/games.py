"""Pig's games: its questions for the console driver, the games the grader plays (the dice
of every turn), and the readers of what the screen shows after a roll and after a turn."""
from __future__ import annotations

import re
from dataclasses import dataclass

from graders.engine.drive import answers, driver
from graders.engine.drive.scripted import Stop

GOAL, HOLDS_AT = 100, 20
# The names a program may give the players ("Your score", "CPU: 20", the name it asked for),
# and the lines that are no score line: a roll, a turn total, what a turn banked
PLAYERS = {"player": ("you", "your", "player", "human", "me", "Sam"),
           "computer": ("computer", "computer's", "cpu", "comp", "ai", "bot", "opponent")}
NOT_SCORES = r"roll|turn|bank|\bhold|\blose|\blost|\bgets?\b|\badds?\b|\+"
NAMES = {"player": "you", "computer": "the computer"}
MOVE = driver.Question("move", re.compile(r"\broll|\bhold\b|\bbank\b|\bthrow|\bgo again\b|"
                                          r"\(r\)|\(h\)", re.I),
                       "the roll-or-hold question", {"roll": "yes", "hold": "no"},
                       opposite=answers.asks_to_stop)    # "Hold? (y/n)": yes means hold
AGAIN = driver.Question("again", re.compile(r"\bagain\b|another|new game|play (one )?more|more "
                                            r"time|replay|rematch|restart", re.I), "'Play again?'",
                        {"no": "no"})
GAME = driver.Game((MOVE, AGAIN), turn="move", throws={"roll": 1}, end={"again": "no"},
                   players=PLAYERS, not_scores=NOT_SCORES)
EXTRA_TURNS = 6                     # the player's turns after the plan, if the game goes on
# dice for a program that rolls more than one die before its first question (the computer
# plays first): the computer's turn holds at 21, then your first roll is no 1
SPARE = [6, 6, 6, 6]


@dataclass(frozen=True)
class Plan:
    """A game: the dice of the player's turns (ending with a 1, else the player holds) and
    of the computer's turns, in turn order, the player first."""

    name: str
    player: tuple
    computer: tuple

    def describe(self) -> str:
        turns = zip(self.player, self.computer + ((),))
        return "; ".join(f"{who} {list(faces)}" for pair in turns
                         for who, faces in zip(("you", "the computer"), pair) if faces)


YOU_WIN = Plan("you win", ([3, 1], [4, 6, 5], [5, 5], [6] * 12 + [3]),
               ([6, 6, 4, 4], [2, 1], [5, 5, 5, 4, 3]))
COMPUTER_WINS = Plan("computer wins", ([2, 2, 1], [5], [4, 4, 1], [6, 6], [3, 1]),
                     ([6, 6, 6, 6], [6, 6, 6, 6], [5, 6, 6, 2, 6], [4, 6, 6, 6], [6, 6, 6, 2]))
PLANS = (YOU_WIN, COMPUTER_WINS)
PUBLIC = (YOU_WIN,)                 # the students' self-check plays this one only


def chooser(plan: Plan):
    """Roll until the turn has the plan's dice, then hold; at a turn's first question, load
    the rest of its dice, the computer's next turn and the first die of the turn after."""
    def choose(asked, run):
        mine = [turn for turn in run.turns if turn.player == "player"]
        turn, index = mine[-1], len(mine) - 1
        if index >= len(plan.player) + EXTRA_TURNS:
            return Stop(f"the game went on for {EXTRA_TURNS} turns after the plan's last")
        planned = plan.player[index] if index < len(plan.player) else [4]
        load = None
        if not turn.meanings:
            its = plan.computer[index] if index < len(plan.computer) else [6, 6, 6, 6]
            following = plan.player[index + 1][:1] if index + 1 < len(plan.player) else [4]
            load = list(planned[len(turn.faces):]) + list(its) + list(following)
        return driver.Answer("roll" if len(turn.faces) < len(planned) else "hold", load)
    return choose


def play(target, folder, plan: Plan, limits) -> driver.Run:
    first = plan.player[0][:1] + SPARE + plan.player[0][:1]
    return driver.play(target, folder, GAME, chooser(plan), first, limits)
