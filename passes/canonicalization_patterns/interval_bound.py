"""Canonicalization patterns of `interval.bound` (the lane bound
`clip(sign * u + k, 0, 32)`)."""

from xdsl.dialects import arith
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import interval


class BoundConstantFold(RewritePattern):
    """A bound of a constant u is the constant clip(sign * u + k, 0, 32)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.BoundOp, rewriter: PatternRewriter, /):
        u = const_evaluate_operand(op.u)
        if u is None:
            return
        rewriter.replace_op(op, arith.ConstantOp.from_int_and_width(op.clipped(u), 32))


ALL_PATTERNS = (BoundConstantFold(),)
