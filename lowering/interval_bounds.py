"""
`lower-interval-bounds`: expand every `interval.bound` (the lane bound
`clip(sign * u + k, 0, 32)`) into the i32 arith that the CuTe target prints.

Each bound becomes the plan its cost model picks from the IR: `u`'s value
range and linear form, `sign`, `k` and the op's `side` (see
`maskopt.passes.bound_plans`): the value as it is, `u` clamped on one or
both sides, the linear form of `u` re-associated with atoms clamped, or, for
an upper bound, `32 - a` with the shift amount `a` computed as a lower bound.
The ops are emitted where the bound was, so the function reads as if the
plan had been written there.

A plan's value agrees with the bound only after clipping to [0, 32], which
is all that a run's bounds and their min / max depend on. The upper bound of
a run made of several bounds, `min(h1, h2, ...)` (a chain of `arith.minsi`
over `interval.bound`s), whose plans are all `32 - a_i` (a_i >= 0), is
`32 - max(a1, a2, ...)`: one shift amount.

First, a range whose two bounds are of one `u` and one sign and k apart by
W <= 32 (the lanes [a, a + W) for a = sign * u + k: a diagonal `q_idx ==
kv_idx`, a band of nine diagonals) becomes `interval.span %u * sign + k
width W`, which the CuTe target puts in place with one bmsk or shift instead
of computing both bounds (`q_idx == kv_idx`: harness 15 -> 12 SASS
instructions, FA4 +79 -> +48).

Run by `pack-mask` after `simplify-intervals`; the CuTe printer lowers a
module that still has bounds the same way before printing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from maskopt.dialects import interval, mask
from maskopt.dialects.interval import LANES
from maskopt.passes.analysis import LinearForms
from maskopt.passes.bound_plans import BoundPlanner
from maskopt.passes.rewriting import dce


def _min_chain(hi: SSAValue) -> tuple[list[Operation], list[SSAValue]] | None:
    """The `arith.minsi` ops and the bounds of `min(h1, h2, ...)`, a left
    chain `minsi(minsi(h1, h2), h3)` of `interval.bound`s; None otherwise."""
    ops: list[Operation] = []
    leaves: list[SSAValue] = []
    v = hi
    while isinstance(v.owner, arith.MinSIOp):
        ops.append(v.owner)
        leaves.append(v.owner.rhs)
        v = v.owner.lhs
    leaves.append(v)
    if not ops or not all(isinstance(x.owner, interval.BoundOp) for x in leaves):
        return None
    return ops[::-1], leaves[::-1]


def span_of(op: interval.RangeOp) -> interval.SpanOp | None:
    """The `interval.span` of a range [clip(a), clip(a + W)) whose bounds are
    `u * sign + k` and `u * sign + (k + W)` (one u, one sign, 1 <= W <= 32),
    which keeps the same lanes; None for any other range."""
    lo, hi = op.lo.owner, op.hi.owner
    if not (isinstance(lo, interval.BoundOp) and isinstance(hi, interval.BoundOp)):
        return None
    width = hi.k_value - lo.k_value
    if lo.u is not hi.u or lo.sign_value != hi.sign_value or not 1 <= width <= LANES:
        return None
    return interval.SpanOp(lo.u, lo.sign_value, lo.k_value, width)


def lower_spans(func: mask.FuncOp) -> None:
    """Every range of `func` that `span_of` reads as a fixed-width run becomes
    that `interval.span` (bounds that nothing else uses are erased)."""
    for op in list(func.body.block.ops):
        if isinstance(op, interval.RangeOp) and (span := span_of(op)) is not None:
            span.result.name_hint = op.result.name_hint
            bounds = {op.lo.owner, op.hi.owner}
            Rewriter.replace_op(op, span)
            for b in bounds:
                if b.results[0].uses.get_length() == 0:
                    Rewriter.erase_op(b)


def lower_function(func: mask.FuncOp) -> None:
    """Lower the `interval.bound`s of `func` in place (see module doc)."""
    block = func.body.block
    lower_spans(func)
    bounds = [op for op in block.ops if isinstance(op, interval.BoundOp)]
    if not bounds:
        return
    # The min chains of upper bounds, found while their leaves are still bounds.
    chains = []
    for op in block.ops:
        if isinstance(op, interval.RangeOp) and (chain := _min_chain(op.hi)) is not None:
            chains.append(chain)
    planner = BoundPlanner(func, LinearForms.build(func))
    lowered: dict[SSAValue, SSAValue] = {}
    for op in bounds:
        planner.at = op
        v = planner.lower(op.u, op.sign_value, op.k_value, op.side_value)
        lowered[op.result] = v
        op.result.replace_all_uses_with(v)
        Rewriter.erase_op(op)
    done: set[Operation] = set()
    for ops, leaves in chains:
        root = ops[-1]
        if root in done or root.parent is None:
            continue
        done.add(root)
        amounts = [planner.amount_of(lowered[x]) for x in leaves]
        if any(a is None for a in amounts):
            continue
        # min(32 - a, 32 - b) = 32 - max(a, b): one shift amount, for the
        # ranges (a longer chain that starts with this one keeps its min).
        planner.at = root
        a = amounts[0]
        for x in amounts[1:]:
            a = planner._insert(arith.MaxSIOp(a, x))
        hi = planner._insert(arith.SubiOp(planner.const(LANES), a))
        for use in list(root.results[0].uses):
            if isinstance(use.operation, interval.RangeOp):
                use.operation.operands[use.index] = hi
    dce(func.body)


@dataclass(frozen=True)
class LowerIntervalBoundsPass(ModulePass):
    """Expand every `interval.bound` into the arith of its cheapest plan."""

    name = "lower-interval-bounds"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for func in op.walk():
            if isinstance(func, mask.FuncOp):
                lower_function(func)
