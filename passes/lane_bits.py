"""
Bit provenance of bitwise functions of kv_idx over an aligned block of 32
KV indices (used by `fold-intervals` for `interval.table`).

Write the per-lane KV index as kv = H + r with H a multiple of 32 (lane-
uniform) and r in [0, 32). Bits 0..4 of kv are the bits of r, the others
those of H. Through `&`, `|`, `^` (with constants or lane-uniform values),
shifts by constants, sign/zero extension, truncation, and `//` / `%` by
constant powers of two, every bit of a value is one of:

- a function of r alone: its 32-entry truth table over r (a constant bit is
  the all-zero or all-one table), or
- `UNIFORM`: a function of H and of lane-uniform values only,

unless some operation mixes the two in one bit position (then the value has
no provenance). A value whose bits all have a provenance splits exactly,
as a signed sum over disjoint bit positions, into a lane-uniform part and a
part that depends on r only, so for every aligned H

    v(H + r) = v(H) + T(r),     T(r) = R(r) - R(0),

where R(r) is the signed sum of the r-dependent bits (the sign bit weighs
-2^(w-1)) and v(H) is the value computed with kv := H. Sums, differences and
multiples by constants of such values that never wrap on the mask domain
keep the form (their tables add up), and lane-uniform values have T = 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from maskopt.dialects import mask
from maskopt.passes.analysis import LANES, Affine, LinearForms

#: A bit that depends on H and lane-uniform values only.
UNIFORM = -1
#: Truth table of a constant 1 bit over r in [0, 32).
ONE = (1 << LANES) - 1
#: The truth tables of the five low bits of kv = H + r.
R_BITS = tuple(sum(1 << r for r in range(LANES) if r >> i & 1) for i in range(5))

Bits = tuple[int, ...]  # bit i (LSB first): UNIFORM or a truth table in [0, ONE]


def _and(a: int, b: int) -> int | None:
    if a == 0 or b == 0:
        return 0
    if a == ONE:
        return b
    if b == ONE:
        return a
    if a == UNIFORM and b == UNIFORM:
        return UNIFORM
    if a == UNIFORM or b == UNIFORM:
        return None
    return a & b


def _or(a: int, b: int) -> int | None:
    if a == ONE or b == ONE:
        return ONE
    if a == 0:
        return b
    if b == 0:
        return a
    if a == UNIFORM and b == UNIFORM:
        return UNIFORM
    if a == UNIFORM or b == UNIFORM:
        return None
    return a | b


def _xor(a: int, b: int) -> int | None:
    if a == UNIFORM and b in (0, ONE) or b == UNIFORM and a in (0, ONE):
        return UNIFORM
    if a == UNIFORM and b == UNIFORM:
        return UNIFORM
    if a == UNIFORM or b == UNIFORM:
        return None
    return a ^ b


def _width(v: SSAValue) -> int | None:
    t = v.type
    if isinstance(t, IntegerType) and t != i1:
        return t.width.data
    return None


def _log2(c: int | None) -> int | None:
    if c is None or c <= 0 or c & (c - 1):
        return None
    return c.bit_length() - 1


@dataclass
class LaneBits:
    """
    Bit provenance and block tables of the values of a windowed function,
    relative to one block base `base`: the lane-uniform linear form A with
    kv = A + L for the leaves (values whose form is A + 1 * lane).
    """

    forms: LinearForms
    base: Affine
    bits_memo: dict[SSAValue, Bits | None] = field(default_factory=dict)
    table_memo: dict[SSAValue, tuple[int, ...] | None] = field(default_factory=dict)

    def is_leaf(self, v: SSAValue) -> bool:
        lane = self.forms.lane
        if lane is None or v not in self.forms.dependent:
            return False
        f = self.forms.of(v)
        return f is not None and f.coeff(lane) == 1 and f.without(lane).key() == self.base.key()

    def bits(self, v: SSAValue) -> Bits | None:
        if v in self.bits_memo:
            return self.bits_memo[v]
        self.bits_memo[v] = None  # cycles cannot happen in SSA; guards recursion
        b = self._bits(v)
        self.bits_memo[v] = b
        return b

    def _bits(self, v: SSAValue) -> Bits | None:
        w = _width(v)
        if w is None:
            return None
        c = const_evaluate_operand(v)
        if c is not None:
            return tuple(ONE if c >> i & 1 else 0 for i in range(w))
        if v not in self.forms.dependent:
            return (UNIFORM,) * w
        if self.is_leaf(v):
            return tuple(R_BITS[i] if i < 5 else UNIFORM for i in range(w))
        op = v.owner
        if not isinstance(op, Operation):
            return None
        match op:
            case arith.AndIOp() | arith.OrIOp() | arith.XOrIOp():
                fn = {arith.AndIOp: _and, arith.OrIOp: _or, arith.XOrIOp: _xor}[type(op)]
                x, y = self.bits(op.lhs), self.bits(op.rhs)
                if x is None or y is None:
                    return None
                out = tuple(fn(a, b) for a, b in zip(x, y))
                return None if None in out else out  # type: ignore[return-value]
            case arith.ShRSIOp() | arith.ShRUIOp() | arith.ShLIOp() | arith.FloorDivSIOp() | arith.DivSIOp():
                k = const_evaluate_operand(op.rhs)
                if isinstance(op, (arith.FloorDivSIOp, arith.DivSIOp)):
                    k = _log2(k)
                    if k is not None and isinstance(op, arith.DivSIOp) and self.forms.ranges.of(op.lhs).lo < 0:
                        return None  # truncating division of a possibly negative value
                if k is None or not 0 <= k < w:
                    return None
                x = self.bits(op.lhs)
                if x is None:
                    return None
                if isinstance(op, arith.ShLIOp):
                    return (0,) * k + x[: w - k]
                fill = 0 if isinstance(op, arith.ShRUIOp) else x[w - 1]
                return x[k:] + (fill,) * k
            case mask.FloorModOp() | arith.RemSIOp():
                k = _log2(const_evaluate_operand(op.rhs))
                if k is None or k >= w:
                    return None
                if isinstance(op, arith.RemSIOp) and self.forms.ranges.of(op.lhs).lo < 0:
                    return None  # truncating remainder of a possibly negative value
                x = self.bits(op.lhs)
                if x is None:
                    return None
                return x[:k] + (0,) * (w - k)  # x mod 2^k = x & (2^k - 1)
            case arith.ExtSIOp() | arith.ExtUIOp():
                x = self.bits(op.input)
                if x is None:
                    return None
                fill = x[-1] if isinstance(op, arith.ExtSIOp) else 0
                return x + (fill,) * (w - len(x))
            case arith.TruncIOp():
                x = self.bits(op.input)
                return None if x is None else x[:w]
        return None

    def table(self, v: SSAValue) -> tuple[int, ...] | None:
        """T with v(H + r) = v(H) + T(r) for every aligned H, or None."""
        if v in self.table_memo:
            return self.table_memo[v]
        self.table_memo[v] = None
        t = self._table(v)
        self.table_memo[v] = t
        return t

    def _table(self, v: SSAValue) -> tuple[int, ...] | None:
        if _width(v) is None:
            return None
        if v not in self.forms.dependent:
            return (0,) * LANES
        b = self.bits(v)
        if b is not None:
            w = len(b)
            weights = [(1 << i) if i < w - 1 else -(1 << i) for i in range(w)]

            def rpart(r: int) -> int:
                return sum(wt for wt, tt in zip(weights, b) if tt != UNIFORM and tt >> r & 1)

            r0 = rpart(0)
            return tuple(rpart(r) - r0 for r in range(LANES))
        op = v.owner
        if not isinstance(op, Operation) or self.forms.ranges.may_wrap(op):
            return None
        match op:
            case arith.AddiOp() | arith.SubiOp():
                x, y = self.table(op.lhs), self.table(op.rhs)
                if x is None or y is None:
                    return None
                s = 1 if isinstance(op, arith.AddiOp) else -1
                return tuple(a + s * c for a, c in zip(x, y))
            case arith.MuliOp():
                for a, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    k = const_evaluate_operand(c)
                    x = self.table(a)
                    if k is not None and x is not None:
                        return tuple(k * e for e in x)
            case arith.ExtSIOp() if op.input.type != i1:
                return self.table(op.input)
        return None
