"""The Poker Dice grader (see checks.py; rules.py holds the kit's own correct scoring)."""
