# cuda-python's driver bindings are a compiled module generated from the CUDA headers: its
# functions and enums follow the driver API (cuInit, CUresult, ...). mirage-xdsl reaches
# them by name (`lowering.runtime.driver.call`) and checks each result at run time.
from typing import Any

def __getattr__(name: str) -> Any: ...
