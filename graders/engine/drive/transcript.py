"""A run's transcript: the screen as a person would have seen it, and where each event happened.

The screen text has ANSI colour codes removed and carriage-return animations resolved; our
answers are echoed after their prompt as a terminal would show them. Every event (prompt,
answer, draw, exit) records its offset in that text, so readers can cut the screen into parts
("everything printed between these two rolls").
"""
from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from ..run import harness

LINE_CAP = 500          # characters of one screen line shown in feedback and transcripts

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]"
                  r"|\x1b[=>78c]")


def characters(count: int) -> str:
    """``1 character``, ``1,234 characters``."""
    return f"{count:,} character{'' if count == 1 else 's'}"


def cap_line(line: str, limit: int = LINE_CAP) -> str:
    """A line cut to ``limit`` characters, saying how much was left out."""
    if len(line) <= limit:
        return line
    return f"{line[:limit]} … {characters(len(line) - limit)} left out"


def cap_lines(text: str, limit: int = LINE_CAP) -> str:
    """Every line of ``text`` cut to ``limit`` characters (see ``cap_line``)."""
    if len(text) <= limit:
        return text
    return re.sub(f"[^\n]{{{limit + 1},}}", lambda long: cap_line(long.group(), limit), text)


def clean(text: str) -> str:
    """Remove ANSI codes, resolve carriage returns and backspaces, keep tabs as spaces."""
    if "\x1b" in text:                     # every ANSI sequence starts with ESC
        text = ANSI.sub("", text)
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    if "\r" not in text and "\b" not in text:
        return text                         # nothing to resolve: the lines stay as they are
    lines = []
    for line in text.split("\n"):
        if "\r" in line:
            # what follows a carriage return overwrites the line on a real screen (even
            # when it arrives later: a "rolling..." frame is replaced by the next output)
            line = line.split("\r")[-1]
        while "\b" in line:
            shorter = re.sub(r"[^\b]\b", "", line)
            line = shorter if shorter != line else line.replace("\b", "")
        lines.append(line)
    return "\n".join(lines)


@dataclass
class Mark:
    """An event placed on the screen text."""

    kind: str
    pos: int
    text: str
    data: dict


class Transcript:
    """The screen text of a run plus its events in order."""

    def __init__(self, log, outcome: dict | None = None, gave_up: str | None = None):
        self.outcome = outcome or {}
        self.gave_up = gave_up
        self.marks: list[Mark] = []
        parts: list[str] = []
        raw_out: list[str] = []
        length = 0
        pending_out = ""
        for event in log:
            if event.kind == "out":
                pending_out += event.text
                continue
            if pending_out:
                piece = clean(pending_out)
                parts.append(piece)
                raw_out.append(pending_out)
                length += len(piece)
                self.marks.append(Mark("out", length - len(piece), piece, {}))
                pending_out = ""
            if event.kind == "answer":
                echo = event.text + "\n"
                self.marks.append(Mark("answer", length, event.text, {}))
                parts.append(echo)
                length += len(echo)
            else:
                self.marks.append(Mark(event.kind, length, event.text, event.data))
        if pending_out:
            piece = clean(pending_out)
            parts.append(piece)
            self.marks.append(Mark("out", length, piece, {}))
        self.text = "".join(parts)
        if self.outcome.get("status"):
            _record_run(self)

    # ------------------------------------------------------------------ queries
    def tail_text(self, lines: int) -> str:
        return "\n".join(self.text.splitlines()[-lines:])

    def since_last_answer(self) -> str:
        answers = [m.pos for m in self.marks if m.kind == "answer"]
        start = answers[-1] + len(self.marks_at(answers[-1], "answer")) + 1 if answers else 0
        return self.text[start:]

    def marks_at(self, pos: int, kind: str) -> str:
        for mark in self.marks:
            if mark.pos == pos and mark.kind == kind:
                return mark.text
        return ""

    def of_kind(self, *kinds: str) -> list[Mark]:
        return [m for m in self.marks if m.kind in kinds]

    @property
    def prompts(self) -> list[Mark]:
        return self.of_kind("input")

    @property
    def draws(self) -> list[Mark]:
        return self.of_kind("draw")

    @property
    def finished(self) -> bool:
        """The program ended by itself, normally: it finished, or exited with status 0, and
        the grader did not stop it."""
        return self.outcome.get("status") in ("finished", "exit") and \
            self.outcome.get("code", 0) in (0, None) and not self.gave_up

    @property
    def ended_how(self) -> str:
        """A plain sentence about how the run ended."""
        status = self.outcome.get("status")
        if self.gave_up:
            return f"The grader stopped the run: {self.gave_up}."
        if self.finished:
            return "The program finished normally."
        if status == "exit":
            return f"The program exited with status {self.outcome.get('code')}."
        if status == "syntax-error":
            error = cap_line(str(self.outcome.get("error")), 300)
            if "Non-UTF-8" in error:
                # Python reads a program as UTF-8 (PEP 263): the usual cause is an editor
                # that saved an accented letter (often in a comment) as Latin-1
                return (f"The program could not start: {error}. Python reads a program as "
                        "UTF-8; save the file with the UTF-8 encoding (your editor's "
                        "'Save with Encoding' or 'File Encoding' setting) and run it again.")
            return f"The program could not start: {error}"
        if status in ("exception", "import-error"):
            error = (self.outcome.get("error") or "").strip().splitlines()
            return f"The program crashed: {error[-1] if error else 'an exception'}"
        if status == "limit":
            return f"The grader stopped the program because it {self.outcome.get('error')}."
        if status == "died":
            return f"The program died: {self.outcome.get('error')}."
        return "The program was stopped."

    @property
    def crashed(self) -> bool:
        return self.outcome.get("status") in ("exception", "syntax-error", "import-error", "died")

    # ------------------------------------------------------------------ feedback
    def render(self, start: int = 0, end: int | None = None, max_lines: int = 400,
               show_draws: bool = True) -> str:
        """The screen between two offsets, with our answers marked «like this»."""
        end = len(self.text) if end is None else end
        out: list[str] = []
        # marks are in the order of their offsets (the text only grows): the ones between
        # start and end are found by bisection, not by reading every mark of the run
        first = bisect.bisect_left(self.marks, start, key=lambda mark: mark.pos)
        for mark in itertools.islice(self.marks, first, None):
            if mark.pos > end:
                break
            if mark.kind == "out":
                piece = self.text[max(mark.pos, start):min(mark.pos + len(mark.text), end)]
                out.append(piece)
            elif mark.kind == "answer":
                if out and not out[-1].endswith("\n"):
                    gap = "" if out[-1].endswith(" ") else " "
                    out.append(f"{gap}«{mark.text}»\n")
                else:
                    out.append(f"«{mark.text}»\n")
            elif mark.kind == "eof":
                out.append("«end of input»\n")
            elif mark.kind == "draw" and show_draws and mark.data.get("faces"):
                faces = " ".join(str(f) for f in mark.data["faces"])
                if out and out[-1].startswith("[dice: ") and out[-1].endswith("]\n"):
                    out[-1] = out[-1][:-2] + " " + faces + "]\n"
                else:
                    prefix = "" if not out or out[-1].endswith("\n") else "\n"
                    out.append(f"{prefix}[dice: {faces}]\n")
        lines = "".join(out).splitlines()
        if len(lines) > max_lines:
            keep = max_lines // 2
            lines = lines[:keep] + [f"... ({len(lines) - 2 * keep} lines left out) ..."] + \
                lines[-keep:]
        return cap_lines("\n".join(lines))       # (the lines hold no other line break)


# ---------------------------------------------------------------------- runs, for the plugin
# Every finished run's transcript is noted under the submission being graded (the harness's
# ``current_owner``), so the plugin can tell a program that never ran from one that did.
_runs: dict[int, tuple[str | None, dict, dict]] = {}
# two words: a run of letters (from its first letter, taken whole: no backtracking, so a
# line of a million letters is read in one pass), what is not a word, and two letters more
READABLE = re.compile(r"(?<![^\W\d_])[^\W\d_]{2,}+\W++[^\W\d_]{2}")
# The characters str.splitlines() ends a line at: a run is readable as soon as one line is,
# so a long transcript is not cut into lines first
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
LINE_BREAK = re.compile(f"[{LINE_BREAKS}]")
TWO_WORDS_ON_A_LINE = re.compile(
    rf"(?<![^\W\d_])[^\W\d_]{{2,}}+[^\w{LINE_BREAKS}]++[^\W\d_]{{2}}")


def _readable(line: str) -> bool:
    """A line a person could read: two words, and mostly letters and spaces."""
    if not READABLE.search(line):
        return False
    letters = sum(ch.isalpha() or ch == " " for ch in line)
    return letters >= len(line.strip()) / 2


def _any_readable(text: str) -> bool:
    """Does one line of ``text`` read as words? Only the lines with two words on them are
    looked at: a flood of numbers or of one-word lines costs one search."""
    checked_to = 0
    for words in TWO_WORDS_ON_A_LINE.finditer(text):
        if words.start() < checked_to:
            continue                    # on a line looked at already
        start = max(text.rfind(mark, 0, words.start()) for mark in LINE_BREAKS) + 1
        end = LINE_BREAK.search(text, words.end())
        checked_to = end.start() if end else len(text)
        if _readable(text[start:checked_to][:LINE_CAP]):
            return True
    return False


def _record_run(transcript: "Transcript") -> None:
    outcome, owner = transcript.outcome, harness.current_owner
    seen = _runs.get(id(outcome))
    if owner is None or (seen and seen[2]["length"] == len(transcript.text)):
        return
    text = transcript.text
    if outcome.get("status") == "syntax-error":
        text = ""
    elif transcript.crashed and "Traceback (most recent call last):" in text:
        text = text[:text.rindex("Traceback (most recent call last):")]
    summary = {"program": outcome.get("program"), "status": outcome.get("status"),
               "asked": bool(transcript.prompts),
               "readable": _any_readable(text),
               "grader_problem": bool(outcome.get("grader_problem")),
               "ended_how": transcript.ended_how, "length": len(transcript.text)}
    # keyed by the outcome object (kept alive here), so a run seen twice is noted once
    _runs[id(outcome)] = (owner, outcome, summary)


def take_runs(owner: str | None) -> list[dict]:
    """Summaries of the finished runs started for ``owner`` (forgotten once taken):
    ``program``, ``status``, ``asked``, ``readable``, ``grader_problem``, ``ended_how``."""
    mine = [key for key, (who, _, _) in list(_runs.items()) if who == owner]
    return [_runs.pop(key)[2] for key in mine]
