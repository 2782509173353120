"""PocoLoco review items (ui, functions, readability): scored from transparent measurements and
marked for a TA to confirm or override."""
from __future__ import annotations

import re

import pytest

from graders.engine.run import static
from graders.engine.drive.answers import options
from graders.engine.judge.readability import check_readability as readability_item

from .judging import doubled_words, game, shares_a_name
from .scenarios import LONG


@pytest.mark.item("ui")
def check_interface(games, submission, result):
    reading = game(games, LONG, result)
    score = 3.0
    roll_prompts = [d for d in reading.game.decisions if d.kind == "roll"]
    unclear = [d.wording for d in roll_prompts if not options(d.context or d.wording)]
    long_lines = [line for line in reading.text.split("\n") if len(line) > 100]
    rejected = sum(1 for d in reading.game.decisions if d.kind == "other")
    texts = " | ".join(static.calls_to_print_and_input(submission.main))
    doubled = doubled_words(texts)
    result.measure("roll-again questions without the possible answers", len(unclear))
    result.measure("output lines over 100 characters", len(long_lines))
    result.measure("questions the grader could not classify", rejected)
    result.measure("doubled words in printed text", doubled[:5])
    if unclear:
        score -= 1
        result.add_detail(f"A question does not show the possible answers: {unclear[0]!r}.")
    if long_lines:
        score -= 1
        result.add_detail("Some output lines are wider than 100 characters.")
    if doubled:
        score -= 0.5
        result.add_detail(f"Doubled words in printed text: {', '.join(doubled[:3])}.")
    # a crash in the name-clash game alone, after two players kept one name, is setup's
    clash = games.get("name-clash")
    clash_only = clash is not None and shares_a_name(clash)
    if any(g is not None and g.transcript.crashed and not (name == "name-clash" and clash_only)
           for name, g in games.items()):
        score -= 1
        result.add_detail("The program crashed in at least one game (see 'How the runs went').")
    result.fraction = max(0.0, score) / 3
    result.note("Measured automatically; a TA confirms the look and wording of the interface.")


@pytest.mark.item("functions")
def check_functions(games, submission, result):
    facts = static.facts(submission.main)
    if facts.parse_error:
        result.fail(f"The file does not parse: {facts.parse_error}.")
    own = [f for f in facts.functions if f != "main" and not f.startswith("__")]
    # a short word is a fine name (pay, box, roll, ask): vague are one or two letters,
    # letters without a vowel (fn, clc, prt) and the placeholders
    vague = [f for f in own if len(f.strip("_")) < 3 or not re.search(r"[aeiou]", f, re.I)
             or re.fullmatch(r"_*(func|function|f|do|stuff|foo|bar|baz|tmp|test|thing)\d*", f)]
    turns = [f for f in own if re.search(r"turn|play|roll|go|move|decide|strateg|again", f,
                                         re.I)]
    setup = r"ask|get_|make|create|name|number|count|setup|init|how_many|show|print|display"
    human = [f for f in turns if re.search(r"human|player|user|my|your", f, re.I)
             and not re.search(setup, f, re.I)]
    computer = [f for f in own if re.search(r"comp|cpu|ai\b|bot|npc|opponent|auto", f, re.I)
                and not re.search(setup, f, re.I)]
    # classes HumanPlayer / ComputerPlayer whose turn methods share one name (take_turn)
    for kind, pattern in ((human, r"human|user|person"),
                          (computer, r"comp|cpu|ai\b|bot|npc|robot|opponent")):
        classes = [c for c in facts.classes if re.search(pattern, c, re.I)]
        if classes and turns and not kind:
            kind.append(f"{classes[0]}.{turns[0]}")
    result.measure("functions besides main", len(own))
    result.measure("human-turn functions", human)
    result.measure("computer-turn functions", computer)
    score = 3.0
    if len(own) < 3:
        score -= 2
        result.add_detail(f"Expected at least three functions besides main(); found "
                          f"{len(own)}: {', '.join(own) or 'none'}.")
    if vague:
        score -= 0.5
        result.add_detail(f"Names that do not say what the function does: {', '.join(vague)}.")
    if not human or not computer:
        score -= 1
        result.add_detail("Expected one function for the human's turn and a different one for "
                          "the computer's turn (e.g. human_turn and computer_turn).")
    result.fraction = max(0.0, score) / 3
    result.note("Measured automatically; a TA confirms the functions are sensible.")


@pytest.mark.item("readability")
def check_readability(result, submission, rubric):
    """Long lines, comments, one-letter names and layout, measured with the engine's
    readability and the rubric's [readability] settings (a TA confirms)."""
    readability_item(result, submission, rubric)
