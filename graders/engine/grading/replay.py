"""Replay a graded game at home, exactly: ``gradekit replay ASSIGNMENT FILE --game NAME``.

Grading records, beside each game's transcript, the game's *plan*
(``transcripts/<game>.replay.json``): every answer the grader typed and every random draw it
answered (the call, what it asked for, the value given), in order, how the run was started
(program, arguments, seed, limits, files the grader set up) and how it ended. After grading,
each failed item's evidence is looked up in the games' transcripts, and the plan of the game
where it shows records the failure: after how many answers it can be seen, and what the check
expected (``annotate``).

The replay runs the student's own program under the kit's boot file, in the student's own
terminal: the boot file asks for every draw, and the plan's values answer them; every
question is answered with the plan's answer, typed visibly, as if by a person. Nothing of the
grader's (no policy, no reading of the screen) runs again, so the game is the graded one as
long as the program is: where the program asks or draws something else than the graded one
did at that point (its code changed), the replay says so plainly and stops.

Options: ``--until-failure`` (the default) stops at the first failure of that game and shows
what the check expected beside the screen; ``--step`` waits for Enter before each answer;
``--pdb`` runs the game under Python's debugger; ``--transcript FILE`` writes the replay's
transcript, which is the grader's to the byte when the program is unchanged (the game is then
played to its end unless ``--until-failure`` is given too).
"""
from __future__ import annotations

import codecs
import dataclasses
import itertools
import json
import os
import re
import shutil
import sys
import textwrap
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..run.draws import DrawPolicy
from ..run.harness import Child, Event, Limits
from ..drive.session import Session
from ..drive.transcript import Transcript, clean

PLAN_SUFFIX = ".replay.json"
PLAN_VERSION = 1
MAX_PLAN_BYTES = 1_900_000      # under the report folder's 2 MB per file: never cut
SCREEN_LINES = 18               # lines of the screen shown beside the expectation
DEFAULT_REPORT = "selfcheck-report"
HIDDEN_SETTING = "hidden_games"     # rubric.toml [replay]: "ta" (default) or "students"


# ----------------------------------------------------------------------------- the plan
def plan_of(transcript: Transcript, name: str, header: str = "", footer: bool = True,
            public: bool = True, title: str | None = None) -> dict | None:
    """The replay plan of one graded run (None: a run the grader did not start itself)."""
    run = getattr(transcript, "run", None)
    if not run:
        return None
    events: list[dict] = []
    marks = transcript.marks
    for index, mark in enumerate(marks):
        if mark.kind == "input":
            events.append({"kind": "input", "prompt": mark.text})
        elif mark.kind == "answer":
            events.append({"kind": "answer", "text": mark.text})
        elif mark.kind == "eof":
            events.append({"kind": "eof"})
        elif mark.kind == "draw":
            data = mark.data
            step = {"kind": "draw", "fn": data.get("fn"), "req": data.get("req") or {},
                    "value": data.get("value"), "faces": list(data.get("faces") or [])}
            later = list(itertools.takewhile(lambda m: m.kind in ("out", "limit"),
                                             marks[index + 1:]))
            end = [m for m in later if m.kind == "limit"]
            if end and end[0].data.get("limit") == "enough":
                # the grader had seen enough after this draw, and stopped the program when
                # it had printed this much more (read before and after the stop)
                step["enough"] = {"tail": "".join(m.text for m in later if m.kind == "out"),
                                  "message": end[0].text}
            events.append(step)
        elif mark.kind == "note" and not mark.data and mark.text == transcript.gave_up:
            events.append({"kind": "stop", "reason": mark.text})
    outcome = {key: transcript.outcome.get(key) for key in
               ("status", "code", "limit", "shorter_limit") if key in transcript.outcome}
    return {"version": PLAN_VERSION, "game": name, "title": title or name, "public": public,
            "header": header,
            "footer": footer, "run": run, "events": events, "outcome": outcome,
            "answer_lines": answer_lines(transcript), "failures": []}


def answer_lines(transcript: Transcript) -> list[int]:
    """The line of the full rendering (``render(max_lines=100_000)``) where each answer (and
    end of input) shows, in order: the rendering with each answer replaced by a token."""
    tokens = {}
    marks = []
    for mark in transcript.marks:
        if mark.kind in ("answer", "eof"):
            token = f"\x00{len(tokens)}\x00"
            tokens[token] = len(tokens)
            mark = dataclasses.replace(mark, kind="answer", text=token)
        marks.append(mark)
    copy = Transcript([])
    copy.text, copy.marks = transcript.text, marks
    lines = [0] * len(tokens)
    rendered = copy.render(max_lines=100_000)
    number, counted_to = 0, 0
    for token in re.finditer("\x00\\d+\x00", rendered):     # in order: count lines as we go
        number += rendered.count("\n", counted_to, token.start())
        counted_to = token.start()
        lines[tokens[token.group()]] = number
    return lines


def transcript_text(plan: dict, transcript: Transcript) -> str:
    """The game's transcript file as the grader writes it (see ``attach_game``)."""
    text = plan.get("header", "") + transcript.render(max_lines=100_000)
    if plan.get("footer", True):
        text += f"\n\n{transcript.ended_how}\n"
    return text


def attach_game(attach, name: str, transcript: Transcript, header: str = "",
                footer: bool = True, public: bool = True, title: str | None = None) -> str:
    """Attach a game's transcript (``transcripts/<name>.txt``: ``header``, the screen, and
    how it ended when ``footer``) and its replay plan; returns the transcript's text.
    ``public``: a game the students' self-check plays too; ``title``: the game's name in the
    feedback, when the file's differs."""
    plan = plan_of(transcript, name, header, footer, public, title)
    text = transcript_text(plan or {"header": header, "footer": footer}, transcript)
    attach(f"transcripts/{name}.txt", text)
    if plan is not None:
        data = json.dumps(plan, ensure_ascii=False)
        if len(data.encode("utf-8")) <= MAX_PLAN_BYTES:
            attach(f"transcripts/{name}{PLAN_SUFFIX}", data)
    return text


def play_games(plans, budget, attach, play, public=()) -> dict:
    """Each plan's game played side by side (``budget.map``): plan name -> what ``play``
    returned (None where the budget ran out first). The transcript and replay plan of each
    game played (a result with a ``transcript``) go to the report; ``public``: the plans the
    students' self-check plays too. For a grader whose plans have a ``name`` and a
    ``describe()``."""
    played = dict(zip((plan.name for plan in plans), budget.map(play, plans)))
    for plan in plans:
        run = played[plan.name]
        if getattr(run, "transcript", None) is not None:
            attach_game(attach, slug(plan.name), run.transcript, game_header(
                plan.name, plan.describe()), public=plan in public, title=plan.name)
    return played


def slug(name: str) -> str:
    """A game's name as a file name: 'double chain' -> 'double-chain'."""
    return re.sub(r"[^\w.-]+", "-", name).strip("-") or "game"


def game_header(name: str, purpose: str, dice: bool = True) -> str:
    """The usual first lines of a game's transcript file."""
    loaded = "; [dice: ...] are the dice it loaded" if dice else ""
    return (f"Game '{name}': {purpose.rstrip('.')}.\n«...» is what the grader typed{loaded}."
            "\n\n")


# ----------------------------------------------------------------------------- failures
LEFT_OUT_LINE = re.compile(r"^\.\.\. \(\d+ lines left out\) \.\.\.$|^… [\d,]+ characters left")
MIN_MATCH_CHARS = 12            # a block with less text than this could be anywhere


def _game_lines(plan: dict, text: str) -> list[str]:
    """The rendered screen of a game's transcript file, line by line (header removed)."""
    body = text[len(plan.get("header", "")):] if text.startswith(plan.get("header", "")) \
        else text
    return [line.rstrip() for line in body.split("\n")]


def locate(block: str, lines: list[str]) -> int | None:
    """The line of a game's rendering where ``block`` (evidence: an excerpt of the screen, or
    what the program showed) ends, or None. An excerpt may start or end within a line, and
    may have lines left out in the middle: its last part is looked for, shortened from the
    front until it is found or too short to be sure of."""
    parts = re.split(r"\n(?:\.\.\. \(\d+ lines left out\) \.\.\.|… [\d,]+ characters left "
                     r"out …)\n", block.strip("\n"))
    wanted = [line.rstrip() for line in parts[-1].split("\n")]
    while wanted and not wanted[-1].strip():
        wanted.pop()
    for start in range(len(wanted)):
        seq = wanted[start:]
        if sum(len(line.strip()) for line in seq) < MIN_MATCH_CHARS:
            return None
        found = _find(seq, lines)
        if found is not None:
            return found
    return None


def _find(seq: list[str], lines: list[str]) -> int | None:
    last = len(seq) - 1
    # the whole block is compared only where its last line matches (a long screen of one
    # line repeated would otherwise compare every line with every line of the block); that
    # test, _same's for a last line, is written out here since it runs on every line
    end, tail, alone = seq[last], seq[last].strip(), last == 0
    if tail:
        ends = (at for at in range(last, len(lines))
                if lines[at].startswith(end) or (alone and lines[at].endswith(tail)))
    else:
        ends = (at for at in range(last, len(lines)) if lines[at] == end or not lines[at].strip())
    for at in ends:
        start = at - last
        if all(_same(seq[i], lines[start + i], i == 0, i == last) for i in range(last)):
            return at
    return None


def _same(wanted: str, line: str, first: bool, last: bool) -> bool:
    if wanted == line:
        return True
    if not wanted.strip():
        return not line.strip()
    return (first and line.endswith(wanted.strip())) or (last and line.startswith(wanted))


def _blocks(detail: dict) -> list[str]:
    """What a failed requirement showed of the screen: its evidence, then the program's."""
    return [str(detail[key]) for key in ("evidence", "actual") if detail.get(key)]


def _expectation(verdict, detail: dict | None) -> str:
    """What the check expected, in the feedback's words (one requirement, or the item)."""
    item = verdict.item
    lines = [f"{item.id}: {item.title}"]
    if detail is None:
        messages = [m for check in verdict.judging_checks for m in check.messages]
        lines += messages[:2]
    else:
        lines.append(str(detail.get("message", "")).strip())
        if detail.get("expected") is not None:
            lines += ["Expected:", str(detail["expected"]).rstrip()]
    return "\n".join(line for line in lines if line)[:4_000]


def annotate(report) -> None:
    """After grading: record in each game's plan where its failed items show (the answers
    typed by then, and what was expected), and which game replays each failed item
    (``report.replays``: item id -> game name)."""
    plans: dict[str, dict] = {}
    texts: dict[str, list[str]] = {}
    for name, data in report.attachments.items():
        if name.startswith("transcripts/") and name.endswith(PLAN_SUFFIX):
            game = name[len("transcripts/"):-len(PLAN_SUFFIX)]
            try:
                plan = json.loads(data)
            except ValueError:
                continue
            text = report.attachments.get(f"transcripts/{game}.txt")
            if text is None:
                continue
            plan["failures"] = []
            plans[game], texts[game] = plan, _game_lines(plan, text)
    replays: dict[str, str] = {}
    if not plans:
        _call_scripts(report, replays)
        report.replays = replays
        return
    for verdict in report.verdicts:
        if verdict.passed or not verdict.judged or verdict.item.review:
            continue
        details = [d for check in verdict.judging_checks for d in check.details]
        for detail in details:
            # the game the sentence names is looked in first: the same dice and screens
            # recur in several games
            said = str(detail.get("message", ""))
            order = sorted(plans, key=lambda g: f"'{g}'" not in said)
            for block in _blocks(detail):
                where = next(((game, line) for game in order
                              if (line := locate(block, texts[game])) is not None), None)
                if where is None:
                    continue
                game, line = where
                answers = sum(1 for at in plans[game]["answer_lines"] if at <= line)
                plans[game]["failures"].append({"item": verdict.item.id, "line": line,
                                                "answers": answers,
                                                "expected": _expectation(verdict, detail)})
                replays.setdefault(verdict.item.id, game)
                break
        if verdict.item.id not in replays:
            said = " ".join(str(d.get("message", "")) for d in details)
            game = next((g for g, plan in plans.items()
                         if re.search(f"'(?:{re.escape(g)}|{re.escape(plan.get('title', g))})'",
                                      said)), None)
            if game is not None:
                plans[game]["failures"].append({"item": verdict.item.id, "line": None,
                                                "answers": None,
                                                "expected": _expectation(verdict, None)})
                replays[verdict.item.id] = game
    _call_scripts(report, replays)
    for game, plan in plans.items():
        plan["failures"].sort(key=lambda f: (f["line"] is None, f["line"] or 0))
        report.attachments[f"transcripts/{game}{PLAN_SUFFIX}"] = json.dumps(
            plan, ensure_ascii=False)
    report.replays = replays


# ----------------------------------------------------------------------------- failed calls
CALL_EXPECTED = re.compile(r"^(?P<call>[A-Za-z_][\w.]*\(.*\)) == (?P<value>.+)$")
CALL_EXAMPLE = re.compile(r"(?P<call>\b[A-Za-z_][\w.]*\([^\n]*?\)) returned (?P<got>[^\n]*?); "
                          r"expected (?P<value>[^\n]*?)\.?$", re.M)
SCRIPT_PREFIX = "replay_"
MAX_SCRIPT_CALLS = 12


def failed_calls(verdict) -> list[tuple[str, str, str]]:
    """(call, expected, what the program did) of a failed item's calls, as the feedback
    shows them: its 'Expected' blocks (``call == value``) and its examples."""
    from ..call.calls import parse_call
    found: dict[str, tuple[str, str, str]] = {}
    for check in verdict.judging_checks:
        for detail in check.details:
            expected = str(detail.get("expected") or "")
            actual = str(detail.get("actual") or "")
            pairs = [(m["call"], m["value"], actual) for line in expected.split("\n")
                     if (m := CALL_EXPECTED.match(line.strip()))]
            pairs += [(m["call"], m["value"], f"returned {m['got']}")
                      for m in CALL_EXAMPLE.finditer(str(detail.get("message") or ""))]
            for call, value, did in pairs:
                try:
                    parse_call(call)
                except (ValueError, SyntaxError):
                    continue
                found.setdefault(call, (call, value.strip(), did.removeprefix(call).strip()))
    return list(found.values())[:MAX_SCRIPT_CALLS]


def call_script(module: str, verdict, calls: list[tuple[str, str, str]]) -> str:
    """A small program that makes the failed calls again with the student's functions."""
    from ..call.calls import parse_call
    item = verdict.item
    lines = [f'"""The grader\'s failed calls of `{item.id}` ({item.title}), made again with '
             f"your own\nfunctions. Run it in the folder holding {module}.py:\n\n"
             f"    python {SCRIPT_PREFIX}{item.id}.py\n\nEdit it as you like: change the "
             f'arguments, add prints to your functions, try other cases."""',
             "import os", "import sys", "", "sys.path.insert(0, os.getcwd())",
             f"from {module} import *  # noqa: F401,F403 - your functions", "", "",
             "def show(call, got, expected, args, given, graded):",
             '    """What the call returned, beside what the grader expected."""',
             '    print(">>>", call)',
             '    print("  returned:", repr(got))',
             "    if args != given:",
             '        print("  and changed its arguments to:", ", ".join(map(repr, args)))',
             "    kept = any(got is arg for arg in args if isinstance(arg, (list, dict, set)))",
             "    if kept:",
             '        print("  (the very object it was given, not a new one)")',
             '    right = type(got) is type(expected) and got == expected and args == given \\',
             "        and not kept",
             '    print("  expected:", repr(expected), "(right)" if right else "(WRONG)")',
             '    print("  when graded, it", graded)', "    print()", ""]
    for call, value, did in calls:
        name, args, kwargs = parse_call(call)
        try:
            expected = repr(ast_literal(value))
        except ValueError:
            expected = repr(value)          # not a value: said as the grader said it
        lines += ["", f"args = {args!r}",
                  f"got = {name}(*args{', **' + repr(kwargs) if kwargs else ''})",
                  f"show({call!r}, got, {expected}, args, {args!r}, {did!r})"]
    return "\n".join(lines) + "\n"


def ast_literal(text: str):
    import ast
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ValueError(text) from None


def _call_scripts(report, replays: dict) -> None:
    """A script per failed item whose calls the feedback names and no game replays."""
    module = Path(report.rubric.main_file).stem
    for verdict in report.verdicts:
        item = verdict.item
        if verdict.passed or not verdict.judged or item.review or item.id in replays:
            continue
        calls = failed_calls(verdict)
        if calls:
            name = f"{SCRIPT_PREFIX}{item.id}"
            report.attachments[f"{name}.py"] = call_script(module, verdict, calls)
            replays[item.id] = name


def hidden_allowed(assignment: str) -> bool:
    """Whether the students may replay hidden games (rubric.toml ``[replay] hidden_games =
    "students"``; by default only TAs, who have the report folders)."""
    from ..judge.rubric import DATA_ROOT
    path = DATA_ROOT / "assignments" / assignment / "rubric.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return str(data.get("replay", {}).get(HIDDEN_SETTING, "ta")).lower() == "students"


def command(assignment: str, path: str, game: str, folder: str | None = None) -> str:
    """The one-line command that replays ``game``."""
    quoted = [_quote(part) for part in (assignment, path)]
    line = f"gradekit replay {quoted[0]} {quoted[1]} --game {_quote(game)}"
    if folder and Path(folder) != Path(DEFAULT_REPORT):
        line += f" --report {_quote(str(folder))}"
    return line


def _quote(text: str) -> str:
    import shlex
    return shlex.quote(text)


def commands(report, student_facing: bool = True) -> dict[str, str]:
    """item id -> the replay command printed under it (hidden games' only where allowed)."""
    replays = getattr(report, "replays", None) or {}
    if not replays:
        return {}
    where = getattr(report, "replay_where", None) or {}
    path = where.get("path") or report.rubric.main_file
    folder = where.get("folder")
    allowed = not student_facing or hidden_allowed(report.rubric.assignment)
    found = {}
    public_items = {item.id for item in report.rubric.items if item.public}
    for item, game in replays.items():
        plan = report.attachments.get(f"transcripts/{game}{PLAN_SUFFIX}", "")
        public = '"public": true' in plan or (
            f"{game}.py" in report.attachments and item in public_items)
        if public or allowed:
            found[item] = command(report.rubric.assignment, path, game, folder)
    return found


# ----------------------------------------------------------------------------- the replay
class Diverged(Exception):
    """The program did something else than the graded one at this point."""


class _Log(list):
    """The run's event log, telling the screen of the program's ``os.system`` calls."""

    on_system = None

    def append(self, event):
        super().append(event)
        if event.kind == "system" and self.on_system is not None:
            self.on_system(event.text)


class ReplayChild(Child):
    """A run whose output is also shown on the person's terminal (``screen``), and whose
    debugger (``--pdb``) reads the person's lines."""

    def __init__(self, *args, screen=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.screen = screen
        self.log = _Log()
        self.policy.log = self.log
        if screen is not None:
            self.log.on_system = screen.system
        self._shown = codecs.getincrementaldecoder("utf-8")("replace")

    def _shown_output(self, data: bytes) -> None:
        if self.screen is not None:
            self.screen.output(data)

    replay = None

    def _answer_draw(self, event: dict) -> None:
        if self.replay is not None and self.replay.tail is not None:
            self._stopped_by_grader()       # a draw past the grader's stop: not answered
            return
        super()._answer_draw(event)

    def _stopped_by_grader(self) -> None:
        """End the run as the grader ended it after its last draw (``Replay.tail``): the
        output since that draw cut where the grader's run had got to, then the same stop."""
        tail, self.replay.tail = self.replay.tail, None
        last = max((i for i, e in enumerate(self.log) if e.kind == "draw"), default=-1)
        outs = [e for e in self.log[last + 1:] if e.kind == "out"]
        text = "".join(e.text for e in outs)
        cut = next((n for n in range(len(tail["tail"]), len(text) + 1)
                    if clean(text[:n]) == tail["tail"]), None)
        if cut is not None:
            self.log[last + 1:] = [e for e in self.log[last + 1:] if e.kind != "out"]
            self.log.insert(last + 1, Event("out", text[:cut]))
        self._stop("enough", tail["message"])

    def next_event(self) -> dict | None:
        while True:
            event = super().next_event()
            pending = self.replay is not None and self.replay.tail is not None
            if pending and event is not None and event.get("ev") == "input":
                self.log.pop()              # asked after the grader's stop: not seen
                self._stopped_by_grader()
                return None
            if pending and event is None and self.log and self.log[-1].kind == "exit":
                self.log.pop()              # ended after the grader's stop: not seen
                self._stopped_by_grader()
                return None
            if event is None or event.get("ev") != "debugger":
                return event
            line = self.screen.person_line() if self.screen is not None else None
            if line is None:
                self._write_tty(b"\x04")
            else:
                self._write_tty((line.rstrip("\n") + "\n").encode("utf-8"))


class PlanDraws(DrawPolicy):
    """Answers each draw with the plan's next one (the grader's value and dice)."""

    def __init__(self, replay: "Replay"):
        super().__init__(seed=replay.plan["run"].get("seed", 1))
        self.replay = replay

    def answer(self, event: dict):
        return self.replay.draw(event, self)


@dataclass
class Result:
    transcript: Transcript
    diverged: str | None = None
    failure: dict | None = None          # the failure the replay stopped at
    stopped_at_failure: bool = False
    answers: int = 0


@dataclass
class Replay:
    """One game's plan, followed event by event."""

    plan: dict
    at: int = 0
    diverged: str | None = None
    answers: int = 0
    draws: int = 0
    stop_line: int | None = None        # stop once the screen has shown this line
    tail: dict | None = None            # the grader's stop after the last draw, pending
    child: Child | None = None
    reached: bool = False

    def passed(self) -> bool:
        """Has the screen shown the failure's line (the whole line) by now?"""
        if self.stop_line is None or self.child is None:
            return False
        shown = Transcript(self.child.log).render(max_lines=100_000).count("\n")
        self.reached = self.reached or shown > self.stop_line
        return self.reached

    def peek(self) -> dict | None:
        events = self.plan["events"]
        return events[self.at] if self.at < len(events) else None

    def take(self) -> dict | None:
        step = self.peek()
        if step is not None:
            self.at += 1
        return step

    def draw(self, event: dict, policy: PlanDraws):
        step = self.peek()
        fn, req = event.get("fn"), event.get("req") or {}
        if step is None or step["kind"] != "draw" or step["fn"] != fn or \
                _plain(step["req"]) != _plain(req):
            self.diverged = self.diverged or self._said(step, f"a random draw "
                                                              f"({_call(fn, req)})")
            policy.enough = True            # ends the run after this draw
            return None, []
        self.take()
        self.draws += 1
        if self.passed():
            policy.enough = True            # the failure is on the screen: stop here
        if step.get("enough"):
            # the grader had seen enough after this draw: the program is stopped where its
            # output had got to by then (at its next draw, question or end at the latest)
            self.tail = step["enough"]
        return step["value"], step["faces"]

    def asked(self, prompt: str) -> None:
        step = self.peek()
        if step is None or step["kind"] != "input" or step["prompt"] != prompt:
            self.diverged = self.diverged or self._said(step, f"a question ({prompt!r})"
                                                        if prompt.strip() else "a question")
            raise Diverged(self.diverged)
        self.take()

    def _said(self, step: dict | None, did: str) -> str:
        if step is None:
            graded = "had ended"
        elif step["kind"] == "draw":
            graded = f"made a random draw ({_call(step['fn'], step['req'])})"
        elif step["kind"] == "input":
            graded = f"asked {step['prompt']!r}" if step["prompt"].strip() else \
                "asked a question"
        else:
            graded = "was stopped by the grader"
        return (f"Your program is no longer the one that was graded: after "
                f"{self.answers} answer(s) and {self.draws} random draw(s), the graded "
                f"program {graded}, but this one made {did}. Its code has changed since "
                f"(or it depends on something outside the game, like the time). Run the "
                f"check again to get a replay of the program as it is now.")


def _plain(value):
    return json.loads(json.dumps(value))


def _call(fn, req) -> str:
    if fn in ("randint", "randrange") and "a" in req:
        return f"random.{fn}({req.get('a')}, {req.get('b')})"
    return f"random.{fn}(...)"


def play(plan: dict, folder: Path, *, screen=None, step: bool = False, debugger: bool = False,
         stop_at: dict | None = None, live: bool = True) -> Result:
    """Play ``plan`` with the program in ``folder`` (its files copied there). ``stop_at``: a
    failure of the plan (stop at the first question after its answers, or at the end);
    ``screen``: the person's terminal (None: nothing shown); ``live``: the program's own
    pauses take their time."""
    run = plan["run"]
    replay = Replay(plan, stop_line=(stop_at or {}).get("line"))
    limits = _limits(run.get("limits") or {}, plan.get("outcome") or {}, debugger)
    set_up(folder, run.get("files") or {})
    child = ReplayChild(folder / run["program"], workdir=folder, policy=PlanDraws(replay),
                        limits=limits, args=run.get("args") or [], env=run.get("env") or {},
                        screen=screen)
    child.boot_options = {"live": bool(live), "debugger": bool(debugger)}
    replay.child = child
    child.replay = replay
    session = Session(child.start())
    session.max_prompts = run.get("max_prompts", session.max_prompts)
    session.max_repeats = run.get("max_repeats", session.max_repeats)
    result = Result(Transcript([]))
    try:
        while (prompt := session.wait()) is not None:
            replay.asked(prompt.text)
            nxt = replay.peek()
            if replay.passed():
                session.close()
                break
            if nxt is None:
                session.close()             # the grader stopped here without a word
                break
            if nxt["kind"] == "stop":
                session.stop(nxt["reason"])
                break
            if nxt["kind"] == "input":
                # Interpretation: the grader typed nothing here (it asked again at once):
                # only a draw or an answer can come between two questions of one run
                raise Diverged(replay._said(nxt, "a question"))
            if nxt["kind"] == "draw":
                raise Diverged(replay._said(nxt, f"a question ({prompt.text!r})"))
            replay.take()
            if nxt["kind"] == "eof":
                if screen is not None:
                    screen.typing("", step, end=True)
                session.end_input()
            else:
                if screen is not None:
                    screen.typing(nxt["text"], step)
                session.type(nxt["text"])
            replay.answers += 1
    except Diverged as exc:
        replay.diverged = str(exc)
    finally:
        session.close()
    result.transcript = session.transcript
    result.stopped_at_failure = stop_at is not None and not replay.diverged and (
        replay.reached or stop_at.get("line") is None)
    result.diverged = replay.diverged
    result.failure = stop_at
    result.answers = replay.answers
    return result


def set_up(folder: Path, files: dict) -> None:
    """Put back beside the program what the grader had set up there (``session.
    replay_files``); the student's own files, copied first, are kept as they are now."""
    for name, entry in files.items():
        path = folder / name
        if name == "." or "/" in name or name.startswith("..") or not isinstance(entry, dict):
            continue
        if entry.get("link"):
            if not path.exists() and not path.is_symlink():
                path.symlink_to(str(entry["link"]))
        elif entry.get("folder"):
            path.mkdir(exist_ok=True)
        elif not path.exists():
            path.write_text(str(entry.get("text", "")), encoding="utf-8")
    for name, entry in sorted(files.items(), key=lambda pair: pair[0] == "."):
        if isinstance(entry, dict) and "mode" in entry and "/" not in name and \
                not name.startswith("..") and not (folder / name).is_symlink():
            os.chmod(folder / name, int(entry["mode"]) & 0o777)


def _limits(recorded: dict, outcome: dict, debugger: bool) -> Limits:
    """The graded run's limits (its verdicts come again), with the real-time safety nets
    out of the way: a person may watch, step and pause. Under the debugger nothing is timed."""
    known = {f.name for f in dataclasses.fields(Limits)}
    limits = Limits(**{k: v for k, v in recorded.items() if k in known})
    if outcome.get("shorter_limit") and limits.stuck_again_cpu_seconds:
        limits.stuck_cpu_seconds = limits.stuck_again_cpu_seconds
    limits.stuck_again_cpu_seconds = None
    limits.wall_seconds = limits.idle_seconds = 10 ** 7
    if debugger:
        limits.cpu_seconds = limits.stuck_cpu_seconds = 10 ** 6
    return limits


# ----------------------------------------------------------------------------- the screen
class Screen:
    """The person's terminal: the program's output as it comes, the grader's answers typed
    at a person's pace, Enter awaited in ``--step`` mode, the debugger's lines read."""

    def __init__(self, out=None, keyboard=None, typing_delay: float = 0.04,
                 pause: float = 0.3):
        self.out = out or sys.stdout
        self.keyboard = keyboard or sys.stdin
        self.delay, self.pause = typing_delay, pause
        self.styled = self.out.isatty() and not os.environ.get("NO_COLOR")

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def output(self, data: bytes) -> None:
        self.out.flush()
        stream = getattr(self.out, "buffer", None)
        if stream is not None:
            stream.write(data)
            stream.flush()
        else:
            self.out.write(data.decode("utf-8", "replace"))
            self.out.flush()

    def system(self, command: str) -> None:
        """The program's os.system: clearing the screen clears this one (nothing else runs)."""
        if command.strip().lower() in ("clear", "cls", "tput clear", "clear -x"):
            self._write("\x1b[H\x1b[2J")

    def _style(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.styled else text

    def typing(self, text: str, step: bool, end: bool = False) -> None:
        shown = "(end of input: Ctrl-D)" if end else text
        if step:
            hint = self._style(f"  [Enter: the grader types «{shown}»]", "2")
            self._write("\x1b7" + hint if self.styled else hint + "\n")
            self.keyboard.readline()
            if self.styled:
                # the Enter moved the cursor down a line: back to the prompt, hint wiped
                self._write("\x1b8\x1b[J")
        elif self.pause:
            time.sleep(self.pause)
        if end:
            self._write(self._style("^D", "1;36") + "\n")
            return
        self._write("\x1b[1;36m" if self.styled else "")
        for char in text:
            self._write(char)
            if self.delay:
                time.sleep(self.delay)
        self._write(("\x1b[0m" if self.styled else "") + "\n")

    def person_line(self) -> str | None:
        line = self.keyboard.readline()
        return line if line else None

    def panel(self, screen_text: str, title: str, body: str) -> None:
        """What the check expected, beside the last lines of the screen it stopped on."""
        width = shutil.get_terminal_size((100, 24)).columns
        left = [_cell(line) for line in screen_text.split("\n")[-SCREEN_LINES:]]
        self._write("\n")
        if width >= 100:
            half = min(max(len(line) for line in left + [""]),
                       max((width - 5) // 2, width - 4 - 50))
            room = width - half - 4
            right = [piece for line in body.split("\n")
                     for piece in (textwrap.wrap(line, room) if len(line) > room else [line])]
            rule = "─" * (width - 1)
            self._write(self._style(rule, "2") + "\n")
            self._write(self._style(f"{'Your program (the screen it stopped on)':<{half}}",
                                    "1") + " │ " + self._style(title, "1;33") + "\n")
            rows = max(len(left), len(right))
            left += [""] * (rows - len(left))
            right += [""] * (rows - len(right))
            for mine, wanted in zip(left, right):
                self._write(f"{mine[:half]:<{half}} │ {wanted[:width - half - 4]}\n")
            self._write(self._style(rule, "2") + "\n")
        else:
            self._write(self._style(title, "1;33") + "\n" + body + "\n")


def _cell(line: str) -> str:
    return clean(line).replace("\x00", "")


# ----------------------------------------------------------------------------- command line
class ReplayError(Exception):
    """A replay that cannot start (exit status 2)."""


def find_plan(assignment: str, path: Path, game: str, report: str | None,
              main_file: str) -> tuple[dict, Path]:
    """The game's plan: in ``report``, else the self-check's folder, else the class
    reports' folder of the student named like ``path``."""
    name = f"{game}{PLAN_SUFFIX}"
    places = _places(assignment, path, report)
    for place in places:
        plan_path = place / "transcripts" / name
        if plan_path.is_file():
            try:
                plan = json.loads(plan_path.read_text(encoding="utf-8"))
            except ValueError:
                raise ReplayError(f"{plan_path} is not a replay plan") from None
            return plan, plan_path
    folders = " or ".join(str(p / "transcripts") for p in places)
    games = sorted({p.name[:-len(PLAN_SUFFIX)] for place in places
                    for p in (place / "transcripts").glob(f"*{PLAN_SUFFIX}")})
    known = f" The games there: {', '.join(games)}." if games else ""
    raise ReplayError(f"no game {game!r} in {folders}.{known} Run the self-check first "
                      f"(gradekit check {assignment} {path}), or name the report folder with "
                      f"--report.")


def _places(assignment: str, path: Path, report: str | None) -> list[Path]:
    if report:
        return [Path(report)]
    student = path.stem if path.is_file() else path.resolve().name
    return [Path(DEFAULT_REPORT), Path("reports") / assignment / student]


def find_script(assignment: str, path: Path, game: str, report: str | None) -> Path | None:
    """The failed calls' script named ``game`` (``replay_<item>``), if there is one."""
    if not game.startswith(SCRIPT_PREFIX) or "/" in game:
        return None
    return next((place / f"{game}.py" for place in _places(assignment, path, report)
                 if (place / f"{game}.py").is_file()), None)


def run_script(script: Path, path: Path, debugger: bool) -> int:
    """Run a failed calls' script beside the student's file (under pdb with ``debugger``)."""
    import subprocess
    folder = path if path.is_dir() else path.parent
    command = [sys.executable] + (["-m", "pdb"] if debugger else []) + [str(script.resolve())]
    print(f"Running {script} (the grader's failed calls, with your functions; edit it to try "
          f"more):\n", flush=True)
    return subprocess.run(command, cwd=folder or Path(".")).returncode
