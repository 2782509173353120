"""Mass copying: a solution copied by more than half of a class is reported as one group (it
used to be left out as code found in most submissions, flagging nothing), distinct programs
are not, and a student who copied part of it is paired with the group once."""
from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from graders.engine.course import html, similarity
from graders.engine.grading import reports
from graders.engine.judge.rubric import Rubric

from conftest import KIT_ROOT

LEAKED = KIT_ROOT / "reference" / "pocoloco" / "a5.py"
CORRECT = KIT_ROOT / "tests" / "fixtures" / "pocoloco" / "correct"
# thirteen programs written independently, in students' styles
DISTINCT = ["animated_rolls", "ansi_colours", "asks_everything", "batch_legend",
            "chatty_players", "class_players_shuffle", "classic_funcs", "clear_words",
            "dice_class_oop", "dict_players", "emoji_story", "flat_script", "globals_style"]


def disguised(text: str, copy: int) -> str:
    """The program with every name it defines renamed, every comment reworded and every
    plain string changed, differently for each ``copy``."""
    tree = ast.parse(text)
    own = {node.name for node in ast.walk(tree)
           if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    own |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    own |= {node.id for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    own -= {"main"} | similarity.KEEP
    out, previous = [], ""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        value = tok.string
        if tok.type == tokenize.NAME and value in own and previous != ".":
            value = f"{value[::-1]}_{copy}"
        elif tok.type == tokenize.COMMENT:
            value = f"# note {copy}: what this part does"
        elif (tok.type == tokenize.STRING and value[:1] in "'\""
              and not value.startswith(('"""', "'''"))):
            value = value[0] + f"text {copy}" + value[-1]
        out.append((tok.type, value))
        previous = tok.string
    return tokenize.untokenize(out)


@pytest.fixture(scope="module")
def leaked_class() -> dict[str, dict[str, str]]:
    """27 submissions: 14 disguised copies of one leaked solution and 13 distinct programs."""
    original = LEAKED.read_text(encoding="utf-8")
    sources = {}
    for copy in range(14):
        text = disguised(original, copy)
        assert text != original
        compile(text, f"copy{copy}", "exec")                # still a working program
        sources[f"copier{copy:02d}"] = {"a5.py": text}
    for name in DISTINCT:
        sources[f"own_{name}"] = {"a5.py": (CORRECT / name / "a5.py").read_text("utf-8")}
    assert len(sources) == 27
    return sources


def test_fourteen_copies_in_twenty_seven_are_one_group(leaked_class):
    template = similarity.template_sources("pocoloco")
    pairs, groups = similarity.compare(leaked_class, template)
    assert len(groups) == 1
    group = groups[0]
    assert sorted(group.members) == [f"copier{c:02d}" for c in range(14)]
    assert min(group.shares.values()) > 0.9
    assert group.regions and group.regions[0].lines_a[1] - group.regions[0].lines_a[0] > 50
    # the distinct programs are in no group and no pair; the copies are the group's
    assert pairs == []
    assert similarity.find_pairs(leaked_class, template) == []


def test_a_part_copy_of_the_leaked_solution_is_paired_with_the_group_once(leaked_class):
    sources = dict(leaked_class)
    leaked = LEAKED.read_text(encoding="utf-8").splitlines()
    own = (CORRECT / "emoji_and_table" / "a5.py").read_text("utf-8")
    sources["halfway"] = {"a5.py": "\n".join(leaked[:len(leaked) // 2]) + "\n\n" + own}
    pairs, groups = similarity.compare(sources, similarity.template_sources("pocoloco"))
    assert len(groups) == 1 and "halfway" not in groups[0].members
    assert len(pairs) == 1 and "halfway" in (pairs[0].a, pairs[0].b)
    assert {pairs[0].a, pairs[0].b} - {"halfway"} <= set(groups[0].members)
    assert pairs[0].score > 0.3 and pairs[0].regions


def test_the_group_is_in_similarity_md_and_on_the_class_page(leaked_class, tmp_path):
    class Sub:
        def __init__(self, student, files):
            self.student, self.files = student, files
    subs = []
    for student, files in leaked_class.items():
        path = tmp_path / "class" / student / "a5.py"
        path.parent.mkdir(parents=True)
        path.write_text(files["a5.py"], encoding="utf-8")
        subs.append(Sub(student, {"a5.py": path}))
    rubric = Rubric.load("pocoloco")
    folder = tmp_path / "reports"
    results = [reports.missing_result(rubric, s.student, "not graded") for s in subs]
    html.write_class_pages(results, rubric, folder, subs)
    text = (folder / "similarity.md").read_text(encoding="utf-8")
    assert "## Groups" in text and "(14) |" in text
    row = next(line for line in text.splitlines() if line.startswith("| group 1 |"))
    assert all(f"copier{c:02d}" in row for c in range(14)) and "own_" not in row
    assert "No other pair of the 27 submissions" in text
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert 'id="group-1"' in page and "Groups: one solution in many hands" in page


def test_distinct_programs_alone_make_no_group():
    sources = {name: {"a5.py": (CORRECT / name / "a5.py").read_text("utf-8")}
               for name in DISTINCT}
    assert similarity.compare(sources, similarity.template_sources("pocoloco")) == ([], [])


def test_the_fixture_programs_exist():
    assert all((CORRECT / name / "a5.py").is_file() for name in DISTINCT)
    assert Path(LEAKED).is_file()
