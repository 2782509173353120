"""Loaded dice for PocoLoco: whose turn it is, and what they should get.

The dice a scenario plans are by (round, position in that round's order, roll number), so the
policy's job is to follow the game's turns, not to guess names. It chooses the order of play
when the program shuffles its players (so a scenario can put the human first, second or last),
and cuts the stream of die draws into rolls and turns from evidence that holds for every way
of writing the game, strongest first:

1. the grader's own answers: "roll again? yes" means the human rolls on, "no" ends the turn;
2. what the program printed since the last die: a round heading, a turn heading ("P2 TURN!",
   "Wren's turn"), a line naming another player who is about to roll, "stops"/"rolls again";
3. the names in the roll's local variables (never a module's globals, which sit in every
   frame: ``C1 = 'Frank'``), when they name another player than the one rolling;
4. the roll limit: a player who has made every roll allowed cannot roll again.

A turn's player is the one the order says when the policy chose the order; otherwise the name
the evidence gives (local variables, a heading, the first name printed after the first roll).
When the pieces of evidence disagree the turn is kept by position and the doubt is recorded,
so the reading can leave that round out and say why.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from graders.engine.drive.readers.numbers import BELOW_100, value
from graders.engine.run.draws import DrawPolicy, die_offset, draw_site
from graders.engine.drive.session import ANSI_CODE

HUMAN_HINTS = ("human", "user", "you", "your", "me", "my", "player_name", "username")
NOT_NAMES = {"round", "player", "players", "chips", "chip", "name", "total", "score", "you",
             "the", "and", "order", "turn", "game", "winner", "loser", "points", "roll",
             "poco", "loco", "dice", "die", "rolls", "ties", "tie", "best", "lowest",
             "highest", "enter", "press", "start", "starting", "each", "everyone", "rules",
             "round", "chips:", "three", "kind", "pair", "welcome", "note", "rule", "step",
             "starts", "start", "begins", "begin", "everyone", "everybody", "all", "players:",
             "computer", "computers", "human", "with", "has", "have", "get", "gets"}


OTHER_ROLE = re.compile(r"low|high|best|worst|win|los|lead|target|beat|prev|last|next|first|"
                        r"top|bottom|champ|tie|starter|dealer")


@functools.lru_cache(maxsize=1024)
def _around(name: str, before: str = r"(?<!\w)", after: str = r"(?!\w)",
            flags: int = re.I) -> re.Pattern:
    """``before`` + the name (as literal text) + ``after``, compiled once: the policy looks
    for the players' names in every line printed between two dice."""
    return re.compile(before + re.escape(name) + after, flags)


LINES = re.compile(r"[\r\n]+")
_UNREAD = object()              # a line not read yet (see PocoPolicy._line_cache)
_NOT_A_HEADING = object()
_SAME = object()


def _base(var: str) -> str:
    """'self.player.name' -> 'player'; "p['name']" -> 'p'."""
    return re.sub(r"^self\.|\.name$|\['name'\]$", "", var.lower())


@dataclass
class Plan:
    """What a scenario wants: the order of play and the dice, by round/position/roll."""

    human_position: list[int] = field(default_factory=list)   # per round; default 0
    dice: dict = field(default_factory=dict)   # (round, pos) -> list of rolls (3 faces each)
    filler: list[list[int]] = field(default_factory=list)       # per pos when not planned
    tie_pick: str = "last"                       # random tie-breaks pick the first or last

    def roll(self, round_index: int, pos: int, roll_index: int) -> list[int] | None:
        rolls = self.dice.get((round_index, pos))
        if not rolls:
            if self.filler:
                return self.filler[pos % len(self.filler)]
            return None
        return rolls[min(roll_index, len(rolls) - 1)]   # extra rolls repeat the last one

    def position_of_human(self, round_index: int) -> int:
        if round_index < len(self.human_position):
            return self.human_position[round_index]
        return self.human_position[-1] if self.human_position else 0


@dataclass
class Turn:
    """One player's turn as the policy followed it."""

    id: int
    round: int
    pos: int
    player: str | None = None      # filled in when some evidence names the player
    rolls: int = 0                 # rolls started so far (a re-roll of some dice is one roll)
    dice: int = 0                  # dice drawn in the roll in progress
    human: bool | None = None      # known to be the human's turn (True) or not (False)
    discarded: bool = False        # dice outside any turn (a roll-off before the next round)
    extra: bool = False            # a tie's roll-off after the round: no position of its own
    doubts: list[str] = field(default_factory=list)
    last_draw: int = -1            # log index of its latest die
    site: tuple = ()               # where the program drew its latest die (draw_site)

    @property
    def mid_roll(self) -> bool:
        return 0 < self.dice < 3


TIE_LINE = re.compile(r"\bti(e|es|ed)\b|roll[- ]?off|tie-?break", re.I)
# a seat label in a turn heading ("P2 TURN!", "Player 3's turn"), and a line giving a label
# and then a name (the standings "P2 Otto   10 chips", "Player 2: Otto")
SEAT_LABEL = re.compile(r"\b(?:P|Player\s*)\d{1,2}\b", re.I)
LABEL_AND_NAME = re.compile(r"(?m)^\W*((?:P|Player\s*)\d{1,2})\b[^\w\n]{0,5}([A-Z][\w'-]{1,20})")


def _seat(label: str) -> str:
    """'P2', 'Player 2', 'player2' -> '2'."""
    return re.sub(r"\D", "", label)


TURN_WORD = re.compile(r"\bturn\b|\bup next\b|\bis up\b|'s go\b|\bnow (rolling|playing)\b",
                       re.I)
# a round's number in digits or in words ("ROUND THREE", "Round twenty-one")
NUMBER = r"(\d+|" + BELOW_100 + r")\b"
ROUND_HEADING = re.compile(r"\bround[ \t]*#?[ \t]*:?[ \t]*" + NUMBER, re.I)   # on one line


def round_number(shown: str) -> int:
    """A round's number as a heading shows it (digits or words)."""
    return int(shown) if shown.isdigit() else value(shown)


STOPS = re.compile(r"\b(stops?|stopped|stopping|holds?|holding|keeps? (?!rolling)|stays?|"
                   r"stands?|passes|done|ends? (his|her|their|the) turn|sticks?)\b", re.I)
ROLLS_ON = re.compile(r"\b(rolls?|rolling|roll|goes|tries) (again|on|once more)|re-?rolls?\b|"
                      r"another roll|keeps rolling", re.I)


class PocoPolicy(DrawPolicy):
    """Follows the game's rounds and turns and loads the dice by plan."""

    def __init__(self, human: str, plan: Plan, chips: int, seed: int = 7):
        super().__init__(seed)
        self.human, self.plan, self.chips = human, plan, chips
        self.chips_asked = False        # the grader found the starting-chips question
        self.computers: list[str] = []
        self.orders: dict[int, list[str]] = {}       # round -> order we chose
        self.index_orders: dict[int, list[int]] = {}   # round -> shuffled player numbers
        self.index_player: dict[int, str] = {}         # player number -> name (learned)
        self.index_votes: dict[int, dict[str, int]] = {}
        self.turns: list[Turn] = []
        self.pending_round: int | None = None     # an order was chosen: that round starts
        self.human_next = False                   # a roll question came before a first roll
        self.answers: list[tuple[int, str, str]] = []   # (log index, kind, meaning)
        self.order_shuffles = 0
        self.shuffled_rounds: set[int] = set()
        self.populations: list[list[str]] = []       # the player lists the program shuffled
        self._scanned = 0
        self._labels: dict[str, list[str]] = {}   # "2" -> the words printed after P2
        self._labels_scanned = 0
        self.first_seen: dict[tuple, str] = {}
        self.varying: set[tuple] = set()
        self.strikes: dict[tuple, int] = {}          # variables that named the wrong player
        self._named_keys: set[tuple] = set()
        self.stop_at_round: int | None = None        # end the run when this round starts
        self.named = False                           # the program asked the human's name
        self._last_draw_index = -1                   # log index of the last die draw
        self._heading: str | None = None             # a turn heading since the last die
        self._round_numbers: dict[int, int] = {}     # round index -> the number it shows
        self._named_now: str | None = None           # the stack's name for this die
        self._event: dict = {}
        # caches of readings that change nothing (see _line_cache and named_in_stack)
        self._lines: dict = {}
        self._cache_names: tuple = ()
        self._any_name: re.Pattern | None = None        # set with the names (_line_cache)
        self._strike_count = 0                       # grows with every strike
        self._stack_memos: list[tuple] = []          # (state, stack, name, keys), newest first

    # ------------------------------------------------------------------ names
    @property
    def names(self) -> list[str]:
        return [self.human] + self.computers

    @property
    def players(self) -> int:
        return max(3, len(self.names))          # three-player programs are graded too

    def learn_names(self, items) -> None:
        """Computer names from the program's own list of its players (shuffled or picked
        from): every item but the human is a player, whatever the word ("Chip" is a fine
        name in a game of chips); only a common word in small letters is taken for a label."""
        for item in items:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and name.strip() and name != self.human \
                    and name not in self.computers and \
                    (name[:1].isupper() or name.lower() not in NOT_NAMES):
                self.computers.append(name)

    def learn_from_screen(self) -> None:
        """Computer names from standings printed so far: a capitalised word and the chips."""
        if self.log is None or len(self.computers) >= 3:
            return
        fresh = self.log[self._scanned:]
        self._scanned = max(self._scanned, len(self.log) - 1)   # the last 'out' may still grow
        text = "".join(e.text for e in fresh if e.kind == "out")[-20000:]
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
        # a name, then up to 30 characters of punctuation (dotted leaders) on the same line;
        # a number is part of the name when the count follows it ("CPU 2: 10", "Hal 9000  10",
        # a computer renamed after a clash), not in "Otto 10"
        owning = r"has\s+|with\s+|currently has\s+"
        # ... or the word chips as a label between them ("Bob        chips: 20"), which owns
        # nothing: "Starting chips: 10" stays an ordinary word
        pattern = (r"(?<![\w'-])([A-Za-z][\w'-]{1,20}"
                   rf"(?: \d{{1,4}}(?=[^\w\n]{{1,30}}(?:{owning})?\d))?)"
                   rf"[^\w\n]{{0,30}}(?:chips?\b[^\w\n]{{0,5}})?({owning})?(\d+)\b")
        for match in re.finditer(pattern, text):
            name, owns, number = match.group(1), match.group(2), int(match.group(3))
            # a word like "Chip" is a name when it "has 20" (chips), not in "Chips: 20"
            ordinary = name.lower() in NOT_NAMES and not owns
            if not name[0].isupper() and not (owns and "has" in owns):
                continue              # lower-case names only when they "have" the chips
            if owns and "with" in owns and name.lower() in ("starts", "start", "begins"):
                continue
            if " " not in name and \
                    len(set(_around(name, r"\b", r" (\d)\b", 0).findall(text))) >= 2:
                continue              # "CPU" of "CPU 1, CPU 2 and CPU 3": numbered names
            if number == self.chips and not ordinary and name != self.human \
                    and name not in self.computers:
                self.computers.append(name)

    def named_in_stack(self, stack: list[dict]) -> str | None:
        """The player the stack's local variables name, or None.

        The innermost frame naming a player decides. A module's globals are the locals of
        its top-level frame and sit in every stack, so there only a variable already seen
        holding different players counts (a game loop at module level: ``for player in
        order``); a constant (``C1 = 'Frank'``, a set-up loop's leftover) says nothing. A
        variable that named the wrong player twice (a set-up loop's leftover in ``main``) is
        not listened to again. Within a frame, a variable seen holding different players
        beats the others; the human's name alone in a computer's turn function says nothing.

        The reading depends only on the stack and on what it remembers (first_seen, varying,
        strikes, the names). A reading that changed none of that is kept: the same stack
        read again in the same state (the next die of a roll, each player's next roll) gets
        the same answer without the work. first_seen and varying only grow, so their sizes
        tell a changed state from an unchanged one.
        """
        state = (len(self.first_seen), len(self.varying), self._strike_count, self.human,
                 tuple(self.computers))
        for memo in self._stack_memos:
            if memo[0] == state and memo[1] == stack:
                self._named_keys = set(memo[3])
                return memo[2]
        name = self._read_stack(stack)
        after = (len(self.first_seen), len(self.varying), self._strike_count, self.human,
                 tuple(self.computers))
        if after == state:
            kept = [memo for memo in self._stack_memos if memo[0] == state][:7]
            self._stack_memos = [(state, stack, name, frozenset(self._named_keys))] + kept
        return name

    def _read_stack(self, stack: list[dict]) -> str | None:
        """named_in_stack's reading itself (see there)."""
        known = set(self.names)
        side = _side_from_functions(stack)
        self._named_keys = set()
        for frame in stack:
            fn = frame.get("fn")
            found = [(var, value) for var, value in frame.get("strings", []) if value in known]
            # 'lowest_name', 'best_player', 'winner'... name someone, but not the roller
            rolling = [(var, v) for var, v in found if not OTHER_ROLE.search(_base(var))]
            found = rolling or found
            for var, value in found:
                first = self.first_seen.setdefault((fn, var), value)
                if first != value:
                    self.varying.add((fn, var))
            found = [(v, x) for v, x in found if self.strikes.get((fn, v), 0) < 2]
            if frame.get("module"):
                found = [(v, x) for v, x in found if (fn, v) in self.varying]
            name = self._name_in_frame(fn, found, side)
            if name is not None:
                self._named_keys = {(fn, var) for var, value in found if value == name}
                return name
        return self.human if side == "human" else None

    def _name_in_frame(self, fn: str, found: list[tuple[str, str]], side: str | None):
        distinct = {value for _, value in found}
        if len(distinct) == 1:
            only = distinct.pop()
            if only == self.human and side == "computer":
                return None      # the human's name passed along; a computer is rolling
            return self.human if only != self.human and side == "human" else only
        if len(distinct) > 1:
            if side == "human" and self.human in distinct:
                return self.human
            moving = [v for var, v in found if (fn, var) in self.varying]
            if len(set(moving)) == 1:
                return moving[0]
            others = [(var, v) for var, v in found if v != self.human]
            if side == "computer" or len({v for _, v in others}) == 1:
                return _most_current(others) if others else None
            return _most_current(found)
        return None

    def _strike(self, named: str | None, player: str | None) -> None:
        """The variables that named ``named`` were wrong: the turn was ``player``'s."""
        if named is not None and player is not None and named != player:
            for key in self._named_keys:
                self.strikes[key] = self.strikes.get(key, 0) + 1
                self._strike_count += 1

    # ------------------------------------------------------------------ what happened
    def _since_last_draw(self) -> tuple[str, list, bool]:
        """(text printed, our answers as (kind, meaning), whether a prompt came) since the
        last die draw."""
        text, prompted = [], False
        start = self._last_draw_index + 1
        for event in (self.log or [])[start:]:
            if event.kind == "out":
                text.append(event.text)
            elif event.kind == "input":
                prompted = True
        answers = []
        for index, kind, meaning in reversed(self.answers):    # logged in order: the latest
            if index < start:
                break
            answers.append((kind, meaning))
        answers.reverse()
        screen = "".join(text)
        if "\x1b" in screen:
            screen = ANSI_CODE.sub("", screen)
        return screen[-4000:], answers, prompted

    def _only_flashes_since_last_draw(self, text: str, prompted: bool) -> bool:
        """Nothing but carriage-return lines since the last draw: the dice just drawn were
        flashed on screen and overwritten (a rolling animation), not a roll of their own."""
        return not prompted and "\n" not in text and "\r" in text

    def _text_evidence(self, turn: Turn, text: str) -> tuple[bool | None, str | None]:
        """What the lines printed since the last die say: (a new turn starts?, who rolls).

        True with a name for a heading naming another player ("Wren's turn", "Wren rolls"),
        True alone for a turn heading that names nobody we know ("P2 TURN!") or for the
        player rolling now stopping ("Mo stops with 6 6 6"), False for "Frank rolls again",
        None when the text says nothing about turns. Lines that name nobody say nothing about
        stopping or rolling on: "2) Stop" is a menu option, not a player's choice."""
        verdict, who = None, None
        cache = self._line_cache()
        for line in LINES.split(text):
            if not line.strip():
                continue
            key = ("evidence", line, turn.player)
            said = cache.get(key, _UNREAD)
            if said is _UNREAD:
                said = cache[key] = self._line_evidence(line, turn.player)
            if said is not None:
                verdict = said[0]
                who = who if said[1] is _SAME else said[1]
        return verdict, who

    def _line_evidence(self, line: str, player: str | None) -> tuple | None:
        """What one line says while ``player`` rolls (see _text_evidence): (a new turn
        starts?, who rolls), or None when it says nothing; who is _SAME when the line names
        nobody (an earlier line's name stands)."""
        named = self._named_in(line)
        mine = len(named) == 1 and named[0] == player or len(named) == 1 and player is None
        if TURN_WORD.search(line):
            if mine and player is not None:
                return None         # the current player's heading, printed again
            if len(named) == 1:
                return True, named[0]
            if not named and re.search(r"\byour\b", line, re.I):
                return True, self.human
            return True, _SAME
        # a question ("Do you want to keep this roll, Mo?") asks; it does not say what the
        # player did
        asks = "?" in line
        if mine and not asks and ROLLS_ON.search(line):
            return False, None
        if mine and not asks and STOPS.search(line):
            return True, None
        if player is not None and len(named) == 1 and named[0] != player and \
                _around(named[0], r"\W*", r"(\W*$|'s\b|\s+(is\s+)?"
                        r"(rolls|rolling|plays|playing|goes)\b)").match(line):
            return True, named[0]
        return None

    def _line_cache(self) -> dict:
        """Readings of single lines, kept while the players' names stay the same: the lines
        printed since the last die are read again at each die of a roll and by several
        readers (only what a line says is kept, so every answer stays the same)."""
        names = (self.human, *self.computers)
        if names != self._cache_names or len(self._lines) > 8192:
            self._lines, self._cache_names = {}, names
            # one search finds whether a line names anyone at all (most lines name nobody):
            # it matches exactly where one of the names' own patterns would
            self._any_name = re.compile(r"(?<!\w)(?:" + "|".join(
                re.escape(name) for name in self.names) + r")(?!\w)", re.I)
        return self._lines

    def _named_in(self, line: str) -> list[str]:
        """The players the line names (each as a word of its own, in any case); callers
        only read the list (it is kept, see _line_cache)."""
        cache = self._line_cache()
        found = cache.get(line)
        if found is None:
            found = cache[line] = [n for n in self.names if _around(n).search(line)] \
                if self._any_name.search(line) else []
        return found

    def _heading_name(self, text: str) -> str | None:
        """The player named by the last turn heading in the text ("---- Rex's turn ----",
        "Your turn, Quillon"), or None."""
        cache = self._line_cache()
        for line in reversed([line for line in LINES.split(text) if line.strip()]):
            key = ("heading", line)
            said = cache.get(key, _UNREAD)
            if said is _UNREAD:
                said = cache[key] = self._line_heading(line)
            if said is not _NOT_A_HEADING:
                return said
        return None

    def _line_heading(self, line: str):
        """The player a turn heading names (None: a heading naming nobody known), or
        _NOT_A_HEADING."""
        named = self._named_in(line)
        if len(named) == 1 and _around(named[0], r"\W*", r"\W*").fullmatch(line):
            return named[0]          # a heading that is only a name: ">>> CPU 2", "~ Ada ~"
        if len(named) == 1 and len(re.findall(r"[A-Za-z]+", line)) <= 8 and \
                _around(named[0], r"\s*[=*#~>+|-]{2,}\s*").match(line):
            return named[0]          # "=== Gus - max 3 roll(s) ==="
        # a heading is short: "On your turn you roll three dice..." is an instruction
        if not TURN_WORD.search(line) or len(re.findall(r"[A-Za-z]+", line)) > 10:
            return _NOT_A_HEADING
        if len(named) == 1:
            return named[0]
        if not named and re.search(r"\byour\b", line, re.I):
            return self.human
        if not named and (label := SEAT_LABEL.search(line)):
            return self._labelled(label.group(0))     # "P2 TURN!" and "P2 Otto   10 chips"
        return None

    def _labelled(self, label: str) -> str | None:
        """The player a seat label ("P2", "Player 2") stands for, from lines printed so far
        that give the label and then a name ("P2 Otto   10 chips", "Player 2: Otto")."""
        if self.log is not None and self._labels_scanned < len(self.log):
            fresh = self.log[self._labels_scanned:]
            self._labels_scanned = max(self._labels_scanned, len(self.log) - 1)
            text = "".join(e.text for e in fresh if e.kind == "out")
            for match in LABEL_AND_NAME.finditer(text):
                self._labels.setdefault(_seat(match.group(1)), []).append(match.group(2))
        # the last word after the label that is a player's name ("P2 TURN!" names nobody)
        return next((word for word in reversed(self._labels.get(_seat(label), []))
                     if word in self.names), None)

    def _roller_named(self, text: str) -> str | None:
        """The player a line printed after a roll says rolled it ("CPU 2 rolled: 3 4 5")."""
        for line in LINES.split(text):
            if not re.search(r"\b(roll(s|ed)?|got|gets|threw|throws)\b", line, re.I) or \
                    re.search(r"\bagain\b", line, re.I):
                continue
            named = self._named_in(line)
            if len(named) == 1:
                return named[0]
        return None

    def _player_at(self, round_index: int, pos: int) -> str | None:
        """Who the order of play puts at ``pos`` in a round, when the grader knows it."""
        order = self.orders.get(round_index)
        numbers = self.index_orders.get(round_index)
        if order and pos < len(order):
            return order[pos]
        if numbers and pos < len(numbers):
            return self.index_player.get(numbers[pos])
        return None

    def _vote_index(self, turn: Turn, player: str | None, weight: int) -> None:
        """Which player a shuffled player number stands for, by the turns seen so far (the
        human's own questions count most): the order of later rounds follows from it."""
        numbers = self.index_orders.get(turn.round)
        if not numbers or turn.pos >= len(numbers) or player is None or turn.extra:
            return
        votes = self.index_votes.setdefault(numbers[turn.pos], {})
        votes[player] = votes.get(player, 0) + weight
        self.index_player[numbers[turn.pos]] = max(votes, key=votes.get)

    def _allowed(self, turn: Turn) -> int:
        """How many rolls this turn may make (3 first; then the previous player's count)."""
        before = [t for t in self.turns if t.round == turn.round and not t.discarded
                  and t.pos == turn.pos - 1]
        return 3 if turn.pos == 0 or not before else min(3, max(1, before[-1].rolls))

    # ------------------------------------------------------------------ turns
    def _start_turn(self, round_index: int, pos: int, player: str | None = None) -> Turn:
        turn = Turn(len(self.turns), round_index, pos)
        turn.player = self._player_at(round_index, pos)
        if turn.player is not None:
            self._strike(self._named_now, turn.player)
        if player is not None:
            if turn.player is not None and player != turn.player:
                turn.doubts.append(f"the order of play says {turn.player}, the program's "
                                   f"variables or headings say {player}")
            else:
                turn.player = player
        if turn.player is not None:
            turn.human = turn.player == self.human
        self.turns.append(turn)
        return turn

    @property
    def current(self) -> Turn | None:
        """The latest turn not discarded."""
        return next((t for t in reversed(self.turns) if not t.discarded), None)

    def _round_turns(self, round_index: int) -> list[Turn]:
        return [t for t in self.turns if t.round == round_index and not t.discarded
                and not t.extra]

    def _next_turn(self, turn: Turn, player: str | None) -> Turn:
        """The turn after ``turn``: the next position, or a new round after the last one."""
        player = self._heading or player
        if turn.extra:                      # the roll-off is over: its place is the next turn's
            turn.discarded = True
            return self._start_turn(turn.round, turn.pos, player)
        if turn.pos + 1 >= self.players:
            return self._start_turn(turn.round + 1, 0, player)
        return self._start_turn(turn.round, turn.pos + 1, player)

    def _set_player(self, turn: Turn, player: str | None) -> None:
        if player is None:
            return
        if turn.player is None:
            taken = {t.player for t in self._round_turns(turn.round) if t is not turn}
            if player not in taken:
                turn.player = player
                turn.human = player == self.human
        elif player != turn.player and not turn.doubts:
            turn.doubts.append(f"the order of play says {turn.player}, the program's "
                               f"variables say {player}")

    def _turn_for_die(self, event: dict) -> tuple[Turn, bool]:
        """The turn this die belongs to, and whether it starts a new roll."""
        text, answers, prompted = self._since_last_draw()
        named = self._named_now = self.named_in_stack(event.get("stack", []))
        # the heading is read only where a turn may start (here, _after_roll, _next_turn):
        # the rest of a roll in progress does not look for one
        self._heading = None
        turn = self.current
        if self.pending_round is not None or turn is None:
            self._heading = self._heading_name(text)
        if self.pending_round is not None:
            round_index, self.pending_round = self.pending_round, None
            for old in self._round_turns(round_index):
                old.discarded = True        # dice before the order was chosen: a roll-off
            human = self.human if self.human_next else None
            self.human_next = False
            return self._start_turn(round_index, 0, human or self._heading or named), True
        if turn is None:
            first = self.human if self.human_next else self._heading or named
            return self._start_turn(0, 0, first), True
        if turn.mid_roll and not prompted and not answers and \
                not ("\n" in text and self._text_evidence(turn, text)[0]):
            return turn, False              # the rest of a roll in progress
        if not turn.mid_roll and turn.rolls and self._only_flashes_since_last_draw(text,
                                                                                   prompted):
            turn.rolls -= 1                 # the last triple was an animation frame
            return turn, True
        if not turn.mid_roll and turn.rolls and not text.strip() and not prompted and \
                not answers and turn.site and draw_site(event) not in ((), turn.site):
            # Dice drawn straight after a roll, with nothing printed between, from another
            # place in the program: the first frame of an animation that follows the real
            # roll ("Rolling... 5 2 6" flashed after the dice were drawn). They get the roll's
            # own faces. The same place drawing again is a real roll (a silent re-roll).
            turn.rolls -= 1
            return turn, True
        self._heading = self._heading_name(text)
        return self._after_roll(turn, text, answers, named), True

    def _names_a_new_round(self, turn: Turn, text: str) -> bool:
        """Every player has had a turn in this round and the text since the last die shows a
        round heading: the next round has started. Unless the heading shows the number of the
        round in progress: a program may label every roll ("[Round 3] Bob: 4 4 4"), and the
        human's question after the last roll of Round 3 was taken for one in Round 4 (its
        roll-again question then counted as asked in the wrong round)."""
        if len(self._round_turns(turn.round)) < self.players:
            if turn.round not in self._round_numbers:
                shown = ROUND_HEADING.findall(text)
                if shown:
                    self._round_numbers[turn.round] = round_number(shown[-1])
            return False
        shown = ROUND_HEADING.findall(text)
        if not shown:
            return False
        number = round_number(shown[-1])
        if self._round_numbers.get(turn.round) == number:
            return False
        self._round_numbers.setdefault(turn.round + 1, number)
        return True

    def _after_roll(self, turn: Turn, text: str, answers: list, named: str | None) -> Turn:
        """After a finished roll: the same player rolls again, or the next turn starts."""
        # the cheap conditions first: searching a screenful of text takes the longest
        if turn.rolls and self._names_a_new_round(turn, text):
            first = self.human if self.human_next else self._heading or named
            return self._start_turn(turn.round + 1, 0, first)
        if self.human_next:
            self.human_next = False
            if not turn.human:
                return self._next_turn(turn, self.human)
        if not self._heading and (
                turn.extra or len(self._round_turns(turn.round)) >= self.players) and \
                any(TIE_LINE.search(line) for line in text.split("\n")):
            # every player has had a turn and the program talks about a tie: these dice
            # break the tie (a roll-off), they are nobody's turn in the next round
            if turn.extra:
                return turn
            extra = Turn(len(self.turns), turn.round + 1, 0, extra=True)
            self.turns.append(extra)
            return extra
        roll_answers = [meaning for kind, meaning in answers if kind == "roll"]
        if roll_answers:
            other = self._heading if self._heading not in (None, self.human) else \
                named if named not in (None, self.human) and \
                turn.rolls >= self._allowed(turn) else None
            if roll_answers[-1] == "yes" and other is None:
                self._set_player(turn, self.human)
                return turn
            if roll_answers[-1] == "yes":
                return self._next_turn(turn, other)    # the yes was ignored: no roll left
            return self._next_turn(turn, named if named != self.human else None)
        if turn.human:
            # the human's turn ends when the grader said no, or when no roll was left to
            # offer; a program that rolls on without asking is still the human rolling
            if turn.rolls >= self._allowed(turn) or named not in (None, self.human):
                return self._next_turn(turn, named)
            return turn
        if turn.player is None:
            self._set_player(turn, self._roller_named(text))    # "CPU 2 rolled: 3 4 5"
        says, who = self._text_evidence(turn, text)
        rolled = self._roller_named(text) if says is None and turn.player is not None else None
        taken = {t.player for t in self._round_turns(turn.round) if t is not turn}
        if rolled not in (None, turn.player, self.human) and rolled not in taken:
            # the screen names who rolled these dice ("Dex, roll number 1:") and that player
            # stopping ("Dex stops with 164 points"), another player than the one a variable
            # named (a set-up loop's leftover "cpu" in main): the screen is believed and the
            # variable struck. A line naming the next player ("** HAL, up to 1 roll **")
            # without such a stop changes nothing.
            was, turn.player = turn.player, rolled
            says, who = self._text_evidence(turn, text)
            if says is True and who is None:
                self._strike(named, rolled)
            else:
                turn.player, (says, who) = was, (None, None)
        if says is True:
            return self._next_turn(turn, who or (named if named != turn.player else None))
        if says is False:                   # "Maya goes again"
            self._set_player(turn, named)
            return turn
        if named is not None and turn.player is not None and named != turn.player:
            expected = self._player_at(turn.round, turn.pos + 1)
            if expected is None or named == expected:
                return self._next_turn(turn, named)
            self._strike(named, turn.player)    # names a player who cannot be rolling now
            named = None
        if named is not None and named == turn.player:
            return turn
        if turn.rolls >= self._allowed(turn):
            return self._next_turn(turn, named)
        if named is not None and turn.player is None:
            used = {t.player for t in self._round_turns(turn.round)}
            if named in used:
                return self._next_turn(turn, named)      # named a player who already played
            self._set_player(turn, named)
        return turn

    def human_place(self, stack: list[dict] | None = None) -> tuple[int, int]:
        """At a roll question: (the human's round, rolls the human has made in it).

        A question that comes before the human's first roll of a turn says the human is about
        to roll (the next die starts the human's turn); one after a roll belongs to the turn
        in progress, which is then known to be the human's."""
        turn = self.current
        text, answers, prompted = self._since_last_draw()
        if self.pending_round is not None or turn is None:
            self.human_next = True
            return (self.pending_round if self.pending_round is not None else 0), 0
        named = self.named_in_stack(stack or [])
        said_no = any(kind == "roll" and meaning == "no" for kind, meaning in answers)
        # a variable naming a computer in a turn known to be the human's is a leftover (a
        # set-up loop's `for c in computers` in main): computers are never asked this
        fresh = not turn.mid_roll and (
            turn.human is False or turn.extra or said_no
            or (named is not None and named != self.human and turn.human is not True)
            or self._text_evidence(turn, text)[0] is True
            or self._names_a_new_round(turn, text))
        if fresh or turn.rolls == 0:
            self.human_next = True
            upcoming = turn.round + 1 if turn.pos + 1 >= self.players and turn.rolls else \
                turn.round
            return upcoming, 0
        if turn.human is None:
            self._set_player(turn, self.human)
            turn.human = True
        self._vote_index(turn, self.human, 5)
        return turn.round, turn.rolls

    def answered(self, kind: str, meaning: str) -> None:
        """play.py tells the policy what each answer meant (roll questions: yes = roll on)."""
        if self.log is not None:
            self.answers.append((len(self.log) - 1, kind, meaning))

    # ------------------------------------------------------------------ order of play
    def _is_player_population(self, items) -> bool:
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        if not 3 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
            return False
        if self.human not in names and not self.named and not self.turns:
            # The program never asked the human's name: its own name for the human is the
            # one that says so ("You", "Player"), else the first (humans come first).
            own = [n for n in names if re.fullmatch(r"(?i)you|player\s*1?|human|me|user", n)]
            self.human = own[0] if own else names[0]
        return self.human in names

    def _order_of_indexes(self, items: list) -> list[int] | None:
        """A shuffle of player numbers (``[0, 1, 2, 3]``): put the human where the plan wants.

        Which number is the human is learned from earlier rounds' turns; before that, the
        human is taken to be number 0 (programs list the human first almost always)."""
        n = len(items)
        round_index = self._new_round(self._event)
        human = next((i for i, p in self.index_player.items() if p == self.human), 0)
        others = [i for i in range(n) if i != human]
        pos = min(self.plan.position_of_human(round_index), len(others))
        perm = others[:pos] + [human] + others[pos:]
        self.index_orders[round_index] = perm
        return perm

    def order(self, event: dict):
        self._event = event
        items = event.get("req", {}).get("items", [])
        if items and items == list(range(len(items))) and 3 <= len(items) <= 4 \
                and event.get("fn") in ("shuffle", "sample"):
            return self._order_of_indexes(items)
        if not self._is_player_population(items):
            return None
        self.learn_names(items)
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        self.populations.append(names)
        round_index = self._new_round(event)
        computers = [i for i, n in enumerate(names) if n != self.human]
        human = names.index(self.human)
        pos = min(self.plan.position_of_human(round_index), len(computers))
        perm = computers[:pos] + [human] + computers[pos:]
        self.orders[round_index] = [names[i] for i in perm]
        return perm

    def _new_round(self, event: dict | None = None) -> int:
        """A shuffle of the players starts a round: the one after the round in progress.

        Dice drawn after a round's last turn and before the next shuffle (a tie roll-off)
        made a turn of a round that no shuffle started: that round starts now, afresh."""
        self.order_shuffles += 1
        turn = self.current
        if turn is None:
            round_index = 0
        elif turn.round in self.shuffled_rounds or not self.shuffled_rounds:
            round_index = turn.round + (1 if turn.rolls else 0)
        else:
            round_index = turn.round
        self.shuffled_rounds.add(round_index)
        self.pending_round = round_index
        self.human_next = False
        if event is not None:
            event["kit"] = {"order_round": round_index}
        return round_index

    def choose_index(self, event: dict):
        items = event.get("req", {}).get("items", [])
        names = [i.get("name") if isinstance(i, dict) else i for i in items]
        if self._is_player_population(items):
            self.learn_names(items)
            round_index = self._new_round(event)
            computers = [n for n in names if n != self.human]
            pos = self.plan.position_of_human(round_index)
            first = self.human if pos == 0 else computers[0]
            return names.index(first)
        if items and all(isinstance(n, str) for n in names) and len(items) <= 4:
            return len(items) - 1 if self.plan.tie_pick == "last" else 0
        return None

    # ------------------------------------------------------------------ dice
    def answer(self, event: dict):
        """An index drawn before the game's first round (``pool.pop(random.randint(0, 5))``
        picking a computer player's name from six) is set-up, not a die: before any turn,
        any chosen order and any round heading, a draw from 0 to 5 is answered at random."""
        fn, req = event.get("fn"), event.get("req", {})
        if fn in ("randint", "randrange") and die_offset(fn, req) == 0 and not self.turns \
                and self.pending_round is None and not any(
                    logged.kind == "out" and ROUND_HEADING.search(logged.text)
                    for logged in self.log or []):
            return self._other(fn, req, event), []
        return super().answer(event)

    def next_face(self, event: dict) -> int | None:
        if not self.computers:
            self.learn_from_screen()
        turn, new_roll = self._turn_for_die(event)
        if new_roll:
            turn.rolls += 1
            turn.dice = 0
        die = turn.dice
        turn.dice += 1
        self._last_draw_index = len(self.log or [])     # this draw's index once logged
        turn.last_draw, turn.site = self._last_draw_index, draw_site(event)
        self._vote_index(turn, turn.player, 1)
        if self.stop_at_round is not None and turn.round >= self.stop_at_round and (
                turn.pos >= 1 or turn.round in self.shuffled_rounds):
            self.enough = True      # a real turn of the next round (not a tie's roll-off)
        event["kit"] = {"turn": turn.id, "player": turn.player or "?", "round": turn.round,
                        "pos": turn.pos, "roll": turn.rolls - 1, "die": die}
        if turn.extra or turn.rolls > 3:
            return None              # a roll-off (or a roll past any limit): chance decides
        planned = self.plan.roll(turn.round, turn.pos, turn.rolls - 1)
        if planned is None:
            return None
        return planned[die % 3]


def _side_from_functions(stack: list[dict]) -> str | None:
    """'human' or 'computer' when a function on the stack says whose turn it is."""
    for frame in stack:
        fn = frame.get("fn", "").lower()
        if re.search(r"comp|cpu|bot|(^|_)ai(_|$)|npc|robot|opponent|auto", fn):
            return "computer"
        if re.search(r"human|user|(^|_)you(r)?(_|$)|my_?turn", fn):
            return "human"
    return None


def _most_current(found: list[tuple[str, str]]) -> str:
    """Among several named players, the one in the variable most likely to hold the
    player whose turn it is ('player', 'current', ...) rather than the human's name."""
    def score(pair):
        base = _base(pair[0])
        if base in HUMAN_HINTS or re.search(r"human|user|your|(^|_)my", base):
            return 0
        if re.search(r"current|player$|^player|who|turn|roller|active", base):
            return 3
        if base in ("p", "pl", "plr", "person", "comp", "cpu", "bot"):
            return 2
        return 1
    return max(found, key=score)[1]
