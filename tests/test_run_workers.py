"""plugin.run(workers=N): submissions graded in worker processes come back as the same
reports, in the same order, as when they are graded in this process."""
from __future__ import annotations

import textwrap

import pytest

import mutants
from conftest import KIT_ROOT, scores
from graders.cli import GRADERS
from graders.engine.run import harness
from graders.engine.grading import plugin
from graders.engine.judge.rubric import Item, Rubric
from graders.engine.grading.submissions import from_path

RUBRIC = Rubric.load("pocoloco")


def _submissions(tmp_path):
    """The reference, a mutant that loses an item, and a folder without a main file."""
    built = mutants.build("pocoloco", tmp_path, "mutants")
    name = next(iter(mutants.manifest("pocoloco")))
    empty = tmp_path / "empty"
    empty.mkdir()
    return [from_path(KIT_ROOT / "reference" / "pocoloco", RUBRIC.main_file, "reference"),
            from_path(empty, RUBRIC.main_file, "empty"),
            from_path(built[name], RUBRIC.main_file, f"mutant-{name}")]


def _summary(report) -> tuple:
    return (report.student, scores(report), report.notes, report.problems,
            [(v.item.id, v.judged, [c.messages for c in v.checks]) for v in report.verdicts])


def test_workers_give_the_same_reports_in_the_same_order(tmp_path):
    here = plugin.run(RUBRIC, _submissions(tmp_path / "here"), GRADERS / "pocoloco",
                      workers=1)
    cpu_here = harness.children_cpu_seconds()
    there = plugin.run(RUBRIC, _submissions(tmp_path / "there"), GRADERS / "pocoloco",
                       workers=2)
    assert harness.children_cpu_seconds() == cpu_here      # no program ran in this process
    assert [r.student for r in there] == [r.student for r in here] == \
        ["reference", "empty", f"mutant-{next(iter(mutants.manifest('pocoloco')))}"]
    assert [_summary(r) for r in there] == [_summary(r) for r in here]
    assert there[0].score == RUBRIC.max_score
    assert there[2].score < RUBRIC.max_score


def test_a_grader_that_does_not_match_its_rubric_stops_workers_too(tmp_path):
    grader = tmp_path / "toy_workers"
    grader.mkdir()
    (grader / "__init__.py").write_text("")
    (grader / "checks.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.item("rols")
        def check_rolls(result):
            raise SystemExit("must not run")
    """))
    rubric = Rubric("toy", "Toy", "game.py", ["game.py"], [Item("rolls", 2, "Rolls")])
    found = []
    for student in ("sam", "kim"):
        (tmp_path / student).mkdir()
        (tmp_path / student / "game.py").write_text("print('hi')\n")
        found.append(from_path(tmp_path / student, "game.py", student))
    with pytest.raises(RuntimeError) as error:
        plugin.run(rubric, found, grader, workers=2)
    assert "check_rolls is marked for item 'rols', which rubric.toml does not have" in \
        str(error.value)
