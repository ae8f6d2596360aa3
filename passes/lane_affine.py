"""
`lane-affine`: split kv_idx into window base + lane and rewrite comparisons
into the canonical lane-affine form.

For every `mask.func` that is not windowed yet:

1. `kv_idx` becomes the base of a 32-lane window: `%lane = mask.lane` and
   every use of kv_idx is replaced by `kv_idx + %lane`; the function gets
   `window`.
2. Every `arith.cmpi` (signed or equality predicate) whose operands depend on
   the lane and have exact linear forms (see `maskopt.passes.analysis`) is
   rewritten as `mask.lane_cmp pred, c * lane + %u + k` where `%u + k` is the
   lane-uniform part (k a constant), `%u` materialized with arith ops that provably do not
   overflow (in i32 when value ranges allow, else in i64; otherwise the
   comparison is left alone).
3. A comparison of a floor division by a positive constant with a lane-
   uniform value, `(A // B) <pred> W`, is the comparison of A with the block
   bounds `W * B` and `W * B + B - 1` (so `q // B == kv // B` becomes the two
   comparisons of a block range).
4. A comparison of a select / min / max of lane-affine values is
   distributed over its arms (`abs(q - kv) <= w` becomes two lane_cmps
   chosen by a third).

Comparisons that cannot be rewritten stay as they are; `fold-intervals`
reports why.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import IntegerType, UnknownLoc, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from maskopt.passes.rewriting import dce as region_dce  # region_dce, fast on mask IR

from maskopt.dialects import mask
from maskopt.passes.analysis import Affine, LinearForms, Range, type_range

#: arith.cmpi predicate number -> lane_cmp predicate name (signed and equality).
CMPI_TO_LANE = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge"}
LANE_TO_CMPI = {v: k for k, v in CMPI_TO_LANE.items()}
#: predicate of `b <pred> a` given `a <pred'> b`.
MIRROR = {"eq": "eq", "ne": "ne", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle"}


def window_function(func: mask.FuncOp) -> SSAValue:
    """Make `func` windowed: kv_idx is the window base, uses see kv_idx + lane."""
    kv = func.index_args[3]
    uses = list(kv.uses)
    lane = mask.LaneOp()
    lane.result.name_hint = "lane"
    kv_lane = arith.AddiOp(kv, lane.result)
    kv_lane.result.name_hint = "kv"
    Rewriter.insert_op([lane, kv_lane], InsertPoint.at_start(func.block))
    for use in uses:
        use.operation.operands[use.index] = kv_lane.result
    func.kv_window = builtin.UnitAttr()
    return lane.result


class Materializer:
    """Emits lane-uniform linear forms as arith ops that cannot overflow."""

    def __init__(self, forms: LinearForms):
        self.forms = forms

    def _fits(self, form: Affine, limit: Range) -> bool:
        r = Range.exact(0)
        for v, c in form.terms:
            term = self.forms.ranges.of(v).scale(c)
            if not term.within(limit) or not self.forms.ranges.of(v).within(limit):
                return False
            r = r + term
            if not r.within(limit):
                return False
        r = r + Range.exact(form.const)
        return r.within(limit) and Range.exact(form.const).within(limit)

    def choose_type(self, form: Affine) -> IntegerType | None:
        for t in (i32, i64):
            if self._fits(form, type_range(t)):
                return t
        return None

    #: A wide atom is clamped to +-CLAMP // |coeff| (see `emit_for_sign`).
    CLAMP = 2**40
    #: ... when the rest of the form provably stays within +-REST.
    REST = 2**38

    def emit_for_sign(self, form: Affine, at: Operation) -> SSAValue | None:
        """
        Insert ops computing a value with the same lane comparisons as `form`.

        `c * L + form <pred> 0` depends on `form` only through its value in
        [-64, 64]: beyond, the comparison is the same for all 32 lanes. So
        when exactly one atom `a` (say an int64 aux load) is too wide to
        compute `form` in i64, `a` is first clamped to +-2^40 / |c|: if `c * a`
        was beyond, `form` stays beyond +-(2^40 - 2^38), on the same side.
        """
        value = self.emit(form, at)
        if value is not None:
            return value
        limit = Range(-self.REST, self.REST)
        wide = [
            (v, c)
            for v, c in form.terms
            if not self.forms.ranges.of(v).scale(c).within(limit)
        ]
        if len(wide) != 1:
            return None
        (a, c), rest = wide[0], form.without(wide[0][0])
        if not self.forms.uniform_range(rest).within(limit):
            return None
        bound = self.CLAMP // abs(c)
        assert isinstance(a.type, IntegerType)
        hi = arith.ConstantOp.from_int_and_width(bound, a.type)
        lo = arith.ConstantOp.from_int_and_width(-bound, a.type)
        clamped = arith.MaxSIOp(arith.MinSIOp(a, hi.result).result, lo.result)
        low_op = clamped.lhs.owner
        assert isinstance(low_op, Operation)
        Rewriter.insert_op([hi, lo, low_op, clamped], InsertPoint.before(at))
        self.forms.ranges.ranges[clamped.result] = Range(-bound, bound)
        return self.emit(rest + Affine(((clamped.result, c),)), at)

    def emit(self, form: Affine, at: Operation) -> SSAValue | None:
        """Insert ops computing `form` before `at`; None if it may overflow i64."""
        t = self.choose_type(form)
        if t is None:
            return None
        ops: list[Operation] = []

        def const(c: int) -> SSAValue:
            op = arith.ConstantOp.from_int_and_width(c, t)
            ops.append(op)
            return op.result

        def cast(v: SSAValue) -> SSAValue:
            if v.type == t:
                return v
            assert isinstance(v.type, IntegerType)
            op = (
                arith.ExtSIOp(v, t)
                if v.type.width.data < t.width.data
                else arith.TruncIOp(v, t)
            )
            ops.append(op)
            return op.result

        # Positive terms first, so the running sum starts without a negation.
        terms = sorted(form.terms, key=lambda vc: vc[1] < 0)
        acc: SSAValue | None = None
        for v, c in terms:
            x = cast(v)
            if abs(c) != 1:
                mul = arith.MuliOp(x, const(abs(c)))
                ops.append(mul)
                x = mul.result
            if acc is None:
                if c > 0:
                    acc = x
                    continue
                acc = const(0)
            op = arith.AddiOp(acc, x) if c > 0 else arith.SubiOp(acc, x)
            ops.append(op)
            acc = op.result
        if acc is None:
            acc = const(form.const)
        elif form.const:
            op = arith.AddiOp(acc, const(form.const))
            ops.append(op)
            acc = op.result
        Rewriter.insert_op(ops, InsertPoint.before(at))
        return acc


I64 = type_range(i64)
LANES = 32


def _decided(pred: str, r: Range) -> bool | None:
    """The value of `x <pred> 0` for every x in `r`, or None if it varies."""
    if r.lo == r.hi == 0:
        return pred in ("eq", "sle", "sge")
    match pred:
        case "eq" | "ne":
            if r.lo > 0 or r.hi < 0:
                return pred == "ne"
        case "slt" | "sge":
            if r.hi < 0 or r.lo >= 0:
                return (r.hi < 0) == (pred == "slt")
        case _:  # sle, sgt
            if r.hi <= 0 or r.lo > 0:
                return (r.hi <= 0) == (pred == "sle")
    return None


def _floordiv_by_positive_constant(v: SSAValue) -> tuple[SSAValue, int] | None:
    op = v.owner
    if isinstance(op, arith.FloorDivSIOp):
        d = const_evaluate_operand(op.rhs)
        if d is not None and d > 0:
            return op.lhs, d
    return None


@dataclass
class _Rewriter:
    func: mask.FuncOp
    forms: LinearForms

    def lane_compare(self, pred: str, diff: Affine, at: Operation) -> SSAValue | None:
        """`diff <pred> 0` as a lane_cmp (or a uniform cmpi), inserted before `at`."""
        lane = self.forms.lane
        c = diff.coeff(lane) if lane is not None else 0
        u = diff.without(lane) if lane is not None else diff
        if c != 0:
            # The constant goes into the lane_cmp's offset: the rest is
            # computed, so it often fits i32 where rest + constant would not.
            offset, u = u.const, Affine(u.terms, 0)
            if not Range.exact(offset).within(I64):
                # The offset attribute is an i64: beyond it, the comparison
                # is either decided on the whole domain or the constant
                # must be computed with u (Materializer refuses an overflow).
                lanes = Range(0, LANES - 1).scale(c)
                decided = _decided(pred, self.forms.uniform_range(u) + lanes + Range.exact(offset))
                if decided is not None:
                    true = arith.ConstantOp.from_int_and_width(-1 if decided else 0, 1)
                    Rewriter.insert_op(true, InsertPoint.before(at))
                    return true.result
                offset, u = 0, u + Affine((), offset)
        value = Materializer(self.forms).emit_for_sign(u, at)
        if value is None:
            return None
        if c == 0:
            assert isinstance(value.type, IntegerType)
            zero = arith.ConstantOp.from_int_and_width(0, value.type)
            cmp = arith.CmpiOp(value, zero.result, LANE_TO_CMPI[pred])
            Rewriter.insert_op([zero, cmp], InsertPoint.before(at))
            return cmp.result
        cmp = mask.LaneCmpOp(pred, c, value, offset)
        Rewriter.insert_op(cmp, InsertPoint.before(at))
        return cmp.result

    def affine_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        lhs, rhs = self.forms.of(op.lhs), self.forms.of(op.rhs)
        if lhs is None or rhs is None:
            return None
        return self.lane_compare(pred, lhs - rhs, op)

    def floordiv_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        a, w = op.lhs, op.rhs
        if a not in self.forms.dependent or _floordiv_by_positive_constant(a) is None:
            a, w, pred = w, a, MIRROR[pred]
        fd = _floordiv_by_positive_constant(a)
        if fd is None or w in self.forms.dependent:
            return None
        numerator, d = fd
        x, wf = self.forms.of(numerator), self.forms.of(w)
        if x is None or wf is None:
            return None
        low = x - wf.scale(d)  # A - W*B: A // B >= W  <=>  low >= 0
        high = low - Affine((), d - 1)  # A // B <= W  <=>  high <= 0
        parts: list[tuple[str, Affine]]
        combine: type[arith.AndIOp] | type[arith.OrIOp] | None = None
        match pred:
            case "eq":
                parts, combine = [("sge", low), ("sle", high)], arith.AndIOp
            case "ne":
                parts, combine = [("slt", low), ("sgt", high)], arith.OrIOp
            case "slt":
                parts = [("slt", low)]
            case "sle":
                parts = [("sle", high)]
            case "sgt":
                parts = [("sgt", high)]
            case _:
                parts = [("sge", low)]
        values = []
        for p, form in parts:
            v = self.lane_compare(p, form, op)
            if v is None:
                return None
            values.append(v)
        if combine is None:
            return values[0]
        both = combine(values[0], values[1])
        Rewriter.insert_op(both, InsertPoint.before(op))
        return both.result

    def select_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        """
        Distribute a comparison over a piecewise-affine operand:
        `select(c, A, B) <pred> W` is `(c & A <pred> W) | (!c & B <pred> W)`,
        and `min(A, B)` / `max(A, B)` are selects on `A < B` (so `abs` and
        clamps of lane-affine values fold).
        """
        for side, other, p in ((op.lhs, op.rhs, pred), (op.rhs, op.lhs, MIRROR[pred])):
            sel = side.owner
            w = self.forms.of(other)
            if w is None:
                continue
            if isinstance(sel, arith.SelectOp):
                a, b = self.forms.of(sel.lhs), self.forms.of(sel.rhs)
                cond: SSAValue | None = sel.cond
            elif isinstance(sel, (arith.MinSIOp, arith.MaxSIOp)):
                a, b = self.forms.of(sel.lhs), self.forms.of(sel.rhs)
                cond = None
            else:
                continue
            if a is None or b is None:
                continue
            if cond is None:  # min: A if A < B else B; max: A if A > B else B
                cond = self.lane_compare(
                    "slt" if isinstance(sel, arith.MinSIOp) else "sgt", a - b, op
                )
                if cond is None:
                    continue
            first = self.lane_compare(p, a - w, op)
            second = self.lane_compare(p, b - w, op)
            if first is None or second is None:
                continue
            true = arith.ConstantOp.from_int_and_width(-1, 1)
            not_cond = arith.XOrIOp(cond, true.result)
            yes = arith.AndIOp(cond, first)
            no = arith.AndIOp(not_cond.result, second)
            either = arith.OrIOp(yes.result, no.result)
            Rewriter.insert_op([true, not_cond, yes, no, either], InsertPoint.before(op))
            return either.result
        return None

    def run(self) -> None:
        for op in list(self.func.block.ops):
            if not isinstance(op, arith.CmpiOp):
                continue
            pred = CMPI_TO_LANE.get(op.predicate.value.data)
            if pred is None or not (
                op.lhs in self.forms.dependent or op.rhs in self.forms.dependent
            ):
                continue
            new = self.affine_compare(op, pred)
            if new is None:
                new = self.floordiv_compare(op, pred)
            if new is None:
                new = self.select_compare(op, pred)
            if new is not None:
                if op.result.name_hint and new.name_hint is None:
                    new.name_hint = op.result.name_hint
                if isinstance(new.owner, Operation) and isinstance(new.owner.location, UnknownLoc):
                    new.owner.location = op.location  # remarks point at the comparison
                Rewriter.replace_op(op, [], [new])


@dataclass(frozen=True)
class LaneAffinePass(ModulePass):
    """
    Window every mask.func (kv_idx = base + lane) and rewrite lane-affine
    comparisons into `mask.lane_cmp`.
    """

    name = "lane-affine"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for func in op.walk():
            if not isinstance(func, mask.FuncOp) or func.is_windowed:
                continue
            window_function(func)
            _Rewriter(func, LinearForms.build(func)).run()
            region_dce(func.body)
