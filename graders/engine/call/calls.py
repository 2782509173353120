"""Calling a student's functions directly, in a sandboxed child process.

The usual way is a list of :class:`Case` objects, checked in one child::

    with FunctionCalls(folder / "poker.py", folder, budget=budget) as calls:
        cases = [Case("has_pair([5, 5, 9])", True, "a pair is two cards of one rank"), ...]
        score(result, calls.check(cases))                 # requirements.score

A case's ``call`` is written as Python but only read, never run: the function's name and
literal arguments are taken from it. ``Kit(function, *args)`` instead runs one of the kit's
own functions in the child with the student's module as its first argument (for probes that
look at classes and objects). ``swap={"has_pair": rules.has_pair}`` (or a module path,
``"graders.tcp.rules:has_pair"``) replaces named helpers of the student's module with the
kit's own functions during the call, so a function can be judged without its helpers' bugs
(``Deep(rules.has_pair)``: the student's function object gets the kit's code, for helpers
reached through tables built at import).

Interpretation of "nothing of the kit's within the student's reach": a kit function lent to
the child (``Kit``, ``swap``) goes as the source of that function and of what it uses from its
module, and nothing else of the module (``lent_source``); the child runs it in a namespace of
its own, under the file name ``<kit>``: no file in the run folder, no module in
``sys.modules``, no source a function could read back. Calls with swapped helpers are made in
a child of their own for each set of helpers (from a fresh copy of the run folder), so nothing
lent for them is within reach of any other call (see ``_route`` for the kit's own drivers).
(The standard library only.)

``run_cases`` fills in each case's ``outcome``; cases of one ``group`` (by default the
function called) are given up once one of them hangs or kills the child: one endless loop
costs one timeout, not one per case. ``check`` also compares each value with ``expected``
and returns :class:`~graders.engine.judge.requirements.Requirement` objects. ``call_problem``
words what went wrong with a call, in one place for every grader.

The lower level, ``run(specs)``, takes dicts: ``func`` + ``args``/``kwargs``, ``code``
(grader code run with the student's module as ``m``; it sets ``result``), ``kit`` ([module,
function]: a lent kit function given the module), ``defined`` (names: which are callable),
``each`` (a list of argument lists, as a list or as marshal bytes in hex: the
function over all of them in the child, answered in the compact form ``kitboot._each``
describes), ``patch`` (module functions replaced by scripted return values), ``swap``
({name: [module, function]}), ``spy`` (module functions whose calls are recorded),
``inputs`` (lines for ``input()``), ``timeout`` (CPU seconds, default 1), ``args_after``
(report the arguments after the call and whether one of them was returned), ``group``.
Each result has ``id``, ``ok``, ``value`` (JSON-able; other objects as ``{"repr", "type"}``),
``type`` (the returned value's type name), ``error``/``message``/``traceback`` when it raised,
``stdout``, ``spies``, ``timeline`` (scripted, spied and input calls in order, with how much
had been printed) and ``remaining_inputs``. A call that loops forever fails with ``error ==
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

import ast
import builtins
import functools
import hashlib
import importlib
import inspect
import sys
import tempfile
import textwrap
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..judge.diagnose import MAIN_GUARD
from ..run.draws import DrawPolicy
from ..run import forkserver
from ..run.files import remove_folder
from ..run.harness import Child, Limits
from ..judge.requirements import Requirement, listed, shown
from ..run.static import TESTING_LIBRARIES

MAX_STUCK = 3       # top-level statements skipped one by one before loading definitions only
CHUNK = 400         # cases per batch; a batch must answer within the harness's idle limit
UNCHECKED = object()    # Case.expected when the grader judges the outcome itself


class Kit:
    """A kit function run in the child as ``function(student_module, *args)``."""

    def __init__(self, function: Callable, *args):
        self.function, self.args = function, list(args)

    def __str__(self) -> str:
        return f"{self.function.__name__}({', '.join(map(repr, self.args))})"


@dataclass(frozen=True)
class Raises:
    """What a case expects when the call must raise: ``Case("f('x')", Raises("ValueError"))``."""

    error: str                    # the exception's class name


@dataclass
class Case:
    """One call of a student function: what is called, what it must return and why.

    ``call`` is Python text such as ``"has_pair([5, 5, 9])"`` (read, never run) or a
    :class:`Kit`. ``subject`` is whatever the grader wants back with the outcome (a hand, a
    scenario); ``size`` orders failures (smallest first) when several are reported.
    """

    call: str | Kit
    expected: Any = UNCHECKED
    why: str = ""
    size: int = 0
    subject: Any = None
    group: str | None = None
    patch: dict | None = None
    spy: tuple = ()
    inputs: tuple = ()
    swap: dict | None = None
    timeout: float | None = None
    args_after: bool = False
    outcome: dict = field(default_factory=dict)

    @property
    def function(self) -> str:
        """The name of the function called (a kit function's own name for Kit calls)."""
        if isinstance(self.call, Kit):
            return self.call.function.__name__
        return parse_call(self.call)[0]

    @property
    def hung(self) -> bool:
        """The call did not return in time, or took the process down (or the grader's safety
        net stopped the process: ``error`` "safety", not judged)."""
        return self.outcome.get("error") in ("timeout", "died", "safety")

    @property
    def skipped(self) -> bool:
        """The call was not made (an earlier call of its group hung, or no budget was left)."""
        return self.outcome.get("error") in ("skipped", "budget")

    @property
    def value(self):
        """What the call returned (None when it did not return)."""
        return self.outcome.get("value") if self.outcome.get("ok") else None

    @property
    def problem(self) -> str | None:
        """What went wrong with the call, in words (None when it returned)."""
        return call_problem(self.outcome, str(self.call), self.timeout or 1.0)

    def requirement(self, compare: Callable[[Any, Any], bool] | None = None) -> Requirement:
        """The case judged: it returned ``expected`` (see ``same``) or raised the
        ``Raises`` expected, or what it did instead."""
        problem, raises = self.problem, isinstance(self.expected, Raises)
        expected = None if self.expected is UNCHECKED else \
            f"raise {self.expected.error}" if raises else shown(self.expected)
        if raises and self.outcome.get("error") == self.expected.error:
            return Requirement(True, str(self.call), expected, problem, self.why, self.size)
        if problem:
            actual = problem.removeprefix(str(self.call)).strip()
            if self.outcome.get("traceback"):
                actual += "\n\n" + self.outcome["traceback"]
            return Requirement(False, str(self.call), expected, actual, self.why, self.size)
        ok = self.expected is UNCHECKED or not raises and \
            (compare or same)(self.value, self.expected)
        return Requirement(ok, str(self.call), expected, "returned " + shown(self.value),
                           self.why, self.size)


def parse_call(text: str) -> tuple[str, list, dict]:
    """('has_pair', [[5, 5, 9]], {}) from 'has_pair([5, 5, 9])': the name (dotted for
    'Card.random(...)') and the literal arguments. Nothing is run."""
    node = ast.parse(text.strip(), mode="eval").body
    if not isinstance(node, ast.Call):
        raise ValueError(f"not a call: {text!r}")
    parts, func = [], node.func
    while isinstance(func, ast.Attribute):
        parts.insert(0, func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        raise ValueError(f"call a function by its name: {text!r}")
    args = [ast.literal_eval(arg) for arg in node.args]
    kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}
    return ".".join([func.id] + parts), args, kwargs


def same(value, expected) -> bool:
    """Equal and of the right kind: True is not 1, a whole float counts as an int, a tuple
    (sent back as a list) equals the list of its items."""
    if isinstance(expected, bool) or isinstance(value, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(expected, int):
        return isinstance(value, (int, float)) and value == expected
    if isinstance(expected, tuple):
        return isinstance(value, list) and value == list(expected)
    return type(value) is type(expected) and value == expected


def printed_before(outcome: dict, name: str) -> tuple[str, str] | None:
    """What a call printed before its first call of the scripted or spied function ``name``
    (from the call's timeline), and the whole output with that place marked; None when
    ``name`` was not called."""
    printed = outcome.get("stdout", "")
    at = next((offset for _, called, offset in outcome.get("timeline", []) if called == name),
              None)
    if at is None:
        return None
    return printed[:at], f"{printed[:at]}[{name}() was called here]\n{printed[at:]}"


def output_at_calls(outcome: dict) -> list[tuple[str, str, str]]:
    """A call's output cut at each entry of its timeline: (kind, name, what was printed since
    the entry before) in order, kind "input" (input() called: the text ends with its prompt),
    "answered" (the text is the answer, echoed), "script" or "spy" (a scripted or spied
    function called: name); then ("end", "", the rest)."""
    printed, start, parts = outcome.get("stdout", ""), 0, []
    for kind, name, offset in outcome.get("timeline", []):
        parts.append((kind, name, printed[start:offset]))
        start = offset
    return parts + [("end", "", printed[start:])]


def call_problem(outcome: dict, call: str, timeout: float = 1.0) -> str | None:
    """What went wrong with one call, e.g. 'has_pair([2, 2, 5]) did not return within 1 s
    (an endless loop?)'; None when it returned. The one wording every grader uses."""
    error = outcome.get("error")
    if outcome.get("ok") or error is None:
        return None
    message = (outcome.get("message") or "").strip()
    if error == "timeout":
        return f"{call} did not return within {timeout:g} s (an endless loop?)"
    if error == "died":
        return f"{call} stopped the program: {message}"
    if error == "safety":
        return f"{call} could not be judged: the program {message}"
    if error == "skipped":
        return f"{call} was not run because an earlier call of the same function did not " \
               "return"
    if error == "budget":
        return f"{call} was not run: the submission's time budget was used up"
    if error == "import":
        return f"{call} could not be run because the file could not be imported"
    if error == "grader":
        return f"{call} could not be run (the grader's own helper failed: {message})"
    return f"{call} raised {error}: {message}".rstrip(": ")


def kit_reference(thing, name: str | None = None) -> tuple[str, str, Path]:
    """(module name in the child, function name, source file) for a kit function, a kit
    module (with ``name``) or 'package.module:function'."""
    if isinstance(thing, str):
        module_name, _, attr = thing.partition(":")
        module = importlib.import_module(module_name)
        attr = attr or name
    elif isinstance(thing, types.ModuleType):
        module, attr = thing, name
    else:
        module, attr = sys.modules[thing.__module__], thing.__name__
    if not attr or not callable(getattr(module, attr, None)):
        raise ValueError(f"{module.__name__} has no function {attr!r}")
    child_name = "kit_" + "_".join(module.__name__.split(".")[1:])
    return child_name, attr, Path(module.__file__)


_PLAIN = (int, float, str, bool, type(None), tuple, list, dict, set, frozenset, range, bytes)


@functools.lru_cache(maxsize=None)
def _lent_bundle(module: types.ModuleType, attr: str) -> tuple[str, str]:
    """(key, source) of what the child needs to have ``attr`` of a kit module (made once per
    grader process: the kit's files do not change while it grades)."""
    source = lent_source(module, [attr])
    return hashlib.sha256(source.encode()).hexdigest()[:16], source


def lent_source(module: types.ModuleType, names) -> str:
    """The source the child runs to have ``names`` of a kit module: those functions (or
    classes), what they use of the module (functions, classes, plain constants, in the
    module's order), and the imports they need; nothing else of the module."""
    todo, seen, imports, values, definitions = list(names), set(), [], [], []
    while todo:
        name = todo.pop()
        if name in seen or name not in vars(module):
            continue
        seen.add(name)
        thing = vars(module)[name]
        if isinstance(thing, types.ModuleType):
            imports.append(f"import {thing.__name__} as {name}")
        elif getattr(thing, "__module__", None) == module.__name__ and \
                isinstance(thing, (types.FunctionType, type)):
            source = textwrap.dedent(inspect.getsource(thing))
            definitions.append((inspect.getsourcelines(thing)[1], source))
            todo += [node.id for node in ast.walk(ast.parse(source))
                     if isinstance(node, ast.Name) and node.id not in vars(builtins)]
        elif callable(thing) and getattr(thing, "__module__", None):
            imports.append(f"from {thing.__module__} import {thing.__name__} as {name}")
        elif isinstance(thing, _PLAIN) and eval(repr(thing), {}) == thing:   # noqa: S307
            values.append(f"{name} = {thing!r}")
        else:
            raise ValueError(f"{module.__name__}.{name} cannot be lent (not plain data)")
    return "\n".join(sorted(imports) + sorted(values) +
                     [text for _, text in sorted(definitions)]) + "\n"


@dataclass(frozen=True)
class Deep:
    """A ``swap=`` helper that replaces the code of the student's function object itself, not
    only the module's name for it: references taken at import (a table of functions, a dict,
    a default argument) see the kit's code too. The kit function may return NotImplemented to
    hand a call back to the student's own code (an argument only their code understands)."""

    helper: Any


def swap_all(module, names, deep: bool = False) -> dict:
    """swap= for several helpers taken from one kit module: {name: module} (``deep``: each
    one a :class:`Deep` swap)."""
    return {name: Deep(module) if deep else module for name in names}


def swap_note(function: str, helpers, own: float, kit: float | None,
              used_kit: bool) -> str:
    """Which helpers (names, or a phrase) a function was judged with, and why (own and kit:
    the shares earned with the student's helpers and with the kit's; kit None when only the
    own were run)."""
    helpers = helpers if isinstance(helpers, str) else listed(helpers)
    if used_kit:
        return (f"{function} was judged with the kit's correct {helpers} swapped in: with "
                f"your own it earned {own:g} of the item, with the kit's {kit:g}. Mistakes in "
                "those functions are marked in their own items, not charged twice.")
    if kit is not None:
        return (f"{function} was judged with your own {helpers}. The kit's correct versions "
                f"did not do better, so the mistakes are in {function} itself.")
    return f"{function} was judged with your own {helpers}."


class FunctionCalls:
    """A child process holding the imported student module, answering batches of calls.

    ``budget`` (the submission's ``plugin.Budget``) caps each child's CPU and stops the calls
    when it is spent (they fail with ``error == "budget"``).
    """

    def __init__(self, target: Path, workdir: Path, module: str = "submission",
                 policy: DrawPolicy | None = None, limits: Limits | None = None,
                 paths: list[Path] | None = None, budget=None):
        self.target, self.workdir, self.module = Path(target), Path(workdir), module
        self.paths = paths
        self.policy = policy
        self.limits = limits or Limits(cpu_seconds=120)
        self.budget = budget
        self.child: Child | None = None
        self.import_error: str | None = None
        self.restarts = 0
        self.load: dict = {}                    # how the module was loaded (see above)
        self.stuck: list[dict] = []             # statements skipped because they did not stop
        self._definitions_only = False
        self._cpu_stopped: list[int] = []
        self._lent: dict[str, str] = {}          # key -> source of what is lent (see lend)
        self._sent: set[str] = set()             # the keys the running child has
        self._lenders: dict[frozenset, FunctionCalls] = {}   # swapped helpers -> child
        # the run folder as it is now, before anything ran: the lenders' folders copy it
        self._pristine = {entry.name: entry.read_bytes() for entry in self.workdir.iterdir()
                          if entry.is_file() and not entry.is_symlink()
                          and entry.stat().st_size <= 2_000_000} \
            if self.workdir.is_dir() else {}

    def __enter__(self) -> "FunctionCalls":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def budget_spent(self) -> bool:
        return self.budget is not None and self.budget.left <= 0

    def start(self) -> bool:
        """Start a child and load the module (done by the calls when needed); False (with
        ``import_error``) when it cannot be loaded."""
        while True:
            # statements that never stopped, or that were stopped after their CPU time in
            # the first load (not worth that time again in every fresh child)
            skip = [s["line"] for s in self.stuck if s["line"]] + self._cpu_stopped
            env = {"KIT_LOAD_SKIP": ",".join(map(str, skip))}
            if self._definitions_only:
                env["KIT_LOAD"] = "definitions"
            self._sent = set()
            self.child = Child(self.target, workdir=self.workdir, policy=self.policy,
                               limits=self.limits, mode="calls", module=self.module,
                               paths=self.paths, env=env, budget=self.budget).start()
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
                # the run folder is the kit's: the student reads file names as at home
                self.import_error = why.replace(str(self.workdir) + "/", "")
                return False
            # The load did not finish: skip the statement it was running, in a fresh child.
            line = outcome.get("line", line) if event is None else None
            stuck = {"line": line, "why": why, "asked": outcome.get("asked") or 0,
                     "printed": outcome.get("printed") or ""}
            if line is None or len(self.stuck) >= MAX_STUCK:
                self._definitions_only = True
                stuck["line"] = None
            self.stuck.append(stuck)

    def _ready(self) -> bool:
        """A child holding the module is running (started if needed)."""
        if self.child is not None and self.child.running:
            return True
        return not self.import_error and self.start()

    def defined(self, names) -> dict[str, bool] | None:
        """Which of ``names`` ('main', 'Card.random') the module defines as callables; None
        when it cannot be imported."""
        (outcome,) = self.run([{"id": 0, "defined": list(names)}])
        return outcome.get("value") if outcome.get("ok") else None

    # ------------------------------------------------------------------ cases
    def lend(self, thing, name: str | None = None) -> list[str]:
        """[key, function] for the child: the function's source and what it uses (see
        ``lent_source``), sent with the first batch that needs it."""
        _, attr, _ = kit_reference(thing, name)
        if isinstance(thing, str):
            module = importlib.import_module(thing.partition(":")[0])
        elif isinstance(thing, types.ModuleType):
            module = thing
        else:
            module = sys.modules[thing.__module__]
        key, source = _lent_bundle(module, attr)
        self._lent[key] = source
        return [key, attr]

    def spec(self, case: Case, swap: dict | None = None, timeout: float = 1.0) -> dict:
        """The call spec of a case (swap: helpers replaced for this call too)."""
        # arguments go as Python literals (JSON would turn {1: 'Ace'} into {'1': 'Ace'})
        if isinstance(case.call, Kit):
            spec = {"kit": self.lend(case.call.function),
                    "literal": repr((case.call.args, {}))}
        else:
            name, args, kwargs = parse_call(case.call)
            spec = {"func": name, "literal": repr((args, kwargs))}
        helpers = dict(swap or {}, **(case.swap or {}))
        if helpers:
            spec["swap"] = {name: self.lend(thing.helper, name) + ["deep"]
                            if isinstance(thing, Deep) else self.lend(thing, name)
                            for name, thing in helpers.items()}
        for key, value in (("patch", case.patch), ("spy", list(case.spy)),
                           ("inputs", list(case.inputs)), ("args_after", case.args_after)):
            if value:
                spec[key] = value
        spec["timeout"] = case.timeout or timeout
        return spec

    def run_cases(self, cases: list[Case], swap: dict | None = None,
                  timeout: float = 1.0) -> list[Case]:
        """Fill in every case's ``outcome``; a group is given up once one of its calls hangs
        (its other cases become 'skipped'). Returns the cases."""
        given_up: set[str] = set()
        specs = [self.spec(case, swap, timeout) for case in cases]
        for start in range(0, len(cases), CHUNK):
            self._run_chunk(list(zip(cases, specs))[start:start + CHUNK], given_up)
        return cases

    def changed_arguments(self, texts: list[str]) -> dict[str, list]:
        """Calls (Python text, literals only) that changed an argument they were given (a
        list sorted in place, say): call -> its arguments afterwards. A call that failed
        tells nothing here (its own cases say so)."""
        changed = {}
        cases = [Case(text, args_after=True, group=f"{text.split('(')[0]}/arguments")
                 for text in texts]
        for case in self.run_cases(cases):
            after = case.outcome.get("args_after") if case.outcome.get("ok") else None
            before = [ast.literal_eval(argument)
                      for argument in ast.parse(case.call, mode="eval").body.args]
            if after is not None and after != before:
                changed[case.call] = after
        return changed

    def check(self, cases: list[Case], swap: dict | None = None, timeout: float = 1.0,
              compare: Callable[[Any, Any], bool] | None = None) -> list[Requirement]:
        """Run the cases and judge each against its ``expected`` value."""
        return [case.requirement(compare) for case in self.run_cases(cases, swap, timeout)]

    def _run_chunk(self, chunk: list[tuple[Case, dict]], given_up: set[str]) -> None:
        """The calls in order, each in the child it belongs to: calls with swapped helpers in
        the child of those helpers (see the module's docstring), the others in this one."""
        start = 0
        while start < len(chunk):
            route = _route(chunk[start][1])
            end = start + 1
            while end < len(chunk) and _route(chunk[end][1]) == route:
                end += 1
            calls = self if route is None else self._lender(route)
            calls._run_here(chunk[start:end], given_up)
            start = end

    def _lender(self, route: frozenset) -> "FunctionCalls":
        """The child for one set of swapped helpers, in a fresh copy of the run folder."""
        if route not in self._lenders:
            folder = Path(tempfile.mkdtemp(prefix="kit-lent-", dir=forkserver.folder()))
            for name, data in self._pristine.items():
                (folder / name).write_bytes(data)
            lender = FunctionCalls(folder / self.target.name, folder, self.module, self.policy,
                                   self.limits, self.paths, self.budget)
            lender._lent = self._lent
            self._lenders[route] = lender
        return self._lenders[route]

    def _run_here(self, chunk: list[tuple[Case, dict]], given_up: set[str]) -> None:
        pending = _still_wanted(chunk, given_up)
        while pending:
            if self.budget_spent:
                for case, _ in pending:
                    case.outcome = _failed({}, "budget", "the time budget was used up")
                return
            if not self._ready():
                for case, _ in pending:
                    case.outcome = _failed({}, "import", self.import_error or "")
                return
            specs = [dict(spec, id=i) for i, (_, spec) in enumerate(pending)]
            wanted = {ref[0] for spec in specs for ref in
                      ([spec["kit"]] if "kit" in spec else []) +
                      list(spec.get("swap", {}).values())} - self._sent
            request = {"calls": specs}
            if wanted:
                request["lend"] = {key: self._lent[key] for key in sorted(wanted)}
                self._sent |= wanted
            self.child.reply(request)
            event = self.child.next_event()
            if event is None or event.get("ev") != "result":
                reason = self.child.outcome.get("error") or "the program stopped"
                # a real-time safety net of the grader is no verdict on the call
                error = "safety" if self.child.grader_problem else "died"
                pending[0][0].outcome = _failed({}, error, reason)
                done = pending[:1]
            else:
                done = pending[:len(event.get("results", []))]
                for (case, _), outcome in zip(done, event["results"]):
                    case.outcome = outcome
            if done and (done[-1][0].hung or "each" in done[-1][1] and
                         _each_hung(done[-1][0].outcome)):
                given_up.add(_group(*done[-1]))
                self.close()                 # start afresh: the module may be broken now
                self.restarts += 1
            pending = _still_wanted(pending[len(done):], given_up)

    # ------------------------------------------------------------------ specs
    def run(self, specs: list[dict], timeout: float = 1.0) -> list[dict]:
        """Run call specs in order; a call that hangs or kills the child fails alone (and the
        rest of its ``group``, if it has one, is skipped)."""
        cases = []
        for number, spec in enumerate(specs):
            spec = dict(spec)
            spec.setdefault("timeout", timeout)
            case = Case("spec()", group=spec.get("group", f"#{number}"), subject=spec.get("id"))
            cases.append((case, spec))
        given_up: set[str] = set()
        self._run_chunk(cases, given_up)
        return [dict(case.outcome, id=case.subject) for case, _ in cases]

    def close(self) -> None:
        for lender in self._lenders.values():
            lender.close()
            remove_folder(lender.workdir)
        self._lenders.clear()
        if self.child is not None:
            self.child.reply({"calls": []})
            self.child.close()
            self.child = None


def _route(spec: dict) -> frozenset | None:
    """The swapped helpers of a call (None: none, the calls' own child). A name that starts
    with ``kit_`` is no helper of the student's but a kit function the call adds to the
    module to drive the student's code (Poker Dice's ``kit_payout``): like a ``Kit`` call it
    is lent in the calls' own child, so the grader must lend that way only functions whose
    source (and what they use) gives nothing to score with."""
    helpers = frozenset((name, tuple(ref)) for name, ref in (spec.get("swap") or {}).items()
                        if not name.startswith("kit_"))
    return helpers or None


def _group(case: Case, spec: dict) -> str:
    return case.group or spec.get("group") or spec.get("func") or str(spec.get("kit"))


def _each_hung(outcome: dict) -> bool:
    """An ``each`` call whose last input did not return (the child must start afresh)."""
    value = outcome.get("value")
    return bool(outcome.get("ok") and isinstance(value, dict) and value.get("hung") is True)


def _still_wanted(pending: list[tuple[Case, dict]], given_up: set[str]):
    """The cases of groups still being tested; the others are marked as skipped."""
    wanted = []
    for case, spec in pending:
        if _group(case, spec) in given_up:
            case.outcome = _failed(spec, "skipped", "not run: an earlier call of the same "
                                   "function did not return")
        else:
            wanted.append((case, spec))
    return wanted


def _failed(spec: dict, error: str, message: str) -> dict:
    return {"id": spec.get("id"), "ok": False, "error": error, "message": message,
            "stdout": "", "spies": {}}


# ----------------------------------------------------------------------------- the load
# What the student's file did when it was loaded for the calls: questions asked at import (a
# game that runs when the file is imported), top-level statements that failed or never
# stopped, and modules the grader does not have, replaced by stand-ins. For a terminal run of
# the same file, ``stand_in_files`` gives those stand-ins as files of the run folder.
# The course's testing libraries: their assert functions check the student's own examples,
# so replacing them by stand-ins that do nothing changes no function.
SHOWN_STATEMENTS = 4

STUB_PREFIXES = ("assert", "check", "expect", "test", "input")
STUB_SOURCE = '''"""Stand-in for {name}, which the grader does not have: a name the program
defines itself is the program's own, assert-like functions do nothing, input-like functions
ask input(), any other name does nothing and returns None."""
import sys

__all__ = {star_names!r}
_OWN = {own!r}


def _program():
    main = sys.modules.get("__main__")
    return vars(main) if main is not None else {{}}


def _own(name):
    value = _program().get(name)
    if getattr(value, "__module__", None) == "__main__":
        return value

    def call(*args, **kwargs):
        value = _program().get(name)
        if getattr(value, "__module__", None) != "__main__":
            return None
        return value(*args, **kwargs)
    return call


def _quiet(*args, **kwargs):
    return None


def _ask(*args, **kwargs):
    prompt = kwargs.get("prompt")
    if not isinstance(prompt, str):
        prompt = next((arg for arg in args if isinstance(arg, str)), "")
    return input(prompt)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _OWN:
        return _own(name)
    if name.lower().startswith(("assert", "check", "expect", "test")):
        return _quiet
    if name.lower().startswith("input"):
        return _ask
    return _quiet
'''


def star_names(source: str) -> list[str]:
    """The assert-like and input-like names a file uses without defining them: what a
    stand-in must give to ``from bakery import *``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    bound, loaded = set(dir(builtins)), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).partition(".")[0])
    return sorted(name for name in loaded - bound if name.lower().startswith(STUB_PREFIXES))


def defined_names(source: str) -> set[str]:
    """Functions and classes a file defines at its top level (inside if/try blocks too; the
    stand-ins give these the file's own definitions, as ``kitboot._defined_names`` does)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names, todo = set(), list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend(getattr(node, block, None) or ())
    return names


def names_taken(source: str, modules) -> dict[str, set[str] | None]:
    """module -> the names a file takes from it (``from m import a``, ``m.a``); None for
    ``from m import *`` (any name)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    taken: dict[str, set[str] | None] = {module: set() for module in modules}
    aliases = {}                                   # name bound in the file -> module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] in taken:
            module = node.module.partition(".")[0]
            names = {alias.name for alias in node.names}
            if "*" in names or taken[module] is None:
                taken[module] = None
            else:
                taken[module] |= names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] in taken:
                    aliases[alias.asname or alias.name.partition(".")[0]] = \
                        alias.name.partition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in aliases and taken[aliases[node.value.id]] is not None:
            taken[aliases[node.value.id]].add(node.attr)
    return taken


@dataclass
class LoadReport:
    """What loading the module did (``FunctionCalls.load``), in words for the feedback."""

    asked: int = 0                                          # questions asked at import
    problems: list[dict] = field(default_factory=list)     # statements that asked or failed
    stuck: list[dict] = field(default_factory=list)        # statements skipped: never stopped
    stubbed: list[str] = field(default_factory=list)
    printed: str = ""
    definitions_only: bool = False
    source_lines: list[str] = field(default_factory=list)

    @classmethod
    def from_report(cls, load: dict, source: str = "") -> "LoadReport":
        """Read ``FunctionCalls.load``; ``source`` names the statements that never stopped."""
        stuck = list(load.get("stuck") or [])
        asked = int(load.get("asked") or 0) + sum(int(s.get("asked") or 0) for s in stuck)
        return cls(asked=asked, problems=list(load.get("problems") or []),
                   stuck=stuck, stubbed=list(load.get("stubbed") or []),
                   printed=load.get("printed") or "",
                   definitions_only=load.get("mode") == "definitions",
                   source_lines=source.splitlines())

    @property
    def troubled(self) -> bool:
        """Importing the file asked questions, or a top-level statement failed or hung."""
        return bool(self.asked or self.problems or self.stuck)

    @property
    def stubbed_modules(self) -> list[str]:
        """Top-level names of the modules replaced by stand-ins."""
        return sorted({name.partition(".")[0] for name in self.stubbed})

    def stub_note(self) -> str | None:
        """The note for the top of the feedback, or None when nothing was replaced."""
        if not self.stubbed_modules:
            return None
        modules = self.stubbed_modules
        names = listed(modules)
        one = len(modules) == 1
        own = sorted(set().union(*self._taken(own=True).values()))
        lead = f"Your file imports {names}, which the grader does not have."
        if own and all(taken == set() for taken in self._taken(own=False).values()):
            return (f"{lead} Every name your file takes from {'it' if one else 'them'} "
                    f"({listed(own)}) is defined in your file itself, so your own definitions "
                    "were used: nothing of yours was replaced.")
        yours = (f" {listed(own)} {'is' if len(own) == 1 else 'are'} defined in your file "
                 "itself, so your own definitions were used for them.") if own else ""
        return (f"{lead} {'It was' if one else 'They were'} replaced by "
                f"{'a stand-in' if one else 'stand-ins'} whose assert_equal-style functions do "
                "nothing (your own tests were not run) and whose other functions do nothing "
                f"and return None.{yours} Every function of yours was still graded.")

    def _taken(self, own: bool) -> dict[str, set[str] | None]:
        """module -> the names the file takes from it that it defines itself (``own``) or
        not (None: any name, ``from m import *``)."""
        source = "\n".join(self.source_lines)
        defined = defined_names(source)
        return {module: None if names is None and not own else
                (names or set()) & defined if own else names - defined
                for module, names in names_taken(source, self.stubbed_modules).items()}

    @property
    def needs_review(self) -> bool:
        """A replaced module other than a testing library may have changed what a function
        did: a TA should look (not when the file takes names from it and every one is the
        file's own definition)."""
        own, others = self._taken(own=True), self._taken(own=False)
        return any(name not in TESTING_LIBRARIES and not (own.get(name) and others.get(name)
                                                          == set())
                   for name in self.stubbed_modules)

    def statement(self, line: int | None, given: str = "") -> str:
        """'line 140 (while True:)' for the feedback."""
        if line is None:
            return "the file"
        text = given or (self.source_lines[line - 1].strip()
                         if 0 < line <= len(self.source_lines) else "")
        return f"line {line} ({text[:60]})" if text else f"line {line}"

    def import_note(self, file: str) -> str | None:
        """The note for the first item that calls the file's functions: what importing it did
        (None when every top-level statement ran quietly)."""
        said = self.what_happened()
        if not said:
            return None
        advice = "\nCode at the top level runs when the file is imported: ask questions " \
                 f"only inside functions, and {MAIN_GUARD}" if self.asked else ""
        return (f"When the grader imported {file} to call its functions:\n"
                + "\n".join(f"- {sentence}" for sentence in said) + advice
                + "\nThe functions were still called; a function that needs what was "
                  "skipped fails its own items.")

    def stand_ins(self, present=()) -> dict[str, str]:
        """Run-folder files standing in for the replaced modules, for a terminal run of the
        same file (none for a module among the ``present`` files)."""
        return stand_in_files("\n".join(self.source_lines), self.stubbed_modules, present)

    def main_item_message(self, has_main: bool, share: float, *, calls_where: str = "",
                          rule_where: str = "") -> str:
        """Why the item for main earns at most ``share`` of its points: what the file did when
        it was imported (``calls_where``, ``rule_where``: the handout's places that say the
        functions are called one at a time and that nothing may run at import)."""
        if self.asked:
            plural = "s" if self.asked != 1 else ""
            lead = (f"When your file is imported, it already asks for input: {self.asked} "
                    f"question{plural} before any function was called.")
            steps = ["answered those questions to end the game (fold, no, quit, then the end "
                     "of input)"]
            fix = (f"Put the game loop inside main() and call main() only under  "
                   f"if __name__ == \"__main__\":  so importing the file runs nothing. With the "
                   "game at import")
        else:
            lead, steps = "When your file is imported, it does more than define functions.", []
            fix = ("Fix or remove the top-level statements that fail, so that importing the "
                   "file runs without errors. With an error at import")
        calls, rule = (f" ({where})" if where else "" for where in (calls_where, rule_where))
        lines = [f"{lead} The grader imports your file to call your functions one at a "
                 f"time{calls}, so nothing may run at import{rule}:"]
        lines += [f"- {sentence}" for sentence in self.what_happened()]
        if self.stuck or any(problem.get("error") for problem in self.problems):
            steps.append("skipped what failed")
        lines.append(f"The grader {', '.join(steps)} and still graded every function it could "
                     "reach; only this item is marked down for it.")
        if not has_main and self.asked:
            fix = ("Your file has no function main(): the game runs at the top level of the "
                   "file instead, and that game was played in a terminal to judge this item. "
                   + fix)
        lines += ["", f"{fix} this item earns at most {share:g} of its points."]
        return "\n".join(lines)

    def what_happened(self) -> list[str]:
        """One sentence per top-level statement that asked, failed or hung."""
        said = []
        for problem in self.problems:
            where = self.statement(problem.get("line"), problem.get("statement", ""))
            said.append(f"{where} {_statement_outcome(problem)}.")
        for stuck in self.stuck:
            if stuck.get("line") is None:
                continue
            asked = stuck.get("asked") or 0
            questions = f"asked {asked} question{'s' if asked != 1 else ''} and " * bool(asked)
            said.append(f"{self.statement(stuck['line'])} {questions}never stopped "
                        f"({stuck.get('why')}); the grader skipped it.")
        if len(said) > SHOWN_STATEMENTS:
            said = said[:SHOWN_STATEMENTS] + [f"... and {len(said) - SHOWN_STATEMENTS} more."]
        if self.definitions_only:
            why = next((s.get("why") for s in self.stuck if s.get("line") is None), "")
            said.append("In the end the grader loaded only your functions, classes, imports "
                        f"and constants, without running anything else ({why}).")
        return said

    def transcript(self) -> str | None:
        """What the import printed, with the grader's answers marked «like this»."""
        parts = [self.printed.rstrip()] if self.printed.strip() else []
        for stuck in self.stuck:
            if (stuck.get("printed") or "").strip():
                parts.append(f"[{self.statement(stuck.get('line'))}, until the grader stopped "
                             f"it:]\n{stuck['printed'].rstrip()}")
        if not parts:
            return None
        return "What your file printed while it was imported:\n" + "\n".join(parts)


def _statement_outcome(problem: dict) -> str:
    """What one top-level statement did, e.g. 'asked 2 questions and finished'."""
    asked = problem.get("asked") or 0
    questions = f"asked {asked} question{'s' if asked != 1 else ''}"
    error, message = problem.get("error"), (problem.get("message") or "").strip()
    if error is None:
        return f"{questions} and finished"
    if problem.get("stopped"):
        return f"was stopped by the grader: it {message}"
    if error == "EOFError":
        return f"{questions} and stopped with EOFError when the grader gave no more answers"
    if error == "SystemExit":
        ended = "ended the program (exit() or quit())"
        return f"{questions} and then {ended}" if asked else ended
    raised = f"raised {error}" + (f": {message}" if message else "")
    return f"{questions} and then {raised}" if asked else raised


def stand_in_files(source: str, modules: list[str], present=()) -> dict[str, str]:
    """Run-folder files standing in for the modules the grader does not have (those that
    ``LoadReport.stubbed_modules`` names), for a terminal run of the same file."""
    used, own = star_names(source), sorted(defined_names(source))
    return {f"{name}.py": STUB_SOURCE.format(name=name, star_names=used, own=own)
            for name in modules if f"{name}.py" not in present}
