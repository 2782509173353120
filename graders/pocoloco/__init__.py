"""The PocoLoco grader."""
