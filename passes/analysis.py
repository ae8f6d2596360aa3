"""
Analyses shared by the packing passes: value ranges over the mask domain,
lane dependence and lane-affine linear forms.

The domain (the semantics contract): b, h, q_idx, kv_idx are int32 >= 0 and
kv_idx + 31 < 2^31; aux tensor elements and aux scalars are any value of their
type. In a windowed function kv_idx is the window base (at most 2^31 - 32)
and `mask.lane` is in [0, 31].

`ValueRanges` gives, for every integer SSA value, an interval containing its
exact value at every point of the domain, and says whether an op may wrap
(its exact result may leave its type). A linear form is only taken through
ops that cannot wrap, so it is the exact value.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, Signedness, TensorType, i1
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import cute, interval, mask
from maskopt.passes.remarks import Reason, expression

INT32_MAX = 2**31 - 1
LANES = 32

#: i32 ops whose wrapping result is computed exactly in i64 and truncated.
WIDENABLE_OPS = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.FloorDivSIOp, arith.DivSIOp)
#: ops that wrap like torch's integers when printed as plain +, -, *.
WRAPPING_ARITH_OPS = (arith.AddiOp, arith.SubiOp, arith.MuliOp)


class Range(NamedTuple):
    """A closed integer interval [lo, hi] (a named tuple: the analyses make
    millions of them, and a tuple is several times cheaper to build than a
    frozen dataclass)."""

    lo: int
    hi: int

    def __add__(self, other: Range) -> Range:
        return Range(self.lo + other.lo, self.hi + other.hi)

    def __sub__(self, other: Range) -> Range:
        return Range(self.lo - other.hi, self.hi - other.lo)

    def scale(self, c: int) -> Range:
        a, b = self.lo * c, self.hi * c
        return Range(min(a, b), max(a, b))

    def __mul__(self, other: Range) -> Range:
        corners = [a * b for a in (self.lo, self.hi) for b in (other.lo, other.hi)]
        return Range(min(corners), max(corners))

    def union(self, other: Range) -> Range:
        return Range(min(self.lo, other.lo), max(self.hi, other.hi))

    def within(self, other: Range) -> bool:
        return other.lo <= self.lo and self.hi <= other.hi

    @staticmethod
    def of_type(t: IntegerType) -> Range:
        w = t.width.data
        r = _TYPE_RANGES.get(w)
        if r is None:
            r = _TYPE_RANGES[w] = Range(0, 1) if w == 1 else Range(-(2 ** (w - 1)), 2 ** (w - 1) - 1)
        return r

    @staticmethod
    def exact(c: int) -> Range:
        return Range(c, c)


#: Range.of_type by width
_TYPE_RANGES: dict[int, Range] = {}


def type_range(t) -> Range:
    assert isinstance(t, IntegerType), t
    return Range.of_type(t)


def _floordiv_range(x: Range, y: Range) -> Range | None:
    """The range of `x // y` over the non-zero divisors of `y` (a division by
    zero has no value: it is refused or guarded where it is emitted)."""
    divisors = [Range(y.lo, min(y.hi, -1)), Range(max(y.lo, 1), y.hi)]
    ends = [b for d in divisors if d.lo <= d.hi for b in (d.lo, d.hi)]
    if not ends:
        return None
    corners = [a // b for a in (x.lo, x.hi) for b in ends]
    return Range(min(corners), max(corners))


def _floormod_range(x: Range, y: Range) -> Range:
    if y.lo > 0:
        if 0 <= x.lo and x.hi < y.lo:
            return x
        return Range(0, y.hi - 1)
    if y.hi < 0:
        return Range(y.lo + 1, 0)
    return Range(min(y.lo + 1, 0), max(y.hi - 1, 0))


def _remsi_range(x: Range, y: Range) -> Range:
    m = max(abs(y.lo), abs(y.hi)) - 1
    lo = 0 if x.lo >= 0 else max(-m, x.lo)
    hi = 0 if x.hi <= 0 else min(m, x.hi)
    return Range(lo, hi)


def postorder(root: SSAValue, children, done) -> list[SSAValue]:
    """
    The values reachable from `root` through `children(value)` that are not in
    `done`, each after its children (first child's subtree first): evaluating
    a memoized recursive analysis in this order keeps its recursion one level
    deep, however deep the IR (no RecursionError on long chains).
    """
    order: list[SSAValue] = []
    seen = {root}
    stack = [(root, iter(children(root)))]
    while stack:
        value, it = stack[-1]
        for child in it:
            if child not in seen and child not in done:
                seen.add(child)
                stack.append((child, iter(children(child))))
                break
        else:
            stack.pop()
            order.append(value)
    return order


@contextmanager
def recursion_room(frames: int) -> Iterator[None]:
    """
    Let recursive IR printers (the CuTe printer expands an expression through
    its operands) go `frames` deeper than the current limit, for this block.
    The analyses themselves are iterative (`postorder`); on CPython >= 3.11
    Python-to-Python calls do not use the C stack, so this is safe there.
    """
    old = sys.getrecursionlimit()
    if frames > 100:
        sys.setrecursionlimit(old + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _int_operands(value: SSAValue) -> tuple[SSAValue, ...]:
    op = value.owner
    if not isinstance(op, Operation):
        return ()
    return tuple(o for o in op.operands if isinstance(o.type, IntegerType))


def index_arg_ranges(func: mask.FuncOp) -> dict[SSAValue, Range]:
    """Ranges of the four index arguments of `func` over the domain."""
    b, h, q, kv = func.index_args
    B, H, Q, KV = func.domain_bounds
    # a window starts at kv < KV (kv + 31 < 2^31), and its lanes reach KV + 30
    kv_hi = min(KV - 1, INT32_MAX - (LANES - 1))
    if not func.is_windowed:
        kv_hi = min(kv_hi + LANES - 1, INT32_MAX)
    return {
        b: Range(0, B - 1),
        h: Range(0, H - 1),
        q: Range(0, Q - 1),
        kv: Range(0, kv_hi),
    }


@dataclass
class ValueRanges:
    """Ranges of every integer value of one `mask.func`, computed on demand."""

    func: mask.FuncOp
    ranges: dict[SSAValue, Range] = field(default_factory=dict)
    wrapping: set[Operation] = field(default_factory=set)
    _priming: bool = field(default=False, init=False, repr=False)

    def __post_init__(self):
        self.ranges.update(index_arg_ranges(self.func))

    def may_wrap(self, op: Operation) -> bool:
        """Whether the exact result of `op` may leave its type (so it wraps)."""
        for r in op.results:
            if isinstance(r.type, IntegerType):
                self.of(r)
        return op in self.wrapping

    def of(self, value: SSAValue) -> Range:
        r = self.ranges.get(value)
        if r is not None:
            return r
        if not isinstance(value.type, IntegerType):
            raise ValueError(f"no range for a value of type {value.type}")
        if not self._priming:  # operands first, iteratively (see `postorder`)
            self._priming = True
            try:
                for v in postorder(value, _int_operands, self.ranges)[:-1]:
                    self.of(v)
            finally:
                self._priming = False
        if isinstance(value, BlockArgument):
            r = type_range(value.type)
        else:
            exact = self._exact(value)
            limit = type_range(value.type)
            if exact is None:
                r = limit
            elif exact.within(limit):
                r = exact
            else:
                assert isinstance(value.owner, Operation)
                self.wrapping.add(value.owner)
                r = limit
        self.ranges[value] = r
        return r

    def _exact(self, value: SSAValue) -> Range | None:
        """The range of the exact (unwrapped) result, or None if unknown."""
        op = value.owner
        assert isinstance(op, Operation)
        if value.type == i1:
            return Range(0, 1)
        c = const_evaluate_operand(value)
        if c is not None:
            return Range.exact(c)
        rule = _EXACT.get(type(op))
        if rule is None:
            rule = _exact_rule(type(op))
        return None if rule is None else rule(self, op)


def _binary(combine):
    def rule(self: ValueRanges, op: Operation) -> Range | None:
        operands = op.operands
        return combine(self.of(operands[0]), self.of(operands[1]))

    return rule


def _shrsi(self: ValueRanges, op: Operation) -> Range | None:
    k = const_evaluate_operand(op.operands[1])
    if k is None:
        return None
    return _floordiv_range(self.of(op.operands[0]), Range.exact(2**k))


def _shli(self: ValueRanges, op: Operation) -> Range | None:
    k = const_evaluate_operand(op.operands[1])
    if k is None:
        return None
    return self.of(op.operands[0]).scale(2**k)


def _andi(self: ValueRanges, op: Operation) -> Range | None:
    lhs, rhs = op.operands
    if self.of(rhs).lo >= 0 or self.of(lhs).lo >= 0:
        x, y = self.of(lhs), self.of(rhs)
        return Range(0, min(r.hi for r in (x, y) if r.lo >= 0))
    return None


def _divsi(x: Range, y: Range) -> Range | None:
    r = _floordiv_range(x, y)
    return None if r is None else Range(r.lo, r.hi + 1)


def _extsi(self: ValueRanges, op: Operation) -> Range | None:
    assert isinstance(op, arith.ExtSIOp)
    if op.input.type == i1:
        return Range(-1, 0)
    return self.of(op.input)


def _extui(self: ValueRanges, op: Operation) -> Range | None:
    assert isinstance(op, arith.ExtUIOp)
    r = self.of(op.input)
    if op.input.type == i1:
        return Range(0, 1)
    return r if r.lo >= 0 else Range(0, 2 ** op.input.type.width.data - 1)


def _select(self: ValueRanges, op: Operation) -> Range | None:
    assert isinstance(op, arith.SelectOp)
    return self.of(op.lhs).union(self.of(op.rhs))


def _bound(self: ValueRanges, op: Operation) -> Range | None:
    """`interval.bound`: [0, 32] and the range of sign * u + k, clipped."""
    assert isinstance(op, interval.BoundOp)
    r = self.of(op.u).scale(op.sign_value) + Range.exact(op.k_value)
    return Range(min(max(r.lo, 0), LANES), min(max(r.hi, 0), LANES))


#: the rules of `+`, `-`, `*`, min and max, shared by arith and cute ops
_ADD = _binary(lambda x, y: x + y)
_SUB = _binary(lambda x, y: x - y)
_MUL = _binary(lambda x, y: x * y)
_MIN = _binary(lambda x, y: Range(min(x.lo, y.lo), min(x.hi, y.hi)))
_MAX = _binary(lambda x, y: Range(max(x.lo, y.lo), max(x.hi, y.hi)))


def _signed(rule):
    """`rule` for a `cute` op of a signed result (`i32`, `i64`); a `ui32`
    result is modulo 2^32, which interval arithmetic does not model."""

    def signed_rule(self: ValueRanges, op: Operation) -> Range | None:
        t = op.results[0].type
        if not isinstance(t, IntegerType) or t.signedness.data != Signedness.SIGNLESS:
            return None
        return rule(self, op)

    return signed_rule


def _negation(self: ValueRanges, op: Operation) -> Range | None:
    return Range.exact(0) - self.of(op.operands[0])


def _clamped_sub(self: ValueRanges, op: Operation) -> Range | None:
    assert isinstance(op, cute.ClampedSubOp)
    d = self.of(op.lhs) - self.of(op.rhs)
    lo = -(2**63) if op.lo_value is None else op.lo_value
    hi = 2**63 if op.hi_value is None else op.hi_value
    return Range(min(max(d.lo, lo), hi), min(max(d.hi, lo), hi))


def _wrap_index(self: ValueRanges, op: Operation) -> Range | None:
    """`cute.wrap_index`: the negative part [lo, -1] moved to [lo + n, n - 1]."""
    assert isinstance(op, cute.WrapIndexOp)
    r, n = self.of(op.index), op.size_value
    if r.lo >= 0:
        return r
    if r.hi < 0:
        return Range(r.lo + n, r.hi + n)
    return Range(min(r.lo + n, 0), max(r.hi, n - 1))


def _safe_divisor(self: ValueRanges, op: Operation) -> Range | None:
    """`cute.safe_divisor`: the replaced values (0, maybe -1) left out of the
    ends, 1 in the range where one of them was in it."""
    assert isinstance(op, cute.SafeDivisorOp)
    r, bad = self.of(op.divisor), op.replaced
    lo, hi = r.lo, r.hi
    while lo <= hi and lo in bad:
        lo += 1
    while hi >= lo and hi in bad:
        hi -= 1
    if any(r.lo <= x <= r.hi for x in bad):
        return Range(1, 1) if lo > hi else Range(min(lo, 1), max(hi, 1))
    return r


#: The range rule of each op class (`ValueRanges._exact`): the exact result's
#: range from the operands' ranges. Classes are looked up by exact type, then
#: through their bases (`_exact_rule`), as isinstance would.
def _saturated_i32(self, op) -> Range:
    """`cute.sat_i32`: its operand's range clipped to i32's."""
    r = self.of(op.operands[0])
    return Range(min(max(r.lo, -(2**31)), 2**31 - 1), min(max(r.hi, -(2**31)), 2**31 - 1))


_EXACT_RULES = {
    arith.AddiOp: _ADD,
    arith.SubiOp: _SUB,
    arith.MuliOp: _MUL,
    arith.FloorDivSIOp: _binary(_floordiv_range),
    arith.DivSIOp: _binary(_divsi),
    mask.FloorModOp: _binary(_floormod_range),
    arith.RemSIOp: _binary(_remsi_range),
    arith.DivUIOp: _binary(lambda x, y: _floordiv_range(x, y) if x.lo >= 0 and y.lo > 0 else None),
    arith.RemUIOp: _binary(lambda x, y: _remsi_range(x, y) if x.lo >= 0 and y.lo > 0 else None),
    arith.ShRSIOp: _shrsi,
    arith.ShLIOp: _shli,
    arith.AndIOp: _andi,
    arith.MinSIOp: _MIN,
    arith.MaxSIOp: _MAX,
    arith.SelectOp: _select,
    arith.ExtSIOp: _extsi,
    arith.ExtUIOp: _extui,
    arith.TruncIOp: lambda self, op: self.of(op.operands[0]),
    mask.LaneOp: lambda self, op: Range(0, LANES - 1),
    interval.BoundOp: _bound,
    # the cute dialect's signed expressions (`interval-to-cute`)
    cute.AddOp: _signed(_ADD),
    cute.SubOp: _signed(_SUB),
    cute.MulOp: _signed(_MUL),
    cute.MinOp: _signed(_MIN),
    cute.MaxOp: _signed(_MAX),
    cute.NegI32Op: _negation,
    cute.NegI64Op: _negation,
    cute.ToI64Op: lambda self, op: self.of(op.operands[0]),
    cute.ToI32Op: lambda self, op: self.of(op.operands[0]),
    cute.SatI32Op: _saturated_i32,
    cute.ClampedSubOp: _clamped_sub,
    cute.WrapIndexOp: _wrap_index,
    cute.SafeDivisorOp: _safe_divisor,
    cute.FloorRemOp: _binary(_floormod_range),
    cute.RemOp: _signed(_binary(_remsi_range)),
    cute.ConstantOp: _signed(lambda self, op: Range.exact(op.value_int)),
}
_EXACT: dict[type, object] = dict(_EXACT_RULES)


def _exact_rule(cls: type):
    rule = next((r for base, r in _EXACT_RULES.items() if issubclass(cls, base)), None)
    _EXACT[cls] = rule
    return rule


def lane_dependent_values(func: mask.FuncOp) -> set[SSAValue]:
    """Values of `func` that may differ between the lanes of a window."""
    dependent: set[SSAValue] = set()
    if not func.is_windowed:
        dependent.add(func.index_args[3])
    for op in func.block.walk():
        if isinstance(op, mask.LaneOp | mask.LaneCmpOp) or any(
            o in dependent for o in op.operands
        ):
            dependent.update(op.results)
    return dependent


@dataclass(frozen=True)
class Affine:
    """An exact linear form `sum(coeff * atom) + const` over SSA values."""

    terms: tuple[tuple[SSAValue, int], ...] = ()
    const: int = 0

    @staticmethod
    def atom(v: SSAValue) -> Affine:
        return Affine(((v, 1),), 0)

    def _combine(self, other: Affine, sign: int) -> Affine:
        terms = dict(self.terms)
        for v, c in other.terms:
            terms[v] = terms.get(v, 0) + sign * c
        return Affine(
            tuple((v, c) for v, c in terms.items() if c != 0),
            self.const + sign * other.const,
        )

    def __add__(self, other: Affine) -> Affine:
        return self._combine(other, 1)

    def __sub__(self, other: Affine) -> Affine:
        return self._combine(other, -1)

    def scale(self, k: int) -> Affine:
        if k == 0:
            return Affine()
        return Affine(tuple((v, c * k) for v, c in self.terms), self.const * k)

    def coeff(self, v: SSAValue) -> int:
        return dict(self.terms).get(v, 0)

    def key(self) -> tuple[frozenset, int]:
        """A hashable key equal for equal forms, whatever the term order."""
        return frozenset(self.terms), self.const

    def reduce_mod(self, p: int) -> Affine:
        """A form with the same value mod p: coefficients within (-p, p) are
        kept (so sums of non-negative and negated values stay small), others
        and the constant are reduced into [0, p)."""
        terms = tuple(
            (v, c if -p < c < p else c % p) for v, c in self.terms if c % p
        )
        return Affine(terms, self.const % p)

    def without(self, v: SSAValue) -> Affine:
        return Affine(tuple((t, c) for t, c in self.terms if t != v), self.const)


@dataclass
class LinearForms:
    """
    Lane-affine forms of the integer values of a windowed `mask.func`.

    A lane-uniform value the form cannot see through is an atom. A lane-
    dependent value has a form only when it is built from `mask.lane` by
    non-wrapping additions, subtractions, multiplications by constants and
    sign extensions; otherwise `of` gives None and `why_not` says why.
    """

    func: mask.FuncOp
    ranges: ValueRanges
    dependent: set[SSAValue]
    lane: SSAValue | None
    forms: dict[SSAValue, Affine | None] = field(default_factory=dict)
    _priming: bool = field(default=False, init=False, repr=False)
    _modular: dict = field(default_factory=dict, init=False, repr=False)
    _uniform_modular: dict = field(default_factory=dict, init=False, repr=False)

    @staticmethod
    def build(func: mask.FuncOp) -> LinearForms:
        lane = next(
            (op.result for op in func.block.ops if isinstance(op, mask.LaneOp)), None
        )
        return LinearForms(func, ValueRanges(func), lane_dependent_values(func), lane)

    def of(self, value: SSAValue) -> Affine | None:
        if value in self.forms:
            return self.forms[value]
        if not self._priming:  # operands first, iteratively (see `postorder`)
            self._priming = True
            try:
                for v in postorder(value, _int_operands, self.forms)[:-1]:
                    self.of(v)
            finally:
                self._priming = False
        form = self._form(value)
        self.forms[value] = form
        return form

    def _form(self, value: SSAValue) -> Affine | None:
        c = const_evaluate_operand(value)
        if c is not None:
            return Affine((), c)
        if value is self.lane:
            return Affine.atom(value)
        op = value.owner
        if isinstance(op, Operation) and not self.ranges.may_wrap(op):
            match op:
                case arith.AddiOp():
                    lhs, rhs = self.of(op.lhs), self.of(op.rhs)
                    if lhs is not None and rhs is not None:
                        return lhs + rhs
                case arith.SubiOp():
                    lhs, rhs = self.of(op.lhs), self.of(op.rhs)
                    if lhs is not None and rhs is not None:
                        return lhs - rhs
                case arith.MuliOp():
                    lhs, rhs = self.of(op.lhs), self.of(op.rhs)
                    if lhs is not None and rhs is not None:
                        if not rhs.terms:
                            return lhs.scale(rhs.const)
                        if not lhs.terms:
                            return rhs.scale(lhs.const)
                case arith.ShLIOp() if (k := const_evaluate_operand(op.rhs)) is not None:
                    lhs = self.of(op.lhs)
                    if lhs is not None:
                        return lhs.scale(2**k)
                case arith.ExtSIOp() | arith.TruncIOp() if (
                    op.input.type != i1
                ):
                    return self.of(op.input)
                case _:
                    pass
        if value not in self.dependent:
            return Affine.atom(value)
        return None

    def modular(self, value: SSAValue) -> tuple[Affine, int | None] | None:
        """
        `(E, w)` where `value` equals `E` wrapped to a w-bit two's complement
        integer (w None: `value` is `E` itself, `of(value)`), E an exact linear
        form: `value` is built from exact forms by additions, subtractions,
        multiplications by constants and left shifts by constants that may
        wrap at width w, and truncations to width w. Wrapping is a ring
        homomorphism mod 2^w, so intermediate wraps of the chain do not
        matter: wrap(wrap(a) + b) = wrap(a + b). None for anything else (a
        sign extension of a wrapped value, a division, ...).
        """
        if value in self._modular:
            return self._modular[value]
        exact = self.of(value)
        if exact is not None:
            return exact, None
        for v in postorder(value, _int_operands, self._modular)[:-1]:
            self._modular[v] = self._modular_form(v)  # operands first: no deep recursion
        m = self._modular[value] = self._modular_form(value)
        return m

    def _modular_form(self, value: SSAValue) -> tuple[Affine, int | None] | None:
        exact = self.of(value)
        if exact is not None:
            return exact, None
        op = value.owner
        if not isinstance(op, Operation) or not isinstance(value.type, IntegerType):
            return None
        w = value.type.width.data

        def operand(v: SSAValue) -> Affine | None:
            m = self.modular(v)
            if m is None or (m[1] is not None and m[1] != w):
                return None
            return m[0]

        match op:
            case arith.AddiOp() | arith.SubiOp():
                a, b = operand(op.lhs), operand(op.rhs)
                if a is None or b is None:
                    return None
                return (a + b if isinstance(op, arith.AddiOp) else a - b), w
            case arith.MuliOp():
                a, b = operand(op.lhs), operand(op.rhs)
                if a is None or b is None:
                    return None
                if not b.terms:
                    return a.scale(b.const), w
                if not a.terms:
                    return b.scale(a.const), w
            case arith.ShLIOp() if (k := const_evaluate_operand(op.rhs)) is not None and 0 <= k < w:
                a = operand(op.lhs)
                if a is not None:
                    return a.scale(2**k), w
            case arith.TruncIOp():
                m = self.modular(op.input)
                if m is not None and (m[1] is None or m[1] >= w):
                    return m[0], w
            case _:
                pass
        return None

    def uniform_modular(self, value: SSAValue) -> tuple[Affine, int] | None:
        """
        `(E, w)` for a lane-uniform value that is E wrapped to w bits where E
        may leave the w-bit range (`of` sees such a value as an atom): an
        exact linear form E of atoms that do not wrap, through the chain of
        additions, subtractions, multiplications and left shifts by
        constants, and truncations (see `modular`) that computes `value`.
        `q_idx + 3000 + 1` is (q + 3001, 32). None when `value` cannot wrap,
        depends on the lane, or is not such a chain.
        """
        if value in self._uniform_modular:
            return self._uniform_modular[value]
        if value in self.dependent:
            return None
        for v in postorder(value, _int_operands, self._uniform_modular)[:-1]:
            self._uniform_modular[v] = self._uniform_modular_form(v)
        m = self._uniform_modular[value] = self._uniform_modular_form(value)
        return m

    def _uniform_modular_form(self, value: SSAValue) -> tuple[Affine, int] | None:
        op = value.owner
        if (
            value in self.dependent
            or not isinstance(op, Operation)
            or not isinstance(value.type, IntegerType)
            or value.type == i1
        ):
            return None
        w = value.type.width.data
        wraps = self.ranges.may_wrap(op)

        def operand(v: SSAValue) -> Affine | None:
            nonlocal wraps
            m = self.uniform_modular(v)
            if m is not None:
                if m[1] != w and not (isinstance(op, arith.TruncIOp) and m[1] > w):
                    return None
                wraps = True
                return m[0]
            return self.of(v)

        form: Affine | None = None
        match op:
            case arith.AddiOp() | arith.SubiOp():
                a, b = operand(op.lhs), operand(op.rhs)
                if a is not None and b is not None:
                    form = a + b if isinstance(op, arith.AddiOp) else a - b
            case arith.MuliOp():
                a, b = operand(op.lhs), operand(op.rhs)
                if a is not None and b is not None:
                    if not b.terms:
                        form = a.scale(b.const)
                    elif not a.terms:
                        form = b.scale(a.const)
            case arith.ShLIOp() if (k := const_evaluate_operand(op.rhs)) is not None and 0 <= k < w:
                a = operand(op.lhs)
                if a is not None:
                    form = a.scale(2**k)
            case arith.TruncIOp():
                form = operand(op.input)
            case _:
                pass
        if form is None or not wraps:
            return None
        return form, w

    def why_not(self, value: SSAValue) -> str:
        """Why a lane-dependent value has no lane-affine form (for remarks)."""
        return str(self.explain(value))

    def explain(self, value: SSAValue) -> Reason:
        """`why_not` as a `Reason`: the message, the culprit value, a suggestion."""
        op = value.owner
        if not isinstance(op, Operation):
            return Reason(f"{describe(value)} is not lane-affine", value)
        if self.ranges.may_wrap(op) and value in self.dependent:
            return Reason(
                f"{describe(value)} may overflow {value.type}, so it is not lane-affine", value
            )
        for operand in op.operands:
            if (
                operand in self.dependent
                and isinstance(operand.type, IntegerType)
                and operand.type != IntegerType(1)
                and self.of(operand) is None
                # abs/min/max/where are piecewise lane-affine: blame their user
                and not isinstance(operand.owner, (arith.SelectOp, arith.MinSIOp, arith.MaxSIOp))
            ):
                return self.explain(operand)
        match op:
            case mask.LoadOp():
                return Reason(
                    f"{describe(value)} is a per-lane gather: its index depends on kv_idx",
                    value,
                    _gather_suggestion(op, self.dependent),
                )
            case arith.MuliOp():
                return Reason(f"{describe(value)} multiplies two lane-dependent values", value)
            case _:
                sym = _PYTHON_OPS.get(type(op), op.name)
                return Reason(
                    f"{describe(value)} is not linear in kv_idx ({sym} of a value that "
                    "depends on kv_idx)",
                    value,
                )

    def uniform_range(self, form: Affine) -> Range:
        """The range of a lane-uniform form over the domain."""
        r = Range.exact(form.const)
        for v, c in form.terms:
            r = r + self.ranges.of(v).scale(c)
        return r

    def relational_range(self, form: Affine) -> Range:
        """
        `uniform_range`, tighter where the form pairs an atom `x` with
        `x // c` (c > 0 constant): `k * x - k * c * (x // c)` is `k * (x mod c)`,
        in k * [0, c - 1] (`q - (q // 96) * 96 + 95 >= 0` although q and
        q // 96 each range widely).
        """
        coeffs = dict(form.terms)
        r = Range.exact(form.const)
        for d, a in form.terms:
            op = d.owner
            if not isinstance(op, arith.FloorDivSIOp) or op.lhs not in coeffs:
                continue
            c = const_evaluate_operand(op.rhs)
            if c is None or c <= 0 or a % c or coeffs[d] != a:
                continue
            k = -a // c
            coeffs[d] = 0
            coeffs[op.lhs] -= k
            r = r + Range(0, c - 1).scale(k)
        return r + self.uniform_range(Affine(tuple((v, c) for v, c in coeffs.items() if c), 0))


#: How the mask_mod spells an op, for remarks.
_PYTHON_OPS: dict[type, str] = {
    mask.FloorModOp: "`%`",
    arith.RemSIOp: "`torch.fmod`",
    arith.FloorDivSIOp: "`//`",
    arith.DivSIOp: "truncating division",
    arith.AndIOp: "`&`",
    arith.OrIOp: "`|`",
    arith.XOrIOp: "`^`",
    arith.ShRSIOp: "`>>`",
    arith.ShLIOp: "`<<`",
    arith.SelectOp: "`torch.where`",
    arith.MinSIOp: "`torch.minimum`",
    arith.MaxSIOp: "`torch.maximum`",
}


def describe(value: SSAValue) -> str:
    """A value in the user's terms, backquoted: its source expression
    (`doc_ids[kv_idx]`) or, without source, the IR rendered as Python."""
    return f"`{expression(value)}`"


def _gather_suggestion(load: mask.LoadOp, dependent: set[SSAValue]) -> str:
    """What to write instead of a per-lane gather `t[..kv_idx..]`."""
    generic = (
        "index aux tensors by lane-uniform values (b, h, q_idx) instead, e.g. "
        "a starts/offsets tensor indexed by the document of q_idx"
    )
    if load.result.type == IntegerType(1):
        return (
            "if the kv positions it keeps form a few runs, compare kv_idx with their "
            "bounds instead (`(kv_idx >= start) & (kv_idx < end)` with start and end "
            "indexed by b, h or q_idx)"
        )
    for use in load.result.uses:
        cmp = use.operation
        if not isinstance(cmp, arith.CmpiOp) or cmp.predicate.value.data != 0:  # eq
            continue
        other = cmp.rhs if cmp.lhs is load.result else cmp.lhs
        peer = other.owner
        if (
            isinstance(peer, mask.LoadOp)
            and peer.tensor is load.tensor
            and other not in dependent
        ):
            ids = expression(load.tensor, 1)
            mine = expression(other)
            return (
                f"if documents are contiguous, compare kv_idx with the bounds of q_idx's "
                f"document instead of comparing {ids} of q_idx and kv_idx: "
                f"`(kv_idx >= doc_starts[{mine}]) & (kv_idx < doc_ends[{mine}])` packs "
                "(doc_starts/doc_ends indexed by document id)"
            )
    return generic


def is_aux_tensor(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType)
