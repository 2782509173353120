"""Playing a console game from a script, with loaded dice, and judging every step.

A script (``Scenario``) is the first roll and a list of steps: the kind of question the program
should ask, what the grader types, the dice that answer loads, and what must follow (``Expect``:
how many dice are rolled, what the screen shows, whether the game ends there). ``follow`` plays
it; ``play`` answers questions with any function of the prompt (e.g. "hold until won"). The
transcript is cut into segments, one per answer; ``judge`` turns every expectation into a
``Requirement`` worded for the student.

    questions = Questions(kind_of, {"reroll": "the re-roll question"}, cause)
    played = follow(folder / "game.py", folder, scenario, questions, limits=limits)
    score(result, judge(scenario, played, questions))

How a script is followed (each chosen so that any reasonable program can follow it):
- A question whose wording names another kind than the next step's stops the run, and the
  feedback says what was asked instead; a wording that names no kind is taken as expected.
- A question asked after the last answer stops the run: the game should have ended there.
- A step with an ``instead`` expectation may be skipped by a program that ends quietly (no
  question, a normal exit) right before it; ``instead`` is then judged on that last output.
- A run in which no die was rolled never started: answers typed alone earn nothing.
- A confirmation ("Are you sure you want to quit? (y/n)") asked right after the answer that
  ends the game is answered yes, once: asking to confirm is a reasonable choice a handout
  leaves open, and what follows counts as following the answer before it.
- A pause ("Press Enter to continue...") is answered with Enter wherever it comes, and what
  follows it counts as following the answer before it: a pause is not a question of the game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import answers
from ..judge.diagnose import tidy
from ..run.draws import ScriptedDice
from ..run.files import read_regular_file
from .readers import prompts
from ..judge.requirements import Requirement
from .session import Session
from .transcript import Transcript

HEADER = "«...» is what the grader typed; [dice: ...] are the dice it loaded."
is_pause = prompts.is_pause          # the engine's one pause (readers/prompts.py)


@dataclass(frozen=True)
class Questions:
    """A game's questions: ``kind_of(wording)`` (a kind, or None when the wording does not
    say), how feedback names each kind, and ``cause(outcome)``: the real cause of a crash at
    the start in a few words (None when there is nothing more to say than how the run ended)."""

    kind_of: Callable[[str], str | None]
    names: dict[str, str]
    cause: Callable[[dict], str | None] = lambda outcome: None


@dataclass(frozen=True)
class Money:
    """An amount of money the screen must show (``amounts`` reads $90, $ 90, 90 dollars)."""

    amount: int


@dataclass
class Expect:
    """What must follow an answer (or the start): ``shows`` pairs say in words what the screen
    must show and how to find it (``Money(90)``, a text, or a compiled pattern)."""

    label: str
    draws: int | None = None
    why: str = ""
    shows: list = field(default_factory=list)
    ends: bool = False

    @property
    def size(self) -> int:
        """How many requirements it makes."""
        return (self.draws is not None) + len(self.shows) + self.ends


@dataclass
class Step:
    """A question of the script (its kind and how feedback names the moment), the answer, the
    dice it loads, what must follow; ``instead``: what a program that ends here must show.
    ``means``: an intent ("yes", "no", "enter") answered as the prompt offers it ("(r)oll or
    (h)old?" and "1 = roll, 2 = hold" alike, another form when one is refused) instead of
    ``typed`` literally."""

    kind: str
    typed: str
    label: str
    then: Expect
    load: list[int] = field(default_factory=list)
    instead: Expect | None = None
    means: str | None = None


@dataclass
class Scenario:
    """A scripted game."""

    name: str
    purpose: str
    first: list[int]
    opening: Expect
    steps: list[Step] = field(default_factory=list)
    playable: bool = True

    @property
    def size(self) -> int:
        """How many requirements ``judge`` makes of it."""
        return self.opening.size + sum(1 + step.then.size for step in self.steps)


@dataclass
class Confirm:
    """The driver confirms what its last answer asked for ("Are you sure? (y/n)", see
    ``follow``): typed, but not an answer of the script."""

    typed: str = "y"


@dataclass
class Pause:
    """The driver presses Enter at a pause ("Press Enter to continue..."): typed, but not an
    answer of the script."""

    typed: str = ""


@dataclass
class Retry:
    """The driver types another form of its last answer, which the program refused: the
    answer it stands for is the same (not an answer of its own in ``Played.typed``)."""

    typed: str


@dataclass
class Stop:
    """The driver gives up: ``reason`` for the transcript, ``stopped`` for the feedback (said
    after "the grader expected ..., but"), ``extra``: a question asked after the script."""

    reason: str
    stopped: str | None = None
    extra: str | None = None


@dataclass
class Segment:
    """What the program printed and rolled between two answers."""

    start: int
    end: int
    text: str
    faces: list[int]
    prompt: str | None         # the question that ended it (None: the run ended)


@dataclass
class Played:
    """One run: the transcript cut at the answers, how the driver fared, the files read back
    (text, '<folder>' or None) and what the driver noted on the way (``state``)."""

    transcript: Transcript
    typed: list[str]
    stop: Stop | None = None
    files: dict = field(default_factory=dict)
    state: dict = field(default_factory=dict)
    confirmed: set = field(default_factory=set)    # lines typed (0 = the first) that did
    # not answer a question of their own: confirmations, pauses, other forms of an answer

    def __post_init__(self):
        self.segments = cut(self.transcript, self.confirmed)

    @property
    def stopped(self) -> str | None:
        return self.stop.stopped if self.stop else None

    @property
    def extra_prompt(self) -> str | None:
        return self.stop.extra if self.stop else None

    @property
    def ended_normally(self) -> bool:
        """The program finished (or exited with status 0) by itself."""
        return self.transcript.finished

    @property
    def rolled(self) -> bool:
        return any(segment.faces for segment in self.segments)

    @property
    def hung_at_start(self) -> bool:
        return not self.typed and self.transcript.outcome.get("status") == "limit"

    def quiet_end(self, index: int) -> bool:
        """The program ended normally right after answer ``index``, asking nothing more."""
        return index == len(self.typed) and self.stop is None and self.ended_normally

    def excerpt(self, first: int, last: int | None = None, lines: int = 40) -> str:
        """The screen from segment ``first`` to segment ``last`` (answers marked «...»)."""
        last = first if last is None else last
        first = max(0, min(first, len(self.segments) - 1))
        last = max(first, min(last, len(self.segments) - 1))
        return tidy(self.transcript.render(self.segments[first].start,
                                           self.segments[last].end, max_lines=lines))

    def attachment(self, title: str) -> str:
        """The whole run for a transcript file."""
        return f"{title}\n{HEADER}\n\n{self.transcript.render(max_lines=100_000)}\n\n" \
            f"{self.transcript.ended_how}\n"


def cut(transcript: Transcript, confirmed=()) -> list[Segment]:
    """The transcript in segments: before the first answer, between answers, after the last
    (an answer in ``confirmed``, counted from 0, does not cut: it confirms the one before)."""
    segments, start, faces, prompt, answers = [], 0, [], None, 0
    for mark in transcript.marks:
        if mark.kind == "draw":
            faces += mark.data.get("faces") or []
        elif mark.kind == "input":
            prompt = mark.text or "(input without a prompt)"
        elif mark.kind == "answer":
            answers += 1
            if answers - 1 in confirmed:
                prompt = None
                continue
            segments.append(Segment(start, mark.pos, transcript.text[start:mark.pos], faces,
                                    prompt))
            start, faces, prompt = mark.pos + len(mark.text) + 1, [], None
    segments.append(Segment(start, len(transcript.text), transcript.text[start:], faces, None))
    return segments


def play(target: Path, folder: Path, respond, policy=None, limits=None, args=(), files=(),
         state: dict | None = None) -> Played:
    """Run the program; ``respond(prompt, session, typed)`` gives each line to type, or a
    ``Stop``. ``files``: names of files the program writes, read back after the run (as
    regular files only, never through a link)."""
    session = Session.start(target, folder, policy=policy, limits=limits, args=list(args))
    typed, stop, confirmed = [], None, set()
    try:
        while (prompt := session.wait()) is not None:
            answer = Pause() if is_pause(prompt.wording) else \
                respond(prompt, session, typed)
            if isinstance(answer, Stop):
                stop = answer
                session.stop(answer.reason)
                break
            if isinstance(answer, (Confirm, Pause, Retry)):
                confirmed.add(len(typed) + len(confirmed))
                session.type(answer.typed)
                continue
            session.type(answer)
            typed.append(answer)
    finally:
        session.close()
    return Played(session.transcript, typed, stop,
                  {name: written(folder / name) for name in files}, state or {}, confirmed)


def written(path: Path) -> str | None:
    """A file the program wrote: its text, '<folder>', or None (never read through a link)."""
    if path.is_dir():
        return "<folder>"
    data = read_regular_file(path, 1_000_000)
    return None if data is None else data.decode("utf-8", "replace")


def follow(target: Path, folder: Path, scenario: Scenario, questions: Questions, limits=None,
           files=(), dice_from: tuple[str, ...] = ()) -> Played:
    """Play the script: the first roll, then each step's answer and dice, in order
    (``dice_from``: see ``draws.DrawPolicy``)."""
    policy = ScriptedDice(scenario.first, seed=7, dice_from=dice_from)
    steps = iter(scenario.steps)
    confirmed, attempts = [], {}

    def respond(prompt, session, typed):
        """The next step's answer, or a stop at a question of another kind."""
        asked = prompt.wording.strip()
        last = scenario.steps[len(typed) - 1] if 0 < len(typed) <= len(scenario.steps) \
            else None
        if last is not None and last.means and prompt.repeats and len(typed) in attempts:
            form = attempts[len(typed)].next()          # refused: the same answer, another form
            if form is not None:
                return Retry(form)
        ending = 0 < len(typed) <= len(scenario.steps) and \
            scenario.steps[len(typed) - 1].then.ends
        if ending and not confirmed and prompts.CONFIRM.search(asked):
            confirmed.append(asked)
            return Confirm()
        step = next(steps, None)
        if step is None:
            return Stop("the program asked another question after the game should have "
                        f"ended: {asked!r}", extra=asked)
        kind = questions.kind_of(asked)
        if kind is not None and kind != step.kind:
            return Stop(f"the program asked {asked!r} where the grader expected "
                        f"{questions.names[step.kind]}", f"the program asked {asked!r} instead")
        policy.load(step.load)
        if step.means:
            attempts[len(typed) + 1] = answers.Attempts(prompt.context, step.means)
            return attempts[len(typed) + 1].next()
        return step.typed
    return play(target, folder, respond, policy, limits, files=files)


# ----------------------------------------------------------------------------- judging
def judge(scenario: Scenario, played: Played, questions: Questions) -> list[Requirement]:
    """One requirement per question asked and per expectation after each answer; from the
    first question not asked on, everything counts as not done (said once)."""
    if not played.rolled:
        return [never_started(scenario, played, questions)] + \
            [Requirement(False)] * (scenario.size - 1)
    found = expect(scenario.opening, played, 0)
    missing = False
    for index, step in enumerate(scenario.steps):
        count = 1 + step.then.size
        if index < len(played.typed):
            found += [Requirement(True)] + expect(step.then, played, index + 1)
        elif not missing and step.instead and played.quiet_end(index):
            found += expect(step.instead, played, index) + \
                [Requirement(True)] * (count - step.instead.size)
        elif not missing:
            missing = True
            why = played.stopped or ending(played, questions)
            if played.quiet_end(index):
                why = "the program ended instead"
            found.append(Requirement(
                False, f"In the '{scenario.name}' game the grader expected {step.label}, but "
                       f"{why}. Everything after that point counts as not done.",
                expected=questions.names[step.kind], evidence=played.excerpt(index - 2, index)))
            found += [Requirement(False)] * (count - 1)
        else:
            found += [Requirement(False)] * count
    return found


def never_started(scenario: Scenario, played: Played, questions: Questions,
                  every_game: bool = False) -> Requirement:
    """The game never rolled a die (``every_game``: said once for all the games)."""
    where = "In none of the games" if every_game else f"In the '{scenario.name}' game"
    typed = " ".join(f"«{answer}»" for answer in played.typed[:6])
    answered = f" The grader answered {len(played.typed)} of its questions ({typed}" \
        f"{' ...' if len(played.typed) > 6 else ''}), but no dice were rolled." \
        if played.typed else ""
    cause = questions.cause(played.transcript.outcome)
    message = f"{where} did the program roll any dice: it crashed at the start. {cause}" \
        if cause else (f"{where} did the program roll any dice: the game never started "
                       f"({ending(played, questions)}). At the start, {scenario.opening.why}."
                       f"{answered}")
    return Requirement(False, message, expected=f"the first roll of {dice(scenario.opening.draws)}",
                       actual="no dice rolled", evidence=played.excerpt(0, 2))


def ending(played: Played, questions: Questions) -> str:
    """How the run ended, as a clause; with the real cause of a crash at the start."""
    how = tidy(played.transcript.ended_how).rstrip(".")
    cause = questions.cause(played.transcript.outcome)
    return f"{how[:1].lower()}{how[1:]}" + (f". {cause}" if cause else "")


def expect(wanted: Expect, played: Played, index: int) -> list[Requirement]:
    """The expectation on segment ``index`` (the output after answer ``index``)."""
    if index >= len(played.segments):
        return [Requirement(False)] * wanted.size
    segment, found = played.segments[index], []
    evidence = played.excerpt(index - 1, index)
    if wanted.draws is not None:
        rolled = len(segment.faces)
        found.append(Requirement(
            rolled == wanted.draws, f"{wanted.label}, the grader expected {dice(wanted.draws)} "
            f"to be rolled ({wanted.why}), but {dice(rolled)} {'was' if rolled == 1 else 'were'}"
            " rolled.", dice(wanted.draws),
            f"{dice(rolled)} rolled: {' '.join(map(str, segment.faces)) or '-'}",
            evidence=evidence))
    for what, sign in wanted.shows:
        found.append(Requirement(shows(segment.text, sign), f"{wanted.label}: the screen "
                                 f"should show {what}.", evidence=evidence))
    if wanted.ends:
        asked = played.extra_prompt or segment.prompt
        found.append(Requirement(
            asked is None and played.ended_normally,
            f"{wanted.label}: the game should end here, but the program asked {asked!r}."
            if asked is not None else f"{wanted.label}: the game should end normally here. "
            f"{played.transcript.ended_how}", evidence=evidence))
    return found


# Interpretation: a handout writes money as $85, and a program that writes "85 dollars" (or
# "$ 85", "$85.00", "85$") shows the same amount: a TA reads it as such.
MONEY = re.compile(r"\$\s*(-?\d{1,3}(?:,\d{3})+|-?\d+)(?:\.\d\d?)?(?!\d)|"
                   r"(?<![\d.$])(-?\d+)(?:\.\d\d?)?\s*(?:\$|dollars?\b|bucks\b)", re.I)


def amounts(text: str) -> list[int]:
    """The amounts of money the text shows, in order (see MONEY; '$1,200' is 1200)."""
    return [int((dollar or spelled).replace(",", "")) for dollar, spelled in MONEY.findall(text)]


def shows(text: str, sign) -> bool:
    """Whether the text shows an amount of money (``Money``: see ``amounts``), a text or a
    pattern. A bare number says no unit: it is refused."""
    if isinstance(sign, Money):
        return sign.amount in amounts(text)
    if isinstance(sign, (int, float)):
        raise TypeError(f"shows={sign!r}: say what the number is, e.g. Money({sign!r})")
    return sign in text if isinstance(sign, str) else sign.search(text) is not None


def dice(count: int | None) -> str:
    """'1 die', '3 dice'."""
    return f"{count} {'die' if count == 1 else 'dice'}"
