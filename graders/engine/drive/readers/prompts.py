"""Telling a program's questions apart by their wording.

A grader lists the kinds of question its game asks in tiers, each kind with the words that
show it (one regular expression, or a tuple that must all match):

    TIERS = [{"enter": is_pause}, {"reroll": (REROLL, YES_NO)},
             {"keep": KEEP, "option": OPTION}, {"name": NAME}, {"enter": ENTER}]
    kind_of("Roll again? (y/n)", TIERS, expected="keep")     # 'reroll'

The first tier in which a kind matches decides: one kind matched is the answer; two kinds of
one tier matched leave it to the game's state (``expected``), as does a wording that matches
nothing (then ``fallback`` if given: a list of options printed above a bare "> " makes it the
option question).
"""
from __future__ import annotations

import re

# "Roll again? (y/n)", "Throw again [Y/N]", "yes or no", or a question that starts with a verb
# and does not ask which ("Re-roll which dice?" wants dice, not yes or no)
YES_NO = re.compile(r"\by(es)?\s*[/|]\s*no?\b|\byes\s+or\s+no\b|"
                    r"^\W*(do|would|will|want|roll|throw|re-?roll)\b"
                    r"(?![^?]*\b(which|what|letters?)\b)[^?]*\?\W*$", re.I)
ENTER = re.compile(r"\bpress\b|\bhit\b|any key|continue", re.I)
# The one pause: "Press Enter to continue...", "Hit enter to roll", "press any key", "Press
# Enter to see the options" (whatever else it names), and not a question that offers some other
# answer ("Continue? (y/n)", "Dice to re-roll (Enter to hold)", "Press Enter to keep them all,
# or type the letters", "... or q"). ``is_pause`` is the test; PAUSE the words alone.
PAUSE = re.compile(r"\b(press|hit)\b[^?]*\b(enter|return|key)\b|\bany\s+key\b", re.I)
OTHER_ANSWERS = re.compile(r"\by(es)?\s*[/|]\s*no?\b|\byes\b|\bno\b|\bor\b|\bq\b|\bquit\b|"
                           r"\bhold\b|re-?roll|\bdice\s+to\b|\btype\b|\bletters?\b|"
                           r"\bwhich\b|\bnumbers?\b", re.I)
# "Are you sure you want to quit? (y/n)": a program checking the answer just given
CONFIRM = re.compile(r"\bare\s+you\s+sure\b|\breally\b|\bconfirm", re.I)
# "What is your name?", "Who's playing?", "Who are you?", "What should I call you?", "How
# you are called?", "Comment vous appelez-vous ?", "¿Cómo te llamas?", "Come ti chiami?"
NAME = re.compile(r"\bname\b|\bnom\b|\bprénom\b|\bwho(\s+i|')s\s+(playing|there)\b|"
                  r"\bwho\s+are\s+you\b|\bcall\s+you\b|\bintroduce\s+yourself\b|"
                  r"\byou\s+(are\s+)?called\b|\bare\s+you\s+called\b|\bappel(ez|les)\b|"
                  r"\bllamas\b|\bnombre\b|\bchiami\b|\bheißt\b|\bnome\b", re.I)
LETTERS = re.compile("[A-Za-z]")


def asked(prompt) -> str:
    """What a session's prompt asks: the text given to input() when it holds words, else the
    last screen line that does (a bare "> " after "Which dice to keep?")."""
    if LETTERS.search(prompt.text):
        return prompt.text
    lines = [line for line in prompt.context.splitlines() if LETTERS.search(line)]
    return (lines or [""])[-1]


def is_pause(wording: str) -> bool:
    """A pause for the player to press Enter, not a question (see PAUSE); nor a question
    asked before it ("Player name? Press Enter for Sam")."""
    found = PAUSE.search(wording)
    return bool(found) and "?" not in wording[:found.start()] and \
        not OTHER_ANSWERS.search(wording)


def matches(wording: str, words) -> bool:
    """Whether the wording shows one kind's words: a pattern, a test (``is_pause``), or a
    tuple of them that must all match."""
    return all(test(wording) if callable(test) and not hasattr(test, "search")
               else test.search(wording)
               for test in (words if isinstance(words, tuple) else (words,)))


def kind_of(wording: str, tiers: list[dict], expected: str, fallback: str | None = None) -> str:
    """The kind of question by its wording (see the module's docstring)."""
    for tier in tiers:
        found = [kind for kind, words in tier.items() if matches(wording, words)]
        if found:
            return found[0] if len(found) == 1 else expected
    return fallback or expected
