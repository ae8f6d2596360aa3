"""
`fold-intervals{max-intervals=8}`: turn the i1 keep value of a windowed
`mask.func` into a lane set and yield its 32-bit keep word.

The keep value is folded into a union of runs, each run the intersection of
lower bounds (lo <= L), upper bounds (L < hi) and lane-uniform conditions:

- `mask.lane_cmp` (c * L + u + k <pred> 0) with c = +-1 gives one bound (two for `eq`;
  `ne` gives two runs), with bounds computed so that no i32 op can overflow
  (an operand whose range is too wide is clamped first, which leaves the
  clipped bound unchanged);
- a lane-uniform i1 keeps all lanes or none;
- `andi` intersects, `ori` unites, `xori %x, true` complements (De Morgan),
  `select` on a lane-uniform condition chooses.

Anything else (a comparison the `lane-affine` pass could not rewrite, a lane
coefficient other than +-1, more runs than `max-intervals`) leaves the
function as it is, with the reason in its `unpacked` property.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import IntegerType, StringAttr, i1, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.transforms.dead_code_elimination import region_dce

from maskopt.dialects import interval, mask
from maskopt.passes.analysis import (
    LANES,
    WIDENABLE_OPS,
    LinearForms,
    Range,
    describe,
    type_range,
)
from maskopt.passes.remarks import Reason, emit_remark, remark_for


class NotFoldable(Exception):
    """The keep value is not a small union of lane runs; the message says why,
    `at` is the value it is about and `suggestion` what would pack."""

    def __init__(
        self, message: str, at: SSAValue | None = None, suggestion: str | None = None
    ):
        super().__init__(message)
        self.reason = Reason(message, at, suggestion)

    def __str__(self) -> str:
        return str(self.reason)


@dataclass(frozen=True)
class Run:
    """Lanes L with max(los) <= L < min(his) where every (cond, polarity) holds."""

    los: tuple[SSAValue, ...] = ()
    his: tuple[SSAValue, ...] = ()
    conds: tuple[tuple[SSAValue, bool], ...] = ()

    def __and__(self, other: Run) -> Run:
        return Run(
            tuple(dict.fromkeys(self.los + other.los)),
            tuple(dict.fromkeys(self.his + other.his)),
            tuple(dict.fromkeys(self.conds + other.conds)),
        )

    def contradictory(self) -> bool:
        conds = dict()
        for c, pol in self.conds:
            if conds.setdefault(c, pol) != pol:
                return True
        return False


@dataclass(frozen=True)
class Described:
    """A value in messages: `str()` describes it in the user's terms, on
    demand (`describe` may read the user's source)."""

    value: SSAValue

    def __str__(self) -> str:
        return describe(self.value)


#: A lane set as a union of runs. [] is empty, [Run()] is all lanes.
Runs = list[Run]


@dataclass
class _Folder:
    func: mask.FuncOp
    max_intervals: int
    at: Operation
    forms: LinearForms = field(init=False)
    memo: dict[SSAValue, Runs] = field(default_factory=dict)
    bounds: dict[tuple[SSAValue, int, int], SSAValue] = field(default_factory=dict)
    true: SSAValue | None = None

    def __post_init__(self):
        self.forms = LinearForms.build(self.func)

    # Emission helpers ---------------------------------------------------

    def _insert(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.at))
        return op.results[0]

    def const(self, c: int, t: IntegerType = i32) -> SSAValue:
        return self._insert(arith.ConstantOp.from_int_and_width(c, t))

    def bound(self, u: SSAValue, sign: int, k: int) -> SSAValue:
        """An i32 value equal to `sign * u + k` wherever that lies in [0, 32]."""
        key = (u, sign, k)
        if key in self.bounds:
            return self.bounds[key]
        ranges = self.forms.ranges
        r = ranges.of(u)
        exact = r.scale(sign) + Range.exact(k)
        assert isinstance(u.type, IntegerType)
        if exact.hi <= 0 or exact.lo >= LANES:
            v = self.const(0 if exact.hi <= 0 else LANES)
            self.bounds[key] = v
            return v
        k_fits = Range.exact(k).within(type_range(i32))
        if u.type == i32 and exact.within(type_range(i32)) and k_fits:
            x = u
        else:
            # Clamp u to the values for which sign * u + k lies in [0, 32]:
            # outside them the bound is clipped to 0 or 32 anyway.
            lo, hi = sorted(((0 - k) * sign, (LANES - k) * sign))
            x = u
            if r.lo < lo:
                x = self._insert(arith.MaxSIOp(x, self.const(lo, u.type)))
            if r.hi > hi:
                x = self._insert(arith.MinSIOp(x, self.const(hi, u.type)))
            lo, hi = max(lo, r.lo), min(hi, r.hi)
            if not (k_fits and Range(lo, hi).within(type_range(i32))):
                # x - lo is in [0, 32] (computed in u's type, no overflow);
                # sign * u + k = sign * (x - lo) + c0 with c0 in [0, 32].
                if lo != 0:
                    x = self._insert(arith.SubiOp(x, self.const(lo, u.type)))
                if u.type != i32:
                    x = self._insert(arith.TruncIOp(x, i32))
                c0 = sign * lo + k
                if sign == 1:
                    v = x if c0 == 0 else self._insert(arith.AddiOp(x, self.const(c0)))
                else:
                    v = self._insert(arith.SubiOp(self.const(c0), x))
                self.bounds[key] = v
                return v
            if u.type != i32:
                x = self._insert(arith.TruncIOp(x, i32))
        if sign == 1:
            v = x if k == 0 else self._insert(arith.AddiOp(x, self.const(k)))
        else:
            v = self._insert(arith.SubiOp(self.const(k), x))
        self.bounds[key] = v
        return v

    # Folding --------------------------------------------------------------

    def too_many(self, n: int, what: Described | SSAValue | str) -> NotFoldable:
        if isinstance(what, SSAValue):
            what = Described(what)
        return NotFoldable(
            f"{n} ranges exceed max-intervals={self.max_intervals} at {what}",
            what.value if isinstance(what, Described) else None,
            f"raise max-intervals (pack-mask{{max-intervals=N}}, compile_mask(..., "
            f"max_intervals=N)): this point alone needs {n}",
        )

    def check_size(self, runs: Runs, what: Described | str) -> Runs:
        runs = [r for r in runs if not r.contradictory()]
        runs = list(dict.fromkeys(runs))
        if len(runs) > self.max_intervals:
            raise self.too_many(len(runs), what)
        return runs

    def intersect(self, a: Runs, b: Runs, what: Described | str) -> Runs:
        if len(a) * len(b) > self.max_intervals and not (len(a) <= 1 or len(b) <= 1):
            raise self.too_many(len(a) * len(b), what)
        return self.check_size([x & y for x, y in product(a, b)], what)

    def complement(self, runs: Runs, what: Described | str) -> Runs:
        out: Runs = [Run()]
        for run in runs:
            parts: Runs = [Run(his=(lo,)) for lo in run.los]
            parts += [Run(los=(hi,)) for hi in run.his]
            parts += [Run(conds=((c, not pol),)) for c, pol in run.conds]
            out = self.intersect(out, parts, what)
        return out

    def lane_cmp(self, op: mask.LaneCmpOp) -> Runs:
        c, u, pred, k = op.coeff_value, op.u, op.predicate.data, op.offset_value
        if c not in (1, -1):
            raise NotFoldable(
                f"{describe(op.result)} has lane coefficient {c} (kv_idx is scaled by "
                f"{abs(c)}): only comparisons of kv_idx with coefficient +-1 fold to ranges",
                op.result,
            )
        # With c = 1 the lanes kept are those of L <pred> -u; with c = -1, of
        # u <pred> L. `first` is the first lane of the boundary, `after` the
        # lane past it.
        if c == 1:  # L <pred> -(u + k)
            first, after = self.bound(u, -1, -k), self.bound(u, -1, 1 - k)
            below, above = {"slt": first, "sle": after}, {"sgt": after, "sge": first}
        else:  # u + k <pred> L
            first, after = self.bound(u, 1, k), self.bound(u, 1, k + 1)
            below, above = {"sgt": first, "sge": after}, {"slt": after, "sle": first}
        if pred in below:
            return [Run(his=(below[pred],))]
        if pred in above:
            return [Run(los=(above[pred],))]
        if pred == "eq":
            return [Run(los=(first,), his=(after,))]
        return self.check_size([Run(his=(first,)), Run(los=(after,))], Described(op.result))

    def fold(self, value: SSAValue) -> Runs:
        if value in self.memo:
            return self.memo[value]
        runs = self._fold(value)
        self.memo[value] = runs
        return runs

    def _fold(self, value: SSAValue) -> Runs:
        c = const_evaluate_operand(value)
        if c is not None:
            return [Run()] if c else []
        if value not in self.forms.dependent:
            return [Run(conds=((value, True),))]
        op = value.owner
        what = Described(value)
        match op:
            case mask.LaneCmpOp():
                return self.lane_cmp(op)
            case arith.AndIOp():
                return self.intersect(self.fold(op.lhs), self.fold(op.rhs), what)
            case arith.OrIOp():
                return self.check_size(self.fold(op.lhs) + self.fold(op.rhs), what)
            case arith.XOrIOp():
                for x, y in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if const_evaluate_operand(y) not in (None, 0):
                        return self.complement(self.fold(x), what)
                a, b = self.fold(op.lhs), self.fold(op.rhs)
                not_a, not_b = self.complement(a, what), self.complement(b, what)
                return self.check_size(
                    self.intersect(a, not_b, what) + self.intersect(not_a, b, what),
                    what,
                )
            case arith.SelectOp() if op.cond not in self.forms.dependent:
                yes = self.intersect([Run(conds=((op.cond, True),))], self.fold(op.lhs), what)
                no = self.intersect([Run(conds=((op.cond, False),))], self.fold(op.rhs), what)
                return self.check_size(yes + no, what)
            case arith.CmpiOp():
                for operand in (op.lhs, op.rhs):
                    if operand in self.forms.dependent and self.forms.of(operand) is None:
                        r = self.forms.explain(operand)
                        raise NotFoldable(r.message, r.at, r.suggestion)  # type: ignore[arg-type]
                raise NotFoldable(
                    f"{describe(value)} compares lane-dependent values in a way lane-affine "
                    "could not rewrite (unsigned predicate or a bound that may "
                    "overflow i64)",
                    value,
                )
            case mask.LoadOp():
                r = self.forms.explain(value)
                raise NotFoldable(r.message, r.at, r.suggestion)  # type: ignore[arg-type]
            case _:
                name = op.name if isinstance(op, Operation) else "a block argument"
                raise NotFoldable(
                    f"{describe(value)} ({name}) is not a foldable lane predicate", value
                )

    # Emission of the set ------------------------------------------------

    def cond_value(self, conds: tuple[tuple[SSAValue, bool], ...]) -> SSAValue:
        acc: SSAValue | None = None
        for c, pol in conds:
            if not pol:
                if self.true is None:
                    self.true = self.const(-1, i1)
                c = self._insert(arith.XOrIOp(c, self.true))
            acc = c if acc is None else self._insert(arith.AndIOp(acc, c))
        assert acc is not None
        return acc

    def emit_run(self, run: Run) -> SSAValue:
        if not run.los and not run.his:
            s = self._insert(interval.FullOp())
        else:
            lo = run.los[0] if run.los else self.const(0)
            for x in run.los[1:]:
                lo = self._insert(arith.MaxSIOp(lo, x))
            hi = run.his[0] if run.his else self.const(LANES)
            for x in run.his[1:]:
                hi = self._insert(arith.MinSIOp(hi, x))
            s = self._insert(interval.RangeOp(lo, hi))
        if run.conds:
            empty = self._insert(interval.EmptyOp())
            s = self._insert(interval.SelectOp(self.cond_value(run.conds), s, empty))
        return s

    def emit(self, runs: Runs) -> SSAValue:
        if not runs:
            s = self._insert(interval.EmptyOp())
        else:
            sets = [self.emit_run(r) for r in runs]
            s = sets[0] if len(sets) == 1 else self._insert(interval.UnionOp(sets))
        word = self._insert(interval.KeepWordOp(s))
        word.name_hint = "keep"
        return word


def fold_function(func: mask.FuncOp, max_intervals: int) -> str | None:
    """Fold `func` in place; return the reason when it does not pack (and
    emit a remark locating it in the user's source, see `passes.remarks`)."""
    reason = _fold_function(func, max_intervals)
    if reason is None:
        return None
    emit_remark(remark_for(func, reason))
    return str(reason)


def _fold_function(func: mask.FuncOp, max_intervals: int) -> Reason | None:
    if not func.is_windowed:
        return Reason("the function is not windowed: run lane-affine first", func)
    if func.is_packed:
        return None
    yield_op = func.yield_op
    folder = _Folder(func, max_intervals, yield_op)
    try:
        runs = folder.fold(yield_op.value)
    except NotFoldable as e:
        region_dce(func.body)
        return e.reason
    word = folder.emit(runs)
    reason = legalize_overflow(func, word)
    if reason is not None:
        region_dce(func.body)
        return reason
    Rewriter.replace_op(yield_op, mask.YieldOp(word))
    region_dce(func.body)
    return None


_DIVISIONS = (arith.FloorDivSIOp, arith.DivSIOp, arith.RemSIOp, mask.FloorModOp)


def _slice(value: SSAValue) -> list[Operation]:
    """The ops `value` depends on, in block order."""
    seen: set[Operation] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        op = v.owner
        if isinstance(op, Operation) and op not in seen:
            seen.add(op)
            stack.extend(op.operands)
    block = value.owner.parent_block() if isinstance(value.owner, Operation) else None
    assert block is not None
    return [op for op in block.ops if op in seen]


def legalize_overflow(func: mask.FuncOp, word: SSAValue) -> Reason | None:
    """
    Make the computation of `word` free of integer overflow on the domain:
    an i32 op whose exact result may leave i32 (so it wraps, like torch's
    int32) is computed in i64 and truncated, which wraps exactly the same
    way without overflowing. A `<<` that may wrap is kept: it drops the bits
    shifted out, in CuTe as in torch. An i64 op that may wrap, or a division
    whose divisor may be zero, cannot be emitted safely: return the reason.
    """
    ranges = LinearForms.build(func).ranges
    for op in _slice(word):
        if isinstance(op, _DIVISIONS):
            d = ranges.of(op.operands[1])
            if d.lo <= 0 <= d.hi:
                return Reason(
                    f"{describe(op.results[0])} divides by a value that may be zero",
                    op.results[0],
                )
        if not ranges.may_wrap(op) or isinstance(op, arith.ShLIOp):
            continue  # a `<<` drops the bits shifted out (no nsw), like torch
        result = op.results[0]
        if isinstance(op, WIDENABLE_OPS) and result.type == i32:
            lhs = arith.ExtSIOp(op.operands[0], i64)
            rhs = arith.ExtSIOp(op.operands[1], i64)
            wide = type(op)(lhs.result, rhs.result)
            narrow = arith.TruncIOp(wide.result, i32)
            narrow.result.name_hint = result.name_hint
            Rewriter.insert_op([lhs, rhs, wide, narrow], InsertPoint.before(op))
            result.replace_all_uses_with(narrow.result)
            continue
        return Reason(
            f"{describe(result)} may overflow {result.type} on the mask domain, "
            "and no wider type is available",
            result,
        )
    return None


@dataclass(frozen=True)
class FoldIntervalsPass(ModulePass):
    """
    Fold the keep value of every windowed mask.func into interval sets and
    yield the keep word; record why a function does not fold.

    max_intervals: the most lane runs a packed keep word may be built from.
    """

    name = "fold-intervals"

    max_intervals: int = 8

    def __post_init__(self):
        if not isinstance(self.max_intervals, int) or self.max_intervals < 1:
            raise ValueError(f"max-intervals must be at least 1, got {self.max_intervals}")

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for func in op.walk():
            if isinstance(func, mask.FuncOp) and func.unpacked is None:
                reason = fold_function(func, self.max_intervals)
                if reason is not None:
                    func.unpacked = StringAttr(reason)
