"""Mutants as unified diffs against the reference solution (``diff -u`` style).

``tests/fixtures/<assignment>/mutants/<name>.patch`` holds one defect; ``manifest.toml`` says
which rubric item it must lose and why. ``build(assignment, folder)`` writes each mutant as a
full copy of the reference with its patch applied, so a mutant can never drift from the
reference it was made from. To add one: copy the reference, make the defect, then
``diff -u reference/<a>/file.py copy/file.py`` (paths after a/ and b/ are file names).
A mutant of one of the correct fixtures instead names it in the manifest:
``base = "<folder under tests/fixtures/<a>/correct>"`` (real students' styles break in ways the
reference cannot show).
"""
from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def manifest(assignment: str, kind: str = "mutants") -> dict:
    """The mutants' manifest; for variants, the optional one naming their bases."""
    path = KIT / "tests" / "fixtures" / assignment / kind / "manifest.toml"
    return tomllib.loads(path.read_text()) if kind == "mutants" or path.is_file() else {}


def _file_patches(text: str) -> dict[str, list[str]]:
    """The patch split by file: name -> its hunk lines."""
    files: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("--- "):
            continue
        if line.startswith("+++ "):
            # "+++ b/x.py", or as `diff -u` writes it: "+++ copy/x.py\t2026-01-01 10:00:00 ..."
            current = line[4:].split("\t", 1)[0].strip().split("/", 1)[-1]
            files[current] = []
        elif current is not None:
            files[current].append(line)
    return files


def apply(original: str, hunk_lines: list[str]) -> str:
    """Apply one file's hunks; raises ValueError when the context does not match."""
    old = original.splitlines(keepends=True)
    result: list[str] = []
    at = 0
    index = 0
    while index < len(hunk_lines):
        match = HUNK.match(hunk_lines[index])
        index += 1
        if not match:
            continue
        start = int(match.group(1)) - (0 if match.group(2) == "0" else 1)
        result += old[at:start]
        at = start
        while index < len(hunk_lines) and not HUNK.match(hunk_lines[index]):
            body = hunk_lines[index]
            index += 1
            if body.startswith("\\"):          # "\ No newline at end of file"
                if result:
                    result[-1] = result[-1].rstrip("\n")
                continue
            tag, text = body[0], body[1:]
            if tag in " -":
                if at >= len(old) or old[at].rstrip("\n") != text.rstrip("\n"):
                    raise ValueError(f"patch context does not match at line {at + 1}")
                at += 1
            if tag in " +":
                result.append(text)
    result += old[at:]
    return "".join(result)


def build(assignment: str, folder: Path, kind: str = "mutants") -> dict[str, Path]:
    """Write every mutant (or, with kind="variants", every correct variant) of an assignment
    under ``folder``; returns name -> its folder. Variants are correct programs kept as
    patches against the reference (or, named in ``variants/manifest.toml``, against one of the
    correct fixtures), like mutants but with nothing to lose."""
    reference = KIT / "reference" / assignment
    source = KIT / "tests" / "fixtures" / assignment / kind
    tables = manifest(assignment, kind)
    names = tables if kind == "mutants" else sorted(p.stem for p in source.glob("*.patch"))
    built = {}
    for name in names:
        target = folder / kind / name
        base = tables.get(name, {}).get("base")
        origin = KIT / "tests" / "fixtures" / assignment / "correct" / base if base else reference
        shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__"))
        for filename, hunks in _file_patches((source / f"{name}.patch").read_text()).items():
            path = target / filename
            original = path.read_text() if path.exists() else ""
            path.write_text(apply(original, hunks))
        built[name] = target
    return built
