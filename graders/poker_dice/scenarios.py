"""Poker Dice's games: its questions, the handout's rules of a game turned into scripts (the
games themselves are data, in games.toml), the game held until won, and what BestScore.txt
and the Major Award must be after a win. Playing and judging a script is the engine's
(``engine/scripted.py``).

Payouts come from the student's own calculateScore, so a wrong payout is charged to
calculateScore only; the hands are counted as the game really went.
"""
from __future__ import annotations

import math
import re
import tempfile
import tomllib
import uuid
from collections import namedtuple
from pathlib import Path

from graders.engine.run.draws import ScriptedDice
from graders.engine.drive.readers import prompts
from graders.engine.judge.requirements import Requirement
from graders.engine.drive.scripted import (Expect, Money, Questions, Scenario, Step, Stop, amounts,
                                           play)

from . import diagnose, rules

GAMES = tomllib.loads(Path(__file__).with_name("games.toml").read_text(encoding="utf-8"))
SAMPLE_ROLLS = GAMES["sample_rolls"]
START, ANTE, GOAL = 100, 10, 200
ORACLE, AGAIN, REROLL = "oracle", "again", "reroll"
QUESTION = "Will I pass my exam?"
RECORD = "BestScore.txt"
# handout: "Roll only with random.randint(1, 6)"; other draws (six faces picked with
# random.choice for an animation) are not dice
DICE_FROM = ("randint",)
MAX_HANDS = 12
# Questions by wording, first tier first: the oracle's words, then a y/n, then the re-roll's
# words, then the play-again's words without a y/n ("Continue playing?").
TIERS = [{ORACLE: re.compile(r"question|magic|\bball\b|oracle|fortune", re.I)},
         {AGAIN: re.compile(r"\by\s*/\s*n\b|\byes\s*/\s*no\b|\by(es)?\s+or\s+n(o)?\b|\[y\]|\(y\)",
                            re.I)},
         {REROLL: re.compile(r"roll|dice|\bdie\b|\bhold\b|\bh\s*=|\bh\b\s*(to|for)\b|1\s*-\s*5",
                             re.I)},
         {AGAIN: re.compile(r"another|again|continue|play|more", re.I)}]
QUESTIONS = Questions(lambda wording: prompts.kind_of(wording, TIERS, None),
                      {ORACLE: "the Magic 8 ball question", AGAIN: "'Play another hand? (y/n)'",
                       REROLL: "the re-roll question (dice numbers, H or Q)"},
                      lambda outcome: diagnose.run_problem(outcome, brief=True))
WIN_WORDS = re.compile(r"\bwin|\bwon\b|winner|congrat|victor|champion|award|record|\bgoal|"
                       r"target|reached", re.I)
RecordCase = namedtuple("RecordCase", "name content read_only award",
                        defaults=(None, False, False))


# ----------------------------------------------------------------------------- scripts
def move_kind(typed: str) -> str:
    """hold, quit, reroll or invalid, as the handout defines the re-roll answer."""
    text = typed.strip().upper()
    if text in ("H", "Q"):
        return {"H": "hold", "Q": "quit"}[text]
    try:
        return "reroll" if rules.isvalidDice(typed) else "invalid"
    except ValueError:
        return "invalid"


def goodbye(where: str, why: str, purse: int) -> Expect:
    """The game ends here, showing the purse."""
    return Expect(where, 0, why, [(f"the purse ${purse} in the goodbye message", Money(purse))],
                  True)


def hand_steps(steps: list, number: int, hand: dict, purse: int, payout) -> list | None:
    """The re-roll questions of one hand (``purse``: after the ante); the dice scored, or
    None after a quit."""
    dice, loads, rerolls = list(hand["first"]), iter(hand.get("loads", [])), 0
    label = f"hand {number}: {QUESTIONS.names[REROLL]}"
    for typed in hand["moves"]:
        where, kind = f"Hand {number}, after «{typed}»", move_kind(typed)
        if kind == "quit":
            steps.append(Step(REROLL, typed, label, goodbye(where, "Q quits at once, without "
                                                                   "rolling", purse)))
            return None
        faces, why = [], "H holds: the dice are scored without rolling"
        if kind == "invalid":
            why = "an invalid answer only asks again; it does not roll"
        elif kind == "reroll":
            positions = sorted({int(piece) for piece in typed.split()})
            faces, rerolls = next(loads), rerolls + 1
            for position, face in zip(positions, faces):
                dice[position - 1] = face
            why = f"«{typed}» re-rolls exactly dice {', '.join(map(str, positions))}"
        steps.append(Step(REROLL, typed, label, Expect(where, len(faces), why), faces))
        if kind == "hold" or rerolls == 2:
            value, name = payout(dice)
            steps[-1].then.shows = [
                (f"the hand's name {name!r} (your calculateScore's description)", name),
                (f"the new purse ${purse + value} (after the ${ANTE} ante and the ${value} "
                 "payout)", Money(purse + value))]
            return dice
    return dice


def after_steps(steps: list, number: int, answers: list, purse: int, next_roll) -> bool:
    """After a scored hand: the win, game over, or the answers to 'Play another hand?' (True
    when the next hand starts)."""
    if purse >= GOAL:
        # reaching the goal ends the game with a win; the award question may come first
        steps.append(Step(ORACLE, QUESTION, f"the game to end with a win after hand {number} "
                          f"(the purse reached ${purse}; {QUESTIONS.names[ORACLE]} may come "
                          "first)", Expect(f"After the question «{QUESTION}»", ends=True),
                          instead=Expect(f"After hand {number} (the purse reached ${purse})",
                                         shows=[("words saying that the player won",
                                                 WIN_WORDS)], ends=True)))
        return False
    if purse < ANTE:
        steps[-1].then.ends = True
        steps[-1].then.label += f" (the purse is ${purse}, below the ${ANTE} ante: game over)"
        return False
    label = f"after hand {number} (purse ${purse}): {QUESTIONS.names[AGAIN]}"
    for typed in answers:
        where, answer = f"After hand {number}, «{typed}» to {QUESTIONS.names[AGAIN]}", \
            typed.strip().lower()
        if answer in ("y", "yes"):
            steps.append(Step(AGAIN, typed, label, Expect(
                where, 5, "a yes starts the next hand with an automatic roll of all five "
                "dice"), list(next_roll or ())))
            return next_roll is not None
        if answer in ("n", "no"):
            steps.append(Step(AGAIN, typed, label, goodbye(where, "a no ends the game", purse)))
            return False
        steps.append(Step(AGAIN, typed, label, Expect(
            where, 0, "an answer that is not y, yes, n or no only asks again")))
    return False


def script(game: dict, payout) -> Scenario:
    """A game of games.toml as a script, played by the handout's rules with ``payout``."""
    hands, purse = game["hands"], START
    scenario = Scenario(game["name"], game["purpose"], hands[0]["first"], Expect(
        "At the start of hand 1", 5, "the first roll of all five dice is automatic"))
    for number, hand in enumerate(hands, 1):
        purse -= ANTE
        final = hand_steps(scenario.steps, number, hand, purse, payout)
        if final is None:
            break
        purse += payout(final)[0]
        following = hands[number]["first"] if number < len(hands) else None
        if not after_steps(scenario.steps, number, hand.get("after", []), purse, following):
            break
    return scenario


def game_scenarios(payout) -> list[Scenario]:
    """The games of the game item; the 'win' game holds the best-paying roll."""
    found = win_roll(payout)
    best, hands = found if found else (SAMPLE_ROLLS["5 of a Kind"], 1)
    built = []
    for game in GAMES["game"]:
        if game.get("hold_to_win"):
            game = dict(game, purpose=game["purpose"].format(roll=rules.shown(best)),
                        hands=[{"first": best, "moves": ["H"], "after": ["y"]}] * hands)
        built.append(script(game, payout))
        built[-1].playable = not game.get("hold_to_win") or \
            (found is not None and hands <= MAX_HANDS)
    return built


def rolls_needed() -> list[list[int]]:
    """Every roll the games may score (their payouts are asked of the student's code first)."""
    asked: list[tuple[int, ...]] = []

    def record(roll):
        """The kit's payout, remembering the roll."""
        asked.append(tuple(roll))
        return rules.calculateScore(roll)

    game_scenarios(record)
    asked += [tuple(roll) for roll in SAMPLE_ROLLS.values()]
    return [list(roll) for roll in sorted(set(asked))]


# ----------------------------------------------------------------------------- winning
def win_roll(payout) -> tuple[list[int], int] | None:
    """The roll to hold every hand and the hands it needs to reach $200 (None if none can)."""
    best = max(SAMPLE_ROLLS.values(), key=lambda roll: payout(roll)[0])
    gain = payout(best)[0] - ANTE
    return (best, math.ceil((GOAL - START) / gain)) if gain > 0 else None


def record_cases(hands: int) -> list[RecordCase]:
    """The BestScore.txt set-ups of games.toml (an equal record holds ``hands``)."""
    return [RecordCase(**dict(case, content=case["content"].format(hands=hands)) if
                       "content" in case else case) for case in GAMES["record"]]


def play_to_win(target: Path, folder: Path, roll: list[int], limits, case: RecordCase):
    """Hold every hand (the dice always show ``roll``) and say yes until the game is won; the
    run notes the hands played ("holds") and the answer that asked the oracle ("oracle")."""
    if case.content == "<folder>":
        (folder / RECORD).mkdir()
    elif case.content is not None:
        (folder / RECORD).write_text(case.content)
    if case.read_only:
        # chmod alone does not stop a program run as root, so the record is also a link to a
        # place outside the run folder, where the sandbox refuses every write.
        nowhere = Path(tempfile.gettempdir()) / f"kit-nowhere-{uuid.uuid4().hex[:8]}"
        (folder / RECORD).symlink_to(nowhere / RECORD)
        folder.chmod(0o555)
    policy, state = ScriptedDice(roll, seed=7, dice_from=DICE_FROM), {"holds": 0, "oracle": None}

    def respond(prompt, session, typed):
        """H at the re-roll question, y to play on, the question to the oracle."""
        last = typed[-1] if typed else None
        kind = QUESTIONS.kind_of(prompt.wording)
        if kind is None:        # a neutral wording: what the game's state asks
            shown = amounts(session.output_since_answer())
            kind = REROLL if last != "H" else ORACLE if shown and shown[-1] >= GOAL \
                else AGAIN
        if last == QUESTION or (kind == AGAIN and state["holds"] >= MAX_HANDS):
            return Stop(f"the grader stopped after {state['holds']} hands")
        if kind == ORACLE:
            state["oracle"] = len(typed)
            return QUESTION
        if kind == AGAIN:
            policy.load(roll)
            return "y"
        state["holds"] += 1
        return "H"
    return play(target, folder, respond, policy, limits, files=[RECORD], state=state)


def won(played) -> bool:
    """The game reached $200: the Magic 8 question came, or it ended after the last hold."""
    shown = amounts(played.segments[-1].text)
    return played.state["oracle"] is not None or \
        (played.state["holds"] > 0 and bool(shown) and max(shown) >= GOAL)


def not_won(played, what: str) -> Requirement | None:
    """Why ``what`` could not be checked (the same words for every game: said once)."""
    cause = QUESTIONS.cause(played.transcript.outcome) if not played.typed else None
    if cause:
        return Requirement(False, f"No game could be won, so {what} could not be checked: "
                                  f"the program crashed at the start. {cause}",
                           evidence=played.excerpt(0))
    if not won(played):
        return Requirement(False, f"The grader could not win a game (holding a winning roll "
                                  f"every hand, up to {MAX_HANDS} hands), so {what} could "
                                  f"not be checked. {diagnose.tidy(played.transcript.ended_how)}",
                           evidence=played.excerpt(len(played.segments) - 3,
                                                   len(played.segments) - 1))
    return None


def judge_record(case: RecordCase, played, baseline_ended: bool) -> Requirement:
    """BestScore.txt after a won game, against the hands the game really took.

    ``baseline_ended``: the game with no record ended normally (if it did not, a crash with an
    unwritable record is not charged here: it happens anyway).
    """
    hands, record = played.state["holds"], played.files[RECORD]
    evidence = played.excerpt(len(played.segments) - 3, len(played.segments) - 1)
    where = f"With {case.name}" + " in BestScore.txt" * (case.content not in (None, "<folder>"))
    problem = not_won(played, "the best score")
    if problem:
        return problem
    if case.content == "<folder>" or case.read_only:
        return Requirement(played.ended_normally or not baseline_ended, f"{where}, the record "
                           "cannot be written. The program must print a warning and carry on "
                           "with the Major Award; it must not crash. "
                           f"{played.transcript.ended_how}", evidence=evidence)
    text = (case.content or "").strip()
    old = int(text) if text.isdigit() and int(text) > 0 else None
    ok, expected = record is not None and record.strip() == str(hands), str(hands)
    if old is not None and old <= hands:
        rule = f"the record ({old} hands) is not worse than this game's {hands} hands, so " \
               "the file must be left exactly as it was"
        ok, expected = record == case.content, case.content
    elif case.content is None:
        rule = f"there was no record, so this game's {hands} hands must be written to the file"
    elif old is None:
        rule = f"the file held no valid record ({text!r}), so it must now hold {hands}"
    else:
        rule = f"this game took {hands} hands, which beats the record of {old}, so the file " \
               f"must now hold {hands}"
    return Requirement(ok, f"{where}: {rule}.", expected=repr(expected), evidence=evidence,
                       actual="no BestScore.txt" if record is None else repr(record))


def nothing_written(games: list[tuple], found: list[Requirement]) -> list[Requirement]:
    """The set-up requirements, where no won game that had to write the record wrote anything:
    then the set-ups that leave the file alone (a better or equal record) or cannot write it
    show no record-keeping either, and count as not met (no evidence, no marks)."""
    must_write = [(case, played) for case, played in games if played is not None and
                  won(played) and case.content != "<folder>" and not case.read_only and
                  not _kept(case, played)]
    if not must_write or any(played.files[RECORD] not in (case.content, None)
                             for case, played in must_write):
        return found
    return [requirement if not requirement.ok else Requirement(False) for requirement in found] \
        + [Requirement(False, "The program never wrote BestScore.txt, so the games where the "
                              "file had to stay as it was (or could not be written) show no "
                              "record-keeping either: they count as not done.", size=-1)]


def _kept(case: RecordCase, played) -> bool:
    """The set-up's record is not beaten by this game (the file must stay as it was)."""
    text = (case.content or "").strip()
    old = int(text) if text.isdigit() and int(text) > 0 else None
    return old is not None and old <= played.state["holds"]


# what a program says when a win sets a record ("New record: 4 hands!", "Best score!"), and a
# claim of one ("new record", "beat the record") that no "not" or "no" turns round
RECORD_WORDS = re.compile(r"\brecord\b|\bbest\b|\bfastest\b|\bhigh\s*score\b", re.I)
RECORD_CLAIM = re.compile(r"\bnew\s+(personal\s+)?(record|best)|"
                          r"\b(beat|broke|set)\s+(the\s+|a\s+)?(new\s+)?record", re.I)
DENIED = re.compile(r"\b(no|not|never)\b|n't\b", re.I)


def judge_record_message(games: list[tuple]) -> Requirement | None:
    """The new-record message: after the wins that set a record (no record, a worse or an
    unreadable one), and not after the wins that did not (a better or an equal record).
    None when no won game shows either."""
    checked, wrong = 0, None
    for case, played in games:
        if played is None or not won(played) or case.content == "<folder>" or case.read_only:
            continue
        text = (case.content or "").strip()
        old = int(text) if text.isdigit() and int(text) > 0 else None
        hands = played.state["holds"]
        holds = [at for at, typed in enumerate(played.typed) if typed == "H"]
        after = "".join(segment.text for segment in played.segments[holds[-1] + 1:]) \
            if holds else ""
        checked += 1
        if old is None or old > hands:
            if not RECORD_WORDS.search(after) and wrong is None:
                wrong = (f"With {case.name}, this game's {hands} hands set a record, but the "
                         "program printed no new-record message.", played)
        elif any(not DENIED.search(after[max(0, claim.start() - 20):claim.start()])
                 for claim in RECORD_CLAIM.finditer(after)) and wrong is None:
            wrong = (f"With {case.name} ({old} hands), this game's {hands} hands set no "
                     "record, but the program said they did.", played)
    if not checked:
        return None
    if wrong is None:
        return Requirement(True)
    sentence, played = wrong
    return Requirement(False, sentence + " A new-record message comes exactly when the file "
                       "gets a new record.", evidence=played.excerpt(
                           len(played.segments) - 3, len(played.segments) - 1))


def judge_award(played, answers: list[str] | None) -> list[Requirement]:
    """After the win: a question with input(), then one of the ANSWERS printed."""
    problem = not_won(played, "the Major Award")
    if problem:
        return [problem, Requirement(False)]
    index, last = played.state["oracle"], len(played.segments) - 1
    asked = Requirement(index is not None, f"After the win in hand {played.state['holds']}, "
                        "the program must ask the player for a yes/no question with input(); "
                        "it asked nothing.", evidence=played.excerpt(last))
    after = played.segments[min(index + 1, last) if index is not None else last].text
    if answers:
        # in any case: 'DON'T COUNT ON IT' is the ball's answer (the wording of every message
        # is the student's, and capitals are how some show it)
        printed = any(answer.strip().casefold() in after.casefold() for answer in answers)
        wanted = "one of the answers in Magic8.ANSWERS"
    else:
        printed, wanted = bool(after.strip()), "an answer (Magic8.ANSWERS could not be read, " \
            "so any text counts)"
    return [asked, Requirement(printed, "After the question, the program must print the Magic "
                               f"8 ball's answer: {wanted}.", evidence=played.excerpt(last - 1,
                                                                                      last))]
