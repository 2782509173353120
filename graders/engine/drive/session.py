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

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import answers
from ..run.draws import DrawPolicy
from ..run.harness import Child, Limits
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
        files = replay_files(Path(workdir), Path(target))   # before the program changes them
        session = cls(child.start())
        session.run_files = files
        return session

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
        transcript = Transcript(self.child.log, self.child.outcome, self.gave_up)
        transcript.run = self.run_facts()
        return transcript

    def run_facts(self) -> dict:
        """How this run was started, for a replay of it (``replay``): the program's name in
        its folder, arguments, seed, limits, the session's own counts and the files the
        grader put beside the program."""
        child = self.child
        try:
            program = str(child.target.relative_to(child.workdir))
        except ValueError:
            program = child.target.name
        return {"program": program, "args": list(child.args), "seed": child.policy.seed,
                "env": dict(child.extra_env), "limits": dataclasses.asdict(child.limits),
                "max_prompts": self.max_prompts, "max_repeats": self.max_repeats,
                "files": getattr(self, "run_files", {})}

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


REPLAY_FILE_BYTES = 64_000     # a file the grader set up beside the program (a record)


def replay_files(workdir: Path, target: Path) -> dict:
    """What a run folder holds before the run besides the program (what a grader set up: a
    best-score file, a stand-in module, a folder in a file's place, a link, the folder's own
    mode), name -> {"text", "mode"}, {"folder": True, "mode"} or {"link"}, so a replay can
    set it up again."""
    found = {}
    try:
        entries = sorted(workdir.iterdir())
        found["."] = {"folder": True, "mode": workdir.stat().st_mode & 0o777}
    except OSError:
        return found
    for path in entries:
        try:
            if path == target:
                continue
            if path.is_symlink():            # e.g. a record the program may not write
                found[path.name] = {"link": os.readlink(path)}
                continue
            if path.is_dir():
                found[path.name] = {"folder": True, "mode": path.stat().st_mode & 0o777}
            elif path.is_file() and path.stat().st_size <= REPLAY_FILE_BYTES:
                found[path.name] = {"text": path.read_text(encoding="utf-8"),
                                    "mode": path.stat().st_mode & 0o777}
        except (OSError, UnicodeDecodeError):
            continue
    return found


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
    from ..run.harness import Event
    return Event("note", text)
