"""The platform exports, run the way each platform runs them, their results checked against
JSON Schemas written from each platform's documentation (tests/schemas/), and a built wheel
installed in a fresh virtual environment."""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest
import yaml

from graders.cli import assignments
from graders.engine.judge.rubric import KIT_ROOT, Rubric

SCHEMAS = Path(__file__).parent / "schemas"
PYTHON = sys.executable
RUBRIC = Rubric.load("pocoloco")
PUBLIC = {item.id for item in RUBRIC.items if item.public}
REVIEW = {item.id for item in RUBRIC.items if item.review}
BROKEN = "def main(:\n    print('PocoLoco')\n"     # a5.py Python cannot read


def schema(name: str):
    data = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(data)


def cli(*args, cwd=None, env=None, check=True):
    done = subprocess.run([PYTHON, "-m", "graders", *args], capture_output=True, text=True,
                          cwd=cwd or KIT_ROOT, env=env, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr + done.stdout
    return done


def kit_env(root: Path, **more) -> dict:
    """The environment of an unpacked kit: its own copy first on the path (never the
    repository's), the test's Python for grading."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(more)
    return env


# ------------------------------------------------------------------------------ Gradescope
@pytest.fixture(scope="module")
def gradescope_zip(tmp_path_factory):
    out = tmp_path_factory.mktemp("gs") / "autograder.zip"
    cli("export", "gradescope", "pocoloco", "--out", str(out), "--hide-review")
    return out


def run_autograder(zip_path: Path, root: Path, submission: dict[str, str] | None,
                   python: str = PYTHON) -> dict:
    """Lay ``root`` out like Gradescope's /autograder, run run_autograder, read results."""
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(root / "source")
    script = root / "source" / "run_autograder"
    script.chmod(0o755)              # zipfile does not restore modes; Gradescope does
    (root / "submission").mkdir()
    for name, text in (submission or {}).items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    env = kit_env(root, GRADEKIT_AUTOGRADER_ROOT=str(root), GRADEKIT_PYTHON=python)
    done = subprocess.run([str(script)], capture_output=True, text=True, cwd=root, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def test_gradescope_zip_holds_setup_run_and_only_this_assignment(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip) as archive:
        names = archive.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
        setup = archive.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder", "requirements.txt"} <= set(names)
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert "kit/assignments/pocoloco/rubric.toml" in names
    assert "kit/graders/pocoloco/checks.py" in names
    # the grader compares with the student's own program: no reference, no other grader
    assert not [n for n in names if n.startswith("kit/reference/")]
    assert not [n for n in names if n.startswith(("kit/graders/hilo/", "kit/assignments/hilo"))]
    assert "3.11" in setup and "deadsnakes" in setup and "bubblewrap" in setup
    with zipfile.ZipFile(gradescope_zip) as archive:
        for script in ("setup.sh", "run_autograder"):        # both parse as bash
            checked = subprocess.run(["bash", "-n"], input=archive.read(script).decode(),
                                     capture_output=True, text=True)
            assert checked.returncode == 0, checked.stderr


def test_gradescope_correct_submission(gradescope_zip, tmp_path):
    reference = (KIT_ROOT / "reference/pocoloco/a5.py").read_text(encoding="utf-8")
    data = run_autograder(gradescope_zip, tmp_path, {"a5.py": reference})
    schema("gradescope_results").validate(data)
    assert data["score"] == RUBRIC.max_score
    assert data["output_format"] == "md" and data["test_output_format"] == "md"
    tests = {t["number"]: t for t in data["tests"]}
    assert set(tests) == {item.id for item in RUBRIC.items}
    for item_id, test in tests.items():
        if item_id in REVIEW:            # --hide-review: shown once grades are published
            assert test["visibility"] == "after_published"
            assert "needs-review" in test["tags"]
        elif item_id in PUBLIC:
            assert test["visibility"] == "visible"
        else:                            # judged from the hidden games: after the due date
            assert test["visibility"] == "after_due_date"
    assert data["extra_data"]["assignment"] == "pocoloco"


def test_gradescope_broken_submission(gradescope_zip, tmp_path):
    data = run_autograder(gradescope_zip, tmp_path, {"a5.py": BROKEN})
    schema("gradescope_results").validate(data)
    assert data["score"] == 0
    assert "SyntaxError" in data["output"] or "invalid syntax" in data["output"]
    # the items say "see 'How the runs went' above": Gradescope shows this output above them
    assert data["output"].startswith("**How the runs went**\n\n- ")
    assert any("'How the runs went' above" in t["output"] for t in data["tests"])


def test_gradescope_missing_submission(gradescope_zip, tmp_path):
    data = run_autograder(gradescope_zip, tmp_path, {"notes.txt": "nothing here"})
    schema("gradescope_results").validate(data)
    assert data["score"] == 0 and "a5.py" in data["output"]
    assert data["tests"] and all(t["score"] == 0 for t in data["tests"])


def test_gradescope_grader_failure_still_writes_results(gradescope_zip, tmp_path):
    data = run_autograder(gradescope_zip, tmp_path, {"a5.py": "print(1)\n"},
                          python=shutil.which("false"))
    schema("gradescope_results").validate(data)
    assert data["score"] == 0 and data["extra_data"]["grading_failed"]


# ------------------------------------------------------------------------------ PrairieLearn
def test_prairielearn_results_from_grade(tmp_path):
    out = tmp_path / "pl.json"
    cli("grade", "pocoloco", "reference/pocoloco/a5.py", "--format", "prairielearn",
        "--json", str(out), "--out", str(tmp_path / "reports"))
    data = json.loads(out.read_text(encoding="utf-8"))
    schema("prairielearn_results").validate(data)
    assert data["gradable"] is True and data["score"] == 1.0
    assert len(data["tests"]) == len(RUBRIC.items)
    assert sum(t["max_points"] for t in data["tests"]) == RUBRIC.max_score
    assert all(t["points"] == t["max_points"] for t in data["tests"])
    # the kit's own results.json is still written beside the feedback
    assert (tmp_path / "reports/pocoloco/a5/results.json").is_file()


def test_prairielearn_file_that_does_not_parse_is_not_gradable(tmp_path):
    broken = tmp_path / "a5.py"
    broken.write_text(BROKEN, encoding="utf-8")
    out = tmp_path / "pl.json"
    cli("grade", "pocoloco", str(broken), "--format", "prairielearn", "--json", str(out),
        "--out", str(tmp_path / "reports"))
    data = json.loads(out.read_text(encoding="utf-8"))
    schema("prairielearn_results").validate(data)
    assert data["gradable"] is False and "score" not in data
    assert any("a5.py" in error and "line 1" in error for error in data["format_errors"])


def test_prairielearn_export_runs_like_the_external_grader(tmp_path):
    out = tmp_path / "course"
    cli("export", "prairielearn", "pocoloco", "--out", str(out), "--image", "me/grader:1")
    info = json.loads((out / "questions/pocoloco/info.json").read_text(encoding="utf-8"))
    options = info["externalGradingOptions"]
    assert options["enabled"] and options["image"] == "me/grader:1"
    assert options["entrypoint"] == "/grade/serverFilesCourse/gradekit/run.sh"
    assert options["serverFilesCourse"] == ["gradekit/"] and options["timeout"] <= 600
    assert "FROM python:3.12" in (out / "image/Dockerfile").read_text(encoding="utf-8")
    assert "pexpect" in (out / "image/requirements.txt").read_text(encoding="utf-8")
    assert not (out / "serverFilesCourse/gradekit/kit/reference").exists()
    # /grade as PrairieLearn lays it out: serverFilesCourse, student, results (made by us)
    grade = tmp_path / "grade"
    shutil.copytree(out / "serverFilesCourse", grade / "serverFilesCourse")
    env = kit_env(grade, GRADEKIT_PL_ROOT=str(grade), GRADEKIT_PYTHON=PYTHON)
    entry = grade / "serverFilesCourse/gradekit/run.sh"
    for files, gradable in (({"a5.py": (KIT_ROOT / "reference/pocoloco/a5.py").read_text()},
                             True), ({"a5.py": BROKEN}, False), ({}, False)):
        shutil.rmtree(grade / "student", ignore_errors=True)
        (grade / "student").mkdir()
        for name, text in files.items():
            (grade / "student" / name).write_text(text, encoding="utf-8")
        done = subprocess.run(["bash", str(entry)], capture_output=True, text=True,
                              env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        data = json.loads((grade / "results/results.json").read_text(encoding="utf-8"))
        schema("prairielearn_results").validate(data)
        assert data["gradable"] is gradable
        if gradable:
            assert data["score"] == 1.0
    # the grader itself fails (here: no Python to run it): the submission is not gradable,
    # so it costs the student no attempt and no points, and the message says whose fault
    env["GRADEKIT_PYTHON"] = shutil.which("false")
    done = subprocess.run(["bash", str(entry)], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    data = json.loads((grade / "results/results.json").read_text(encoding="utf-8"))
    schema("prairielearn_results").validate(data)
    assert data["gradable"] is False and "score" not in data
    assert "The grader failed" in data["message"] and "not yours" in data["message"]


# ------------------------------------------------------------------------------ Classroom
def classroom_steps(out: Path) -> tuple[list[dict], dict]:
    workflow = yaml.safe_load((out / ".github/workflows/classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    return steps, workflow


def run_steps(steps: list[dict], repo: Path) -> dict[str, tuple[int, dict]]:
    """Each grading step's command, run in ``repo`` as the runner would: step id ->
    (exit status, the result it handed to the reporter)."""
    outcomes = {}
    for step in steps:
        if "gradekit grade" not in step.get("run", ""):
            continue
        output = repo / "github_output"
        output.write_text("")
        command = step["run"].split()
        assert command[:2] == ["gradekit", "grade"]
        done = subprocess.run([PYTHON, "-m", "graders", *command[1:]], cwd=repo,
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, "GITHUB_OUTPUT": str(output)})
        assert done.returncode in (0, 3), done.stderr
        line = output.read_text().strip()
        assert line.startswith("result=")
        result = json.loads(base64.b64decode(line[len("result="):]))
        schema("classroom_runner").validate(result)
        outcomes[step["id"]] = (done.returncode, result)
    return outcomes


@pytest.fixture(scope="module")
def classroom_export(tmp_path_factory):
    out = tmp_path_factory.mktemp("classroom")
    cli("export", "classroom", "pocoloco", "--out", str(out), "--install",
        "git+https://example.invalid/course/grader.git")
    return out


def test_classroom_export_needs_to_be_told_where_the_grader_comes_from(tmp_path):
    """No package index holds the kit: a workflow that pip-installs a made-up name fails for
    every student, so --install is required."""
    done = subprocess.run([PYTHON, "-m", "graders", "export", "classroom", "pocoloco",
                           "--out", str(tmp_path / "repo")], capture_output=True, text=True,
                          cwd=KIT_ROOT, timeout=120)
    assert done.returncode == 2 and "export classroom needs --install" in done.stderr
    assert not (tmp_path / "repo").exists()


def test_classroom_workflow_has_a_step_per_item_and_the_reporter(classroom_export):
    steps, workflow = classroom_steps(classroom_export)
    graded = [s for s in steps if "gradekit grade" in s.get("run", "")]
    assert len(graded) == len(RUBRIC.items)
    reporter = steps[-1]
    assert "autograding-grading-reporter" in reporter["uses"]
    runners = reporter["with"]["runners"].split(",")
    assert runners == [s["id"] for s in graded]
    for runner in runners:          # the reporter reads <RUNNER>_RESULTS
        assert reporter["env"][f"{runner.upper()}_RESULTS"] == \
            f"${{{{ steps.{runner}.outputs.result }}}}"
    install = [s for s in steps if "pip install" in s.get("run", "")]
    assert install and "example.invalid" in install[0]["run"]
    config = json.loads((classroom_export / ".github/classroom/autograding.json").read_text())
    assert sum(t["points"] for t in config["tests"]) == RUBRIC.max_score
    assert [t["run"].split()[-1] for t in config["tests"]] == [i.id for i in RUBRIC.items]


def test_classroom_steps_on_a_correct_submission(classroom_export, tmp_path):
    steps, _ = classroom_steps(classroom_export)
    shutil.copy(KIT_ROOT / "reference/pocoloco/a5.py", tmp_path / "a5.py")
    outcomes = run_steps(steps, tmp_path)
    assert len(outcomes) == len(RUBRIC.items)
    assert all(status == 0 for status, _ in outcomes.values())
    total = sum(t["score"] for _, r in outcomes.values() for t in r["tests"])
    assert total == RUBRIC.max_score
    # graded once: the first step stored the result, the others read it
    assert (tmp_path / ".gradekit/results.json").is_file()
    # the feedback stays in the graded repository, not in the kit's own reports folder
    kept = list((tmp_path / ".gradekit/reports/pocoloco").glob("*/feedback.md"))
    assert len(kept) == 1
    assert not (KIT_ROOT / "reports/pocoloco" / kept[0].parent.name).exists()


def test_classroom_steps_on_a_broken_submission(classroom_export, tmp_path):
    steps, _ = classroom_steps(classroom_export)
    (tmp_path / "a5.py").write_text(BROKEN, encoding="utf-8")
    outcomes = run_steps(steps, tmp_path)
    assert all(status == 3 for status, _ in outcomes.values())
    assert all(r["status"] == "fail" for _, r in outcomes.values())
    assert sum(r["max_score"] for _, r in outcomes.values()) == RUBRIC.max_score
    assert sum(t["score"] for _, r in outcomes.values() for t in r["tests"]) == 0


def test_classroom_steps_on_an_empty_repository(classroom_export, tmp_path):
    """No a5.py at all: every step still hands the reporter a result (0) and fails."""
    steps, _ = classroom_steps(classroom_export)
    (tmp_path / "notes.txt").write_text("my program is on my laptop\n")
    outcomes = run_steps(steps[:6], tmp_path)
    assert outcomes and all(status == 3 for status, _ in outcomes.values())
    assert all(r["tests"][0]["score"] == 0 and "a5.py" in r["tests"][0]["message"]
               for _, r in outcomes.values())


def test_classroom_grader_failure_is_an_error_result():
    from graders.platforms.classroom import error_result
    result = error_result(RUBRIC.item("chips"), RuntimeError("disk full"))
    schema("classroom_runner").validate(result)
    assert result["status"] == "error" and result["max_score"] == 1
    assert "not a verdict" in result["tests"][0]["message"]


def test_classroom_item_keeps_partial_credit(tmp_path):
    """A step hands the reporter the item's own score, a fraction of its points included."""
    from graders.platforms.classroom import item_result
    data = {"tests": [{"number": "ui", "name": "User interface", "score": 1.5,
                       "max_score": 3, "output": "Some prompts are unclear."}]}
    result, full = item_result(data, "ui")
    schema("classroom_runner").validate(result)
    assert not full and result["tests"][0]["score"] == 1.5 and result["max_score"] == 3


def test_grade_item_rejects_an_unknown_item(tmp_path):
    done = cli("grade", "pocoloco", "reference/pocoloco/a5.py", "--item", "nope", check=False)
    assert done.returncode == 2 and "no item 'nope'" in done.stderr


# ------------------------------------------------------------------------------ the wheel
def test_built_wheel_lists_and_grades_in_a_fresh_venv(tmp_path):
    """pip wheel (built as pip builds it, setuptools from the package index), a fresh venv
    whose runtime dependencies are lent by this one (a .pth file: nothing else to download),
    then the console command from another folder: list, and grade a demo submission. The venv
    is made without a pip of its own; this one's pip installs the wheel into it (pip
    --python), which spares the seconds of CPU that copying pip into a venv costs."""
    wheels = tmp_path / "wheels"
    build = subprocess.run([PYTHON, "-m", "pip", "wheel", str(KIT_ROOT), "--no-deps",
                            "-w", str(wheels), "-q"],
                           capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    shutil.rmtree(KIT_ROOT / "build", ignore_errors=True)
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "graders/kitdata/assignments/pocoloco/rubric.toml" in names
    # package data found where the engine looks for it at run time
    assert {"graders/engine/grading/grader.ini", "graders/engine/run/boot/kitboot.py",
            "graders/engine/course/templates/feedback.html.j2"} <= set(names)
    # only the reference a grader reads at grading time (Poker Dice runs a student's tests
    # on it); no other reference solution
    references = {n for n in names if "/reference/" in n}
    assert references == {f"graders/kitdata/reference/poker_dice/{m}"
                          for m in ("project.py", "dice.py", "magic8ball.py")}
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
    subprocess.run([PYTHON, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", str(wheel)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run([str(python), "-c", "import graders; print(graders.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    gradekit = venv / "bin" / "gradekit"
    listed = subprocess.run([str(gradekit), "list"], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split() == assignments()
    demo = KIT_ROOT / "demo_submissions" / "pocoloco"           # the whole demo class
    graded = subprocess.run([str(gradekit), "grade-all", "pocoloco", str(demo), "--out",
                             str(tmp_path / "reports")], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=900)
    assert graded.returncode == 0, graded.stderr
    assert "PocoLoco" in (tmp_path / "reports/pocoloco/class_report.md").read_text()
    results = list((tmp_path / "reports" / "pocoloco").glob("*/results.json"))
    gradebook = (tmp_path / "reports/pocoloco/gradebook.csv").read_text().splitlines()
    assert len(results) == len(gradebook) - 1 >= 5
    data = json.loads(results[0].read_text(encoding="utf-8"))
    assert len(data["tests"]) == len(RUBRIC.items) and data["max_score"] == RUBRIC.max_score
