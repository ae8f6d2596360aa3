"""
Boolean identities for `arith` on i1 that xDSL's stock patterns miss.

xDSL stores i1 `true` as -1, so the generic unit/zero patterns of
`arith.andi`/`arith.ori`/`arith.xori` do not fire for it. These patterns are
attached to the arith op classes by `maskopt.dialects.arith_traits`.
"""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand


def _bool_const(value: SSAValue) -> bool | None:
    if value.type != i1:
        return None
    c = const_evaluate_operand(value)
    return None if c is None else c != 0


def _constant(rewriter: PatternRewriter, op: Operation, value: bool) -> None:
    rewriter.replace(op, arith.ConstantOp.from_int_and_width(-1 if value else 0, 1))


def _operand_pairs(op: arith.SignlessIntegerBinaryOperation):
    yield op.lhs, op.rhs
    yield op.rhs, op.lhs


class AndIBoolIdentity(RewritePattern):
    """`andi %x, true` -> `%x`; `andi %x, false` -> false; `andi %x, %x` -> `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AndIOp, rewriter: PatternRewriter, /):
        if op.lhs == op.rhs:
            rewriter.replace(op, (), (op.lhs,))
            return
        for x, c in _operand_pairs(op):
            match _bool_const(c):
                case True:
                    rewriter.replace(op, (), (x,))
                    return
                case False:
                    _constant(rewriter, op, False)
                    return


class OrIBoolIdentity(RewritePattern):
    """`ori %x, false` -> `%x`; `ori %x, true` -> true; `ori %x, %x` -> `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.OrIOp, rewriter: PatternRewriter, /):
        if op.lhs == op.rhs:
            rewriter.replace(op, (), (op.lhs,))
            return
        for x, c in _operand_pairs(op):
            match _bool_const(c):
                case False:
                    rewriter.replace(op, (), (x,))
                    return
                case True:
                    _constant(rewriter, op, True)
                    return


class XOrIBoolIdentity(RewritePattern):
    """`xori %x, false` -> `%x`; `xori (xori %x, true), true` -> `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.XOrIOp, rewriter: PatternRewriter, /):
        for x, c in _operand_pairs(op):
            match _bool_const(c):
                case False:
                    rewriter.replace(op, (), (x,))
                    return
                case True:
                    inner = x.owner
                    if isinstance(inner, arith.XOrIOp):
                        for y, d in _operand_pairs(inner):
                            if _bool_const(d) is True:
                                rewriter.replace(op, (), (y,))
                                return
                    return


class XOrINotCmpi(RewritePattern):
    """`xori (cmpi p, a, b), true` -> `cmpi !p, a, b` when the cmpi has no other use."""

    _INVERSE = {0: 1, 1: 0, 2: 5, 3: 4, 4: 3, 5: 2, 6: 9, 7: 8, 8: 7, 9: 6}

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.XOrIOp, rewriter: PatternRewriter, /):
        for x, c in _operand_pairs(op):
            if _bool_const(c) is not True:
                continue
            cmp = x.owner
            if not isinstance(cmp, arith.CmpiOp) or cmp.result.uses.get_length() != 1:
                continue
            inverse = self._INVERSE[cmp.predicate.value.data]
            rewriter.replace(op, arith.CmpiOp(cmp.lhs, cmp.rhs, inverse))
            return
