"""The kit's own code keeps the 100-character line limit it enforces on students (programs
that break it on purpose live under fixtures/ and demo_submissions/)."""
from __future__ import annotations

from pathlib import Path

import pycodestyle

ROOT = Path(__file__).resolve().parent.parent
KIT = ("graders", "tests", "reference", "student_template", "benchmarks", "setup.py")
ON_PURPOSE = ("fixtures", "demo_submissions", "__pycache__")


def kit_files() -> list[str]:
    """Every Python file of the kit, without the programs that break rules on purpose."""
    found = []
    for name in KIT:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        found += [str(file) for file in files
                  if not set(ON_PURPOSE) & set(file.relative_to(ROOT).parts)]
    return found


def test_the_kits_own_lines_are_at_most_100_characters():
    files = kit_files()
    assert len(files) > 80 and any(file.endswith("engine/run/harness.py") for file in files)
    # (not quiet: each long line is printed as file:line, shown with a failure)
    guide = pycodestyle.StyleGuide(select=["E501"], max_line_length=100)
    assert guide.check_files(files).total_errors == 0


def test_a_long_line_is_found(tmp_path):
    """The check above can fail: a 101-character line is reported."""
    long = tmp_path / "long.py"
    long.write_text("x = '" + "a" * 95 + "'\n")
    guide = pycodestyle.StyleGuide(select=["E501"], max_line_length=100, quiet=True)
    assert guide.check_files([str(long)]).total_errors == 1
