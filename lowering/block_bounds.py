"""Whole blocks classified from bounds, before any keep word is computed.

`classify(func, ...)` runs a packed `mask.func` on intervals instead of
values: for every (q block, kv block) at once, each integer is a pair of
tensors (lo, hi) that bounds it over all q rows and word starts of the block,
each i1 a pair (may be true, may be false), each lane set a pair (surely
full, surely empty) over every word of the block. The result says, per
block, "every word is all ones", "every word is zero", or neither; only the
blocks of the last kind need their words (`lowering.keep_words`).

Soundness over precision: an op it has no bound for gives the type's whole
range (or "may be either"), which leaves its blocks to the exact words. i32
results are clamped into the i32 range when their bound leaves it (a
wrapped value lies in it too), so the bounds also hold for the IR's wrapping
arithmetic.
"""

from __future__ import annotations

from typing import Any

import torch
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType

from maskopt.dialects import interval, mask
from maskopt.dialects.semantics import bound_value

__all__ = ["classify"]

_I1 = IntegerType(1)


def _range_of(t: Any) -> tuple[int, int]:
    w = t.width.data
    return -(1 << (w - 1)), (1 << (w - 1)) - 1


class _Top(Exception):
    """No bound: the value may be anything of its type."""


def _corners(fn, a, b):
    (alo, ahi), (blo, bhi) = a, b
    c = [fn(alo, blo), fn(alo, bhi), fn(ahi, blo), fn(ahi, bhi)]
    lo = torch.minimum(torch.minimum(c[0], c[1]), torch.minimum(c[2], c[3]))
    hi = torch.maximum(torch.maximum(c[0], c[1]), torch.maximum(c[2], c[3]))
    return lo, hi


def _below(args, limit: int) -> bool:
    return all(bool((x.abs() < limit).all()) for pair in args for x in pair)


def _const(x):
    lo, hi = x
    if lo.numel() == 1 and hi.numel() == 1 and int(lo) == int(hi):
        return int(lo)
    return None


#: An unsigned aux tensor's `mask.load` yields the element's bits as the
#: signed integer of its width (lowering/fx_import.py): a uint64 value >= 2^63
#: is negative there, and no int64 can hold it as it is.
_SIGNED_VIEW = {torch.uint8: torch.int8, torch.uint16: torch.int16,
                torch.uint32: torch.int32, torch.uint64: torch.int64}


def _as_loaded(t: torch.Tensor) -> torch.Tensor:
    """`t`'s elements as the load yields them (see `_SIGNED_VIEW`)."""
    signed = _SIGNED_VIEW.get(t.dtype)
    return t if signed is None else t.view(signed)


class _Bounds:
    def __init__(self, device, q_lo, q_hi, kv_lo, kv_hi, b, h, aux, q_block_minmax):
        self.device = device
        self.q = (q_lo, q_hi)
        self.kv = (kv_lo, kv_hi)
        self.bh = (b, h)
        self.aux = aux
        self.q_block_minmax = q_block_minmax  # aux index -> (min, max) per q block, or None

    def t(self, v):
        return torch.tensor(v, dtype=torch.int64, device=self.device)

    def top(self, type_):
        lo, hi = _range_of(type_)
        return self.t(lo), self.t(hi)

    def integer(self, op, args, env_src):
        """(lo, hi) of an integer result; raises _Top for no bound."""
        if isinstance(op, arith.ConstantOp):
            v = op.value.value.data  # type: ignore[union-attr]
            return self.t(v), self.t(v)
        if isinstance(op, mask.LoadOp):
            t = self.aux[env_src[op.tensor]]
            idx = op.indices
            if t.dtype == torch.bool:
                raise _Top
            if len(idx) == 1 and idx[0] is env_src["q_arg"] and self.q_block_minmax[env_src[op.tensor]] is not None:
                return self.q_block_minmax[env_src[op.tensor]]
            pts = [_const(args[1 + i]) for i in range(len(idx))]
            t = _as_loaded(t)
            if all(p is not None for p in pts) and all(0 <= p < s for p, s in zip(pts, t.shape)):
                v = int(t[tuple(pts)])
                return self.t(v), self.t(v)
            lo, hi = torch.aminmax(t.reshape(-1).to(torch.int64))
            return lo, hi
        a = args
        if any(o.type == _I1 for o in op.operands[1 if isinstance(op, arith.SelectOp) else 0:]):
            raise _Top  # an i1 widened to an integer: no bound kept
        if isinstance(op, (arith.AddiOp, arith.SubiOp)) and not _below(a, 1 << 62):
            raise _Top  # the bound itself could wrap in int64
        if isinstance(op, arith.MuliOp) and not _below(a, 1 << 31):
            raise _Top
        if isinstance(op, arith.AddiOp):
            return a[0][0] + a[1][0], a[0][1] + a[1][1]
        if isinstance(op, arith.SubiOp):
            return a[0][0] - a[1][1], a[0][1] - a[1][0]
        if isinstance(op, arith.MuliOp):
            return _corners(torch.mul, a[0], a[1])
        if isinstance(op, arith.MinSIOp):
            return torch.minimum(a[0][0], a[1][0]), torch.minimum(a[0][1], a[1][1])
        if isinstance(op, arith.MaxSIOp):
            return torch.maximum(a[0][0], a[1][0]), torch.maximum(a[0][1], a[1][1])
        if isinstance(op, (arith.FloorDivSIOp, mask.FloorModOp)):
            d = _const(a[1])
            if d is None or d <= 0:
                raise _Top
            lo, hi = a[0]
            qlo = torch.div(lo, d, rounding_mode="floor")
            qhi = torch.div(hi, d, rounding_mode="floor")
            if isinstance(op, arith.FloorDivSIOp):
                return qlo, qhi
            same = qlo == qhi
            return (torch.where(same, lo - qlo * d, 0), torch.where(same, hi - qhi * d, d - 1))
        if isinstance(op, arith.ExtSIOp):
            return a[0]
        if isinstance(op, interval.BoundOp):
            # clip(sign * u + k, 0, 32) is monotone in u
            ends = bound_value(op, a[0][0]), bound_value(op, a[0][1])
            return ends if op.sign_value > 0 else ends[::-1]
        if isinstance(op, arith.SelectOp):
            (may_t, may_f), x, y = a
            lo = torch.where(~may_f, x[0], torch.where(~may_t, y[0], torch.minimum(x[0], y[0])))
            hi = torch.where(~may_f, x[1], torch.where(~may_t, y[1], torch.maximum(x[1], y[1])))
            return lo, hi
        raise _Top

    def boolean(self, op, args):
        """(may be true, may be false) of an i1 result."""
        T = torch.ones((), dtype=torch.bool, device=self.device)
        if isinstance(op, arith.ConstantOp):
            v = bool(op.value.value.data)  # type: ignore[union-attr]
            return T if v else ~T, ~T if v else T
        if isinstance(op, arith.CmpiOp):
            if op.lhs.type == _I1:
                return T, T
            (alo, ahi), (blo, bhi) = args
            p = op.predicate.value.data
            if p == 0:  # eq
                return (alo <= bhi) & (blo <= ahi), ~((alo == ahi) & (blo == bhi) & (alo == blo))
            if p == 1:  # ne
                t, f = (alo <= bhi) & (blo <= ahi), ~((alo == ahi) & (blo == bhi) & (alo == blo))
                return f, t
            if p in (2, 3, 4, 5):  # slt sle sgt sge
                if p in (4, 5):
                    (alo, ahi), (blo, bhi) = (blo, bhi), (alo, ahi)  # a > b  <=>  b < a
                strict = p in (2, 4)
                if strict:
                    return alo < bhi, ahi >= blo
                return alo <= bhi, ahi > blo
            return T, T
        if isinstance(op, (arith.AndIOp, arith.OrIOp, arith.XOrIOp)):
            (at, af), (bt, bf) = args
            if isinstance(op, arith.AndIOp):
                return at & bt, af | bf
            if isinstance(op, arith.OrIOp):
                return at | bt, af & bf
            return (at & bf) | (af & bt), (at & bt) | (af & bf)
        if isinstance(op, arith.SelectOp):
            (ct, cf), (xt, xf), (yt, yf) = args
            return (ct & xt) | (cf & yt), (ct & xf) | (cf & yf)
        return T, T

    def lane_set(self, op, args):
        """(surely full, surely empty) of a lane set over the block's words."""
        F = torch.zeros((), dtype=torch.bool, device=self.device)
        if isinstance(op, interval.RangeOp):
            return _range_claims(*args)
        if isinstance(op, interval.SpanOp):
            (ulo, uhi), = args
            if abs(op.k_value) >= 2**61:
                return F, F
            # clamping u's range at +-2^62 changes no claim (|k| < 2^61) and keeps int64 exact
            alo, ahi = op.starts(torch.clamp(ulo, -(2**62), 2**62), torch.clamp(uhi, -(2**62), 2**62))
            w = op.width_value
            return _range_claims((alo, ahi), (alo + w, ahi + w))  # the run [a, a + w)
        if isinstance(op, interval.FullOp):
            return ~F, F
        if isinstance(op, interval.EmptyOp):
            return F, ~F
        if isinstance(op, interval.UnionOp):
            full, empty = args[0]
            for f, e in args[1:]:
                full, empty = full | f, empty & e
            return full, empty
        if isinstance(op, interval.IntersectOp):
            full, empty = args[0]
            for f, e in args[1:]:
                full, empty = full & f, empty | e
            return full, empty
        if isinstance(op, interval.ComplementOp):
            full, empty = args[0]
            return empty, full
        if isinstance(op, interval.SelectOp):
            (ct, cf), (xf, xe), (yf, ye) = args
            return (~ct | xf) & (~cf | yf), (~ct | xe) & (~cf | ye)
        return F, F  # periodic, table: no claim


def _range_claims(lo, hi):
    """(surely full, surely empty) of the run [lo, hi) from the (low, high)
    ranges of its bounds."""
    (llo, lhi), (hlo, hhi) = lo, hi
    return (lhi <= 0) & (hlo >= 32), (hhi <= llo) | (hhi <= 0) | (llo >= 32)


def classify(func: mask.FuncOp, aux: tuple[torch.Tensor, ...], b: int, h: int,
             q_lo: torch.Tensor, q_hi: torch.Tensor, kv_lo: torch.Tensor, kv_hi: torch.Tensor,
             q_block_minmax) -> tuple[torch.Tensor, torch.Tensor]:
    """(surely all ones, surely all zero) per block, broadcast from the
    [nq, 1] q bounds and [1, nkv] word-start bounds."""
    device = q_lo.device
    bd = _Bounds(device, q_lo, q_hi, kv_lo, kv_hi, b, h, aux, q_block_minmax)
    args = func.body.block.args
    env: dict[Any, Any] = {
        args[0]: (bd.t(b), bd.t(b)), args[1]: (bd.t(h), bd.t(h)),
        args[2]: (q_lo, q_hi), args[3]: (kv_lo, kv_hi),
    }
    src: dict[Any, Any] = {"q_arg": args[2]}
    for i, a in enumerate(args[4:]):
        src[a] = i
        env[a] = None
    for op in func.body.block.ops:
        if isinstance(op, mask.YieldOp):
            word = op.operands[0]
            if word.owner is not None and isinstance(word.owner, interval.KeepWordOp):
                return env[word]
            lo, hi = env[word]  # an integer word (a constant): all ones / zero when known
            point = lo == hi
            return point & ((lo & 0xFFFFFFFF) == 0xFFFFFFFF), point & (lo == 0)
        operands = [env[o] for o in op.operands]
        res = op.results[0]
        if isinstance(res.type, interval.LaneSetType):
            env[res] = bd.lane_set(op, operands)
        elif isinstance(op, interval.KeepWordOp):
            env[res] = operands[0]
        elif res.type == _I1:
            if isinstance(op, mask.LoadOp):
                T = torch.ones((), dtype=torch.bool, device=device)
                env[res] = (T, T)
            else:
                env[res] = bd.boolean(op, operands)
        else:
            try:
                if any(o is None for o in operands[1 if isinstance(op, mask.LoadOp) else 0:]):
                    raise _Top
                lo, hi = bd.integer(op, operands, src)
                tlo, thi = _range_of(res.type)
                if res.type.width.data < 64:
                    out = (lo < tlo) | (hi > thi)
                    lo = torch.where(out, tlo, lo)
                    hi = torch.where(out, thi, hi)
                env[res] = (lo, hi)
            except _Top:
                env[res] = bd.top(res.type)
            except OverflowError:
                env[res] = bd.top(res.type)
    raise ValueError("mask.func without a yield")
