"""
Reference semantics of the `mask`, `interval` and `cute` dialects (and of
the `arith` ops mask bodies use) as xDSL interpreter implementations. The
`cute` PTX helpers take their semantics from the helper registry,
`maskopt.lowering.helpers.HELPERS`, which the CPU emulator reads too.

Values are torch tensors, evaluated for a batch of N points at once:
integers are int64 tensors holding the exact value of their IR type
(i32 arithmetic wraps like torch's int32; a `ui32` value is in [0, 2^32)), i1 values are bool tensors and
lane sets are bool tensors of shape [N, 32] (lane L is in the set). Lane-
uniform values have shape [N, 1]; per-lane values [N, 32].

`keep_words(func, b, h, q, kv_base, ...)` gives the 32-bit keep word of a
`mask.func` at every point, whatever stage it is in: a per-lane function is
evaluated at kv_idx = kv_base + L for the 32 lanes, a windowed one at
kv_idx = kv_base with `mask.lane` = L, and a packed one yields the word.

This module needs torch; nothing on the `.mlir` path imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)

from maskopt.dialects import cute, interval, mask
from maskopt.dialects.interval import LANES

_LANE_IDS = torch.arange(LANES, dtype=torch.int64).reshape(1, LANES)
_BITS = torch.tensor([1 << i for i in range(LANES)], dtype=torch.int64)


def _width(t: Any) -> int:
    assert isinstance(t, IntegerType), t
    return t.width.data


def wrap(x: torch.Tensor, width: int) -> torch.Tensor:
    """Two's complement wraparound of exact values to a signed `width`-bit range."""
    if width >= 64:
        return x
    if width == 1:
        return x != 0
    half = 1 << (width - 1)
    return torch.remainder(x + half, 1 << width) - half


def _int(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.int64) if x.dtype == torch.bool else x


def bound_value(op: interval.BoundOp, u: torch.Tensor) -> torch.Tensor:
    """`clip(sign * u + k, 0, 32)` of an `interval.bound`, exact for every i64
    u and k: u is first clamped to the values where the bound is in [0, 32]
    (outside them it is clipped to 0 or 32 anyway), and there `sign * u + k`
    is in [0, 32], which int64 arithmetic that wraps gets right."""
    sign, k = op.sign_value, op.k_value
    lo, hi = sorted((-k * sign, (LANES - k) * sign))
    lo, hi = max(lo, -(2**63)), min(hi, 2**63 - 1)
    x = torch.clamp(u, lo, hi)
    return torch.clamp(x * sign + k, 0, LANES)


def span_start(op: interval.SpanOp, u: torch.Tensor) -> torch.Tensor:
    """The first lane `sign * u + k` of an `interval.span`, exact for every
    i64 u and k where the span keeps a lane: u is first clamped to
    `op.u_window()` (the start in [-width, 32]; outside it the span is empty
    anyway, and at its ends too)."""
    lo, hi = op.u_window()
    return torch.clamp(u, lo, hi) * op.sign_value + op.k_value


_CMP = {
    0: torch.eq,
    1: torch.ne,
    2: torch.lt,
    3: torch.le,
    4: torch.gt,
    5: torch.ge,
}

_LANE_CMP = {
    "eq": torch.eq,
    "ne": torch.ne,
    "slt": torch.lt,
    "sle": torch.le,
    "sgt": torch.gt,
    "sge": torch.ge,
}


def _unsigned(x: torch.Tensor, width: int) -> torch.Tensor:
    return torch.remainder(x, 1 << width) if width < 64 else x


@register_impls
class ArithSemantics(InterpreterFunctions):
    """The `arith` ops of mask bodies, with exact wraparound semantics."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args):
        value = op.value.value.data  # type: ignore[union-attr]
        if op.result.type == IntegerType(1):
            return (torch.tensor(value != 0).reshape(1, 1),)
        return (torch.tensor(value, dtype=torch.int64).reshape(1, 1),)

    def _binary(self, op, fn, args):
        w = _width(op.result.type)
        lhs, rhs = (_int(a) for a in args)
        return (wrap(fn(lhs, rhs), w),)

    @impl(arith.AddiOp)
    def run_addi(self, interpreter, op, args):
        return self._binary(op, torch.add, args)

    @impl(arith.SubiOp)
    def run_subi(self, interpreter, op, args):
        return self._binary(op, torch.sub, args)

    @impl(arith.MuliOp)
    def run_muli(self, interpreter, op, args):
        return self._binary(op, torch.mul, args)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(self, interpreter, op, args):
        if bool((args[1] == 0).any()):
            raise ZeroDivisionError(f"{op.name}: division by zero")
        return self._binary(
            op, lambda a, b: torch.div(a, b, rounding_mode="floor"), args
        )

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter, op, args):
        if bool((args[1] == 0).any()):
            raise ZeroDivisionError(f"{op.name}: division by zero")
        return self._binary(
            op, lambda a, b: torch.div(a, b, rounding_mode="trunc"), args
        )

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter, op, args):
        if bool((args[1] == 0).any()):
            raise ZeroDivisionError(f"{op.name}: division by zero")
        return self._binary(op, torch.fmod, args)

    def _unsigned_binary(self, op, fn, args):
        """`fn` of the operands' bits read as unsigned, the result's bits
        read back signed (`wrap`)."""
        w = _width(op.result.type)
        if w >= 64:
            raise NotImplementedError(f"{op.name} on i64")
        lhs, rhs = (_unsigned(_int(a), w) for a in args)
        if bool((rhs == 0).any()):
            raise ZeroDivisionError(f"{op.name}: division by zero")
        return (wrap(fn(lhs, rhs), w),)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter, op, args):
        return self._unsigned_binary(op, lambda a, b: torch.div(a, b, rounding_mode="floor"), args)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter, op, args):
        return self._unsigned_binary(op, torch.remainder, args)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter, op, args):
        return self._binary(op, torch.minimum, args)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter, op, args):
        return self._binary(op, torch.maximum, args)

    @impl(arith.ShRSIOp)
    def run_shrsi(self, interpreter, op, args):
        return self._binary(op, torch.bitwise_right_shift, args)

    @impl(arith.ShLIOp)
    def run_shli(self, interpreter, op, args):
        return self._binary(op, torch.bitwise_left_shift, args)

    @impl(arith.AndIOp)
    def run_andi(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] & args[1],)
        return self._binary(op, torch.bitwise_and, args)

    @impl(arith.OrIOp)
    def run_ori(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] | args[1],)
        return self._binary(op, torch.bitwise_or, args)

    @impl(arith.XOrIOp)
    def run_xori(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] ^ args[1],)
        return self._binary(op, torch.bitwise_xor, args)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter, op: arith.CmpiOp, args):
        pred = op.predicate.value.data
        lhs, rhs = (_int(a) for a in args)
        if pred in _CMP:
            return (_CMP[pred](lhs, rhs),)
        w = _width(op.lhs.type)
        ulhs, urhs = _unsigned(lhs, w), _unsigned(rhs, w)
        return ({6: torch.lt, 7: torch.le, 8: torch.gt, 9: torch.ge}[pred](ulhs, urhs),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter, op, args):
        return (torch.where(args[0], args[1], args[2]),)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter, op, args):
        return (_int(args[0]) if op.input.type != IntegerType(1) else -_int(args[0]),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter, op, args):
        return (_unsigned(_int(args[0]), _width(op.input.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter, op, args):
        return (wrap(_int(args[0]), _width(op.result.type)),)


@register_impls
class MaskSemantics(InterpreterFunctions):
    """The `mask` dialect."""

    @impl_callable(mask.FuncOp)
    def call_func(self, interpreter: Interpreter, op: mask.FuncOp, args):
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)

    @impl_terminator(mask.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: mask.YieldOp, args: tuple[Any, ...]
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(mask.LoadOp)
    def run_load(self, interpreter: Interpreter, op: mask.LoadOp, args):
        tensor, *indices = args
        shape = tensor.shape
        wrapped = []
        for dim, (size, index) in enumerate(zip(shape, indices, strict=True)):
            index = _int(index)
            index = torch.where(index < 0, index + size, index)
            if bool(((index < 0) | (index >= size)).any()):
                raise IndexError(
                    f"mask.load: index out of range for dimension {dim} of size {size}"
                )
            wrapped.append(index)
        wrapped = torch.broadcast_tensors(*wrapped) if wrapped else []
        value = tensor[tuple(wrapped)] if wrapped else tensor.reshape(1, 1)
        if value.dtype == torch.bool:
            return (value,)
        # The result is signless: an unsigned element's bits as a signed
        # value of the result's width (uint8 200 is i8 -56; extui gives 200).
        return (wrap(value.to(torch.int64), _width(op.result.type)),)

    @impl(mask.FloorModOp)
    def run_floormod(self, interpreter, op, args):
        if bool((args[1] == 0).any()):
            raise ZeroDivisionError("mask.floormod: division by zero")
        lhs, rhs = (_int(a) for a in args)
        return (wrap(torch.remainder(lhs, rhs), _width(op.result.type)),)

    @impl(mask.LaneOp)
    def run_lane(self, interpreter, op, args):
        return (_LANE_IDS,)

    @impl(mask.LaneCmpOp)
    def run_lane_cmp(self, interpreter, op: mask.LaneCmpOp, args):
        exact = op.coeff_value * _LANE_IDS + _int(args[0]) + op.offset_value
        return (_LANE_CMP[op.predicate.data](exact, 0),)


@register_impls
class IntervalSemantics(InterpreterFunctions):
    """The `interval` dialect: sets are bool [N, 32] lane masks."""

    @impl(interval.RangeOp)
    def run_range(self, interpreter, op, args):
        lo, hi = args
        return ((lo <= _LANE_IDS) & (_LANE_IDS < hi),)

    @impl(interval.SpanOp)
    def run_span(self, interpreter, op: interval.SpanOp, args):
        a = span_start(op, _int(args[0]))
        return ((a <= _LANE_IDS) & (_LANE_IDS < a + op.width_value),)

    @impl(interval.PeriodicOp)
    def run_periodic(self, interpreter, op: interval.PeriodicOp, args):
        p, m = op.period_value, op.residues_value
        residue = torch.remainder(_LANE_IDS + _int(args[0]), p)
        return (torch.bitwise_and(torch.bitwise_right_shift(m, residue), 1) != 0,)

    @impl(interval.TableOp)
    def run_table(self, interpreter, op: interval.TableOp, args):
        r = _LANE_IDS + _int(args[0])
        inside = (r >= 0) & (r < LANES)
        table = torch.tensor(op.table_values, dtype=torch.int64)
        value = table[torch.clamp(r, 0, LANES - 1)]
        t = _int(args[1])
        kept = value > t if op.is_gt else value <= t
        return (inside & kept,)

    @impl(interval.BoundOp)
    def run_bound(self, interpreter, op: interval.BoundOp, args):
        return (bound_value(op, _int(args[0])),)

    @impl(interval.FullOp)
    def run_full(self, interpreter, op, args):
        return (torch.ones(1, LANES, dtype=torch.bool),)

    @impl(interval.EmptyOp)
    def run_empty(self, interpreter, op, args):
        return (torch.zeros(1, LANES, dtype=torch.bool),)

    @impl(interval.UnionOp)
    def run_union(self, interpreter, op, args):
        out = args[0]
        for s in args[1:]:
            out = out | s
        return (out,)

    @impl(interval.IntersectOp)
    def run_intersect(self, interpreter, op, args):
        out = args[0]
        for s in args[1:]:
            out = out & s
        return (out,)

    @impl(interval.ComplementOp)
    def run_complement(self, interpreter, op, args):
        return (~args[0],)

    @impl(interval.SelectOp)
    def run_select(self, interpreter, op, args):
        return (torch.where(args[0], args[1], args[2]),)

    @impl(interval.KeepWordOp)
    def run_keep_word(self, interpreter, op, args):
        word = (args[0].to(torch.int64) * _BITS).sum(dim=-1, keepdim=True)
        return (wrap(word, 32),)


_U32 = 1 << 32


def _helper(name: str):
    from maskopt.lowering.helpers import HELPERS

    return HELPERS[name].semantics


def _value(x: torch.Tensor, t: Any) -> torch.Tensor:
    """The exact value `x` wrapped into the CuTe type `t` (ui32: mod 2^32)."""
    assert isinstance(t, IntegerType), t
    if t.signedness.data == Signedness.UNSIGNED:
        return torch.remainder(x, 1 << t.width.data)
    return wrap(x, t.width.data)


def _shift(word: torch.Tensor, amount: torch.Tensor, left: bool) -> torch.Tensor:
    a = torch.remainder(amount, _U32)  # the amount read as a Uint32
    s = torch.clamp(a, 0, LANES - 1)
    shifted = torch.bitwise_left_shift(word, s) if left else torch.bitwise_right_shift(word, s)
    return torch.where(a >= LANES, torch.zeros_like(shifted), torch.remainder(shifted, _U32))


@register_impls
class CuteSemantics(InterpreterFunctions):
    """The `cute` dialect: words and Uint32 values are int64 tensors in [0, 2^32)."""

    @impl(cute.ConstantOp)
    def run_constant(self, interpreter, op: cute.ConstantOp, args):
        return (_value(torch.tensor(op.value_int, dtype=torch.int64).reshape(1, 1), op.result.type),)

    @impl(cute.ToU32Op)
    def run_to_u32(self, interpreter, op, args):
        return (torch.remainder(_int(args[0]), _U32),)

    @impl(cute.ToI64Op)
    def run_to_i64(self, interpreter, op, args):
        return (_int(args[0]),)

    @impl(cute.SatI32Op)
    def run_sat_i32(self, interpreter, op, args):
        return (_helper("sat_i32")(_int(args[0])),)

    @impl(cute.SatU32Op)
    def run_sat_u32(self, interpreter, op, args):
        return (_helper("sat_u32")(_int(args[0])),)

    @impl(cute.NegI32Op)
    def run_neg_i32(self, interpreter, op, args):
        return (_helper("neg_i32")(_int(args[0])),)

    @impl(cute.NegI64Op)
    def run_neg_i64(self, interpreter, op, args):
        return (_helper("neg_i64")(_int(args[0])),)

    @impl(cute.ShlU32Op)
    def run_shl_u32(self, interpreter, op, args):
        return (_shift(args[0], _int(args[1]), left=True),)

    @impl(cute.ShrU32Op)
    def run_shr_u32(self, interpreter, op, args):
        return (_shift(args[0], _int(args[1]), left=False),)

    @impl(cute.ShlHi64Op)
    def run_shl_hi64(self, interpreter, op, args):
        return (_helper("shl_hi64")(args[0], args[1]),)

    @impl(cute.BmskOp)
    def run_bmsk(self, interpreter, op, args):
        return (_helper("bmsk_u32")(args[0], args[1]),)

    @impl(cute.AddOp)
    def run_add(self, interpreter, op, args):
        return (_value(args[0] + args[1], op.result.type),)

    @impl(cute.SubOp)
    def run_sub(self, interpreter, op, args):
        return (_value(args[0] - args[1], op.result.type),)

    @impl(cute.MulOp)
    def run_mul(self, interpreter, op, args):
        return (_value(args[0] * args[1], op.result.type),)

    @impl(cute.MaxOp)
    def run_max(self, interpreter, op, args):
        return (torch.maximum(args[0], args[1]),)

    @impl(cute.MinOp)
    def run_min(self, interpreter, op, args):
        return (torch.minimum(args[0], args[1]),)

    @impl(cute.AndOp)
    def run_and(self, interpreter, op, args):
        return (_value(torch.bitwise_and(args[0], args[1]), op.result.type),)

    @impl(cute.OrOp)
    def run_or(self, interpreter, op, args):
        return (_value(torch.bitwise_or(args[0], args[1]), op.result.type),)

    @impl(cute.RemOp)
    def run_rem(self, interpreter, op, args):
        return (_value(torch.fmod(args[0], args[1]), op.result.type),)

    @impl(cute.LtOp)
    def run_lt(self, interpreter, op, args):
        return (args[0] < args[1],)

    @impl(cute.GeOp)
    def run_ge(self, interpreter, op, args):
        return (args[0] >= args[1],)

    @impl(cute.SelectOp)
    def run_select(self, interpreter, op, args):
        return (torch.where(args[0], args[1], args[2]),)

    @impl(cute.AddWrapOp)
    def run_add_wrap(self, interpreter, op, args):
        return (_value(_int(args[0]) + _int(args[1]), op.result.type),)

    @impl(cute.SubWrapOp)
    def run_sub_wrap(self, interpreter, op, args):
        return (_value(_int(args[0]) - _int(args[1]), op.result.type),)

    @impl(cute.MulWrapOp)
    def run_mul_wrap(self, interpreter, op, args):
        # int64 tensors multiply modulo 2^64, which an i32 product never leaves
        return (_value(_int(args[0]) * _int(args[1]), op.result.type),)

    @impl(cute.FloorDivWrapOp)
    def run_floordiv_wrap(self, interpreter, op, args):
        x, d = _int(args[0]), _int(args[1])
        minus_one = d == -1
        q = torch.div(x, torch.where(minus_one, torch.ones_like(d), d), rounding_mode="floor")
        return (_value(torch.where(minus_one, 0 - x, q), op.result.type),)

    @impl(cute.FloorRemOp)
    def run_floor_rem(self, interpreter, op: cute.FloorRemOp, args):
        x, d = _int(args[0]), _int(args[1])
        rem = torch.fmod(x, d)
        wrong = rem > 0 if op.negative is not None else rem < 0
        return (_value(rem + torch.where(wrong, d, torch.zeros_like(d)), op.result.type),)

    @impl(cute.SafeDivisorOp)
    def run_safe_divisor(self, interpreter, op: cute.SafeDivisorOp, args):
        d = _int(args[0])
        bad = d == 0
        if op.or_minus_one is not None:
            bad = bad | (d == -1)
        return (torch.where(bad, torch.ones_like(d), d),)

    @impl(cute.WrapIndexOp)
    def run_wrap_index(self, interpreter, op: cute.WrapIndexOp, args):
        i = _int(args[0])
        return (torch.where(i < 0, i + op.size_value, i),)

    @impl(cute.ToI32Op)
    def run_to_i32(self, interpreter, op, args):
        return (wrap(_int(args[0]), 32),)

    @impl(cute.ClampedSubOp)
    def run_clamped_sub(self, interpreter, op: cute.ClampedSubOp, args):
        d = _int(args[0]) - _int(args[1])
        if op.lo_value is not None:
            d = torch.clamp(d, min=op.lo_value)
        if op.hi_value is not None:
            d = torch.clamp(d, max=op.hi_value)
        return (wrap(d, 32),)

    @impl(cute.LanesOp)
    def run_lanes(self, interpreter, op, args):
        return (torch.bitwise_and(torch.bitwise_right_shift(args[0], _LANE_IDS), 1) != 0,)


def make_interpreter(module: ModuleOp) -> Interpreter:
    interp = Interpreter(module)
    interp.register_implementations(ArithSemantics())
    interp.register_implementations(MaskSemantics())
    interp.register_implementations(IntervalSemantics())
    interp.register_implementations(CuteSemantics())
    return interp


def _column(x: Sequence[int] | torch.Tensor) -> torch.Tensor:
    return torch.as_tensor(x, dtype=torch.int64).reshape(-1, 1)


def keep_words(
    func: mask.FuncOp,
    b: Sequence[int] | torch.Tensor,
    h: Sequence[int] | torch.Tensor,
    q: Sequence[int] | torch.Tensor,
    kv_base: Sequence[int] | torch.Tensor,
    aux_tensors: Sequence[torch.Tensor] = (),
    aux_scalars: Sequence[int] = (),
) -> torch.Tensor:
    """The keep word (int64 in [0, 2^32)) of `func` at each of the N points."""
    module = func.parent_op()
    if not isinstance(module, ModuleOp):
        module = ModuleOp([func.clone()])
        func = module.ops.first  # type: ignore[assignment]
    assert isinstance(func, mask.FuncOp)
    interp = make_interpreter(module)
    b, h, q, kv = _column(b), _column(h), _column(q), _column(kv_base)
    if not func.is_windowed:
        kv = kv + _LANE_IDS
    scalars = [torch.tensor(int(s), dtype=torch.int64).reshape(1, 1) for s in aux_scalars]
    (result,) = interp.call_op(func, (b, h, q, kv, *aux_tensors, *scalars))
    n = b.shape[0]
    if func.is_packed:
        return torch.remainder(result.expand(n, 1).reshape(n), 1 << 32)
    keep = result.expand(n, LANES).to(torch.int64)
    return (keep * _BITS).sum(dim=-1)
