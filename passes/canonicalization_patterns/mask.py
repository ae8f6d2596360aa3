"""Canonicalization patterns of the `mask` dialect."""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import mask


class FloorModConstantFold(RewritePattern):
    """`floormod c1, c2` -> the constant `c1 mod c2` (floor semantics, c2 != 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mask.FloorModOp, rewriter: PatternRewriter, /):
        lhs = const_evaluate_operand(op.lhs)
        rhs = const_evaluate_operand(op.rhs)
        if lhs is None or rhs is None or rhs == 0:
            return
        assert isinstance(op.result.type, IntegerType)
        rewriter.replace(
            op,
            arith.ConstantOp.from_int_and_width(
                lhs % rhs, op.result.type, truncate_bits=True
            ),
        )


class FloorModByOne(RewritePattern):
    """`floormod x, 1` and `floormod x, -1` -> 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mask.FloorModOp, rewriter: PatternRewriter, /):
        if const_evaluate_operand(op.rhs) not in (1, -1):
            return
        assert isinstance(op.result.type, IntegerType)
        rewriter.replace(op, arith.ConstantOp.from_int_and_width(0, op.result.type))
