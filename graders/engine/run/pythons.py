"""Which Python runs student code: the newest one on the machine, unless a course says otherwise.

Order of choice: the ``GRADER_STUDENT_PYTHON`` environment variable, then the newest CPython found
on PATH (``python3.X``) or under pyenv's versions folder. The kit itself needs 3.11+, but student
programs often use newer syntax (nested same-quote f-strings need 3.12), so they get the newest.
"""
from __future__ import annotations

import errno
import functools
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

# errors of starting a process that say nothing about the program started: the machine was
# short of something for a moment (EAGAIN, ENOMEM), or the exec could not read its arguments
# or environment (EFAULT: see _environment)
TRANSIENT_SPAWN_ERRORS = (errno.EAGAIN, errno.ENOMEM, errno.EFAULT)


def _environment(env: dict | None) -> dict:
    """The environment a process gets: ``env``, or a copy of the grader's own taken now.

    Never None (the grader's live environment): Python starts processes with vfork and lets
    other threads run meanwhile, and while a grader runs, pytest rewrites
    PYTEST_CURRENT_TEST in its main thread at every step of every check. A process started
    from another thread (the parser, a compile) with the live environment could read it while
    it was being changed: one start in six failed with EFAULT ('Bad address') in a test of
    the two side by side, and a failed parser had made a file look unreadable."""
    return dict(os.environ) if env is None else env


def popen(argv: list[str], **kwargs) -> subprocess.Popen:
    """``subprocess.Popen`` with its own copy of the environment (``_environment``), tried
    once more after a transient failure of the start itself (``TRANSIENT_SPAWN_ERRORS``):
    such a failure must not become a verdict on a program."""
    kwargs["env"] = _environment(kwargs.get("env"))
    try:
        return subprocess.Popen(argv, **kwargs)
    except OSError as exc:
        if exc.errno not in TRANSIENT_SPAWN_ERRORS:
            raise
    time.sleep(0.05)
    return subprocess.Popen(argv, **kwargs)


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run`` with its own copy of the environment (see ``_environment``)."""
    kwargs["env"] = _environment(kwargs.get("env"))
    return subprocess.run(argv, **kwargs)


def _version(executable: str) -> tuple[int, int] | None:
    match = re.search(r"python(\d)\.(\d+)$", executable)
    if match:
        return int(match.group(1)), int(match.group(2))
    try:
        out = run([executable, "-c", "import sys; print(*sys.version_info[:2])"],
                  capture_output=True, text=True, timeout=10).stdout.split()
        return int(out[0]), int(out[1])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None


def _candidates() -> list[str]:
    found = []
    for minor in range(20, 7, -1):
        path = shutil.which(f"python3.{minor}")
        if path and "/shims/" not in path:     # pyenv shims fail for inactive versions
            found.append(os.path.realpath(path))
    roots = [Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"]
    for root in roots:
        if root.is_dir():
            for version in root.iterdir():
                if re.fullmatch(r"3\.\d+\.\d+", version.name):
                    for name in (f"python{version.name.rsplit('.', 1)[0]}", "python3"):
                        exe = version / "bin" / name
                        if exe.exists():
                            found.append(str(exe))
                            break
    return found


@functools.lru_cache(maxsize=None)
def student_python() -> str:
    """The interpreter for student programs (cached for the life of the grader)."""
    chosen = os.environ.get("GRADER_STUDENT_PYTHON")
    if chosen:
        return chosen
    best, best_version = None, (3, 7)
    for exe in _candidates():
        version = _version(exe)
        if version and version > best_version and version[0] == 3:
            best, best_version = exe, version
    return best or shutil.which("python3") or "python3"


def describe() -> str:
    """'Python 3.13 (/path)' for reports."""
    exe = student_python()
    version = _version(exe)
    return f"Python {version[0]}.{version[1]} ({exe})" if version else exe


def pure_python_packages(*names: str) -> list[str]:
    """Folders holding pure-Python packages installed for the kit (e.g. pytest), to put on a
    student program's path when the student Python does not have them."""
    import importlib.util
    folders = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec and spec.origin:
            origin = Path(spec.origin)
            root = origin.parent.parent if origin.name == "__init__.py" else origin.parent
            if str(root) not in folders:
                folders.append(str(root))
    return folders


def interpreter_folders(executable: str) -> list[str]:
    """The folders an interpreter needs to run (to show it, read-only, inside a sandbox): its
    installation prefix, and for a virtual environment the environment and its base."""
    path = shutil.which(executable) or executable
    folders = []
    for exe in (os.path.abspath(path), os.path.realpath(path)):
        prefix = os.path.dirname(os.path.dirname(exe))      # <prefix>/bin/python3.X
        if prefix not in folders:
            folders.append(prefix)
        config = Path(prefix) / "pyvenv.cfg"
        if config.is_file():
            for line in config.read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "home" and value.strip():
                    base = os.path.dirname(os.path.realpath(value.strip()))
                    if base not in folders:
                        folders.append(base)
    return [folder for folder in folders if os.path.isdir(folder) and folder != "/"]


BYTECODE_ROOT = Path(__file__).with_name("__pycache__")
COMPILE = """import compileall, os, sys
sys.pycache_prefix = sys.argv[1]
for path in sys.argv[2:]:
    if os.path.isdir(path):
        compileall.compile_dir(path, quiet=2)
    else:
        compileall.compile_file(path, quiet=2)
"""


def lent_bytecode(python: str, *names: str) -> str:
    """A folder holding the lent packages ``names`` compiled by ``python``, for a program to
    read (read-only) as ``sys.pycache_prefix``: importing a big package such as pytest from
    source costs more than a whole test run. Made once per interpreter and set of packages,
    outside the sandbox (the sources are the kit's own); '-' when it cannot be made."""
    import contextlib
    import hashlib
    import importlib.util
    import threading
    import time
    sources = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec and spec.origin:
            origin = Path(spec.origin)
            sources.append(str(origin.parent if origin.name == "__init__.py" else origin))
    # the packages as installed now: a reinstall or upgrade (a new .venv, pip install -U)
    # writes new files, whose bytecode a folder made before would not match (Python would
    # then compile each module from source at every import, the folder being read-only)
    stamps = []
    for source in sources:
        with contextlib.suppress(OSError):
            stat = (Path(source) / "__init__.py" if os.path.isdir(source) else Path(source)).stat()
            stamps.append((stat.st_mtime_ns, stat.st_size))
    key = hashlib.sha256(repr((python, os.path.realpath(python), sources, stamps)).encode())
    folder = BYTECODE_ROOT / f"lent-{key.hexdigest()[:16]}"
    if folder.is_dir():
        return str(folder)
    scratch = Path(f"{folder}-{os.getpid()}-{threading.get_ident()}")
    try:
        scratch.mkdir(parents=True)
        run([python, "-I", "-c", COMPILE, str(scratch)] + sources, check=True,
            capture_output=True, timeout=120)
        for where, dirs, files in os.walk(scratch):     # readable by the sandbox's user
            for entry in dirs + files:
                os.chmod(os.path.join(where, entry), 0o755 if entry in dirs else 0o644)
        os.chmod(scratch, 0o755)
        os.rename(scratch, folder)          # another grader may have made it meanwhile
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(scratch, ignore_errors=True)
    for old in BYTECODE_ROOT.glob("lent-*"):        # other versions, made an hour ago
        with contextlib.suppress(OSError):
            if old != folder and time.time() - old.stat().st_mtime > 3600:
                shutil.rmtree(old, ignore_errors=True)
    return str(folder) if folder.is_dir() else "-"
