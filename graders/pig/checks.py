"""The Pig grader: the games are played once per submission (``games``), with loaded dice,
and each check judges one rubric item over every turn the games showed.

Each item follows the program's own scores (the ones it shows), so one mistake costs one
item: a turn total banked wrongly is the hold item's, not the winner's.
"""
from __future__ import annotations

import re

import pytest

from graders.engine.drive import driver
from graders.engine.grading.replay import play_games
from graders.engine.run.harness import run_folder
from graders.engine.judge import readability
from graders.engine.judge.requirements import Requirement, score

from . import games

TITLE = "Transcript («…» is what the grader typed; [dice: …] the dice it loaded)"


@pytest.fixture(scope="session")
def games_played(submission, budget, self_check, attach):
    """plan name -> the game played (None: out of budget); transcripts go to the report."""
    def play(plan):
        with run_folder(submission, "game") as folder:
            return games.play(folder / submission.main_name, folder, plan,
                              budget.limits(cpu_seconds=3))
    return play_games(games.PUBLIC if self_check else games.PLANS, budget, attach, play,
                      games.PUBLIC)


def turns_of(result, games_played):
    """(game, run, index, turn, scores before, scores after) of every turn played."""
    return driver.every_turn(result, games_played, {p.name: p.describe() for p in games.PLANS}.get)


def need(ok, name, run, turn, case, expected, actual, why) -> Requirement:
    return Requirement(ok, f"Game '{name}', {games.NAMES[turn.player]} rolled "
                       f"{turn.faces}: {case}", expected, actual, why, len(turn.faces),
                       run.excerpt(turn.start, turn.end), TITLE)


@pytest.mark.item("set-up")
def check_set_up(result, games_played):
    """You go first; both scores start at 0."""
    found = []
    for name, run, index, turn, before, after in turns_of(result, games_played):
        if index == 0:
            found.append(need(turn.player == "player", name, run, turn, "the first turn",
                              "your turn", f"{games.NAMES[turn.player]}'s turn",
                              "You play first."))
            start = dict(before)            # shown at the start, else after your first turn
            if turn.player == "player" and "computer" in after:
                start.setdefault("computer", after["computer"])
            found += [need(points == 0, name, run, turn, f"{games.NAMES[who]}'s score at the "
                           "start", "0", str(points), "Both scores start at 0.")
                      for who, points in start.items()]
    score(result, found, "things checked at the start of the games")


@pytest.mark.item("one-loses-turn")
def check_one_loses_turn(result, games_played):
    """A 1 ends the turn and its turn total is lost."""
    found = []
    for name, run, index, turn, before, after in turns_of(result, games_played):
        if 1 not in turn.faces:
            continue
        who = turn.player
        found.append(need(turn.faces.index(1) == len(turn.faces) - 1, name, run, turn,
                          "the turn after the 1", "the turn ends at the 1",
                          "more rolls of the same turn", "A 1 ends the turn."))
        if who in before and who in after:
            found.append(need(after[who] == before[who], name, run, turn, "the score after "
                              "the 1", str(before[who]), str(after[who]),
                              "A 1 loses the turn total: the score stays as it was."))
    score(result, found, "turns with a 1")


@pytest.mark.item("hold-banks")
def check_hold_banks(result, games_played):
    """Holding adds the turn total to the player's score."""
    found = []
    for name, run, index, turn, before, after in turns_of(result, games_played):
        who = turn.player
        if 1 in turn.faces or not turn.faces or who not in before or who not in after:
            continue
        total = sum(turn.faces)
        found.append(need(after[who] == before[who] + total, name, run, turn, "the score "
                          "after holding", f"{before[who]} + {total} = {before[who] + total}",
                          str(after[who]), "Holding banks the turn total: it is added to "
                          "the score."))
    score(result, found, "turns that ended with a hold")


@pytest.mark.item("shown")
def check_shown(result, games_played):
    """The turn total after each of your rolls, both scores after each turn."""
    found = []
    for name, run, index, turn, before, after in turns_of(result, games_played):
        for at, roll in enumerate(turn.rolls if turn.player == "player" else []):
            total = sum(turn.faces[:at + 1])
            if roll.face != 1 and 1 not in turn.faces[:at]:
                shown = str(total) in re.findall(r"\d+", roll.printed)
                found.append(need(shown, name, run, turn, f"after roll {at + 1}",
                                  f"the turn total {total}",
                                  roll.printed.strip()[-200:], "Show the turn total after "
                                  "each roll."))
        if turn.unread():
            continue                # numbers the reader could not place: not judged here
        found.append(need(len(after) == 2, name, run, turn, "after the turn", "both scores",
                          ", ".join(f"{games.NAMES[who]} {n}" for who, n in after.items())
                          or "no score", "Show both scores after every turn."))
    score(result, found, "things that should be shown")


@pytest.mark.item("strategy")
def check_strategy(result, games_played):
    """The computer rolls while its turn total is under 20, then holds."""
    found = []
    for name, run, index, turn, before, after in turns_of(result, games_played):
        if turn.player != "computer" or index == len(run.turns) - 1 and not run.ended:
            continue
        totals = [sum(turn.faces[:at + 1]) for at in range(len(turn.faces))]
        early = [total for total in totals[:-1] if total >= games.HOLDS_AT]
        held = turn.faces[-1] == 1 or totals[-1] >= games.HOLDS_AT
        found.append(need(not early and held, name, run, turn, "the computer's turn",
                          "rolls until the turn total is 20 or more, then holds",
                          f"rolled again at {early[0]}" if early else
                          f"held at {totals[-1]}", "The computer holds at 20 or more."))
    score(result, found, "turns of the computer")


@pytest.mark.item("winner")
def check_winner(result, games_played):
    """The game ends after the turn that reaches 100, and says who won."""
    found, seen = [], set()
    for name, run, index, turn, before, after in turns_of(result, games_played):
        last = index == len(run.turns) - 1
        won = [who for who, points in after.items() if points >= games.GOAL]
        if name in seen or not (won or last and run.ended) or not won and turn.unread():
            continue
        seen.add(name)
        found.append(need(bool(won) and last and run.ended, name, run, turn, "the end",
                          "the game ends when a score reaches 100", "the game went on"
                          if won else "it ended with no score of 100", f"The first to "
                          f"{games.GOAL} wins, and the game ends there."))
        if won:
            found.append(need(run.winner_named(turn.after, won[0]), name, run, turn,
                              "the winner", f"{games.NAMES[won[0]]} named as the winner",
                              turn.after.strip()[-200:], "Say who won."))
    score(result, found, "game endings")


@pytest.mark.item("line-length")
def check_line_length(result, submission):
    """No line longer than 100 characters."""
    readability.check_line_length(result, submission)


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Names, docstrings, comments: measured, then confirmed by a TA."""
    readability.check_readability(result, submission, rubric)
