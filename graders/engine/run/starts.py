"""Runs that end before the program reads anything are not repeated.

A program started the same way (the same files in its run folder, arguments, interpreter,
seed and limits) does the same thing until it asks a question or draws a random number: before
that nothing the grader does reaches it. So when a run of a submission ends before either (an
endless loop at import, a fork or memory bomb, a crash, a game that runs only when imported
another way), every other run of that submission started the same way would end the same way.
Those runs are not started: each takes the first run's record (its output, how it ended and
the CPU seconds it used, which count against the submission's budget as if it had run), so
the score is what it would have been, and a program that hangs at the start costs one run
instead of one per game.

While the first run of a start has not yet asked or drawn anything, later runs with the same
start wait for it (a normal program asks its first question within a few hundredths of a
second); they stop waiting and run on their own when the first one is plainly not computing
(a title shown slowly with sleeps) or after ``MAX_WAIT`` seconds. Waiting only changes how
long grading takes, never a result.

Only runs of a grading session are concerned (the plugin names their owner), and only plain
program runs (not the function-call child): ``key`` says what makes two starts the same.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass, field, fields

MAX_WAIT = 5.0            # real seconds a run waits for the first run of its start at most
IDLE_AFTER = 0.3          # real seconds after which a first run using little CPU is not waited for
# how a first run may end for its record to stand for the others: the program's own end or a
# verdict about it, never a safety net of the grader (real time) or a stop of the grader's
REPEATABLE_STOPS = {None, "cpu", "stuck", "output", "files", "ended"}


@dataclass
class Record:
    """How the first run of a start ended, before it asked or drew anything."""

    log: list[tuple[str, str, dict]]     # (kind, text, data) of each event
    outcome: dict
    stopped_by: str | None
    output_bytes: int
    cpu: float
    elapsed: float
    cpu_limit: float


@dataclass
class Start:
    """The first run of a start and, once it is known, its record."""

    first: object                        # the harness.Child that runs it
    settled: threading.Event = field(default_factory=threading.Event)
    record: Record | None = None


_starts: dict[tuple, Start] = {}
_lock = threading.Lock()


def key(child, owner: str | None) -> tuple | None:
    """What makes two runs start the same; None for a run that is never shared."""
    if owner is None or child.mode != "program":
        return None
    limits = tuple((f.name, getattr(child.limits, f.name)) for f in fields(child.limits)
                   if f.name != "cpu_seconds")
    try:
        target = str(child.target.relative_to(child.workdir))
    except ValueError:
        target = str(child.target)
    return (owner, child.python, target, tuple(child.args), child.module, child.policy.seed,
            type(child.policy).__name__, tuple(sorted(child.extra_env.items())),
            tuple(child.paths), tuple(child.deny), limits, _folder_digest(child.workdir))


def _folder_digest(folder) -> str:
    """Names and contents of the files in a run folder (a few small files)."""
    digest = hashlib.sha1()
    for parent, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(parent, name)
            digest.update(os.path.relpath(path, folder).encode("utf-8", "replace") + b"\0")
            try:
                with open(path, "rb") as handle:
                    digest.update(handle.read(4_000_000))
            except OSError:
                digest.update(b"\1unreadable")
            digest.update(b"\0")
    return digest.hexdigest()


def claim(start_key: tuple, child) -> tuple[Start, bool]:
    """The start of this key, and whether ``child`` is its first run (which settles it)."""
    with _lock:
        known = _starts.get(start_key)
        if known is None:
            known = _starts[start_key] = Start(child)
            return known, True
        return known, False


def wait(start: Start) -> Record | None:
    """Wait for the first run (see the module docstring); its record, or None when this run
    must run on its own."""
    began = time.monotonic()
    while not start.settled.wait(0.05):
        first, waited = start.first, time.monotonic() - began
        # its real time less the time it waited for a CPU (a busy machine is not idleness);
        # a first run still being set up (no process yet) has had no time to compute
        could_compute = first.elapsed - first.starved_seconds if first.started else 0.0
        if waited > MAX_WAIT or (could_compute > IDLE_AFTER and first._cpu < could_compute / 2):
            return None
    return start.record


def fits(record: Record, limits) -> bool:
    """Would a run with these limits have ended the same way? Only the CPU verdict may
    differ between two starts (it is cut to what is left of the budget)."""
    if record.stopped_by == "cpu":
        return limits.cpu_seconds == record.cpu_limit
    return record.cpu < limits.cpu_seconds


def settle(start: Start | None, child, repeatable: bool) -> None:
    """The first run asked or drew something (``repeatable`` False) or ended."""
    if start is None or start.settled.is_set():
        return
    if repeatable:
        start.record = Record([(e.kind, e.text, dict(e.data)) for e in child.log],
                              dict(child.outcome), child.stopped_by, child.output_bytes,
                              child._cpu, child.elapsed, child.limits.cpu_seconds)
    start.settled.set()


def repeatable(child) -> bool:
    """Did the run end on its own, or by a verdict, before it asked or drew anything?"""
    if child.stopped_by not in REPEATABLE_STOPS or child.outcome.get("grader_problem"):
        return False
    if child.stopped_by is None and child.outcome.get("ev") != "exit":
        return False            # closed by the grader (a scenario gave up), not by the program
    return not any(e.kind in ("input", "draw", "answer", "eof") for e in child.log)


def forget(owner: str | None = None) -> None:
    """Drop the starts of one owner (all of them with None): a session is over."""
    with _lock:
        for start_key in [k for k in _starts if owner is None or k[0] == owner]:
            del _starts[start_key]
