"""Reading a played scenario: rounds, each player's rolls, and the text between rounds.

Rolls come from the loaded draws (each attributed to a player by the policy), so they are
known exactly whatever the program prints; the program's own claims (standings, winners,
scores, labels) are read from the screen text around them.
"""
from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from graders.engine.drive.readers.dice import LearnedDice, find_dice, learn_pictures
from graders.engine.drive.readers.standings import last_standings

from . import rules, verify
from .play import Game
from .policy import ROUND_HEADING, round_number


WINNING = re.compile(r"\bwin|\bwinner|\bwon\b|highest|best", re.I)
GAME = re.compile(r"game", re.I)
CLAUSE = re.compile(r"[,;|]|\s-+\s|\.\s|\bbut\b|\bwhile\b", re.I)
TIE_BREAK_LINE = re.compile(r"\bti(e|es|ed)\b|roll[- ]?off|tie-?break|re-?roll", re.I)


@functools.lru_cache(maxsize=1024)
def word(name: str) -> re.Pattern:
    """The name as a word of its own (compiled once: every check looks for the players); a
    hyphen joins words into another name ("Robo-Otto", a computer renamed after a clash)."""
    # (the name first, then what stands before it: a pattern that starts with its letters
    # is looked for quickly, which matters on a screen of a million characters)
    name = re.escape(name)
    return re.compile(name + rf"(?<!\w{name})(?<!\w-{name})(?!\w)(?!-\w)")


@dataclass
class Turn:
    player: str
    rolls: list[list[int]] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)       # text offset after each roll's draw
    seqs: list[int] = field(default_factory=list)       # each roll's place in the game's draws

    @property
    def final(self) -> list[int]:
        return self.rolls[-1]


@dataclass
class Round:
    index: int
    order: list[str]
    turns: dict[str, Turn]
    start: int
    end: int
    doubts: list[str] = field(default_factory=list)   # why the attribution is uncertain
    contradiction: str | None = None   # what the transcript shows that no reading explains
    reread: str | None = None          # how the reading was corrected to fit the transcript

    @property
    def finals(self) -> dict[str, list[int]]:
        return {name: turn.final for name, turn in self.turns.items()}

    def player_at(self, pos: int) -> str | None:
        return self.order[pos] if pos < len(self.order) else None

    def rolls_of(self, player: str) -> int:
        turn = self.turns.get(player)
        return len(turn.rolls) if turn else 0


class Reading:
    """What a scenario run shows."""

    def __init__(self, game: Game):
        self.game = game
        self.transcript = game.transcript
        self.text = game.transcript.text
        self.human = game.policy.human          # HUMAN, unless the program never asked
        self.names = [self.human] + [n for n in game.policy.computers if n != self.human]
        self._standings: dict[tuple[int, int], dict[str, int]] = {}
        # answers that depend only on the game (several checks ask the same question): kept
        # once read, and handed out as copies where a caller could change them
        self._memo: dict[tuple, object] = {}
        self.rounds = self._rounds()
        self._verify()
        self._memo.clear()          # what was read before the rounds were checked

    def _remember(self, key: tuple, read):
        """``read()``, computed once per key for this reading."""
        if key not in self._memo:
            self._memo[key] = read()
        return self._memo[key]

    def _rounds(self) -> list[Round]:
        """Rounds from the turns the policy followed: each roll's faces in order of drawing.

        A roll that re-rolled only some dice is completed from the roll before it, as the
        program showed it (see ``_partial``); a turn nobody could name is kept as "?"."""
        policy = self.game.policy
        turns = {t.id: t for t in policy.turns}
        faces: dict[tuple[int, int], list[int]] = {}
        ends: dict[tuple[int, int], int] = {}
        last: dict[tuple[int, int], int] = {}      # the roll's last draw, by its place
        for place, mark in enumerate(self.transcript.draws):
            kit = mark.data.get("kit") or {}
            turn = turns.get(kit.get("turn"))
            if turn is None or not mark.data.get("faces"):
                continue
            if turn.discarded or turn.extra:
                continue
            key = (turn.id, kit["roll"])
            faces.setdefault(key, []).extend(mark.data["faces"])
            ends[key] = mark.pos
            last[key] = place
        rounds: dict[int, Round] = {}
        for (turn_id, number), drawn in sorted(faces.items(), key=lambda kv: last[kv[0]]):
            seq = last[(turn_id, number)]
            turn = turns[turn_id]
            player = turn.player if turn.player is not None else "?"
            end = ends[(turn_id, number)]
            round_ = rounds.setdefault(turn.round, Round(turn.round, [], {}, end, 0))
            if player in round_.turns and round_.order and round_.order[-1] != player:
                player = "?"                    # the same name twice in one round: unsure
            previous = round_.turns[player].rolls[-1] if player in round_.turns else None
            if len(drawn) >= 3:
                roll = drawn[-3:]             # after animation frames, the last three count
            elif previous is None:
                continue                      # a roll cut short when the run ended
            else:
                roll = self._partial(previous, drawn, end)
                if roll is None:
                    round_.doubts.append(f"the grader could not tell which dice {player} kept "
                                         f"when re-rolling {' '.join(map(str, drawn))}")
                    player, roll = "?", previous[:3 - len(drawn)] + drawn
            mine = round_.turns.setdefault(player, Turn(player))
            if player not in round_.order:
                round_.order.append(player)
            mine.rolls.append(roll)
            mine.ends.append(end)
            mine.seqs.append(seq)
            round_.start = min(round_.start, end)
            round_.end = max(round_.end, end)
            round_.doubts += [d for d in turn.doubts if d not in round_.doubts]
        return [rounds[i] for i in sorted(rounds)]

    def _verify(self) -> None:
        """Check each round's reading against the transcript (``verify.py``): keep it, replace
        it by the one other reading that explains everything, or mark the contradiction."""
        self.questions: list[verify.Question] = []
        if len(self.names) < 3:
            return
        questions = self.questions = verify.roll_questions(self)
        draws = [(place, mark.pos) for place, mark in enumerate(self.transcript.draws)
                 if mark.data.get("faces")]
        for round_ in self.rounds:
            span = self.region(round_.index)
            raw = [(place, mark.pos, mark.data["faces"])
                   for place, mark in enumerate(self.transcript.draws)
                   if mark.data.get("faces") and span[0] <= mark.pos < span[1]]
            claims = verify.claims_in(self.text, *span, self.names, word)
            ok, why, seats = verify.verify_round(round_, self.human, self.names, claims,
                                                 questions, draws, verify.in_threes(raw))
            if not ok:
                round_.contradiction = why or "its dice could not be placed"
            elif seats is not None:
                before = {p: len(t.rolls) for p, t in round_.turns.items()}
                round_.turns = {p: Turn(p, [list(r) for _, _, r in rolls],
                                        [e for _, e, _ in rolls], [s for s, _, _ in rolls])
                                for p, rolls in sorted(seats.items(), key=lambda kv: kv[1][0])}
                round_.order = list(round_.turns)
                ends = [end for turn in round_.turns.values() for end in turn.ends]
                round_.start, round_.end = min(ends), max(ends)
                round_.reread = ("the grader's first reading of the turns ("
                                 + ", ".join(f"{p} {n}" for p, n in before.items())
                                 + " rolls) did not fit the transcript; the one that fits: "
                                 + ", ".join(f"{p} {len(t.rolls)}"
                                             for p, t in round_.turns.items()) + " rolls")

    def _headings(self) -> list[int]:
        """Where the program's round headings start, Round 1, 2, ... in order, as far as they
        go; the end of the text after the last one."""
        found = []
        for match in ROUND_HEADING.finditer(self.text):
            if round_number(match.group(1)) == len(found) + 1:
                found.append(match.start())
        return found + [len(self.text)]

    def _partial(self, before: list[int], drawn: list[int], end: int) -> list[int] | None:
        """A re-roll of some dice: the roll it makes, with the kept dice from ``before``, as
        the program printed it next (as digits or big dice); None when it cannot be told."""
        following = self.text[end:end + 2500]
        candidates = []
        for kept in itertools.combinations(range(3), 3 - len(drawn)):
            slots = [i for i in range(3) if i not in kept]
            roll = list(before)
            for slot, face in zip(slots, drawn):
                roll[slot] = face
            candidates.append(roll)
        found = []
        for roll in candidates:
            digits = r"\D{1,6}".join(str(f) for f in roll)
            match = re.search(r"(?<!\d)" + digits + r"(?!\d)", following)
            if match:
                found.append((match.start(), roll))
            elif find_dice(following, roll) is not None:
                found.append((len(following), roll))
        return min(found)[1] if found else None

    # ------------------------------------------------------------------ regions of text
    def round(self, index: int) -> Round | None:
        for round_ in self.rounds:
            if round_.index == index:
                return round_
        return None

    def complete(self, index: int) -> bool:
        """Round played by four players and followed by another round (its heading is enough:
        a program that crashes as Round 4 begins has finished Round 3) or the game's end."""
        round_ = self.round(index)
        players = max(3, len(self.names))       # three-player programs are graded too
        if round_ is None or len(round_.turns) < players or "?" in round_.turns \
                or round_.contradiction:
            return False
        if self.round(index + 1) is not None or not self.game.transcript.crashed:
            return True
        return any(round_number(shown) > index + 1
                   for shown in ROUND_HEADING.findall(self.text, round_.end))

    def unsure(self, index: int) -> str | None:
        """Why the grader cannot judge round ``index`` although the game went past it (it
        could not tell whose rolls some dice were), or None."""
        round_ = self.round(index)
        went_on = self._later(index) is not None or (
            not self.game.transcript.crashed and self.game.transcript.outcome.get("status")
            in ("finished", "exit"))
        if round_ is None or not went_on:
            return None
        if round_.contradiction:
            return (f"the grader's reading of Round {index + 1} (whose dice were whose) "
                    f"disagrees with what the program printed: {round_.contradiction}")
        players = max(3, len(self.names))
        if "?" in round_.turns or len(round_.turns) < players:
            seen = ", ".join(p for p in round_.order if p != "?") or "nobody"
            doubt = f" ({round_.doubts[0]})" if round_.doubts else ""
            return (f"the grader could not tell whose rolls all the dice of Round {index + 1} "
                    f"were (it recognised {seen}){doubt}")
        return None

    def _later(self, index: int) -> Round | None:
        """The first round read after ``index`` (a round may be missing from the reading)."""
        return next((r for r in self.rounds if r.index > index), None)

    def before(self, index: int) -> tuple[int, int]:
        """Offsets of the text before round ``index`` starts (after the previous round).

        Never reaches past the next round that was read: standings from a much later round
        are not this round's."""
        previous = self.round(index - 1)
        start = previous.end if previous else 0
        current = self.round(index) or self._later(index)
        return start, current.start if current else len(self.text)

    def after(self, index: int) -> tuple[int, int]:
        current = self.round(index)
        following = self._later(index)
        end = following.start if following else len(self.text)
        return (current.end if current else 0), end

    def slice(self, span: tuple[int, int]) -> str:
        return self.text[span[0]:span[1]]

    def excerpt(self, span: tuple[int, int], max_lines: int = 60) -> str:
        return self.transcript.render(span[0], span[1], max_lines=max_lines)

    def standings_before(self, index: int) -> dict[str, int]:
        return self._standings_in(self.before(index))

    def standings_after_heading(self, index: int) -> dict[str, int] | None:
        """The standings between round ``index``'s own heading ("Round 3" in its box) and its
        first roll; None where no heading of that round lies before it."""
        start, end = self.before(index)
        headings = self._remember(("headings",), self._headings)
        if index >= len(headings) - 1 or not start <= headings[index] < end:
            return None
        return self._standings_in((headings[index], end))

    def standings_at_end(self) -> dict[str, int]:
        last = self.rounds[-1].index if self.rounds else -1
        return self._standings_in(self.after(last))

    def _standings_in(self, span: tuple[int, int]) -> dict[str, int]:
        """The last standings in a span of the text (``last_standings``), read once per span."""
        if span not in self._standings:
            self._standings[span], _ = last_standings(self.slice(span), self.names)
        return dict(self._standings[span])

    # ------------------------------------------------------------------ the human
    def human_questions(self, index: int) -> list[tuple[int, bool]]:
        """The roll questions answered in the human's turn of round ``index``, placed by the
        grader's typed answers: (the human's rolls before the question, answered yes?)."""
        round_ = self.round(index)
        turn = round_.turns.get(self.human) if round_ else None
        if turn is None or not turn.ends:
            return []
        at = round_.order.index(self.human)
        following = round_.order[at + 1] if at + 1 < len(round_.order) else None
        end = round_.turns[following].ends[0] if following else self.region(index)[1]
        return [(sum(1 for e in turn.ends if e < q.pos), q.yes) for q in self.questions
                if turn.ends[0] < q.pos < end]

    def offers(self, index: int) -> list[int]:
        """After which of the human's rolls in round ``index`` a roll question came."""
        return sorted({n for n, _ in self.human_questions(index) if n >= 1})

    def ignored_yes(self, index: int) -> list[int]:
        """Roll counts at which the human said yes to rolling again and did not roll."""
        rolled = self.round(index).rolls_of(self.human)
        return sorted({n for n, yes in self.human_questions(index) if yes and n >= rolled})

    def round_end(self, index: int) -> int:
        """Where what the program says about round ``index`` ends: the next round's heading
        or first roll, whichever comes later."""
        return max(self.after(index)[1], self.region(index)[1])

    def region(self, index: int) -> tuple[int, int]:
        """Round ``index``'s text: from its heading to the next one where the program prints
        them in order, else from its first roll (as read) to the next round's."""
        headings = self._remember(("headings",), self._headings)
        if index + 1 < len(headings):
            return headings[index], headings[index + 1]
        round_ = self.round(index)
        return (round_.start if round_ else self.before(index)[1]), self.after(index)[1]

    def draws_between(self, span: tuple[int, int]) -> int:
        """Random draws in a span, not counting the shuffles that order the next round."""
        return sum(1 for m in self.transcript.draws if span[0] < m.pos < span[1]
                   and "order_round" not in (m.data.get("kit") or {}))

    def choices_between(self, span: tuple[int, int], tied: set[str]) -> list[str]:
        """Players in a random choice among fewer of the tied players than tied (a three-way
        tie decided between two of them); empty when every choice included all of them."""
        narrow, covered = [], set()
        for mark in self.transcript.draws:
            if not span[0] < mark.pos < span[1] or mark.data.get("faces"):
                continue
            items = mark.data.get("req", {}).get("items") or []
            names = [i.get("name") if isinstance(i, dict) else i for i in items]
            among = [n for n in names if n in tied]
            if len(among) == len(names) >= 2:
                covered |= set(among)
                if len(among) < len(tied) and not narrow:
                    narrow = among
        # a knockout (a coin flip between two, the survivor against the third) is every
        # tied player's chance, over several choices
        return [] if covered >= tied else narrow

    def outcomes_between(self, span: tuple[int, int],
                         tied: set[str]) -> tuple[int, list[str]] | None:
        """How many ways the random draws in a span that could decide among ``tied`` could
        come out together (the product of each draw's outcomes), and the draws; None when a
        draw's outcomes are not counted (random(), uniform(), ...). Shuffles that order the
        next round, and choices among players none of whom is tied, are left out."""
        ways, calls = 1, []
        for mark in self.transcript.draws:
            if not span[0] < mark.pos < span[1] or "order_round" in (mark.data.get("kit") or {}):
                continue
            fn, req = mark.data.get("fn"), mark.data.get("req") or {}
            items = [i.get("name") if isinstance(i, dict) else i for i in req.get("items") or []]
            if any(i in self.names for i in items) and not any(i in tied for i in items):
                continue
            count = _outcomes(fn, req)
            if count is None:
                return None
            ways *= count
            bounds = f"{req['a']}, {req['b']}" if "a" in req else f"{req.get('n', '?')} items"
            calls.append(f"random.{fn}({bounds})")
        return ways, calls

    def tie_lines_narrow(self, span: tuple[int, int], tied: set[str]) -> str | None:
        """A line announcing a tie-break (a roll-off, a tie) among some of the tied players
        but not all of them, when no such line names them all; None otherwise."""
        narrow, whole = None, False
        for line in self.slice(span).split("\n"):
            if not TIE_BREAK_LINE.search(line):
                continue
            named = {n for n in tied if word(n).search(line)}
            if named == tied:
                whole = True
            elif len(named) >= 2 and narrow is None:
                narrow = line.strip()
        return None if whole else narrow

    def shown_not_drawn(self, span: tuple[int, int], tied: set[str]) -> list[str]:
        """Tie-break dice the program printed for tied players ("Mo rolls a 6") that are not
        among the dice it drew there: the roll-off was decided by something else."""
        drawn = Counter(f for m in self.transcript.draws if span[0] < m.pos < span[1]
                        for f in m.data.get("faces") or [])
        if not drawn:
            return []
        printed = []
        for line in self.slice(span).split("\n"):
            if len(re.findall(r"\d", line)) != 1:
                continue                      # a roll-off line shows one die
            for name in tied:
                # "Mo rolls a 6", "Mo's roll: 6"; not a heading that counts rolls ("Mo's roll
                # 1:", "roll #2")
                match = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)\W{0,3}(?:\w+\s){0,2}"
                                  r"roll(?:s|ed)?[^\w#]{0,6}(?:an?\s)?([1-6])\b"
                                  r"(?!\s*[,\d:])", line, re.I)
                if match:
                    printed.append((name, int(match.group(1)), line.strip()))
        missing = Counter(face for _, face, _ in printed) - drawn
        return [line for _, face, line in printed if missing.get(face)]

    def ended_by_the_rules(self) -> bool:
        """The program finished on its own and its last standings show someone out of chips."""
        if self.game.stopped_early or self.transcript.outcome.get("status") not in (
                "finished", "exit"):
            return False
        final = self.standings_at_end()
        return bool(final) and min(final.values()) <= 0

    # ------------------------------------------------------------------ outcomes
    def receiver(self, index: int) -> tuple[str | None, dict, dict]:
        """Who gained chips over round ``index`` (by the program's own standings)."""
        who, before, after = self._remember(("receiver", index), lambda: self._receiver(index))
        return who, dict(before), dict(after)

    def _receiver(self, index: int) -> tuple[str | None, dict, dict]:
        before, after = self.standings_before(index), self.standings_before(index + 1)
        if index + 1 > self.rounds[-1].index if self.rounds else True:
            after = self.standings_at_end() or after
        # standings that leave someone out still tell who gained among the others
        common = [n for n in self.names if n in before and n in after]
        if len(common) < max(2, len(self.names) - 1):
            return None, {}, {}
        before = {n: before[n] for n in common}
        after = {n: after[n] for n in common}
        gained = [n for n in common if after[n] > before[n]]
        return (gained[0] if len(gained) == 1 else None), before, after

    def shown(self, turn: Turn, number: int) -> bool:
        """Were this roll's dice printed (as digits in order, or as big dice)?"""
        return self.text_shows(turn.ends[number], turn.rolls[number])

    def text_shows(self, end: int, faces) -> bool:
        """Were these dice printed after ``end`` (as digits in order, or as big dice)?"""
        faces = tuple(faces)
        return self._remember(("shown", end, faces), lambda: self._shown(end, faces))

    def _shown(self, end: int, faces: tuple[int, ...]) -> bool:
        following = self.text[end:end + 2500]
        digits = r"\D{1,6}".join(str(f) for f in faces)
        if re.search(r"(?<!\d)" + digits + r"(?!\d)", following):
            return True
        return find_dice(following, list(faces)) is not None or \
            self.pictures().found_in(following, list(faces))

    def pictures(self) -> LearnedDice:
        """The program's own dice pictures, learned from every roll's loaded faces."""
        return self._remember(("pictures",), lambda: learn_pictures(
            [(roll, self.text[end:end + 2500]) for round_ in self.rounds
             for turn in round_.turns.values() for roll, end in zip(turn.rolls, turn.ends)]))

    def announced_winner(self, index: int) -> str | None:
        """A player named on a line about winning the round, after its last roll."""
        return self._remember(("winner", index), lambda: self._announced_winner(index))

    def _announced_winner(self, index: int) -> str | None:
        text = self.slice(self.after(index))
        for line in text.split("\n"):
            if WINNING.search(line) and not GAME.search(line):
                named = [n for n in self.names if word(n).search(line)]
                if len(named) == 1:
                    return named[0]
                if len(named) > 1:
                    # "Bo wins the round, Al loses it" / "Best: Bo | Worst: Al": the name in
                    # the part of the line that speaks of winning (a line naming both used to
                    # be passed over, and a later one, "best roll ... to Al", was read)
                    found = {n for part in CLAUSE.split(line) if WINNING.search(part)
                             for n in named if word(n).search(part)}
                    if len(found) == 1:
                        return found.pop()
        return None

    def expected(self, index: int):
        round_ = self.round(index)
        finals = round_.finals
        high, low = rules.highest_and_lowest(finals)
        return high, low, rules.transfer_amount(finals)


def _outcomes(fn, req: dict) -> int | None:
    """How many different results one random call could give (None: not counted here)."""
    if fn == "randint" and "a" in req:
        return max(1, req["b"] - req["a"] + 1)
    if fn == "randrange" and "a" in req:
        return max(1, len(range(req["a"], req["b"], req.get("step", 1) or 1)))
    if fn == "choice" and req.get("n"):
        return req["n"]
    if fn in ("choices", "sample") and req.get("n"):
        return req["n"] ** req.get("k", 1)
    if fn == "shuffle" and req.get("n"):
        return math.factorial(min(req["n"], 12))
    return None
