"""The HiLo grader."""
