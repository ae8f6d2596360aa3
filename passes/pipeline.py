"""
`pack-mask{max-intervals=8}`: the whole packing pipeline as one pass.

    canonicalize, cse, lane-affine, canonicalize, cse,
    fold-intervals{max-intervals=N}, simplify-intervals, canonicalize, cse
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass, PassPipeline


def pack_mask_passes(max_intervals: int = 8) -> tuple[ModulePass, ...]:
    """The passes of `pack-mask`, in order."""
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import (
        CommonSubexpressionElimination,
    )

    from maskopt.passes.fold_intervals import FoldIntervalsPass
    from maskopt.passes.lane_affine import LaneAffinePass
    from maskopt.passes.simplify_intervals import SimplifyIntervalsPass

    return (
        CanonicalizePass(),
        CommonSubexpressionElimination(),
        LaneAffinePass(),
        CanonicalizePass(),
        CommonSubexpressionElimination(),
        FoldIntervalsPass(max_intervals=max_intervals),
        SimplifyIntervalsPass(),
        CanonicalizePass(),
        CommonSubexpressionElimination(),
    )


@dataclass(frozen=True)
class PackMaskPass(ModulePass):
    """
    Pack every mask.func into a keep word where possible (see module doc).

    max_intervals: the most lane runs a packed keep word may be built from.
    """

    name = "pack-mask"

    max_intervals: int = 8

    def __post_init__(self):
        if not isinstance(self.max_intervals, int) or self.max_intervals < 1:
            raise ValueError(f"max-intervals must be at least 1, got {self.max_intervals}")

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PassPipeline(pack_mask_passes(self.max_intervals)).apply(ctx, op)
