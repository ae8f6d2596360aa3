"""
maskopt's lowerings: mask_mod tracing (`trace`), FX import (`fx_import`),
the CuTe targets (`cute`) and a CPU emulator of their output
(`cute_emulator`); and the registry of output targets (`mask-opt -t`,
`maskopt.emit`), registered lazily like the passes: each factory imports
its target only when asked for, so a `.mlir` run never imports torch or
cutlass, and importing this package imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from xdsl.utils.target import Target

# Targets added at run time with `register_target` (`maskopt.register_target`).
_REGISTERED_TARGETS: dict[str, Callable[[], type[Target]]] = {}


def register_target(
    name: str,
    factory: Callable[[], type[Target]] | type[Target],
    *,
    replace: bool = False,
) -> None:
    """
    Add a target to `get_all_targets()` (and so to `mask-opt -t` in this
    process): an xDSL `Target` class or a function returning it (imported
    only when the target is used). A taken name raises `ValueError` unless
    `replace=True`.
    """
    from xdsl.utils.target import Target

    if isinstance(factory, type):
        if not issubclass(factory, Target):
            raise TypeError(f"{factory.__name__} is not an xDSL Target")
        cls = factory
        factory = lambda: cls  # noqa: E731
    elif not callable(factory):
        raise TypeError(f"target factory for '{name}' is not callable")
    if not replace and name in get_all_targets():
        raise ValueError(f"a target named '{name}' is already registered")
    _REGISTERED_TARGETS[name] = factory


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """The targets of `mask-opt`, by name (mlir, cute, cute-exprs), and the registered ones."""

    def get_mlir():
        from xdsl.targets.mlir import MLIRTarget

        return MLIRTarget

    def get_cute():
        from maskopt.lowering.cute import CuteTarget

        return CuteTarget

    def get_cute_exprs():
        from maskopt.lowering.cute import CuteExprsTarget

        return CuteExprsTarget

    return {"mlir": get_mlir, "cute": get_cute, "cute-exprs": get_cute_exprs} | _REGISTERED_TARGETS
