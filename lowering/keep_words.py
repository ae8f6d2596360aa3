"""Keep words of a packed `mask.func` on a grid of rows x words, as torch tensors.

`GridWords(func, device)` evaluates a packed function (the `interval` dialect
after `pack-mask`) for a whole grid at once: `q` is a column `[R, 1]`, the
word starts `kv_base` a row `[1, W]`, `b` and `h` scalars; lane-uniform values
stay as small as what they depend on (a value of `q` alone is `[R, 1]`), and a
lane set is a keep word (int64 in `[0, 2^32)`), never 32 lanes.

The integer semantics are those of torch's eager evaluation with int64 index
tensors (how `create_block_mask` evaluates a mask_mod), not the wrapping i32
of the IR: every i32 arithmetic result is checked to lie in the i32 range,
where the two agree, and `IndexWrap` is raised otherwise (the caller falls
back to torch). Explicit truncations (`arith.trunci`) wrap, as in torch.

Raises `GridUnsupported` for an op it does not model (a per-lane function,
`mask.lane`, ...): the caller falls back as well.
"""

from __future__ import annotations

from typing import Any

import torch
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from maskopt.dialects import interval, mask
from maskopt.dialects.semantics import MaskSemantics, bound_value, span_start, wrap

__all__ = ["GridUnsupported", "IndexWrap", "GridWords"]

_WORD = (1 << 32) - 1


class GridUnsupported(ValueError):
    """The function is not one the grid evaluator models (not packed, or an op it lacks)."""


class IndexWrap(ArithmeticError):
    """An i32 result left the i32 range: torch's int64 evaluation would not wrap there."""


def _width(t: Any) -> int:
    if not isinstance(t, IntegerType):
        raise GridUnsupported(f"type {t} is not an integer type")
    return t.width.data


def _int(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.int64) if x.dtype == torch.bool else x


def _checked(x: torch.Tensor, width: int, what: str) -> torch.Tensor:
    """`x` when it is exact in a signed `width`-bit type; else `IndexWrap`."""
    if width >= 64 or x.numel() == 0:
        return x
    half = 1 << (width - 1)
    lo, hi = torch.aminmax(x)
    if int(lo) < -half or int(hi) >= half:
        raise IndexWrap(f"{what}: an i{width} result leaves the i{width} range")
    return x


def _range_word(lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
    """The word of lanes L with lo <= L < hi."""
    one = torch.ones((), dtype=torch.int64, device=lo.device)
    a = torch.bitwise_left_shift(one, lo.clamp(0, 32))
    b = torch.bitwise_left_shift(one, hi.clamp(0, 32))
    return (b - a).clamp_min(0)


@register_impls
class GridSemantics(InterpreterFunctions):
    """`arith` (exact, range-checked) and `interval` (keep words) on grid tensors."""

    def __init__(self, device: torch.device):
        self.device = device

    # arith -----------------------------------------------------------------

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args):
        value = op.value.value.data  # type: ignore[union-attr]
        if op.result.type == IntegerType(1):
            return (torch.tensor(value != 0, device=self.device),)
        return (torch.tensor(value, dtype=torch.int64, device=self.device),)

    def _binary(self, op, fn, args):
        w = _width(op.result.type)
        lhs, rhs = (_int(a) for a in args)
        if w < 64:
            return (_checked(fn(lhs, rhs), w, op.name),)
        # i64: torch's int64 arithmetic wraps; so does the IR's. Products and
        # sums of operands below 2^62 / 2^31 are exact in int64 either way.
        return (fn(lhs, rhs),)

    @impl(arith.AddiOp)
    def run_addi(self, interpreter, op, args):
        return self._binary(op, torch.add, args)

    @impl(arith.SubiOp)
    def run_subi(self, interpreter, op, args):
        return self._binary(op, torch.sub, args)

    @impl(arith.MuliOp)
    def run_muli(self, interpreter, op, args):
        return self._binary(op, torch.mul, args)

    def _nonzero(self, op, rhs):
        if bool((rhs == 0).any()):
            raise ZeroDivisionError(f"{op.name}: division by zero")

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(self, interpreter, op, args):
        self._nonzero(op, args[1])
        return self._binary(op, lambda a, b: torch.div(a, b, rounding_mode="floor"), args)

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter, op, args):
        self._nonzero(op, args[1])
        return self._binary(op, lambda a, b: torch.div(a, b, rounding_mode="trunc"), args)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter, op, args):
        self._nonzero(op, args[1])
        return self._binary(op, torch.fmod, args)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter, op, args):
        return (torch.minimum(_int(args[0]), _int(args[1])),)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter, op, args):
        return (torch.maximum(_int(args[0]), _int(args[1])),)

    def _shift_amount(self, op, amount):
        w = _width(op.result.type)
        if bool(((amount < 0) | (amount >= w)).any()):
            raise GridUnsupported(f"{op.name}: shift amount outside [0, {w})")

    @impl(arith.ShRSIOp)
    def run_shrsi(self, interpreter, op, args):
        self._shift_amount(op, args[1])
        return (torch.bitwise_right_shift(_int(args[0]), _int(args[1])),)

    @impl(arith.ShLIOp)
    def run_shli(self, interpreter, op, args):
        self._shift_amount(op, args[1])
        return self._binary(op, torch.bitwise_left_shift, args)

    @impl(arith.AndIOp)
    def run_andi(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] & args[1],)
        return (torch.bitwise_and(_int(args[0]), _int(args[1])),)

    @impl(arith.OrIOp)
    def run_ori(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] | args[1],)
        return (torch.bitwise_or(_int(args[0]), _int(args[1])),)

    @impl(arith.XOrIOp)
    def run_xori(self, interpreter, op, args):
        if op.result.type == IntegerType(1):
            return (args[0] ^ args[1],)
        return (torch.bitwise_xor(_int(args[0]), _int(args[1])),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter, op: arith.CmpiOp, args):
        pred = op.predicate.value.data
        lhs, rhs = (_int(a) for a in args)
        fns = {0: torch.eq, 1: torch.ne, 2: torch.lt, 3: torch.le, 4: torch.gt, 5: torch.ge}
        if pred in fns:
            return (fns[pred](lhs, rhs),)
        w = _width(op.lhs.type)
        if w >= 64:
            raise GridUnsupported("unsigned i64 comparison")
        ulhs, urhs = torch.remainder(lhs, 1 << w), torch.remainder(rhs, 1 << w)
        return ({6: torch.lt, 7: torch.le, 8: torch.gt, 9: torch.ge}[pred](ulhs, urhs),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter, op, args):
        return (torch.where(args[0], args[1], args[2]),)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter, op, args):
        return (_int(args[0]) if op.input.type != IntegerType(1) else -_int(args[0]),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter, op, args):
        w = _width(op.input.type)
        x = _int(args[0])
        return (torch.remainder(x, 1 << w) if 1 < w < 64 else x,)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter, op, args):
        return (wrap(_int(args[0]), _width(op.result.type)),)

    # interval: a set is its keep word ---------------------------------------

    @impl(interval.RangeOp)
    def run_range(self, interpreter, op, args):
        return (_range_word(_int(args[0]), _int(args[1])),)

    @impl(interval.SpanOp)
    def run_span(self, interpreter, op: interval.SpanOp, args):
        a = span_start(op, _int(args[0]))  # in [-width, 32]
        return (_range_word(a, a + op.width_value),)

    @impl(interval.PeriodicOp)
    def run_periodic(self, interpreter, op: interval.PeriodicOp, args):
        p, m = op.period_value, op.residues_value
        if p > 4096:
            raise GridUnsupported(f"period {p} too long for a word table")
        # word of offset r: lane L kept iff bit (L + r) mod p of m is set
        words = [
            sum(1 << lane for lane in range(32) if (m >> ((lane + r) % p)) & 1)
            for r in range(p)
        ]
        table = torch.tensor(words, dtype=torch.int64, device=self.device)
        return (table[torch.remainder(_int(args[0]), p)],)

    @impl(interval.TableOp)
    def run_table(self, interpreter, op: interval.TableOp, args):
        lanes = torch.arange(32, dtype=torch.int64, device=self.device)
        off, t = _int(args[0]), _int(args[1])
        r = off.unsqueeze(-1) + lanes
        inside = (r >= 0) & (r < 32)
        table = torch.tensor(op.table_values, dtype=torch.int64, device=self.device)
        value = table[torch.clamp(r, 0, 31)]
        kept = value > t.unsqueeze(-1) if op.is_gt else value <= t.unsqueeze(-1)
        bits = torch.bitwise_left_shift(torch.ones((), dtype=torch.int64, device=self.device), lanes)
        return (((inside & kept).to(torch.int64) * bits).sum(-1),)

    @impl(interval.BoundOp)
    def run_bound(self, interpreter, op: interval.BoundOp, args):
        return (bound_value(op, _int(args[0])),)

    @impl(interval.FullOp)
    def run_full(self, interpreter, op, args):
        return (torch.tensor(_WORD, dtype=torch.int64, device=self.device),)

    @impl(interval.EmptyOp)
    def run_empty(self, interpreter, op, args):
        return (torch.tensor(0, dtype=torch.int64, device=self.device),)

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
        return (args[0] ^ _WORD,)

    @impl(interval.SelectOp)
    def run_select_set(self, interpreter, op, args):
        return (torch.where(args[0], args[1], args[2]),)

    @impl(interval.KeepWordOp)
    def run_keep_word(self, interpreter, op, args):
        return (args[0],)


_PER_LANE_OPS = (mask.LaneOp, mask.LaneCmpOp)


class GridWords:
    """Keep words of one packed `mask.func` on row x word grids."""

    def __init__(self, module: ModuleOp, device: torch.device | str = "cpu"):
        func = module.ops.first
        if not isinstance(func, mask.FuncOp) or not func.is_packed or not func.is_windowed:
            raise GridUnsupported("the function is not packed")
        for op in func.walk():
            if isinstance(op, _PER_LANE_OPS):
                raise GridUnsupported(f"{op.name} in a packed function")
        self.func = func
        self.device = torch.device(device)
        args = func.body.block.args
        #: whether the words depend on b / h (else one evaluation serves all)
        self.reads_b = bool(args[0].uses)
        self.reads_h = bool(args[1].uses)
        self._interp = Interpreter(module)
        self._interp.register_implementations(GridSemantics(self.device))
        self._interp.register_implementations(MaskSemantics())

    def words(self, b: int, h: int, q: torch.Tensor, kv_base: torch.Tensor,
              aux_tensors: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """Words `[len(q), len(kv_base)]` (int64 in [0, 2^32)): word (i, j) has
        bit L set iff the mask keeps (b, h, q[i], kv_base[j] + L)."""
        dev = self.device
        bt = torch.tensor(b, dtype=torch.int64, device=dev)
        ht = torch.tensor(h, dtype=torch.int64, device=dev)
        qt = q.to(device=dev, dtype=torch.int64).reshape(-1, 1)
        kt = kv_base.to(device=dev, dtype=torch.int64).reshape(1, -1)
        return self.words_at(bt, ht, qt, kt, aux_tensors).expand(qt.shape[0], kt.shape[1])

    def words_at(self, b: torch.Tensor, h: torch.Tensor, q: torch.Tensor, kv_base: torch.Tensor,
                 aux_tensors: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """Words at broadcastable int64 index tensors (the result broadcasts
        to their common shape, or is smaller where it does not depend on one)."""
        (word,) = self._interp.call_op(self.func, (b, h, q, kv_base, *aux_tensors))
        return _int(word)

