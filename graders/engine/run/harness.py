"""The harness: runs one student program in its own process under a pseudo-terminal.

The child is started with ``kitboot.py`` (see ``boot/``), which announces every prompt and random
draw on a side channel. It runs inside a bubblewrap sandbox where bubblewrap works
(see ``sandbox``; forked from the fork server where root sets the sandbox up, see
``forkserver``), with the kit's older guards as the fallback. The harness reads the terminal
and the side channel in order, answers random draws through a draw policy, enforces time,
memory and output limits, and keeps an ordered event log: output, draws, prompts, answers, exit.

Verdicts about the program ("stuck in a loop", "took too long") are measured in the child's CPU
seconds and in counts (bytes, draws), so they do not depend on how busy the machine is.
Wall-clock limits are only safety nets: hitting one is reported as the grader's problem
(``outcome["grader_problem"]``), for a TA to look at, never as the program's fault. They count
real time less the time the run's processes spent waiting for a CPU (see ``Stopwatch``), so a
busy machine does not make them fire.
"""
from __future__ import annotations

import codecs
import contextlib
import dataclasses
import fcntl
import json
import math
import os
import select
import shutil
import signal
import struct
import tempfile
import termios
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import ptyprocess

from . import forkserver, pythons, sandbox, starts, static
from .draws import DrawPolicy
from .files import remove_folder
from .processes import (HAVE_SCHEDSTAT, compiled_boot, folder_bytes, load_stretch,
                        process_cpu_seconds, process_tree, run_queue_seconds,
                        tree_waited_seconds)

MAX_EVENT_LINE = 1_000_000      # bytes of one side-channel event (function results included)
MIN_RUN_SECONDS = 0.5           # CPU seconds a run gets even when the budget is nearly spent
TREE_EVERY = 0.2                # seconds between looks for new processes of a run
TURN_UNWATCHED = 1.0            # seconds a silent run's turn lasts when its checks stop
MAX_STRETCH = 20.0              # a safety net fires after this many times its real time at most
KIT_ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Limits:
    """Resource limits for one run; defaults suit a console game.

    Verdicts (the program's fault) use CPU seconds of the program's process and counts;
    the two wall-clock limits are generous safety nets: when one is hit, the outcome says it
    is the grader's problem. The wall net is never shorter than three times ``cpu_seconds``
    (a program that gets a third of a core on a busy machine can still use all its CPU).
    Both count real time less the time the program and the grader's thread running it were
    kept waiting for a CPU (``Stopwatch``), so they do not fire on a busy machine.
    """

    cpu_seconds: float = 6.0        # verdict: CPU seconds for the whole run (took too long)
    stuck_cpu_seconds: float = 1.5  # verdict: CPU seconds with nothing printed, asked or drawn
    # the same verdict once another run of the same submission was stopped as stuck (None:
    # never shorter); see Child._stuck_seconds
    stuck_again_cpu_seconds: float | None = 0.3
    memory_mb: int = 768
    output_bytes: int = 1_500_000
    file_bytes: int = 8_000_000
    processes: int = 32             # processes and threads (counted once it is not root)
    folder_bytes: int = 64_000_000  # what the program's files in its run folder may grow by
    open_files: int = 256
    max_draws: int = 5_000          # random draws: far more than any game needs
    wall_seconds: float = 60.0      # safety net: real time for the whole run
    idle_seconds: float = 5.0       # safety net: real time with no output, no question and
    #                                 no CPU used (the program waits for something unseen)

    @property
    def wall_net(self) -> float:
        """The real-time safety net actually applied to the whole run."""
        return max(self.wall_seconds, 3 * self.cpu_seconds)


_HAVE_PROC = os.path.exists(f"/proc/{os.getpid()}/stat")
_meter_lock = threading.Lock()
_cpu_of_ended = 0.0                              # CPU seconds of children that have ended
_live_children: "weakref.WeakSet[Child]" = weakref.WeakSet()
_grader_problems: list[tuple[str | None, str]] = []
_starved_of_ended = 0.0                          # seconds ended runs waited for a CPU
_wall_of_ended = 0.0                             # their real seconds
current_owner: str | None = None    # set by the plugin: whose runs are being started
_stuck_owners: set[str] = set()     # owners one of whose runs was stopped as stuck
_silent_turn: dict[str, "Child"] = {}  # owner -> its run computing silently while others wait


def forget_stuck_owners() -> None:
    """A grading session is over: no owner has been stuck yet in the next one."""
    with _meter_lock:
        _stuck_owners.clear()
        _silent_turn.clear()


def children_cpu_seconds() -> float:
    """CPU seconds used by every student process this grader process has started."""
    with _meter_lock:
        total = _cpu_of_ended
        live = list(_live_children)
    return total + sum(child.cpu_seconds for child in live)


def runs_starvation() -> tuple[float, float]:
    """(seconds the runs so far were kept waiting for a CPU, their real seconds), ended and
    live runs together (see ``Stopwatch``)."""
    with _meter_lock:
        starved, wall = _starved_of_ended, _wall_of_ended
        live = list(_live_children)
    for child in live:
        starved += child.starved_seconds
        wall += child.elapsed
    return starved, wall


class Stopwatch:
    """Real time for a safety net, and the share of it the grader's work could really use.

    On a busy machine the grader's runs wait for a CPU, a program that plays by questions and
    dice most of all (each answer is a round trip between two processes). ``unstarved`` is
    the real time since the start less that share: how long the runs since then spent
    waiting for a CPU, as a part of their own real time (measured by the kernel's run-queue
    times; the load average per core stands in where those are missing, or while no run
    went on). A net compares
    ``unstarved`` with its seconds, and gives up on waiting at MAX_STRETCH times them.
    """

    def __init__(self):
        self.started = time.monotonic()
        self._starved, self._wall = runs_starvation()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def unstarved(self) -> float:
        elapsed = self.elapsed
        starved, wall = runs_starvation()
        starved, wall = starved - self._starved, wall - self._wall
        if not HAVE_SCHEDSTAT or wall < 0.5:      # no runs to measure: the grader's own work
            return elapsed / load_stretch()
        return elapsed * (1.0 - min(1.0, starved / wall))

    def past(self, seconds: float) -> bool:
        """The net of ``seconds`` is reached."""
        return self.elapsed > seconds and (self.unstarved > seconds or
                                           self.elapsed > seconds * MAX_STRETCH)


def take_grader_problems(owner: str | None) -> list[str]:
    """The safety-net hits of runs started for ``owner`` (each reported once)."""
    with _meter_lock:
        mine = [text for who, text in _grader_problems if who == owner]
        _grader_problems[:] = [(who, text) for who, text in _grader_problems if who != owner]
    return mine


@dataclass
class Event:
    """One entry of the ordered event log."""

    kind: str                      # out, input, answer, eof, draw, exit, note, system, limit
    text: str = ""
    data: dict = field(default_factory=dict)


# what only the grader puts in an outcome: a program's own exit event cannot say that the
# grader was at fault (its runs would then be set aside instead of judged)
GRADER_KEYS = ("grader_problem", "shorter_limit")


def _valid_event(event) -> bool:
    """A side-channel event has the shape the boot file writes (a program could forge one):
    anything else is dropped, and fields the grader reads get their expected types."""
    if not isinstance(event, dict) or not isinstance(event.get("ev"), str):
        return False
    for key in GRADER_KEYS:              # said by the grader alone, never by a program
        event.pop(key, None)
    if not isinstance(event.get("out", 0), int) or isinstance(event.get("out"), bool):
        event["out"] = 0
    for key, kind in (("prompt", str), ("text", str), ("stack", list), ("req", dict),
                      ("results", list), ("load", dict)):
        if key in event and not isinstance(event[key], kind):
            event[key] = kind()
    return True


TERMINAL_SIZE = (50, 120)        # rows, columns of a run's terminal


def open_terminal(echo: bool = True, dimensions=TERMINAL_SIZE) -> tuple[int, int]:
    """A new pseudo-terminal (master, program's side) of ``dimensions``, echoing or not."""
    master, slave = os.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", *dimensions, 0, 0))
        if not echo:
            attributes = termios.tcgetattr(slave)
            attributes[3] &= ~termios.ECHO
            termios.tcsetattr(slave, termios.TCSANOW, attributes)
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    return master, slave


class _Terminal(ptyprocess.PtyProcess):
    """ptyprocess's process on a pseudo-terminal, started the way ``subprocess`` starts one
    (vfork and exec) instead of with ``pty.fork``: a fork copies the grader's whole memory
    map first, 5 to 25 ms of CPU per run in a grader process of 50 to 300 MB, and a class
    is thousands of runs. The program gets the terminal as its stdin, stdout and stderr, in
    a session of its own (the process group the harness kills), with no controlling
    terminal: as inside the sandbox, whose bubblewrap starts a new session anyway."""

    @classmethod
    def spawn(cls, argv, cwd=None, env=None, echo=True, preexec_fn=None,
              dimensions=(24, 80), pass_fds=()):
        if preexec_fn is not None:
            raise ValueError("preexec_fn would need a fork")
        master, slave = open_terminal(echo, dimensions)
        try:
            process = pythons.popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                    env=env, pass_fds=tuple(pass_fds), start_new_session=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        # ptyprocess reaps the child (waitpid): subprocess must not look for it later
        process.returncode = 0
        terminal = cls(process.pid, master)
        terminal.argv, terminal.env, terminal.launch_dir = argv, env, cwd
        return terminal


class _ForkedRun:
    """What the harness uses of a pexpect spawn, for a run a fork server made: its first
    process (``pid``, as the grader numbers it; the server reaps it), the terminal's master
    side (``child_fd``) and the ``server``."""

    def __init__(self, pid: int, master: int, server):
        self.pid, self.child_fd, self.server = pid, master, server
        self.ptyproc = self
        self.delayafterclose = self.delayafterterminate = 0

    def close(self, force: bool = True) -> None:
        if self.child_fd >= 0:
            os.close(self.child_fd)
            self.child_fd = -1


class _Spawn(pexpect.spawn):
    """pexpect.spawn on a ``_Terminal`` that keeps the side-channel pipes open in the
    child."""

    def __init__(self, *args, pass_fds=(), **kwargs):
        self._pass_fds = tuple(pass_fds)
        super().__init__(*args, **kwargs)

    def _spawnpty(self, args, **kwargs):
        return _Terminal.spawn(args, pass_fds=self._pass_fds, **kwargs)


def prepare_workdir(files, extra: dict[str, str] | None = None,
                    prefix: str = "kit-run-") -> Path:
    """A fresh private folder holding copies of the submission's files.

    ``files`` is a list of paths, or a mapping of the name to use -> original path. Prefer
    ``run_folder``, which also removes the folder. Where runs are forked from a server, run
    folders are made in the folder it shows to its runs (``forkserver.folder``).
    """
    workdir = Path(tempfile.mkdtemp(prefix=prefix, dir=forkserver.folder()))
    named = files.items() if isinstance(files, dict) else ((Path(p).name, p) for p in files)
    for name, path in named:
        path = Path(path)
        # regular files only: a link could point at anything the grader can read
        if not path.is_symlink() and path.is_file() and path.stat().st_size <= 2_000_000:
            copy_into(workdir, name, path)
    for name, text in (extra or {}).items():
        (workdir / name).write_text(text)
    return workdir


def copy_into(folder: Path, name: str, path: Path) -> None:
    """Copy a file into ``folder`` as ``name``, a relative path whose folders are made
    (game/card.py: a submission's package); a name that leaves the folder is skipped."""
    parts = name.split("/")
    if "" in parts or "." in parts or ".." in parts:
        return
    if len(parts) > 1:
        folder.joinpath(*parts[:-1]).mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, folder.joinpath(*parts))


def within_budget(limits: Limits, budget=None) -> Limits:
    """``limits`` with the CPU verdict no longer than what is left of the submission's budget
    (``plugin.Budget``, or anything with ``left`` in CPU seconds; None: no budget)."""
    if budget is None:
        return limits
    seconds = max(MIN_RUN_SECONDS, min(limits.cpu_seconds, budget.left))
    return dataclasses.replace(limits, cpu_seconds=seconds)


@contextlib.contextmanager
def run_folder(submission, name: str = "run", extra: dict[str, str] | None = None):
    """``with run_folder(submission, "games") as folder:`` a fresh private folder holding
    copies of the submission's files (and ``extra`` files: name -> text), always removed
    afterwards, even when the program made parts of it read-only."""
    label = "".join(c if c.isalnum() else "-" for c in name)[:40]
    folder = prepare_workdir(dict(submission.files), extra, prefix=f"kit-{label}-")
    try:
        yield folder
    finally:
        remove_folder(folder)


class Child:
    """One run of a student program: start it, then read events until it waits or ends.

    ``budget`` (the submission's, see ``plugin.Budget``) caps the run's CPU verdict at what is
    left of it, so every run of a submission draws from the same budget."""

    def __init__(self, target: Path, *, workdir: Path, policy: DrawPolicy | None = None,
                 limits: Limits | None = None, args: list[str] | None = None,
                 mode: str = "program", deny: list[Path] | None = None,
                 python: str | None = None, module: str = "submission",
                 env: dict[str, str] | None = None, paths: list[Path] | None = None,
                 budget=None):
        self.target = Path(target)
        self.workdir = Path(workdir)
        self.policy = policy or DrawPolicy()
        self.limits = within_budget(limits or Limits(), budget)
        self.args = list(args or [])
        self.mode = mode
        self.module = module
        self.deny = [str(p) for p in (deny or [])] + [str(KIT_ROOT)]
        self.python = python or pythons.student_python()
        self.extra_env = dict(env or {})
        self.paths = [str(p) for p in (paths or [])]   # importable and readable (e.g. pytest)
        self.log: list[Event] = []
        self.policy.log = self.log
        self.outcome: dict = {}          # the child's exit event, or the limit that stopped it
        self.stopped_by: str | None = None
        self.output_bytes = 0
        self.draw_count = 0
        self._sent_names: list[str] = []
        self.started = self.ended = 0.0
        self.owner = current_owner       # whose grading started this run (for the TA list)
        self._cpu = 0.0                  # CPU seconds used by the program, last reading
        self._cpu_read_at = 0.0
        self._tree_pids: list[int] = []  # the run's processes, as last found
        self._tree_read_at = 0.0
        self._cpu_moved_at = 0.0         # real time when the CPU reading last went up
        self._cpu_at_activity: float | None = 0.0   # None: take it at the next reading
        self._call_allowance = 0.0       # calls mode: CPU seconds a batch of calls may take
        self._paused_at: float | None = None   # real time this run was paused (_take_turns)
        # the safety nets' count of starvation (see Stopwatch): seconds this run's processes
        # and the grader's thread driving it waited for a CPU, and the readings it grows from
        self.starved_seconds = 0.0
        self._starved_read_at = 0.0
        self._thread_waited: tuple[int, float] | None = None
        self._tree_waited = 0.0
        self._starved_at_activity = self._starved_at_cpu_move = 0.0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._event_buffer = b""
        self._event_bytes = 0
        self._pending: list[dict] = []
        self._last_draw_stack: list = []     # the stack of the last draw event carrying one
        self._events_open = True
        self._proc: _Spawn | None = None
        self.isolation: sandbox.Isolation | None = None    # how this run was isolated
        self.forked = False              # made by the fork server (``forkserver``)
        self.replayed = False            # took the record of an identical start (``starts``)
        self._start: starts.Start | None = None     # the start this run is the first of
        self.boot_options: dict = {}     # more for the boot file's config (a replay's)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> "Child":
        isolation = self.isolation = sandbox.ensure()
        start_key = starts.key(self, self.owner)
        if start_key is not None:
            start, first = starts.claim(start_key, self)
            if first:
                self._start = start
            else:
                record = starts.wait(start)
                if record is not None and starts.fits(record, self.limits):
                    return self._replay(record)
        config = {"workdir": str(self.workdir),
                  "target": str(self.target), "deny": self.deny, "args": self.args,
                  "mode": self.mode, "module": self.module, "seed": self.policy.seed,
                  "paths": self.paths,
                  "stand_ins": [name for name in static.unavailable_imports(self.target)
                                if name in static.TESTING_LIBRARIES]
                  if self.mode == "program" else [],
                  # the kernel's CPU limit is a backstop one second after the verdict's
                  "limits": {"cpu": math.ceil(self.limits.cpu_seconds) + 1,
                             "memory_mb": self.limits.memory_mb,
                             "file_bytes": self.limits.file_bytes,
                             "processes": self.limits.processes,
                             "open_files": self.limits.open_files}}
        config.update(self.boot_options)
        if isolation.active:
            config["sandboxed"] = True
            if isolation.as_root:
                config["sandbox_uid"] = isolation.uid
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.workdir),
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "COLUMNS": "120",
               "LINES": "50", **self.extra_env}
        server = forkserver.server_for(self) if isolation.active else None
        if server is None or not self._with_side_channel(self._fork, server, config, env):
            self._with_side_channel(self._spawn, config, env)
        self._last_activity = self._cpu_moved_at = self.started
        self._folder_at_start = folder_bytes(self.workdir, 1 << 40)
        self._folder_checked_at = self.started
        with _meter_lock:
            _live_children.add(self)
        return self

    def _with_side_channel(self, start, *args) -> bool:
        """``start(*args, pipes)`` with new side-channel pipes (the run's ends: the event
        pipe's write end, the reply pipe's read end); the grader keeps the other ends when
        it started the run (True)."""
        events_r, events_w = os.pipe()
        replies_r, replies_w = os.pipe()
        started = False
        try:
            started = start(*args, (events_w, replies_r)) is not False
        finally:
            os.close(events_w)
            os.close(replies_r)
            if not started:
                os.close(events_r)
                os.close(replies_w)
        if started:
            self._events_fd, self._replies_fd = events_r, replies_w
        return started

    def _spawn(self, config: dict, env: dict, pipes: tuple[int, int]) -> None:
        """Start the run as a process of its own (in a sandbox of its own where there is
        one), with the side channel's pipes at the numbers they have here."""
        events_w, replies_r = pipes
        os.set_inheritable(events_w, True)
        os.set_inheritable(replies_r, True)
        config = dict(config, event_fd=events_w, reply_fd=replies_r)
        boot = compiled_boot(self.python)
        argv = [self.python, "-I", "-X", "utf8", str(boot)]
        if self.isolation.active:
            argv[4] = sandbox.BOOT_INSIDE
            argv = sandbox.wrap(argv + [json.dumps(config)], self.isolation,
                                python=self.python, workdir=str(self.workdir),
                                readable=self.paths, boot=str(boot))
        else:
            argv.append(json.dumps(config))
        self.started = time.monotonic()
        self._proc = _Spawn(argv[0], argv[1:], cwd=str(self.workdir), env=env, echo=False,
                            dimensions=TERMINAL_SIZE, pass_fds=pipes, encoding=None)
        # pexpect and ptyprocess sleep 0.1 s after close/terminate by default; the whole
        # process group is killed with SIGKILL instead, so no grace time is needed.
        for obj in (self._proc, self._proc.ptyproc):
            obj.delayafterclose = obj.delayafterterminate = 0

    def _fork(self, server, config: dict, env: dict, pipes: tuple[int, int]) -> bool:
        """Have the submission's fork server make the run (see ``forkserver``); False when
        it made nothing (the run then starts on its own)."""
        master, terminal = open_terminal(echo=False, dimensions=TERMINAL_SIZE)
        config = dict(config, event_fd=forkserver.EVENT_FD, reply_fd=forkserver.REPLY_FD)
        if self.isolation.as_root and self.isolation.uid is not None:
            sandbox.give_to(str(self.workdir), self.isolation.uid)
        self.started = time.monotonic()
        try:
            pid = server.spawn(config, env, str(self.workdir), (terminal,) + pipes)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(terminal)
        if pid is None:
            os.close(master)
            return False
        self._proc = _ForkedRun(pid, master, server)
        self.forked = True
        return True

    def _replay(self, record: starts.Record) -> "Child":
        """End at once as the first run of the same start ended (see ``starts``); its CPU
        seconds count against the budget as if this run had used them."""
        global _cpu_of_ended
        self.log.extend(Event(kind, text, dict(data)) for kind, text, data in record.log)
        self.outcome = dict(record.outcome)
        self.stopped_by = record.stopped_by
        self.output_bytes = record.output_bytes
        self._cpu = record.cpu
        self.started = time.monotonic()
        self.ended = self.started + record.elapsed
        self.replayed = True
        with _meter_lock:
            _cpu_of_ended += record.cpu
        return self

    def close(self) -> None:
        """Kill the whole process group and release the pipes (safe to call twice)."""
        if self._proc is None:
            return
        self._end_turn()
        self._read_cpu(whole=True)       # the whole tree, before it is taken apart
        self._signal_tree(signal.SIGKILL)
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._read_cpu(whole=True)       # final: the process is dead but not yet reaped
        try:
            self._drain_output(0.0)
        except OSError:
            pass
        try:
            self._proc.close(force=True)
        except Exception:       # pexpect may complain about an already-dead child
            pass
        for fd in (self._events_fd, self._replies_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        if not self.outcome:
            self.outcome = {"status": self.stopped_by or "killed"}
        self.ended = time.monotonic()
        self._proc = None
        global _cpu_of_ended, _starved_of_ended, _wall_of_ended
        with _meter_lock:
            if self in _live_children:
                _live_children.discard(self)
                _cpu_of_ended += self._cpu
                _starved_of_ended += self.starved_seconds
                _wall_of_ended += self.ended - self.started
        self._settle_start(starts.repeatable(self))

    @property
    def running(self) -> bool:
        return self._proc is not None and not self.outcome

    # ------------------------------------------------------------------ talking
    def send_line(self, text: str) -> None:
        """Type one line of input (our answer) into the program's terminal."""
        self._settle_start(False)
        self.log.append(Event("answer", text))
        self._write_tty((text + "\n").encode("utf-8"))

    def send_eof(self) -> None:
        self._settle_start(False)
        self.log.append(Event("eof"))
        self._write_tty(b"\x04")

    def reply(self, obj: dict) -> None:
        """Answer a request on the side channel (draw values, function calls)."""
        calls = obj.get("calls") if isinstance(obj, dict) else None
        if calls:
            # each call has its own CPU timer in the child, so a batch is not "stuck" before
            # all its calls could have used their time (this verdict is only a backstop here)
            self._call_allowance = sum(float(c.get("timeout", 1.0)) *
                                       max(1, len(c.get("each") or ())) for c in calls) + 0.5
        try:
            os.write(self._replies_fd, (json.dumps(obj) + "\n").encode("utf-8"))
        except OSError:
            pass
        self._active()

    def _write_tty(self, data: bytes) -> None:
        if self._proc is not None:
            try:
                os.write(self._proc.child_fd, data)
            except OSError:
                pass
        self._active()

    def _settle_start(self, repeatable: bool) -> None:
        """Tell the later runs of this start (if this is its first) how it went: it ended
        before reading anything (``repeatable``), or it reads or draws, so they run too."""
        if self._start is not None:
            starts.settle(self._start, self, repeatable)
            self._start = None

    def _active(self) -> None:
        """Something happened (output, a question, a draw, our answer): the program is not
        stuck; CPU seconds towards 'stuck' count from here."""
        self._last_activity = time.monotonic()
        self._starved_at_activity = self.starved_seconds
        self._cpu_at_activity = None
        self._end_turn()

    # ------------------------------------------------------------------ reading
    def next_event(self) -> dict | None:
        """Wait for the next prompt, call result or exit; draws are answered on the way.

        Returns the side-channel event (``ev`` is ``input``, ``ready``, ``result`` or ``exit``),
        or None when the program has ended or was stopped by a limit (see ``stopped_by``).
        """
        while self._proc is not None:
            while self._pending:
                event = self._pending.pop(0)
                self._sync_output(event.get("out", 0))
                if event["ev"] in ("draw", "input"):
                    self._settle_start(False)
                if event["ev"] == "draw":
                    self._answer_draw(event)
                    if self._proc is None:          # the policy ended the run
                        return None
                    continue
                if event["ev"] == "tick":
                    continue
                if event["ev"] in ("note", "system"):
                    self.log.append(Event(event["ev"], event.get("text") or
                                          event.get("command", ""), event))
                    continue
                if event["ev"] == "exit":
                    self._take_reported_cpu(event.get("cpu"))
                    self.outcome = event
                    self.log.append(Event("exit", event.get("status", ""), event))
                    self._drain_output(0.01)     # output was already synced by byte count
                    self.close()
                    return None
                if event["ev"] == "input":
                    self.log.append(Event("input", event.get("prompt", ""), event))
                return event
            if not self._events_open:
                self._drain_output(0.5)          # ends at once when the terminal closes
                self._read_cpu(whole=True)
                if self._cpu >= self.limits.cpu_seconds:     # killed by the kernel's backstop
                    self._stop("cpu", self._cpu_message())
                    return None
                if isinstance(self._proc, _ForkedRun) and not self._proc.server.alive():
                    # its fork server ended (and the run with it): not the program's doing
                    self._stop("server", "ended with the grader's fork server",
                               grader_problem=True)
                    return None
                self.stopped_by = self.stopped_by or "ended"
                self.outcome = {"status": "died", "error": "the program stopped unexpectedly"
                                " (killed by a signal, e.g. the CPU or memory limit)"}
                self.close()
                return None
            if not self._wait_for_data():
                return None
        return None

    def _wait_for_data(self) -> bool:
        now = time.monotonic()
        if not self._check_cpu(now):
            return False
        limits = self.limits
        # what is ready is read before the safety nets are looked at: when the grader's own
        # thread got no CPU for a while, the program's output or question is waiting here,
        # and the program was not idle
        fds = [self._proc.child_fd, self._events_fd]
        ready, _, _ = select.select(fds, [], [], 0.05)
        if self._proc.child_fd in ready:
            self._read_output()
        if self._events_fd in ready:
            self._read_events()
        if self._proc is None:                  # stopped while reading (a flood)
            return False
        if self.output_bytes > limits.output_bytes:
            return self._stop("output", f"printed more than {limits.output_bytes:,} bytes")
        if now - self._folder_checked_at > 0.1:
            self._folder_checked_at = now
            grown = folder_bytes(self.workdir, self._folder_at_start + limits.folder_bytes + 1) \
                - self._folder_at_start
            if grown > limits.folder_bytes:
                return self._stop("files", f"wrote more than {limits.folder_bytes:,} bytes of "
                                           "files in its folder")
        return self._check_safety_nets()

    def _check_safety_nets(self) -> bool:
        """The real-time nets, counted without the time the run waited for a CPU (or was
        paused while another run of the program took its turn)."""
        if self._paused_at is not None:
            return True
        self._note_starvation()
        limits = self.limits
        if self._past(self.started, 0.0, limits.wall_net):
            return self._stop("wall", f"was still running after {limits.wall_net:g} s of real "
                              "time", grader_problem=True)
        if self._last_activity >= self._cpu_moved_at:
            quiet_since, starved_then = self._last_activity, self._starved_at_activity
        else:
            quiet_since, starved_then = self._cpu_moved_at, self._starved_at_cpu_move
        if self._past(quiet_since, starved_then, limits.idle_seconds):
            return self._stop("idle", f"waited {limits.idle_seconds:g} s of real time without "
                              "printing, asking for input or computing anything",
                              grader_problem=True)
        return True

    def _past(self, since: float, starved_then: float, seconds: float) -> bool:
        """``seconds`` of real time have gone by since ``since``, not counting the time this
        run waited for a CPU since then (``starved_then``: the count at ``since``); on a
        machine so busy that even that does not come, MAX_STRETCH times ``seconds``."""
        elapsed = time.monotonic() - since
        if elapsed <= seconds:
            return False
        if HAVE_SCHEDSTAT:
            unstarved = elapsed - (self.starved_seconds - starved_then)
        else:
            unstarved = elapsed / load_stretch()
        return unstarved > seconds or elapsed > seconds * MAX_STRETCH

    def _note_starvation(self) -> None:
        """Add the time the run's processes and the grader's thread driving it (the one
        calling) waited for a CPU since the last reading (read every 0.2 s at most)."""
        now = time.monotonic()
        if not HAVE_SCHEDSTAT or now - self._starved_read_at < 0.2:
            return
        self._starved_read_at = now
        added = 0.0
        thread = threading.get_native_id()
        waited = run_queue_seconds("/proc/thread-self/schedstat")
        if waited is not None:
            if self._thread_waited is not None and self._thread_waited[0] == thread:
                added += max(0.0, waited - self._thread_waited[1])
            self._thread_waited = (thread, waited)
        proc = self._proc
        if proc is not None:
            tree = tree_waited_seconds(proc.pid)
            added += max(0.0, tree - self._tree_waited)
            self._tree_waited = max(self._tree_waited, tree)
        # the two may wait at the same time: never more than the run's real time
        self.starved_seconds = min(self.starved_seconds + added, now - self.started)

    def _check_cpu(self, now: float) -> bool:
        """The CPU verdicts: too much CPU for the run, or CPU spent without any activity."""
        if now - self._cpu_read_at < 0.02:
            return True
        self._cpu_read_at = now
        cpu = self._read_cpu()
        if self._cpu_at_activity is None:
            self._cpu_at_activity = cpu
        if cpu >= self.limits.cpu_seconds:
            return self._stop("cpu", self._cpu_message())
        stuck, again = self._stuck_seconds()
        if cpu - self._cpu_at_activity >= stuck:
            if self.owner is not None:
                with _meter_lock:
                    _stuck_owners.add(self.owner)
            because = " Another run of this program was stuck already, so the grader " \
                "waited less this time" if again else ""
            return self._stop("stuck", f"computed for {stuck:g} CPU seconds without printing, "
                                       f"asking or rolling anything (an endless loop?{because})",
                              shorter_limit=again)
        self._take_turns(cpu - self._cpu_at_activity)
        return True

    def _take_turns(self, silence: float) -> None:
        """Runs of one submission computing silently take turns.

        Interpretation: once a run has computed for ``stuck_again_cpu_seconds`` without
        printing, asking or rolling, it goes on only if no other run of the same submission
        is doing so; otherwise it is paused (SIGSTOP) until that run's verdict. Stuck: the
        program is known to loop, and the paused run is judged with the shorter limit at
        once. Active again or ended: the paused run resumes where it was. So a program stuck
        in every game pays the full limit once, not once per game played side by side, and a
        slow but correct program gets the same verdicts as if its runs were made one by one.
        Paused time is not real time for the safety nets."""
        again = self.limits.stuck_again_cpu_seconds
        if again is None or self.owner is None or self._call_allowance > 0 or \
                self._proc is None or silence < again:
            return
        with _meter_lock:
            holder = _silent_turn.get(self.owner)
            # a holder nobody is looking at (its thread waits elsewhere) gives up its turn
            if holder is None or holder is self or holder._proc is None or \
                    time.monotonic() - holder._cpu_read_at > TURN_UNWATCHED:
                _silent_turn[self.owner] = holder = self
        if holder is self:
            self._resume()
        elif self._paused_at is None:
            self._signal_tree(signal.SIGSTOP)
            self._paused_at = time.monotonic()

    def _end_turn(self) -> None:
        """This run is no longer computing silently: another may take its turn."""
        if self.owner is not None and _silent_turn.get(self.owner) is self:
            with _meter_lock:
                if _silent_turn.get(self.owner) is self:
                    del _silent_turn[self.owner]
        self._resume()

    def _resume(self) -> None:
        """Continue a paused run; the real time it was paused is not counted by the nets."""
        if self._paused_at is None:
            return
        paused = time.monotonic() - self._paused_at
        self._paused_at = None
        self.started += paused
        self._last_activity += paused
        self._cpu_moved_at += paused
        self._signal_tree(signal.SIGCONT)

    def _signal_tree(self, signum: int) -> None:
        """Signal the process started and every process below it (a sandbox's processes end
        with it anyway; without one, this reaches children that left the process group)."""
        proc = self._proc
        if proc is None:
            return
        for pid in [proc.pid] + process_tree(proc.pid)[1:]:
            try:
                os.kill(pid, signum)
            except (ProcessLookupError, PermissionError):
                pass

    def _stuck_seconds(self) -> tuple[float, bool]:
        """CPU seconds of silence that make this run stuck, and whether the shorter limit for
        a submission already seen stuck applies.

        Interpretation: a program found in an endless loop once is judged again sooner
        (``Limits.stuck_again_cpu_seconds``). A game that is not stuck prints, asks or rolls
        within hundredths of a CPU second, so the shorter limit costs no marks a TA would give,
        while a program stuck in every game no longer costs the full limit in each of them.
        A batch of function calls keeps its own allowance (each call has its own timer)."""
        stuck, again = self.limits.stuck_cpu_seconds, self.limits.stuck_again_cpu_seconds
        shorter = again is not None and again < stuck and self.owner is not None \
            and self.owner in _stuck_owners
        if shorter:
            stuck = again
        if self._call_allowance > stuck:
            return self._call_allowance, False
        return stuck, shorter

    def _cpu_message(self) -> str:
        return f"used more than {self.limits.cpu_seconds:g} CPU seconds in one run (an " \
               "endless loop, or far more work than the assignment needs?)"

    def _read_cpu(self, whole: bool = False) -> float:
        """Read the program's CPU seconds (the run's real time where /proc is missing);
        ``whole``: look for new processes of the run first."""
        proc = self._proc                # another thread may close the run meanwhile
        if proc is None:
            return self._cpu
        now = time.monotonic()
        if whole or now - self._tree_read_at >= TREE_EVERY:
            # the processes of the run, found again now and then (each walk reads every
            # thread's list of children); in between only their own counts are read
            self._tree_read_at = now
            self._tree_pids = process_tree(proc.pid)
        cpu = None
        for pid in self._tree_pids:
            used = process_cpu_seconds(pid)
            if used is not None:
                cpu = (cpu or 0.0) + used
        if cpu is None:             # no /proc: real time stands in; process gone: keep the last
            cpu = self._cpu if _HAVE_PROC else time.monotonic() - self.started
        self._count_cpu(cpu)
        return self._cpu

    def _count_cpu(self, cpu: float) -> None:
        """Take a reading of the run's CPU seconds: the count only ever grows."""
        if cpu > self._cpu:
            self._cpu_moved_at = time.monotonic()
            self._starved_at_cpu_move = self.starved_seconds
            self._cpu = cpu

    def _take_reported_cpu(self, reported) -> None:
        """The CPU seconds the program reported as it ended. The processes around it may be
        reaped before the last read (a short run on a busy machine then looked free); as the
        count only grows, a program reporting less than was measured gains nothing."""
        if isinstance(reported, (int, float)) and math.isfinite(reported):
            self._count_cpu(float(reported))

    def _stop(self, reason: str, message: str, grader_problem: bool = False,
              shorter_limit: bool = False) -> bool:
        """End the run on a limit. ``grader_problem``: a wall-clock safety net, which says
        nothing about the program (the machine may have been overloaded). ``shorter_limit``:
        stuck after another run of the program was (``stuck_again_cpu_seconds``)."""
        self.stopped_by = reason
        self.outcome = {"status": "limit", "limit": reason, "error": message}
        if shorter_limit:
            self.outcome["shorter_limit"] = True
        if grader_problem:
            self.outcome["grader_problem"] = True
            self.outcome["error"] = message + "; this is a safety limit of the grader, not a " \
                "verdict on the program, and a TA will look at it"
            with _meter_lock:
                _grader_problems.append((self.owner, f"a run was stopped by the grader's "
                                                     f"safety limit: it {message}"))
        self.log.append(Event("limit", self.outcome["error"], {"limit": reason}))
        self.close()
        return False

    def _read_output(self) -> int:
        try:
            data = os.read(self._proc.child_fd, 65536)
        except OSError:          # EIO: the terminal's other side is closed
            return 0
        if data:
            self.output_bytes += len(data)
            self._active()
            text = self._decoder.decode(data)
            if self.log and self.log[-1].kind == "out":
                # joined in a local variable, which CPython grows in place: adding to the
                # attribute copied all the output so far at every read (a flood of 1.5 MB
                # took 0.2 CPU-s per run)
                event = self.log[-1]
                joined, event.text = event.text, ""
                joined += text
                event.text = joined
            else:
                self.log.append(Event("out", text))
            self._shown_output(data)
        return len(data)

    def _shown_output(self, data: bytes) -> None:
        """Output just read, for a subclass that shows it as well (a replay's screen)."""

    def _drain_output(self, wait: float) -> None:
        if self._proc is None:
            return
        deadline = time.monotonic() + wait
        while True:
            ready, _, _ = select.select([self._proc.child_fd], [], [],
                                        max(0.0, deadline - time.monotonic()))
            if not ready or not self._read_output():
                return

    def _sync_output(self, expected: int) -> None:
        """Read the terminal until it has delivered what the child wrote before the event."""
        # The bytes are already in the terminal's buffer: this waits only while the grader
        # itself gets no CPU (a busy machine), so the deadline is a generous safety net
        # (counted without the time spent waiting for a CPU); what the grader reads (a
        # prompt's wording) must not depend on the machine's load.
        since, starved_then = time.monotonic(), self.starved_seconds
        while self._proc is not None and self.output_bytes < expected:
            self._note_starvation()
            if self._past(since, starved_then, 15.0):
                with _meter_lock:
                    _grader_problems.append((self.owner, "the terminal did not deliver what a "
                                             "program printed within 15 s (a safety limit of "
                                             "the grader): its screen may be incomplete"))
                break
            ready, _, _ = select.select([self._proc.child_fd], [], [], 0.02)
            if ready and not self._read_output():
                break

    def _read_events(self) -> None:
        try:
            data = os.read(self._events_fd, 65536)
        except OSError:
            data = b""
        if not data:
            self._events_open = False
            return
        self._active()
        self._event_buffer += data
        self._event_bytes += len(data)
        *lines, self._event_buffer = self._event_buffer.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if _valid_event(event):
                if event["ev"] == "draw":
                    self._draw_stack(event)
                self._pending.append(event)
        # the side channel is written by code inside the student's process: a program that
        # floods it is stopped like one that floods the screen
        if len(self._event_buffer) > MAX_EVENT_LINE or \
                self._event_bytes > max(4 * self.limits.output_bytes, 4_000_000):
            self._event_buffer = b""
            self._pending.clear()
            self._stop("output", "wrote too much on the grader's side channel (its own "
                                 "events are far shorter)")

    def _draw_stack(self, event: dict) -> None:
        """A draw event made from the same place as the draw before it says so instead of
        sending its stack again (see kitboot): it gets the stack that event carried."""
        if event.pop("same_stack", None) is True and "stack" not in event:
            event["stack"] = self._last_draw_stack
        else:
            self._last_draw_stack = event.get("stack", [])

    def _answer_draw(self, event: dict) -> None:
        self.draw_count += 1
        if self.draw_count > self.limits.max_draws:
            self.reply({"value": None})
            self._stop("draws", f"made more than {self.limits.max_draws:,} random draws "
                                "(an endless loop?)")
            return
        try:
            value, faces = self.policy.answer(event)
        except Exception:     # noqa: BLE001 - a forged request (the boot file sends valid ones)
            self.reply({"value": None})         # the program's own generator answers
            return
        reply = {"value": value}
        names = list(getattr(self.policy, "names", None) or [])
        if names and names != self._sent_names:
            reply["names"] = self._sent_names = names    # the child then reports only these
        self.reply(reply)
        data = {"fn": event.get("fn"), "req": event.get("req", {}), "value": value,
                "faces": faces, "stack": event.get("stack", []), "kit": event.get("kit")}
        self.log.append(Event("draw", "", data))
        self.policy.record(event, value, faces)         # typed draw, for the observers
        if self.policy.enough:
            self._stop("enough", "had played every round the scenario needed")

    # ------------------------------------------------------------------ results
    @property
    def elapsed(self) -> float:
        """Real seconds the run took (for information only: no verdict depends on it)."""
        return (self.ended or time.monotonic()) - self.started

    @property
    def program_pid(self) -> int | None:
        """The process running the student's interpreter (below bwrap when sandboxed)."""
        if self._proc is None:
            return None
        tree = process_tree(self._proc.pid)
        return tree[-1] if self.isolation and self.isolation.active else tree[0]

    @property
    def cpu_seconds(self) -> float:
        """CPU seconds the program has used (final once the run has ended)."""
        return self._read_cpu() if self._proc is not None else self._cpu

    @property
    def grader_problem(self) -> bool:
        """The run was ended by a wall-clock safety net: nothing may be held against it."""
        return bool(self.outcome.get("grader_problem"))
