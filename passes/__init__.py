"""
maskopt's passes, registered lazily: each factory imports its pass only when
asked for, so a `.mlir` run never imports torch or cutlass.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The curated passes of `mask-opt`, by name."""

    def get_canonicalize():
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def get_cse():
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def get_dce():
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    def get_lane_affine():
        from maskopt.passes.lane_affine import LaneAffinePass

        return LaneAffinePass

    def get_fold_intervals():
        from maskopt.passes.fold_intervals import FoldIntervalsPass

        return FoldIntervalsPass

    def get_simplify_intervals():
        from maskopt.passes.simplify_intervals import SimplifyIntervalsPass

        return SimplifyIntervalsPass

    def get_pack_mask():
        from maskopt.passes.pipeline import PackMaskPass

        return PackMaskPass

    return {
        "canonicalize": get_canonicalize,
        "cse": get_cse,
        "dce": get_dce,
        "lane-affine": get_lane_affine,
        "fold-intervals": get_fold_intervals,
        "simplify-intervals": get_simplify_intervals,
        "pack-mask": get_pack_mask,
    }
