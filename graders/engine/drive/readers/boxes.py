"""Reading text drawn in a box, e.g.

    +---------+        ╔═════════╗        ************
    | Round 1 |        ║ Round 1 ║        * Round 1  *
    +---------+        ╚═════════╝        ************

A box fits when its top, text and bottom lines have the same left edge and display width, the
borders are drawn with non-letters, and the text's padding is even (one space more on one side
is tolerated when the padding is narrow, as centred text gives).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


def width(text: str) -> int:
    """Display width (wide East Asian characters count two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@dataclass
class Box:
    lines: tuple[str, str, str]
    fits: bool
    why: str = ""

    def render(self) -> str:
        return "\n".join(self.lines)


def _is_border(line: str) -> bool:
    body = line.strip()
    return len(body) >= 3 and " " not in body and not any(c.isalnum() for c in body)


def box_around(lines: list[str], index: int) -> Box | None:
    """The box whose text line is ``lines[index]``, or None if it is not boxed at all."""
    if index == 0 or index + 1 >= len(lines):
        return None
    top, middle, bottom = (line.rstrip() for line in lines[index - 1:index + 2])
    body = middle.strip()
    if not (_is_border(top) and _is_border(bottom)) or len(body) < 3:
        return None
    if body[0].isalnum() or body[-1].isalnum():
        return Box((top, middle, bottom), False, "the text line has no border characters")
    indent = [len(line) - len(line.lstrip()) for line in (top, middle, bottom)]
    widths = [width(line.strip()) for line in (top, middle, bottom)]
    inner = body[1:-1]
    pad_left, pad_right = len(inner) - len(inner.lstrip()), len(inner) - len(inner.rstrip())
    span = (indent[1], indent[1] + widths[1])
    inside = (span[0] + 1, span[1] - 1)     # " _______" over "|_______|" borders sit inside
    spans = [(indent[i], indent[i] + widths[i]) for i in (0, 2)]
    if not all(s in (span, inside) for s in spans):
        return Box((top, middle, bottom), False,
                   f"the lines are {widths[0]}, {widths[1]} and {widths[2]} characters wide "
                   f"(starting at columns {indent[0]}, {indent[1]}, {indent[2]})")
    # Even padding fits; one space more on one side is tolerated for centred text in narrow
    # padding ("* Round 1  *"); wider and uneven ("|  Round 1   |") does not fit exactly.
    uneven = abs(pad_left - pad_right)
    if uneven > 1 or (uneven == 1 and max(pad_left, pad_right) > 2) or \
            min(pad_left, pad_right) > 4:
        return Box((top, middle, bottom), False,
                   f"the box is wider than its text ({pad_left} space(s) before the text, "
                   f"{pad_right} after)")
    return Box((top, middle, bottom), True)


def find_boxed(text: str, pattern: str) -> list[tuple[re.Match, Box | None]]:
    """Every line matching ``pattern``, with the box around it (None if unboxed)."""
    lines = text.split("\n")
    found = []
    wanted = re.compile(pattern, re.I)      # once, not once per line
    for index, line in enumerate(lines):
        match = wanted.search(line)
        if match:
            found.append((match, box_around(lines, index)))
    return found
