"""project.py -h and --help: the instructions, exit status 0, no questions."""
from __future__ import annotations

import re

from graders.engine.harness import run_folder
from graders.engine.requirements import Requirement

from . import diagnose
from .rules import PAYOUTS
from .play import SILENT_PYTTSX3, Played, finish, start

FLAGS = ("-h", "--help")
HAND_NAMES = {"5 of a Kind": r"(5|five)[\s-]+of[\s-]+a[\s-]+kind",
              "4 of a Kind": r"(4|four)[\s-]+of[\s-]+a[\s-]+kind",
              "Straight": r"straight", "Full House": r"full[\s-]+house",
              "3 of a Kind": r"(3|three)[\s-]+of[\s-]+a[\s-]+kind",
              "2 Pair": r"(2|two)[\s-]+pairs?"}
TOPICS = (("the $100 purse", r"\$\s*100\b"), ("the $10 ante", r"\$\s*10\b"),
          ("the $200 goal", r"\$\s*200\b"), ("how to re-roll", r"(?i:roll)"),
          ("how to hold (H)", r"(?i:\bhold\b)|\bH\b"),
          ("how to quit (Q)", r"(?i:\bquit\b)|\bQ\b"))


def run_help(submission, flag: str, budget) -> Played:
    """project.py FLAG in a fresh folder; the run is stopped if it asks anything."""
    with run_folder(submission, "help", SILENT_PYTTSX3) as folder:
        session = start(submission, budget, folder, args=[flag])
        prompt = session.wait()
        if prompt is not None:
            session.stop(f"the program asked a question: {prompt.wording!r}")
        return finish(session, folder, [])


def missing_topics(text: str) -> list[str]:
    """What the instructions leave out (each hand needs its payout on the same line)."""
    missing = [what for what, pattern in TOPICS if not re.search(pattern, text)]
    lines = text.split("\n")
    for name, pattern in HAND_NAMES.items():
        money = rf"\$\s*{PAYOUTS[name]}(?!\d)"
        if not any(re.search(pattern, line, re.I) and re.search(money, line) for line in lines):
            missing.append(f"{name} with ${PAYOUTS[name]} on the same line")
    return missing


def judge_help(flag: str, played: Played) -> list[Requirement]:
    """No question, exit status 0, and the instructions."""
    text = played.transcript.text
    evidence = diagnose.tidy(played.transcript.render(max_lines=60))
    title = f"python project.py {flag}"
    if played.transcript.gave_up is not None:
        found = [Requirement(False, f"`{title}` must print the instructions and stop without "
                                    "asking anything, but the program asked a question (it "
                                    "started a game?).", evidence=evidence), Requirement(False)]
    elif not text.strip():
        found = [Requirement(False, f"`{title}` printed nothing: it must print the "
                                    "instructions.", evidence=evidence), Requirement(False)]
    elif diagnose.run_problem(played.transcript.outcome):
        # the same words for -h and --help (said once), and no list of missing topics
        cause = diagnose.run_problem(played.transcript.outcome)
        return [Requirement(False, "The program crashed at the start, before it could print "
                                   f"the instructions. {cause}", evidence=evidence)] + \
            [Requirement(False)] * 2
    elif not played.ended_normally:
        found = [Requirement(False, f"`{title}` must stop with exit status 0. "
                                    f"{diagnose.tidy(played.transcript.ended_how)}",
                             evidence=evidence), Requirement(False)]
    else:
        found = [Requirement(True), Requirement(True)]
    missing = missing_topics(text)
    found.append(Requirement(True) if not missing else Requirement(
        False, f"The instructions printed by `{title}` must mention: "
               f"{', '.join(missing)}.", evidence=evidence))
    return found
