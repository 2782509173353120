"""The console-game driver (engine/driver.py) on small games: answers typed as each prompt
offers them and retried in other forms, "Play again?" refused in other words, and the
transcript split into turns whether the program rolls first or asks first."""
from __future__ import annotations

import re
import textwrap

from graders.engine.drive import answers, driver

GAME = """
    import random

    def turn(first_asks):
        total = 0
        if first_asks and input({question!r}) != {roll!r}:
            return 0
        while True:
            die = random.randint(1, 6)
            print("You rolled", die)
            if die == 1:
                return 0
            total += die
            answer = input({question!r})
            while answer not in ({roll!r}, {hold!r}):
                answer = input("Sorry, that is not an answer. " + {question!r})
            if answer == {hold!r}:
                return total

    score = 0
    for _ in range(2):
        score += turn({asks_first})
        print("Score:", score)
        print("Computer rolled", random.randint(1, 6), random.randint(1, 6))
    answer = input("Play again? (y/n) ")
    while answer != "no":
        answer = input("Please answer no or yes: ")
    print("Bye")
"""
MOVE = driver.Question("move", re.compile(r"roll|hold", re.I), "the move",
                       {"roll": "yes", "hold": "no"})
AGAIN = driver.Question("again", re.compile(r"again|answer no", re.I), "again", {"no": "no"})
PLAN = [[3, 4], [5]]                 # two turns: roll then hold, hold at once
COMPUTER = [[6, 6], [2, 2]]


def choose(asked, run):
    """Roll until the turn has its plan's dice, then hold; load the turn's rest at its start
    (and the computer's two dice after it)."""
    mine = [turn for turn in run.turns if turn.player == "player"]
    planned, turn = PLAN[len(mine) - 1], mine[-1]
    load = None
    if not turn.meanings:
        following = PLAN[len(mine)][:1] if len(mine) < len(PLAN) else []
        load = planned[len(turn.faces):] + COMPUTER[len(mine) - 1] + following
    return driver.Answer("roll" if len(turn.faces) < len(planned) else "hold", load)


def play(tmp_path, question, roll, hold, asks_first):
    (tmp_path / "game.py").write_text(textwrap.dedent(GAME).format(
        question=question, roll=roll, hold=hold, asks_first=asks_first))
    game = driver.Game((MOVE, AGAIN), "move", {"roll": 1}, {"again": "no"},
                       read=lambda text: {"score": int(re.findall(r"Score: (\d+)", text)[-1])}
                       if "Score" in text else {})
    return driver.play(tmp_path / "game.py", tmp_path, game, choose, PLAN[0][:1])


def test_rolling_first_or_asking_first_gives_the_same_turns(tmp_path):
    for asks_first in (False, True):
        run = play(tmp_path, "(r)oll or (h)old? ", "r", "h", asks_first)
        assert run.ended and run.asks_first == asks_first
        assert [(turn.player, turn.faces) for turn in run.turns] == [
            ("player", [3, 4]), ("computer", [6, 6]), ("player", [5]), ("computer", [2, 2])]
        # Game.read of what follows each turn's last die (the score is printed before the
        # computer rolls)
        assert [turn.shown for turn in run.turns] == [{"score": 7}, {}, {"score": 12}, {}]
        assert run.turns[0].meanings == (["roll", "roll", "hold"] if asks_first
                                         else ["roll", "hold"])


def test_refused_forms_are_retried_and_the_taken_one_is_kept(tmp_path):
    """'1 = roll, 2 = hold' takes 1 and 2; a program that takes only whole words gets the
    words after its re-prompt in other words, and 'Play again?' gets 'no' after 'n'."""
    run = play(tmp_path, "1 = roll, 2 = hold: ", "1", "2", False)
    assert [step.typed for step in run.steps] == [["1"], ["2"], ["2"]]
    run = play(tmp_path, "Roll or hold? ", "roll", "hold", False)
    assert run.ended and not run.refused
    assert run.steps[0].typed[0] == "Roll" and run.steps[0].typed[-1] == "roll"
    assert run.steps[-1].typed == ["hold"]
    assert "no" in run.transcript.text.split("Play again?")[1]


def test_a_question_asked_the_other_way_round_is_answered_as_it_asks(tmp_path):
    """'Do you want to hold? (y/n)': yes means hold, so rolling on is typed as n
    (Question.opposite, answers.asks_to_stop); '(r)oll or (h)old?' is not turned round."""
    move = driver.Question("move", MOVE.words, "the move", MOVE.meanings,
                           opposite=answers.asks_to_stop)
    for question, roll, hold in (("Do you want to hold? (y/n) ", "n", "y"),
                                 ("Hold? [Y/n] ", "n", "y"), ("(r)oll or (h)old? ", "r", "h")):
        (tmp_path / "game.py").write_text(textwrap.dedent(GAME).format(
            question=question, roll=roll, hold=hold, asks_first=False))
        game = driver.Game((move, AGAIN), "move", {"roll": 1}, {"again": "no"})
        run = driver.play(tmp_path / "game.py", tmp_path, game, choose, PLAN[0][:1])
        assert [(turn.player, turn.faces) for turn in run.turns] == [
            ("player", [3, 4]), ("computer", [6, 6]), ("player", [5]), ("computer", [2, 2])]
        assert [step.typed[-1] for step in run.steps] == [roll, hold, hold], question


def test_a_die_the_screen_gives_the_other_side_is_a_misread():
    """Right after a die read as the player's, 'Computer rolled 4' names the other side
    only: the reading is contradicted. A line naming both sides, or none, or another face,
    says nothing against it."""
    players = {"player": ("you", "your"), "computer": ("computer", "cpu")}

    def turn(player, printed):
        return driver.Turn(player, [driver.Roll(4, printed)])
    found = driver.misread([turn("player", "Computer rolled 4\nScores: you 0, computer 4")],
                           players)
    assert found and "Computer rolled 4" in found[0]
    for player, printed in (("player", "You rolled 4 (turn total 4)"),
                            ("computer", "Computer rolled 4"),
                            ("player", "You rolled 4, the computer rolled 4"),
                            ("player", "Computer rolled 5"), ("player", "+---+\n| 4 |")):
        assert driver.misread([turn(player, printed)], players) == [], printed


def test_a_name_the_program_gives_the_computer_is_learned():
    """'HAL rolled 6' on every line of the computer's dice, never on the player's: HAL is the
    computer, and its scores are read by that name. A name on only some lines is not."""
    players = {"player": ("you",), "computer": ("computer", "cpu")}

    def turn(player, lines):
        return driver.Turn(player, [driver.Roll(face, line) for face, line in lines])
    turns = [turn("player", [(3, "You rolled 3"), (5, "You rolled 5")]),
             turn("computer", [(6, "HAL rolled 6. Turn total: 6"), (4, "HAL rolled 4")])]
    learned = driver.learn_names(turns, players)
    assert learned["computer"] == ("computer", "cpu", "HAL") and learned["player"] == ("you",)
    turns[1].rolls[1].printed = "It rolled 4"
    assert driver.learn_names(turns, players) == players


def test_random_random_is_a_die_until_the_program_rolls_another_way(tmp_path):
    """int(random.random() * 6) + 1 is loaded like randint(1, 6); once randint has rolled,
    random() is a decision of the program's, not a die."""
    (tmp_path / "game.py").write_text(textwrap.dedent("""
        import random
        print([int(random.random() * 6) + 1 for _ in range(3)])
        print(random.randint(1, 6), round(random.random(), 3))
    """))
    session = driver.Session.start(tmp_path / "game.py", tmp_path,
                                   policy=driver.ScriptedDice([2, 6, 1, 5, 3]))
    while session.wait() is not None:
        pass
    session.close()
    lines = session.transcript.text.splitlines()
    assert "[2, 6, 1]" in lines[0] and lines[1].startswith("5 ")
    assert [face for _, face in driver.die_marks(session.transcript)] == [2, 6, 1, 5]


def test_a_numbered_label_is_learned_whole_and_is_no_contradiction():
    """The computer called 'Player 2': learned as 'Player 2' (not 'Player' alone), and its
    lines do not name the human though 'player' is one of the human's spellings."""
    players = {"player": ("you", "player", "Sam"), "computer": ("computer", "cpu")}
    turns = [driver.Turn("player", [driver.Roll(3, "Sam rolled 3"),
                                    driver.Roll(5, "Sam rolled 5")]),
             driver.Turn("computer", [driver.Roll(6, "Player 2 rolled 6. Turn total: 6"),
                                      driver.Roll(4, "Player 2 rolled 4. Turn total: 10")])]
    learned = driver.learn_names(turns, players)
    assert learned["computer"][-1] == "Player 2"
    assert driver.misread(turns, learned) == []
    run = driver.Run(driver.Game((), "move"), players=learned)
    assert run.winner_named("Player 2 wins the game with 115 points!", "computer")
    assert not run.winner_named("Player 2 wins the game with 115 points!", "player")
