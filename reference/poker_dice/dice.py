"""Dice for Poker Dice: a single Die and a hand of five Dice."""

import random

FACES = range(1, 7)


class Die:
    """One six-sided die that remembers its face and can draw itself."""

    TOP = "\u256d" + "\u2500" * 7 + "\u256e"
    BOTTOM = "\u2570" + "\u2500" * 7 + "\u256f"
    SIDE = "\u2502"
    PIP = "\u25cf"
    BLANK = " "
    # (row, column) cells of the 3 x 3 pip grid that hold a pip, for each face.
    PIP_CELLS = {
        1: {(1, 1)},
        2: {(0, 0), (2, 2)},
        3: {(0, 0), (1, 1), (2, 2)},
        4: {(0, 0), (0, 2), (2, 0), (2, 2)},
        5: {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
        6: {(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)},
    }

    def __init__(self, value):
        """Create a die showing value (1-6); raise ValueError for anything else."""
        self._value = None
        self.rows = []
        self.setDieValue(value)

    @property
    def value(self):
        """The face showing; read-only, change it with setDieValue() or rollDie()."""
        return self._value

    def setDieValue(self, v):
        """Show face v and redraw the rows; raise ValueError unless v is 1-6."""
        if v not in FACES:
            raise ValueError(f"a die shows 1 to 6, not {v!r}")
        self._value = v
        self.genRows()

    def rollDie(self):
        """Roll the die: show a random face from 1 to 6."""
        self.setDieValue(random.randint(1, 6))

    def genRows(self):
        """Rebuild self.rows: top border, three rows of pips, bottom border."""
        cells = Die.PIP_CELLS[self._value]
        self.rows = [Die.TOP]
        for row in range(3):
            marks = [Die.PIP if (row, col) in cells else Die.BLANK for col in range(3)]
            self.rows.append(f"{Die.SIDE} {' '.join(marks)} {Die.SIDE}")
        self.rows.append(Die.BOTTOM)

    def draw(self):
        """Print the die, one row per line."""
        for row in self.rows:
            print(row)


class Dice:
    """A hand of at most five Die objects, kept in the list diceInSet."""

    HAND_SIZE = 5

    def __init__(self):
        """Start with an empty hand; fill it with addDie()."""
        self.diceInSet = []

    def addDie(self, d):
        """Add Die d to the hand; raise ValueError if the hand is already full."""
        if len(self.diceInSet) >= Dice.HAND_SIZE:
            raise ValueError(f"a hand holds at most {Dice.HAND_SIZE} dice")
        self.diceInSet.append(d)

    def rollAll(self):
        """Roll every die, from the first to the last."""
        for die in self.diceInSet:
            die.rollDie()

    def rollADie(self, pos):
        """Roll only the die at 0-based position pos."""
        self._checkPosition(pos)
        self.diceInSet[pos].rollDie()

    def replaceDie(self, pos, v):
        """Set the die at 0-based position pos to show v (1-6)."""
        self._checkPosition(pos)
        self.diceInSet[pos].setDieValue(v)

    def drawDice(self):
        """Print the dice side by side with their numbers (1, 2, ...) underneath."""
        for line in range(5):
            print(" ".join(die.rows[line] for die in self.diceInSet))
        width = len(Die.TOP)
        numbers = (str(n).center(width) for n in range(1, len(self.diceInSet) + 1))
        print(" ".join(numbers).rstrip())

    def _checkPosition(self, pos):
        """Raise ValueError unless pos is the position of a die in the hand."""
        if not 0 <= pos < len(self.diceInSet):
            raise ValueError(f"no die at position {pos!r}")
