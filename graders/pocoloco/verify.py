"""A round's reading, checked against everything the transcript shows of it.

The grader knows every die it loaded and every answer it typed; the policy cut the dice into
turns while the game ran (``policy.py``). Before any check may judge a round, the reading of
that round (who rolled which dice, how often) must agree with the program's own words:

* a line that names one player and shows three dice ("Otto rolled 2 3 5", a summary table's
  "Otto   kept 2 3 5") shows a roll that player made, drawn before the line was printed;
* a line that names one player and says how often they rolled ("Otto rolled 2 times") says
  how many rolls that player made;
* every roll question the grader answered falls in the human's turn (after one of the
  human's rolls, or just before the human's first roll); after a "no" the human rolls no more,
  and every extra roll of the human follows a "yes".

When the reading disagrees, the other readings of the same dice are tried: every way to cut
the round's rolls, in the order they were drawn, into one turn per player (1 to 4 rolls each)
and to seat the players. A reading that explains everything is kept when it is the only one
closest to what the policy saw; otherwise the round is left to a TA with the contradiction
named (``Round.contradiction``), never charged to the student.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass


# dice as digits on one line: "2 3 5", "[2, 3, 5]", "2-3-5", "2 | 3 | 5"; a run of them is
# cut into threes ("2 3 5 -> 1 5 6"), or its last three are the dice after a counter ("roll
# 1: 2 3 4", "roll 1/3: 2 3 4")
DIGITS = re.compile(r"(?<![\w.])[1-6](?:[^\w\n]{1,4}[1-6])+(?![\w.]|\.\d)")
# a roll-off or tie-break line shows dice outside the players' turns
TIE_LINE = re.compile(r"\bti(e|es|ed)\b|roll[- ]?off|tie-?break", re.I)
# lines that name a player beside someone else's dice ("Otto needs to beat 2 3 5")
OTHERS_DICE = re.compile(r"\bbeat|\bthan\b|\btarget|\baim|\bto (match|top)\b|\bvs\.?\b|"
                         r"\bversus\b|\bso far\b|\bneeds?\b|\bhas to\b", re.I)
NUMBER_WORDS = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4}
# "rolled 2 times", "rolled twice", "after 3 rolls", "(2 rolls)", "used 2 rolls"; not a
# limit ("may roll 2 times", "2 rolls left") nor a counter ("roll 2 of 3")
ROLL_COUNT = re.compile(
    r"(?<!may )(?<!can )(?<!to )(?<!of )(?<!most )(?<!up )"
    r"\b(?:rolled\s+(?:(once|twice|thrice)|(\d|one|two|three|four)\s*(?:times?|time\(s\)))"
    r"|(?:in|after|with|used|took)\s+(\d|one|two|three|four)\s+rolls?"
    r"|\((\d)\s+rolls?\))(?!\s*(?:left|remaining|allowed|max|more|of\b))(?![\w(])", re.I)
MAX_ROLLS = 4          # a turn is cut into at most this many rolls when re-reading a round


@dataclass(frozen=True)
class Claim:
    """What one printed line says about one player: dice they rolled, or how often."""

    player: str
    dice: tuple[int, ...] | None
    count: int | None
    line: str
    pos: int


def claims_in(text: str, start: int, end: int, names: list[str], word) -> list[Claim]:
    """Claims of the lines printed between ``start`` and ``end`` that name exactly one
    player (``word(name)`` finds a name as a word of its own)."""
    found = []
    roll_off = False
    region = text[start:end]
    for line, pos in _lines_naming(region, names, word):
        pos += start
        # a tie announced after some dice were shown: what follows is a roll-off ("Tie
        # between Ben and Lou! ... Ben rolled 5-5-4"), not the players' turns
        roll_off = roll_off or bool(TIE_LINE.search(line) and any(c.dice for c in found))
        named = [n for n in names if word(n).search(line)]
        if len(named) != 1:
            continue
        if not OTHERS_DICE.search(line) and not TIE_LINE.search(line) and not roll_off:
            for dice in triples(line):
                # the line's end: a line redrawn with carriage returns (a rolling
                # animation) shows its last dice last
                found.append(Claim(named[0], dice, None, line.strip(), pos - 1))
        count = ROLL_COUNT.search(line)
        if count:
            said = next(g for g in count.groups() if g)
            number = int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]
            found.append(Claim(named[0], None, number, line.strip(), pos - 1))
    return found


def _lines_naming(region: str, names: list[str], word):
    """(line, offset after its end) of the lines of ``region`` that name a player or a tie,
    in order: the only lines that can make a claim or start a roll-off (a screen flooded
    with other lines is read in one search per name)."""
    starts = {region.rfind("\n", 0, hit.start()) + 1
              for pattern in [word(name) for name in names] + [TIE_LINE]
              for hit in pattern.finditer(region)}
    for begin in sorted(starts):
        stop = region.find("\n", begin)
        stop = len(region) if stop < 0 else stop
        yield region[begin:stop], stop + 1


def triples(line: str) -> list[tuple[int, ...]]:
    """The rolls of three dice a line shows as digits, each sorted."""
    found = []
    for run in DIGITS.finditer(line):
        faces = [int(d) for d in re.findall(r"[1-6]", run.group())]
        if len(faces) < 3:
            continue
        cut = [faces[i:i + 3] for i in range(0, len(faces), 3)] if len(faces) % 3 == 0 \
            else [faces[-3:]]
        found += [tuple(sorted(roll)) for roll in cut]
    return found


@dataclass(frozen=True)
class Question:
    """A roll-again question the grader answered: where, and what the answer meant."""

    pos: int
    yes: bool


def roll_questions(reading) -> list[Question]:
    """The roll questions of a game, placed in the text by the grader's typed answers (one
    answer per decision, in order); empty when they cannot be paired."""
    answers = [m.pos for m in reading.transcript.marks if m.kind == "answer"]
    decisions = reading.game.decisions
    if len(answers) != len(decisions):
        return []
    return [Question(pos, d.intent == "yes") for pos, d in zip(answers, decisions)
            if d.kind == "roll"]


# each roll as (the place of its last die among the game's draws, the text offset after that
# draw, its faces); rolls drawn with nothing printed between them share an offset, so the
# place orders them
Rolls = list[tuple[int, int, tuple[int, ...]]]


def in_threes(drawn: list[tuple[int, int, list[int]]]) -> Rolls:
    """A round's dice as the program drew them, cut into rolls of three (every die the policy
    placed in the round, roll-offs and all); empty when they do not make whole rolls."""
    faces = [(place, pos, face) for place, pos, fs in drawn for face in fs]
    if not faces or len(faces) % 3:
        return []
    return [(faces[i + 2][0], faces[i + 2][1], tuple(f for _, _, f in faces[i:i + 3]))
            for i in range(0, len(faces), 3)]


def placed(questions: list[Question], draws: list[tuple[int, int]]) -> list[tuple]:
    """Each question with the places of the dice drawn just before and just after it
    (``draws``: (place, text offset) of every die drawn in the game)."""
    found = []
    for question in questions:
        previous = next((place for place, pos in reversed(draws) if pos < question.pos), None)
        following = next((place for place, pos in draws if pos > question.pos), None)
        found.append((question, previous, following))
    return found


def problems(seats: dict[str, Rolls], human: str, claims: list[Claim],
             questions: list[tuple]) -> list[str]:
    """What the transcript shows that this reading of one round contradicts (empty: none).

    ``seats``: each player's rolls in this reading; ``questions``: see ``placed``."""
    found = []
    rolls = sorted((seq, player) for player, rs in seats.items() for seq, _, _ in rs)
    drawn_here = {tuple(sorted(r)) for rs in seats.values() for _, _, r in rs}
    for claim in claims:
        mine = seats.get(claim.player, [])
        if claim.count is not None:
            if len(mine) != claim.count:
                found.append(f"the line \"{claim.line}\" says {claim.player} rolled "
                             f"{claim.count} time(s); the reading has {len(mine)}")
            continue
        if claim.dice not in drawn_here:
            continue          # dice drawn nowhere in this round: not a roll to place
        if not any(tuple(sorted(r)) == claim.dice and end <= claim.pos for _, end, r in mine):
            found.append(f"the line \"{claim.line}\" shows {' '.join(map(str, claim.dice))} "
                         f"for {claim.player}; the reading gives {claim.player} "
                         + (", ".join(" ".join(map(str, r)) for _, _, r in mine) or "no roll"))

    def owner(place: int | None) -> str | None:
        """The player whose roll holds the die drawn at ``place`` (None: another round's)."""
        if place is None or not rolls or place > rolls[-1][0] or place < first:
            return None
        return next(player for seq, player in rolls if seq >= place)

    first = min((seq - 2 for seq, _ in rolls), default=0)   # a roll's dice before its last
    mine = [end for _, end, _ in seats.get(human, [])]
    for question, previous, following in questions:
        before, after = owner(previous), owner(following)
        if human not in (before, after) and None in (before, after):
            continue              # a question at the round's edge: another round's
        if human not in (before, after):
            found.append(f"the grader answered a roll question during {before or after}'s "
                         "turn")
    if questions:
        # between two rolls of the human, the last answer to a roll question said yes
        for earlier, later in zip(mine, mine[1:]):
            between = [q for q, _, _ in questions if earlier < q.pos < later]
            if not between:
                found.append(f"{human} rolled again without being asked")
                break
            if not between[-1].yes:
                found.append(f"{human} rolled again after the grader answered no")
                break
    return found


def cuts(count: int, parts: int):
    """Every way to cut ``count`` rolls into ``parts`` turns of 1 to MAX_ROLLS rolls."""
    if parts == 0:
        if count == 0:
            yield ()
        return
    for first in range(1, min(MAX_ROLLS, count - parts + 1) + 1):
        for rest in cuts(count - first, parts - 1):
            yield (first,) + rest


def rereadings(rolls: Rolls, players: list[str], original: dict[int, str], check):
    """Readings of the round's rolls that ``check`` finds no fault with, best first: those
    that keep most rolls with the player the policy gave them. Each is {player: rolls}."""
    found = []
    for sizes in cuts(len(rolls), len(players)):
        groups, at = [], 0
        for size in sizes:
            groups.append(rolls[at:at + size])
            at += size
        for seating in itertools.permutations(players):
            seats = dict(zip(seating, groups))
            if check(seats):
                continue
            kept = sum(1 for player, group in seats.items() for seq, _, _ in group
                       if original.get(seq) == player)
            found.append((kept, seats))
    found.sort(key=lambda pair: -pair[0])
    return found


def outcome_of(seats: dict[str, Rolls]) -> tuple:
    """What the checks judge of a reading: each player's roll count and final roll."""
    return tuple(sorted((p, len(r), tuple(r[-1][2])) for p, r in seats.items() if r))


def verify_round(round_, human: str, players: list[str], claims: list[Claim],
                 questions: list[Question], draws: list[tuple[int, int]], raw: Rolls):
    """(consistent, contradiction, re-read seats or None) for one round's reading.

    The other readings tried are cuts of the rolls the policy read, then (when none fits)
    cuts of every die the round drew, in threes (``raw``): a policy that lost track of the
    turns may have merged two players' rolls or set some dice aside as a roll-off."""
    seats = {p: list(zip(t.seqs, t.ends, map(tuple, t.rolls))) for p, t in round_.turns.items()}
    questions = placed(questions, draws)
    found = problems(seats, human, claims, questions)
    if not found and "?" not in seats:
        return True, None, None
    why = found[0] if found else "some dice could be any of several players'"
    if len(players) > 5:
        return False, why, None
    original = {seq: p for p, rs in seats.items() for seq, _, _ in rs}
    read = sorted(r for rs in seats.values() for r in rs)
    for rolls in (read, raw):
        if not rolls or len(rolls) > 12 or (rolls is raw and raw == read):
            continue
        options = rereadings(rolls, players, original,
                             lambda s: problems(s, human, claims, questions))
        if not options:
            continue
        best = [seats for kept, seats in options if kept == options[0][0]]
        if len({outcome_of(s) for s in best}) > 1:
            return False, f"{why}, and more than one other reading explains the round", None
        return True, None, best[0]
    return False, why, None
