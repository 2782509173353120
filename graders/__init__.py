"""The console-grader kit, in layers; a layer imports only the layers before it
(``tests/test_layout.py`` checks this, and that no modules import each other in a circle):

1. ``engine``: what every assignment shares, itself in layers (see ``engine/__init__.py``);
2. the assignment graders (``pocoloco``, ``hilo``, ``poker_dice``, ``three_card_poker``,
   ``yahtzee``, ``pig``): each uses the engine and its own modules, never another grader;
3. ``platforms``: exports for Gradescope, PrairieLearn and GitHub Classroom, the student kit;
4. the commands: ``cli.py`` (``gradekit``, ``python -m graders``) and ``student_check.py``
   (the student kit's ``gradekit``).
"""
