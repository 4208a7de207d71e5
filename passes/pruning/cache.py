"""Answers of subexpression queries, in memory and in one append-only file.

The file holds one line per answer: `<target digest> <query digest> <0|1> <crc32>`. Digests
are of canonical forms (and of the normal form's version), so they mean the same in every
process. Writers append whole lines under an exclusive `flock` and first end a torn last
line, so two processes can share the file; readers skip any line that is incomplete or
fails its checksum, so a truncated or damaged file only loses the answers it lost.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no cross-process lock
    fcntl = None

from mirage.passes.pruning.canonical import NORMAL_FORM_VERSION

_TARGET_HEX = 16
_QUERY_HEX = 24


def digest(text: str, length: int) -> str:
    data = f"{NORMAL_FORM_VERSION}\n{text}".encode()
    return hashlib.blake2b(data, digest_size=length // 2).hexdigest()


def _record(target: str, query: str, value: bool) -> bytes:
    body = f"{target} {query} {int(value)}"
    return f"{body} {zlib.crc32(body.encode()):08x}\n".encode()


def _parse(line: bytes) -> tuple[str, str, bool] | None:
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        return None
    fields = text.split(" ")
    if len(fields) != 4 or len(fields[0]) != _TARGET_HEX or len(fields[1]) != _QUERY_HEX:
        return None
    if fields[2] not in ("0", "1"):
        return None
    body = " ".join(fields[:3])
    if f"{zlib.crc32(body.encode()):08x}" != fields[3]:
        return None
    return fields[0], fields[1], fields[2] == "1"


class AnswerCache:
    """Answers for one target, keyed by the canonical key of the query."""

    def __init__(self, target_key: str, path: str | os.PathLike[str] | None = None):
        self.target = digest(target_key, _TARGET_HEX)
        self.path = Path(path).expanduser() if path is not None else None
        self.memory: dict[str, bool] = {}
        self.loaded = 0
        self.skipped_lines = 0
        if self.path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        lines = data.split(b"\n")
        if data and not data.endswith(b"\n"):
            lines.pop()  # a torn last line
            self.skipped_lines += 1
        for line in lines:
            if not line:
                continue
            parsed = _parse(line)
            if parsed is None:
                self.skipped_lines += 1
                continue
            target, query, value = parsed
            if target == self.target:
                self.memory[query] = value
                self.loaded += 1

    def key(self, query_key: str) -> str:
        return digest(query_key, _QUERY_HEX)

    def get(self, query_key: str) -> bool | None:
        return self.memory.get(self.key(query_key))

    def put(self, query_key: str, value: bool) -> None:
        key = self.key(query_key)
        if self.memory.get(key) == value:
            return
        self.memory[key] = value
        if self.path is not None:
            self._append(_record(self.target, key, value))

    def _append(self, record: bytes) -> None:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                record = b"\n" + record  # end a line torn by a crash or a truncation
            os.write(fd, record)
        finally:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
