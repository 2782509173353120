"""The fork server of one grader process, inside the sandbox (``forkserver.py`` grader side).

Started as ``python -I -X utf8 forkserver.py CONFIG_JSON`` inside a bubblewrap sandbox set up by
root, with the folder of the grader's run folders bound at its own path. Starting the student's
Python and importing what the boot file needs takes about 20 ms of CPU; this process does it
once, then makes every run with fork():

* the run's first process (A) takes new mount, PID, IPC, network and host-name namespaces and
  waits for the second;
* the second (B) is PID 1 of the run's namespace, as bubblewrap's own init is: it mounts a fresh
  ``/tmp``, shows the run's own folder again (and no other), mounts a ``/proc`` of the run's
  PID namespace, starts the third and reaps every process of the run until the third ends (so
  nothing the program starts survives the run: the namespace ends with B);
* the third (C) takes the run's terminal as its standard streams, in a session of its own, and
  runs the boot file exactly as ``python -I -X utf8 kitboot.py CONFIG`` would: the boot file
  becomes the run's unprivileged user (which drops every capability) before any student code.

So each run sees what a run in a sandbox of its own sees. The server itself runs only this
file; it never runs student code and reads nothing but the grader's requests.

Messages on the socket (file descriptor ``sock`` of the config), one JSON object each:
``{"run": {"boot": CONFIG_JSON, "env": {...}, "workdir": PATH}}`` with three descriptors (the
terminal, the event pipe's write end, the reply pipe's read end), answered ``{"pid": N}`` (the
run's first process, as this namespace numbers it) or ``{"error": ...}``; then ``{"ack": N}``:
the grader has found process N, which is reaped once it ends (not before: the grader must
find it first), or ``{"kill": N}``: the grader could not find it, and the run is killed. The
server says ``{"ready": true}`` first, or ``{"ready": false, "why": ...}`` where it cannot
work (then the grader starts every run in a sandbox of its own, as before).

Standard library only.
"""
import fcntl
import json
import marshal
import os
import select
import socket
import sys

CONFIG = json.loads(sys.argv[1])
SOCK = socket.socket(fileno=CONFIG["sock"])
BOOT = CONFIG["boot"]                    # the boot file as the sandbox shows it
EVENT_FD, REPLY_FD = 3, 4                # where a run finds its side channel
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
# each run's own: mounts, processes, IPC, network (a loopback device only), host name
NAMESPACES = os.CLONE_NEWNS | os.CLONE_NEWPID | os.CLONE_NEWIPC | os.CLONE_NEWNET | \
    os.CLONE_NEWUTS if hasattr(os, "CLONE_NEWNS") else 0


def _say(message, fds=()):
    data = json.dumps(message).encode()
    if fds:
        socket.send_fds(SOCK, [data], list(fds))
    else:
        SOCK.send(data)


def _preload():
    """What the boot file imports (and the modules those bring), so each run finds them
    loaded; the boot file's own code, read once. Returns (code, mount) or raises."""
    import importlib.util
    for name in ("_json", "resource", "termios", "gc", "_posixsubprocess", "_signal", "posix",
                 "random", "signal", "tokenize", "traceback", "types", "ast",
                 "importlib.machinery"):
        __import__(name)
    with open(BOOT, "rb") as handle:
        data = handle.read()
    if data[:4] == importlib.util.MAGIC_NUMBER:
        code = marshal.loads(data[16:])
    else:
        code = compile(data, BOOT, "exec", dont_inherit=True)
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source, target, kind, flags, data=None):
        encode = (lambda text: text.encode() if text is not None else None)
        if libc.mount(encode(source), encode(target), encode(kind), flags, encode(data)) != 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number), target)

    return code, mount


def _why_not():
    """'' where runs can be made here, else why not."""
    if not hasattr(os, "unshare") or not hasattr(socket, "recv_fds"):
        return "this Python has no os.unshare (3.12+ is needed)"
    if os.geteuid() != 0:
        return "not set up by root"
    return ""


def _self_check():
    """'' when a run made the way runs are made (namespaces, mounts) can start here, else why
    not: a machine that refuses one refuses them all, and the grader then starts every run
    on its own instead of blaming programs for runs that never started."""
    folder = os.path.join(CONFIG["root"], ".forkserver-check-%d" % os.getpid())
    os.mkdir(folder, 0o700)
    try:
        first = os.fork()
        if first == 0:
            code = 2
            try:
                os.unshare(NAMESPACES)
                init = os.fork()
                if init == 0:
                    code = 1
                    _isolate(folder, CONFIG["tmp_bytes"])
                    code = 0
                else:
                    code = os.waitstatus_to_exitcode(os.waitpid(init, 0)[1])
            finally:
                os._exit(code)
        status = os.waitstatus_to_exitcode(os.waitpid(first, 0)[1])
    finally:
        os.rmdir(folder)
    return "" if status == 0 else "a run could not be given its own namespaces here " \
        "(%s)" % ("unshare" if status == 2 else "mount" if status == 1 else status)


def _isolate(workdir, tmp_bytes):
    """In B, PID 1 of the run's new namespaces: a fresh /tmp, the run's own folder and no
    other, a /proc of this PID namespace."""
    own = os.open(workdir, os.O_PATH | os.O_DIRECTORY)
    MOUNT(None, "/", None, MS_REC | MS_PRIVATE)
    MOUNT("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=%d" % tmp_bytes)
    if os.path.isdir(CONFIG["root"]):   # the other run folders (gone already under /tmp)
        MOUNT("tmpfs", CONFIG["root"], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=65536")
    os.makedirs(workdir, mode=0o755, exist_ok=True)
    MOUNT("/proc/self/fd/%d" % own, workdir, None, MS_BIND | MS_REC)
    os.close(own)
    MOUNT("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def _program(request, fds):
    """C: the run's program. Never returns (the boot file ends with os._exit)."""
    os.setsid()
    terminal, events, replies = fds
    # copies above the numbers they are moved to, then in place
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (terminal, events, replies)]
    for fd in (0, 1, 2):
        os.dup2(high[0], fd)
    os.dup2(high[1], EVENT_FD)
    os.dup2(high[2], REPLY_FD)
    os.closerange(REPLY_FD + 1, os.sysconf("SC_OPEN_MAX"))
    os.set_inheritable(EVENT_FD, True)
    os.set_inheritable(REPLY_FD, True)
    os.environ.clear()
    os.environ.update(request["env"])
    # (the run folder belongs to the run's user: the boot file enters it as that user)
    argv = [BOOT, request["boot"]]
    sys.argv = argv
    sys.orig_argv = [sys.executable, "-I", "-X", "utf8"] + argv
    main = type(sys)("__main__")
    main.__dict__.update(__file__=BOOT, __cached__=None, __builtins__=__builtins__)
    sys.modules["__main__"] = main
    code, end, modules = CODE, os._exit, sys.modules
    # nothing of this server stays reachable from the program: not its globals (the frames
    # below the program's hold them), not ctypes (mounting needed it)
    for name in [name for name in globals() if not name.startswith("__")]:
        del globals()[name]
    for name in [name for name in modules if name.split(".")[0] in ("ctypes", "_ctypes")]:
        del modules[name]
    exec(code, main.__dict__)
    end(0)


def _init(request, fds):
    """B: PID 1 of the run. Its namespace (and every process the program started) ends
    when it does."""
    try:
        _isolate(request["workdir"], CONFIG["tmp_bytes"])
        program = os.fork()
    except BaseException as exc:  # noqa: B902 - told on the terminal, the run ends at once
        os.write(fds[0], ("the grader could not start this run: %s\n" % exc).encode())
        os._exit(70)
    if program == 0:
        _program(request, fds)
    for fd in fds:
        os.close(fd)
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(70)
        except InterruptedError:
            continue
        if pid == program:
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _first(request, fds):
    """A: the run's own namespaces, then its init."""
    try:
        SOCK.close()
        os.setpgid(0, 0)
        os.unshare(NAMESPACES)
        init = os.fork()
    except BaseException as exc:  # noqa: B902
        os.write(fds[0], ("the grader could not start this run: %s\n" % exc).encode())
        os._exit(70)
    if init == 0:
        _init(request, fds)
    for fd in fds:
        os.close(fd)
    while True:
        try:
            _, status = os.waitpid(init, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        except InterruptedError:
            continue


def _serve():
    acked = set()               # runs the grader has found: reaped once they end
    while True:
        ready, _, _ = select.select([SOCK], [], [], 0.5)
        for pid in list(acked):
            try:
                ended = os.waitpid(pid, os.WNOHANG)[0]
            except ChildProcessError:
                ended = pid
            if ended:
                acked.discard(pid)
        if not ready:
            continue
        data, fds, _, _ = socket.recv_fds(SOCK, 1 << 20, 3)
        if not data:
            return                                      # the grader is done
        try:
            message = json.loads(data)
        except ValueError:
            message = {}
        if "run" not in message or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            if isinstance(message.get("ack"), int):
                acked.add(message["ack"])
            elif isinstance(message.get("kill"), int):      # the grader could not find it
                try:
                    os.killpg(message["kill"], 9)           # its first process and its init
                except OSError:
                    pass
                acked.add(message["kill"])
            else:
                _say({"error": "a request the server does not know"})
            continue
        try:
            pid = os.fork()
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            _say({"error": str(exc)})
            continue
        if pid == 0:
            _first(message["run"], fds)
        for fd in fds:
            os.close(fd)
        _say({"pid": pid})


WHY_NOT = _why_not()
if WHY_NOT:
    _say({"ready": False, "why": WHY_NOT})
    sys.exit(0)
try:
    CODE, MOUNT = _preload()
    WHY_NOT = _self_check()
except Exception as exc:  # noqa: BLE001 - no fork server: every run starts on its own
    WHY_NOT = "%s: %s" % (type(exc).__name__, exc)
if WHY_NOT:
    _say({"ready": False, "why": WHY_NOT})
    sys.exit(0)
# what is loaded now is never collected: a collection in a run would otherwise walk (and so
# copy) every page of it
import gc  # noqa: E402
gc.collect()
gc.freeze()
_say({"ready": True, "pid": os.getpid()})
_serve()
