"""
The `cute` dialect: the CuTe DSL expressions a keep word is printed as.

The CuTe target (`maskopt.lowering.cute`) prints each op as one CuTe DSL
expression; `interval-to-cute` (`maskopt.lowering.interval_to_cute`) builds
them from the `interval` dialect's lane runs, making the word-form choices
(bmsk or shifts, clamps, Uint32 widths) in the IR rather than in the printer.

Types say which CuTe type a value has: `ui32` is a `cutlass.Uint32` (a keep
word, a PTX operand, unsigned arithmetic modulo 2^32), signless `i32` and
`i64` are `cutlass.Int32` and `cutlass.Int64` (signed). Signed `cute.add`,
`cute.sub` are only built where value ranges show that they cannot
overflow; their semantics wrap like the machine's.

The ops are expressions: the printer writes each in place, inside its user,
except where its result has a name (`%lo = ...`), which it binds on a line of
its own. `cute.lanes` turns a word into the `!interval.set` it keeps, so the
rest of the `interval` dialect (union, select, keep_word) is unchanged.

The PTX helpers (`cute.bmsk`, `cute.shl_hi64`, `cute.neg_i32`, `cute.neg_i64`,
`cute.sat_u32`, `cute.sat_i32`) are those of `maskopt.lowering.helpers.HELPERS`; their CPU
semantics, used by the interpreter (`maskopt.dialects.semantics`), come from
that registry.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I1,
    I32,
    I64,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
)
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import ConstantLike, Pure

from maskopt.dialects.interval import LaneSetType, lane_set

#: `cutlass.Uint32`: a keep word or an unsigned 32-bit value.
ui32 = IntegerType(32, Signedness.UNSIGNED)

_Int = EqAttrConstraint(IntegerType(32)) | EqAttrConstraint(IntegerType(64)) | EqAttrConstraint(ui32)
_Int32 = EqAttrConstraint(IntegerType(32)) | EqAttrConstraint(ui32)
#: a signed `cutlass.Int32` or `cutlass.Int64` value
_Signed = EqAttrConstraint(IntegerType(32)) | EqAttrConstraint(IntegerType(64))


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """
    A constant of a CuTe type, printed `cutlass.Uint32(k)` (the all-ones word
    as `cutlass.Uint32(0xFFFFFFFF)`, a `hex` one as `cutlass.Uint32(0xaaaaaaaa)`)
    or `cutlass.Int32(k)`.

    Example:

    ```mlir
    %ones = cute.constant 4294967295 : ui32
    %zero = cute.constant 0 : ui32
    %bits = cute.constant 2863311530 : ui32 hex
    ```
    """

    name = "cute.constant"

    T: ClassVar = VarConstraint("T", _Int)
    value = prop_def(IntegerAttr.constr(type=T))
    hex = opt_prop_def(UnitAttr)
    """print the value in hexadecimal (a bit pattern)"""
    result = result_def(T)

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "$value (`hex` $hex^)? attr-dict"

    def __init__(self, value: int, type: IntegerType = ui32, *, hex: bool = False):
        properties: dict = {"value": IntegerAttr(value, type)}
        if hex:
            properties["hex"] = UnitAttr()
        super().__init__(result_types=[type], properties=properties)

    @property
    def value_int(self) -> int:
        return self.value.value.data


@irdl_op_definition
class ToU32Op(IRDLOperation):
    """
    An Int32 (or Uint32) value as a Uint32 of the same bits, an Int64 as its
    low 32 bits, `cutlass.Uint32(x)`.

    Example:

    ```mlir
    %u = cute.to_u32 %x : i32
    ```
    """

    name = "cute.to_u32"

    input = operand_def(_Int)
    result = result_def(ui32)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input)"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[ui32])


@irdl_op_definition
class ToI64Op(IRDLOperation):
    """
    An Int32 value sign-extended to an Int64, `cutlass.Int64(x)`.

    Example:

    ```mlir
    %w = cute.to_i64 %x
    ```
    """

    name = "cute.to_i64"

    input = operand_def(I32)
    result = result_def(I64)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[IntegerType(64)])


@irdl_op_definition
class SatI32Op(IRDLOperation):
    """
    An Int64 clamped to [-2^31, 2^31 - 1] as an Int32 (the `sat_i32` PTX
    helper, cvt.sat.s32.s64's value).

    Example:

    ```mlir
    %w = cute.sat_i32 %x
    ```
    """

    name = "cute.sat_i32"

    input = operand_def(I64)
    result = result_def(I32)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[IntegerType(32)])


@irdl_op_definition
class SatU32Op(IRDLOperation):
    """
    An Int64 clamped to [0, 2^32 - 1] as a Uint32 (the `sat_u32` PTX helper,
    cvt.sat.u32.s64's value).

    Example:

    ```mlir
    %u = cute.sat_u32 %x
    ```
    """

    name = "cute.sat_u32"

    input = operand_def(I64)
    result = result_def(ui32)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[ui32])


class _NegOp(IRDLOperation):
    """-x, wrapping, through a PTX helper (`not`, `add 1`) that ptxas cannot
    fold into a 3-input min/max (see `PTXAS_NEGATION` in maskopt.lowering.cute)."""

    HELPER: ClassVar[str]

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[input.type])


@irdl_op_definition
class NegI32Op(_NegOp):
    """
    -x of an Int32, wrapping (the `neg_i32` helper).

    Example:

    ```mlir
    %n = cute.neg_i32 %x
    ```
    """

    name = "cute.neg_i32"
    HELPER: ClassVar[str] = "neg_i32"

    input = operand_def(I32)
    result = result_def(I32)


@irdl_op_definition
class NegI64Op(_NegOp):
    """
    -x of an Int64, wrapping (the `neg_i64` helper).

    Example:

    ```mlir
    %n = cute.neg_i64 %x
    ```
    """

    name = "cute.neg_i64"
    HELPER: ClassVar[str] = "neg_i64"

    input = operand_def(I64)
    result = result_def(I64)


class _ShiftOp(IRDLOperation):
    """A word shifted by an amount, read as a Uint32; 0 for amounts >= 32."""

    HELPER: ClassVar[str]

    word = operand_def(ui32)
    amount = operand_def(_Int32)
    result = result_def(ui32)

    traits = traits_def(Pure())

    assembly_format = "$word `,` $amount attr-dict `:` type($amount)"

    def __init__(self, word: SSAValue, amount: SSAValue):
        super().__init__(operands=[word, amount], result_types=[ui32])


@irdl_op_definition
class ShlU32Op(_ShiftOp):
    """
    `word << amount`, 0 for amount >= 32 (`utils.shl_u32`, PTX shl clamps the
    amount); the amount is converted to Uint32 (`cutlass.Uint32(amount)`).

    Example:

    ```mlir
    %w = cute.shl_u32 %ones, %lo : i32
    ```
    """

    name = "cute.shl_u32"
    HELPER: ClassVar[str] = "shl_u32"


@irdl_op_definition
class ShrU32Op(_ShiftOp):
    """
    `word >> amount` (logical), 0 for amount >= 32 (`utils.shr_u32`).

    Example:

    ```mlir
    %w = cute.shr_u32 %ones, %a : i32
    ```
    """

    name = "cute.shr_u32"
    HELPER: ClassVar[str] = "shr_u32"


@irdl_op_definition
class ShlHi64Op(IRDLOperation):
    """
    The high word of the 64-bit `word << amount` (word the low half, the high
    half 0), 0 for amount >= 64: bits [amount - 32, amount - 32 + n) of the
    result are the n low bits of `word`, so for amount in [0, 32] it is
    `word >> (32 - amount)` and for amount in [32, 64] `word << (amount - 32)`
    (the `shl_hi64` helper, PTX shl.b64 clamps the amount; the amount is
    converted to Uint32).
    A fixed-width run of lanes starting at a (`interval.span`) is one such
    shift of its ones by a + 32, whatever the sign of a.

    Example:

    ```mlir
    %w = cute.shl_hi64 %ones, %amount : ui32
    ```
    """

    name = "cute.shl_hi64"

    word = operand_def(ui32)
    amount = operand_def(_Int32)
    result = result_def(ui32)

    traits = traits_def(Pure())

    assembly_format = "$word `,` $amount attr-dict `:` type($amount)"

    def __init__(self, word: SSAValue, amount: SSAValue):
        super().__init__(operands=[word, amount], result_types=[ui32])


@irdl_op_definition
class BmskOp(IRDLOperation):
    """
    Bits [pos, pos + width) of a word, clipped to bit 31, 0 for pos >= 32
    (the `bmsk_u32` helper, PTX bmsk.clamp.b32; operands unsigned).

    Example:

    ```mlir
    %w = cute.bmsk %pos, %width
    ```
    """

    name = "cute.bmsk"

    pos = operand_def(ui32)
    width = operand_def(ui32)
    result = result_def(ui32)

    traits = traits_def(Pure())

    assembly_format = "$pos `,` $width attr-dict"

    def __init__(self, pos: SSAValue, width: SSAValue):
        super().__init__(operands=[pos, width], result_types=[ui32])


class _BinaryOp(IRDLOperation):
    """A CuTe binary expression of two values of one type: signed for `i32`
    and `i64` (never built where it may overflow), modulo 2^32 for `ui32`."""

    SYMBOL: ClassVar[str]

    T: ClassVar = VarConstraint("T", _Int)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


@irdl_op_definition
class AddOp(_BinaryOp):
    """
    `(lhs + rhs)`.

    Example:

    ```mlir
    %s = cute.add %a, %b : ui32
    ```
    """

    name = "cute.add"
    SYMBOL: ClassVar[str] = "+"


@irdl_op_definition
class SubOp(_BinaryOp):
    """
    `(lhs - rhs)`.

    Example:

    ```mlir
    %d = cute.sub %a, %b : i32
    ```
    """

    name = "cute.sub"
    SYMBOL: ClassVar[str] = "-"


@irdl_op_definition
class MulOp(_BinaryOp):
    """
    `(lhs * rhs)`.

    Example:

    ```mlir
    %p = cute.mul %a, %c : i32
    ```
    """

    name = "cute.mul"
    SYMBOL: ClassVar[str] = "*"


@irdl_op_definition
class MaxOp(_BinaryOp):
    """
    `max(lhs, rhs)`, unsigned for `ui32` (the DSL compares by the left
    operand's type, so a constant is never the left operand of a Uint32 max:
    `DSL_CONSTANT_MINMAX` in maskopt.lowering.cute).

    Example:

    ```mlir
    %m = cute.max %a, %b : ui32
    ```
    """

    name = "cute.max"
    SYMBOL: ClassVar[str] = "max"


@irdl_op_definition
class MinOp(_BinaryOp):
    """
    `min(lhs, rhs)`, unsigned for `ui32`.

    Example:

    ```mlir
    %m = cute.min %a, %b : i32
    ```
    """

    name = "cute.min"
    SYMBOL: ClassVar[str] = "min"


@irdl_op_definition
class AndOp(_BinaryOp):
    """
    `(lhs & rhs)`.

    Example:

    ```mlir
    %w = cute.and %a, %b : ui32
    ```
    """

    name = "cute.and"
    SYMBOL: ClassVar[str] = "&"


@irdl_op_definition
class OrOp(_BinaryOp):
    """
    `(lhs | rhs)`.

    Example:

    ```mlir
    %w = cute.or %a, %b : ui32
    ```
    """

    name = "cute.or"
    SYMBOL: ClassVar[str] = "|"


@irdl_op_definition
class RemOp(_BinaryOp):
    """
    `(lhs % rhs)` of runtime Int32/Int64 values: CuTe's `%` truncates (the
    remainder has the sign of lhs, like C); the divisor is never 0.

    Example:

    ```mlir
    %r = cute.rem %a, %p : i32
    ```
    """

    name = "cute.rem"
    SYMBOL: ClassVar[str] = "%"


class _CompareOp(IRDLOperation):
    """A signed comparison of two `i32` or `i64` values, a Boolean."""

    SYMBOL: ClassVar[str]

    T: ClassVar = VarConstraint("T", _Int)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(I1)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[IntegerType(1)])


@irdl_op_definition
class LtOp(_CompareOp):
    """
    `(lhs < rhs)`, a Boolean; signed for `i32` and `i64`.

    Example:

    ```mlir
    %c = cute.lt %a, %b : i32
    ```
    """

    name = "cute.lt"
    SYMBOL: ClassVar[str] = "<"


@irdl_op_definition
class GeOp(_CompareOp):
    """
    `(lhs >= rhs)`, a Boolean; signed for `i32` and `i64`.

    Example:

    ```mlir
    %c = cute.ge %a, %b : i32
    ```
    """

    name = "cute.ge"
    SYMBOL: ClassVar[str] = ">="


@irdl_op_definition
class SelectOp(IRDLOperation):
    """
    `a if cond else b` (a module's conditional expression; a self-contained
    expression's `cutlass.select_`, which evaluates both arms: both are
    defined everywhere). `eager`: `cutlass.select_` in a module too (a chain
    of selects compiles in linear time, a chain of conditional expressions
    did not).

    Example:

    ```mlir
    %v = cute.select %c, %a, %b : i32
    %w = cute.select %c, %x, %y eager : ui32
    ```
    """

    name = "cute.select"

    T: ClassVar = VarConstraint("T", _Int)
    cond = operand_def(I1)
    lhs = operand_def(T)
    rhs = operand_def(T)
    eager = opt_prop_def(UnitAttr)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$cond `,` $lhs `,` $rhs (`eager` $eager^)? attr-dict `:` type($result)"

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue, *, eager: bool = False):
        super().__init__(
            operands=[cond, lhs, rhs],
            result_types=[lhs.type],
            properties={"eager": UnitAttr()} if eager else {},
        )


@irdl_op_definition
class ToI32Op(IRDLOperation):
    """
    An Int64 value truncated to an Int32, `cutlass.Int32(x)`.

    Example:

    ```mlir
    %x = cute.to_i32 %w
    ```
    """

    name = "cute.to_i32"

    input = operand_def(I64)
    result = result_def(I32)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[IntegerType(32)])


@irdl_op_definition
class ClampedSubOp(IRDLOperation):
    """
    `clamp(lhs - rhs, lo, hi)` as an Int32, computed so that no operation
    overflows: an i64 difference whose operands fit i32 narrowed to i32
    (`interval-to-cute` builds it only where value ranges show that
    `lhs - lo` and `lhs - hi` stay in i32, or, for an i64 `lhs`, that `rhs +
    lo` and `rhs + hi` do). It prints as

    - `lhs - min(max(rhs, lhs - hi), lhs - lo)` with both bounds,
    - `lhs - min(rhs, lhs - lo)` with `lo` only (`max(lhs - rhs, lo)`),
    - `lhs - max(rhs, lhs - hi)` with `hi` only (`min(lhs - rhs, hi)`),
    - for an i64 `lhs` (both bounds):
      `Int32(min(max(lhs, Int64(rhs) + lo), Int64(rhs) + hi) - Int64(rhs))`.

    Its value is always in [lo, hi] (the bounds value ranges read).

    Example:

    ```mlir
    %v = cute.clamped_sub %a, %w lo -32 hi 0 : i32
    %u = cute.clamped_sub %a, %w lo 0 : i32
    %x = cute.clamped_sub %s, %kv lo 0 hi 32 : i64
    ```
    """

    name = "cute.clamped_sub"

    lhs = operand_def(I32 | I64)
    rhs = operand_def(I32)
    lo = opt_prop_def(IntegerAttr[I64])
    hi = opt_prop_def(IntegerAttr[I64])
    result = result_def(I32)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs (`lo` $lo^)? (`hi` $hi^)? attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue, lo: int | None, hi: int | None):
        properties = {}
        if lo is not None:
            properties["lo"] = IntegerAttr(lo, 64)
        if hi is not None:
            properties["hi"] = IntegerAttr(hi, 64)
        super().__init__(operands=[lhs, rhs], result_types=[IntegerType(32)], properties=properties)

    @property
    def lo_value(self) -> int | None:
        return None if self.lo is None else self.lo.value.data

    @property
    def hi_value(self) -> int | None:
        return None if self.hi is None else self.hi.value.data

    def verify_(self) -> None:
        lo, hi = self.lo_value, self.hi_value
        if lo is None and hi is None:
            raise VerifyException("cute.clamped_sub needs a lower or an upper bound")
        if lo is not None and hi is not None and lo > hi:
            raise VerifyException(f"cute.clamped_sub bounds are empty: lo {lo} > hi {hi}")
        if self.lhs.type == IntegerType(64) and (lo is None or hi is None):
            raise VerifyException("cute.clamped_sub of an i64 lhs needs both bounds")


class _WrappingOp(_BinaryOp):
    """An i32 or i64 `+`, `-`, `*` or `//` whose exact result may leave its
    type: it wraps like torch's (two's complement). An i32 one is computed in
    Int64 and truncated, `cutlass.Int32(cutlass.Int64(lhs) + cutlass.Int64(rhs))`;
    an i64 one (per-lane code only) in Uint64, which is modular,
    `cutlass.Int64(cutlass.Uint64(lhs) + cutlass.Uint64(rhs))`, and an i64
    `//` wraps only at MIN // -1, printed as `0 - MIN` there. `interval-to-cute`
    builds them from the `arith` ops that value ranges do not show to stay in
    their type."""

    T: ClassVar = VarConstraint("T", _Signed)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)


@irdl_op_definition
class AddWrapOp(_WrappingOp):
    """
    `lhs + rhs`, wrapping like torch's.

    Example:

    ```mlir
    %s = cute.add_wrap %a, %b : i32
    ```
    """

    name = "cute.add_wrap"
    SYMBOL: ClassVar[str] = "+"


@irdl_op_definition
class SubWrapOp(_WrappingOp):
    """
    `lhs - rhs`, wrapping like torch's.

    Example:

    ```mlir
    %d = cute.sub_wrap %a, %b : i64
    ```
    """

    name = "cute.sub_wrap"
    SYMBOL: ClassVar[str] = "-"


@irdl_op_definition
class MulWrapOp(_WrappingOp):
    """
    `lhs * rhs`, wrapping like torch's.

    Example:

    ```mlir
    %p = cute.mul_wrap %a, %b : i32
    ```
    """

    name = "cute.mul_wrap"
    SYMBOL: ClassVar[str] = "*"


@irdl_op_definition
class FloorDivWrapOp(_WrappingOp):
    """
    `lhs // rhs` (floor), MIN // -1 wrapping to MIN like torch's; the
    divisor is never 0 (`cute.safe_divisor`).

    Example:

    ```mlir
    %q = cute.floordiv_wrap %a, %b : i32
    ```
    """

    name = "cute.floordiv_wrap"
    SYMBOL: ClassVar[str] = "//"


@irdl_op_definition
class FloorRemOp(IRDLOperation):
    """
    The floor remainder (torch's and Python's `%`: the divisor's sign) of a
    divisor whose sign is known, from C's truncating `%`: the truncated
    remainder `rem`, then `rem + (d if rem < 0 else 0)` for a divisor > 0,
    `rem + (d if rem > 0 else 0)` with `negative` for one < 0. The
    correction is selected (`cutlass.select_`, both arms evaluated) rather
    than `rem + d` computed, which would overflow where the remainder keeps
    its sign (rem >= 0, d near 2^31). `interval-to-cute` builds it from a
    `mask.floormod` whose divisor's sign value ranges show.

    Example:

    ```mlir
    %m = cute.floor_rem %x, %d : i32
    %n = cute.floor_rem %x, %e negative : i64
    ```
    """

    name = "cute.floor_rem"

    T: ClassVar = VarConstraint("T", _Signed)
    lhs = operand_def(T)
    rhs = operand_def(T)
    negative = opt_prop_def(UnitAttr)
    """the divisor is < 0 (else > 0)"""
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs (`negative` $negative^)? attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue, *, negative: bool = False):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[lhs.type],
            properties={"negative": UnitAttr()} if negative else {},
        )


@irdl_op_definition
class SafeDivisorOp(IRDLOperation):
    """
    A divisor made safe where the division is undefined: 1 where it is 0
    (torch raises there, so any word is right) and, with `or_minus_one`,
    also where it is -1 (a remainder of MIN by -1 is UB for LLVM's srem,
    while `x mod +-1` is 0). A module's conditional expression, a
    self-contained expression's `cutlass.select_`. `interval-to-cute`
    guards the divisor of every signed division and remainder that value
    ranges do not show to be safe.

    Example:

    ```mlir
    %d1 = cute.safe_divisor %d : i32
    %d2 = cute.safe_divisor %d or_minus_one : i64
    ```
    """

    name = "cute.safe_divisor"

    T: ClassVar = VarConstraint("T", _Signed)
    divisor = operand_def(T)
    or_minus_one = opt_prop_def(UnitAttr)
    """also replace -1 by 1"""
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$divisor (`or_minus_one` $or_minus_one^)? attr-dict `:` type($result)"

    def __init__(self, divisor: SSAValue, *, or_minus_one: bool = False):
        super().__init__(
            operands=[divisor],
            result_types=[divisor.type],
            properties={"or_minus_one": UnitAttr()} if or_minus_one else {},
        )

    @property
    def replaced(self) -> tuple[int, ...]:
        """The divisor values replaced by 1."""
        return (0, -1) if self.or_minus_one is not None else (0,)


@irdl_op_definition
class WrapIndexOp(IRDLOperation):
    """
    An aux tensor index that may be negative, wrapped by the dimension size
    as torch indexes (`index + size if index < 0 else index`): a module's
    conditional expression, a self-contained expression's `cutlass.select_`
    (both arms are defined everywhere). `interval-to-cute` wraps every
    `mask.load` index that value ranges do not show to be >= 0.

    Example:

    ```mlir
    %j = cute.wrap_index %i by 8 : i32
    ```
    """

    name = "cute.wrap_index"

    T: ClassVar = VarConstraint("T", _Signed)
    index = operand_def(T)
    size = prop_def(IntegerAttr[I64])
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$index `by` $size attr-dict `:` type($result)"

    def __init__(self, index: SSAValue, size: int):
        super().__init__(operands=[index], result_types=[index.type], properties={"size": IntegerAttr(size, 64)})

    @property
    def size_value(self) -> int:
        return self.size.value.data

    def verify_(self) -> None:
        if self.size_value <= 0:
            raise VerifyException(f"cute.wrap_index needs a size > 0, not {self.size_value}")


@irdl_op_definition
class LanesOp(IRDLOperation):
    """
    The lane set of a keep word: lane L is in it iff bit L is set.

    Example:

    ```mlir
    %s = cute.lanes %w
    ```
    """

    name = "cute.lanes"

    word = operand_def(ui32)
    result = result_def(LaneSetType)

    traits = traits_def(Pure())

    assembly_format = "$word attr-dict"

    def __init__(self, word: SSAValue):
        super().__init__(operands=[word], result_types=[lane_set])


def is_cute_value(v: SSAValue) -> bool:
    """Whether `v` is the result of a `cute` op (an expression of the target)."""
    op = v.owner
    return isinstance(op, Operation) and op.name.startswith("cute.")


Cute = Dialect(
    "cute",
    [
        ConstantOp,
        ToU32Op,
        ToI64Op,
        ToI32Op,
        SatI32Op,
        SatU32Op,
        ClampedSubOp,
        NegI32Op,
        NegI64Op,
        ShlU32Op,
        ShrU32Op,
        ShlHi64Op,
        BmskOp,
        AddOp,
        SubOp,
        MulOp,
        MaxOp,
        MinOp,
        AndOp,
        OrOp,
        RemOp,
        LtOp,
        GeOp,
        SelectOp,
        AddWrapOp,
        SubWrapOp,
        MulWrapOp,
        FloorDivWrapOp,
        FloorRemOp,
        SafeDivisorOp,
        WrapIndexOp,
        LanesOp,
    ],
    [],
)
