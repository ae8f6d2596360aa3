"""Canonicalization patterns of the `mask` dialect."""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue
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


# Lane coefficients other than +-1 ------------------------------------------
#
# `mask.lane_cmp pred, c * lane + %u + k` is exact (no wraparound): lane-affine
# only builds one where value ranges (from the domain) prove the linear form
# cannot wrap. With a = |c| >= 2 and s = sign(c), V = u + k, the comparison is
# one of L with a lane-uniform bound (floor division is monotone):
#
#   c * L + V >= 0  <=>  s * L + floor(V / a) >= 0
#
# (for c > 0: L >= -V / a iff L >= ceil(-V / a) = -floor(V / a); for c < 0:
# a * L <= V iff L <= floor(V / a)), and `> 0` is `- 1 >= 0` on integers, `< 0`
# and `<= 0` the negations. `== 0` holds iff a divides V and L = -s * V / a.
# floor((u + k) / a) = floor((u + r) / a) + k // a with r = k mod a in [0, a),
# so the lane_cmp keeps a constant offset and computes floor((u + r) / a),
# widened to i64 where u + r might leave u's type; the rewrite is skipped
# where value ranges cannot prove that the emitted ops do not overflow.


def _scaled_quotient(op: mask.LaneCmpOp, e: int):
    """
    For `c * L + u + k <pred> 0` (|c| >= 2): the ops computing n = u + r
    (r = (k - e) mod |c|, u widened to i64 where needed) and n // |c|, as
    (ops, n, n // |c|, (k - e) // |c|), or None where value ranges cannot
    prove those ops exact or the new offset does not fit its i64 attribute.
    """
    from xdsl.dialects.builtin import i64

    from maskopt.passes.analysis import Range, ValueRanges, type_range

    a = abs(op.coeff_value)
    func = op.parent_op()
    if a < 2 or not isinstance(func, mask.FuncOp):
        return None
    k = op.offset_value - e
    r, qk = k % a, k // a
    if not Range.exact(qk).within(type_range(i64)):
        return None
    ranges = ValueRanges(func)
    ops: list = []
    n = op.u
    t = n.type
    assert isinstance(t, IntegerType)
    if not (ranges.of(n) + Range.exact(r)).within(type_range(t)) or a > type_range(t).hi:
        if t.width.data >= 64:
            return None
        ext = arith.ExtSIOp(n, i64)
        ext.result.name_hint = "wide"
        ops.append(ext)
        n, t = ext.result, i64
        if a > type_range(t).hi:
            return None
    if r:
        cr = arith.ConstantOp.from_int_and_width(r, t)
        cr.result.name_hint = "rem"
        add = arith.AddiOp(n, cr.result)
        add.result.name_hint = "shifted"
        ops += [cr, add]
        n = add.result
    ca = arith.ConstantOp.from_int_and_width(a, t)
    ca.result.name_hint = "scale"
    div = arith.FloorDivSIOp(n, ca.result)
    div.result.name_hint = "bound"
    ops += [ca, div]
    if any(ranges.may_wrap(o) for o in ops):
        return None
    return ops, n, div.result, qk, ca.result


def _scaled_lane_cmp(op: mask.LaneCmpOp, pred: str, u: SSAValue, offset: int) -> mask.LaneCmpOp:
    new = mask.LaneCmpOp(pred, 1 if op.coeff_value > 0 else -1, u, offset)
    new.location = op.location  # remarks point at the comparison
    return new


class LaneCmpScaledOrder(RewritePattern):
    """
    `c * L + u + k <pred> 0` with |c| >= 2 and an order predicate ->
    `sign(c) * L + (u + r) // |c| + (k - e) // |c| <pred'> 0`: for `>=` and
    `<`, e = 0 and pred' = pred; for `>` and `<=`, e = 1 and pred' is `>=`
    and `<` (r = (k - e) mod |c|).
    """

    _FORMS = {"sge": (0, "sge"), "sgt": (1, "sge"), "slt": (0, "slt"), "sle": (1, "slt")}

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mask.LaneCmpOp, rewriter: PatternRewriter, /):
        form = self._FORMS.get(op.predicate.data)
        if form is None or op.coeff_value in (1, -1):
            return
        e, pred = form
        scaled = _scaled_quotient(op, e)
        if scaled is None:
            return
        ops, _, quotient, offset, _ = scaled
        new = _scaled_lane_cmp(op, pred, quotient, offset)
        rewriter.replace(op, [*ops, new])


class LaneCmpScaledEquality(RewritePattern):
    """
    `c * L + u + k == 0` with |c| >= 2 -> `(u + r) mod |c| == 0 &
    sign(c) * L + (u + r) // |c| + k // |c| == 0` (r = k mod |c|): the lane
    where c * L = -(u + k) if |c| divides u + k, else none; `!=` is the
    negation, `(u + r) mod |c| != 0 | ... != 0`.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mask.LaneCmpOp, rewriter: PatternRewriter, /):
        pred = op.predicate.data
        if pred not in ("eq", "ne") or op.coeff_value in (1, -1):
            return
        scaled = _scaled_quotient(op, 0)
        if scaled is None:
            return
        ops, n, quotient, offset, a = scaled
        assert isinstance(n.type, IntegerType)
        rem = mask.FloorModOp(n, a)
        rem.result.name_hint = "residue"
        zero = arith.ConstantOp.from_int_and_width(0, n.type)
        zero.result.name_hint = "zero"
        divides = arith.CmpiOp(rem.result, zero.result, "eq" if pred == "eq" else "ne")
        divides.result.name_hint = "divides" if pred == "eq" else "indivisible"
        new = _scaled_lane_cmp(op, pred, quotient, offset)
        both = arith.AndIOp(divides.result, new.result) if pred == "eq" else arith.OrIOp(
            divides.result, new.result
        )
        rewriter.replace(op, [*ops, rem, zero, divides, new, both])
