"""Canonicalization patterns of the `interval` dialect (folding of constant sets)."""

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import interval
from maskopt.dialects.interval import LANES


def _is_full(v: SSAValue) -> bool:
    return isinstance(v.owner, interval.FullOp)


def _is_empty(v: SSAValue) -> bool:
    return isinstance(v.owner, interval.EmptyOp)


class RangeConstantFold(RewritePattern):
    """A range whose clipped bounds are constants and empty or full becomes `empty`/`full`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.RangeOp, rewriter: PatternRewriter, /):
        lo = const_evaluate_operand(op.lo)
        hi = const_evaluate_operand(op.hi)
        if hi is not None and hi <= 0 or lo is not None and lo >= LANES:
            rewriter.replace(op, interval.EmptyOp())
        elif lo is not None and hi is not None:
            if max(lo, 0) >= min(hi, LANES):
                rewriter.replace(op, interval.EmptyOp())
            elif lo <= 0 and hi >= LANES:
                rewriter.replace(op, interval.FullOp())
        elif op.lo == op.hi:
            rewriter.replace(op, interval.EmptyOp())


class PeriodicConstantFold(RewritePattern):
    """A periodic set keeping no residue is `empty`, one keeping all is `full`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.PeriodicOp, rewriter: PatternRewriter, /):
        p, m = op.period_value, op.residues_value
        if m == 0:
            rewriter.replace(op, interval.EmptyOp())
        elif m == (1 << p) - 1:
            rewriter.replace(op, interval.FullOp())


class TableConstantFold(RewritePattern):
    """A table set whose constant threshold keeps no entry is `empty`; one
    keeping every entry, with shift 0, is `full`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.TableOp, rewriter: PatternRewriter, /):
        t = const_evaluate_operand(op.t)
        if t is None:
            return
        word = op.word(t)
        if word == 0:
            rewriter.replace(op, interval.EmptyOp())
        elif word == (1 << LANES) - 1 and const_evaluate_operand(op.shift) == 0:
            rewriter.replace(op, interval.FullOp())


class UnionIdentities(RewritePattern):
    """Drop `empty` and duplicate operands of a union; `full` absorbs; one operand folds."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.UnionOp, rewriter: PatternRewriter, /):
        if any(_is_full(s) for s in op.sets):
            rewriter.replace(op, interval.FullOp())
            return
        kept = list(dict.fromkeys(s for s in op.sets if not _is_empty(s)))
        if not kept:
            rewriter.replace(op, interval.EmptyOp())
        elif len(kept) == 1:
            rewriter.replace(op, (), (kept[0],))
        elif len(kept) != len(op.sets):
            rewriter.replace(op, interval.UnionOp(kept))


class UnionFlatten(RewritePattern):
    """A union of a single-use union is one union."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.UnionOp, rewriter: PatternRewriter, /):
        flat: list[SSAValue] = []
        changed = False
        for s in op.sets:
            if isinstance(s.owner, interval.UnionOp) and s.uses.get_length() == 1:
                flat.extend(s.owner.sets)
                changed = True
            else:
                flat.append(s)
        if changed:
            rewriter.replace(op, interval.UnionOp(flat))


def _same_bound(a: SSAValue, b: SSAValue, clip: int) -> bool:
    """Whether two bounds are the same value, or constants that both clip to `clip`."""
    if a == b:
        return True
    ca, cb = const_evaluate_operand(a), const_evaluate_operand(b)
    if ca is None or cb is None:
        return False
    return (ca <= clip and cb <= clip) if clip == 0 else (ca >= clip and cb >= clip)


class UnionMergeRanges(RewritePattern):
    """
    Ranges of a union that share a lower bound merge into one: [lo, a) | [lo, b)
    is [lo, max(a, b)); likewise [a, hi) | [b, hi) is [min(a, b), hi). (Bounds
    clip monotonically, so max/min commute with the clipping.) Prefixes such
    as causal-or-prefix-LM thus cost one keep mask.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.UnionOp, rewriter: PatternRewriter, /):
        ranges = [s for s in op.sets if isinstance(s.owner, interval.RangeOp)]
        for i, a in enumerate(ranges):
            for b in ranges[i + 1 :]:
                ra, rb = a.owner, b.owner
                assert isinstance(ra, interval.RangeOp) and isinstance(rb, interval.RangeOp)
                if ra.lo.type != rb.lo.type:
                    continue
                if _same_bound(ra.lo, rb.lo, 0):
                    m = arith.MaxSIOp(ra.hi, rb.hi)
                    new = interval.RangeOp(ra.lo, m.result)
                elif _same_bound(ra.hi, rb.hi, LANES):
                    m = arith.MinSIOp(ra.lo, rb.lo)
                    new = interval.RangeOp(m.result, ra.hi)
                else:
                    continue
                rest = [s for s in op.sets if s != a and s != b]
                rewriter.insert([m, new], InsertPoint.before(op))
                if rest:
                    rewriter.replace(op, interval.UnionOp([new.result, *rest]))
                else:
                    rewriter.replace(op, (), (new.result,))
                return


class IntersectIdentities(RewritePattern):
    """Drop `full` and duplicate operands of an intersection; `empty` absorbs."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.IntersectOp, rewriter: PatternRewriter, /):
        if any(_is_empty(s) for s in op.sets):
            rewriter.replace(op, interval.EmptyOp())
            return
        kept = list(dict.fromkeys(s for s in op.sets if not _is_full(s)))
        if not kept:
            rewriter.replace(op, interval.FullOp())
        elif len(kept) == 1:
            rewriter.replace(op, (), (kept[0],))
        elif len(kept) != len(op.sets):
            rewriter.replace(op, interval.IntersectOp(kept))


class ComplementConstant(RewritePattern):
    """`complement full` -> empty, `complement empty` -> full, double complement cancels."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.ComplementOp, rewriter: PatternRewriter, /):
        if _is_full(op.set):
            rewriter.replace(op, interval.EmptyOp())
        elif _is_empty(op.set):
            rewriter.replace(op, interval.FullOp())
        elif isinstance(inner := op.set.owner, interval.ComplementOp):
            rewriter.replace(op, (), (inner.set,))


class SelectFold(RewritePattern):
    """A select on a constant condition, or between equal sets, is one of its operands."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.SelectOp, rewriter: PatternRewriter, /):
        if op.true_set == op.false_set:
            rewriter.replace(op, (), (op.true_set,))
            return
        c = const_evaluate_operand(op.cond)
        if c is not None:
            rewriter.replace(op, (), (op.true_set if c else op.false_set,))


class KeepWordConstant(RewritePattern):
    """The keep word of `full` is all ones, of `empty` zero."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: interval.KeepWordOp, rewriter: PatternRewriter, /):
        if _is_full(op.set):
            rewriter.replace(op, arith.ConstantOp.from_int_and_width(-1, 32))
        elif _is_empty(op.set):
            rewriter.replace(op, arith.ConstantOp.from_int_and_width(0, 32))


ALL_PATTERNS = (
    RangeConstantFold(),
    PeriodicConstantFold(),
    TableConstantFold(),
    UnionIdentities(),
    UnionFlatten(),
    UnionMergeRanges(),
    IntersectIdentities(),
    ComplementConstant(),
    SelectFold(),
    KeepWordConstant(),
)
