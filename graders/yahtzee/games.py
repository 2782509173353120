"""Whole games in a terminal with loaded dice (plans.py), and how they are judged.

All dice thrown again at once show one face, so a plan comes out the same whether a program
throws only the dice not kept or throws five and puts the kept ones back; the dice shown are
read after every throw, and the letters typed name the dice as the program shows them (it may
sort them, or throw in another order): they follow the values the plan keeps. A "Roll again?
(y/n)" question is answered yes when the plan throws again (the keep question follows), no
when it keeps every die. Prompts are told apart by their wording, a list of options above
them, else the round's state (two keep questions, then the option). An option answer was
taken when dice were thrown before the next question, or the game moved on or ended.
"""
from __future__ import annotations

import re
from collections import namedtuple
from pathlib import Path

from graders.engine.draws import ScriptedDice
from graders.engine.readers import score_table
from graders.engine.readers.dice_rows import letters_named, read_dice, relabel
from graders.engine.requirements import Requirement
from graders.engine.session import Session

from . import rules
from .plans import GAMES

KEEP_WORDS = re.compile(r"keep|hold|letter|re-?roll|a\s*-\s*e\b|which dice|throw again", re.I)
OPTION_WORDS = re.compile(r"option|categor|\bbox\b|1\s*-\s*13|number", re.I)
ENTER = re.compile(r"\bpress\b|\bhit\b|any key|continue", re.I)
NAME = re.compile(r"\bname\b", re.I)
# "Roll again? (y/n)", "Do you want to re-roll?": a yes/no question, not "Which dice to re-roll?"
REROLL = re.compile(r"\b(roll|throw)\s+again\b|\bre-?(roll|throw)", re.I)
YES_NO = re.compile(r"\by(es)?\s*[/|]\s*no?\b|\byes\s+or\s+no\b|"
                    r"^\W*(do|would|will|want|roll|throw|re-?roll)\b[^?]*\?\W*$", re.I)
# a line naming an option is a menu or a score, not dice ("Yahtzee" is also a title)
MENU_LINE = re.compile("|".join(score_table.name_pattern(name).pattern
                                for name in rules.OPTIONS if name != "Yahtzee"), re.I)
SECTIONS = {"upper sum": (r"upper", r"bonus"), "upper bonus": (r"bonus", r"yahtzee"),
            "lower sum": (r"lower", r"bonus"), "Yahtzee bonus": (r"yahtzee.*bonus", r"^$"),
            "final score": (r"final|total|grand", r"upper|lower|bonus")}
MAX_PROMPTS, MAX_AFTER, MAX_REPEATS = 160, 3, 8
TRANSCRIPT = "Transcript («…» is what the grader typed; [dice: …] the dice it loaded)"


Plan = namedtuple("Plan", "name rounds")          # the games of plans.py
# a round: its first throw, two (letters typed, faces thrown again), the option typed (1..13)
# after the answers it must refuse (see plans.py)
Round = namedtuple("Round", "first keeps option refused")


PLANS = {name: Plan(name, tuple(
    Round(tuple(first), tuple((typed, tuple(faces)) for typed, faces in (one, two)), option,
          tuple(refused[0]) if refused else ())
    for first, one, two, option, *refused in rounds)) for name, rounds in GAMES.items()}
BONUS_GAME, ZERO_GAME = PLANS.values()


def after_keep(dice: list[int], typed: str, faces: tuple[int, ...]) -> list[int]:
    """The dice after a keep answer: kept ones stay, the others show the loaded faces."""
    return list(faces) if len(faces) == 5 else \
        [die if at in letters_named(typed) else faces[0] for at, die in enumerate(dice)]


def shown_dice(text: str, expected: list[int] | None) -> list[int] | None:
    """The dice a program showed (in any order); lines naming options are not read."""
    return read_dice(text, expected, any_order=True, skip=MENU_LINE)


def kind_of(asked: str, expected: str, menu: bool = False) -> str:
    """reroll, keep, option, enter or name from the wording; a question after a list of
    options is the option question; ``expected`` where nothing tells."""
    if REROLL.search(asked) and YES_NO.search(asked):
        return "reroll"
    keep, option = KEEP_WORDS.search(asked), OPTION_WORDS.search(asked)
    if not keep and not option:
        return "name" if NAME.search(asked) else "enter" if ENTER.search(asked) else \
            "option" if menu else expected
    return expected if keep and option else "keep" if keep else "option"


KEEP_RULE = "The letters a to e (any case, repeats and other characters ignored) keep their " \
    "dice; every other die is thrown again."
OPTION_RULE = "A used option, a number outside 1 to 13 or a word is refused and asked again; " \
    "an open option is taken."


class Game:
    """One game of a plan: answers each prompt, and records what the program did."""

    def __init__(self, plan: Plan, session: Session, dice: ScriptedDice):
        self.plan, self.session, self.dice = plan, session, dice
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
        """Answer (text, or an intent worded as the prompt asks); a counted answer starts a
        new stretch of output and draws."""
        self.answers.append(self.round)
        if counted:
            self.drawn, self.text = len(self.dice.draws), ""
        if intent:
            self.session.answer(intent)
        else:
            self.session.type(typed)

    def play(self) -> "Game":
        while (prompt := self.session.wait()) is not None:
            self.text += self.session.output_since_answer()
            lines = [line for line in prompt.context.splitlines() if re.search("[A-Za-z]", line)]
            asked = prompt.text if re.search("[A-Za-z]", prompt.text) else (lines or [""])[-1]
            if not self.step(asked, len(self.dice.draws) > self.drawn):
                break
        self.finish()
        return self

    def step(self, asked: str, drew: bool) -> bool:
        """Answer one prompt; False to stop the game."""
        if self.round >= len(self.plan.rounds) and self.pending is None:
            self.after += 1
            if drew or kind_of(asked, "other") in ("keep", "reroll") or self.after > MAX_AFTER:
                self.session.stop("a 14th round began after all 13 options were used" if
                                  self.after == 1 else "the game asked more questions after "
                                  "the last round")
                return False
            self.type("", intent="enter" if kind_of(asked, "other") == "enter" else "no")
            return True
        kind = kind_of(asked, "option" if self.keeps >= 2 else "keep",
                       bool(MENU_LINE.search(self.text)))
        if self.pending is not None and kind not in ("enter", "name"):
            taken = self.settle(drew or kind_of(asked, "other") in ("keep", "reroll"))
            if self.round >= len(self.plan.rounds):
                return self.step(asked, drew)
            kind = kind_of(asked, "keep") if taken else "option"
        if kind in ("enter", "name"):
            self.moved_on = self.pending is not None     # a pause after an option: taken
            self.type("Sam" if kind == "name" else "", counted=False)
            return True
        return {"keep": self.keep, "reroll": self.reroll}.get(kind, self.option)(drew)

    def seen(self, drew: bool) -> bool:
        """Read the round's first throw, or judge the dice shown after the last keep answer;
        False when that answer was refused (the question came again without a throw)."""
        if self.fresh:
            self.model, self.fresh = shown_dice(self.text, self.planned) or self.planned, False
            return True
        return self.expected is None or self.judge_keep(drew)

    def judge_keep(self, drew: bool) -> bool:
        """Record the dice shown after a keep answer; False when it was refused."""
        typed, expected = self.last_typed, self.expected
        shown = shown_dice(self.text, expected)
        case = f": «{typed}» typed at the keep question"
        if shown is None and not drew:
            self.record("keep-dice", False, case, dice_text(expected),
                        "the question asked again", KEEP_RULE)
            return False
        if shown is not None:
            # Interpretation: the handout asks for dice kept in place, but a program that
            # shows them sorted (and whose letters name the dice as shown) keeps the right
            # dice, which a TA would accept: sorting costs nothing. Any other reordering of
            # kept dice is a wrong keep.
            alike = sorted(shown) == sorted(expected)
            right = shown == expected or alike and (not letters_named(typed) or shown in (
                sorted(shown), sorted(shown, reverse=True)))
            self.record("keep-dice", right, case, dice_text(expected), dice_text(shown),
                        KEEP_RULE)
        self.model, self.expected = shown or expected, None
        return True

    def reroll(self, drew: bool) -> bool:
        """A yes/no question before the keep question: yes when the plan throws again (the
        keep question follows), no when it keeps every die or the round had three throws."""
        if self.session.prompt.repeats:               # not accepted: the same, worded anew
            self.type("", intent="yes" if self.said_yes else "no")
            return True
        self.retry = not self.seen(drew)
        planned = self.plan.rounds[self.round].keeps[self.keeps][0] if self.keeps < 2 else ""
        self.said_yes = self.retry or self.keeps < 2 and len(letters_named(planned)) < 5
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
        plan = self.plan.rounds[self.round]
        typed, faces = plan.keeps[self.keeps] if self.keeps < 2 else ("abcde", ())
        self.dice.load(list(faces) * (5 if len(faces) == 1 else 1))
        typed, self.planned = relabel(typed, self.planned, self.model or []), \
            after_keep(self.planned, typed, faces)
        self.expected = after_keep(self.model, typed, faces) if self.model else None
        self.last_typed, self.keeps = typed, self.keeps + 1
        self.all_kept = len(letters_named(typed)) == 5
        self.type(typed)
        return True

    def option(self, drew: bool) -> bool:
        if self.expected is not None and self.pending is None:
            self.judge_keep(True)
        if self.pending is None and self.tried == 0:
            self.record("three-throws", self.keeps == 2 or (self.keeps == 1 and self.all_kept),
                        "", "a keep question after throws 1 and 2, then the options",
                        f"{self.keeps} keep question(s)", "A round has three throws.")
        plan, following = self.plan.rounds[self.round], self.plan.rounds[self.round + 1:]
        refused = self.tried < len(plan.refused)
        typed = plan.refused[self.tried] if refused else str(plan.option)
        self.tried += 1
        self.dice.load(list(following[0].first) if following else [])
        self.pending = (typed, refused)
        self.type(typed)
        return True

    def settle(self, taken: bool) -> bool:
        """The verdict on the last option answer; returns whether it was taken."""
        (typed, must_refuse), self.pending = self.pending, None
        if must_refuse or not taken:
            self.record("options-used-up", taken != must_refuse, f": «{typed}» typed at the "
                        "option question", "refused, and asked again" if must_refuse else
                        "taken", "taken" if taken else "refused", OPTION_RULE)
        if not taken:
            return False
        option = rules.OPTIONS[int(typed) - 1] if typed in map(str, range(1, 14)) else None
        self.rounds.append((option, self.model, [entry[0] for entry in self.rounds]))
        self.round, self.keeps, self.tried, self.expected = self.round + 1, 0, 0, None
        self.all_kept, self.fresh, self.said_yes, self.retry = False, True, False, False
        if self.round < len(self.plan.rounds):
            self.model = self.planned = list(self.plan.rounds[self.round].first)
        return True

    def finish(self) -> None:
        run, transcript = self, self.session.transcript
        run.ended = not transcript.crashed and not self.session.gave_up and \
            transcript.outcome.get("status") in ("finished", "exit") and \
            transcript.outcome.get("code", 0) in (0, None)
        if self.pending is not None:
            self.settle(run.ended or self.moved_on)
        answers = [mark.pos for mark in transcript.marks if mark.kind == "answer"]
        last = max((at for at, number in enumerate(run.answers)
                    if number == len(run.rounds) - 1), default=len(answers))
        run.tail = transcript.text[answers[last]:] if last < len(answers) else ""
        run.grader_problem = bool(transcript.outcome.get("grader_problem"))
        run.problem, run.transcript = None if run.ended else transcript.ended_how, transcript
        for _, requirement in run.found:
            requirement.evidence = run.excerpt(requirement.evidence)


def play(target: Path, workdir: Path, plan: Plan, limits) -> Game:
    """Play one plan in a terminal."""
    dice = ScriptedDice(plan.rounds[0].first)
    session = Session.start(target, workdir, policy=dice, limits=limits)
    session.max_prompts, session.max_repeats = MAX_PROMPTS, MAX_REPEATS
    try:
        return Game(plan, session, dice).play()
    finally:
        session.close()


# ----------------------------------------------------------------------------- judging
def judge(runs: list[Game], item: str, *judges, fixed=None) -> list[Requirement]:
    """The requirements of one item the games showed, found by ``judges`` (each takes a game
    and ``fixed``, and gives (item, Requirement) pairs); a game a safety net stopped is not
    judged. ``fixed``: the points the student gives a real Full House and straights."""
    return [requirement for run in runs if not run.grader_problem for found in judges
            for of, requirement in found(run, fixed) if of == item]


def playing(run: Game, fixed=None) -> list[tuple]:
    """What the game showed while it was played: the console items, and its 13 rounds."""
    return run.found + [("thirteen-rounds", Requirement(
        len(run.rounds) == 13 and run.ended, f"Game '{run.plan.name}'",
        "13 rounds, then the end of the game", f"{len(run.rounds)} rounds; " +
        (run.problem or "then the game ended"), "A game has 13 rounds.", 0, run.excerpt(),
        TRANSCRIPT))]


def dice_text(dice) -> str:
    return " ".join(map(str, dice)) if dice else "no dice the grader could read"


def final_table(run: Game):
    """The rows and sections of the final table, and ``add`` to record a requirement of it
    (a game that did not end has no final table to judge: each judge returns nothing)."""
    rows = score_table.rows(run.tail, rules.OPTIONS, avoid={"Yahtzee": "bonus"})
    sections, found, table = score_table.totals(run.tail, SECTIONS), [], run.excerpt()

    def add(item, ok, what, expected, actual, why):
        found.append((item, Requirement(bool(ok), f"Game '{run.plan.name}', the final table: "
                                        f"{what}", str(expected), str(actual), why, len(found),
                                        table, TRANSCRIPT)))
    return rows, sections, found, add


def scored(run: Game) -> dict:
    """option -> (its dice, the options played before it), of the options the game took."""
    return {option: (dice, before) for option, dice, before in run.rounds if option}


def table_rows(run: Game, fixed=None) -> list[tuple]:
    """Each option's row under its option's item (a Yahtzee in a Full House or a straight is
    the joker's: ``table_jokers``)."""
    if not run.ended:
        return []
    rows, _, found, add = final_table(run)
    for option, (dice, _) in scored(run).items():
        add("score-table", option in rows, f"the row of {option}",
            "its points", "no row", "The table shows every option with its points.")
        if option in rows and dice and rules.item_of(option, dice) != "joker":
            add(rules.item_of(option, dice), rows[option] == rules.score(dice, option),
                f"{option} scored with {dice_text(dice)}", rules.score(dice, option),
                rows[option], "The table shows the points the rules give these dice.")
    return found


def table_jokers(run: Game, fixed=None) -> list[tuple]:
    """The rows of Yahtzees scored as a Full House or a straight: a joker that applies may
    give the points the student gives a real one (``fixed``)."""
    if not run.ended:
        return []
    rows, _, found, add = final_table(run)
    for option, (dice, before) in scored(run).items():
        if option in rows and dice and rules.item_of(option, dice) == "joker":
            points = rules.joker_score(dice, option, before)
            add("joker", rows[option] == points or points and
                rows[option] == (fixed or {}).get(option), f"{option} scored with "
                f"{dice_text(dice)}", points, rows[option], "A Yahtzee is a joker once the "
                "Yahtzee box and the upper box of its number are used.")
    return found


def table_sums(run: Game, fixed=None) -> list[tuple]:
    """The section sums and the final score, from the numbers the table itself shows."""
    if not run.ended:
        return []
    rows, sections, found, add = final_table(run)
    for label in SECTIONS:
        add("score-table", label in sections, f"the {label}", "a line with its number",
            "none found", "The table ends with the sums, the bonuses and the final score.")
    upper, lower = [rows.get(o) for o in rules.UPPER], [rows.get(o) for o in rules.OPTIONS[6:]]
    parts = [sections.get(label) for label in list(SECTIONS)[:4]]
    for label, summed in (("upper sum", upper), ("lower sum", lower), ("final score", parts)):
        if label in sections and None not in summed:
            add("score-table", sections[label] == sum(summed), f"the {label}", sum(summed),
                sections[label], "Each sum adds up the numbers shown above it.")
    return found


def table_bonuses(run: Game, fixed=None) -> list[tuple]:
    """The upper bonus from the upper sum shown; the Yahtzee bonus from the Yahtzees thrown."""
    if not run.ended:
        return []
    rows, sections, found, add = final_table(run)
    upper = [rows.get(o) for o in rules.UPPER]
    upper_sum = sections.get("upper sum", None if None in upper else sum(upper))
    if "upper bonus" in sections and upper_sum is not None:
        add("upper-bonus", sections["upper bonus"] == 35 * (upper_sum >= 63), "the upper "
            f"bonus with {upper_sum} in the upper section", 35 * (upper_sum >= 63),
            sections["upper bonus"], "63 or more in Ones to Sixes earns 35.")
    bonuses = []            # the box filled with a Yahtzee, or showing 50: either reading
    for filled in (rules.is_yahtzee, lambda dice: rows.get("Yahtzee") == 50):
        bonus, allowed = 0, False
        for option, dice, _ in run.rounds:
            bonus += 100 if allowed and dice and rules.is_yahtzee(dice) else 0
            allowed = allowed or (option == "Yahtzee" and bool(dice) and filled(dice))
        bonuses.append(bonus)
    if "Yahtzee bonus" in sections:
        add("yahtzee-bonus", sections["Yahtzee bonus"] in bonuses, "the Yahtzee bonus",
            bonuses[0], sections["Yahtzee bonus"], "Each Yahtzee thrown after the Yahtzee "
            "box got 50 earns 100.")
    return found
