"""Poker Dice: grow a $100 purse to $200 in as few hands as possible.

Run "python project.py" to play, or "python project.py --help" for the rules.
"""

import sys
from collections import Counter

from dice import Dice, Die
from magic8ball import Magic8

START_PURSE = 100
ANTE = 10
WIN_AMOUNT = 200
ROLLS_PER_HAND = 3
HAND_SIZE = 5
BEST_SCORE_FILE = "BestScore.txt"

PAYOUTS = {
    "5 of a Kind": 35,
    "4 of a Kind": 25,
    "Straight": 20,
    "Full House": 15,
    "3 of a Kind": 10,
    "2 Pair": 5,
    "Nothing": 0,
}

# How many dice share each face, largest group first, for the hands made of matching faces.
MATCH_PATTERNS = {
    (5,): "5 of a Kind",
    (4, 1): "4 of a Kind",
    (3, 2): "Full House",
    (3, 1, 1): "3 of a Kind",
    (2, 2, 1): "2 Pair",
}
STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])

INSTRUCTIONS = """\
POKER DICE

You start with a purse of $100. Try to reach $200 or more in as few hands as you
can, before your money runs out.

Every hand costs a $10 ante, paid when the hand starts. The computer makes the
first roll of all five dice for you. After that you may re-roll up to two times:
  - type the numbers of the dice to roll again, separated by spaces
    (for example "2 3 5" rolls dice 2, 3 and 5 again)
  - type H to hold: your dice are scored straight away
  - type Q to quit the game

What a hand pays:
  2 Pair          $5
  3 of a Kind     $10  (your ante back)
  Full House      $15
  Straight        $20  (1-2-3-4-5 or 2-3-4-5-6)
  4 of a Kind     $25
  5 of a Kind     $35
  anything else   $0

Reach $200 and you win the Major Award: the Magic 8 ball answers one yes/no
question of yours. If your purse falls below the $10 ante, the game is over."""


def main():
    """Show the rules when asked, otherwise play hands until the game ends."""
    if "-h" in sys.argv[1:] or "--help" in sys.argv[1:]:
        print(INSTRUCTIONS)
        return

    print("Welcome to Poker Dice! Run with --help to read the rules.")
    purse = START_PURSE
    hands = 0
    dice = newHand()
    while True:
        hands += 1
        purse -= ANTE
        print(f"\nHand {hands}: you pay the ${ANTE} ante and have ${purse} left.")
        if not playHand(dice):
            print(f"You quit with ${purse} in your purse. Goodbye!")
            return

        value, description = calculateScore(dice)
        purse += value
        print(f"{description} pays ${value}. Your purse is now ${purse}.")

        if purse >= WIN_AMOUNT:
            print(f"You reached ${purse} in {hands} hands and win the Major Award!")
            updateBestScore(hands)
            magic8Award()
            return
        if purse < ANTE:
            print(f"Game over: ${purse} is not enough for the ${ANTE} ante.")
            return
        if not askPlayAgain():
            print(f"Thanks for playing! You leave with ${purse}.")
            return


def newHand():
    """Return a Dice object holding five dice (they are rolled when a hand starts)."""
    dice = Dice()
    for _ in range(HAND_SIZE):
        dice.addDie(Die(1))
    return dice


def playHand(dice):
    """Make the first roll and up to two re-rolls; return False if the player quits."""
    dice.rollAll()
    dice.drawDice()
    for roll in range(2, ROLLS_PER_HAND + 1):
        move = askMove(roll)
        if move == "Q":
            return False
        if move == "H":
            break
        for number in move:
            dice.rollADie(number - 1)
        dice.drawDice()
    return True


def askMove(roll):
    """Ask what to do before roll number roll; return "H", "Q" or a list of die numbers."""
    prompt = f"Roll {roll} of {ROLLS_PER_HAND}: dice to re-roll (e.g. 2 3 5), H=hold, Q=quit? "
    while True:
        answer = input(prompt).strip()
        if answer.upper() in ("H", "Q"):
            return answer.upper()
        try:
            if isvalidDice(answer):
                return sorted({int(piece) for piece in answer.split()})
        except ValueError:
            pass
        print("Please type die numbers from 1 to 5 separated by spaces, or H, or Q.")


def askPlayAgain():
    """Ask whether to play another hand until the answer is yes or no."""
    while True:
        answer = input("Play another hand? (y/n) ").strip().lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        print('Please answer "y" or "n".')


def readBestScore(path=BEST_SCORE_FILE):
    """Return the record (fewest hands to win) stored in path, or None if there is none."""
    try:
        with open(path) as file:
            record = int(file.read().strip())
    except (OSError, ValueError):
        return None
    return record if record > 0 else None


def updateBestScore(hands, path=BEST_SCORE_FILE):
    """Store hands in path when it beats the record there (or there is no record)."""
    record = readBestScore(path)
    if record is not None and record <= hands:
        print(f"The record is {record} hands. Try again to beat it!")
        return
    print(f"That is a new record: {hands} hands!")
    try:
        with open(path, "w") as file:
            file.write(f"{hands}\n")
    except OSError as error:
        print(f"Warning: the new record could not be saved ({error}).")


def magic8Award():
    """The Major Award: the Magic 8 ball answers the player's yes/no question."""
    oracle = Magic8()
    input("Ask the Magic 8 ball a yes/no question: ")
    answer = oracle.getAnswer()
    print(f"The Magic 8 ball says: {answer}")
    oracle.speakAnswer(answer)


def calculateScore(dice):
    """Score five dice (a Dice object or a list of five ints).

    Return (value, description) for the best hand they make, e.g. (10, "3 of a Kind"),
    or (0, "Nothing").
    """
    values = diceValues(dice)
    description = handName(values)
    return PAYOUTS[description], description


def diceValues(dice):
    """Return the face values of dice, which is a Dice object or a sequence of ints."""
    if isinstance(dice, Dice):
        return [die.value for die in dice.diceInSet]
    return list(dice)


def handName(d):
    """Return the name of the hand made by the five values in d ("Nothing" if none)."""
    if sorted(d) in STRAIGHTS:
        return "Straight"
    return MATCH_PATTERNS.get(matchPattern(d), "Nothing")


def matchPattern(d):
    """Return how many dice share each face, largest group first: [3, 3, 5, 3, 5] -> (3, 2)."""
    return tuple(sorted(Counter(d).values(), reverse=True))


def is2Pair(d):
    """Return True if d holds two different pairs and a fifth die unlike both."""
    return handName(d) == "2 Pair"


def is3ofAKind(d):
    """Return True if exactly three dice match and the other two are not a pair."""
    return handName(d) == "3 of a Kind"


def isFullHouse(d):
    """Return True if three dice match and the other two are a pair of another face."""
    return handName(d) == "Full House"


def isStraight(d):
    """Return True if d is 1-2-3-4-5 or 2-3-4-5-6, in any order."""
    return handName(d) == "Straight"


def is4ofAKind(d):
    """Return True if exactly four of the five dice match."""
    return handName(d) == "4 of a Kind"


def is5ofAKind(d):
    """Return True if all five dice match."""
    return handName(d) == "5 of a Kind"


def isvalidDice(s):
    """Return True if s lists at least one die number and every number is 1-5.

    The pieces of s are separated by whitespace; raise ValueError if one is not an int.
    """
    numbers = [int(piece) for piece in s.split()]
    return len(numbers) > 0 and all(1 <= n <= HAND_SIZE for n in numbers)


if __name__ == "__main__":
    main()
