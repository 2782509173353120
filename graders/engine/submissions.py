"""Finding submissions: one file, one folder, or a class folder (e.g. a Canvas bulk download).

Canvas names loose files ``lastfirst_12345_67890_a5.py`` (``_LATE_`` may follow the name, and
a resubmission gets ``-1``); each student's files are grouped under the name before the ids.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CANVAS = re.compile(r"^(?P<student>[a-z0-9]+?)(?:_late)?_(?:\d+_)+(?P<file>.+?)(?:-\d+)?"
                    r"(?P<ext>\.\w+)$", re.I)
IGNORED = {"__pycache__", ".git", ".DS_Store", "__MACOSX", ".venv", "venv"}


@dataclass
class Submission:
    """One student's work: where it came from and the files to copy into the run folder."""

    student: str
    folder: Path
    files: dict[str, Path]                 # name in the run folder -> original file
    main_name: str
    notes: list[str] = field(default_factory=list)

    @property
    def main(self) -> Path | None:
        return self.files.get(self.main_name)

    @property
    def found(self) -> bool:
        return self.main is not None


def _main_in(files: dict[str, Path], main_name: str, notes: list[str]) -> dict[str, Path]:
    """Make sure the main file has its required name (rename a lone .py file if need be)."""
    if main_name in files:
        return files
    lower = {name.lower(): name for name in files}
    if main_name.lower() in lower:
        original = lower[main_name.lower()]
        notes.append(f"used {original} as {main_name}")
        files[main_name] = files.pop(original)
        return files
    python_files = [n for n in files if n.endswith(".py") and not n.startswith("test_")]
    if len(python_files) == 1:
        notes.append(f"used {python_files[0]} as {main_name} (the only Python file)")
        files[main_name] = files.pop(python_files[0])
    return files


def from_path(path: Path, main_name: str, student: str | None = None) -> Submission:
    """A submission given as one file or as a folder holding the main file."""
    path = Path(path)
    notes: list[str] = []
    if path.is_file():
        files = {path.name: path}
        match = CANVAS.match(path.name)
        if match and path.name != main_name:
            files = {match.group("file") + match.group("ext"): path}
        folder = path.parent
    else:
        folder = path
        files = {p.name: p for p in sorted(path.iterdir())
                 if p.is_file() and p.name not in IGNORED} if path.is_dir() else {}
        if main_name not in files and path.is_dir():
            nested = [d for d in path.iterdir() if d.is_dir() and d.name not in IGNORED]
            if len(nested) == 1 and (nested[0] / main_name).exists():
                notes.append(f"found {main_name} inside {nested[0].name}/")
                files = {p.name: p for p in nested[0].iterdir() if p.is_file()}
    files = _main_in(files, main_name, notes)
    return Submission(student or path.stem if path.is_file() else student or path.name,
                      folder, files, main_name, notes)


def discover(folder: Path, main_name: str) -> list[Submission]:
    """Every submission in a class folder: subfolders, then loose (Canvas-named) files."""
    folder = Path(folder)
    found: list[Submission] = []
    loose: dict[str, dict[str, Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name in IGNORED or entry.name.startswith("."):
            continue
        if entry.is_dir():
            found.append(from_path(entry, main_name, entry.name))
        elif entry.is_file():
            match = CANVAS.match(entry.name)
            student = match.group("student") if match else entry.stem
            name = match.group("file") + match.group("ext") if match else entry.name
            loose.setdefault(student, {})[name] = entry
    for student, files in loose.items():
        notes: list[str] = []
        files = _main_in(dict(files), main_name, notes)
        found.append(Submission(student, folder, files, main_name, notes))
    return found
