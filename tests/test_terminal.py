"""`gradekit check -v` shows its feedback drawn for a terminal (rich): tables as tables, links
as paths a student can open, no Markdown markup; the file it writes stays Markdown."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from graders.engine.course import terminal

from conftest import KIT_ROOT

FEEDBACK = """## How the runs went

- The program crashed: NameError: name 'nmae' is not defined.

Full transcripts of every run: [transcripts/long.txt](transcripts/long.txt)

| item | points | result |
|---|---|---|
| `setup` Asks the name | 0 / 1 | ✘ |
| `points` Points **totals** | 2 / 3 | 2/3 |
"""


def test_markdown_is_drawn_for_a_terminal():
    out = io.StringIO()
    terminal.print_markdown(FEEDBACK, Path("selfcheck-report"), out)
    text = out.getvalue()
    assert "|---|" not in text and "](" not in text and "**" not in text and "`" not in text
    assert re.search(r"item\s+points\s+result", text)
    assert re.search(r"setup Asks the name\s+0 / 1\s+✘", text)
    assert "selfcheck-report/transcripts/long.txt" in text
    assert text.count("transcripts/long.txt") == 1          # the path once, not label and path
    assert "How the runs went" in text and "## " not in text
    assert max(len(line) for line in text.splitlines()) <= terminal.WIDTH


def test_a_link_to_elsewhere_keeps_its_label_and_target():
    assert terminal.plain_links("see [the handout](https://example.org/a5)", Path("r")) == \
        "see the handout (https://example.org/a5)"
    assert terminal.plain_links("[run](transcripts/a.txt)", Path("r")) == \
        "run (r/transcripts/a.txt)"


def test_check_verbose_prints_no_raw_markdown(tmp_path):
    program = tmp_path / "a5.py"
    program.write_text("print('PocoLoco')\nname = input('Your name? ')\nprint(nmae)\n")
    report = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "graders", "check", "pocoloco", str(program),
                           "-v", "--out", str(report)], capture_output=True, text=True,
                          cwd=KIT_ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    shown = done.stdout[done.stdout.index("How the runs went", done.stdout.index("Items:")):]
    assert "|---|" not in shown and "](" not in shown and "**" not in shown
    assert re.search(r"item\s+points\s+result", shown)
    feedback = (report / "feedback.md").read_text(encoding="utf-8")
    assert "|---|" in feedback and "](transcripts/" in feedback      # the file: Markdown
