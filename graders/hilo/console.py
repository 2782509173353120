"""Whole games in a terminal with loaded cards, and how they are judged.

A :class:`Plan` lists the bets to type and the deals in order, each with the cards it deals
and whether the grader's guess should be right. The grader reads the visible card the program
shows, knows the face-down one (the other card of the deal), and guesses accordingly, so the
plan works whichever card a program deals first. Prompts are told apart by their wording
(a bet, higher or lower, double or pass, play again).

The judges follow the game's *own* verdicts: a right guess is one after which the program
offers double or pass. So a wrong verdict (the stages item) or a wrong payout (the double or
nothing item) is not charged again here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.run.harness import Limits
from graders.engine.drive.session import Session

from graders.engine.drive.loaded import LoadedCards, PlayingCard, find_cards
from graders.engine.judge.requirements import Requirement, check
from graders.engine.drive.scripted import amounts as money, is_pause

START_PURSE = 100
LIMIT_FIELDS = {"cpu_seconds": 3}     # a game's CPU verdict (capped by the budget)
LIMITS = Limits(**LIMIT_FIELDS)
MAX_OTHER = 4
MAX_REPEATS = 25
MAX_PROMPTS = 120
KINDS = (("choose", re.compile(r"\bdouble\b|\bpass\b", re.I)),
         ("guess", re.compile(r"\bhigher\b|\blower\b|\bhi\b|\blo\b", re.I)),
         ("bet", re.compile(r"\bbet\b|wager|stake|how much|amount|quit", re.I)),
         ("again", re.compile(r"play again|another (?:round|game|hand|bet)|continue\?|"
                              r"keep playing|y/n|\byes\b", re.I)))
PURSE_WORDS = re.compile(r"purse|balance|bank|money|you have|chips|cash|wallet|funds|total",
                         re.I)
NUMBER = re.compile(r"-?\d+")
HUNG = re.compile(r"CPU seconds|endless loop")
NAME = re.compile(r"\bname\b", re.I)          # a question the handout does not ask for


def card(value: int, suit: str) -> PlayingCard:
    return PlayingCard(value, suit)


@dataclass(frozen=True)
class Deal:
    """Two cards (in the order they are planned), the guess's outcome, and what follows."""

    cards: tuple[PlayingCard, PlayingCard]
    right: bool
    then: str = ""                   # after a right guess: "double" or "pass" (as typed)
    first_guess: str = ""            # an answer that is not valid, typed before the guess
    first_choice: str = ""           # the same before double/pass


@dataclass(frozen=True)
class Plan:
    name: str
    bets: tuple[str, ...]            # typed at the bet prompts, in order; then "quit"
    deals: tuple[Deal, ...]
    invalid_bets: tuple[str, ...] = ()

    def describe(self) -> str:
        """The plan in one sentence for the feedback."""
        deals = "; ".join(f"{d.cards[0]} and {d.cards[1]} ({'right' if d.right else 'wrong'} "
                          f"guess{', then ' + d.then.strip() if d.then else ''})"
                          for d in self.deals)
        return (f"Bets to type: {', '.join(map(repr, self.bets))}, then 'quit' at any further "
                f"bet question. Cards: {deals}.")


BETS = Plan("bets", ("ten", "12.5", "0", "-5", "150", "", "100"),
            (Deal((card(6, "Diamonds"), card(11, "Clubs")), False),),
            invalid_bets=("ten", "12.5", "0", "-5", "150", ""))
CHAIN = Plan("double chain", ("20", "40", "30"), (
    Deal((card(4, "Clubs"), card(9, "Hearts")), True, "double", "maybe", "maybe"),
    Deal((card(12, "Diamonds"), card(2, "Spades")), True, "double"),
    Deal((card(6, "Hearts"), card(13, "Clubs")), True, "pass"),
    Deal((card(8, "Spades"), card(3, "Diamonds")), False),
    Deal((card(5, "Clubs"), card(10, "Hearts")), True, "pass")))
BROKE = Plan("empty purse", ("60", "40"), (
    Deal((card(7, "Clubs"), card(11, "Diamonds")), True, "double"),
    Deal((card(3, "Hearts"), card(9, "Spades")), False),
    Deal((card(12, "Clubs"), card(5, "Diamonds")), True, "double"),
    Deal((card(1, "Spades"), card(8, "Hearts")), False)))
PLANS = (BETS, CHAIN, BROKE)
PUBLIC = (BETS,)                 # the students' self-check plays this one only


@dataclass
class Step:
    """One prompt: its kind, what was printed since the grader's last answer, and the answer."""

    kind: str
    before: str
    typed: str


@dataclass
class GameRun:
    plan: Plan
    steps: list[Step] = field(default_factory=list)
    tail: str = ""                   # printed after the last answer
    ended: bool = False              # finished normally
    problem: str | None = None       # how it ended, when not normally
    grader_problem: bool = False
    transcript: str = ""
    full: object = None              # the whole Transcript (the report's file and replay)
    off_plan: int = 0                # guesses whose visible card was not one the plan dealt


def kind_of(context: str, prompt: str) -> str:
    """The kind of a prompt, from the lowest screen line that says what it wants."""
    lines = [line for line in context.splitlines() if line.strip()]
    if prompt.strip() and not (lines and lines[-1].strip().endswith(prompt.strip())):
        lines.append(prompt)
    for line in reversed(lines):
        kind = _line_kind(line)
        if kind:
            return kind
    return "other"


def _line_kind(line: str) -> str | None:
    """What a line asks: its last question counts ("Double or nothing! ... Higher or
    lower?"); a line that is no question but names the answers of two stages ("Please type
    higher/lower or double/pass.") says nothing."""
    for segment in reversed(re.findall(r"[^.!?]*\?", line)):
        kind = _kind_in(segment)
        if kind:
            return kind
    found = {kind for kind, pattern in KINDS if pattern.search(line)}
    if {"choose", "guess"} <= found:
        return None
    return _kind_in(line)


def _kind_in(text: str) -> str | None:
    """The kind a piece of text names; between guess and choose, the one named last."""
    found = {kind: match.end() for kind, pattern in KINDS for match in pattern.finditer(text)}
    if "choose" in found or "guess" in found:
        return max(("choose", "guess"), key=lambda kind: found.get(kind, -1))
    return next((kind for kind in ("bet", "again") if kind in found), None)


def play(target: Path, workdir: Path, plan: Plan, decks: list[list[PlayingCard]],
         limits: Limits | None = None) -> GameRun:
    """Play the plan in a terminal, answering each prompt by its kind (``limits``: the
    run's limits within the submission's budget; LIMITS without a budget)."""
    policy = LoadedCards([list(deal.cards) for deal in plan.deals], decks)
    session = Session.start(target, workdir, policy=policy, limits=limits or LIMITS)
    # the same short prompt ("? ") may come many times in a row without a random draw (a deck
    # shuffled once): the plan is finite, and 'quit' ends it, so the session's own count of
    # repeats is set well above what a plan types
    session.max_repeats, session.max_prompts = MAX_REPEATS, MAX_PROMPTS
    run, bets, deals = GameRun(plan), list(plan.bets), list(plan.deals)
    deal: Deal | None = None
    visible: PlayingCard | None = None
    # a deal starts at a bet, a double, or (in a game that asks no bet) the first guess and
    # the first guess after 'play again?'
    new_deal, tried_guess, tried_choice, others, dealt = True, False, False, 0, 0
    carried = ""                    # the output before a pause, for the question after it
    try:
        while (prompt := session.wait()) is not None:
            before = carried + session.output_since_answer()
            if is_pause(prompt.wording):
                # "Press Enter to continue..." between hands: Enter, and what came before it
                # counts with the next question (a pause is no question of the game)
                carried = before
                session.type("")
                continue
            carried = ""
            kind = kind_of(prompt.context, prompt.text)
            shown = find_cards(before)
            if shown:
                visible = shown[-1]
            if kind == "bet":
                typed = bets.pop(0) if bets else "quit"
                policy.start_deal(dealt)
                new_deal = True
            elif kind == "guess":
                if new_deal:
                    deal = deals.pop(0) if deals else None
                    dealt += 1
                    new_deal, tried_guess, tried_choice = False, False, False
                if deal is not None and deal.first_guess and not tried_guess:
                    typed, tried_guess = deal.first_guess, True
                else:
                    typed = guess_for(deal, visible)
                    run.off_plan += not _in_plan(deal, visible)
            elif kind == "choose":
                if deal is not None and deal.first_choice and not tried_choice:
                    typed, tried_choice = deal.first_choice, True
                else:
                    typed = deal.then if deal is not None and deal.then else "pass"
                if typed.strip().lower() == "double":
                    policy.start_deal(dealt)
                    new_deal = True
            elif kind == "again":
                # the plan goes on while it has bets and cards: a game that asks no bet (a
                # stake of its own) is not played on for ever, only the deals of the plan
                typed = session.answer("yes" if bets and deals else "no")
                new_deal = True
                run.steps.append(Step(kind, before, typed))
                continue
            else:
                others += 1
                if others > MAX_OTHER:
                    session.stop("the program asked questions the grader could not place")
                    break
                typed = "Sam" if NAME.search(prompt.wording) else ""
            run.steps.append(Step(kind, before, typed))
            session.type(typed)
        transcript = session.transcript
        run.tail = session.output_since_answer()
        run.ended = transcript.finished
        run.grader_problem = bool(transcript.outcome.get("grader_problem"))
        if not run.ended:
            run.problem = transcript.ended_how
        run.transcript = transcript.render(max_lines=120)
        run.full = transcript
    finally:
        session.close()
    return run


def _in_plan(deal: Deal | None, visible: PlayingCard | None) -> bool:
    return deal is not None and visible is not None and \
        visible.value in [one.value for one in deal.cards]


def guess_for(deal: Deal | None, visible: PlayingCard | None) -> str:
    """The guess that makes this deal come out as planned (a fair guess without a plan)."""
    form, lower = "higher", "lower"     # case and spaces are the stages item's (not here)
    if visible is None:
        return form
    hidden = None
    if deal is not None:
        values = [one.value for one in deal.cards]
        if visible.value in values:
            hidden = deal.cards[1 - values.index(visible.value)]
    if hidden is None:
        return form if visible.value <= 7 else lower
    higher = hidden.value > visible.value
    return form if higher == deal.right else lower


# ----------------------------------------------------------------------------- judging
def purse_shown(text: str) -> int | None:
    """The amount on the last line that names the purse: the first dollar amount after the
    word ('Purse: $40   (hand 2, best so far $100)' is 40), else the line's last one ('You
    have $120 left'), else its last number (a bet question such as 'Your bet (1-240):')."""
    lines = text.splitlines()
    for line in reversed(lines):
        if named := PURSE_WORDS.search(line):
            found = money(line[named.end():])[:1] or money(line) or \
                [int(number) for number in NUMBER.findall(line)]
            if found:
                return found[-1]
    return None


def announced(text: str) -> list[int]:
    """The amounts printed after 'pass', the purse line itself left out."""
    lines = text.splitlines()
    purse_lines = [at for at, line in enumerate(lines)
                   if PURSE_WORDS.search(line) and NUMBER.search(line)]
    if purse_lines:
        del lines[purse_lines[-1]]
    return numbers_in("\n".join(lines))


def numbers_in(text: str) -> list[int]:
    return [int(number) for number in NUMBER.findall(text)]


@dataclass
class Flow:
    """The game as the program played it: purse, hands, stake, and what was announced."""

    purse: int = START_PURSE
    hands: int = 0
    stake: int = 0
    passed_with: list[int] = field(default_factory=list)   # amounts printed after pass


def judge_bets(run: GameRun) -> list[Requirement]:
    """Each refused bet is asked again; the whole purse is accepted."""
    requirements, steps = [], run.steps
    wanted = list(run.plan.invalid_bets) + [run.plan.bets[len(run.plan.invalid_bets)]]
    for index, typed in enumerate(wanted):
        at = _nth_bet(steps, index)
        valid = index == len(wanted) - 1
        expected = "a guess (the bet taken)" if valid else "the bet question again"
        why = "A bet is a whole number from 1 to the purse (all of it allowed); anything " \
              "else is refused and asked again."
        case = f"The bet {typed!r} with ${START_PURSE} in the purse"
        if at is None:
            requirements.append(check(False, case, expected, _ending(run), why, index,
                                      run.transcript))
            continue
        following = steps[at + 1].kind if at + 1 < len(steps) else "end"
        ok = following == ("guess" if valid else "bet")
        requirements.append(check(ok, case, expected, _what(following, run), why, index,
                                  run.transcript))
    return requirements


ASKED = {"guess": "higher or lower", "choose": "double or pass",
         "again": "whether to play again", "other": "a question the grader could not place"}


def no_bet_asked(run: GameRun) -> str | None:
    """Why no bet of the plan could be typed (the game never asked for one), or None."""
    if any(step.kind == "bet" for step in run.steps):
        return None
    if run.steps:
        return f"it asked {ASKED[run.steps[0].kind]} first and never a bet"
    return "it " + (f"ended before any question ({run.problem.rstrip('.')})" if run.problem
                    else "ended without asking anything")


def _nth_bet(steps: list[Step], index: int) -> int | None:
    bets = [at for at, step in enumerate(steps) if step.kind == "bet"]
    return bets[index] if index < len(bets) else None


def _what(kind: str, run: GameRun) -> str:
    return {"guess": "a guess was asked (the bet was taken)", "bet": "the bet question again",
            "choose": "double or pass was asked", "again": "'play again?' was asked",
            "other": "another question"}.get(kind) or _ending(run)


def _ending(run: GameRun) -> str:
    return "the game ended" + (f" ({run.problem})" if run.problem else "")


def judge_console(run: GameRun, rejects, logic_hangs: bool = False) -> list[Requirement]:
    """The purse before every bet, answers asked again, the end and the summary.

    ``rejects(stage, answer)`` says whether the program's own logic refuses an answer (so
    asking again is main's job); answers it accepts are judged under the stages item. A game
    stopped as an endless loop when HiLo_Game itself was seen hanging is charged there only.
    """
    flow, requirements, steps = Flow(), [], run.steps
    hand_start = True
    for at, step in enumerate(steps):
        following = steps[at + 1] if at + 1 < len(steps) else None
        next_kind = following.kind if following else "end"
        answer = step.typed.strip().lower()
        case = f"Game '{run.plan.name}', prompt {at + 1}"
        if step.kind == "bet":
            if hand_start:
                requirements.append(_purse_requirement(step, flow, case, run))
                hand_start = False
            if answer == "quit":
                requirements.append(check(next_kind == "end" and run.ended, f"{case}: «quit»",
                                          "the game ends", _what(next_kind, run),
                                          "quit at the bet question ends the game.", at,
                                          run.transcript))
            elif next_kind == "guess" and answer.lstrip("-").isdigit():
                flow.hands += 1
                flow.stake = int(answer)
                flow.purse -= flow.stake
        elif step.kind == "guess":
            if answer not in ("higher", "lower") and rejects("guess", step.typed):
                requirements.append(_asked_again(case, step, next_kind, "guess", run, at))
            if next_kind in ("bet", "end", "again"):       # the hand is over (lost)
                hand_start = True
                if flow.purse == 0:
                    later = [later.kind for later in steps[at + 1:]]
                    requirements.append(_broke_requirement(case, later, run, at))
        elif step.kind == "choose" and answer not in ("double", "pass"):
            if rejects("choose", step.typed):
                requirements.append(_asked_again(case, step, next_kind, "choose", run, at))
        elif step.kind == "choose" and answer == "double" and next_kind == "guess":
            flow.stake *= 2
        elif step.kind == "choose" and answer == "pass":
            flow.purse += 2 * flow.stake
            flow.passed_with = [flow.purse - 2 * flow.stake + number for number in
                                announced(following.before if following else run.tail)]
            hand_start = True
    stopped = steps and (steps[-1].typed.strip().lower() == "quit" or steps[-1].kind == "again")
    # hands played without a bet the grader saw taken (a stake of the program's own, or
    # questions after a bet it could not place): the grader cannot know the hands and the
    # purse the summary must show, so it does not judge it
    first_bet = next((at for at, step in enumerate(steps) if step.kind == "bet"), 0)
    unbet = not flow.hands and any(step.kind in ("guess", "choose", "other")
                                   for step in steps[first_bet:])
    if run.ended and (stopped or flow.purse == 0) and not unbet:
        requirements.append(_summary_requirement(run, flow))
    elif not run.ended and not (logic_hangs and HUNG.search(run.problem or "")):
        requirements.append(check(False, f"Game '{run.plan.name}'", "the game played to its end",
                                  run.problem, "The game goes on until the player quits or the "
                                  "purse is empty.", len(steps), run.transcript))
    return requirements


def _purse_requirement(step: Step, flow: Flow, case: str, run: GameRun) -> Requirement:
    """The purse shown before a bet: the handout's amount, or the one that follows from the
    winnings the program itself announced (a wrong payout is the double or nothing item's)."""
    shown = purse_shown(step.before)
    ok = shown == flow.purse or shown in flow.passed_with
    if shown in flow.passed_with and shown != flow.purse:
        flow.purse = shown                  # go on from the program's own amount
    actual = "no purse shown" if shown is None else f"${shown}"
    return check(ok, f"{case}: the purse before bet {flow.hands + 1}", f"${flow.purse}", actual,
                 "Before every bet the purse is shown: $100 at the start, less each bet, plus "
                 "twice the stake when the player passes.", flow.hands,
                 run.transcript)


def _asked_again(case: str, step: Step, next_kind: str, kind: str, run: GameRun,
                 at: int) -> Requirement:
    words = "higher or lower" if kind == "guess" else "double or pass"
    return check(next_kind == kind, f"{case}: «{step.typed}» when asked {words}",
                 f"the question {words} again", _what(next_kind, run),
                 "When logic returns None, main says which answers are valid and asks again.",
                 at, run.transcript)


def _broke_requirement(case: str, later: list[str], run: GameRun, at: int) -> Requirement:
    """No bet is asked for once the purse is empty (a last 'play again?' or 'press Enter'
    is fine), and the game ends."""
    ok = "bet" not in later and run.ended
    shown = "a bet was asked for with $0 in the purse" if "bet" in later else \
        _what(later[0] if later else "end", run)
    return check(ok, f"{case}: the purse is empty", "the game ends without asking for a bet",
                 shown, "The game ends when the purse is empty.", at, run.transcript)


def _summary_requirement(run: GameRun, flow: Flow) -> Requirement:
    """The last lines show the number of hands and the final purse."""
    lines = [line for line in run.tail.splitlines() if line.strip() and not find_cards(line)]
    numbers = numbers_in("\n".join(lines[-4:]))
    ok = flow.hands in numbers and flow.purse in numbers
    return check(ok, f"Game '{run.plan.name}': the summary at the end",
                 f"{flow.hands} hands played and the final purse ${flow.purse}",
                 run.tail.strip() or "nothing", "The game ends with a summary: the number of "
                 "hands played and the final purse.", 99, run.transcript)
