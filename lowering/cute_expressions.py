"""
The expression forms of `interval-to-cute`: negations, sums with a
negation, narrowed differences, unsigned divisions, wrapped aux indices,
guarded divisors, floor remainders and wrapping arithmetic, chosen in the IR.

After the word of every run is built (`maskopt.lowering.interval_to_cute`),
eight rewrites turn the `arith` shapes that the CuTe DSL cannot print as
written into `cute` ops, or into cheaper `arith` ops where value ranges
allow, so that the printers print each op as it stands and
`--print-ir-after-all` and FileCheck (test/passes/interval-to-cute-exprs.mlir)
show the choice:

- `FoldNegationIntoSum`: `y + (0 - x)` is `cute.sub y, x` and `y - (0 - x)`
  is `cute.add y, x`, where value ranges show that neither the negation nor
  the sum may wrap (the values are then equal): no negation at all.
- `LowerNegation`: an i32 or i64 `0 - x` (or `x * -1`) never reaches the
  printer as a bare negation, which ptxas could fold into a 3-input min/max
  and drop (`PTXAS_NEGATION` in maskopt.lowering.cute). It is pushed into
  `x` where value ranges show that this changes no value (through `-`, `+`,
  `*` by a constant, min/max, truncation and sign extension), narrowed where
  `x` is a truncated clamped difference, and otherwise `cute.neg_i32` /
  `cute.neg_i64` (which wrap like torch's negation where `x` may be MIN).
- `NarrowTruncatedDifference`: fold-intervals' `trunc(clamp(a - b, k1, k2))`
  of an i64 difference whose operands fit i32 is the i32 `a - clamp(b, a -
  k2, a - k1)`, and its one-sided forms likewise; where only `b` fits i32,
  the clamp is computed in Int64 around `b` (`clamped_wide_difference`).
  No Int32 operation of these forms can overflow.
- `UnsignedDivision`: an i32 division or remainder whose dividend is >= 0
  and divisor > 0 is `arith.divui` / `arith.remui` (the printers print them
  in Uint32).
- `WrapNegativeIndex`: a `mask.load` index that value ranges do not show to
  be >= 0 is `cute.wrap_index` (torch's negative indexing: `index + size`
  below 0), a constant one in [-size, 0) the constant `index + size`; the
  printers print every index as it stands.
- `GuardDivisor`: the divisor of a signed division or remainder that value
  ranges do not show to be nonzero (or, for a remainder of a dividend that
  may be MIN, other than -1) is `cute.safe_divisor`, 1 there.
- `LowerFloorRemainder`: a `mask.floormod` whose divisor's sign value
  ranges show is C's truncating `cute.rem` where the dividend is >= 0 and
  the divisor > 0, else `cute.floor_rem` (the correction of that sign); one
  of either sign stays, and the printers print it with the correction of
  both signs.
- `LowerWrappingArithmetic`: an i32 `+`, `-`, `*` or `//` whose exact
  result value ranges do not keep in i32 (and an i64 one in per-lane code)
  is `cute.add_wrap`, `cute.sub_wrap`, `cute.mul_wrap` or
  `cute.floordiv_wrap`, which wrap like torch's; the printers print every
  `arith` op as a plain expression and refuse one that may still wrap.

The rewrites run in that order (a sum's negation must still be an `arith`
negation when the sum is folded, and a negated truncation must still be a
truncation when it is narrowed; a floor remainder's sign is read from its
guarded divisor). `ExpressionBuilder` holds the forms; the
word builders of `interval-to-cute` extend it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import cute, mask
from maskopt.passes.analysis import INT32_MAX, Range, ValueRanges

i64 = IntegerType(64)


# Shapes -------------------------------------------------------------------


def const_operand(op: Operation) -> tuple[SSAValue, int] | None:
    """`(x, k)` for a commutative two-operand op (`min`, `max`, `+`) of a
    non-constant `x` and a constant `k`, in either order."""
    for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        k = const_evaluate_operand(c)
        if k is not None and const_evaluate_operand(x) is None:
            return x, k
    return None


def clamp_parts(v: SSAValue) -> tuple[SSAValue, int, int] | None:
    """`(s, k1, k2)` where `v` is `clamp(s, k1, k2)`: `min(max(s, k1), k2)`
    or `max(min(s, k2), k1)`, constants on either side."""
    outer = v.owner
    if not isinstance(outer, (arith.MinSIOp, arith.MaxSIOp)):
        return None
    kind = arith.MaxSIOp if isinstance(outer, arith.MinSIOp) else arith.MinSIOp
    o = const_operand(outer)
    if o is None or not isinstance(o[0].owner, kind):
        return None
    i = const_operand(o[0].owner)
    if i is None:
        return None
    (s, ki), ko = i, o[1]
    return (s, ki, ko) if kind is arith.MaxSIOp else (s, ko, ki)


def without_guard_clamps(v: SSAValue, lo: int, hi: int | None = None) -> SSAValue:
    """`v` with the clamps to constants stripped that change nothing in
    [lo, hi]: `max(x, c)` with c <= lo, `min(x, c)` with c >= hi (e.g.
    fold-intervals' +-2^40 guard, where only [lo, hi] matters); with no
    `hi`, only the `max` clamps."""
    while isinstance(v.owner, (arith.MinSIOp, arith.MaxSIOp)):
        xk = const_operand(v.owner)
        if xk is None or (
            xk[1] > lo if isinstance(v.owner, arith.MaxSIOp) else hi is None or xk[1] < hi
        ):
            break
        v = xk[0]
    return v


def truncated_clamped_difference(
    ranges: ValueRanges, op: arith.TruncIOp
) -> tuple[arith.SubiOp, int, int] | None:
    """`(d, k1, k2)` where `op` is the i32 `trunc(clamp(d, k1, k2))` of an
    i64 difference `d` that cannot wrap, k1 <= k2 (fold-intervals' form of
    a bound whose difference may leave i32)."""
    if op.input.type != i64 or op.result.type != i32:
        return None
    parts = clamp_parts(op.input)
    if parts is None:
        return None
    s, k1, k2 = parts
    d = s.owner
    if k1 > k2 or not isinstance(d, arith.SubiOp) or ranges.may_wrap(d):
        return None
    return d, k1, k2


def negated_operand(ranges: ValueRanges, op: Operation) -> SSAValue | None:
    """`x` when `op` is an i32 or i64 `0 - x`, `x * -1` or `-1 * x` of a
    non-constant (a zero is also a value whose range is [0, 0], such as an
    extended constant)."""
    if not isinstance(op, (arith.SubiOp, arith.MuliOp)):
        return None
    t = op.result.type
    if not isinstance(t, IntegerType) or t.width.data not in (32, 64):
        return None
    lc, rc = const_evaluate_operand(op.lhs), const_evaluate_operand(op.rhs)
    if lc is not None and rc is not None:
        return None
    if isinstance(op, arith.SubiOp):
        if rc is None and (lc == 0 or (lc is None and ranges.of(op.lhs) == Range(0, 0))):
            return op.rhs
        return None
    if -1 in (lc, rc):
        return op.rhs if lc == -1 else op.lhs
    return None


# Forms ----------------------------------------------------------------------


@dataclass
class ExpressionBuilder:
    """Builds cute ops before `at`: the negation and narrowing forms (the
    identities in the docstrings hold on the whole domain)."""

    ranges: ValueRanges
    at: Operation

    def op(self, new: Operation, hint: str | None = None) -> SSAValue:
        Rewriter.insert_op(new, InsertPoint.before(self.at))
        result = new.results[0]
        if hint is not None:
            result.name_hint = hint
        return result

    def const(self, k: int, t: IntegerType = i32, hint: str | None = None) -> SSAValue:
        return self.op(cute.ConstantOp(k, t), hint)

    def binary(self, kind: type[cute.AddOp], a: SSAValue, b: SSAValue, hint: str | None = None) -> SSAValue:
        return self.op(kind(a, b), hint)

    # Negation ---------------------------------------------------------------

    def negation(self, x: SSAValue, wraps: bool) -> SSAValue:
        """
        `-x` of an i32 or i64 `x` with no bare negation: a truncated clamped
        difference negated and narrowed (`narrow_clamped_difference`), else
        pushed into `x` where value ranges show that this changes no value
        (`pushed_negation`), else `cute.neg_i32` / `cute.neg_i64` (wrapping,
        like torch's, where `wraps`).
        """
        o = x.owner
        if not wraps and isinstance(o, arith.TruncIOp):
            narrowed = self.narrow_clamped_difference(o, negate=True)
            if narrowed is not None:
                return narrowed
        pushed = None if wraps else self.pushed_negation(x)
        if pushed is not None:
            return pushed
        return self.op(cute.NegI32Op(x) if x.type == i32 else cute.NegI64Op(x))

    def pushed_negation(self, x: SSAValue, depth: int = 0) -> SSAValue | None:
        """
        `-x` as cute ops with no bare negation, or None (see `negation`): pushed
        through `-`, `+` and `*` by a constant, and through min/max (`-min(a, b)`
        is `max(-a, -b)`), truncation and sign extension, where value ranges show
        that no value on the way may wrap.
        """
        ranges = self.ranges
        op = x.owner
        t = x.type
        if (
            depth > 6
            or const_evaluate_operand(x) is not None
            or not isinstance(op, Operation)
            or not isinstance(t, IntegerType)
            or t.width.data not in (32, 64)
            or ranges.of(x).lo <= -(2 ** (t.width.data - 1))
            or ranges.may_wrap(op)
        ):
            return None

        def neg(v: SSAValue) -> SSAValue | None:
            c = const_evaluate_operand(v)
            if c is not None:
                return None if c == -(2 ** (v.type.width.data - 1)) else self.const(-c, v.type)
            return self.pushed_negation(v, depth + 1)

        match op:
            case arith.SubiOp():
                if const_evaluate_operand(op.lhs) == 0:
                    return op.rhs  # -(0 - b) = b
                return self.binary(cute.SubOp, op.rhs, op.lhs)
            case arith.MuliOp():
                for a, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    k = const_evaluate_operand(c)
                    if k == -1:
                        return a
                    if k is not None and (nk := neg(c)) is not None:
                        return self.binary(cute.MulOp, a, nk)
            case arith.AddiOp():
                for a, b in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if const_evaluate_operand(b) is not None and (nb := neg(b)) is not None:
                        return self.binary(cute.SubOp, nb, a)  # -(a + c) = (-c) - a
                for a, b in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if (na := neg(a)) is not None:
                        return self.binary(cute.SubOp, na, b)  # -(a + b) = (-a) - b
            case arith.MinSIOp() | arith.MaxSIOp():
                na, nb = neg(op.lhs), neg(op.rhs)
                if na is not None and nb is not None:
                    return self.binary(cute.MaxOp if isinstance(op, arith.MinSIOp) else cute.MinOp, na, nb)
            case arith.TruncIOp():
                inner = neg(op.input)
                if inner is not None:
                    return self.op(cute.ToI32Op(inner))
            case arith.ExtSIOp():
                inner = neg(op.input)
                if inner is not None:
                    return self.op(cute.ToI64Op(inner))
        return None

    # Narrowing --------------------------------------------------------------

    def narrow_i32(self, v: SSAValue, depth: int = 0) -> SSAValue | None:
        """An i32 value equal to the i64 value `v`, where `v` is an i32
        value sign-extended, or a non-wrapping sum or difference of such whose
        value range fits i32 (so the Int32 operation cannot overflow)."""
        r = self.ranges.of(v)
        if depth > 4 or r.lo < -INT32_MAX - 1 or r.hi > INT32_MAX:
            return None
        c = const_evaluate_operand(v)
        if c is not None:
            return self.const(c)
        o = v.owner
        if isinstance(o, arith.ExtSIOp) and o.input.type == i32:
            return o.input
        if isinstance(o, (arith.AddiOp, arith.SubiOp)) and not self.ranges.may_wrap(o):
            if isinstance(o, arith.SubiOp) and self.ranges.of(o.lhs) == Range(0, 0):
                # `0 - x` would be a bare negation: only a negation pushed
                # into an i32 `x` is an i32 value here.
                x = o.rhs.owner
                if isinstance(x, arith.ExtSIOp) and x.input.type == i32:
                    return self.pushed_negation(x.input)
                return None
            a, b = self.narrow_i32(o.lhs, depth + 1), self.narrow_i32(o.rhs, depth + 1)
            if a is not None and b is not None:
                return self.binary(cute.AddOp if isinstance(o, arith.AddiOp) else cute.SubOp, a, b)
        return None

    def narrow_clamped_difference(self, op: arith.TruncIOp, negate: bool = False) -> SSAValue | None:
        """
        `trunc(clamp(a - b, k1, k2))` of an i64 difference whose operands fit
        i32 (fold-intervals widens `a - b` to i64 where it may leave i32, e.g.
        `q - kv - win[b]`) as the i32 `a - clamp(b, a - k2, a - k1)`: equal on
        the whole domain (b >= a - k1 gives k1, b <= a - k2 gives k2, else
        a - b), and no Int32 operation can overflow: value ranges keep
        `a - k2` and `a - k1` in i32 and the result is in [k1, k2].
        `negate`: `-trunc(...)` instead.
        """
        parts = truncated_clamped_difference(self.ranges, op)
        if parts is None:
            return self.narrow_one_sided_difference(op, negate)
        d, k1, k2 = parts
        if negate:  # -clamp(a - b, k1, k2) is clamp(b - a, -k2, -k1)
            return self.clamped_difference(d.rhs, d.lhs, -k2, -k1)
        return self.clamped_difference(d.lhs, d.rhs, k1, k2)

    def narrow_one_sided_difference(self, op: arith.TruncIOp, negate: bool = False) -> SSAValue | None:
        """
        `trunc(max(a - b, k))` of an i64 difference whose operands fit i32
        (fold-intervals' lower end where value ranges bound it above, e.g.
        `q - kv - win[h]` of a uint8 window) as the i32 `a - min(b, a - k)`,
        and `trunc(min(a - b, k))` as `a - max(b, a - k)`: equal on the
        whole domain, and no Int32 operation can overflow: value ranges keep
        `a - k` in i32 and the truncation exact (the result is in i32).
        `negate`: `-trunc(...)` (`-max(a - b, k)` is `min(b - a, -k)`).
        """
        if op.input.type != i64 or op.result.type != i32 or self.ranges.may_wrap(op):
            return None
        outer = op.input.owner
        if not isinstance(outer, (arith.MinSIOp, arith.MaxSIOp)):
            return None
        xk = const_operand(outer)
        if xk is None:
            return None
        s, k = xk
        d = s.owner
        if not isinstance(d, arith.SubiOp) or self.ranges.may_wrap(d):
            return None
        av, bv, is_max = d.lhs, d.rhs, isinstance(outer, arith.MaxSIOp)
        if negate:
            av, bv, k, is_max = bv, av, -k, not is_max
        if abs(k) > INT32_MAX:
            return None
        ar = self.ranges.of(av)
        if ar.lo - k < -INT32_MAX - 1 or ar.hi - k > INT32_MAX:
            return None
        b = self.narrow_i32(bv)  # first: its ops come before those of `a`, as they are read
        a = self.narrow_i32(av)
        if a is None or b is None:
            return None
        # max(a - b, k) keeps lo = k; min(a - b, k) keeps hi = k
        return self.op(cute.ClampedSubOp(a, b, k if is_max else None, None if is_max else k))

    def clamped_difference(self, av: SSAValue, bv: SSAValue, k1: int, k2: int) -> SSAValue | None:
        """`clamp(a - b, k1, k2)` of i64 values as an i32 value, or None
        (see `narrow_clamped_difference`)."""
        if abs(k1) > INT32_MAX or abs(k2) > INT32_MAX:
            return None
        ar = self.ranges.of(av)
        fits = not (ar.lo - k2 < -INT32_MAX - 1 or ar.hi - k1 > INT32_MAX)
        b = self.narrow_i32(bv)  # first: its ops come before those of `a`, as they are read
        a = self.narrow_i32(av)
        if b is not None and a is None:
            return self.clamped_wide_difference(av, b, bv, k1, k2)
        if a is not None and b is None and fits and bv.type == i64:
            return self.clamped_saturated_difference(a, ar, bv, k1, k2)
        if not fits or a is None or b is None:
            return None
        return self.op(cute.ClampedSubOp(a, b, k1, k2))

    def clamped_saturated_difference(self, a: SSAValue, ar: Range, bv: SSAValue, k1: int, k2: int) -> SSAValue:
        """
        `trunc(clamp(a - b, k1, k2))` where only `a` fits i32 (`b` is, say,
        an i64 window read from an aux tensor) as the i32
        `a - clamp(sat_i32(b), a - k2, a - k1)`: `clamp(a - b, k1, k2)` is
        `a - clamp(b, a - k2, a - k1)`, and value ranges keep both clamp
        bounds in i32, where saturating `b` to i32 changes no clamp. A clamp
        of `b` to constants that contain every [a - k2, a - k1]
        (fold-intervals' +-2^40 guard against `a - b` overflowing) changes
        nothing there, so it is looked through. The per-head int64 window
        is harness 26 SASS instructions (inductor, which truncates the
        window to Int32, 26) and FA4 +169 (inductor +238), against 37 and
        +281 for the Int64 clamp of `a - b` it replaces.
        """
        b = without_guard_clamps(bv, ar.lo - k2, ar.hi - k1)
        sat = self.saturated_offset(b)
        if sat is None:
            sat = self.op(cute.SatI32Op(b))
        return self.op(cute.ClampedSubOp(a, sat, k1, k2))

    def saturated_offset(self, b: SSAValue) -> SSAValue | None:
        """`sat_i32(b)` for an i64 `b = x + c` (or `x - c`) of an i32 `x` as
        the i32 `max(x, -2^31 - c) + c` for c < 0 and `min(x, 2^31 - 1 - c) +
        c` for c > 0, the clamp only where x's range needs it: the same
        value, and the sum cannot overflow (a strict window's `w - 1`,
        `fold_start_offset`). None for other values."""
        o = b.owner
        if not isinstance(o, (arith.AddiOp, arith.SubiOp)) or self.ranges.may_wrap(o):
            return None
        c = const_evaluate_operand(o.rhs)
        x = o.lhs
        if c is None and isinstance(o, arith.AddiOp):
            c, x = const_evaluate_operand(o.lhs), o.rhs
        if c is None or not isinstance(x.owner, arith.ExtSIOp) or x.owner.input.type != i32:
            return None
        c = -c if isinstance(o, arith.SubiOp) else c
        if c == 0 or abs(c) > INT32_MAX:
            return None
        x = x.owner.input
        xr = self.ranges.of(x)
        if c < 0 and xr.lo + c < -INT32_MAX - 1:
            x = self.binary(cute.MaxOp, x, self.const(-INT32_MAX - 1 - c))
        elif c > 0 and xr.hi + c > INT32_MAX:
            x = self.binary(cute.MinOp, x, self.const(INT32_MAX - c))
        return self.binary(cute.AddOp, x, self.const(c))

    def clamped_wide_difference(self, a: SSAValue, b: SSAValue, bv: SSAValue, k1: int, k2: int) -> SSAValue:
        """
        `trunc(clamp(a - b, k1, k2))` where only `b` fits i32 (`a` is, say, an
        i64 aux value) as `Int32(clamp(a, b + k1, b + k2) - b)` in Int64: the
        same value, and nothing can overflow (b + k and the result are small).
        A clamp of `a` to constants [c1, c2] that contain [b + k1, b + k2]
        (fold-intervals' guard against a - b overflowing) changes nothing
        there, so it is looked through.
        """
        br = self.ranges.of(bv)
        a = without_guard_clamps(a, br.lo + k1, br.hi + k2)
        return self.op(cute.ClampedSubOp(a, b, k1, k2))


# Rewrites -------------------------------------------------------------------


@dataclass
class _RangesPattern(RewritePattern):
    """A rewrite that reads the value ranges of its function (computed
    before any rewrite: every rewrite keeps the values it replaces)."""

    ranges: ValueRanges

    @staticmethod
    def replace(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
        """Replace `op`'s result by `value`, a new cute expression taking the
        result's name (`v` without one): the printer binds it on a line of
        its own, as it binds the arith value it replaces."""
        if value.name_hint is None and cute.is_cute_value(value):
            value.name_hint = op.results[0].name_hint or "v"
        rewriter.replace(op, [], [value])


class FoldNegationIntoSum(_RangesPattern):
    """`y + (0 - x)` -> `cute.sub y, x`; `y - (0 - x)` -> `cute.add y, x`
    (neither may wrap)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        ranges = self.ranges
        if (
            not isinstance(op, (arith.AddiOp, arith.SubiOp))
            or negated_operand(ranges, op) is not None
            or not isinstance(op.result.type, IntegerType)
            or op.result.type.width.data not in (32, 64)
            or ranges.may_wrap(op)
        ):
            return

        def negated(v: SSAValue) -> SSAValue | None:
            o = v.owner
            if not isinstance(o, (arith.SubiOp, arith.MuliOp)) or ranges.may_wrap(o):
                return None
            return negated_operand(ranges, o)

        if isinstance(op, arith.SubiOp):
            x = negated(op.rhs)
            if x is not None:
                self.replace(rewriter, op, ExpressionBuilder(ranges, op).binary(cute.AddOp, op.lhs, x))
            return
        for y, n in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            x = negated(n)
            if x is not None:
                self.replace(rewriter, op, ExpressionBuilder(ranges, op).binary(cute.SubOp, y, x))
                return


class LowerNegation(_RangesPattern):
    """An i32 or i64 `0 - x` -> its form without a bare negation
    (`ExpressionBuilder.negation`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        x = negated_operand(self.ranges, op)
        if x is None:
            return
        value = ExpressionBuilder(self.ranges, op).negation(x, wraps=self.ranges.may_wrap(op))
        self.replace(rewriter, op, value)


class NarrowTruncatedDifference(_RangesPattern):
    """An i32 `trunc(clamp(a - b, k1, k2))` (or one side of it) of an i64
    difference -> its i32 form (`ExpressionBuilder.narrow_clamped_difference`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.TruncIOp) or op.input.type != i64 or op.result.type != i32:
            return
        value = ExpressionBuilder(self.ranges, op).narrow_clamped_difference(op)
        if value is not None:
            self.replace(rewriter, op, value)


def unsigned_division_kind(ranges: ValueRanges, op: Operation) -> type[arith.DivUIOp] | type[arith.RemUIOp] | None:
    """The unsigned op (`arith.divui` / `arith.remui`) equal to an i32
    `arith.floordivsi`, `arith.divsi`, `arith.remsi` or `mask.floormod` whose
    dividend is >= 0 and divisor > 0 on the domain, else None."""
    if isinstance(op, (arith.FloorDivSIOp, arith.DivSIOp)):
        kind = arith.DivUIOp
    elif isinstance(op, (arith.RemSIOp, mask.FloorModOp)):
        kind = arith.RemUIOp
    else:
        return None
    lhs, rhs = op.operands
    if op.results[0].type != i32 or ranges.of(lhs).lo < 0 or ranges.of(rhs).lo <= 0:
        return None
    return kind


class UnsignedDivision(_RangesPattern):
    """An i32 division or remainder of a dividend >= 0 by a divisor > 0 ->
    `arith.divui` / `arith.remui` (MLIR's arith-unsigned-when-equivalent):
    the same quotient and remainder without the sign corrections of the
    signed forms (a division by a constant is a multiply-high and a shift)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kind = unsigned_division_kind(self.ranges, op)
        if kind is None:
            return
        new = kind(op.operands[0], op.operands[1])
        new.result.name_hint = op.results[0].name_hint
        rewriter.replace(op, new)


def wrapped_indices(ranges: ValueRanges, op: Operation) -> list[SSAValue] | None:
    """The indices of a `mask.load` with every index that may be negative
    replaced by its wrap (torch's: a negative index counts from the end),
    built before `op`; None if no index may be negative. A constant index in
    [-size, 0) is the constant `index + size` (one below -size is out of
    bounds, torch raises: it is left as it is), a runtime one
    `cute.wrap_index` (`index + size if index < 0 else index`)."""
    if not isinstance(op, mask.LoadOp):
        return None
    assert isinstance(op.tensor.type, TensorType)
    sized = list(zip(op.tensor.type.get_shape(), op.indices))
    wraps = [_wraps(ranges, index, size) for size, index in sized]
    if not any(wraps):
        return None
    build = ExpressionBuilder(ranges, op)
    indices = []
    for (size, index), wrap in zip(sized, wraps):
        if not wrap:
            indices.append(index)
        elif (c := const_evaluate_operand(index)) is not None:
            indices.append(build.const(c + size, index.type))
        else:
            indices.append(build.op(cute.WrapIndexOp(index, size)))
    return indices


def loads_negative_index(ranges: ValueRanges, op: Operation) -> bool:
    """Whether `op` is a `mask.load` with an index that may be negative."""
    if not isinstance(op, mask.LoadOp):
        return False
    assert isinstance(op.tensor.type, TensorType)
    return any(_wraps(ranges, i, size) for size, i in zip(op.tensor.type.get_shape(), op.indices))


def _wraps(ranges: ValueRanges, index: SSAValue, size: int) -> bool:
    if isinstance(index.owner, cute.WrapIndexOp):
        return False  # wrapped: below 0 still only where torch raises (below -size)
    c = const_evaluate_operand(index)
    if c is not None:
        return -size <= c < 0
    return ranges.of(index).lo < 0


class WrapNegativeIndex(_RangesPattern):
    """A `mask.load` index that may be negative -> its wrap
    (`wrapped_indices`): the printers print every index as it stands."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        indices = wrapped_indices(self.ranges, op)
        if indices is None:
            return
        assert isinstance(op, mask.LoadOp)
        new = mask.LoadOp(op.tensor, indices)
        new.result.name_hint = op.result.name_hint
        rewriter.replace(op, new)


def divisor_guard(ranges: ValueRanges, op: Operation) -> cute.SafeDivisorOp | None:
    """The `cute.safe_divisor` (not yet inserted) that the divisor of an
    `arith.floordivsi`, `arith.remsi` or `mask.floormod` needs: where value
    ranges do not exclude 0 (torch raises: any word is right, a packed
    word's lane-uniform `q // chunk[b]` included) and, for a remainder, -1
    while the dividend may be MIN (LLVM's srem is UB there; `x mod -1` is 0).
    None if the division is defined on the whole domain, or its divisor is
    guarded already."""
    if not isinstance(op, (arith.FloorDivSIOp, arith.RemSIOp, mask.FloorModOp)):
        return None
    x, d = op.operands
    if isinstance(d.owner, cute.SafeDivisorOp) or not isinstance(d.type, IntegerType):
        return None
    if const_evaluate_operand(d) is not None and const_evaluate_operand(x) is not None:
        return None  # folded by canonicalize; the printer refuses it
    dr, xr = ranges.of(d), ranges.of(x)
    zero = dr.lo <= 0 <= dr.hi
    minus_one = (
        not isinstance(op, arith.FloorDivSIOp)
        and dr.lo <= -1 <= dr.hi
        and xr.lo == Range.of_type(x.type).lo
    )
    if not (zero or minus_one):
        return None
    return cute.SafeDivisorOp(d, or_minus_one=minus_one)


class GuardDivisor(_RangesPattern):
    """The divisor of a signed division or remainder that may be 0 (or -1
    by MIN) -> its `cute.safe_divisor` (`divisor_guard`): the printers
    print every division as it stands."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        guard = divisor_guard(self.ranges, op)
        if guard is None:
            return
        guard.result.name_hint = "divisor"  # a module binds it, as it did before the IR held it
        rewriter.insert(guard, InsertPoint.before(op))
        op.operands[1] = guard.result
        rewriter.notify_op_modified(op)


def divisor_sign(ranges: ValueRanges, op: Operation) -> int | None:
    """For a `mask.floormod` of i32 or i64: 1 where value ranges show its
    divisor > 0, -1 where they show it < 0, else (or for another op) None."""
    if not isinstance(op, mask.FloorModOp) or op.result.type not in (i32, i64):
        return None
    d = ranges.of(op.rhs)
    return 1 if d.lo > 0 else -1 if d.hi < 0 else None


class LowerFloorRemainder(_RangesPattern):
    """A `mask.floormod` whose divisor's sign value ranges show (`divisor_sign`,
    read after `GuardDivisor`) -> C's truncating `cute.rem` where the
    dividend is >= 0 and the divisor > 0, else `cute.floor_rem` (the
    truncated remainder with the floor's sign correction). One of either
    sign stays: the printers print `mask.floormod` with the correction of
    both signs."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sign = divisor_sign(self.ranges, op)
        if sign is None:
            return
        assert isinstance(op, mask.FloorModOp)
        if sign > 0 and self.ranges.of(op.lhs).lo >= 0:
            new = cute.RemOp(op.lhs, op.rhs)
        else:
            new = cute.FloorRemOp(op.lhs, op.rhs, negative=sign < 0)
        rewriter.insert(new, InsertPoint.before(op))
        self.replace(rewriter, op, new.result)


#: The op that computes each arith op as torch does where it may wrap.
_WRAPPING = {
    arith.AddiOp: cute.AddWrapOp,
    arith.SubiOp: cute.SubWrapOp,
    arith.MuliOp: cute.MulWrapOp,
    arith.FloorDivSIOp: cute.FloorDivWrapOp,
}


def wrapping_kind(ranges: ValueRanges, op: Operation) -> type[cute.AddWrapOp] | None:
    """The `cute` op (`cute.add_wrap`, ...) that an i32 `+`, `-`, `*` or `//`
    whose exact result value ranges do not keep in i32 is, or an i64 one in
    per-lane code (which evaluates the user's predicate as written); else
    None. A packed function's i64 op that may wrap stays: the printers
    refuse it (the packing passes never build one)."""
    kind = _WRAPPING.get(type(op))
    if kind is None or op.results[0].type not in (i32, i64):
        return None
    func = op.parent_op()
    assert isinstance(func, mask.FuncOp)
    if op.results[0].type == i64 and func.is_packed:
        return None
    lhs, rhs = op.operands
    if const_evaluate_operand(lhs) is not None and const_evaluate_operand(rhs) is not None:
        return None  # folded by canonicalize; the printer refuses it
    if negated_operand(ranges, op) is not None or not ranges.may_wrap(op):
        return None
    return kind


class LowerWrappingArithmetic(_RangesPattern):
    """An `arith` `+`, `-`, `*` or `//` that may wrap -> its `cute` op of
    torch's wrapping (`wrapping_kind`): the printers print every `arith`
    op as a plain, non-wrapping expression."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kind = wrapping_kind(self.ranges, op)
        if kind is None:
            return
        new = kind(op.operands[0], op.operands[1])
        rewriter.insert(new, InsertPoint.before(op))
        self.replace(rewriter, op, new.result)


#: The rewrites, in the order they run (see the module doc).
EXPRESSION_PATTERNS: tuple[type[_RangesPattern], ...] = (
    FoldNegationIntoSum,
    LowerNegation,
    NarrowTruncatedDifference,
    UnsignedDivision,
    WrapNegativeIndex,
    GuardDivisor,
    LowerFloorRemainder,
    LowerWrappingArithmetic,
)


def needs_expression_lowering(func: mask.FuncOp) -> bool:
    """Whether `func` has an op that one of the rewrites may change."""
    ranges = ValueRanges(func)
    return any(
        negated_operand(ranges, op) is not None
        or (isinstance(op, arith.TruncIOp) and op.input.type == i64 and op.result.type == i32)
        or unsigned_division_kind(ranges, op) is not None
        or loads_negative_index(ranges, op)
        or divisor_guard(ranges, op) is not None
        or divisor_sign(ranges, op) is not None
        or wrapping_kind(ranges, op) is not None
        for op in func.body.block.ops
    )


def lower_expressions(func: mask.FuncOp) -> None:
    """Apply the rewrites to `func`, each over the whole function in turn."""
    ranges = ValueRanges(func)
    for op in func.body.block.ops:  # every range, before any value is replaced
        for r in op.results:
            if isinstance(r.type, IntegerType):
                ranges.of(r)
    for pattern in EXPRESSION_PATTERNS:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([pattern(ranges)]),
            apply_recursively=False,
        ).rewrite_region(func.body)
