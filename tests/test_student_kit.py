"""The student kit: nothing hidden inside (no line of a reference solution or of a hidden
check, no hidden game), and a self-check that runs from the unpacked kit alone."""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import mutants
from graders.cli import assignments
from graders.engine.judge.rubric import KIT_ROOT, Rubric
from graders import student_check
from graders.platforms import student_kit

PYTHON = sys.executable
SHORTEST = 20          # shorter lines (`return reading`, `else:`) say nothing about a check
# Reference lines a grader needs for a public check, each with why it may be in the kit.
# HiLo: probe.KitCard is the handout's Card (attributes, rank, == and the repr the handout
# spells out), put in a student's game when their own Card cannot keep a value and suit; its
# three lines match the reference's Card word for word.
SHARED_WITH_GRADER = {"hilo": {
    "and self.rank == other.rank and self.suit == other.suit)",
    'return f"Card({self.rank}, {self.suit}, {self.value})"',
    "return self.value_rules[self.value]"},
    # PocoLoco: the handout's points rule (1 = 100, 6 = 60), which reading the public games
    # needs to find each round's loser
    "pocoloco": {"FACE_POINTS = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}"},
    # Three-card Poker: the kit's correct versions of the public functions, which the
    # self-check compares the student's with on every hand (its feedback shows the right
    # answer of each wrong hand anyway): the handout's rank characters, sort_hand's and
    # has_pair's one-line bodies. Nothing of the hidden functions is in the kit.
    "three_card_poker": {'RANK_CHARACTERS = "23456789XJQKA"', "return len(set(hand)) == 2",
                         "return sorted(hand, reverse=True)"},
    # Poker Dice: the handout's two straights and the faces of a Dice read through the
    # handout's attributes, which calculateScore's public check needs to name every roll's
    # hand; an import and an except clause of the engine that any program may have
    "poker_dice": {"STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])",
                   "return [die.value for die in dice.diceInSet]",
                   "from collections import Counter", "except (OSError, ValueError):"},
    # Yahtzee: the kit's is_yahtzee and is_large_straight, the public items' rules that the
    # self-check compares the student's functions with on every throw (one-line bodies that
    # the reference happens to share). The joker and the final scores are not in the kit.
    "yahtzee": {"return len(set(dice)) == 1",
                "return set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})"}}

NAMED_LIKE_HIDDEN = {"pocoloco": {"points"}}


def marked_items(node: ast.AST) -> list[str]:
    ids = []
    for deco in getattr(node, "decorator_list", []):
        if isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("mark.item"):
            ids.append(deco.args[0].value)
    return ids


def lines_of(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if len(line.strip()) >= SHORTEST}


def hidden_lines(assignment: str) -> set[str]:
    """Lines of the grader's checks for hidden items that no public check shares."""
    public = {i.id for i in Rubric.load(assignment).items if i.public}
    hidden, shown = set(), set()
    for path in sorted((KIT_ROOT / "graders" / assignment).glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            ids = marked_items(node)
            if ids:
                segment = ast.get_source_segment(source, node)
                (shown if set(ids) & public else hidden).update(lines_of(segment))
    engine = set()          # the engine goes into every kit: its lines are no secret
    for path in (KIT_ROOT / "graders" / "engine").rglob("*.py"):
        engine |= lines_of(path.read_text(encoding="utf-8"))
    return hidden - shown - engine


def reference_lines(assignment: str) -> set[str]:
    """Lines of the reference solution that the template and the handout do not show."""
    given = set()
    for path in (KIT_ROOT / "student_template" / assignment).glob("*"):
        if path.is_file():          # as the kit takes them (a __pycache__ folder is not)
            given |= lines_of(path.read_text(encoding="utf-8"))
    given |= lines_of((KIT_ROOT / "assignments" / assignment / "handout.md").read_text())
    found = set()
    for path in (KIT_ROOT / "reference" / assignment).rglob("*.py"):
        found |= lines_of(path.read_text(encoding="utf-8"))
    return found - given


def build(assignment: str, folder: Path) -> Path:
    done = subprocess.run([PYTHON, "-m", "graders", "export", "student-kit", assignment,
                           "--out", str(folder)], capture_output=True, text=True,
                          cwd=KIT_ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder / f"{assignment}-student-kit.zip"


@pytest.fixture(scope="module")
def kit_zip(tmp_path_factory):
    """kit_zip(assignment) -> the kit's zip, exported once for this module's tests (they
    only read it, or unpack it into folders of their own)."""
    built: dict[str, Path] = {}

    def get(assignment: str) -> Path:
        if assignment not in built:
            built[assignment] = build(assignment, tmp_path_factory.mktemp(f"kit-{assignment}"))
        return built[assignment]
    return get


KITS = [a for a in assignments() if student_kit.supported(a)]


@pytest.mark.parametrize("assignment", KITS)
def test_no_hidden_line_in_the_kit(assignment, kit_zip):
    kit = kit_zip(assignment)
    with zipfile.ZipFile(kit) as archive:
        names = archive.namelist()
        text = {n: archive.read(n).decode("utf-8", "replace") for n in names}
    inside = set().union(*(lines_of(t) for t in text.values()))
    secret = hidden_lines(assignment)
    leaked = sorted(secret & inside)
    assert not leaked, f"hidden check lines in the kit: {leaked[:5]}"
    leaked = sorted(reference_lines(assignment) & inside
                    - SHARED_WITH_GRADER.get(assignment, set()))
    assert not leaked, f"reference lines in the kit: {leaked[:5]}"
    assert not [n for n in names if "/reference/" in n]
    top = f"{assignment}-student-kit/"
    rubric = Rubric.load(assignment)
    assert f"{top}handout.md" in names and f"{top}{rubric.main_file}" in names
    kit_rubric = tomllib.loads(text[f"{top}graders/kitdata/assignments/{assignment}/"
                                    "rubric.toml"])
    assert [i["id"] for i in kit_rubric["item"]] == [i.id for i in rubric.items if i.public]
    # no other assignment's grader travels along
    others = [a for a in assignments() if a != assignment]
    assert not [n for n in names if any(f"/graders/{a}/" in n for a in others)]
    # no function or class of the kit's grader is named after a hidden item: the kit's own
    # correct score_hand or is2Pair would be a hidden item's answer (PocoLoco's rules.points
    # is the handout's points rule above, not the points totals its item judges)
    hidden_items = {i.id for i in rubric.items if not i.public} - NAMED_LIKE_HIDDEN.get(
        assignment, set())
    defined = {node.name for n, t in text.items() if f"/graders/{assignment}/" in n
               and n.endswith(".py") for node in ast.walk(ast.parse(t))
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not defined & hidden_items, sorted(defined & hidden_items)


def test_a_grader_without_its_kit_settings_gets_no_kit(tmp_path, monkeypatch):
    """A grader that has not said what its kit leaves out gets no kit: no zip, a reason."""
    import shutil
    graders = tmp_path / "graders"
    shutil.copytree(KIT_ROOT / "graders" / "hilo", graders / "hilo")
    (graders / "hilo" / student_kit.CONFIG).unlink()
    monkeypatch.setattr(student_kit, "GRADERS", graders)
    assert not student_kit.supported("hilo")
    with pytest.raises(student_kit.KitError, match="student_kit.toml"):
        student_kit.build("hilo", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_pocoloco_kit_names_no_hidden_game(kit_zip):
    kit = kit_zip("pocoloco")
    hidden = tomllib.loads((KIT_ROOT / "graders/pocoloco/student_kit.toml").read_text())
    with zipfile.ZipFile(kit) as archive:
        grader = "\n".join(archive.read(n).decode() for n in archive.namelist()
                           if "/graders/pocoloco/" in n)
    for name in hidden["hidden"]["scenarios"]:
        assert not re.search(rf"\b{name}\b", grader)
    for game in ("ties", "game-over", "strategy"):          # the hidden games' names
        assert not re.search(rf'Scenario\(\s*"{game}"', grader)


def test_yahtzee_kit_has_no_hidden_check_case_or_judge(kit_zip):
    """Yahtzee's hidden checks are made by factories and cut by the names its
    student_kit.toml lists; with them go the hidden items' cases, judges and rules."""
    kit = kit_zip("yahtzee")
    hidden = tomllib.loads((KIT_ROOT / "graders/yahtzee/student_kit.toml").read_text())
    with zipfile.ZipFile(kit) as archive:
        grader = "\n".join(archive.read(n).decode() for n in archive.namelist()
                           if "/graders/yahtzee/" in n)
    for name in hidden["hidden"]["checks"]:
        assert not re.search(rf"\b{name}\b", grader), name
    for name in ("histories", "collect_cases", "joker_cases", "final_cases", "table_jokers",
                 "table_sums", "table_bonuses", "joker", "joker_score", "final_scores"):
        assert f"def {name}(" not in grader, name
    marked = set(re.findall(r'mark\.item\("([\w-]+)"\)', grader))
    assert marked == {i.id for i in Rubric.load("yahtzee").items if i.public}


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory, kit_zip):
    folder = tmp_path_factory.mktemp("kit")
    with zipfile.ZipFile(kit_zip("pocoloco")) as archive:
        archive.extractall(folder)
    return folder / "pocoloco-student-kit"


def kit_env(kit: Path) -> dict:
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            "PYTHONPATH": str(kit)}


def test_self_check_runs_from_the_unpacked_kit(unpacked, tmp_path):
    program = tmp_path / "a5.py"
    program.write_text((KIT_ROOT / "reference/pocoloco/a5.py").read_text())
    env = kit_env(unpacked)
    where = subprocess.run([PYTHON, "-c", "import graders; print(graders.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert where.stdout.startswith(str(unpacked)), where.stdout + where.stderr
    report = tmp_path / "report"
    done = subprocess.run([PYTHON, "-m", "graders", "check", "pocoloco", str(program), "-v",
                           "--out", str(report)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    scored = dict(re.findall(r"^  (ok |-- |\?\? )(\S+)", done.stdout, re.M)[i][::-1]
                  for i in range(len(re.findall(r"^  (?:ok |-- |\?\? )", done.stdout, re.M))))
    public = [i.id for i in Rubric.load("pocoloco").items if i.public]
    assert list(scored) == public and set(scored.values()) == {"ok "}
    for game in ("'ties'", "'game-over'", "'strategy'"):
        assert game not in done.stdout
    assert "The full grading also checks" in done.stdout
    assert "Computer strategy uses the scores already rolled" in done.stdout
    # -v links to transcripts: each one exists
    feedback = (report / "feedback.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((transcripts/[^)]+)\)", feedback)
    assert links and all((report / link).is_file() for link in links)
    public_games = {"long", "round-ten", "name-clash"}
    assert {Path(link).stem for link in links} <= public_games | {"readings"}
    # the data of the rounds read names the public games only
    readings = json.loads((report / "transcripts" / "readings.json").read_text())
    assert set(readings) <= public_games and "long" in readings


@pytest.mark.parametrize("assignment", [a for a in KITS if a != "pocoloco"])
def test_each_kit_checks_the_reference_from_the_unpacked_kit(assignment, tmp_path, kit_zip):
    """The kit alone (no repository on the path) runs the public items on the reference, all
    full marks, runs nothing else and says what the full grading adds."""
    folder = tmp_path / "kit"
    with zipfile.ZipFile(kit_zip(assignment)) as archive:
        archive.extractall(folder)
    kit = folder / f"{assignment}-student-kit"
    work = tmp_path / "work"
    work.mkdir()
    for path in (KIT_ROOT / "reference" / assignment).iterdir():
        (work / path.name).write_bytes(path.read_bytes())
    rubric = Rubric.load(assignment)
    target = work / rubric.main_file if len(rubric.files) == 1 else work
    done = subprocess.run([PYTHON, "selfcheck.py", str(target)], capture_output=True,
                          text=True, cwd=kit, env={k: v for k, v in os.environ.items()
                                                   if k != "PYTHONPATH"}, timeout=600)
    assert done.returncode == 0, done.stderr
    scored = re.findall(r"^  (ok |-- |\?\? )(\S+)", done.stdout, re.M)
    public = [i.id for i in rubric.items if i.public]
    assert [item for _, item in scored] == public, done.stdout
    assert {mark for mark, _ in scored} == {"ok "}, done.stdout
    assert "The full grading also checks" in done.stdout
    for item in rubric.items:                         # the others: named by title only
        assert item.public or item.title in done.stdout.split("also checks", 1)[1]
    # a mutant that loses a public item loses it in the kit's self-check too, and only it
    losing = {name: entry["loses"] for name, entry in mutants.manifest(assignment).items()
              if entry["loses"] in public and not entry.get("share") and "base" not in entry}
    if not losing:          # no mutant of the reference loses a public item: nothing more
        return
    name = sorted(losing)[0]
    broken = mutants.build(assignment, tmp_path / "mutants")[name]
    target = broken / rubric.main_file if len(rubric.files) == 1 else broken
    done = subprocess.run([PYTHON, "selfcheck.py", str(target)], capture_output=True,
                          text=True, cwd=kit, env={k: v for k, v in os.environ.items()
                                                   if k != "PYTHONPATH"}, timeout=600)
    assert done.returncode == 0, done.stderr
    marks = {item: mark for mark, item in
             re.findall(r"^  (ok |-- |\?\? )(\S+)", done.stdout, re.M)}
    assert marks.pop(losing[name]) == "-- ", (name, done.stdout)
    assert set(marks.values()) == {"ok "}, (name, done.stdout)


def test_selfcheck_script_needs_no_install(unpacked):
    done = subprocess.run([PYTHON, "selfcheck.py"], capture_output=True, text=True,
                          cwd=unpacked, env={k: v for k, v in os.environ.items()
                                             if k != "PYTHONPATH"}, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "PocoLoco (self-check): a5" in done.stdout      # the template, graded as is


def test_kit_installs_with_one_command(unpacked, tmp_path):
    """pip install of the kit folder into a fresh venv (the dependencies lent by this one),
    then its gradekit command checks a file. The venv is made without a pip of its own and
    this one's pip installs into it (pip --python): copying pip into every new venv costs
    seconds of CPU and is not what the test is about."""
    venv = tmp_path / "venv"
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=300)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = subprocess.run([PYTHON, "-c", "import pexpect, os; "
                           "print(os.path.dirname(os.path.dirname(pexpect.__file__)))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_lent_dependencies.pth").write_text(ours + "\n")
    install = subprocess.run([PYTHON, "-m", "pip", "--python", str(python), "install", "-q",
                              "--no-deps", str(unpacked)], capture_output=True, text=True,
                             timeout=600)
    assert install.returncode == 0, install.stderr
    # the student's folder is left as it was unpacked: no build/, no *.egg-info
    assert not (unpacked / "build").exists() and not list(unpacked.glob("*.egg-info"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(venv / "bin" / "gradekit"), "check", "pocoloco",
                           str(unpacked / "a5.py")], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "self-check" in done.stdout and "readability" in done.stdout


def test_without_a_pty_only_the_line_rule_runs(tmp_path, monkeypatch, capsys):
    program = tmp_path / "a5.py"
    program.write_text("print('short')\n" + "x = '" + "y" * 120 + "'\n")
    monkeypatch.setattr(student_check, "has_pty", lambda: False)
    assert student_check.main(["check", "pocoloco", str(program)]) == 0
    out = capsys.readouterr().out
    assert "line 2 (126 characters)" in out
    assert "pty" in out and "WSL" in out


def test_selfcheck_py_without_the_kits_packages_says_what_to_do(unpacked, tmp_path):
    """Run with a Python that lacks the kit's packages (here: without site-packages), the
    kit's selfcheck.py says to install the kit instead of showing a traceback of its code."""
    done = subprocess.run([PYTHON, "-I", "-S", str(unpacked / "selfcheck.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode != 0
    assert "Install the kit once, as README.md says" in done.stderr
    assert "Traceback" not in done.stderr
