"""The fast searches over a transcript give what the plain, line-by-line definitions give:
whether a run printed a line a person could read (transcript._any_readable), and where a
block of evidence ends on a game's screen (replay._find). Random screens of a few words,
line breaks of every kind and over-long lines are compared with both."""
from __future__ import annotations

import random
import re
import signal

import pytest

from graders.engine.drive import transcript
from graders.engine.grading import replay

OLD_READABLE = re.compile(r"[^\W\d_]{2,}\W+[^\W\d_]{2,}")     # as first written
LINES = re.compile(r"[^\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")


def _readable_line_by_line(text: str) -> bool:
    for piece in LINES.finditer(text):
        line = piece.group()[:transcript.LINE_CAP]
        letters = sum(ch.isalpha() or ch == " " for ch in line)
        if OLD_READABLE.search(line) and letters >= len(line.strip()) / 2:
            return True
    return False


def _find_line_by_line(seq: list[str], lines: list[str]) -> int | None:
    last = len(seq) - 1
    for at in range(len(lines) - last):
        if all(replay._same(seq[i], lines[at + i], i == 0, i == last)
               for i in range(len(seq))):
            return at + last
    return None


def test_readable_as_read_line_by_line():
    pieces = ["ab", "Round", " ", "1", "\n", "\r", "\x85", "\u2028", "--", "é", "_", "x",
              "12", "Hi there", "a" * (transcript.LINE_CAP + 5)]
    rng = random.Random(7)
    for _ in range(2_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert transcript._any_readable(text) == _readable_line_by_line(text), repr(text)
    assert not transcript._any_readable("PocoLoco\n" + "Round 1\n" * 10_000)


def test_a_line_of_a_million_letters_is_read_in_one_pass():
    """No backtracking: each run of letters is tried once (this took hours when the first
    run of letters was tried from each of its letters)."""
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the search did not end"))
    signal.alarm(20)
    try:
        assert not transcript._any_readable("x" * 1_000_000 + "7 and more")
        assert transcript._any_readable("x" * 1_000_000 + "\nthe end")
        assert not transcript._readable("é" * 1_000_000 + "_")
    finally:
        signal.alarm(0)


def test_evidence_found_where_line_by_line():
    words = ["", " ", "a", "ab", "x a", "a b", "  ab", "b", "ab  "]
    rng = random.Random(8)
    for _ in range(5_000):
        lines = [rng.choice(words) for _ in range(rng.randint(0, 8))]
        seq = [rng.choice(words) for _ in range(rng.randint(1, 3))]
        assert replay._find(seq, lines) == _find_line_by_line(seq, lines), (seq, lines)
