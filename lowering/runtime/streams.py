"""Reading the caller's stream, from whatever object the caller's framework uses for one."""

from __future__ import annotations

from typing import Any, cast

from mirage.lowering.runtime.errors import ArgumentError

LEGACY_STREAM = 0
"""The handle of CUDA's legacy default stream, used when the caller names none."""


def stream_handle(stream: Any) -> int:
    """The CUstream handle of `stream`: None (the legacy default stream), an integer handle,
    an object with `__cuda_stream__()` (the CUDA stream protocol: (version, handle)), one with
    a `cuda_stream` attribute (torch.cuda.Stream), or cuda-python's CUstream."""
    if stream is None:
        return LEGACY_STREAM
    if isinstance(stream, bool):
        raise ArgumentError(f"stream must be a stream object or handle, got {stream!r}")
    if isinstance(stream, int):
        handle = stream
    elif hasattr(stream, "__cuda_stream__"):
        try:
            got: Any = stream.__cuda_stream__()
            if isinstance(got, tuple):  # (version, handle)
                got = cast("tuple[Any, ...]", got)[1]
            handle = int(got)
        except Exception as e:
            raise ArgumentError(f"__cuda_stream__ of {type(stream).__name__} failed: {e}") from None
    elif hasattr(stream, "cuda_stream"):
        handle = stream.cuda_stream
    elif hasattr(stream, "getPtr"):  # cuda-python's CUstream
        handle = stream.getPtr()
    else:
        raise ArgumentError(
            f"stream must be None, an integer handle, or have __cuda_stream__ or cuda_stream; "
            f"got {type(stream).__name__}"
        )
    if isinstance(handle, bool) or not isinstance(handle, int) or handle < 0:
        raise ArgumentError(f"stream handle must be a non-negative integer, got {handle!r}")
    return handle
