"""Packaging: everything is in pyproject.toml except one step. A built wheel must carry the
assignments' rubrics and handouts, the student templates and the one reference a grader reads
at grading time (Poker Dice runs a student's tests on it), so ``build_py`` copies them into
``graders/kitdata/``, where ``graders.engine.rubric.DATA_ROOT`` looks when the kit does not run
from the repository. No other reference solution goes into the wheel.
"""
from pathlib import Path
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# (folder, file patterns) copied into graders/kitdata/
KIT_DATA = [("assignments", ["*/rubric.toml", "*/handout.md"]),
            ("student_template", ["*/*"]),
            ("reference", ["poker_dice/project.py", "poker_dice/dice.py",
                           "poker_dice/magic8ball.py"])]


class BuildWithKitData(build_py):
    """build_py, then the kit's data files into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):    # editable: the repository is read itself
            return
        target = Path(self.build_lib) / "graders" / "kitdata"
        for folder, patterns in KIT_DATA:
            for pattern in patterns:
                for path in sorted((HERE / folder).glob(pattern)):
                    if path.is_file() and "__pycache__" not in path.parts:
                        copy = target / path.relative_to(HERE)
                        copy.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(path, copy)


setup(cmdclass={"build_py": BuildWithKitData})
