"""Runs a student's test file on one copy of a project at a time (``studenttests.py``).

Copied into the run folder as ``kit_run_tests.py`` and started by the boot file as the kit's
own runner (mode ``runner``): no student code ever runs in this process, so the boot file's
guard is not installed here; ``kit_guard`` installs it in each process this one forks.

The grader puts ONE copy of the project (the student's own, the correct reference or a broken
copy) into ``project/`` (always that folder, never two copies at once, nothing else of the kit
beside it), writes ``kit-order.json`` and answers ``kit-copy?`` with ``go``. A process forked
from this one runs pytest there: its standard streams go to a pipe, every other descriptor
(the side channel, the terminal) is closed and the guard is installed before the test file is
imported. Its exit status is the outcome (0: every selected test passed). Then every other
process of the sandbox is killed, /tmp is emptied, and the report (the status; for the
student's own copy also the test ids and pytest's output) is written to ``kit-report.json``
and signed with a key the grader gives only then (``kit-key?``): nothing a test did, printed
or wrote can pass for a report. Runs on other copies say nothing but their status.

Usage: kit_run_tests.py CPU_SECONDS BYTECODE TEST_FILE SANDBOXED.  BYTECODE is a folder of the
lent pytest's bytecode for this Python (``-``: none; see ``pythons.lent_bytecode``).
"""
import builtins
import gc
import hmac
import json
import os
import select
import shutil
import signal
import sys
import types
from importlib.machinery import PathFinder, SourceFileLoader

SECONDS, BYTECODE, TEST_FILE = int(sys.argv[1]), sys.argv[2], sys.argv[3]
SANDBOXED = sys.argv[4] == "1"
KIT_GUARD = globals().pop("kit_guard", None)     # given by the boot file (mode "runner")
IDS_FD = 3                    # where a forked process writes the ids it collected
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
sys.setprofile(None)
BASE = os.getcwd()
PROJECT = os.path.join(BASE, "project")
OUTPUT_BYTES = 20000          # of pytest's output on the student's own copy
IDS_BYTES = 50000


class LentLoader(SourceFileLoader):
    """Reads a lent module's bytecode from BYTECODE (read-only here)."""

    def get_code(self, fullname):
        # the prefix is set only while this one module's code is read (the standard library's
        # bytecode is beside it, not in BYTECODE)
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
# pytest's import makes tens of thousands of objects: the cyclic collector is paused while it
# is imported, and what it made is set aside (gc.freeze) before any copy is tested
gc.disable()
# the reports are never coloured (--color=no): empty stand-ins for what pygments would bring
for _name in ("pygments", "pygments.formatters", "pygments.formatters.terminal",
              "pygments.lexer", "pygments.lexers", "pygments.lexers.diff",
              "pygments.lexers.python"):
    _stand_in = types.ModuleType(_name, "A stand-in: reports are never coloured here.")
    _stand_in.TerminalFormatter = _stand_in.Lexer = _stand_in.DiffLexer = \
        _stand_in.PythonLexer = object
    sys.modules[_name] = _stand_in
import pytest  # noqa: E402
from _pytest.config import Config  # noqa: E402,F401 - imported here, not in every copy
gc.enable()
gc.freeze()


class TestTookTooLong(Exception):
    """Raised in a test that uses more than its CPU seconds."""


def _alarm(signum, frame):
    raise TestTookTooLong("the test used more than %d CPU seconds" % SECONDS)


class CopyPlugin:
    """pytest in the forked process: only the selected tests, each with its CPU seconds; the
    collected ids told to the runner (a plan only: the outcome is the exit status)."""

    def __init__(self, select, ids_fd, brief):
        self.select, self.ids_fd, self.brief = select, ids_fd, brief

    def pytest_collection_modifyitems(self, session, config, items):
        if self.select is None:
            return
        kept = [item for item in items if item.nodeid in self.select]
        dropped = [item for item in items if item.nodeid not in self.select]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept

    def pytest_collection_finish(self, session):
        if self.ids_fd is not None:
            data = json.dumps([item.nodeid for item in session.items])[:IDS_BYTES]
            try:
                os.write(self.ids_fd, data.encode("utf-8", "replace"))
            finally:
                os.close(self.ids_fd)
                self.ids_fd = None

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
        """On a copy other than the student's own only pass or fail matters: no traceback is
        formatted (it would cost more than the test, and nobody reads it)."""
        if not self.brief or call.excinfo is None or \
                call.excinfo.errisinstance((pytest.skip.Exception, pytest.xfail.Exception)):
            return None
        return pytest.TestReport(item.nodeid, item.location, {}, "failed", "failed",
                                 call.when, [], call.duration, call.start, call.stop)


def _no_input(prompt=""):
    raise EOFError("EOF when reading a line (a test gets no input)")


def rewrite_once():
    """The test file is the same in every copy: pytest rewrites its asserts once, here (that
    only parses and compiles the file: nothing of it runs in this process), and every
    forked process finds the code made (the kit's pytest has _rewrite_test; without it each
    copy is rewritten, only more slowly). Returns the rewriter to prime, or None."""
    try:
        from _pytest.assertion import rewrite
        original = rewrite._rewrite_test
    except (ImportError, AttributeError):
        return None
    done = {}

    def rewritten(path, config):
        source = path.read_bytes()
        if source not in done:
            done.clear()
            done[source] = original(path, config)
        return done[source]

    rewrite._rewrite_test = rewritten
    return rewritten


class Runner:
    """The copy loop, run inside this process's one pytest session, before it collects
    anything: each copy is tested by a forked process that goes on with the session (it
    collects and runs the tests); this process then ends the session with nothing run."""

    def __init__(self, plugin, rewriter):
        self.plugin, self.rewriter = plugin, rewriter
        self.in_copy = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        if self.in_copy:
            return None                  # the forked process: pytest's own collection
        capture = session.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=True)
        while input("kit-copy? ").strip() == "go":
            order_path = os.path.join(BASE, "kit-order.json")
            with open(order_path, encoding="utf-8") as handle:
                order = json.load(handle)
            os.unlink(order_path)
            if self.rewriter is not None:
                try:
                    from pathlib import Path
                    self.rewriter(Path(PROJECT, TEST_FILE), session.config)
                except Exception:    # noqa: BLE001 - the forked process meets it again
                    pass
            status, output, ids = self.fork(order, session, capture)
            clean_up()
            report(order, status, output, ids)
        session.items = []
        session.testscollected = 0
        return True

    def fork(self, order, session, capture):
        """Test one copy in a forked process; returns (status, output, ids)."""
        out_r, out_w = os.pipe()
        ids_r, ids_w = os.pipe()
        # what this process made since pytest was imported (its configuration) is set aside
        # too: the forked process's collector would otherwise walk, and so copy, its pages
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                os.close(out_r)
                os.close(ids_r)
                self.in_copy = True
                self.become_copy(order, out_w, ids_w)
                code = self.test_copy(session, capture)
            finally:
                for stream in (sys.stdout, sys.stderr):
                    try:
                        stream.flush()
                    except Exception:    # noqa: BLE001 - a test may have replaced it
                        pass
                os._exit(code if isinstance(code, int) and 0 <= code < 256 else 3)
        os.close(out_w)
        os.close(ids_w)
        output, ids = bytearray(), bytearray()
        open_fds = {out_r: (output, OUTPUT_BYTES), ids_r: (ids, IDS_BYTES)}
        while open_fds:
            ready, _, _ = select.select(list(open_fds), [], [])
            for fd in ready:
                data = os.read(fd, 65536)
                if not data:
                    os.close(fd)
                    del open_fds[fd]
                    continue
                buffer, limit = open_fds[fd]
                buffer += data[:max(0, limit - len(buffer))]
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        return code, output.decode("utf-8", "replace"), ids.decode("utf-8", "replace")

    @staticmethod
    def test_copy(session, capture):
        """The rest of the session, as pytest.main would go on; returns its exit status."""
        hook = session.config.hook
        if capture is not None:
            capture.resume_global_capture()
        try:
            hook.pytest_collection(session=session)
            hook.pytest_runtestloop(session=session)
            code = 1 if session.testsfailed else (0 if session.testscollected else 5)
        except session.Interrupted:      # errors while collecting
            code = 2
        except session.Failed:
            code = 1
        if capture is not None:
            capture.suspend_global_capture(in_=True)
        try:
            hook.pytest_sessionfinish(session=session, exitstatus=code)
        except BaseException:    # noqa: B902 - the status is known already
            pass
        return code

    def become_copy(self, order, out_fd, ids_fd):
        """In the forked process, before anything of the copy is read: its streams, no
        descriptor of the runner's, the guard; the plugin told what to select."""
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        os.dup2(ids_fd, IDS_FD)
        # the side channel, the terminal and every other descriptor of the runner: closed
        # (the boot file's guard for this process sends no event)
        os.closerange(IDS_FD + 1, 1 << 16)
        builtins.input = _no_input
        os.chdir(PROJECT)
        sys.path[:0] = [PROJECT]
        select_ids = order.get("select")
        self.plugin.select = None if select_ids is None else set(select_ids)
        self.plugin.ids_fd = IDS_FD
        self.plugin.brief = not order.get("own")
        if KIT_GUARD is not None:
            KIT_GUARD()


def report(order, status, output, ids):
    """The copy's report, signed with the key the grader gives now that nothing else runs."""
    key = bytes.fromhex(input("kit-key? ").strip())
    try:
        collected = [str(test) for test in json.loads(ids)][:500]
    except (ValueError, TypeError):
        collected = []
    # other copies tell only how many test functions pytest found there (a number: a test's
    # id is text, and a parametrized id could hold the project's text)
    data = {"copy": order.get("copy"), "status": status,
            "count": len({test.split("[")[0] for test in collected})}
    if order.get("own"):
        data["ids"] = collected
        data["output"] = output
    text = json.dumps(data).encode("utf-8")
    with open(os.path.join(BASE, "kit-report.json"), "wb") as handle:
        handle.write(text)
    os.write(1, ("kit-report " + hmac.new(key, text, "sha256").hexdigest() + "\n").encode())


def clean_up():
    """Nothing a copy's tests started or left may reach the next copy: every other process of
    the sandbox is killed (its PID namespace holds nothing else of the kit's: PID 1 is not
    signalled) and /tmp is emptied; the grader empties the run folder."""
    if SANDBOXED:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    if SANDBOXED:
        for folder in ("/tmp", "/dev/shm", "/var/tmp"):
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                path = os.path.join(folder, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    for parent, dirs, _ in os.walk(path):
                        for inner in [parent] + [os.path.join(parent, d) for d in dirs]:
                            try:
                                os.chmod(inner, 0o700)
                            except OSError:
                                pass
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    try:
                        os.unlink(path)
                    except OSError:
                        pass


def main():
    plugin = CopyPlugin(None, None, True)
    runner = Runner(plugin, rewrite_once())
    # plugins that act only when asked by an option are not even imported
    unused = [arg for name in ("cacheprovider", "doctest", "junitxml", "pastebin",
                               "stepwise", "setuponly", "setupplan")
              for arg in ("-p", "no:" + name)]
    os.makedirs(PROJECT, exist_ok=True)
    pytest.main(unused + ["-q", "--color=no", "--capture=sys", "--tb=short",
                          "--import-mode=importlib", "--noconftest",
                          "-c", os.path.join(BASE, "kit-pytest.ini"),
                          "--rootdir", PROJECT, "--confcutdir", PROJECT,
                          os.path.join(PROJECT, TEST_FILE)],
                plugins=[runner, plugin])


if __name__ == "__main__":
    main()
