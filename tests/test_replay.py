"""Replaying a graded game at home (graders/engine/grading/replay.py, ``gradekit replay``).

- For a handful of programs of each assignment that plays games in a terminal (all of their
  correct fixtures with REPLAY_ALL_FIXTURES=1), every game the grader played replays to the
  very transcript the grader wrote (same answers, same draws, same output).
- A student following only the command the self-check printed reproduces the failing game
  in a real pseudo-terminal, with --step and with --until-failure; --pdb stops at a
  breakpoint in the student's code; a changed program is told so and stopped.
- The student kit holds no plan, and the self-check makes plans of its public games only.
"""
from __future__ import annotations

import ast
import json
import os
import re
import sys
import zipfile
from pathlib import Path

import pexpect
import pytest

import mutants
from graders.engine.grading import replay
from graders.engine.run.files import remove_folder
from graders.engine.run.harness import prepare_workdir
from graders.engine.grading.reports import attachment_text, feedback_markdown
from graders.engine.grading.submissions import from_path
from graders.platforms import student_kit
from graders.pocoloco.scenarios import PUBLIC

from conftest import FIXTURES, KIT_ROOT, grade

ALL = bool(os.environ.get("REPLAY_ALL_FIXTURES"))
# a handful of programs in different styles per assignment (animations, colours, classes,
# pauses, files beside the program); REPLAY_ALL_FIXTURES=1: every correct fixture
CHOSEN = {"pocoloco": ["animated_rolls", "ansi_colours", "emoji_story", "game_class"],
          "yahtzee": ["colours_animation", "class_game"],
          "hilo": ["pause_between_hands", "stage_dict"],
          "poker_dice": ["spinner_unicode_faces"], "pig": ["asks_first", "columns"]}
MAIN = {"pocoloco": "a5.py", "yahtzee": "yahtzee.py", "hilo": "hilo.py",
        "poker_dice": "project.py", "pig": "pig.py"}


def _programs(assignment: str) -> dict[str, Path]:
    folder = FIXTURES / assignment / "correct"
    names = sorted(p.name for p in folder.iterdir() if p.is_dir()) if ALL else \
        CHOSEN[assignment]
    found = {"reference": KIT_ROOT / "reference" / assignment}
    found.update({name: folder / name for name in names})
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """assignment -> {name: (path, report)}: each assignment's programs graded in full, plus
    one PocoLoco mutant (the round box one character short)."""
    built = mutants.build("pocoloco", tmp_path_factory.mktemp("replay-mutants"))
    found = {}
    for assignment in CHOSEN:
        programs = _programs(assignment)
        if assignment == "pocoloco":
            programs["round_box_one_short"] = built["round_box_one_short"]
        reports = grade(assignment, list(programs.values()), list(programs))
        found[assignment] = {name: (path, reports[name]) for name, path in programs.items()}
    return found


def _plans(report) -> dict[str, dict]:
    return {name[len("transcripts/"):-len(replay.PLAN_SUFFIX)]: json.loads(text)
            for name, text in report.attachments.items() if name.endswith(replay.PLAN_SUFFIX)}


def replayed(path: Path, assignment: str, plan: dict, **options):
    """The replay of one plan with the program at ``path`` (nothing shown, no pauses)."""
    submission = from_path(path, MAIN[assignment])
    folder = prepare_workdir(dict(submission.files), prefix="kit-replay-")
    try:
        return replay.play(plan, folder, live=False, **options)
    finally:
        remove_folder(folder)


@pytest.mark.parametrize("assignment", list(CHOSEN))
def test_every_game_replays_to_the_graders_transcript(graded, assignment):
    compared = 0
    for name, (path, report) in graded[assignment].items():
        plans = _plans(report)
        # (a student's own tests' pytest run is no game)
        games = {n[len("transcripts/"):-4] for n in report.attachments
                 if n.endswith(".txt") and n.startswith("transcripts/")} - {"student-tests"}
        # every game the grader played has its transcript and its plan in the report
        assert plans and set(plans) == games, (name, sorted(games), sorted(plans))
        for game, plan in plans.items():
            result = replayed(path, assignment, plan)
            assert result.diverged is None, (name, game, result.diverged)
            mine = attachment_text(f"transcripts/{game}.txt",
                                   replay.transcript_text(plan, result.transcript))
            assert mine == report.attachments[f"transcripts/{game}.txt"], (name, game)
            compared += 1
    assert compared >= len(graded[assignment]) * 2


def test_yahtzee_writes_each_games_transcript_for_full_marks(graded):
    path, report = graded["yahtzee"]["reference"]
    assert report.score == report.rubric.max_score
    texts = [n for n in report.attachments if n.endswith(".txt")]
    assert len(texts) == 2 and all(report.attachments[n].count("«") > 20 for n in texts)


def test_a_failure_is_placed_in_its_game_and_stops_the_replay_there(graded):
    path, report = graded["pocoloco"]["round_box_one_short"]
    assert report.replays.get("round-box") in _plans(report)
    plan = _plans(report)[report.replays["round-box"]]
    failure = plan["failures"][0]
    assert failure["item"] == "round-box" and "Expected:" in failure["expected"]
    text = report.attachments[f"transcripts/{plan['game']}.txt"]
    screen = text[len(plan["header"]):].split("\n")
    assert "| Round" in screen[failure["line"] - 1]        # the box's middle line
    result = replayed(path, "pocoloco", plan, stop_at=failure)
    assert result.stopped_at_failure and result.diverged is None
    shown = result.transcript.render(max_lines=100_000).split("\n")
    # stopped soon after the failure's line: it is on the screen, the game is not over
    assert failure["line"] < len(shown) < failure["line"] + 40
    assert shown[:failure["line"]] == screen[:failure["line"]]
    # the feedback prints the command under the failed item
    command = replay.commands(report)["round-box"]
    assert f"--game {plan['game']}" in command
    assert f"`{command}`" in feedback_markdown(report)


def test_a_changed_program_is_told_so(graded, tmp_path):
    path, report = graded["pocoloco"]["reference"]
    plan = _plans(report)["long"]
    changed = tmp_path / "a5.py"
    source = (path / "a5.py").read_text()
    changed.write_text(source.replace("input(", "input('> ' + ", 1))
    result = replayed(changed, "pocoloco", plan)
    assert result.diverged and "no longer the one that was graded" in result.diverged


def test_hidden_games_replay_commands_are_for_tas_only(graded):
    path, report = graded["pocoloco"]["round_box_one_short"]
    plans = _plans(report)
    hidden = {name for name, plan in plans.items() if not plan["public"]}
    # the public games, and the name clash played after the public 'long' game
    assert hidden and {name for name, plan in plans.items() if plan["public"]} == \
        {scenario.name for scenario in PUBLIC} | {"name-clash"}
    report.replays = dict(report.replays, **{"tie-break": sorted(hidden)[0]})
    assert "tie-break" not in replay.commands(report)             # the student's feedback
    assert "tie-break" in replay.commands(report, student_facing=False)


def test_the_student_kit_holds_no_plan_and_the_self_check_plays_public_games(tmp_path):
    kit = student_kit.build("pocoloco", tmp_path)
    with zipfile.ZipFile(kit) as archive:
        names = archive.namelist()
        assert not [n for n in names if n.endswith(replay.PLAN_SUFFIX)]
        assert any(n.endswith("graders/engine/grading/replay.py") for n in names)
    # a program with a public failure: the self-check keeps the plans its command needs
    built = mutants.build("pocoloco", tmp_path / "built")
    program = tmp_path / "a5.py"
    program.write_text((built["round_box_one_short"] / "a5.py").read_text())
    out = _cli(["check", "pocoloco", str(program), "--out", str(tmp_path / "check")],
               tmp_path)
    assert out.returncode == 0, out.stderr
    plans = sorted(p.name for p in (tmp_path / "check" / "transcripts").glob("*.replay.json"))
    assert plans == sorted(f"{name}{replay.PLAN_SUFFIX}" for name in
                           [s.name for s in PUBLIC] + ["name-clash"])
    for path in (tmp_path / "check" / "transcripts").glob("*.replay.json"):
        assert json.loads(path.read_text())["public"] is True


def _cli(args, cwd):
    import subprocess
    return subprocess.run([sys.executable, "-m", "graders"] + args, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# ----------------------------------------------------------------------------- a real terminal
@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """A student's folder: the one-short round box mutant, self-checked there; the command
    the self-check printed under the failed item."""
    folder = tmp_path_factory.mktemp("student")
    built = mutants.build("pocoloco", tmp_path_factory.mktemp("built"))
    (folder / "a5.py").write_text((built["round_box_one_short"] / "a5.py").read_text())
    out = _cli(["check", "pocoloco", "a5.py"], folder)
    assert out.returncode == 0, out.stderr
    lines = [line.split("replay: ", 1)[1] for line in out.stdout.splitlines()
             if "replay: gradekit replay" in line]
    assert lines, out.stdout
    return folder, lines[0]


def _terminal(command: str, folder: Path) -> pexpect.spawn:
    """The printed command, in a pseudo-terminal (``gradekit`` is the kit's console script)."""
    words = command.split()
    assert words[:2] == ["gradekit", "replay"]
    env = dict(os.environ, GRADEKIT_TYPING_DELAY="0", COLUMNS="140", TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "graders"] + words[1:], cwd=str(folder),
                         env=env, encoding="utf-8", dimensions=(50, 140), timeout=120)


def test_the_printed_command_stops_at_the_failure(checked):
    folder, command = checked
    terminal = _terminal(command, folder)
    terminal.expect("What the check expected here:")
    terminal.expect(pexpect.EOF)
    screen = re.sub(r"\x1b\[[0-9;]*m|\x1b[78]", "", terminal.before)
    assert "Round 1 box does not fit" in screen and "| Round 1 |" in screen
    terminal.close()
    assert terminal.exitstatus == 0


def test_the_printed_command_with_step_waits_for_enter(checked):
    folder, command = checked
    terminal = _terminal(command + " --step", folder)
    terminal.expect(r"What is your name\?")
    terminal.expect(r"Enter: the grader types «Quillon»")
    # nothing is typed before Enter
    assert terminal.expect([r"How many chips", pexpect.TIMEOUT], timeout=1) == 1
    terminal.sendline("")
    terminal.expect("Quillon")
    terminal.expect(r"Enter: the grader types «(\d+)»")
    terminal.sendline("")
    terminal.expect("What the check expected here:")
    terminal.expect(pexpect.EOF)
    terminal.close()
    assert terminal.exitstatus == 0


def test_pdb_stops_at_a_breakpoint_in_the_students_code(checked):
    folder, command = checked
    tree = ast.parse((folder / "a5.py").read_text())
    box = next(node for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and "box" in node.name)
    body = box.body[1:] if isinstance(box.body[0], ast.Expr) else box.body
    line = body[0].lineno - 1           # the first statement after the docstring
    terminal = _terminal(command + " --pdb", folder)
    terminal.expect(r"\(Pdb\) ")
    terminal.sendline(f"break a5.py:{line + 1}")
    terminal.expect(r"Breakpoint 1 at .*a5\.py:" + str(line + 1))
    terminal.expect(r"\(Pdb\) ")
    terminal.sendline("continue")
    terminal.expect(r"a5\.py\(" + str(line + 1) + r"\)")
    terminal.expect(r"\(Pdb\) ")
    terminal.sendline("clear 1")
    terminal.expect(r"\(Pdb\) ")
    terminal.sendline("continue")
    terminal.expect("What the check expected here:")
    terminal.expect(pexpect.EOF)
    terminal.close()
    assert terminal.exitstatus == 0


def test_three_card_pokers_failed_calls_replay_as_a_script(tmp_path):
    built = mutants.build("three_card_poker", tmp_path / "built")
    program = built["pair_counts_triple"]
    report = grade("three_card_poker", [program], ["sam"])["sam"]
    assert report.replays.get("has_pair") == "replay_has_pair"
    script = report.attachments["replay_has_pair.py"]
    assert "has_pair(*args)" in script and "[2, 2, 2]" in script
    assert "--game replay_has_pair" in replay.commands(report)["has_pair"]
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "replay_has_pair.py").write_text(script)
    out = _cli(["replay", "three_card_poker", str(program / "three_card_poker.py"), "--game",
                "replay_has_pair", "--report", str(tmp_path / "report")], tmp_path)
    assert out.returncode == 0, out.stderr
    assert ">>> has_pair([2, 2, 2])" in out.stdout and "returned: True" in out.stdout
    assert "expected: False (WRONG)" in out.stdout
