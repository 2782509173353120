"""Playing PocoLoco scenarios against a student's program.

A scenario fixes the starting chips, the order of play, the dice (by round, position and roll)
and how the human plays (always stop, or always roll again). The driver answers every prompt
from its wording: name, chips, "read the rules?", roll again, which dice, continue, play again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from graders.engine.drive import answers
from graders.engine.drive.readers import prompts
from graders.engine.run.harness import Limits, run_folder
from graders.engine.drive.session import Session
from graders.engine.drive.transcript import Transcript

from .policy import Plan, PocoPolicy

HUMAN = "Quillon"      # unusual on purpose: it must not clash with computer players' names

NAME = prompts.NAME       # "What is your name?", "Who's playing?", "What should I call you?"
CHIPS = re.compile(r"chip|how many|starting (amount|number)|start(ing)? with|\bamount\b|"
                   r"\bjetons?\b|\bcombien\b|\bfichas?\b|\btokens?\b|\bcoins?\b|"
                   r"\bstack\b|\bbankroll\b|\bpile\b|\bbuy[- ]?in\b", re.I)
RULES = re.compile(r"rule|instruction|how to play|tutorial|explain|help|r[èe]gle", re.I)
WHICH_DICE = re.compile(r"which (dice|die)|dice (to|do you want to) re-?roll|select .*dice|"
                        r"choose .*dice|dice numbers", re.I)
PLAY_AGAIN = re.compile(r"play again|another game|new game|play once more|rematch", re.I)
ROLL = re.compile(r"roll|again|re-?roll|\bstop\b|\bhold\b|\bkeep\b|\bstay\b|\bpass\b|"
                  r"\b(re)?lancer\b|\bencore\b", re.I)
CONTINUE = re.compile(r"continue|next round|ready|enter|any key|proceed|go on|start", re.I)


@dataclass
class Scenario:
    name: str
    chips: int
    plan: Plan
    human_rolls: bool | set = False    # answer "roll again" yes: always, or in these rounds
    rounds: int | None = None          # stop once this many rounds have been played
    purpose: str = ""
    rules: str = "yes"                 # the answer to an optional "read the rules?" question
    typed_name: str = HUMAN            # the name typed first (a computer's, to test a clash)


@dataclass
class Decision:
    """A prompt the driver classified, with the human's place in the game at that moment."""

    index: int                 # position in the event log
    kind: str                  # name, chips, rules, roll, dice, again, continue, other
    wording: str
    answer: str
    human_round: int
    human_rolls: int           # complete rolls the human had in that round
    repeat: int = 0            # 0 the first time a prompt is asked; more when it came back
    intent: str = ""           # what the answer meant (roll questions: yes = roll again)
    context: str = ""          # the last lines on screen when it was asked
    retry: int = 0             # asked again in other words ("Please enter 1 or 2") this often


@dataclass
class Game:
    """The record of one scenario run."""

    scenario: Scenario
    transcript: Transcript
    decisions: list[Decision]
    policy: PocoPolicy
    elapsed: float
    stopped_early: bool        # the run ended because the scenario had what it needed

    @property
    def usable(self) -> bool:
        return bool(self.transcript.draws)


def chips_allowed(question: str, wanted: int) -> int:
    """The scenario's starting chips, or the nearest number the question allows: a program
    may accept only "Enter starting chips (5-50): " (the handout sets no range, and a game
    that never starts judges nothing); the game-over game then runs a few rounds longer."""
    text = question.strip().split("\n")[-1]
    shown = RANGE.search(text)
    if shown:
        low, high = sorted((int(shown.group(1)), int(shown.group(2))))
        return min(max(wanted, low), high)
    least = AT_LEAST.search(text)
    return max(wanted, int(least.group(1))) if least else wanted


RANGE = re.compile(r"(\d+)\s*(?:-|–|to|and)\s*(\d+)")
AT_LEAST = re.compile(r"(?:at least|minimum|min\.?|>=)\s*(\d+)", re.I)


# "How many computer players?" (the handout fixes three; some programs ask anyway)
PLAYERS = re.compile(r"how many (\w+ )?(players|opponents|computers|cpus|bots|ais|people|"
                     r"persons|humans|of you)\b|how many (are|will be) playing|"
                     r"number of (\w+ )?(players|opponents|computers|cpus|bots|people)\b", re.I)
# "Name of computer player 2:" asks for a computer's name, not the human's
OPPONENT = re.compile(r"computer|\bcpu\b|opponent|\bbot\b|\bai\b|robot|player\s*#?\s*[2-4]\b",
                      re.I)
COMPUTER_NAMES = ["Xanthe", "Yorick", "Zelda"]

# A prompt that only asks for a choice ("Your choice (1 or 2): ", "Select an option: ") is
# read together with the menu printed just before it.
GENERIC = re.compile(r"^\W*(your |enter (a |your )?|make a |type (a |your )?)?(choice|choose|"
                     r"option|selection|select|pick|command|number|input|answer)\b|"
                     r"what (would|do) you (like|want) to do|"
                     r"^\W*(enter|type|press)?\s*\W?(1|y)\W? (for|=|to say|means) (yes|y)\b|"
                     r"^\W*(\(?y(es)?\s*/\s*no?\)?|yes or no)\W*$", re.I)


NOT_LETTERS = re.compile(r"[^A-Za-z]")
GAME_WORDS = re.compile(r"roll|again|continue", re.I)
PAUSE = re.compile(r"\b(press|hit)\b.*\benter\b", re.I)
CHOICE_WORDS = re.compile(r"again|stop|hold|keep", re.I)


KEY_IN_WORD = re.compile(r"[(\[](\w)[)\]](?=\w)")


def classify(wording: str, context: str) -> str:
    """What a prompt asks, from its wording; a bare prompt ("> ") or a generic one ("Your
    choice (1 or 2): ") is read with the lines printed just before it (a menu)."""
    # "(r)oll or (s)tay?", "[k]eep": the key letter in brackets is part of its word
    wording, context = KEY_IN_WORD.sub(r"\1", wording), KEY_IN_WORD.sub(r"\1", context)
    text = wording
    # a wording that names what it asks decides alone: "Number of starting chips (normal game
    # = 10)" starts like a generic "Number: " but is the chips question, whatever the
    # instructions above it say about rolls
    own_word = any(r.search(wording) for r in (NAME, CHIPS, PLAYERS, RULES, ROLL))
    if (len(NOT_LETTERS.sub("", wording)) < 8 or GENERIC.search(wording.strip())) and \
            not own_word:
        text = " ".join(context.strip().split("\n")[-5:])
    if PLAYERS.search(text):
        return "players"
    if CHIPS.search(text) and not ROLL.search(text):
        return "chips"
    if NAME.search(text) and not GAME_WORDS.search(text):
        return "computer-name" if OPPONENT.search(text) else "name"
    # "Roll again? (y/n, or type rules to see the rules)": a roll question offering the rules
    if RULES.search(text) and not answers.ROLL_WORDS.search(text):
        return "rules"
    if WHICH_DICE.search(text):
        return "dice"
    if PLAY_AGAIN.search(text):
        return "again"
    pause = PAUSE.search(text)
    if ROLL.search(text) and (not pause or CHOICE_WORDS.search(text)):
        return "roll"
    if CONTINUE.search(text) or not text.strip():
        return "continue"
    return "other"


# A "which dice?" question that also offers to keep every die is the roll-again question
KEEP_ALL = re.compile(r"\bnone\b|\bkeep (all|them|every)|\bno dice\b|\b0 to (keep|stop)|"
                      r"\b(enter|blank|nothing)\b.{0,30}\b(keep|stop|end|none)|"
                      r"\bor \(?\w\)? (to|=) (stop|keep|hold|stay)\b|\bor (stop|hold|stay)\b",
                      re.I)


# "Which dice do you KEEP?" names the dice to keep, not the dice to throw again
KEEP_WHICH = re.compile(r"which (dice|die|ones?)\b.{0,20}\bkeep|\bdice to keep\b|"
                        r"\bkeep which\b", re.I)


# The same question asked again in other words after an answer the program did not take
RE_ASK = re.compile(r"invalid|please (enter|type|choose|answer|select|pick)|try again|"
                    r"not (a )?valid|must (be|enter|type)|didn'?t understand|\bsorry\b|"
                    r"^\W*(please )?(enter|type) (\w+ )?(or|/) ", re.I)


def _asked_again(prompt, decisions: list[Decision], session: Session) -> Decision | None:
    """The decision this prompt repeats in other words, or None."""
    if not decisions or not RE_ASK.search(prompt.wording or prompt.context[-120:]):
        return None
    last = decisions[-1]
    if any(e.kind == "draw" for e in session.child.log[last.index:]):
        return None
    return last


def _just_said_yes(decisions: list[Decision], session: Session) -> bool:
    """The last answer was yes to a roll question and no die was drawn since (so a "which
    dice?" question now is part of that re-roll, not an offer of its own)."""
    if not decisions or decisions[-1].kind != "roll" or decisions[-1].intent != "yes":
        return False
    return not any(e.kind == "draw" for e in session.child.log[decisions[-1].index:])


def play(files: dict, scenario: Scenario, seconds: float) -> Game:
    """Run one scenario in a fresh run folder, removed afterwards (everything needed is in
    the transcript); never raises for the student's failures."""
    with run_folder(SimpleNamespace(files=files), "games") as workdir:
        return _play_in(workdir, scenario, seconds)


def _play_in(workdir: Path, scenario: Scenario, seconds: float) -> Game:
    main = workdir / "a5.py"
    policy = PocoPolicy(HUMAN, scenario.plan, scenario.chips)
    policy.stop_at_round = scenario.rounds
    # CPU seconds decide (a busy machine does not cut a game short); the wall-clock limits
    # are the engine's generous safety nets
    limits = Limits(cpu_seconds=max(1.0, min(6.0, seconds)))
    session = Session.start(main, workdir, policy=policy, limits=limits)
    decisions: list[Decision] = []
    asked = {"name": 0, "chips": 0}
    while (prompt := session.wait()) is not None:
        kind = classify(prompt.wording, prompt.context)
        again = _asked_again(prompt, decisions, session)
        retry = 0
        if again is not None and kind in ("continue", "other", again.kind):
            kind, retry = again.kind, again.retry + 1
        if kind in asked:
            asked[kind] += 1
            if asked[kind] > 3:          # asked again and again: maybe it is something else
                kind = "other"
        if kind == "name":
            policy.named = True
            # a clash scenario types a computer's name first; a program that refuses it and
            # asks again gets the usual name
            policy.human = scenario.typed_name if asked["name"] == 1 else HUMAN
        # (the same "which dice?" asked again after a refused answer stays what it was)
        dice_offer = kind == "dice" and KEEP_ALL.search(prompt.context[-300:]) and \
            not _just_said_yes(decisions, session) and \
            not (prompt.repeats and decisions and decisions[-1].kind == "dice")
        if dice_offer:
            kind = "roll"        # "which dice to re-roll? (ALL, or NONE to keep)" is the offer
        human_round, human_rolls = 0, 0
        if kind == "roll":
            human_round, human_rolls = policy.human_place(prompt.stack)
        rolls = scenario.human_rolls is True or (
            isinstance(scenario.human_rolls, set) and human_round in scenario.human_rolls)
        if kind == "roll" and human_rolls == 0:
            rolls = True          # asked before the first roll of a turn: always roll once
        if kind == "roll" and human_rolls > 3:
            # A fourth roll was offered and taken (that shows the limit is broken, which
            # roll-limit charges); stop now, so the round ends and the other items are judged.
            rolls = False
        if kind == "players":
            intent_text = "3" if OPPONENT.search(prompt.context[-200:]) else "4"
        elif kind == "computer-name":
            given = sum(1 for d in decisions if d.kind == "computer-name" and not d.retry)
            intent_text = COMPUTER_NAMES[given % 3] + ("" if given < 3 else str(given))
        else:
            intent_text = ""
        if kind == "chips":
            policy.chips = chips_allowed(prompt.wording or prompt.context, scenario.chips)
            policy.chips_asked = True
        intent = {"name": policy.human, "chips": str(policy.chips), "rules": scenario.rules,
                  "players": intent_text, "computer-name": intent_text,
                  "dice": "all-dice", "again": "no", "continue": "yes",
                  "roll": "yes" if rolls else "no"}.get(kind, "yes")
        meaning = intent                                    # for roll questions: yes = roll
        if dice_offer:
            intent = "all-dice" if rolls else "no-dice"
        elif kind == "dice" and KEEP_WHICH.search(prompt.wording or prompt.context[-200:]):
            intent = "no-dice"          # "Which dice do you KEEP?": none, to re-roll them all
        elif kind == "roll" and answers.asks_to_stop(prompt.wording or prompt.context):
            intent = {"yes": "no", "no": "yes"}[intent]     # "Do you want to stop? (y/n)"
        question = prompt.wording if len(prompt.wording.strip()) > 3 else prompt.context[-80:]
        if kind == "continue" and not re.search(r"\(|\[|y/n|yes", question):
            intent = "enter"
        typed = session.answer(intent, attempt=retry + prompt.repeats if retry else None)
        policy.answered(kind, meaning)
        decisions.append(Decision(len(session.child.log) - 1, kind, prompt.wording, typed,
                                  human_round, human_rolls, max(prompt.repeats, retry),
                                  meaning, prompt.context, retry))
    session.close()
    transcript = session.transcript
    stopped_early = session.child.stopped_by == "enough"
    return Game(scenario, transcript, decisions, policy, session.child.elapsed, stopped_early)
