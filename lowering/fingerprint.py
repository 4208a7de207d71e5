"""What identifies the code that turns a μGraph into kernels: a digest of the sources of the
lowering and of the IR it reads (`mirage.lowering`, `mirage.dialects`), so that a program
built by other code is never taken from a cache for one built by this code."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

_PACKAGES = ("mirage.lowering", "mirage.dialects")


@functools.cache
def lowering_fingerprint() -> str:
    """Hex digest of every Python source of the lowering and the dialects (paths and
    contents), taken once a process."""
    digest = hashlib.sha256()
    for package in _PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations is not None
        root = Path(next(iter(spec.submodule_search_locations)))
        digest.update(package.encode())
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
