"""Tests of the HiLo grader.

The reference and every correct program get full marks on every automatic item, and in every
terminal game the grader deals exactly the cards it planned (whatever way the program draws
them); each mutant loses exactly the item its manifest names; a file with a syntax error is
graded without crashing the grader; the loaded-card policy recognises every way of drawing;
neither the reference nor the template needs anything outside Python's standard library (no
chat library). All submissions are graded in one ``plugin.run`` call.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import mutants

from conftest import (assert_loses_exactly, fresh_run_folder, item_text, not_full,
                      verdicts_by_student)

from graders.engine.drive import loaded as cards
from graders.engine.grading import plugin, submissions
from graders.engine.judge import readability
from graders.engine.run import static
from graders.engine.drive.loaded import LoadedCards, PlayingCard
from graders.engine.judge.rubric import KIT_ROOT, Rubric
from graders.hilo import console, functions

FIXTURES = KIT_ROOT / "tests" / "fixtures" / "hilo"
GRADER = KIT_ROOT / "graders" / "hilo"
REFERENCE = KIT_ROOT / "reference" / "hilo"
TEMPLATE = KIT_ROOT / "student_template" / "hilo"
RUBRIC = Rubric.load("hilo")
MANIFEST = mutants.manifest("hilo")
CORRECT = sorted(folder.name for folder in (FIXTURES / "correct").iterdir() if folder.is_dir())
AUTOMATIC = [item.id for item in RUBRIC.items if not item.review]
CHAT_LIBRARIES = ("discord", "slack", "slack_sdk", "telegram", "irc", "nio", "twitchio",
                  "matrix_client", "zulip", "mattermostdriver")


def _folders(built: Path) -> dict[str, Path]:
    folders = {"reference": REFERENCE}
    folders.update({f"correct-{name}": FIXTURES / "correct" / name for name in CORRECT})
    folders.update({f"mutant-{name}": path for name, path in mutants.build("hilo", built).items()})
    folders["broken-syntax_error"] = FIXTURES / "broken" / "syntax_error"
    folders.update({f"broken-{name}": path for name, path in
                    mutants.build("hilo", built, "variants").items()})
    return folders


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Every fixture graded in one run: student name -> its report."""
    built = tmp_path_factory.mktemp("hilo-mutants")
    found = [submissions.from_path(path, RUBRIC.main_file, name)
             for name, path in _folders(built).items()]
    return {report.student: report for report in plugin.run(RUBRIC, found, GRADER)}


@pytest.fixture(scope="module")
def graded(reports):
    """student name -> {item id: verdict}."""
    return verdicts_by_student(reports)


# ----------------------------------------------------------------------------- grading
@pytest.mark.parametrize("name", ["reference"] + [f"correct-{name}" for name in CORRECT])
def test_correct_programs_get_full_marks(graded, name):
    assert not_full(graded[name], AUTOMATIC) == {}
    if name == "reference":
        assert graded[name]["readability"].passed


def test_there_are_enough_correct_programs_and_mutants():
    assert len(CORRECT) >= 4
    assert len(MANIFEST) >= 12
    assert {entry["loses"] for entry in MANIFEST.values()} == set(AUTOMATIC)


@pytest.mark.parametrize("mutant", sorted(MANIFEST))
def test_each_mutant_loses_exactly_its_item(graded, mutant):
    item = MANIFEST[mutant]["loses"]
    assert_loses_exactly(graded[f"mutant-{mutant}"], item, AUTOMATIC)


def test_feedback_names_the_smallest_failing_case(graded):
    text = item_text(graded["mutant-str_without_of"]["card"])
    assert "str(Card(rules, 1, 'Clubs'))" in text and "'Ace of Clubs'" in text
    assert "'Ace Clubs'" in text
    text = item_text(graded["mutant-no_second_deal"]["stages"])
    assert "two values that differ" in text and "dealt again" in text
    text = item_text(graded["mutant-win_announces_stake"]["double_or_nothing"])
    assert "a text saying $20 was won" in text and "You won $10!" in text


def test_console_feedback_shows_the_purse_and_the_game(graded):
    text = item_text(graded["mutant-bet_not_taken_from_purse"]["console"])
    assert "the purse before bet 2" in text and "$240" in text and "$260" in text
    assert "«20»" in text                       # the transcript, with the grader's answers
    text = item_text(graded["mutant-zero_bet_accepted"]["bets"])
    assert "The bet '0' with $100 in the purse" in text
    assert "a guess was asked (the bet was taken)" in text


def test_a_wrong_payout_is_not_charged_to_the_console(graded):
    """The purse follows the winnings the game announced (double_or_nothing has the error)."""
    verdicts_by_item = graded["mutant-double_keeps_stake"]
    assert verdicts_by_item["console"].passed
    assert not verdicts_by_item["double_or_nothing"].passed


def test_a_file_with_a_syntax_error_fails_every_automatic_item(graded):
    for item in AUTOMATIC:
        verdict = graded["broken-syntax_error"][item]
        assert verdict.score == 0, item
        assert "could not be imported" in item_text(verdict), item


def test_an_endless_loop_in_double_costs_only_the_items_that_call_it(graded, reports):
    verdicts_by_item = graded["broken-double_hangs"]
    assert not_full(verdicts_by_item, ["card", "generate_deck", "bets", "console"]) == {}
    assert "marked under stages and double_or_nothing" in item_text(verdicts_by_item["console"])
    assert not verdicts_by_item["stages"].passed
    assert "did not return within 1 s" in item_text(verdicts_by_item["stages"])
    assert "did not return within 1 s" in item_text(verdicts_by_item["double_or_nothing"])
    assert not reports["broken-double_hangs"].problems       # verdicts, not grader trouble


# ----------------------------------------------------------------------------- loaded cards
@pytest.mark.parametrize("name", ["reference"] + CORRECT)
def test_every_game_deals_the_planned_cards(name):
    """The grader sees each deal's planned card face up, whatever way the program draws."""
    folder = REFERENCE if name == "reference" else FIXTURES / "correct" / name
    submission = submissions.from_path(folder, RUBRIC.main_file, name)
    order = functions.collect(submission).deck_order
    assert len(order) == 52
    for plan in console.PLANS:
        workdir = fresh_run_folder(dict(submission.files))
        run = console.play(workdir / "hilo.py", workdir, plan, [order])
        guesses = [step for step in run.steps if step.kind == "guess"]
        assert run.ended and guesses, (plan.name, run.problem)
        assert run.off_plan == 0, plan.name
        wins = sum(deal.right for deal in plan.deals)
        assert sum(step.kind == "choose" for step in run.steps) >= wins, plan.name


def _draw(policy, fn, **req):
    value, _ = policy.answer({"fn": fn, "req": req})
    return value


def test_cards_drawn_in_parts_are_loaded():
    policy = LoadedCards([[PlayingCard(12, "Hearts"), PlayingCard(3, "Spades")]])
    values = list(range(1, 14))
    assert _draw(policy, "choice", items=values, n=13) == values.index(12)
    assert _draw(policy, "choice", items=list(cards.SUITS), n=4) == 2
    assert _draw(policy, "randint", a=1, b=13) == 3
    assert _draw(policy, "randint", a=0, b=3) == 3
    assert policy.dealt == [PlayingCard(12, "Hearts"), PlayingCard(3, "Spades")]
    policy = LoadedCards([[PlayingCard(7, "Clubs")]])
    pairs = [{"type": "tuple"}] * 13                        # list(value_rules.items())
    assert _draw(policy, "choice", items=pairs, n=13) == 6


def test_cards_drawn_from_a_deck_are_loaded():
    deck = [str(card) for card in cards.standard_decks()[1]]          # suit by suit
    plan = [[PlayingCard(9, "Diamonds"), PlayingCard(1, "Clubs")]]
    policy = LoadedCards(plan)
    first = _draw(policy, "choice", items=deck, n=52)
    assert deck[first] == "9 of Diamonds"
    rest = deck[:first] + deck[first + 1:]                              # deck.remove(card)
    assert rest[_draw(policy, "randint", a=0, b=50)] == "Ace of Clubs"
    policy = LoadedCards(plan)
    picks = _draw(policy, "sample", items=deck, n=52, k=2)
    assert [deck[i] for i in picks] == ["9 of Diamonds", "Ace of Clubs"]


def test_a_shuffle_puts_the_plan_at_both_ends():
    order = cards.standard_decks()[0]
    suits_only = [{"name": card.suit} for card in order]     # card objects show their suit
    policy = LoadedCards([[PlayingCard(5, "Hearts"), PlayingCard(11, "Clubs")]])
    permutation = _draw(policy, "shuffle", items=suits_only, n=52)
    shuffled = [order[i] for i in permutation]
    assert [card.value for card in shuffled[:2]] == [5, 11]          # pop(0), pop(0)
    assert [card.value for card in shuffled[::-1][:2]] == [5, 11]    # pop(), pop()


def test_an_unknown_population_is_left_to_the_generator():
    policy = LoadedCards([[PlayingCard(5, "Hearts")]])
    value = _draw(policy, "choice", items=[{"type": "tuple"}] * 20, n=20)
    assert value in range(20) and policy.dealt == []


def test_plans_can_be_dealt_from_both_ends_of_one_deck():
    for plan in console.PLANS:
        values = [card.value for deal in plan.deals for card in deal.cards]
        assert all(values.count(value) <= 2 for value in values), plan.name
        assert all(deal.cards[0].value != deal.cards[1].value for deal in plan.deals)


def test_prompts_are_told_apart_by_their_last_question():
    assert console.kind_of("Double or nothing! The card is the 2 of Clubs. Higher or lower?",
                           "> ") == "guess"
    assert console.kind_of("You won $40! Type double to stake it, or pass to take it.",
                           "") == "choose"
    assert console.kind_of("Is it higher or lower than the 7 of Clubs? ($20 at stake)",
                           "") == "guess"
    assert console.kind_of("Purse: $80", "Your bet (1-80), or quit to stop: ") == "bet"
    assert console.kind_of("Higher or lower?\n? maybe\nHuh? Try again.", "? ") == "guess"
    assert console.kind_of("Hands: 2", "Play again? (y/n) ") == "again"
    assert console.kind_of("Is it higher or lower?\nYour answer: maybe\n"
                           "Please type higher/lower or double/pass.", "Your answer: ") == "guess"
    assert console.purse_shown("You take $40. It goes into your purse.\nPurse: $120") == 120
    assert cards.find_cards("the 10 of Hearts, then Q♠") == [PlayingCard(10, "Hearts"),
                                                             PlayingCard(12, "Spades")]


# ----------------------------------------------------------------------------- the kit's files
def _imported_modules(args: list[str], stdin: str) -> set[str]:
    """Top-level modules a Python run imports (from -X importtime); -B: no __pycache__ is
    left in the kit's folders (the student kit is built from the template's folder)."""
    finished = subprocess.run([sys.executable, "-B", "-X", "importtime", *args], input=stdin,
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr[-2000:]
    names = set()
    for line in finished.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name and name not in ("package", "imported package"):
                names.add(name.split(".")[0])
    return names


@pytest.mark.parametrize("args", [[str(REFERENCE / "hilo.py")],
                                  ["-c", f"import sys; sys.path.insert(0, {str(TEMPLATE)!r}); "
                                         "import hilo"]])
def test_no_chat_library_is_imported(args):
    """The reference played to the end, and the template imported, use only the standard
    library: no chat library at grading time or in the student's template."""
    imported = _imported_modules(args, "50\nhigher\npass\nquit\n")
    assert imported and not imported & set(CHAT_LIBRARIES)
    # what the interpreter imports before any program (a distribution's sitecustomize and
    # its hooks, such as Debian's apport_python_hook) is not the program's
    started = _imported_modules(["-c", "pass"], "")
    outside = {name for name in imported - started if name not in sys.stdlib_module_names
               and not name.startswith("_") and name != "hilo"}
    assert outside == set()


def test_the_grader_imports_no_chat_library():
    finished = subprocess.run([sys.executable, "-c", "import sys, graders.hilo.checks; "
                               "print(sorted(set(sys.modules) & set(sys.argv[1:])))",
                               *CHAT_LIBRARIES], cwd=KIT_ROOT, capture_output=True, text=True,
                              timeout=60)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "[]"


def test_the_template_is_told_from_a_solution():
    template = TEMPLATE / "hilo.py"
    assert static.own_work(template, template) == 0
    assert static.own_work(REFERENCE / "hilo.py", template) > 0


def test_the_graders_own_lines_fit_in_100_columns():
    paths = [Path(__file__), REFERENCE / "hilo.py", TEMPLATE / "hilo.py"]
    for path in sorted(GRADER.glob("*.py")) + paths:
        assert readability.measure({path.name: path}).long_lines == [], path.name


def test_the_command_line_lists_and_checks_hilo():
    listed = subprocess.run([sys.executable, "-m", "graders", "list"], cwd=KIT_ROOT,
                            capture_output=True, text=True, timeout=60)
    assert "hilo" in listed.stdout.split()
    command = [sys.executable, "-m", "graders", "check", "hilo", str(REFERENCE / "hilo.py")]
    finished = subprocess.run(command, cwd=KIT_ROOT, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    public = [item.id for item in RUBRIC.items if item.public]
    for item in public:
        assert f"ok {item}" in finished.stdout, item
    assert "stages" not in finished.stdout            # not part of the self-check


@pytest.mark.parametrize("line, purse", [
    ("Purse: $40   (hand 2, best so far $100)", 40), ("Hand 2 | best $100 | Purse: $40", 40),
    ("Balance: $1,200 USD", 1200), ("You have $120 left", 120), ("Purse: 100 dollars", 100)])
def test_the_purse_is_the_amount_after_its_word(line, purse):
    """'Purse: $40 (hand 2, best so far $100)' was read as $100 (the line's last amount)."""
    assert console.purse_shown("Welcome\n" + line + "\n") == purse
