"""play_round driven through every branch with loaded cards.

Each scenario replaces ``deal`` and ``get_choice`` by scripted versions and watches
``hand_to_string``. It is run with the student's own helpers and, when that is not perfect,
with the kit's correct helpers swapped in; the better of the two counts.
"""

from dataclasses import dataclass

from graders.engine.call.calls import Case, call_problem, printed_before, swap_all
from graders.engine.judge.requirements import Requirement, listed, shown

from . import explain, rules

CALL_TIMEOUT = 1.0

KIT_HELPERS = ("sort_hand", "hand_to_string", "has_pair", "has_straight", "has_triple",
               "score_hand", "dealer_plays")


@dataclass(frozen=True)
class Scenario:
    """One round with loaded cards: the hands as deal() returns them and the player's choice."""

    title: str
    player: tuple[int, int, int]
    choice: str
    dealer: tuple[int, int, int] | None = None

    @property
    def hands(self) -> list[list[int]]:
        """The hands deal() returns, in order (no dealer hand when the player folds)."""
        return [list(self.player)] + ([list(self.dealer)] if self.dealer else [])

    @property
    def points(self) -> int:
        """The points the kit's rules give this round."""
        dealer = list(self.dealer) if self.dealer else None
        return rules.round_points(list(self.player), self.choice, dealer)

    def brief(self) -> str:
        """The round in a few words, e.g. 'your hand A 9 4, dealer J 9 4: +10'."""
        player = rules.hand_to_string(rules.sort_hand(list(self.player)))
        if self.choice == "f":
            return f"your hand {player}, you fold: {self.points:+d}"
        dealer = rules.hand_to_string(rules.sort_hand(list(self.dealer)))
        return f"your hand {player}, dealer {dealer}: {self.points:+d}"

    def spelled(self) -> str:
        """The call and its loaded cards, in words a student can reproduce."""
        dealt = " then ".join(repr(hand) for hand in self.hands)
        return f"play_round() with deal() returning {dealt} and get_choice() returning " \
               f"{self.choice!r}"

    def story(self) -> str:
        """What the round must do, in the handout's words."""
        player = rules.sort_hand(list(self.player))
        text = f"Your hand {rules.hand_to_string(player)}; you "
        if self.choice == "f":
            return text + "fold, so no dealer hand is dealt: play_round() returns -10."
        dealer = rules.sort_hand(list(self.dealer))
        text += f"play. The dealer's hand is {rules.hand_to_string(dealer)}"
        if not rules.dealer_plays(dealer):
            return text + ": no feature and no Queen or higher, so the dealer folds: +10."
        mine, theirs = rules.score_hand(player), rules.score_hand(dealer)
        text += f" ({explain.kind_of(dealer)}, score {theirs}); the dealer plays. Your score " \
                f"is {mine} ({explain.kind_of(player)}). "
        if mine == theirs:
            return text + "Identical hands go to the player: +20."
        return text + ("Yours is higher: +20." if mine > theirs else "The dealer's is higher: -20.")


SCENARIOS = (
    Scenario("the player folds", (14, 9, 4), "f"),
    Scenario("the dealer does not play", (4, 9, 14), "p", (9, 4, 11)),
    Scenario("the player's higher pair wins", (9, 2, 9), "p", (4, 13, 4)),
    Scenario("the dealer's King beats a Queen", (5, 12, 7), "p", (9, 2, 13)),
    Scenario("identical hands go to the player", (14, 13, 14), "p", (13, 14, 14)),
    Scenario("the dealer plays a low pair and wins", (10, 3, 6), "p", (7, 2, 7)),
    Scenario("a straight beats a pair", (3, 4, 2), "p", (14, 13, 14)),
)


def cases_for(kit_helpers: bool = False) -> list[Case]:
    """One play_round call per scenario (the kit's helpers swapped in, if asked)."""
    swap = swap_all(rules, KIT_HELPERS) if kit_helpers else None
    return [Case("play_round()", subject=scenario, swap=swap,
                 patch={"deal": scenario.hands, "get_choice": [scenario.choice]},
                 spy=("hand_to_string", "dealer_plays", "score_hand"), timeout=CALL_TIMEOUT)
            for scenario in SCENARIOS]


def judge(cases: list[Case]) -> list[Requirement]:
    """Two requirements per scenario (the points returned, the hands shown), then two over
    every round that ran: the player's hand shown before the choice, the helpers called."""
    ran = [case for case in cases if not call_problem(case.outcome, "", CALL_TIMEOUT)]
    return [requirement for case in cases for requirement in judge_scenario(case)] + \
        _procedure(ran)


def judge_scenario(case: Case) -> list[Requirement]:
    """The points returned and the hands shown in one round."""
    scenario, outcome = case.subject, case.outcome
    printed = outcome.get("stdout", "")
    problem = call_problem(outcome, scenario.spelled(), CALL_TIMEOUT)
    if problem:
        why = _error_meaning(scenario, outcome) or problem
        actual = _printed(printed)
        if outcome.get("traceback"):
            actual += "\n\n" + outcome["traceback"]
        failed = Requirement(False, f"When {scenario.title}: {why}", scenario.story(), actual)
        return [failed, Requirement(False)]          # both fail; the reason is said once
    shown_hands = [((entry.get("args") or [None])[0], entry.get("result"))
                   for entry in outcome.get("spies", {}).get("hand_to_string", [])]
    return [_points(scenario, case.value, printed), _display(scenario, shown_hands, printed)]


def _points(scenario: Scenario, value: object, printed: str) -> Requirement:
    """play_round returned the round's points (an int)."""
    if isinstance(value, int) and not isinstance(value, bool) and value == scenario.points:
        return Requirement(True)
    return Requirement(False, f"When {scenario.title}, play_round() must return "
                              f"{scenario.points:+d}, but it returned {shown(value)}. "
                              f"The call: {scenario.spelled()}.",
                       scenario.story(), _printed(printed))


def _display(scenario: Scenario, seen: list[tuple], printed: str) -> Requirement:
    """Each dealt hand, sorted, went through hand_to_string and its text was printed.

    ``seen`` holds (argument, returned text) for every call of hand_to_string.
    """
    for hand in scenario.hands:
        wanted = rules.sort_hand(hand)
        texts = [str(text) for argument, text in seen if argument == wanted]
        if not seen:
            why = "play_round never called hand_to_string; both hands must be printed with it."
        elif not texts:
            given = ", ".join(shown(argument) for argument, _ in seen)
            why = f"hand_to_string was called with {given}, but never with the sorted " \
                  f"hand {wanted!r} (deal() returned {hand!r})."
        elif not any(text in printed for text in texts):
            text = texts[0]
            why = f"hand_to_string({wanted!r}) returned {text!r}, but that text was not " \
                  f"printed."
        else:
            continue
        return Requirement(False, f"When {scenario.title}: {why} The handout (section 6) "
                                  "asks for each hand to be sorted high to low and printed "
                                  "using hand_to_string.", scenario.story(), _printed(printed))
    return Requirement(True)


def _procedure(ran: list[Case]) -> list[Requirement]:
    """Over every round that ran: the player's hand shown before get_choice() (section 6,
    steps 1 and 2), and dealer_plays and, where the dealer plays, score_hand called by name
    (section 7: rules copied into play_round are not the functions asked for). A hand never
    printed fails ``_display`` already: it is not said again."""
    order = helpers = Requirement(bool(ran))
    for case in reversed(ran):              # the first failing round is the one said
        scenario, outcome = case.subject, case.outcome
        printed, asked = outcome.get("stdout", ""), printed_before(outcome, "get_choice")
        wanted = rules.sort_hand(list(scenario.player))
        hand = [str(entry.get("result")) for entry in outcome.get("spies", {}).get(
            "hand_to_string", []) if (entry.get("args") or [None])[0] == wanted]
        if asked and hand and not any(text in asked[0] for text in hand):
            order = Requirement(False, f"When {scenario.title}: the player's hand was printed "
                                       "only after get_choice() was called. Section 6: print it "
                                       "first (step 1), then ask (step 2).", scenario.story(),
                                _printed(asked[1]))
        needed = [] if scenario.choice == "f" else ["dealer_plays"] + ["score_hand"] * \
            rules.dealer_plays(list(scenario.dealer))
        if missing := [name for name in needed if not outcome.get("spies", {}).get(name)]:
            helpers = Requirement(False, f"When {scenario.title}: play_round never called "
                                         f"{listed(missing)}. Section 7: play_round must call "
                                         "dealer_plays and score_hand by their names.",
                                  scenario.story(), _printed(printed))
    return [order, helpers]


def _error_meaning(scenario: Scenario, outcome: dict) -> str | None:
    """What a scripted function's complaint means for the student, if it was one."""
    message = outcome.get("message", "")
    if "deal() was called more often" in message:
        if scenario.choice == "f":
            return "play_round called deal() a second time although the player folded. Deal " \
                   "the dealer's hand only after the player has chosen to play."
        return "play_round called deal() more than twice in one round."
    if "get_choice() was called more often" in message:
        return "play_round called get_choice() more than once in one round."
    if outcome.get("error") == "EOFError":
        return "play_round read input itself; it must ask the player with get_choice()."
    return None


def _printed(text: str) -> str:
    """The call's output, labelled for the feedback."""
    return "play_round printed:\n" + (text.rstrip() or "(nothing)")
