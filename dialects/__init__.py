"""
maskopt's dialects (`mask`, `interval`, the CuTe target's `cute`, and the interpreters in
`semantics`) and the registry of the dialects a maskopt context loads,
`get_all_dialects()`: each factory imports its dialect only when asked for,
so importing this package imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """The dialects of `mask-opt` and `maskopt.make_context()`, by name: builtin, arith, mask, interval, cute."""

    def get_builtin():
        from xdsl.dialects.builtin import Builtin

        return Builtin

    def get_arith():
        from xdsl.dialects.arith import Arith

        return Arith

    def get_mask():
        from maskopt.dialects.mask import Mask

        return Mask

    def get_interval():
        from maskopt.dialects.interval import Interval

        return Interval

    def get_cute():
        from maskopt.dialects.cute import Cute

        return Cute

    return {
        "builtin": get_builtin,
        "arith": get_arith,
        "mask": get_mask,
        "interval": get_interval,
        "cute": get_cute,
    }
