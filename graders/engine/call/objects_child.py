"""The child's half of ``objects.py``: one probe run in the student's process.

Standard library only: the grader lends this file to the child (``FunctionCalls.lend``).
"""
import sys
import types


def probe(kit_module, student_module, setup, run, looks, stand_ins):
    """Run ``setup`` then ``run`` (Python statements) in a namespace holding the public names
    of ``student_module``, then read each expression of ``looks``. ``stand_ins`` maps module
    names to 'missing', 'failing' or 'recording' (what ``import name`` then finds; the calls
    a recording module gets are listed in ``recorded``). A setup that raises fails the call;
    what ``run`` did is returned as ['ok'] or ['raised', error name, message]."""
    space = {"recorded": []}
    saved = {name: sys.modules.get(name) for name in stand_ins}
    try:
        for name, kind in stand_ins.items():
            sys.modules[name] = stand_in(name, kind, space["recorded"])
        exec(f"from {student_module} import *\n{setup}", space)
        try:
            exec(run, space)
            attempt = ["ok"]
        except Exception as error:
            attempt = ["raised", type(error).__name__, str(error)[:200]]
        return {"attempt": attempt, "looks": {text: look(text, space) for text in looks}}
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def look(text, space):
    """The value of an expression, or {'error': ...} when reading it raised."""
    try:
        return eval(text, space)
    except Exception as error:
        return {"error": f"{type(error).__name__}: {error}"[:200]}


class Recorder:
    """An object whose every method call is recorded as text ('say(...)') and returns None."""

    def __init__(self, recorded):
        self._recorded = recorded

    def __getattr__(self, name):
        def method(*args, **kwargs):
            shown = [repr(arg)[:200] for arg in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
            self._recorded.append(f"{name}({', '.join(shown)})")
        return method


def stand_in(name, kind, recorded):
    """None for a missing module (its import then fails), else a module whose functions
    raise RuntimeError ('failing') or return a :class:`Recorder` ('recording')."""
    if kind == "missing":
        return None
    module = types.ModuleType(name)

    def function(*args, **kwargs):
        if kind == "failing":
            raise RuntimeError(f"{name} cannot work on this computer")
        return Recorder(recorded)
    module.__getattr__ = lambda attribute: function
    return module
