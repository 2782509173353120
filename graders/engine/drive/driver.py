"""Playing a console game in turns: the counterpart of ``FunctionCalls`` for programs played
in a terminal (a player against the computer, one die per roll: Pig, and games like it).

A game is described, not programmed: its questions, what each answer stands for, which
question makes the player's turn and how many dice each answer throws.

    MOVE = Question("move", re.compile(r"roll|hold", re.I), "the roll-or-hold question",
                    {"roll": "yes", "hold": "no"})
    AGAIN = Question("again", re.compile(r"again|another", re.I), "'Play again?'", {"no": "no"})
    GAME = Game((MOVE, AGAIN), turn="move", throws={"roll": 1}, end={"again": "no"})
    run = play(folder / "pig.py", folder, GAME, choose, first=[3], limits=limits)
    run.turns            # [Turn("player", [3, 1], ...), Turn("computer", [6, 6, 4, 4]), ...]

``choose(asked, run)`` decides each answer of the player's turn question: an ``Answer``
(its meaning and the dice to load from then on) or a ``Stop``. The driver does the rest:
- tells questions apart by their wording (the first question whose words match; a wording
  that names none is the turn question);
- types each meaning in the form the prompt offers ("(r)oll or (h)old?" and "1 = roll,
  2 = hold" alike: ``answers.forms``) and, when the program refuses it (the same kind of
  question again with nothing drawn, in the same words or in others), the next form
  (``answers.Attempts``); a meaning none of whose forms is taken stops the run;
- presses Enter at pauses (``prompts.is_pause``), confirms "Are you sure?" once after an
  answer, types ``Game.name`` at a name question and answers end-of-game questions ("Play
  again?") with ``Game.end``: none of them is a step of the game;
- loads the dice (``draws.ScriptedDice``) and splits the transcript into turns.

How the turns are found (each chosen so that any reasonable program can be followed):
- The player's turn is made of the turn questions; the dice drawn after an answer are first
  that answer's throws (``Game.throws``), and any more before the next turn question are the
  other player's turn: the player's turn ended.
- A game may roll the first die of the player's turn before asking, or ask first ("roll or
  hold?" before any roll): the first question of the run says which (dice before it: the
  program rolls first), and then the last die before each new turn's first question is the
  player's.
- A turn's ``after`` is what the program printed after its last die until the next turn's
  first die (or the end): where it shows the scores.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import answers
from ..run.draws import ScriptedDice
from .readers import outcome, prompts, score_table
from .scripted import Stop
from .session import Session
from .transcript import Transcript

# what a program says when it does not take an answer ("Invalid choice", "Please type r or h")
REFUSAL = re.compile(r"invalid|not valid|not a valid|please|try again|didn'?t understand|"
                     r"unknown|must\s+(be|type|enter)|only\s+(type|enter)|sorry", re.I)


@dataclass(frozen=True)
class Question:
    """A question of the game: its kind, the words that show it (a pattern, a test, or a
    tuple of them: ``prompts.matches``), how feedback names it, and its meanings, each with
    the intent ``answers.forms`` types it with ("yes", "no", "enter" or literal text).
    ``opposite(wording, context)``: the question is asked the other way round, its yes
    meaning the no ("Do you want to hold? (y/n)" for a roll-or-hold question:
    ``answers.asks_to_stop``)."""

    kind: str
    words: object
    name: str
    meanings: dict[str, str]
    opposite: Callable[[str, str], bool] | None = None

    def intent(self, meaning: str, wording: str, context: str) -> str:
        """The intent that answers ``meaning`` as this wording asks."""
        intent = self.meanings[meaning]
        if intent in ("yes", "no") and self.opposite and self.opposite(wording, context):
            return {"yes": "no", "no": "yes"}[intent]
        return intent


@dataclass(frozen=True)
class Game:
    """A console game: its questions (the first whose words match decides), the kind of the
    player's turn question, how many dice each meaning throws, the meaning that answers each
    end-of-game question, and the name typed when the program asks for one."""

    questions: tuple[Question, ...]
    turn: str
    throws: dict[str, int] = field(default_factory=dict)
    end: dict[str, str] = field(default_factory=dict)
    name: str = "Sam"
    max_prompts: int = 300
    # how a program may name each side ("player": ("you", "your", "Sam")): the scores after a
    # turn are read by these names (``score_table.scores``; a line matching ``not_scores`` is
    # no score line: "You rolled 4"), and a line that shows a die and names the other side
    # only contradicts the reading (``misread``); ``read``: another reader of the scores
    players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    not_scores: str = ""
    read: Callable[[str], dict] | None = None

    def shown(self, text: str, players: dict | None = None) -> dict:
        """The scores ``text`` shows: side -> points (``players``: the names learned from the
        game, ``learn_names``; by default the game's own)."""
        if self.read is not None:
            return self.read(text)
        players = players or self.players
        return score_table.scores(text, players, self.not_scores) if players else {}

    def question(self, kind: str) -> Question:
        return next(question for question in self.questions if question.kind == kind)

    def kind_of(self, wording: str) -> str:
        """The kind of a question by its wording (the turn question when none matches)."""
        return next((question.kind for question in self.questions
                     if prompts.matches(wording, question.words)), self.turn)


@dataclass(frozen=True)
class Answer:
    """What ``choose`` answers: a meaning of the question, and the dice loaded from now on
    (None: the queue left as it is)."""

    meaning: str
    load: list[int] | None = None


@dataclass
class Roll:
    """One die of a turn: its face and what the program printed after it, until the next die
    or answer."""

    face: int
    printed: str


@dataclass
class Turn:
    """One player's turn: whose ("player" or "computer"), its dice, the player's answers
    (meanings, in order), the screen from its first die to the next turn's (``text``) and
    after its last die (``after``)."""

    player: str
    rolls: list[Roll] = field(default_factory=list)
    meanings: list[str] = field(default_factory=list)
    text: str = ""
    after: str = ""
    start: int = 0
    end: int = 0
    shown: dict = field(default_factory=dict)    # ``Game.shown`` of ``after``
    score_lines: list[str] = field(default_factory=list)   # see ``unread``

    @property
    def faces(self) -> list[int]:
        return [roll.face for roll in self.rolls]

    def unread(self) -> list[str]:
        """Where ``shown`` lacks a side's score, the lines after the turn that hold a number
        and could be a score line (none about its dice: ``Game.not_scores``): the program
        may have shown it in a way the readers do not know (then the turn is not judged on
        it, never a loss)."""
        return self.score_lines


@dataclass
class Step:
    """One answer to a turn question: the meaning (None while ``choose`` decides), what was
    typed (every form tried), and which line typed in the run was its first form."""

    meaning: str | None
    typed: list[str]
    line: int


@dataclass
class Run:
    """One game played: the transcript, the steps, the turns, how it ended."""

    game: Game
    transcript: Transcript | None = None
    steps: list[Step] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    stop: Stop | None = None
    refused: list[str] = field(default_factory=list)     # meanings no form of was taken
    asks_first: bool | None = None
    opening: dict = field(default_factory=dict)          # ``Game.shown`` before the first die
    misread: list[str] = field(default_factory=list)     # where the screen contradicts turns
    players: dict = field(default_factory=dict)          # the names learned (``learn_names``)

    @property
    def ended(self) -> bool:
        return bool(self.transcript and self.transcript.finished)

    @property
    def grader_problem(self) -> bool:
        return bool(self.transcript and self.transcript.outcome.get("grader_problem"))

    def winner_named(self, text: str, who: str) -> bool:
        """Whether a line of winning in ``text`` names the side ``who`` by any of its names
        (``players``: the game's and the learned ones), and before the other side if both are
        named ("You beat the computer"; ``outcome.winner_named``)."""
        names = [score_table.name_pattern(self.players[side][0], self.players[side][1:])
                 for side in sorted(self.players, key=lambda side: side != who)]
        return outcome.winner_named(text, *names)

    def excerpt(self, start: int = 0, end: int | None = None, lines: int = 40) -> str:
        return self.transcript.render(start, end, max_lines=lines) if self.transcript else ""


def die_marks(log) -> list[tuple[int, int]]:
    """(position in the screen text, face) of every die drawn, from a transcript's marks."""
    return [(mark.pos, face) for mark in log.marks if mark.kind == "draw"
            for face in (mark.data.get("faces") or [])]


def split(run: Run, transcript: Transcript, ended: bool) -> list[Turn]:
    """The turns of a run so far (see the module's docstring); ``ended``: the run is over,
    so the dice after the last answer end the game (no turn of the player follows)."""
    marks = die_marks(transcript)
    answers_at = [mark.pos for mark in transcript.marks if mark.kind == "answer"]
    typed_at = iter(step_positions(run, transcript))
    turns, used = [], 0
    first = True
    for step in run.steps + [None]:
        until = next(typed_at, None) if step is not None else None
        dice = [die for die in marks[used:] if until is None or die[0] <= until]
        used += len(dice)
        previous = turns[-1] if turns and turns[-1].player == "player" else None
        own = run.game.throws.get(previous.meanings[-1], 0) if previous and \
            previous.meanings else 0
        mine, rest = dice[:own], dice[own:]
        if previous is not None:
            previous.rolls += [Roll(face, "") for _, face in mine]
        if step is None and not ended:
            break
        if first:
            run.asks_first = run.asks_first if run.asks_first is not None else not rest
        opening = [] if step is None or run.asks_first else rest[-1:]
        others = rest[:len(rest) - len(opening)]
        if others or previous is None or step is None:
            if others:
                turns.append(Turn("computer", [Roll(face, "") for _, face in others]))
            if step is not None:
                turns.append(Turn("player", [Roll(face, "") for _, face in opening]))
        elif opening:                       # no other turn between: the same turn goes on
            previous.rolls += [Roll(face, "") for _, face in opening]
        if step is not None and step.meaning is not None:
            turns[-1].meanings.append(step.meaning)
        first = False
    place(turns, marks, answers_at, transcript.text)
    return turns


def step_positions(run: Run, transcript: Transcript) -> list[int]:
    """Where each step's (first) answer was typed (a step still being decided: none)."""
    answered = [mark.pos for mark in transcript.marks if mark.kind == "answer"]
    return [answered[step.line] for step in run.steps if step.line < len(answered)]


def place(turns: list[Turn], marks, answers_at: list[int], text: str) -> None:
    """Each turn's screen: from its first die to the next turn's; after each die, until the
    next die or answer; after its last die, until the next turn."""
    positions = iter(marks)
    spans = [[next(positions) for _ in turn.rolls] for turn in turns]
    starts = [span[0][0] if span else None for span in spans]
    for index, (turn, span) in enumerate(zip(turns, spans)):
        later = [start for start in starts[index + 1:] if start is not None]
        turn.end = later[0] if later else len(text)
        turn.start = starts[index] if starts[index] is not None else \
            (turns[index - 1].end if index else 0)
        turn.text = text[turn.start:turn.end]
        for at, (roll, (pos, _)) in enumerate(zip(turn.rolls, span)):
            following = [p for p, _ in span[at + 1:at + 2]] + \
                [answer for answer in answers_at if answer > pos][:1] + [turn.end]
            roll.printed = text[pos:min(following)]
        turn.after = text[span[-1][0]:turn.end] if span else turn.text


def play(target: Path, folder: Path, game: Game, choose: Callable, first=(),
         limits=None, seed: int = 7) -> Run:
    """Play one game: ``choose(asked, run)`` answers each turn question (``asked``: the
    prompt's wording; ``run.turns``: the turns so far, the last one the player's own)."""
    dice = ScriptedDice(list(first), seed=seed)
    session = Session.start(target, folder, policy=dice, limits=limits)
    session.max_prompts = game.max_prompts
    session.max_repeats = max(session.max_repeats, 10)     # every form of an answer tried
    run = Run(game)
    typed, confirmed, ends, attempt, last_kind = 0, False, 0, None, None
    accepted: dict[str, str] = {}               # intent -> the form the program took
    try:
        while (prompt := session.wait()) is not None:
            asked = prompts.asked(prompt)
            since = session.output_since_answer()
            # the answers offered since the last line typed (not a pause's "Enter to go on")
            context = "\n".join(since.splitlines()[-6:]) if since.strip() else prompt.context
            kind = game.kind_of(asked)
            quiet = not session.drew_since_answer()
            if prompts.is_pause(asked):
                session.type("")
            elif typed and quiet and not confirmed and prompts.CONFIRM.search(asked):
                confirmed = True
                session.type("y")
            elif attempt and kind == last_kind and quiet and (
                    session.refused or REFUSAL.search(since)):
                form = attempt.next()
                if form is None:
                    run.refused.append(attempt.intent)
                    run.stop = Stop(f"the program took no form of the answer "
                                    f"«{attempt.tried[0]}» ({', '.join(attempt.tried)})")
                    session.stop(run.stop.reason)
                    break
                session.type(form)
                if kind == game.turn:
                    run.steps[-1].typed.append(form)
            elif prompts.matches(asked, prompts.NAME) and kind == game.turn:
                session.type(game.name)
            elif kind != game.turn:
                ends += 1
                meaning = game.end.get(kind)
                if meaning is None or ends > 2:
                    run.stop = Stop(f"the program asked {asked!r} after the game's end")
                    session.stop(run.stop.reason)
                    break
                attempt = answers.Attempts(context, game.question(kind).intent(meaning, asked,
                                                                               context))
                session.type(attempt.next())
            else:
                run.steps.append(Step(None, [], typed))
                run.transcript = session.transcript
                run.turns = split(run, run.transcript, ended=False)
                decided = choose(asked, run)
                if isinstance(decided, Stop):
                    run.steps.pop()
                    run.stop = decided
                    session.stop(decided.reason)
                    break
                if decided.load is not None:
                    dice.load(decided.load)
                if attempt is not None and attempt.tried:      # the last answer was taken
                    accepted[attempt.intent] = attempt.tried[-1]
                intent = game.question(kind).intent(decided.meaning, asked, context)
                attempt = answers.Attempts(context, intent)
                if accepted.get(intent) in attempt.forms:       # the form taken before first
                    attempt.forms.insert(0, attempt.forms.pop(
                        attempt.forms.index(accepted[intent])))
                form = attempt.next()
                run.steps[-1].meaning = decided.meaning
                run.steps[-1].typed.append(form)
                session.type(form)
                confirmed = False
            typed += 1
            last_kind = kind
    finally:
        session.close()
    run.transcript = session.transcript
    run.turns = split(run, run.transcript, ended=True)
    run.players = learn_names(run.turns, game.players)
    run.misread = misread(run.turns, run.players)
    first = run.turns[0].start if run.turns else len(run.transcript.text)
    # before the first die, a board naming every side (not a rule: "Sam, reach 100 to win")
    opening = game.shown(run.transcript.text[:first], run.players)
    run.opening = opening if len(opening) == len(game.players) else {}
    for turn in run.turns:
        turn.shown = game.shown(turn.after, run.players)
        turn.score_lines = [] if len(turn.shown) >= len(game.players) else [
            line for line in turn.after.splitlines() if re.search(r"\d", line)
            and not (game.not_scores and re.search(game.not_scores, line, re.I))]
    return run


ROLLED = re.compile(r"\broll|\bthrew|\bthrow|\bgot\b|\bgets\b|\bdie\b|\bdice\b", re.I)


def dice_lines(roll: Roll) -> list[str]:
    """The lines printed right after a die that show its face beside a word of rolling
    ("HAL rolled 6"): what ``learn_names`` and ``misread`` read a roller from."""
    face = re.compile(rf"(?<![\d-]){roll.face}(?!\d)")
    return [line for line in roll.printed.splitlines()
            if face.search(line) and ROLLED.search(line)]


COMMON = re.compile(r"^(rolls?|rolled|rolling|throws?|threw|gets?|got|turn|total|points?|"
                    r"score|dice|die|the|and|its|his|her|with|this|that|now|then|for|you|"
                    r"your|is|has|a|an|of|to|in|on|at)$", re.I)


# a word, or a capitalised word and its number ("Player 2", not "rolled 6")
NAME_WORD = re.compile(r"[A-Z][\w-]*[ \t]\d{1,2}\b(?![.,:]?\d)|[A-Za-z][\w-]+")


def learn_names(turns: list[Turn], players: dict[str, tuple[str, ...]]) \
        -> dict[str, tuple[str, ...]]:
    """The names each side goes by, with a name the program gave a side itself ("HAL rolled
    6", "Dealer rolled 4"): a word on most lines that show that side's dice (the face and a
    word of rolling, right after the die) and on none of the other side's, where none of the
    known names is on most of them."""
    if len(players) != 2:
        return dict(players)
    lines = {side: [] for side in players}
    for turn in turns:
        for roll in turn.rolls:
            lines.setdefault(turn.player, []).extend(dice_lines(roll))
    learned = dict(players)
    for side, own in lines.items():
        if len(own) < 2 or side not in players:
            continue
        known = score_table.name_pattern(players[side][0], players[side][1:])
        if sum(bool(known.search(line)) for line in own) * 2 > len(own):
            continue
        others = " ".join(line for other, found in lines.items() if other != side
                          for line in found)
        counts: dict[str, int] = {}             # in order of first appearance
        for line in own:
            for word in dict.fromkeys(NAME_WORD.findall(line)):
                elsewhere = re.search(rf"\b{re.escape(word)}\b", others, re.I)
                if not COMMON.match(word) and not elsewhere:
                    counts[word] = counts.get(word, 0) + 1
        # the most frequent; among as frequent, a capitalised word (a name), the first seen
        best = max(counts.items(), key=lambda pair: (pair[1], pair[0][0].isupper()),
                   default=(None, 0))
        if best[1] * 2 > len(own):
            learned[side] = players[side] + (best[0],)
    return learned


def misread(turns: list[Turn], players: dict[str, tuple[str, ...]]) -> list[str]:
    """Where the screen contradicts whose turn the driver read: right after a die, a line
    that shows its face beside a word of rolling names the other side only ("Computer
    rolled 4" read as the player's die). A game read so is not judged (never a loss)."""
    if len(players) != 2:
        return []
    named = {side: score_table.name_pattern(spelled[0], spelled[1:])
             for side, spelled in players.items()}
    found = []
    for turn in turns:
        for roll in turn.rolls:
            lines = dice_lines(roll)
            sides = [_sides_named(line, named) for line in lines]
            if turn.player not in set().union(*sides) and any(len(side) == 1 for side in sides):
                line = next(line for line, side in zip(lines, sides) if len(side) == 1)
                found.append(f"the die {roll.face} was read as the {turn.player}'s, but the "
                             f"program printed «{line.strip()}»")
    return found


def _sides_named(line: str, named: dict[str, re.Pattern]) -> set[str]:
    """The sides a line names by a name of theirs alone: a name that is also the other
    side's where it stands ("Player 2" beside the spelling "player") or that is a numbered
    label ("Player 2", "Computer 1") says nothing."""
    spans = {side: [match.span() for match in pattern.finditer(line)
                    if not re.match(r"\s*#?\d", line[match.end():])]
             for side, pattern in named.items()}
    return {side for side, own in spans.items()
            if any(all(end <= start2 or end2 <= start for other, theirs in spans.items()
                       if other != side for start2, end2 in theirs) for start, end in own)}


def every_turn(result, runs: dict, describe=lambda name: "") -> list[tuple]:
    """(game name, run, index, turn, shown before, shown after) of every turn of the games
    played (name -> Run; None: not played, the budget ran out). A game that a safety net
    stopped, that was not played, whose reading the screen contradicts (``misread``) or in
    which the grader found no form of an answer the program takes makes the item not judged
    (a TA looks; never the student's loss); one in which no die was rolled fails it. A turn
    cut off by the end of a run that did not end by itself is left out (what follows it was
    never printed). ``describe(name)``: the game's plan, noted for the student."""
    found = []
    for name, run in runs.items():
        if run is None or run.grader_problem:
            result.not_judged(f"The game '{name}' could not be played fairly (the time budget "
                              "ran out, or a safety limit of the grader stopped it).")
        if run.misread:
            result.not_judged(f"The grader lost track of whose turn it was in the game "
                              f"'{name}' ({run.misread[0]}); a TA will look at it.")
        if run.refused:
            said = run.stop.reason if run.stop else f"no form of «{run.refused[0]}»"
            result.not_judged(f"In the game '{name}' the grader stopped: {said}. A TA will "
                              "look at it.", evidence=run.excerpt(lines=30))
        if not run.turns:
            result.fail(f"In the game '{name}' no die was rolled: {run.transcript.ended_how}",
                        evidence=run.excerpt(lines=30))
        if describe(name):
            result.note(f"The grader played '{name}' with loaded dice: {describe(name)}.")
        before = run.opening
        complete = run.turns if run.ended else run.turns[:-1]
        for index, turn in enumerate(complete):
            found.append((name, run, index, turn, before, turn.shown))
            before = turn.shown
    return found
