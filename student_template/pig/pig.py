"""Pig: a dice game against the computer. The first player to reach 100 points wins.

Read handout.md, then write the game here. Run it with: python pig.py
"""
import random


def main():
    """Play one game of Pig: you against the computer."""
    print("Welcome to Pig!")
    # Your code here: the turns, the scores, the computer's strategy and the winner.


if __name__ == "__main__":
    main()
