"""Reading a file named on the command line: a regular file only, and never more than asked.

A folder, a device such as /dev/zero or a named pipe is refused at once (a pipe would wait
for a writer forever), and so is a name no file can have (a NUL byte, a lone surrogate).
"""

from __future__ import annotations

import os
import stat

from .errors import ScorerError


class UnreadableFile(ScorerError):
    """A path that names no regular file this process can read."""


def read_file(path: str, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path``: one over the limit, so the
    caller can tell a file that is too large."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise UnreadableFile(f"{path}: cannot read file ({error.strerror})") from None
    except (ValueError, UnicodeEncodeError):
        raise UnreadableFile(f"{path!r}: not a file name") from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise UnreadableFile(f"{path}: not a file (a folder, a device or a pipe)")
    with os.fdopen(handle, "rb") as file:
        try:
            return file.read(limit + 1)
        except OSError as error:
            raise UnreadableFile(f"{path}: cannot read file ({error.strerror})") from None
