"""`make bench`: how fast the kit grades, against simply running the same sessions.

Reports, with the targets for a 2-core machine in brackets:
  0. the machine: cores, CPU model, load, the grader's and the students' Python
  1. one `python -m graders grade` command on each assignment's reference, start-up
     included (median and fastest of 5)        [PocoLoco, Three-card Poker, HiLo <= 1 s;
                                                Poker Dice, Yahtzee <= 2 s]
  2. a class folder with `grade-all`, per submission                     [<= 0.5 s]
  3. overhead: the grader's PocoLoco scenario runs vs. the same answers piped to the same
     program with the same dice, without the grader (the median of 5)    [<= 1.3x]
  4. a program that hangs, as the worst case per submission              [<= 5 s]:
     an endless loop of rolls in one game, and a program stuck without output in
     every game (PocoLoco, Poker Dice)
  5. isolation: a run's start in a sandbox of its own, without a sandbox
     (GRADER_SANDBOX=off) and forked from the fork server (where the sandbox is set up by
     root), and one grade command each way

Real times depend on what else the machine is doing: the load average is printed before and
after, and the ratios (3, 5) hold better than the seconds on a busy machine.
"""
from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from graders.engine.run import forkserver, pythons, sandbox  # noqa: E402
from graders.engine.run.harness import Child, prepare_workdir  # noqa: E402
from graders.engine.grading.submissions import from_path  # noqa: E402
from graders.pocoloco.play import play  # noqa: E402
from graders.pocoloco.scenarios import ALL  # noqa: E402

# (assignment, target seconds for one grade command on its reference)
TARGETS = [("pocoloco", 1.0), ("three_card_poker", 1.0), ("poker_dice", 2.0), ("hilo", 1.0),
           ("yahtzee", 2.0), ("pig", 1.0)]

REPLAY = r'''
import json, random, runpy, sys, time
plan = json.load(open(sys.argv[1]))
def take(name):
    def fn(*args, **kwargs):
        value = plan[name].pop(0) if plan.get(name) else None
        if name == "shuffle":
            if value is not None:
                args[0][:] = [args[0][i] for i in value]
            return None
        if name in ("choice",):
            return args[0][value] if value is not None else args[0][0]
        if name in ("choices", "sample"):
            pool = list(args[0])
            return [pool[i] for i in value] if value is not None else pool[:kwargs.get("k", 1)]
        return value if value is not None else args[0]
    return fn
for name in ("randint", "randrange", "choice", "choices", "shuffle", "sample"):
    setattr(random, name, take(name))
time.sleep = lambda s: None
sys.argv = [sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
'''


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=KIT, capture_output=True, check=False,
                   env={**os.environ, **(env or {})})
    return time.perf_counter() - start


def grade_times(path: str, repeats: int = 5, env: dict[str, str] | None = None,
                assignment: str = "pocoloco") -> list[float]:
    """Real seconds of ``repeats`` grade commands on one submission."""
    with tempfile.TemporaryDirectory() as out:
        return [timed([sys.executable, "-m", "graders", "grade", assignment, path,
                       "--out", out, "--json", f"{out}/r.json"], env) for _ in range(repeats)]


def single(path: str, repeats: int = 5, env: dict[str, str] | None = None,
           assignment: str = "pocoloco") -> float:
    """The median of ``grade_times``."""
    return statistics.median(grade_times(path, repeats, env, assignment))


def stuck_everywhere(tmp: Path) -> dict[str, Path]:
    """The PocoLoco and Poker Dice references with an endless loop that prints nothing where
    every game passes (Round 2; the first answer): assignment -> submission."""
    loops = {"pocoloco": ("a5.py", '    """Play one full round and update chips."""\n',
                          "    while round_number == 2:\n        pass\n"),
             "poker_dice": ("project.py", "        answer = input(prompt).strip()\n",
                            "        while answer:\n            pass\n")}
    made = {}
    for name, (file, where, loop) in loops.items():
        folder = Path(shutil.copytree(KIT / "reference" / name, tmp / name))
        text = (folder / file).read_text(encoding="utf-8")
        assert where in text, f"{name}: the place for the loop is gone from {file}"
        (folder / file).write_text(text.replace(where, where + loop, 1), encoding="utf-8")
        made[name] = folder
    return made


def machine() -> str:
    """Cores, CPU model, load and Pythons, for the figures that follow."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle
                          if line.startswith("model name")), model)
    except OSError:
        pass
    return (f"Machine: {os.cpu_count()} cores, {model}, {platform.system()} "
            f"{platform.release()}; {load()}\n"
            f"Grader Python: {platform.python_version()} ({sys.executable})\n"
            f"Student Python: {pythons.describe()}")


def load() -> str:
    """The load average, and whether the machine is busier than its cores."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    busy = " (busy: real times are inflated)" if five > (os.cpu_count() or 1) * 0.75 else ""
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min){busy}"


def assignments() -> None:
    """1. One grade command on each assignment's reference, beside its target."""
    print("1. one grade command on the reference (start-up included; median and fastest of 5)")
    for assignment, target in TARGETS:
        reference = KIT / "reference" / assignment
        if not (reference.is_dir() and (KIT / "assignments" / assignment / "rubric.toml")
                .is_file() and (KIT / "graders" / assignment).is_dir()):
            print(f"   {assignment:17} skipped: no reference, rubric or grader here")
            continue
        times = grade_times(str(reference.relative_to(KIT)), assignment=assignment)
        median = statistics.median(times)
        print(f"   {assignment:17} {median:5.2f} s (fastest {min(times):.2f} s) = "
              f"{median / target:.2f} of the target   [target <= {target:g} s]")


def per_run(env: dict[str, str], repeats: int = 30) -> float:
    """Median real seconds of one run (start to exit) of a program that prints one line,
    with the settings ``env`` (GRADER_SANDBOX, GRADER_FORKSERVER) in force."""
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        sandbox.status()                 # the probe, once, outside the timing
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "hello.py"
            program.write_text("print('hello')\n")
            times = []
            for _ in range(repeats + 1):     # the first may start the fork server: not timed
                workdir = prepare_workdir([program])
                child = Child(workdir / "hello.py", workdir=workdir).start()
                while child.next_event() is not None:
                    pass
                child.close()
                times.append(child.elapsed)
                shutil.rmtree(workdir, ignore_errors=True)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return statistics.median(times[1:])


def folder(copies: int) -> tuple[float, int]:
    correct = sorted((KIT / "tests/fixtures/pocoloco/correct").glob("*/a5.py")) + \
        sorted((KIT / "demo_submissions/pocoloco").glob("*_a5*.py"))[:4]
    sources = [KIT / "reference/pocoloco/a5.py"] + correct
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        klass.mkdir()
        for i in range(copies):
            shutil.copy(sources[i % len(sources)], klass / f"student{i:03d}_1000{i}_2000{i}_a5.py")
        seconds = timed([sys.executable, "-m", "graders", "grade-all", "pocoloco", str(klass),
                         "--out", f"{tmp}/reports"])
    return seconds, copies


def overhead(path: Path) -> tuple[float, float]:
    """Seconds in the grader's runs vs. replaying the same answers and dice without it."""
    submission = from_path(path, "a5.py")
    graded, plain = 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        replay = Path(tmp) / "replay.py"
        replay.write_text(REPLAY)
        for scenario in ALL:
            start = time.perf_counter()
            game = play(submission.files, scenario, 10)
            graded += time.perf_counter() - start
            draws: dict[str, list] = {}
            for mark in game.transcript.draws:
                draws.setdefault(mark.data["fn"], []).append(mark.data["value"])
            plan = Path(tmp) / f"{scenario.name}.json"
            plan.write_text(json.dumps(draws))
            answers = "".join(m.text + "\n" for m in game.transcript.of_kind("answer"))
            start = time.perf_counter()
            subprocess.run([pythons.student_python(), str(replay), str(plan), str(path)],
                           input=answers, capture_output=True, text=True, timeout=60,
                           cwd=tmp)
            plain += time.perf_counter() - start
    return graded, plain


def main() -> None:
    print(machine())
    assignments()
    seconds, count = folder(40)
    print(f"2. grade-all, {count} PocoLoco submissions: {seconds:.1f} s = "
          f"{seconds / count:.2f} s each (200 would take ~{seconds / count * 200:.0f} s)   "
          "[target <= 0.5 s each]")
    # five rounds: one round's ratio moves by 0.1-0.2 with whatever else the machine does
    rounds = sorted((overhead(KIT / "reference/pocoloco/a5.py") for _ in range(5)),
                    key=lambda pair: pair[0] / pair[1])
    graded, plain = rounds[2]
    print(f"3. PocoLoco scenario runs: {graded:.2f} s with the grader, {plain:.2f} s replayed "
          f"without it: {graded / plain:.2f}x (median of "
          f"{', '.join(f'{g / p:.2f}x' for g, p in rounds)})   [target <= 1.3x]")
    hang = KIT / "demo_submissions/pocoloco/taylorchris_67890_12345_a5.py"
    print(f"4. a hanging program: {single(str(hang), 1):.1f} s (an endless loop of rolls in one "
          "game, from the demo class)   [target <= 5 s]")
    with tempfile.TemporaryDirectory() as tmp:
        stuck = {name: single(str(path), 1, assignment=name)
                 for name, path in stuck_everywhere(Path(tmp)).items()}
    print(f"   stuck without output in every game (one run stops after 1.5 CPU seconds "
          f"without activity, the others after 0.3): PocoLoco {stuck['pocoloco']:.1f} s, "
          f"Poker Dice {stuck['poker_dice']:.1f} s   [target <= 5 s]")
    isolation = sandbox.status()
    if not isolation.active:
        print(f"5. isolation: none here ({isolation.why_not}); nothing to compare")
    else:
        own = {forkserver.ENV: "off"}
        plain = per_run({sandbox.SANDBOX_ENV: "off"})
        boxed = per_run(own)
        print(f"5. a run of a program that prints one line (median of 30): "
              f"{1000 * boxed:.0f} ms in a sandbox of its own, {1000 * plain:.0f} ms without "
              f"a sandbox ({boxed / plain:.2f}x)", end="")
        if forkserver.enabled(isolation):
            forked = per_run({})
            print(f", {1000 * forked:.0f} ms forked from the fork server ({forked / boxed:.2f}x"
                  " of a sandbox of its own)")
        else:
            print("; no fork server here (it needs a sandbox set up by root)")
        one = single("reference/pocoloco")
        alone = single("reference/pocoloco", env=own)
        off = single("reference/pocoloco", env={sandbox.SANDBOX_ENV: "off"})
        print(f"   one PocoLoco grade command: {one:.2f} s as graded, {alone:.2f} s with "
              f"{forkserver.ENV}=off, {off:.2f} s with {sandbox.SANDBOX_ENV}=off")
    print(f"Afterwards: {load()}")


if __name__ == "__main__":
    main()
