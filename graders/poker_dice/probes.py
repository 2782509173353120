"""Probes of Die, Dice and Magic8, run in the student's process (standard library only).

The grader lends this file to the child (``Kit`` calls); each probe is given the child's module
(an empty kit file, unused) and imports dice or magic8ball itself, so a broken project.py does
not stop them. Each returns plain values the grader judges (``objects.py``).
"""
import sys
import types

SPOKEN = "Outlook good, says the grader."


def attempt(action):
    """['ok'], or ['raised', error name, message]."""
    try:
        action()
        return ["ok"]
    except Exception as exc:
        return ["raised", type(exc).__name__, str(exc)[:200]]


def faces_of(hand):
    return [die.value for die in hand.diceInSet]


def hand_of(faces):
    import dice
    hand = dice.Dice()
    for face in faces:
        hand.addDie(dice.Die(face))
    return hand


def rows_of(die):
    rows = die.rows
    if isinstance(rows, (list, tuple)) and all(isinstance(row, str) for row in rows):
        return list(rows)
    return {"repr": repr(rows)[:200], "type": type(rows).__name__}


def imports(module, name):
    """Import one of the student's modules (its error, with the traceback, if it fails)."""
    __import__(name)


# ----------------------------------------------------------------------------- Die
def faces(module):
    import dice
    found = {}
    for face in range(1, 7):
        try:
            die = dice.Die(face)
            found[str(face)] = {"value": die.value, "rows": rows_of(die)}
        except Exception as exc:
            found[str(face)] = {"error": type(exc).__name__ + ": " + str(exc)[:200]}
    return found


def bad_values(module):
    import dice
    return {"Die(0)": attempt(lambda: dice.Die(0)), "Die(7)": attempt(lambda: dice.Die(7)),
            "setDieValue(0)": attempt(lambda: dice.Die(3).setDieValue(0)),
            "setDieValue(7)": attempt(lambda: dice.Die(3).setDieValue(7))}


def read_only(module):
    import dice
    die = dice.Die(3)
    tried = attempt(lambda: setattr(die, "value", 5))
    return {"attempt": tried, "after": die.value}


def set_value(module):
    import dice
    die = dice.Die(1)
    die.setDieValue(5)
    return {"value": die.value, "rows": rows_of(die)}


def roll_die(module):
    import dice
    die = dice.Die(6)
    die.rollDie()
    return {"value": die.value, "rows": rows_of(die)}


def gen_rows(module):
    import dice
    die = dice.Die(2)
    try:
        die.rows = []
    except Exception:
        pass
    die.genRows()
    return {"rows": rows_of(die)}


def draw(module):
    import dice
    die = dice.Die(5)
    die.draw()
    return {"rows": rows_of(die)}


# ----------------------------------------------------------------------------- Dice
def empty(module):
    import dice
    hand = dice.Dice()
    return {"type": type(hand.diceInSet).__name__, "length": len(hand.diceInSet)}


def add_die(module):
    import dice
    hand = dice.Dice()
    added = [attempt(lambda: hand.addDie(dice.Die(face))) for face in (1, 2, 3, 4, 5)]
    first = faces_of(hand)
    sixth = attempt(lambda: hand.addDie(dice.Die(6)))
    return {"added": added, "faces": first, "sixth": sixth, "after": faces_of(hand)}


def roll_all(module):
    hand = hand_of([6, 6, 6, 6, 6])
    hand.rollAll()
    return faces_of(hand)


def tried(action):
    """[what action(hand) did, the faces after] on a fresh hand showing 1 2 3 4 5."""
    hand = hand_of([1, 2, 3, 4, 5])
    return [attempt(lambda: action(hand)), faces_of(hand)]


def roll_a_die(module):
    return [tried(lambda hand: hand.rollADie(pos)) for pos in range(5)]


def roll_a_die_bad(module):
    return {str(pos): tried(lambda hand: hand.rollADie(pos)) for pos in (5, -1)}


def replace_die(module):
    return {"good": [tried(lambda hand: hand.replaceDie(pos, 6)) for pos in range(5)],
            "bad": {"%d, %d" % (pos, face): tried(lambda hand: hand.replaceDie(pos, face))
                    for pos, face in ((5, 3), (-1, 3), (0, 0), (0, 7))}}


def draw_dice(module):
    hand = hand_of([6, 2, 3, 4, 5])
    hand.drawDice()
    return [rows_of(die) for die in hand.diceInSet]


# ----------------------------------------------------------------------------- Magic8
def answers(module):
    import magic8ball
    cls = magic8ball.Magic8
    found = getattr(cls, "ANSWERS", None)
    listed = isinstance(found, (list, tuple))
    return {"class_level": any("ANSWERS" in vars(k) for k in cls.__mro__),
            "type": type(found).__name__,
            "answers": [a if isinstance(a, str) else repr(a) for a in found] if listed else None}


def get_answer(module):
    import magic8ball
    oracle = magic8ball.Magic8()
    return [oracle.getAnswer() for _ in range(20)]


def speak_with(fake):
    """speakAnswer(SPOKEN) with ``fake`` as the pyttsx3 module (None: not installed)."""
    import magic8ball
    saved = sys.modules.get("pyttsx3", "absent")
    sys.modules["pyttsx3"] = fake
    try:
        return attempt(lambda: magic8ball.Magic8().speakAnswer(SPOKEN))
    finally:
        if saved == "absent":
            sys.modules.pop("pyttsx3", None)
        else:
            sys.modules["pyttsx3"] = saved


def speak_missing(module):
    return {"attempt": speak_with(None)}


def speak_broken(module):
    def init(*args, **kwargs):
        raise RuntimeError("no speech driver on this computer")
    fake = types.ModuleType("pyttsx3")
    fake.init = init
    return {"attempt": speak_with(fake)}


def speak_working(module):
    said = []

    class Engine:
        def say(self, text, *args, **kwargs):
            said.append(str(text))

        def runAndWait(self):
            said.append("<runAndWait>")

        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    fake = types.ModuleType("pyttsx3")
    fake.init = lambda *args, **kwargs: Engine()
    return {"attempt": speak_with(fake), "said": said}
