from llvmlite.ir.values import GlobalValue

class Module:
    triple: str
    data_layout: str
    def __init__(self, name: str = "") -> None: ...
    def get_global(self, name: str) -> GlobalValue | None: ...
