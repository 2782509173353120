"""The session: the API grader code uses to play a student's program.

    session = Session.start(program, policy=dice)
    while (prompt := session.wait()) is not None:
        session.answer("yes")            # or "no", "enter", or literal text like "Quillon"
    session.transcript                   # everything, in order, for readers and feedback

``answer`` picks the form from the prompt's wording (see ``answers``) and, when the program
repeats the same prompt right after an answer (``refused``), tries the next form of the same
answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import answers
from .draws import DrawPolicy
from .harness import Child, Limits
from .transcript import Transcript


@dataclass
class Prompt:
    """The program is waiting for a line of input."""

    text: str                    # what input() was given
    context: str                 # the last few screen lines, prompt included (ANSI removed)
    number: int                  # 1 for the first prompt of the run
    repeats: int = 0             # how many times in a row this same prompt came back
    stack: list = field(default_factory=list)   # the student's frames asking (see kitboot)

    @property
    def wording(self) -> str:
        """The prompt text, or the last printed line when input() had no prompt."""
        return self.text.strip() or (self.context.strip().splitlines() or [""])[-1]


@dataclass
class Session:
    """One interactive run of a program."""

    child: Child
    prompt: Prompt | None = None
    max_prompts: int = 400
    max_repeats: int = 6
    gave_up: str | None = None
    _prompt_count: int = 0
    _last_key: str | None = None

    @classmethod
    def start(cls, target: Path, workdir: Path, policy: DrawPolicy | None = None,
              limits: Limits | None = None, args: list[str] | None = None,
              deny: list[Path] | None = None, paths: list[Path] | None = None,
              env: dict[str, str] | None = None) -> "Session":
        child = Child(target, workdir=workdir, policy=policy, limits=limits, args=args,
                      deny=deny, paths=paths, env=env)
        return cls(child.start())

    # ------------------------------------------------------------------
    def wait(self) -> Prompt | None:
        """Run until the program asks for input (the Prompt) or ends (None)."""
        if self.gave_up:
            return None
        event = self.child.next_event()
        if event is None or event.get("ev") != "input":
            self.prompt = None
            return None
        self._prompt_count += 1
        context = _screen_tail(self.child.log)
        key = _normalise(event.get("prompt", "") or context.splitlines()[-1:] and
                         context.splitlines()[-1] or "")
        rejected = self.prompt is not None and key == self._last_key and \
            not self.drew_since_answer()
        repeats = self.prompt.repeats + 1 if rejected else 0
        self._last_key = key
        self.prompt = Prompt(event.get("prompt", ""), context, self._prompt_count, repeats,
                             event.get("stack") or [])
        if self._prompt_count > self.max_prompts:
            self.stop(f"the program asked more than {self.max_prompts} questions")
            return None
        if repeats >= self.max_repeats:
            self.stop(f"the program asked the same question {repeats + 1} times in a row "
                      f"and accepted none of our answers: {self.prompt.wording!r}")
            return None
        return self.prompt

    def drew_since_answer(self) -> bool:
        """Did anything random happen since our last answer (then a repeat is a new turn)?"""
        for event in reversed(self.child.log):
            if event.kind == "answer":
                return False
            if event.kind == "draw":
                return True
        return False

    @property
    def refused(self) -> bool:
        """The program asked the same question again, nothing drawn since our answer: it did
        not take the answer (``Prompt.repeats`` counts how many times in a row)."""
        return self.prompt is not None and self.prompt.repeats > 0

    def answer(self, intent: str, attempt: int | None = None) -> str:
        """Answer the current prompt; returns what was typed. ``attempt`` picks a later form
        (by default the next one each time the program refuses: ``refused``); a grader that
        knows a question in other words asks again keeps an ``answers.Attempts`` itself."""
        assert self.prompt is not None, "answer() needs a prompt; call wait() first"
        choices = answers.forms(self.prompt.context, intent)
        if attempt is None:
            attempt = self.prompt.repeats if self.refused else 0
        text = choices[min(attempt, len(choices) - 1)]
        self.child.send_line(text)
        return text

    def type(self, text: str) -> None:
        """Type literal text, whatever the prompt."""
        self.child.send_line(text)

    def end_input(self) -> None:
        """Close standard input (the program's next read gets EOF)."""
        self.child.send_eof()

    def stop(self, reason: str) -> None:
        """Give up on this run (e.g. a scenario has seen enough)."""
        self.gave_up = reason
        self.child.log.append(_note(reason))
        self.child.close()

    def close(self) -> None:
        self.child.close()

    @property
    def transcript(self) -> Transcript:
        return Transcript(self.child.log, self.child.outcome, self.gave_up)

    def output_since_answer(self) -> str:
        """What the program printed since the grader's last answer (all of it before the
        first). While the run goes on, only the end of the log is read (a game asks this at
        every prompt: reading the whole log each time grew with the square of its length);
        once it has ended, the whole transcript, which notes the run for the plugin."""
        if self.child.outcome.get("status"):
            return self.transcript.since_last_answer()
        log = self.child.log
        start = len(log)
        while start and log[start - 1].kind != "answer":
            start -= 1
        return Transcript(log[start:]).text


def _screen_tail(log, lines: int = 6) -> str:
    """The last few screen lines (only the end of the log is read: prompts come often)."""
    recent = []
    size = 0
    for event in reversed(log):
        if event.kind in ("out", "answer"):
            recent.append(event)
            size += len(event.text)
            if size > 4000:
                break
    return Transcript(list(reversed(recent))).tail_text(lines)


SPACES = re.compile(r"\s+")
# the terminal codes programs put in their prompts (colours, clearing the screen)
ANSI_CODE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _normalise(text: str) -> str:
    return SPACES.sub(" ", ANSI_CODE.sub("", text)).strip().lower()


def _note(text: str):
    from .harness import Event
    return Event("note", text)
