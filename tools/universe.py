"""The `xdsl.universe` entry point: makes our dialects and passes known to every xDSL tool
(xdsl-opt included) once mirage-xdsl is installed."""

from xdsl.universe import Universe

from mirage.tools.registry import get_all_dialects, get_all_passes

MIRAGE_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes())
