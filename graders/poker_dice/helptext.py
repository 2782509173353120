"""project.py -h and --help: the instructions, exit status 0, no questions; and what every run
of project.py gets (its limits, a silent pyttsx3: speech is Magic8's item, not the games')."""
from __future__ import annotations

import re

from graders.engine.run.harness import run_folder
from graders.engine.judge.requirements import Requirement
from graders.engine.drive.scripted import Played, Stop, play

from . import diagnose
from .rules import PAYOUTS

FLAGS = ("-h", "--help")
SILENT_PYTTSX3 = {"pyttsx3.py": '"""A silent stand-in for pyttsx3, put here by the grader."""'
                                "\n\n\nclass _Engine:\n    def __getattr__(self, name):\n"
                                "        return lambda *args, **kwargs: None\n\n\n"
                                "def init(*args, **kwargs):\n    return _Engine()\n"}
HAND_NAMES = {"5 of a Kind": r"(5|five)[\s-]+of[\s-]+a[\s-]+kind",
              "4 of a Kind": r"(4|four)[\s-]+of[\s-]+a[\s-]+kind",
              "Straight": r"straight", "Full House": r"full[\s-]+house",
              "3 of a Kind": r"(3|three)[\s-]+of[\s-]+a[\s-]+kind",
              "2 Pair": r"(2|two)[\s-]+pairs?"}
TOPICS = (("the $100 purse", r"\$\s*100\b"), ("the $10 ante", r"\$\s*10\b"),
          ("the $200 goal", r"\$\s*200\b"), ("how to re-roll", r"(?i:roll|throw|toss)"),
          ("how to hold (H)", r"(?i:\bhold\b)|\bH\b"),
          ("how to quit (Q)", r"(?i:\bquit\b)|\bQ\b"))


def limits(budget):
    """The limits of every run of project.py."""
    return budget.limits(cpu_seconds=7, stuck_cpu_seconds=1.5, idle_seconds=10)


def run_help(submission, flag: str, budget) -> Played:
    """project.py FLAG in a fresh folder; the run is stopped if it asks anything."""
    with run_folder(submission, "help", SILENT_PYTTSX3) as folder:
        return play(folder / "project.py", folder, lambda prompt, *_: Stop(
            f"the program asked a question: {prompt.wording!r}"), limits=limits(budget),
            args=[flag])


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
    transcript, title = played.transcript, f"python project.py {flag}"
    evidence, problem = diagnose.tidy(transcript.render(max_lines=60)), None
    if transcript.gave_up is not None:
        problem = f"`{title}` must print the instructions and stop without asking anything, " \
                  "but the program asked a question (it started a game?)."
    elif not transcript.text.strip():
        problem = f"`{title}` printed nothing: it must print the instructions."
    elif diagnose.run_problem(transcript.outcome):
        # the same words for -h and --help (said once), and no list of missing topics
        return [Requirement(False, "The program crashed at the start, before it could print "
                                   f"the instructions. {diagnose.run_problem(transcript.outcome)}",
                            evidence=evidence)] + [Requirement(False)] * 2
    elif not played.ended_normally:
        problem = f"`{title}` must stop with exit status 0. " \
                  f"{diagnose.tidy(transcript.ended_how)}"
    missing = missing_topics(transcript.text)
    return [Requirement(problem is None, problem or "", evidence=evidence),
            Requirement(problem is None),
            Requirement(not missing, f"The instructions printed by `{title}` must mention: "
                                     f"{', '.join(missing)}.", evidence=evidence)]
