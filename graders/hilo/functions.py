"""The student's classes called directly: every call of the grade in one child process.

``collect`` runs the probe (probe.py, lent to the child by the engine) over every card,
the decks and the game scenarios, and keeps the plain data it returns; the ``judge_*``
functions turn that data into requirements (requirements.py), one list per rubric item.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from graders.engine.call.calls import Case, FunctionCalls, Kit, call_problem
from graders.engine.run.harness import run_folder
from graders.engine.drive.loaded import RANKS, SUITS, LoadedCards, PlayingCard
from graders.engine.judge.requirements import Requirement, check

from . import probe

TIMEOUT = 1.0
RULES = dict(RANKS)
SMALL_RULES = {2: "Two", 9: "Nine"}
FACE_RULES = {1: "Ace", 11: "Jack", 13: "King"}
JOKER = ({0: "Joker"}, 0, "")
HIGH_ACE = ({14: "Ace"}, 14, "Spades")
RANDOM_DRAWS = 60
OTHER_SUIT = {"Clubs": "Hearts", "Diamonds": "Spades", "Hearts": "Clubs", "Spades": "Diamonds"}


def _card(value: int, suit: str) -> list:
    return [value, suit]


# The game scenarios: (name, bet, steps). Cards are [visible, hidden].
def _start(visible, hidden) -> list:
    return [["cards", _card(*visible), _card(*hidden)], ["say", None]]


STAGE_SCENARIOS = (
    ("higher, right", 10, _start((4, "Clubs"), (9, "Hearts")) + [["say", "higher"]]),
    ("lower, right", 10, _start((11, "Diamonds"), (3, "Spades")) + [["say", "lower"]]),
    ("higher, wrong", 10, _start((8, "Hearts"), (2, "Clubs")) + [["say", "higher"]]),
    ("lower, wrong", 10, _start((5, "Spades"), (13, "Diamonds")) + [["say", "lower"]]),
    ("answers in any case", 10, _start((3, "Clubs"), (12, "Hearts"))
     + [["say", "  HIGHER "], ["say", " Pass"]]),
    ("invalid answers", 10, _start((6, "Clubs"), (10, "Diamonds"))
     + [["say", "maybe"], ["say", ""], ["say", "double"], ["say", "pass"], ["say", "higher"],
        ["say", "maybe"], ["say", "lower"], ["say", ""], ["say", "pass"],
        ["say", "higher"], ["say", "double"], ["say", "pass"]]),
    ("double, then lose", 10, _start((2, "Diamonds"), (7, "Spades"))
     + [["say", "higher"], ["say", "Double "], ["cards", _card(9, "Clubs"), _card(1, "Hearts")],
        ["say", "higher"]]),
)
CHAINS = (
    ("three doubles", 10, _start((4, "Clubs"), (9, "Hearts"))
     + [["win", "higher"], ["say", "double"], ["cards", _card(11, "Diamonds"), _card(3, "Spades")],
        ["win", "lower"], ["say", "double"], ["cards", _card(2, "Hearts"), _card(8, "Clubs")],
        ["win", "higher"], ["say", "double"], ["cards", _card(12, "Spades"), _card(6, "Diamonds")],
        ["win", "lower"], ["say", "pass"]]),
    ("one win, pass", 7, _start((10, "Hearts"), (1, "Clubs"))
     + [["win", "lower"], ["say", "pass"]]),
)


@dataclass
class Evidence:
    """What the calls returned, by what they tested."""

    import_error: str | None = None
    available: dict = field(default_factory=dict)
    cards: dict = field(default_factory=dict)            # (rules label, value, suit) -> facts
    random: dict = field(default_factory=dict)           # rules label -> draws
    decks: dict = field(default_factory=dict)            # call text -> outcome
    games: dict = field(default_factory=dict)            # scenario name -> record
    deck_order: list[PlayingCard] = field(default_factory=list)

    def outcome_value(self, outcome: dict):
        return outcome.get("value") if outcome.get("ok") else \
            {"error": _error_text(outcome)}

    @property
    def logic_hangs(self) -> bool:
        """Did a game scenario not return (an endless loop in HiLo_Game)?"""
        return any("did not return" in str((record or {}).get("error", ""))
                   for record in self.games.values())

    def rejects(self, stage: str, answer: str) -> bool | None:
        """Did logic return None for this answer at this stage (None: not seen)?"""
        states = (self.games.get("invalid answers") or {}).get("states") or []
        now = "start"
        for before, after in zip(states, states[1:]):
            said = after.get("said")
            if after.get("set"):
                continue
            if now == stage and said == answer:
                return after.get("returned") is None and not after.get("error")
            now = kit_stage(now, said, _right(before, said))
        return None


def _error_text(outcome: dict) -> str:
    return call_problem(outcome, "the call", TIMEOUT) or "the call did not finish"


def _case(function, group: str, *args) -> Case:
    """A call of one of the probe's functions (probe.py) in the student's process."""
    return Case(Kit(function, *args), group=group, timeout=TIMEOUT)


def card_cases() -> list[tuple]:
    """Every card of the game's rules, a Joker and an Ace worth 14: (rules, value, suit)."""
    cases = [(RULES, value, suit) for value in RANKS for suit in SUITS]
    return cases + [JOKER, HIGH_ACE]


def deck_calls() -> list[tuple[str, dict, tuple]]:
    """(how the call is shown, its rules, its other arguments)."""
    return [("generate_deck(rules)", RULES, ()),
            ("generate_deck(rules, 2)", RULES, (2,)),
            ("generate_deck(rules, 1, 14)", RULES, (1, 14)),
            ("generate_deck({1: 'Ace', 11: 'Jack', 13: 'King'})", FACE_RULES, ())]


def card_stream(deals: int = 80) -> list[list[PlayingCard]]:
    """Cards for the function calls: each deal starts with two cards of the same value (so a
    game must deal again), and the values go round all thirteen."""
    stream = []
    for number in range(deals):
        value = number % 13 + 1
        other = (value + 5) % 13 + 1
        stream.append([PlayingCard(value, SUITS[number % 4]),
                       PlayingCard(value, SUITS[(number + 1) % 4]),
                       PlayingCard(other, SUITS[(number + 2) % 4])])
    return stream


def collect(submission, budget=None) -> Evidence:
    """Every call of the grade, in one child process (two batches)."""
    policy = LoadedCards(card_stream())
    evidence = Evidence()
    with run_folder(submission, "calls") as folder, \
            FunctionCalls(folder / submission.main_name, folder, policy=policy,
                          budget=budget) as calls:
        first = [_case(probe.available, "available"), _case(probe.deck_order, "order")]
        first += [_case(probe.card_facts, "card", value, suit, rules)
                  for rules, value, suit in card_cases()]
        first += [_case(probe.random_cards, "random", rules, count)
                  for rules, count in ((RULES, RANDOM_DRAWS), (SMALL_RULES, 10))]
        first += [_case(probe.deck, "deck", rules, *args) for _, rules, args in deck_calls()]
        outcomes = [case.outcome for case in calls.run_cases(first)]
        if calls.import_error:
            evidence.import_error = calls.import_error
            return evidence
        _file_first(evidence, outcomes)
        policy.decks.insert(0, evidence.deck_order)
        policy.start_deal(0)            # every new game starts with two equal values
        # each scenario on its own: one that hangs does not hide what the others show
        second = [_case(probe.play, f"game: {name}", bet, steps)
                  for name, bet, steps in STAGE_SCENARIOS + CHAINS]
        if evidence.available.get("HiLo_Game"):
            for (name, _, _), case in zip(STAGE_SCENARIOS + CHAINS, calls.run_cases(second)):
                evidence.games[name] = evidence.outcome_value(case.outcome)
    return evidence


def _file_first(evidence: Evidence, outcomes: list[dict]) -> None:
    """File the first batch's outcomes under what they tested."""
    available, order, *rest = outcomes
    evidence.available = available.get("value") if available.get("ok") else {}
    if order.get("ok") and isinstance(order.get("value"), list):
        evidence.deck_order = [PlayingCard(value, suit) if isinstance(value, int) and
                               value in RANKS else None for value, suit in
                               (pair if isinstance(pair, list) and len(pair) == 2 else
                                (None, None) for pair in order["value"])]
    cards, rest = rest[:len(card_cases())], rest[len(card_cases()):]
    for (rules, value, suit), outcome in zip(card_cases(), cards):
        evidence.cards[(_label(rules), value, suit)] = evidence.outcome_value(outcome)
    for label, outcome in zip(("rules", "small"), rest[:2]):
        evidence.random[label] = evidence.outcome_value(outcome)
    for (shown, _, _), outcome in zip(deck_calls(), rest[2:]):
        evidence.decks[shown] = evidence.outcome_value(outcome)


def _label(rules: dict) -> str:
    return "rules" if rules == RULES else repr(rules)


# ----------------------------------------------------------------------------- Card
def _call(rules: dict, value: int, suit: str) -> str:
    shown = "rules" if rules == RULES else repr(rules)
    return f"Card({shown}, {value!r}, {suit!r})"


def _expected_str(rules: dict, value: int, suit: str) -> str:
    return rules[value] if suit == "" else f"{rules[value]} of {suit}"


def judge_card(evidence: Evidence) -> list[Requirement]:
    """One requirement per part of the class, each over every card (smallest failing first)."""
    parts: dict[str, Requirement] = {}

    def fail(part: str, requirement: Requirement) -> None:
        parts.setdefault(part, requirement)

    for number, (rules, value, suit) in enumerate(card_cases()):
        facts = evidence.cards.get((_label(rules), value, suit)) or {}
        call = _call(rules, value, suit)
        if "error" in facts:
            fail("attributes", check(False, f"{call} raised an error", "a new card",
                                     facts["error"], "Card(value_rules, value, suit) stores "
                                     "its three arguments.", number))
            continue
        for part, requirement in _card_parts(facts, call, rules, value, suit, number):
            if not requirement.ok:
                fail(part, requirement)
    requirements = [parts.get(part, Requirement(True, part)) for part in
                    ("attributes", "rank", "str", "repr", "==", "== other things")]
    return requirements + [judge_random(evidence)]


def _card_parts(facts: dict, call: str, rules: dict, value: int, suit: str, size: int):
    """(part, requirement) for one card's facts."""
    def got(name):
        answer, error = facts.get(name) or [None, "not measured"]
        return answer if error is None else f"an error ({error})"

    stored = (got("value"), got("suit"), got("value_rules"))
    yield "attributes", check(stored == (value, suit, True), f"{call}: value, suit, value_rules",
                              (value, suit, "the rules given"), stored[:2] + (
                                  "the rules given" if stored[2] is True else "other rules",),
                              "The card keeps its three arguments in value, suit and "
                              "value_rules.", size)
    rank = rules[value]
    yield "rank", check(got("rank") == rank, f"{call}.rank", repr(rank), _quoted(got("rank")),
                        "rank is a property giving the rules' name for the value.", size)
    text = _expected_str(rules, value, suit)
    yield "str", check(got("str") == text, f"str({call})", repr(text), _quoted(got("str")),
                       "str() is the rank, 'of' and the suit; a card without a suit shows "
                       "its rank alone.", size)
    shown = got("repr")
    pieces = [rank, str(value)] + ([suit] if suit else [])
    ok = isinstance(shown, str) and all(piece in shown for piece in pieces)
    yield "repr", check(ok, f"repr({call})", f"a text with {', '.join(pieces)}", _quoted(shown),
                        "repr() shows the rank, the suit and the value.", size)
    other = OTHER_SUIT.get(suit, "Clubs")
    for name, expected, case in (("eq_twin", True, f"{call} == {call}"),
                                 ("ne_twin", False, f"{call} != {call}"),
                                 ("eq_other_suit", False, f"{call} == a card of {other}"),
                                 ("eq_other_value", False, f"{call} == a card of another "
                                                           "value")):
        yield "==", check(got(name) is expected, case, expected, got(name),
                          "Cards are equal when value, rank and suit are the same.", size)
    for name, what in (("eq_text", f"str({call})"), ("eq_none", "None")):
        yield "== other things", check(got(name) is False, f"{call} == {what}", False,
                                       got(name), "Comparing a card with something that is "
                                       "not a card gives False, without an error.", size)


def _quoted(value) -> str:
    """A value the program returned, as Python shows it (errors are already sentences)."""
    if isinstance(value, str) and value.startswith("an error ("):
        return value
    if isinstance(value, dict) and set(value) == {"repr", "type"}:
        return value["repr"]
    return repr(value)


def judge_random(evidence: Evidence) -> Requirement:
    """Card.random: cards of the rules' values and the four suits, not always the same."""
    for label, rules in (("rules", RULES), ("small", SMALL_RULES)):
        draws = evidence.random.get(label)
        call = "Card.random(rules)" if label == "rules" else f"Card.random({rules!r})"
        if not isinstance(draws, list):
            error = (draws or {}).get("error", "it was not called")
            return check(False, f"{call} raised an error", "a random card", error,
                         "Card.random is a static method: Card.random(value_rules).")
        for value, suit, is_card, error in draws:
            if error or not is_card or value not in rules or suit not in SUITS:
                got = error or ("not a Card" if not is_card else f"value {value!r}, suit {suit!r}")
                return check(False, call, f"a Card with a value of {sorted(rules)} and one of "
                             "the four suits", got, "Card.random takes the value from the "
                             "keys of value_rules and one of the four suits.")
        values = {draw[0] for draw in draws}
        suits = {draw[1] for draw in draws}
        if label == "rules" and (len(values) < 2 or len(suits) < 2):
            return check(False, f"{len(draws)} calls of {call}", "random values and suits",
                         f"{len(values)} value(s) and {len(suits)} suit(s)",
                         "Card.random draws the value and the suit at random.")
    return Requirement(True, "Card.random")


# ----------------------------------------------------------------------------- generate_deck
def judge_deck(evidence: Evidence) -> list[Requirement]:
    """One requirement per call of generate_deck."""
    requirements = []
    for size, (shown, rules, args) in enumerate(deck_calls()):
        outcome = evidence.decks.get(shown) or {"error": "not called"}
        if "error" in outcome:
            requirements.append(check(False, f"{shown} raised an error", "a list of cards",
                                      outcome["error"], size=size))
            continue
        requirements.append(_judge_one_deck(shown, rules, args, outcome, size))
    return requirements


def _judge_one_deck(shown: str, rules: dict, args: tuple, outcome: dict,
                    size: int) -> Requirement:
    jokers = args[0] if args else 0
    joker_value = args[1] if len(args) > 1 else 0
    cards = outcome.get("cards") or []
    expected_count = len(rules) * 4 + jokers
    why = "generate_deck returns a list: every value of the rules in each of the four suits " \
          "once, then the Jokers (value joker_value, suit '', rank 'Joker')."
    if outcome.get("type") != "list":
        return check(False, f"{shown} returned a {outcome.get('type')}", "a list",
                     outcome.get("type"), why, size)
    if len(cards) != expected_count:
        return check(False, f"len({shown})", expected_count, len(cards), why, size)
    if not all(card[2] for card in cards):
        return check(False, f"The items of {shown}", "Card objects", "other objects", why, size)
    suited = sorted((card[0], card[1]) for card in cards[:len(cards) - jokers])
    wanted = sorted((value, suit) for value in rules for suit in SUITS)
    if suited != wanted:
        missing = sorted(set(wanted) - set(suited))[:3]
        extra = [pair for pair in suited if suited.count(pair) > 1 or pair not in wanted][:3]
        got = f"missing {missing}" if missing else f"unexpected or repeated {extra}"
        return check(False, f"The suited cards of {shown}", "each value in each suit once",
                     got, why, size)
    for card in cards[len(cards) - jokers:]:
        if (card[0], card[1], card[3]) != (joker_value, "", "Joker"):
            return check(False, f"The Jokers at the end of {shown}",
                         f"value {joker_value}, suit '', rank 'Joker'",
                         f"value {card[0]!r}, suit {card[1]!r}, rank {card[3]!r}", why, size)
    return Requirement(True, shown)


# ----------------------------------------------------------------------------- HiLo_Game
def _states(evidence: Evidence, name: str) -> tuple[list[dict], str | None]:
    record = evidence.games.get(name) or {}
    if "error" in record:
        return [], record["error"]
    return record.get("states") or [], None


def _card_text(view) -> str | None:
    return view[2] if isinstance(view, list) and len(view) == 3 else None


def _mentions(text, card_view) -> bool:
    shown = _card_text(card_view)
    return isinstance(text, str) and bool(shown) and shown.lower() in text.lower()


def _returned(state: dict) -> str:
    if state.get("error"):
        return f"an error ({state['error']})"
    value = state.get("returned")
    return "None" if value is None else (value if isinstance(value, str) else repr(value))


def _said(state: dict) -> str:
    return "logic()" if state.get("said") is None else f"logic({state['said']!r})"


def _same(before: dict, after: dict) -> bool:
    keys = ("stage", "bet", "visible", "hidden")
    return all(before.get(key) == after.get(key) for key in keys)


def judge_stages(evidence: Evidence) -> list[Requirement]:
    """The stage machine: one requirement per rule, over every scenario it applies to."""
    rules: dict[str, list[Requirement]] = {}

    def add(rule: str, requirement: Requirement) -> None:
        rules.setdefault(rule, []).append(requirement)

    for size, (name, bet, steps) in enumerate(STAGE_SCENARIOS):
        states, error = _states(evidence, name)
        if error:
            add("new game", check(False, f"HiLo_Game({bet}), then scenario '{name}'",
                                  "a game that plays the scenario", error, size=size))
            continue
        if not states:
            continue
        _judge_new(states[0], bet, name, size, add)
        stage = "start"
        for before, after in zip(states, states[1:]):
            if not after.get("set"):
                stage = _judge_step(name, stage, before, after, size, add)
            if stage is None:
                break                # the game took a step it should not have: the rest differs
    order = ("new game", "every deal", "start", "right guess", "wrong guess", "any case",
             "invalid in guess", "invalid in choose", "invalid when over", "double", "pass")
    return [next((req for req in rules[rule] if not req.ok), rules[rule][0])
            for rule in order if rule in rules]


def _judge_new(state: dict, bet: int, name: str, size: int, add) -> None:
    case = f"HiLo_Game({bet}) (scenario '{name}')"
    if state.get("said") == "new with a player":
        add("new game", check(False, f"HiLo_Game({bet})", "a game for the bet alone",
                              "a TypeError: HiLo_Game needs a player as well (it was tested as "
                              f"HiLo_Game('Player', {bet}))", "HiLo_Game(bet_amount) takes the "
                              "bet as its only argument.", size))
    got = (state.get("stage"), state.get("bet"))
    add("new game", check(got == ("start", bet), f"{case}: stage and bet_amount",
                          ("start", bet), got, "A new game is in stage 'start' with "
                          "bet_amount the bet.", size))
    add("every deal", _differ(state, case, size))


def _differ(state: dict, case: str, size: int) -> Requirement:
    visible, hidden = state.get("visible"), state.get("hidden")
    values = tuple(card[0] if isinstance(card, list) else None for card in (visible, hidden))
    ok = None not in values and values[0] != values[1]
    return check(ok, f"The two cards dealt by {case}", "two values that differ",
                 f"{_card_text(visible)} and {_card_text(hidden)}",
                 "The face-down card is dealt again until its value differs from the visible "
                 "card's (the grader's first two cards had the same value).", size)


def _judge_step(name: str, stage: str, before: dict, after: dict, size: int,
                add) -> str | None:
    """Judge one logic call from the stage the kit's rules say the game is in; returns the
    stage after it (by the kit's rules), or None when an invalid answer changed the game."""
    said, returned = after.get("said"), after.get("returned")
    answer = said.strip().lower() if isinstance(said, str) else None
    valid = {"start": [None], "guess": ["higher", "lower"], "choose": ["double", "pass"],
             "over": []}[stage]
    case = f"{_said(after)} in stage '{stage}' (scenario '{name}')"
    if answer not in valid:
        rule = {"guess": "invalid in guess", "choose": "invalid in choose",
                "over": "invalid when over"}.get(stage, "start")
        ok = returned is None and not after.get("error") and _same(before, after)
        add(rule, check(ok, case, "None, and nothing changed", _changes(before, after),
                        "An answer that is not valid at this stage returns None and changes "
                        "nothing.", size))
        return stage if _same(before, after) else None
    if said is not None and said != answer:
        add("any case", check(returned is not None and not after.get("error"), case,
                              "the answer accepted", _returned(after), "Case and spaces around "
                              "the answer do not matter.", size))
    if stage == "start":
        ok = after.get("stage") == "guess" and _mentions(returned, after.get("visible"))
        add("start", check(ok, case, f"stage 'guess' and a question naming the "
                                     f"{_card_text(after.get('visible'))}",
                           f"stage {after.get('stage')!r}, returned {_returned(after)!r}",
                           "logic() starts the game: it asks about the visible card.", size))
        return "guess"
    if stage == "guess":
        hidden, visible = before.get("hidden") or [0], before.get("visible") or [0]
        right = _right(before, answer)
        rule, next_stage = ("right guess", "choose") if right else ("wrong guess", "over")
        ok = after.get("stage") == next_stage and _mentions(returned, before.get("hidden"))
        add(rule, check(ok, f"{case}, the {_card_text(visible)} showing and the "
                            f"{_card_text(hidden)} face down",
                        f"stage {next_stage!r} and a text naming the {_card_text(hidden)}",
                        f"stage {after.get('stage')!r}, returned {_returned(after)!r}",
                        "A guess reveals the face-down card; a right one moves to 'choose', a "
                        "wrong one to 'over'.", size))
        return next_stage
    if answer == "double":
        new_cards = after.get("visible") != before.get("visible") or \
            after.get("hidden") != before.get("hidden")
        ok = after.get("stage") == "guess" and new_cards and \
            _mentions(returned, after.get("visible"))
        add("double", check(ok, case, "stage 'guess', two new cards and a question naming "
                                      "the new visible card",
                            f"stage {after.get('stage')!r}, visible "
                            f"{_card_text(after.get('visible'))}, returned {_returned(after)!r}",
                            "double deals new cards and asks again.", size))
        add("every deal", _differ(after, f"{_said(after)} (scenario '{name}')", size))
        return "guess"
    add("pass", check(after.get("stage") == "over", case, "stage 'over'",
                      f"stage {after.get('stage')!r}", "pass ends the bet.", size))
    return "over"


def _changes(before: dict, after: dict) -> str:
    """What a call changed or returned, in words."""
    changed = [key for key in ("stage", "bet", "visible", "hidden")
               if before.get(key) != after.get(key)]
    text = f"returned {_returned(after)!r}"
    if changed:
        text += ", changed " + ", ".join(f"{key} to {after.get(key)!r}" for key in changed)
    return text


AMOUNT = r"(?<![\d.]){}(?!\d)"


def _right(before: dict, said) -> bool:
    """Was this guess right for the cards the game held?"""
    hidden, visible = before.get("hidden") or [0], before.get("visible") or [0]
    answer = said.strip().lower() if isinstance(said, str) else ""
    return (hidden[0] or 0) > (visible[0] or 0) if answer == "higher" else \
        (hidden[0] or 0) < (visible[0] or 0)


def kit_stage(stage: str, said: str | None, right: bool | None) -> str:
    """The stage after an answer, by the handout's rules (right: was the guess right)."""
    answer = said.strip().lower() if isinstance(said, str) else None
    if stage == "start" and answer is None:
        return "guess"
    if stage == "guess" and answer in ("higher", "lower"):
        return "choose" if right else "over"
    if stage == "choose" and answer in ("double", "pass"):
        return "guess" if answer == "double" else "over"
    return stage


def judge_double(evidence: Evidence) -> list[Requirement]:
    """Amounts along the chains, following the guesses the game itself treats as right."""
    requirements = []
    for size, (name, bet, _) in enumerate(CHAINS):
        states, error = _states(evidence, name)
        if error:
            requirements.append(check(False, f"HiLo_Game({bet}), then scenario '{name}'",
                                      "a game that plays the scenario", error, size=size))
        if error or not states:
            continue
        stake = bet
        states = [one for one in states if not one.get("set")]
        for index, (before, after) in enumerate(zip(states, states[1:])):
            said = (after.get("said") or "").strip().lower()
            case = f"{_said(after)} with ${stake} at stake (scenario '{name}')"
            text = after.get("returned") if isinstance(after.get("returned"), str) else ""
            if said in ("higher", "lower"):
                following = states[index + 2] if index + 2 < len(states) else {}
                if following.get("returned") is None or following.get("error"):
                    break           # the game took no guess as right: nothing more to judge
                requirements.append(check(
                    re.search(AMOUNT.format(2 * stake), text), case,
                    f"a text saying ${2 * stake} was won", f"returned {text!r}",
                    "A right guess wins twice the stake.", size))
            elif said == "double":
                stake *= 2
                requirements.append(check(after.get("bet") == stake, case,
                                          f"bet_amount {stake}", f"bet_amount {after.get('bet')!r}",
                                          "double stakes the winnings: bet_amount doubles.", size))
                if isinstance(after.get("bet"), int) and after["bet"] > 0:
                    stake = after["bet"]        # later amounts follow the game's own stake
            elif said == "pass":
                requirements.append(check(re.search(AMOUNT.format(2 * stake), text), case,
                                          f"a text saying ${2 * stake} goes into the purse",
                                          repr(text), "pass pays twice the stake.", size))
    return requirements
