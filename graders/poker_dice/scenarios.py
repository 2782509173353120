"""The games the grader plays, built from the kit's model of a game, and how they are judged.

A scenario is a list of steps: the question the program should ask, what the grader types,
the dice that answer rolls, and what must happen next (how many dice are rolled, what the
screen shows, whether the game ends). Payouts come from the student's own calculateScore, so a
wrong payout is charged to calculateScore only; the hands are counted as the game really went.
"""
from __future__ import annotations

import math
import re
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.requirements import Requirement

from . import diagnose, rules
from .play import (AGAIN, MAX_HANDS, MONEY, ORACLE, QUESTION, RECORD, REROLL, WORDS, Ask,
                   Played, money_shown)

NOTHING_ROLLS = ([1, 2, 3, 4, 6], [6, 4, 3, 2, 1], [1, 3, 4, 5, 6], [2, 1, 4, 5, 6],
                 [6, 5, 4, 2, 1], [1, 2, 3, 5, 6], [3, 1, 6, 4, 5], [5, 6, 1, 2, 4],
                 [4, 2, 6, 3, 1])
BROKE_LAST = [2, 5, 2, 6, 5]      # a 2 Pair at $10: $5 is left, below the ante
WIN_WORDS = re.compile(r"\bwin|\bwon\b|winner|congrat|victor|champion|award|record|\bgoal|"
                       r"target|reached", re.I)
SAMPLE_ROLLS = {"5 of a Kind": [4, 4, 4, 4, 4], "4 of a Kind": [2, 5, 2, 2, 2],
                "Straight": [3, 1, 5, 2, 4], "Full House": [6, 1, 6, 1, 6],
                "3 of a Kind": [3, 6, 3, 1, 3], "2 Pair": [5, 2, 2, 6, 5],
                "Nothing": [1, 2, 3, 4, 6]}
START, ANTE, GOAL = 100, 10, 200


@dataclass
class Expect:
    """What must happen after an answer (or at the start)."""

    label: str
    draws: int | None = None
    why_draws: str = ""
    shows: list[tuple[str, object]] = field(default_factory=list)   # (in words, $ or text)
    ends: bool = False


@dataclass
class Step:
    """One question of the script, the answer, and what must follow."""

    ask: Ask
    label: str
    then: Expect
    optional: bool = False     # the program may end here instead of asking (the award
    #                            question after a win is magic8-award's, not game's)


@dataclass
class Scenario:
    """A scripted game."""

    name: str
    purpose: str
    first_roll: list[int]
    opening: Expect
    steps: list[Step] = field(default_factory=list)
    playable: bool = True      # False: the student's payouts cannot reach the goal


@dataclass
class HandPlan:
    """One hand: the first roll, what the grader types at the re-roll questions, the faces of
    each valid re-roll, and the answers to 'Play another hand?' (the last one counts)."""

    first: list[int]
    moves: list[str]
    loads: list[list[int]] = field(default_factory=list)
    after: list[str] = field(default_factory=list)


def move_kind(typed: str) -> str:
    """hold, quit, reroll or invalid, as the handout defines the re-roll answer."""
    text = typed.strip().upper()
    if text in ("H", "Q"):
        return {"H": "hold", "Q": "quit"}[text]
    try:
        return "reroll" if rules.isvalidDice(typed) else "invalid"
    except ValueError:
        return "invalid"


def scored(label: str, draws: int, why: str, value_name: tuple[int, str], purse: int) -> Expect:
    """The hand is scored: its name and the new purse are shown."""
    value, name = value_name
    return Expect(label, draws, why, [(f"the hand's name {name!r} (your calculateScore's "
                                       "description)", name),
                                      (f"the new purse ${purse} (after the ${ANTE} ante and "
                                       f"the ${value} payout)", purse)])


class Builder:
    """Turns hand plans into a scenario, following the game as the handout defines it."""

    def __init__(self, name: str, purpose: str, hands: list[HandPlan], payout):
        """``payout(roll)`` gives (value, description), as the student's calculateScore."""
        self.hands, self.payout = hands, payout
        self.purse = START
        self.scenario = Scenario(name, purpose, hands[0].first,
                                 Expect("At the start of hand 1", 5, "the first roll of all "
                                        "five dice is automatic:"))

    def build(self) -> Scenario:
        """Every hand until the plan, the money or a quit ends the game."""
        for number, hand in enumerate(self.hands, 1):
            self.purse -= ANTE
            if not self._hand(number, hand):
                break
            value, _ = self.payout(self.final)
            self.purse += value
            if not self._after(number, hand):
                break
        return self.scenario

    def add(self, kind: str, typed: str, label: str, then: Expect, load=(),
            optional: bool = False) -> None:
        """One more step."""
        self.scenario.steps.append(Step(Ask(kind, typed, list(load)), label, then, optional))

    def _hand(self, number: int, hand: HandPlan) -> bool:
        """The re-roll questions of one hand (the dice end in ``final``); False on a quit."""
        self.final, rerolls, loads = list(hand.first), 0, iter(hand.loads)
        label = f"hand {number}: {WORDS[REROLL]}"
        for typed in hand.moves:
            where, kind = f"Hand {number}, after «{typed}»", move_kind(typed)
            if kind == "quit":
                self.add(REROLL, typed, label, self._goodbye(where, "Q quits at once, "
                                                                    "without rolling:"))
                return False
            if kind == "invalid":
                self.add(REROLL, typed, label, Expect(
                    where, 0, "an invalid answer only asks again; it does not roll:"))
                continue
            faces, why = [], "H holds: the dice are scored without rolling:"
            if kind == "reroll":
                positions = sorted({int(piece) for piece in typed.split()})
                faces = next(loads)
                for position, face in zip(positions, faces):
                    self.final[position - 1] = face
                rerolls += 1
                why = f"«{typed}» re-rolls exactly dice {', '.join(map(str, positions))}:"
                if rerolls < 2:
                    self.add(REROLL, typed, label, Expect(where, len(faces), why), faces)
                    continue
            value = self.payout(self.final)
            self.add(REROLL, typed, label,
                     scored(where, len(faces), why, value, self.purse + value[0]), faces)
            return True
        return True

    def _goodbye(self, where: str, why: str) -> Expect:
        """The game ends here, showing the purse."""
        return Expect(where, 0, why, [(f"the purse ${self.purse} in the goodbye message",
                                       self.purse)], ends=True)

    def _after(self, number: int, hand: HandPlan) -> bool:
        """After the scored hand: win, game over, or the play-again answers."""
        if self.purse >= GOAL:
            # reaching the goal ends the game with a win; the award question may come first
            self.add(ORACLE, QUESTION, f"the game to end with a win after hand {number} (the "
                     f"purse reached ${self.purse}; {WORDS[ORACLE]} may come first)",
                     Expect(f"After the question «{QUESTION}»", ends=True), optional=True)
            return False
        if self.purse < ANTE:
            self.scenario.steps[-1].then.ends = True
            self.scenario.steps[-1].then.label += f" (the purse is ${self.purse}, below the " \
                                                  f"${ANTE} ante: game over)"
            return False
        label = f"after hand {number} (purse ${self.purse}): {WORDS[AGAIN]}"
        for typed in hand.after:
            answer = typed.strip().lower()
            where = f"After hand {number}, «{typed}» to {WORDS[AGAIN]}"
            if answer in ("y", "yes"):
                more = number < len(self.hands)
                self.add(AGAIN, typed, label, Expect(
                    where, 5, "a yes starts the next hand with an automatic roll of all five "
                    "dice:"), self.hands[number].first if more else ())
                return more
            if answer in ("n", "no"):
                self.add(AGAIN, typed, label, self._goodbye(where, "a no ends the game:"))
                return False
            self.add(AGAIN, typed, label, Expect(
                where, 0, "an answer that is not y, yes, n or no only asks again:"))
        return False


def game_scenarios(payout) -> list[Scenario]:
    """The four games of the game item."""
    each_hand = [HandPlan(SAMPLE_ROLLS[name], [typed], [], [answer])
                 for name, typed, answer in (("Nothing", "H", "y"), ("2 Pair", "h", "YES"),
                                             ("3 of a Kind", "H", " yes "),
                                             ("Full House", "h", "Y"), ("Straight", "H", "yes"),
                                             ("4 of a Kind", "h", "y"))]
    each_hand.append(HandPlan(SAMPLE_ROLLS["5 of a Kind"], ["H"], [], ["maybe", "No"]))
    rerolls = [HandPlan([1, 2, 3, 4, 6], ["two", "", "0", "7", "2 3 5", "1 4"],
                        [[5, 5, 5], [5, 5]], [" N "])]
    quits = [HandPlan([2, 2, 5, 5, 3], ["H"], [], ["y"]),
             HandPlan([6, 6, 6, 1, 2], ["3", "q"], [[4]], [])]
    broke = [HandPlan(roll, ["H"], [], ["y"]) for roll in NOTHING_ROLLS + (BROKE_LAST,)]
    found = win_roll(payout)
    best, hands = found if found else (SAMPLE_ROLLS["5 of a Kind"], 1)
    winning = [HandPlan(best, ["H"], [], ["y"]) for _ in range(hands)]
    plans = (("every hand", "each kind of hand, held at once; play-again answers y, YES, "
              "' yes ', Y, yes, y, then 'maybe' (asked again) and No", each_hand),
             ("re-rolls", "invalid answers (two, an empty line, 0, 7), then re-rolls of dice "
              "2 3 5 and 1 4, then ' N '", rerolls),
             ("quit", "a held 2 Pair, then a re-roll of die 3 and q", quits),
             ("broke", "nine hands of Nothing ($10 left may play on), then a 2 Pair: $5 is "
              "below the ante and ends the game", broke),
             ("win", f"{rules.shown(best)} held every hand until the purse reaches $200 "
              "or more: the game must end there with a win", winning))
    built = [Builder(name, purpose, hands, payout).build() for name, purpose, hands in plans]
    built[-1].playable = found is not None and hands <= MAX_HANDS
    return built


# ----------------------------------------------------------------------------- judging
def script_size(scenario: Scenario) -> int:
    """How many requirements a scenario makes."""
    return _size(scenario.opening) + sum(1 + _size(step.then) for step in scenario.steps)


def judge_script(scenario: Scenario, played: Played) -> list[Requirement]:
    """One requirement per question asked and per expectation after each answer; nothing at
    all when the game never started (no dice rolled: typed answers alone earn nothing)."""
    if not any(segment.faces for segment in played.segments):
        return [never_started(scenario, played)] + \
            [Requirement(False)] * (script_size(scenario) - 1)
    found = _expect(scenario.opening, played, 0)
    missing = None
    for index, step in enumerate(scenario.steps):
        if index < len(played.typed):
            found.append(Requirement(True))
            found += _expect(step.then, played, index + 1)
            continue
        count = 1 + _size(step.then)
        if missing is None and step.optional and _ended_quietly(played, index):
            found.append(_won(played, index))
            found += [Requirement(True)] * (count - 1)
            continue
        if missing is None:
            missing = _not_reached(scenario, step, played, index)
            found.append(missing)
            count -= 1
        found += [Requirement(False)] * count
    return found


def _ended_quietly(played: Played, index: int) -> bool:
    """The program ended normally right after answer ``index`` without asking anything."""
    return index == len(played.typed) and played.stopped is None and \
        played.extra_prompt is None and played.ended_normally


def _won(played: Played, index: int) -> Requirement:
    """A game that ended after reaching the goal says that the player won."""
    text = played.segments[min(index, len(played.segments) - 1)].text
    if WIN_WORDS.search(text):
        return Requirement(True)
    return Requirement(False, f"The purse reached ${GOAL} or more and the game ended, but it "
                              "did not say that the player won.",
                       evidence=played.excerpt(max(0, index - 1), index))


def never_started(scenario: Scenario, played: Played, every_game: bool = False) -> Requirement:
    """The game never rolled a die (``every_game``: said once for all the games)."""
    where = "In none of the games" if every_game else f"In the '{scenario.name}' game"
    typed = " ".join(f"«{answer}»" for answer in played.typed[:6])
    more = " ..." if len(played.typed) > 6 else ""
    answered = f" The grader answered {len(played.typed)} of its questions ({typed}{more}), " \
        "but no dice were rolled." if played.typed else ""
    cause = diagnose.run_problem(played.transcript.outcome, brief=True)
    if cause:
        message = f"{where} did the program roll any dice: it crashed at the start. {cause}"
    else:
        message = (f"{where} did the program roll any dice: the game never started "
                   f"({_ending(played)}). A game starts with the automatic first roll of all "
                   f"five dice.{answered}")
    return Requirement(False, message, expected="the first roll of five dice",
                       actual="no dice rolled",
                       evidence=played.excerpt(0, min(2, len(played.segments) - 1)))


def _ending(played: Played) -> str:
    """How the run ended, as a clause; with the real cause of a crash at the start."""
    how = diagnose.tidy(played.transcript.ended_how).rstrip(".")
    how = how[:1].lower() + how[1:]
    cause = diagnose.run_problem(played.transcript.outcome, brief=True)
    return f"{how}. {cause}" if cause else how


def _size(expect: Expect) -> int:
    """How many requirements an expectation makes."""
    return (expect.draws is not None) + len(expect.shows) + expect.ends


def crashed_at_start(played: Played) -> str | None:
    """The real cause when the run crashed before the first question (import problems)."""
    return diagnose.run_problem(played.transcript.outcome, brief=True) if not played.typed \
        else None


def _not_reached(scenario: Scenario, step: Step, played: Played, index: int) -> Requirement:
    """The first question of the script the program did not ask."""
    why = played.stopped or _ending(played)
    if played.stopped is None and played.extra_prompt is None and played.ended_normally:
        why = "the program ended instead"
    message = (f"In the '{scenario.name}' game the grader expected {step.label}, but "
               f"{why}. Everything after that point counts as not done.")
    return Requirement(False, message, expected=WORDS[step.ask.kind],
                       evidence=played.excerpt(index - 2, index))


def _expect(expect: Expect, played: Played, index: int) -> list[Requirement]:
    """The expectation on segment ``index`` (the output after answer ``index``)."""
    if index >= len(played.segments):
        return [Requirement(False)] * _size(expect)
    segment = played.segments[index]
    found = []
    evidence = played.excerpt(max(0, index - 1), index)
    if expect.draws is not None:
        rolled = len(segment.faces)
        found.append(Requirement(True) if rolled == expect.draws else Requirement(
            False, f"{expect.label}: {expect.why_draws} the grader expected "
                   f"{_dice(expect.draws)} to be rolled, but {_dice(rolled)} "
                   f"{'was' if rolled == 1 else 'were'} rolled.",
            expected=_dice(expect.draws), actual=f"{_dice(rolled)} rolled: "
                                                 f"{' '.join(map(str, segment.faces)) or '-'}",
            evidence=evidence))
    for what, wanted in expect.shows:
        shown = money_shown(segment.text, wanted) if isinstance(wanted, int) else \
            wanted in segment.text
        found.append(Requirement(True) if shown else Requirement(
            False, f"{expect.label}: the screen should show {what}.", evidence=evidence))
    if expect.ends:
        found.append(_ended(expect, played, segment, evidence))
    return found


def _ended(expect: Expect, played: Played, segment, evidence: str) -> Requirement:
    """The game ended here, normally, without asking anything more."""
    if played.extra_prompt is not None or segment.prompt is not None:
        asked = played.extra_prompt or segment.prompt
        return Requirement(False, f"{expect.label}: the game should end here, but the program "
                                  f"asked {asked!r}.", evidence=evidence)
    if not played.ended_normally:
        return Requirement(False, f"{expect.label}: the game should end normally here. "
                                  f"{played.transcript.ended_how}", evidence=evidence)
    return Requirement(True)


def _dice(count: int) -> str:
    """'1 die', '3 dice'."""
    return f"{count} {'die' if count == 1 else 'dice'}"


# ----------------------------------------------------------------------------- winning
@dataclass(frozen=True)
class RecordCase:
    """A BestScore.txt set-up for a won game."""

    name: str
    content: str | None          # None: no file; "<folder>": a folder of that name
    read_only: bool = False


def win_roll(payout) -> tuple[list[int], int] | None:
    """The roll to hold every hand and the hands it needs to reach $200 (None if none can)."""
    best = max(SAMPLE_ROLLS.values(), key=lambda roll: payout(roll)[0])
    gain = payout(best)[0] - ANTE
    return (best, math.ceil((GOAL - START) / gain)) if gain > 0 else None


def record_cases(hands: int) -> list[RecordCase]:
    """The set-ups: no record, better, equal, worse, not a number, zero, a folder, a read-only
    folder."""
    return [RecordCase("no record", None), RecordCase("a better record", "2\n"),
            RecordCase("an equal record", f"{hands}\n"), RecordCase("a worse record", "9\n"),
            RecordCase("a record that is not a number", "lots\n"),
            RecordCase("a zero record", "0\n"),
            RecordCase("a folder named BestScore.txt", "<folder>"),
            RecordCase("a read-only folder", None, read_only=True)]


AWARD_CASES = ("no record", "a better record", "a worse record")


def prepare_record(case: RecordCase, hands_expected: int):
    """The set-up function for a run folder (None when there is nothing to prepare)."""
    def setup(workdir):
        """Put the record (or folder) in place and make the folder read-only if asked."""
        if case.content == "<folder>":
            (workdir / RECORD).mkdir()
        elif case.content is not None:
            (workdir / RECORD).write_text(case.content)
        if case.read_only:
            # chmod alone does not stop a program run as root, so the record is also a link
            # to a place outside the run folder, where the sandbox refuses every write.
            nowhere = Path(tempfile.gettempdir()) / f"kit-nowhere-{uuid.uuid4().hex[:8]}"
            (workdir / RECORD).symlink_to(nowhere / RECORD)
            workdir.chmod(0o555)
    return setup


def judge_record(case: RecordCase, played: Played, baseline_ended: bool) -> Requirement:
    """BestScore.txt after a won game, against the hands the game really took.

    ``baseline_ended``: the game with no record ended normally (if it did not, a crash with an
    unwritable record is not charged here: it happens anyway).
    """
    hands = played.holds
    evidence = played.excerpt(max(0, len(played.segments) - 3), len(played.segments) - 1)
    where = f"With {case.name} in BestScore.txt" if case.content not in (None, "<folder>") \
        else f"With {case.name}"
    cause = crashed_at_start(played)
    if cause:             # the same words for every set-up: said once
        return Requirement(False, "No game could be won, so the best score could not be "
                                  f"checked: the program crashed at the start. {cause}",
                           evidence=evidence)
    if not won(played):         # the same words for every set-up: said once
        return Requirement(False, f"The grader could not win a game (holding a winning roll "
                                  f"every hand, up to {MAX_HANDS} hands), so the best score "
                                  f"could not be checked. "
                                  f"{diagnose.tidy(played.transcript.ended_how)}",
                           evidence=evidence)
    if case.content == "<folder>" or case.read_only:
        if played.ended_normally or not baseline_ended:
            return Requirement(True)
        return Requirement(False, f"{where}, the record cannot be written. The program must "
                                  "print a warning and carry on with the Major Award; it "
                                  f"must not crash. {played.transcript.ended_how}",
                           evidence=evidence)
    text = (case.content or "").strip()
    old = int(text) if text.isdigit() and int(text) > 0 else None
    keep = old is not None and old <= hands
    expected = case.content if keep else f"{hands}"
    ok = played.record == case.content if keep else \
        played.record is not None and played.record.strip() == str(hands)
    if ok:
        return Requirement(True)
    if keep:
        rule = (f"the record ({old} hands) is not worse than this game's {hands} hands, so "
                "the file must be left exactly as it was")
    elif case.content is None:
        rule = f"there was no record, so this game's {hands} hands must be written to the file"
    elif old is None:
        rule = f"the file held no valid record ({text!r}), so it must now hold {hands}"
    else:
        rule = f"this game took {hands} hands, which beats the record of {old}, so the " \
               f"file must now hold {hands}"
    return Requirement(False, f"{where}: {rule}.", expected=repr(expected),
                       actual="no BestScore.txt" if played.record is None else
                       repr(played.record), evidence=evidence)


def won(played: Played) -> bool:
    """The game reached $200: the Magic 8 question came, or it ended after the last hold."""
    if played.oracle_segment is not None:
        return True
    last = played.segments[-1].text if played.segments else ""
    amounts = [int(amount) for amount in MONEY.findall(last)]
    return played.holds > 0 and bool(amounts) and max(amounts) >= GOAL


def judge_award(played: Played, answers: list[str] | None) -> list[Requirement]:
    """After the win: a question with input(), then one of the ANSWERS printed."""
    cause = crashed_at_start(played)
    if cause:
        return [Requirement(False, "No game could be won, so the Major Award could not be "
                                   f"checked: the program crashed at the start. {cause}",
                            evidence=played.excerpt(0)), Requirement(False)]
    if not won(played):
        return [Requirement(False, "The grader could not win a game, so the Major Award "
                                   f"could not be checked. {played.transcript.ended_how}",
                            evidence=played.excerpt(len(played.segments) - 2,
                                                    len(played.segments) - 1)),
                Requirement(False)]
    index = played.oracle_segment
    asked = Requirement(True) if index is not None else Requirement(
        False, f"After the win in hand {played.holds}, the program must ask the player for a "
               "yes/no question with input(); it asked nothing.",
        evidence=played.excerpt(len(played.segments) - 1))
    after = played.segments[index + 1] if index is not None and \
        index + 1 < len(played.segments) else played.segments[-1]
    if answers:
        printed = next((answer for answer in answers if answer.strip() in after.text), None)
        wanted = "one of the answers in Magic8.ANSWERS"
    else:
        printed = after.text.strip() or None
        wanted = "an answer (Magic8.ANSWERS could not be read, so any text counts)"
    last = len(played.segments) - 1
    told = Requirement(True) if printed else Requirement(
        False, f"After the question, the program must print the Magic 8 ball's answer: "
               f"{wanted}.", evidence=played.excerpt(last - 1, last))
    return [asked, told]


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
