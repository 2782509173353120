"""Assignment 5: PocoLoco

Team members (fill in one line per person; delete the second line if you work alone):
    Member 1: <full name>, <SFU email>, <student number>
    Member 2: <full name>, <SFU email>, <student number>

How this file is organised:
    - constants (for example the computer players' names) go near the top
    - then your helper functions: dice, scoring, drawing, the human turn, the computer turn,
      playing a round, and so on
    - main() sets up the game and plays rounds until somebody has no chips left

Rule choices: write a comment wherever you had to interpret the rules (for example how you
break ties, or what happens when a player owes more chips than they have).
"""

import random  # use it for the dice and for shuffling the order of play


def main():
    """Set up PocoLoco and play it until someone has no chips left."""
    # TODO: ask for the player's name and the starting chips, print the title and
    # instructions, then play rounds until the game is over.
    pass


# Keep this set-up exactly as it is: the grader runs this file and expects main() to be
# called only from here.
if __name__ == "__main__":
    main()
