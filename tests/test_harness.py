"""The harness and session: prompts, loaded dice in every spelling, limits, sandbox."""
from __future__ import annotations

import os
import signal
import textwrap
import threading
import time

from graders.engine.call.calls import FunctionCalls
from graders.engine.run.draws import ScriptedDice
from graders.engine.run import harness, pythons
from graders.engine.run.harness import Child, Limits, take_grader_problems
from graders.engine.grading.plugin import Budget
from graders.engine.drive.session import Session
from graders.engine.judge.rubric import KIT_ROOT

from conftest import fresh_run_folder


def test_prompts_are_announced_and_answered(run_program):
    session = run_program("""
        name = input("What is your name? ")
        chips = input("Chips? ")
        print(f"Hi {name}, {int(chips) * 2}")
    """, answers=["Quillon", "21"])
    text = session.transcript.text
    assert "What is your name? Quillon\n" in text
    assert "Hi Quillon, 42" in text
    assert session.transcript.outcome["status"] == "finished"


def test_every_random_spelling_is_loaded(run_program):
    session = run_program("""
        import random
        from random import randint, choice
        rng = random.Random()
        print(randint(1, 6), random.randrange(1, 7), random.randrange(6) + 1,
              choice([1, 2, 3, 4, 5, 6]), random.choices(range(1, 7), k=2),
              rng.randint(1, 6), random.choice("⚀⚁⚂⚃⚄⚅"))
    """, policy=ScriptedDice([4, 5, 6, 2, 3, 1, 6, 5, 3]))
    assert "4 5 6 2 [3, 1] 6 ⚄" in session.transcript.text


def test_shuffle_and_draw_stack_are_reported(run_program):
    session = run_program("""
        import random
        def roll_for(player):
            return random.randint(1, 6)
        names = ["Quillon", "Mo", "Bo"]
        random.shuffle(names)
        print(names, roll_for("Mo"))
    """)
    draws = session.transcript.draws
    assert draws[0].data["fn"] == "shuffle"
    assert draws[0].data["req"]["items"] == ["Quillon", "Mo", "Bo"]
    frame = draws[1].data["stack"][0]
    assert frame["fn"] == "roll_for" and ["player", "Mo"] in frame["strings"]


def test_sleep_is_free_and_clear_screen_is_a_no_op(run_program):
    session = run_program("""
        import os, time
        start = time.time()
        time.sleep(3600)
        os.system("clear")
        print("slept", round(time.time() - start))
    """)
    assert "slept 3600" in session.transcript.text
    assert 3600 <= session.transcript.outcome["slept"] < 3601


def test_busy_wait_animation_finishes_without_spinning(run_program):
    session = run_program("""
        import time
        for frame in range(50):
            end = time.time() + 0.2           # 10 s of real spinning in all, if real
            while time.time() < end:
                pass
        print("animation done")
    """, limits=Limits(wall_seconds=5))
    assert "animation done" in session.transcript.text
    assert session.transcript.outcome["status"] == "finished"


def test_repeated_prompt_gets_the_next_form_of_the_answer(run_program):
    session = run_program("""
        answer = input("Roll again? (yes/no) ")
        while answer not in ("yes", "no"):
            print("Please type yes or no.")
            answer = input("Roll again? (yes/no) ")
        print("answer was", answer)
    """, answers=["yes", "yes"])
    assert "answer was yes" in session.transcript.text


def test_main_defined_but_never_called_is_called(run_program):
    session = run_program("""
        def main():
            print("main ran")
    """)
    assert "main ran" in session.transcript.text
    assert any(m.kind == "note" for m in session.transcript.marks)


def test_syntax_error_is_reported_as_such(run_program):
    session = run_program("print('a' 'b' c d)\n")
    outcome = session.transcript.outcome
    assert outcome["status"] == "syntax-error"
    assert "could not start" in session.transcript.ended_how


def test_crash_and_eof_are_reported(run_program):
    session = run_program("""
        x = input("Number? ")
        print(int(x) + 1)
        y = input("Another? ")
    """, answers=["41"])
    assert "42" in session.transcript.text
    assert session.transcript.outcome["status"] == "exception"
    assert "EOFError" in session.transcript.ended_how


def test_endless_loop_without_output_is_stopped_after_cpu_seconds(run_program):
    session = run_program("print('thinking')\nwhile True:\n    pass\n",
                          limits=Limits(stuck_cpu_seconds=0.5))
    outcome = session.transcript.outcome
    assert outcome["limit"] == "stuck" and not outcome.get("grader_problem")
    assert "endless loop" in session.transcript.ended_how
    assert 0.5 <= session.child.cpu_seconds < 2.0


def test_a_submission_found_stuck_once_is_judged_stuck_sooner(run_program, monkeypatch):
    """Its later runs get the shorter limit (say why); other submissions and a new grading
    session do not, nor runs that opt out (None)."""
    looping = "input('Ready? ')\nwhile True:\n    pass\n"    # asks first: runs are not shared
    limits = Limits(stuck_cpu_seconds=0.4, stuck_again_cpu_seconds=0.1)

    def run(owner, limits=limits):
        monkeypatch.setattr(harness, "current_owner", owner)
        session = run_program(looping, answers=["y"], limits=limits)
        assert session.transcript.outcome["limit"] == "stuck"
        return session.child.cpu_seconds, session.transcript.ended_how

    harness.forget_stuck_owners()
    try:
        first, first_says = run("ann")
        again, again_says = run("ann")
        other, _ = run("bob")
        opted_out, _ = run("ann", Limits(stuck_cpu_seconds=0.4, stuck_again_cpu_seconds=None))
        harness.forget_stuck_owners()
        next_session, _ = run("ann")
    finally:
        harness.forget_stuck_owners()
    assert min(first, other, opted_out, next_session) >= 0.4
    assert 0.1 <= again < 0.35, again
    assert "computed for 0.1 CPU seconds" in again_says and "stuck already" in again_says
    assert "computed for 0.4 CPU seconds" in first_says and "stuck already" not in first_says


def _side_by_side(tmp_path, source: str, limits: Limits, runs: int = 3) -> list:
    """``runs`` runs of one submission started together (answering 'y' to every question);
    their sessions once all have ended."""
    sessions = [None] * runs

    def run(index):
        folder = tmp_path / f"run{index}"
        folder.mkdir(parents=True)
        (folder / "prog.py").write_text(textwrap.dedent(source))
        session = Session.start(folder / "prog.py", folder, limits=limits)
        while session.wait() is not None:
            session.answer("y")
        session.close()
        sessions[index] = session

    threads = [threading.Thread(target=run, args=(i,)) for i in range(runs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return sessions


def test_runs_computing_silently_side_by_side_take_turns(tmp_path, monkeypatch):
    """Stuck in every run: only one run pays the full limit, the others the shorter one.
    Slow but not stuck: every run finishes, as if the runs had been made one by one."""
    limits = Limits(stuck_cpu_seconds=0.6, stuck_again_cpu_seconds=0.15)
    monkeypatch.setattr(harness, "current_owner", "ann")
    harness.forget_stuck_owners()
    try:
        looping = _side_by_side(tmp_path / "loops", """
            input("Ready? ")
            while True:
                pass
        """, limits)
        harness.forget_stuck_owners()
        slow = _side_by_side(tmp_path / "slow", """
            import time
            input("Ready? ")
            start = time.process_time()
            while time.process_time() - start < 0.4:      # silent, but less than 0.6 s
                pass
            print("done")
        """, limits)
    finally:
        harness.forget_stuck_owners()
    outcomes = [s.transcript.outcome.get("limit") for s in looping]
    assert outcomes == ["stuck"] * 3
    cpu = sorted(s.child.cpu_seconds for s in looping)
    assert cpu[-1] >= 0.6 and cpu[1] < 0.35, cpu      # without turns: all three near 0.6
    for session in slow:
        assert session.transcript.outcome["status"] == "finished", session.transcript.ended_how
        assert "done" in session.transcript.text


def test_too_much_cpu_for_the_whole_run_is_a_verdict(run_program):
    # prints all the time (never stuck), but computes far more than any game needs
    session = run_program("""
        i = 0
        while True:
            i += 1
            if i % 20000 == 0:
                print(i)
    """, limits=Limits(cpu_seconds=1, stuck_cpu_seconds=0.5))
    outcome = session.transcript.outcome
    assert outcome["limit"] == "cpu" and not outcome.get("grader_problem")
    assert "CPU seconds" in session.transcript.ended_how
    assert 1.0 <= session.child.cpu_seconds < 3.0


def test_waiting_on_nothing_hits_a_safety_net_that_blames_the_grader(run_program):
    # blocked without using CPU and without asking for input: the idle safety net
    session = run_program("""
        import threading
        print("waiting")
        threading.Event().wait()
    """, limits=Limits(idle_seconds=0.5))
    outcome = session.transcript.outcome
    assert outcome["limit"] == "idle" and outcome["grader_problem"] is True
    assert session.child.grader_problem
    assert "safety limit of the grader" in session.transcript.ended_how
    assert "TA will look" in session.transcript.ended_how


def test_a_program_that_gets_no_cpu_for_a_while_is_not_blamed(tmp_path):
    # a very busy machine, made deterministic: the program is frozen (SIGSTOP) for 2 s of
    # real time while it computes; with the default limits it still finishes normally
    # (the program itself is frozen: in a sandbox it runs below the bwrap process started)
    path = tmp_path / "prog.py"
    path.write_text("input('go? ')\ntotal = sum(range(2_000_000))\nprint('done', total)\n")
    workdir = fresh_run_folder([path])
    child = Child(workdir / "prog.py", workdir=workdir).start()
    assert child.next_event()["ev"] == "input"
    program = child.program_pid
    os.kill(program, signal.SIGSTOP)
    child.send_line("yes")
    thaw = threading.Timer(2.0, os.kill, (program, signal.SIGCONT))
    thaw.start()
    try:
        while child.next_event() is not None:
            pass
    finally:
        thaw.join()
        child.close()
    assert child.outcome["status"] == "finished", child.outcome
    assert child.elapsed > 2.0 and child.cpu_seconds < 1.0


def test_wall_safety_net_is_never_shorter_than_three_times_the_cpu_limit(run_program):
    assert Limits(wall_seconds=6, cpu_seconds=10).wall_net == 30
    assert Limits(wall_seconds=60, cpu_seconds=6).wall_net == 60
    # real waits with output in between: neither stuck nor idle, so only the wall net ends it
    session = run_program("""
        import threading
        while True:
            threading.Event().wait(0.05)
            print("tick")
    """, limits=Limits(wall_seconds=0.5, cpu_seconds=0.2, idle_seconds=5))
    outcome = session.transcript.outcome
    assert outcome["limit"] == "wall" and outcome["grader_problem"] is True
    assert take_grader_problems(session.child.owner)      # listed for a TA


def test_call_timeouts_count_cpu_not_real_time(tmp_path):
    path = tmp_path / "funcs.py"
    path.write_text(textwrap.dedent("""
        import threading
        def spin():
            while True:
                pass
        def wait(seconds):
            threading.Event().wait(seconds)     # real time, no CPU
            return "done"
    """))
    workdir = fresh_run_folder([path])
    with FunctionCalls(workdir / "funcs.py", workdir, module="funcs") as calls:
        spun, waited = calls.run([{"id": 1, "func": "spin", "timeout": 0.3},
                                  {"id": 2, "func": "wait", "args": [0.6], "timeout": 0.3}])
    assert spun["error"] == "timeout" and "CPU" in spun["message"]
    assert waited["ok"] and waited["value"] == "done"


def test_budget_counts_cpu_seconds_of_the_runs(run_program):
    budget = Budget(5.0)
    run_program("import threading\nthreading.Event().wait(0.6)\nprint('rested')\n")
    assert budget.cpu_used < 0.3                 # real time spent waiting costs nothing
    run_program("i = 0\nwhile i < 3_000_000:\n    i += 1\nprint(i)\n")
    assert 0.05 < budget.cpu_used < 3.0
    assert abs(budget.left - (5.0 - budget.cpu_used)) < 0.1
    assert not budget.wall_ran_out


def test_a_short_run_counts_its_cpu_when_its_processes_are_gone_before_the_last_look(
        run_program, monkeypatch):
    # on a busy machine the sandbox's processes may all have ended, uncounted, by the time the
    # grader reads them: the CPU the program reported as it ended still counts
    monkeypatch.setattr(harness, "process_cpu_seconds", lambda pid: 0.0)
    budget = Budget(5.0)
    run_program("i = 0\nwhile i < 3_000_000:\n    i += 1\nprint(i, 'counted')\n")
    assert 0.05 < budget.cpu_used < 3.0


def test_a_main_defined_but_never_called_is_called_once(run_program):
    session = run_program("def main():\n    print('main ran')\n")
    assert session.transcript.text.count("main ran") == 1
    assert any("never called" in m.text for m in session.transcript.marks if m.kind == "note")
    called = run_program("def main():\n    print('main ran')\n\n\nmain()\n")
    assert called.transcript.text.count("main ran") == 1
    assert not any(m.kind == "note" for m in called.transcript.marks)


def test_the_program_runs_without_a_profile_hook(run_program):
    # a profile hook made every call about five times slower than at home, and the CPU
    # verdicts count that time: a game at the top level, or the lines before main(), ran
    # under one while the kit watched for main()
    top_level = run_program("import sys\nprint('hook:', sys.getprofile())\n")
    assert "hook: None" in top_level.transcript.text
    before_main = run_program("import sys\nprint('hook:', sys.getprofile())\n\n\n"
                              "def main():\n    print('in main:', sys.getprofile())\n\n\n"
                              "main()\n")
    assert "hook: None" in before_main.transcript.text
    assert "in main: None" in before_main.transcript.text


def test_runaway_output_is_stopped(run_program):
    session = run_program("while True:\n    print('rolling...')\n",
                          limits=Limits(output_bytes=50_000))
    assert session.transcript.outcome["limit"] == "output"


def test_memory_limit_gives_memory_error(run_program):
    session = run_program("data = bytearray(2_000_000_000)\n", limits=Limits(memory_mb=300))
    assert "MemoryError" in session.transcript.ended_how


def test_hidden_files_cannot_be_read(run_program):
    secret = KIT_ROOT / "reference" / "pocoloco" / "a5.py"
    session = run_program(f"print(open({str(secret)!r}).read()[:20])\n")
    assert "PermissionError" in session.transcript.ended_how
    assert "import" not in session.transcript.text.split("PermissionError")[0]


def test_writing_outside_the_run_folder_is_refused(run_program, tmp_path):
    target = tmp_path / "outside.txt"
    session = run_program(f"""
        open("inside.txt", "w").write("ok")
        print("inside ok")
        open({str(target)!r}, "w").write("no")
    """)
    assert "inside ok" in session.transcript.text
    assert "PermissionError" in session.transcript.ended_how
    assert not target.exists()


def test_starting_programs_is_refused(run_program):
    session = run_program("import subprocess\nsubprocess.run(['ls'])\n")
    assert "PermissionError" in session.transcript.ended_how


def test_processes_start_while_another_thread_changes_the_environment():
    """pytest rewrites PYTEST_CURRENT_TEST in the grader's main thread at every step of a
    check while other threads start processes (the parser, compiles, runs): each start takes
    its own copy of the environment, so none fails or reads a half-changed one."""
    done, failed, seen = threading.Event(), [], []

    def start_processes():
        try:
            for _ in range(100):
                out = pythons.run(["/bin/sh", "-c", "echo \"$KIT_MARK\""], capture_output=True,
                                  text=True, timeout=30).stdout
                seen.append(out.strip())
        except OSError as exc:
            failed.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=start_processes)
    thread.start()
    count = 0
    try:
        while not done.is_set():
            os.environ["PYTEST_CURRENT_TEST"] = f"tests/x.py::t{count} (call)"
            os.environ.pop("PYTEST_CURRENT_TEST")
            os.environ[f"KIT_SCRATCH_{count % 40}"] = "x" * (count % 200)
            os.environ["KIT_MARK"] = "mark"
            count += 1
            if count % 20 == 0:
                time.sleep(0)           # lets the other thread take the GIL sooner
    finally:
        thread.join(60)
        for name in [n for n in os.environ if n.startswith("KIT_SCRATCH_") or n == "KIT_MARK"]:
            del os.environ[name]
    assert failed == [] and len(seen) == 100
    assert set(seen) <= {"mark", ""} and count > 100


def test_a_program_cannot_say_the_grader_was_at_fault(run_program):
    """An exit event a program forges on the side channel may end its run, but it cannot mark
    the run as the grader's problem (such runs are set aside instead of judged)."""
    session = run_program("""
        import json, os
        line = json.dumps({"ev": "exit", "status": "limit", "error": "forged", "out": 0,
                           "grader_problem": True, "shorter_limit": True}) + "\\n"
        for fd in range(3, 40):
            try:
                os.write(fd, line.encode())
            except OSError:
                pass
        print("after")
    """)
    assert session.child.outcome.get("error") == "forged"
    assert not session.child.grader_problem
    assert "shorter_limit" not in session.child.outcome
