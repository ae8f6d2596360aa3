"""
`simplify-intervals`: fold constant and trivial lane sets, deduplicate equal
sets (the `interval` canonicalization patterns plus CSE), and simplify unions
of runs whose bounds are provably ordered:

- a range whose upper bound is provably at or below its lower bound is empty;
- in a union, a range contained in another range is dropped, and two ranges
  that provably touch or overlap (`[a, b) | [c, d)` with a <= c <= b <= d)
  are one range `[a, d)`.

Bounds are compared as `sign * base + k` for constants k: an
`interval.bound %u * sign + k` by its attributes (u itself seen as below),
other values through `arith.addi` / `arith.subi` of a constant that
value-range analysis proves do not wrap; only their clipped values in
[0, 32] matter, and clipping is monotone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import interval, mask
from maskopt.dialects.interval import LANES
from maskopt.passes.canonicalization_patterns.interval import ALL_PATTERNS
from maskopt.passes.rewriting import PatternApplier, cse, dce


class _Bounds:
    """Provable order of lane bounds inside one function."""

    def __init__(self, func: mask.FuncOp | None):
        from maskopt.passes.analysis import ValueRanges

        self.ranges = ValueRanges(func) if func is not None else None

    def offset(self, v: SSAValue) -> tuple[tuple[SSAValue, int] | None, int]:
        """((base, sign), k) with v = sign * base + k before clipping
        (None and the constant for a constant)."""
        op = v.owner
        if isinstance(op, interval.BoundOp):
            base, j = self.offset(op.u)
            if base is None:
                return None, op.sign_value * j + op.k_value
            return (base[0], base[1] * op.sign_value), op.sign_value * j + op.k_value
        return self._offset(v)

    def _offset(self, v: SSAValue) -> tuple[tuple[SSAValue, int] | None, int]:
        c = const_evaluate_operand(v)
        if c is not None:
            return None, c
        op = v.owner
        if (
            isinstance(op, (arith.AddiOp, arith.SubiOp))
            and self.ranges is not None
            and not self.ranges.may_wrap(op)
        ):
            k = const_evaluate_operand(op.rhs)
            if k is not None:
                base, j = self._offset(op.lhs)
                return base, j + (k if isinstance(op, arith.AddiOp) else -k)
        return (v, 1), 0

    def le(self, a: SSAValue, b: SSAValue) -> bool:
        """Whether clip(a) <= clip(b) at every point."""
        if a is b:
            return True
        (ba, ka), (bb, kb) = self.offset(a), self.offset(b)
        if ba is None and ka <= 0 or bb is None and kb >= LANES:
            return True
        return ba == bb and ka <= kb


class _BoundsCache:
    """
    The `_Bounds` (value ranges) of each function, shared by the pattern
    applications of one walk while the IR does not change: `clear()` after
    every rewrite, so each query sees ranges computed on the current IR,
    exactly as a fresh analysis per query would.
    """

    def __init__(self) -> None:
        self._by_func: dict[Operation | None, _Bounds] = {}

    def of(self, op: Operation) -> _Bounds:
        func = op.parent_op()
        while func is not None and not isinstance(func, mask.FuncOp):
            func = func.parent_op()
        bounds = self._by_func.get(func)
        if bounds is None:
            bounds = self._by_func[func] = _Bounds(func)
        return bounds

    def clear(self) -> None:
        self._by_func.clear()


class _BoundsPattern(RewritePattern):
    def __init__(self, cache: _BoundsCache | None = None):
        self.cache = cache

    def bounds(self, op: Operation) -> _Bounds:
        return (self.cache or _BoundsCache()).of(op)


class RangeProvablyEmpty(_BoundsPattern):
    """`interval.range %lo, %hi` with hi <= lo provably is empty."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.RangeOp, rewriter: PatternRewriter, /):
        if self.bounds(op).le(op.hi, op.lo):
            rewriter.replace(op, interval.EmptyOp())


class UnionOfOrderedRanges(_BoundsPattern):
    """In a union, drop ranges contained in another and merge touching ranges."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.UnionOp, rewriter: PatternRewriter, /):
        sets = list(op.sets)
        ranges = [s for s in sets if isinstance(s.owner, interval.RangeOp)]
        if len(ranges) < 2:
            return
        bounds = self.bounds(op)
        for x in ranges:
            for y in ranges:
                if x is y:
                    continue
                rx, ry = x.owner, y.owner
                assert isinstance(rx, interval.RangeOp) and isinstance(ry, interval.RangeOp)
                if bounds.le(ry.lo, rx.lo) and bounds.le(rx.hi, ry.hi):
                    sets.remove(x)  # x is within y
                    rewriter.replace(op, interval.UnionOp(sets))
                    return
                if (
                    rx.lo.type == ry.lo.type
                    and bounds.le(rx.lo, ry.lo)
                    and bounds.le(ry.lo, rx.hi)
                    and bounds.le(rx.hi, ry.hi)
                ):
                    merged = interval.RangeOp(rx.lo, ry.hi)
                    rewriter.insert_op(merged)
                    rest = [s for s in sets if s is not x and s is not y]
                    rewriter.replace(op, interval.UnionOp([merged.result, *rest]))
                    return


@dataclass(frozen=True)
class SimplifyIntervalsPass(ModulePass):
    """Simplify lane-set expressions: constant sets, identities, duplicates,
    empty, contained and touching ranges."""

    name = "simplify-intervals"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        cse(op)
        cache = _BoundsCache()
        PatternRewriteWalker(
            _ClearingApplier(
                [RangeProvablyEmpty(cache), UnionOfOrderedRanges(cache), *ALL_PATTERNS], cache
            ),
            post_walk_func=dce,
        ).rewrite_module(op)
        cse(op)


class _ClearingApplier(PatternApplier):
    """`PatternApplier` that drops the cached value ranges after every rewrite."""

    def __init__(self, patterns, cache: _BoundsCache):
        super().__init__(patterns)
        self.cache = cache

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        super().match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            self.cache.clear()
