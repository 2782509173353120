"""tests/mutants.py reads the patches `diff -u` writes, headers with a tab and a time."""
from __future__ import annotations

import subprocess

import mutants


def test_a_patch_as_diff_writes_it_applies(tmp_path):
    (tmp_path / "reference").mkdir()
    (tmp_path / "copy").mkdir()
    (tmp_path / "reference" / "game.py").write_text("a = 1\nb = 2\nc = 3\n")
    (tmp_path / "copy" / "game.py").write_text("a = 1\nb = 20\nc = 3\n")
    patch = subprocess.run(["diff", "-u", "reference/game.py", "copy/game.py"], cwd=tmp_path,
                           capture_output=True, text=True).stdout
    assert "\t" in patch.splitlines()[1]            # "+++ copy/game.py\t2026-..."
    files = mutants._file_patches(patch)
    assert list(files) == ["game.py"]
    assert mutants.apply("a = 1\nb = 2\nc = 3\n", files["game.py"]) == "a = 1\nb = 20\nc = 3\n"
