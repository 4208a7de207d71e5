"""Answers of subexpression queries, in memory and in one append-only file.

The file holds one line per answer: `<target digest> <query digest> <0|1> <crc32>`. Digests
are of canonical forms (and of the normal form's version), so they mean the same in every
process. Writers append whole lines under an exclusive `flock` and first end a torn last
line, so two processes can share the file; readers skip any line that is incomplete or
fails its checksum, so a truncated or damaged file only loses the answers it lost.

Before appending, a writer reads what others appended since it last looked, so an answer
found by two workers is written once. Past `MAX_LOG_BYTES` the file is rewritten, one line
per answer and the oldest answers dropped down to half that size.
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
MAX_LOG_BYTES = 64 << 20


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
        self._seen = 0
        """Bytes of the file read so far."""
        if self.path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        try:
            data = self.path.read_bytes()
        except OSError:  # absent, or unreadable: no earlier answers
            return
        self._seen = len(data)
        self._merge(data)

    def _merge(self, data: bytes) -> None:
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

    @staticmethod
    def _written(record: bytes) -> bytes:
        return record.lstrip(b"\n")

    def _compact(self, fd: int, record: bytes) -> None:
        """Rewrite the file (under the lock) with one line per answer, newest kept."""
        size = os.fstat(fd).st_size
        data = os.pread(fd, size, 0) + record.lstrip(b"\n")
        latest: dict[bytes, bytes] = {}
        for line in data.split(b"\n"):
            parsed = _parse(line) if line else None
            if parsed is not None:
                key = f"{parsed[0]} {parsed[1]}".encode()
                latest.pop(key, None)
                latest[key] = line + b"\n"
        lines = list(latest.values())
        total = sum(map(len, lines))
        while lines and total > MAX_LOG_BYTES // 2:
            total -= len(lines.pop(0))
        os.ftruncate(fd, 0)
        os.write(fd, b"".join(lines))

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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError:
            return  # an unusable file costs the answers it would have kept, nothing more
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size < self._seen:
                self._seen = 0  # rewritten by another writer: read it whole
            if size > self._seen:
                newer = os.pread(fd, size - self._seen, self._seen)
                written = self._written(record)
                self._merge(newer)
                self._seen = size
                if written in newer:
                    return
            if size and os.pread(fd, 1, size - 1) != b"\n":
                record = b"\n" + record  # end a line torn by a crash or a truncation
            if size + len(record) > MAX_LOG_BYTES:
                self._compact(fd, record)
            else:
                os.write(fd, record)
            self._seen = os.fstat(fd).st_size
        except OSError:
            pass
        finally:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
