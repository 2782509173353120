"""Calling a student's functions in a sandboxed child: cases (``calls``), probes of the
student's classes (``objects``, with ``objects_child``, its half in the child), a function
over a whole input space (``exhaustive``), and the student's own test file judged
(``studenttests``).

May use: ``run``, ``judge``, ``drive`` (a transcript).
"""
