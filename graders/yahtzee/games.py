"""Whole games in a terminal with loaded dice, and how they are judged.

A :class:`Plan` gives each round's first throw, the letters typed at the two keep questions
(with the face that every die thrown again shows) and the option numbers typed. Because all
dice thrown again in one throw show the same face, the plan comes out the same whether a
program throws only the dice that are not kept, or throws five and puts the kept ones back,
in any order. The grader reads the dice the program shows after every throw.

Prompts are told apart by their wording (keep, option, Enter, a name) and, where the wording
says nothing, by the state of the round: two keep questions, then the option. An option
answer was taken when dice were thrown before the next question (a new round) or the game
ended; otherwise it was refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.draws import ScriptedDice
from graders.engine.readers.dice import find_dice
from graders.engine.requirements import Requirement, check
from graders.engine.session import Session

from . import rules

KEEP_WORDS = re.compile(r"keep|hold|letter|re-?roll|a\s*-\s*e\b|which dice|throw again", re.I)
OPTION_WORDS = re.compile(r"option|categor|\bbox\b|1\s*-\s*13|number", re.I)
ENTER = re.compile(r"\bpress\b|\bhit\b|any key|continue", re.I)
NAME = re.compile(r"\bname\b", re.I)
DIE = re.compile(r"(?<![\d.])[1-6](?![\d.])")
MENU_LINE = re.compile(r"\bones\b|\bchance\b|three\s+of\s+a\s+kind", re.I)
NUMBER = re.compile(r"-?\d+")
SECTIONS = {"upper sum": (re.compile(r"upper", re.I), re.compile(r"bonus", re.I)),
            "upper bonus": (re.compile(r"bonus", re.I), re.compile(r"yahtzee", re.I)),
            "lower sum": (re.compile(r"lower", re.I), re.compile(r"bonus", re.I)),
            "Yahtzee bonus": (re.compile(r"yahtzee.*bonus|bonus.*yahtzee", re.I), None),
            "final score": (re.compile(r"final|total|grand", re.I),
                            re.compile(r"upper|lower|bonus", re.I))}
MAX_PROMPTS, MAX_AFTER, MAX_REFUSED = 160, 3, 2
TRANSCRIPT = "Transcript («…» is what the grader typed; [dice: …] the dice it loaded)"


@dataclass(frozen=True)
class Round:
    first: tuple[int, ...]
    keeps: tuple[tuple[str, tuple[int, ...]], ...]   # (letters typed, faces thrown again)
    option: int                                      # 1..13, typed after any refused ones
    refused: tuple[str, ...] = ()                    # typed first; each must be refused


@dataclass(frozen=True)
class Plan:
    name: str
    rounds: tuple[Round, ...]

    def describe(self) -> str:
        """One line for the feedback."""
        chosen = ", ".join(rules.OPTIONS[r.option - 1] for r in self.rounds)
        return f"{self.name}: options chosen in this order: {chosen}."


R = Round
BONUS_GAME = Plan("63 above, two extra Yahtzees, jokers", (
    R((3, 3, 1, 5, 6), (("ab", (3,)), ("abcde", ())), 12),
    R((1, 4, 1, 6, 2), (("ac", (6,)), ("ABCD", (1,))), 1),
    R((2, 2, 2, 5, 4), (("", (2, 3, 2, 5, 2)), ("abcde", ())), 2),
    R((3, 3, 5, 6, 2), (("ABCD", (4,)), ("a, b, c, d", (3,))), 3),
    R((4, 4, 4, 1, 2), (("abc", (2,)), ("ccbbaa", (5,))), 4),
    R((5, 2, 5, 2, 5), (("ACE", (6,)), ("ace", (1,))), 5),
    R((6, 6, 1, 1, 6), (("abe", (3,)), ("EBA", (2,))), 6),
    R((4, 1, 4, 2, 4), (("aCe", (4,)), ("abcde", ())), 10),
    R((6, 6, 6, 6, 6), (("abcde", ()), ("ABCDE", ())), 11),
    R((2, 2, 3, 1, 3), (("abce", (3,)), ("abcde", ())), 9),
    R((2, 2, 2, 5, 6), (("abc", (6,)), ("abcd", (1,))), 7),
    R((5, 5, 1, 5, 5), (("abde", (2,)), ("x-a-b-d-e!", (3,))), 8),
    R((6, 5, 4, 1, 2), (("abc", (6,)), ("", (6, 6, 5, 5, 4))), 13)))
ZERO_GAME = Plan("a Yahtzee box with 0, 62 above, used options", (
    R((1, 2, 3, 5, 6), (("ABCDE", ()), ("abcde", ())), 12, ("seven", "14", "0")),
    R((2, 2, 4, 2, 2), (("abde", (2,)), ("abcde", ())), 2),
    R((5, 5, 5, 5, 5), (("abcde", ()), ("abcde", ())), 9),
    R((6, 6, 6, 6, 3), (("abcd", (1,)), ("ABCD", (2,))), 6, ("12", "2")),
    R((6, 6, 6, 6, 2), (("abcd", (6,)), ("abcde", ())), 10),
    R((5, 5, 5, 1, 1), (("abc", (2,)), ("ABC", (3,))), 5),
    R((4, 4, 1, 2, 3), (("ab", (1,)), ("", (4, 1, 4, 2, 6))), 4),
    R((3, 1, 2, 5, 6), (("a", (1,)), ("a", (2,))), 3),
    R((1, 1, 4, 5, 6), (("AB", (5,)), ("abcde", ())), 1),
    R((2, 3, 4, 5, 5), (("abcd", (6,)), ("abcde", ())), 11),
    R((4, 4, 4, 4, 6), (("abcde", ()), ("abcde", ())), 7),
    R((1, 1, 1, 2, 3), (("", (3, 3, 3, 2, 1)), ("ABC", (1,))), 8),
    R((6, 6, 5, 5, 4), (("abcde", ()), ("abcde", ())), 13)))
PLANS = {plan.name: plan for plan in (BONUS_GAME, ZERO_GAME)}


def kept(typed: str) -> set[int]:
    """The positions the letters a to e of an answer keep."""
    return {"abcde".index(ch) for ch in typed.lower() if ch in "abcde"}


def after_keep(dice: list[int], typed: str, faces: tuple[int, ...]) -> list[int]:
    """The dice after a keep answer: kept ones stay, the others show the loaded faces."""
    if len(faces) == 5:
        return list(faces)
    return [die if place in kept(typed) else faces[0] for place, die in enumerate(dice)]


def read_dice(text: str, expected: list[int] | None) -> list[int] | None:
    """The five dice a program showed: ``expected`` when they are in the text (on one line,
    one per line, or drawn as big dice), else the best reading, else None."""
    lines = text.splitlines()
    menu = next((at for at, line in enumerate(lines) if MENU_LINE.search(line)), len(lines))
    lines = lines[:menu]
    rows = [[int(face) for face in DIE.findall(line)] for line in lines]
    found = [row for row in rows if len(row) >= 5]
    if expected and any(_within(row, expected) for row in found):
        return list(expected)
    every = [face for row in rows for face in row]
    if expected and not found and _within(every, expected):
        return list(expected)
    if expected and find_dice("\n".join(lines), expected):
        return list(expected)
    if found:
        return found[-1][-5:]
    return every[-5:] if len(every) >= 5 else None


def _within(faces: list[int], wanted: list[int]) -> bool:
    return any(faces[at:at + 5] == wanted for at in range(len(faces) - 4))


def wording(prompt) -> str:
    """What a prompt asks: its text, or the last printed line that has words."""
    lines = [line for line in prompt.context.splitlines() if re.search(r"[A-Za-z]", line)]
    text = prompt.text if re.search(r"[A-Za-z]", prompt.text) else ""
    return text or (lines[-1] if lines else "")


def kind_of(asked: str, expected: str) -> str:
    """keep, option, enter or name, from the wording; ``expected`` where it says nothing."""
    keep, option = KEEP_WORDS.search(asked), OPTION_WORDS.search(asked)
    if not keep and not option:
        return "name" if NAME.search(asked) else "enter" if ENTER.search(asked) else expected
    return expected if keep and option else "keep" if keep else "option"


@dataclass
class GameRun:
    plan: Plan
    keeps: list[tuple] = field(default_factory=list)     # (round, typed, expected, shown,
    #                                                       refused: asked again, no throw)
    throws: list[tuple] = field(default_factory=list)    # (round, keep questions, last kept all)
    refusals: list[tuple] = field(default_factory=list)  # (round, typed, refused?, must refuse?)
    rounds: list[tuple] = field(default_factory=list)    # (option or None, dice or None, before)
    answers: list[int] = field(default_factory=list)     # round of each answer typed
    tail: str = ""
    ended: bool = False
    beyond: bool = False                                 # dice thrown after round 13
    problem: str | None = None
    grader_problem: bool = False
    transcript: object = None

    def excerpt(self, round_number: int | None = None) -> str:
        """The transcript of one round (by its number), or of the end of the game."""
        marks = [mark for mark in self.transcript.marks if mark.kind == "answer"]
        if round_number is None:
            start = marks[-1].pos if marks else 0
            return self.transcript.render(start=start, max_lines=60)
        mine = [at for at, number in enumerate(self.answers) if number == round_number]
        if not mine or mine[-1] >= len(marks):
            return ""
        start = marks[mine[0] - 1].pos + 1 if mine[0] else 0
        return self.transcript.render(start=start, end=marks[mine[-1]].pos, max_lines=60)


class Player:
    """Plays one plan: answers each prompt and records what the game did."""

    def __init__(self, plan: Plan, session: Session, dice: ScriptedDice):
        self.plan, self.session, self.dice = plan, session, dice
        self.run = GameRun(plan)
        self.round, self.keeps, self.all_kept, self.tried, self.after = 0, 0, False, 0, 0
        self.model: list[int] | None = list(plan.rounds[0].first)
        self.expected: list[int] | None = None        # after the last keep answer
        self.pending: tuple | None = None             # (typed, must refuse) of an option
        self.drawn, self.text, self.retries, self.last_typed = 0, "", 0, ""

    def type(self, typed: str) -> None:
        self.run.answers.append(self.round)
        self.drawn, self.text = len(self.dice.draws), ""
        self.session.type(typed)

    def play(self) -> GameRun:
        while (prompt := self.session.wait()) is not None:
            self.text += self.session.output_since_answer()
            if not self.step(prompt):
                break
        self.finish()
        return self.run

    def step(self, prompt) -> bool:
        """Answer one prompt; False to stop the game."""
        drew = len(self.dice.draws) > self.drawn
        asked = wording(prompt)
        if self.round >= len(self.plan.rounds) and self.pending is None:
            if drew or kind_of(asked, "other") == "keep":
                self.run.beyond = True
                self.session.stop("a 14th round began after all 13 options were used")
                return False
            self.after += 1
            if self.after > MAX_AFTER:
                self.session.stop("the game asked more questions after the last round")
                return False
            self.run.answers.append(self.round)
            self.session.answer("enter" if kind_of(asked, "other") == "enter" else "no")
            return True
        kind = kind_of(asked, "option" if self.keeps >= 2 else "keep")
        if self.pending is not None and kind not in ("enter", "name"):
            kind = kind_of(asked, "keep") if self.settle(drew or kind == "keep") else "option"
            if self.round >= len(self.plan.rounds):
                return self.step(prompt)
        if kind in ("enter", "name"):
            self.session.type("Sam" if kind == "name" else "")
            self.run.answers.append(self.round)
            return True
        return self.keep(drew) if kind == "keep" else self.option()

    def judge_keep(self, drew: bool) -> bool:
        """After a keep answer: the dice shown now; False when the question was asked again
        without a throw (the answer was refused)."""
        shown = read_dice(self.text, self.expected)
        if shown is None and not drew:
            return False
        self.run.keeps.append((self.round, self.last_typed, self.expected, shown, False))
        self.model = shown or self.expected
        return True

    def keep(self, drew: bool) -> bool:
        plan = self.plan.rounds[self.round]
        if self.keeps == 0:
            self.model = read_dice(self.text, self.model) or self.model
        elif not self.judge_keep(drew):
            self.run.keeps.append((self.round, self.last_typed, self.expected, None, True))
            self.retries += 1
            if self.retries > MAX_REFUSED:
                self.session.stop("the program kept asking which dice to keep")
                return False
            self.type("".join(sorted("abcde"[at] for at in kept(self.last_typed))))
            return True
        typed, faces = plan.keeps[self.keeps] if self.keeps < 2 else ("abcde", ())
        self.dice.load(list(faces) * (5 if len(faces) == 1 else 1))
        self.expected = after_keep(self.model, typed, faces) if self.model else None
        self.last_typed, self.keeps, self.all_kept = typed, self.keeps + 1, len(kept(typed)) == 5
        self.type(typed)
        return True

    def option(self) -> bool:
        plan = self.plan.rounds[self.round]
        if self.retries > MAX_REFUSED:
            self.session.stop("the program refused every option the grader chose")
            return False
        if self.keeps and self.expected is not None and self.pending is None:
            if self.judge_keep(True):
                self.expected = None
        if self.pending is None and not any(t[0] == self.round for t in self.run.throws):
            self.run.throws.append((self.round, self.keeps, self.all_kept))
        refused = self.tried < len(plan.refused)
        typed = plan.refused[self.tried] if refused else str(plan.option)
        self.tried += refused
        following = self.plan.rounds[self.round + 1].first \
            if self.round + 1 < len(self.plan.rounds) else ()
        self.dice.load(list(following))
        self.pending = (typed, refused)
        self.type(typed)
        return True

    def settle(self, taken: bool) -> bool:
        """The verdict on the last option answer; returns whether it was taken."""
        typed, must_refuse = self.pending
        self.pending = None
        if must_refuse or not taken:
            self.run.refusals.append((self.round, typed, not taken, must_refuse))
        if not taken:
            self.retries += not must_refuse
            return False
        option = rules.OPTIONS[int(typed) - 1] if typed.isdigit() and 1 <= int(typed) <= 13 \
            else None
        before = [entry[0] for entry in self.run.rounds if entry[0]]
        self.run.rounds.append((option, self.model, before))
        self.round, self.keeps, self.tried, self.expected = self.round + 1, 0, 0, None
        self.all_kept = False
        if self.round < len(self.plan.rounds):
            self.model = list(self.plan.rounds[self.round].first)
        return True

    def finish(self) -> None:
        transcript = self.session.transcript
        run = self.run
        run.ended = not transcript.crashed and not self.session.gave_up and \
            transcript.outcome.get("status") in ("finished", "exit") and \
            transcript.outcome.get("code", 0) in (0, None)
        if self.pending is not None:
            self.settle(run.ended)
        answers = [mark.pos for mark in transcript.marks if mark.kind == "answer"]
        taken = len(run.rounds)
        last = max((at for at, number in enumerate(run.answers) if number == taken - 1),
                   default=None)
        run.tail = transcript.text[answers[last]:] if last is not None and \
            last < len(answers) else ""
        run.grader_problem = bool(transcript.outcome.get("grader_problem"))
        run.problem = None if run.ended else transcript.ended_how
        run.transcript = transcript


def play(target: Path, workdir: Path, plan: Plan, limits) -> GameRun:
    """Play one plan in a terminal."""
    dice = ScriptedDice(plan.rounds[0].first)
    session = Session.start(target, workdir, policy=dice, limits=limits)
    session.max_prompts, session.max_repeats = MAX_PROMPTS, 8
    try:
        return Player(plan, session, dice).play()
    finally:
        session.close()


# ----------------------------------------------------------------------------- judging
def read_table(tail: str) -> tuple[dict, dict]:
    """The final table: option -> the first number after its name on its (last) line, and
    each section's number (after its last ':' or '=', else the line's last number)."""
    rows, sections, lines = {}, {}, tail.splitlines()
    for option in rules.OPTIONS:
        name = re.compile(r"\b" + option.replace(" ", r"\s+") + r"\b", re.I)
        for line in lines:
            found = name.search(line)
            number = found and NUMBER.search(line[found.end():])
            if number and not (option == "Yahtzee" and re.search("bonus", line, re.I)):
                rows[option] = int(number.group())
    for label, (wanted, avoided) in SECTIONS.items():
        for line in lines:
            if wanted.search(line) and not (avoided and avoided.search(line)):
                numbers = NUMBER.findall(re.split(r"[:=]", line)[-1])
                numbers = numbers[:1] or NUMBER.findall(line)[-1:]
                sections.update({label: int(numbers[0])} if numbers else {})
    return rows, sections


def shown_dice(dice) -> str:
    return " ".join(map(str, dice)) if dice else "no dice the grader could read"


def judge(runs: list[GameRun]) -> dict[str, list[Requirement]]:
    """Every requirement the games showed, by rubric item."""
    judged: dict[str, list[Requirement]] = {}

    def add(item, ok, case, expected, actual, why, size, evidence):
        judged.setdefault(item, []).append(Requirement(bool(ok), case, expected, actual, why,
                                                       size, evidence, TRANSCRIPT))
    for run in runs:
        game = f"Game '{run.plan.name}', round"
        for number, typed, expected, shown, refused in run.keeps:
            if expected is not None and (shown is not None or refused):
                add("keep-dice", shown == expected and not refused, f"{game} {number + 1}: "
                    f"«{typed}» typed at the keep question", shown_dice(expected),
                    "the question asked again" if refused else shown_dice(shown),
                    "The letters a to e (any case, repeats and other characters ignored) "
                    "keep their dice; every other die is thrown again.", number,
                    run.excerpt(number))
        for number, asked, all_kept in run.throws:
            add("three-throws", asked == 2 or (asked == 1 and all_kept), f"{game} {number + 1}",
                "a keep question after throws 1 and 2, then the options",
                f"{asked} keep question(s)", "A round has three throws.", number,
                run.excerpt(number))
        for number, typed, refused, must in run.refusals:
            add("options-used-up", refused == must, f"{game} {number + 1}: «{typed}» typed "
                "at the option question", "refused, and asked again" if must else "taken",
                "refused" if refused else "taken", "A used option, a number outside 1 to 13 "
                "or a word is refused and asked again; an open option is taken.", number,
                run.excerpt(number))
        if run.grader_problem:
            continue
        add("thirteen-rounds", len(run.rounds) == 13 and run.ended, f"Game '{run.plan.name}'",
            "13 rounds, then the end of the game", f"{len(run.rounds)} rounds; " +
            ("a 14th began" if run.beyond else run.problem or "then the game ended"),
            "A game has 13 rounds.", 0, run.excerpt())
        if run.ended:
            judge_table(run, add)
    return judged


def judge_table(run: GameRun, add) -> None:
    """The table's rows by their options' items; sums and total; the bonuses."""
    rows, sections = read_table(run.tail)
    table, case, last = run.excerpt(), f"Game '{run.plan.name}', the final table", {}
    for option, dice, before in run.rounds:
        if option:
            last[option] = (dice, before)
    for option, (dice, before) in last.items():
        add("score-table", option in rows, f"{case}: the row of {option}", "its points",
            "no row", "The table shows every option with its points.", 1, table)
        if option in rows and dice:
            add(rules.item_of(option, dice), rows[option] == rules.score(dice, option, before),
                f"{case}: {option} scored with {shown_dice(dice)}",
                str(rules.score(dice, option, before)), str(rows[option]),
                "The table shows the points the handout's rules give these dice.", 2, table)
    for label in SECTIONS:
        add("score-table", label in sections, f"{case}: the {label}", "a line with its number",
            "none found", "The table ends with the section sums, bonuses and final score.", 3,
            table)
    upper = [rows.get(option) for option in rules.UPPER]
    lower = [rows.get(option) for option in rules.OPTIONS[6:]]
    for label, parts in (("upper sum", upper), ("lower sum", lower), ("final score", [
            sections.get(name) for name in ("upper sum", "upper bonus", "lower sum",
                                            "Yahtzee bonus")])):
        if label in sections and None not in parts:
            add("score-table", sections[label] == sum(parts), f"{case}: the {label}",
                str(sum(parts)), str(sections[label]), "Each sum adds up the numbers shown "
                "above it.", 4, table)
    upper_sum = sections.get("upper sum", sum(upper) if None not in upper else None)
    if "upper bonus" in sections and upper_sum is not None:
        add("upper-bonus", sections["upper bonus"] == (35 if upper_sum >= 63 else 0),
            f"{case}: the upper bonus with {upper_sum} in the upper section",
            str(35 if upper_sum >= 63 else 0), str(sections["upper bonus"]),
            "63 or more in Ones to Sixes earns 35.", 5, table)
    bonus, allowed = 0, False
    for option, dice, _ in run.rounds:
        bonus += 100 if allowed and dice and rules.is_yahtzee(dice) else 0
        allowed = allowed or (option == "Yahtzee" and rows.get("Yahtzee") == 50)
    if "Yahtzee bonus" in sections:
        add("yahtzee-bonus", sections["Yahtzee bonus"] == bonus, f"{case}: the Yahtzee bonus",
            str(bonus), str(sections["Yahtzee bonus"]), "Each Yahtzee thrown after the "
            "Yahtzee box got 50 earns 100.", 6, table)
