"""Helpers the PocoLoco checks share: getting a usable game, and the judgements one item's
check consults before charging a defect that belongs to another item (never charge twice)."""
from __future__ import annotations

import re

from graders.engine.drive.readers.numbers import in_digits
from graders.engine.drive.readers.standings import numbers_by_name

from . import rules
from .reading import Reading
from .scenarios import LONG

# a tie in other words too: "end up level at the top", "equal rolls", "the same points"
TIE_WORDS = re.compile(r"\bti(e|es|ed|ing)\b|tie-?break|same (score|roll|points|value)|draw\b|"
                       r"\blevel (at|on|with)\b|\bequal (rolls?|scores?|points|values?)\b|"
                       r"dead heat", re.I)
WIN_WORDS = re.compile(r"\bwin|\bwinner|\bwon\b|champion|victor", re.I)
ROUND_ONE = re.compile(r"\bround[ \t]*#?[ \t]*:?[ \t]*(1|one)\b", re.I)   # on one line
# a heading line: only decoration before the word ("| Round 1 |", "=== ROUND 1 ==="), unlike
# "... depends on the best roll of the round: 1 for points" in the instructions
ROUND_ONE_HEADING = re.compile(r"^[^A-Za-z\n]*round[ \t]*#?[ \t]*:?[ \t]*(1|one)\b",
                               re.I | re.M)
SPECIAL_WORDS = {"poco": r"po\s*-?\s*co", "loco": r"lo\s*-?\s*co",
                 "triple": r"three|triple|trip|kind|3x|x3|\ball (ones|twos|threes|fours|"
                           r"fives|sixes|[1-6]'?s)\b"}


def game(games, scenario, result) -> Reading:
    """The scenario's reading, or fail the check saying (briefly: the run itself is described
    once, under 'How the runs went') why the game could not be played."""
    reading = games.get(scenario.name)
    if reading is None or not reading.rounds:
        if reading is None:
            result.not_judged(f"The grader did not play the '{scenario.name}' game "
                              f"({scenario.purpose}): its time budget was used up.")
        why = reading.transcript.ended_how
        if not program_stopped(reading):
            result.not_judged(f"The grader could not follow the '{scenario.name}' game "
                              f"({scenario.purpose}). {why}")
        result.fail(f"Not reached: the '{scenario.name}' game ({scenario.purpose}) stopped "
                    "before its first round (see 'How the runs went' above).")
    return reading


def played(games, scenario, result) -> Reading:
    """The scenario's reading even when no round was played (set-up and instructions are
    judged on what came before a hang or a crash). A game the grader itself could not get
    into (it found no answer the program took to its first questions) judges nothing."""
    reading = games.get(scenario.name)
    if reading is None or not reading.text.strip():
        why = reading.transcript.ended_how if reading else "it was not run"
        result.fail(f"The grader could not play the '{scenario.name}' game with your program "
                    f"({scenario.purpose}). {why}")
    if reading.transcript.crashed and not reading.transcript.prompts:
        result.fail(f"Not reached: the program stopped before asking anything in the "
                    f"'{scenario.name}' game (see 'How the runs went' above).")
    if reading.transcript.gave_up and not reading.transcript.draws:
        result.not_judged(f"The grader could not get into the '{scenario.name}' game: "
                          f"{reading.transcript.gave_up}.")
    return reading


def shares_a_name(clash: Reading) -> bool:
    """In the game where the human typed a computer's name: did two players keep it? Seen in
    the player list the program shuffled, or in two standings lines before the first roll."""
    typed = clash.game.scenario.typed_name
    if any(names.count(typed) > 1 for names in clash.game.policy.populations):
        return True
    # two standings lines for the name within a few lines of each other: one block
    lines = clash.slice(clash.before(0)).split("\n")
    # "Computer 1 (2) has 10 chips", "Otto #2": the typed name renamed, another player
    renamed = re.compile(re.escape(typed) + r"\s*(\(\d+\)|\[\d+\]|#\d+|\(\w+\))")
    hits = [i for i, line in enumerate(lines) if not renamed.search(line)
            and typed in numbers_by_name(line, clash.names)]
    return any(b - a <= 4 for a, b in zip(hits, hits[1:]))


def doubled_words(text: str) -> list[str]:
    """Words printed twice in a row ("the the"): a slip, except where English doubles one:
    a noun and then the handout's verb ("tied for the lowest roll roll off"), "that that",
    "had had"."""
    return [match.group(1) for match in
            re.finditer(r"\b([A-Za-z]{2,}) \1\b(?! (?:off|out|up|over|again)\b)", text)
            if match.group(1).lower() not in ("that", "had")]


def program_stopped(reading: Reading) -> bool:
    """The program itself ended the run early: a crash, a hang or another limit it hit (not
    a safety net of the grader's, not the grader having seen enough)."""
    outcome = reading.transcript.outcome
    return reading.transcript.crashed or (
        outcome.get("status") == "limit" and not outcome.get("grader_problem")
        and outcome.get("limit") != "enough" and not reading.game.stopped_early)


def sentences_of(text: str) -> list[str]:
    """Sentences of printed instructions: a sentence may wrap over several lines; a blank
    line, a bullet or a line ending a sentence ends it."""
    parts = re.split(r"(?<=[.!?])\s+|\n\s*\n|\n\s*(?:[-*•]|\d+[.)])\s", text)
    return [" ".join(part.split()) for part in parts if part.strip()]


def tie_rule_sides(intro_text: str) -> set[str]:
    """Which ties the instructions' tie rule covers: {"low"}, {"high"}, both, or empty when it
    does not say (a rule for "ties" in general covers both)."""
    sides: set[str] = set()
    for sentence in sentences_of(intro_text):
        if not TIE_WORDS.search(sentence):
            continue
        # "higher"/"lower" compare (a rule that orders every tie); "highest"/"lowest" name a side
        low = re.search(r"\blowest|\blow roll|worst|\blos(e|er|ing)\b|bottom|last place|"
                        r"smallest", sentence, re.I)
        high = re.search(r"\bhighest|\bhigh roll|\bbest\b|\bwin(ner|ning)?\b|\btop\b|"
                         r"first place|biggest", sentence, re.I)
        if low and not high:
            sides.add("low")
        elif high and not low:
            sides.add("high")
        elif low or re.search(r"\b(ties?|tie-?break(er)?s?)\b|same (score|roll)", sentence,
                              re.I) and \
                re.search(r"broken|decided|resolved|settled|chosen|picked|random|roll[- ]?off|"
                          r"re-?roll|goes to|go to|wins?\b|counts? as|higher|lower|ahead|"
                          r"earlier|first", sentence, re.I):
            sides |= {"low", "high"}     # a rule for ties in general covers both
    return sides


# an order rule for a tie for the lowest roll: the tied player who came first (or last) in
# the round's order is the loser
ORDER_WAYS = {"first": re.compile(r"\b(first|earliest|earlier)\b", re.I),
              "last": re.compile(r"\b(last|latest|later)\b", re.I)}
ORDER_CONTEXT = re.compile(r"\border\b|\bturn|\brolled\b|\bwent\b|\bplayed\b|\bcame\b", re.I)
LOW_TIE = re.compile(r"\blowest|\bworst|\blow roll|\bbottom", re.I)
PICKED = re.compile(r"\bchosen\b|\bpicked\b|\bselected\b|\blos(e|es|er)\b|\blost\s+by\b", re.I)
# words that make a clause a preference ("counts as better": the other one loses), turn it
# around ("is safe") or speak of winning: such a clause is not read
TURNED = re.compile(r"better|advantage|ahead|\bwins?\b|winner|safe|escape|avoid|spared|"
                    r"surviv|\bnot\b|n't\b|\bcounts?\b", re.I)


def tie_order_rule(intro_text: str) -> str | None:
    """'first' or 'last' when the instructions plainly say which of the players tied for the
    lowest roll is the loser by the round's order, else None.

    Interpretation: only a plain statement counts: "for the lowest roll the tied player who
    rolled last is the loser", "when players tie for the highest or the lowest roll, the one
    who went first in that round's order is chosen". Rules worded as a preference ("the one
    who rolled first counts as better"), both ways, random or roll-off rules, and rules for
    the highest roll alone are not read here (random ones are judged by their draws)."""
    ways = set()
    for sentence in sentences_of(intro_text):
        if not TIE_WORDS.search(sentence):
            continue
        for clause in re.split(r";|,\s*(?:and|but|while|whereas)\b|\(", sentence):
            named = {way for way, words in ORDER_WAYS.items() if words.search(clause)}
            if len(named) == 1 and ORDER_CONTEXT.search(clause) and LOW_TIE.search(clause) \
                    and PICKED.search(clause) and not TURNED.search(clause):
                ways |= named
    return ways.pop() if len(ways) == 1 else None


def have_round(reading: Reading, index: int, result, scenario) -> bool:
    """True when the round was played; False when the game had properly ended before it
    (someone out of chips: nothing to hold against the program) or when the grader could not
    follow the round although the game went on (said in a note, never charged); else the
    check fails: the program stopped before the round."""
    if reading.complete(index):
        return True
    unsure = reading.unsure(index)
    if unsure:
        result.note(f"Round {index + 1} of the '{scenario.name}' game was not judged: {unsure}.")
        return False
    # "ended before Round N" only where the transcript shows no Round N at all
    if reading.ended_by_the_rules() and reading.round(index) is None and \
            reading._later(index) is None:
        if not reading.game.policy.chips_asked:
            # no evidence, no marks: the game did not start with the chips its plan needs
            result.not_judged(f"The '{scenario.name}' game ended (a player ran out of chips) "
                              f"before Round {index + 1}, which this item needs. The grader "
                              "did not find the question about the starting chips, so the "
                              f"game did not start with its {scenario.chips} chips each.")
        result.note(f"The '{scenario.name}' game ended (a player ran out of chips) before "
                    f"Round {index + 1}, so that round was not judged.")
        return False
    if reading.ended_by_the_rules() and reading._later(index) is None:
        result.note(f"The '{scenario.name}' game ended (a player ran out of chips) during "
                    f"Round {index + 1}, so that round was not judged.")
        return False
    tail = reading.transcript.render(max(0, len(reading.text) - 2500), None, max_lines=40)
    result.fail(f"The '{scenario.name}' game did not get through Round {index + 1}, which "
                f"this item needs. {reading.transcript.ended_how}", evidence=tail)
    return False


def intro(reading: Reading) -> tuple[int, int]:
    """The text before the first round: up to a 'Round 1' heading, or the first roll."""
    start, end = reading.before(0)
    heading = ROUND_ONE_HEADING.search(reading.text, start, end) or \
        ROUND_ONE.search(reading.text, start, end)
    return start, heading.start() if heading else end


def span_of(reading: Reading, index: int) -> tuple[int, int]:
    """From a round's first roll to the start of the next round."""
    return reading.round(index).start, reading.after(index)[1]


def labels(reading: Reading) -> tuple[list[str], list[str]]:
    """(special rolls the program named as such, special rolls it did not), shown rolls only."""
    shown, missing = reading._remember(("labels",), lambda: _labels(reading))
    return list(shown), list(missing)


def _labels(reading: Reading) -> tuple[list[str], list[str]]:
    shown, missing = [], []
    for round_ in reading.rounds[:LONG.rounds]:
        for player, turn in round_.turns.items():
            kind = rules.category(turn.final)
            if kind == "points" or not reading.shown(turn, len(turn.rolls) - 1):
                continue
            text = reading.text[turn.ends[-1]:reading.round_end(round_.index)]
            label = f"{' '.join(map(str, turn.final))} ({player}, Round {round_.index + 1})"
            (shown if re.search(SPECIAL_WORDS[kind], text, re.I) else missing).append(label)
    return shown, missing


def plain_losers_right(games) -> bool | None:
    """Does the program give the chips to the lowest roll in rounds without special rolls or
    ties? None when it cannot be told (no standings). Used so that a wrong loser is charged
    to winner-loser only, not again to tie-break or special-rolls."""
    reading = games.get(LONG.name)
    if reading is None:
        return None
    return reading._remember(("plain losers right",), lambda: _plain_losers_right(reading))


def _plain_losers_right(reading: Reading) -> bool | None:
    verdicts = []
    for index in (0, 2, 5):
        if not reading.complete(index):
            continue
        _, low, _ = reading.expected(index)
        receiver, _, _ = reading.receiver(index)
        if receiver is not None:
            verdicts.append(receiver in low)
    return all(verdicts) if verdicts else None


def winner_category(reading: Reading, index: int) -> str:
    """The category of the winning roll as the program sees it: the roll of the player it
    named the round's winner, else (no announcement) the best roll by the rules."""
    round_ = reading.round(index)
    named = reading.announced_winner(index)
    if named in round_.finals:
        return rules.category(round_.finals[named])
    return rules.category(max(round_.finals.values(), key=rules.rank))


def points_shown(reading: Reading) -> tuple[list[str], list[str]]:
    """(points rolls whose correct total was printed, those whose total was not)."""
    good, bad = [], []
    for round_ in reading.rounds[:LONG.rounds]:
        after = (0, reading.round_end(round_.index))
        for player, turn in round_.turns.items():
            if rules.category(turn.final) != "points" or \
                    not reading.shown(turn, len(turn.rolls) - 1):
                continue        # a roll the program never shows is not judged here
            value = rules.points(turn.final)
            # "That is one hundred sixty-four points" says 164 too
            text = in_digits(reading.text[turn.ends[-1]:after[1]])
            label = f"{' '.join(map(str, turn.final))} = {value} ({player})"
            (good if re.search(rf"(?<![\d.]){value}(?![\d.])", text) else bad).append(label)
    return good, bad


def human_allowed(round_, human: str) -> int | None:
    """How many rolls the human could make in a round (from the rolls before them)."""
    if human not in round_.order or "?" in round_.turns:
        return None
    before = round_.order[:round_.order.index(human)]
    return min([3] + [round_.rolls_of(p) for p in before])


def limit_breaks(reading: Reading, skip: str | None = None) -> list[str]:
    """Rounds where someone (but ``skip``) rolled more often than allowed (first: 3; then the
    one before)."""
    problems = []
    for round_ in reading.rounds:
        if "?" in round_.turns or not reading.complete(round_.index):
            continue
        allowed = 3
        for player in round_.order:
            count = round_.rolls_of(player)
            if count > allowed and player != skip:
                problems.append(f"Round {round_.index + 1}: {player} rolled {count} times but "
                                f"could roll at most {allowed}")
            allowed = min(allowed, count)
    return problems
