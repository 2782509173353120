"""The harness: runs one student program in its own process under a pseudo-terminal.

The child is started with ``kitboot.py`` (see ``boot/``), which announces every prompt and random
draw on a side channel. The harness reads the terminal and the side channel in order, answers
random draws through a draw policy, enforces time, memory and output limits, and keeps an
ordered event log: output, draws, prompts, answers, exit.
"""
from __future__ import annotations

import codecs
import json
import os
import select
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import ptyprocess

from . import pythons
from .draws import DrawPolicy

BOOT = Path(__file__).with_name("boot") / "kitboot.py"
KIT_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Limits:
    """Resource limits for one run; defaults suit a console game."""

    wall_seconds: float = 6.0     # the whole run, start to end
    idle_seconds: float = 1.5     # no output and no prompt: the program is stuck
    cpu_seconds: int = 6
    memory_mb: int = 768
    output_bytes: int = 1_500_000
    file_bytes: int = 8_000_000
    max_draws: int = 5_000        # random draws: far more than any game needs


@dataclass
class Event:
    """One entry of the ordered event log."""

    kind: str                      # out, input, answer, eof, draw, exit, note, system, limit
    text: str = ""
    data: dict = field(default_factory=dict)


class _Spawn(pexpect.spawn):
    """pexpect.spawn that keeps the side-channel pipes open in the child."""

    def __init__(self, *args, pass_fds=(), **kwargs):
        self._pass_fds = tuple(pass_fds)
        super().__init__(*args, **kwargs)

    def _spawnpty(self, args, **kwargs):
        return ptyprocess.PtyProcess.spawn(args, pass_fds=self._pass_fds, **kwargs)


def prepare_workdir(files, extra: dict[str, str] | None = None) -> Path:
    """A fresh private folder holding copies of the submission's files.

    ``files`` is a list of paths, or a mapping of the name to use -> original path.
    """
    workdir = Path(tempfile.mkdtemp(prefix="kit-run-"))
    named = files.items() if isinstance(files, dict) else ((Path(p).name, p) for p in files)
    for name, path in named:
        path = Path(path)
        if path.is_file() and path.stat().st_size <= 2_000_000:
            shutil.copy2(path, workdir / name)
    for name, text in (extra or {}).items():
        (workdir / name).write_text(text)
    return workdir


class Child:
    """One run of a student program: start it, then read events until it waits or ends."""

    def __init__(self, target: Path, *, workdir: Path, policy: DrawPolicy | None = None,
                 limits: Limits | None = None, args: list[str] | None = None,
                 mode: str = "program", deny: list[Path] | None = None,
                 python: str | None = None, module: str = "submission",
                 env: dict[str, str] | None = None, paths: list[Path] | None = None):
        self.target = Path(target)
        self.workdir = Path(workdir)
        self.policy = policy or DrawPolicy()
        self.limits = limits or Limits()
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
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._event_buffer = b""
        self._pending: list[dict] = []
        self._events_open = True
        self._proc: _Spawn | None = None

    # ------------------------------------------------------------------ life cycle
    def start(self) -> "Child":
        events_r, events_w = os.pipe()
        replies_r, replies_w = os.pipe()
        os.set_inheritable(events_w, True)
        os.set_inheritable(replies_r, True)
        config = {"event_fd": events_w, "reply_fd": replies_r, "workdir": str(self.workdir),
                  "target": str(self.target), "deny": self.deny, "args": self.args,
                  "mode": self.mode, "module": self.module, "seed": self.policy.seed,
                  "paths": self.paths,
                  "limits": {"cpu": self.limits.cpu_seconds, "memory_mb": self.limits.memory_mb,
                             "file_bytes": self.limits.file_bytes}}
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.workdir),
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "COLUMNS": "120",
               "LINES": "50", **self.extra_env}
        self.started = time.monotonic()
        try:
            self._proc = _Spawn(self.python, ["-I", "-X", "utf8", str(BOOT), json.dumps(config)],
                                cwd=str(self.workdir), env=env, echo=False,
                                dimensions=(50, 120), pass_fds=(events_w, replies_r),
                                encoding=None)
        finally:
            os.close(events_w)
            os.close(replies_r)
        # pexpect and ptyprocess sleep 0.1 s after close/terminate by default; the whole
        # process group is killed with SIGKILL instead, so no grace time is needed.
        for obj in (self._proc, self._proc.ptyproc):
            obj.delayafterclose = obj.delayafterterminate = 0
        self._events_fd = events_r
        self._replies_fd = replies_w
        self._last_activity = self.started
        return self

    def close(self) -> None:
        """Kill the whole process group and release the pipes (safe to call twice)."""
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
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

    @property
    def running(self) -> bool:
        return self._proc is not None and not self.outcome

    # ------------------------------------------------------------------ talking
    def send_line(self, text: str) -> None:
        """Type one line of input (our answer) into the program's terminal."""
        self.log.append(Event("answer", text))
        self._write_tty((text + "\n").encode("utf-8"))

    def send_eof(self) -> None:
        self.log.append(Event("eof"))
        self._write_tty(b"\x04")

    def reply(self, obj: dict) -> None:
        """Answer a request on the side channel (draw values, function calls)."""
        try:
            os.write(self._replies_fd, (json.dumps(obj) + "\n").encode("utf-8"))
        except OSError:
            pass

    def _write_tty(self, data: bytes) -> None:
        if self._proc is not None:
            try:
                os.write(self._proc.child_fd, data)
            except OSError:
                pass
        self._last_activity = time.monotonic()

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
                    self.outcome = event
                    self.log.append(Event("exit", event.get("status", ""), event))
                    self._drain_output(0.01)     # output was already synced by byte count
                    self.close()
                    return None
                if event["ev"] == "input":
                    self.log.append(Event("input", event.get("prompt", ""), event))
                return event
            if not self._events_open:
                self._drain_output(0.05)
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
        if now - self.started > self.limits.wall_seconds:
            return self._stop("time", f"ran for more than {self.limits.wall_seconds:g} s")
        if now - self._last_activity > self.limits.idle_seconds:
            return self._stop("idle", f"printed nothing and asked for nothing for "
                                      f"{self.limits.idle_seconds:g} s (an endless loop?)")
        fds = [self._proc.child_fd, self._events_fd]
        ready, _, _ = select.select(fds, [], [], 0.05)
        if self._proc.child_fd in ready:
            self._read_output()
        if self._events_fd in ready:
            self._read_events()
        if self.output_bytes > self.limits.output_bytes:
            return self._stop("output", f"printed more than {self.limits.output_bytes:,} bytes")
        return True

    def _stop(self, reason: str, message: str) -> bool:
        self.stopped_by = reason
        self.outcome = {"status": "limit", "limit": reason, "error": message}
        self.log.append(Event("limit", message, {"limit": reason}))
        self.close()
        return False

    def _read_output(self) -> int:
        try:
            data = os.read(self._proc.child_fd, 65536)
        except OSError:          # EIO: the terminal's other side is closed
            return 0
        if data:
            self.output_bytes += len(data)
            self._last_activity = time.monotonic()
            text = self._decoder.decode(data)
            if self.log and self.log[-1].kind == "out":
                self.log[-1].text += text
            else:
                self.log.append(Event("out", text))
        return len(data)

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
        deadline = time.monotonic() + 0.25
        while self._proc is not None and self.output_bytes < expected \
                and time.monotonic() < deadline:
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
        self._last_activity = time.monotonic()
        self._event_buffer += data
        *lines, self._event_buffer = self._event_buffer.split(b"\n")
        for line in lines:
            try:
                self._pending.append(json.loads(line))
            except ValueError:
                continue

    def _answer_draw(self, event: dict) -> None:
        self.draw_count += 1
        if self.draw_count > self.limits.max_draws:
            self.reply({"value": None})
            self._stop("draws", f"made more than {self.limits.max_draws:,} random draws "
                                "(an endless loop?)")
            return
        value, faces = self.policy.answer(event)
        reply = {"value": value}
        names = list(getattr(self.policy, "names", None) or [])
        if names and names != self._sent_names:
            reply["names"] = self._sent_names = names    # the child then reports only these
        self.reply(reply)
        data = {"fn": event.get("fn"), "req": event.get("req", {}), "value": value,
                "faces": faces, "stack": event.get("stack", []), "kit": event.get("kit")}
        self.log.append(Event("draw", "", data))
        if self.policy.enough:
            self._stop("enough", "had played every round the scenario needed")

    # ------------------------------------------------------------------ results
    @property
    def elapsed(self) -> float:
        return (self.ended or time.monotonic()) - self.started
