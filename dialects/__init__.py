"""The μGraph dialects: kernel, block and thread levels, their shared op-kind table,
the compact search model (`ugraph`) and the reference semantics (`semantics`)."""
