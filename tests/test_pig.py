"""Tests of the Pig grader, the guide's worked console example (graders/engine/drive/driver.py).

The reference and every correct program get full marks on every automatic item, whichever way
they ask (before the first roll of a turn or after it, "(r/h)", "1 = roll, 2 = hold", whole
words only, "Do you want to hold? (y/n)" where yes holds, a name and "Play again?") and show
the scores (on one line, in columns, in a box, in sentences, under a name the program gave
the computer); each mutant (a `diff -u` patch) loses exactly the item its manifest names.
Thirty-six of the correct programs and fifteen mutants were written from the handout alone by
writers who never read the grader. All submissions are graded in one ``plugin.run`` call.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import mutants

from conftest import assert_loses_exactly, item_text, not_full, verdicts_by_student

from graders.engine.grading import plugin, submissions
from graders.engine.judge.rubric import KIT_ROOT, Rubric
from graders.pig import games

FIXTURES = KIT_ROOT / "tests" / "fixtures" / "pig"
GRADER = KIT_ROOT / "graders" / "pig"
REFERENCE = KIT_ROOT / "reference" / "pig"
RUBRIC = Rubric.load("pig")
MANIFEST = mutants.manifest("pig")
CORRECT = sorted(folder.name for folder in (FIXTURES / "correct").iterdir() if folder.is_dir())
AUTOMATIC = [item.id for item in RUBRIC.items if not item.review]


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Every fixture graded in one run: student name -> its report."""
    built = tmp_path_factory.mktemp("pig-mutants")
    folders = {"reference": REFERENCE}
    folders.update({f"correct-{name}": FIXTURES / "correct" / name for name in CORRECT})
    folders.update({f"mutant-{name}": path for name, path in mutants.build("pig", built).items()})
    found = [submissions.from_path(path, RUBRIC.main_file, name)
             for name, path in folders.items()]
    return {report.student: report for report in plugin.run(RUBRIC, found, GRADER)}


@pytest.fixture(scope="module")
def graded(reports):
    return verdicts_by_student(reports)


@pytest.mark.parametrize("name", ["reference"] + [f"correct-{name}" for name in CORRECT])
def test_correct_programs_get_full_marks(graded, name):
    assert not_full(graded[name], AUTOMATIC) == {}
    if name == "reference":
        assert graded[name]["readability"].passed


def test_there_are_enough_correct_programs_and_mutants():
    assert len(CORRECT) >= 4
    assert {entry["loses"] for entry in MANIFEST.values()} == set(AUTOMATIC)


@pytest.mark.parametrize("mutant", sorted(MANIFEST))
def test_each_mutant_loses_exactly_its_item(graded, mutant):
    assert_loses_exactly(graded[f"mutant-{mutant}"], MANIFEST[mutant]["loses"], AUTOMATIC)


def test_feedback_names_the_turn_and_shows_it(graded):
    text = item_text(graded["mutant-hold_banks_the_last_roll"]["hold-banks"])
    assert "you rolled [4, 6, 5]" in text and "0 + 15 = 15" in text and "«h»" in text
    text = item_text(graded["mutant-computer_holds_at_15"]["strategy"])
    assert "the computer rolled [6, 6, 4]" in text and "held at 16" in text


def test_no_score_is_said_only_where_the_screen_shows_none(graded):
    """'Your program: no score' (shown) stands beside a transcript in which no line after the
    turn's last die holds a number but lines about the dice; 'no score of 100' (winner)
    likewise holds no score line of 100 or more."""
    checked = 0
    for name, verdicts in graded.items():
        for item in ("shown", "winner"):
            for check in verdicts[item].checks:
                for detail in check.details:
                    if detail["actual"] not in ("no score", "it ended with no score of 100"):
                        continue
                    after = detail["evidence"].split("[dice:")[-1].split("\n")[1:]
                    lines = [line for line in after if re.search(r"\d", line)
                             and not re.search(games.NOT_SCORES, line, re.I)]
                    if detail["actual"] == "no score":
                        assert lines == [], (name, lines)
                    else:
                        assert not any(int(n) >= games.GOAL for line in lines
                                       for n in re.findall(r"\d+", line)), (name, lines)
                    checked += 1
    assert checked >= 3         # the mutants that show no turn total or no scores say so


def test_the_grader_is_small():
    """The worked example of the guide: the driver does the playing."""
    lines = sum(len(path.read_text().splitlines()) for path in GRADER.glob("*.py"))
    assert lines <= 250, lines


@pytest.mark.parametrize("name", ["reference", "asks_first"])
def test_the_turns_follow_the_plan_whenever_the_program_asks(name, tmp_path):
    """Rolling first or asking first, the driver splits the game into the plan's turns."""
    source = REFERENCE if name == "reference" else FIXTURES / "correct" / name
    (tmp_path / "pig.py").write_text((source / "pig.py").read_text())
    run = games.play(tmp_path / "pig.py", tmp_path, games.YOU_WIN, None)
    plan = games.YOU_WIN
    planned = [faces for pair in zip(plan.player, plan.computer) for faces in pair] + \
        [plan.player[-1]]
    assert [turn.faces for turn in run.turns] == [list(faces) for faces in planned]
    assert run.asks_first == (name == "asks_first") and run.ended
    assert [turn.player for turn in run.turns[:2]] == ["player", "computer"]
