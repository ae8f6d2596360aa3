"""Is the i32 reading of a mask the one torch's `create_block_mask` computes?

maskopt traces a mask_mod with int32 indices, as FlexAttention's kernels call
it, so its IR does index arithmetic in i32, which wraps. torch's
`create_block_mask` evaluates the mask_mod eagerly with int64 `arange`s, which
do not wrap there: `q_idx + (2**31 - 10) >= kv_idx` is True everywhere for
torch's block mask and mostly False for the kernel. The two readings agree
wherever no i32 result of the mask (as imported, before any pass) leaves the
i32 range.

`i32_overflow_reason(func, bounds, aux)` checks that by interval arithmetic
over the imported `mask.func`: the indices in `[0, B) x [0, H) x [0, Q_LEN) x
[0, KV_LEN)`, an aux load anywhere in its tensor's actual value range. It
returns None when no i32 result can leave the i32 range (then the words of
the compiled mask are torch's), else the reason (an op it does not bound is
a reason too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType

from maskopt.dialects import mask

__all__ = ["i32_overflow_reason"]

_BOOL = "i1"


def _type_range(t: Any) -> tuple[int, int]:
    w = t.width.data
    return -(1 << (w - 1)), (1 << (w - 1)) - 1


def _span(vals: list[int]) -> tuple[int, int]:
    return min(vals), max(vals)


def _div_bounds(a, b, floor: bool):
    if b[0] <= 0 <= b[1]:
        return None
    def q(x, y):
        if floor:
            return x // y
        r = abs(x) // abs(y)
        return r if (x >= 0) == (y > 0) else -r
    return _span([q(x, y) for x in a for y in b])


def i32_overflow_reason(func: mask.FuncOp, bounds: Sequence[int],
                        aux_tensors: Sequence[torch.Tensor]) -> str | None:
    """`bounds` = (B, H, Q_LEN, KV_LEN). None when no i32 result can wrap."""
    env: dict[Any, Any] = {}
    for arg, n in zip(func.body.block.args[:4], bounds):
        env[arg] = (0, max(n - 1, 0))
    aux_args = func.body.block.args[4:]
    if len(aux_args) != len(aux_tensors):
        return "aux tensors do not match the function's arguments"
    for arg, t in zip(aux_args, aux_tensors):
        env[arg] = t
    nonzero: set[Any] = set()  # SSA values that are never 0 (a divisor from a table)
    for op in func.body.block.ops:
        if isinstance(op, mask.YieldOp):
            return None
        args = [env[o] for o in op.operands]
        try:
            if (isinstance(op, _DIVS) and op.operands[1] in nonzero
                    and args[1] is not _BOOL and args[1][0] <= 0 <= args[1][1]):
                m = max(abs(args[0][0]), abs(args[0][1]))  # |a / b| <= |a| when |b| >= 1
                r = max(abs(args[1][0]), abs(args[1][1]))
                out = (-m, m) if isinstance(op, (arith.FloorDivSIOp, arith.DivSIOp)) else (-r, r)
            else:
                out = _bound(op, args)
        except _Unbounded as e:
            return f"`{op.name}` {e}"
        if isinstance(op, mask.LoadOp) and out is not _BOOL and not bool((args[0] == 0).any()):
            nonzero.add(op.results[0])
        if isinstance(op, (arith.ExtSIOp, arith.ExtUIOp)) and op.operands[0] in nonzero:
            nonzero.add(op.results[0])
        if len(op.results) != 1:
            return f"`{op.name}` has {len(op.results)} results"
        res = op.results[0]
        if out is not _BOOL and isinstance(res.type, IntegerType) and res.type.width.data > 1:
            lo, hi = _type_range(res.type)
            if out[0] < lo or out[1] > hi:
                if res.type.width.data == 32 and not isinstance(op, (arith.TruncIOp, mask.LoadOp)):
                    return (f"`{op.name}` may give an i32 result in [{out[0]}, {out[1]}]: "
                            "the kernel's int32 indices would wrap where torch's int64 do not")
                out = (lo, hi)  # wraps identically in torch (an explicit cast, an i64 op)
        env[res] = out
    return None


_DIVS = (arith.FloorDivSIOp, arith.DivSIOp, arith.RemSIOp, mask.FloorModOp)


class _Unbounded(Exception):
    pass


def _bound(op, args):
    if isinstance(op, arith.ConstantOp):
        if op.result.type == IntegerType(1):
            return _BOOL
        v = op.value.value.data  # type: ignore[union-attr]
        return (v, v)
    if isinstance(op, mask.LoadOp):
        t = args[0]
        if op.result.type == IntegerType(1) or t.dtype == torch.bool:
            return _BOOL
        if t.numel() == 0:
            raise _Unbounded("loads from an empty tensor")
        lo, hi = torch.aminmax(t.reshape(-1).to(torch.int64))
        return (int(lo), int(hi))
    if isinstance(op, arith.CmpiOp):
        return _BOOL
    if any(a is _BOOL for a in args):
        if isinstance(op, (arith.AndIOp, arith.OrIOp, arith.XOrIOp)) and all(a is _BOOL for a in args):
            return _BOOL
        if isinstance(op, arith.SelectOp):
            if args[1] is _BOOL:
                return _BOOL
            return _span([args[1][0], args[2][0], args[1][1], args[2][1]])
        if isinstance(op, arith.ExtUIOp):
            return (0, 1)
        if isinstance(op, arith.ExtSIOp):
            return (-1, 0)
        raise _Unbounded("on i1 operands")
    if isinstance(op, arith.AddiOp):
        (a, b), (c, d) = args
        return (a + c, b + d)
    if isinstance(op, arith.SubiOp):
        (a, b), (c, d) = args
        return (a - d, b - c)
    if isinstance(op, arith.MuliOp):
        (a, b), (c, d) = args
        return _span([a * c, a * d, b * c, b * d])
    if isinstance(op, arith.MinSIOp):
        (a, b), (c, d) = args
        return (min(a, c), min(b, d))
    if isinstance(op, arith.MaxSIOp):
        (a, b), (c, d) = args
        return (max(a, c), max(b, d))
    if isinstance(op, (arith.FloorDivSIOp, arith.DivSIOp)):
        r = _div_bounds(args[0], args[1], isinstance(op, arith.FloorDivSIOp))
        if r is None:
            raise _Unbounded("may divide by zero")
        return r
    if isinstance(op, (mask.FloorModOp, arith.RemSIOp)):
        (a, b), (c, d) = args
        m = max(abs(c), abs(d))
        if c <= 0 <= d:
            raise _Unbounded("may divide by zero")
        if isinstance(op, mask.FloorModOp):
            return (0, m - 1) if c > 0 else (-(m - 1), 0)
        return (-(m - 1) if a < 0 else 0, (m - 1) if b > 0 else 0)
    if isinstance(op, arith.SelectOp):
        return _span([args[1][0], args[2][0], args[1][1], args[2][1]])
    if isinstance(op, arith.ExtSIOp):
        return args[0]
    if isinstance(op, arith.ExtUIOp):
        a, b = args[0]
        return (a, b) if a >= 0 else (0, (1 << op.input.type.width.data) - 1)
    if isinstance(op, arith.TruncIOp):
        return args[0]  # checked against the result type by the caller
    if isinstance(op, (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShRSIOp)):
        (a, b), (c, d) = args
        if isinstance(op, arith.AndIOp) and (a >= 0 or c >= 0):
            return (0, max(b if a >= 0 else 0, d if c >= 0 else 0))
        return _type_range(op.result.type)  # bitwise: never wraps
    if isinstance(op, arith.ShLIOp):
        (a, b), (c, d) = args
        if c < 0 or d > 63:
            raise _Unbounded("shifts by an amount outside [0, 64)")
        return _span([a << c, a << d, b << c, b << d])
    raise _Unbounded("is not bounded by maskopt's index-range check")
