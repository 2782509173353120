"""Poker Dice's files for the engine's import diagnosis (``graders/engine/judge/diagnose.py``): a
missing module among them is a file not handed in; a crashed run is told in full under help."""
from functools import partial

from graders.engine.judge import diagnose

SUBMITTED = ("project.py", "dice.py", "magic8ball.py", "test_project.py")
tidy = diagnose.tidy
fail_import = partial(diagnose.fail_import, submitted=SUBMITTED)
run_problem = partial(diagnose.run_problem, see="help", submitted=SUBMITTED)
import_problem = partial(diagnose.import_problem, submitted=SUBMITTED)
