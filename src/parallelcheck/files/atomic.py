"""Replacing a file all at once, so that a reader never sees half of it."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def replace_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, renamed over it,
    so a reader never sees half a file and an interrupted run leaves the old file in place.

    A symbolic link is followed (the file it points to is replaced, the link stays); a FIFO or
    device (``/dev/stdout``) is written directly, since it cannot be replaced.  A replaced file
    keeps its permissions, a new one gets 0666 less the umask.  Raises :class:`OSError` on
    failure, leaving no temporary file behind."""
    target = Path(os.path.realpath(path))
    mode = target.stat().st_mode if target.exists() else None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "wb") as handle:
            handle.write(data)
        return
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
