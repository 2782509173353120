"""Driving a program at its prompts: a session (``session``), answers from a prompt's wording
(``answers``), the transcript (``transcript``), readers of what a program showed
(``readers/``), games played from a script (``scripted``), from a plan with a score sheet
(``dicegame``) or described as a console game in turns (``driver``), and loaded cards
(``loaded``).

May use: ``run``, ``judge``.
"""
