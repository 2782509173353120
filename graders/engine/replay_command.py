"""``gradekit replay``'s command line, kept apart from ``replay`` (which loads the harness) so
the kit's other commands start as quickly as before."""
from __future__ import annotations


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
        from . import replay as replays
        try:
            return replays.cmd_replay(args)
        except replays.ReplayError as exc:
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
