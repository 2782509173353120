"""The Pig grader."""
