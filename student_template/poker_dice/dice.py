"""Dice for Poker Dice: a single Die and a hand of Dice.

Roll with random.randint(1, 6) (keep "import random" and call it as random.randint).
"""

import random


class Die:
    """One six-sided die."""

    def __init__(self, value):
        """Create a die showing value (1-6) and build its rows."""
        # TODO: store the value in self._value, create self.rows, build the rows
        pass

    @property
    def value(self):
        """The face showing. Read-only: there is no setter."""
        # TODO
        pass

    def setDieValue(self, v):
        """Show face v and rebuild the rows; raise ValueError unless v is 1-6."""
        # TODO
        pass

    def rollDie(self):
        """Show a random face from random.randint(1, 6)."""
        # TODO
        pass

    def genRows(self):
        """Rebuild self.rows: 5 strings (top border, three rows of pips, bottom border)."""
        # TODO
        pass

    def draw(self):
        """Print the rows of the die, one per line."""
        # TODO
        pass


class Dice:
    """A hand of at most five Die objects, kept in the list self.diceInSet."""

    def __init__(self):
        """Start with an empty hand."""
        self.diceInSet = []

    def addDie(self, d):
        """Add Die d to the hand; raise ValueError if the hand already holds five dice."""
        # TODO
        pass

    def rollAll(self):
        """Roll every die, first to last."""
        # TODO
        pass

    def rollADie(self, pos):
        """Roll the die at 0-based position pos; ValueError if there is no such die."""
        # TODO
        pass

    def replaceDie(self, pos, v):
        """Make the die at 0-based position pos show v; ValueError for a bad pos or v."""
        # TODO
        pass

    def drawDice(self):
        """Print the dice side by side with their numbers 1-5 underneath."""
        # TODO
        pass
