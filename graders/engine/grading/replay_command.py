"""``gradekit replay``'s command line, kept apart from ``replay`` (which loads the harness) so
the kit's other commands start as quickly as before."""
from __future__ import annotations

import os
import sys
from pathlib import Path


def add_parser(sub, usage_error) -> None:
    """Add ``replay`` to the kit's subcommands; ``usage_error``: the CLI's exit-2 error."""
    replay = sub.add_parser("replay", help="watch a game the grader played, in your terminal")
    replay.add_argument("assignment")
    replay.add_argument("path", help="your main file, or the folder holding it")
    replay.add_argument("--game", required=True, help="the game's name (see the feedback)")
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--until-failure", action="store_true", default=None,
                     help="stop where the game's first failed check failed (the default)")
    how.add_argument("--to-end", action="store_true", help="play the whole game")
    replay.add_argument("--step", action="store_true",
                        help="wait for Enter before each answer the grader types")
    replay.add_argument("--pdb", action="store_true",
                        help="run the game under Python's debugger (pdb)")
    replay.add_argument("--transcript", metavar="FILE",
                        help="write the replay's transcript (the whole game, unless "
                             "--until-failure is given too)")
    replay.add_argument("--report", metavar="DIR",
                        help="the report folder holding the game (default: selfcheck-report, "
                             "then reports/ASSIGNMENT/STUDENT)")
    replay.add_argument("--fast", action="store_true",
                        help="no pauses: answers typed at once, the program's sleeps skipped")

    def run(args) -> int:
        from .replay import ReplayError
        try:
            return cmd_replay(args)
        except ReplayError as exc:
            raise usage_error(str(exc)) from None

    replay.set_defaults(func=run)


def store_plans(report, folder) -> None:
    """Write the games' transcripts and replay plans to a report folder (the self-check
    keeps them, -v or not, so its printed replay commands work)."""
    for name, text in report.attachments.items():
        if name.startswith(("transcripts/", "replay_")):
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def cmd_replay(args) -> int:
    """``gradekit replay``: a graded game played again in the student's terminal (or a
    failed calls' script run)."""
    from . import replay as replays, submissions
    from .reports import ATTACHMENT_BYTES, fit_bytes
    from ..judge.rubric import Rubric
    from ..run.files import remove_folder
    from ..run.harness import prepare_workdir
    rubric = Rubric.load(args.assignment)
    path = Path(args.path)
    if not path.exists():
        raise replays.ReplayError(f"no such file or folder: {args.path}")
    script = replays.find_script(rubric.assignment, path, args.game, args.report)
    if script is not None:
        return replays.run_script(script, path, args.pdb)
    plan, plan_path = replays.find_plan(rubric.assignment, path, args.game, args.report,
                                        rubric.main_file)
    submission = submissions.from_path(path, rubric.main_file)
    if not submission.found:
        raise replays.ReplayError(f"{args.path}: {submission.missing_why}")
    until = args.until_failure if args.until_failure is not None else \
        not (args.transcript or args.to_end)
    failures = plan.get("failures") or []
    stop_at = failures[0] if until and failures else None
    fast = args.fast or not sys.stdout.isatty()
    delay = float(os.environ.get("GRADEKIT_TYPING_DELAY", 0 if fast else 0.04))
    screen = replays.Screen(typing_delay=delay, pause=0 if fast else min(0.3, delay * 8))
    intro = (f"Replaying the grader's game '{args.game}' with {path}"
             + (" under pdb (type 'c' to start the game)" if args.pdb else "")
             + (": Enter before each answer" if args.step else "") + ".\n")
    print(screen._style(intro, "2"), end="", flush=True)
    folder = prepare_workdir(dict(submission.files), prefix="kit-replay-")
    try:
        result = replays.play(plan, folder, screen=screen, step=args.step,
                              debugger=args.pdb, stop_at=stop_at, live=not fast)
    finally:
        remove_folder(folder)
    sys.stdout.flush()
    transcript = result.transcript
    if result.diverged:
        print("\n" + screen._style("The replay stopped: ", "1;31") + result.diverged)
    elif result.stopped_at_failure and stop_at is not None:
        where = "here" if stop_at.get("line") is not None else "by the end of this game"
        lines = transcript.render(max_lines=100_000).split("\n")
        end = len(lines)
        if stop_at.get("line") is not None:
            end = min(end, stop_at["line"] + 4)     # the failure's line stays in view
        screen.panel("\n".join(lines[max(0, end - replays.SCREEN_LINES):end]),
                     f"What the check expected {where}:", stop_at["expected"])
        more = len(failures) - 1
        if more:
            print(f"({more} more failed check(s) in this game; --to-end plays it all.)")
    else:
        print("\n" + screen._style(f"End of the game: {transcript.ended_how}", "2"))
    if args.transcript:
        text = fit_bytes(replays.transcript_text(plan, transcript), ATTACHMENT_BYTES)
        Path(args.transcript).write_text(text, encoding="utf-8")
        graded = plan_path.with_name(f"{args.game}.txt")
        same = graded.is_file() and graded.read_text(encoding="utf-8") == text
        print(f"Transcript: {args.transcript}" + (
            " (the same as the grader's)" if same else
            f" (it differs from the grader's, {graded})" if graded.is_file() else ""))
    return 3 if result.diverged else 0
