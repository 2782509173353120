"""Judging Die, Dice and Magic8 from the outcomes gathered in ``classes.py``.

Each judge gets one probe's outcome and returns its requirements; a probe that raised or hung
fails every requirement it carries, with the error (``judges``).
"""
from __future__ import annotations

import functools
import re

from graders.engine.calls import call_problem
from graders.engine.requirements import Requirement, check

from .classes import SPEC_SECONDS, ClassEvidence, Outcome
from .probes import SPOKEN

PIPS = {1: (0, 1, 0), 2: (1, 0, 1), 3: (1, 1, 1), 4: (2, 0, 2), 5: (2, 1, 2), 6: (2, 2, 2)}
HAND = [1, 2, 3, 4, 5]


def judges(what: str, count: int = 1):
    """A judge of one probe; when the probe failed, its ``count`` requirements fail with the
    error ("{what} raised ..."). A judge of one requirement returns it alone."""
    def wrap(judge):
        @functools.wraps(judge)
        def judged(outcome: Outcome, *args):
            if outcome.ok:
                return judge(outcome, *args)
            failed = check(False, (call_problem(outcome.failed, what, SPEC_SECONDS) or what) + ".",
                           actual=outcome.traceback)
            return [failed] * count if count > 1 else failed
        return judged
    return wrap


def shown_rows(rows) -> str:
    """Rows as they look on screen (or the odd value they were)."""
    if isinstance(rows, list):
        return "\n".join(rows)
    return f"{rows.get('repr')} (a {rows.get('type')})" if isinstance(rows, dict) else repr(rows)


def rows_problem(rows, face: int) -> str | None:
    """What is wrong with a die's rows for a face (None when they are right)."""
    if not isinstance(rows, list) or len(rows) != 5:
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


def rows_right(rows, face: int, what: str) -> Requirement:
    """The rows of a die showing face are right."""
    problem = rows_problem(rows, face)
    return check(problem is None, f"{what}.rows is not right: {problem}.",
                 f"5 rows of equal length; pips per middle row {PIPS[face]}", shown_rows(rows))


def raised(attempt, error: str = "ValueError") -> bool:
    """Whether an attempt (['ok'] or ['raised', name, message]) raised that error."""
    return isinstance(attempt, list) and attempt[:2] == ["raised", error]


def attempt_text(attempt) -> str:
    """'returned normally' or 'raised IndexError: list index out of range'."""
    if raised(attempt, attempt[1] if len(attempt) > 1 else ""):
        return f"raised {attempt[1]}: {attempt[2]}".rstrip(": ")
    return "returned normally (no error)"


def with_six(pos: int) -> list[int]:
    """HAND with the die at ``pos`` showing 6."""
    return HAND[:pos] + [6] + HAND[pos + 1:]


# ----------------------------------------------------------------------------- Die
def die_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """Faces and rows, range checks, read-only value, setDieValue, rollDie, genRows, draw."""
    die = evidence.die
    return (_faces(die["faces"]) + _bad_values(die["bad values"]) +
            [_read_only(die["read-only"]), _set_value(die["setDieValue"]),
             _roll(die["rollDie 4"], 4), _roll(die["rollDie 2"], 2),
             _gen_rows(die["genRows"]), _draw(die["draw"])])


@judges("Creating Die(1) ... Die(6)", 6)
def _faces(outcome: Outcome) -> list[Requirement]:
    """Die(1) ... Die(6): the value and the rows."""
    found = []
    for face in range(1, 7):
        made = outcome.value.get(str(face), {})
        if "error" in made:
            found.append(check(False, f"Die({face}) raised {made['error']}."))
        elif made.get("value") != face:
            found.append(check(False, f"Die({face}).value is {made.get('value')!r}, not {face}."))
        else:
            found.append(rows_right(made.get("rows"), face, f"Die({face})"))
    return found


@judges("Checking Die(0) and Die(7)", 4)
def _bad_values(outcome: Outcome) -> list[Requirement]:
    """Die(0), Die(7), setDieValue(0) and setDieValue(7) raise ValueError."""
    return [check(raised(attempt), f"{call if call.startswith('Die') else 'Die(3).' + call} "
                  f"{attempt_text(attempt)}; it must raise ValueError (a die shows 1 to 6).",
                  "ValueError", attempt_text(attempt))
            for call, attempt in outcome.value.items()]


@judges("Checking that value is read-only")
def _read_only(outcome: Outcome) -> Requirement:
    """die.value = 5 raises AttributeError and the value stays."""
    attempt, after = outcome.value["attempt"], outcome.value["after"]
    return check(raised(attempt, "AttributeError") and after == 3,
                 "value must be a read-only property: after die = Die(3), the assignment "
                 f"die.value = 5 {attempt_text(attempt)} and die.value is then {after!r}. "
                 "Use @property without a setter; change the face with setDieValue().",
                 "AttributeError, value stays 3", f"{attempt_text(attempt)}; value {after!r}")


@judges("Die(1).setDieValue(5)")
def _set_value(outcome: Outcome) -> Requirement:
    """setDieValue(5) shows 5 and rebuilds the rows."""
    if outcome.value["value"] != 5:
        return check(False, f"After die = Die(1) and die.setDieValue(5), die.value is "
                            f"{outcome.value['value']!r}, not 5.")
    return rows_right(outcome.value["rows"], 5, "After setDieValue(5), die")


@judges("Die(6).rollDie()")
def _roll(outcome: Outcome, face: int) -> Requirement:
    """rollDie makes exactly one random.randint(1, 6) draw and shows it."""
    calls = [f"{d.fn}({', '.join(str(v) for v in d.request.values())})" for d in outcome.draws]
    if len(outcome.draws) != 1 or outcome.draws[0].fn != "randint" or \
            outcome.draws[0].request != {"a": 1, "b": 6}:
        return check(False, "die.rollDie() must make exactly one call of random.randint(1, 6) "
                            f"(handout, dice.py); it made {len(calls)} random draw(s): "
                            f"{', '.join(calls) or 'none'}.",
                     "one random.randint(1, 6)", ", ".join(calls) or "none")
    if outcome.value["value"] != face:
        return check(False, f"random.randint(1, 6) returned {face} in die.rollDie(), but "
                            f"die.value is then {outcome.value['value']!r}.", str(face),
                     repr(outcome.value["value"]))
    return rows_right(outcome.value["rows"], face, f"After rolling a {face}, die")


@judges("die.genRows() on Die(2)")
def _gen_rows(outcome: Outcome) -> Requirement:
    """genRows rebuilds the rows of Die(2)."""
    return rows_right(outcome.value["rows"], 2, "After die.genRows() on Die(2), die")


@judges("Die(5).draw()")
def _draw(outcome: Outcome) -> Requirement:
    """draw() prints the 5 rows, one per line."""
    rows = outcome.value["rows"]
    printed = [line.rstrip() for line in outcome.stdout.rstrip("\n").split("\n")]
    return check(isinstance(rows, list) and printed == [row.rstrip() for row in rows],
                 "Die(5).draw() must print the die's 5 rows, one per line, and nothing else.",
                 shown_rows(rows), outcome.stdout or "(nothing printed)")


# ----------------------------------------------------------------------------- Dice
def dice_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """Empty hand, five dice at most, rolls, position checks, replaceDie and drawDice."""
    dice = evidence.dice
    return ([_empty(dice["empty"])] + _add(dice["addDie"]) + [_roll_all(dice["rollAll"])] +
            _roll_one(dice["rollADie"]) + _roll_bad(dice["rollADie bad"]) +
            _replace(dice["replaceDie"]) + _draw_dice(dice["drawDice"]))


@judges("Dice()")
def _empty(outcome: Outcome) -> Requirement:
    """Dice() starts with diceInSet == []."""
    return check(outcome.value == {"type": "list", "length": 0},
                 "Dice() must start with an empty list: diceInSet == [].",
                 actual=f"a {outcome.value['type']} of length {outcome.value['length']}")


@judges("Adding dice with addDie", 2)
def _add(outcome: Outcome) -> list[Requirement]:
    """Five dice go in, in order; a sixth raises ValueError and is not added."""
    value = outcome.value
    return [check(value["faces"] == HAND, "After adding Die(1) ... Die(5) with addDie, the "
                  f"dice in diceInSet show {value['faces']}.", str(HAND), str(value["faces"])),
            check(raised(value["sixth"]) and value["after"] == HAND,
                  f"A hand holds five dice: adding a sixth die {attempt_text(value['sixth'])} "
                  f"and the hand then shows {value['after']}. addDie must raise ValueError and "
                  "leave the hand as it was (handout: 'Decisions made for you').",
                  "ValueError; still 5 dice", attempt_text(value["sixth"]))]


@judges("rollAll()")
def _roll_all(outcome: Outcome) -> Requirement:
    """rollAll rolls every die once, first to last."""
    return check(outcome.value == [3, 1, 4, 1, 5] and len(outcome.draws) == 5,
                 "rollAll() must roll every die once, first to last: with random.randint "
                 f"returning 3, 1, 4, 1, 5 the hand must show [3, 1, 4, 1, 5] after "
                 f"{len(outcome.draws)} roll(s).", "[3, 1, 4, 1, 5] after 5 rolls",
                 f"{outcome.value} after {len(outcome.draws)} rolls")


@judges("rollADie(0) ... rollADie(4)", 5)
def _roll_one(outcome: Outcome) -> list[Requirement]:
    """rollADie(pos) rolls only the die at 0-based pos."""
    found = [check(attempt == ["ok"] and faces == with_six(pos),
                   f"pos is 0-based: on a hand showing {HAND}, rollADie({pos}) with "
                   f"random.randint returning 6 must change only die number {pos + 1}. It "
                   f"{attempt_text(attempt)} and the hand then shows {faces}.",
                   str(with_six(pos)), str(faces))
             for pos, (attempt, faces) in enumerate(outcome.value)]
    if len(outcome.draws) != 5 and all(req.ok for req in found):
        found[-1] = check(False, f"rollADie(0) ... rollADie(4) made {len(outcome.draws)} "
                                 "random draws; each must roll exactly one die.")
    return found


@judges("rollADie(5) and rollADie(-1)", 2)
def _roll_bad(outcome: Outcome) -> list[Requirement]:
    """rollADie(5) and rollADie(-1) raise ValueError without rolling anything."""
    found = [check(raised(attempt) and faces == HAND,
                   f"rollADie({pos}) must raise ValueError: positions are 0 to 4, so 5 and -1 "
                   "are refused (handout: 0 <= pos < len(diceInSet)). It "
                   f"{attempt_text(attempt)} and the hand then shows {faces}.",
                   "ValueError", attempt_text(attempt))
             for pos, (attempt, faces) in outcome.value.items()]
    if outcome.draws and all(req.ok for req in found):
        found[-1] = check(False, "rollADie with a bad position rolled a die before raising.")
    return found


@judges("replaceDie", 4)
def _replace(outcome: Outcome) -> list[Requirement]:
    """replaceDie: 0-based positions; ValueError for bad positions and faces."""
    good, bad = outcome.value["good"], outcome.value["bad"]
    wrong = [(pos, attempt, faces) for pos, (attempt, faces) in enumerate(good)
             if attempt != ["ok"] or faces != with_six(pos)]
    pos, attempt, faces = wrong[0] if wrong else (0, ["ok"], with_six(0))
    found = [check(not wrong, f"replaceDie(pos, v) uses 0-based positions: on {HAND}, "
                   f"replaceDie({pos}, 6) {attempt_text(attempt)} and the hand then shows "
                   f"{faces}.", str(with_six(pos)), str(faces))]
    return found + [check(raised(attempt) and faces == HAND,
                          f"replaceDie({call}) must raise ValueError (positions 0 to 4, faces "
                          f"1 to 6) and leave the hand alone; it {attempt_text(attempt)} and "
                          f"the hand shows {faces}.", "ValueError", attempt_text(attempt))
                    for call, (attempt, faces) in bad.items()]


@judges("drawDice()", 3)
def _draw_dice(outcome: Outcome) -> list[Requirement]:
    """drawDice prints six lines: the rows side by side, then the numbers 1 to 5."""
    rows = outcome.value
    printed = outcome.stdout.rstrip().split("\n") if outcome.stdout.strip() else []
    evidence = outcome.stdout or "(nothing printed)"
    if not all(isinstance(die_rows, list) and len(die_rows) == 5 for die_rows in rows):
        return [check(False, "drawDice() could not be checked: the dice have no 5 rows.")] * 3
    spans = _side_by_side(printed, rows)
    return [check(len(printed) == 6, "drawDice() must print exactly six lines (five rows of "
                  f"dice and one of numbers); it printed {len(printed)}.", actual=evidence),
            check(spans, "drawDice() must print the dice side by side: line k holds rows[k] "
                  "of every die, left to right, separated by spaces.",
                  "\n".join(" ".join(die_rows[k] for die_rows in rows) for k in range(5)),
                  evidence),
            _numbers(printed, spans, evidence)]


def _side_by_side(printed: list[str], rows: list[list[str]]) -> list[tuple[int, int]] | None:
    """The column span of each die when the five lines show the rows side by side."""
    if len(printed) < 5:
        return None
    spans = None
    for k in range(5):
        parts = [re.escape(die_rows[k]) for die_rows in rows]
        parts[-1] = re.escape(rows[-1][k].rstrip())
        pattern = " *" + " +".join(f"({part})" for part in parts) + " *"
        match = re.fullmatch(pattern, printed[k].rstrip())
        if not match:
            return None
        if k == 0:
            spans = [(match.start(i), match.start(i) + len(rows[i - 1][0]))
                     for i in range(1, len(rows) + 1)]
    return spans


def _numbers(printed: list[str], spans, evidence: str) -> Requirement:
    """The sixth line holds 1 to 5, each below its die."""
    line = printed[5] if len(printed) > 5 else ""
    digits = [(match.start(), int(match.group())) for match in re.finditer(r"\d+", line)]
    if [number for _, number in digits] != HAND:
        return check(False, "The sixth line of drawDice() must hold the numbers 1 to 5, in "
                            "order.", "1 2 3 4 5 (each below its die)", line or evidence)
    return check(not spans or all(start <= where < end
                                  for (where, _), (start, end) in zip(digits, spans)),
                 "Each number on the sixth line of drawDice() must stand below its die.",
                 actual=evidence)


# ----------------------------------------------------------------------------- Magic8
def magic_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """ANSWERS, getAnswer, and speakAnswer without, with a broken and with a working pyttsx3."""
    magic = evidence.magic
    return ([_answers(magic["ANSWERS"])] + _get_answer(magic["getAnswer"], evidence.answers) +
            _speak_missing(magic["speak missing"]) + [_speak_broken(magic["speak broken"]),
                                                      _speak_working(magic["speak working"])])


@judges("Reading Magic8.ANSWERS")
def _answers(outcome: Outcome) -> Requirement:
    """A class-level list of at least 10 different strings."""
    value = outcome.value
    different = len(set(value["answers"] or []))
    return check(value["class_level"] and value["type"] in ("list", "tuple") and
                 different >= 10, "Magic8.ANSWERS must be a class-level list of at least 10 "
                 f"different strings; it is a {value['type']} with {different} different "
                 f"answers{'' if value['class_level'] else ', not defined in the class body'}.")


@judges("Magic8().getAnswer()", 2)
def _get_answer(outcome: Outcome, answers: list[str] | None) -> list[Requirement]:
    """getAnswer returns one of ANSWERS, not always the same one."""
    given = outcome.value
    strange = [answer for answer in given if answers is None or answer not in answers]
    return [check(not strange, f"getAnswer() must return one of ANSWERS; it returned "
                  f"{strange[0]!r}." if strange else "",
                  actual=repr(strange[0]) if strange else None),
            check(len({repr(a) for a in given}) > 1, "getAnswer() must pick an answer at "
                  f"random, but 20 calls all returned {given[0]!r}.", actual=repr(given[0]))]


@judges("speakAnswer without pyttsx3", 2)
def _speak_missing(outcome: Outcome) -> list[Requirement]:
    """Without pyttsx3, speakAnswer prints the answer and does not raise."""
    attempt = outcome.value["attempt"]
    if attempt != ["ok"]:
        return [check(False, "pyttsx3 is not installed where programs are graded: "
                             f"speakAnswer({SPOKEN!r}) must then print the answer, but it "
                             f"{attempt_text(attempt)}. Import pyttsx3 inside a try block and "
                             "print the answer in the except branch.",
                      "no error; the answer printed", attempt_text(attempt)),
                Requirement(False)]
    return [Requirement(True), check(
        SPOKEN in outcome.stdout, f"Without pyttsx3, speakAnswer({SPOKEN!r}) must print the "
        "answer instead.", f"the output contains {SPOKEN!r}", outcome.stdout or "(nothing)")]


@judges("speakAnswer with a broken pyttsx3")
def _speak_broken(outcome: Outcome) -> Requirement:
    """With a pyttsx3 whose init() fails, speakAnswer prints the answer and does not raise."""
    attempt = outcome.value["attempt"]
    return check(attempt == ["ok"] and SPOKEN in outcome.stdout,
                 "Where pyttsx3 is installed it may still fail: with a pyttsx3 whose init() "
                 "raises RuntimeError, speakAnswer must print the answer and not raise. It "
                 f"{attempt_text(attempt)}.", "no error; the answer printed",
                 (outcome.stdout or "(nothing printed)") + "\n" + attempt_text(attempt))


@judges("speakAnswer with a working pyttsx3")
def _speak_working(outcome: Outcome) -> Requirement:
    """With a working pyttsx3, the answer goes to engine.say() and runAndWait() is called."""
    said = outcome.value["said"]
    spoken = any(SPOKEN in text for text in said) and "<runAndWait>" in said
    return check(outcome.value["attempt"] == ["ok"] and spoken,
                 "With a working pyttsx3, speakAnswer must pass the answer to engine.say() "
                 "and then call engine.runAndWait().", f"say(... {SPOKEN!r} ...), runAndWait()",
                 f"calls: {said}; {attempt_text(outcome.value['attempt'])}")
