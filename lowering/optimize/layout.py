"""Shared-memory tile layouts: row-major with a padded row pitch, or swizzled.

A tile that tensor cores read through ldmatrix is read as 8 rows of 16 bytes at a time;
those 8 rows fall in 8 distinct groups of 4 banks exactly when the pitch, in 16-byte
units, is odd. Tiles filled by 16-byte copies need rows that start 16-byte aligned.

Padding costs the copies that fill a tile of short rows: 8 threads' 16-byte stores that
cover two 64-byte rows (or four 32-byte ones) at an odd pitch meet in one bank group.
Such tiles are swizzled instead: rows of S = 32, 64 or 128 bytes one after the other, the
16-byte chunk index XOR bits 7 and up of the row's offset (S / 16 values of them), which
is the layout the tensor-map copies write for each S. Every 8 consecutive rows then read
one chunk column in 8 distinct bank groups, and the copies' stores stay contiguous.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mirage.dialects.ugraph.graph import DTYPE_BYTES

ALIGN = 16
SWIZZLE_BYTES = 128
"""Row bytes of a panel of the widest swizzle (tensor maps and wgmma descriptors use it)."""
SWIZZLES = (32, 64, SWIZZLE_BYTES)
"""The swizzles a tile may take: its panels' row bytes."""
SWIZZLE_ATOM = 1024
"""The period of every swizzle (8 rows of 128 bytes, 16 of 64, 32 of 32), and its
alignment."""


def align_up(n: int, a: int = ALIGN) -> int:
    return (n + a - 1) // a * a


def row_pitch(inner: int, dtype: str, *, ldmatrix: bool) -> int:
    """The pitch (in elements) of rows of `inner` elements."""
    esize = DTYPE_BYTES[dtype]
    if ldmatrix:
        units = math.ceil(inner * esize / ALIGN)
        if units % 2 == 0 and inner * esize >= 2 * ALIGN:
            units += 1
        return units * ALIGN // esize
    return inner


def short_row_swizzle(shape: tuple[int, ...], dtype: str) -> int:
    """The swizzle that replaces the padding of an ldmatrix tile of this shape: its row
    width where rows are 32 or 64 bytes and fill whole atoms (no shared memory beyond the
    atom alignment), else 0."""
    row_bytes = shape[-1] * DTYPE_BYTES[dtype]
    if len(shape) < 2 or row_bytes not in SWIZZLES or row_bytes == SWIZZLE_BYTES:
        return 0
    return row_bytes if (math.prod(shape[:-1]) * row_bytes) % SWIZZLE_ATOM == 0 else 0


@dataclass
class Tile:
    """Where a block-level value lives in shared memory."""

    shape: tuple[int, ...]
    dtype: str
    """Storage element type; f32 for accumulators and split-K partial sums."""
    pitch: int
    planes: int = 1
    """Partial results kept apart (split-K): a read sums the planes."""
    stages: int = 1
    """Ring buffer depth of a pipelined input iterator."""
    finalize: tuple[str, float, float] = ("", 1.0, 0.0)
    """Applied when read: ('scale', c, eps) gives c x + eps, ('rms', c, eps) sqrt(c x + eps)."""
    offset: int = -1
    swizzle: int = 0
    """32, 64 or 128: column panels of rows of that many bytes, 16-byte chunks swizzled
    (see above); 0: rows `pitch` elements apart."""
    transposed: bool = False
    """The last two dims swap places in shared memory: element (..., i, j) sits at
    j * pitch + i. The tile of a transposed view (an `nn.Linear` weight read as its
    transpose) is then copied in its tensor's own order, 16 bytes at a time, and tensor
    cores read it without ldmatrix's transpose."""
    strides: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        strides = [1] * len(self.shape)
        if len(self.shape) >= 2:
            if self.transposed:
                strides[-1] = self.pitch
                outer = self.pitch * self.shape[-1]
            else:
                strides[-2] = self.pitch
                outer = self.pitch * self.shape[-2]
            for d in range(len(self.shape) - 3, -1, -1):
                strides[d] = outer
                outer *= self.shape[d]
        self.strides = tuple(strides)

    def set_swizzle(self, width: int) -> None:
        """Lay the tile out in swizzled panels of rows of `width` bytes (one of `SWIZZLES`);
        the pitch becomes a panel row's, which readers' alignments and vector widths see."""
        self.swizzle = width
        self.pitch = self.panel_elems
        self.__post_init__()

    @property
    def storage_shape(self) -> tuple[int, ...]:
        """The shape in shared-memory order (the last two dims swapped when transposed)."""
        if not self.transposed:
            return self.shape
        return (*self.shape[:-2], self.shape[-1], self.shape[-2])

    @property
    def natural_pitch(self) -> int:
        """The pitch of an unpadded tile: its storage rows' length."""
        return self.storage_shape[-1] if self.shape else 1

    @property
    def esize(self) -> int:
        return DTYPE_BYTES[self.dtype]

    @property
    def rows(self) -> int:
        return math.prod(self.shape[:-1])

    @property
    def panel_elems(self) -> int:
        """Elements of a row of one panel of a swizzled tile."""
        return self.swizzle // self.esize

    @property
    def panels(self) -> int:
        """Column panels of a swizzled tile; a last one that the rows do not fill keeps its
        whole swizzle width a row (a wgmma operand of fewer columns)."""
        return math.ceil(self.shape[-1] / self.panel_elems) if self.swizzle else 1

    @property
    def panel_bytes(self) -> int:
        """Bytes from one panel of a swizzled tile to the next (whole swizzle atoms)."""
        return align_up(self.rows * self.swizzle, SWIZZLE_ATOM)

    @property
    def alignment(self) -> int:
        return SWIZZLE_ATOM if self.swizzle else ALIGN

    @property
    def copy_bytes(self) -> int:
        """One plane of one stage, padded to 16 bytes (to whole atoms when swizzled)."""
        if self.swizzle:
            return self.panels * self.panel_bytes
        if not self.shape:
            return ALIGN
        if len(self.shape) >= 2:
            rows = math.prod(self.storage_shape[:-1]) * self.pitch
        else:
            rows = math.prod(self.shape)
        return align_up(rows * self.esize)

    @property
    def total_bytes(self) -> int:
        return self.copy_bytes * self.planes * self.stages

    def describe(self) -> str:
        dims = "x".join(map(str, self.shape)) or "scalar"
        extra = ""
        if self.transposed:
            extra += " transposed"
        if self.pitch != self.natural_pitch:
            extra += f" pitch {self.pitch}"
        if self.planes > 1:
            extra += f" planes {self.planes}"
        if self.stages > 1:
            extra += f" stages {self.stages}"
        if self.swizzle:
            extra += f" swizzle {self.swizzle}"
        return f"{dims}x{self.dtype} @{self.offset}{extra}"
