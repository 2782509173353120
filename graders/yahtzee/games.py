"""Yahtzee's games: the plans of plans.py played by the engine's dice-game driver
(``engine.dicegame``: loaded dice, keep answers, the option question), with Yahtzee's items
and rules, and the judges of the final score table each game ends with."""
from __future__ import annotations

import re

from graders.engine.drive import dicegame
from graders.engine.drive.dicegame import TRANSCRIPT, dice_text
from graders.engine.drive.readers import score_table
from graders.engine.judge.requirements import Requirement

from . import rules
from .plans import GAMES

WORDS = dicegame.Words(
    rules.OPTIONS, "keep-dice", "The letters a to e (any case, repeats and other characters "
    "ignored) keep their dice; every other die is thrown again.",
    "three-throws", "A round has three throws.", "thirteen-rounds", "A game has 13 rounds.",
    "options-used-up", "A used option, a number outside 1 to 13 or a word is refused and "
    "asked again; an open option is taken.",
    # a line naming an option is a menu or a score, not dice ("Yahtzee" is also a title)
    skip=re.compile("|".join(score_table.name_pattern(name).pattern
                             for name in rules.OPTIONS if name != "Yahtzee"), re.I))
PLANS = {name: dicegame.plan(name, rows) for name, rows in GAMES.items()}
BONUS_GAME, ZERO_GAME = PLANS.values()
SECTIONS = {"upper sum": (r"upper", r"bonus"), "upper bonus": (r"bonus", r"yahtzee"),
            "lower sum": (r"lower", r"bonus"), "Yahtzee bonus": (r"yahtzee.*bonus", r"^$"),
            "final score": (r"final|total|grand", r"upper|lower|bonus")}


def final_table(run: dicegame.DiceGame):
    """The rows and sections of the final table, the options scored (option -> its dice and
    the options played before it), and ``add`` to record a requirement of the table."""
    rows = score_table.rows(run.tail, rules.OPTIONS, avoid={"Yahtzee": "bonus"})
    sections, found, table = score_table.totals(run.tail, SECTIONS), [], run.excerpt()
    scored = {option: (dice, before) for option, dice, before in run.rounds if option}

    def add(item, ok, what, expected, actual, why):
        found.append((item, Requirement(bool(ok), f"Game '{run.plan.name}', the final table: "
                                        f"{what}", str(expected), str(actual), why, len(found),
                                        table, TRANSCRIPT)))
    return rows, sections, scored, found, add


def table_rows(run: dicegame.DiceGame, context=None) -> list[tuple]:
    """Each option's row under its option's item (a Yahtzee in a Full House or a straight is
    the joker's: ``table_jokers``); a game that did not end has no final table."""
    rows, _, scored, found, add = final_table(run)
    for option, (dice, _) in scored.items() if run.ended else ():
        add("score-table", option in rows, f"the row of {option}",
            "its points", "no row", "The table shows every option with its points.")
        if option in rows and dice and rules.item_of(option, dice) != "joker":
            add(rules.item_of(option, dice), rows[option] == rules.score(dice, option),
                f"{option} scored with {dice_text(dice)}", rules.score(dice, option),
                rows[option], "The table shows the points the rules give these dice.")
    return found


def table_jokers(run: dicegame.DiceGame, context=None) -> list[tuple]:
    """The rows of Yahtzees scored as a Full House or a straight: a joker that applies may
    give the points the student gives a real one (``context``: the histories, ``fixed``).

    Interpretation: one mistake is charged once. Where the joker does not apply and the row
    shows what the student's calculate_score gives five such dice without any history, and
    that is not 0 (their is_full_house or straight test takes five alike), the mistake is
    that option's item's, which the sweeps charge: not the joker's."""
    rows, _, scored, found, add = final_table(run)
    fixed, plain = (context.fixed, context.plain) if context else ({}, {})
    for option, (dice, before) in scored.items() if run.ended else ():
        if option in rows and dice and rules.item_of(option, dice) == "joker":
            points = rules.joker_score(dice, option, before)
            if not points and rows[option] and rows[option] == plain.get((dice[0], option)):
                continue
            add("joker", rows[option] == points or points and
                rows[option] == fixed.get(option), f"{option} scored with "
                f"{dice_text(dice)}", points, rows[option], "A Yahtzee is a joker once the "
                "Yahtzee box and the upper box of its number are used.")
    return found


def table_sums(run: dicegame.DiceGame, context=None) -> list[tuple]:
    """The section sums and the final score, from the numbers the table itself shows; a game
    that stopped before its end (a crash, a loop) never showed its table."""
    rows, sections, _, found, add = final_table(run)
    if not run.ended:
        add("score-table", False, "the game stopped before its final table",
            "the table after the last round", run.problem or "no table",
            "A game that does not go on fails what it had not shown yet.")
    for label in SECTIONS if run.ended else ():
        add("score-table", label in sections, f"the {label}", "a line with its number",
            "none found", "The table ends with the sums, the bonuses and the final score.")
    upper, lower = [rows.get(o) for o in rules.UPPER], [rows.get(o) for o in rules.OPTIONS[6:]]
    parts = [sections.get(label) for label in list(SECTIONS)[:4]]
    for label, summed in (("upper sum", upper), ("lower sum", lower), ("final score", parts)):
        if run.ended and label in sections and None not in summed:
            add("score-table", sections[label] == sum(summed), f"the {label}", sum(summed),
                sections[label], "Each sum adds up the numbers shown above it.")
    return found


def table_bonuses(run: dicegame.DiceGame, context=None) -> list[tuple]:
    """The upper bonus from the upper sum shown; the Yahtzee bonus from the Yahtzees thrown."""
    rows, sections, _, found, add = final_table(run)
    upper = [rows.get(o) for o in rules.UPPER]
    upper_sum = sections.get("upper sum", None if None in upper else sum(upper))
    if run.ended and "upper bonus" in sections and upper_sum is not None:
        add("upper-bonus", sections["upper bonus"] == 35 * (upper_sum >= 63), "the upper "
            f"bonus with {upper_sum} in the upper section", 35 * (upper_sum >= 63),
            sections["upper bonus"], "63 or more in Ones to Sixes earns 35.")
    bonuses = []            # the box filled with a Yahtzee, or showing 50: either reading
    for filled in (rules.is_yahtzee, lambda dice: rows.get("Yahtzee") == 50):
        bonus, allowed = 0, False
        for option, dice, _ in run.rounds:
            bonus += 100 if allowed and dice and rules.is_yahtzee(dice) else 0
            allowed = allowed or (option == "Yahtzee" and bool(dice) and filled(dice))
        bonuses.append(bonus)
    if run.ended and "Yahtzee bonus" in sections:
        add("yahtzee-bonus", sections["Yahtzee bonus"] in bonuses, "the Yahtzee bonus",
            bonuses[0], sections["Yahtzee bonus"], "Each Yahtzee thrown after the Yahtzee "
            "box got 50 earns 100.")
    return found
