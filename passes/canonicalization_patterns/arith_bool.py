"""
Boolean identities for `arith` on i1 that xDSL's stock patterns miss.

An i1 `arith.select` with one constant arm is a single and/or (as MLIR's
arith canonicalizer makes it): `select(c, true, b)` = `c | b`,
`select(c, a, false)` = `c & a`, `select(c, false, b)` = `~c & b`,
`select(c, a, true)` = `~c | a`. The general i1 select is left as it is
(fold-intervals folds it as `(c & a) | (~c & b)`; per-lane code keeps one op).

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


def _select_i1_constant_arm(op: arith.SelectOp) -> tuple[bool, bool] | None:
    """(which arm is the constant: True for the true arm, its value) of an i1
    select with exactly one constant arm and a non-constant condition; None
    otherwise (xDSL's stock select patterns handle constant conditions and
    two constant arms)."""
    if op.result.type != i1 or const_evaluate_operand(op.cond) is not None:
        return None
    lhs, rhs = _bool_const(op.lhs), _bool_const(op.rhs)
    if (lhs is None) == (rhs is None):
        return None
    return (True, lhs) if lhs is not None else (False, rhs)  # type: ignore[return-value]


def _not(x: SSAValue) -> tuple[arith.ConstantOp, arith.XOrIOp]:
    """`xori %x, true` (with its constant)."""
    true = arith.ConstantOp.from_int_and_width(-1, 1)
    return true, arith.XOrIOp(x, true.result)


def _at(select: arith.SelectOp, new: Operation) -> Operation:
    """`new`, located at `select` (remarks then quote the `torch.where`)."""
    new.location = select.location
    return new


class SelectI1ToOr(RewritePattern):
    """`select %c, true, %b : i1` -> `ori %c, %b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        if _select_i1_constant_arm(op) == (True, True):
            rewriter.replace(op, _at(op, arith.OrIOp(op.cond, op.rhs)))


class SelectI1ToAnd(RewritePattern):
    """`select %c, %a, false : i1` -> `andi %c, %a`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        if _select_i1_constant_arm(op) == (False, False):
            rewriter.replace(op, _at(op, arith.AndIOp(op.cond, op.lhs)))


class SelectI1ToAndNot(RewritePattern):
    """`select %c, false, %b : i1` -> `andi (xori %c, true), %b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        if _select_i1_constant_arm(op) == (True, False):
            true, neg = _not(op.cond)
            rewriter.replace(op, [true, neg, _at(op, arith.AndIOp(neg.result, op.rhs))])


class SelectI1ToOrNot(RewritePattern):
    """`select %c, %a, true : i1` -> `ori (xori %c, true), %a`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        if _select_i1_constant_arm(op) == (False, True):
            true, neg = _not(op.cond)
            rewriter.replace(op, [true, neg, _at(op, arith.OrIOp(neg.result, op.lhs))])
