"""The Three-card Poker grader (see checks.py)."""
