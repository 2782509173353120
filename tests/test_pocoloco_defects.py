"""The PocoLoco grader on one-defect mutants and on programs with a real class's flaws marked
item by item by a careful TA, and every sentence of their deductions checked against what the
transcript shows (the correct programs: test_pocoloco.py).

A mutant must lose the item its defect touches and keep full marks on every other objective
item; a TA-marked program loses what its TA took and nothing its TA gave in full.
"""
from __future__ import annotations

import json
import re
import tomllib

import pytest

import mutants
from conftest import grade, objective
from test_pocoloco import POCO, _lost

MUTANTS = mutants.manifest("pocoloco")
# programs with a real class's flaws, each marked item by item by a careful TA (TA.toml)
TA_MARKED = sorted(p for p in (POCO / "ta_marked").iterdir() if (p / "TA.toml").exists())


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The mutants and the TA-marked programs, in one pytest run of the grader."""
    built = mutants.build("pocoloco", tmp_path_factory.mktemp("pocoloco-mutants"))
    paths = [built[name] for name in MUTANTS] + TA_MARKED
    names = [f"mutant-{name}" for name in MUTANTS] + [f"ta-{p.name}" for p in TA_MARKED]
    return grade("pocoloco", paths, names)


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_mutant_loses_exactly_its_item(graded, mutant):
    expected = MUTANTS[mutant]["loses"]
    report = graded[f"mutant-{mutant}"]
    lost = _lost(report)
    if expected == "*":             # a crash or hang: graded anyway, and a human is told
        assert report.problems, "a crashing or hanging program must be flagged for review"
        kept = MUTANTS[mutant].get("keeps", [])
        assert not set(kept) & set(lost), f"{MUTANTS[mutant]['why']}: lost {lost}"
        return
    if expected in ("ui", "functions", "readability"):
        verdict = next(v for v in report.verdicts if v.item.id == expected)
        assert verdict.score < verdict.item.points
        assert lost == {}
        return
    # a list: one defect that the handout charges to several items (a question after the
    # last allowed roll whose extra roll is taken costs roll-again and roll-limit)
    wanted = set(expected) if isinstance(expected, list) else {expected}
    assert set(lost) == wanted, f"{MUTANTS[mutant]['why']}: lost {lost}"


def test_a_program_stuck_in_several_games_is_told_once(graded):
    """One problem said once: the stuck games are one note, whichever limit stopped each."""
    notes = [n for n in graded["mutant-hang_round_2"].notes if "without printing" in n]
    assert len(notes) == 1, notes
    played = int(notes[0].split("This happened in ")[1].split()[0])
    assert played > 1 and "waited less" not in notes[0], notes


# ---------------------------------------------------------------------------- every sentence
# A deduction about a round names it ("Round 3: ...", "In Round 2 of the 'strategy' game");
# the game is named in the sentence, or is the item's own game
ROUND_NAMED = re.compile(r"(?:In Round|Round|round) (\d+)(?: of the '([\w-]+)' game)?")
GAME_NAMED = re.compile(r"'([\w-]+)' game")
ITEM_GAME = {"tie-break": "ties", "strategy": "strategy"}
# the items judged on the reading of the dice (the box and the standings are read as printed)
READ_ITEMS = {"tie-break", "roll-limit", "roll-again", "special-rolls", "points",
              "winner-loser", "chips", "strategy"}
# "Round 2: Quillon rolled 3 times but could roll at most 1"; "... and rolled 2 time(s)"
ROLLED = re.compile(r"Round (\d+)(?: of the '([\w-]+)' game)?:? (\S+) (?:could roll up to \d+ "
                    r"times and )?rolled (\d+) time")


def _deductions(report):
    """(item, sentence, evidence) of every shortfall the report explains."""
    return [(verdict.item.id, detail["message"], detail.get("evidence") or "")
            for verdict in report.verdicts if not verdict.item.review
            for check in verdict.checks if check.fraction < 1
            for detail in check.details]


def test_every_round_a_deduction_names_was_read_consistently(graded):
    """Every round a deduction speaks of was judged on a reading that agrees with all the
    transcript shows of it (the report's transcripts/readings.json says so), and the roll
    counts the sentence states are the reading's."""
    checked = 0
    for name, report in graded.items():
        readings = json.loads(report.attachments.get("transcripts/readings.json", "{}"))
        for item, sentence, _ in _deductions(report):
            if item not in READ_ITEMS:
                continue
            for clause in re.split(r"(?<=[.;])\s", sentence):
                if re.search(r"did not get through|stopped before|Not reached", clause):
                    continue            # about the program stopping, not about a reading
                games = GAME_NAMED.findall(clause)
                for number, game_name in ROUND_NAMED.findall(clause):
                    played = game_name or (games[0] if games else ITEM_GAME.get(item, "long"))
                    rounds = readings.get(played, [])
                    assert int(number) <= len(rounds), (name, sentence)
                    record = rounds[int(number) - 1]
                    assert record["consistent"] and record["judged"], (name, sentence, record)
                    checked += 1
                for number, game_name, player, count in ROLLED.findall(clause):
                    played = game_name or (games[0] if games else ITEM_GAME.get(item, "long"))
                    rolls = readings[played][int(number) - 1]["rolls"]
                    assert len(rolls.get(player, [])) == int(count), (name, sentence, rolls)
    assert checked >= 20          # the mutants' deductions name rounds


def test_a_sentence_about_a_roll_question_holds_in_its_evidence(graded):
    """'should have been asked after roll 1 and 2 ...; your program asked after roll 1 only'
    and 'asked whether to roll again after roll 3': the excerpt shown beside the sentence has
    the grader's answers («...») the sentence counts."""
    checked = 0
    for name, report in graded.items():
        for item, sentence, evidence in _deductions(report):
            if item != "roll-again":
                continue
            asked = re.search(r"your program asked (after roll ([\d and]+) only|no such)",
                              sentence)
            if asked:
                answers = re.findall(r"«[^»\n]*»", evidence)
                wanted = 0 if asked.group(1).startswith("no") else \
                    len(re.findall(r"\d", asked.group(2)))
                assert len(answers) >= wanted, (name, sentence)
                checked += 1
            late = re.search(r"after roll (\d+): ask only", sentence)
            if late:
                assert re.findall(r"«[^»\n]*»", evidence), (name, sentence)
                checked += 1
    assert checked >= 3


def test_the_game_over_sentences_hold_in_the_transcript(graded):
    """'no line naming the winner' is said only where no line of the game's last part names
    the winner beside a word of winning; 'ended ... before Round N' only where the transcript
    never shows Round N."""
    for name, report in graded.items():
        for item, sentence, evidence in _deductions(report):
            missing = re.search(r"ended with (.+?) on -?\d+ chips, but the grader found no "
                                r"line naming the winner", sentence)
            if missing:
                winners = missing.group(1).split(" and ")
                for line in evidence.splitlines():
                    assert not (re.search(r"\bwin|\bwon\b|champion", line, re.I) and
                                any(w.lower() in line.lower() for w in winners)
                                and "round" not in line.lower()), (name, line)
            before = re.search(r"'([\w-]+)' game ended \(a player ran out of chips\) before "
                               r"Round (\d+)", sentence)
            if before:
                text = report.attachments[f"transcripts/{before.group(1)}.txt"]
                assert not re.search(rf"\bround\W{{0,3}}{before.group(2)}\b", text, re.I), \
                    (name, sentence)


@pytest.mark.parametrize("program", [p.name for p in TA_MARKED])
def test_the_grader_agrees_with_a_careful_ta(graded, program):
    """Every item the TA gave in full gets full marks (no deduction a TA would not make);
    every item the TA took marks from loses marks or is left to a TA, unless the TA's file
    says the flaw never shows in the grader's games ('unseen')."""
    marks = tomllib.loads((POCO / "ta_marked" / program / "TA.toml").read_text())
    report = graded[f"ta-{program}"]
    scores = objective(report)
    false_deductions = {item: scores[item] for item, ta in marks.items()
                        if ta["mark"] == "full" and scores[item][0] < scores[item][1]}
    assert not false_deductions, [c.messages for v in report.verdicts for c in v.checks
                                  if v.item.id in false_deductions]
    missed = {item: ta["why"] for item, ta in marks.items() if ta["mark"] == "lost"
              and "unseen" not in ta and scores[item][0] >= scores[item][1]}
    assert not missed
