"""The grading engine, one package per concern; a package imports only those above it here:

1. ``run``: running student code (the student's Python, the sandbox, the fork server, the
   process under a pty with its limits, the boot files that run inside it, random draws);
2. ``judge``: what a check concludes (the rubric and its scores, requirements, the wording of
   import problems, readability);
3. ``drive``: playing a program at its prompts (sessions, answers, transcripts, readers,
   scripted games and the console-game driver);
4. ``call``: calling a student's functions (cases, object probes, exhaustive sweeps, the
   student's own tests);
5. ``grading``: grading submissions (finding them, the pytest plugin that runs a grader,
   reports, replays);
6. ``course``: the class over a week (the report folder, HTML pages, similar submissions).

``README.md`` is the guide for an instructor. The packages' ``__init__`` files hold no
imports, so a module loads only what it uses (``judge.requirements`` no style checker, no
pseudo-terminal).
"""
