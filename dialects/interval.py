"""
The `interval` dialect: sets of lanes of a 32-lane KV window.

A value of type `!interval.set` is a subset of the lanes {0, ..., 31}.
`interval.range %lo, %hi` is the half-open run {L : lo <= L < hi} with
lane-uniform integer bounds of any value (a bound outside [0, 32] simply
clips); `interval.span %u * sign + k width W` is the run [a, a + W) of a
fixed width at a = sign * u + k. `interval.periodic %phase period P
residues M` is the periodic set {L : (L + phase) mod P is in M} (M a bit mask of residues, P <= 32). `interval.table %shift, %t [gt] table [T0, ..., T31]` is
the threshold set {L : 0 <= L + shift < 32 and T[L + shift] <= t} (`> t`
with `gt`) of a constant 32-entry table T, shifted by a lane-uniform amount.
`interval.bound %u * sign + k side S` is a lane bound as a value: the i32
`clip(sign * u + k, 0, 32)` of a lane-uniform integer u; `fold-intervals`
emits one per bound of a run, and `lower-interval-bounds` expands it into
the arith the CuTe target prints (the cost model reads its `side`).
Sets combine with union, intersect and complement, a lane-uniform
condition selects between two sets, and `interval.keep_word` turns a set
into the 32-bit keep word FA4 applies (bit L set iff lane L is in the set).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I1,
    I32,
    I64,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Dialect, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    Commutative,
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

#: Number of lanes in a window (one packed keep word).
LANES = 32


@irdl_attr_definition
class LaneSetType(ParametrizedAttribute, TypeAttribute):
    """A subset of the 32 lanes of a KV window: `!interval.set`."""

    name = "interval.set"


lane_set = LaneSetType()


class IntervalOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns import interval as p

        return p.ALL_PATTERNS


class BoundOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns import interval_bound as p

        return p.ALL_PATTERNS


@irdl_op_definition
class RangeOp(IRDLOperation):
    """
    The half-open lane run [lo, hi). Bounds are lane-uniform integers of one
    type and may lie outside [0, 32]; only their clipped values matter.

    Example:

    ```mlir
    %s = interval.range %lo, %hi : i32
    ```
    """

    name = "interval.range"

    T: ClassVar = VarConstraint("T", base(IntegerType))
    lo = operand_def(T)
    hi = operand_def(T)
    result = result_def(LaneSetType)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = "$lo `,` $hi attr-dict `:` type($lo)"

    def __init__(self, lo: SSAValue, hi: SSAValue):
        super().__init__(operands=[lo, hi], result_types=[lane_set])


class _AffineOfU(IRDLOperation):
    """An op of `sign * u + k` for a lane-uniform i32 or i64 `u`, a sign +-1 and
    a constant k (exact integer arithmetic): `interval.bound`, `interval.span`."""

    u = operand_def(I32 | I64)
    sign = prop_def(IntegerAttr[I64])
    k = prop_def(IntegerAttr[I64])

    @property
    def sign_value(self) -> int:
        return self.sign.value.data

    @property
    def k_value(self) -> int:
        return self.k.value.data

    def verify_(self) -> None:
        # (a value constraint on `sign` would print its type, `1 : i64`)
        if self.sign_value not in (1, -1):
            raise VerifyException(
                f"{self.name} sign must be 1 or -1, got {self.sign_value}"
            )


@irdl_op_definition
class SpanOp(_AffineOfU):
    """
    The lanes [a, a + width) of the window for a = sign * u + k in exact
    integer arithmetic (lanes outside [0, 32) are dropped): a run of a fixed
    width whose position is lane-uniform, the set that `interval.range` of
    the bounds `u * sign + k` and `u * sign + (k + width)` keeps. `sign` is
    +-1, `k` a constant and `width` in [1, 32]. `lower-interval-bounds`
    makes one of such a range (a diagonal `q_idx == kv_idx` is the lane
    q - kv); the CuTe target puts the lanes in place with one bmsk, or one
    64-bit shift of `width` ones where a may be negative, instead of
    computing two clamped bounds.

    Example (`q_idx == kv_idx`: the lane u = q - kv; and the nine lanes
    u - 8 .. u):

    ```mlir
    %d = interval.span %u * 1 + 0 width 1 : i32
    %n = interval.span %u * 1 + -8 width 9 : i32
    ```
    """

    name = "interval.span"

    width = prop_def(IntegerAttr[I64])
    result = result_def(LaneSetType)

    traits = traits_def(Pure())

    assembly_format = "$u `*` $sign `+` $k `width` $width attr-dict `:` type($u)"

    def __init__(self, u: SSAValue, sign: int, k: int, width: int):
        super().__init__(
            operands=[u],
            result_types=[lane_set],
            properties={
                "sign": IntegerAttr(sign, i64),
                "k": IntegerAttr(k, i64),
                "width": IntegerAttr(width, i64),
            },
        )

    @property
    def width_value(self) -> int:
        return self.width.value.data

    def starts(self, u_lo, u_hi):
        """The (lowest, highest) start sign * u + k for u in [u_lo, u_hi]
        (integers or tensors alike)."""
        k = self.k_value
        return (u_lo + k, u_hi + k) if self.sign_value > 0 else (k - u_hi, k - u_lo)

    def u_window(self) -> tuple[int, int]:
        """The u whose start is in [-width, 32], within i64: outside them the
        span keeps no lane, as at their ends."""
        sign, k, w = self.sign_value, self.k_value, self.width_value
        lo, hi = sorted(((-w - k) * sign, (LANES - k) * sign))
        return max(lo, -(2**63)), min(hi, 2**63 - 1)

    def verify_(self) -> None:
        super().verify_()
        if not 1 <= self.width_value <= LANES:
            raise VerifyException(
                f"interval.span width must be in [1, {LANES}], got {self.width_value}"
            )


@irdl_op_definition
class PeriodicOp(IRDLOperation):
    """
    The periodic lane set {L : (L + phase) mod period is a residue in
    `residues`}, where `phase` is a lane-uniform integer of any value (the
    modulus is the floor one, so it is in [0, period)) and bit j of the
    constant `residues` keeps residue j. `period` is in [1, 32].

    Example (the even KV columns, `(kv_idx + L) % 2 == 0`):

    ```mlir
    %even = interval.periodic %kv_idx period 2 residues 1 : i32
    ```
    """

    name = "interval.periodic"

    phase = operand_def(IntegerType)
    period = prop_def(IntegerAttr[I64])
    residues = prop_def(IntegerAttr[I64])
    result = result_def(LaneSetType)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = (
        "$phase `period` $period `residues` $residues attr-dict `:` type($phase)"
    )

    def __init__(self, phase: SSAValue, period: int, residues: int):
        super().__init__(
            operands=[phase],
            result_types=[lane_set],
            properties={
                "period": IntegerAttr(period, i64),
                "residues": IntegerAttr(residues, i64),
            },
        )

    @property
    def period_value(self) -> int:
        return self.period.value.data

    @property
    def residues_value(self) -> int:
        return self.residues.value.data

    def verify_(self) -> None:
        p, m = self.period_value, self.residues_value
        if not 1 <= p <= LANES:
            raise VerifyException(
                f"interval.periodic period must be in [1, {LANES}], got {p}"
            )
        if not 0 <= m < 2**p:
            raise VerifyException(
                f"interval.periodic residues {m:#x} must be a mask of the "
                f"{p} residues of period {p}"
            )


@irdl_op_definition
class TableOp(IRDLOperation):
    """
    A threshold set of a constant table: the lanes L with r = L + shift in
    [0, 32) and `table[r] <= t` (`table[r] > t` with `gt`). `shift` and `t`
    are lane-uniform integers of any value; `table` has 32 entries. With a
    fixed table, the sets of `<= t` are a monotone family of at most 33 words
    (a new lane set only at each distinct table value), which the CuTe target
    selects by comparing `t` with the table's values and then shifts by
    `shift` (right when it is >= 0, left otherwise).

    `fold-intervals` makes one for a comparison of a bitwise function of
    kv_idx (`&`, `|`, `^`, shifts and power-of-two `//` and `%` with constants,
    e.g. a Morton decode) with a lane-uniform value: within one aligned block
    of 32 KV indices the function is its value at the block start plus a
    table of the offset in the block.

    Example (the lanes of `(kv_idx + L) & 7 < 3` for a block starting at
    kv_idx - %o, %o in [0, 32)):

    ```mlir
    %s = interval.table %o, %c2 table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
    ```
    """

    name = "interval.table"

    shift = operand_def(IntegerType)
    t = operand_def(IntegerType)
    table = prop_def(DenseArrayBase[I64])
    gt = opt_prop_def(UnitAttr)
    result = result_def(LaneSetType)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = (
        "$shift `,` $t (`gt` $gt^)? `table` $table attr-dict `:` type($shift) `,` type($t)"
    )

    def __init__(
        self, shift: SSAValue, t: SSAValue, table: Sequence[int], gt: bool = False
    ):
        super().__init__(
            operands=[shift, t],
            result_types=[lane_set],
            properties={
                "table": DenseArrayBase.from_list(i64, list(table)),
                **({"gt": UnitAttr()} if gt else {}),
            },
        )

    @property
    def table_values(self) -> tuple[int, ...]:
        return tuple(self.table.get_values())

    @property
    def is_gt(self) -> bool:
        return self.gt is not None

    def verify_(self) -> None:
        n = len(self.table_values)
        if n != LANES:
            raise VerifyException(
                f"interval.table table must have {LANES} entries, got {n}"
            )

    def word(self, t: int) -> int:
        """The 32-bit set of table entries r kept for threshold t (unshifted)."""
        vals = self.table_values
        keep = (lambda v: v > t) if self.is_gt else (lambda v: v <= t)
        return sum(1 << r for r, v in enumerate(vals) if keep(v))


#: The uses of a lane bound (`interval.bound`'s `side`): a lower bound of a
#: run, an upper one, or both.
BOUND_SIDES = ("lo", "hi", "both")


@irdl_op_definition
class BoundOp(_AffineOfU):
    """
    A lane bound: the i32 value `clip(sign * u + k, 0, 32)` of a lane-uniform
    integer `u` (i32 or i64), in exact integer arithmetic (`sign * u + k`
    does not wrap). `sign` is +-1 and `k` a constant; bounds of one
    `(u, sign)` are ordered by k, which is how `fold-intervals` compares
    them. `side` ("lo", "hi" or "both") says how the bound is used, a lower
    bound of a run, an upper one or both: the cost model of
    `lower-interval-bounds`, which expands the op into arith that computes
    it without overflow, reads it (a bound that is >= 0 saves the CuTe
    target a clamp; an upper bound may be computed as `32 - a` for a shift
    amount `a`). Lowered forms agree with the op only after clipping, so
    every use of a bound must depend on its clipped value alone (range
    bounds and min / max of bounds do).

    Example (`kv_idx + L <= q_idx`, i.e. lanes L < q - kv + 1: the upper bound
    `clip(u + 1, 0, 32)` of u = q - kv; and a lower bound from an i64 u):

    ```mlir
    %hi = interval.bound %u * 1 + 1 side "hi" : i32
    %lo = interval.bound %s * -1 + 31 side "lo" : i64
    %r = interval.range %lo, %hi : i32
    ```
    """

    name = "interval.bound"

    side = prop_def(
        EqAttrConstraint(StringAttr("lo"))
        | EqAttrConstraint(StringAttr("hi"))
        | EqAttrConstraint(StringAttr("both"))
    )
    result = result_def(I32)

    traits = traits_def(Pure(), BoundOpHasCanonicalizationPatterns())

    assembly_format = "$u `*` $sign `+` $k `side` $side attr-dict `:` type($u)"

    def __init__(self, u: SSAValue, sign: int, k: int, side: str):
        super().__init__(
            operands=[u],
            result_types=[i32],
            properties={
                "sign": IntegerAttr(sign, i64),
                "k": IntegerAttr(k, i64),
                "side": StringAttr(side),
            },
        )

    @property
    def side_value(self) -> str:
        return self.side.data

    def clipped(self, u: int) -> int:
        """The bound's value for the value `u` of its operand."""
        return min(max(self.sign_value * u + self.k_value, 0), LANES)


@irdl_op_definition
class FullOp(IRDLOperation):
    """
    All 32 lanes.

    Example:

    ```mlir
    %all = interval.full
    ```
    """

    name = "interval.full"

    result = result_def(LaneSetType)

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[lane_set])


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """
    No lane.

    Example:

    ```mlir
    %none = interval.empty
    ```
    """

    name = "interval.empty"

    result = result_def(LaneSetType)

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[lane_set])


class _SetNaryOp(IRDLOperation):
    sets = var_operand_def(LaneSetType)
    result = result_def(LaneSetType)

    traits = traits_def(
        Pure(), Commutative(), IntervalOpHasCanonicalizationPatterns()
    )

    assembly_format = "$sets attr-dict"

    def __init__(self, sets: Sequence[SSAValue]):
        super().__init__(operands=[list(sets)], result_types=[lane_set])

    def verify_(self) -> None:
        if len(self.sets) < 1:
            raise VerifyException(f"{self.name} needs at least one set")


@irdl_op_definition
class UnionOp(_SetNaryOp):
    """
    The lanes in any of the operands.

    Example:

    ```mlir
    %u = interval.union %a, %b, %c
    ```
    """

    name = "interval.union"


@irdl_op_definition
class IntersectOp(_SetNaryOp):
    """
    The lanes in all of the operands.

    Example:

    ```mlir
    %i = interval.intersect %a, %b
    ```
    """

    name = "interval.intersect"


@irdl_op_definition
class ComplementOp(IRDLOperation):
    """
    The lanes of the window not in the operand.

    Example:

    ```mlir
    %c = interval.complement %a
    ```
    """

    name = "interval.complement"

    set = operand_def(LaneSetType)
    result = result_def(LaneSetType)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = "$set attr-dict"

    def __init__(self, set: SSAValue):
        super().__init__(operands=[set], result_types=[lane_set])


@irdl_op_definition
class SelectOp(IRDLOperation):
    """
    A lane-uniform choice between two sets: `%t` if `%cond` else `%f`.

    Example:

    ```mlir
    %s = interval.select %in_doc, %run, %none
    ```
    """

    name = "interval.select"

    cond = operand_def(I1)
    true_set = operand_def(LaneSetType)
    false_set = operand_def(LaneSetType)
    result = result_def(LaneSetType)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = "$cond `,` $true_set `,` $false_set attr-dict"

    def __init__(self, cond: SSAValue, true_set: SSAValue, false_set: SSAValue):
        super().__init__(
            operands=[cond, true_set, false_set], result_types=[lane_set]
        )


@irdl_op_definition
class KeepWordOp(IRDLOperation):
    """
    The 32-bit keep word of a set: bit L is set iff lane L is in the set.

    Example:

    ```mlir
    %word = interval.keep_word %s : i32
    ```
    """

    name = "interval.keep_word"

    set = operand_def(LaneSetType)
    result = result_def(I32)

    traits = traits_def(Pure(), IntervalOpHasCanonicalizationPatterns())

    assembly_format = "$set attr-dict `:` type($result)"

    def __init__(self, set: SSAValue):
        super().__init__(operands=[set], result_types=[i32])


Interval = Dialect(
    "interval",
    [
        RangeOp,
        SpanOp,
        PeriodicOp,
        TableOp,
        BoundOp,
        FullOp,
        EmptyOp,
        UnionOp,
        IntersectOp,
        ComplementOp,
        SelectOp,
        KeepWordOp,
    ],
    [LaneSetType],
)
