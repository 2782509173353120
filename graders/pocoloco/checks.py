"""The PocoLoco grader: one check per rubric item, reading the scenarios in ``scenarios.py``.

Checks never charge one defect twice where the handout separates them: ``chips`` is judged
against the program's own choice of loser, ``winner-loser`` on rounds whose outcome does not
depend on special rolls or on how 1s and 6s are scored, and ``special-rolls`` on labels and the
ranking of special rolls.
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from graders.engine import static
from graders.engine.readers.boxes import find_boxed
from graders.engine.readers.dice import find_dice

from . import rules
from .play import HUMAN, play
from .reading import Reading
from .scenarios import ALL, GAME_OVER, LONG, ROUND_TEN, STRATEGY, TIES

WORKERS = 2                      # scenario runs in parallel (each is its own process)
TIE_WORDS = re.compile(r"\bti(e|es|ed|ing)\b|tie-?break", re.I)
WIN_WORDS = re.compile(r"\bwin|\bwinner|\bwon\b|champion|victor", re.I)


# ---------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def games(submission, budget, notes, attach) -> dict[str, Reading | None]:
    """Every scenario, played once per submission (two at a time)."""
    def run(scenario):
        if budget.left < 0.5:
            return scenario.name, None
        return scenario.name, play(submission.files, scenario, budget.left)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        played = dict(pool.map(run, ALL))
    readings, endings = {}, {}
    for scenario in ALL:
        game = played[scenario.name]
        if game is None:
            notes(f"Game '{scenario.name}' was not played: the time budget was used up.", True)
            readings[scenario.name] = None
            continue
        readings[scenario.name] = Reading(game)
        ended = game.transcript
        attach(f"transcripts/{scenario.name}.txt",
               f"Game '{scenario.name}': {scenario.purpose}. {scenario.chips} chips each.\n"
               f"«...» is what the grader typed; [dice: ...] are the dice it loaded.\n\n"
               + ended.render(max_lines=100_000) + f"\n\n{ended.ended_how}\n")
        if not game.stopped_early and ended.outcome.get("status") not in ("finished", "exit"):
            problem = ended.crashed or ended.outcome.get("status") == "limit"
            endings.setdefault((ended.ended_how, problem), []).append(scenario)
    for (how, problem), scenarios in endings.items():
        games = ", ".join(f"'{s.name}' ({s.purpose})" for s in scenarios)
        notes(f"{how.rstrip('.')}. This happened in {len(scenarios)} of the grader's "
              f"{len(ALL)} games: {games}.", problem)
    return readings


def _game(games, scenario, result) -> Reading:
    reading = games.get(scenario.name)
    if reading is None or not reading.rounds:
        why = reading.transcript.ended_how if reading else "it was not run"
        evidence = reading.transcript.render(max_lines=60) if reading else None
        result.fail(f"The grader could not play the '{scenario.name}' game with your program "
                    f"({scenario.purpose}). {why}", evidence=evidence)
    return reading


def _need_round(reading: Reading, index: int, result, scenario) -> None:
    if not reading.complete(index):
        tail = reading.transcript.render(max(0, len(reading.text) - 2500), None, max_lines=40)
        result.fail(f"The '{scenario.name}' game did not get through Round {index + 1}, which "
                    f"this item needs. {reading.transcript.ended_how}", evidence=tail)


# ---------------------------------------------------------------------------- set-up, text
@pytest.mark.item("setup")
def check_asks_name_and_chips(games, result):
    reading = _game(games, LONG, result)
    kinds = [d.kind for d in reading.game.decisions]
    if "name" not in kinds:
        result.fail("Your program never asked for the player's name (no question mentioning "
                    "'name').", evidence=reading.excerpt(reading.before(0), 40))
    if "chips" not in kinds:
        result.fail("Your program never asked how many chips everyone starts with.",
                    evidence=reading.excerpt(reading.before(0), 40))
    start = reading.standings_before(0)
    if start and any(value != LONG.chips for value in start.values()):
        result.fail(f"The grader answered {LONG.chips} chips, but Round 1 did not start with "
                    f"{LONG.chips} chips each.", expected=f"everyone: {LONG.chips}",
                    actual=str(start), evidence=reading.excerpt(reading.before(0), 40))
    if HUMAN not in reading.slice(reading.before(0)) + reading.slice((0, len(reading.text))):
        result.fail(f"The name the grader typed ({HUMAN}) never appears in the output.")
    computers = len(reading.names) - 1
    if computers != 3 and reading.complete(0):
        result.partial(0.5, f"The game has {computers} computer players; the handout asks for "
                            f"three ({', '.join(reading.names[1:])} were found).")


@pytest.mark.item("instructions")
def check_title_and_instructions(games, result):
    reading = _game(games, LONG, result)
    intro = reading.slice(reading.before(0))
    words = re.findall(r"[A-Za-z]+", intro)
    topics = {t for t in ("roll", "dice", "chip", "poco", "loco", "lowest", "round", "turn")
              if re.search(t, intro, re.I)}
    result.measure("words before the first roll", len(words))
    opening = "\n".join(intro.strip().split("\n")[:15])
    letters = re.sub(r"[^a-z]", "", opening.lower())
    banner = any(len(re.sub(r"[\w\s]", "", line)) >= 15 for line in opening.split("\n"))
    if not ("poco" in letters or "loco" in letters or "welcome" in letters or banner):
        result.partial(0.5, "No title: 'PocoLoco' does not appear before the game starts.")
    if len(words) < 40 or len(topics) < 3:
        result.fail("Expected instructions on how to play before the first roll (at least a "
                    "few sentences about rolling dice, chips and who wins).",
                    actual=f"{len(words)} words, mentioning {sorted(topics) or 'none'}",
                    evidence=reading.excerpt(reading.before(0), 50))


# ---------------------------------------------------------------------------- tie-break
@pytest.mark.item("tie-break")
def check_tie_break_described(games, result):
    reading = _game(games, LONG, result)
    if not TIE_WORDS.search(reading.slice(reading.before(0))):
        result.fail("The instructions do not say how ties are broken (no mention of a tie).",
                    evidence=reading.excerpt(reading.before(0), 50))


@pytest.mark.item("tie-break")
def check_tie_break_applied(games, result):
    reading = _game(games, TIES, result)
    for index, what in ((0, "two players tie for the lowest roll"),
                        (1, "three players tie for the lowest roll"),
                        (2, "two PoCo!s tie for the highest roll")):
        _need_round(reading, index, result, TIES)
        high, low, amount = reading.expected(index)
        receiver, before, after = reading.receiver(index)
        span = (reading.round(index).start, reading.after(index)[1])
        if before and after and receiver is not None and receiver not in low:
            result.fail(f"Round {index + 1}: {what} ({', '.join(sorted(low))}), but "
                        f"{receiver} received the chips.", evidence=reading.excerpt(span))
        if before and after and receiver is None and after == before:
            result.fail(f"Round {index + 1}: {what}, and nobody received any chips.",
                        evidence=reading.excerpt(span))


# ---------------------------------------------------------------------------- round box
@pytest.mark.item("round-box")
def check_round_box(games, result):
    reading = _game(games, LONG, result)
    boxes = find_boxed(reading.text, r"\bround\s*#?\s*:?\s*1\b")
    boxed = [b for _, b in boxes if b is not None]
    if not boxed:
        lines = [m.string for m, _ in boxes][:3]
        result.fail("No 'Round 1' heading in a box was found.",
                    expected="+---------+\n| Round 1 |\n+---------+",
                    actual="\n".join(lines) or "no line mentions Round 1")
    if not any(b.fits for b in boxed):
        result.fail(f"The Round 1 box does not fit its text: {boxed[0].why}.",
                    expected="+---------+\n| Round 1 |\n+---------+", actual=boxed[0].render())
    ten = games.get(ROUND_TEN.name)
    if ten is None or ten.round(9) is None:
        result.note("Round 10 was not reached, so the box was not checked at two digits.")
        return
    tens = [b for _, b in find_boxed(ten.text, r"\bround\s*#?\s*:?\s*10\b") if b is not None]
    if not tens or not tens[0].fits:
        result.fail("The round box does not fit at Round 10 (two digits).",
                    expected="+----------+\n| Round 10 |\n+----------+",
                    actual=tens[0].render() if tens else "no boxed Round 10 heading")


# ---------------------------------------------------------------------------- standings
@pytest.mark.item("standings")
def check_standings_each_round(games, result):
    reading = _game(games, LONG, result)
    missing = []
    for round_ in reading.rounds[:LONG.rounds]:
        if len(reading.standings_before(round_.index)) < len(reading.names):
            missing.append(round_.index)
    checked = len(reading.rounds[:LONG.rounds])
    result.measure("rounds with every player's chips shown first", checked - len(missing))
    if missing:
        index = missing[0]
        message = (f"Before Round {index + 1} the grader could not find every player's name "
                   f"with a chip count ({', '.join(reading.names)}).")
        fraction = 0.0 if len(missing) == checked else 0.5
        result.partial(fraction, message, evidence=reading.excerpt(reading.before(index), 30))


# ---------------------------------------------------------------------------- rolling
def _limit_breaks(reading: Reading) -> list[str]:
    """Rounds where someone rolled more often than allowed (first: 3; then the one before)."""
    problems = []
    for round_ in reading.rounds:
        if "?" in round_.turns or not reading.complete(round_.index):
            continue
        allowed = 3
        for player in round_.order:
            count = round_.rolls_of(player)
            if count > allowed:
                problems.append(f"Round {round_.index + 1}: {player} rolled {count} times but "
                                f"could roll at most {allowed}")
            allowed = min(allowed, count)
    return problems


@pytest.mark.item("roll-limit")
def check_roll_limit(games, result):
    reading = _game(games, LONG, result)
    _need_round(reading, 0, result, LONG)
    problems = []
    for round_ in reading.rounds[:LONG.rounds]:
        allowed = _human_allowed(round_)
        if allowed is None:
            continue
        if reading.offers(round_.index) > allowed - 1:
            problems.append(f"Round {round_.index + 1}: {HUMAN} could roll at most {allowed} "
                            f"time(s) but was asked {reading.offers(round_.index)} time(s) "
                            f"whether to roll again")
    for name in (STRATEGY.name, LONG.name, TIES.name):
        other = games.get(name)
        if other is not None:
            problems += [p + f" ('{name}' game)" for p in _limit_breaks(other)]
    if reading.complete(1) and reading.offers(1) > 2:
        problems.append(f"Round 2: {HUMAN} went first and was offered a fourth roll")
    if problems:
        span = (reading.before(0)[1], reading.after(1)[0])
        result.fail("Players must roll at most 3 times, and never more often than the player "
                    "before them in the round. " + "; ".join(dict.fromkeys(problems)) + ".",
                    evidence=reading.excerpt(span, 80))


def _human_allowed(round_) -> int | None:
    """How many rolls the human could make in a round (from the rolls before them)."""
    if HUMAN not in round_.order or "?" in round_.turns:
        return None
    before = round_.order[:round_.order.index(HUMAN)]
    return min([3] + [round_.rolls_of(p) for p in before])


@pytest.mark.item("roll-again")
def check_roll_again_offered(games, result):
    reading = _game(games, LONG, result)
    _need_round(reading, 1, result, LONG)
    judged = 0
    for scenario in (LONG, STRATEGY):
        game = games.get(scenario.name)
        for round_ in (game.rounds if game else []):
            allowed = _human_allowed(round_)
            if not allowed or allowed < 2 or not game.complete(round_.index):
                continue
            said_yes = scenario.human_rolls is True or round_.index in scenario.human_rolls
            wanted = allowed - 1 if said_yes else 1
            offers = game.offers(round_.index)
            judged += 1
            if offers < wanted:
                span = (game.before(round_.index)[0], game.after(round_.index)[0])
                rolls = "answered yes each time" if said_yes else "answered no"
                result.fail(f"In Round {round_.index + 1} of the '{scenario.name}' game "
                            f"{HUMAN} could roll up to {allowed} times and {rolls}, so should "
                            f"have been asked {wanted} time(s) whether to roll again; your "
                            f"program asked {offers} time(s).", expected=f"{wanted} question(s)",
                            actual=f"{offers}", evidence=game.excerpt(span))
    result.measure("rounds where the human could roll more than once", judged)
    if not judged:
        result.fail(f"The grader never saw a round where {HUMAN} could roll more than once, "
                    "so the roll-again question could not be checked.")


# ---------------------------------------------------------------------------- scoring
def _round_text(reading: Reading, index: int) -> str:
    round_ = reading.round(index)
    return reading.text[round_.start:reading.after(index)[1]]


def _labels(reading: Reading) -> tuple[list[str], list[str]]:
    """(special rolls whose name is shown, special rolls whose name is missing)."""
    shown, missing = [], []
    words = {"poco": r"po\s*-?\s*co", "loco": r"lo\s*-?\s*co",
             "triple": r"three|triple|trip|kind|3x|x3"}
    for round_ in reading.rounds[:LONG.rounds]:
        for player, turn in round_.turns.items():
            kind = rules.category(turn.final)
            if kind == "points" or not reading.shown(turn, len(turn.rolls) - 1):
                continue
            end = turn.ends[-1]
            text = reading.text[end:reading.after(round_.index)[1]]
            label = f"{' '.join(map(str, turn.final))} ({player}, Round {round_.index + 1})"
            (shown if re.search(words[kind], text, re.I) else missing).append(label)
    return shown, missing


@pytest.mark.item("special-rolls")
def check_special_rolls(games, result):
    reading = _game(games, LONG, result)
    for index in (0, 1, 4, 5, 6):
        _need_round(reading, index, result, LONG)
    shown, missing = _labels(reading)
    result.measure("special rolls named", f"{len(shown)} of {len(shown) + len(missing)}")
    if missing and shown:
        result.fail("Some special rolls were not named as such: " + ", ".join(missing) + ".",
                    expected="PoCo! for 4 5 6 (any order), Loco! for 1 2 3, three-of-a-kind")
    for index, why in ((4, "Loco! beats any points total"),
                       (5, "5 5 5 beats 2 2 2 and 1 1 1"), (6, "PoCo! beats 6 6 6"),
                       (0, "PoCo! beats any points total")):
        if not reading.complete(index):
            continue
        high, low, amount = reading.expected(index)
        named = reading.announced_winner(index)
        span = (reading.round(index).start, reading.after(index)[1])
        if named is not None and named not in high:
            result.fail(f"Round {index + 1}: {why}, so the round's best roll was "
                        f"{' or '.join(sorted(high))}'s, but your program named {named}.",
                        evidence=reading.excerpt(span))
        receiver, before, after = reading.receiver(index)
        if receiver and not missing and not shown:
            paid = before[receiver] - after[receiver]
            if paid and abs(paid) != amount * 3:
                result.fail(f"Round {index + 1}: {why}; the chips moved as if it had not been "
                            "recognised.", evidence=reading.excerpt(span))


def _points_shown(reading: Reading) -> tuple[list[str], list[str]]:
    good, bad = [], []
    for round_ in reading.rounds[:LONG.rounds]:
        after = reading.after(round_.index)
        for player, turn in round_.turns.items():
            if rules.category(turn.final) != "points" or \
                    not reading.shown(turn, len(turn.rolls) - 1):
                continue        # a roll the program never shows is not judged here
            value = rules.points(turn.final)
            text = reading.text[turn.ends[-1]:after[1]]
            label = f"{' '.join(map(str, turn.final))} = {value} ({player})"
            (good if re.search(rf"(?<![\d.]){value}(?![\d.])", text) else bad).append(label)
    return good, bad


@pytest.mark.item("points")
def check_points_totals(games, result):
    reading = _game(games, LONG, result)
    good, bad = _points_shown(reading)
    result.measure("points totals shown correctly", f"{len(good)} of {len(good) + len(bad)}")
    if good and bad:
        fraction = len(good) / (len(good) + len(bad))
        result.fail("Some points totals were wrong or missing (1 = 100, 6 = 60, others face "
                    "value): " + "; ".join(bad[:6]) + ".", fraction=0.0 if fraction < 0.8 else
                    0.5, evidence=reading.excerpt((reading.round(3).start,
                                                   reading.after(3)[1])) if reading.round(3)
                    else None)
    if not good:
        _need_round(reading, 3, result, LONG)
        receiver, before, after = reading.receiver(3)
        high, low, amount = reading.expected(3)
        if receiver is not None and receiver not in low:
            result.fail("Your program does not show points totals, and in Round 4 (1 6 2 = 162 "
                        "beats 6 6 5 = 125; 5 5 4 = 14 is lowest) the wrong player received "
                        "the chips.", evidence=reading.excerpt((reading.round(3).start,
                                                                reading.after(3)[1])))
        if receiver is None and bad:
            result.fail("The grader found no correct points total in your output: "
                        + "; ".join(bad[:6]) + ".")


# ---------------------------------------------------------------------------- round outcome
@pytest.mark.item("winner-loser")
def check_winner_and_loser(games, result):
    reading = _game(games, LONG, result)
    for index in (0, 2, 5):
        _need_round(reading, index, result, LONG)
        high, low, amount = reading.expected(index)
        span = (reading.round(index).start, reading.after(index)[1])
        finals = "; ".join(f"{p} {rules.describe(r)}" for p, r in
                           reading.round(index).finals.items())
        receiver, before, after = reading.receiver(index)
        if receiver is not None and receiver not in low:
            result.fail(f"Round {index + 1}: the lowest roll was {' or '.join(sorted(low))}'s, "
                        f"but {receiver} was treated as the loser. Final rolls: {finals}.",
                        evidence=reading.excerpt(span))
        named = reading.announced_winner(index)
        if index == 2 and named is not None and named not in high:
            result.fail(f"Round {index + 1}: the highest roll was {' or '.join(sorted(high))}'s,"
                        f" but your program named {named} the winner. Final rolls: {finals}.",
                        evidence=reading.excerpt(span))


@pytest.mark.item("chips")
def check_chip_transfers(games, result):
    reading = _game(games, LONG, result)
    shown, missing = _labels(reading)
    unrecognised = {label.split(" (")[0] for label in missing}
    judged = 0
    for round_ in reading.rounds[:LONG.rounds]:
        index = round_.index
        if not reading.complete(index):
            continue
        high, low, amount = reading.expected(index)
        best = max(round_.finals.values(), key=rules.rank)
        if " ".join(map(str, best)) in unrecognised:
            continue     # charged under special-rolls, not here
        receiver, before, after = reading.receiver(index)
        if receiver is None and len(before) == len(after) == len(reading.names) \
                and len(low) == 1:
            receiver = next(iter(low))       # nobody gained: judge against the real loser
        if receiver is None:
            continue
        judged += 1
        allowed = rules.acceptable_chips(before, receiver, amount)
        if after not in allowed:
            kind = rules.CATEGORY_NAMES[rules.category(best)]
            result.fail(f"Round {index + 1}: the best roll was {kind}, so everyone except "
                        f"{receiver} should give {receiver} {amount} chip(s).",
                        expected=str(allowed[0]), actual=str(after),
                        evidence=reading.excerpt((round_.start, reading.after(index)[1])))
    end = games.get(GAME_OVER.name)
    if end is not None and end.rounds and not end.game.stopped_early:
        final = end.standings_at_end()
        if final and final.get(HUMAN) not in (0, None) and not judged:
            result.fail("At the end of the game the chip counts were not what the rounds "
                        "give.", expected=f"{HUMAN}: 0, everyone else 4", actual=str(final))
    result.measure("rounds whose chip transfers were checked", judged)
    if not judged and (end is None or not end.standings_at_end()):
        result.fail("The grader could not find chip counts to check (no standings).")


@pytest.mark.item("game-over")
def check_game_over(games, result):
    reading = _game(games, GAME_OVER, result)
    last = reading.rounds[-1]
    tail_span = reading.after(last.index)
    tail = reading.slice(tail_span)
    if reading.game.transcript.crashed or reading.game.stopped_early:
        result.fail(f"The game did not end properly. {reading.transcript.ended_how}",
                    evidence=reading.excerpt(tail_span))
    final = reading.standings_at_end()
    if len(final) < len(reading.names):
        result.fail("The final chip counts of all players were not printed at the end.",
                    evidence=reading.excerpt(tail_span))
    # The winner is whoever the program's own final counts show at the bottom (0 chips, or
    # below zero where debts are allowed): this item is about announcing, not arithmetic.
    fewest = min(final.values())
    winners = [name for name, chips in final.items() if chips == fewest]
    lines = [line for line in tail.split("\n") if WIN_WORDS.search(line)
             and any(name in line for name in winners)]
    if not lines:
        result.fail(f"The game ended with {' and '.join(winners)} on {fewest} chips, but the "
                    f"grader found no line naming the winner.",
                    evidence=reading.excerpt(tail_span))


# ---------------------------------------------------------------------------- strategy
@pytest.mark.item("strategy")
def check_computer_strategy(games, result):
    reading = _game(games, STRATEGY, result)
    long_game = games.get(LONG.name)
    recognises_specials = long_game is None or not _labels(long_game)[1]
    _need_round(reading, 0, result, STRATEGY)
    zero = reading.round(0)
    holder = zero.player_at(1)
    if holder and zero.rolls_of(holder) > 1:
        result.fail(f"{holder} rolled 6 6 6 (only a PoCo! beats it) but rolled again.",
                    evidence=reading.excerpt((zero.start, reading.after(0)[0])))
    _need_round(reading, 1, result, STRATEGY)
    one = reading.round(1)
    span = (one.start, reading.after(1)[0])
    for pos in (1, 2):
        player = one.player_at(pos)
        allowed = min([3] + [one.rolls_of(p) for p in one.order[:pos]])
        if player and allowed > 1 and one.rolls_of(player) == 1:
            result.fail(f"{player} rolled 2 2 3 (the worst roll possible, the lowest so far) "
                        f"with rolls left, and stopped.", evidence=reading.excerpt(span))
    last = one.player_at(3)
    allowed = min([3] + [one.rolls_of(p) for p in one.order[:3]])
    if not recognises_specials:
        result.note("Your program does not recognise every special roll (see special-rolls), "
                    "so the grader did not judge decisions that depend on them.")
    elif last and allowed > 1 and one.rolls_of(last) == 1:
        result.fail(f"{last} went last with 1 1 6 (260 points), below everyone else's "
                    "three-of-a-kind, and stopped with rolls left: a strategy that looks at the "
                    "scores already rolled would roll again.", evidence=reading.excerpt(span))


# ---------------------------------------------------------------------------- big dice
@pytest.mark.item("big-dice")
def check_big_dice(games, result):
    reading = _game(games, LONG, result)
    found, stacked, irregular, total = 0, 0, 0, 0
    example = None
    for round_ in reading.rounds[:3]:
        for player, turn in round_.turns.items():
            for number, end in enumerate(turn.ends):
                total += 1
                text = reading.text[end:end + 3000]
                art = find_dice(text, turn.rolls[number])
                if art is None:
                    example = example or (turn.rolls[number], end)
                    continue
                found += 1
                stacked += not art.side_by_side
                irregular += not art.regular
    result.measure("rolls drawn as big dice", f"{found} of {total}")
    if found == 0:
        faces, end = example
        result.fail(f"No big dice were found for the rolls (e.g. {faces}).",
                    expected=" -----   -----   -----\n| o   | | o o | | o o |\n|     | | o o | "
                             "|     |\n|   o | | o o | | o o |\n -----   -----   -----",
                    evidence=reading.transcript.render(end, end + 600, max_lines=15))
    if stacked:
        result.fail("The dice are drawn one above the other; they should be side by side.",
                    fraction=0.5)
    if irregular:
        result.partial(0.5, "Some dice do not show the regular pip pattern.")
    if found < total * 0.8:
        result.partial(0.5, f"Only {found} of {total} rolls were drawn as big dice.")


# ---------------------------------------------------------------------------- review items
@pytest.mark.item("ui")
def check_interface(games, submission, result):
    reading = _game(games, LONG, result)
    score = 3.0
    roll_prompts = [d for d in reading.game.decisions if d.kind == "roll"]
    unclear = [d.wording for d in roll_prompts if not re.search(r"[(\[]|\bor\b|/", d.wording)]
    long_lines = [line for line in reading.text.split("\n") if len(line) > 100]
    rejected = sum(1 for d in reading.game.decisions if d.kind == "other")
    texts = " | ".join(static.calls_to_print_and_input(submission.main))
    doubled = re.findall(r"\b([A-Za-z]{2,}) \1\b", texts)
    result.measure("roll-again questions without the possible answers", len(unclear))
    result.measure("output lines over 100 characters", len(long_lines))
    result.measure("questions the grader could not classify", rejected)
    result.measure("doubled words in printed text", doubled[:5])
    if unclear:
        score -= 1
        result.add_detail(f"A question does not show the possible answers: {unclear[0]!r}.")
    if long_lines:
        score -= 1
        result.add_detail("Some output lines are wider than 100 characters.")
    if doubled:
        score -= 0.5
        result.add_detail(f"Doubled words in printed text: {', '.join(doubled[:3])}.")
    if any(g is not None and g.transcript.crashed for g in games.values()):
        score -= 1
        result.add_detail("The program crashed in at least one game (see 'How the runs went').")
    result.fraction = max(0.0, score) / 3
    result.note("Measured automatically; a TA confirms the look and wording of the interface.")


@pytest.mark.item("functions")
def check_functions(games, submission, result):
    facts = static.facts(submission.main)
    if facts.parse_error:
        result.fail(f"The file does not parse: {facts.parse_error}.")
    own = [f for f in facts.functions if f != "main" and not f.startswith("__")]
    vague = [f for f in own if len(f) < 4 or re.fullmatch(r"(func|function|f|do|stuff)\d*", f)]
    human = [f for f in own if re.search(r"human|player|user|my|your", f, re.I) and
             re.search(r"turn|play|roll|go", f, re.I)]
    computer = [f for f in own if re.search(r"comp|cpu|ai\b|bot|npc|opponent|auto", f, re.I)]
    result.measure("functions besides main", len(own))
    result.measure("human-turn functions", human)
    result.measure("computer-turn functions", computer)
    score = 3.0
    if len(own) < 3:
        score -= 2
        result.add_detail(f"Expected at least three functions besides main(); found "
                          f"{len(own)}: {', '.join(own) or 'none'}.")
    if vague:
        score -= 0.5
        result.add_detail(f"Names that do not say what the function does: {', '.join(vague)}.")
    if not human or not computer:
        score -= 1
        result.add_detail("Expected one function for the human's turn and a different one for "
                          "the computer's turn (e.g. human_turn and computer_turn).")
    result.fraction = max(0.0, score) / 3
    result.note("Measured automatically; a TA confirms the functions are sensible.")


@pytest.mark.item("readability")
def check_readability(submission, result):
    report = static.style(submission.main)
    facts = static.facts(submission.main)
    short = [n for n in set(facts.names) if len(n) == 1 and n not in "ijkxyn_"]
    layout = sum(v for k, v in report.issues.items() if k[0] in "EW" and k != "E501")
    result.measure("lines over 100 characters", len(report.long_lines))
    result.measure("comment lines", facts.comment_lines)
    result.measure("docstrings", facts.docstrings)
    result.measure("one-letter variable names", sorted(short))
    result.measure("other pycodestyle layout warnings", layout)
    score = 3.0
    if report.long_lines:
        score -= 1
        shown = ", ".join(f"line {n} ({w} characters)" for n, w in report.long_lines[:5])
        result.add_detail(f"Lines longer than 100 characters: {shown}.")
    if facts.comment_lines + facts.docstrings < max(3, facts.code_lines // 40):
        score -= 1
        result.add_detail(f"Few comments: {facts.comment_lines} comment lines and "
                          f"{facts.docstrings} docstrings for {facts.code_lines} lines of code.")
    if len(short) > 3:
        score -= 0.5
        result.add_detail(f"Variable names that do not describe their value: {sorted(short)}.")
    if layout > max(10, facts.code_lines // 10):
        score -= 0.5
        result.add_detail("Inconsistent spacing (pycodestyle): " + "; ".join(report.examples[:3]))
    result.fraction = max(0.0, score) / 3
    result.note("Measured automatically; a TA confirms the code reads well.")
