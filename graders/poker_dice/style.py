"""Readability, measured from the files (nothing is run): long lines in all four files, and
docstrings and one-letter names in project.py, dice.py and magic8ball.py. A TA confirms."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from graders.engine import static

MODULES = ("project.py", "dice.py", "magic8ball.py")
ALL_FILES = MODULES + ("test_project.py",)
# Loop counters nobody minds, and the parameter names the handout itself gives (d, s, v).
ALLOWED_SHORT = {"_", "i", "j", "k", "d", "s", "v"}


@dataclass
class Readability:
    """What was measured in the submission's files."""

    long_lines: list[str] = field(default_factory=list)        # 'dice.py line 12 (104)'
    undocumented: dict[str, int] = field(default_factory=dict)  # file -> missing docstrings
    documentable: int = 0
    short_names: dict[str, list[str]] = field(default_factory=dict)   # file -> names
    unreadable: list[str] = field(default_factory=list)        # files that could not be parsed

    @property
    def parts(self) -> tuple[float, float, float]:
        """Line length, docstrings and names, each from 0 to 1."""
        lines = max(0.0, 1 - 0.2 * len(self.long_lines))
        missing = sum(self.undocumented.values())
        docs = 1 - missing / self.documentable if self.documentable else 0.0
        names = max(0.0, 1 - 0.25 * sum(len(v) for v in self.short_names.values()))
        return lines, docs, names

    @property
    def fraction(self) -> float:
        """The mean of the three parts (0 when a file cannot be parsed)."""
        if self.unreadable:
            return 0.0
        return round(sum(self.parts) / 3, 2)


def measure(files: dict[str, Path]) -> Readability:
    """Measure the four files of a submission (missing files are skipped)."""
    found = Readability()
    for name in ALL_FILES:
        path = files.get(name)
        if path is None or not path.is_file():
            continue
        found.long_lines += [f"{name} line {number} ({length} characters)"
                             for number, length in static.style(path).long_lines]
        if name not in MODULES:
            continue
        facts = static.facts(path)
        if facts.parse_error:
            found.unreadable.append(f"{name}: {facts.parse_error}")
            continue
        expected = 1 + len(facts.functions) + len(facts.classes)
        found.documentable += expected
        if facts.docstrings < expected:
            found.undocumented[name] = expected - facts.docstrings
        short = sorted({n for n in facts.names if len(n) == 1 and n not in ALLOWED_SHORT})
        if short:
            found.short_names[name] = short
    return found


def findings(found: Readability) -> list[str]:
    """What a reader would want improved, one sentence each."""
    if found.unreadable:
        return [f"Could not be parsed, so readability could not be measured: "
                f"{'; '.join(found.unreadable)}."]
    notes = []
    if found.long_lines:
        notes.append(f"{len(found.long_lines)} line(s) are longer than 100 characters: "
                     f"{', '.join(found.long_lines[:8])}. Split long expressions over "
                     "several lines.")
    if found.undocumented:
        where = ", ".join(f"{name}: {count}" for name, count in found.undocumented.items())
        notes.append(f"Docstrings are missing ({where}). Every module, class, function and "
                     "method of project.py, dice.py and magic8ball.py starts with a "
                     "\"\"\"docstring\"\"\" saying what it does or returns.")
    if found.short_names:
        where = "; ".join(f"{name}: {', '.join(names)}"
                          for name, names in found.short_names.items())
        notes.append(f"These one-letter names say little about what they hold ({where}). "
                     "Names like purse, hand or answer make the code easier to follow.")
    return notes
