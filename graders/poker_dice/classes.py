"""Die, Dice and Magic8: the probes of ``classes.toml`` run in one sandboxed child
(``engine/objects.py``), and the readers that judge what a probe table cannot say: a die's
picture, drawDice's layout, the Magic 8 ball's answers and what it said aloud.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.call.calls import FunctionCalls
from graders.engine.run.draws import ScriptedDice
from graders.engine.run.harness import Limits, run_folder
from graders.engine.call.objects import Outcome, Probe, Prober, judge, probes_from
from graders.engine.judge.requirements import Requirement, check

from .scenarios import DICE_FROM

PROBES = probes_from(Path(__file__).with_name("classes.toml"))
# pips in the top, middle and bottom rows of the 3 x 3 grid inside a die, by face
PIPS = {1: (0, 1, 0), 2: (1, 0, 1), 3: (1, 1, 1), 4: (2, 0, 2), 5: (2, 1, 2), 6: (2, 2, 2)}
EMPTY_MODULE = '"""Empty: the grader imports dice and magic8ball itself."""\n'


@dataclass
class ClassEvidence:
    """Every probe's outcome by item, and whether each module imported."""

    outcomes: dict[str, list[Outcome]] = field(default_factory=dict)
    imports: dict[str, Outcome] = field(default_factory=dict)    # "dice", "magic8ball"

    def requirements(self, item: str) -> list[Requirement]:
        """One requirement per probe of the item."""
        return [judge(probe, outcome, READERS)
                for probe, outcome in zip(PROBES[item][1], self.outcomes[item])]

    @property
    def answers(self) -> list[str] | None:
        """The program's Magic 8 ball answers, when ANSWERS could be read."""
        for probe, outcome in zip(PROBES["Magic8"][1], self.outcomes["Magic8"]):
            found = outcome.looks.get("answers") if probe.name == "ANSWERS" else None
            if isinstance(found, list):
                return [answer for answer in found if isinstance(answer, str) and
                        answer.strip()] or None
        return None


def gather(submission, budget) -> ClassEvidence:
    """Every probe, in one child whose own module is empty (so that a broken project.py does
    not stop them)."""
    policy, evidence = ScriptedDice(dice_from=DICE_FROM), ClassEvidence()
    with run_folder(submission, "classes", {"kit_probe.py": EMPTY_MODULE}) as folder, \
            FunctionCalls(folder / "kit_probe.py", folder, module="kit_probe", policy=policy,
                          limits=Limits(cpu_seconds=8, stuck_cpu_seconds=2.5, idle_seconds=10),
                          budget=budget) as calls:
        prober = Prober(calls, policy)
        for item, (module, probes) in PROBES.items():
            evidence.imports[module], evidence.outcomes[item] = prober.run_all(module, probes)
    return evidence


# ----------------------------------------------------------------------------- readers
def shown_rows(rows) -> str:
    """Rows as they look on screen (or the odd value they were)."""
    if isinstance(rows, list) and all(isinstance(row, str) for row in rows):
        return "\n".join(rows)
    return f"{rows.get('repr')} (a {rows.get('type')})" if isinstance(rows, dict) else repr(rows)


def rows_problem(rows, face: int) -> str | None:
    """What is wrong with a die's rows for a face (None when they are right)."""
    if not isinstance(rows, list) or len(rows) != 5 or \
            not all(isinstance(row, str) for row in rows):
        return "rows must be a list of 5 strings"
    if len({len(row) for row in rows}) != 1:
        return f"all 5 rows must have the same length (they have {[len(r) for r in rows]})"
    middle = rows[1:4]
    if any(len(row) < 3 or row[0] == " " or row[-1] == " " for row in middle):
        return "the three middle rows must start and end with a side border character"
    inside = [row[1:-1] for row in middle]
    pips = sorted({char for row in inside for char in row if char != " "})
    if len(pips) > 1:
        return f"between the borders there may only be spaces and one pip character, " \
               f"not {pips}"
    counts = tuple(sum(char != " " for char in row) for row in inside)
    if counts != PIPS[face]:
        return f"face {face} has {PIPS[face]} pips in the middle rows (top, middle, " \
               f"bottom), but these rows have {counts}"
    return None


def rows(probe: Probe, outcome: Outcome) -> Requirement:
    """The die's rows picture the face ``probe.reader[1]``."""
    face, found = probe.reader[1], outcome.looks[probe.read[0]]
    problem = rows_problem(found, face)
    return check(problem is None, f"After {probe.case}, {probe.read[0]} is not right: {problem}.",
                 f"5 rows of equal length; pips per middle row {PIPS[face]}", shown_rows(found))


def draw(probe: Probe, outcome: Outcome) -> Requirement:
    """draw() prints the die's rows, one per line, and nothing else."""
    found = outcome.looks[probe.read[0]]
    printed = [line.rstrip() for line in outcome.stdout.rstrip("\n").split("\n")]
    return check(isinstance(found, list) and printed == [str(row).rstrip() for row in found],
                 f"{probe.case} must print the die's 5 rows, one per line, and nothing else.",
                 shown_rows(found), outcome.stdout or "(nothing printed)")


def drawn_lines(outcome: Outcome) -> list[str]:
    """The lines a probe printed (none for blank output)."""
    return outcome.stdout.rstrip().split("\n") if outcome.stdout.strip() else []


def six_lines(probe: Probe, outcome: Outcome) -> Requirement:
    """drawDice() prints six lines."""
    printed = drawn_lines(outcome)
    return check(len(printed) == 6, f"{probe.case} printed {len(printed)} lines.",
                 actual=outcome.stdout or "(nothing printed)", why=probe.why)


def side_by_side(probe: Probe, outcome: Outcome) -> Requirement:
    """The first five lines show the dice's rows side by side."""
    dice = outcome.looks[probe.read[0]]
    expected = None if dice_rows_problem(dice) else \
        "\n".join(" ".join(die_rows[k] for die_rows in dice) for k in range(5))
    return check(spans_of(drawn_lines(outcome), dice) is not None,
                 f"{probe.case} did not print the dice side by side"
                 f"{': ' + dice_rows_problem(dice) if dice_rows_problem(dice) else ''}.",
                 expected, outcome.stdout or "(nothing printed)", probe.why)


def numbers(probe: Probe, outcome: Outcome) -> Requirement:
    """The sixth line holds 1 to 5, each below its die."""
    printed, dice = drawn_lines(outcome), outcome.looks[probe.read[0]]
    line = printed[5] if len(printed) > 5 else ""
    digits = [(match.start(), int(match.group())) for match in re.finditer(r"\d+", line)]
    spans = spans_of(printed, dice)
    below = not spans or all(start <= where < end
                             for (where, _), (start, end) in zip(digits, spans))
    return check([number for _, number in digits] == [1, 2, 3, 4, 5] and below,
                 f"{probe.case}: the sixth line is {line!r}.", "1 2 3 4 5 (each below its die)",
                 outcome.stdout or "(nothing printed)", probe.why)


def dice_rows_problem(dice) -> str:
    """Why the dice's rows cannot be laid side by side ('' when they can)."""
    if isinstance(dice, list) and len(dice) == 5 and all(
            isinstance(die, list) and len(die) == 5 and
            all(isinstance(row, str) for row in die) for die in dice):
        return ""
    return "the dice have no 5 rows each"


def spans_of(printed: list[str], dice) -> list[tuple[int, int]] | None:
    """The column span of each die when the first five lines show the rows side by side."""
    if len(printed) < 5 or dice_rows_problem(dice):
        return None
    spans = None
    for k in range(5):
        parts = [re.escape(die_rows[k]) for die_rows in dice]
        parts[-1] = re.escape(dice[-1][k].rstrip())
        match = re.fullmatch(" *" + " +".join(f"({part})" for part in parts) + " *",
                             printed[k].rstrip())
        if not match:
            return None
        if k == 0:
            spans = [(match.start(i), match.start(i) + len(dice[i - 1][0]))
                     for i in range(1, len(dice) + 1)]
    return spans


def answers(probe: Probe, outcome: Outcome) -> Requirement:
    """ANSWERS: a class-level list of at least 10 different strings."""
    found, in_class = (outcome.looks[text] for text in probe.read)
    listed = isinstance(found, list) and all(isinstance(answer, str) for answer in found)
    different = len(set(found)) if listed else 0
    return check(listed and different >= 10 and in_class is True,
                 f"{probe.case} holds {different} different strings"
                 f"{'' if in_class is True else ' and is not defined in the class body'}.",
                 "a list of at least 10 different strings", found, probe.why)


def one_of_answers(probe: Probe, outcome: Outcome) -> Requirement:
    """Every answer given is one of ANSWERS."""
    given, listed = (outcome.looks[text] for text in probe.read)
    strange = [answer for answer in given or [None]
               if not isinstance(listed, list) or answer not in listed]
    return check(not strange, f"getAnswer() returned {strange[0]!r}." if strange else "",
                 actual=repr(strange[0]) if strange else None, why=probe.why)


def not_always_the_same(probe: Probe, outcome: Outcome) -> Requirement:
    """Twenty answers are not all the same."""
    given = outcome.looks[probe.read[0]]
    return check(isinstance(given, list) and len({repr(answer) for answer in given}) > 1,
                 f"{probe.case} all returned {given[0] if given else given!r}.",
                 actual=repr(given), why=probe.why)


def spoken(probe: Probe, outcome: Outcome) -> Requirement:
    """The text went to say(), and runAndWait() came after it."""
    calls, text = outcome.looks[probe.read[0]], probe.reader[1]
    calls = calls if isinstance(calls, list) else []
    said = next((n for n, call in enumerate(calls) if call.startswith("say(") and text in call),
                None)
    return check(said is not None and "runAndWait()" in calls[said:],
                 f"{probe.case} made these calls of the speech engine: {calls or 'none'}.",
                 f"say({text!r}), then runAndWait()", str(calls), probe.why)


READERS = {"rows": rows, "draw": draw, "six_lines": six_lines, "side_by_side": side_by_side,
           "numbers": numbers, "answers": answers, "one_of_answers": one_of_answers,
           "not_always_the_same": not_always_the_same, "spoken": spoken}
