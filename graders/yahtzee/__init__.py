"""The Yahtzee grader."""
