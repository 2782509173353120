"""A run folder's files, seen from the grader: read without following links, removed whole.
A student's program may have made any of them (a link, a pipe, a device, a huge file).
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

# opened for reading without following a link, nor waiting on a pipe
OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
MAX_READ_BYTES = 2_000_000          # the same bound as a submission's file


def read_regular_file(path: Path, limit: int = MAX_READ_BYTES,
                      dir_fd: int | None = None) -> bytes | None:
    """The bytes of a regular file, or None when it is missing, a link, a pipe, a device or
    larger than ``limit``. For files a student's program may have made (the run folder)."""
    try:
        handle = os.open(path, OPEN_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return None if size > limit else b"".join(chunks)
    finally:
        os.close(handle)


def remove_folder(folder: Path) -> None:
    """Delete a run folder and everything the program left in it."""
    for parent, dirs, _ in os.walk(folder):
        for path in [parent] + [os.path.join(parent, d) for d in dirs]:
            try:
                os.chmod(path, 0o700)
            except OSError:
                pass
    shutil.rmtree(folder, ignore_errors=True)
