"""The files of the kit that a grading platform needs for one assignment: the engine, the
command line, this package, that assignment's grader, rubric, handout and template, and its
reference only when its grader reads it while grading (Poker Dice runs a student's own tests
on the reference). Laid out like the repository, so the copy runs with ``PYTHONPATH`` set to
its folder (``graders.engine.judge.rubric.DATA_ROOT`` is then that folder).
"""
from __future__ import annotations

import re
import tomllib
import zipfile
from pathlib import Path

from ..engine.judge.rubric import DATA_ROOT, KIT_ROOT

GRADERS = KIT_ROOT / "graders"
SUFFIXES = {".py", ".toml", ".md", ".ini", ".j2"}
# a grader that reads its reference at grading time says so with this path
READS_REFERENCE = re.compile(r'DATA_ROOT\s*/\s*"reference"')


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SUFFIXES
                  and "__pycache__" not in p.parts)


def reads_reference(assignment: str) -> bool:
    """Whether the assignment's grader reads ``reference/<assignment>/`` while grading."""
    return any(READS_REFERENCE.search(p.read_text(encoding="utf-8"))
               for p in _files(GRADERS / assignment) if p.suffix == ".py")


def grading_files(assignment: str) -> dict[str, Path]:
    """Relative path in the copy -> file of this kit, for grading ``assignment``."""
    files: dict[str, Path] = {}
    for name in ("__init__.py", "__main__.py", "cli.py"):
        files[f"graders/{name}"] = GRADERS / name
    for folder in ("engine", "platforms", assignment):
        for path in _files(GRADERS / folder):
            files[str(path.relative_to(KIT_ROOT))] = path
    data = [DATA_ROOT / "assignments" / assignment / name
            for name in ("rubric.toml", "handout.md")]
    data += [p for p in sorted((DATA_ROOT / "student_template" / assignment).glob("*"))
             if p.is_file()]
    if reads_reference(assignment):
        data += [p for p in sorted((DATA_ROOT / "reference" / assignment).glob("*.py"))
                 if p.is_file()]
    for path in data:
        files[str(path.relative_to(DATA_ROOT))] = path
    return files


def requirements() -> str:
    """The kit's dependencies as a requirements.txt (from pyproject.toml, or the installed
    package's metadata when the kit runs from a wheel)."""
    pyproject = KIT_ROOT / "pyproject.toml"
    if pyproject.is_file():
        deps = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    else:
        from importlib.metadata import requires
        deps = [d for d in requires("console-grader-kit") or [] if "extra ==" not in d]
    return "".join(f"{dep}\n" for dep in deps)


def write_zip(path: Path, members: dict[str, str | bytes | Path],
              executable: set[str] = frozenset()) -> None:
    """A zip of ``members`` (name -> text, bytes or a file); ``executable`` names get 755."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(members.items()):
            data = content.read_bytes() if isinstance(content, Path) else content
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if name in executable else 0o100644) << 16
            archive.writestr(info, data)


def write_tree(folder: Path, members: dict[str, str | bytes | Path],
               executable: set[str] = frozenset()) -> None:
    """The same members as files under ``folder``."""
    for name, content in sorted(members.items()):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.read_bytes() if isinstance(content, Path) else content
        target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        target.chmod(0o755 if name in executable else 0o644)
