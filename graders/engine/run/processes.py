"""The processes of runs, read from /proc, and the boot file compiled by the student's Python:
what the harness and the fork server both need (kept here so that neither imports the other).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import threading
import time
from pathlib import Path

from . import pythons, sandbox

BOOT = Path(__file__).with_name("boot") / "kitboot.py"
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) used so far by a process, from /proc;
    None where /proc is not available."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    try:
        return sum(int(value) for value in fields[11:15]) / _CLOCK_TICKS   # utime .. cstime
    except (ValueError, IndexError):
        return None


def children_of(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from /proc; [] where that is missing)."""
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as handle:
                found += [int(n) for n in handle.read().split()]
        except (OSError, ValueError):
            continue
    return found


def run_queue_seconds(path: str) -> float | None:
    """Seconds a thread spent runnable but waiting for a CPU (the second field of a
    ``schedstat`` file of /proc); None where the kernel does not keep it."""
    try:
        with open(path, "rb") as handle:
            return int(handle.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


HAVE_SCHEDSTAT = run_queue_seconds("/proc/thread-self/schedstat") is not None


def tree_waited_seconds(pid: int) -> float:
    """Seconds the live processes of a tree (their main threads) waited for a CPU."""
    total = 0.0
    for current in process_tree(pid):
        total += run_queue_seconds(f"/proc/{current}/schedstat") or 0.0
    return total


def load_stretch() -> float:
    """How many times longer work takes now than on an idle machine, from the load average
    per core (at least 1): the stand-in where the kernel keeps no ``schedstat``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        return max(1.0, os.getloadavg()[0] / cores)
    except OSError:
        return 1.0


def process_tree(pid: int) -> list[int]:
    """``pid`` and its live descendants, parents first."""
    tree, todo = [], [pid]
    while todo and len(tree) < 4096:
        current = todo.pop(0)
        if current not in tree:
            tree.append(current)
            todo += children_of(current)
    return tree


def folder_bytes(folder: Path, enough: int) -> int:
    """Bytes in the files below ``folder`` (links not followed), counted until ``enough``; a
    folder with an absurd number of entries counts as ``enough``."""
    total, entries, todo = 0, 0, [str(folder)]
    while todo and total < enough:
        try:
            with os.scandir(todo.pop()) as listing:
                for entry in listing:
                    entries += 1
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                    else:
                        total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
        if entries > 20_000:
            return enough
    return total


_compiled_boots: dict[tuple, Path] = {}
_compile_lock = threading.Lock()
_COMPILE = ("import py_compile, sys; "
            "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True)")


def compiled_boot(python: str) -> Path:
    """The boot file as the student interpreter's own bytecode: compiling its 1,500 lines took
    about 15 ms of CPU in every run. Python runs a bytecode file named on its command line as
    it runs a source file (it knows one by its first bytes, whatever its name: the sandbox
    shows it as /kit/kitboot.py). It is made once per interpreter and version of the boot
    file (by that interpreter, one short run) and kept beside the boot file, where only the
    kit can write, in ``boot/__pycache__``; where that cannot be written, runs start from
    the source."""
    try:
        source, interpreter = BOOT.stat(), os.stat(python)
    except OSError:
        return BOOT
    key = (python, source.st_mtime_ns, source.st_size, interpreter.st_mtime_ns,
           interpreter.st_size)
    with _compile_lock:
        if key not in _compiled_boots:
            _compiled_boots[key] = _compile_boot(python, key)
        return _compiled_boots[key]


def _compile_boot(python: str, key: tuple) -> Path:
    """Compile the boot file with ``python`` (see ``compiled_boot``); BOOT when that fails."""
    digest = hashlib.sha256(BOOT.read_bytes() + repr(key[:1] + key[3:]).encode())
    folder = BOOT.parent / "__pycache__"
    target = folder / f"kitboot-{digest.hexdigest()[:20]}.pyc"
    if target.is_file():
        return target
    try:
        folder.mkdir(exist_ok=True)
        os.chmod(folder, 0o755)      # as readable as the boot file's own folder
        # written under a name of its own, then renamed: grader processes may do this at once
        scratch = folder / f"kitboot-{os.getpid()}-{threading.get_ident()}.tmp"
        pythons.run([python, "-I", "-c", _COMPILE, str(BOOT), str(scratch),
                     sandbox.BOOT_INSIDE], check=True, capture_output=True, timeout=60)
        os.chmod(scratch, 0o644)     # readable wherever the source is (the boot file checks)
        os.replace(scratch, target)
    except (OSError, subprocess.SubprocessError):
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(scratch)
        return BOOT
    for old in folder.glob("kitboot-*"):        # earlier versions, unused for an hour
        with contextlib.suppress(OSError):
            if old != target and time.time() - old.stat().st_mtime > 3600:
                old.unlink()
    return target
