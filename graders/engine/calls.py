"""Calling a student's functions directly, in a sandboxed child process.

    with FunctionCalls(submission_main, workdir) as calls:
        results = calls.run([{"id": 1, "func": "has_pair", "args": [[5, 5, 9]]}, ...])

Each call spec may give ``func`` + ``args``/``kwargs``, or ``code`` (grader code run with the
student's module as ``m``; it sets ``result``), plus ``patch`` (module functions replaced by
scripted return values, e.g. ``{"deal": [[14, 9, 4], [5, 5, 2]]}``), ``spy`` (module functions
whose calls are recorded), ``inputs`` (lines for ``input()``), ``timeout`` (CPU seconds, default 1),
``args_after`` (report the arguments after the call, to spot in-place changes), ``group``
(after a call of a group hangs, the group's remaining calls are not run: they fail with
``error == "skipped"``, so one endless loop costs one timeout, not one per call).

Each result has ``id``, ``ok``, ``value`` (JSON-able; other objects as ``{"repr", "type"}``),
``error``/``message``/``traceback`` when it raised, ``stdout`` (what the call printed),
``spies``, and ``remaining_inputs``. Values nested deeper than four levels come back as
``{"repr", "type"}``. A call that loops forever fails with ``error ==
"timeout"``; the child is then restarted so the next calls still run.

The module is loaded once per child (not as ``__main__``), one top-level statement at a time
(``kitboot._load_module``): a statement that fails is skipped, so a game loop or a failing
test at the top level does not hide the functions. ``input()`` at import gets answers that end
a game (fold, no, quit), then the end of input; a module that is not installed (a course's
testing library such as ``bakery``) gets a stand-in. ``load`` says what happened (``asked``,
``problems``, ``stubbed``, ``printed``, ``skipped``, ``stuck``). A statement that does not stop
at all is skipped in a fresh child; after MAX_STUCK such statements only definitions (functions,
classes, imports, constants) are loaded. ``import_error`` is set only when even that fails
(a syntax error, or a top-level import that fails, as it fails the program).
"""
from __future__ import annotations

from pathlib import Path

from .draws import DrawPolicy
from .harness import Child, Limits

MAX_STUCK = 3       # top-level statements skipped one by one before loading definitions only


class FunctionCalls:
    """A child process holding the imported student module, answering batches of calls."""

    def __init__(self, target: Path, workdir: Path, module: str = "submission",
                 policy: DrawPolicy | None = None, limits: Limits | None = None,
                 paths: list[Path] | None = None):
        self.target, self.workdir, self.module = Path(target), Path(workdir), module
        self.paths = paths
        self.policy = policy
        self.limits = limits or Limits(cpu_seconds=120)
        self.child: Child | None = None
        self.import_error: str | None = None
        self.restarts = 0
        self.load: dict = {}                    # how the module was loaded (see above)
        self.stuck: list[dict] = []             # statements skipped because they did not stop
        self._definitions_only = False
        self._cpu_stopped: list[int] = []

    def __enter__(self) -> "FunctionCalls":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self) -> bool:
        """Start a child and load the module; False (with ``import_error``) when it cannot."""
        while True:
            # statements that never stopped, or that were stopped after their CPU time in
            # the first load (not worth that time again in every fresh child)
            skip = [s["line"] for s in self.stuck if s["line"]] + self._cpu_stopped
            env = {"KIT_LOAD_SKIP": ",".join(map(str, skip))}
            if self._definitions_only:
                env["KIT_LOAD"] = "definitions"
            self.child = Child(self.target, workdir=self.workdir, policy=self.policy,
                               limits=self.limits, mode="calls", module=self.module,
                               paths=self.paths, env=env).start()
            line, event = None, self.child.next_event()
            while event is not None and event.get("ev") == "load":
                line, event = event.get("line"), self.child.next_event()
            if event is not None and event.get("ev") == "ready":
                if not self.load:               # the first load; later ones skip more
                    self.load = dict(event.get("load") or {})
                    self._cpu_stopped = [problem["line"] for problem in
                                         self.load.get("problems", [])
                                         if problem.get("stopped")]
                self.load["stuck"] = list(self.stuck)
                return True
            outcome = dict(self.child.outcome)
            self.close()
            why = outcome.get("error") or outcome.get("status") or "it did not start"
            if outcome.get("status") == "import-error" or self._definitions_only:
                self.import_error = why
                return False
            # The load did not finish: skip the statement it was running, in a fresh child.
            line = outcome.get("line", line) if event is None else None
            stuck = {"line": line, "why": why, "asked": outcome.get("asked") or 0,
                     "printed": outcome.get("printed") or ""}
            if line is None or len(self.stuck) >= MAX_STUCK:
                self._definitions_only = True
                stuck["line"] = None
            self.stuck.append(stuck)

    def run(self, specs: list[dict], timeout: float = 1.0) -> list[dict]:
        """Run the calls in order; a call that hangs or kills the child fails alone."""
        results: list[dict] = []
        pending = [dict(spec) for spec in specs]
        for spec in pending:
            spec.setdefault("timeout", timeout)
        hung: set = set()
        while pending:
            skipped = [s for s in pending if s.get("group") is not None and s["group"] in hung]
            if skipped and skipped[0] is pending[0]:
                results.append(_failed(pending[0], "skipped", "not run: an earlier call of "
                                       "the same function did not return"))
                pending = pending[1:]
                continue
            if hung:
                cut = next((i for i, s in enumerate(pending)
                            if s.get("group") is not None and s["group"] in hung), len(pending))
            else:
                cut = len(pending)
            if self.child is None or not self.child.running:
                if self.import_error or not self._start():
                    results += [_failed(s, "import", self.import_error or "") for s in pending]
                    return results
            self.child.reply({"calls": pending[:cut]})
            event = self.child.next_event()
            if event is None or event.get("ev") != "result":
                reason = self.child.outcome.get("error") or "the program stopped"
                results.append(_failed(pending[0], "died", reason))
                pending = pending[1:]
                self.close()
                self.restarts += 1
                continue
            batch = event.get("results", [])
            results += batch
            pending = pending[len(batch):]
            if batch and batch[-1].get("error") == "timeout":
                if batch[-1].get("id") is not None:
                    group = next((s.get("group") for s in specs if s.get("id") ==
                                  batch[-1]["id"]), None)
                    if group is not None:
                        hung.add(group)
                self.close()             # the module may be in a broken state: start afresh
                self.restarts += 1
        return results

    def close(self) -> None:
        if self.child is not None:
            self.child.reply({"calls": []})
            self.child.close()
            self.child = None


def _failed(spec: dict, error: str, message: str) -> dict:
    return {"id": spec.get("id"), "ok": False, "error": error, "message": message,
            "stdout": "", "spies": {}}
