"""
The plans of a lane bound: how `lower-interval-bounds` computes an
`interval.bound` (`clip(sign * u + k, 0, 32)`) in i32 arithmetic that
cannot overflow, and the cost model that picks one.

A plan is a `(cost, emit)` pair; `BoundPlanner.plans` lists those of one
bound and `BoundPlanner.lower` emits the cheapest (the first listed on equal
cost). The forms: the value as it is; `u` clamped on one or both sides
(`clamped_plans`); the linear form of `u` re-associated with some atoms
clamped (`affine_plan`); for an upper bound, `32 - a` with `a` the shift
amount `32 - bound` computed as a lower bound (`amount_plans`). Costs count
clamps (i64 ops twice) and, through `side_cost`, the clamp the CuTe target
adds to a bound that may be negative. Each plan's value equals
`sign * u + k` wherever that lies in [0, 32] and is on the same side of
[0, 32] elsewhere: the same bound once clipped.

`fold-intervals` asks `plans` whether a bound can be computed at all (a
function whose bound has no plan does not pack); the choice is made when
the bound is lowered, from the IR: u, sign, k, side and value ranges.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations, product

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import mask
from maskopt.passes.analysis import LANES, LinearForms, Range, type_range


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


@dataclass
class BoundPlanner:
    """
    The plans of the lane bounds of one `mask.func` (see module doc), over
    its linear forms and value ranges. Ops are emitted before `at`.
    """

    func: mask.FuncOp
    forms: LinearForms
    at: Operation | None = None

    def _insert(self, op: Operation) -> SSAValue:
        assert self.at is not None, "BoundPlanner: no emission point"
        Rewriter.insert_op(op, InsertPoint.before(self.at))
        return op.results[0]

    def const(self, c: int, t: IntegerType = i32) -> SSAValue:
        return self._insert(arith.ConstantOp.from_int_and_width(c, t))

    def plans(self, u: SSAValue, sign: int, k: int, side: str) -> list:
        """
        The plans of the bound `clip(sign * u + k, 0, 32)` used on `side`
        ("lo", "hi" or "both"), in the order that breaks cost ties; empty
        when no form computes it without overflow (say an i64 u whose
        constant leaves i32 and whose range is too wide to clamp into i32).
        The bound must not be a constant (its exact range meets [0, 32]).
        """
        plans = self.clamped_plans(u, sign, k, side)
        affine = self.affine_plan(u, sign, k, side, _least(plans))
        if affine is not None:
            plans.append(affine)
        if side == "hi":
            # An upper bound as `32 - A`, A = 32 - bound clamped at 0: the
            # CuTe target shifts by A directly (`kv + 31 - q` for causal
            # needs no overflow clamp where `q - kv + 1` does). On equal
            # cost the amount wins for a bound over index arguments only,
            # kv and another (`q - kv + c`): FA4's kernel counts causal
            # +37 as a shift by its amount, +65 as a bmsk of its width
            # (`python -m maskopt.tools.calibrate_fa4`), the bmsk a stated
            # domain that makes `q - kv + 1` exact would otherwise pick.
            # (Over an aux value or a wrapped sum the bmsk is cheaper
            # there: padding +87 against +136, bottom-right causal +43
            # against +101, prefix LM's `128 - kv` +65 against +117.)
            form = self.forms.of(u)
            first = (
                form is not None
                and len(form.terms) > 1
                and all(a in self.func.index_args for a, _ in form.terms)
            )
            beat = _least(plans)
            if first and beat is not None:
                beat += 1
            amounts = [
                (cost, lambda emit_a=emit_a: self.from_amount(emit_a()))
                for cost, emit_a in self.amount_plans(u, sign, k, beat)
            ]
            plans = amounts + plans if first else plans + amounts
        return plans

    def lower(self, u: SSAValue, sign: int, k: int, side: str) -> SSAValue:
        """The cheapest plan of the bound, emitted before `at` (a constant
        where the bound is one on the whole domain)."""
        exact = self.forms.ranges.of(u).scale(sign) + Range.exact(k)
        if exact.hi <= 0 or exact.lo >= LANES:
            return self.const(0 if exact.hi <= 0 else LANES)
        plans = self.plans(u, sign, k, side)
        if not plans:
            raise ValueError(f"no plan computes the bound {sign} * u + {k} without overflow")
        # Stable: on equal cost the plans listed first win.
        _, emit = min(plans, key=lambda p: p[0])
        return emit()

    def amount_plans(self, u: SSAValue, sign: int, k: int, beat: int | None = None):
        """Plans for the shift amount 32 - (sign * u + k), as a lower bound
        (with `beat`, no affine plan that cannot cost less than `beat`)."""
        plans = self.clamped_plans(u, -sign, LANES - k, "lo")
        least = min((c for c in (beat, _least(plans)) if c is not None), default=None)
        affine = self.affine_plan(u, -sign, LANES - k, "lo", least)
        return plans + ([affine] if affine is not None else [])

    def amount_of(self, hi: SSAValue) -> SSAValue | None:
        """`a` for an upper bound `32 - a` with `a >= 0` (see `from_amount`),
        `hi` being a value this planner emitted (`lower`): its plans that
        are shift amounts, and the others of that form (`32 - x` with x >= 0)."""
        op = hi.owner
        if (
            isinstance(op, arith.SubiOp)
            and const_evaluate_operand(op.lhs) == LANES
            and self.forms.ranges.of(op.rhs).lo >= 0
        ):
            return op.rhs
        return None

    def from_amount(self, a: SSAValue) -> SSAValue:
        """`32 - max(a, 0)`: an upper bound from its shift amount `a`."""
        if self.forms.ranges.of(a).lo < 0:
            a = self._insert(arith.MaxSIOp(a, self.const(0)))
        return self._insert(arith.SubiOp(self.const(LANES), a))

    @staticmethod
    def side_cost(side: str, r: Range) -> int:
        """
        Clamps the CuTe target adds to use a bound of range `r` on `side`:
        it clamps a bound that may be negative (PTX `bmsk.clamp` and the
        shifts clip values >= 32 themselves, as unsigned amounts).
        """
        return (r.lo < 0) * (2 if side == "both" else 1)

    def clamped_plans(self, u: SSAValue, sign: int, k: int, side: str):
        """`sign * u + k` with `u` clamped first on no, one or both sides."""
        r = self.forms.ranges.of(u)
        i32r = type_range(i32)
        k_fits = Range.exact(k).within(i32r)
        wide = 2 if u.type != i32 else 1
        # Outside [lo, hi] the bound is clipped to 0 or 32 anyway.
        lo, hi = sorted(((0 - k) * sign, (LANES - k) * sign))
        plans = []
        for need_lo, need_hi in ((False, False), (True, False), (False, True), (True, True)):
            if (need_lo and r.lo >= lo) or (need_hi and r.hi <= hi):
                continue
            x = Range(max(r.lo, lo) if need_lo else r.lo, min(r.hi, hi) if need_hi else r.hi)
            if k_fits:
                result = x.scale(sign) + Range.exact(k)
                if not x.within(i32r) or not result.within(i32r):
                    continue
            elif not (need_lo or r.lo >= lo) or not (need_hi or r.hi <= hi):
                continue  # the i64 sum below needs x within 32 of -sign * k
            elif sign == -1 and u.type != i32 and not (r.scale(-1) + Range.exact(k)).within(type_range(u.type)):
                continue  # `wide_negated_bound` subtracts before it clamps
            else:
                result = x.scale(sign) + Range.exact(k)
            cost = wide * (need_lo + need_hi + (u.type != i32)) + self.side_cost(side, result)

            def emit(need_lo=need_lo, need_hi=need_hi):
                if not k_fits and sign == -1 and u.type != i32:
                    return self.wide_negated_bound(u, k, need_lo, need_hi)
                x = u
                if need_lo:
                    x = self._insert(arith.MaxSIOp(x, self.const(lo, u.type)))
                if need_hi:
                    x = self._insert(arith.MinSIOp(x, self.const(hi, u.type)))
                if not k_fits:
                    # x is in [x_lo, x_lo + 32] with x_lo = max(lo, r.lo): x - x_lo
                    # is in [0, 32] (computed in u's type, no overflow), and
                    # sign * u + k = sign * (x - x_lo) + c0 with c0 in [0, 32]
                    # (sign -1 here only for an i32 u, whose k is in
                    # (2^31 - 1, 2^31 + 32]: `k - u` clamped before it subtracts).
                    x_lo = max(lo, r.lo)
                    if x_lo != 0:
                        x = self._insert(arith.SubiOp(x, self.const(x_lo, u.type)))
                    if u.type != i32:
                        x = self._insert(arith.TruncIOp(x, i32))
                    c0 = sign * x_lo + k
                    if sign == -1:
                        return self._insert(arith.SubiOp(self.const(c0), x))
                    return x if c0 == 0 else self._insert(arith.AddiOp(x, self.const(c0)))
                if u.type != i32:
                    x = self._insert(arith.TruncIOp(x, i32))
                if sign == 1:
                    return x if k == 0 else self._insert(arith.AddiOp(x, self.const(k)))
                return self._insert(arith.SubiOp(self.const(k), x))

            plans.append((cost, emit))
        return plans

    def wide_negated_bound(self, u: SSAValue, k: int, need_lo: bool, need_hi: bool) -> SSAValue:
        """
        `k - u` for a `k` beyond i32 (a wrap point's bound, `2^32 - d`),
        clipped to [0, 32]: `u` clamped to [k - 32, k] by `need_lo` /
        `need_hi` is `k - u` clamped to [0, 32] (as `min` / `max`).

        The subtraction is done in u's type *before* the clamps and the
        truncation. Clamped first (`32 - trunc(clamp(u) - (k - 32))`), the i32
        value is `trunc(k) - trunc(clamp(u))`, which LLVM folds to a bare
        negation when k is a multiple of 2^32; ptxas then fuses that negation
        into a chained min/max and drops it (PTXAS_NEGATION; fuzz seed 91
        mask 1744 on an H200). A truncation of an i64 min/max is not narrowed.
        Unclamped (u's range lies in the window), the difference is exact in
        i32: `trunc(k) - trunc(u)`, whose bare negation (if trunc(k) is 0) is
        an explicit `0 - x` the CuTe target prints without one.
        """
        assert isinstance(u.type, IntegerType) and u.type != i32
        if not (need_lo or need_hi):
            kk = (k + 2**31) % 2**32 - 2**31
            return self._insert(arith.SubiOp(self.const(kk), self._insert(arith.TruncIOp(u, i32))))
        y = self._insert(arith.SubiOp(self.const(k, u.type), u))
        if need_hi:  # u <= k
            y = self._insert(arith.MaxSIOp(y, self.const(0, u.type)))
        if need_lo:  # u >= k - 32
            y = self._insert(arith.MinSIOp(y, self.const(LANES, u.type)))
        return self._insert(arith.TruncIOp(y, i32))

    def affine_plan(self, u: SSAValue, sign: int, k: int, side: str, beat: int | None = None):
        """
        `sign * u + k` from the linear form of `u`, summed in an order whose
        partial sums fit i32, with the fewest atom clamps: an atom beyond the
        values for which the bound can still lie in [0, 32] is clamped to that
        limit, which keeps the bound on the same side.

        With `beat` (the cost of a plan listed before this one, which wins a
        tie), None without searching when no affine plan can cost less: every
        plan costs at least 1 (a clamp) or, with no clamp at all, the side
        cost of the unclamped sum.
        """
        form = self.forms.of(u)
        if form is None or not form.terms or len(form.terms) > 3:
            return None
        if form.terms == ((u, 1),):
            return None  # the clamped forms cover it
        ranges = self.forms.ranges
        terms = [(a, sign * c) for a, c in form.terms]
        const = sign * form.const + k
        if not all(isinstance(a.type, IntegerType) and a.type.width.data in (32, 64) for a, _ in terms):
            return None
        atom_ranges = [ranges.of(a) for a, _ in terms]
        if beat is not None:
            total = Range.exact(const)
            for (_, d), r in zip(terms, atom_ranges):
                total = total + r.scale(d)
            if min(self.side_cost(side, total), 1) >= beat:
                return None
        # Window of each atom: below/above it the atom alone puts the bound
        # below 0 / above 32 whatever the other atoms are, so clamping it to
        # the window leaves the clipped bound unchanged.
        windows = []
        for j, (_, d) in enumerate(terms):
            rest = Range.exact(const)
            for i, (_, di) in enumerate(terms):
                if i != j:
                    rest = rest + atom_ranges[i].scale(di)
            if d > 0:  # d * a <= -rest.hi keeps T <= 0; d * a >= 32 - rest.lo, T >= 32
                windows.append(((-rest.hi) // d, _ceil_div(LANES - rest.lo, d)))
            else:
                windows.append(((LANES - rest.lo) // d, _ceil_div(-rest.hi, d)))
        best = None
        n = len(terms)
        i32r = type_range(i32)
        # Each atom unclamped or clamped to its window below, above or both:
        # only clamps that change the atom's range and keep it in i32.
        options = []
        for j in range(n):
            ar, (lo_w, hi_w) = atom_ranges[j], windows[j]
            weight = 2 if terms[j][0].type != i32 else 1
            opts = []
            for lo_c, hi_c in ((False, False), (True, False), (False, True), (True, True)):
                if (lo_c and ar.lo >= lo_w) or (hi_c and ar.hi <= hi_w):
                    continue  # a clamp that changes nothing
                nr = Range(max(ar.lo, lo_w) if lo_c else ar.lo, min(ar.hi, hi_w) if hi_c else ar.hi)
                if nr.within(i32r):
                    opts.append(((lo_c, hi_c), nr, (lo_c + hi_c) * weight))
            options.append(opts)
        # (atom 0's options vary fastest: on equal cost the first one listed wins)
        for combo in product(*reversed(options)):
            combo = combo[::-1]
            clamps = [c for c, _, _ in combo]
            rs = [r for _, r, _ in combo]
            cost = sum(w for _, _, w in combo)
            total = Range.exact(const)
            for j in range(n):
                total = total + rs[j].scale(terms[j][1])
            order = self._sum_order(terms, rs, const)
            if order is not None:
                c = cost + self.side_cost(side, total)
                if best is None or c < best[0]:
                    best = (c, clamps, order, (False, False))
            # Or: the sum S of the terms, clamped where S + const would leave
            # i32 (S beyond -const / 32 - const clips the same), then + const.
            # (const and the clamp constants are i32 constants: each must fit)
            fits = const and all(Range.exact(x).within(i32r) for x in (const, -const, LANES - const))
            order = self._sum_order(terms, rs, 0) if fits else None
            if order is None:
                continue
            srange = total - Range.exact(const)
            s_lo, s_hi = -const, LANES - const
            for lo_c, hi_c in ((True, False), (False, True), (True, True)):
                if (lo_c and srange.lo >= s_lo) or (hi_c and srange.hi <= s_hi):
                    continue
                clipped = Range(
                    max(srange.lo, s_lo) if lo_c else srange.lo,
                    min(srange.hi, s_hi) if hi_c else srange.hi,
                ) + Range.exact(const)
                if not clipped.within(type_range(i32)):
                    continue
                c = cost + lo_c + hi_c + self.side_cost(side, clipped)
                if best is None or c < best[0]:
                    best = (c, clamps, order, (lo_c, hi_c))
        if best is None:
            return None
        cost, clamps, order, sum_clamps = best

        def emit():
            values: dict[int, SSAValue] = {}
            for j, (a, _) in enumerate(terms):
                x = a
                lo_w, hi_w = windows[j]
                if clamps[j][0]:
                    x = self._insert(arith.MaxSIOp(x, self.const(lo_w, a.type)))
                if clamps[j][1]:
                    x = self._insert(arith.MinSIOp(x, self.const(hi_w, a.type)))
                if x.type != i32:
                    x = self._insert(arith.TruncIOp(x, i32))
                values[j] = x
            if sum_clamps == (False, False):
                return self._emit_sum(order, terms, values, const)
            x = self._emit_sum(order, terms, values, 0)
            if sum_clamps[0]:
                x = self._insert(arith.MaxSIOp(x, self.const(-const)))
            if sum_clamps[1]:
                x = self._insert(arith.MinSIOp(x, self.const(LANES - const)))
            return self._insert(arith.AddiOp(x, self.const(const)))

        return (cost, emit)

    @staticmethod
    def _sum_order(terms, rs, const) -> list[int] | None:
        """An order of the terms (-1: the constant) whose partial sums fit i32
        (every partial sum, the first term alone included); None also when
        the constant itself is no i32 constant."""
        lo32, hi32 = type_range(i32)
        if not lo32 <= const <= hi32:
            return None
        bounds = {-1: (const, const)}
        bad_first = set()  # a negative first term is `0 - x`: x must fit i32 too
        for t, ((_, d), r) in enumerate(zip(terms, rs)):
            a, b = r.lo * d, r.hi * d
            if min(a, b) < lo32 or max(a, b) > hi32:
                return None
            bounds[t] = (min(a, b), max(a, b))
            if d < 0 and (r.lo < lo32 or r.hi > hi32):
                bad_first.add(t)
        for perm in _sum_orders(tuple(d < 0 for _, d in terms), bool(const)):
            if perm[0] in bad_first:
                continue
            lo = hi = 0
            for t in perm:
                lo, hi = lo + bounds[t][0], hi + bounds[t][1]
                if lo < lo32 or hi > hi32:
                    break
            else:
                return list(perm)
        return None

    def _emit_sum(self, order, terms, values, const) -> SSAValue:
        acc: SSAValue | None = None
        for t in order:
            if t == -1:
                c = self.const(const)
                acc = c if acc is None else self._insert(arith.AddiOp(acc, c))
                continue
            x, d = values[t], terms[t][1]
            if abs(d) != 1:
                x = self._insert(arith.MuliOp(x, self.const(abs(d))))
            if acc is None:
                acc = x if d > 0 else self._insert(arith.SubiOp(self.const(0), x))
            else:
                acc = self._insert((arith.AddiOp if d > 0 else arith.SubiOp)(acc, x))
        assert acc is not None
        return acc


def _least(plans) -> int | None:
    """The lowest cost among `(cost, emit)` plans, None when there are none."""
    return min((cost for cost, _ in plans), default=None)


@cache
def _sum_orders(negative: tuple[bool, ...], has_const: bool) -> list[tuple[int, ...]]:
    """The orders `BoundPlanner._sum_order` tries for terms of these signs (-1:
    the constant): those starting with a positive term or the constant
    first, so that no `0 - x` is emitted where it can be avoided."""
    idx = list(range(len(negative))) + ([-1] if has_const else [])
    return sorted(permutations(idx), key=lambda p: p[0] != -1 and negative[p[0]])

