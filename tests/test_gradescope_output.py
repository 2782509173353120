"""Gradescope's overall output is visible at once: whole notes only (never cut inside the
list), and no description of the games that stay hidden until the due date."""
from __future__ import annotations

from graders.engine.grading.reports import SubmissionReport
from graders.engine.judge.rubric import CheckResult, Item, ItemVerdict, Rubric
from graders.platforms import gradescope

GAMES = ("The program crashed: NameError: name 'nmae' is not defined. This happened in 3 of "
         "the grader's 5 games: 'ties' (ties for the lowest (two and three players) and for "
         "the highest), 'game-over' (a whole game, which the human wins after three rounds, "
         "paying the last round's chips with fewer than it owes), 'strategy' (computer "
         "decisions where one choice is clearly better).")


def _report(notes: list[str]) -> SubmissionReport:
    rubric = Rubric("demo", "Demo", "a5.py", ["a5.py"], [Item("rolls", 1.0, "Rolls")])
    verdict = ItemVerdict(rubric.items[0], 0.0, [CheckResult("rolls", "c")], True)
    return SubmissionReport("sam", rubric, [verdict], 0.1, notes, [], {})


def test_hidden_games_are_not_described():
    output = gradescope.results(_report(["used a5-2.py as a5.py", GAMES]))["output"]
    assert output == ("**How the runs went**\n\n- used a5-2.py as a5.py\n"
                      "- The program crashed: NameError: name 'nmae' is not defined. This "
                      "happened in 3 of the grader's 5 games.")
    for word in ["ties for the lowest", "'game-over'", "strategy", "clearly better"]:
        assert word not in output


def test_the_list_is_never_cut_inside_a_note():
    notes = [f"Note {n}: " + "the program printed something long. " * 12 for n in range(40)]
    output = gradescope.results(_report(notes))["output"]
    assert len(output) <= gradescope.VISIBLE_CHARS
    lines = output.split("\n")[2:]
    *kept, last = lines
    assert kept and all(line.startswith("- Note ") and line.endswith(".") for line in kept)
    assert [line.split(":")[0] for line in kept] == [f"- Note {n}" for n in range(len(kept))]
    assert last == f"- and {40 - len(kept)} more notes, left out here to keep this short"
    assert "left out …" not in output and "characters left out" not in output


def test_one_long_note_ends_with_a_whole_sentence():
    note = "First sentence here. " + "Then a much longer explanation follows. " * 40
    output = gradescope.results(_report([note]))["output"]
    body = output.split("\n- ", 1)[1]
    assert body.endswith(".") and len(body) <= gradescope.VISIBLE_NOTE_CHARS
    assert body.startswith("First sentence here. Then")
