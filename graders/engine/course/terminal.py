"""Markdown the kit wrote (feedback.md), shown in a terminal: tables drawn, emphasis and code
set off, links as the paths they lead to. The files stay Markdown; this is only how a terminal
shows them (``gradekit check -v``), with rich where it is installed, else the text as it is."""
from __future__ import annotations

import re
import sys
from pathlib import Path

LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
WIDTH = 100                # at most this wide, for the kit's 100-character transcripts lines


def plain_links(text: str, base: Path | None = None) -> str:
    """``[label](path)`` as the path a reader can open: under ``base`` (where the feedback
    file is), and said once when the label is the path itself."""
    def one(match: re.Match) -> str:
        label, target = match.groups()
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or base is None:
            where = target
        else:
            where = str(base / target)
        return where if label == target else f"{label} ({where})"
    return LINK.sub(one, text)


def print_markdown(text: str, base: Path | None = None, stream=None) -> None:
    """Show Markdown in a terminal (rich's rendering, links as paths under ``base``)."""
    stream = stream or sys.stdout
    text = plain_links(text, base)
    try:
        from rich.console import Console
        from rich.markdown import Markdown
    except ImportError:                     # the kit's selfcheck.py run without installing
        print(text, file=stream)
        return
    console = Console(file=stream, width=min(WIDTH, Console(file=stream).width or WIDTH),
                      highlight=False, soft_wrap=False)
    console.print(Markdown(text, hyperlinks=False, code_theme="ansi_dark"))
