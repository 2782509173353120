"""Whole games in a terminal with loaded dice (plans.toml), and how they are judged.

All dice thrown again at once show one face, so a plan comes out the same whether a program
throws only the dice not kept or throws five and puts the kept ones back; the dice shown are
read after every throw, and when a program throws in another order the letters typed follow
the values the plan keeps. Prompts are told apart by their wording, a list of options above
them, else the round's state (two keep questions, then the option). An option answer was
taken when dice were thrown before the next question, or the game moved on or ended.
"""
from __future__ import annotations

import re
import tomllib
from collections import namedtuple
from pathlib import Path

from graders.engine.draws import ScriptedDice
from graders.engine.readers.dice import find_dice
from graders.engine.requirements import Requirement
from graders.engine.session import Session

from . import rules

KEEP_WORDS = re.compile(r"keep|hold|letter|re-?roll|a\s*-\s*e\b|which dice|throw again", re.I)
OPTION_WORDS = re.compile(r"option|categor|\bbox\b|1\s*-\s*13|number", re.I)
ENTER = re.compile(r"\bpress\b|\bhit\b|any key|continue", re.I)
NAME = re.compile(r"\bname\b", re.I)
DIE, NUMBER = re.compile(r"(?<![\d.])[1-6](?![\d.])"), re.compile(r"-?\d+")
# a line naming an option is a menu or a score, not dice ("Yahtzee" is also a title)
MENU_LINE = re.compile("|".join(r"\b" + name.replace(" ", r"\s+") + r"\b"
                                for name in rules.OPTIONS if name != "Yahtzee"), re.I)
SECTIONS = {"upper sum": (r"upper", r"bonus"), "upper bonus": (r"bonus", r"yahtzee"),
            "lower sum": (r"lower", r"bonus"), "Yahtzee bonus": (r"yahtzee.*bonus", r"^$"),
            "final score": (r"final|total|grand", r"upper|lower|bonus")}
MAX_PROMPTS, MAX_AFTER, MAX_REPEATS = 160, 3, 8
TRANSCRIPT = "Transcript («…» is what the grader typed; [dice: …] the dice it loaded)"


Plan = namedtuple("Plan", "name rounds")
# a round: its first throw, two (letters typed, faces thrown again), the option typed (1..13)
# after the answers it must refuse (see plans.toml)
Round = namedtuple("Round", "first keeps option refused")


def load_plans(path: Path = Path(__file__).with_name("plans.toml")) -> dict[str, Plan]:
    """The games of plans.toml (data an instructor may edit), by name."""
    plans = {}
    for game in tomllib.loads(path.read_text())["game"]:
        plans[game["name"]] = Plan(game["name"], tuple(
            Round(tuple(first), tuple((typed, tuple(faces)) for typed, faces in (one, two)),
                  option, tuple(refused[0]) if refused else ())
            for first, one, two, option, *refused in game["rounds"]))
    return plans


PLANS = load_plans()
BONUS_GAME, ZERO_GAME = PLANS.values()


def kept(typed: str) -> set[int]:
    """The positions the letters a to e of an answer keep."""
    return {"abcde".index(ch) for ch in typed.lower() if ch in "abcde"}


def after_keep(dice: list[int], typed: str, faces: tuple[int, ...]) -> list[int]:
    """The dice after a keep answer: kept ones stay, the others show the loaded faces."""
    return list(faces) if len(faces) == 5 else \
        [die if at in kept(typed) else faces[0] for at, die in enumerate(dice)]


def read_dice(text: str, expected: list[int] | None, any_order: bool = False):
    """The five dice a program showed: five die digits on one line (or one per line, or big
    dice drawn as text) equal to ``expected`` (in any order, with ``any_order``), else the
    best reading, else None. Lines naming options (a menu, the points) are not read."""
    lines = [line for line in text.splitlines() if not MENU_LINE.search(line)]
    rows = [[int(face) for face in DIE.findall(line)] for line in lines]
    found = [row for row in rows if len(row) >= 5]
    windows = [faces[at:at + 5] for faces in found or [sum(rows, [])]
               for at in range(len(faces) - 4)] if expected else []
    matches = [w for w in windows if w == expected] + \
        [w for w in reversed(windows) if any_order and sorted(w) == sorted(expected)]
    if matches:
        return matches[0]
    if expected and find_dice("\n".join(lines), expected):
        return list(expected)
    every = sum(rows, [])
    return found[-1][-5:] if found else every[-5:] if len(every) >= 5 else None


def translate(typed: str, planned: list[int], shown: list[int]) -> str:
    """The answer with each letter moved to a die showing the value the plan meant to keep
    (for a program that throws in another order); case and other characters stay."""
    if sorted(planned) != sorted(shown):
        return typed
    places, free = {}, list(range(5))
    for at in sorted(range(5), key=lambda at: planned[at] != shown[at]):
        places[at] = min(free, key=lambda place: (shown[place] != planned[at], place != at))
        free.remove(places[at])
    letter = {ch: "abcde"[places["abcde".index(ch)]] for ch in "abcde"}
    return "".join(letter[ch.lower()].upper() if ch.isupper() else letter[ch]
                   if ch.lower() in letter else ch for ch in typed)


def kind_of(asked: str, expected: str, menu: bool = False) -> str:
    """keep, option, enter or name from the wording; a question after a list of options is
    the option question; ``expected`` where nothing tells."""
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

    def type(self, typed: str, counted: bool = True) -> None:
        """Answer; a counted answer starts a new stretch of output and draws."""
        self.answers.append(self.round)
        if counted:
            self.drawn, self.text = len(self.dice.draws), ""
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
            if drew or kind_of(asked, "other") == "keep" or self.after > MAX_AFTER:
                self.session.stop("a 14th round began after all 13 options were used" if
                                  self.after == 1 else "the game asked more questions after "
                                  "the last round")
                return False
            self.answers.append(self.round)
            self.session.answer("enter" if kind_of(asked, "other") == "enter" else "no")
            return True
        kind = kind_of(asked, "option" if self.keeps >= 2 else "keep",
                       bool(MENU_LINE.search(self.text)))
        if self.pending is not None and kind not in ("enter", "name"):
            taken = self.settle(drew or kind_of(asked, "other") == "keep")
            if self.round >= len(self.plan.rounds):
                return self.step(asked, drew)
            kind = kind_of(asked, "keep") if taken else "option"
        if kind in ("enter", "name"):
            self.moved_on = self.pending is not None     # a pause after an option: taken
            self.type("Sam" if kind == "name" else "", counted=False)
            return True
        return self.keep(drew) if kind == "keep" else self.option()

    def judge_keep(self, drew: bool) -> bool:
        """The dice shown after a keep answer; False when the question came again without a
        throw (the answer was refused)."""
        typed, expected = self.last_typed, self.expected
        shown = read_dice(self.text, expected, not kept(typed))
        case = f": «{typed}» typed at the keep question"
        if shown is None and not drew:
            self.record("keep-dice", False, case, dice_text(expected),
                        "the question asked again", KEEP_RULE)
            return False
        if shown is not None:
            right = shown == expected or (not kept(typed) and sorted(shown) == sorted(expected))
            self.record("keep-dice", right, case, dice_text(expected), dice_text(shown),
                        KEEP_RULE)
        self.model, self.expected = shown or expected, None
        return True

    def keep(self, drew: bool) -> bool:
        if self.keeps == 0:
            self.model = read_dice(self.text, self.planned, True) or self.planned
        elif not self.judge_keep(drew):           # refused: the letters alone (repeats stop)
            self.type("".join(sorted("abcde"[at] for at in kept(self.last_typed))))
            return True
        plan = self.plan.rounds[self.round]
        typed, faces = plan.keeps[self.keeps] if self.keeps < 2 else ("abcde", ())
        self.dice.load(list(faces) * (5 if len(faces) == 1 else 1))
        typed, self.planned = translate(typed, self.planned, self.model or []), \
            after_keep(self.planned, typed, faces)
        self.expected = after_keep(self.model, typed, faces) if self.model else None
        self.last_typed, self.keeps, self.all_kept = typed, self.keeps + 1, len(kept(typed)) == 5
        self.type(typed)
        return True

    def option(self) -> bool:
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
        self.all_kept = False
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
def read_table(tail: str) -> tuple[dict, dict]:
    """The final table: option -> the first number after its name on its (last) line; each
    section's number after its line's last ':' or '=', else its line's last number."""
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
            if re.search(wanted, line, re.I) and not re.search(avoided, line, re.I):
                after = re.split(r"[:=]", line)[1:]
                numbers = (NUMBER.findall(after[-1]) if after else [])[:1] or \
                    NUMBER.findall(line)[-1:]
                sections.update({label: int(numbers[0])} if numbers else {})
    return rows, sections


def judge(runs: list[Game], fixed: dict) -> dict[str, list[Requirement]]:
    """Every requirement the games showed, by rubric item (``fixed``: the points the student
    gives a real Full House and straights, which a joker may give too)."""
    judged: dict[str, list[Requirement]] = {}
    for run in (run for run in runs if not run.grader_problem):    # safety net: not judged
        found = run.found + [("thirteen-rounds", Requirement(
            len(run.rounds) == 13 and run.ended, f"Game '{run.plan.name}'",
            "13 rounds, then the end of the game", f"{len(run.rounds)} rounds; " +
            (run.problem or "then the game ended"), "A game has 13 rounds.", 0,
            run.excerpt(), TRANSCRIPT))]
        found += judge_table(run, fixed) if run.ended else []
        for item, requirement in found:
            judged.setdefault(item, []).append(requirement)
    return judged


def dice_text(dice) -> str:
    return " ".join(map(str, dice)) if dice else "no dice the grader could read"


def judge_table(run: Game, fixed: dict) -> list[tuple]:
    """Each row under its option's item; the sums and total from the rows shown; the bonuses
    from the sums shown."""
    rows, sections = read_table(run.tail)
    table, found = run.excerpt(), []

    def add(item, ok, what, expected, actual, why):
        found.append((item, Requirement(bool(ok), f"Game '{run.plan.name}', the final table: "
                                        f"{what}", str(expected), str(actual), why, len(found),
                                        table, TRANSCRIPT)))
    for option, dice, before in {row[0]: row for row in run.rounds if row[0]}.values():
        add("score-table", option in rows, f"the row of {option}", "its points", "no row",
            "The table shows every option with its points.")
        if option in rows and dice:
            item, points = rules.item_of(option, dice), rules.score(dice, option, before)
            add(item, rows[option] == points or (item == "joker" and points and
                                                 rows[option] == fixed.get(option)),
                f"{option} scored with {dice_text(dice)}", points, rows[option],
                "The table shows the points the rules give these dice.")
    for label in SECTIONS:
        add("score-table", label in sections, f"the {label}", "a line with its number",
            "none found", "The table ends with the sums, the bonuses and the final score.")
    upper, lower = [rows.get(o) for o in rules.UPPER], [rows.get(o) for o in rules.OPTIONS[6:]]
    parts = [sections.get(label) for label in list(SECTIONS)[:4]]
    for label, summed in (("upper sum", upper), ("lower sum", lower), ("final score", parts)):
        if label in sections and None not in summed:
            add("score-table", sections[label] == sum(summed), f"the {label}", sum(summed),
                sections[label], "Each sum adds up the numbers shown above it.")
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
