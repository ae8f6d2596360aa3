"""
The `mask` dialect: FlexAttention mask_mods as IR.

One `mask.func` holds one `mask_mod(b, h, q_idx, kv_idx, *aux) -> bool`.
Integer arithmetic, comparisons and booleans in its body are `arith` ops;
this dialect adds what `arith` lacks:

- `mask.func` / `mask.yield`: the function and its terminator.
- `mask.load`: a scalar element of an aux tensor (torch indexing semantics:
  negative indices wrap by the dimension size). An unsigned tensor
  (`tensor<8xui8>`, a torch uint8 tensor) loads its element's bits as the
  signless integer of its width (`i8`); `arith.extui` gives its value.
- `mask.floormod`: torch/Python remainder (the result has the divisor's sign).
- `mask.lane` and `mask.lane_cmp`: the lane-affine form. After `lane-affine`
  the function is *windowed* (`kv_window`): its kv_idx argument is the first
  KV index of a 32-lane window, `mask.lane` is the lane L in [0, 32), and the
  per-lane KV index is `kv_idx + L`. `mask.lane_cmp` is the canonical
  comparison `c * L + u <pred> 0` with `u` lane-uniform, in exact integer
  arithmetic.

A windowed function may yield the packed i32 keep word (bit L keeps lane L)
instead of the per-lane i1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    I1,
    I32,
    I64,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    CallableOpInterface,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

#: Names of the four index arguments every mask.func starts with.
INDEX_ARG_NAMES = ("b", "h", "q_idx", "kv_idx")

#: Predicates of `mask.lane_cmp`, with their meaning on exact integers.
LANE_CMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge")


def _is_integer(t: Attribute) -> bool:
    return isinstance(t, IntegerType)


def _is_aux_element(t: Attribute) -> bool:
    """An aux tensor element or aux scalar type: a signless integer (i1 for
    bool, or a signed torch integer) or an unsigned one of a torch unsigned
    dtype (ui8, ui16, ui32, ui64)."""
    if not isinstance(t, IntegerType):
        return False
    if t.signedness.data == Signedness.SIGNLESS:
        return True
    return t.signedness.data == Signedness.UNSIGNED and t.width.data in (8, 16, 32, 64)


def load_result_type(element: IntegerType) -> IntegerType:
    """The type `mask.load` yields for a tensor element type: the signless
    integer of its width (the element's bits)."""
    if element.signedness.data == Signedness.SIGNLESS:
        return element
    return IntegerType(element.width.data)


class FuncOpCallableInterface(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.body.block.arg_types

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return (op.yield_op.value.type,)


class FloorModOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.mask import (
            FloorModConstantFold,
            FloorModByOne,
        )

        return (FloorModConstantFold(), FloorModByOne())


class LaneCmpOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.mask import (
            LaneCmpScaledEquality,
            LaneCmpScaledOrder,
        )

        return (LaneCmpScaledOrder(), LaneCmpScaledEquality())


#: the bound of an index with no `domain` bound: every int32 >= 0
DOMAIN_UNBOUNDED = 2**31


@irdl_op_definition
class FuncOp(IRDLOperation):
    """
    One mask_mod. Block arguments: `b, h, q_idx, kv_idx : i32`, then the aux
    tensors (static shape; element type i1, a signless integer, or an
    unsigned one `ui8`/`ui16`/`ui32`/`ui64` for torch's unsigned dtypes),
    then the aux scalars (integers of the same kinds). The body ends in
    `mask.yield`.

    `kv_window` marks a windowed function (after `lane-affine`): kv_idx is
    the first KV index of the 32-lane window. `unpacked` records why
    `fold-intervals` could not pack it.

    `domain` (optional) bounds the index arguments: `array<i64: B, H, Q, KV>`
    means b < B, h < H, q_idx < Q and a window start kv < KV (each in
    [1, 2^31]; 2^31 is no bound). The keep word is exact for every lane of
    such a window (kv_idx up to KV + 30); value ranges start from it, so
    clamps and i64 paths that it rules out disappear. Without it the domain
    is the whole int32 range of the contract (kv + 31 < 2^31).

    Example:

    ```mlir
    mask.func @causal {
    ^bb0(%b : i32, %h : i32, %q_idx : i32, %kv_idx : i32):
      %ge = arith.cmpi sge, %q_idx, %kv_idx : i32
      mask.yield %ge : i1
    }
    mask.func @bounded domain array<i64: 8, 16, 32768, 32768> {
    ^bb0(%b : i32, %h : i32, %q_idx : i32, %kv_idx : i32):
      %ge = arith.cmpi sge, %q_idx, %kv_idx : i32
      mask.yield %ge : i1
    }
    ```
    """

    name = "mask.func"

    sym_name = prop_def(SymbolNameConstraint())
    kv_window = opt_prop_def(UnitAttr)
    unpacked = opt_prop_def(StringAttr)
    domain = opt_prop_def(Attribute)  # a DenseArrayBase (see verify_), printed whole
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(),
        SymbolOpInterface(),
        FuncOpCallableInterface(),
    )

    assembly_format = (
        "$sym_name (`window` $kv_window^)? (`unpacked` $unpacked^)? "
        "(`domain` $domain^)? attr-dict-with-keyword $body"
    )

    def __init__(
        self,
        sym_name: str,
        arg_types: Sequence[Attribute] = (i32, i32, i32, i32),
        body: Region | None = None,
        *,
        kv_window: bool = False,
    ):
        if body is None:
            body = Region(Block(arg_types=arg_types))
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "kv_window": UnitAttr() if kv_window else None,
            },
            regions=[body],
        )

    # Accessors -------------------------------------------------------------

    @property
    def block(self) -> Block:
        return self.body.block

    @property
    def index_args(self):
        return self.block.args[:4]

    @property
    def aux_tensor_args(self):
        return [a for a in self.block.args[4:] if isinstance(a.type, TensorType)]

    @property
    def aux_scalar_args(self):
        return [a for a in self.block.args[4:] if not isinstance(a.type, TensorType)]

    @property
    def domain_bounds(self) -> tuple[int, int, int, int]:
        """(B, H, Q, KV): exclusive upper bounds of b, h, q_idx and the window
        start kv (2^31 each without a `domain`)."""
        if self.domain is None:
            return (DOMAIN_UNBOUNDED,) * 4
        return tuple(self.domain.get_values())  # type: ignore[return-value]

    def set_domain(self, bounds: Sequence[int] | None) -> None:
        """Set (or, with None or no bound below 2^31, drop) the `domain`."""
        if bounds is None or all(x >= DOMAIN_UNBOUNDED for x in bounds):
            self.domain = None
        else:
            self.domain = DenseArrayBase.from_list(i64, [min(int(x), DOMAIN_UNBOUNDED) for x in bounds])

    @property
    def is_windowed(self) -> bool:
        return self.kv_window is not None

    @property
    def yield_op(self) -> YieldOp:
        term = self.block.last_op
        assert isinstance(term, YieldOp)
        return term

    @property
    def is_packed(self) -> bool:
        """True when the function yields the 32-bit keep word."""
        return self.yield_op.value.type == i32

    def verify_(self) -> None:
        if self.domain is not None:
            ok = isinstance(self.domain, DenseArrayBase) and self.domain.get_element_type() == i64
            bounds = self.domain.get_values() if ok else ()
            if not ok or len(bounds) != 4 or not all(
                1 <= x <= DOMAIN_UNBOUNDED for x in bounds
            ):
                raise VerifyException(
                    f"mask.func @{self.sym_name.data}: domain must be array<i64: B, H, Q, KV> "
                    f"with each bound in [1, 2^31], got {self.domain}"
                )
        args = self.block.args
        if len(args) < 4:
            raise VerifyException(
                f"mask.func @{self.sym_name.data} needs the index arguments "
                f"b, h, q_idx, kv_idx : i32, got {len(args)} argument(s)"
            )
        for name, arg in zip(INDEX_ARG_NAMES, args[:4]):
            if arg.type != i32:
                raise VerifyException(
                    f"mask.func @{self.sym_name.data}: index argument {name} "
                    f"must be i32, got {arg.type}"
                )
        seen_scalar = False
        for i, arg in enumerate(args[4:]):
            if isinstance(arg.type, TensorType):
                if seen_scalar:
                    raise VerifyException(
                        f"mask.func @{self.sym_name.data}: aux tensor argument "
                        f"#{i + 4} follows an aux scalar; tensors come first"
                    )
                if not _is_aux_element(arg.type.element_type) or any(
                    d < 0 for d in arg.type.get_shape()
                ):
                    raise VerifyException(
                        f"mask.func @{self.sym_name.data}: aux tensor argument "
                        f"#{i + 4} must have a signless or unsigned (ui8, ui16, "
                        f"ui32, ui64) integer element type and a static shape, "
                        f"got {arg.type}"
                    )
            elif _is_aux_element(arg.type):
                seen_scalar = True
            else:
                raise VerifyException(
                    f"mask.func @{self.sym_name.data}: aux argument #{i + 4} "
                    f"must be a tensor or a signless or unsigned (ui8, ui16, "
                    f"ui32, ui64) integer, got {arg.type}"
                )
        term = self.block.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException(
                f"mask.func @{self.sym_name.data} must end in mask.yield"
            )
        if term.value.type == i32 and not self.is_windowed:
            raise VerifyException(
                f"mask.func @{self.sym_name.data} yields a keep word (i32) but "
                "is not windowed; only a `window` function yields keep words"
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """
    Terminates a `mask.func`: yields the lane's keep value (i1), or, in a
    windowed function, the packed 32-lane keep word (i32, bit L keeps
    kv_idx + L).

    Example:

    ```mlir
    mask.yield %keep : i1
    mask.yield %word : i32
    ```
    """

    name = "mask.yield"

    value = operand_def(I1 | I32)

    traits = traits_def(IsTerminator(), HasParent(FuncOp), Pure())

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class LoadOp(IRDLOperation):
    """
    Reads one element of an aux tensor. There is one index per dimension;
    a negative index wraps by the dimension size, as in torch. The result
    has the tensor's element type, or, for an unsigned element type, the
    signless integer of its width: the element's bits, whose value is
    their zero extension (`arith.extui`).

    Example:

    ```mlir
    %start = mask.load %starts[%doc] : tensor<8xi32>[i32] -> i32
    %bits = mask.load %win[%h] : tensor<8xui8>[i32] -> i8
    %win_h = arith.extui %bits : i8 to i32
    ```
    """

    name = "mask.load"

    tensor = operand_def(TensorType)
    indices = var_operand_def(IntegerType)
    result = result_def(IntegerType)

    traits = traits_def(Pure())

    assembly_format = (
        "$tensor `[` $indices `]` attr-dict `:` type($tensor) "
        "`[` type($indices) `]` `->` type($result)"
    )

    def __init__(self, tensor: SSAValue, indices: Sequence[SSAValue]):
        assert isinstance(tensor.type, TensorType)
        super().__init__(
            operands=[tensor, list(indices)],
            result_types=[load_result_type(tensor.type.element_type)],
        )

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, TensorType)
        rank = len(self.tensor.type.get_shape())
        if len(self.indices) != rank:
            raise VerifyException(
                f"mask.load of a rank-{rank} tensor takes {rank} indices, "
                f"got {len(self.indices)}"
            )
        element = self.tensor.type.element_type
        want = load_result_type(element) if isinstance(element, IntegerType) else element
        if self.result.type == want:
            return
        if want == element:
            raise VerifyException(
                f"mask.load result type {self.result.type} must be the "
                f"element type {element} of the tensor"
            )
        raise VerifyException(
            f"mask.load result type {self.result.type} must be {want}, the bits of "
            f"the tensor's unsigned element type {element}"
        )


@irdl_op_definition
class FloorModOp(IRDLOperation):
    """
    Remainder with floor semantics (torch.remainder, Python `%`): the result
    has the sign of the divisor. `arith.remsi` truncates instead.

    Example:

    ```mlir
    %r = mask.floormod %q_idx, %c64 : i32
    ```
    """

    name = "mask.floormod"

    T: ClassVar = VarConstraint("T", base(IntegerType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), FloorModOpHasCanonicalizationPatterns())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


def _verify_in_window(op: IRDLOperation) -> None:
    """`op` uses the lane: its enclosing mask.func must be windowed."""
    func = op.parent_op()
    while func is not None and not isinstance(func, FuncOp):
        func = func.parent_op()
    if func is not None and not func.is_windowed:
        raise VerifyException(
            f"{op.name} in mask.func @{func.sym_name.data}, which is not "
            "windowed (add `window`)"
        )


@irdl_op_definition
class LaneOp(IRDLOperation):
    """
    The lane L in [0, 32) of a windowed function: the per-lane KV index is
    `kv_idx + L`.

    Example:

    ```mlir
    %lane = mask.lane : i32
    ```
    """

    name = "mask.lane"

    result = result_def(I32)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[i32])

    def verify_(self) -> None:
        _verify_in_window(self)


@irdl_op_definition
class LaneCmpOp(IRDLOperation):
    """
    The canonical lane-affine comparison `coeff * L + u + offset <pred> 0` of
    a windowed function, in exact integer arithmetic (no wraparound), where L
    is the lane, `u` is lane-uniform and `offset` a constant.

    Example (sliding window `q_idx - (kv_idx + L) <= 256`, i.e.
    `-L + (q_idx - kv_idx) - 256 <= 0`):

    ```mlir
    %p = mask.lane_cmp "sle", -1 * lane + %u + -256 : i32
    ```
    """

    name = "mask.lane_cmp"

    predicate = prop_def(StringAttr)
    coeff = prop_def(IntegerAttr[I64])
    offset = prop_def(IntegerAttr[I64])
    u = operand_def(IntegerType)
    result = result_def(I1)

    traits = traits_def(Pure(), LaneCmpOpHasCanonicalizationPatterns())

    assembly_format = (
        "$predicate `,` $coeff `*` `lane` `+` $u `+` $offset attr-dict `:` type($u)"
    )

    def __init__(self, predicate: str, coeff: int, u: SSAValue, offset: int = 0):
        super().__init__(
            operands=[u],
            result_types=[i1],
            properties={
                "predicate": StringAttr(predicate),
                "coeff": IntegerAttr(coeff, i64),
                "offset": IntegerAttr(offset, i64),
            },
        )

    @property
    def coeff_value(self) -> int:
        return self.coeff.value.data

    @property
    def offset_value(self) -> int:
        return self.offset.value.data

    def verify_(self) -> None:
        if self.predicate.data not in LANE_CMP_PREDICATES:
            raise VerifyException(
                f"mask.lane_cmp predicate {self.predicate.data!r} is not one of "
                + ", ".join(LANE_CMP_PREDICATES)
            )
        if self.coeff_value == 0:
            raise VerifyException(
                "mask.lane_cmp coefficient must be non-zero; a comparison "
                "without the lane is an arith.cmpi"
            )
        _verify_in_window(self)


Mask = Dialect(
    "mask",
    [
        FuncOp,
        YieldOp,
        LoadOp,
        FloorModOp,
        LaneOp,
        LaneCmpOp,
    ],
    [],
)

# `mask` bodies use arith booleans: give them their i1 identities.
from maskopt.dialects import arith_traits as _arith_traits  # noqa: E402

_arith_traits.install()
