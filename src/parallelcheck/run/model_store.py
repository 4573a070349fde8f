"""The language model kept decompressed from one run to the next, in the cache folder.

py3langid ships its model compressed (4.5 MB of LZMA); decompressing it costs a run that
needs it 0.35 s of processor time, the largest fixed cost of a check (the 124 articles of the
FastAPI documentation take 7-8 s in all).  The first run that needs the model stores the
decompressed archive (68 MB) in ``<cache folder>/models/`` and later runs map that file
into memory instead, about a tenth of the cost; worker processes forked after it share the
mapping, and workers started afresh (Windows, macOS) each map the file when their first
guess needs the model.  (:mod:`parallelcheck.text.langid` asks for it, by the name it
gives the archive: the digest of the compressed one, so another py3langid's model is never
taken for it.)

The stored model is no result: it is the same whatever is checked and however, so it is used
whether or not the result cache is (``--no-cache``) and whatever the report format.  It is
counted by ``parallelcheck cache info`` and removed by ``parallelcheck cache clear`` with the
results (``--older-than`` keeps it while runs use it: a run that maps it marks it as used).

Trust, as for result entries (:mod:`parallelcheck.run.cache`): the folder is created private
(0700) and a stored file is read only when it is a regular file of the user's own that no one
else may write, in such a folder, opened without following a link; it is written to a
temporary file renamed into place, so a run never maps half a file.  A stored file that is
not a well-formed archive of the model's arrays (cut short, overwritten) is decompressed
afresh and replaced.  Writing a new model removes the other models stored there (an earlier
py3langid's).  A folder that cannot be written (a read-only disk) only costs the saving.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import re
from pathlib import Path

from parallelcheck.run.cache import (
    MODELS,
    default_dir,
    open_private,
    private_folder,
    ready_private_folder,
    write_private,
)

#: What a stored model's name looks like (:func:`parallelcheck.text.langid` names them).
_NAME = re.compile(r"[a-z0-9]+-[0-9a-f]{32}\.npz")


class ModelStore:
    """Get and put decompressed model archives by name in one cache folder's models folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder if folder is not None else default_dir()) / MODELS

    def get(self, name: str) -> mmap.mmap | None:
        """The archive stored as *name*, mapped read-only, or ``None``: none, a name that
        is not a model's, or a file or folder not to be trusted."""
        if not _NAME.fullmatch(name) or not self._trusted():
            return None
        opened = open_private(self.folder / name)
        if opened is None:
            return None
        fd, _ = opened
        try:
            mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # an empty file cannot be mapped
            return None
        finally:
            os.close(fd)  # the mapping holds the file
        with contextlib.suppress(OSError):
            os.utime(self.folder / name)  # used now: `cache clear --older-than` keeps it
        return mapped

    def put(self, name: str, archive: bytes) -> None:
        """Store *archive* as *name*, and remove the other models stored here; nothing when
        the folder cannot be made private or written."""
        if not _NAME.fullmatch(name) or not ready_private_folder(self.folder):
            return
        if write_private(self.folder, name, archive):
            self._remove_others(name)

    def _trusted(self) -> bool:
        return bool(private_folder(self.folder))

    def _remove_others(self, kept: str) -> None:
        with contextlib.suppress(OSError), os.scandir(self.folder) as entries:
            for entry in entries:
                if entry.name != kept and _NAME.fullmatch(entry.name):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)


__all__ = ["ModelStore"]
