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
   A comparison one of whose operands wraps (an i32 `q - kv + 768`, exact
   linear form E wrapped to w bits, `LinearForms.modular`) is, where the
   ranges allow only k in {-1, 0, 1}, the OR over k of `E + k * 2^w` in
   [-2^(w-1), 2^(w-1)) and `E + k * 2^w <pred> R`: a lane_cmp each, lane
   coefficient +-1 only (`wrapped_compare`). The lane_cmps that bound the
   lanes where E wraps carry the discardable attribute `mask.wrap`, which
   fold-intervals' remarks use to name the wrap as the cause of extra runs.
3. A comparison of a floor division by a lane-uniform divisor with a lane-
   uniform value, `(A // D) <pred> W`, is the comparison of A with the block
   bounds: `W * D` and `W * D + D - 1` for D > 0, `W * D + D + 1` and `W * D`
   for D < 0 (so `q // B == kv // B` becomes the two comparisons of a block
   range, for a constant B of either sign, an aux load, `h + 1`); W * D is
   exact (i64 for a non-constant D), and a divisor of unknown sign uses
   min(D + 1, 0) and max(D - 1, 0) as the block's offsets (see
   `floordiv_compare`).
4. A comparison of a select / min / max of lane-affine values is
   distributed over its arms (`abs(q - kv) <= w` becomes two lane_cmps
   chosen by a third).
5. Lane case splitting (index-set splitting over the 32 lanes): a comparison
   whose operands are piecewise lane-affine is split into pieces, each a
   lane-affine comparison guarded by the lanes of its piece:
   - a lane-dependent select / min / max anywhere in the operands gives two
     pieces, guarded by its condition and its negation;
   - a division `X // D` / remainder `X % D` (D >= 8 a constant, X = A + c * L
     lane-affine with c = +-1) takes at most 1 + (D + 30) // D values over the
     window. With R = A mod d and Q = A // d (d the smallest divisor of D
     among the divisions of the comparison, at least 8), piece k is the
     lanes where `c * L + R - k * d` is in [0, d); there X // d = Q + k and
     X % d = c * L + R - k * d is lane-affine, and every X // (m * d),
     X % (m * d) of the same X follows. Piece bounds share R, so
     fold-intervals sees that different pieces are disjoint. Where a piece's
     ops load from an aux tensor, Q + k is clamped to the last lane's
     quotient, so that a piece without lanes reads no index the mask does
     not read (`sizes[kv // 64]` must not read one past the end).
   A remainder by a constant P <= 32 compared with a constant is left to
   fold-intervals as a periodic lane set.
6. A comparison `X // D <pred> W` (D >= 32 a constant, W lane-uniform) is
   split into its (at most two) pieces, where it is lane-uniform, instead of
   becoming the block range of step 3 when the pieces pay off: X is split
   by a divisor of D already, or `X // D` also indexes an aux tensor (that
   load only packs split), or it is compared three times or more (VSA's
   `any(topk[q // T] == kv // T)`: K block ranges, but two pieces with
   lane-uniform conditions).

Comparisons that cannot be rewritten stay as they are; `fold-intervals`
reports why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

#: The last lane of a window.
LANES_LAST = 31
#: The smallest divisor split into lane pieces (at most 5 pieces).
MIN_SPLIT_DIVISOR = 8
#: The most pieces one comparison is split into (over nested splits).
MAX_PIECES = 32
#: The most values of k (wraps + 1) one window of a wrapped comparison is
#: split into (`_Rewriter.wrapped_compare`): 8 pieces, lane coefficients up
#: to about 7 * 2^32 / 31 (2^29 packs, 2^30 does not).
MAX_WRAP_BRANCHES = 8
#: The smallest divisor of `X // D <pred> W` split in preference to its block range.
PREFER_SPLIT_DIVISOR = 32
#: `X // D` compared this often is split in preference to block ranges.
PREFER_SPLIT_USES = 3

#: The discardable attribute of a lane_cmp that bounds the lanes where an
#: operand of a comparison wraps (`wrapped_compare`'s branch conditions).
WRAP_ATTR = "mask.wrap"

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

    def emit_for_sign(
        self, form: Affine, at: Operation, offset: int = 0, lane_coeff: int = 0
    ) -> SSAValue | None:
        """
        Insert ops computing a value with the same lane comparisons as `form`
        in `k * L + form + offset <pred> 0` (the lane_cmp's constant `offset`).

        That comparison depends on `form + offset` only near 0 (within
        32 * |k|, and |k| * 32 < 2^38 is required): beyond, it is the same for all 32 lanes. So when exactly
        one atom `a` (say an int64 aux load) is too wide to compute `form` in
        i64, `a` is first clamped to +-(2^40 + |offset|) / |c|: if `c * a` was
        beyond, `form + offset` stays beyond +-(2^40 - 2^38 - |c|), on the same
        side (the rest of the form is within +-2^38).
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
        total = self.CLAMP + abs(offset)
        if total + self.REST >= 2**62 or abs(lane_coeff) * 32 >= self.REST:
            return None  # the clamped form might not fit i64, or the lanes reach it
        bound = total // abs(c)
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


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _wrap_counts(er: Range, w: int) -> range:
    """The k with E + k * 2^w in [-2^(w-1), 2^(w-1)) for some E in `er`."""
    half, period = 2 ** (w - 1), 2**w
    first = _ceil_div(-half - er.hi, period)
    last = (half - 1 - er.lo) // period
    return range(first, last + 1)  # lazy: over the domain it can be ~2^30 values


def window_wraps(c: int, w: int) -> int:
    """The most wraps of wrap_w(W + c * L) over the 32 lanes of a window, W any
    w-bit value (c reduced mod 2^w, see `_Rewriter.wrapped_compare`)."""
    half = 2 ** (w - 1)
    return len(_wrap_counts(Range(-half, half - 1) + Range(0, LANES - 1).scale(c), w)) - 1


def _floordiv_by_positive_constant(v: SSAValue) -> tuple[SSAValue, int] | None:
    op = v.owner
    if isinstance(op, arith.FloorDivSIOp):
        d = const_evaluate_operand(op.rhs)
        if d is not None and d > 0:
            return op.lhs, d
    return None


class _CompareRewrites:
    """The part of `_Rewriter` that rewrites one comparison as it stands: an
    affine difference (`affine_compare`), one whose int32 arithmetic wraps
    (`wrapped_compare`), a floor division by a lane-uniform divisor
    (`floordiv_compare`) and a select of two forms (`select_compare`)."""

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
                    self._insert([true], at)
                    return true.result
                offset, u = 0, u + Affine((), offset)
        value = Materializer(self.forms).emit_for_sign(u, at, offset if c != 0 else 0, c)
        if value is None:
            return None
        if c == 0:
            assert isinstance(value.type, IntegerType)
            zero = arith.ConstantOp.from_int_and_width(0, value.type)
            cmp = arith.CmpiOp(value, zero.result, LANE_TO_CMPI[pred])
            self._insert([zero, cmp], at)
            return cmp.result
        cmp = mask.LaneCmpOp(pred, c, value, offset)
        self._insert([cmp], at)
        return cmp.result

    def affine_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        lhs, rhs = self.forms.of(op.lhs), self.forms.of(op.rhs)
        if lhs is None or rhs is None:
            return self.wrapped_compare(op, pred)
        return self.lane_compare(pred, lhs - rhs, op)

    def wrapped_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        """
        A comparison one of whose operands wraps: that operand is E wrapped to
        w bits (`LinearForms.modular`), E = U + c * L an exact lane-affine
        form (U lane-uniform, c any nonzero constant), and the other operand
        R is exact. At each point E + k * 2^w lies in [-2^(w-1), 2^(w-1)) for
        one k, and the comparison is the OR over the possible k of
        `E + k * 2^w in [-2^(w-1), 2^(w-1)) and E + k * 2^w <pred> R`, each a
        conjunction of lane-affine comparisons (a bound that E's range always
        meets is left out); for |c| >= 2 the canonicalization turns each into
        a +-1 comparison with a floor division by |c| (the wrap lanes
        ceil((2^(w-1) - U') / c) and the comparison's bound).

        The k are those over the whole domain where they are in {-1, 0, 1}
        (`q + 3000 - kv`, `q - 2 * kv`). Otherwise (`kv * 2^20`, whose U
        wraps ~2^19 times over the domain) U is replaced by the lane-uniform
        W = wrap_w(U), computed exactly (in i64) and truncated: E is congruent
        to W + c * L, which spans |c| * 31 from W in [-2^(w-1), 2^(w-1)), so
        the k are the at most floor(31 * |c| / 2^w) + 2 wraps of one window
        (two for |c| * 31 < 2^w: one wrap lane); more than
        MAX_WRAP_BRANCHES and the comparison stays per-lane (fold-intervals
        names the wraps).
        """
        forms = self.forms
        ml, mr = forms.modular(op.lhs), forms.modular(op.rhs)
        if ml is None or mr is None or (ml[1] is None) == (mr[1] is None):
            return None  # nothing wraps, something is not affine, or both wrap
        if ml[1] is None:  # the wrapped operand on the left
            ml, mr, pred = mr, ml, MIRROR[pred]
        (e, w), (r, _) = ml, mr
        lane = forms.lane
        if lane is None:
            return None
        half, period = 2 ** (w - 1), 2**w
        # The lane coefficient modulo 2^w (`kv * 2^31 * 2` is lane-uniform).
        c = (e.coeff(lane) + half) % period - half
        e = e.without(lane) + Affine(((lane, c),))
        if c == 0:
            return None
        lanes = Range(0, LANES - 1).scale(c)

        er = forms.uniform_range(e.without(lane)) + lanes
        ks = _wrap_counts(er, w)
        if not ks or ks[0] < -1 or ks[-1] > 1:
            wrapped = self._wrapped_uniform(e.without(lane), w, op)
            if wrapped is None:
                return None
            e = Affine.atom(wrapped) + Affine(((lane, c),))
            er = forms.ranges.of(wrapped) + lanes
            ks = _wrap_counts(er, w)
            if not ks or len(ks) > MAX_WRAP_BRANCHES:
                return None
        branches: list[SSAValue] = []
        for k in ks:
            shifted = e + Affine((), k * period)
            parts: list[tuple[str, Affine]] = []
            if er.lo + k * period < -half:
                parts.append(("sge", shifted + Affine((), half)))
            if er.hi + k * period > half - 1:
                parts.append(("sle", shifted - Affine((), half - 1)))
            guards = len(parts)
            parts.append((pred, shifted - r))
            conj: SSAValue | None = None
            for i, (p, diff) in enumerate(parts):
                v = self.lane_compare(p, diff, op)
                if v is None:
                    return None  # the ops inserted so far are dead: the pass's DCE erases them
                if i < guards and isinstance(v.owner, mask.LaneCmpOp):
                    # The lanes where the wrapped operand wraps: marked (and
                    # located at the comparison) for fold-intervals' remarks.
                    v.owner.attributes[WRAP_ATTR] = builtin.UnitAttr()
                    v.owner.location = op.location
                if conj is not None:
                    a = arith.AndIOp(conj, v)
                    self._insert([a], op)
                    v = a.result
                conj = v
            assert conj is not None
            branches.append(conj)
        result = branches[0]
        for b in branches[1:]:
            o = arith.OrIOp(result, b)
            self._insert([o], op)
            result = o.result
        return result

    def _wrapped_uniform(self, u: Affine, w: int, at: Operation) -> SSAValue | None:
        """wrap_w(U) as an i<w> value: U computed exactly (Materializer, i32 or
        i64) and truncated to w bits when wider; memoized per form."""
        key = (u.key(), w)
        found = self.wrapped.get(key)
        if found is not None:
            return found
        t = IntegerType(w)
        value = Materializer(self.forms).emit(u, at)
        if value is None:
            return None
        assert isinstance(value.type, IntegerType)
        width = value.type.width.data
        if width != w:
            ops: list[Operation] = []
            value = self._emit_cast(value, t, ops)  # trunci wraps like torch; extsi is exact
            self._insert(ops, at)
            self.forms.ranges.ranges[value] = (
                type_range(t) if width > w else self.forms.uniform_range(u)
            )
        self.wrapped[key] = value
        return value

    def _floordiv_operands(self, v: SSAValue) -> tuple[SSAValue, int | None, SSAValue] | None:
        """
        (A, d, D) of `v = A // D` with D lane-uniform, d its value when it is
        a constant (else None), and the division exact: it cannot wrap (only
        MIN // -1 does) and D is not the constant 0.
        """
        op = v.owner
        if not isinstance(op, arith.FloorDivSIOp) or op.rhs in self.forms.dependent:
            return None
        d = const_evaluate_operand(op.rhs)
        if d == 0 or self.forms.ranges.may_wrap(op):
            return None
        return op.lhs, d, op.rhs

    def _times(self, w: SSAValue, d: SSAValue, at: Operation) -> SSAValue | None:
        """W * D computed exactly in i64 (None if it might wrap)."""
        ops: list[Operation] = []
        wide = [self._emit_cast(x, i64, ops) for x in (w, d)]
        mul = arith.MuliOp(wide[0], wide[1])
        ops.append(mul)
        self._insert(ops, at)
        if self.forms.ranges.may_wrap(mul):
            return None
        return mul.result

    def _divisor_offset(self, d: SSAValue, add: int, keep_min: bool, at: Operation) -> SSAValue:
        """min(D + add, 0) (keep_min) or max(D + add, 0), in i64."""
        ops: list[Operation] = []
        wide = self._emit_cast(d, i64, ops)
        plus = arith.AddiOp(wide, self._const(add, i64, ops))
        ops.append(plus)
        zero = self._const(0, i64, ops)
        op = arith.MinSIOp(plus.result, zero) if keep_min else arith.MaxSIOp(plus.result, zero)
        ops.append(op)
        self._insert(ops, at)
        return op.result

    def floordiv_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        """
        `(A // D) <pred> W`, D and W lane-uniform, as comparisons of A with
        the bounds of the block of A's with quotient W (floor division):
        A // D == W iff A is in [W * D + lo, W * D + hi] with, for D > 0,
        lo = 0 and hi = D - 1, and for D < 0 (A / D decreases in A),
        lo = D + 1 and hi = 0. So for D > 0, A // D >= W iff A >= W * D + lo
        and A // D <= W iff A <= W * D + hi; for D < 0 the two swap. With a
        constant D the bounds are constants of the linear form; with a lane-
        uniform D, W * D is computed exactly in i64 and, when D's sign is not
        known, lo = min(D + 1, 0) and hi = max(D - 1, 0) cover both signs
        for `==` / `!=` (D = 0 gives A == 0: torch raises on a division by
        zero, so any word is right), and an inequality is the OR of its two
        forms guarded by the lane-uniform D > 0 and D < 0.
        """
        a, w = op.lhs, op.rhs
        if a not in self.forms.dependent or self._floordiv_operands(a) is None:
            a, w, pred = w, a, MIRROR[pred]
        if w in self.forms.dependent:
            return None
        fd = self._floordiv_operands(a)
        if fd is None:
            return None
        numerator, d, dv = fd
        x = self.forms.of(numerator)
        if x is None or not isinstance(w.type, IntegerType):
            return None
        if d is not None:
            wf = self.forms.of(w)
            if wf is None:
                return None
            base = x - wf.scale(d)  # A - W*D
            lo, hi = (Affine(), Affine((), d - 1)) if d > 0 else (Affine((), d + 1), Affine())
            return self._block_compare(pred, 1 if d > 0 else -1, base - lo, base - hi, op)
        product = self._times(w, dv, op)
        if product is None:
            return None
        base = x - Affine.atom(product)
        r = self.forms.ranges.of(dv)
        one = Affine((), 1)
        positive = (base, base - Affine.atom(dv) + one)  # lo = 0, hi = D - 1
        negative = (base - Affine.atom(dv) - one, base)  # lo = D + 1, hi = 0
        if r.lo > 0:
            return self._block_compare(pred, 1, *positive, op)
        if r.hi < 0:
            return self._block_compare(pred, -1, *negative, op)
        if pred in ("eq", "ne"):
            lo_v = self._divisor_offset(dv, 1, True, op)
            hi_v = self._divisor_offset(dv, -1, False, op)
            low, high = base - Affine.atom(lo_v), base - Affine.atom(hi_v)
            return self._block_compare(pred, 1, low, high, op)
        branches = []
        for sign, (low, high), cmp in ((1, positive, 4), (-1, negative, 2)):  # sgt, slt
            v = self._block_compare(pred, sign, low, high, op)
            if v is None:
                return None
            ops: list[Operation] = []
            assert isinstance(dv.type, IntegerType)
            guard = arith.CmpiOp(dv, self._const(0, dv.type, ops), cmp)
            both = arith.AndIOp(guard.result, v)
            ops += [guard, both]
            self._insert(ops, op)
            branches.append(both.result)
        either = arith.OrIOp(branches[0], branches[1])
        self._insert([either], op)
        return either.result

    def _block_compare(
        self, pred: str, sign: int, low: Affine, high: Affine, at: Operation
    ) -> SSAValue | None:
        """
        `A // D <pred> W` given low = A - (W * D + lo) and high = A - (W * D +
        hi) (A // D == W iff low >= 0 and high <= 0) and the sign of D: for
        D > 0, A // D >= W iff low >= 0, and A // D <= W iff high <= 0; for
        D < 0, A // D >= W iff high <= 0 and A // D <= W iff low >= 0.
        """
        ge, lt = ("sge", low), ("slt", low)  # A >= W*D + lo, its negation
        le, gt = ("sle", high), ("sgt", high)  # A <= W*D + hi, its negation
        if sign < 0:  # A // D >= W iff A <= W*D + hi
            (ge, lt), (le, gt) = (le, gt), (ge, lt)
        parts: list[tuple[str, Affine]]
        combine: type[arith.AndIOp] | type[arith.OrIOp] | None = None
        match pred:
            case "eq":
                parts, combine = [ge, le], arith.AndIOp
            case "ne":
                parts, combine = [lt, gt], arith.OrIOp
            case "slt":
                parts = [lt]
            case "sle":
                parts = [le]
            case "sgt":
                parts = [gt]
            case _:
                parts = [ge]
        if sign < 0 and combine is not None:
            parts.reverse()  # the lower bound of A first
        values = []
        for p, form in parts:
            v = self.lane_compare(p, form, at)
            if v is None:
                return None
            values.append(v)
        if combine is None:
            return values[0]
        both = combine(values[0], values[1])
        self._insert([both], at)
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
            self._insert([true, not_cond, yes, no, either], op)
            return either.result
        return None


class _LaneSplitting:
    """The part of `_Rewriter` that splits a comparison by lane cases: periodic
    candidates, divisions whose quotient steps inside a 32-column block
    (`division_pieces`, `split_compare`) and comparisons aligned with
    those pieces (`aligned_compare`)."""

    # Lane case splitting --------------------------------------------------

    def periodic_candidate(self, op: arith.CmpiOp) -> bool:
        """`(X mod P) <pred> r`, P <= 32 and r constants: a periodic lane set."""
        for mod, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            m = mod.owner
            if const_evaluate_operand(other) is None or not isinstance(
                m, (mask.FloorModOp, arith.RemSIOp)
            ):
                continue
            p = const_evaluate_operand(m.rhs)
            x = self.forms.of(m.lhs)
            if (
                p is not None
                and 1 <= p <= 32
                and x is not None
                and self.forms.lane is not None
                and x.coeff(self.forms.lane) in (1, -1)
                and (isinstance(m, mask.FloorModOp) or self.forms.ranges.of(m.lhs).lo >= 0)
            ):
                return True
        return False

    def _division(self, o: Operation) -> tuple[Affine, int, bool] | None:
        """(numerator form, divisor, is remainder) of a splittable division."""
        if not isinstance(
            o, (arith.FloorDivSIOp, arith.DivSIOp, mask.FloorModOp, arith.RemSIOp)
        ):
            return None
        d = const_evaluate_operand(o.operands[1])
        x = self.forms.of(o.operands[0])
        lane = self.forms.lane
        if d is None or d <= 0 or x is None or lane is None:
            return None
        if x.coeff(lane) not in (1, -1):
            return None
        truncating = isinstance(o, (arith.DivSIOp, arith.RemSIOp))
        if truncating and self.forms.ranges.of(o.operands[0]).lo < 0:
            return None
        return x, d, isinstance(o, (mask.FloorModOp, arith.RemSIOp))

    def _emit_cast(self, v: SSAValue, t: IntegerType, ops: list[Operation]) -> SSAValue:
        if v.type == t:
            return v
        assert isinstance(v.type, IntegerType)
        o = arith.ExtSIOp(v, t) if v.type.width.data < t.width.data else arith.TruncIOp(v, t)
        ops.append(o)
        return o.result

    def _const(self, c: int, t: IntegerType, ops: list[Operation]) -> SSAValue:
        o = arith.ConstantOp.from_int_and_width(c, t)
        ops.append(o)
        return o.result

    def _residue(self, a: Affine, d: int, at: Operation) -> tuple[SSAValue, SSAValue] | None:
        """(R, Q) = (A mod d, A // d) as lane-uniform values, memoized."""
        key = (a.key(), d)
        if key in self.residues:
            return self.residues[key]
        mat = Materializer(self.forms)
        reduced = a.reduce_mod(d)
        ops: list[Operation] = []
        if (
            len(reduced.terms) == 1
            and reduced.terms[0][1] == 1
            and reduced.const == 0
            and self.forms.ranges.of(reduced.terms[0][0]).within(Range(0, d - 1))
        ):
            r = reduced.terms[0][0]
        else:
            red = mat.emit(reduced, at)
            if red is None:
                return None
            assert isinstance(red.type, IntegerType)
            if d > Range.of_type(red.type).hi:
                return None  # d is not a value of the materialized type
            mod = mask.FloorModOp(red, self._const(d, red.type, ops))
            ops.append(mod)
            r = mod.result
        whole = mat.emit(a, at)
        if whole is None:
            return None
        assert isinstance(whole.type, IntegerType)
        if d > Range.of_type(whole.type).hi:
            return None  # d is not a value of the materialized type
        q = arith.FloorDivSIOp(whole, self._const(d, whole.type, ops))
        ops.append(q)
        self._insert(ops, at)
        self.residues[key] = (r, q.result)
        return self.residues[key]

    def _known_residue(self, op: arith.CmpiOp) -> bool:
        """Whether the first splittable division of `op` has a residue that is
        already a value of [0, d) (a nested split of an earlier piece): its
        pieces then share the earlier pieces' guards."""
        lane = self.forms.lane
        for o in self._cone(op):
            info = self._division(o)
            if info is None or lane is None:
                continue
            x, d, _ = info
            reduced = x.without(lane).reduce_mod(d)
            return (
                d >= MIN_SPLIT_DIVISOR
                and len(reduced.terms) == 1
                and reduced.terms[0][1] == 1
                and reduced.const == 0
                and any(reduced.terms[0][0] is r for r, _ in self.residues.values())
            )
        return False

    def division_pieces(
        self, op: arith.CmpiOp, cone: list[Operation]
    ) -> list[tuple[SSAValue, dict[SSAValue, SSAValue]]] | None:
        divisions = [(o, info) for o in cone if (info := self._division(o)) is not None]
        if not divisions:
            return None
        _, (x, big, _) = divisions[0]
        lane = self.forms.lane
        assert lane is not None
        # Divisors of X and of remainders of X ((X % D) // d', (X % D) % d').
        remainders = {o.results[0] for o, (xo, _, rem) in divisions if rem and xo.key() == x.key()}
        divisors = [
            d
            for o in cone
            if isinstance(o, (arith.FloorDivSIOp, arith.DivSIOp, mask.FloorModOp, arith.RemSIOp))
            and (
                (f := self.forms.of(o.operands[0])) is not None and f.key() == x.key()
                or o.operands[0] in remainders
            )
            and (d := const_evaluate_operand(o.operands[1])) is not None
            and d >= MIN_SPLIT_DIVISOR
            and big % d == 0
        ]
        if not divisors:
            return None
        d = min(divisors)
        c = x.coeff(lane)
        a = x.without(lane)
        rq = self._residue(a, d, op)
        if rq is None:
            return None
        r, q = rq
        assert isinstance(q.type, IntegerType)
        guards = self.piece_guards(r, c, d, op)
        if guards is None:
            return None
        self.splits.setdefault((a.key(), c, d), (a, q, guards))
        # A load in piece k reads at its quotient Q + k, which the mask only
        # reads where the piece has lanes: past the last lane's quotient, it
        # can be one past the end of an aux tensor. Clamped to the last
        # lane's quotient, Q + k is unchanged in every piece with lanes and
        # an index the mask reads in the others.
        last = None
        if any(isinstance(o, mask.LoadOp) for o in cone):
            last = self._last_quotient(a, c, d, q.type, op)
            if last is None:
                return None
        pieces = []
        for k, guard in guards:
            ops: list[Operation] = []
            qk: Operation = arith.AddiOp(q, self._const(k, q.type, ops))
            ops.append(qk)
            if last is not None and k != 0:
                qk = arith.MinSIOp(qk.results[0], last) if c == 1 else arith.MaxSIOp(qk.results[0], last)
                ops.append(qk)
            replace: dict[SSAValue, SSAValue] = {}
            for o, (xo, dd, is_rem) in divisions:
                if xo.key() != x.key() or dd % d:
                    continue
                t = o.results[0].type
                assert isinstance(t, IntegerType)
                m = dd // d
                if m == 1:
                    whole = qk.result
                else:
                    div = arith.FloorDivSIOp(qk.result, self._const(m, q.type, ops))
                    ops.append(div)
                    whole = div.result
                if not is_rem:
                    replace[o.results[0]] = self._emit_cast(whole, t, ops)
                    continue
                # rho = c * L + R - k * d, in t
                lane_t = self._emit_cast(lane, t, ops)
                r_t = self._emit_cast(r, t, ops)
                rho_op = arith.AddiOp(r_t, lane_t) if c == 1 else arith.SubiOp(r_t, lane_t)
                ops.append(rho_op)
                rho = rho_op.result
                if k:
                    sub = arith.SubiOp(rho, self._const(k * d, t, ops))
                    ops.append(sub)
                    rho = sub.result
                if m != 1:
                    wrem = mask.FloorModOp(qk.result, self._const(m, q.type, ops))
                    ops.append(wrem)
                    w = self._emit_cast(wrem.result, t, ops)
                    scaled = arith.MuliOp(w, self._const(d, t, ops))
                    ops.append(scaled)
                    total = arith.AddiOp(scaled.result, rho)
                    ops.append(total)
                    rho = total.result
                replace[o.results[0]] = rho
            self._insert(ops, op)
            pieces.append((guard, replace))
        return pieces

    def _last_quotient(
        self, a: Affine, c: int, d: int, t: IntegerType, at: Operation
    ) -> SSAValue | None:
        """(A + 31 * c) // d, the quotient at the window's last lane, in `t`."""
        last = Materializer(self.forms).emit(a + Affine((), (LANES_LAST) * c), at)
        if last is None:
            return None
        assert isinstance(last.type, IntegerType)
        if d > Range.of_type(last.type).hi:
            return None  # d is not a value of the materialized type
        ops: list[Operation] = []
        div = arith.FloorDivSIOp(last, self._const(d, last.type, ops))
        ops.append(div)
        value = self._emit_cast(div.result, t, ops)
        self._insert(ops, at)
        return value

    def piece_guards(
        self, r: SSAValue, c: int, d: int, at: Operation
    ) -> list[tuple[int, SSAValue]] | None:
        """(k, lanes where c * L + r - k * d is in [0, d)) for the pieces k."""
        lane = self.forms.lane
        assert lane is not None
        ks = range(0, (d + 30) // d + 1) if c == 1 else range(-((31 + d - 1) // d), 1)
        guards = []
        for k in ks:
            lo = self.lane_compare("sge", Affine(((lane, c), (r, 1)), -k * d), at)
            hi = self.lane_compare("slt", Affine(((lane, c), (r, 1)), -(k + 1) * d), at)
            if lo is None or hi is None:
                return None
            guard = arith.AndIOp(lo, hi)
            self._insert([guard], at)
            guards.append((k, guard.result))
        return guards

    def aligned_compare(self, op: arith.CmpiOp, pred: str) -> SSAValue | None:
        """
        `X + e <pred> 0` where X = A + c * L was split by d (see
        `division_pieces`) and the threshold is a multiple of d compares
        X // d, which is lane-uniform in every piece: it becomes the pieces'
        guards with lane-uniform comparisons, so it combines with the other
        pieces of X into few runs. Only done when every split comparison is
        lane-uniform in each of its pieces (otherwise the single run of the
        comparison is the cheaper form).
        """
        lhs, rhs = self.forms.of(op.lhs), self.forms.of(op.rhs)
        lane = self.forms.lane
        if lhs is None or rhs is None or lane is None or not self.splits:
            return None
        diff = lhs - rhs
        for (_, c, d), (a, q, guards) in self.splits.items():
            p = pred
            form = diff
            if form.coeff(lane) == -c:
                form, p = form.scale(-1), MIRROR[pred]
            if form.coeff(lane) != c:
                continue
            e = form - a - Affine(((lane, c),))
            if e.terms:
                continue
            # X + e <p> 0 as X // d <p'> t
            match p:
                case "slt" | "sge" if (-e.const) % d == 0:
                    t, p2 = -e.const // d, p
                case "sle" if (1 - e.const) % d == 0:
                    t, p2 = (1 - e.const) // d, "slt"
                case "sgt" if (1 - e.const) % d == 0:
                    t, p2 = (1 - e.const) // d, "sge"
                case _:
                    continue
            assert isinstance(q.type, IntegerType)
            if not Range.exact(t).within(type_range(q.type)):
                continue
            acc: SSAValue | None = None
            for k, guard in guards:
                ops: list[Operation] = []
                qk = arith.AddiOp(q, self._const(k, q.type, ops))
                ops.append(qk)
                cmp = arith.CmpiOp(qk.result, self._const(t, q.type, ops), LANE_TO_CMPI[p2])
                both = arith.AndIOp(guard, cmp.result)
                ops += [cmp, both]
                if acc is not None:
                    ops.append(either := arith.OrIOp(acc, both.result))
                    self._insert(ops, op)
                    acc = either.result
                else:
                    self._insert(ops, op)
                    acc = both.result
            return acc
        return None

    def select_pieces(
        self, op: arith.CmpiOp, cone: list[Operation]
    ) -> list[tuple[SSAValue, dict[SSAValue, SSAValue]]] | None:
        for o in cone:
            if isinstance(o, arith.SelectOp):
                cond: SSAValue | None = o.cond
            elif isinstance(o, (arith.MinSIOp, arith.MaxSIOp)):
                a, b = self.forms.of(o.lhs), self.forms.of(o.rhs)
                if a is None or b is None:
                    continue
                cond = self.lane_compare(
                    "slt" if isinstance(o, arith.MinSIOp) else "sgt", a - b, op
                )
            else:
                continue
            if cond is None:
                continue
            true = arith.ConstantOp.from_int_and_width(-1, 1)
            not_cond = arith.XOrIOp(cond, true.result)
            self._insert([true, not_cond], op)
            return [
                (cond, {o.results[0]: o.operands[-2]}),
                (not_cond.result, {o.results[0]: o.operands[-1]}),
            ]
        return None

    def split_compare(self, op: arith.CmpiOp, budget: int) -> SSAValue | None:
        """Split `op` into lane pieces (see the module doc), or None."""
        cone = self._cone(op)
        pieces = self.select_pieces(op, cone) or self.division_pieces(op, cone)
        if pieces is None or len(pieces) > budget:
            return None
        budget //= len(pieces)
        values = []
        for guard, replace in pieces:
            # Clone the ops between the replaced values and `op`.
            mapper = dict(replace)
            clones: list[Operation] = []
            for o in cone + [op]:
                if o.results[0] in replace:
                    continue
                if any(x in mapper for x in o.operands):
                    new = o.clone(value_mapper=mapper)
                    clones.append(new)
                    for old_r, new_r in zip(o.results, new.results):
                        mapper[old_r] = new_r
            if not clones or clones[-1].results[0] is not mapper.get(op.result):
                return None
            self._insert(clones, op)
            cmp = clones[-1]
            assert isinstance(cmp, arith.CmpiOp)
            if cmp.result not in self.forms.dependent:
                value: SSAValue | None = cmp.result  # lane-uniform in this piece
            else:
                value = self.rewrite(cmp, budget)
                if value is not None and value not in self.split_values:
                    self.impure = True  # a lane-dependent comparison in a piece
            if value is None:
                return None
            both = arith.AndIOp(guard, value)
            self._insert([both], op)
            values.append(both.result)
        acc = values[0]
        for v in values[1:]:
            either = arith.OrIOp(acc, v)
            self._insert([either], op)
            acc = either.result
        self.split_values.add(acc)
        return acc

    def prefer_split(self, op: arith.CmpiOp) -> bool:
        """Whether `op` is `X // D <pred> W` better split into pieces (step 6)."""
        lane = self.forms.lane
        for a, w in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            fd = _floordiv_by_positive_constant(a)
            if fd is None or lane is None or w in self.forms.dependent:
                continue
            numerator, d = fd
            x = self.forms.of(numerator)
            if d < PREFER_SPLIT_DIVISOR or x is None or x.coeff(lane) not in (1, -1):
                continue
            key, c = x.without(lane).key(), x.coeff(lane)
            if any(k == key and kc == c and d % kd == 0 for k, kc, kd in self.splits):
                return True
            users = [use.operation for use in a.uses]
            if any(isinstance(u, mask.LoadOp) for u in users):
                return True
            if sum(isinstance(u, arith.CmpiOp) for u in users) >= PREFER_SPLIT_USES:
                return True
        return False


@dataclass
class _Rewriter(_CompareRewrites, _LaneSplitting):
    """Rewrites the kv-dependent comparisons of one function as lane-affine
    ones (`run`); its parts are the comparison rewrites and the lane case
    splitting (the bases)."""

    func: mask.FuncOp
    forms: LinearForms
    residues: dict = field(default_factory=dict)
    #: (A, c, d) -> (A // d, [(k, guard of piece k)]) of the divisions split.
    splits: dict = field(default_factory=dict)
    #: results of split_compare; whether some piece holds a lane-dependent
    #: comparison (then aligned comparisons stay single runs).
    split_values: set = field(default_factory=set)
    #: (U's key, w) -> wrap_w(U), for `wrapped_compare`.
    wrapped: dict = field(default_factory=dict)
    impure: bool = False
    #: block positions of ops, for `_cone`: ops are only inserted during the
    #: rewrite, never moved, so the order of the ops numbered stays valid
    _positions: dict = field(default_factory=dict)


    # Insertion and the driver -------------------------------------------

    def _insert(self, ops: list[Operation], at: Operation) -> None:
        """
        Insert `ops` before `at`, keeping lane dependence up to date. Every op
        the rewriter inserts that may depend on the lane goes through here: a
        comparison's replacement (lane_cmps and their and/or) can become the
        condition of a select that a later split clones, and the clone must
        be seen as lane-dependent (else it would be a lane-uniform atom of a
        lane_cmp's operand).
        """
        Rewriter.insert_op(ops, InsertPoint.before(at))
        dependent = self.forms.dependent
        for o in ops:
            if isinstance(o, mask.LaneOp | mask.LaneCmpOp) or any(
                x in dependent for x in o.operands
            ):
                dependent.update(o.results)

    def _cone(self, op: Operation) -> list[Operation]:
        """The lane-dependent ops `op`'s operands are computed by, in block order."""
        seen: set[Operation] = set()
        stack = [v for v in op.operands if v in self.forms.dependent]
        while stack:
            v = stack.pop()
            o = v.owner
            if isinstance(o, Operation) and o not in seen and v is not self.forms.lane:
                seen.add(o)
                stack.extend(x for x in o.operands if x in self.forms.dependent)
        positions = self._positions
        if any(o not in positions for o in seen):  # numbered before an insertion
            positions = self._positions = {o: i for i, o in enumerate(self.func.block.ops)}
        return sorted(seen, key=positions.__getitem__)

    def rewrite(self, op: arith.CmpiOp, budget: int = MAX_PIECES) -> SSAValue | None:
        """A lane-affine equivalent of the comparison `op`, or None."""
        pred = CMPI_TO_LANE.get(op.predicate.value.data)
        if pred is None or not (
            op.lhs in self.forms.dependent or op.rhs in self.forms.dependent
        ):
            return None
        if op.lhs.type == IntegerType(1):
            return None
        if self.periodic_candidate(op):
            return op.result
        new = self.affine_compare(op, pred)
        if new is None and budget > 1 and self._known_residue(op):
            new = self.split_compare(op, budget)
        if new is None and budget > 1 and self.prefer_split(op):
            new = self.split_compare(op, budget)
        if new is None:
            new = self.floordiv_compare(op, pred)
        if new is None:
            new = self.select_compare(op, pred)
        if new is None and budget > 1:
            new = self.split_compare(op, budget)
        return new

    def run(self) -> None:
        cmps = [op for op in self.func.block.ops if isinstance(op, arith.CmpiOp)]
        # Comparisons that need lane splitting first, so that the others can
        # be aligned with their pieces.
        affine = [
            op for op in cmps if self.forms.of(op.lhs) is not None and self.forms.of(op.rhs) is not None
        ]
        affine_set = set(affine)  # ops hash by identity: no quadratic list scans
        for op in [op for op in cmps if op not in affine_set] + affine:
            new = None
            pred = CMPI_TO_LANE.get(op.predicate.value.data)
            if op in affine_set and pred is not None and not self.impure:
                new = self.aligned_compare(op, pred)
            if new is None:
                new = self.rewrite(op)
            if new is not None and new is not op.result:
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
            _sort_topologically(func)
            region_dce(func.body)


def _sort_topologically(func: mask.FuncOp) -> None:
    """
    Reorder the body so that every value is defined before its uses, keeping
    the original order where it already is: an aligned comparison may use the
    piece guards of a split that comes later in the block.
    """
    block = func.block
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    placed: set[Operation] = set()
    order: list[Operation] = []

    def place(op: Operation) -> None:
        stack = [(op, False)]
        while stack:
            o, ready = stack.pop()
            if o in placed:
                continue
            if ready:
                placed.add(o)
                order.append(o)
                continue
            stack.append((o, True))
            deps = [
                x.owner
                for x in o.operands
                if isinstance(x.owner, Operation) and x.owner in position
            ]
            for d in sorted(deps, key=position.__getitem__, reverse=True):
                if d not in placed:
                    stack.append((d, False))

    for op in ops:
        place(op)
    if order == ops:
        return
    for op in ops:
        op.detach()
    for op in order:
        block.add_op(op)
