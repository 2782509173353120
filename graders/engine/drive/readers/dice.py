"""Reading big dice drawn as text art, side by side, e.g.

     -----     -----     -----          ╭───────╮ ╭───────╮ ╭───────╮
    | o   |   | o o |   | o o |         │ ●   ● │ │       │ │ ●     │
    |     |   | o o |   |     |         │   ●   │ │   ●   │ │       │
    |   o |   | o o |   | o o |         │ ●   ● │ │       │ │     ● │
     -----     -----     -----          ╰───────╯ ╰───────╯ ╰───────╯

Any border and pip character, either orientation of the 2, 3 and 6. A block of non-blank lines
is cut into dice at the columns that are blank in every line; a die's pips are the character
whose count matches its face, and the pips per row must follow a regular pattern.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

PATTERNS = {1: [[1]], 2: [[1, 0, 1], [1, 1]], 3: [[1, 1, 1]], 4: [[2, 0, 2], [2, 2]],
            5: [[2, 1, 2]], 6: [[2, 2, 2], [3, 0, 3], [3, 3]]}


@dataclass
class DiceArt:
    faces: list[int]
    side_by_side: bool
    regular: bool
    lines: list[str]


PROSE = re.compile(r"([A-Za-z])(?!\1)[A-Za-z]{2}")


def _blocks(text: str) -> list[list[str]]:
    """Runs of consecutive lines that could be art (not blank, not prose)."""
    blocks, current = [], []
    for line in text.split("\n"):
        if line.strip() and not PROSE.search(line):
            current.append(line.rstrip())
        else:
            if current:
                blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _segments(block: list[str]) -> list[tuple[int, int]]:
    wide = max(len(line) for line in block)
    rows = [line.ljust(wide) for line in block]
    blank = [all(row[x] == " " for row in rows) for x in range(wide)]
    segments, start = [], None
    for x, empty in enumerate(blank + [True]):
        if not empty and start is None:
            start = x
        elif empty and start is not None:
            segments.append((start, x))
            start = None
    return segments


FRAME = set("|+#:!I[](){}│┃║╭╮╰╯┌┐└┘╔╗╚╝├┤┬┴┼")


def _split_touching(rows: list[str], a: int, b: int) -> list[tuple[int, int]]:
    """Dice drawn with no blank column between them ("+---++---+" or a shared border):
    cut the segment at columns that are frame characters from top to bottom."""
    lines = [col for col in range(a, b) if all(row[col] in FRAME for row in rows)]
    cuts: list[tuple[int, int]] = []
    start = None
    for col in lines:
        if start is not None and col - start > 2:
            cuts.append((start, col + 1))
        start = col
    return cuts if len(cuts) > 1 else [(a, b)]


def _split_stacked(block: list[str]) -> list[list[str]]:
    """Dice stacked in one block of lines: cut at border rows (no spaces inside) that end a
    die, i.e. the bottom border of one die and the top border of the next."""
    pieces, current = [], []
    for line in block:
        border = len(line.strip()) >= 3 and " " not in line.strip()
        current.append(line)
        if border and len(current) >= 3:
            pieces.append(current)
            current = []
    if current:
        pieces.append(current)
    return [p for p in pieces if len(p) >= 3]


def _profile(rows: list[str], pip: str) -> list[int]:
    """Pips per row, inside the die's border rows, with runs of empty rows squeezed to one."""
    inner = [r for r in rows if " " in r.strip() or pip in r]
    counts = [r.count(pip) for r in inner]
    while counts and counts[0] == 0:
        counts.pop(0)
    while counts and counts[-1] == 0:
        counts.pop()
    squeezed: list[int] = []
    for c in counts:
        if not (c == 0 and squeezed and squeezed[-1] == 0):
            squeezed.append(c)
    return squeezed


def _read_die(rows: list[str]) -> list[tuple[str, int, bool]]:
    """(pip character, count, regular pattern) candidates for one die's rows."""
    chars = {c for row in rows for c in row.strip()[1:-1] if c != " "}
    out = []
    for pip in chars:
        count = sum(row.count(pip) for row in rows)
        if 1 <= count <= 6:
            out.append((pip, count, _profile(rows, pip) in PATTERNS[count]))
    return out


def _columns(block: list[str]) -> tuple[list[str], list[tuple[int, int]]]:
    """A block's rows, padded to one width, and the column spans of the dice in it."""
    wide = max(len(line) for line in block)
    rows = [line.ljust(wide) for line in block]
    return rows, [cut for a, b in _segments(block) for cut in _split_touching(rows, a, b)]


def find_dice(text: str, faces: list[int]) -> DiceArt | None:
    """Big dice showing ``faces`` (in order) in the text, side by side if possible."""
    stacked: list[int] = []
    stacked_lines: list[str] = []
    for block in _blocks(text):
        if len(block) < 3:
            continue
        rows, segments = _columns(block)
        dice = [[row[a:b] for row in rows] for a, b in segments]
        readings = [_read_die(d) for d in dice]
        for start in range(0, max(0, len(readings) - len(faces)) + 1):
            window = readings[start:start + len(faces)]
            if len(window) < len(faces):
                break
            for pip in {c for r in window for c, _, _ in r}:
                counts = [next((n for c, n, _ in r if c == pip), 0) for r in window]
                if counts == list(faces):
                    regular = all(next(ok for c, _, ok in r if c == pip) for r in window)
                    return DiceArt(list(faces), True, regular, block)
        if len(segments) == 1:
            for piece in _split_stacked(block):
                if len(stacked) >= len(faces):
                    break
                want = faces[len(stacked)]
                if any(n == want for _, n, _ in _read_die(piece)):
                    stacked.append(want)
                    stacked_lines += piece
    if stacked == list(faces):
        return DiceArt(list(faces), False, True, stacked_lines)
    return None


# ---------------------------------------------------------------------------- learned pictures
# Not pips: what is left of a die's picture once its frame is taken away
DECORATION = FRAME | set("-_=~.'`,:;<>/\\*^\"")


@dataclass
class LearnedDice:
    """A program's own dice pictures, learned from dice whose faces the grader loaded.

    ``pictures`` maps a face to the picture the program printed for it (its rows); a sample
    is one roll and the pictures printed right after it, side by side."""

    pictures: dict[int, tuple[str, ...]]
    samples: list[list[tuple[str, ...]] | None]
    faces: list[list[int]]
    consistent: bool

    def found_in(self, text: str, faces: list[int]) -> bool:
        """The first art printed in ``text`` shows ``faces`` in the learned pictures."""
        cells = _cells(text, len(faces)) if self.consistent else None
        return cells is not None and all(self.pictures.get(face) == cell
                                         for face, cell in zip(faces, cells))

    def shows(self, index: int) -> bool:
        """Sample ``index`` shows its faces in the learned pictures, side by side."""
        cells = self.samples[index]
        return self.consistent and cells is not None and all(
            self.pictures.get(face) == cell for face, cell in zip(self.faces[index], cells))


def _art_blocks(text: str) -> list[list[str]]:
    """Like ``_blocks``, but a row of spaces inside a block is part of it (a die's empty
    middle row printed as spaces: "●     ●" over "       " over "●     ●")."""
    blocks, current = [], []
    for line in text.split("\n"):
        if line.strip() and not PROSE.search(line):
            current.append(line.rstrip())
        elif current and line and not line.strip():
            current.append("")
        else:
            while current and not current[-1]:
                current.pop()
            if current:
                blocks.append(current)
            current = []
    while current and not current[-1]:
        current.pop()
    if current:
        blocks.append(current)
    return blocks


def _cells(text: str, count: int) -> list[tuple[str, ...]] | None:
    """The first block of art in the text cut into ``count`` pictures side by side (each
    its rows, trimmed), or None."""
    for block in _art_blocks(text):
        if len(block) < 2:
            continue
        rows, segments = _columns(block)
        if len(segments) != count:
            continue
        cells = []
        for a, b in segments:
            cell = [row[a:b].rstrip() for row in rows]
            while cell and not cell[0].strip():
                cell.pop(0)
            while cell and not cell[-1].strip():
                cell.pop()
            cells.append(tuple(cell))
        return cells
    return None


def learn_pictures(samples: list[tuple[list[int], str]]) -> LearnedDice:
    """Learn a program's dice pictures from (faces loaded, text printed right after) pairs.

    A face's picture is the one printed for it most often; the pictures are consistent when
    each face got its own picture nearly every time (at least four in five), no two faces
    share one, at least three faces were seen, and a picture is more than the face's digit in
    a frame ("| 4 |" shows a number, not pips)."""
    faces = [list(f) for f, _ in samples]
    cells = [_cells(text, len(f)) for f, text in samples]
    seen: dict[int, dict[tuple[str, ...], int]] = {}
    for rolled, pictures in zip(faces, cells):
        for face, picture in zip(rolled, pictures or []):
            counts = seen.setdefault(face, {})
            counts[picture] = counts.get(picture, 0) + 1
    learned = {face: max(counts, key=counts.get) for face, counts in seen.items()}
    steady = all(counts[learned[face]] * 5 >= sum(counts.values()) * 4
                 for face, counts in seen.items())
    distinct = len(set(learned.values())) == len(learned)
    pips = all({c for row in picture for c in row if c != " " and c not in DECORATION}
               - {str(face)} for face, picture in learned.items())
    return LearnedDice(learned, cells, faces, steady and distinct and pips and len(learned) >= 3)
