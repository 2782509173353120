"""Grading submissions: finding them (``submissions``), the pytest plugin that runs a grader's
checks on each (``plugin``, with ``grader.ini``), the results and feedback files
(``reports``), and replays of graded games at home (``replay``, ``replay_command``).

May use: ``run``, ``judge``, ``drive``, ``call``.
"""
