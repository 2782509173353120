"""The engine's readability settings that PocoLoco's rubric uses: comments and layout parts,
one-letter variables with an allowance, all-or-nothing penalties and the share's decimals."""
from __future__ import annotations

import pytest

from graders.engine.judge import readability
from graders.engine.judge.rubric import Rubric

# three statements of code with no comment, two one-letter loop variables, one one-letter
# parameter (p) and four one-letter assigned variables (a, b, c, d)
TERSE = '''def draw(p):
    a = [r for r in p]
    b = c = d = 0
    for e in a:
        b += e
    return a, b, c, d
'''


def _measure(tmp_path, source, **table):
    path = tmp_path / "a5.py"
    path.write_text(source)
    return readability.measure({"a5.py": path}, readability.Settings.from_table(table))


def test_variables_leave_loop_names_out_and_some_are_allowed(tmp_path):
    every = _measure(tmp_path, TERSE, allowed_short=["_"])
    assert set(every.short_names) == {"p", "a", "r", "b", "c", "d", "e"}
    variables = _measure(tmp_path, TERSE, allowed_short=["_"], names_counted="variables",
                         names_allowed=3, name_penalty=1, weights={"docstrings": 0})
    assert set(variables.short_names) == {"p", "a", "b", "c", "d"}
    assert variables.parts["names"] == 0.0          # five is more than the three allowed
    assert variables.fraction == 0.5                # lines 1, names 0; docstrings weigh 0
    fewer = _measure(tmp_path, TERSE, allowed_short=["_", "a", "b"], names_counted="variables",
                     names_allowed=3, name_penalty=1, weights={"docstrings": 0})
    assert fewer.parts["names"] == 1.0 and fewer.findings() == []


def test_comments_needed_grow_with_the_code(tmp_path):
    found = _measure(tmp_path, TERSE, weights={"comments": 1, "docstrings": 0, "names": 0},
                     comments_needed=3, lines_per_comment=40, comment_penalty=0.25)
    assert (found.comments, found.code_lines, found.comments_needed) == (0, 6, 3)
    assert found.parts["comments"] == 0.25
    assert "Few comments: 0 comment" in found.findings()[0]
    long_code = '"""A module."""\n# the counter\n' + "count = 1\n" * 120
    found = _measure(tmp_path, long_code, weights={"comments": 1}, comment_penalty=1)
    assert (found.comments, found.comments_needed) == (2, 3)     # 121 code lines // 40
    assert found.parts["comments"] == 0.0


def test_layout_warnings_beyond_the_allowance_cost_marks(tmp_path):
    cramped = "x=1\ny=2\nz=x+y\nprint( z )\n"
    found = _measure(tmp_path, cramped, weights={"layout": 1, "docstrings": 0, "names": 0},
                     layout_allowed=2, layout_penalty=0.25)
    # E225 three times, E201 and E202 (E226 for x+y is off in pycodestyle by default)
    assert found.layout_warnings == 5
    assert found.parts["layout"] == 0.25            # three beyond the two allowed
    assert found.layout_examples and "E5" not in " ".join(found.layout_examples)
    assert "pycodestyle gives 5 layout warnings (up to 2 are fine)" in found.findings()[0]
    unweighted = _measure(tmp_path, cramped)
    assert unweighted.layout_warnings == 0 and "layout" not in unweighted.parts


@pytest.mark.parametrize("decimals, marks", [(2, 2.49), (4, 2.5)])
def test_share_decimals_keep_half_marks_whole(decimals, marks):
    table = {"weights": {"lines": 1, "docstrings": 0, "names": 0.5, "comments": 1,
                         "layout": 0.5},
             "names_allowed": 3, "name_penalty": 1, "share_decimals": decimals}
    found = readability.Readability(readability.Settings.from_table(table))
    found.documentable, found.comments = ["main"], 3
    found.short_names = {name: "main" for name in "abcd"}      # one more than allowed
    assert found.parts["names"] == 0.0
    assert round(3 * found.fraction, 2) == marks                # 2.5 of 3 marks


def test_unknown_parts_and_kinds_are_refused():
    with pytest.raises(ValueError, match="no part 'coments'"):
        readability.Settings.from_table({"weights": {"coments": 1}})
    with pytest.raises(ValueError, match="names_counted"):
        readability.Settings.from_table({"names_counted": "loops"})


def test_pocolocos_rubric_declares_its_scheme():
    settings = Rubric.load("pocoloco").readability
    assert settings.weights == {"lines": 1, "docstrings": 0, "names": 0.5, "comments": 1,
                                "layout": 0.5}
    assert settings.names_counted == "variables" and settings.names_allowed == 3
