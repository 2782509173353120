"""Runs inside the student's process, before and around the student's program.

It is started as ``python -I kitboot.py CONFIG_JSON`` by the harness and:

* announces every ``input()`` and read of ``sys.stdin`` on a side channel (a pipe), so the
  grader answers the moment the program waits instead of guessing with timeouts;
* asks the grader for every random draw (``random.randint`` and friends, module functions,
  ``from random import ...`` and ``random.Random`` instances alike), so dice can be loaded,
  and reports who in the student's code asked for it (function names and the short strings
  in their local variables, which usually include the player's name);
* makes ``time.sleep`` free (a virtual clock keeps ``time.time`` consistent) and turns
  ``os.system("clear")`` into a no-op;
* refuses, with an audit hook, to open hidden files, write outside the working folder, start
  programs, open sockets or load C libraries;
* reports the outcome: normal exit, ``SystemExit`` code, or the uncaught exception.

Only the standard library is used, and the file stays compatible with Python 3.8+.
"""
import builtins
import io
import marshal
import os
import random
import sys
import time


def _json_codec():
    """(dumps, loads): ``json.dumps(value, default=repr)`` and ``json.loads``, made from json's
    C half alone, because importing json brings re with it (about 7 ms of CPU, a fifth of a
    short run's start-up). They are checked on a sample first; where the C half is missing
    or answers differently, json itself is used."""
    try:
        import _json

        class Context:              # what json.decoder.JSONDecoder gives the C scanner
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int = float, int
            parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                              "NaN": float("nan")}.__getitem__
            memo = {}

        scan = _json.make_scanner(Context())
        # as json.dumps(default=repr) builds it, without the check for circular references
        # (the events hold no cycles; deep nesting still stops at the recursion limit)
        encode = _json.make_encoder(None, repr, _json.encode_basestring_ascii, None, ": ",
                                    ", ", False, False, True)

        def dumps(value):
            return "".join(encode(value, 0))

        def loads(text):
            return scan(text, 0)[0]

        sample = {"a": [1, 2.5, None, True, "\u00e9\n", ("t",)], "b": {"c": -3}}
        text = '{"a": [1, 2.5, null, true, "\\u00e9\\n", ["t"]], "b": {"c": -3}}'
        if dumps(sample) != text or loads(text) != dict(sample, a=sample["a"][:5] + [["t"]]):
            raise ValueError("json's C half differs")
        return dumps, loads
    except Exception:       # noqa: BLE001 - any surprise: the full json module
        import json
        return (lambda value: json.dumps(value, default=repr)), json.loads


_json_dumps, _json_loads = _json_codec()
CONFIG = _json_loads(sys.argv[1])
# this file's name in its own frames (it may run from bytecode the grader compiled for it)
_BOOT_FILE = sys._getframe().f_code.co_filename
EVENT_FD = CONFIG["event_fd"]
REPLY_FD = CONFIG["reply_fd"]
WORKDIR = os.path.realpath(CONFIG["workdir"])
DENY = [os.path.realpath(p) for p in CONFIG.get("deny", [])]
ALLOW = [os.path.realpath(p) for p in CONFIG.get("paths", [])]   # readable despite DENY
_real_write = os.write
_process_times = os.times


def _limit_resources():
    """CPU, memory and file-size limits, and a terminal that passes newlines through as-is."""
    import resource
    import termios
    limits = CONFIG.get("limits", {})
    pairs = ((resource.RLIMIT_CPU, limits.get("cpu"), 1),
             (resource.RLIMIT_AS, limits.get("memory_mb"), 1024 * 1024),
             (resource.RLIMIT_FSIZE, limits.get("file_bytes"), 1),
             (resource.RLIMIT_NOFILE, limits.get("open_files"), 1))
    for which, value, unit in pairs:
        if value:
            _set_limit(which, value * unit, value * unit + (which == resource.RLIMIT_CPU))
    _set_limit(resource.RLIMIT_CORE, 0, 0)        # no core files in the run folder
    try:
        attrs = termios.tcgetattr(1)
        attrs[1] &= ~termios.OPOST      # no \n -> \r\n, so byte counts match
        attrs[3] &= ~termios.ECHO       # answers are logged by the grader, not echoed
        termios.tcsetattr(1, termios.TCSANOW, attrs)
    except (termios.error, OSError):
        pass


def _set_limit(which, soft, hard):
    """Lower one rlimit (never raise it above what the grader was given)."""
    import resource
    current = resource.getrlimit(which)[1]
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


def _limit_processes():
    """At most a few processes and threads. Set only once the program runs as a user of its
    own (in the sandbox, or as 'nobody'): the kernel counts every process of that user, and a
    process that stays root is exempt."""
    import resource
    count = CONFIG.get("limits", {}).get("processes")
    if count:
        _set_limit(resource.RLIMIT_NPROC, count, count)


_limit_resources()


def _world_reachable(path):
    """Every folder above ``path`` lets others in, and the path itself is readable."""
    path = os.path.realpath(path)
    while True:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return False
        if not mode & 0o005 and os.path.isdir(path) or not mode & 0o004:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def _drop_privileges():
    """In a sandbox set up by root: become the sandbox's own user (or stop, before any student
    code runs). Without a sandbox, running as root: become 'nobody' when the interpreter and
    stdlib allow it."""
    sandbox_uid = CONFIG.get("sandbox_uid")
    if sandbox_uid is not None:
        if os.geteuid() == 0:
            os.setgroups([])
            os.setgid(sandbox_uid)
            os.setuid(sandbox_uid)
        if os.geteuid() == 0:
            os._exit(71)
        os.chdir(WORKDIR)
        _limit_processes()
        return
    if CONFIG.get("sandboxed"):
        _limit_processes()          # a user namespace: only the sandbox's processes count
        return
    if os.geteuid() != 0 or not CONFIG.get("drop_root", True):
        return
    import sysconfig
    if not all(_world_reachable(p) for p in (sys.executable, sysconfig.get_paths()["stdlib"],
                                             sys.argv[0])):
        return
    uid = gid = 65534
    for folder, dirs, files in os.walk(WORKDIR):
        for name in [folder] + [os.path.join(folder, f) for f in dirs + files]:
            os.chown(name, uid, gid, follow_symlinks=False)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    _limit_processes()


_drop_privileges()
_replies = os.fdopen(REPLY_FD, "rb")
_out_bytes = [0]


# ----------------------------------------------------------------------------- side channel
_silent = [False]          # a process of the kit's runner with no side channel (_guard_copy)


def send(kind, **fields):
    """Write one event line to the grader; every event carries the output byte count (what
    was printed before it is written out first; a tick comes from a signal handler, which
    must not flush a stream that may be in the middle of a write)."""
    if _silent[0]:
        return
    if kind != "tick":
        _flush()
    if kind == "exit":
        # this process's CPU seconds, its reaped children's included: once it has ended, the
        # sandbox's processes that started it may be gone before the grader reads them
        fields["cpu"] = round(sum(_process_times()[:4]), 3)
    fields["ev"] = kind
    fields["out"] = _out_bytes[0]
    data = (_json_dumps(fields) + "\n").encode("utf-8")
    _real_write(EVENT_FD, data)


def ask(kind, **fields):
    """Send an event and wait for the grader's one-line JSON reply."""
    send(kind, **fields)
    line = _replies.readline()
    if not line:
        os._exit(70)   # the grader went away
    return _json_loads(line.decode("utf-8"))


# ----------------------------------------------------------------------------- output
class CountingWriter(io.RawIOBase):
    """Raw writer on fd 1 or 2 that counts bytes, so events can be ordered against output."""

    def __init__(self, fd):
        self.fd = fd

    def writable(self):
        return True

    def fileno(self):
        return self.fd

    def isatty(self):
        return True

    def write(self, data):
        data = bytes(data)
        written = 0
        while written < len(data):
            written += _real_write(self.fd, data[written:])
        _out_bytes[0] += written
        return written


def _make_stream(fd):
    """Line-buffered, as Python's own stdout on a terminal: one write per line (print()'s
    pieces go out together), and every event flushes what is pending first."""
    return io.TextIOWrapper(CountingWriter(fd), encoding="utf-8", errors="replace",
                            line_buffering=True)


sys.stdout = sys.__stdout__ = _make_stream(1)
sys.stderr = sys.__stderr__ = _make_stream(2)
_stdin = io.TextIOWrapper(io.FileIO(0, "rb", closefd=False), encoding="utf-8",
                          errors="replace")


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _read_line(prompt, how):
    _flush()
    send("input", prompt=prompt, how=how, stack=_who_is_asking())
    return _stdin.readline()


def kit_input(prompt=""):
    """Replacement for input(): shows the prompt, announces it, reads one line."""
    text = "" if prompt is None else str(prompt)
    if text:
        sys.stdout.write(text)
    line = _read_line(text, "input")
    if not line:
        raise EOFError("EOF when reading a line")
    return line.rstrip("\n").rstrip("\r")


class StdinProxy(io.TextIOBase):
    """sys.stdin for programs that read it directly: each read is announced as a prompt."""

    def readable(self):
        return True

    def isatty(self):
        return True

    def fileno(self):
        return 0

    def readline(self, size=-1):
        return _read_line("", "readline")

    def read(self, size=-1):
        if size is None or size < 0:
            chunks = []
            while True:
                line = _read_line("", "read")
                if not line:
                    return "".join(chunks)
                chunks.append(line)
        return _read_line("", "read")[:size]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


builtins.input = kit_input
sys.stdin = sys.__stdin__ = StdinProxy()


# ----------------------------------------------------------------------------- time
_slept = [0.0]
_real_time, _real_monotonic, _real_perf = time.time, time.monotonic, time.perf_counter


def kit_sleep(seconds):
    """time.sleep without the wait: a grader is not a human, pauses cost nothing."""
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _slept[0] += float(seconds)


def _clock(real):
    """A clock that also moves 1 ms per reading, so busy-wait animations
    (``while time.time() < end: ...``) finish at once instead of spinning for real."""
    def read():
        _slept[0] += 0.001
        return real() + _slept[0]
    return read


if not CONFIG.get("live"):
    # a replay at home (graders/engine/grading/replay.py) keeps the program's pauses: it is watched
    time.sleep = kit_sleep
    time.time = _clock(_real_time)
    time.monotonic = _clock(_real_monotonic)
    time.perf_counter = _clock(_real_perf)


def kit_system(command):
    """os.system: clearing the screen is a no-op; other commands are not run."""
    send("system", command=str(command)[:80])
    return 0


os.system = kit_system


# ----------------------------------------------------------------------------- randomness
NAME_KEYS = ("name", "nickname", "player_name", "username", "display_name", "label")


def _object_name(value):
    """The name of a player-like object: .name, ['name'], or its first short text attribute."""
    if isinstance(value, dict):
        for key in NAME_KEYS:
            if isinstance(value.get(key), str):
                return value[key]
        return None
    if callable(value) or isinstance(value, (int, float, list, tuple, set, type)):
        return None
    for key in NAME_KEYS:
        found = getattr(value, key, None)
        if isinstance(found, str):
            return found
    fields = getattr(value, "__dict__", None)
    if isinstance(fields, dict):
        for found in fields.values():
            if isinstance(found, str) and 0 < len(found) <= 30 and "\n" not in found:
                return found
    return None


def _describe(value):
    """A short JSON-able picture of one item of a population."""
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return value[:40]
    name = _object_name(value)
    if isinstance(name, str):
        return {"name": name[:40]}
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
        return {"name": value[0][:40]}          # e.g. ["Mo", 10]: a name and chips
    return {"type": type(value).__name__}


_KNOWN_NAMES = set()     # once the grader knows the players' names, only those are reported


# values of exactly these types say no name (functions, classes, numbers, None, plain
# containers): every draw reads a module's globals, most of them functions, so they are
# passed over at once instead of going down the checks below to the same nothing
_NO_NAME_TYPES = frozenset({type(_flush), type(len), type, int, float, bool, type(None), list,
                            tuple, set})


def _short_strings(mapping, prefix=""):
    found = []
    for key, value in list(mapping.items()):
        if len(found) >= 24:
            break                       # (found only grows: nothing more would be kept)
        if type(value) in _NO_NAME_TYPES or not isinstance(key, str) or key.startswith("__"):
            continue
        if isinstance(value, str):
            if _KNOWN_NAMES and value not in _KNOWN_NAMES:
                continue
            if 0 < len(value) <= 30 and "\n" not in value:
                found.append([prefix + key, value])
        elif isinstance(value, dict) and len(value) < 40:
            name = _object_name(value)
            if isinstance(name, str) and 0 < len(name) <= 30:
                found.append([prefix + key + "['name']", name])
        elif key != "self" and not isinstance(value, (int, float, list, tuple, set, type)):
            name = _object_name(value)
            if isinstance(name, str) and 0 < len(name) <= 30:
                found.append([prefix + key + ".name", name])
    return found


_STUDENT_FILES = {}


def _is_student_file(filename):
    """Frames of the student's own files (not runpy's frozen ones, not the kit's)."""
    known = _STUDENT_FILES.get(filename)
    if known is None:
        known = _STUDENT_FILES[filename] = os.path.isabs(filename) and \
            os.path.realpath(filename).startswith(WORKDIR + os.sep)
    return known


def _who_is_asking():
    """The student's frames (innermost first): function, line and short string locals."""
    frames = []
    frame = sys._getframe(2)
    while frame is not None and len(frames) < 8:
        if _is_student_file(frame.f_code.co_filename):
            strings = _short_strings(frame.f_locals)
            owner = frame.f_locals.get("self")
            if owner is not None and hasattr(owner, "__dict__"):
                strings += _short_strings(vars(owner), "self.")
            # a module frame's locals are its globals: names there sit in every draw's stack
            frames.append({"fn": frame.f_code.co_name, "line": frame.f_lineno,
                           "strings": strings[:32], "module": frame.f_locals is frame.f_globals})
        frame = frame.f_back
    return frames


_depth = [0]
_last_draw_stack = [None]     # the stack sent with the last draw event that carried one


def _scripted(method):
    """Wrap a Random method: ask the grader first, fall back to the real generator."""
    name = method.__name__

    def wrapper(self, *args, **kwargs):
        if _depth[0]:
            return method(self, *args, **kwargs)
        _depth[0] += 1
        try:
            request = _REQUESTS[name](*args, **kwargs)
            _flush()
            stack = _who_is_asking()
            if stack == _last_draw_stack[0]:
                # the dice of one roll come from one place: the stack is sent once and the
                # harness gives the next draws from the same place the same stack
                reply = ask("draw", fn=name, req=request, same_stack=True)
            else:
                _last_draw_stack[0] = stack
                reply = ask("draw", fn=name, req=request, stack=stack)
            if reply.get("names"):
                _KNOWN_NAMES.clear()
                _KNOWN_NAMES.update(n for n in reply["names"] if isinstance(n, str))
            value = _APPLY[name](reply.get("value"), *args, **kwargs)
            if value is _NO_VALUE:
                value = method(self, *args, **kwargs)
            return value
        finally:
            _depth[0] -= 1

    wrapper.__name__ = name
    wrapper.__doc__ = method.__doc__
    return wrapper


_NO_VALUE = object()


def _population(seq):
    items = list(seq) if not isinstance(seq, (list, tuple, str, range)) else seq
    return [_describe(x) for x in list(items)[:60]], len(items)


def _req_randint(a, b):
    return {"a": a, "b": b}


def _req_randrange(start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    return {"a": start, "b": stop, "step": step}


def _req_choice(seq):
    items, size = _population(seq)
    return {"items": items, "n": size}


def _req_choices(population, weights=None, cum_weights=None, k=1):
    items, size = _population(population)
    return {"items": items, "n": size, "k": k, "weighted": weights is not None}


def _req_shuffle(x, *rest):
    items, size = _population(x)
    return {"items": items, "n": size}


def _req_sample(population, k, counts=None):
    items, size = _population(population)
    return {"items": items, "n": size, "k": k, "counts": counts is not None}


def _req_none(*args, **kwargs):
    return {"args": [a for a in args if isinstance(a, (int, float))][:3]}


def _int_in(value, allowed):
    return isinstance(value, int) and not isinstance(value, bool) and value in allowed


def _apply_randint(value, a, b):
    return value if _int_in(value, range(a, b + 1)) else _NO_VALUE


def _apply_randrange(value, start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    return value if _int_in(value, range(start, stop, step)) else _NO_VALUE


def _apply_choice(value, seq):
    return seq[value] if _int_in(value, range(len(seq))) else _NO_VALUE


def _apply_choices(value, population, weights=None, cum_weights=None, k=1):
    if not isinstance(value, list) or len(value) != k:
        return _NO_VALUE
    if not all(_int_in(i, range(len(population))) for i in value):
        return _NO_VALUE
    return [population[i] for i in value]


def _apply_shuffle(value, x, *rest):
    if not isinstance(value, list) or sorted(value) != list(range(len(x))):
        return _NO_VALUE
    x[:] = [x[i] for i in list(value)]
    return None


def _apply_sample(value, population, k, counts=None):
    if counts is not None or not isinstance(value, list) or len(value) != k:
        return _NO_VALUE
    if len(set(value)) != k or not all(_int_in(i, range(len(population))) for i in value):
        return _NO_VALUE
    pool = list(population)
    return [pool[i] for i in value]


def _apply_random(value, *args, **kwargs):
    return value if isinstance(value, float) and 0.0 <= value < 1.0 else _NO_VALUE


def _apply_uniform(value, a, b):
    low, high = min(a, b), max(a, b)
    return value if isinstance(value, (int, float)) and low <= value <= high else _NO_VALUE


_REQUESTS = {"randint": _req_randint, "randrange": _req_randrange, "choice": _req_choice,
             "choices": _req_choices, "shuffle": _req_shuffle, "sample": _req_sample,
             "random": _req_none, "uniform": _req_none}
_APPLY = {"randint": _apply_randint, "randrange": _apply_randrange, "choice": _apply_choice,
          "choices": _apply_choices, "shuffle": _apply_shuffle, "sample": _apply_sample,
          "random": _apply_random, "uniform": _apply_uniform}


class KitRandom(random.Random):
    """random.Random whose draws are announced to the grader and can be loaded."""


for _name in _REQUESTS:
    setattr(KitRandom, _name, _scripted(getattr(random.Random, _name)))

_instance = KitRandom(CONFIG.get("seed", 0))
random._inst = _instance
for _name in _REQUESTS:
    setattr(random, _name, getattr(_instance, _name))
random.seed = _instance.seed
random.Random = KitRandom
random.SystemRandom = KitRandom


# ----------------------------------------------------------------------------- sandbox
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_BLOCKED = {"subprocess.Popen": "starting other programs", "os.exec": "starting programs",
            "os.posix_spawn": "starting programs", "os.spawn": "starting programs",
            "os.fork": "starting processes", "os.forkpty": "starting processes",
            "os.kill": "sending signals", "os.killpg": "sending signals",
            "socket.connect": "network access", "socket.bind": "network access",
            "socket.getaddrinfo": "network access", "ctypes.dlopen": "loading C libraries",
            "ctypes.dlsym": "loading C libraries", "ctypes.cdata": "raw memory access",
            "os.setuid": "changing user", "resource.setrlimit": "changing limits",
            "resource.prlimit": "changing limits", "os.system": "starting programs",
            "ctypes.call_function": "calling C functions",
            "cpython.PyInterpreterState_New": "starting other interpreters",
            "sqlite3.enable_load_extension": "loading C libraries",
            "sqlite3.load_extension": "loading C libraries",
            "os.chroot": "changing root"}
_PATH_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
                "os.truncate", "os.link", "os.symlink", "os.utime", "shutil.rmtree",
                "shutil.copyfile", "shutil.move", "os.setxattr", "os.removexattr"}


def _readable():
    """What a program may read: its own folder, the interpreter, the system's libraries and
    devices, its own /proc entry, the folders the grader lends it, a few files of /etc.
    (In the sandbox little else is visible anyway; without it, this keeps copies of the kit
    and other people's files out of reach of ordinary file access.)

    The interpreter's own folders are its prefixes, its standard library and its
    site-packages: what sysconfig's install paths name, read from modules already loaded
    (importing sysconfig and its build data costs several ms in every run)."""
    places = [WORKDIR] + ALLOW + ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/dev",
                                  "/proc/%d" % os.getpid(), "/etc/localtime", "/etc/timezone",
                                  "/etc/os-release", "/etc/mime.types"]
    places += [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
               os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))]
    places.append(os.path.dirname(os.path.realpath(os.__file__)))       # the standard library
    site = sys.modules.get("site")
    if site is not None and hasattr(site, "getsitepackages"):
        places += site.getsitepackages()
    return sorted({os.path.realpath(place) for place in places if place})


# Routes to other processes that raise no audit event: replaced before the program runs, and
# the modules that hold them may not be imported afresh (which would bring them back). The
# signal module may be imported (it is not loaded in advance: it brings enum with it): it
# takes its functions from _signal, whose are already replaced and which stays loaded.
_NO_REIMPORT = {"_posixsubprocess", "_signal", "posix", "os", "gc"}
# Modules that reach past the audit hook: raw C calls and memory, interpreters of their own
# (an audit hook belongs to one interpreter). ctypes could not be imported anyway (it loads
# a C library at import).
_NO_IMPORT = {"_ctypes", "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase",
              "_testsinglephase", "_testimportmultiple", "_testclinic", "_testlimitedcapi",
              "_testexternalinspection", "_xxsubinterpreters", "_interpreters",
              "_xxinterpchannels", "_interpchannels", "_interpqueues", "_xxtestfuzz"}


def _refuse(*args, **kwargs):
    raise PermissionError("this is not allowed while grading")


def _close_side_doors():
    """Replace what reaches other processes without an audit event, and what could find the
    audit hook's own function among all objects (gc)."""
    import _posixsubprocess
    import _signal
    import gc
    _posixsubprocess.fork_exec = _refuse
    for module in (os, _signal, sys.modules.get("signal"), sys.modules.get("posix")):
        for name in ("pidfd_open", "pidfd_send_signal"):
            if module is not None and hasattr(module, name):
                setattr(module, name, _refuse)
    for name in ("get_objects", "get_referrers", "get_referents"):
        setattr(gc, name, _refuse)


def _install_guard():
    """Install the audit hook. Its rules cannot be changed by the program: everything it uses
    is captured here (C functions of the posix module, builtins, immutable copies of the
    lists), it reads no module globals and no Python function the program could patch, and
    no reference to it is kept. (It is still no security boundary: see the README.)"""
    import posix
    lstat, readlink, getcwd = posix.lstat, posix.readlink, posix.getcwd
    type_, str_, bytes_, int_, len_, any_ = type, str, bytes, int, len, any
    refused, failed = PermissionError, OSError
    decode, startswith, split, join = bytes.decode, str.startswith, str.split, str.join
    workdir, deny, allow = str(WORKDIR), tuple(DENY), tuple(ALLOW)
    readable = tuple(_readable())
    native = tuple(f for f in readable if f != workdir and not f.startswith(("/dev", "/proc")))
    blocked = dict(_BLOCKED)
    path_events = frozenset(_PATH_EVENTS)
    no_reimport, no_import = frozenset(_NO_REIMPORT), frozenset(_NO_IMPORT)
    write_flags = _WRITE_FLAGS
    directory, link, kind_mask = 0o040000, 0o120000, 0o170000

    def text(path):
        # exact types only: a subclass of str could answer differently each time
        if type_(path) is str_:
            return path
        if type_(path) is bytes_:
            return decode(path, "utf-8", "surrogateescape")
        return None

    def resolve(path, base=None):
        """The real absolute path (links followed), with lstat and readlink only."""
        if not startswith(path, "/"):
            path = (base or getcwd()) + "/" + path
        done, todo, hops = [], split(path, "/"), 0
        while todo:
            part = todo.pop(0)
            if part in ("", "."):
                continue
            if part == "..":
                if done:
                    done.pop()
                continue
            done.append(part)
            here = "/" + join("/", done)
            try:
                mode = lstat(here).st_mode
            except failed:
                continue
            if mode & kind_mask == link:
                hops += 1
                if hops > 40:
                    return here
                target = readlink(here)
                done.pop()
                if startswith(target, "/"):
                    done = []
                todo = split(target, "/") + todo
        return "/" + join("/", done)

    def inside(path, folders):
        return any_(path == f or startswith(path, f + "/") for f in folders)

    def is_folder(path):
        try:
            return lstat(path).st_mode & kind_mask == directory
        except failed:
            return False

    def places(path):
        """Where a path may lead: from the working folder, and (for a relative path, which a
        call may take from a folder descriptor instead) from the top of the run folder, the
        shallowest folder such a descriptor can name."""
        found = [resolve(path)]
        if not startswith(path, "/"):
            found.append(resolve(path, workdir))
        return found

    def check_read(path):
        path = text(path)
        if path is None:
            return None
        found = places(path)
        for real in found:
            if (inside(real, deny) or not inside(real, readable)) and not inside(real, allow):
                raise refused("the grader does not let programs read " + path)
        return found[0]

    def check_write(path):
        path = text(path)
        if path is None:
            return
        for real in places(path):
            if not inside(real, (workdir,)) and real not in devices:
                raise refused("programs may only write inside their own folder, not " + path)

    def hook(event, args):
        if event == "open":
            path, mode, flags = args
            if type_(path) is int_:
                return
            if text(path) is None:
                raise refused("the grader lets programs open files by name only")
            real = check_read(path)
            writing = (type_(flags) is int_ and flags & write_flags) or \
                (type_(mode) is str_ and any_(c in mode for c in "wax+"))
            if writing:
                check_write(path)
            if not inside(real, (workdir,)) and is_folder(real):
                # a folder's descriptor would let later calls name files relative to it
                raise refused("programs may not open folders outside their own")
        elif event == "import" and args:
            name = str_(args[0])
            if name in no_reimport or name.partition(".")[0] in no_import:
                raise refused("importing %s is not allowed while grading" % name)
            if len_(args) >= 3 and args[2] is None and text(args[1]) is not None:
                if not inside(resolve(text(args[1])), native):      # a C extension
                    raise refused("loading C extensions is not allowed while grading")
        elif event in ("os.listdir", "os.scandir", "glob.glob", "glob.glob/2"):
            if args and args[0] is not None and type_(args[0]) is not int_:
                if text(args[0]) is None:
                    raise refused("the grader lets programs list folders by name only")
                check_read(args[0])
        elif event == "os.chdir":
            if not args or text(args[0]) is None or \
                    not inside(resolve(text(args[0])), (workdir,)):
                raise refused("programs may not leave their own folder")
        elif event in path_events:
            for path in args[:2]:
                if type_(path) is not int_ and path is not None:
                    if text(path) is None:
                        raise refused("the grader lets programs change files by name only")
                    check_write(path)
        elif event in blocked:
            raise refused(blocked[event] + " is not allowed while grading")

    devices = ("/dev/null", "/dev/tty", resolve("/proc/self/fd/1"))   # and its own terminal
    sys.addaudithook(hook)


def _guard_this_process():
    """The side doors closed and the audit hook installed (before any student code)."""
    _close_side_doors()
    _install_guard()


def _guard_copy():
    """In a process the kit's runner forked to test one copy of a project, whose side
    channel it has closed: no event is sent, random draws come from the real generator (no
    grader answers them here); then the guard."""
    _silent[0] = True
    _depth[0] = 1
    _guard_this_process()


# ----------------------------------------------------------------------------- running
class _MainWatch:
    """Notices whether the program's own main() runs, so that a main() defined but never
    called can be called. Only the program's functions named main are watched: on Python
    3.12+ with ``sys.monitoring`` events on their code alone; before that with a profile hook
    that removes itself once main() has started. A program without a main() is not watched
    at all: a profile hook made every call of a game written at the top level about five
    times slower than at home (the CPU verdicts and the budget count that time)."""

    def __init__(self, target, program):
        self.target, self.called = target, False
        self._mains = [code for code in _code_objects(program) if code.co_name == "main"]
        self._tool = None

    def start(self):
        if not self._mains:
            return
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is None:
            sys.setprofile(self)
            return
        tool = next((t for t in (3, 4, monitoring.PROFILER_ID) if monitoring.get_tool(t) is None),
                    None)
        if tool is None:                # every tool id taken (cannot happen before the program)
            sys.setprofile(self)
            return
        monitoring.use_tool_id(tool, "kit main watch")
        monitoring.register_callback(tool, monitoring.events.PY_START, self._started)
        for code in self._mains:
            monitoring.set_local_events(tool, code, monitoring.events.PY_START)
        self._tool = tool

    def _started(self, code, offset):
        self.called = True
        return sys.monitoring.DISABLE

    def stop(self):
        if self._tool is None:
            sys.setprofile(None)
            return
        monitoring, tool, self._tool = sys.monitoring, self._tool, None
        for code in self._mains:
            monitoring.set_local_events(tool, code, 0)
        monitoring.register_callback(tool, monitoring.events.PY_START, None)
        monitoring.free_tool_id(tool)

    def __call__(self, frame, event, arg):
        if event == "call" and frame.f_code.co_name == "main" and \
                frame.f_code.co_filename == self.target:
            self.called = True
            sys.setprofile(None)


def _code_objects(code):
    """``code`` and every code object defined inside it (functions, classes, lambdas)."""
    found, todo = [], [code]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(const for const in current.co_consts if isinstance(const, type(code)))
    return found


def _student_traceback(exc):
    """The traceback with the kit's own frames left out."""
    import traceback
    lines = []
    for item in traceback.extract_tb(exc.__traceback__):
        if _is_student_file(item.filename):
            lines.append("  File \"%s\", line %d, in %s\n    %s" % (
                os.path.basename(item.filename), item.lineno, item.name,
                (item.line or "").strip()))
    lines.append("".join(traceback.format_exception_only(type(exc), exc)).strip())
    return "Traceback (most recent call last):\n" + "\n".join(lines)


def _python_source(target):
    """The file's bytes, refused as ``python FILE`` refuses them: a program is read as UTF-8
    unless a coding line says otherwise, and a byte that does not decode (Latin-1 'é' in a
    comment) is a SyntaxError before anything runs (compile() alone would let it through)."""
    with open(target, "rb") as handle:
        source = handle.read()
    if source.isascii():
        return source
    import tokenize
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(source).readline)[0]
    except SyntaxError as err:
        if b"coding" in b"\n".join(source.split(b"\n")[:2]):
            raise SyntaxError(str(err), (target, 1, 0, None)) from None
        encoding = "utf-8"
    try:
        source.decode(encoding)
    except (UnicodeDecodeError, LookupError) as err:
        start = getattr(err, "start", 0)
        line = source.count(b"\n", 0, start) + 1
        raise SyntaxError("Non-%s code starting with '\\x%02x' on line %d, but no encoding "
                          "declared; see https://peps.python.org/pep-0263/"
                          % (encoding.upper().replace("-SIG", ""), source[start], line),
                          (target, line, 0, None)) from None
    return source


def _run_as_main(code, target, extra=None):
    """Run compiled code as ``python FILE`` does, like ``runpy.run_path(target,
    run_name="__main__")`` (a fresh ``__main__`` module while it runs; its globals are
    returned), without compiling the file twice or importing runpy's helpers (pkgutil and,
    through it, typing: a large share of a short game's start-up)."""
    module = type(sys)("__main__")
    module.__dict__.update(__file__=target, __cached__=None, __loader__=None,
                           __package__="", __spec__=None, **(extra or {}))
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        if _debugger[0] is not None:
            _debugger[0].run(code, module.__dict__)
        else:
            exec(code, module.__dict__)
    finally:
        sys.modules["__main__"] = saved
    return dict(module.__dict__)


_debugger = [None]


class _DebuggerInput(io.TextIOBase):
    """pdb's keyboard in a replay (``--pdb``): each line it reads is announced ("debugger"),
    so the replay hands it the person's line instead of one of the grader's answers."""

    def readable(self):
        return True

    def readline(self, size=-1):
        _flush()
        send("debugger")
        return _stdin.readline()


def _start_debugger():
    """Python's debugger around the program (a replay with ``--pdb``), imported before the
    guards are in place; it stops at the program's first line, as ``python -m pdb`` does."""
    import pdb
    debugger = pdb.Pdb(stdin=_DebuggerInput(), stdout=sys.stdout)
    debugger.use_rawinput = False
    _debugger[0] = debugger


def run_program():
    target = CONFIG["target"]
    try:
        program = compile(_python_source(target), target, "exec", dont_inherit=True)
    except SyntaxError as err:
        message = "%s: %s (%s, line %s)" % (type(err).__name__, err.msg,
                                            os.path.basename(target), err.lineno)
        text = (err.text or "").rstrip()
        sys.stderr.write(message + ("\n    " + text if text else "") + "\n")
        send("exit", status="syntax-error", code=1, error=message, line=err.lineno,
             program=os.path.basename(target))
        return 1
    if CONFIG.get("debugger"):
        _start_debugger()
    watch = _MainWatch(target, program)
    sys.argv = [target] + list(CONFIG.get("args", []))
    sys.path.insert(0, os.path.dirname(target))
    sys.path.extend(ALLOW)
    sys.dont_write_bytecode = True
    extra = None
    if CONFIG.get("mode") == "runner":
        # the kit's own runner (boot/testrunner.py), which runs no student code itself: it
        # forks a process per copy of a project and installs the guard there with kit_guard
        extra = {"kit_guard": _guard_copy}
    else:
        _guard_this_process()
    if CONFIG.get("stand_ins"):
        # modules imported outside any try that this Python lacks (the grader's list):
        # stand-ins, as for the function calls, so one import does not stop the game
        import ast
        stubs = _StubFinder(only=frozenset(CONFIG["stand_ins"]))
        stubs.defined = _defined_names(compile(_python_source(target), target, "exec",
                                               ast.PyCF_ONLY_AST, dont_inherit=True))
        sys.meta_path.append(stubs)
    status, code, error = "finished", 0, None
    try:
        watch.start()
        namespace = _run_as_main(program, target, extra)
        watch.stop()
        if not watch.called and CONFIG.get("call_main", True) and \
                callable(namespace.get("main")) and \
                getattr(namespace["main"], "__code__", None) is not None and \
                namespace["main"].__code__.co_filename == target:
            send("note", text="main() was defined but never called; the grader called it")
            namespace["main"]()
    except SystemExit as exc:
        status = "exit"
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            sys.stderr.write(str(exc.code) + "\n")
    except KeyboardInterrupt:
        status, code, error = "interrupted", 130, "KeyboardInterrupt"
    except BaseException as exc:  # noqa: B902 - every student error is reported
        status, code = "exception", 1
        error = _student_traceback(exc)
        sys.stderr.write(error + "\n")
    _flush()
    send("exit", status=status, code=code, error=error, slept=round(_slept[0], 3),
         program=os.path.basename(target))
    return code


# ----------------------------------------------------------------------------- function calls
# Limits here are CPU time and counts, never wall-clock time, so that a busy machine does not
# change a verdict. A step that ignores the stop it is sent ends this process; the grader goes
# on in a fresh one.
LOAD_CPU_SECONDS = 1.0      # one top-level statement while the module loads
LOAD_ANSWERS = 10           # answers per top-level statement before input() reports the end
LOAD_QUESTIONS = 40         # questions per top-level statement before it is stopped
GRACE_SECONDS = 0.5         # CPU a step may go on using after it was told to stop
_cpu_clock = time.process_time


class CallTimeout(BaseException):
    """Raised inside a call that ran past its CPU time (BaseException: ``except Exception``
    in the student's code does not catch it)."""


class LoadStopped(BaseException):
    """Raised inside a top-level statement that ran past the load's limits."""


class _CpuLimit:
    """A CPU-time limit for one step of the student's code (one call, or one top-level statement
    while loading), checked on SIGPROF every 50 ms of CPU. Before the limit it tells the grader
    that the child is busy; at the limit it raises ``stop`` in the student's code; if the code
    swallows that and goes on for GRACE_SECONDS more, ``give_up()`` ends the process."""

    def __init__(self, seconds, stop, give_up):
        self.seconds, self.stop, self.give_up = float(seconds), stop, give_up
        self.started = self.ticked = 0.0
        self.stopped = False
        # ``_each`` names the input it is on in ``item``; the time of a new input is counted
        # from the first tick that sees it (reading the CPU clock per input, a system call,
        # would cost as much as a small function): an input is stopped only after it alone
        # used the whole limit, at most one tick later than with a clock read per input
        self.item = self.timed = None

    def __enter__(self):
        import signal
        self.started = self.ticked = _cpu_clock()
        signal.signal(signal.SIGPROF, self._check)
        signal.setitimer(signal.ITIMER_PROF, 0.05, 0.05)
        return self

    def __exit__(self, *exc):
        import signal
        signal.setitimer(signal.ITIMER_PROF, 0)
        return False

    def _check(self, signum, frame):
        now = _cpu_clock()
        if self.item != self.timed:         # _each is on another input: its time starts here
            self.timed, self.started = self.item, now
        used = now - self.started
        if used < self.seconds:
            if now - self.ticked >= 0.5:
                self.ticked = now
                send("tick")                    # still working: not idle
            return
        if not self.stopped:
            self.stopped = True
            raise self.stop("used more than %g s of CPU time" % self.seconds)
        if used >= self.seconds + GRACE_SECONDS:
            import signal
            signal.setitimer(signal.ITIMER_PROF, 0)
            self.give_up("used more than %g s of CPU time and went on after the grader "
                         "stopped it" % self.seconds)


def _jsonable(value, depth=0):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and depth < 4:
        return [_jsonable(v, depth + 1) for v in value[:200]]
    if isinstance(value, dict) and depth < 4:
        return {str(k): _jsonable(v, depth + 1) for k, v in list(value.items())[:200]}
    return {"repr": repr(value)[:200], "type": type(value).__name__}


# What happened during one call, in order: [kind, name, characters printed so far] for each
# scripted function called ("script"), spied function called ("spy"), input() called
# ("input", after its prompt) and answered ("answered", after the echoed answer), so the grader
# can tell what was printed before each (sent as "timeline").
_timeline = []
_captured = [None]          # the current call's output buffer


def _mark(kind, name):
    if len(_timeline) < 500:
        buffer = _captured[0]
        _timeline.append([kind, name, len(buffer.getvalue()) if buffer is not None else 0])


class _Script:
    """Scripted replacement for a module function during one call (e.g. deal, get_choice)."""

    def __init__(self, name, returns):
        self.name, self.returns, self.calls = name, list(returns), 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        _mark("script", self.name)
        if not self.returns:
            raise RuntimeError("%s() was called more often than the grader expected"
                               % self.name)
        return self.returns.pop(0)


class _Spy:
    """Wraps a module function and records its calls and results. The arguments are logged
    in the order given, keyword arguments after the positional ones: ``hand_to_string(hand=h)``
    is logged as ``hand_to_string(h)``."""

    def __init__(self, function, name=""):
        self.function, self.log, self.name = function, [], name

    def __call__(self, *args, **kwargs):
        _mark("spy", self.name)
        result = self.function(*args, **kwargs)
        self.log.append({"args": _jsonable(list(args) + list(kwargs.values())),
                         "result": _jsonable(result)})
        return result


_MISSING = object()


_LENT = {}


def _take_lent(bundles):
    """Kit functions lent to this child (``calls.lent_source``): each bundle's source run in
    a namespace of its own under the file name <kit>. It is no module (nothing in sys.modules,
    no file) and its source is not kept (no function can read it back)."""
    import __future__
    if not isinstance(bundles, dict):
        return
    for key, source in bundles.items():
        if key not in _LENT:
            space = {"__name__": "kit", "__builtins__": builtins}
            try:
                # (optimize=2: no docstring of the kit's is kept either)
                exec(compile(source, "<kit>", "exec", __future__.annotations.compiler_flag,
                             dont_inherit=True, optimize=2), space)
            except Exception:   # noqa: BLE001 - its calls fail as the grader's problem
                continue
            _LENT[key] = space


def _kit_function(reference):
    """A kit function lent to the child: [key, name] (see ``_take_lent``)."""
    return _LENT[reference[0]][reference[1]]


# Deep swaps: a kit function put in place of a student's function *object*, so that every
# reference to it sees the kit's code, including tables built at import (CHECKS = [(is_pair,
# 5), ...]), dicts and getattr. The function's code becomes a trampoline (no globals, no
# closure) calling the kit function; a kit function that returns NotImplemented hands the call
# back to the student's own code (an argument only the student's code understands).
_DEEP = {}


def _deep_template(*args, **kwargs):
    """The trampoline's code ("NAME" becomes the function's name); it needs no globals."""
    import sys
    return sys.modules["kit_deep_swaps"].deep_call("NAME", args, kwargs)


def deep_call(name, args, kwargs):
    """Call the kit's function for ``name``, or the student's own when it says so."""
    kit, original = _DEEP[name]
    value = kit(*args, **kwargs)
    if value is NotImplemented and callable(original):
        return original(*args, **kwargs)
    return value


def _by_name(name):
    """A stand-in for a student's ``name`` that is not a plain function (or is missing)."""
    def stand_in(*args, **kwargs):
        return deep_call(name, args, kwargs)
    return stand_in


def _deep_swap(module, name, kit, saved_code):
    """Swap the code of the student's function ``name`` (a plain function without a closure),
    else its name only; the function's old code state goes to ``saved_code``."""
    target = vars(module).get(name, _MISSING)
    function_type = type(_deep_template)
    if type(target) is not function_type or target.__code__.co_freevars:
        _DEEP[name] = (kit, target)
        return False
    original = function_type(target.__code__, target.__globals__, name, target.__defaults__,
                             target.__closure__)
    original.__kwdefaults__ = target.__kwdefaults__
    _DEEP[name] = (kit, original)
    code = _deep_template.__code__
    sys.modules.setdefault("kit_deep_swaps", sys.modules[__name__])
    saved_code.append((target, target.__code__, target.__defaults__, target.__kwdefaults__))
    target.__code__ = code.replace(co_name=name, co_consts=tuple(
        name if const == "NAME" else const for const in code.co_consts))
    target.__defaults__ = target.__kwdefaults__ = None
    return True


def _resolve(module, dotted):
    """module.a.b for 'a.b' (_MISSING when a part is missing)."""
    value = module
    for part in dotted.split("."):
        value = getattr(value, part, _MISSING)
        if value is _MISSING:
            break
    return value


_marshal_loads = marshal.loads     # taken before any student code runs


def _each(function, inputs, limit, want_args):
    """function(*args) for every args of ``inputs`` inside the child: one round trip for a
    whole input space; each input gets the call's CPU time. ``inputs`` is a list, or its
    ``marshal`` bytes in hex (made from the JSON values: faster to read).

    The answer is compact: "values" holds each input's value (``_jsonable``; None where it
    raised), "types" [index, type name] only where the JSON value does not say the type
    (a tuple, a subclass, an object), "notes" [index, {...}] only for the inputs that raised
    ("error", "message", a "traceback" for the first three) and, with ``want_args``, the
    arguments after the call ("a") and the index of one returned as the result ("same").
    Stops at the first input that does not return in time: its note is {"error":
    "timeout"} and "hung" is true."""
    if isinstance(inputs, str):
        inputs = _marshal_loads(bytes.fromhex(inputs))
    values, types, notes = [], [], []
    errors, hung = 0, False
    for index, args in enumerate(inputs):
        limit.item = index
        try:
            if want_args:
                args = list(args)
            value = function(*args)
            kind, name, note = type(value), None, None
            # the common answers as they are (compared by identity: no student code runs)
            if kind is bool or kind is int or kind is str or kind is float or value is None:
                shown = value
            else:
                shown = _jsonable(value)
                if kind is not list and kind is not dict:
                    name = kind.__name__     # JSON does not say it: a tuple, an object
            if want_args:
                note = {"a": _jsonable(args),
                        "same": next((i for i, arg in enumerate(args) if arg is value), None)}
        except BaseException as exc:  # noqa: B902 - every student error is reported
            shown, name = None, None
            if limit.stopped or isinstance(exc, CallTimeout):
                limit.stopped = False       # the batch ends here; the grader starts afresh
                note, hung = {"error": "timeout"}, True
            else:
                note = {"error": type(exc).__name__, "message": str(exc)[:300]}
                if errors < 3:
                    note["traceback"] = _student_traceback(exc)
                errors += 1
        values.append(shown)
        if name is not None:
            types.append([index, name])
        if note is not None:
            notes.append([index, note])
        if hung:
            break
        if index % 200 == 199:
            send("tick")                    # still working: not idle
    return {"values": values, "types": types, "notes": notes, "hung": hung}


class _ScriptedStdin(io.TextIOBase):
    """sys.stdin while functions are called or the module loads: lines come from ``ask``
    (the same answers as input()), an empty string at the end."""

    def __init__(self, ask):
        self.ask = ask

    def readable(self):
        return True

    def readline(self, size=-1):
        try:
            return self.ask("") + "\n"
        except EOFError:
            return ""

    def read(self, size=-1):
        return self.readline()

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


# --- modules that are not installed (a course's testing library, e.g. bakery or cisc108)
def _quiet(*args, **kwargs):
    """A stand-in for assert_equal and friends: checks nothing, prints nothing."""
    return None


def _stub_input(*args, **kwargs):
    """A stand-in for e.g. pyinputplus.inputYesNo(prompt): asks with input()."""
    prompt = kwargs.get("prompt")
    if not isinstance(prompt, str):
        prompt = next((arg for arg in args if isinstance(arg, str)), "")
    return builtins.input(prompt)


class _Harmless:
    """Any other attribute of a stand-in module: callable, returns None, false, empty."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        return None

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Harmless(self._name + "." + attr)

    def __bool__(self):
        return False

    def __iter__(self):
        return iter(())

    def __repr__(self):
        return "<%s: not installed>" % self._name


_QUIET_PREFIXES = ("assert", "check", "expect", "test")


class _OwnDefinition:
    """A name the student's file defines itself, asked of a stand-in module before the file
    defined it (``from hands import has_pair`` above ``def has_pair``): a call goes to the
    file's own definition, as the course's module would have given the same function."""

    def __init__(self, finder, name):
        self._finder, self._name = finder, name

    def __call__(self, *args, **kwargs):
        own = self._finder.owner().get(self._name)
        if own is None or _is_stand_in(own):
            return None
        return own(*args, **kwargs)

    def __repr__(self):
        return "<%s: the file's own>" % self._name


def _is_stand_in(value):
    """A value a stand-in module gave (not the student's own)."""
    return isinstance(value, (_Harmless, _OwnDefinition)) or value is _quiet or \
        value is _stub_input


def _defined_names(tree):
    """Functions and classes a module defines at its top level (inside if/try blocks too, not
    inside functions or classes)."""
    import ast
    names, todo = set(), list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend(getattr(node, field, None) or ())
    return names


def _stub_module_class(finder):
    import types

    class StubModule(types.ModuleType):
        """A module that is not installed: assert-like names do nothing, input-like names
        ask input(), any other name is harmless. ``from it import *`` gives the assert-like
        and input-like names the student's file uses without defining them."""

        def __getattr__(self, attr):
            if attr == "__all__":
                return sorted(name for name in finder.free_names
                              if name.lower().startswith(_QUIET_PREFIXES + ("input",)))
            if attr.startswith("__"):
                raise AttributeError(attr)
            # never a stand-in for what the file defines itself (programs pasted together
            # from a course's pages import its modules AND define their functions)
            own = finder.own(attr)
            if own is not None:
                return own              # not kept: looked up again at every use
            lower = attr.lower()
            if lower.startswith(_QUIET_PREFIXES):
                value = _quiet
            elif lower.startswith("input"):
                value = _stub_input
            else:
                value = _Harmless(self.__name__ + "." + attr)
            setattr(self, attr, value)
            return value

    return StubModule


class _StubFinder:
    """Last on sys.meta_path: a module the student's own file imports that no other finder
    knows gets a stand-in, and its name is recorded for the feedback. Imports made by the
    standard library or the grader are left alone (they may rely on ImportError)."""

    def __init__(self, only=None):
        self.stubbed = []
        self.free_names = set()       # names the student's file uses but never defines
        self.module_class = _stub_module_class(self)
        self.only = only              # a terminal run: only these top-level names
        self.defined = set()          # functions and classes the student's file defines
        self.namespace = None         # the student's module's globals (None: __main__'s)

    def owner(self):
        """The globals of the student's module."""
        if self.namespace is not None:
            return self.namespace
        main = sys.modules.get("__main__")
        return vars(main) if main is not None else {}

    def own(self, name):
        """The file's own ``name``: its definition when made, else a stand-in that calls it;
        None when the file neither defines nor holds such a name."""
        value = self.owner().get(name)
        if value is not None and not _is_stand_in(value):
            return value
        return _OwnDefinition(self, name) if name in self.defined else None

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        if top != fullname and top not in self.stubbed or not _imported_by_student():
            return None
        if self.only is not None and top not in self.only:
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return self.module_class(spec.name)

    def exec_module(self, module):
        module.__path__ = []
        if module.__name__.partition(".")[0] not in self.stubbed:
            self.stubbed.append(module.__name__)


def _imported_by_student():
    """The import statement being run is in one of the student's files."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith("<frozen") or "importlib" in name or name == _BOOT_FILE):
            return _is_student_file(name)
        frame = frame.f_back
    return False


# --- loading the student's module
def _quit_answers(prompt):
    """The answers most likely to end a game that asks something while it is imported, in
    the order to try them when the same question comes again."""
    import re
    text = prompt.lower()
    if "fold" in text or "p/f" in text:
        return ["f"]
    if re.search(r"\bq\b", text):
        return ["q", "quit"]
    if "quit" in text or "exit" in text:
        return ["quit", "exit", "q"]
    return ["n", "no", "q", "quit", "exit"]


class _LoadInput:
    """input() while the module loads: a few answers that end a game (fold, no, quit), then
    the end of input; a statement that keeps asking is stopped."""

    def __init__(self, give_up):
        self.asked = self.total = 0           # in the current statement, in the whole load
        self.give_up = give_up
        self.seen = {}                        # prompt -> times asked

    def __call__(self, prompt=""):
        text = "" if prompt is None else str(prompt)
        sys.stdout.write(text)
        self.asked += 1
        self.total += 1
        if self.asked > LOAD_QUESTIONS + 10:
            self.give_up("it kept asking after the end of input and after the grader "
                         "stopped it")
        if self.asked > LOAD_QUESTIONS:
            raise LoadStopped("asked more than %d questions" % LOAD_QUESTIONS)
        if self.asked > LOAD_ANSWERS:
            sys.stdout.write("\u00abend of input\u00bb\n")
            raise EOFError("EOF when reading a line")
        forms = _quit_answers(text)
        times = self.seen[text] = self.seen.get(text, 0) + 1
        answer = forms[(times - 1) % len(forms)]
        sys.stdout.write("\u00ab%s\u00bb\n" % answer)
        return answer


def _is_definition(node):
    """Kept when only definitions are loaded: functions, classes, imports and assignments
    whose value calls nothing (constants such as RANKS = "23456789XJQKA")."""
    import ast
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        return not any(isinstance(inner, (ast.Call, ast.Lambda, ast.ListComp, ast.DictComp,
                                          ast.SetComp, ast.GeneratorExp))
                       for inner in ast.walk(node.value))
    return False


def _excerpt(text, head=1500, tail=700):
    """What a statement printed, shortened in the middle when long."""
    if len(text) <= head + tail + 100:
        return text
    left_out = len(text) - head - tail
    return "%s\n[... %d characters left out ...]\n%s" % (text[:head], left_out, text[-tail:])


def _load_stuck(line, why, asked, printed):
    """A top-level statement would not stop: end the process; the grader starts a new one
    that skips this statement."""
    _flush()
    send("exit", status="import-stuck", code=3, line=line, error=why, asked=asked,
         printed=_excerpt(printed))
    os._exit(3)


def _free_names(tree):
    """Names a module reads but never binds (and that are not builtins)."""
    import ast
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
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return loaded - bound


def _load_module(target, name, stubs=None):
    """Load the student's file as module ``name`` one top-level statement at a time.

    A statement that fails (a game loop at the top level that runs out of answers, a failing
    assert, exit()) is reported and the load goes on with the next one, so every function the
    file defines can still be called. input() answers as ``_LoadInput`` says; what the load
    prints is kept for the report. The grader may ask to skip some lines (statements that
    did not stop in an earlier try) or to load only definitions. Returns (module, report).
    """
    import __future__
    import ast
    import importlib.util
    source = _python_source(target)
    tree = compile(source, target, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    compile(tree, target, "exec", dont_inherit=True)    # every syntax error before any run
    lines = source.decode("utf-8", "replace").splitlines()
    spec = importlib.util.spec_from_file_location(name, target)
    module = importlib.util.module_from_spec(spec)
    if stubs is not None:
        stubs.free_names = _free_names(tree)
        stubs.defined, stubs.namespace = _defined_names(tree), module.__dict__
    module.__doc__ = ast.get_docstring(tree, clean=False)
    sys.modules[name] = module
    skip = {int(n) for n in os.environ.get("KIT_LOAD_SKIP", "").split(",") if n.strip()}
    only_definitions = os.environ.get("KIT_LOAD") == "definitions"
    report = {"mode": "definitions" if only_definitions else "statements", "problems": [],
              "skipped": [], "asked": 0, "printed": ""}
    printed = io.StringIO()
    answers = _LoadInput(None)
    saved = sys.stdout, sys.stdin, sys.__stdin__, builtins.input
    sys.stdout = printed
    sys.stdin = sys.__stdin__ = _ScriptedStdin(answers)
    builtins.input = answers
    spec._initializing = True       # as importlib does: a circular import says so
    flags = 0
    try:
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                for alias in node.names:
                    feature = getattr(__future__, alias.name, None)
                    flags |= getattr(feature, "compiler_flag", 0)
            text = lines[node.lineno - 1].strip() if node.lineno <= len(lines) else ""
            if node.lineno in skip or only_definitions and not _is_definition(node):
                report["skipped"].append({"line": node.lineno, "statement": text[:80]})
                continue
            send("load", line=node.lineno)
            code = compile(ast.Module([node], []), target, "exec", flags=flags,
                           dont_inherit=True)
            problem = _run_statement(code, module, answers, printed, node.lineno,
                                     isinstance(node, (ast.Import, ast.ImportFrom)))
            if problem:
                problem["statement"] = text[:80]
                report["problems"].append(problem)
    finally:
        sys.stdout, sys.stdin, sys.__stdin__, builtins.input = saved
        spec._initializing = False
    report["asked"] = answers.total
    report["printed"] = _excerpt(printed.getvalue(), 3000, 1000)
    return module, report


def _run_statement(code, module, answers, printed, line, is_import=False):
    """Run one top-level statement; a report when it asked questions or did not finish.
    A failing import statement fails the load, as it fails the program (a circular import,
    a name the module does not have): the functions would miss what it imports."""
    answers.asked, answers.seen = 0, {}
    start = printed.tell()
    answers.give_up = lambda why: _load_stuck(line, why, answers.asked,
                                              printed.getvalue()[start:])
    problem = {"line": line, "error": None, "message": "", "stopped": False}
    limit = _CpuLimit(LOAD_CPU_SECONDS, LoadStopped, answers.give_up)
    try:
        with limit:
            exec(code, module.__dict__)
        if limit.stopped:               # it caught the stop and then finished
            raise LoadStopped()
    except BaseException as exc:  # noqa: B902 - SystemExit and the grader's stops included
        if limit.stopped:
            problem.update(error="LoadStopped", stopped=True, message="used more than %g s "
                           "of CPU time" % LOAD_CPU_SECONDS)
        elif is_import:
            raise
        else:
            problem.update(error=type(exc).__name__, message=str(exc)[:300],
                           traceback=_student_traceback(exc))
    if problem["error"] is None and not answers.asked:
        return None
    problem["asked"] = answers.asked
    problem["printed"] = _excerpt(printed.getvalue()[start:])
    return problem


# --- calls
def _one_call(module, spec, scripted_inputs, done=()):
    """Run one call spec; returns the JSON-able outcome. ``done`` holds the outcomes of the
    batch so far (sent to the grader if this call has to be abandoned)."""
    saved = {}
    saved_code = []
    spies = {}
    try:
        # swap: the grader's own functions in place of the student's (e.g. correct helpers)
        swaps = [(name, _kit_function(ref), ref[2:] == ["deep"])
                 for name, ref in spec.get("swap", {}).items()]
    except Exception as exc:     # noqa: BLE001 - a kit module that cannot load: the grader's
        return {"id": spec.get("id"), "ok": False, "error": "grader",
                "message": "%s: %s" % (type(exc).__name__, exc), "stdout": "", "spies": {}}
    for name, function, deep in swaps:
        if deep and _deep_swap(module, name, function, saved_code):
            continue
        saved.setdefault(name, vars(module).get(name, _MISSING))
        if deep:
            function = _by_name(name)
        setattr(module, name, function)
    for name, returns in spec.get("patch", {}).items():
        saved.setdefault(name, vars(module).get(name, _MISSING))
        setattr(module, name, _Script(name, returns))
    for name in spec.get("spy", []):
        if callable(getattr(module, name, None)):
            saved.setdefault(name, vars(module).get(name, _MISSING))
            spies[name] = _Spy(getattr(module, name), name)
            setattr(module, name, spies[name])
    scripted_inputs[:] = list(spec.get("inputs", []))
    captured = io.StringIO()
    _timeline[:] = []
    _captured[0] = captured
    real_stdout = sys.stdout
    outcome = {"id": spec.get("id")}
    timeout = float(spec.get("timeout", 1.0))

    def give_up(why):
        """The call swallowed its timeout and went on: report it and end the process."""
        sys.stdout = real_stdout
        outcome.update(ok=False, error="timeout", message="did not return within %gs of CPU "
                       "time" % timeout, stdout=captured.getvalue()[:20000], spies={},
                       remaining_inputs=len(scripted_inputs))
        _flush()
        send("result", results=list(done) + [outcome])
        os._exit(0)

    limit = _CpuLimit(timeout, CallTimeout, give_up)
    args, kwargs = spec.get("args", []), spec.get("kwargs", {})
    try:
        if "literal" in spec:   # the arguments as Python literals (int keys, tuples): read only
            import ast
            args, kwargs = ast.literal_eval(spec["literal"])
        sys.stdout = captured
        with limit:
            if "code" in spec:
                scope = {"m": module, "result": None}
                exec(spec["code"], scope)
                value = scope["result"]
            elif "defined" in spec:     # which names the module defines (callables)
                value = {name: callable(_resolve(module, name)) for name in spec["defined"]}
            elif "kit" in spec:         # a kit function given the student's module
                value = _kit_function(spec["kit"])(module, *args, **kwargs)
            elif "each" in spec:        # one function over many inputs
                function = _resolve(module, spec["func"])
                value = _each(function, spec["each"], limit, spec.get("args_after"))
            else:
                value = _resolve(module, spec["func"])(*args, **kwargs)
        if limit.stopped:               # it caught the timeout and then returned
            raise CallTimeout()
        outcome.update(ok=True, value=value if "each" in spec else _jsonable(value),
                       type=type(value).__name__)
        if spec.get("args_after") and "each" not in spec:
            outcome["args_after"] = _jsonable(args)
            outcome["same"] = next((i for i, arg in enumerate(args) if arg is value), None)
    except BaseException as exc:  # noqa: B902 - every student error is reported
        if limit.stopped:
            outcome.update(ok=False, error="timeout", message="did not return within %gs of "
                           "CPU time" % timeout)
        else:
            outcome.update(ok=False, error=type(exc).__name__, message=str(exc)[:300],
                           traceback=_student_traceback(exc))
    finally:
        sys.stdout = real_stdout
        _captured[0] = None
        for name, original in saved.items():
            if original is _MISSING:
                vars(module).pop(name, None)
            else:
                setattr(module, name, original)
        for target, code, defaults, kwdefaults in reversed(saved_code):
            target.__code__, target.__defaults__, target.__kwdefaults__ = \
                code, defaults, kwdefaults
    outcome["stdout"] = captured.getvalue()[:20000]
    outcome["spies"] = {name: spy.log[:50] for name, spy in spies.items()}
    outcome["remaining_inputs"] = len(scripted_inputs)
    if _timeline:
        outcome["timeline"] = list(_timeline)
    return outcome


def run_calls():
    """Load the student's module (not as __main__, see ``_load_module``) and run the grader's
    calls one by one."""
    scripted_inputs = []

    def scripted_input(prompt=""):
        sys.stdout.write(str(prompt))
        _mark("input", "")
        if not scripted_inputs:
            raise EOFError("EOF when reading a line (the grader had no more answers)")
        answer = scripted_inputs.pop(0)
        sys.stdout.write(answer + "\n")
        _mark("answered", "")
        return answer

    target = CONFIG["target"]
    sys.path.insert(0, os.path.dirname(target))
    sys.path.extend(ALLOW)
    sys.argv = [target]
    sys.dont_write_bytecode = True
    _close_side_doors()
    _install_guard()
    stubs = _StubFinder()
    sys.meta_path.append(stubs)
    try:
        module, report = _load_module(target, CONFIG.get("module", "submission"), stubs)
    except BaseException as exc:  # noqa: B902 - a syntax error is the student's
        error = _student_traceback(exc)
        send("exit", status="import-error", code=1, error=error)
        return 1
    report["stubbed"] = list(stubs.stubbed)
    builtins.input = scripted_input
    sys.stdin = sys.__stdin__ = _ScriptedStdin(scripted_input)
    request = ask("ready", load=report)
    while request.get("calls"):
        _take_lent(request.pop("lend", None))
        results = []
        for number, spec in enumerate(request["calls"]):
            results.append(_one_call(module, spec, scripted_inputs, results))
            if results[-1].get("error") == "timeout" and spec.get("stop_on_timeout", True):
                break
            if number % 50 == 49:
                send("tick")                # still working: not idle
        request = ask("result", results=results)
    _flush()
    send("exit", status="finished", code=0, error=None)
    return 0


if __name__ == "__main__":
    _mode = CONFIG.get("mode", "program")
    os._exit(run_program() if _mode in ("program", "runner") else run_calls())
