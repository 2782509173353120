"""Runs a student's test file in several folders in ONE pytest session (``studenttests.py``).

Copied into the run folder as ``kit_run_tests.py`` and run by the student's Python (standard
library and pytest only). Each folder holds the student's test file and one version of the
project (the student's own, the correct reference, one broken copy per mutation). Before a
folder's test module is imported, and before each of its tests runs, the student modules of
the other folders are taken out of ``sys.modules`` and the folder is put first on the path, so
every test sees its own folder's project, as if pytest had been run there alone; collecting,
configuring and importing pytest happen once instead of once per folder.

Usage: kit_run_tests.py RESULTS CPU_SECONDS BYTECODE TEST_FILE FOLDER...  BYTECODE is a folder
of the lent pytest's bytecode for this Python (``-``: none; see ``pythons.lent_bytecode``).
One JSON line per folder is appended to RESULTS as soon as its last test has run: folder, code
(0 all passed, 1 a test failed, 2 the file could not be collected, 5 no tests), outcome per
test, failure texts, collection errors.
"""
import gc
import json
import os
import signal
import sys
import types
from importlib.machinery import PathFinder, SourceFileLoader

RESULTS, SECONDS, BYTECODE, TEST_FILE = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
FOLDERS = sys.argv[5:]
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
# kitboot watches a program for its main() with a profile hook, called on every function
# call until main() runs; this file has no main(), so the hook would slow every test for
# nothing (it costs more than the tests themselves)
sys.setprofile(None)


class LentLoader(SourceFileLoader):
    """Reads a lent module's bytecode from BYTECODE (read-only here)."""

    def get_code(self, fullname):
        # the prefix is set only while this one module's code is read: were it set for the
        # whole run, the standard library modules pytest imports would all be compiled from
        # source (their bytecode is beside them, not in BYTECODE), which costs more than pytest
        sys.pycache_prefix = BYTECODE
        try:
            return super().get_code(fullname)
        finally:
            sys.pycache_prefix = None


class LentFinder:
    """Finds modules as Python does; a module whose folder BYTECODE mirrors (a lent package:
    pytest and what it needs) gets the LentLoader."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and type(spec.loader) is SourceFileLoader and \
                os.path.isdir(BYTECODE + os.path.dirname(os.path.abspath(spec.origin))):
            spec.loader = LentLoader(spec.loader.name, spec.loader.path)
        return spec


if BYTECODE != "-":
    sys.meta_path.insert(sys.meta_path.index(PathFinder), LentFinder)
# pytest's import makes tens of thousands of objects, which the cyclic collector would walk
# again and again (and twice more when the session ends): it is paused while pytest is
# imported, and what the import made is set aside (gc.freeze) before any student code runs.
# The student's modules and tests are collected as usual; this saves about a quarter of the
# runner's CPU.
gc.disable()
# pytest's terminal writer imports pygments to colour its reports, which are never coloured
# here (--color=no: the writer then returns the text as it is and never calls pygments), so
# empty stand-ins take the place of the modules it imports (about 5 % of the runner's CPU)
for _name in ("pygments", "pygments.formatters", "pygments.formatters.terminal",
              "pygments.lexer", "pygments.lexers", "pygments.lexers.diff",
              "pygments.lexers.python"):
    _stand_in = types.ModuleType(_name, "A stand-in: reports are never coloured here.")
    _stand_in.TerminalFormatter = _stand_in.Lexer = _stand_in.DiffLexer = \
        _stand_in.PythonLexer = object
    sys.modules[_name] = _stand_in
import pytest  # noqa: E402
gc.enable()
gc.freeze()
BASE = os.getcwd()
OWN = "own"                   # the student's own project: failures told in full


class TestTookTooLong(Exception):
    """Raised in a test that uses more than its CPU seconds."""


def _alarm(signum, frame):
    raise TestTookTooLong("the test used more than %d CPU seconds" % SECONDS)


def folder_of(path):
    """The run folder a node's path or id belongs to."""
    relative = os.path.relpath(str(path), BASE) if os.path.isabs(str(path)) else str(path)
    return relative.replace(os.sep, "/").split("/")[0]


def rewrite_once():
    """The test file is the same in every folder: let pytest rewrite its asserts once, and
    give each folder that code under its own file name (the kit's pytest has _rewrite_test;
    without it every folder is rewritten, only more slowly)."""
    try:
        from _pytest.assertion import rewrite
        original = rewrite._rewrite_test
    except (ImportError, AttributeError):
        return
    done = {}

    def rewritten(path, config):
        source = path.read_bytes()
        if source not in done:
            done[source] = original(path, config)
        source_hash, code = done[source]
        return source_hash, refile(code, str(path))

    rewrite._rewrite_test = rewritten


def refile(code, filename):
    """A code object (and the functions in it) as if compiled from ``filename``."""
    consts = tuple(refile(const, filename) if isinstance(const, types.CodeType) else const
                   for const in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


class Folders:
    """Switches between the folders' projects and records each folder's outcomes."""

    def __init__(self):
        self.modules = {}             # folder -> the student modules its tests imported
        self.results = {}             # folder -> its line of the results file
        self.last_item = {}           # folder -> nodeid of its last test
        self.current = None

    def enter(self, folder):
        """Make ``folder``'s project the one that imports see."""
        if folder == self.current:
            return
        for name, module in list(sys.modules.items()):
            where = getattr(module, "__file__", None) or ""
            if where.startswith(BASE + os.sep) and os.path.dirname(where) != BASE:
                del sys.modules[name]
        sys.modules.update(self.modules.get(folder, {}))
        path = os.path.join(BASE, folder)
        sys.path[:] = [path] + [p for p in sys.path if not p.startswith(BASE + os.sep)]
        os.chdir(path)
        self.current = folder

    def remember(self, folder):
        """Keep the modules the folder's test file imported, for its tests."""
        prefix = os.path.join(BASE, folder) + os.sep
        self.modules[folder] = {name: module for name, module in sys.modules.items()
                                if (getattr(module, "__file__", None) or "").startswith(prefix)}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_make_collect_report(self, collector):
        if isinstance(collector, pytest.Module):
            folder = folder_of(collector.path)
            self.enter(folder)
            yield
            self.remember(folder)
        else:
            yield

    def pytest_collectreport(self, report):
        if report.failed:
            self.result(report.nodeid)["errors"].append(str(report.longrepr)[-1500:])

    def pytest_collection_finish(self, session):
        for item in session.items:
            self.last_item[folder_of(item.nodeid)] = item.nodeid
        for folder in FOLDERS:
            if folder not in self.last_item:
                self.finish(folder)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        folder = folder_of(item.nodeid)
        self.enter(folder)
        yield
        if self.last_item.get(folder) == item.nodeid:
            self.finish(folder)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        # CPU seconds, not real time: a busy machine must not fail a student's test
        previous = signal.signal(signal.SIGVTALRM, _alarm)
        signal.setitimer(signal.ITIMER_VIRTUAL, SECONDS)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, previous)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        """Outside the student's own folder only pass or fail matters: a failure is told
        in one line instead of a formatted traceback (which costs more than the test)."""
        if folder_of(item.nodeid) == OWN or call.excinfo is None or \
                call.excinfo.errisinstance((pytest.skip.Exception, pytest.xfail.Exception)):
            return None
        return pytest.TestReport(item.nodeid, item.location, {}, "failed",
                                 call.excinfo.exconly()[-300:], call.when, [], call.duration,
                                 call.start, call.stop)

    def pytest_runtest_logreport(self, report):
        result = self.result(report.nodeid)
        test = report.nodeid.split("::", 1)[-1]
        if report.failed:
            result["tests"][test] = "failed"
            result["failures"].setdefault(test, str(report.longrepr)[-1500:])
        elif report.when == "call" or report.skipped:
            result["tests"].setdefault(test, report.outcome)

    def result(self, nodeid):
        folder = folder_of(nodeid)
        return self.results.setdefault(folder, {"folder": folder, "tests": {}, "failures": {},
                                                "errors": []})

    def finish(self, folder):
        """Append the folder's line to the results file."""
        result = self.result(folder)
        outcomes = result["tests"].values()
        result["code"] = (1 if "failed" in outcomes else 0) if outcomes else \
            (2 if result["errors"] else 5)
        result["failures"] = dict(list(result["failures"].items())[:5])
        result["errors"] = result["errors"][:3]
        with open(os.path.join(BASE, RESULTS), "a") as handle:
            handle.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    folders = Folders()
    rewrite_once()
    try:
        # plugins that act only when asked by an option are not even imported
        unused = [arg for plugin in ("cacheprovider", "doctest", "junitxml", "pastebin",
                                     "stepwise", "setuponly", "setupplan")
                  for arg in ("-p", "no:" + plugin)]
        # no colour: the transcript drops colour codes anyway, and colouring the failures
        # would import pygments and compile its lexers (a third of the run)
        pytest.main(unused + ["-q", "--color=no", "--capture=sys", "--tb=short",
                              "--import-mode=importlib",
                              "--continue-on-collection-errors",
                              "-c", os.path.join(BASE, "kit-pytest.ini"), "--rootdir", BASE,
                              "--confcutdir", BASE]
                    + [os.path.join(folder, TEST_FILE) for folder in FOLDERS],
                    plugins=[folders])
    finally:
        os.chdir(BASE)
