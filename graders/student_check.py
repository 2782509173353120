"""The student kit's ``gradekit`` command. Where Python has no pseudo-terminal (Windows), the
games cannot be played: the self-check then checks the 100-character line rule alone and
says what needs a pty. Everywhere else it is ``python -m graders``.
"""
from __future__ import annotations

import sys
from pathlib import Path

LINE_LIMIT = 100
NEEDS_PTY = ("The games of the self-check need a terminal emulation (a pty), which Python has "
             "on Linux and macOS but not on Windows: only the {limit}-character line rule was "
             "checked. Run the self-check in WSL (Windows Subsystem for Linux) or on a Linux or "
             "macOS machine for the rest.")


def has_pty() -> bool:
    try:
        import pty  # noqa: F401 - only whether it exists
        import termios  # noqa: F401
    except ImportError:
        return False
    return True


def long_lines(path: Path, limit: int = LINE_LIMIT) -> list[tuple[int, int]]:
    """(line number, length) of every line longer than ``limit`` characters."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return [(number, len(line)) for number, line in enumerate(text.splitlines(), 1)
            if len(line) > limit]


def line_rule_only(paths: list[str]) -> int:
    """The self-check without a pty: the line rule on each file, then what was not run."""
    status = 0
    for name in paths:
        path = Path(name)
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        if not files or not all(p.is_file() for p in files):
            print(f"error: no such file: {name}", file=sys.stderr)
            return 2
        for file in files:
            long = long_lines(file)
            if long:
                shown = ", ".join(f"line {n} ({size} characters)" for n, size in long[:10])
                more = f" and {len(long) - 10} more" if len(long) > 10 else ""
                print(f"{file.name}: {len(long)} line(s) longer than {LINE_LIMIT} characters: "
                      f"{shown}{more}")
            else:
                print(f"{file.name}: every line has at most {LINE_LIMIT} characters")
    print("\n" + NEEDS_PTY.format(limit=LINE_LIMIT))
    return status


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not has_pty() and argv[:1] == ["check"]:
        paths = [a for a in argv[2:] if not a.startswith("-")]
        return line_rule_only(paths)
    if not has_pty():
        print("This command needs a pseudo-terminal, which Windows does not have; "
              "`gradekit check ASSIGNMENT FILE` still checks the line rule.", file=sys.stderr)
        return 2
    from .cli import main as cli_main
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
