"""main driven for several rounds: under a terminal with loaded cards, and with play_round
replaced by a stand-in (so that a broken play_round does not cost main its marks).

Both ways produce a :class:`GameRun`: the prompts in order with what was printed before each.
The same :class:`Plan` judges both: the running total after every round, a question asked
again after an answer that is not y/yes/n/no, the stop on n/no and the final total.
"""

import re
from itertools import accumulate
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.call.calls import Case, output_at_calls
from graders.engine.run.harness import Limits
from graders.engine.drive.loaded import ScriptedValues
from graders.engine.drive.readers import score_table
from graders.engine.judge.requirements import Requirement
from graders.engine.drive.scripted import Stop, play

from . import rules
from .rounds import Scenario

# the kinds of prompt, tried in order ('Play or fold?', 'Play another round?'), else 'other'
PROMPT_KINDS = (("round", re.compile(r"fold|\(p/f\)", re.I)),
                ("ask", re.compile(r"another|again|y\s*(/|or)\s*n\b|yes\s*(/|or)\s*no|"
                                   r"continue|keep|more|play", re.I)))
MAIN_TIMEOUT = 2.0
MAX_OTHER_PROMPTS = 5


@dataclass(frozen=True)
class Answer:
    text: str                       # what the grader types at "Play another round? (y/n)"
    asked_again: bool = False       # this question repeats one whose answer was not valid


@dataclass(frozen=True)
class Plan:
    """A game: the rounds with their cards, and the answers to 'Play another round?'."""

    name: str
    rounds: tuple[Scenario, ...]
    answers: tuple[Answer, ...]

    def totals(self) -> list[int]:
        """The running total after each round."""
        return list(accumulate(one.points for one in self.rounds))

    def describe(self) -> str:
        """The game for the feedback: each round's cards and points, then the answers."""
        rounds = "; ".join(f"round {number}: {one.brief()}" for number, one in
                           enumerate(self.rounds, 1))
        typed = ", ".join(repr(answer.text) for answer in self.answers)
        return f"{rounds}. Answers to 'Play another round?': {typed}."


PLANS = (
    Plan("four rounds", (Scenario("", (5, 12, 7), "p", (9, 2, 13)),
                         Scenario("", (4, 9, 14), "p", (9, 4, 11)),
                         Scenario("", (9, 2, 9), "p", (4, 13, 4)), Scenario("", (3, 7, 2), "f")),
         (Answer("y"), Answer("maybe"), Answer("YES", asked_again=True), Answer(" yes "),
          Answer("n"))),
    Plan("one round", (Scenario("", (14, 13, 14), "p", (13, 14, 14)),), (Answer(" No "),)),
)


@dataclass
class GameRun:
    """One run of main: ('round' | 'ask' | 'other', output since the previous event) pairs."""

    events: list[tuple[str, str]] = field(default_factory=list)
    ended: bool = False                          # finished normally after the last answer
    went_on: bool = False                        # kept playing or asking after the last answer
    tail: str = ""                               # output after the last answer
    problem: str | None = None                   # how the run ended, when not normally
    transcript: str = ""
    played: bool = True                          # False: the grader skipped this run


def not_played(reason: str) -> GameRun:
    """A terminal run the grader skipped (e.g. play_round hangs, so the game would too)."""
    return GameRun(problem=reason, transcript=f"(not run: {reason})", played=False)


def play_in_terminal(target: Path, workdir: Path, plan: Plan, limits: Limits) -> GameRun:
    """Run the program as a player would, answering from the plan; deal() gets the plan's
    ranks (its draws over 2..14). A pause ("Press Enter to continue") gets Enter and is not
    an event (the engine's ``scripted.play``)."""
    dealt = [rank for one in plan.rounds for hand in one.hands for rank in hand]
    answers, choices = list(plan.answers), [one.choice for one in plan.rounds]
    kinds, run = [], GameRun()

    def respond(prompt, session, typed):
        kind = next((kind for kind, words in PROMPT_KINDS if words.search(prompt.wording)),
                    "other")
        run.went_on = not answers
        if run.went_on:
            return Stop("the game went on after the last answer")
        if kind == "other" and kinds.count("other") >= MAX_OTHER_PROMPTS:
            return Stop("the program asked too many questions the grader did not know")
        kinds.append(kind)
        if kind == "round":
            return choices.pop(0) if choices else "p"
        return answers.pop(0).text if kind == "ask" else ""   # Enter at an unknown prompt

    played = play(target, workdir, respond, limits=limits,
                  policy=ScriptedValues(dealt, min(rules.RANKS), max(rules.RANKS)))
    run.events = [(kind, f"{segment.text}«{typed}»\n")
                  for kind, segment, typed in zip(kinds, played.segments, played.typed)]
    run.tail = played.segments[-1].text if not answers else ""
    run.ended = not answers and not run.went_on and played.ended_normally
    if not run.ended:
        run.problem = played.transcript.ended_how
    run.transcript = played.transcript.render(max_lines=80)
    return run


def stand_in_cases() -> list[Case]:
    """main() with play_round returning each plan's points and input() answering from it."""
    return [Case("main()", subject=plan, timeout=MAIN_TIMEOUT,
                 patch={"play_round": [one.points for one in plan.rounds]},
                 inputs=tuple(answer.text for answer in plan.answers)) for plan in PLANS]


def stand_in_run(case: Case) -> GameRun:
    """Rebuild the events of a stand-in run from its timeline: where play_round was called
    and where each question was asked and answered, as offsets in what main printed."""
    run, printed, outcome = GameRun(), case.outcome.get("stdout", ""), case.outcome
    # main() did not finish: it hung or was stopped, or it was not run
    if case.hung or case.skipped or outcome.get("error") in ("import", "grader"):
        run.problem = case.problem
        run.transcript = printed
        return run
    typed = [answer.text for answer in case.subject.answers]
    points = [one.points for one in case.subject.rounds]
    parts = output_at_calls(outcome)
    for kind, _, text in parts[:-1]:
        if kind == "input":
            run.events.append(("ask", text + (f"«{typed.pop(0)}»\n" if typed else "\n")))
        elif kind == "script":          # (an "answered" text is the answer: «shown»)
            run.events.append(("round", text + (
                f"[the stand-in play_round() returned {points.pop(0):+d}]\n" if points else
                "[play_round() was called once more; the grader stopped the game]\n")))
    answers = len(case.subject.answers)
    asked = sum(1 for kind, _ in run.events if kind == "ask")
    answered = [at for at, (kind, _, _) in enumerate(parts) if kind == "answered"]
    run.tail = "".join(text for _, _, text in parts[answered[answers - 1] + 1:]) \
        if len(answered) >= answers else ""
    ended = outcome.get("ok") or outcome.get("error") == "SystemExit"
    run.went_on = asked > answers or outcome.get("error") == "RuntimeError"
    run.ended = bool(ended) and asked == answers
    if not run.ended:
        run.problem = (None if ended else case.problem) or "main() ended before the last answer"
    run.transcript = "".join(text for _, text in run.events) + run.tail
    return run


def judge(plan: Plan, run: GameRun) -> list[Requirement]:
    """Per question: what the answer before it did, and the running total; then the stop and
    the final total.

    Interpretation: each answer is judged on what it did itself, from where the game was (a
    round played after y or yes, none after an answer that is not valid), and every total on
    the rounds really played. So a program that does not take one form of yes loses that
    form, not every check after it; its totals are right if they add up the rounds it
    played."""
    requirements, rounds, since, segment, answered = [], 0, 0, "", 0
    for kind, text in run.events:
        segment += text
        if kind == "round":
            rounds, since = rounds + 1, since + 1
            continue
        if kind != "ask" or answered >= len(plan.answers):
            continue
        requirements += _judge_answer(plan, run, answered, rounds, since, segment)
        segment, since, answered = "", 0, answered + 1
    unanswered = [answer.text for answer in plan.answers[answered:]]
    if unanswered:
        typed = ", ".join(map(repr, unanswered))
        requirements.append(Requirement(
            False, f"The game ended before the grader could type {typed}: "
                   f"{run.problem or 'it stopped'}", plan.describe(), evidence=run.transcript))
        # The rest (the stop and the final total included) count, but are said once.
        return requirements + [Requirement(False) for _ in range(len(unanswered) + 1)]
    return requirements + _judge_end(plan, run, rounds)


def _judge_answer(plan: Plan, run: GameRun, index: int, rounds: int, since: int,
                  text: str) -> list[Requirement]:
    """At the question answered with answer ``index``: the answer before it played one round
    (y, yes) or none (an answer that is not valid), and the total shown is that of the
    ``rounds`` played so far (``since``: rounds since the question before)."""
    found = []
    if index:
        before, valid = plan.answers[index - 1].text, not plan.answers[index].asked_again
        if valid and since == 0:
            found.append(Requirement(
                False, f"After the answer {before!r} the program did not play another round. "
                       "y or yes, in capitals or small letters and with spaces around, must "
                       "play another round.", plan.describe(), None, evidence=run.transcript))
        elif since > 1 or not valid and since:
            found.append(Requirement(
                False, f"After the answer {before!r} the program played "
                       f"{'another round' if since == 1 else f'{since} rounds'}. " +
                       ("Any answer other than y, yes, n or no must ask 'Play another round? "
                        "(y/n)' again." if not valid else "y or yes plays one round."),
                plan.describe(), None, evidence=run.transcript))
        else:
            found.append(Requirement(True))
    if since and 0 < rounds <= len(plan.rounds):
        after = f"After round {rounds} ({plan.rounds[rounds - 1].brief()})"
        found += [_result(run, text, plan.rounds[rounds - 1].points, after),
                  _total(run, text, plan.totals()[rounds - 1],
                         f"{after} the running total must be")]
    return found


def _result(run: GameRun, text: str, points: int, after: str) -> Requirement:
    """Section 9, step 3: the round's points, won or lost, shown before any total on the
    line (the totals are the numbers after 'total'). Interpretation: the number is what
    counts ('Round result: -10', 'You lost 10 points', '+10'); its sign may be in words, and
    'Result: -10 | Total: 30' shows it too, though the total should have its own line."""
    shown = [re.split(r"(?i)total", line)[0] for line in text.splitlines()
             if not line.startswith("[the stand-in")]
    numbers = {abs(int(number)) for part in shown for number in re.findall(r"\d+", part)}
    # one sentence for every round: the problem is said once, with its first round
    return Requirement(abs(points) in numbers, "After every round the program must show the "
                       "round's result, how many points were won or lost (section 9, step 3)",
                       f"{after}: a line such as 'Round result: {points:+d}'",
                       text.strip() or "(nothing)", evidence=run.transcript)


def _total(run: GameRun, text: str, expected: int, rule: str) -> Requirement:
    """The last total shown in ``text`` is ``expected`` (``rule``: where, e.g. 'After round 2
    (...) the running total must be')."""
    shown = score_table.last_number(text, "total")        # the handout's rule (section 9)
    seen = "no line with the word 'total'" if shown is None else f"the total {shown}"
    return Requirement(shown == expected, f"{rule} {expected}, but the program showed {seen}.",
                       f"a line containing 'total' ending with {expected}",
                       text.strip() or "(nothing)", evidence=run.transcript)


def _judge_end(plan: Plan, run: GameRun, rounds: int) -> list[Requirement]:
    """After the last answer: the game stops, and the final total is that of the ``rounds``
    played."""
    last = plan.answers[-1].text
    final = plan.totals()[min(rounds, len(plan.rounds)) - 1] if rounds else 0
    ending = f"after {last!r}: a line with the final total ({final}), then the program ends"
    if run.went_on:
        return [Requirement(False, f"After the answer {last!r} the game went on; n or no must "
                                   "stop it.", ending, None, evidence=run.transcript)]
    if not run.ended:
        return [Requirement(False, f"The game did not end normally after {last!r}: "
                                   f"{run.problem}", ending, None, evidence=run.transcript)]
    # (a game that did not stop has no final total to check: the stop is the problem)
    return [Requirement(True), _total(run, run.tail, final, f"After the answer {last!r} "
                                      "the final total printed must be")]
