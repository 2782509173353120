"""A fork server: one warm student interpreter per grader process, which forks the runs.

Starting a run on its own costs about 24 ms of CPU: bubblewrap's namespaces (4 ms), then the
student's Python and what the boot file imports (20 ms). A class is thousands of runs. Where
the sandbox is set up by root, a fork server is started once per grader process instead
(``boot/forkserver.py``, in a sandbox like a run's, with the folder of every run folder bound
in it; ``prestart`` begins it while pytest collects the grader), and every run is forked from
it: about 8 ms each.

Interpretation: a forked run must be as isolated as a run in a sandbox of its own. Each one gets
new mount, PID, IPC, network and host-name namespaces, a fresh ``/tmp``, its own run folder and
no other, a ``/proc`` of its own PID namespace, a new session, and the unprivileged user the
boot file switches to before any student code; it runs the boot file as a fresh interpreter
would. The server never runs student code and reads nothing but the grader's requests.

Runs start on their own, as before, where the grader is not root (in a user namespace a run
could not be given namespaces of its own without keeping capabilities), where the sandbox is
off, for runs that need other folders (a student's own tests), where the student's Python is
older than 3.12, and with ``GRADER_FORKSERVER=off``. A server that fails is set aside: later
runs start on their own.
"""
from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import pythons, sandbox
from .files import remove_folder
from .processes import children_of, compiled_boot, process_tree

ENV = "GRADER_FORKSERVER"
SERVER = Path(__file__).with_name("boot") / "forkserver.py"
EVENT_FD, REPLY_FD = 3, 4            # where a forked run finds its side channel
READY_SECONDS = 30.0                 # real time for the server to start (a safety net)
REPLY_SECONDS = 10.0                 # real time for it to answer a request (a safety net)

_lock = threading.Lock()
_folder: Path | None = None          # the folder of every run folder of this process
_servers: dict[str, "ForkServer"] = {}    # student Python -> its server (``dead``: set aside)
_owner_pid = os.getpid()             # a forked copy of the grader must not use them
# bubblewrap's --die-with-parent watches the thread that started it: servers are started on
# this one thread, which lives as long as the grader process (a run's thread may not)
_starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kit-forkserver")


def enabled(isolation: sandbox.Isolation | None = None) -> bool:
    """Whether runs are forked from a server here: a sandbox set up by root, not turned off."""
    if os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false", "none") or \
            os.getpid() != _owner_pid:
        return False
    isolation = isolation or sandbox.status()
    return isolation.active and isolation.as_root


def folder() -> Path | None:
    """Where run folders are made, so that the server can show each to its run: a folder
    of this process's own (None where runs are not forked: the usual temporary folder)."""
    global _folder
    if not enabled():
        return None
    with _lock:
        if _folder is None or not _folder.is_dir():
            _folder = Path(tempfile.mkdtemp(prefix="kit-runs-"))
            os.chmod(_folder, 0o711)        # the sandbox's user may pass, not look inside
        return _folder


def server_for(child) -> "ForkServer | None":
    """The server to fork ``child`` (a ``harness.Child``) from, started on first use (or
    waited for, when ``prestart`` began it); None when the run starts on its own."""
    if child.paths or child.isolation is None or not enabled(child.isolation):
        return None
    with _lock:
        if _folder is None or Path(child.workdir).parent != _folder:
            return None
        server = _servers.get(child.python)
        if server is None:
            server = _servers[child.python] = ForkServer(child.python, child.isolation, _folder)
            _starter.submit(server.start)
    server.started.wait(READY_SECONDS + 10)
    return None if server.dead or not server.started.is_set() else server


def prestart(python: str) -> None:
    """Begin starting the server for ``python`` now, in the background (a grading run calls
    this before pytest collects the grader, which keeps one core busy meanwhile), so that
    the first run finds it ready."""
    if not enabled():
        return
    root = folder()
    with _lock:
        if python not in _servers and root is not None:
            server = _servers[python] = ForkServer(python, sandbox.status(), root)
            _starter.submit(server.start)


class ForkServer:
    """The student interpreter in a sandbox that forks runs on request."""

    def __init__(self, python: str, isolation: sandbox.Isolation, root: Path):
        self.python, self.isolation, self.root = python, isolation, root
        self.dead = False                # set aside: later runs start on their own
        self.why_not = ""
        self._talk = threading.Lock()
        self._sock: socket.socket | None = None
        self._process: subprocess.Popen | None = None
        self._pid: int | None = None     # the server's process, as the grader numbers it
        self.started = threading.Event()     # set once ``start`` is over, either way

    def start(self) -> bool:
        """Start the server and wait until it is ready; False (and ``dead``, ``why_not``) if
        it is not. Runs on the ``_starter`` thread (see there)."""
        ready = False
        try:
            ready = self._start()
            return ready
        finally:
            self.dead = self.dead or not ready
            self.started.set()

    def _start(self) -> bool:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        config = {"sock": theirs.fileno(), "boot": sandbox.BOOT_INSIDE, "root": str(self.root),
                  "tmp_bytes": sandbox.TMP_BYTES}
        argv = sandbox.wrap([self.python, "-I", "-X", "utf8", sandbox.SERVER_INSIDE,
                             json.dumps(config)], self.isolation, python=self.python,
                            workdir=str(self.root), boot=str(compiled_boot(self.python)),
                            chown=False, server=str(SERVER))
        try:
            self._process = pythons.popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, pass_fds=(theirs.fileno(),),
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
                start_new_session=True)
        except OSError as exc:
            self.why_not, self.dead = str(exc), True
            mine.close()
            return False
        finally:
            theirs.close()
        self._sock = mine
        ready = self._receive(READY_SECONDS)
        if ready.get("ready"):
            self._pid = _find(process_tree(self._process.pid), ready.get("pid"))
        if self._pid is None:
            self.why_not = ready.get("why") or "it did not start"
            self.close()
            return False
        return True

    def spawn(self, boot_config: dict, env: dict, workdir: str, fds: tuple) -> int | None:
        """Fork a run: the boot file's config, the environment, the run folder, and the
        terminal's program side, the event pipe's write end and the reply pipe's read end.
        Returns the run's first process as the grader numbers it, or None (nothing was
        started, and the server is set aside)."""
        request = {"run": {"boot": json.dumps(boot_config), "env": env, "workdir": workdir}}
        with self._talk:
            if self.dead or self._sock is None:
                return None
            pid = None
            try:
                socket.send_fds(self._sock, [json.dumps(request).encode()], list(fds))
                inner = self._receive(REPLY_SECONDS).get("pid")
                # the server keeps the run's process until told it was found (a run that
                # ended at once could otherwise be reaped before the grader saw it)
                pid = _find(children_of(self._pid), inner)
                # found: it may be reaped once it ends; not found: it must not go on unwatched
                self._sock.send(json.dumps({"ack" if pid else "kill": inner}).encode())
            except OSError:
                pid = None
            if pid is None:
                self.dead = True
            return pid

    def alive(self) -> bool:
        """The server still runs (its runs end with it)."""
        process = self._process
        return process is not None and process.poll() is None

    def _receive(self, seconds: float) -> dict:
        """The server's next message ({} when it does not come in time or is not JSON)."""
        try:
            ready, _, _ = select.select([self._sock], [], [], seconds)
            data = self._sock.recv(1 << 16) if ready else b""
            message = json.loads(data) if data else {}
        except (OSError, ValueError):
            return {}
        return message if isinstance(message, dict) else {}

    def close(self) -> None:
        """End the server, its sandbox and whatever runs are left in it."""
        self.dead = True
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)


def _find(candidates: list[int], inner) -> int | None:
    """The process among ``candidates`` that the server's PID namespace numbers ``inner``."""
    if not isinstance(inner, int):
        return None
    for pid in candidates:
        try:
            with open(f"/proc/{pid}/status", "rb") as handle:
                for line in handle:
                    if line.startswith(b"NSpid:"):
                        if int(line.split()[-1]) == inner:
                            return pid
                        break
        except (OSError, ValueError):
            continue
    return None


@atexit.register
def close_all() -> None:
    """Every server ends, and the folder of run folders goes (at the grader's exit)."""
    global _folder
    if os.getpid() != _owner_pid:
        return
    with _lock:
        servers = list(_servers.values())
        _servers.clear()
        root, _folder = _folder, None
    for server in servers:
        server.close()
    if root is not None:
        remove_folder(root)
