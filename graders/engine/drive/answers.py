"""Choosing what to type at a prompt, from the prompt's own wording.

Student programs ask the same question in many ways: "(y/n)", "yes or no", "[r]oll or [s]top",
"1) Roll again 2) Stop", "Press Enter to roll". A grader states an *intent* ("yes", "no",
"enter", or literal text) and this module lists the answer forms to try, best first.
``Attempts`` hands them out one at a time while a program refuses them (the session, the
scripted games and the console driver all retry this way).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

POSITIVE = {"y", "yes", "yeah", "yep", "r", "roll", "rolls", "again", "reroll", "re-roll",
            "continue", "c", "play", "p", "go", "ok", "okay", "sure", "more", "another",
            "keep rolling", "roll again", "true", "t", "one more", "o", "oui", "si", "sí", "sim",
            "ja", "j"}
NEGATIVE = {"n", "no", "nope", "s", "stop", "h", "hold", "k", "keep", "pass", "end", "done", "bank",
            "stay", "finish", "e", "exit", "q", "quit", "stand", "f", "false", "nah", "non",
            "nein"}
ENTER_WORDS = re.compile(r"\b(press|hit|push|tap)\s+(the\s+)?(enter|return|any\s+key)|"
                         r"\benter\s+(any\s+key|to\s+(continue|roll|start|begin|proceed|play))",
                         re.I)


@dataclass
class Option:
    """One answer the prompt offers, with what it means."""

    text: str
    label: str

    @property
    def polarity(self) -> str | None:
        words = self.label.lower().strip(" .!?:'\"")
        first = words.split()[0] if words.split() else words
        for candidate in (words, first, self.text.lower()):
            if candidate in POSITIVE or candidate.startswith(("roll", "again", "yes", "throw")):
                return "yes"
            if candidate in NEGATIVE or candidate.startswith(("stop", "hold", "no", "keep",
                                                              "bank")):
                return "no"
        return None


_PAIR = re.compile(r"[(\[{<]\s*['\"]?(\w{1,12})['\"]?\s*(?:/|\||,|\bor\b)\s*['\"]?(\w{1,12})"
                   r"['\"]?\s*(?:(?:/|\||,|\bor\b)\s*['\"]?\w{1,12}['\"]?\s*)?[)\]}>]")
_BRACKET_LETTER = re.compile(r"[(\[](\w)[)\]](\w*)")
# "1) Roll again", "    2 - Keep this roll" (indented under "What next?")
_MENU_LINE = re.compile(r"^[ \t]*\W{0,3}[(\[]?(\d)\s*[).\]:=-]+\s*([A-Za-z][\w' -]{0,30})",
                        re.M)
# "1) Roll again   2) Stop", "[1] Roll | [2] Stop": a later item of a menu on one line, after
# a gap of spaces or a bar (not "[3, 4, 6] Roll again?": no bracket of its own before the 6)
_MENU_ITEM = re.compile(r"(?:[ \t]{2,}|[ \t]*[|;][ \t]*)(?:[(\[](\d)[)\]]|(\d)[).:=-]+)[ \t]*"
                        r"([A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,4})")
# "type h to hold", "type h and Enter to hold"
_KEY_FOR = re.compile(r"(?:enter|type|press|input|choose|select|or|and)\s+['\"]?(\w{1,10})['\"]?\s+"
                      r"(?:and\s+(?:press\s+|hit\s+)?(?:enter|return)\s+)?"
                      r"(?:to|for)\s+(?:an?\s+|the\s+)?([A-Za-z][\w-]*(?:\s[a-z]+)?)", re.I)
_QUOTED_OR = re.compile(r"['\"](\w{1,10})['\"]\s*(?:,|or)\s*['\"](\w{1,10})['\"]", re.I)
# "Roll or bank?", "roll or hold": a yes word or letter, then a no word or letter
_BARE_OR = re.compile(r"\b(y|yes|r|roll)\s+or\s+(n|no|s|stop|h|hold|bank|pass|stay|end)\b",
                      re.I)
_LABEL_EQUALS = re.compile(r"\b(\w)\s*[=:]\s*([A-Za-z]{2,12})")
# "Roll again (R) or stay (S)?": the key in brackets after its word
_WORD_THEN_KEY = re.compile(r"([A-Za-z]{2,12})\s*[(\[](\w)[)\]](?!\w)")
# "s (sí) or n (no)", "r (roll)", "1 (roll again)": a key, then its word(s) in brackets
_KEY_THEN_WORD = re.compile(r"(?<![\w(\[])(\w)\s+[(\[]([^\W\d_]{2,8}(?: [^\W\d_]{2,8})?)[)\]]")
# "roll again? y/n" without brackets: a pair of words or letters, one of them a yes or a no
# (so "and/or" or "Win/Loss" in the text around a question are not taken for its answers)
_BARE_SLASH = re.compile(r"(?<![\w/])([A-Za-z]{1,5})\s*/\s*([A-Za-z]{1,5})(?![\w/])")
# "(Enter = roll again, anything else = stop)", "Enter to roll, s to stop": Enter as an answer
_ENTER_LABEL = re.compile(r"\benter\s*(?:[=:]|\bfor\b|\bto\b)\s*([A-Za-z][\w' -]{1,20})", re.I)
# "Enter 1 for yes, 2 for no": the second key follows a comma, not a verb
_KEY_FOR_WORD = re.compile(r"(?<![\w'])['\"]?(\w{1,3})['\"]?\s+(?:for|to)\s+"
                           r"(yes|no|rolling|roll|stop|stopping|keep|hold|again|quit)\b", re.I)


def options(context: str) -> list[Option]:
    """The answers a prompt offers, in order of appearance (duplicates dropped)."""
    found: list[tuple[int, Option]] = []
    for match in _PAIR.finditer(context):
        for group in (1, 2):
            found.append((match.start(group), Option(match.group(group),
                                                     match.group(group))))
    for match in _BRACKET_LETTER.finditer(context):
        if match.group(2):
            found.append((match.start(), Option(match.group(1),
                                                match.group(1) + match.group(2))))
    for match in _MENU_LINE.finditer(context):
        label = re.split(r"[ \t]{2,}|[ \t]*[|;]", match.group(2))[0]   # the next item's gap
        found.append((match.start(), Option(match.group(1), label.strip())))
    for match in _MENU_ITEM.finditer(context):
        found.append((match.start(), Option(match.group(1) or match.group(2), match.group(3))))
    for match in _KEY_FOR.finditer(context):
        if match.group(1).lower() not in ("enter", "return", "any", "the", "a", "your"):
            found.append((match.start(), Option(match.group(1), match.group(2))))
    for regex in (_QUOTED_OR, _BARE_OR):
        for match in regex.finditer(context):
            for group in (1, 2):
                found.append((match.start(group), Option(match.group(group),
                                                         match.group(group))))
    for match in _LABEL_EQUALS.finditer(context):
        found.append((match.start(), Option(match.group(1), match.group(2))))
    for match in _WORD_THEN_KEY.finditer(context):
        plural = match.group(2).lower() == "s" and context[match.end(1)] in "(["  # "roll(s)"
        if match.group(1).lower() not in ("or", "and", "the", "to", "enter", "type",
                                          "press") and not plural:
            found.append((match.start(2), Option(match.group(2), match.group(1))))
    for match in _KEY_THEN_WORD.finditer(context):
        found.append((match.start(), Option(match.group(1), match.group(2))))
    for match in _BARE_SLASH.finditer(context):
        pair = [Option(match.group(group), match.group(group)) for group in (1, 2)]
        if any(option.polarity for option in pair):
            found += [(match.start(group), option) for group, option in zip((1, 2), pair)]
    for match in _ENTER_LABEL.finditer(context):
        found.append((match.start(), Option("", match.group(1).strip())))
    for match in _KEY_FOR_WORD.finditer(context):
        if match.group(1).lower() not in ("a", "the", "to", "or", "and"):
            found.append((match.start(), Option(match.group(1), match.group(2))))
    # one option per key, where it first appears; a key found again with a meaning (the "2"
    # of "2 = no") takes the place of one without (the "2" of the dice "[2, 2, 4]" above)
    result: dict[str, Option] = {}
    for _, option in sorted(found, key=lambda pair: pair[0]):
        key = option.text.lower()
        if key not in result or option.polarity and not result[key].polarity:
            result[key] = option
    # "(s/n)", "s (sí) or n (no)": beside an n for no and nothing else saying yes, s is the sí
    # (or sim) of Spanish and Portuguese, not a stop
    keys = {key: option.polarity for key, option in result.items()}
    if keys.get("n") == "no" and "s" in keys and "yes" not in keys.values() and \
            not re.search(r"\bstop|\bstay|\bstand", context, re.I):
        result["s"] = Option("s", "sí")
    return list(result.values())


def asks_to_stop(wording: str, context: str = "") -> bool:
    """A yes/no question about stopping rather than going on ("Stop rolling? (y/n)", "Do you
    want to hold?", "Hold? [Y/n]"), where yes means stop: an answer meaning "go on" is then
    typed as a no. Not a question whose own options say what is what ("[r]oll or [s]top",
    "1 = roll, 2 = hold", a menu printed above it: ``context``)."""
    if any(option.polarity == "yes" and option.text.lower() not in ("y", "yes")
           for option in options(context + "\n" + wording)):
        return False
    return bool(STOP_WORDS.search(wording)) and not ROLL_WORDS.search(wording)


# "Bank your points?", "Are you done?"; "keep" is a stop ("keep this roll?") unless it goes on
STOP_WORDS = re.compile(r"\b(stop|hold|keep(?! (going|rolling|playing|on)\b)|stay|pass|"
                        r"end (your|my|the) turn|stand|bank|done|finish|stick|cash in)\b", re.I)
# "Roll?" asks to roll; "keep this roll?" asks to stop (the roll is the dice, not the verb)
ROLL_WORDS = re.compile(r"roll again|re-?roll|another roll|roll more|keep rolling|"
                        r"keep going|go on|carry on|continue|"
                        r"(?<!this )(?<!the )(?<!your )(?<!that )(?<!my )roll\?", re.I)


def asks_for_enter(context: str) -> bool:
    """True when the prompt only wants Enter (or any key)."""
    return bool(ENTER_WORDS.search(context))


# Which dice to re-roll: every die, or none (keep them all: the turn ends).
DICE_FORMS = {"all-dice": ["all", "a", "123", "1 2 3", "d1 d2 d3", "1,2,3", "abc", "y"],
              "no-dice": ["none", "", "0", "n", "no", "keep", "k", "stop", "s"]}


def _dice_forms(context: str, intent: str) -> list[str]:
    """Forms for 'all-dice' / 'no-dice', spelled as the prompt spells them first ("ALL")."""
    result = []
    for form in DICE_FORMS[intent]:
        shown = re.search(r"(?<![\w])" + re.escape(form) + r"(?![\w])", context, re.I) \
            if len(form) > 1 and form.isalpha() else None
        result.append(shown.group(0) if shown else form)
    return list(dict.fromkeys(result))


def forms(context: str, intent: str) -> list[str]:
    """Answers to try for an intent ('yes', 'no', 'enter', 'all-dice', 'no-dice' or literal
    text), best first."""
    if intent in DICE_FORMS:
        return _dice_forms(context, intent)
    if intent not in ("yes", "no", "enter"):
        return [intent]
    offered = options(context)
    if intent == "enter":
        return ["", "y", "yes", " "]
    wanted = [o.text for o in offered if o.polarity == intent]
    numbers = [o for o in offered if o.text.isdigit()]
    other = {"yes": "no", "no": "yes"}[intent]
    rest = [o.text for o in numbers if o.polarity != other]
    if not wanted and len(numbers) == 2 and len(rest) == 1:
        wanted = rest          # "[1] Score these  [2] Throw again": the other one says no
    elif not wanted and len(numbers) >= 2:      # "1) ..., 2) ..." with unreadable labels
        wanted = [numbers[0].text if intent == "yes" else numbers[-1].text]
    if intent == "yes":
        if asks_for_enter(context) and not any(o.polarity == "yes" for o in offered):
            wanted.append("")
        fallback = ["y", "yes", "Y", "1", "r", "roll", ""]
    else:
        fallback = ["n", "no", "N", "2", "s", "stop", "h", "q"]
    result: list[str] = []
    for text in wanted + fallback:
        if text not in result:
            result.append(text)
    return result


class Attempts:
    """The forms of one answer, tried in turn while the program refuses them:

        attempt = Attempts(prompt.context, "no")     # "(r)oll or (h)old?": h, then n, ...
        typed = attempt.next()                       # None once every form was tried
    """

    def __init__(self, context: str, intent: str):
        self.intent = intent
        self.forms = forms(context, intent)
        self.tried: list[str] = []

    def next(self) -> str | None:
        """The next form not tried yet, or None."""
        for form in self.forms:
            if form not in self.tried:
                self.tried.append(form)
                return form
        return None
