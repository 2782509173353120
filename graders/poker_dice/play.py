"""Playing project.py in a terminal with loaded dice.

Two drivers: :func:`play_script` follows a fixed list of questions and answers (built by
``scenarios.py`` from the kit's model of the game) and stops when the program asks something
else; :func:`play_to_win` holds every hand until the game is won, however many hands that
takes. Both return a :class:`Played`: the transcript cut into segments, one per answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.draws import ScriptedDice
from graders.engine.harness import run_folder
from graders.engine.session import Session
from graders.engine.submissions import read_regular_file
from graders.engine.transcript import Transcript

from . import diagnose

ORACLE, AGAIN, REROLL = "oracle", "again", "reroll"
QUESTION = "Will I pass my exam?"
RECORD = "BestScore.txt"
MAX_HANDS = 12
WORDS = {ORACLE: "the Magic 8 ball question", AGAIN: "'Play another hand? (y/n)'",
         REROLL: "the re-roll question (dice numbers, H or Q)"}

ORACLE_WORDS = re.compile(r"question|magic|\bball\b|oracle|fortune", re.I)
YES_NO = re.compile(r"\by\s*/\s*n\b|\byes\s*/\s*no\b|\by(es)?\s+or\s+n(o)?\b|\[y\]|\(y\)", re.I)
REROLL_WORDS = re.compile(r"roll|dice|\bdie\b|\bhold\b|\bh\s*=|\bh\b\s*(to|for)\b|1\s*-\s*5",
                          re.I)
AGAIN_WORDS = re.compile(r"another|again|continue|play|more", re.I)
MONEY = re.compile(r"\$\s*(-?\d+)")
SILENT_PYTTSX3 = {"pyttsx3.py": '''"""A silent stand-in for pyttsx3, put here by the grader."""


class _Engine:
    """Accepts every call and says nothing."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def init(*args, **kwargs):
    """A silent engine."""
    return _Engine()
'''}


def kind_of(wording: str) -> str | None:
    """Which question a prompt's wording asks (None when the wording does not say)."""
    if ORACLE_WORDS.search(wording):
        return ORACLE
    if YES_NO.search(wording):
        return AGAIN
    if REROLL_WORDS.search(wording):
        return REROLL
    if AGAIN_WORDS.search(wording):
        return AGAIN
    return None


@dataclass
class Segment:
    """What the program printed and rolled between two of the grader's answers."""

    start: int                 # offsets in the transcript text
    end: int
    text: str
    faces: list[int]
    prompt: str | None         # the question that ended the segment (None: the run ended)


@dataclass
class Played:
    """One run: the transcript cut at the answers, and how the driver fared."""

    transcript: Transcript
    segments: list[Segment]
    typed: list[str]
    stopped: str | None = None          # why the driver gave up early
    extra_prompt: str | None = None     # a question asked after the script's last answer
    record: str | None = None           # BestScore.txt after the run ('<folder>' if a folder)
    holds: int = 0                      # play_to_win: hands played (one hold per hand)
    oracle_segment: int | None = None   # play_to_win: the segment ending with the question
    hung_at_start: bool = False

    @property
    def ended_normally(self) -> bool:
        """The program finished (or exited with status 0) by itself."""
        outcome = self.transcript.outcome
        return outcome.get("status") in ("finished", "exit") and \
            outcome.get("code", 0) in (0, None) and not self.transcript.gave_up

    def excerpt(self, first: int, last: int | None = None, lines: int = 40) -> str:
        """The screen from segment ``first`` to segment ``last`` (answers marked «...»)."""
        last = first if last is None else last
        segments = self.segments or [Segment(0, len(self.transcript.text), "", [], None)]
        first = max(0, min(first, len(segments) - 1))
        last = max(first, min(last, len(segments) - 1))
        return diagnose.tidy(self.transcript.render(segments[first].start, segments[last].end,
                                                    max_lines=lines))


@dataclass
class Ask:
    """A question the script expects and what the grader types."""

    kind: str
    typed: str
    load: list[int] = field(default_factory=list)


def cut(transcript: Transcript) -> list[Segment]:
    """The transcript in segments: before the first answer, between answers, after the last."""
    segments, start, faces, prompt = [], 0, [], None
    for mark in transcript.marks:
        if mark.kind == "draw":
            faces += mark.data.get("faces") or []
        elif mark.kind == "input":
            prompt = mark.text or "(input without a prompt)"
        elif mark.kind == "answer":
            segments.append(Segment(start, mark.pos, transcript.text[start:mark.pos], faces,
                                    prompt))
            start, faces, prompt = mark.pos + len(mark.text) + 1, [], None
    text = transcript.text
    segments.append(Segment(start, len(text), text[start:], faces, None))
    return segments


def start(submission, budget, folder: Path, policy=None, args=(), setup=None) -> Session:
    """A run of project.py in its run folder (which holds the silent pyttsx3)."""
    if setup:
        setup(folder)
    limits = budget.limits(cpu_seconds=7, stuck_cpu_seconds=1.5, idle_seconds=10)
    return Session.start(folder / "project.py", folder, policy=policy, limits=limits,
                         args=list(args))


def finish(session: Session, folder: Path, typed: list[str], **found) -> Played:
    """Close the run and read BestScore.txt."""
    session.close()
    record_path = folder / RECORD
    if record_path.is_dir():
        record = "<folder>"
    else:
        # the program's own file: read only if it is a regular file (never through a link)
        data = read_regular_file(record_path, 1_000_000)
        record = None if data is None else data.decode("utf-8", "replace")
    transcript = session.transcript
    played = Played(transcript, cut(transcript), typed, record=record, **found)
    played.hung_at_start = not typed and transcript.outcome.get("status") == "limit"
    return played


def play_script(submission, first_roll: list[int], script: list[Ask], budget) -> Played:
    """Answer the script's questions in order; stop at a question of another kind."""
    policy = ScriptedDice(first_roll, seed=7)
    with run_folder(submission, "game", SILENT_PYTTSX3) as folder:
        session = start(submission, budget, folder, policy)
        typed: list[str] = []
        stopped = extra = None
        try:
            for ask in script:
                prompt = session.wait()
                if prompt is None:
                    break
                kind = kind_of(prompt.wording)
                if kind is not None and kind != ask.kind:
                    # said after "the grader expected <the step>, but ..." in the feedback
                    stopped = f"the program asked {prompt.wording.strip()!r} instead"
                    session.stop(f"the program asked {prompt.wording.strip()!r} where the "
                                 f"grader expected {WORDS[ask.kind]}")
                    break
                policy.load(ask.load)
                session.type(ask.typed)
                typed.append(ask.typed)
            else:
                prompt = session.wait()
                if prompt is not None:
                    extra = prompt.wording
                    session.stop("the program asked another question after the game should "
                                 f"have ended: {extra!r}")
        finally:
            played = finish(session, folder, typed, stopped=stopped, extra_prompt=extra)
    return played


def play_to_win(submission, roll: list[int], budget, setup=None) -> Played:
    """Hold every hand (the dice always show ``roll``) and say yes until the game is won."""
    policy = ScriptedDice(roll, seed=7)
    with run_folder(submission, "win", SILENT_PYTTSX3) as folder:
        session = start(submission, budget, folder, policy, setup=setup)
        typed: list[str] = []
        holds, oracle, last = 0, None, None
        try:
            while (prompt := session.wait()) is not None:
                kind = kind_of(prompt.wording) or _guess(last, session.output_since_answer())
                if last == QUESTION or (kind == AGAIN and holds >= MAX_HANDS):
                    session.stop(f"the grader stopped after {holds} hands")
                    break
                if kind == ORACLE:
                    answer, oracle = QUESTION, len(typed)
                elif kind == AGAIN:
                    answer = "y"
                    policy.load(roll)
                else:
                    answer, holds = "H", holds + 1
                session.type(answer)
                typed.append(answer)
                last = answer
        finally:
            played = finish(session, folder, typed, holds=holds, oracle_segment=oracle)
    return played


def _guess(last: str | None, output: str) -> str:
    """The question a prompt with neutral wording asks, from where the game is."""
    if last == "H":
        amounts = [int(amount) for amount in MONEY.findall(output)]
        return ORACLE if amounts and amounts[-1] >= 200 else AGAIN
    return REROLL


def money_shown(text: str, amount: int) -> bool:
    """Whether the text shows the amount as money ($85, $ 85, $85.00)."""
    return re.search(rf"\$\s*{amount}(?:\.00?)?(?![\d])", text) is not None
