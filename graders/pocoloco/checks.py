"""The PocoLoco grader's game items: one check per rubric item, reading the scenarios of
``scenarios.py`` (played once per submission by the ``games`` fixture in ``conftest.py``).

A defect is charged to one item only, as the handout separates them:
* ``winner-loser`` is judged on rounds whose outcome depends neither on special rolls nor on
  how 1s and 6s score; ``tie-break`` and ``special-rolls`` do not charge a wrong loser again;
* ``chips`` is judged against the program's own loser and its own winner's category;
* ``roll-limit`` counts rolls actually made; ``roll-again`` counts the questions asked.
"""
from __future__ import annotations

import re

import pytest

from graders.engine.drive.readers.boxes import find_boxed
from graders.engine.drive.readers.dice import find_dice, learn_pictures

from . import rules
from .judging import (ROUND_ONE, TIE_WORDS, WIN_WORDS, game, have_round, human_allowed, intro,
                      labels, limit_breaks, plain_losers_right, played, points_shown,
                      program_stopped, sentences_of, shares_a_name, span_of,
                      tie_order_rule, tie_rule_sides, winner_category)
from .scenarios import GAME_OVER, LONG, ROUND_TEN, STRATEGY, TIES


# ---------------------------------------------------------------------------- set-up, text
@pytest.mark.item("setup")
def check_asks_name_and_chips(games, result):
    reading = played(games, LONG, result)
    kinds = [d.kind for d in reading.game.decisions]
    opening = reading.excerpt(reading.before(0), 40)
    if "name" not in kinds:
        result.fail("Your program never asked for the player's name (no question like "
                    "'What is your name?' or 'Who's playing?').", evidence=opening)
    if "chips" not in kinds:
        result.fail("Your program never asked how many chips everyone starts with.",
                    evidence=opening)
    start = reading.standings_before(0)
    typed = reading.game.policy.chips        # LONG's, or the nearest the question allowed
    if start and any(value != typed for value in start.values()):
        result.fail(f"The grader answered {typed} chips, but Round 1 did not start with "
                    f"{typed} chips each.", expected=f"everyone: {typed}",
                    actual=str(start), evidence=opening)
    clash = games.get("name-clash")
    if clash is not None and shares_a_name(clash):
        typed = clash.game.scenario.typed_name
        if clash.transcript.crashed:
            # two players with one name, and the game then broke: the clash's consequence is
            # this item's (the handout asks for distinct names to keep the game working)
            result.fail(f"When the player typed {typed}, a computer player's name, two "
                        f"players were both called {typed}, and that game then stopped: "
                        f"{clash.transcript.ended_how}", evidence=clash.excerpt(
                            (clash.before(0)[0], len(clash.text)), 40))
        result.partial(0.5, f"When the player typed {typed}, a computer player's name, two "
                            f"players were both called {typed}: the handout asks for distinct "
                            "names (rename a computer player, or ask again).",
                       evidence=clash.excerpt(clash.before(0), 30))
    computers = len(reading.names) - 1
    if computers != 3 and reading.complete(0):
        result.partial(0.5, f"The game has {computers} computer players; the handout asks for "
                            f"three ({', '.join(reading.names[1:])} were found).")


TITLE_FIRST = re.compile(r"^[^A-Za-z]*poco\s*-?\s*loco\s*([-–—:|!~=*]|$)", re.I)
# a greeting that names the game is a title however it goes on ("Welcome to POCOLOCO, the dice
# game where losing chips is winning!"), as is the name set apart ("Hi! POCOLOCO: ...")
TITLE_GREETING = re.compile(r"(welcome|let'?s\s+(all\s+)?play|let\s+us\s+(all\s+)?play|"
                            r"game\s+of)\b.{0,25}poco\s*-?\s*loco|"
                            r"poco\s*-?\s*loco\s*[-–—:|!]", re.I)


@pytest.mark.item("instructions")
def check_title_and_instructions(games, result):
    reading = played(games, LONG, result)
    span = intro(reading)
    # the answers to set-up questions and greetings by name are not instructions
    asked = [d.wording for d in reading.game.decisions]
    text = "\n".join(line for line in reading.slice(span).split("\n")
                     if reading.human not in line and not any(a and a in line for a in asked))
    words = re.findall(r"[A-Za-z]+", text)
    topics = {t for t in ("roll", "dice", "chip", "poco", "loco", "lowest", "round", "turn",
                          "win") if re.search(t, text, re.I)}
    result.measure("words before the first round", len(words))
    top = [line for line in text.split("\n") if line.strip()][:6]
    # a title is a short heading naming the game (or its letters spaced out, "P O C O"),
    # not a sentence that happens to mention it
    letters = [re.sub(r"[^a-z]", "", line.lower()) for line in top
               if len(re.findall(r"[A-Za-z]+", line)) <= 6
               or all(len(w) == 1 for w in re.findall(r"[A-Za-z]+", line))]
    banner = sum(1 for line in top if len(re.sub(r"[\w\s]", "", line)) >= 10) >= 2
    # a line that starts with the game's name set apart is its title whatever follows:
    # "pocoloco - first one out of chips wins" (not "PocoLoco is a dice game for...")
    named_first = any(TITLE_FIRST.search(line) or TITLE_GREETING.search(line) for line in top)
    if not (any("pocoloco" in line or "welcome" in line for line in letters) or banner
            or named_first):
        result.partial(0.5, "No title: the first lines printed do not name the game "
                            "(e.g. 'Welcome to PocoLoco!').", actual="\n".join(top))
    if len(words) < 25 or len(topics) < 3:
        result.fail("Expected instructions on how to play before the first round (a few "
                    "sentences about rolling dice, chips and who wins).",
                    actual=f"{len(words)} words, mentioning {sorted(topics) or 'none'}",
                    evidence=reading.excerpt(span, 50))


# ---------------------------------------------------------------------------- tie-break
@pytest.mark.item("tie-break")
def check_tie_break_described(games, result):
    reading = played(games, LONG, result)
    if not TIE_WORDS.search(reading.slice(intro(reading))):
        result.fail("The instructions do not say how ties are broken (no mention of a tie).",
                    evidence=reading.excerpt(intro(reading), 50))
    sides = tie_rule_sides(reading.slice(intro(reading)))
    if sides == {"low"} or sides == {"high"}:
        stated, missing = ("lowest", "highest") if sides == {"low"} else ("highest", "lowest")
        result.fail(f"The instructions say how a tie for the {stated} roll is broken, but not "
                    f"a tie for the {missing} roll.", evidence=reading.excerpt(intro(reading), 50))


@pytest.mark.item("tie-break")
def check_tie_break_applied(games, result):
    reading = game(games, TIES, result)
    long_game = games.get(LONG.name)
    rule = long_game.slice(intro(long_game)) if long_game else ""
    # only a tie rule that leaves the choice to chance needs a random draw in a tied round
    # ("ties go to whoever rolled first; the order is random" is not such a rule)
    sentences = [s for s in sentences_of(rule) if TIE_WORDS.search(s)]
    says_random = any(re.search(r"random|chance|coin|luck|roll[- ]?off|re-?roll", s, re.I)
                      and not re.search(r"order|first|earl|turn", s, re.I) for s in sentences)
    losers_right = plain_losers_right(games)
    order_rule = tie_order_rule(rule)
    draws_in_ties = low_ties = 0
    judged = 0
    for index, what in ((0, "two players tie for the lowest roll"),
                        (1, "three players tie for the lowest roll"),
                        (2, "two PoCo!s tie for the highest roll")):
        if not have_round(reading, index, result, TIES):
            continue
        high, low, amount = reading.expected(index)
        tied = high if index == 2 else low
        if len(tied) < (3 if index == 1 else 2):
            # the dice the program drew did not make the planned tie (another order of play
            # than planned): the rule was not exercised here, and nothing is said about it
            result.note(f"Round {index + 1} of the 'ties' game was planned so that {what}, "
                        "but the dice fell otherwise in your program's order of play, so it "
                        "was not used to judge ties.")
            continue
        judged += 1
        narrow = reading.choices_between(reading.after(index), tied)
        if narrow:
            result.fail(f"Round {index + 1}: {what} ({', '.join(sorted(tied))}), but your "
                        f"program chose at random among {', '.join(narrow)} only.",
                        evidence=reading.excerpt(span_of(reading, index)))
        faked = reading.shown_not_drawn(reading.after(index), tied)
        if faked:
            result.fail(f"Round {index + 1}: {what}. The tie-break showed a roll that was not "
                        f"the die your program rolled (\"{faked[0]}\"): the result was decided "
                        "by something other than chance.",
                        evidence=reading.excerpt(span_of(reading, index)))
        # the draws that could decide among the tied players (not a choice among others)
        counted = reading.outcomes_between(reading.after(index), tied) if says_random else None
        if counted and counted[1] and counted[0] < len(tied):
            # fewer ways for the draws to come out than tied players: someone can never be
            # picked, whatever the rule says
            result.fail(f"Round {index + 1}: {what} ({', '.join(sorted(tied))}), but the "
                        f"random draws your program made there ({', '.join(counted[1])}) "
                        f"could come out only {counted[0]} way(s), so one of the "
                        f"{len(tied)} tied players could never be picked.",
                        evidence=reading.excerpt(span_of(reading, index)))
        line = reading.tie_lines_narrow(reading.after(index), tied) if len(tied) > 2 else None
        if line:
            result.fail(f"Round {index + 1}: {what} ({', '.join(sorted(tied))}), but your "
                        f"program broke the tie among only some of them: \"{line}\".",
                        evidence=reading.excerpt(span_of(reading, index)))
        receiver, before, after = reading.receiver(index)
        span = span_of(reading, index)
        if index < 2:
            draws_in_ties += len(counted[1]) if counted is not None else \
                reading.draws_between(reading.after(index))
            low_ties += 1
        if receiver is not None and receiver not in low and losers_right is not False:
            result.fail(f"Round {index + 1}: {what} ({', '.join(sorted(low))}), but "
                        f"{receiver} received the chips.", evidence=reading.excerpt(span))
        way = order_rule if index < 2 else None
        in_order = [name for name in reading.round(index).order if name in low]
        if way and receiver in low and len(in_order) == len(low) and \
                receiver != in_order[0 if way == "first" else -1]:
            result.fail(f"Round {index + 1}: {what} ({', '.join(in_order)}, in this round's "
                        f"order). Your instructions give the tie to the one who came {way}, "
                        f"{in_order[0 if way == 'first' else -1]}, but {receiver} received the "
                        "chips: the rule the program applies must be the one it describes.",
                        evidence=reading.excerpt(span))
        if before and after and receiver is None and after == before:
            result.fail(f"Round {index + 1}: {what}, and nobody received any chips.",
                        evidence=reading.excerpt(span))
    if any(re.search(r"alphabet|a-z|a to z|by name|name order", s, re.I) for s in sentences):
        result.fail("Breaking ties by name (alphabetical order) is not fair: the same names "
                    "always win ties. The handout asks for a fair rule (e.g. at random).",
                    actual="\n".join(s.strip() for s in sentences))
    if says_random and draws_in_ties == 0 and low_ties:
        result.fail("Your instructions say ties are decided by chance, but in the tied rounds "
                    "the program made no random choice among the tied players: the tie went "
                    "by the order the players were in, not by the chance the instructions "
                    "promise.",
                    evidence=reading.excerpt(span_of(reading, 1)))
    if not judged:
        result.not_judged("The grader saw no tied round it could follow in the 'ties' game, "
                          "so it could not see how your program breaks ties.")
    result.judged(judged)


# ---------------------------------------------------------------------------- round box
@pytest.mark.item("round-box")
def check_round_box(games, result):
    reading = game(games, LONG, result)
    boxes = find_boxed(reading.text, ROUND_ONE.pattern)
    boxed = [b for _, b in boxes if b is not None]
    if not boxed:
        lines = [m.string for m, _ in boxes][:3]
        result.fail("No 'Round 1' heading in a box was found.",
                    expected="+---------+\n| Round 1 |\n+---------+",
                    actual="\n".join(lines) or "no line mentions Round 1")
    if not any(b.fits for b in boxed):
        result.fail(f"The Round 1 box does not fit its text: {boxed[0].why}.",
                    expected="+---------+\n| Round 1 |\n+---------+", actual=boxed[0].render())


@pytest.mark.item("round-box")
def check_round_box_at_ten(games, result):
    ten = games.get(ROUND_TEN.name)
    if ten is None or ten.round(9) is None:
        why = ten.transcript.ended_how if ten is not None else "The game was not played."
        if ten is not None and program_stopped(ten):
            result.fail("Not reached: the 'round-ten' game stopped before Round 10, so the box "
                        "could not be checked at two digits (see 'How the runs went' above).")
        result.not_judged(f"Round 10 was not reached, so the box was not checked at two digits. "
                          f"{why}")
    tens = [b for _, b in find_boxed(ten.text, r"\bround\s*#?\s*:?\s*(10|ten)\b")
            if b is not None]
    if not tens or not tens[0].fits:
        result.fail("The round box does not fit at Round 10 (two digits).",
                    expected="+----------+\n| Round 10 |\n+----------+",
                    actual=tens[0].render() if tens else "no boxed Round 10 heading")


# ---------------------------------------------------------------------------- standings
@pytest.mark.item("standings")
def check_standings_each_round(games, result):
    reading = game(games, LONG, result)
    missing, early = [], []
    for round_ in reading.rounds[:LONG.rounds]:
        if len(reading.standings_before(round_.index)) < len(reading.names):
            missing.append(round_.index)
            continue
        # the handout: the round's box, "then every player's name and chip count"; judged
        # only where the round's own heading was found before its first roll
        after = reading.standings_after_heading(round_.index)
        if after is not None and len(after) < len(reading.names):
            early.append(round_.index)
    checked = len(reading.rounds[:LONG.rounds])
    result.judged(checked)
    result.measure("rounds with every player's chips shown first", checked - len(missing))
    if missing:
        index = missing[0]
        message = (f"Before Round {index + 1} the grader could not find every player's name "
                   f"with a chip count ({', '.join(reading.names)}).")
        fraction = 0.0 if len(missing) == checked else 0.5
        result.partial(fraction, message, evidence=reading.excerpt(reading.before(index), 30))
    elif early and len(early) == checked:
        index = early[min(1, len(early) - 1)]      # Round 2's text: the chips, then its box
        result.partial(0.5, f"Every player's chips are shown before each round's box, not "
                       f"after it: show the box of Round {index + 1} first, then the names "
                       "and chip counts.", evidence=reading.excerpt(reading.before(index), 30))


# ---------------------------------------------------------------------------- rolling
@pytest.mark.item("roll-limit")
def check_roll_limit(games, result):
    reading = game(games, LONG, result)
    have_round(reading, 0, result, LONG)
    problems, judged, rerolled, shown = [], 0, 0, None
    for scenario in (LONG, STRATEGY, TIES):
        other = games.get(scenario.name)
        if other is not None:
            found = limit_breaks(other)
            problems += [p + f" ('{scenario.name}' game)" for p in found]
            if found and shown is None:         # the evidence: the first such round's text
                number = int(re.search(r"Round (\d+)", found[0]).group(1))
                shown = other.excerpt(other.region(number - 1), 80)
            judged += sum(1 for r in other.rounds if other.complete(r.index))
            rerolled += sum(1 for r in other.rounds if other.complete(r.index)
                            for turn in r.turns.values() if len(turn.rolls) > 1)
    if judged and not rerolled and not problems:
        # no evidence, no marks: a limit on rolling again is tested only by rolling again
        result.not_judged("No player rolled more than once in any round the grader followed, "
                          "so the roll limit was never tested.")
    result.judged(judged)
    if problems:
        result.fail("Players may roll at most 3 times, and never more often than the player "
                    "before them in the round. " + "; ".join(dict.fromkeys(problems)) + ".",
                    evidence=shown)


@pytest.mark.item("roll-again")
def check_roll_again_offered(games, result):
    reading = game(games, LONG, result)
    have_round(reading, 1, result, LONG)
    judged = 0
    computers_keep_limit = not any(
        limit_breaks(g, skip=g.human) for g in (games.get(s.name) for s in (LONG, STRATEGY, TIES))
        if g is not None)
    for scenario in (LONG, STRATEGY):
        played = games.get(scenario.name)
        for round_ in (played.rounds if played else []):
            human = played.human
            allowed = human_allowed(round_, human)
            if not allowed or not played.complete(round_.index):
                continue
            span = played.region(round_.index)
            where = f"In Round {round_.index + 1} of the '{scenario.name}' game"
            # Read from the grader's own answers, placed in the human's turn: after which of
            # the human's rolls a question came, whatever the scenario meant to answer
            rolled = round_.rolls_of(human)
            asked = played.offers(round_.index)
            ignored = played.ignored_yes(round_.index)
            # Interpretation: a question after the human's last allowed roll costs this item
            # (and roll-limit too, where the extra roll was taken) when the program keeps the
            # limit for its computers; a program whose limit rule is itself wrong asks by
            # its own rule, which is roll-limit's mark alone
            late = [n for n in asked if n >= allowed] if computers_keep_limit else []
            if late:
                result.fail(f"{where} {human} could roll at most {allowed} time(s), but your "
                            f"program asked whether to roll again after roll {late[0]}: ask "
                            "only when another roll is allowed.", evidence=played.excerpt(span))
            elif ignored:
                result.fail(f"{where} {human} was asked whether to roll again after roll "
                            f"{ignored[0]}, answered yes, and did not get another roll: ask "
                            f"only when another roll is allowed.",
                            evidence=played.excerpt(span))
            if allowed < 2:
                continue
            wanted = list(range(1, min(rolled, allowed - 1) + 1))
            missing = [n for n in wanted if n not in asked]
            judged += 1
            if missing:
                said = ("after roll " + " and ".join(map(str, [n for n in wanted if n in asked]))
                        + " only") if set(wanted) & set(asked) else "no such question"
                result.fail(f"{where} {human} could roll up to {allowed} times and rolled "
                            f"{rolled} time(s), so should have been asked after roll "
                            f"{' and '.join(map(str, wanted))} whether to roll again; your "
                            f"program asked {said}.",
                            expected=f"a question after roll {' and '.join(map(str, wanted))}",
                            actual=f"{said}", evidence=played.excerpt(span))
    result.measure("rounds where the human could roll more than once", judged)
    if not judged:
        result.not_judged(f"The grader never saw a round where {reading.human} could roll more "
                          "than once, so the roll-again question could not be checked.")
    result.judged(judged)


# ---------------------------------------------------------------------------- scoring
@pytest.mark.item("special-rolls")
def check_special_rolls(games, result):
    reading = game(games, LONG, result)
    shown, missing = labels(reading)
    result.measure("special rolls named", f"{len(shown)} of {len(shown) + len(missing)}")
    result.judged(len(shown) + len(missing))
    if missing and shown:
        result.fail("Some special rolls were not named as such: " + ", ".join(missing) + ".",
                    expected="PoCo! for 4 5 6 (any order), Loco! for 1 2 3, three-of-a-kind")
    if plain_losers_right(games) is False:
        result.note("Your program picks the wrong loser in ordinary rounds (see "
                    "winner-loser), so the ranking of special rolls was judged by names only.")
        return
    for index, why in ((0, "PoCo! beats any points total"),
                       (1, "6 6 6 beats 1 1 1 and Loco!"),
                       (4, "Loco! beats any points total"),
                       (5, "5 5 5 beats 2 2 2 and 1 1 1"), (6, "PoCo! beats 6 6 6")):
        if not have_round(reading, index, result, LONG):
            continue
        high, low, amount = reading.expected(index)
        named = reading.announced_winner(index)
        result.judged(1 if named is not None else 0)
        if named is not None and named not in high:
            result.fail(f"Round {index + 1}: {why}, so the round's best roll was "
                        f"{' or '.join(sorted(high))}'s, but your program named {named}.",
                        evidence=reading.excerpt(span_of(reading, index)))
        receiver, before, after = reading.receiver(index)
        if receiver and receiver in after and not shown and not missing and named is None:
            result.judged()
            paid = after[receiver] - before[receiver]
            if paid and paid != amount * (len(before) - 1):
                result.fail(f"Round {index + 1}: {why}; the chips moved as if it had not been "
                            "recognised.", evidence=reading.excerpt(span_of(reading, index)))


@pytest.mark.item("points")
def check_points_totals(games, result):
    reading = game(games, LONG, result)
    good, bad = points_shown(reading)
    result.measure("points totals shown correctly", f"{len(good)} of {len(good) + len(bad)}")
    result.judged(len(good) + len(bad))
    four = span_of(reading, 3) if reading.round(3) else None
    if good and bad:
        fraction = len(good) / (len(good) + len(bad))
        result.fail("Some points totals were wrong or missing (1 = 100, 6 = 60, others face "
                    "value): " + "; ".join(bad[:6]) + ".",
                    fraction=0.0 if fraction < 0.8 else 0.5,
                    evidence=reading.excerpt(four) if four else None)
    if not good:
        if not have_round(reading, 3, result, LONG):
            return
        receiver, before, after = reading.receiver(3)
        high, low, amount = reading.expected(3)
        result.judged(1 if receiver is not None else 0)
        if receiver is not None and receiver not in low:
            # "does not show" only where no total was looked for at all: a program that shows
            # wrong totals shows them
            shown = ("Your program showed a wrong points total, or none, for every points "
                     "roll the grader checked (" + "; ".join(bad[:6]) + ")") if bad else \
                "Your program does not show points totals"
            result.fail(f"{shown}, and in Round 4 (1 6 2 = 162 beats 6 6 5 = 125; 5 5 4 = 14 "
                        "is lowest) the wrong player received the chips.",
                        evidence=reading.excerpt(four))
        if receiver is None and bad:
            result.fail("The grader found no correct points total in your output: "
                        + "; ".join(bad[:6]) + ".")


# ---------------------------------------------------------------------------- round outcome
@pytest.mark.item("winner-loser")
def check_winner_and_loser(games, result):
    reading = game(games, LONG, result)
    for index in (0, 2, 5):
        if not have_round(reading, index, result, LONG):
            continue
        high, low, amount = reading.expected(index)
        span = span_of(reading, index)
        finals = "; ".join(f"{p} {rules.describe(r)}" for p, r in
                           reading.round(index).finals.items())
        receiver, before, after = reading.receiver(index)
        named = reading.announced_winner(index)
        result.judged(1 if receiver is not None or named is not None else 0)
        if receiver is not None and receiver not in low:
            result.fail(f"Round {index + 1}: the lowest roll was {' or '.join(sorted(low))}'s, "
                        f"but {receiver} was treated as the loser. Final rolls: {finals}.",
                        evidence=reading.excerpt(span))
        if index == 2 and named is not None and named not in high:
            result.fail(f"Round {index + 1}: the highest roll was {' or '.join(sorted(high))}'s,"
                        f" but your program named {named} the winner. Final rolls: {finals}.",
                        evidence=reading.excerpt(span))


@pytest.mark.item("chips")
def check_chip_transfers(games, result):
    """Every round of the long game, and of the game-over game, whose last round asks the
    human for more chips than they have (any of the handout's ways to pay counts)."""
    judged = transfers(game(games, LONG, result), LONG.rounds, result)
    end = games.get(GAME_OVER.name)
    if end is not None and end.rounds:
        judged += transfers(end, len(end.rounds), result, f"In the '{GAME_OVER.name}' game")
    final = end.standings_at_end() if end is not None and end.rounds else {}
    if not judged and final and final.get(end.human, 1) > 0:
        result.fail("At the end of the game the chip counts were not what the rounds give.",
                    expected=f"{end.human}: 0 (or below, where debts are allowed)",
                    actual=str(final))
    # Without a round it could read, the game-over game's final counts are the evidence (the
    # human must end on 0 or below): said, so that 1/1 is not read as "nothing checked"
    result.measure("rounds whose chip transfers were checked", judged if judged or not final
                   else "0 (the final chip counts of the game-over game were)")
    if not judged and not final:
        result.not_judged("The grader could not find chip counts to check (no standings it "
                          "could read before and after a round; see standings).")
    result.judged(judged + (1 if final else 0))


def transfers(reading, rounds: int, result, game_name: str = "") -> int:
    """Judge the chips moved in the first ``rounds`` rounds of a game; how many were judged."""
    shown, missing = labels(reading)
    unrecognised = {label.split(" (")[0] for label in missing}
    judged = 0
    for round_ in reading.rounds[:rounds]:
        index = round_.index
        if not reading.complete(index):
            continue
        best = max(round_.finals.values(), key=rules.rank)
        if " ".join(map(str, best)) in unrecognised:
            continue     # charged under special-rolls, not here
        high, low, _ = reading.expected(index)
        receiver, before, after = reading.receiver(index)
        if receiver is None and before and len(low) == 1 and next(iter(low)) in before:
            receiver = next(iter(low))       # nobody gained: judge against the real loser
        if receiver is None or receiver not in before:
            continue
        judged += 1
        # The handout's amount (from the round's best roll) is right; so is the amount for
        # the roll the program itself named the winner's, when it ranks rolls wrongly (that
        # is special-rolls' or winner-loser's mark, not charged here again).
        kind = rules.category(best)
        amount = rules.CHIPS_FOR[kind]
        options = rules.acceptable_chips(before, receiver, amount)
        named = rules.CHIPS_FOR[winner_category(reading, index)]
        if after not in options + rules.acceptable_chips(before, receiver, named):
            short = [name for name, chips in before.items() if name != receiver and
                     chips < amount]
            owe = (f" {' and '.join(short)} had fewer than {amount}: paying what they have, "
                   "or going below zero, are both fine (handout: Not enough chips)."
                   if short else "")
            where = f"{game_name}, round" if game_name else "Round"
            result.fail(f"{where} {index + 1}: the winning roll was "
                        f"{rules.CATEGORY_NAMES[kind]}, so everyone except {receiver} should "
                        f"give {receiver} {amount} chip(s).{owe}",
                        expected=" or ".join(map(str, options)), actual=str(after),
                        evidence=reading.excerpt(span_of(reading, index)))
    return judged


# a line about a round's winner, not the game's ("wins the round", "Round 3 winner: Bo");
# "Bo wins the game after 8 rounds!" names the game's winner
ROUND_WIN = re.compile(r"\b(win|wins|won|winner|winning)\s+(of\s+)?(the\s+|this\s+)?round\b|"
                       r"\bround\s*#?\s*\d*\s*:?\s*(winner|win|won)\b|"
                       r"^(?!.*\bgame\b).*\bround\b(?!s)", re.I)


@pytest.mark.item("game-over")
def check_game_over(games, result):
    reading = game(games, GAME_OVER, result)
    last = reading.rounds[-1]
    tail_span = reading.after(last.index)
    tail = reading.slice(tail_span)
    if reading.game.transcript.crashed or reading.game.stopped_early:
        result.fail(f"The '{GAME_OVER.name}' game did not end properly. "
                    f"{reading.transcript.ended_how}", evidence=reading.excerpt(tail_span))
    final = reading.standings_at_end()
    if len(final) < len(reading.names):
        result.fail(f"The final chip counts of all players were not printed at the end of the "
                    f"'{GAME_OVER.name}' game.",
                    evidence=reading.excerpt(tail_span))
    # The winner is whoever the program's own final counts show at the bottom (0 chips, or
    # below zero where debts are allowed): this item is about announcing, not arithmetic.
    fewest = min(final.values())
    winners = [name for name, chips in final.items() if chips == fewest]
    # in any case: "THE WINNER IS QUILLON!" names Quillon (a program may shout every name)
    lines = [line for line in tail.split("\n") if WIN_WORDS.search(line)
             and any(name.lower() in line.lower() for name in winners)
             and not ROUND_WIN.search(line)]
    if not lines:
        result.fail(f"The '{GAME_OVER.name}' game ended with {' and '.join(winners)} on "
                    f"{fewest} chips, but the grader found no line naming the winner.",
                    evidence=reading.excerpt(tail_span))


# ---------------------------------------------------------------------------- strategy
def _clear_decisions(reading, judge_ranks: bool) -> tuple[int, list[tuple[str, int]]]:
    """Computer decisions, as they happened, where one choice is clearly better:
    never roll again on PoCo! or 6 6 6; never stop on 2 2 3 (the worst roll) with rolls left;
    never stop last in the round, strictly below everyone, with rolls left."""
    judged, wrong = 0, []
    for round_ in reading.rounds:
        if not reading.complete(round_.index) or "?" in round_.turns:
            continue
        allowed, kept = 3, {}
        for pos, player in enumerate(round_.order):
            turn = round_.turns[player]
            last = pos == len(round_.order) - 1
            for number, roll in enumerate(turn.rolls if player != reading.human else []):
                again, left = number + 1 < len(turn.rolls), number + 1 < allowed
                best = judge_ranks and (rules.category(roll) == "poco" or
                                        sorted(roll) == [6, 6, 6])
                lowest = judge_ranks and last and kept and \
                    rules.rank(roll) < min(rules.rank(r) for r in kept.values())
                if best:
                    judged += 1
                    if again:
                        wrong.append((f"Round {round_.index + 1}: {player} rolled "
                                      f"{rules.describe(roll)} and rolled again anyway",
                                      round_.index))
                elif not again and left and (sorted(roll) == [2, 2, 3] or lowest):
                    judged += 1
                    why = "the worst roll possible" if sorted(roll) == [2, 2, 3] else \
                        "last to play and below everyone else's roll"
                    wrong.append((f"Round {round_.index + 1}: {player} stopped on "
                                  f"{rules.describe(roll)} ({why}) with rolls left", round_.index))
                elif again and (sorted(roll) == [2, 2, 3] or lowest):
                    judged += 1
            kept[player] = turn.final
            allowed = min(allowed, len(turn.rolls))
    return judged, wrong


@pytest.mark.item("strategy")
def check_computer_strategy(games, result):
    reading = game(games, STRATEGY, result)
    have_round(reading, 1, result, STRATEGY)
    long_game = games.get(LONG.name)
    recognises_specials = long_game is None or not labels(long_game)[1]
    if not recognises_specials:
        result.note("Your program does not recognise every special roll (see special-rolls), "
                    "so decisions that depend on comparing rolls were not judged.")
    judged, wrong = 0, []
    for scenario in (STRATEGY, LONG):
        played = games.get(scenario.name)
        if played is not None:
            count, found = _clear_decisions(played, recognises_specials)
            judged += count
            wrong += [(f"{text} ('{scenario.name}' game)", played, index)
                      for text, index in found]
    result.measure("clear-cut computer decisions seen", judged)
    if wrong:
        text, played, index = wrong[0]
        result.fail("A computer player made a choice that is clearly worse, whatever happens "
                    "next: " + "; ".join(w[0] for w in wrong[:4]) + ".",
                    evidence=played.excerpt((played.round(index).start,
                                             played.after(index)[0])))
    if not judged:
        result.not_judged("The grader never saw a computer player in a position where one "
                          "choice is clearly better, so the strategy could not be judged.")
    result.judged(judged)


# ---------------------------------------------------------------------------- big dice
@pytest.mark.item("big-dice")
def check_big_dice(games, result):
    reading = game(games, LONG, result)
    found, stacked, irregular, total = 0, 0, 0, 0
    example = None
    # Judged on the human's own rolls: a program may show the computers' rolls more briefly.
    # The program's own pictures are learned from the faces loaded (whatever their shape);
    # pips in a known pattern are checked where they can be read
    rolls = [(turn.rolls[number], end) for round_ in reading.rounds[:LONG.rounds]
             for player, turn in round_.turns.items() if player == reading.human
             for number, end in enumerate(turn.ends)]
    learned = learn_pictures([(faces, reading.text[end:end + 3000]) for faces, end in rolls])
    for index, (faces, end) in enumerate(rolls):
        art = find_dice(reading.text[end:end + 3000], faces)
        if art is None and learned.shows(index):
            total += 1
            found += 1
            continue
        if art is None and not reading.text_shows(end, faces):
            continue         # a roll never shown at all is a UI matter, not this item
        total += 1
        if art is None:
            example = example or (faces, end)
            continue
        found += 1
        stacked += not art.side_by_side
        irregular += not art.regular
    result.measure("rolls drawn as big dice", f"{found} of {total}")
    if total == 0:
        result.fail("The grader found no roll shown on screen, as numbers or as dice.")
    if found == 0:
        faces, end = example
        result.fail(f"No big dice were found for your rolls (e.g. {faces}).",
                    expected=" -----   -----   -----\n| o   | | o o | | o o |\n|     | | o o | "
                             "|     |\n|   o | | o o | | o o |\n -----   -----   -----",
                    evidence=reading.transcript.render(end, end + 600, max_lines=15))
    if stacked:
        result.fail("The dice are drawn one above the other; they should be side by side.",
                    fraction=0.5)
    if irregular:
        result.partial(0.5, "Some dice do not show the regular pip pattern.")
    if found < total * 0.8:
        result.partial(0.5, f"Only {found} of your {total} rolls were drawn as big dice.")
