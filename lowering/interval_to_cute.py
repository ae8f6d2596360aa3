"""
`interval-to-cute`: the word form of every lane run, chosen in the IR.

Each `interval.range %lo, %hi : i32` (and each `interval.periodic` and
`interval.table`) becomes `cute.lanes %word`, its keep
word built from `cute` ops (`maskopt.dialects.cute`): the choices that the
CuTe printer used to make while printing, made here once, so that the module
printer and the self-contained expressions (`keep_mask_exprs`, the inductor
drop-in) print the same IR, and FileCheck can pin them
(test/passes/interval-to-cute.mlir). Each side of a run is only computed where
the bound's value range does not already clip it, and clamps only where
value ranges do not prove them redundant:

- a run that value ranges show empty is the word 0, one that is full all ones;
- a lower bound `trunc(clamp(a - b, k1, k2)) + k` (a strict window) whose
  i32 narrowing only fits with k folded into b is first rewritten to
  `trunc(clamp(a - (b - k), k1 + k, k2 + k))` (`fold_start_offset`);
- a suffix [lo, 32) is `shl_u32(ONES, lo)` (PTX clamps amounts >= 32);
  where lo is an i64 `clamp((P - y) - B) + k` that cannot be narrowed to
  i32 even so, the amount is max(c - y, -1) + 1 with the lane-uniform Int32
  c = clamp(P - B + k - 1) (`offset_max_start`), also under a causal
  upper shift;
- a prefix [0, 32 - A) whose bound is written as the shift amount A >= 0
  (`lower-interval-bounds`' plan for an amount cheaper than the bound) is
  `shr_u32(ONES, min(A, 32))`: the clamp at 32 changes no value, but FA4's
  kernel compiles it smallest (causal: +37 instructions, against +48
  without it and +65 as a bmsk; `python -m maskopt.tools.calibrate_fa4`,
  test/sass-results.md);
- with `USE_BMSK`: a prefix x - y + k that cannot leave i32 is
  `offset_max_prefix`'s shift where x reads no aux tensor (strict causal
  `kv < q`), else `bmsk(0, max(x - y + k, 0))`; an upper end that keeps
  the lanes of an affine `t - y`
  (causal-style ends; `affine_bound`) is one `bmsk(L, max(t, y + L) - (y + L))`
  in Uint32 arithmetic, with the run's first kv position `y + L` computed as
  one max where the lower bound allows (`lower_start`, `guarded_lower_start`,
  `wide_lower_start`); fold-intervals' guarded prefix `min(max(X, c0) - y,
  c1) + k` is a bmsk of the width `max(X, y - k) - (y - k)`, or, where that
  width may pass 2^31 - 1, a right shift by the amount max(y + C, -1) + 1
  (`offset_max_prefix`); for an X read from an aux tensor, the source word
  ONES or 0 (X > min(y) - k) shifted by max(y + C, 0) (`select_source_prefix`,
  FA4's choice there); or, where y's range is wider, by an unsigned amount
  (`unsigned_offset_prefix`);
- an upper bound `32 - A` with a lower side is `shr_u32(ONES, A) &
  shl_u32(ONES, lo)`;
- any other prefix or range is `bmsk(lo, max(hi, lo) - lo)`, the bounds
  clamped at 0 only where they may be negative (without `USE_BMSK`, the two
  shifts `shr_u32(ONES, 32 - hi) & shl_u32(ONES, lo)`).

An `interval.span` (a run of a fixed width W at a = sign * u + k) is
`bmsk(a, W)` for one lane or a >= 0, else its W ones shifted by
`shl_hi64(ONES_W, a + 32)`, the high word of a 64-bit shift, which shifts
right for a < 0; only the low word of the position is computed (`span_word`).

An `interval.periodic` set is one funnel shift of its constant 64-bit
pattern by the phase; an `interval.table` set of an i32 shift is a chain of
eager selects on its threshold (`table_bits`), shifted right, left (by the
shift's negation, pushed into it where value ranges allow, else
`cute.neg_i32`) or, for a shift of either sign, both under a select; table
sets of one shift in an `interval.intersect` are ANDed before one shift.

Every op that may not overflow is only built where value ranges prove that
it cannot (the identities in the docstrings hold on the whole domain). The
ops are created in the order in which their operands should be computed;
the printer binds named values (`%base`, `%lo`) in that order.

Values the printer names (a line of their own in the module) carry a name
hint (`lo`, `base`, `h`, `yk`); the others print in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import IntegerType, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import cute, interval, mask
from maskopt.lowering.cute_expressions import (
    ExpressionBuilder,
    const_operand,
    lower_expressions,
    truncated_clamped_difference,
    without_guard_clamps,
)
from maskopt.passes.analysis import INT32_MAX, Range, ValueRanges

LANES = 32
U32_MAX = 2**32 - 1

#: Whether range words may use PTX `bmsk.clamp` (`cute.bmsk`), which needs no
#: all-ones register and no AND of two shifts. It was switched off for a
#: while after an H200 run gave wrong words for corpus case
#: `batchify_sliding_window_16_128` with and without it; the cause turned out
#: to be the ptxas negation miscompile (`PTXAS_NEGATION` in
#: maskopt.lowering.cute), not bmsk. The CPU emulator models bmsk.clamp and
#: the emulator/fuzz tests compare its words with eager torch.
USE_BMSK = True


def reads_aux(v: SSAValue, depth: int = 8) -> bool:
    """Whether `v` is computed from a `mask.load` (an aux tensor's value)
    within `depth` ops."""
    o = v.owner
    if isinstance(o, mask.LoadOp):
        return True
    if not isinstance(o, Operation) or depth == 0:
        return False
    return any(reads_aux(a, depth - 1) for a in o.operands)


class _WordBuilder(ExpressionBuilder):
    """Builds cute ops before `at`: the primitives of every word form (and,
    from `ExpressionBuilder`, the negation and narrowing forms)."""

    def u32(self, k: int) -> SSAValue:
        return self.const(k, cute.ui32)

    def ones(self) -> SSAValue:
        return self.u32(U32_MAX)

    def to_u32(self, v: SSAValue) -> SSAValue:
        return self.op(cute.ToU32Op(v))

    def nonneg(self, v: SSAValue, hint: str | None = None) -> SSAValue:
        """`v` clamped at 0 unless its range is >= 0 (a constant: max(c, 0))."""
        c = const_evaluate_operand(v)
        if c is not None:
            return self.const(max(c, 0), hint=hint)
        if self.ranges.of(v).lo < 0:
            return self.binary(cute.MaxOp, v, self.const(0), hint)
        return v

    def max_plus_one(self, v: SSAValue, wide: bool) -> SSAValue:
        """`max(v, -1) + 1` of an i32 `v` as a Uint32 shift amount, the + 1
        exact in Int64 where `wide` (the amount may reach 2^31)."""
        t = self.binary(cute.MaxOp, v, self.const(-1))
        if wide:
            return self.to_u32(self.binary(cute.AddOp, self.op(cute.ToI64Op(t)), self.const(1, IntegerType(64))))
        return self.to_u32(self.binary(cute.AddOp, t, self.const(1)))

    def shr_ones(self, amount: SSAValue) -> SSAValue:
        return self.op(cute.ShrU32Op(self.ones(), amount))

    def shl_ones(self, amount: SSAValue) -> SSAValue:
        return self.op(cute.ShlU32Op(self.ones(), amount))

    def bmsk(self, pos: SSAValue, width: SSAValue) -> SSAValue:
        return self.op(cute.BmskOp(pos, width))


class _AffineWord(_WordBuilder):
    """The bmsk of an affine upper end, with the run's first kv position."""

    def affine_bound(self, hi: SSAValue, depth: int = 0) -> tuple[tuple, SSAValue, SSAValue | None] | None:
        """
        `(top, y, d)` where the upper bound `hi` keeps the same lanes as
        `top - y` (`hi` equals it, or its min with 32): `top` is a leaf
        `("x", x, k)` meaning `x + k` with `x >= 0` (None: 0) and `k >= 0`, or
        `("max" | "min", a, b)` of two tops; `y >= 0`; `d` is the non-wrapping
        i32 value `x - y` when `hi` is one such difference.
        A leaf `("s", S, 0)` is an i64 `S` clipped to Uint32 (`sat_u32`; see
        `wide_clamped_difference`: a length read from an int64 tensor).
        Recognized: `x - y`, `c - y`, `32 - max(c - (x - y), 0)` and
        `32 - max((y - x) + c, 0)`, `32 - (c - min(x - y, c))` (fold-intervals'
        causal upper bounds), and
        `max`/`min` of recognized bounds with the same `y` (min and max
        commute with `- y` and with the clip at 32); every op non-wrapping,
        so the identities hold on all of the domain.
        """
        ranges = self.ranges

        def nonneg_var(v: SSAValue) -> bool:
            return const_evaluate_operand(v) is None and ranges.of(v).lo >= 0

        def diff(v: SSAValue) -> tuple[SSAValue, SSAValue] | None:
            o = v.owner
            if not isinstance(o, arith.SubiOp) or v.type != i32 or ranges.may_wrap(o):
                return None
            if nonneg_var(o.lhs) and nonneg_var(o.rhs):
                return o.lhs, o.rhs
            # 0 - (y - x), lane-affine's form of `y < x`, is x - y too
            i = o.rhs.owner
            if (
                const_evaluate_operand(o.lhs) == 0
                and isinstance(i, arith.SubiOp)
                and not ranges.may_wrap(i)
                and nonneg_var(i.lhs)
                and nonneg_var(i.rhs)
            ):
                return i.rhs, i.lhs
            return None

        if depth > 4 or hi.type != i32:
            return None
        d = diff(hi)
        if d is not None:
            return ("x", d[0], 0), d[1], hi
        wide = self.wide_clamped_difference(hi)  # keeps the lanes y + L < sat_u32(S)
        if wide is not None:
            return ("s", wide[0], 0), wide[1], None
        o = hi.owner
        if isinstance(o, (arith.MaxSIOp, arith.MinSIOp)):
            pa, pb = self.affine_bound(o.lhs, depth + 1), self.affine_bound(o.rhs, depth + 1)
            if pa is not None and pb is not None and pa[1] == pb[1]:
                kind = "max" if isinstance(o, arith.MaxSIOp) else "min"
                return (kind, pa[0], pb[0]), pa[1], None
            return None
        if not isinstance(o, arith.SubiOp) or ranges.may_wrap(o):
            return None
        c = const_evaluate_operand(o.lhs)
        if c is None or c < 0:
            return None
        m = o.rhs.owner
        if isinstance(m, arith.AddiOp) and not ranges.may_wrap(m):
            nc = const_operand(m)
            if nc is not None and c - nc[1] >= 0 and nonneg_var(nc[0]):
                return ("x", None, c - nc[1]), nc[0], None  # c - (y + c2)
            return None
        if c != LANES and nonneg_var(o.rhs):
            return ("x", None, c), o.rhs, None  # c - y (32 - y: one shr is cheaper)
        if c == LANES and isinstance(m, arith.SubiOp) and not ranges.may_wrap(m):
            # 32 - (c2 - min(x - y, c2)) is 32 - max(c2 - (x - y), 0)
            c2 = const_evaluate_operand(m.lhs)
            mn = m.rhs.owner
            xc = const_operand(mn) if isinstance(mn, arith.MinSIOp) else None
            if c2 is not None and xc is not None and xc[1] == c2 and LANES - c2 >= 0:
                d = diff(xc[0])
                if d is not None:
                    return ("x", d[0], LANES - c2), d[1], xc[0]
            return None
        if c != LANES or not isinstance(m, arith.MaxSIOp):
            return None
        if const_evaluate_operand(m.rhs) == 0:
            b = m.lhs
        elif const_evaluate_operand(m.lhs) == 0:
            b = m.rhs
        else:
            return None
        bo = b.owner
        if not isinstance(bo, (arith.SubiOp, arith.AddiOp)) or ranges.may_wrap(bo):
            return None
        if isinstance(bo, arith.SubiOp):
            c = const_evaluate_operand(bo.lhs)
            d = None if c is None else diff(bo.rhs)
            if d is not None and LANES - c >= 0:
                return ("x", d[0], LANES - c), d[1], bo.rhs  # 32 - max(c - (x - y), 0)
            return None
        nc = const_operand(bo)
        d = None if nc is None else diff(nc[0])
        if d is not None and LANES - nc[1] >= 0:
            return ("x", d[1], LANES - nc[1]), d[0], None  # 32 - max((y - x) + c, 0)
        return None

    def wide_clamped_difference(self, bound: SSAValue) -> tuple[SSAValue, SSAValue] | None:
        """
        `(S, y)` where `bound` is fold-intervals' i64 bound `trunc(clamp(S -
        y, k1, k2))` or `0 - trunc(clamp(y - S, -k2, -k1))` with k1 <= 0 and
        k2 >= 32, `y = extsi` of an i32 >= 0: the lanes of `clip(S - y -
        L, ...)` are those of `sat_u32(S) - y - L`, since y + L is in [0,
        2^31). S's clamps to constants c <= 0 or c >= 2^32 - 1 (the +-2^40
        guard) are looked through.
        """
        o = bound.owner
        negate = False
        if isinstance(o, arith.SubiOp) and const_evaluate_operand(o.lhs) == 0:
            negate, o = True, o.rhs.owner
        parts = truncated_clamped_difference(self.ranges, o) if isinstance(o, arith.TruncIOp) else None
        if parts is None:
            return None
        d, k1, k2 = parts
        s_val, y64 = (d.rhs, d.lhs) if negate else (d.lhs, d.rhs)
        if negate:
            k1, k2 = -k2, -k1
        e = y64.owner
        if not isinstance(e, arith.ExtSIOp) or k1 > 0 or k2 < LANES:
            return None
        y = e.input
        if y.type != i32 or self.ranges.of(y).lo < 0:
            return None
        return without_guard_clamps(s_val, 0, U32_MAX), y

    def affine_bmsk_word(self, op: interval.RangeOp, has_lo: bool) -> SSAValue | None:
        """
        The word of [lo, hi) as one `bmsk` when `hi` keeps the lanes of
        `t - y`, `t` a max/min of terms `x + k` (see `affine_bound`): bits
        [L, t - y) with L = max(lo, 0) are `bmsk(L, max(t, y + L) - (y + L))`
        in Uint32 arithmetic (exact: every operand is >= 0 and value ranges
        keep `t` and `y + L` below 2^31; the width cannot go below 0; bmsk.clamp
        clips it at bit 31 and gives 0 for L >= 32). A prefix `x - y + k`
        that cannot leave i32 is `bmsk(0, max(x - y + k, 0))`. No
        negation, no min/max of a negation, no all-ones register.
        """
        a = self.affine_bound(op.hi)
        if a is None:
            return None
        top, y, d = a
        ranges = self.ranges
        yr = ranges.of(y)

        def top_hi(t: tuple) -> int:
            if t[0] == "s":
                return U32_MAX
            if t[0] == "x":
                return (0 if t[1] is None else ranges.of(t[1]).hi) + t[2]
            return max(top_hi(t[1]), top_hi(t[2]))

        def is_const(t: tuple) -> bool:
            return t[0] == "x" and t[1] is None

        def top_value(t: tuple) -> SSAValue:
            if t[0] == "s":
                return self.op(cute.SatU32Op(t[1]))
            if t[0] != "x":
                # a constant is never a min/max's left operand (DSL_CONSTANT_MINMAX)
                a, b = (t[2], t[1]) if is_const(t[1]) else (t[1], t[2])
                kind = cute.MaxOp if t[0] == "max" else cute.MinOp
                return self.binary(kind, top_value(a), top_value(b))
            _, x, k = t
            if x is None:
                return self.u32(k)
            u = self.to_u32(x)
            return self.binary(cute.AddOp, u, self.u32(k)) if k else u

        # Every `x + k` is exact in Uint32. (Operands reach 2^31: q + 1 at
        # q = 2^31 - 1.)
        if top_hi(top) > U32_MAX:
            return None
        lo_r = ranges.of(op.lo)
        if has_lo and yr.hi + max(lo_r.hi, 0) > U32_MAX:
            return None
        if not has_lo and top[0] == "x":
            # A prefix whose x - y + k cannot leave i32: the shift of
            # `offset_max_prefix` where x reads no aux tensor (FA4's kernel:
            # strict causal +37 against +50 for the bmsk, which wins where x
            # is read from memory: padding +87 against +154; `python -m
            # maskopt.tools.calibrate_fa4 --only strict_causal/bmsk
            # strict_causal/shr-offset-max padding/bmsk padding/shr-offset-max`),
            # else bmsk of a signed max with 0.
            _, x, k = top
            xr = Range(0, 0) if x is None else ranges.of(x)
            if xr.hi + k - yr.lo <= INT32_MAX and xr.lo - yr.hi >= -INT32_MAX - 1:
                if x is not None and not reads_aux(x) and (word := self.offset_max_prefix(x, x, y, k)) is not None:
                    return word
                if x is None:
                    s = self.binary(cute.SubOp, self.const(k), y)
                else:
                    s = d if d is not None else self.binary(cute.SubOp, x, y)
                    if k:
                        s = self.binary(cute.AddOp, s, self.const(k))
                width = self.to_u32(self.binary(cute.MaxOp, s, self.const(0)))
                return self.bmsk(self.u32(0), width)
        top_v = top_value(top)
        base = self.to_u32(y)  # y is computed here, after t (a dead op when a start replaces it)
        pos = None
        if has_lo:
            start = self.lower_start(op.lo, y)
            wide = None if start is not None else self.wide_lower_start(op.lo, y)
            if start is None and wide is None:
                wide = self.guarded_lower_start(op.lo, y)
            if start is not None:
                # base = max(X, y) first, the position base - y from it
                pos = self.to_u32(self.binary(cute.SubOp, start, y, "lo"))
                base = self.to_u32(start)
            elif wide is not None:
                base = wide  # a Uint32
                pos = self.binary(cute.SubOp, base, self.to_u32(y), "lo")
            else:
                pos = self.to_u32(self.nonneg(op.lo, "lo"))
                base = self.binary(cute.AddOp, base, pos, "base")
        if pos is None:
            pos = self.u32(0)
        first, second = (base, top_v) if is_const(top) else (top_v, base)
        width = self.binary(cute.SubOp, self.binary(cute.MaxOp, first, second), base)
        return self.bmsk(pos, width)

    def lower_start(self, lo: SSAValue, y: SSAValue) -> SSAValue | None:
        """
        `y + max(lo, 0)` as one Int32 `max(X - c, y)` (named `base`) when the
        lower bound `lo` is `X - y` or `max(X - y, c) - c` (fold-intervals'
        forms; y >= 0 is the upper bound's base): the run's first kv position,
        from which the position is one subtraction, where `y + clamp(lo)`
        takes a subtraction, a clamp and an addition. A clamp `max(S, c2)`
        inside X that y already dominates (c2 - c <= min y) is looked
        through. None when `lo` has neither form or X - c may leave Int32.
        """
        ranges = self.ranges
        o = lo.owner
        c = 0
        if isinstance(o, arith.AddiOp) and isinstance(o.lhs.owner, arith.MaxSIOp):
            m, k = o.lhs.owner, const_evaluate_operand(o.rhs)
            if k is None or const_evaluate_operand(m.rhs) != -k or ranges.may_wrap(o):
                return None
            c, o = -k, m.lhs.owner  # max(X - y, c) - c
        if not isinstance(o, arith.SubiOp) or o.rhs is not y or ranges.may_wrap(o):
            # 0 - (y - X) is X - y too
            if not (
                isinstance(o, arith.SubiOp)
                and const_evaluate_operand(o.lhs) == 0
                and isinstance(o.rhs.owner, arith.SubiOp)
                and o.rhs.owner.lhs is y
                and not ranges.may_wrap(o.rhs.owner)
            ):
                return None
            x = o.rhs.owner.rhs
        else:
            x = o.lhs
        if x.type != i32 or y.type != i32 or ranges.of(y).lo < 0:
            return None
        x = without_guard_clamps(x, ranges.of(y).lo + c)
        if ranges.of(x).lo - c < -INT32_MAX - 1:
            return None
        if c:
            x = self.binary(cute.SubOp, x, self.const(c))
        return self.binary(cute.MaxOp, x, y, "base")

    def guarded_lower_start(self, lo: SSAValue, y: SSAValue) -> SSAValue | None:
        """
        `lower_start` for fold-intervals' lower bound `min(X - y, c) + k`
        (k >= 0, c + k >= 32: the min only keeps X - y + k from overflowing
        where the bound is past bit 31 anyway; X, y >= 0): the Uint32
        `max(Uint32(X) + k, Uint32(y))`, exact because X + k < 2^32. Where
        the min applies, base - y is at least 32 as the clipped bound is, so
        bmsk gives 0 there too.
        """
        ranges = self.ranges
        o = lo.owner
        mk = const_operand(o) if isinstance(o, arith.AddiOp) and not ranges.may_wrap(o) else None
        if mk is None:
            return None
        m, k = mk
        mn = m.owner
        xc = const_operand(mn) if isinstance(mn, arith.MinSIOp) else None
        if k < 0 or xc is None or xc[1] + k < LANES:
            return None
        d = xc[0].owner
        if not isinstance(d, arith.SubiOp) or d.rhs is not y or ranges.may_wrap(d):
            return None
        x = d.lhs
        xr, yr = ranges.of(x), ranges.of(y)
        if x.type != i32 or y.type != i32 or xr.lo < 0 or yr.lo < 0 or xr.hi + k > U32_MAX:
            return None
        if const_evaluate_operand(x) is not None:
            return None
        xs = self.to_u32(x)
        if k:
            xs = self.binary(cute.AddOp, xs, self.u32(k))
        return self.binary(cute.MaxOp, xs, self.to_u32(y), "base")

    def wide_lower_start(self, lo: SSAValue, y: SSAValue) -> SSAValue | None:
        """
        `lower_start` for fold-intervals' i64 lower bound `trunc(clamp(S - y,
        k1, k2))` (or `0 - trunc(clamp(y - S, -k2, -k1))`) with k1 <= 0 and
        k2 >= 32, S an i64 value (`wide_clamped_difference`): the Uint32
        `max(sat_u32(S), Uint32(y))`. `sat_u32` clamps S to [0, 2^32 - 1],
        which changes no lane: kv + L is in [0, 2^31). The word's position
        base - y then is at least 32 wherever S - y is, so bmsk gives 0
        there, like the clamp at k2.
        """
        parts = self.wide_clamped_difference(lo)
        if parts is None or parts[1] is not y:
            return None
        return self.binary(cute.MaxOp, self.op(cute.SatU32Op(parts[0])), self.to_u32(y), "base")

    def offset_max_start(self, lo: SSAValue) -> SSAValue | None:
        """
        The suffix word [lo, 32) as `shl_u32(ONES, A)` for lower-interval-
        bounds' i64 lower bound `lo = trunc(clamp((P - y) - B, k1, k2)) + k`
        (k1 + k <= 0, k2 + k >= 32; y = extsi of an i32 in [0, 2^31 - 32],
        e.g. (q - kv) - w with w read from a tensor) where the i32 narrowing
        `a - clamp(B, a - k2, a - k1)` (a = P - y) does not apply because
        a - k1 may leave i32 (`narrow_clamped_difference`) and
        `fold_start_offset` does not fit either (a strict window `q - kv < w`
        has k1 = -1, which folding k = 1 into w mends; a = (q + h) - kv does
        not narrow), and the i64 arithmetic would otherwise run in every KV
        block. X = P - B. The lane-uniform
        c = clamp(X + k - 1, min(y) - 1, 2^31 - 1) is an Int32, c - y cannot
        wrap, and A = max(c - y, -1) + 1 = max(X - y + k, 0) wherever c is
        not clamped; where it is, A is 0 (no lane below the run) or at least
        32 (no lane in it), as the bound is. The + 1 is exact in Int64 where
        A may reach 2^31. Per KV block: one add-and-max, one add and the
        shift, kv used once (FA4's kernel, for the strict window that
        `fold_start_offset` now narrows: +211 against +271 for the i64 bound,
        and +170 narrowed; `python -m maskopt.tools.calibrate_fa4 --only
        strict_window/bmsk-i64 strict_window/shl-offset-max
        strict_window/bmsk-narrowed`; the suffix alone, `q - kv < w`, +182
        against +245 and +140 narrowed, `strict_suffix/*`). None for other
        forms.
        """
        ranges = self.ranges
        o, k = lo.owner, 0
        if isinstance(o, arith.AddiOp) and not ranges.may_wrap(o) and (xk := const_operand(o)):
            o, k = xk[0].owner, xk[1]
        parts = truncated_clamped_difference(ranges, o) if isinstance(o, arith.TruncIOp) else None
        if parts is None:
            return None
        d, k1, k2 = parts
        if k1 + k > 0 or k2 + k < LANES:
            return None
        i64 = IntegerType(64)
        a, b = d.lhs, d.rhs
        ar = ranges.of(a)
        if ar.lo - k2 >= -INT32_MAX - 1 and ar.hi - k1 <= INT32_MAX:
            return None  # `narrow_clamped_difference`'s i32 a - clamp(b, a - k2, a - k1)
        # (P - y) - B, e.g. (q - kv) - w: X = P - B, y = kv
        ao = a.owner
        if not (isinstance(ao, arith.SubiOp) and isinstance(ao.rhs.owner, arith.ExtSIOp) and not ranges.may_wrap(ao)):
            return None
        y, x_parts = ao.rhs.owner.input, (ao.lhs, b)
        yr = ranges.of(y)
        if y.type != i32 or yr.lo < 0 or yr.hi > INT32_MAX + 1 - LANES:
            return None
        pr, br = ranges.of(x_parts[0]), ranges.of(x_parts[1])
        xr = Range(pr.lo - br.hi, pr.hi - br.lo)
        lo_x, hi_x = xr.lo + k - 1, xr.hi + k - 1
        if min(lo_x, xr.lo) < -(2**63) or max(hi_x, xr.hi) >= 2**63:
            return None
        x = self.binary(cute.SubOp, *x_parts)
        if k != 1:
            x = self.binary(cute.AddOp, x, self.const(k - 1, i64))
        if lo_x < yr.lo - 1:
            x = self.binary(cute.MaxOp, x, self.const(yr.lo - 1, i64))
        if hi_x > INT32_MAX:
            x = self.binary(cute.MinOp, x, self.const(INT32_MAX, i64))
        c = self.op(cute.ToI32Op(x), "lo")
        wide = min(hi_x, INT32_MAX) - yr.lo + 1 > INT32_MAX
        return self.shl_ones(self.max_plus_one(self.binary(cute.SubOp, c, y), wide))


class _RangeWord(_AffineWord):
    """The word of an `interval.range` (see the module doc for the forms)."""

    def word(self, op: interval.RangeOp) -> SSAValue:
        ranges = self.ranges
        lo_r, hi_r = ranges.of(op.lo), ranges.of(op.hi)
        if hi_r.hi <= 0 or lo_r.lo >= LANES or lo_r.lo >= hi_r.hi:
            return self.u32(0)
        has_hi, has_lo = hi_r.lo < LANES, lo_r.hi > 0
        if not has_hi and not has_lo:
            return self.ones()
        if not has_hi:
            return self.offset_max_start(op.lo) or self.shl_ones(self.nonneg(op.lo))
        if not has_lo and (a := self.shift_amount(op.hi)) is not None:
            if ranges.of(a).hi > LANES:
                a = self.binary(cute.MinOp, a, self.const(LANES))
            return self.shr_ones(a)
        if (a := self.shift_amount(op.hi)) is not None and (start := self.offset_max_start(op.lo)) is not None:
            return self.binary(cute.AndOp, self.shr_ones(a), start)
        if USE_BMSK:
            word = self.affine_bmsk_word(op, has_lo)
            if word is None and not has_lo:
                word = self.guarded_prefix_word(op.hi)
            if word is not None:
                return word
        a = self.shift_amount(op.hi)
        if a is not None:
            # hi = 32 - A with A >= 0: shift by A, no clamp (PTX clamps A >= 32).
            word = self.shr_ones(a)
            if has_lo:
                word = self.binary(cute.AndOp, word, self.shl_ones(self.nonneg(op.lo)))
            return word
        if not USE_BMSK:
            return self.shift_range_word(op, has_lo)
        if not has_lo:
            return self.bmsk(self.u32(0), self.to_u32(self.nonneg(op.hi)))
        lo = self.nonneg(op.lo, "lo")
        pos = self.to_u32(lo)
        hi = op.hi
        if hi_r.lo < max(lo_r.hi, 0):
            hi = self.binary(cute.MaxOp, hi, lo)
        return self.bmsk(pos, self.to_u32(self.binary(cute.SubOp, hi, lo)))

    def shift_amount(self, hi: SSAValue) -> SSAValue | None:
        """For an upper bound `32 - a` with `a >= 0` (lower-interval-bounds' form), `a`."""
        op = hi.owner
        if (
            isinstance(op, arith.SubiOp)
            and const_evaluate_operand(op.lhs) == LANES
            and self.ranges.of(op.rhs).lo >= 0
        ):
            return op.rhs
        return None

    def shift_range_word(self, op: interval.RangeOp, has_lo: bool) -> SSAValue:
        """`shr_u32(ONES, 32 - hi) & shl_u32(ONES, lo)` (without `USE_BMSK`)."""
        hi_r = self.ranges.of(op.hi)
        hc = const_evaluate_operand(op.hi)
        if hc is not None:
            amount = self.const(LANES - hc)
        else:
            x = op.hi
            if LANES - hi_r.lo > INT32_MAX:
                x = self.binary(cute.MaxOp, x, self.const(0))
            if hi_r.hi > LANES:
                x = self.binary(cute.MinOp, x, self.const(LANES))
            amount = self.binary(cute.SubOp, self.const(LANES), x)
        word = self.shr_ones(amount)
        if has_lo:
            word = self.binary(cute.AndOp, word, self.shl_ones(self.nonneg(op.lo)))
        return word

    # Guarded prefixes ----------------------------------------------------------

    def guarded_prefix_word(self, hi: SSAValue) -> SSAValue | None:
        """
        The prefix word [0, hi) for fold-intervals' guarded upper bound
        `min(max(X, c0) - y, c1) + k` (X and y >= 0 runtime i32 values, each
        clamp optional, no op wrapping), as one `bmsk(0, W)`.

        The clamps only guard the i32 arithmetic: where `min` applies the
        bound is c1 + k >= 32 (every lane), where a `max` applies it is at
        most c0 - y + k <= 0 (no lane; `without_guard_clamps` with
        c0 <= min(y) - k). So the lanes are those of X - y + k and the width
        is W = max(X - y + k, 0) = max(X, y - k) - (y - k); bmsk.clamp clips
        it at 32. W can pass 2^31 - 1 (X = 2^31 - 1, y = 0, k = 1) but not
        2^32 - 1, so where value ranges allow that it is computed exactly in
        Int64 and converted to Uint32; no operation wraps. None for other
        forms, or where y - k or W may leave their types.
        """
        ranges = self.ranges
        k, v = 0, hi
        o = v.owner
        if isinstance(o, arith.AddiOp) and not ranges.may_wrap(o) and (xk := const_operand(o)):
            v, k = xk
        o = v.owner
        if isinstance(o, arith.MinSIOp):
            xc = const_operand(o)
            if xc is None or xc[1] + k < LANES:
                return None
            v = xc[0]
        o = v.owner
        if not isinstance(o, arith.SubiOp) or ranges.may_wrap(o) or v.type != i32:
            return None
        y = o.rhs
        yr = ranges.of(y)
        if const_evaluate_operand(y) is not None or yr.lo < 0 or yr.hi - k > INT32_MAX or yr.lo - k < -INT32_MAX - 1:
            return None
        x = without_guard_clamps(o.lhs, yr.lo - k)
        xr = ranges.of(x)
        if const_evaluate_operand(x) is not None or xr.hi - yr.lo + k > U32_MAX:
            return None  # c - y: shr_u32 (`shift_amount`) or `affine_bmsk_word`
        wide = xr.hi - yr.lo + k > INT32_MAX  # W may pass 2^31 - 1
        if wide and reads_aux(x) and (word := self.select_source_prefix(o.lhs, x, y, k)) is not None:
            return word
        if wide and (word := self.offset_max_prefix(o.lhs, x, y, k)) is not None:
            return word
        if wide and 0 <= 2**31 - k - xr.hi and yr.hi - yr.lo < 2**31:
            return self.unsigned_offset_prefix(o.lhs, x, y, k)
        t = i32
        if wide:
            # W passes 2^31 - 1 (X near 2^31 - 1 against y - k < 0, where the
            # unsigned shift-amount form does not apply): exact in Int64.
            t = IntegerType(64)
            y = self.op(cute.ToI64Op(y))
            x = self.op(cute.ToI64Op(x))
        yk = y if k == 0 else self.binary(cute.SubOp, y, self.const(k, t), "yk")
        width = self.to_u32(self.binary(cute.SubOp, self.binary(cute.MaxOp, x, yk), yk))
        return self.bmsk(self.u32(0), width)

    def clamped_x(self, guarded: SSAValue, x: SSAValue, c0: int) -> SSAValue:
        """`max(X, c0)`: `guarded` where fold-intervals' clamp already is it."""
        if self.ranges.of(guarded).lo >= c0:
            return guarded
        return self.binary(cute.MaxOp, x, self.const(c0))

    def offset_max_prefix(self, guarded: SSAValue, x: SSAValue, y: SSAValue, k: int) -> SSAValue | None:
        """
        The prefix [0, X - y + k) whose width may pass 2^31 - 1, as a right
        shift by its amount A = max(y + 32 - k - X, 0) (the shift clips
        amounts >= 32), written A = max(y + C, -1) + 1 with the lane-uniform
        C = 31 - k - max(X, min(y) - k) (X clamped where no lane is kept).
        y + C lies in [min(y) + 31 - k - max(X), max(y) - min(y) + 31], in
        i32 where max(y) - min(y) <= 2^31 - 32 (kv's whole domain), and the
        + 1 is exact in Int64 (A reaches 2^31), converted to Uint32. Per KV
        block this is one add-and-max, one add and the shift, with kv used
        once (FA4 folds kv's block offset into the add): bottom-right causal
        +35 in FA4's kernel against +43 for `unsigned_offset_prefix` and
        inductor's +37 (`python -m maskopt.tools.calibrate_fa4 --only
        bottom_right/shr-offset-max bottom_right/shr-unsigned-offset`;
        test/sass-results.md). None where y + C or C may
        leave i32.
        """
        yr, xr = self.ranges.of(y), self.ranges.of(x)
        c0 = yr.lo - k
        lo, hi = yr.lo + 31 - k - xr.hi, yr.hi - yr.lo + 31
        if lo < -INT32_MAX - 1 or hi > INT32_MAX or 31 - k - xr.hi < -INT32_MAX - 1 or 31 - k - c0 > INT32_MAX:
            return None
        c = self.binary(cute.SubOp, self.const(31 - k), self.clamped_x(guarded, x, c0), "h")
        return self.shr_ones(self.max_plus_one(self.binary(cute.AddOp, y, c), wide=True))

    def select_source_prefix(self, guarded: SSAValue, x: SSAValue, y: SSAValue, k: int) -> SSAValue | None:
        """
        The prefix [0, X - y + k) whose width may pass 2^31 - 1, for an X
        read from an aux tensor, as `shr_u32(S, max(y + C, 0))`: the source
        word S = ONES if X > c0 else 0, c0 = min(y) - k (no lane is kept
        where X <= c0), and the lane-uniform C = 32 - k - max(X, c0 + 1). Where
        X > c0 the amount y + C = 32 - (X - y + k) is the prefix's; y + C lies
        in [min(y) + 32 - k - max(X), max(y) - min(y) + 31], in i32 where
        max(y) - min(y) <= 2^31 - 32 (kv's whole domain), so no op wraps.
        Per KV block: one add-and-max and the shift of a register word, kv
        used once. FA4's kernel chooses it over `offset_max_prefix` only for
        an X that reads memory: per-batch offset causal `q + t[b] >= kv` +16
        against +75 over the aux baseline (+121 against +180 in the table),
        and the same +60 or more for `t[h]` and for `>`; bottom-right causal's
        constant offset measures +59 in this form against +35 (`python -m
        maskopt.tools.calibrate_fa4 --only offset_causal/select-source
        offset_causal/shr-offset-max bottom_right/select-source
        bottom_right/shr-offset-max`; test/sass-results.md). None where C or
        y + C may leave i32.
        """
        yr, xr = self.ranges.of(y), self.ranges.of(x)
        c1 = yr.lo - k + 1
        lo, hi = yr.lo + 32 - k - xr.hi, yr.hi - yr.lo + 31
        if lo < -INT32_MAX - 1 or hi > INT32_MAX or 32 - k - xr.hi < -INT32_MAX - 1 or 32 - k - c1 > INT32_MAX:
            return None
        if not -INT32_MAX - 1 <= c1 <= INT32_MAX:
            return None
        keep = self.op(cute.GeOp(x, self.const(c1)))
        source = self.op(cute.SelectOp(keep, self.ones(), self.u32(0)), "base")
        c = self.binary(cute.SubOp, self.const(32 - k), self.clamped_x(guarded, x, c1), "h")
        return self.op(cute.ShrU32Op(source, self.nonneg(self.binary(cute.AddOp, y, c))))

    def unsigned_offset_prefix(self, guarded: SSAValue, x: SSAValue, y: SSAValue, k: int) -> SSAValue:
        """
        The prefix [0, X - y + k) whose width may pass 2^31 - 1, as a right
        shift by its amount A = y + 32 - k - X, clipped to [0, 32]. With X
        clamped below at min(y) - k (no lane below it; `guarded` keeps that
        clamp where fold-intervals wrote it), the lane-uniform
        h = 2^31 - k - max(X, min(y) - k) lies in [0, 2^31 - min(y)], so
        u = y + h = A + K (K = 2^31 - 32) is exact in Uint32, and
        A clipped at 0 is max(u, K) - K (the shift clips amounts >= 32).
        Used where y's range is too wide for `offset_max_prefix` (more than
        2^31 - 32 values); FA4's kernel counts +43 instructions for
        bottom-right causal in this form (`bottom_right/shr-unsigned-offset`).
        """
        c0 = self.ranges.of(y).lo - k
        xc = self.clamped_x(guarded, x, c0)
        i64 = IntegerType(64)
        h = self.op(
            cute.ToU32Op(self.binary(cute.SubOp, self.const(2**31 - k, i64), self.op(cute.ToI64Op(xc)))), "h"
        )
        big = self.u32(2**31 - LANES)
        amount = self.binary(cute.SubOp, self.binary(cute.MaxOp, self.binary(cute.AddOp, self.to_u32(y), h), big), big)
        return self.shr_ones(amount)


class _SpanWord(_WordBuilder):
    """The word of an `interval.span`."""

    def span_word(self, op: interval.SpanOp) -> SSAValue:
        """
        The `width` ones of an `interval.span` at its start a = sign * u +
        k: `bmsk(a, width)` for one lane or a start that value ranges keep
        >= 0 (a < 0 is then no lane, and bmsk gives 0 for an unsigned
        position >= 32; it measured below `shl_u32(ONES_W, a)`: harness 12
        against 13 SASS instructions for `q == kv`, FA4 +48 against +53),
        else `shl_hi64(ONES_W, a + 32)`, whose amounts below 32 shift the
        ones right (0 for amounts >= 64 or < 0, i.e. a >= 32 or a < -32).
        Only the amount's low word is computed (`span_amount`), which agrees
        with the shift wherever every amount outside the shift's range
        [0, M) is one outside it modulo 2^32 too, i.e. amounts in
        [M - 2^32, 2^32); u is clamped first where its range does not show
        that (then the amount is in [-width, 32] + the offset).
        """
        u, sign, k, w = op.u, op.sign_value, op.k_value, op.width_value
        r = self.ranges.of(u)
        alo, ahi = op.starts(r.lo, r.hi)
        if ahi + w <= 0 or alo >= LANES:
            return self.u32(0)
        narrow = w == 1 or alo >= 0
        off, m = (0, LANES) if narrow else (LANES, 2 * LANES)
        if not (alo + off >= m - 2**32 and ahi + off < 2**32):
            u = self.span_clamped(op)
            r = self.ranges.of(u)
            alo, ahi = op.starts(r.lo, r.hi)
        amount = self.span_amount(u, sign, k + off, (alo + off, ahi + off))
        if narrow:
            pos = amount if amount.type == cute.ui32 else self.to_u32(amount)
            return self.bmsk(pos, self.u32(w))
        return self.op(cute.ShlHi64Op(self.op(cute.ConstantOp((1 << w) - 1, cute.ui32, hex=True)), amount))

    def span_clamped(self, op: interval.SpanOp) -> SSAValue:
        """The span's u clamped to `op.u_window()`, where its start is in
        [-width, 32] (outside it the span is empty, and at its ends too)."""
        u = op.u
        bits = u.type.width.data
        tmin, tmax = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        lo, hi = op.u_window()
        r = self.ranges.of(u)
        if r.lo < lo:
            u = self.binary(cute.MaxOp, u, self.const(max(lo, tmin), u.type))
        if r.hi > hi:
            u = self.binary(cute.MinOp, u, self.const(min(hi, tmax), u.type))
        return u

    def span_amount(self, u: SSAValue, sign: int, k: int, exact: tuple[int, int]) -> SSAValue:
        """sign * u + k modulo 2^32 (`exact`: its range as an integer, in
        (-2^32, 2^32)): an i32 where u is one and the value and k fit i32,
        else computed exactly in Int64 and truncated to its low word (no op
        wraps; LLVM narrows the Int64 arithmetic that only the low word reads)."""
        if u.type == i32 and -(2**31) <= exact[0] and exact[1] < 2**31 and -(2**31) <= k < 2**31:
            if sign > 0:
                return u if k == 0 else self.binary(cute.AddOp, u, self.const(k))
            if k == 0:
                return self.negation(u, wraps=False)  # -u fits i32: `exact` does
            o = u.owner
            kv = self.ranges.func.index_args[3]
            if isinstance(o, arith.SubiOp) and o.lhs is kv and not self.ranges.may_wrap(o):
                # k - (kv - X) as (X + k) - kv where X + k fits i32: the
                # lane-uniform X + k once, kv subtracted once (FA4's kernel:
                # +118 against +173 for `wrapped_conjunction_10`'s band)
                xr = self.ranges.of(o.rhs)
                if -(2**31) <= xr.lo + k and xr.hi + k < 2**31:
                    return self.binary(cute.SubOp, self.binary(cute.AddOp, o.rhs, self.const(k)), kv)
            return self.binary(cute.SubOp, self.const(k), u)
        x = u if u.type == i64 else self.op(cute.ToI64Op(u))
        if sign > 0:
            v = x if k == 0 else self.binary(cute.AddOp if k > 0 else cute.SubOp, x, self.const(abs(k), i64))
        else:
            # never a bare `0 - x` (PTXAS_NEGATION in maskopt.lowering.cute)
            v = self.negation(x, wraps=False) if k == 0 else self.binary(cute.SubOp, self.const(k, i64), x)
        return self.to_u32(v)


class _SetWord(_WordBuilder):
    """The word of an `interval.periodic` or `interval.table` set."""

    def periodic_word(self, op: interval.PeriodicOp) -> SSAValue:
        """
        Bit L of the word is bit (L + ph) of the 64-bit pattern B whose bit j is
        set iff residue j mod P is kept, where ph = phase mod P in [0, P): one
        funnel shift of a constant, `lo32(B >> ph)`, as
        `shr_u32(B_lo, ph) | shl_u32(B_hi, 32 - ph)`. The phase is reduced only
        where value ranges do not keep it in [0, P), with a sign fix only where
        it may be negative (CuTe's `%` truncates).
        """
        p, m = op.period_value, op.residues_value
        pattern = sum(1 << j for j in range(2 * LANES) if (m >> (j % p)) & 1)
        lo, hi = pattern & U32_MAX, pattern >> LANES
        t = op.phase.type
        r = self.ranges.of(op.phase)
        ph = op.phase
        if not (0 <= r.lo and r.hi < p):
            rem = self.binary(cute.RemOp, ph, self.const(p, t), None if r.lo >= 0 else "rem")
            ph = rem
            if r.lo < 0:
                negative = self.op(cute.LtOp(rem, self.const(0, t)))
                fixed = self.binary(cute.AddOp, rem, self.const(p, t))
                ph = self.op(cute.SelectOp(negative, fixed, rem))
        if t != i32:
            ph = self.op(cute.ToI32Op(ph))
        if ph is not op.phase:
            ph.name_hint = "ph"
        low = self.op(cute.ShrU32Op(self.op(cute.ConstantOp(lo, cute.ui32, hex=True)), ph))
        shift = self.binary(cute.SubOp, self.const(LANES), ph)
        high = self.op(cute.ShlU32Op(self.op(cute.ConstantOp(hi, cute.ui32, hex=True)), shift))
        return self.binary(cute.OrOp, low, high)

    def table_bits(self, op: interval.TableOp) -> SSAValue:
        """
        The unshifted word of a table set: bit r iff `table[r] <= t` (`> t`).
        The sets of `<= t` only change at the table's distinct values
        v1 < ... < vn: a chain of (eager) selects on `t >= vi`, dropping the
        values that the range of t decides.
        """
        table = op.table_values
        full = (1 << LANES) - 1
        r = self.ranges.of(op.t)
        word = 0  # the set for t below every table value
        chain: list[tuple[int, int]] = []  # (v, set for t >= v), ascending
        for v in sorted(set(table)):
            le = sum(1 << i for i, x in enumerate(table) if x <= v)
            if v <= r.lo:
                word, chain = le, []  # t >= v on the whole domain
            elif v <= r.hi:
                chain.append((v, le))

        def word_of(le: int) -> SSAValue:
            return self.op(cute.ConstantOp((full & ~le) if op.is_gt else le, cute.ui32, hex=True))

        bits = word_of(word)
        for v, le in chain:
            cond = self.op(cute.GeOp(op.t, self.const(v, op.t.type)))
            bits = self.op(cute.SelectOp(cond, word_of(le), bits, eager=True))
        return bits

    def shifted_table_word(self, ops: list[interval.TableOp]) -> SSAValue:
        """
        The keep word of the intersection of table sets of one shift s: the AND
        of their unshifted words M (named `tbl` when there are several), lane L
        being entry L + s, so M >> s for s >= 0 and M << -s for s < 0 (amounts
        >= 32 give 0, as no entry lies in [0, 32) then); a shift of either sign
        selects between the two.
        """
        bits = [self.table_bits(op) for op in ops]
        word = bits[0]
        for b in bits[1:]:
            word = self.binary(cute.AndOp, word, b)
        if len(ops) > 1:
            word.name_hint = "tbl"
        shift = ops[0].shift
        if const_evaluate_operand(shift) == 0:
            return word
        sr = self.ranges.of(shift)
        if sr.lo >= 0:
            return self.op(cute.ShrU32Op(word, shift))
        if sr.hi <= 0:
            return self.op(cute.ShlU32Op(word, self.negation(shift, wraps=sr.lo <= -(2**31))))
        if word.name_hint is None and not isinstance(word.owner, cute.ConstantOp):
            word.name_hint = "tbl"
        cond = self.op(cute.GeOp(shift, self.const(0)))
        right = self.op(cute.ShrU32Op(word, shift))
        left = self.op(cute.ShlU32Op(word, self.negation(shift, wraps=sr.lo <= -(2**31))))
        return self.op(cute.SelectOp(cond, right, left))


class _RunLowering(_RangeWord, _SpanWord, _SetWord):
    """Builds the keep word of one lowered set, before `at`."""


def _table_shift_ok(ranges: ValueRanges, op: interval.TableOp) -> bool:
    if const_evaluate_operand(op.shift) == 0:
        return True
    return op.shift.type == i32 and ranges.of(op.shift).within(Range(-(2**31), 2**31 - 1))


def lower_intersections(func: mask.FuncOp, ranges: ValueRanges) -> None:
    """Table sets of one shift in an `interval.intersect` become one word:
    their unshifted words are ANDed before the shift (their clips are the
    same lanes)."""
    for op in list(func.body.block.ops):
        if not isinstance(op, interval.IntersectOp):
            continue
        groups: dict[SSAValue, list[interval.TableOp]] = {}
        for s in op.sets:
            t = s.owner
            if isinstance(t, interval.TableOp) and _table_shift_ok(ranges, t):
                groups.setdefault(t.shift, []).append(t)
        if not groups:
            continue
        lowering = _RunLowering(ranges, op)
        sets: list[SSAValue] = []
        done: set[SSAValue] = set()
        for s in op.sets:
            t = s.owner
            if isinstance(t, interval.TableOp) and t.shift in groups:
                if t.shift not in done:
                    done.add(t.shift)
                    sets.append(lowering.op(cute.LanesOp(lowering.shifted_table_word(groups[t.shift]))))
                continue
            sets.append(s)
        new = interval.IntersectOp(sets)
        new.result.name_hint = op.result.name_hint
        Rewriter.replace_op(op, new)


def _lowerable(op: Operation, ranges: ValueRanges) -> bool:
    if isinstance(op, interval.RangeOp):
        return op.lo.type == i32
    if isinstance(op, interval.TableOp):
        return _table_shift_ok(ranges, op)
    if isinstance(op, interval.SpanOp):
        return True
    return isinstance(op, interval.PeriodicOp) and op.phase.type in (i32, IntegerType(64))


def _narrowable(ranges: ValueRanges, v: SSAValue) -> bool:
    """Whether the i64 `v` is an extended i32 value, or a non-wrapping sum
    or difference of two, whose range fits i32 (what `narrow_i32` takes)."""
    r = ranges.of(v)
    if r.lo < -INT32_MAX - 1 or r.hi > INT32_MAX:
        return False
    o = v.owner
    if isinstance(o, arith.ExtSIOp):
        return o.input.type == i32
    return (
        isinstance(o, (arith.AddiOp, arith.SubiOp))
        and not ranges.may_wrap(o)
        and all(isinstance(x.owner, arith.ExtSIOp) and x.owner.input.type == i32 for x in o.operands)
    )


def fold_start_offset(ranges: ValueRanges, lo: SSAValue) -> SSAValue | None:
    """
    fold-intervals' lower bound `trunc(clamp(a - b, k1, k2)) + k` (an i64
    difference, a strict window `q - kv < w` has k1 = -1, k = 1) as the equal
    `trunc(clamp(a - (b - k), k1 + k, k2 + k))`, built before `lo`, where
    the i32 narrowing a - clamp(b, a - k2, a - k1) does not fit (a - k1
    leaves i32: q - kv + 1) but the folded one does (a - (k1 + k) and
    a - (k2 + k) stay in i32). `b - k` is exact in i64;
    `narrow_clamped_difference` then saturates it to i32, which changes no
    value because the clamp's bounds are in i32. Per KV block this is the
    non-strict window's start: FA4 +170 against +211 for `offset_max_start`
    (harness +15 against +23), the suffix alone +140 against +182
    (`python -m maskopt.tools.calibrate_fa4 --only strict_window/bmsk-narrowed
    strict_window/shl-offset-max strict_suffix/shl-narrowed
    strict_suffix/shl-offset-max`). None for other bounds.
    """
    o = lo.owner
    if not isinstance(o, arith.AddiOp) or ranges.may_wrap(o) or (tk := const_operand(o)) is None:
        return None
    t, k = tk
    if k == 0 or not isinstance(t.owner, arith.TruncIOp):
        return None
    parts = truncated_clamped_difference(ranges, t.owner)
    if parts is None:
        return None
    d, k1, k2 = parts
    a, b = d.lhs, d.rhs
    ar, br = ranges.of(a), ranges.of(b)

    def fits(lo_k: int, hi_k: int) -> bool:
        return ar.lo - hi_k >= -INT32_MAX - 1 and ar.hi - lo_k <= INT32_MAX

    if fits(k1, k2) or not fits(k1 + k, k2 + k) or not _narrowable(ranges, a):
        return None
    if br.lo - k < -(2**63) or br.hi - k >= 2**63 or abs(k1 + k) > INT32_MAX or abs(k2 + k) > INT32_MAX:
        return None
    build = ExpressionBuilder(ranges, o)

    def const64(c: int) -> SSAValue:
        return build.op(arith.ConstantOp.from_int_and_width(c, 64))

    bk = build.op(arith.SubiOp(b, const64(k)))
    d2 = build.op(arith.SubiOp(a, bk))
    clamped = build.op(arith.MinSIOp(build.op(arith.MaxSIOp(d2, const64(k1 + k))), const64(k2 + k)))
    return build.op(arith.TruncIOp(clamped, i32), lo.name_hint)


def fold_start_offsets(func: mask.FuncOp, ranges: ValueRanges) -> None:
    """Every `interval.range` lower bound that `fold_start_offset` rewrites,
    replaced by its folded form (the same value) wherever it is used."""
    for op in list(func.body.block.ops):
        if isinstance(op, interval.RangeOp) and (folded := fold_start_offset(ranges, op.lo)) is not None:
            op.lo.replace_all_uses_with(folded)


_BAND_PREDICATES = {"sle": (None, 0), "slt": (None, -1), "sge": (0, None), "sgt": (1, None), "eq": (0, 0)}


def index_band(func: mask.FuncOp, cond: SSAValue) -> tuple[SSAValue, int, int] | None:
    """`(x, lo, hi)` where the lane-uniform `cond` holds only for x in
    [lo, hi]: `cond` an `arith.cmpi` of an index argument x other than
    kv_idx (b, h or q_idx) against a constant (`sle`, `slt`, `sge`, `sgt`,
    `eq`, the constant on the right), or an `arith.andi` of such bands of
    the same x."""
    o = cond.owner
    if isinstance(o, arith.AndIOp):
        a, b = index_band(func, o.lhs), index_band(func, o.rhs)
        if a is None or b is None or a[0] is not b[0]:
            return a or b
        return a[0], max(a[1], b[1]), min(a[2], b[2])
    if not isinstance(o, arith.CmpiOp):
        return None
    pred = arith.CMPI_COMPARISON_OPERATIONS[o.predicate.value.data]
    c = const_evaluate_operand(o.rhs)
    x = o.lhs
    if c is None or pred not in _BAND_PREDICATES or x not in func.index_args[:3] or x.type != i32:
        return None
    lo_k, hi_k = _BAND_PREDICATES[pred]
    lo = -INT32_MAX - 1 if lo_k is None else c + lo_k
    hi = INT32_MAX if hi_k is None else c + hi_k
    return x, lo, hi


def _substituted(v: SSAValue, at: Operation, mapper: dict[SSAValue, SSAValue]) -> SSAValue:
    """`v` computed with the values that `mapper` maps replaced: the ops
    between them cloned before `at` (`Operation.clone`'s value mapper, which
    gains each clone's results), the others shared."""
    if v in mapper:
        return mapper[v]
    o = v.owner
    # every operand first (a list, not a short-circuit), so the mapper has them all
    if isinstance(o, Operation) and any([_substituted(a, at, mapper) is not a for a in o.operands]):
        Rewriter.insert_op(o.clone(value_mapper=mapper), InsertPoint.before(at))
        return mapper[v]
    mapper[v] = v
    return v


def refine_selected_spans(func: mask.FuncOp, ranges: ValueRanges) -> None:
    """
    An `interval.span` that only an `interval.select` on a band of b, h or
    q_idx keeps (`index_band`; lane-affine's split of a comparison at an int32
    wrap point) is computed from that index clamped to the band: the same
    lanes wherever the select keeps them (elsewhere the select discards
    them), and where the clamp keeps the span's start a = sign * u + k in
    i32, which it did not, the start is computed in i32 instead of Int64 in
    every KV block (`wrapped_conjunction_10`'s single-lane band: FA4's kernel
    +118 against +171 in a hand-written form; test/sass-results.md).
    """
    for sel in list(func.body.block.ops):
        if not isinstance(sel, interval.SelectOp) or not isinstance(span := sel.true_set.owner, interval.SpanOp):
            continue
        if span.result.uses.get_length() != 1 or (band := index_band(func, sel.cond)) is None:
            continue
        x, lo, hi = band
        xr = ranges.of(x)
        lo, hi = max(lo, xr.lo), min(hi, xr.hi)
        if lo > hi or (lo, hi) == (xr.lo, xr.hi):
            continue
        refined = ValueRanges(func)
        refined.ranges[x] = Range(lo, hi)

        def start_fits(r: ValueRanges) -> bool:
            ur = r.of(span.u)
            alo, ahi = span.starts(ur.lo, ur.hi)
            return alo >= -INT32_MAX - 1 and ahi <= INT32_MAX

        if start_fits(ranges) or not start_fits(refined):
            continue
        build = ExpressionBuilder(ranges, span)
        xc = x
        if lo > xr.lo:
            xc = build.op(arith.MaxSIOp(xc, build.op(arith.ConstantOp.from_int_and_width(lo, 32))))
        if hi < xr.hi:
            xc = build.op(arith.MinSIOp(xc, build.op(arith.ConstantOp.from_int_and_width(hi, 32))))
        u = _substituted(span.u, span, {x: xc})
        new = interval.SpanOp(u, span.sign_value, span.k_value, span.width_value)
        Rewriter.replace_op(span, new)


def lower_runs(func: mask.FuncOp) -> None:
    """Rewrite every i32 `interval.range`, every `interval.span`, every `interval.periodic` and every
    `interval.table` (of an i32 shift) of `func` into `cute.lanes` of its
    word; table sets of one shift in an intersection share one word."""
    ranges = ValueRanges(func)
    fold_start_offsets(func, ranges)
    refine_selected_spans(func, ranges)
    runs = [op for op in func.body.block.ops if _lowerable(op, ranges)]
    lower_intersections(func, ranges)
    for op in runs:
        if op.results[0].uses.get_length() == 0:
            Rewriter.erase_op(op)  # a table grouped into its intersection
            continue
        lowering = _RunLowering(ranges, op)
        if isinstance(op, interval.RangeOp):
            word = lowering.word(op)
        elif isinstance(op, interval.PeriodicOp):
            word = lowering.periodic_word(op)
        elif isinstance(op, interval.SpanOp):
            word = lowering.span_word(op)
        else:
            word = lowering.shifted_table_word([op])
        lanes = cute.LanesOp(word)
        # named like the set it replaces (the printer binds a run's word)
        lanes.result.name_hint = op.results[0].name_hint or "v"
        Rewriter.replace_op(op, lanes)


def lower_to_cute(func: mask.FuncOp) -> None:
    """`interval-to-cute` on one function: the word forms (`lower_runs`),
    then the expression forms (`lower_expressions`), then the pure ops that
    nothing uses any more erased."""
    lower_runs(func)
    lower_expressions(func)
    region_dce(func.body)


@dataclass(frozen=True)
class IntervalToCutePass(ModulePass):
    """Choose the CuTe word form of every lane run (see module doc), then
    erase the pure ops that no word uses any more (a run's bounds, the
    amount's `32 - a`)."""

    name = "interval-to-cute"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for func in op.walk():
            if isinstance(func, mask.FuncOp):
                lower_to_cute(func)
