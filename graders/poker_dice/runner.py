"""Run folders and the background runs of one submission.

Every run of student code happens in its own fresh folder (a copy of the submission's Python
files) inside the engine's sandbox. :class:`Runs` starts the runs a grade needs at once, a few
at a time in threads, within the submission's time budget; the checks wait for the results
they read.
"""
from __future__ import annotations

import os
import shutil
import stat
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from graders.engine.harness import Limits, prepare_workdir

RULES_MODULE = "kit_poker_dice_rules"
RULES_SOURCE = Path(__file__).with_name("rules.py")
WORKERS = 4                  # student processes at a time (most of them wait for input)
RESERVE = 1.0                # seconds of the budget kept for judging and reports

SILENT_PYTTSX3 = '''"""A silent stand-in for pyttsx3, put here by the grader."""


class _Engine:
    """Accepts every call and says nothing."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def init(*args, **kwargs):
    """A silent engine."""
    return _Engine()
'''


def make_workdir(files: dict[str, Path], *, speech: bool = False, rules: bool = False) -> Path:
    """A fresh run folder with the submission's Python files (never a BestScore.txt).

    ``speech`` adds the silent pyttsx3 stand-in, ``rules`` the kit's correct rules module.
    """
    extra = {}
    if speech:
        extra["pyttsx3.py"] = SILENT_PYTTSX3
    if rules:
        extra[RULES_MODULE + ".py"] = RULES_SOURCE.read_text(encoding="utf-8")
    python_files = {name: path for name, path in files.items() if name.endswith(".py")
                    and name not in extra}
    return prepare_workdir(python_files, extra)


def remove_workdir(workdir: Path) -> None:
    """Delete a run folder, even one the grader made read-only or the program filled oddly."""
    for folder, dirs, _ in os.walk(workdir):
        for name in [folder] + [os.path.join(folder, d) for d in dirs]:
            try:
                os.chmod(name, stat.S_IRWXU)
            except OSError:
                pass
    shutil.rmtree(workdir, ignore_errors=True)


def limits_within(seconds_left: float, wall: float, idle: float = 1.5,
                  cpu: float | None = None) -> Limits:
    """Limits for one run that end it before the submission's budget runs out.

    Verdicts are CPU-based: ``cpu`` seconds for the run and ``idle`` CPU seconds without
    printing, asking or rolling (stuck). ``wall`` only sizes the real-time safety nets, which
    are generous so that a busy machine cannot change a verdict.
    """
    cpu = cpu or max(2.0, wall + 2)
    return Limits(cpu_seconds=max(1.0, min(cpu, seconds_left - RESERVE)),
                  stuck_cpu_seconds=idle, wall_seconds=max(60.0, wall),
                  idle_seconds=max(10.0, idle))


class Runs:
    """The background runs of one submission, started together and read by the checks."""

    def __init__(self, submission, budget):
        """No runs yet; they share the submission's budget."""
        self.submission = submission
        self.budget = budget
        self.pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="poker-dice")
        self.futures: dict[str, Future] = {}
        self.hung_at_start: str | None = None   # how a game run hung before its first prompt

    @property
    def seconds_left(self) -> float:
        """What is left of the submission's budget."""
        return self.budget.left

    def start(self, name: str, job, *args) -> None:
        """Start job(*args) in the background (once per name)."""
        if name not in self.futures:
            self.futures[name] = self.pool.submit(job, *args)

    def result(self, name: str):
        """The job's result, waiting for it if needed (None if it was never started)."""
        future = self.futures.get(name)
        if future is None:
            return None
        timeout = max(1.0, self.seconds_left + 5)
        return future.result(timeout=timeout)

    def close(self) -> None:
        """Wait for the runs still going (each has its own time limit), then stop the pool."""
        self.pool.shutdown(wait=True, cancel_futures=True)
