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
  `select` on a lane-uniform condition chooses, an i1 `select` on a
  lane-dependent condition c is `(c & a) | (~c & b)`, i1 equality is xnor;
- `(X mod P) <pred> r` with X lane-affine (coefficient +-1), P <= 32 and r
  constants is a periodic factor `interval.periodic` (residue mask), which
  intersects and complements like a bound;
- `X <pred> Y` where X - Y is a bitwise function of kv = A + L (`&`, `|`,
  `^`, shifts by constants, power-of-two `//` and `%`, sums of such; see
  `maskopt.passes.lane_bits`) is, in each of the two aligned blocks of 32 KV
  indices the window spans, a threshold set `interval.table` of a constant
  table of the offset in the block: one run per block (`table_cmp`).

Every union and intersection is simplified before `max-intervals` is
checked: provably empty runs are dropped (a lower bound at or past an upper
bound of the same value), subsets absorbed, runs whose bounds provably touch
merged, and runs with the same lanes under different lane-uniform conditions
joined under the disjunction. Each bound is an `interval.bound` (or a
constant): `clip(sign * u + k, 0, 32)`, compared through its key (u, sign, k),
read from the op: monotone in k. How it is computed is left to
`lower-interval-bounds` (`maskopt.passes.bound_plans`).

A keep value that needs more runs than `max-intervals` is folded again by
cases when its lane bounds are built from lane-uniform values that wrap
(`q_idx + 3000 + c` in int32, atoms to the bounds, so that bounds of
different c do not compare): for each interval of their common base
between two wrap points, with the values exact there, its runs guarded by
that interval's condition (`_Folder.fold_wrap_regimes`).

Anything else (a comparison the `lane-affine` pass could not rewrite, a lane
coefficient other than +-1, more runs than `max-intervals`) leaves the
function as it is, with the reason in its `unpacked` property. For too many
runs the reason names comparisons split where a compared value wraps
(lane_cmps marked `mask.wrap` by lane-affine) and the least max-intervals
that packs, checked by packing a copy with it, or says that none up to a
cap does.
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
from maskopt.passes.rewriting import dce as region_dce  # region_dce, fast on mask IR

from maskopt.dialects import interval, mask
from maskopt.passes.bound_plans import BoundPlanner
from maskopt.passes.analysis import (
    Affine,
    LANES,
    WIDENABLE_OPS,
    WRAPPING_ARITH_OPS,
    LinearForms,
    Range,
    ValueRanges,
    describe,
    postorder,
    type_range,
)
from maskopt.passes.lane_bits import UNIFORM, LaneBits
from maskopt.passes.remarks import Reason, emit_remark, remark_for

#: arith.cmpi predicate number -> name, for the signed and equality predicates
CMPI_NAMES = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge"}


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _fits_i64(k: int) -> bool:
    return -(2**63) <= k < 2**63


def bound_key(bound: SSAValue) -> tuple[SSAValue | None, int, int] | None:
    """(u, sign, k) of a lane bound that clips to `clip(sign * u + k, 0, 32)`:
    an `interval.bound`'s operand and attributes, (None, 0, c) for a
    constant c; None for any other value."""
    op = bound.owner
    if isinstance(op, interval.BoundOp):
        return op.u, op.sign_value, op.k_value
    c = const_evaluate_operand(bound)
    return None if c is None else (None, 0, c)


_CMP_FN = {
    0: lambda a, b: a == b,
    1: lambda a, b: a != b,
    2: lambda a, b: a < b,
    3: lambda a, b: a <= b,
    4: lambda a, b: a > b,
    5: lambda a, b: a >= b,
}


def _bool_operands(op: arith.CmpiOp) -> tuple[SSAValue, SSAValue] | None:
    """The i1 values an equality compares: its operands, or the i1 inputs of
    two extensions of the same kind."""
    if op.lhs.type == i1:
        return op.lhs, op.rhs
    a, b = op.lhs.owner, op.rhs.owner
    for kind in (arith.ExtUIOp, arith.ExtSIOp):
        if isinstance(a, kind) and isinstance(b, kind):
            if a.input.type == i1 and b.input.type == i1:
                return a.input, b.input
    return None


class NotFoldable(Exception):
    """The keep value is not a small union of lane runs; the message says why,
    `at` is the value it is about and `suggestion` what would pack."""

    def __init__(
        self,
        message: str,
        at: SSAValue | None = None,
        suggestion: str | None = None,
        runs: int | None = None,
    ):
        super().__init__(message)
        self.reason = Reason(message, at, suggestion)
        #: for "more runs than max-intervals": how many the failing point has
        self.runs = runs

    def __str__(self) -> str:
        return str(self.reason)


#: A periodic factor of a run: lanes L with (L + phase) mod period in residues.
Periodic = tuple[SSAValue, int, int]

#: A table factor of a run (`interval.table`): lanes L with r = L + shift in
#: [0, 32) and table[r] <= t (> t when gt); clip_lo / clip_hi are bound values
#: equal to the first lane / the lane past the last one with r in [0, 32)
#: (None: 0 / 32), so the complement and emission see those lanes as runs.
Tab = tuple[SSAValue, tuple[int, ...], bool, SSAValue, "SSAValue | None", "SSAValue | None"]


@dataclass(frozen=True)
class Run:
    """
    Lanes L with max(los) <= L < min(his) where every (cond, polarity) holds
    and every periodic factor (phase, period, residues) and table factor
    (see `Tab`) keeps L.
    """

    los: tuple[SSAValue, ...] = ()
    his: tuple[SSAValue, ...] = ()
    conds: tuple[tuple[SSAValue, bool], ...] = ()
    pers: tuple[Periodic, ...] = ()
    tabs: tuple[Tab, ...] = ()

    def __and__(self, other: Run) -> Run:
        return Run(
            _merged(self.los, other.los),
            _merged(self.his, other.his),
            _merged(self.conds, other.conds),
            tuple(dict.fromkeys(self.pers + other.pers)),
            tuple(dict.fromkeys(self.tabs + other.tabs)),
        )

    def contradictory(self) -> bool:
        conds = dict()
        for c, pol in self.conds:
            if conds.setdefault(c, pol) != pol:
                return True
        return False


def _merged(a: tuple, b: tuple) -> tuple:
    """
    `tuple(dict.fromkeys(a + b))` for duplicate-free a and b (every Run
    field is), without rehashing all of a when b adds one item: a deep `&`
    chain grows one run item by item, which must not cost a hash per item
    per step.
    """
    if not b:
        return a
    if not a:
        return b
    if len(b) == 1:
        x = b[0]
        # x in a, by identity (SSAValues compare by identity; a cond is a
        # fresh (value, polarity) tuple), at C speed
        found = (
            any(c[0] is x[0] and c[1] == x[1] for c in a)
            if isinstance(x, tuple)
            else id(x) in map(id, a)
        )
        return a if found else a + b
    return tuple(dict.fromkeys(a + b))


#: Runs with at most this many lower (or upper) bounds left after the keyed
#: pruning also compare bounds of different bases (`_Folder.related_le`).
_RELATIONAL_LIMIT = 6


def _prune(items, dominated) -> list:
    """`items` without those `dominated` by (redundant given) another one."""
    kept: list = []
    for x in items:
        if any(dominated(x, y) for y in kept):
            continue
        kept = [y for y in kept if not dominated(y, x)]
        kept.append(x)
    return kept


def _prune_bounds(bounds, key, upper: bool) -> list:
    """
    `_prune(bounds, le)` for lower bounds (`upper=False`: drop x when x <= a
    kept y) or `_prune(bounds, lambda x, y: le(y, x))` for upper bounds, with
    `le` the order of `_Folder.le` on the bounds' keys: the same bounds, in
    the same order, in time linear in their number.

    x <= y when x is y, or both have keys and x is a constant <= 0, or y is a
    constant >= LANES, or their keys share (base, sign) and x's offset is at
    most y's. An upper bound's offset k is mapped to LANES - k, which turns
    the upper-bound relation into the lower-bound one. Kept bounds never
    dominate one another, so at most one kept bound per (base, sign).
    """
    kept: dict[int, SSAValue] = {}  # id -> bound, in `_prune`'s order
    info: dict[int, tuple[tuple, int, bool]] = {}  # id -> (group, offset, constant)
    by_group: dict[tuple, int] = {}
    big: set[int] = set()  # kept constants >= LANES (they dominate every keyed bound)
    nonpos: set[int] = set()  # kept constants <= 0 (dominated by every keyed bound)
    for x in bounds:
        if id(x) in kept:
            continue  # x is a kept bound
        kx = key(x)
        if kx is None:
            kept[id(x)] = x  # neither dominated nor dominating (but by itself)
            continue
        group, k, const = kx[:2], (LANES - kx[2] if upper else kx[2]), kx[0] is None
        g = by_group.get(group)
        if (const and k <= 0 and info) or big or (g is not None and info[g][1] >= k):
            continue
        # drop the kept bounds x dominates
        if const and k >= LANES:
            drop = list(info)
        else:
            drop = list(nonpos)
            if g is not None:
                drop.append(g)
        for i in drop:
            if i in kept:
                del kept[i]
                grp = info.pop(i)[0]
                if by_group.get(grp) == i:
                    del by_group[grp]
                big.discard(i)
                nonpos.discard(i)
        kept[id(x)] = x
        info[id(x)] = (group, k, const)
        by_group[group] = id(x)
        if const and k >= LANES:
            big.add(id(x))
        if const and k <= 0:
            nonpos.add(id(x))
    return list(kept.values())


def _some_le(xs, ys, key) -> bool:
    """`any(le(x, y) for y in ys for x in xs)` (see `_prune_bounds`), in linear time."""
    if {id(x) for x in xs} & {id(y) for y in ys}:
        return True
    kxs = [k for k in map(key, xs) if k is not None]
    kys = [k for k in map(key, ys) if k is not None]
    if not kxs or not kys:
        return False
    if any(k[0] is None and k[2] <= 0 for k in kxs):
        return True
    if any(k[0] is None and k[2] >= LANES for k in kys):
        return True
    least: dict[tuple, int] = {}
    for k in kxs:
        g = k[:2]
        least[g] = min(least.get(g, k[2]), k[2])
    return any(k[:2] in least and least[k[:2]] <= k[2] for k in kys)


@dataclass(frozen=True)
class Described:
    """A value in messages: `str()` describes it in the user's terms, on
    demand (`describe` may read the user's source)."""

    value: SSAValue

    def __str__(self) -> str:
        return describe(self.value)


#: A lane set as a union of runs. [] is empty, [Run()] is all lanes.
Runs = list[Run]



@dataclass(frozen=True)
class _WrapRegime:
    """
    A case of `_Folder.fold_wrap_regimes`: the lane-uniform base B (a linear
    form without constant) takes the values `within` (of `domain`, its
    range), where every wrapped atom of `subst` equals its exact form.
    """

    subst: dict
    base: Affine
    within: Range
    domain: Range

    def multiple(self, form: Affine) -> int | None:
        """a when `form` is a * B plus terms without B's atoms (0: none of
        them), None when its terms in B's atoms are no multiple of B."""
        return _multiple(form, self.base)

    def substitute(self, form: Affine) -> Affine:
        out = form
        for v, c in form.terms:
            exact = self.subst.get(v)
            if exact is not None:
                out = out.without(v) + exact.scale(c)
        return out


def _multiple(form: Affine, base: Affine) -> int | None:
    """`_WrapRegime.multiple`."""
    coeffs = dict(form.terms)
    (v0, b0), *_ = base.terms
    c0 = coeffs.get(v0, 0)
    if c0 % b0:
        return None
    a = c0 // b0
    if any(coeffs.get(v, 0) != a * b for v, b in base.terms):
        return None
    return a


def _linear_fit(forms: list[Affine], points: list[int], base: Affine) -> Affine | None:
    """
    G + a * B + e when `forms[i]` equals it wherever B = `points[i]`
    (consecutive values): each form is G + a_i * B + e_i with the same G
    (terms without B's atoms), and a_i * points[i] + e_i changes by the
    same a from one point to the next.
    """
    values = []
    rest_key = None
    rest = None
    for f, v in zip(forms, points):
        a = _multiple(f, base)
        if a is None:
            return None
        r = f - base.scale(a)
        key = frozenset(r.terms)
        if rest_key is None:
            rest_key, rest = key, r
        elif key != rest_key:
            return None
        values.append(r.const + a * v)
    assert rest is not None
    slope = values[1] - values[0] if len(values) > 1 else 0
    if any(values[i] != values[0] + slope * (points[i] - points[0]) for i in range(len(values))):
        return None
    return Affine(rest.terms, 0) + base.scale(slope) + Affine((), values[0] - slope * points[0])


class _RunAlgebra:
    """The part of `_Folder` that builds and combines runs: bounds and their
    order, normalization, merging, intersection and complement (every run
    set the folding builds goes through these)."""

    # Emission helpers ---------------------------------------------------

    def _insert(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.at))
        return op.results[0]

    def const(self, c: int, t: IntegerType = i32) -> SSAValue:
        return self._insert(arith.ConstantOp.from_int_and_width(c, t))

    def bound(self, u: SSAValue, sign: int, k: int, side: str) -> SSAValue:
        """
        The lane bound `clip(sign * u + k, 0, 32)`: an `interval.bound` op
        (a constant where it is one), its plan left to `lower-interval-bounds`.

        `side` ("lo", "hi" or "both") says how the bound is used, for the
        cost model of its lowering (`BoundPlanner`); a bound asked for again
        keeps its first side. A bound that no plan computes without overflow
        does not pack (NotFoldable).
        """
        if self.regime is not None:
            # Under a wrap regime a bound may be decided (all lanes on one
            # side of [0, 32]) where it is not on the whole domain.
            f = self.forms.of(u)
            if f is not None:
                r = self.proof_range(f).scale(sign) + Range.exact(k)
                if r.hi <= 0 or r.lo >= LANES:
                    return self.constant_bound(0 if r.hi <= 0 else LANES)
        # One value per (u, sign, k), whichever side asks first: run
        # simplification compares and dedupes bounds by identity, so the same
        # bound must not be two values.
        key = (u, sign, k)
        if key in self.bounds:
            return self.bounds[key]
        r = self.forms.ranges.of(u)
        exact = r.scale(sign) + Range.exact(k)
        assert isinstance(u.type, IntegerType)
        if exact.hi <= 0 or exact.lo >= LANES:
            v = self.const(0 if exact.hi <= 0 else LANES)
        else:
            if not _fits_i64(k) or not self.planner.plans(u, sign, k, side):
                # No form computes the clipped bound without overflow (say
                # an i64 u whose constant leaves i32 and whose range is too
                # wide to clamp into i32): do not pack.
                raise NotFoldable(
                    f"a lane bound of {describe(u)} cannot be computed without overflow",
                    u,
                )
            v = self._insert(interval.BoundOp(u, sign, k, side))
        self.bounds[key] = v
        return v

    def constant_bound(self, c: int) -> SSAValue:
        """The bound constant `c` (one value per constant)."""
        v = self.constants.get(c)
        if v is None:
            v = self.constants[c] = self.const(c)
        return v

    # Runs and their bounds ------------------------------------------------

    def key(self, bound: SSAValue) -> tuple[SSAValue | None, int, int] | None:
        """(u, sign, k) of a bound `clip(sign * u + k, 0, 32)` (u None for a
        constant k), read from its `interval.bound` op; None for another
        value (a min / max of bounds)."""
        return bound_key(bound)

    def le(self, x: SSAValue | int, y: SSAValue | int) -> bool:
        """Whether bound x <= bound y (clipped to [0, 32]) everywhere."""
        kx = (None, 0, x) if isinstance(x, int) else self.key(x)
        ky = (None, 0, y) if isinstance(y, int) else self.key(y)
        if x is y:
            return True
        if kx is None or ky is None:
            return False
        if kx[0] is None and kx[2] <= 0 or ky[0] is None and ky[2] >= LANES:
            return True
        return kx[:2] == ky[:2] and kx[2] <= ky[2]

    def related_le(self, x: SSAValue, y: SSAValue) -> bool:
        """
        Whether bound x <= bound y everywhere, from the linear forms of their
        keys' bases (`LinearForms.relational_range`): bounds of different
        bases such as `q + 1 - kv` and `(q // 96) * 96 + 96 - kv`. Clipping to
        [0, 32] keeps the order.
        """
        kx, ky = self.key(x), self.key(y)
        if kx is None or ky is None:
            return False
        fx, fy = self.key_form(kx), self.key_form(ky)
        if fx is None or fy is None:
            return False
        return self.proof_range(fx - fy).hi <= 0

    def proof_range(self, form: Affine) -> Range:
        """
        The range of a lane-uniform form where it matters: on the domain
        (`relational_range`), or, while folding under a wrap regime (see
        `_WrapRegime`), on the part of the domain the regime covers. Only
        for proofs (which runs are empty, which bounds are redundant) and
        for bounds that are then constants: the ops emitted must not
        overflow anywhere on the domain, so they are planned with the
        domain's ranges.
        """
        regime = self.regime
        if regime is not None:
            alpha = regime.multiple(form)
            if alpha:
                rest = form - regime.base.scale(alpha)
                return regime.within.scale(alpha) + self.forms.relational_range(rest)
        return self.forms.relational_range(form)

    def key_form(self, key: tuple[SSAValue | None, int, int]) -> Affine | None:
        u, sign, k = key
        if u is None:
            return Affine((), k)
        f = self.forms.of(u)
        if f is None or any(v is self.forms.lane for v, _ in f.terms):
            return None
        return f.scale(sign) + Affine((), k)

    def normalize(self, run: Run) -> Run | None:
        """`run` with redundant bounds and factors dropped; None if provably empty."""
        if run.contradictory():
            return None
        los = [x for x in run.los if not self.le(x, 0)]
        his = [x for x in run.his if not self.le(LANES, x)]
        # max(los): drop a lower bound <= another; min(his): an upper bound >= another
        los = _prune_bounds(los, self.key, False)
        his = _prune_bounds(his, self.key, True)
        if 1 < len(los) <= _RELATIONAL_LIMIT:
            los = _prune(los, self.related_le)
        if 1 < len(his) <= _RELATIONAL_LIMIT:
            his = _prune(his, lambda x, y: self.related_le(y, x))
        if any(self.le(LANES, x) for x in los) or any(self.le(x, 0) for x in his):
            return None
        if _some_le(his, los, self.key):  # some hi <= some lo
            return None
        if (
            self.regime is not None
            and los
            and his
            and len(los) <= _RELATIONAL_LIMIT
            and len(his) <= _RELATIONAL_LIMIT
            and any(self.related_le(h, lo) for h in his for lo in los)
        ):
            return None  # some hi <= some lo, of different bases
        pers: dict[tuple[SSAValue, int], int] = {}
        for phase, p, m in run.pers:
            pers[(phase, p)] = pers.get((phase, p), (1 << p) - 1) & m
        if any(m == 0 for m in pers.values()):
            return None
        tabs = set(run.tabs)
        if any((s, tb, not gt, t, a, b) in tabs for s, tb, gt, t, a, b in tabs):
            return None  # table[r] <= t and table[r] > t
        return Run(
            tuple(los),
            tuple(his),
            run.conds,
            tuple((ph, p, m) for (ph, p), m in pers.items() if m != (1 << p) - 1),
            run.tabs,
        )

    def subset(self, a: Run, b: Run) -> bool:
        """Whether run a is provably contained in run b."""
        if not set(b.conds) <= set(a.conds) or not set(b.tabs) <= set(a.tabs):
            return False
        for phase, p, m in b.pers:
            if not any(ph is phase and q == p and n & ~m == 0 for ph, q, n in a.pers):
                return False
        return all(any(self.le(lb, la) for la in a.los) for lb in b.los) and all(
            any(self.le(ha, hb) for ha in a.his) for hb in b.his
        )

    def merge(self, a: Run, b: Run) -> Run | None:
        """a | b as one run when their lane ranges provably touch or overlap."""
        if set(a.conds) != set(b.conds) or set(a.pers) != set(b.pers):
            return None
        if set(a.tabs) != set(b.tabs):
            return None
        if len(a.los) > 1 or len(a.his) > 1 or len(b.los) > 1 or len(b.his) > 1:
            return None
        for x, y in ((a, b), (b, a)):
            lo_x = x.los[0] if x.los else 0
            hi_x = x.his[0] if x.his else LANES
            lo_y = y.los[0] if y.los else 0
            hi_y = y.his[0] if y.his else LANES
            if self.le(lo_x, lo_y) and self.le(lo_y, hi_x) and self.le(hi_x, hi_y):
                return Run(x.los, y.his, x.conds, x.pers, x.tabs)
        # [lo, p) | [lo, q) is [lo, max(p, q)); [p, hi) | [q, hi) is
        # [min(p, q), hi), whether or not either is empty.
        if a.los == b.los and a.his and b.his:
            hi = self._insert(arith.MaxSIOp(a.his[0], b.his[0]))
            return Run(a.los, (hi,), a.conds, a.pers, a.tabs)
        if a.his == b.his and a.los and b.los:
            lo = self._insert(arith.MinSIOp(a.los[0], b.los[0]))
            return Run((lo,), a.his, a.conds, a.pers, a.tabs)
        return None

    def simplify(self, runs: Runs) -> Runs:
        """Drop empty runs and duplicates, absorb subsets, merge touching runs."""
        out: Runs = []
        for run in runs:
            n = self.normalize(run)
            if n is not None and n not in out:
                out.append(n)
        changed = True
        while changed:
            changed = False
            for i, a in enumerate(out):
                for j, b in enumerate(out):
                    if i == j:
                        continue
                    if self.subset(a, b):
                        del out[i]
                        changed = True
                        break
                    m = self.merge(a, b)
                    if m is not None:
                        out[min(i, j)] = m
                        del out[max(i, j)]
                        changed = True
                        break
                if changed:
                    break
        return self.merge_conditions(out)

    def merge_conditions(self, runs: Runs) -> Runs:
        """Runs with the same lanes under different lane-uniform conditions are
        one run under the disjunction of the conditions."""
        groups: dict[tuple, list[Run]] = {}
        for run in runs:
            groups.setdefault((run.los, run.his, run.pers, run.tabs), []).append(run)
        if all(len(g) == 1 for g in groups.values()):
            return runs
        out: Runs = []
        for (los, his, pers, tabs), group in groups.items():
            if len(group) == 1 or any(not run.conds for run in group):
                out.append(Run(los, his, (), pers, tabs) if len(group) > 1 else group[0])
                continue
            either: SSAValue | None = None
            for run in group:
                c = self.cond_value(run.conds)
                either = c if either is None else self._insert(arith.OrIOp(either, c))
            assert either is not None
            out.append(Run(los, his, ((either, True),), pers, tabs))
        return out

    #: Intermediate products beyond this many runs are not simplified.
    MAX_PRODUCT = 4096

    def too_many(self, n: int, what: Described | SSAValue | str) -> NotFoldable:
        if isinstance(what, SSAValue):
            what = Described(what)
        return NotFoldable(
            f"{n} ranges exceed max-intervals={self.max_intervals} at {what}",
            what.value if isinstance(what, Described) else None,
            f"raise max-intervals (pack-mask{{max-intervals=N}}, compile_mask(..., "
            f"max_intervals=N)): this point alone needs {n}",
            runs=n,
        )

    def check_size(self, runs: Runs, what: Described | str) -> Runs:
        runs = self.simplify(runs)
        if len(runs) > self.peak:
            self.peak = len(runs)
        if len(runs) > self.max_intervals:
            raise self.too_many(len(runs), what)
        return runs

    def intersect(self, a: Runs, b: Runs, what: Described | str) -> Runs:
        if len(a) * len(b) > self.MAX_PRODUCT:
            raise self.too_many(len(a) * len(b), what)
        return self.check_size([x & y for x, y in product(a, b)], what)

    def complement(self, runs: Runs, what: Described | str) -> Runs:
        out: Runs = [Run()]
        for run in runs:
            parts: Runs = [Run(his=(lo,)) for lo in run.los]
            parts += [Run(los=(hi,)) for hi in run.his]
            parts += [Run(conds=((c, not pol),)) for c, pol in run.conds]
            parts += [Run(pers=((ph, p, ((1 << p) - 1) & ~m),)) for ph, p, m in run.pers]
            for s, tb, gt, t, clip_lo, clip_hi in run.tabs:
                # Outside its clip a table factor keeps no lane; inside, the
                # complement of `<= t` is `> t`.
                parts += [Run(his=(clip_lo,))] if clip_lo is not None else []
                parts += [Run(los=(clip_hi,))] if clip_hi is not None else []
                parts.append(Run(tabs=((s, tb, not gt, t, clip_lo, clip_hi),)))
            out = self.intersect(out, parts, what)
        return out


class _ResidueFolds:
    """The part of `_Folder` that folds comparisons periodic in kv: residues
    (`periodic_cmp`), comparisons at 32-column block starts (`block`,
    `at_block`) and lane tables (`table_cmp`), and why one does not fold."""

    # Periodic, block and table comparisons ----------------------------

    def periodic_cmp(self, op: arith.CmpiOp) -> Runs | None:
        """
        `(X mod P) <pred> r` with X = A + c * L (c = +-1, A lane-uniform), P a
        constant in [1, 32] and r a constant keeps a periodic set of lanes:
        with c = 1, the lanes where (L + A) mod P is a residue j with
        `j <pred> r`; with c = -1, X mod P = (-(L - A)) mod P, so the lanes
        where (L - A) mod P = j with `(-j mod P) <pred> r`.
        """
        pred = _CMP_FN.get(op.predicate.value.data)
        if pred is None:
            return None
        same_residue = self.same_residue_cmp(op)
        for mod, other, mirrored in ((op.lhs, op.rhs, False), (op.rhs, op.lhs, True)):
            r = const_evaluate_operand(other)
            m = mod.owner
            x = None
            if same_residue is not None and not mirrored:
                p, x = same_residue
                r = 0
            elif r is None or not isinstance(m, (mask.FloorModOp, arith.RemSIOp)):
                continue
            else:
                p = self.residue_divisor(m)
                if p is None:
                    continue
                x = self.forms.of(m.lhs)
            lane = self.forms.lane
            if x is None or lane is None or x.coeff(lane) not in (1, -1):
                continue
            c = x.coeff(lane)
            phase_form = x.without(lane).scale(c)
            kept = 0
            for j in range(p):
                residue = j if c == 1 else (-j) % p
                if pred(r, residue) if mirrored else pred(residue, r):
                    kept |= 1 << j
            # Only phase mod P matters: drop multiples of P.
            phase_form = phase_form.reduce_mod(p)
            from maskopt.passes.lane_affine import Materializer

            phase = self.phases.get(phase_form.key())
            if phase is None:
                phase = Materializer(self.forms).emit(phase_form, self.at)
            if phase is None:
                return None
            self.phases[phase_form.key()] = phase
            self.forms.ranges.of(phase)
            return [Run(pers=((phase, p, kept),))]
        return None

    def block_base(self, op: arith.CmpiOp) -> Affine | None:
        """
        The lane-uniform part A of the lane-dependent values kv = A + 1 * L
        that the comparison `op` is built from (None when there are none or
        several different ones).
        """
        lane = self.forms.lane
        if lane is None:
            return None
        bases: dict = {}
        seen: set[SSAValue] = set()
        stack = [op.lhs, op.rhs]
        while stack:
            v = stack.pop()
            if v in seen or v not in self.forms.dependent:
                continue
            seen.add(v)
            f = self.forms.of(v)
            if f is not None:
                if f.coeff(lane) != 1:
                    return None
                a = f.without(lane)
                bases.setdefault(a.key(), a)
                continue
            if isinstance(v.owner, Operation):
                stack.extend(v.owner.operands)
        if len(bases) != 1:
            return None
        return next(iter(bases.values()))

    def block(self, base: Affine):
        """
        The two aligned blocks of 32 KV indices that kv = A + L (L in [0, 32))
        spans, A the lane-uniform `base`: o = A mod 32 and the block starts
        H0 = A - o and H1 = H0 + 32, computed as (A + 31) & -32 (no overflow;
        H0 when o = 0, where block 1 has no lane). Lane L is in block 0 iff
        L < 32 - o, at offset L + o, else in block 1 at offset L + o - 32.
        Returns (shifts, starts, split) with split the bound value 32 - o, or
        None when A cannot be computed without overflow.
        """
        key = base.key()
        if key in self.blocks:
            return self.blocks[key]
        from maskopt.passes.lane_affine import Materializer

        self.blocks[key] = None
        if len(base.terms) == 1 and base.terms[0][1] == 1 and base.const == 0:
            a = base.terms[0][0]
        else:
            a = Materializer(self.forms).emit(base, self.at)
            if a is None:
                return None
        t = a.type
        assert isinstance(t, IntegerType)
        c31, cm32 = self.const(LANES - 1, t), self.const(-LANES, t)
        o = self._insert(arith.AndIOp(a, c31))
        h0 = self._insert(arith.AndIOp(a, cm32))
        a31 = arith.AddiOp(a, c31)
        self._insert(a31)
        if self.forms.ranges.may_wrap(a31):
            return None
        h1 = self._insert(arith.AndIOp(a31.result, cm32))
        if t != i32:
            o = self._insert(arith.TruncIOp(o, i32))
        o.name_hint = "off"
        s1 = self._insert(arith.SubiOp(o, self.const(LANES)))
        split = self.bound(o, -1, LANES, "both")
        self.blocks[key] = ((o, s1), (h0, h1), split)
        return self.blocks[key]

    def at_block(self, v: SSAValue, bits: LaneBits, start: SSAValue, k: int) -> SSAValue | None:
        """`v` computed with the leaves kv = A + L replaced by the block start
        `start`: the ops of v's lane-dependent cone, cloned (None if a cloned
        addition or multiplication could wrap)."""
        memo = self.at_blocks.setdefault((bits.base.key(), k), {})
        order = postorder(
            v,
            lambda x: () if x not in self.forms.dependent or bits.is_leaf(x) or not isinstance(x.owner, Operation) else tuple(x.owner.operands),
            memo,
        )
        for x in order:
            if x in memo:
                continue
            if x not in self.forms.dependent:
                memo[x] = x
                continue
            xb = bits.bits(x)
            if xb is not None and UNIFORM not in xb:
                # Every bit of x depends on the offset in the block alone:
                # its value at the block start (offset 0) is a constant.
                w = len(xb)
                c = sum(1 << i for i, tt in enumerate(xb) if tt & 1)
                memo[x] = self.const(c - (1 << w) if c >> (w - 1) else c, x.type)
                continue
            if bits.is_leaf(x):
                # The leaf's value at the block start is the start itself,
                # which fits the leaf's type (a lane of the window has it, or
                # the block has no lane and the start is the window base's).
                memo[x] = self.cast(start, x.type)
                continue
            op = x.owner
            if not isinstance(op, Operation) or len(op.results) != 1:
                return None
            if any(o not in memo for o in op.operands):
                return None
            new = op.clone(value_mapper={o: memo[o] for o in op.operands})
            self._insert(new)
            if isinstance(new, (arith.AddiOp, arith.SubiOp, arith.MuliOp)) and self.forms.ranges.may_wrap(new):
                return None
            memo[x] = new.results[0]
        return memo.get(v)

    def bitwise_why(self, op: arith.CmpiOp, at: SSAValue | None) -> str:
        """Why a comparison whose culprit `at` is a bitwise op is no table
        comparison either (see `table_cmp`), or ''."""
        if at is None or not isinstance(
            at.owner, (arith.AndIOp, arith.OrIOp, arith.XOrIOp)
        ):
            return ""
        base = self.block_base(op)
        if base is None:
            return ""
        bits = self.lane_bits.get(base.key()) or LaneBits(self.forms, base)
        operands = at.owner.operands
        if bits.bits(at) is None and all(bits.bits(x) is not None for x in operands):
            return (
                "; nor a bitwise function of the KV offset within a 32-block: it "
                "combines a bit of the offset with a lane-uniform bit in one position"
            )
        return ""

    def wrap_why(self, op: arith.CmpiOp) -> str:
        """Why a comparison of a wrapping lane-affine operand was not split at
        its wrap lanes (`_Rewriter.wrapped_compare`): a window of it wraps
        more often than the split takes, or ''."""
        from maskopt.passes.lane_affine import MAX_WRAP_BRANCHES, window_wraps

        lane = self.forms.lane
        for operand in (op.lhs, op.rhs):
            m = self.forms.modular(operand)
            if lane is None or m is None or m[1] is None:
                continue
            (e, w), half = m, 2 ** (m[1] - 1)
            c = (e.coeff(lane) + half) % (2 * half) - half
            n = window_wraps(c, w) if c else 0
            if n + 1 > MAX_WRAP_BRANCHES:
                return (
                    f"; with lane coefficient {c} it wraps up to {n} times in a 32-lane "
                    f"window, more than the {MAX_WRAP_BRANCHES - 1} wrap lanes a comparison "
                    "is split at"
                )
        return ""

    def cast(self, v: SSAValue, t) -> SSAValue:
        """`v` sign-extended or truncated to `t` (memoized)."""
        if v.type == t:
            return v
        key = ("cast", v, t)
        if key not in self.at_blocks:
            assert isinstance(v.type, IntegerType) and isinstance(t, IntegerType)
            wider = t.width.data > v.type.width.data
            self.at_blocks[key] = self._insert(
                arith.ExtSIOp(v, t) if wider else arith.TruncIOp(v, t)
            )
        return self.at_blocks[key]

    def table_cmp(self, op: arith.CmpiOp) -> Runs | None:
        """
        `X <pred> Y` where X - Y is a bitwise function of kv = A + L (see
        `maskopt.passes.lane_bits`): in each of the two aligned blocks of 32
        KV indices the window spans (block start H, offset r of the lane in
        the block), X - Y = D(H) + T(r) for a constant table T, so the lanes
        kept are a threshold set of T: `T(r) <pred> w` with w = -D(H)
        lane-uniform (`interval.table`). One run per block.
        """
        pred = CMPI_NAMES.get(op.predicate.value.data)
        if pred is None or not isinstance(op.lhs.type, IntegerType) or op.lhs.type == i1:
            return None
        base = self.block_base(op)
        if base is None:
            return None
        bits = self.lane_bits.get(base.key())
        if bits is None:
            bits = self.lane_bits[base.key()] = LaneBits(self.forms, base)
        tl, tr = bits.table(op.lhs), bits.table(op.rhs)
        if tl is None or tr is None:
            return None
        table = tuple(a - b for a, b in zip(tl, tr))
        if not all(-(2**63) <= x < 2**63 - 1 for x in table):
            return None  # the table is an i64 array (and is negated below)
        block = self.block(base)
        if block is None:
            return None
        from maskopt.passes.lane_affine import Materializer

        shifts, starts, split = block
        runs: Runs = []
        for k in (0, 1):
            x, y = (self.at_block(v, bits, starts[k], k) for v in (op.lhs, op.rhs))
            if x is None or y is None:
                return None
            fx, fy = self.forms.of(x), self.forms.of(y)
            if fx is None or fy is None:
                return None
            w = fy - fx  # X - Y = D(H) + T(r) <pred> 0  <=>  T(r) <pred> w

            def thr(c: int, w=w, sign: int = 1) -> SSAValue | None:
                form = w.scale(sign) + Affine((), c)
                key = ("threshold", form.key())
                if key not in self.at_blocks:
                    self.at_blocks[key] = Materializer(self.forms).emit(form, self.at)
                return self.at_blocks[key]

            clip = (None, split) if k == 0 else (split, None)
            place = Run(his=(split,)) if k == 0 else Run(los=(split,))

            # T <= w, T < w (<= w - 1), T > w, T >= w (> w - 1)
            need = {"sle": [(False, 0)], "slt": [(False, -1)], "sgt": [(True, 0)],
                    "sge": [(True, -1)], "eq": [(False, 0), (True, -1)],
                    "ne": [(False, -1), (True, 0)]}[pred]
            factors = []
            for gt, c in need:
                tb = table
                if w.terms and all(d < 0 for _, d in w.terms):
                    # A threshold with only negated terms would need a
                    # negation: T <= f is -T > -f - 1 and T > f is -T <= -f - 1.
                    tb, gt, c = tuple(-x for x in table), not gt, -c - 1
                    t = thr(c, sign=-1)
                else:
                    t = thr(c)
                if t is None:
                    return None
                factors.append(Run(tabs=((shifts[k], tb, gt, t) + clip,)))
            if pred == "ne":
                runs += [place & f for f in factors]
            else:
                r = place
                for f in factors:
                    r = r & f
                runs.append(r)
        return self.check_size(runs, Described(op.result))

    def residue_divisor(self, m: Operation) -> int | None:
        """P when `m` is `X mod P` (floor), or `X rem P` of a nonnegative X,
        with P a constant in [1, 32]."""
        if not isinstance(m, (mask.FloorModOp, arith.RemSIOp)):
            return None
        p = const_evaluate_operand(m.rhs)
        if p is None or not 1 <= p <= LANES:
            return None
        if isinstance(m, arith.RemSIOp) and self.forms.ranges.of(m.lhs).lo < 0:
            return None  # a truncated remainder of a possibly negative value
        return p

    def same_residue_cmp(self, op: arith.CmpiOp) -> tuple[int, Affine] | None:
        """
        `(P, X - Y)` when `op` is `(X mod P) == (Y mod P)` or `!=`, both
        residues as in `residue_divisor` with the same P: X and Y have the
        same residue exactly when P divides X - Y (exact integers: the linear
        forms do not wrap), so `op` is `((X - Y) mod P) == 0` (or `!=`).
        """
        if op.predicate.value.data not in (0, 1):  # eq, ne
            return None
        a, b = op.lhs.owner, op.rhs.owner
        if not isinstance(a, Operation) or not isinstance(b, Operation):
            return None
        p, q = self.residue_divisor(a), self.residue_divisor(b)
        if p is None or p != q:
            return None
        x, y = self.forms.of(a.lhs), self.forms.of(b.lhs)
        if x is None or y is None:
            return None
        return p, x - y


class _WrapRegimeFolds:
    """The part of `_Folder` that folds a predicate whose int32 arithmetic
    may wrap: one fold per wrap regime of its atoms, the regimes joined
    (`fold_wrap_regimes`)."""

    # Wrap regimes -------------------------------------------------------

    def regime_operand(self, u: SSAValue, k: int) -> tuple[SSAValue, int]:
        """`(u', k')` with `u + k == u' + k'` under the current regime: the
        wrapped atoms of u's form replaced by their exact forms there, u' a
        value of the non-constant part (an existing one where there is,
        so that bounds of one base compare)."""
        regime = self.regime
        assert regime is not None
        f = self.forms.of(u)
        if f is None or not any(v in regime.subst for v, _ in f.terms):
            return u, k
        exact = regime.substitute(f)
        found = self.materialize(exact)
        if found is None:
            raise NotFoldable(
                f"a lane bound of {describe(u)} cannot be computed without overflow", u
            )
        v, c = found
        return v, k + exact.const - c

    def materialize(self, form: Affine) -> tuple[SSAValue, int] | None:
        """
        `(v, c)` with v a value equal to the terms of `form` plus c: a
        lane bound operand with those terms where there is one (see
        `fold_wrap_regimes`), else the terms computed without overflow (c =
        0, one value per form); None when they may overflow i64.
        """
        key = frozenset(form.terms)
        if key in self.materialized:
            return self.materialized[key]
        found: tuple[SSAValue, int] | None
        if len(form.terms) == 1 and form.terms[0][1] == 1:
            found = (form.terms[0][0], 0)
        else:
            from maskopt.passes.lane_affine import Materializer

            v = Materializer(self.forms).emit(Affine(form.terms, 0), self.at)
            found = None if v is None else (v, 0)
        self.materialized[key] = found
        return found

    def wrap_atoms(self, value: SSAValue) -> dict[SSAValue, tuple[Affine, int]]:
        """The lane-uniform atoms of the lane bounds `value` is folded from
        that wrap (`LinearForms.uniform_modular`): `q_idx + 3000` in
        `kv_idx <= q_idx + 3000`."""
        atoms: dict[SSAValue, tuple[Affine, int]] = {}
        for op in _slice(value):
            if not isinstance(op, mask.LaneCmpOp):
                continue
            f = self.forms.of(op.u)
            if f is None:
                continue
            for v, _ in f.terms:
                if v not in atoms and (m := self.forms.uniform_modular(v)) is not None:
                    atoms[v] = m
        return atoms

    #: The most regimes one keep value is folded under.
    MAX_WRAP_REGIMES = 16

    def wrap_regimes(self, atoms: dict[SSAValue, tuple[Affine, int]]) -> list[_WrapRegime] | None:
        """
        The regimes of the wrapped atoms sharing the most common base B (the
        non-constant part of their exact forms E = B + c): the intervals of
        B's values between the points where some atom wraps. In each, every
        such atom is E + j * 2^w for one j. None when there are more than
        MAX_WRAP_REGIMES.
        """
        groups: dict = {}
        for v, (e, w) in atoms.items():
            base = Affine(e.terms, 0)
            groups.setdefault(base.key(), (base, []))[1].append((v, e, w))
        if not groups:
            return None
        base, members = max(groups.values(), key=lambda g: len(g[1]))
        r = self.forms.uniform_range(base)
        cuts: set[int] = set()
        for _, e, w in members:
            half, period = 2 ** (w - 1), 2**w
            # j changes where b + c + half is a multiple of 2^w
            first = _ceil_div(r.lo + 1 + e.const + half, period)
            last = (r.hi + e.const + half) // period
            if last - first + 1 > self.MAX_WRAP_REGIMES:
                return None
            cuts.update(t * period - e.const - half for t in range(first, last + 1))
        if not cuts or len(cuts) + 1 > self.MAX_WRAP_REGIMES:
            return None
        starts = [r.lo, *sorted(cuts)]
        ends = [x - 1 for x in starts[1:]] + [r.hi]
        regimes = []
        for lo, hi in zip(starts, ends):
            subst = {}
            for v, e, w in members:
                half, period = 2 ** (w - 1), 2**w
                j = -((lo + e.const + half) // period)
                subst[v] = e + Affine((), j * period)
            regimes.append(_WrapRegime(subst, base, Range(lo, hi), r))
        return regimes

    def fold_wrap_regimes(self, value: SSAValue) -> Runs | None:
        """
        The keep value folded by cases on lane-uniform wraps, when folding
        it as it is needs more than max-intervals runs: a uniform value that
        wraps (`q_idx + 3000 + c` near 2^31) is an atom to the lane bounds
        built from it, so bounds of `q + 3000`, `q + 3001`, ... do not
        compare and their runs neither merge nor cancel. Under each regime
        (the values of the atoms' common base between two wrap points, see
        `wrap_regimes`) every atom is an exact form, so they do; the runs of
        each regime are guarded by its condition (a lane-uniform
        comparison), consecutive one-value regimes with the same runs up to
        linear changes of their bounds are joined (`join_point_regimes`),
        and the union is simplified. None when there is no such atom or a
        regime does not fold within max-intervals.
        """
        atoms = self.wrap_atoms(value)
        regimes = self.wrap_regimes(atoms) if atoms else None
        if regimes is None:
            return None
        for op in _slice(value):
            if isinstance(op, mask.LaneCmpOp) and (f := self.forms.of(op.u)) is not None:
                if not any(v in regimes[0].subst for v, _ in f.terms):
                    self.materialized.setdefault(frozenset(f.terms), (op.u, f.const))
        folded: list[tuple[_WrapRegime, Runs]] = []
        try:
            for regime in regimes:
                self.regime, self.memo = regime, {}
                folded.append((regime, self.check_size(self.fold(value), "the keep value")))
        except NotFoldable:
            return None
        finally:
            self.regime, self.memo = None, {}
        out: Runs = []
        joined = self.join_equal_regimes(self.join_point_regimes(folded))
        for regime, runs in self.share_edge_runs(joined):
            if not runs:
                continue
            guard = self.regime_guard(regime)
            out += [run & guard for run in runs]
        try:
            return self.check_size(out, "the keep value")
        except NotFoldable:
            return None

    def regime_guard(self, regime: _WrapRegime) -> Run:
        """A run of all lanes under the regime's condition `lo <= B <= hi`
        (a side that is the end of B's range is left out)."""
        found = self.materialize(regime.base)
        assert found is not None  # a base of an exact form fits i64
        b, c = found  # b = B + c
        (lo, hi), (dlo, dhi) = regime.within, regime.domain
        conds = []
        if dlo < lo == hi < dhi:
            conds.append(self._insert(arith.CmpiOp(b, self.const(lo + c, b.type), "eq")))
        else:
            if lo > dlo:
                conds.append(self._insert(arith.CmpiOp(b, self.const(lo + c, b.type), "sge")))
            if hi < dhi:
                conds.append(self._insert(arith.CmpiOp(b, self.const(hi + c, b.type), "sle")))
        return Run(conds=tuple((x, True) for x in conds))

    def join_point_regimes(
        self, folded: list[tuple[_WrapRegime, Runs]]
    ) -> list[tuple[_WrapRegime, Runs]]:
        """
        Join consecutive regimes of one value each (B = v, v + 1, ...) whose
        runs are the same but for bounds that change linearly with v: a
        bound that is the form F_v at B = v, with F_v = G + e_v (G the same
        lane-uniform terms, without B) and e_v = a * v + e, is the form
        G + a * B + e at every one of them. `q_idx + k <= q_idx + 3000 + c`
        wraps at q = 2^31 - 3000 - c for c = 0..6: six one-value regimes.
        """
        out: list[tuple[_WrapRegime, Runs]] = []
        i = 0
        while i < len(folded):
            regime, runs = folded[i]
            j = i + 1
            if regime.within.lo == regime.within.hi:
                while j < len(folded):
                    nxt, nruns = folded[j]
                    if not (
                        nxt.within.lo == nxt.within.hi == folded[j - 1][0].within.hi + 1
                        and self.linear_in_points(
                            [r for _, r in folded[i : j + 1]],
                            [reg.within.lo for reg, _ in folded[i : j + 1]],
                            regime.base,
                        )
                        is not None
                    ):
                        break
                    j += 1
            if j - i > 1:
                group = folded[i:j]
                points = [reg.within.lo for reg, _ in group]
                joined = self.linear_in_points([r for _, r in group], points, regime.base, emit=True)
                if joined is None:  # a bound that cannot be computed: keep them apart
                    out += group
                    i = j
                    continue
                within = Range(points[0], points[-1])
                out.append((_WrapRegime({}, regime.base, within, regime.domain), joined))
            else:
                out.append((regime, runs))
            i = j
        return out

    def linear_in_points(
        self, runs_per_point: list[Runs], points: list[int], base: Affine, emit: bool = False
    ):
        """The runs of `join_point_regimes` for one-value regimes at
        consecutive `points` (with `emit`, their joined runs; else a truthy
        value), or None when they do not join."""
        first = runs_per_point[0]
        if any(len(r) != len(first) for r in runs_per_point):
            return None
        out: Runs = []
        for idx, run in enumerate(first):
            others = [r[idx] for r in runs_per_point]
            if any(
                o.conds != run.conds or o.pers != run.pers or o.tabs != run.tabs
                or len(o.los) != len(run.los) or len(o.his) != len(run.his)
                for o in others
            ):
                return None
            sides = []
            for side, attr in (("lo", "los"), ("hi", "his")):
                bounds = []
                for n in range(len(getattr(run, attr))):
                    forms = []
                    for o in others:
                        k = self.key(getattr(o, attr)[n])
                        f = None if k is None else self.key_form(k)
                        if f is None:
                            return None
                        forms.append(f)
                    line = _linear_fit(forms, points, base)
                    if line is None:
                        return None
                    bounds.append(line)
                sides.append(bounds)
            if emit:
                los = tuple(self.form_bound(f, "lo") for f in sides[0])
                his = tuple(self.form_bound(f, "hi") for f in sides[1])
                if any(x is None for x in los + his):
                    return None
                out.append(Run(los, his, run.conds, run.pers, run.tabs))  # type: ignore[arg-type]
        return out if emit else True

    def form_bound(self, form: Affine, side: str) -> SSAValue | None:
        """A bound clipping the lane-uniform `form` (clip(form, 0, 32))."""
        if not form.terms:
            return self.constant_bound(min(max(form.const, 0), LANES))
        for sign in (1, -1):
            found = self.materialized.get(frozenset(form.scale(sign).terms))
            if found is not None:
                v, c = found  # sign * form = v + c + rest
                return self.bound(v, sign, form.const - sign * c, side)
        found = self.materialize(form)
        if found is None:
            return None
        v, c = found
        return self.bound(v, 1, form.const - c, side)

    def join_equal_regimes(
        self, folded: list[tuple[_WrapRegime, Runs]]
    ) -> list[tuple[_WrapRegime, Runs]]:
        """
        Join neighbouring regimes whose runs agree: the runs of one, with
        each bound the same, after clipping to [0, 32], as the other's on
        the other's values. `kv_idx == q_idx + 8` keeps lane q + 8 - kv
        where q + 8 does not wrap; where it does, its bound q + 8 - kv of
        the regime before is past the window: the same run.
        """
        out: list[tuple[_WrapRegime, Runs]] = []
        for regime, runs in folded:
            if out:
                prev, prev_runs = out[-1]
                if len(prev_runs) == len(runs) and all(
                    self.same_run(a, prev, b, regime) for a, b in zip(prev_runs, runs)
                ):
                    within = Range(prev.within.lo, regime.within.hi)
                    out[-1] = (_WrapRegime({}, regime.base, within, regime.domain), prev_runs)
                    continue
            out.append((regime, runs))
        return out

    def share_edge_runs(
        self, folded: list[tuple[_WrapRegime, Runs]]
    ) -> list[tuple[_WrapRegime, Runs]]:
        """
        Let a run of one regime cover a neighbour's run that can be
        non-empty only at the value of B next to it: where run x of regime P
        is provably empty on P but for its last value p, and run y of the
        next regime N is x at B = p (`same_run` there), x is dropped and y's
        guard is widened to B in [p, N's last value]; the same with P and N
        swapped at N's first value. In `kv_idx + k <= q_idx + 3000 + k % 7`
        the run of the lanes past kv's wrap is non-empty only at q = 2^31 -
        3007, where it is the lane q + 3000 - kv that the next regime keeps:
        one run fewer. Sound: on the values added to y's guard y keeps what
        x kept there, and x kept nothing elsewhere.
        """
        items = [[regime, list(runs)] for regime, runs in folded]
        out: list[tuple[_WrapRegime, Runs]] = []
        for i in range(len(items) - 1):
            prev, nxt = items[i], items[i + 1]
            if prev[0].within.hi + 1 != nxt[0].within.lo:
                continue
            for donor, taker, at_end in ((prev, nxt, True), (nxt, prev, False)):
                for x in list(donor[1]):
                    point = donor[0].within.hi if at_end else donor[0].within.lo
                    if not self.empty_but_at(x, donor[0], point):
                        continue
                    at = _WrapRegime({}, donor[0].base, Range(point, point), donor[0].domain)
                    y = next((y for y in taker[1] if self.same_run(x, at, y, at)), None)
                    if y is None:
                        continue
                    donor[1].remove(x)
                    taker[1].remove(y)
                    lo, hi = taker[0].within
                    within = Range(point, hi) if at_end else Range(lo, point)
                    out.append((_WrapRegime({}, taker[0].base, within, taker[0].domain), [y]))
        return [(regime, runs) for regime, runs in items] + out

    def empty_but_at(self, run: Run, regime: _WrapRegime, point: int) -> bool:
        """Whether `run` (folded under `regime`) is provably empty on the
        regime's values other than `point` (one of its ends)."""
        lo, hi = regime.within
        if lo == hi:
            return True
        rest = Range(lo, hi - 1) if point == hi else Range(lo + 1, hi)
        saved = self.regime
        self.regime = _WrapRegime(regime.subst, regime.base, rest, regime.domain)
        try:
            return any(self.clipped_le(h, l) for h in run.his or (LANES,) for l in run.los or (0,))
        finally:
            self.regime = saved

    def same_run(self, a: Run, ra: _WrapRegime, b: Run, rb: _WrapRegime) -> bool:
        """Whether run `a` (folded under regime `ra`) is run `b` under `rb`:
        the same factors, max(lower bounds) and min(upper bounds)."""
        if a.conds != b.conds or a.pers != b.pers or a.tabs != b.tabs:
            return False
        saved = self.regime
        self.regime = rb
        try:
            le = self.clipped_le
            los_a, los_b = a.los or (0,), b.los or (0,)
            his_a, his_b = a.his or (LANES,), b.his or (LANES,)
            return (
                all(any(le(x, y) for y in los_b) for x in los_a)
                and all(any(le(y, x) for x in los_a) for y in los_b)
                and all(any(le(y, x) for y in his_b) for x in his_a)
                and all(any(le(x, y) for x in his_a) for y in his_b)
            )
        finally:
            self.regime = saved

    def clipped_le(self, x: SSAValue | int, y: SSAValue | int) -> bool:
        """Whether bound x <= bound y, both clipped to [0, 32] (under the regime)."""
        if x is y:
            return True
        fx, fy = self.bound_form(x), self.bound_form(y)
        if fx is None or fy is None:
            return False
        return (
            self.proof_range(fx).hi <= 0
            or self.proof_range(fy).lo >= LANES
            or self.proof_range(fx - fy).hi <= 0
        )

    def bound_form(self, x: SSAValue | int) -> Affine | None:
        """The lane-uniform form a bound clips (None if unknown)."""
        if isinstance(x, int):
            return Affine((), x)
        k = self.key(x)
        return None if k is None else self.key_form(k)


@dataclass
class _Folder(_RunAlgebra, _ResidueFolds, _WrapRegimeFolds):
    """Folds the keep predicate of one function into lane runs (`fold`) and
    emits them as the interval dialect (`emit`); its parts are the run
    algebra, the residue folds and the wrap-regime folds (the bases)."""

    func: mask.FuncOp
    max_intervals: int
    at: Operation
    forms: LinearForms = field(init=False)
    memo: dict[SSAValue, Runs] = field(default_factory=dict)
    #: (u, sign, k) -> its bound (an `interval.bound` or a constant)
    bounds: dict[tuple[SSAValue, int, int], SSAValue] = field(default_factory=dict)
    planner: BoundPlanner = field(init=False)
    #: materialized phases of periodic sets, by linear form
    phases: dict = field(default_factory=dict)
    true: SSAValue | None = None
    #: per block base (a lane-uniform form): its `LaneBits`, its block values
    #: (see `block`), the values of kv-dependent values at the block starts
    lane_bits: dict = field(default_factory=dict)
    blocks: dict = field(default_factory=dict)
    at_blocks: dict = field(default_factory=dict)
    #: the wrap regime folded under (see `fold_wrap_regimes`), else None
    regime: _WrapRegime | None = None
    #: lane-uniform values for regimes: terms of a form -> (value, c), the
    #: value being those terms plus c (see `materialize`)
    materialized: dict = field(default_factory=dict)
    #: constant bounds, by value
    constants: dict = field(default_factory=dict)
    #: the most runs any point of the folding had (see `_packing_limit`)
    peak: int = 0
    _priming: bool = False

    def __post_init__(self):
        self.forms = LinearForms.build(self.func)
        self.planner = BoundPlanner(self.func, self.forms)

    # Folding --------------------------------------------------------------

    def lane_cmp(self, op: mask.LaneCmpOp) -> Runs:
        c, u, pred, k = op.coeff_value, op.u, op.predicate.data, op.offset_value
        if self.regime is not None:
            u, k = self.regime_operand(u, k)
        if c not in (1, -1):
            raise NotFoldable(
                f"{describe(op.result)} has lane coefficient {c} (kv_idx is scaled by "
                f"{abs(c)}): only comparisons of kv_idx with coefficient +-1 fold to ranges",
                op.result,
            )
        # With c = 1 the lanes kept are those of L <pred> -u; with c = -1, of
        # u <pred> L. `first` is the first lane of the boundary, `after` the
        # lane past it, each built for the side of the run it bounds.
        if c == 1:  # L <pred> -(u + k)
            first_side = {"slt": "hi", "sge": "lo", "eq": "lo", "ne": "hi"}.get(pred)
            after_side = {"sle": "hi", "sgt": "lo", "eq": "hi", "ne": "lo"}.get(pred)
            first = self.bound(u, -1, -k, first_side) if first_side else None
            after = self.bound(u, -1, 1 - k, after_side) if after_side else None
            below, above = {"slt": first, "sle": after}, {"sgt": after, "sge": first}
        else:  # u + k <pred> L
            first_side = {"sgt": "hi", "sle": "lo", "eq": "lo", "ne": "hi"}.get(pred)
            after_side = {"sge": "hi", "slt": "lo", "eq": "hi", "ne": "lo"}.get(pred)
            first = self.bound(u, 1, k, first_side) if first_side else None
            after = self.bound(u, 1, k + 1, after_side) if after_side else None
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
        if not self._priming:
            # The sub-values _fold folds, first, in the order it folds them,
            # iteratively: deep and/or chains do not recurse (same results,
            # same errors: the first NotFoldable in evaluation order).
            self._priming = True
            try:
                for v in postorder(value, self._folded_operands, self.memo)[:-1]:
                    self.fold(v)
            finally:
                self._priming = False
        runs = self._fold(value)
        self.memo[value] = runs
        return runs

    def _folded_operands(self, value: SSAValue) -> tuple[SSAValue, ...]:
        """The operands `_fold(value)` folds, in order."""
        if value not in self.forms.dependent or const_evaluate_operand(value) is not None:
            return ()
        op = value.owner
        match op:
            case arith.AndIOp() | arith.OrIOp():
                return (op.lhs, op.rhs)
            case arith.XOrIOp():
                for x, y in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if const_evaluate_operand(y) not in (None, 0):
                        return (x,)
                return (op.lhs, op.rhs)
            case arith.SelectOp() if op.cond not in self.forms.dependent:
                return (op.lhs, op.rhs)
            case arith.SelectOp() if op.result.type == i1:
                return (op.cond, op.lhs, op.rhs)
            case _:
                return ()

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
            case arith.SelectOp() if op.result.type == i1:
                # A lane-dependent condition: (c & a) | (~c & b).
                c, a, b = self.fold(op.cond), self.fold(op.lhs), self.fold(op.rhs)
                return self.check_size(
                    self.intersect(c, a, what)
                    + self.intersect(self.complement(c, what), b, what),
                    what,
                )
            case arith.CmpiOp() if op.predicate.value.data in (0, 1) and (
                bools := _bool_operands(op)
            ):
                # i1 equality (also of zero / sign extensions of i1, as torch
                # traces bool == bool) is xnor, inequality xor.
                a, b = self.fold(bools[0]), self.fold(bools[1])
                not_a, not_b = self.complement(a, what), self.complement(b, what)
                same = op.predicate.value.data == 0
                return self.check_size(
                    self.intersect(a, b if same else not_b, what)
                    + self.intersect(not_a, not_b if same else b, what),
                    what,
                )
            case arith.CmpiOp() if (runs := self.periodic_cmp(op)) is not None:
                return runs
            case arith.CmpiOp() if (runs := self.table_cmp(op)) is not None:
                return runs
            case arith.CmpiOp():
                for operand in (op.lhs, op.rhs):
                    if operand in self.forms.dependent and self.forms.of(operand) is None:
                        r = self.forms.explain(operand)
                        message = r.message + self.bitwise_why(op, r.at) + self.wrap_why(op)
                        raise NotFoldable(message, r.at, r.suggestion)  # type: ignore[arg-type]
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
        pers = [self._insert(interval.PeriodicOp(*p)) for p in run.pers]
        pers += [
            self._insert(interval.TableOp(s, t, tb, gt)) for s, tb, gt, t, _, _ in run.tabs
        ]
        # A table factor keeps no lane outside its clip: bounds equal to
        # the clip's are implied.
        implied_lo = {id(x[4]) for x in run.tabs if x[4] is not None}
        implied_hi = {id(x[5]) for x in run.tabs if x[5] is not None}
        if run.tabs:
            run = Run(
                tuple(x for x in run.los if id(x) not in implied_lo),
                tuple(x for x in run.his if id(x) not in implied_hi),
                run.conds,
                run.pers,
                run.tabs,
            )
        if not run.los and not run.his:
            s = pers[0] if pers else self._insert(interval.FullOp())
            pers = pers[1:]
        else:
            lo = run.los[0] if run.los else self.const(0)
            for x in run.los[1:]:
                lo = self._insert(arith.MaxSIOp(lo, x))
            hi = run.his[0] if run.his else self.const(LANES)
            for x in run.his[1:]:
                hi = self._insert(arith.MinSIOp(hi, x))
            s = self._insert(interval.RangeOp(lo, hi))
        if pers:
            s = self._insert(interval.IntersectOp([s, *pers]))
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


#: `_packing_limit` tries max-intervals up to max(this, 2 * max-intervals).
PACKING_LIMIT_CAP = 32


def _fold_function(func: mask.FuncOp, max_intervals: int, explain: bool = True) -> Reason | None:
    if not func.is_windowed:
        return Reason("the function is not windowed: run lane-affine first", func)
    if func.is_packed:
        return None
    yield_op = func.yield_op
    folder = _Folder(func, max_intervals, yield_op)
    try:
        runs = folder.check_size(folder.fold(yield_op.value), "the keep value")
    except NotFoldable as e:
        regimes = folder.fold_wrap_regimes(yield_op.value) if e.runs is not None else None
        if regimes is None:
            region_dce(func.body)  # back to the function as it was
            if e.runs is not None and explain:
                return _too_many_reason(folder, e, func)
            return e.reason
        runs = regimes
    word = folder.emit(runs)
    reason = legalize_overflow(func, word, folder.forms.ranges)
    if reason is not None:
        region_dce(func.body)
        return reason
    Rewriter.replace_op(yield_op, mask.YieldOp(word))
    region_dce(func.body)
    return None


def _too_many_reason(folder: _Folder, e: NotFoldable, func: mask.FuncOp) -> Reason:
    """
    The reason for more runs than max-intervals: where (the first point of
    the folding with too many), why when the extra runs come from
    comparisons split where a compared value wraps (`mask.wrap`, see
    `lane_affine.wrapped_compare`), and the least max-intervals that packs,
    checked by packing a copy of the function with it (`_packing_limit`),
    or that none up to a cap does. The count at the first point is only a
    lower bound: the points after it may need more.
    """
    from maskopt.passes.lane_affine import WRAP_ATTR

    at = e.reason.at
    message = e.reason.message
    hint = ""
    if isinstance(at, SSAValue):
        # One wrap point per split comparison: its two branches' bounds
        # `c * L + v >= 0` and `c * L + v - 1 < 0` (`<= 0` with v + 1).
        split: dict[tuple, SSAValue] = {}
        for op in _slice(at):
            if isinstance(op, mask.LaneCmpOp) and WRAP_ATTR in op.attributes:
                f = folder.forms.of(op.u)
                if f is None:
                    continue
                shift = 1 if op.predicate.data in ("sle", "sgt") else 0
                point = (op.coeff_value, frozenset(f.terms), f.const + op.offset_value - shift)
                split.setdefault(point, op.result)
        if split:
            from maskopt.passes.remarks import source_span

            guard = next(iter(split.values()))
            assert isinstance(guard.owner, Operation)
            # A guard is located at its comparison: without source it is
            # rendered from the IR, where it is the wrap point itself.
            name = describe(guard) if source_span(guard.owner) is not None else None
            where = "" if name else f" (at {describe(guard)})"
            wraps = "integer arithmetic wraps, as in torch"
            if len(split) == 1:
                message += (
                    f": {name or 'a comparison'} is split in two runs where a value it "
                    f"compares wraps around{where} ({wraps})"
                )
            else:
                such = f", such as {name}," if name else ""
                message += (
                    f": {len(split)} comparisons in it{such} are each split in two runs "
                    f"where a value they compare wraps around{where} ({wraps}), and the "
                    "runs of different comparisons do not merge"
                )
            hint = (
                "; if the wrap is not meant, compare int64 values "
                "(`kv_idx.to(torch.int64) + 1`), which do not wrap"
            )
    cap = max(PACKING_LIMIT_CAP, 2 * folder.max_intervals)
    limit = _packing_limit(func, folder.max_intervals, cap)
    how = (
        "raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N))"
    )
    if limit is not None:
        suggestion = f"{how}: max-intervals={limit} packs it (checked)"
    else:
        suggestion = f"no max-intervals up to {cap} packs it"
    return Reason(message, at, suggestion + hint)


def _packing_limit(func: mask.FuncOp, failed: int, cap: int) -> int | None:
    """
    The least max-intervals at which `func` (unfolded; it is not changed)
    packs, if it is at most `cap`: the most runs any point of its folding
    has when folded with max-intervals=cap, as it is or by wrap regimes
    (folding with a limit of at least that many does the same, and with
    less raises at that point). Checked by packing a copy with it; None
    when none up to `cap` packs or the check fails.
    """
    probe = func.clone()
    folder = _Folder(probe, cap, probe.yield_op)
    value = probe.yield_op.value
    peaks = []
    try:
        folder.check_size(folder.fold(value), "the keep value")
        peaks.append(folder.peak)
    except NotFoldable:
        pass
    folder.peak = 0
    if folder.fold_wrap_regimes(value) is not None:
        peaks.append(folder.peak)
    for n in sorted(set(peaks)):
        if failed < n <= cap and _fold_function(func.clone(), n, explain=False) is None:
            return n
    return None


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


def legalize_overflow(
    func: mask.FuncOp, word: SSAValue, ranges: ValueRanges | None = None
) -> Reason | None:
    """
    Make the computation of `word` free of integer overflow on the domain:
    an i32 op whose exact result may leave i32 (so it wraps, like torch's
    int32) is computed in i64 and truncated, which wraps exactly the same
    way without overflowing. A `<<` that may wrap is kept: it drops the bits
    shifted out, in CuTe as in torch. An i64 op that may wrap cannot be
    emitted safely: return the reason.
    """
    # fold_function passes its folder's ranges (still exact: folding only adds ops)
    if ranges is None:
        ranges = LinearForms.build(func).ranges
    exts: dict[SSAValue, SSAValue] = {}
    for op in _slice(word):
        # A division whose divisor may be zero gets the divisor replaced by 1
        # where it is 0 (interval-to-cute's `GuardDivisor`, cute.safe_divisor):
        # torch raises there, so any word is right, and the code has no UB.
        if not ranges.may_wrap(op) or isinstance(op, (arith.ShLIOp, arith.TruncIOp)):
            # A `<<` drops the bits shifted out (no nsw), like torch; a
            # truncation is reduction mod 2^w by definition (lane-affine's
            # wrap_w(U) of an exact i64 U, torch's `.to(torch.int32)`).
            continue
        result = op.results[0]
        if isinstance(op, WIDENABLE_OPS) and result.type == i32:
            wide = _widened(op, ranges, exts)
            narrow = arith.TruncIOp(wide.results[0], i32)
            narrow.result.name_hint = result.name_hint
            Rewriter.insert_op([narrow], InsertPoint.before(op))
            result.replace_all_uses_with(narrow.result)
            continue
        return Reason(
            f"{describe(result)} may overflow {result.type} on the mask domain, "
            "and no wider type is available",
            result,
        )
    return None


def _widened(op: Operation, ranges: ValueRanges, exts: dict[SSAValue, SSAValue]) -> Operation:
    """
    `op` (an i32 op of WIDENABLE_OPS) computed in i64, inserted before it.
    Its operands are sign-extended (once each: `exts` holds the extensions
    made so far, ops being legalized in block order), except that in a
    `+ - *` an operand `trunci(w)` of an i64 `w` is `w` itself where the i64
    op then cannot overflow: `+ - *` commute with reduction mod 2^32 and
    `trunci(w) = w` mod 2^32, so the truncated result is the same. A chain
    of wrapping `+ - *` so becomes one i64 chain truncated once at its end,
    not once per link.
    """

    def ext(x: SSAValue) -> SSAValue:
        e = exts.get(x)
        if e is None:
            e = exts[x] = arith.ExtSIOp(x, i64).result
            Rewriter.insert_op(e.owner, InsertPoint.before(op))
        return e

    wide = None
    if isinstance(op, WRAPPING_ARITH_OPS):
        wides = [
            x.owner.input if isinstance(x.owner, arith.TruncIOp) and x.owner.input.type == i64 else None
            for x in op.operands
        ]
        if any(w is not None for w in wides):
            wide = type(op)(*(ext(x) if w is None else w for x, w in zip(op.operands, wides)))
            if ranges.may_wrap(wide):
                wide = None
    if wide is None:  # i32 operands: the i64 op cannot overflow
        wide = type(op)(*(ext(x) for x in op.operands))
    Rewriter.insert_op(wide, InsertPoint.before(op))
    return wide


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
