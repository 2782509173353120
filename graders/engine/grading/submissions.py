"""Finding submissions: one file, one folder, a ``.zip``, or a class folder (e.g. a Canvas bulk
download).

Canvas names loose files ``lastfirst_[LATE_]userid_submissionid_a5[-N].py``: one student is
one user id, and of the uploads of one file the latest is graded (the highest submission id,
then the highest ``-N``, which Canvas adds to a re-uploaded file of the same name); the
student's feedback names the older uploads. A ``.zip`` among them is unpacked and its files
join the loose ones. Files no layout explains are left out and named by ``layout_warnings``.

A submission is files, not links. Its files are copied, when it is found, into a private folder
of the grader's own, and everything the grader reads afterwards (the run folders, the static
checks) comes from those copies. Only regular files are copied: a symbolic link, a hard link,
a device, a named pipe or a socket among a submission's files refuses the whole submission
(it scores 0 and is listed for a TA), so a link to the reference solution earns nothing.
Files are opened relative to their folder and with ``O_NOFOLLOW``, so no path the student
controls is followed. A ``.zip`` (Canvas's form for multi-file submissions) is unpacked by
reading its members, never by writing to the paths it names.
"""
from __future__ import annotations

import atexit
import io
import os
import re
import shutil
import stat
import tempfile
import tokenize
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..run import static
from ..run.files import OPEN_FLAGS
from ..judge.requirements import listed
from ..judge.rubric import DATA_ROOT, Rubric

# name_[LATE_]userid_submissionid_original[-N].ext, or the older name_number_original
CANVAS = re.compile(r"^(?P<name>[^\W_]+)(?P<late>_late)?_(?P<first>\d+)(?:_(?P<second>\d+))?"
                    r"_(?P<file>.+?)(?:-(?P<copy>\d+))?(?P<ext>\.\w+)?$", re.I)
IGNORED = {"__pycache__", ".git", ".DS_Store", "__MACOSX", ".venv", "venv", ".idea",
           ".vscode"}

MAX_FILE_BYTES = 2_000_000         # a bigger file is left out (and listed for a TA)
MAX_FILES = 200                    # files taken from one submission folder
MAX_ZIP_BYTES = 20_000_000         # a .zip larger than this, unpacked, is refused
MAX_ZIP_MEMBERS = 500
# Subfolders (a package the main file imports: game/card.py) are taken with the files beside
# the main file, as regular files only and within a .zip's bounds: MAX_FILES files and
# MAX_ZIP_BYTES in all, at most MAX_DEPTH folders deep. What is left out is named, with why.
MAX_DEPTH = 4
SHOWN_LEFT_OUT = 10                # files left out named one by one in a note
BOM = b"\xef\xbb\xbf"

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass
class Submission:
    """One student's work: where it came from and the grader's copies of its files."""

    student: str
    folder: Path
    files: dict[str, Path]                 # name in the run folder -> the grader's own copy
    main_name: str
    notes: list[str] = field(default_factory=list)       # for the student's feedback
    problems: list[str] = field(default_factory=list)    # for a TA (needs_review.md)
    refused: str | None = None             # why it cannot be graded at all (e.g. a link)
    seen: list[str] = field(default_factory=list)        # what the submission held
    user_id: str | None = None             # Canvas user id (None for folders, unknown names)
    late: bool = False                     # Canvas marked the graded upload LATE
    submission_id: str | None = None       # Canvas submission id of the graded upload
    display_name: str = ""                 # the name part of Canvas's file names
    graded_file: str = ""                  # the main file as the student named it: a5-2.py,
    #                                        "a5.py in work.zip", half.py (for the class page)

    @property
    def main(self) -> Path | None:
        return None if self.refused else self.files.get(self.main_name)

    @property
    def found(self) -> bool:
        return self.main is not None

    @property
    def missing_why(self) -> str:
        """Why there is nothing to grade, in one sentence naming what was found."""
        if self.refused:
            return self.refused
        if not self.seen:
            return f"no {self.main_name}: the submission is empty"
        listed = ", ".join(self.seen[:20])
        if len(self.seen) > 20:
            listed += f" and {len(self.seen) - 20} more"
        return f"no {self.main_name}: the submission holds {listed}"


class Refused(Exception):
    """A submission the grader will not take (a link, a device, a bad .zip)."""


def shown(name: str) -> str:
    """A file name as it may appear in a report: printable, on one line."""
    return name if name.isprintable() else repr(name)


def safe_student(name: str) -> str:
    """A student name usable as a report folder and on one line of a report. Letters of any
    language stay (möllerjosè, not m_llerjos_: two such names must not become one, and a
    TA reads them); anything else but digits, '_', '.' and '-' becomes '_' (no separators,
    spaces, control or direction characters)."""
    cleaned = re.sub(r"[^\w.-]", "_", unicodedata.normalize("NFC", name)).lstrip(".")[:100]
    return cleaned or "student"


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refusal(what: str, kind: str) -> str:
    advice = "a copy, not a link" if "link" in kind else "a regular file"
    return (f"{what} is {kind}, not a file: the grader only takes regular files that belong "
            f"to the submission. Submit the file itself ({advice}).")


class _Stage:
    """The grader's private copies of one submission's files."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="kit-sub-"))
        _made.append(self.folder)
        self.files: dict[str, Path] = {}
        self.problems: list[str] = []
        self.oversize: dict[str, tuple[int, int]] = {}    # name -> (bytes, the limit)
        self.origin: dict[str, str] = {}    # staged name -> how the student named it
        self.chosen = ""                    # a file given by its path, taken as the main file

    def add(self, name: str, data: bytes) -> None:
        """Keep a file under ``name`` (a relative path: game/card.py for a subfolder's)."""
        if name in self.files:
            return
        parts = name.split("/")
        path = self.folder.joinpath(*parts)
        try:
            if "" in parts or ".." in parts or "." in parts:
                raise ValueError(name)
            if len(parts) > 1:          # the stage is the grader's own: no link in it
                os.makedirs(path.parent, exist_ok=True)
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o644)
        except (OSError, ValueError):
            self.problems.append(f"{shown(name)} left out: the name cannot be used here")
            return
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        self.files[name] = path

    def copy(self, dir_fd: int, name: str, as_name: str, what: str) -> None:
        """Copy one entry of an open folder; refuse anything but a regular file."""
        try:
            handle = os.open(name, OPEN_FLAGS, dir_fd=dir_fd)
        except OSError as exc:
            info = _lstat(dir_fd, name)
            if info is not None and not stat.S_ISREG(info.st_mode):
                raise Refused(_refusal(what, _kind(info.st_mode))) from None
            raise Refused(f"{what} could not be read ({exc.strerror}).") from None
        limit = MAX_ZIP_BYTES if as_name.lower().endswith(".zip") else MAX_FILE_BYTES
        try:
            info = os.fstat(handle)
            if not stat.S_ISREG(info.st_mode):
                raise Refused(_refusal(what, _kind(info.st_mode)))
            if info.st_nlink > 1:
                raise Refused(f"{what} has {info.st_nlink} names on this disk (a hard link to "
                              f"another file): the grader only takes files that belong to the "
                              f"submission alone. Submit a copy of the file, not a link.")
            if info.st_size > limit:
                self.problems.append(f"{what} left out: {info.st_size:,} bytes (the limit is "
                                     f"{limit:,})")
                self.oversize.setdefault(as_name, (info.st_size, limit))
                return
            data = os.read(handle, limit + 1)
            while len(data) <= limit:
                more = os.read(handle, limit + 1 - len(data))
                if not more:
                    break
                data += more
        finally:
            os.close(handle)
        if len(data) > limit:
            self.problems.append(f"{what} left out: larger than {limit:,} bytes")
            self.oversize.setdefault(as_name, (len(data), limit))
            return
        self.add(as_name, data)


_made: list[Path] = []


@atexit.register
def _remove_stages() -> None:
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)


def _lstat(dir_fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None


def _open_folder(path: Path, dir_fd: int | None = None) -> int:
    return os.open(path, _DIR_FLAGS, dir_fd=dir_fd)


def _entries(dir_fd: int) -> list[tuple[str, os.stat_result]]:
    """The folder's entries worth looking at (not caches, editors' or version control's)."""
    found = []
    for name in sorted(os.listdir(dir_fd)):
        if name in IGNORED or name.startswith("._"):
            continue
        info = _lstat(dir_fd, name)
        if info is not None:
            found.append((name, info))
    return found


# --------------------------------------------------------------------- zips
def _unpack(data: bytes, what: str, main_name: str, stage: _Stage, seen: list[str]) -> str:
    """The files of a .zip, from the folder that holds the main file (or its only folder)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise Refused(f"{what} could not be opened as a .zip ({exc}).") from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise Refused(f"{what} holds {len(members)} entries; the grader unpacks at most "
                      f"{MAX_ZIP_MEMBERS}.")
    files = []
    for member in members:
        name = member.filename.replace("\\", "/")
        parts = [p for p in name.split("/") if p]
        if name.startswith("/") or ".." in parts or re.match(r"^[A-Za-z]:", name):
            raise Refused(f"{what} names a path outside itself ({shown(member.filename)}); "
                          f"the grader does not unpack such a .zip.")
        if stat.S_ISLNK(member.external_attr >> 16):
            raise Refused(_refusal(f"{shown(member.filename)} in {what}", "a symbolic link"))
        junk = any(p in IGNORED or p.startswith("._") for p in parts)
        if member.is_dir() or not parts or junk:
            continue
        if member.flag_bits & 0x1:
            raise Refused(f"{what} is encrypted; submit a .zip without a password.")
        files.append((parts, member))
        seen.append(f"{what}: {shown('/'.join(parts))}")
    total = sum(m.file_size for _, m in files)
    if total > MAX_ZIP_BYTES:
        raise Refused(f"{what} unpacks to {total:,} bytes; the grader unpacks at most "
                      f"{MAX_ZIP_BYTES:,}.")
    mains = sorted((p for p, _ in files if p[-1].lower() == main_name.lower()), key=len)
    if mains:
        where = mains[0][:-1]
    else:
        tops = {tuple(p[:1]) for p, _ in files if len(p) > 1}
        where = list(tops.pop()) if len(tops) == 1 and all(len(p) > 1 for p, _ in files) \
            else []
    left_out = []
    for parts, member in files:
        if parts[:len(where)] != where:
            left_out.append(f"{shown('/'.join(parts))} (outside {shown('/'.join(where))}/)")
            continue
        if len(parts) - len(where) - 1 > MAX_DEPTH:
            left_out.append(f"{shown('/'.join(parts))} (more than {MAX_DEPTH} folders deep)")
            continue
        if member.file_size > MAX_FILE_BYTES:
            stage.problems.append(f"{shown('/'.join(parts))} in {what} left out: "
                                  f"{member.file_size:,} bytes")
            stage.oversize.setdefault(parts[-1], (member.file_size, MAX_FILE_BYTES))
            continue
        try:
            with archive.open(member) as handle:
                content = handle.read(MAX_FILE_BYTES + 1)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
            raise Refused(f"{shown(member.filename)} in {what} could not be unpacked "
                          f"({exc}).") from None
        if len(content) <= MAX_FILE_BYTES:
            stage.add("/".join(parts[len(where):]), content)
    taken = f"the files in {shown('/'.join(where))}/" if where else "its files"
    if left_out:
        stage.problems.append(f"left out of {what}: {_listed(left_out)}")
        taken += f" (left out: {_listed(left_out)})"
    return taken


def _unpack_zips(stage: _Stage, main_name: str, notes: list[str], seen: list[str]) -> None:
    """A submission without its main file but with a .zip: the .zip's files, unpacked."""
    if main_name in stage.files or main_name.lower() in (n.lower() for n in stage.files):
        return
    for name in [n for n in stage.files if n.lower().endswith(".zip")]:
        data = stage.files.pop(name).read_bytes()
        before = set(stage.files)
        taken = _unpack(data, shown(name), main_name, stage, seen)
        for new in set(stage.files) - before:
            stage.origin.setdefault(new, f"{shown(new)} in {shown(name)}")
        notes.append(f"unpacked {shown(name)} and took {taken}")
        stage.problems.append(f"unpacked {shown(name)} and took {taken}")


# --------------------------------------------------------------------- the main file
def _main_in(files: dict[str, Path], main_name: str, notes: list[str],
             chosen: str = "") -> tuple[dict[str, Path], str]:
    """Make sure the main file has its required name (rename a lone .py file, or the file
    given by its path, if need be); also the name it had."""
    if main_name in files:
        return files, main_name
    lower = {name.lower(): name for name in files}
    if main_name.lower() in lower:
        original = lower[main_name.lower()]
        notes.append(f"used {shown(original)} as {main_name}")
        files[main_name] = files.pop(original)
        return files, original
    if chosen in files:
        # the file named on the command line is the main file, whatever lies beside it
        notes.append(f"used {shown(chosen)} as {main_name} (the file given to the grader)")
        files[main_name] = files.pop(chosen)
        return files, chosen
    python_files = [n for n in files if n.endswith(".py") and not n.startswith("test_")
                    and "/" not in n]
    if len(python_files) == 1:
        notes.append(f"used {shown(python_files[0])} as {main_name} (the only Python file)")
        files[main_name] = files.pop(python_files[0])
        return files, python_files[0]
    return files, ""


def encoding_problem(data: bytes) -> str | None:
    """Why Python would refuse to run a file with these bytes, or None.

    Python reads a program as UTF-8 unless its first two lines declare another encoding
    (PEP 263); a byte that is not UTF-8 (Latin-1 'é' in a comment, say) stops the program
    with a SyntaxError before its first line runs.
    """
    try:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as exc:
            if re.search(rb"^[ \t\f]*#.*?coding[:=]", b"\n".join(data.split(b"\n")[:2]),
                         re.M):
                return str(exc)            # a coding line Python does not understand
            encoding = "utf-8"             # a byte that is not UTF-8 in the first two lines
        data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        start = getattr(exc, "start", 0)
        line = data.count(b"\n", 0, start) + 1
        return (f"byte 0x{data[start]:02x} on line {line} is not UTF-8 and the file declares "
                "no other encoding")
    return None


def _inspect_main(submission: Submission) -> None:
    """Note what Python itself makes of the main file's bytes (for a TA and the student)."""
    main = submission.main
    if main is None:
        return
    data = main.read_bytes()
    name = submission.main_name
    # an empty file needs no line here: its review items are set to 0, saying so
    if data.startswith(BOM):
        submission.notes.append(f"{name} starts with a byte-order mark (an invisible "
                                "character some editors add); Python ignores it, and so did "
                                "the grader.")
        submission.problems.append(f"{name} starts with a UTF-8 byte-order mark (graded as "
                                   "Python runs it; nothing deducted)")
    problem = encoding_problem(data) if data.strip() else None
    if problem:
        submission.problems.append(f"{name} is not saved as UTF-8 ({problem}): Python refuses "
                                   "to run it, and it was graded as that SyntaxError")


def _finish(student: str, folder: Path, stage: _Stage, main_name: str, notes: list[str],
            seen: list[str], refused: str | None = None) -> Submission:
    notes = list(notes)
    files: dict[str, Path] = {}
    if refused is None:
        try:
            _unpack_zips(stage, main_name, notes, seen)
        except Refused as exc:
            refused = str(exc)
        files, original = _main_in(dict(stage.files), main_name, notes, stage.chosen)
        if refused is None and main_name not in files:
            refused = _too_big(stage, main_name)
    submission = Submission(safe_student(student), folder, files, main_name, notes,
                            list(stage.problems), refused, seen)
    if refused is None and main_name in files:
        submission.graded_file = stage.origin.get(original, shown(original))
    if refused:
        submission.files = {}
        submission.problems.insert(0, f"refused: {refused}")
    _inspect_main(submission)
    return submission


def _too_big(stage: _Stage, main_name: str) -> str | None:
    """Why a submission whose main file was left out for its size is refused (graded 0,
    saying so), rather than reported as having no main file at all."""
    for name, (size, limit) in stage.oversize.items():
        if name.lower() == main_name.lower():
            return (f"{shown(name)} is {size:,} bytes, over the {limit:,}-byte limit for a "
                    f"file of a submission. A program is rarely more than a few thousand "
                    f"lines: submit the program itself, without pasted data.")
    return None


# --------------------------------------------------------------------- finding submissions
def _take_folder(dir_fd: int, prefix: str, stage: _Stage, seen: list[str]) -> None:
    """Copy a folder's files (not its subfolders); refuse links and special files."""
    taken = 0
    for name, info in _entries(dir_fd):
        what = shown(prefix + name)
        if stat.S_ISDIR(info.st_mode):
            seen.append(what + "/")
            continue
        seen.append(what)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(_refusal(what, _kind(info.st_mode)))
        taken += 1
        if taken > MAX_FILES:
            raise Refused(f"the submission holds more than {MAX_FILES} files.")
        stage.copy(dir_fd, name, name, what)


@dataclass
class _Tree:
    """The files taken below a submission's folder, and those left out (with why)."""

    taken: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def say(self, notes: list[str], problems: list[str]) -> None:
        """Notes for the student (and a TA) naming what was taken and left out."""
        if self.taken:
            notes.append(f"took the files in its subfolders too: {_listed(self.taken)}")
        if self.left_out:
            shown_out = "; ".join(self.left_out[:SHOWN_LEFT_OUT])
            more = len(self.left_out) - SHOWN_LEFT_OUT
            text = (f"left out {len(self.left_out)} file(s) of its subfolders: {shown_out}"
                    + (f"; and {more} more" if more > 0 else ""))
            notes.append(text)
            problems.append(text)


def _take_subfolders(dir_fd: int, prefix: str, name_prefix: str, stage: _Stage,
                     seen: list[str], tree: _Tree, depth: int = 1) -> None:
    """Copy the files of a folder's subfolders (a package: game/card.py) as regular files
    only, within the bounds of a .zip; what cannot be taken is left out and named in
    ``tree``. Hidden folders and virtual environments are not the program's."""
    for name, info in _entries(dir_fd):
        if not stat.S_ISDIR(info.st_mode) or name.startswith("."):
            continue
        what = shown(prefix + name) + "/"
        if depth > MAX_DEPTH:
            tree.left_out.append(f"{what} (more than {MAX_DEPTH} folders deep)")
            continue
        inner = _open_folder(name, dir_fd)
        try:
            if _lstat(inner, "pyvenv.cfg") is not None:
                tree.left_out.append(f"{what} (a virtual environment, not part of the "
                                     "program)")
                continue
            _take_files_below(inner, prefix + name + "/", name_prefix + name + "/", stage,
                              seen, tree)
            _take_subfolders(inner, prefix + name + "/", name_prefix + name + "/", stage,
                             seen, tree, depth + 1)
        finally:
            os.close(inner)


def _take_files_below(dir_fd: int, prefix: str, name_prefix: str, stage: _Stage,
                      seen: list[str], tree: _Tree) -> None:
    """The regular files of one subfolder (a link, a device or too much is left out)."""
    for name, info in _entries(dir_fd):
        if stat.S_ISDIR(info.st_mode):
            continue
        what = shown(prefix + name)
        seen.append(what)
        why = _cannot_take(info, stage)
        if why is None:
            try:
                stage.copy(dir_fd, name, name_prefix + name, what)
            except Refused as exc:          # a hard link: left out, never followed
                why = str(exc).split(":")[0].removeprefix(what).strip() or "refused"
        if why is None and name_prefix + name in stage.files:
            tree.taken.append(name_prefix + name)
        else:
            tree.left_out.append(f"{what} ({why or 'the name cannot be used here'})")


def _cannot_take(info: os.stat_result, stage: _Stage) -> str | None:
    """Why a subfolder's file is left out (not a regular file, or past the bounds), or None."""
    if not stat.S_ISREG(info.st_mode):
        return f"{_kind(info.st_mode)}, not a regular file"
    if len(stage.files) >= MAX_FILES:
        return f"the grader takes at most {MAX_FILES} files"
    if info.st_size > MAX_FILE_BYTES:
        return f"{info.st_size:,} bytes (the limit is {MAX_FILE_BYTES:,})"
    if sum(path.stat().st_size for path in stage.files.values()) + info.st_size > MAX_ZIP_BYTES:
        return f"the grader takes at most {MAX_ZIP_BYTES:,} bytes in all"
    return None


def _from_folder(path: Path, main_name: str, stage: _Stage, notes: list[str],
                 seen: list[str], parent_fd: int | None = None) -> None:
    handle = _open_folder(path if parent_fd is None else path.name, parent_fd)
    tree = _Tree()
    try:
        _take_folder(handle, "", stage, seen)
        names = {n.lower() for n in stage.files}
        folders = [(n, i) for n, i in _entries(handle) if stat.S_ISDIR(i.st_mode)]
        if main_name.lower() in names or any(n.endswith(".zip") for n in names) \
                or len(folders) != 1:
            _take_subfolders(handle, "", "", stage, seen, tree)
            return
        inner = _open_folder(folders[0][0], handle)
        try:
            info = _lstat(inner, main_name)
            if info is None:
                _take_subfolders(handle, "", "", stage, seen, tree)
                return
            notes.append(f"found {main_name} inside {shown(folders[0][0])}/")
            _take_folder(inner, folders[0][0] + "/", stage, [])
            _take_subfolders(inner, folders[0][0] + "/", "", stage, [], tree)
        finally:
            os.close(inner)
    finally:
        os.close(handle)
        tree.say(notes, stage.problems)


def from_path(path: Path, main_name: str, student: str | None = None,
              siblings: list[str] = ()) -> Submission:
    """A submission given as one file (perhaps a .zip) or as a folder holding the main file.

    The path itself is the TA's choice; what it holds is the student's, and is taken only as
    regular files (see the module's docstring). The main file given by its path brings the
    files beside it that are named in ``siblings`` (the rubric's ``files``: ``project.py``
    takes ``dice.py``), as its folder would.
    """
    path = Path(path)
    notes: list[str] = []
    seen: list[str] = []
    stage = _Stage()
    name = student or (path.stem if not path.is_dir() else path.name)
    info = _safe_lstat(path)
    canvas = None if path.is_dir() else parse_canvas_name(path.name)
    submission = _from_path(path, main_name, name, info, canvas, stage, notes, seen,
                            siblings)
    if canvas is not None:
        submission.display_name = canvas.display_name
        submission.user_id, submission.late = canvas.user_id, canvas.late
        submission.submission_id = canvas.submission_id
    return submission


def _from_path(path: Path, main_name: str, name: str, info: os.stat_result | None,
               canvas: CanvasName | None, stage: _Stage, notes: list[str],
               seen: list[str], siblings: list[str] = ()) -> Submission:
    try:
        if path.is_dir():
            _from_folder(path.resolve(), main_name, stage, notes, seen)
            return _finish(name, path, stage, main_name, notes, seen)
        if info is None:
            return _finish(name, path.parent, stage, main_name, notes, seen)
        as_name = path.name
        if canvas is not None and path.name != main_name:
            as_name = canvas.original
        seen.append(shown(path.name))
        parent = _open_folder(path.parent.resolve())
        try:
            stage.copy(parent, path.name, as_name, shown(path.name))
            if canvas is not None and as_name != path.name:
                stage.origin[as_name] = shown(canvas.label)
            chosen = (as_name.lower().endswith(".py") and canvas is None
                      and path.name.lower() != main_name.lower())
            if chosen:
                stage.chosen = as_name      # the TA's or student's choice of main file
            if path.name.lower() == main_name.lower() or chosen:
                beside = [n for n in siblings if n.lower() != main_name.lower()
                          and n.lower() != path.name.lower()
                          and _lstat(parent, n) is not None]
                for sibling in beside:
                    seen.append(shown(sibling))
                    stage.copy(parent, sibling, sibling, shown(sibling))
                if beside:
                    notes.append(f"took {_listed(beside)} from beside {shown(path.name)} "
                                 f"(files of this assignment)")
        finally:
            os.close(parent)
    except Refused as exc:
        return _finish(name, path.parent, stage, main_name, notes, seen, str(exc))
    except OSError as exc:
        return _finish(name, path.parent, stage, main_name, notes, seen,
                       f"{shown(path.name)} could not be read ({exc.strerror}).")
    return _finish(name, path.parent, stage, main_name, notes, seen)


def _safe_lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


# --------------------------------------------------------------------- class folders
@dataclass
class CanvasName:
    """What Canvas's bulk download says in one file name (see ``parse_canvas_name``)."""

    display_name: str              # the name part, e.g. "smithjane"
    late: bool
    user_id: str | None            # None in the older one-number form (see below)
    submission_id: str | None
    order: int                     # the number that orders one student's uploads
    copy: int                      # Canvas's -N for a re-uploaded file of the same name (0)
    original: str                  # the file's name as the student uploaded it, e.g. a5.py

    @property
    def label(self) -> str:
        """The upload as a student knows it: ``a5-1.py`` for Canvas's second ``a5.py``."""
        if not self.copy:
            return self.original
        stem, dot, ext = self.original.rpartition(".")
        return f"{stem}-{self.copy}.{ext}" if dot and stem else f"{self.original}-{self.copy}"


def parse_canvas_name(entry: str) -> CanvasName | None:
    """Canvas's name for a loose file of a bulk download, or None for any other name.

    ``name_[LATE_]userid_submissionid_original[-N].ext``. Interpretation: the older form
    with a single number (``smithjane_67890_a5.py``) does not say whether the number is the
    user's or the submission's, so neither id is taken from it (a CSV for Canvas must not
    guess a student); the number still orders the uploads, and the student is the name part.
    """
    match = CANVAS.match(entry)
    if not match:
        return None
    first, second = match.group("first"), match.group("second")
    original = match.group("file") + (match.group("ext") or "")
    return CanvasName(display_name=match.group("name").lower(), late=bool(match.group("late")),
                      user_id=first if second else None, submission_id=second,
                      order=int(second or first), copy=int(match.group("copy") or 0),
                      original=original)


@dataclass
class _Upload:
    entry: str                     # its name in the class folder
    info: os.stat_result
    canvas: CanvasName


@dataclass
class _Plan:
    """How a class folder's entries are read: one list per student, and what was left out."""

    folders: dict[str, str] = field(default_factory=dict)          # student -> folder name
    canvas: dict[str, list[_Upload]] = field(default_factory=dict)  # student -> uploads
    loose: dict[str, list[tuple[str, os.stat_result]]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _listed(names: list[str]) -> str:
    """``a, b and c``, each name shown safely (at most 20, then how many more)."""
    return listed(map(shown, names), limit=20)


def _plan(dir_fd: int, main_name: str) -> _Plan:
    """Sort a class folder's entries into students (reading names only, copying nothing).

    Understood layouts: a folder per student; loose files named as Canvas names them
    (grouped by user id); a loose ``.py`` or ``.zip`` per student named otherwise (the
    student is the file's stem). Anything else (a loose ``notes.txt``, a ``grades.csv``) is
    left out and named in a warning rather than made into a student with nothing to grade.
    """
    plan = _Plan()
    uploads: list[_Upload] = []
    unknown: list[str] = []
    loose: dict[str, list[tuple[str, os.stat_result]]] = {}
    folders: list[str] = []
    for entry, info in _entries(dir_fd):
        if entry.startswith("."):
            continue
        if stat.S_ISDIR(info.st_mode):
            folders.append(entry)
            continue
        canvas = parse_canvas_name(entry)
        if canvas is not None:
            uploads.append(_Upload(entry, info, canvas))
        elif (not stat.S_ISREG(info.st_mode)
              or Path(entry).suffix.lower() in (".py", ".zip")):
            # a link or a pipe is a student's submission to refuse, not an unknown file
            loose.setdefault(Path(entry).stem, []).append((entry, info))
        else:
            unknown.append(entry)
    # one student = one user id: a name part shared by two user ids is two students
    by_person: dict[tuple[str, str | None], list[_Upload]] = {}
    for upload in uploads:
        key = (upload.canvas.display_name, upload.canvas.user_id)
        by_person.setdefault(key, []).append(upload)
    names = [name for name, _ in by_person]
    taken: set[str] = set()
    for entry in folders:
        plan.folders[_unique(safe_student(entry), None, taken)] = entry
    for (name, user_id), group in sorted(by_person.items(), key=lambda kv: (kv[0][0],
                                                                            kv[0][1] or "")):
        wanted = f"{name}_{user_id}" if user_id and names.count(name) > 1 else name
        student = _unique(safe_student(wanted), user_id, taken)
        if student != safe_student(wanted):
            plan.warnings.append(f"{_listed([u.entry for u in group])}: the name "
                                 f"{safe_student(wanted)} was already taken by a folder; "
                                 f"graded as {student}")
        plan.canvas[student] = group
    for stem, entries in sorted(loose.items()):
        student = _unique(safe_student(stem), None, taken)
        plan.loose[student] = entries
        if Path(main_name).stem.lower() == stem.lower():
            plan.warnings.append(f"{_listed([e for e, _ in entries])} in the class folder is "
                                 f"named like the assignment's own file, not after a student: "
                                 f"graded as a student called {student} (is this one "
                                 f"student's folder rather than a class?)")
    if unknown:
        plan.warnings.append(f"{len(unknown)} file(s) in the class folder match no layout the "
                             f"grader understands (a folder per student, Canvas's names, or a "
                             f".py or .zip per student) and were left out: {_listed(unknown)}")
    return plan


def _unique(student: str, user_id: str | None, taken: set[str]) -> str:
    """``student``, or with the user id (or a number) added if a folder already has it."""
    candidate, number = student, 1
    while candidate in taken:
        number += 1
        candidate = f"{student}_{user_id}" if user_id and number == 2 else f"{student}_{number}"
    taken.add(candidate)
    return candidate


def layout_warnings(folder: Path, main_name: str) -> list[str]:
    """What a TA should hear once about a class folder's layout: the entries no layout
    explains (named), and students renamed because a name was taken."""
    handle = _open_folder(Path(folder).resolve())
    try:
        return _plan(handle, main_name).warnings
    finally:
        os.close(handle)


def students_in(folder: Path, main_name: str) -> list[str]:
    """The students of a class folder, as ``discover`` names them (nothing is copied)."""
    handle = _open_folder(Path(folder).resolve())
    try:
        plan = _plan(handle, main_name)
    finally:
        os.close(handle)
    return sorted({*plan.folders, *plan.canvas, *plan.loose})


def discover(folder: Path, main_name: str, students: set[str] | None = None) \
        -> list[Submission]:
    """Every submission in a class folder: subfolders, then loose (Canvas-named) files.

    ``students``: only these (the others are found but not copied). Files that match no
    layout are left out; ``layout_warnings`` names them.
    """
    folder = Path(folder).resolve()
    found: list[Submission] = []
    handle = _open_folder(folder)
    try:
        plan = _plan(handle, main_name)
        for student, entry in plan.folders.items():
            if students is None or student in students:
                found.append(_one_folder(folder / entry, student, main_name, handle))
        for student, group in plan.canvas.items():
            if students is None or student in students:
                found.append(_canvas_submission(handle, folder, student, group, main_name))
        for student, entries in plan.loose.items():
            if students is not None and student not in students:
                continue
            stage, seen, refused = _Stage(), [], None
            try:
                for entry, info in entries:
                    seen.append(shown(entry))
                    if not stat.S_ISREG(info.st_mode):
                        raise Refused(_refusal(shown(entry), _kind(info.st_mode)))
                    stage.copy(handle, entry, entry, shown(entry))
            except Refused as exc:
                refused = str(exc)
            found.append(_finish(student, folder, stage, main_name, [], seen, refused))
    finally:
        os.close(handle)
    return found


def _canvas_submission(dir_fd: int, folder: Path, student: str, uploads: list[_Upload],
                       main_name: str) -> Submission:
    """One student's Canvas uploads: the latest upload of each file is graded.

    Latest means the highest submission id, then the highest ``-N``; at a tie a file
    uploaded on its own beats a file of the same name inside a .zip (it was chosen one by
    one). A .zip is unpacked as in ``_unpack`` and its files join the loose ones.
    """
    newest_first = sorted(uploads, reverse=True,
                          key=lambda u: (u.canvas.order, u.canvas.copy,
                                         not u.entry.lower().endswith(".zip"), u.entry))
    stage, notes, seen = _Stage(), [], [shown(u.entry) for u in sorted(uploads,
                                                                       key=lambda u: u.entry)]
    graded: dict[str, tuple[str, _Upload]] = {}   # staged name (lower) -> (label, upload)
    older: dict[str, list[str]] = {}
    labels = [u.canvas.label.lower() for u in uploads]

    def label_of(upload: _Upload) -> str:
        label = upload.canvas.label
        if labels.count(label.lower()) > 1 and upload.canvas.order:
            label += f" (submission {upload.canvas.order})"
        return shown(label)

    def take(name: str, label: str, upload: _Upload) -> bool:
        if name.lower() in graded:
            older.setdefault(name.lower(), []).append(label)
            return False
        graded[name.lower()] = (label, upload)
        return True

    refused = None
    try:
        for upload in uploads:
            if not stat.S_ISREG(upload.info.st_mode):
                raise Refused(_refusal(shown(upload.entry), _kind(upload.info.st_mode)))
        for upload in newest_first:
            what = shown(upload.entry)
            if upload.entry.lower().endswith(".zip"):
                _canvas_zip(dir_fd, upload, what, label_of(upload), main_name, stage, notes,
                            seen, take)
            elif take(upload.canvas.original, label_of(upload), upload):
                stage.copy(dir_fd, upload.entry, upload.canvas.original, what)
                stage.origin[upload.canvas.original] = label_of(upload)
    except Refused as exc:
        refused = str(exc)
    for name, labels_before in older.items():
        notes.append(f"graded {graded[name][0]}, uploaded after {_listed(labels_before)}")
    submission = _finish(student, folder, stage, main_name, notes, seen, refused)
    used = [upload for _, upload in graded.values()] or newest_first
    main = graded.get(main_name.lower(), (None, None))[1]
    source = main or max(used, key=lambda u: (u.canvas.order, u.canvas.copy))
    submission.display_name = uploads[0].canvas.display_name
    submission.user_id = uploads[0].canvas.user_id
    submission.submission_id = source.canvas.submission_id
    # Interpretation: Canvas marks a whole submission LATE; a graded file from a LATE
    # upload makes the graded work late, an older LATE upload that was replaced does not.
    submission.late = any(u.canvas.late for u in used)
    return submission


def _canvas_zip(dir_fd: int, upload: _Upload, what: str, label: str, main_name: str,
                stage: _Stage, notes: list[str], seen: list[str], take) -> None:
    """Unpack one uploaded .zip into its own stage, then keep the files no newer upload
    replaced."""
    raw = _Stage()
    raw.copy(dir_fd, upload.entry, "upload.zip", what)
    stage.problems.extend(raw.problems)
    if "upload.zip" not in raw.files:
        return
    members = _Stage()
    where = _unpack(raw.files["upload.zip"].read_bytes(), what, main_name, members, seen)
    stage.problems.extend(members.problems)
    notes.append(f"unpacked {label} and took {where}")
    for name, path in members.files.items():
        if take(name, f"{shown(name)} in {label}", upload):
            stage.add(name, path.read_bytes())
            stage.origin[name] = f"{shown(name)} in {label}"


def _one_folder(path: Path, student: str, main_name: str, parent_fd: int) -> Submission:
    stage, notes, seen = _Stage(), [], []
    try:
        _from_folder(path, main_name, stage, notes, seen, parent_fd)
    except Refused as exc:
        return _finish(student, path, stage, main_name, notes, seen, str(exc))
    except OSError as exc:
        return _finish(student, path, stage, main_name, notes, seen,
                       f"{shown(path.name)}/ could not be read ({exc.strerror}).")
    return _finish(student, path, stage, main_name, notes, seen)


# --------------------------------------------------------------------- nothing to review
# nothing_to_review's verdicts on a file with no code of the student's own (plugin: every item
# nothing could judge is 0 then, not left for a TA)
EMPTY_FILE, NO_OWN_CODE = "the file is empty", "the code does nothing of its own yet"
NOT_SEEN_WORKING = "the program could not be seen working in any run"
# Review items judged on the source alone. The rule, the same in every grader: readability
# reads only the files (line lengths, names, docstrings), so a program whose every run crashed
# at start-up is still judged on its source like any other; only the review items about how
# the program behaves (a UI, say) get nothing when no run showed the program working. A file
# Python cannot parse, an empty file and the unchanged template give every review item 0.
SOURCE_ONLY_REVIEW = ("readability",)


def nothing_to_review(submission: Submission, rubric: Rubric, runs: list[dict],
                      verdicts: list) -> tuple[str, str] | None:
    """Why, in brief and in full, the review items (a TA's items: interface, functions,
    readability) must get no marks, or None. They mark how a working program looks and
    reads, so they give nothing to a file Python cannot run, to code that does nothing (an
    empty file, the unchanged template), or to a program that in every run of the grader
    asked nothing and printed nothing readable while no automatic item found anything right
    either."""
    main = submission.main
    if main is None:
        return None
    facts = static.facts(main)
    if facts.parse_error:
        return ("the program could not start",
                f"the program cannot start: Python stops at {submission.main_name} "
                f"({facts.parse_error})")
    template = DATA_ROOT / "student_template" / rubric.assignment
    names = [n for n in rubric.files if n.endswith(".py") and n in submission.files]
    if all(static.own_work(submission.files[n], template / n) == 0
           for n in names or [submission.main_name]):
        if not main.read_bytes().strip():
            return EMPTY_FILE, f"{submission.main_name} is empty"
        shown_names = ", ".join(names or [submission.main_name])
        return (NO_OWN_CODE,
                f"{shown_names} has no code of its own: apart from what the template gives, "
                "it only has empty functions (pass), docstrings, comments or constants")
    mine = [r for r in runs if not r.get("grader_problem")
            and r.get("program") in (None, *submission.files)]
    scored = any(v.score > 0 for v in verdicts if not v.item.review)
    if mine and not scored and not any(r.get("asked") or r.get("readable") for r in mine):
        return (NOT_SEEN_WORKING,
                f"in none of the grader's {len(mine)} runs did the program ask a question or "
                f"print readable text ({mine[0].get('ended_how', '').rstrip('.')})")
    return None
