"""Playing a console dice game from a plan: rounds of throws, dice kept by the letters a to e,
and one option (a box of a score sheet) chosen by its number each round. Yahtzee plays this
way, and so do its kin (Yacht, Kniffel, Generala): their graders write plans and judges only.

    words = Words(options=OPTIONS, keep_item="keep-dice", ...)   # items, rules, menu lines
    game = play(folder / "yahtzee.py", folder, plan("two Yahtzees", ROWS), words, limits)
    score(result, judge([game], "keep-dice", playing), "things checked in the games")

A plan's row: the first throw; per keep question the letters typed and the face every die
thrown again shows (five faces when none is kept, none when all are); the option's number;
then, optionally, answers typed before it that the program must refuse (used options, words).

How a plan is played (interpretations, each chosen so that any reasonable program can follow):
- All dice thrown again at once show one face, so a plan comes out the same whether a program
  throws only the dice not kept or throws five and puts the kept ones back.
- The dice shown are read after every throw, and the letters typed name the dice as the
  program shows them (it may sort them, or throw in another order): they follow the values the
  plan keeps (``dice_rows.relabel``).
- A "Roll again? (y/n)" question is answered yes when the plan throws again (the keep question
  follows), no when it keeps every die.
- Questions are told apart by their wording (``readers.prompts``), a list of options printed
  above them, else the round's state (the keep questions, then the option).
- An option answer was taken when dice were thrown before the next question, or the game moved
  on (a pause) or ended; else it was refused.
"""
from __future__ import annotations

import re
from collections import namedtuple
from dataclasses import dataclass
from pathlib import Path

from . import answers
from ..run.draws import ScriptedDice
from .readers import prompts
from .readers.dice_rows import letters_named, read_dice, relabel
from ..judge.requirements import Requirement
from .session import Session

KEEP = re.compile(r"keep|hold|letter|re-?roll|a\s*-\s*e\b|which dice|throw again", re.I)
OPTION = re.compile(r"option|categor|\bbox\b|1\s*-\s*13|number", re.I)
# "Roll again? (y/n)", "Do you want to re-roll?": a yes/no question, not "Which dice to re-roll?"
REROLL = re.compile(r"\b(roll|throw)\s+again\b|\bre-?(roll|throw)", re.I)
TIERS = [{"enter": prompts.is_pause}, {"reroll": (REROLL, prompts.YES_NO)},
         {"keep": KEEP, "option": OPTION},
         {"name": prompts.NAME}, {"enter": prompts.ENTER}]
TRANSCRIPT = "Transcript («…» is what the grader typed; [dice: …] the dice it loaded)"

Plan = namedtuple("Plan", "name rounds")
# a round: its first throw, (letters typed, faces thrown again) per keep question, the option
# typed (1, 2, ...), the answers typed before it that must be refused
Round = namedtuple("Round", "first keeps option refused")


@dataclass(frozen=True)
class Words:
    """A game's names: its options (typed by number from 1), the rubric items the play is
    recorded under with the handout's rule of each, and the lines that are not dice (a menu
    or the points shown: ``skip``)."""

    options: tuple
    keep_item: str
    keep_rule: str
    throws_item: str
    throws_rule: str
    rounds_item: str
    rounds_rule: str
    option_item: str
    option_rule: str
    skip: re.Pattern | None = None
    player: str = "Sam"                     # typed when a game asks for a name
    max_prompts: int = 160
    max_after: int = 3                      # questions answered after the last round
    max_repeats: int = 8


def plan(name: str, rows) -> Plan:
    """A plan from rows (first throw, (letters, faces) per keep question, the option's number,
    optionally a list of answers to refuse)."""
    rounds = []
    for first, *rest in rows:
        at = next(at for at, part in enumerate(rest) if isinstance(part, int))
        keeps = tuple((typed, tuple(faces)) for typed, faces in rest[:at])
        rounds.append(Round(tuple(first), keeps, rest[at], tuple(sum(rest[at + 1:], []))))
    return Plan(name, tuple(rounds))


def after_keep(dice: list[int], typed: str, faces: tuple[int, ...]) -> list[int]:
    """The dice after a keep answer: kept ones stay, the others show the loaded faces."""
    return list(faces) if len(faces) == 5 else \
        [die if at in letters_named(typed) else faces[0] for at, die in enumerate(dice)]


def dice_text(dice) -> str:
    return " ".join(map(str, dice)) if dice else "no dice the grader could read"


class DiceGame:
    """One game of a plan: answers each question, and records what the program did."""

    def __init__(self, plan: Plan, words: Words, session: Session, dice: ScriptedDice):
        self.plan, self.words, self.session, self.dice = plan, words, session, dice
        self.found: list[tuple] = []          # (item, Requirement) seen while playing
        self.rounds: list[tuple] = []         # (option taken, its dice, the options before)
        self.answers: list[int] = []          # the round of each answer typed
        self.tail, self.ended, self.problem, self.grader_problem = "", False, None, False
        self.transcript = None
        self.round, self.keeps, self.all_kept, self.tried, self.after = 0, 0, False, 0, 0
        self.model = self.planned = list(plan.rounds[0].first)   # as shown; in plan order
        self.expected: list[int] | None = None        # the dice after the last keep answer
        self.pending: tuple | None = None             # (typed, must refuse) of an option
        self.drawn, self.text, self.last_typed, self.moved_on = 0, "", "", False
        self.fresh, self.said_yes, self.retry = True, False, False   # see seen(), reroll()
        self.kept_wrong = False                       # a keep of this round went wrong
        self.confirmed = False                        # the pending option was confirmed
        self.used: set = set()                        # options the program took
        self.refused_open: set = set()                # open options refused this round
        self.diverged = False                         # an answer to refuse was taken

    def shown(self, expected: list[int] | None) -> list[int] | None:
        """The dice the program showed since the last answer (in any order)."""
        return read_dice(self.text, expected, any_order=True, skip=self.words.skip)

    def excerpt(self, number: int | None = None) -> str:
        """The transcript of one round, or of the end of the game."""
        marks = [mark.pos for mark in self.transcript.marks if mark.kind == "answer"]
        mine = [at for at, played in enumerate(self.answers) if played == number]
        if number is None or not mine or mine[-1] >= len(marks):
            return self.transcript.render(start=marks[-1] if marks else 0, max_lines=60)
        start = marks[mine[0] - 1] + 1 if mine[0] else 0
        return self.transcript.render(start=start, end=marks[mine[-1]], max_lines=60)

    def record(self, item: str, ok: bool, case: str, expected: str, actual: str, why: str):
        """A requirement of this round (its transcript is added at the end)."""
        case = f"Game '{self.plan.name}', round {self.round + 1}{case}"
        self.found.append((item, Requirement(bool(ok), case, expected, actual, why,
                                             self.round, self.round, TRANSCRIPT)))

    def type(self, typed: str, counted: bool = True, intent: str | None = None) -> None:
        """Answer (text, or an intent worded as the question asks); a counted answer starts a
        new stretch of output and draws."""
        self.answers.append(self.round)
        if counted:
            self.drawn, self.text = len(self.dice.draws), ""
        if intent:
            self.session.answer(intent)
        else:
            self.session.type(typed)

    def kind(self, asked: str, expected: str, menu: bool = False) -> str:
        """reroll, keep, option, enter or name (``prompts.kind_of`` with this module's tiers);
        a bare question after a list of options is the option question.

        Interpretation: where a keep question is due, a question that offers a yes and a no
        ("1) Keep all   2) Re-roll some" over "Choose 1 or 2:", "Choose y or n:", or a menu of
        two numbers, one of them throwing again: "[1] Score these  [2] Throw again" over "> ")
        is the throw-again question, whose wording the handout leaves free; its answers are
        then typed as it offers them. A keep question asks for letters, not for these. Only
        what was printed since the last answer is read (a menu answered before is not this
        question's)."""
        found = prompts.kind_of(asked, TIERS, expected, "option" if menu else None)
        if expected == "keep" and found in ("keep", "option") and \
                self.session.prompt is not None:
            offered = answers.options(self.session.output_since_answer()[-400:])
            polar = [option.polarity for option in offered]
            numbered = len(offered) == 2 and all(option.text.isdigit() for option in offered)
            if "yes" in polar and ("no" in polar or numbered):
                return "reroll"
        return found

    def play(self) -> "DiceGame":
        while (prompt := self.session.wait()) is not None:
            self.text += self.session.output_since_answer()
            if not self.step(prompts.asked(prompt), len(self.dice.draws) > self.drawn):
                break
        self.finish()
        return self

    def step(self, asked: str, drew: bool) -> bool:
        """Answer one question; False to stop the game."""
        if self.pending is not None and not self.confirmed and \
                prompts.CONFIRM.search(asked) and prompts.YES_NO.search(asked):
            # Interpretation: "Chance scores 0 now. Are you sure? (y/n)" checks the option
            # just chosen, as a careful program may: yes, and the option is judged as usual
            self.confirmed = True
            self.type("", counted=False, intent="yes")
            return True
        if self.round >= len(self.plan.rounds) and self.pending is None:
            self.after += 1
            if drew or self.kind(asked, "other") in ("keep", "reroll") or \
                    self.after > self.words.max_after:
                rounds = len(self.plan.rounds)
                self.session.stop(f"round {rounds + 1} began after all {rounds} options were "
                                  "used" if self.after == 1 else "the game asked more "
                                  "questions after the last round")
                return False
            self.type("", intent="enter" if self.kind(asked, "other") == "enter" else "no")
            return True
        keeps = len(self.plan.rounds[self.round].keeps)
        kind = self.kind(asked, "option" if self.keeps >= keeps else "keep",
                         bool(self.words.skip and self.words.skip.search(self.text)))
        if self.pending is not None and kind not in ("enter", "name"):
            taken = self.settle(drew or self.kind(asked, "other") in ("keep", "reroll"))
            if self.round >= len(self.plan.rounds):
                return self.step(asked, drew)
            kind = self.kind(asked, "keep") if taken else "option"
        if kind in ("enter", "name"):
            self.moved_on = self.pending is not None     # a pause after an option: taken
            self.type(self.words.player if kind == "name" else "", counted=False)
            return True
        return {"keep": self.keep, "reroll": self.reroll}.get(kind, self.option)(drew)

    def seen(self, drew: bool) -> bool:
        """Read the round's first throw, or judge the dice shown after the last keep answer;
        False when that answer was refused (the question came again without a throw)."""
        if self.fresh:
            self.model, self.fresh = self.shown(self.planned) or self.planned, False
            return True
        return self.expected is None or self.judge_keep(drew)

    def judge_keep(self, drew: bool, at_options: bool = False) -> bool:
        """Record the dice shown after a keep answer; False when it was refused.
        ``at_options``: the option question came next."""
        typed, expected = self.last_typed, self.expected
        shown = self.shown(expected)
        case = f": «{typed}» typed at the keep question"
        if shown is None and not drew and at_options:
            # no die thrown, though the answer threw some again: the program took it in
            # another way (e.g. as the dice to throw again: none), which is the keep item's
            if expected != self.model:
                self.record(self.words.keep_item, False, case, dice_text(expected),
                            "no die thrown again: the options came next",
                            self.words.keep_rule)
                self.kept_wrong = True
            self.expected = None
            return True
        if shown is None and not drew:
            self.record(self.words.keep_item, False, case, dice_text(expected),
                        "the question asked again", self.words.keep_rule)
            self.kept_wrong = True
            return False
        if shown is not None:
            # Interpretation: a handout asks for dice kept in place, but a program that shows
            # them sorted (and whose letters name the dice as shown) keeps the right dice,
            # which a TA would accept: sorting costs nothing. Any other reordering of kept
            # dice is a wrong keep.
            alike = sorted(shown) == sorted(expected)
            right = shown == expected or alike and (not letters_named(typed) or shown in (
                sorted(shown), sorted(shown, reverse=True)))
            self.record(self.words.keep_item, right, case, dice_text(expected),
                        dice_text(shown), self.words.keep_rule)
            self.kept_wrong = self.kept_wrong or not right
        self.model, self.expected = shown or expected, None
        return True

    def reroll(self, drew: bool) -> bool:
        """A yes/no question before the keep question: yes when the plan throws again (the
        keep question follows), no when it keeps every die or the round's throws are done."""
        if self.session.prompt.repeats:               # not accepted: the same, worded anew
            self.type("", intent="yes" if self.said_yes else "no")
            return True
        self.retry = not self.seen(drew)
        keeps = self.plan.rounds[self.round].keeps
        planned = keeps[self.keeps][0] if self.keeps < len(keeps) else ""
        self.said_yes = self.retry or self.keeps < len(keeps) and len(letters_named(planned)) < 5
        if not self.said_yes:                         # a decision to keep all: the throws end
            self.keeps, self.all_kept = self.keeps + 1, True
        self.type("", intent="yes" if self.said_yes else "no")
        return True

    def keep(self, drew: bool) -> bool:
        if self.retry or not self.said_yes and not self.seen(drew):
            self.retry = self.said_yes = False        # refused: the letters alone
            self.type("".join(sorted("abcde"[at] for at in letters_named(self.last_typed))))
            return True
        self.said_yes = False
        keeps = self.plan.rounds[self.round].keeps
        typed, faces = keeps[self.keeps] if self.keeps < len(keeps) else ("abcde", ())
        self.dice.load(list(faces) * (5 if len(faces) == 1 else 1))
        typed, self.planned = relabel(typed, self.planned, self.model or []), \
            after_keep(self.planned, typed, faces)
        self.expected = after_keep(self.model, typed, faces) if self.model else None
        self.last_typed, self.keeps = typed, self.keeps + 1
        self.all_kept = len(letters_named(typed)) == 5
        self.type(typed)
        return True

    def option(self, drew: bool) -> bool:
        plan, following = self.plan.rounds[self.round], self.plan.rounds[self.round + 1:]
        if self.expected is not None and self.pending is None:
            self.judge_keep(drew, at_options=True)
        # Interpretation: fewer keep questions after a keep answer the program took in
        # another way (it threw the dice the letters named, say) say nothing about the
        # throws: the program may have taken that answer as "keep them all". The wrong keep
        # is the keep item's; the round is not judged for the throws.
        if self.pending is None and self.tried == 0 and not (
                self.kept_wrong and self.keeps < len(plan.keeps)):
            throws = " and ".join(map(str, range(1, len(plan.keeps) + 1)))
            self.record(self.words.throws_item, self.keeps == len(plan.keeps) or (
                self.keeps < len(plan.keeps) and self.keeps and self.all_kept), "",
                f"a question to throw again (which dice to keep, or roll again?) after "
                f"throws {throws}, then the options",
                f"{self.keeps} question(s) to throw again", self.words.throws_rule)
        numbers = [str(number) for number in range(1, len(self.words.options) + 1)]
        # a used option the plan would type again, which this game never used (an answer the
        # program should have refused was taken instead): not asked, its verdict would be wrong
        while self.tried < len(plan.refused) and plan.refused[self.tried] in numbers and \
                self.diverged and self.option_of(plan.refused[self.tried]) not in self.used:
            self.tried += 1
        refused = self.tried < len(plan.refused)
        typed = plan.refused[self.tried] if refused else str(plan.option)
        if not refused and self.refused_open:
            # the plan's option was refused: an option this game has not used keeps it going
            typed = next((number for number in numbers if number not in self.refused_open
                          and self.option_of(number) not in self.used), typed)
        self.tried += 1
        self.dice.load(list(following[0].first) if following else [])
        self.pending, self.confirmed = (typed, refused), False
        self.type(typed)
        return True

    def option_of(self, typed: str) -> str | None:
        """The option an answer names by its number, or None."""
        numbers = [str(number) for number in range(1, len(self.words.options) + 1)]
        return self.words.options[int(typed) - 1] if typed in numbers else None

    def settle(self, taken: bool) -> bool:
        """The verdict on the last option answer; returns whether it was taken.

        Interpretation: once the program took an answer it should have refused, the game is
        no longer the plan's (an option the plan counts as open may be used, and the other
        way round): one mistake, charged once. An open option it then refuses is not held
        against it; the grader types another option it has not seen used, so the game goes
        on to its end and the rounds, the table and the bonuses are still judged."""
        (typed, must_refuse), self.pending = self.pending, None
        if not taken and not must_refuse:
            self.refused_open.add(typed)
        if must_refuse or not taken and not self.diverged:
            self.record(self.words.option_item, taken != must_refuse, f": «{typed}» typed at "
                        "the option question", "refused, and asked again" if must_refuse
                        else "taken", "taken" if taken else "refused", self.words.option_rule)
        self.diverged = self.diverged or must_refuse and taken
        if not taken:
            return False
        option = self.option_of(typed)
        self.used.add(option)
        self.refused_open = set()
        self.rounds.append((option, self.model, [entry[0] for entry in self.rounds]))
        self.round, self.keeps, self.tried, self.expected = self.round + 1, 0, 0, None
        self.all_kept, self.fresh, self.said_yes, self.retry = False, True, False, False
        self.kept_wrong = self.confirmed = False
        if self.round < len(self.plan.rounds):
            self.model = self.planned = list(self.plan.rounds[self.round].first)
        return True

    def finish(self) -> None:
        transcript = self.session.transcript
        self.ended = transcript.finished
        if self.pending is not None:
            # Interpretation: after the last option answer the program ended, or it stopped
            # (a crash, a loop). Ended or moved on: taken. Stopped: taken if it said something
            # first that is not a refusal ("Score: 15"); nothing at all tells nothing, and the
            # answer is not judged (the stop itself is the rounds item's).
            after = "" if self.ended or self.moved_on else \
                _before_traceback(self.session.output_since_answer()).strip()
            if self.ended or self.moved_on:
                self.settle(True)
            elif after:
                self.settle(not REFUSAL.search(after))
            else:
                self.pending = None
        answers = [mark.pos for mark in transcript.marks if mark.kind == "answer"]
        last = max((at for at, number in enumerate(self.answers)
                    if number == len(self.rounds) - 1), default=len(answers))
        self.tail = transcript.text[answers[last]:] if last < len(answers) else ""
        self.grader_problem = bool(transcript.outcome.get("grader_problem"))
        self.problem, self.transcript = None if self.ended else transcript.ended_how, transcript
        for _, requirement in self.found:
            requirement.evidence = self.excerpt(requirement.evidence)


# what a program says when it does not take an answer
REFUSAL = re.compile(r"invalid|not valid|please|try again|already|used|choose another|"
                     r"not (an? )?(option|number)|between|from 1|\bsorry\b|can'?t|cannot|\?", re.I)


def _before_traceback(text: str) -> str:
    """What a program printed before the traceback of its crash (all of it without one)."""
    return text.split("Traceback (most recent call last):")[0]


def play(target: Path, workdir: Path, plan: Plan, words: Words, limits) -> DiceGame:
    """Play one plan in a terminal."""
    dice = ScriptedDice(plan.rounds[0].first)
    session = Session.start(target, workdir, policy=dice, limits=limits)
    session.max_prompts, session.max_repeats = words.max_prompts, words.max_repeats
    try:
        return DiceGame(plan, words, session, dice).play()
    finally:
        session.close()


def playing(run: DiceGame, context=None) -> list[tuple]:
    """What a game showed while it was played: the keep, throw and option requirements, and
    whether it had the plan's rounds, then ended."""
    rounds = len(run.plan.rounds)
    return run.found + [(run.words.rounds_item, Requirement(
        len(run.rounds) == rounds and run.ended, f"Game '{run.plan.name}'",
        f"{rounds} rounds, then the end of the game", f"{len(run.rounds)} rounds, then " +
        (run.problem[:1].lower() + run.problem[1:] if run.problem else "the game ended"),
        run.words.rounds_rule, 0, run.excerpt(),
        TRANSCRIPT))]


def judge(runs: list[DiceGame], item: str, *judges, context=None) -> list[Requirement]:
    """The requirements of one item the games showed, found by ``judges`` (each takes a game
    and ``context`` and gives (item, Requirement) pairs); a game a safety net stopped is not
    judged."""
    return [requirement for run in runs if not run.grader_problem for found in judges
            for of, requirement in found(run, context) if of == item]
