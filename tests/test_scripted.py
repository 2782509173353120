"""Scripted games (engine/scripted.py): a small dice game played from a script and judged."""
from __future__ import annotations

import re
import textwrap

import pytest

from graders.engine.drive import scripted
from graders.engine.drive.scripted import (Expect, Money, Questions, Scenario, Step, Stop, follow,
                                           judge, play)

GAME = """
    import random

    purse = 100
    dice = [random.randint(1, 6) for _ in range(5)]
    print("Dice:", *dice)
    while True:
        answer = input("Dice to re-roll (or H to hold)? ").strip().upper()
        if answer == "H":
            break
        if not answer.replace(" ", "").isdigit():
            continue
        for position in answer.split():
            dice[int(position) - 1] = random.randint(1, 6)
        print("Dice:", *dice)
    purse += sum(dice)
    print(f"You scored {sum(dice)}. Purse: ${purse}")
    if input("Play again? (y/n) ") == "n":
        print(f"Goodbye with ${purse}")
"""
QUESTIONS = Questions(lambda wording: "again" if "again" in wording else
                      "reroll" if "roll" in wording else None,
                      {"reroll": "the re-roll question", "again": "'Play again?'"})


def scenario(reroll: str, faces: list[int], purse: int) -> Scenario:
    """First roll 1 2 3 4 6; ``reroll`` (then faces), hold, then no to play again."""
    opening = Expect("At the start", 5, "the first roll is automatic")
    return Scenario("re-rolls", "a re-roll, a hold, then no", [1, 2, 3, 4, 6], opening, [
        Step("reroll", reroll, "the re-roll question", Expect(
            f"After «{reroll}»", len(faces), "it re-rolls those dice only"), faces),
        Step("reroll", "H", "the re-roll question", Expect(
            "After «H»", 0, "H holds", [("the purse", Money(purse)),
                                        ("the word Purse", re.compile("purse", re.I))])),
        Step("again", "n", "'Play again?'", Expect(
            "After «n»", 0, "a no ends the game", [("the purse", Money(purse))], ends=True))])


def test_a_script_that_the_game_follows_meets_every_expectation(tmp_path):
    (tmp_path / "game.py").write_text(textwrap.dedent(GAME))
    script = scenario("2 3", [6, 6], 100 + 1 + 6 + 6 + 4 + 6)
    played = follow(tmp_path / "game.py", tmp_path, script, QUESTIONS)
    found = judge(script, played, QUESTIONS)
    assert len(found) == script.size == 11
    assert all(requirement.ok for requirement in found), [r.case for r in found if not r.ok]
    assert played.typed == ["2 3", "H", "n"] and len(played.segments) == 4
    assert played.segments[1].faces == [6, 6] and played.ended_normally


def test_wrong_expectations_are_each_said_with_the_screen(tmp_path):
    (tmp_path / "game.py").write_text(textwrap.dedent(GAME))
    script = scenario("2 3", [6, 6, 6], 999)
    found = judge(script, follow(tmp_path / "game.py", tmp_path, script, QUESTIONS), QUESTIONS)
    wrong = [requirement for requirement in found if not requirement.ok]
    assert [r.case.split(",")[0].split(":")[0] for r in wrong] == \
        ["After «2 3»", "After «H»", "After «n»"]
    assert "expected 3 dice to be rolled (it re-rolls those dice only), but 2 dice were " \
        "rolled" in wrong[0].case and "«2 3»" in wrong[0].evidence
    assert wrong[1].case == "After «H»: the screen should show the purse."


def test_a_question_of_another_kind_or_after_the_end_stops_the_run(tmp_path):
    (tmp_path / "game.py").write_text(textwrap.dedent(GAME))
    early = scenario("2 3", [6, 6], 0)
    early.steps.insert(1, Step("again", "y", "'Play again?'", Expect("After «y»", 0)))
    played = follow(tmp_path / "game.py", tmp_path, early, QUESTIONS)
    assert played.stopped == "the program asked 'Dice to re-roll (or H to hold)?' instead"
    missing = [r for r in judge(early, played, QUESTIONS) if not r.ok and r.case]
    assert len(missing) == 1 and "the grader expected 'Play again?', but the program " \
        "asked" in missing[0].case and "counts as not done" in missing[0].case
    short = scenario("2 3", [6, 6], 0)
    del short.steps[2]
    short.steps[1].then.ends = True
    played = follow(tmp_path / "game.py", tmp_path, short, QUESTIONS)
    assert played.extra_prompt == "Play again? (y/n)"
    ends = judge(short, played, QUESTIONS)[-1]
    assert not ends.ok and "the game should end here, but the program asked 'Play again? " \
        "(y/n)'" in ends.case


def test_a_run_that_never_rolls_earns_nothing_and_a_driver_may_stop(tmp_path):
    (tmp_path / "game.py").write_text('input("Your name? ")\nprint("bye")\n')
    script = scenario("2 3", [6, 6], 0)
    played = play(tmp_path / "game.py", tmp_path, lambda prompt, session, typed: Stop(
        f"asked {prompt.wording!r}"), files=["nothing.txt"])
    assert played.transcript.gave_up == "asked 'Your name?'" and played.files == {
        "nothing.txt": None}
    found = judge(script, played, QUESTIONS)
    assert not any(requirement.ok for requirement in found) and len(found) == script.size
    assert found[0].case.startswith("In the 're-rolls' game did the program roll any dice: "
                                    "the game never started (the grader stopped the run")


@pytest.mark.parametrize("text, found", [
    ("Purse: $90.", [90]), ("$ 90 left", [90]), ("$90.00", [90]), ("now 90 dollars.", [90]),
    ("90$ left", [90]), ("pays $0. Your purse is now $85.", [0, 85]), ("1 dollar", [1]),
    ("Round 12 of 13, 2.5 s", [])])
def test_money_is_read_with_a_dollar_sign_or_in_words(text, found):
    """A handout writes $85; '85 dollars' shows the same amount, as a TA reads it."""
    assert scripted.amounts(text) == found
    assert all(scripted.shows(text, scripted.Money(amount)) for amount in found)


def test_a_confirmation_after_the_last_answer_is_answered_yes(tmp_path):
    """'Are you sure?' right after the answer that ends the game is confirmed (once), and
    what follows belongs to that answer: the goodbye shows the purse."""
    confirming = GAME.replace(
        '    if input("Play again? (y/n) ") == "n":\n',
        '    if input("Play again? (y/n) ") == "n" and \\\n'
        '            input("Are you sure you want to stop? (y/n) ") == "y":\n')
    assert confirming != GAME
    (tmp_path / "game.py").write_text(textwrap.dedent(confirming))
    script = scenario("2 3", [6, 6], 100 + 1 + 6 + 6 + 4 + 6)
    played = follow(tmp_path / "game.py", tmp_path, script, QUESTIONS)
    found = judge(script, played, QUESTIONS)
    assert all(requirement.ok for requirement in found), [r.case for r in found if not r.ok]
    assert played.typed == ["2 3", "H", "n"] and played.confirmed == {3}
    assert len(played.segments) == 4 and "Goodbye" in played.segments[3].text


def test_a_pause_is_answered_with_enter_wherever_it_comes(tmp_path):
    """'Press Enter to continue...' is not a question of the game: Enter, and what follows
    belongs to the answer before."""
    pausing = GAME.replace('    print(f"You scored {sum(dice)}. Purse: ${purse}")\n',
                           '    print(f"You scored {sum(dice)}. Purse: ${purse}")\n'
                           '    input("Press Enter to continue...")\n')
    assert pausing != GAME
    (tmp_path / "game.py").write_text(textwrap.dedent(pausing))
    script = scenario("2 3", [6, 6], 100 + 1 + 6 + 6 + 4 + 6)
    played = follow(tmp_path / "game.py", tmp_path, script, QUESTIONS)
    found = judge(script, played, QUESTIONS)
    assert all(requirement.ok for requirement in found), [r.case for r in found if not r.ok]
    assert played.typed == ["2 3", "H", "n"] and played.confirmed == {2}
    for wording, pause in (("Press Enter to deal the next hand...", True),
                           ("Continue playing? (y/n)", False),
                           ("Dice to re-roll (press Enter to hold): ", False),
                           ("Press Enter to roll, or q to quit: ", False)):
        assert scripted.is_pause(wording) == pause, wording


ROLL_OR_HOLD = """
    import random

    while True:
        print("Rolled", random.randint(1, 6))
        answer = input({question!r}).strip()
        while answer not in ({roll!r}, {hold!r}):
            answer = input({question!r}).strip()
        if answer == {hold!r}:
            print("Held.")
            break
"""


@pytest.mark.parametrize("question, roll, hold, typed", [
    ("(r)oll or (h)old? ", "r", "h", ["r", "h"]),
    ("1 = roll, 2 = hold: ", "1", "2", ["1", "2"]),
    ("Keep rolling? ", "yes", "no", ["y", "n"])])
def test_a_step_that_means_yes_or_no_is_typed_as_the_prompt_offers_it(tmp_path, question, roll,
                                                                      hold, typed):
    """«means» answers in the prompt's own form; a refused form is followed by the next one
    (the same answer: not a step of its own, and what follows still belongs to it)."""
    (tmp_path / "game.py").write_text(textwrap.dedent(ROLL_OR_HOLD).format(
        question=question, roll=roll, hold=hold))
    steps = [Step("move", "", "the question", Expect("After roll", 1, "a roll rolls"), [5],
                  means="yes"),
             Step("move", "", "the question", Expect("After hold", 0, "hold ends", ends=True),
                  means="no")]
    script = Scenario("roll-hold", "roll, then hold", [3], Expect("At the start", 1, "a roll"),
                      steps)
    questions = Questions(lambda wording: "move", {"move": "the question"})
    played = follow(tmp_path / "game.py", tmp_path, script, questions)
    assert played.typed == typed
    assert all(requirement.ok for requirement in judge(script, played, questions))
    retried = question == "Keep rolling? "
    assert len(played.confirmed) == (2 if retried else 0)     # "yes" after "y", "no" after "n"


def test_a_number_to_show_must_say_its_unit():
    """Expect.shows takes Money(90), a text or a pattern; a bare 90 says no unit."""
    assert scripted.shows("Purse: $90", Money(90)) and not scripted.shows("90 points", Money(90))
    with pytest.raises(TypeError, match="Money"):
        scripted.shows("Purse: $90", 90)


def test_one_pause_and_a_confirmation_is_not_a_pause():
    """The engine has one pause (readers/prompts.py); Confirm types yes, Pause types Enter."""
    from graders.engine.drive.readers import prompts
    assert scripted.is_pause is prompts.is_pause
    assert prompts.kind_of("Press Enter to see the options", [{"enter": prompts.is_pause},
                                                              {"option": re.compile("option")}],
                           "option") == "enter"
    assert scripted.Confirm().typed == "y" and scripted.Pause().typed == ""


def test_attempts_hand_out_each_form_once():
    from graders.engine.drive import answers
    attempt = answers.Attempts("Keep rolling? ", "no")
    forms = [attempt.next() for _ in range(len(attempt.forms) + 1)]
    assert forms[:2] == ["n", "no"] and forms[-1] is None and len(set(forms[:-1])) == len(
        forms) - 1
