"""Judging Die, Dice and Magic8 from the outcomes gathered in ``classes.py``."""
from __future__ import annotations

import re

from .classes import ClassEvidence, Outcome
from .probes import SPOKEN
from graders.engine.requirements import Requirement

PIPS = {1: (0, 1, 0), 2: (1, 0, 1), 3: (1, 1, 1), 4: (2, 0, 2), 5: (2, 1, 2), 6: (2, 2, 2)}
HAND = [1, 2, 3, 4, 5]


def failed(message: str, expected=None, actual=None, evidence=None) -> Requirement:
    """A requirement that was not met."""
    return Requirement(False, message, expected, actual, evidence=evidence)


def passed() -> Requirement:
    """A requirement that was met."""
    return Requirement(True)


def spec_failed(outcome: Outcome, what: str) -> Requirement:
    """A spec that raised or hung: the requirement it carried fails with the error."""
    return failed(f"{what} {outcome.problem}.", actual=outcome.traceback)


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


def raised(attempt, error: str = "ValueError") -> bool:
    """Whether an attempt (['ok'] or ['raised', name, message]) raised that error."""
    return isinstance(attempt, list) and attempt[:2] == ["raised", error]


def attempt_text(attempt) -> str:
    """'returned normally' or 'raised IndexError: list index out of range'."""
    if raised(attempt, attempt[1] if len(attempt) > 1 else ""):
        return f"raised {attempt[1]}: {attempt[2]}".rstrip(": ")
    return "returned normally (no error)"


# ----------------------------------------------------------------------------- Die
def die_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """Faces and rows, range checks, read-only value, setDieValue, rollDie, genRows, draw."""
    die = evidence.die
    return (_faces(die["faces"]) + _bad_values(die["bad values"]) +
            [_read_only(die["read-only"]), _set_value(die["setDieValue"]),
             _roll(die["rollDie 4"], 4), _roll(die["rollDie 2"], 2),
             _rows_of(die["genRows"], 2, "After die.genRows() on Die(2)"),
             _draw(die["draw"])])


def _faces(outcome: Outcome) -> list[Requirement]:
    """Die(1) ... Die(6): the value and the rows."""
    if not outcome.ok:
        return [spec_failed(outcome, "Creating Die(1) ... Die(6)")] * 6
    found = []
    for face in range(1, 7):
        made = outcome.value.get(str(face), {})
        if "error" in made:
            found.append(failed(f"Die({face}) raised {made['error']}."))
        elif made.get("value") != face:
            found.append(failed(f"Die({face}).value is {made.get('value')!r}, not {face}."))
        else:
            found.append(_rows_requirement(made.get("rows"), face, f"Die({face})"))
    return found


def _rows_requirement(rows, face: int, what: str) -> Requirement:
    """The rows of a die showing face are right."""
    problem = rows_problem(rows, face)
    if problem is None:
        return passed()
    return failed(f"{what}.rows is not right: {problem}.",
                  expected=f"5 rows of equal length; pips per middle row {PIPS[face]}",
                  actual=shown_rows(rows))


def _bad_values(outcome: Outcome) -> list[Requirement]:
    """Die(0), Die(7), setDieValue(0) and setDieValue(7) raise ValueError."""
    if not outcome.ok:
        return [spec_failed(outcome, "Checking Die(0) and Die(7)")] * 4
    found = []
    for call, attempt in outcome.value.items():
        shown = call if call.startswith("Die") else f"Die(3).{call}"
        found.append(passed() if raised(attempt) else failed(
            f"{shown} {attempt_text(attempt)}; it must raise ValueError (a die shows 1 to 6).",
            expected="ValueError", actual=attempt_text(attempt)))
    return found


def _read_only(outcome: Outcome) -> Requirement:
    """die.value = 5 raises AttributeError and the value stays."""
    if not outcome.ok:
        return spec_failed(outcome, "Checking that value is read-only:")
    attempt, after = outcome.value["attempt"], outcome.value["after"]
    if raised(attempt, "AttributeError") and after == 3:
        return passed()
    return failed("value must be a read-only property: after die = Die(3), the assignment "
                  f"die.value = 5 {attempt_text(attempt)} and die.value is then {after!r}. "
                  "Use @property without a setter; change the face with setDieValue().",
                  expected="AttributeError, value stays 3",
                  actual=f"{attempt_text(attempt)}; value {after!r}")


def _set_value(outcome: Outcome) -> Requirement:
    """setDieValue(5) shows 5 and rebuilds the rows."""
    if not outcome.ok:
        return spec_failed(outcome, "Die(1).setDieValue(5)")
    if outcome.value["value"] != 5:
        return failed(f"After die = Die(1) and die.setDieValue(5), die.value is "
                      f"{outcome.value['value']!r}, not 5.")
    return _rows_requirement(outcome.value["rows"], 5, "After setDieValue(5), die")


def _roll(outcome: Outcome, face: int) -> Requirement:
    """rollDie makes exactly one random.randint(1, 6) draw and shows it."""
    if not outcome.ok:
        return spec_failed(outcome, "Die(6).rollDie()")
    calls = [f"{d.fn}({', '.join(str(v) for v in d.request.values())})" for d in outcome.draws]
    if len(outcome.draws) != 1 or outcome.draws[0].fn != "randint" or \
            outcome.draws[0].request != {"a": 1, "b": 6}:
        return failed("die.rollDie() must make exactly one call of random.randint(1, 6) "
                      f"(handout, dice.py); it made {len(calls)} random draw(s): "
                      f"{', '.join(calls) or 'none'}.",
                      expected="one random.randint(1, 6)", actual=", ".join(calls) or "none")
    if outcome.value["value"] != face:
        return failed(f"random.randint(1, 6) returned {face} in die.rollDie(), but die.value is "
                      f"then {outcome.value['value']!r}.", expected=str(face),
                      actual=repr(outcome.value["value"]))
    return _rows_requirement(outcome.value["rows"], face, f"After rolling a {face}, die")


def _rows_of(outcome: Outcome, face: int, what: str) -> Requirement:
    """The rows after a call are right for face."""
    if not outcome.ok:
        return spec_failed(outcome, f"{what}:")
    return _rows_requirement(outcome.value["rows"], face, what + ", die")


def _draw(outcome: Outcome) -> Requirement:
    """draw() prints the 5 rows, one per line."""
    if not outcome.ok:
        return spec_failed(outcome, "Die(5).draw()")
    rows = outcome.value["rows"]
    printed = [line.rstrip() for line in outcome.stdout.rstrip("\n").split("\n")]
    if isinstance(rows, list) and printed == [row.rstrip() for row in rows]:
        return passed()
    return failed("Die(5).draw() must print the die's 5 rows, one per line, and nothing else.",
                  expected=shown_rows(rows), actual=outcome.stdout or "(nothing printed)")


# ----------------------------------------------------------------------------- Dice
def dice_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """Empty hand, five dice at most, rolls, position checks, replaceDie and drawDice."""
    dice = evidence.dice
    return ([_empty(dice["empty"])] + _add(dice["addDie"]) + [_roll_all(dice["rollAll"])] +
            _roll_one(dice["rollADie"]) + _roll_bad(dice["rollADie bad"]) +
            _replace(dice["replaceDie"]) + _draw_dice(dice["drawDice"]))


def _empty(outcome: Outcome) -> Requirement:
    """Dice() starts with diceInSet == []."""
    if not outcome.ok:
        return spec_failed(outcome, "Dice()")
    if outcome.value == {"type": "list", "length": 0}:
        return passed()
    return failed("Dice() must start with an empty list: diceInSet == [].",
                  actual=f"a {outcome.value['type']} of length {outcome.value['length']}")


def _add(outcome: Outcome) -> list[Requirement]:
    """Five dice go in, in order; a sixth raises ValueError and is not added."""
    if not outcome.ok:
        return [spec_failed(outcome, "Adding dice with addDie")] * 2
    value = outcome.value
    found = [passed() if value["faces"] == HAND else failed(
        "After adding Die(1) ... Die(5) with addDie, the dice in diceInSet show "
        f"{value['faces']}.", expected=str(HAND), actual=str(value["faces"]))]
    if raised(value["sixth"]) and value["after"] == HAND:
        found.append(passed())
    else:
        found.append(failed(
            f"A hand holds five dice: adding a sixth die {attempt_text(value['sixth'])} and the "
            f"hand then shows {value['after']}. addDie must raise ValueError and leave the hand "
            "as it was (handout: 'Decisions made for you').",
            expected="ValueError; still 5 dice", actual=attempt_text(value["sixth"])))
    return found


def _roll_all(outcome: Outcome) -> Requirement:
    """rollAll rolls every die once, first to last."""
    if not outcome.ok:
        return spec_failed(outcome, "rollAll()")
    if outcome.value == [3, 1, 4, 1, 5] and len(outcome.draws) == 5:
        return passed()
    return failed("rollAll() must roll every die once, first to last: with random.randint "
                  f"returning 3, 1, 4, 1, 5 the hand must show [3, 1, 4, 1, 5] after "
                  f"{len(outcome.draws)} roll(s).", expected="[3, 1, 4, 1, 5] after 5 rolls",
                  actual=f"{outcome.value} after {len(outcome.draws)} rolls")


def _roll_one(outcome: Outcome) -> list[Requirement]:
    """rollADie(pos) rolls only the die at 0-based pos."""
    if not outcome.ok:
        return [spec_failed(outcome, "rollADie(0) ... rollADie(4)")] * 5
    found = []
    for pos, (attempt, faces) in enumerate(outcome.value):
        expected = HAND[:pos] + [6] + HAND[pos + 1:]
        if attempt == ["ok"] and faces == expected:
            found.append(passed())
            continue
        found.append(failed(
            f"pos is 0-based: on a hand showing {HAND}, rollADie({pos}) with random.randint "
            f"returning 6 must change only die number {pos + 1}. It {attempt_text(attempt)} "
            f"and the hand then shows {faces}.", expected=str(expected), actual=str(faces)))
    if len(outcome.draws) != 5 and all(req.ok for req in found):
        found[-1] = failed(f"rollADie(0) ... rollADie(4) made {len(outcome.draws)} random "
                           "draws; each must roll exactly one die.")
    return found


def _roll_bad(outcome: Outcome) -> list[Requirement]:
    """rollADie(5) and rollADie(-1) raise ValueError without rolling anything."""
    if not outcome.ok:
        return [spec_failed(outcome, "rollADie(5) and rollADie(-1)")] * 2
    found = []
    for pos, (attempt, faces) in outcome.value.items():
        if raised(attempt) and faces == HAND:
            found.append(passed())
            continue
        found.append(failed(
            f"rollADie({pos}) must raise ValueError: positions are 0 to 4, so 5 and -1 are "
            f"refused (handout: 0 <= pos < len(diceInSet)). It {attempt_text(attempt)}"
            f" and the hand then shows {faces}.", expected="ValueError",
            actual=attempt_text(attempt)))
    if outcome.draws and all(req.ok for req in found):
        found[-1] = failed("rollADie with a bad position rolled a die before raising.")
    return found


def _replace(outcome: Outcome) -> list[Requirement]:
    """replaceDie: 0-based positions; ValueError for bad positions and faces."""
    if not outcome.ok:
        return [spec_failed(outcome, "replaceDie")] * 4
    good, bad = outcome.value["good"], outcome.value["bad"]
    wrong = [(pos, attempt, faces) for pos, (attempt, faces) in enumerate(good)
             if attempt != ["ok"] or faces != HAND[:pos] + [6] + HAND[pos + 1:]]
    found = [passed() if not wrong else failed(
        f"replaceDie(pos, v) uses 0-based positions: on {HAND}, replaceDie({wrong[0][0]}, 6) "
        f"{attempt_text(wrong[0][1])} and the hand then shows {wrong[0][2]}.",
        expected=str(HAND[:wrong[0][0]] + [6] + HAND[wrong[0][0] + 1:]), actual=str(wrong[0][2]))]
    for call, (attempt, faces) in bad.items():
        found.append(passed() if raised(attempt) and faces == HAND else failed(
            f"replaceDie({call}) must raise ValueError (positions 0 to 4, faces 1 to 6) and "
            f"leave the hand alone; it {attempt_text(attempt)} and the hand shows {faces}.",
            expected="ValueError", actual=attempt_text(attempt)))
    return found


def _draw_dice(outcome: Outcome) -> list[Requirement]:
    """drawDice prints six lines: the rows side by side, then the numbers 1 to 5."""
    if not outcome.ok:
        return [spec_failed(outcome, "drawDice()")] * 3
    rows = outcome.value
    printed = outcome.stdout.rstrip().split("\n") if outcome.stdout.strip() else []
    evidence = outcome.stdout or "(nothing printed)"
    if not all(isinstance(die_rows, list) and len(die_rows) == 5 for die_rows in rows):
        return [failed("drawDice() could not be checked: the dice have no 5 rows.")] * 3
    found = [passed() if len(printed) == 6 else failed(
        f"drawDice() must print exactly six lines (five rows of dice and one of numbers); "
        f"it printed {len(printed)}.", actual=evidence)]
    spans = _side_by_side(printed, rows)
    found.append(passed() if spans else failed(
        "drawDice() must print the dice side by side: line k holds rows[k] of every die, "
        "left to right, separated by spaces.",
        expected="\n".join(" ".join(die_rows[k] for die_rows in rows) for k in range(5)),
        actual=evidence))
    found.append(_numbers(printed, spans, evidence))
    return found


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
        return failed("The sixth line of drawDice() must hold the numbers 1 to 5, in order.",
                      expected="1 2 3 4 5 (each below its die)", actual=line or evidence)
    if spans and not all(start <= where < end for (where, _), (start, end) in zip(digits, spans)):
        return failed("Each number on the sixth line of drawDice() must stand below its die.",
                      actual=evidence)
    return passed()


# ----------------------------------------------------------------------------- Magic8
def magic_requirements(evidence: ClassEvidence) -> list[Requirement]:
    """ANSWERS, getAnswer, and speakAnswer without, with a broken and with a working pyttsx3."""
    magic = evidence.magic
    answers = evidence.answers
    return ([_answers(magic["ANSWERS"])] + _get_answer(magic["getAnswer"], answers) +
            _speak_missing(magic["speak missing"]) + [_speak_broken(magic["speak broken"]),
                                                      _speak_working(magic["speak working"])])


def _answers(outcome: Outcome) -> Requirement:
    """A class-level list of at least 10 different strings."""
    if not outcome.ok:
        return spec_failed(outcome, "Reading Magic8.ANSWERS")
    value = outcome.value
    different = len(set(value["answers"] or []))
    if value["class_level"] and value["type"] in ("list", "tuple") and different >= 10:
        return passed()
    return failed("Magic8.ANSWERS must be a class-level list of at least 10 different "
                  f"strings; it is a {value['type']} with {different} different answers"
                  f"{'' if value['class_level'] else ', not defined in the class body'}.")


def _get_answer(outcome: Outcome, answers: list[str] | None) -> list[Requirement]:
    """getAnswer returns one of ANSWERS, not always the same one."""
    if not outcome.ok:
        return [spec_failed(outcome, "Magic8().getAnswer()")] * 2
    given = outcome.value
    strange = [answer for answer in given if answers is None or answer not in answers]
    found = [passed() if not strange else failed(
        f"getAnswer() must return one of ANSWERS; it returned {strange[0]!r}.",
        actual=repr(strange[0]))]
    found.append(passed() if len({repr(a) for a in given}) > 1 else failed(
        f"getAnswer() must pick an answer at random, but 20 calls all returned {given[0]!r}.",
        actual=repr(given[0])))
    return found


def _speak_missing(outcome: Outcome) -> list[Requirement]:
    """Without pyttsx3, speakAnswer prints the answer and does not raise."""
    if not outcome.ok:
        return [spec_failed(outcome, "speakAnswer without pyttsx3")] * 2
    attempt = outcome.value["attempt"]
    if attempt != ["ok"]:
        return [failed("pyttsx3 is not installed where programs are graded: "
                       f"speakAnswer({SPOKEN!r}) must then print the answer, but it "
                       f"{attempt_text(attempt)}. Import pyttsx3 inside a try block and "
                       "print the answer in the except branch.",
                       expected="no error; the answer printed", actual=attempt_text(attempt)),
                Requirement(False)]
    return [passed(), passed() if SPOKEN in outcome.stdout else failed(
        f"Without pyttsx3, speakAnswer({SPOKEN!r}) must print the answer instead.",
        expected=f"the output contains {SPOKEN!r}", actual=outcome.stdout or "(nothing)")]


def _speak_broken(outcome: Outcome) -> Requirement:
    """With a pyttsx3 whose init() fails, speakAnswer prints the answer and does not raise."""
    if not outcome.ok:
        return spec_failed(outcome, "speakAnswer with a broken pyttsx3")
    attempt = outcome.value["attempt"]
    if attempt == ["ok"] and SPOKEN in outcome.stdout:
        return passed()
    return failed("Where pyttsx3 is installed it may still fail: with a pyttsx3 whose init() "
                  "raises RuntimeError, speakAnswer must print the answer and not raise. It "
                  f"{attempt_text(attempt)}.", expected="no error; the answer printed",
                  actual=(outcome.stdout or "(nothing printed)") + "\n" + attempt_text(attempt))


def _speak_working(outcome: Outcome) -> Requirement:
    """With a working pyttsx3, the answer goes to engine.say() and runAndWait() is called."""
    if not outcome.ok:
        return spec_failed(outcome, "speakAnswer with a working pyttsx3")
    said = outcome.value["said"]
    spoken = any(SPOKEN in text for text in said) and "<runAndWait>" in said
    if outcome.value["attempt"] == ["ok"] and spoken:
        return passed()
    return failed("With a working pyttsx3, speakAnswer must pass the answer to engine.say() "
                  "and then call engine.runAndWait().",
                  expected=f"say(... {SPOKEN!r} ...), runAndWait()",
                  actual=f"calls: {said}; {attempt_text(outcome.value['attempt'])}")
