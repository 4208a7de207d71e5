"""The `xdsl.universe` entry point: makes our dialects and passes known to every xDSL tool
(xdsl-opt included) once mirage-xdsl is installed, and the targets whose names xDSL's own
do not take (`dot`)."""

from xdsl.universe import Universe

from mirage.tools.registry import get_all_dialects, get_all_passes, get_universe_targets

MIRAGE_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_universe_targets(),
)
