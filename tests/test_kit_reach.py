"""Nothing of the kit's within a student's reach, for the assignments beyond PocoLoco.

Each attack under ``tests/fixtures/attacks/<assignment>/<name>/`` is graded through the kit's
CLI as a TA runs it, and must neither score through anything but the behaviour graded nor
bring a hidden line of the kit (the reference, the kit's rules) into its report:

* Poker Dice, the student's own tests (``test_project.py`` of each attack, beside a correct
  project): a test that asserts its folder's name, a pytest plugin that forges outcomes and
  report files, tests that read ``../reference/project.py`` (and /proc, /tmp) and fail with
  it, a planted ``conftest.py``, a count of the copies kept in /tmp or the folder above, a
  forged report and exit status. Their item must get 0, and no line of the reference may
  show.
* Poker Dice and Three-card Poker, the helpers the grader lends (``attack.py``, appended to a
  correct program): functions that look the kit's rules up (``sys.modules``, the frames that
  called them, every namespace, gc) and call them, or return their source. The functions
  attacked must get 0, and no line of the kit's rules or of the reference may show.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, KIT_ROOT

ATTACKS = FIXTURES / "attacks"
TOKEN = "kitattack7f3e"
POKER_DICE = FIXTURES / "poker_dice" / "correct" / "checks_table"
THREE_CARD = FIXTURES / "three_card_poker" / "correct" / "arithmetic"
STUDENT_TESTS = sorted(p.name for p in (ATTACKS / "poker_dice").iterdir()
                       if (p / "test_project.py").is_file())

pytestmark = pytest.mark.timeout(900)


def hidden_lines(assignment: str, secret: list[Path], public: list[Path]) -> list[str]:
    """Lines of the kit's hidden files (30 characters or more, comments left out) that no
    public text (handout, template, the student's own files, the attacks) holds."""
    known = "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in public +
                      sorted((KIT_ROOT / "student_template" / assignment).rglob("*.py")) +
                      [KIT_ROOT / "assignments" / assignment / "handout.md"] +
                      sorted((ATTACKS / assignment).rglob("*.py")))
    lines = {line.strip() for path in secret
             for line in path.read_text(encoding="utf-8").splitlines()}
    return sorted(line for line in lines
                  if len(line) >= 30 and not line.startswith("#") and line not in known)


def graded(assignment: str, folder: Path, out: Path) -> tuple[dict, str]:
    """(item -> score, every text of the report) of one submission graded by the CLI."""
    results = out / "results.json"
    done = subprocess.run([sys.executable, "-m", "graders", "grade", assignment, str(folder),
                           "--json", str(results), "--out", str(out / "reports")],
                          cwd=KIT_ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(results.read_text())
    texts = [done.stdout, done.stderr, results.read_text()]
    texts += [p.read_text(errors="replace") for p in (out / "reports").rglob("*") if p.is_file()]
    return {test["number"]: test["score"] for test in data["tests"]}, "\n".join(texts)


def leaked(report: str, lines: list[str]) -> list[str]:
    return [line for line in lines if line in report]


@pytest.mark.parametrize("name", STUDENT_TESTS)
def test_student_tests_cannot_forge_a_score_or_read_the_reference(name, tmp_path):
    folder = tmp_path / "submission"
    shutil.copytree(POKER_DICE, folder)
    shutil.copy(ATTACKS / "poker_dice" / name / "test_project.py", folder / "test_project.py")
    project = folder / "project.py"
    project.write_text(project.read_text() + f"\n# {TOKEN} own project\n")
    scores, report = graded("poker_dice", folder, tmp_path)
    assert scores["student-tests"] == 0, report[-3000:]
    reference = KIT_ROOT / "reference" / "poker_dice"
    secret = hidden_lines("poker_dice", [reference / "project.py", reference / "dice.py"],
                          sorted(POKER_DICE.glob("*.py")))
    assert secret, "the reference has lines of its own to look for"
    assert not leaked(report, secret)
    assert scores["calculateScore"] == 3         # the rest of the project is graded as usual


def test_poker_dice_functions_cannot_reach_the_kits_rules(tmp_path):
    folder = tmp_path / "submission"
    shutil.copytree(POKER_DICE, folder)
    attack = (ATTACKS / "poker_dice" / "kit_rules_lookup" / "attack.py").read_text()
    (folder / "project.py").write_text((folder / "project.py").read_text() + attack)
    scores, report = graded("poker_dice", folder, tmp_path)
    assert scores["calculateScore"] == 0, report[-3000:]
    assert scores["is2Pair"] == 1                 # its own predicates are still its own
    secret = hidden_lines("poker_dice", [KIT_ROOT / "graders" / "poker_dice" / "rules.py"],
                          sorted(POKER_DICE.glob("*.py")))
    assert not leaked(report, secret)


@pytest.mark.parametrize("name", ["sys_modules_lookup", "source_return"])
def test_three_card_functions_cannot_reach_or_show_the_kits_rules(name, tmp_path):
    folder = tmp_path / "submission"
    shutil.copytree(THREE_CARD, folder)
    main = folder / "three_card_poker.py"
    main.write_text(main.read_text() + (ATTACKS / "three_card_poker" / name /
                                        "attack.py").read_text())
    scores, report = graded("three_card_poker", folder, tmp_path)
    assert scores["score_hand"] == 0 and scores["dealer_plays"] == 0, report[-3000:]
    assert scores["has_pair"] == 1
    secret = hidden_lines("three_card_poker",
                          [KIT_ROOT / "graders" / "three_card_poker" / "rules.py",
                           KIT_ROOT / "reference" / "three_card_poker" / "three_card_poker.py"],
                          [main])
    assert secret, "the kit's rules have lines of their own to look for"
    assert not leaked(report, secret), leaked(report, secret)[:5]
