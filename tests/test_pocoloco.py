"""The PocoLoco grader on the reference, on varied correct programs and on one-defect mutants.

A correct program must get full marks on every objective item; a mutant must lose the item its
defect touches and keep full marks on every other objective item (review items are measured
and confirmed by a TA, so they are not asserted here, except for the reference).
"""
from __future__ import annotations

import json
import re
import tomllib

import pytest

import mutants
from graders.pocoloco.judging import doubled_words, tie_order_rule
from graders.pocoloco.play import chips_allowed, classify

from conftest import FIXTURES, KIT_ROOT, grade, objective

POCO = FIXTURES / "pocoloco"
DEMO = KIT_ROOT / "demo_submissions" / "pocoloco"
# Correct programs: the fixtures, plus the four correct ones in the demo class folder
CORRECT = sorted(p for p in (POCO / "correct").iterdir() if (p / "a5.py").exists()) + [
    DEMO / "smithjane_12345_67890_a5.py", DEMO / "leekevin_LATE_23456_78901_a5-1.py",
    DEMO / "nguyenanh_34567_89012_a5.py", DEMO / "garciamaria_45678_90123_a5.py"]
MUTANTS = mutants.manifest("pocoloco")
# correct programs the grader cannot follow (docs/known-limits.md): they must reach a TA
FLAGGED = sorted((POCO / "flagged").iterdir())
# programs with a real class's flaws, each marked item by item by a careful TA (TA.toml)
TA_MARKED = sorted(p for p in (POCO / "ta_marked").iterdir() if (p / "TA.toml").exists())


def _name(path):
    """A fixture folder's name, or a demo submission's student name."""
    return path.name if path.is_dir() else path.name.split("_")[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Everything graded in one pytest run of the grader (it parametrizes over them)."""
    folder = tmp_path_factory.mktemp("pocoloco-built")
    built = mutants.build("pocoloco", folder)
    variants = mutants.build("pocoloco", folder, "variants")
    paths = [KIT_ROOT / "reference" / "pocoloco"] + CORRECT + list(variants.values()) + \
        [built[name] for name in MUTANTS] + FLAGGED + TA_MARKED
    names = ["reference"] + [f"correct-{_name(p)}" for p in CORRECT] + \
        [f"correct-{name}" for name in variants] + \
        [f"mutant-{name}" for name in MUTANTS] + [f"flagged-{p.name}" for p in FLAGGED] + \
        [f"ta-{p.name}" for p in TA_MARKED]
    return grade("pocoloco", paths, names)


def _lost(report):
    return {item: f"{got:g}/{full:g}" for item, (got, full) in objective(report).items()
            if got < full}


def test_reference_scores_full_marks(graded):
    report = graded["reference"]
    assert report.score == report.rubric.max_score, _lost(report)


VARIANTS = sorted(p.stem for p in (POCO / "variants").glob("*.patch"))


@pytest.mark.parametrize("program", [_name(p) for p in CORRECT] + VARIANTS)
def test_correct_program_gets_every_objective_mark(graded, program):
    report = graded[f"correct-{program}"]
    assert _lost(report) == {}, [c.messages for v in report.verdicts for c in v.checks
                                 if v.score < v.item.points and not v.item.review]


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


def test_grading_is_repeatable(graded):
    again = grade("pocoloco", [KIT_ROOT / "reference" / "pocoloco"], ["reference"])
    first = {v.item.id: (v.score, [c.messages for c in v.checks])
             for v in graded["reference"].verdicts}
    second = {v.item.id: (v.score, [c.messages for c in v.checks])
              for v in again["reference"].verdicts}
    assert first == second


def test_broken_demo_submissions_are_graded_with_reasons():
    demo = KIT_ROOT / "demo_submissions" / "pocoloco"
    files = {"syntax": demo / "brownsam_56789_01234_a5.py",
             "hang": demo / "taylorchris_67890_12345_a5.py",
             "crash": demo / "wongalex_78901_23456_a5.py"}
    reports = grade("pocoloco", list(files.values()), list(files))
    assert "could not start" in " ".join(reports["syntax"].notes)
    assert reports["syntax"].score < 6
    assert reports["hang"].problems and reports["crash"].problems
    assert "NameError" in " ".join(reports["crash"].notes)
    # what it earned before the crash still counts
    assert objective(reports["crash"])["setup"] == (1.0, 1.0)


def test_a_program_stuck_in_several_games_is_told_once(graded):
    """One problem said once: the stuck games are one note, whichever limit stopped each."""
    notes = [n for n in graded["mutant-hang_round_2"].notes if "without printing" in n]
    assert len(notes) == 1, notes
    played = int(notes[0].split("This happened in ")[1].split()[0])
    assert played > 1 and "waited less" not in notes[0], notes


def test_short_verbs_are_fine_function_names(graded):
    """Player.pay and Player.receive say what they do (the functions item, a review item,
    took half a mark for them: names under four letters were all called vague)."""
    verdict = next(v for v in graded["correct-player_class_tuple_ranks"].verdicts
                   if v.item.id == "functions")
    assert verdict.score == verdict.item.points, [c.messages for c in verdict.checks]


@pytest.mark.parametrize("wording, kind", [
    ("Roll again? (y/n, or type rules to see the rules) ", "roll"),
    ("Roll again? (yes/no/rules) ", "roll"),
    ("Would you like to read the rules first? (y/n) ", "rules"),
])
def test_a_roll_question_that_offers_the_rules_is_a_roll_question(wording, kind):
    """It was taken for the instructions question: the grader typed y at every one of them
    (roll-again lost its mark)."""
    assert classify(wording, "") == kind


@pytest.mark.parametrize("wording, kind", [("(r)oll or (s)tay? ", "roll"),
                                           ("[k]eep or [r]oll? ", "roll"),
                                           ("What's your name? ", "name")])
def test_a_key_letter_in_brackets_is_part_of_its_word(wording, kind):
    assert classify(wording, "") == kind


@pytest.mark.parametrize("wording", ["Stack size (1-100)? ", "Stack size? (pick 1-100) ",
                                     "Buy-in (1-100)? ", "How many chips each? "])
def test_the_starting_chips_question_in_other_words(wording):
    """'Stack size (1-100)?' was not taken for the chips question: the games were played with
    1 chip each, ended after Round 1, and items kept marks nothing had checked."""
    assert classify(wording, "") == "chips"


def test_a_chips_question_that_starts_like_a_generic_one_is_the_chips_question():
    """'Number of starting chips (normal game = 10):' starts like a generic 'Number:' and was
    read with the instructions above it, whose last lines spoke of rolls: the grader typed y
    (the ui item lost a mark for a roll question without its answers)."""
    wording = "Number of starting chips (normal game = 10): "
    context = ("* TIES: in a tie for the lowest roll the latest of them loses.\n"
               "* You can go below 0 chips if you owe more than you have.\n=====\n"
               "Enter your name: Quillon\n" + wording)
    assert classify(wording, context) == "chips"


def test_the_chips_typed_are_the_nearest_the_question_allows():
    """The game-over game wants 3 chips; "Enter starting chips (5-50): " gets 5."""
    assert chips_allowed("Enter starting chips (5-50): ", 3) == 5
    assert chips_allowed("Chips (at least 5): ", 3) == 5
    assert chips_allowed("How many chips? ", 3) == 3
    assert chips_allowed("Enter starting chips (5-50): ", 20) == 20


def test_an_animation_the_grader_cannot_follow_is_listed_for_a_ta(graded):
    """Frames of random faces printed each on a line of their own, drawn another way than the
    dice (random.randint(0, 5) beside randint(1, 6)), are taken for rolls: the score is not
    to be trusted, and the TA is told which items to check."""
    report = graded["flagged-animation_frames_on_lines"]
    assert any("more than one way" in problem and "randint(0, 5)" in problem
               for problem in report.problems), report.problems
    assert not any("more than one way" in problem for name, other in graded.items()
                   if not name.startswith("flagged-") for problem in other.problems)


@pytest.mark.parametrize("rule, way", [
    ("Tie-break: when players tie for the highest or the lowest roll, the one who went first in "
     "that round's order is chosen.", "first"),
    ("If there is a tie for the lowest roll, the tied player who rolled last is the loser.",
     "last"),
    # a preference: the one who rolled first is better, so the later one loses (not read)
    ("Ties: if two players tie, the one who rolled FIRST this round counts as the better roll.",
     None),
    ("If there is a tie for the lowest roll, the player who went first is safe.", None),
    ("Ties are broken at random among the tied players.", None),
])
def test_the_order_rule_for_a_tie_for_the_lowest_roll_is_read_only_when_plain(rule, way):
    """Checked against the tied rounds of the 'ties' game (mutant
    one_game_dict_alphabetical_loser): only a plainly stated rule is held against the program."""
    assert tie_order_rule(rule) == way


def test_doubled_words_are_slips_but_a_noun_before_roll_off_is_english():
    """"players tied for the lowest roll roll off" cost ui half a mark as a doubled word."""
    assert doubled_words("Roll the the dice | Welcome to to PocoLoco") == ["the", "to"]
    assert doubled_words("tied for the highest or lowest roll roll off (one roll each)") == []
    assert doubled_words("I think that that is fair | Otto had had enough") == []


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
