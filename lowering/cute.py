"""
CuTe target: print `mask.func`s as a Python module for FlashAttention-4's
SM100 vector mask path (CuTe DSL).

Every function becomes

    @cute.jit
    def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
        ...
        return packed.load()       # one cutlass.Uint32: bit L keeps kv_idx[0] + L
    mask_mod.__vec_size__ = 32

(named after its symbol when the module holds several). b_idx, h_idx, q_idx
and kv_idx are the 32-lane Int32 vectors FA4 passes; aux tensors are
`aux_tensors[i]`, aux scalars `aux_scalars[i]` (a 7th parameter). This is the
ABI of `flash_attn.cute.mask.apply_mask_mod_sm100_vector` and of torch
inductor's `flash_attention.py.jinja`.

A packed function prints its keep word. A function that did not pack prints
a per-lane loop over the 32 lanes that evaluates the predicate lane by lane
(lane-uniform values are computed once, before the loop) and sets bit L.

Semantics the printer relies on (CuTe DSL on runtime Int32 values): `//`
floors, `%` truncates (C), shifts by >= 32 are only done with
`utils.shl_u32`/`utils.shr_u32` (PTX clamps the amount); plain `<<` is only
used with a constant lane amount < 32. An i32 op whose exact result may
leave i32 on the mask domain (it wraps in torch) is printed in Int64 and
converted back; an i64 op that may wrap cannot be printed.

`keep_mask_exprs(func)` gives the keep word of a packed function as one
self-contained expression per top-level run (the pieces torch inductor's
template ORs together).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.utils.target import Target

from maskopt.dialects import interval, mask
from maskopt.passes.analysis import (
    WIDENABLE_OPS,
    WRAPPING_ARITH_OPS,
    ValueRanges,
    lane_dependent_values,
)

LANES = 32
ONES = "cutlass.Uint32(0xFFFFFFFF)"


class CuteEmitError(Exception):
    """The IR cannot be printed as CuTe code; the message says why."""


_CTYPE = {1: "cutlass.Boolean", 8: "cutlass.Int8", 16: "cutlass.Int16", 32: "cutlass.Int32", 64: "cutlass.Int64"}
_CMP = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">=", 6: "<", 7: "<=", 8: ">", 9: ">="}
_LANE_CMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}
_BINARY = {
    arith.AddiOp: "+",
    arith.SubiOp: "-",
    arith.MuliOp: "*",
    arith.FloorDivSIOp: "//",
    arith.RemSIOp: "%",
    arith.AndIOp: "&",
    arith.OrIOp: "|",
    arith.XOrIOp: "^",
    arith.ShRSIOp: ">>",
    arith.ShLIOp: "<<",
}


def ctype(t) -> str:
    assert isinstance(t, IntegerType), t
    return _CTYPE[t.width.data]


@dataclass
class CutePrintContext:
    """Names of printed values and the current indentation, like xDSL's CSL printer."""

    output: IO[str]
    names: dict[SSAValue, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    indent: int = 0

    def line(self, text: str = "") -> None:
        print(("    " * self.indent + text) if text else "", file=self.output)

    @contextmanager
    def indented(self) -> Iterator[None]:
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1

    def fresh(self, hint: str | None) -> str:
        base = re.sub(r"\W", "_", hint or "v") or "v"
        if base[0].isdigit():
            base = "v" + base
        if keyword.iskeyword(base) or base in _RESERVED:
            base += "_"
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        return name


_RESERVED = {
    "cutlass", "cute", "utils", "min", "max", "mask_mod", "b_idx", "h_idx",
    "q_idx", "kv_idx", "seqlen_info", "aux_tensors", "aux_scalars", "lane",
    "packed", "word",
}


@dataclass
class _FunctionPrinter:
    """Prints one mask.func; `expr` gives the CuTe expression of a value."""

    func: mask.FuncOp
    ctx: CutePrintContext
    inline: bool = False
    ranges: ValueRanges = field(init=False)
    lane_expr: str | None = None

    def __post_init__(self):
        self.ranges = ValueRanges(self.func)

    # Expressions ----------------------------------------------------------

    def expr(self, v: SSAValue) -> str:
        if v in self.ctx.names:
            return self.ctx.names[v]
        if isinstance(v, BlockArgument):
            return self.arg_expr(v)
        c = const_evaluate_operand(v)
        if c is not None:
            return self.const(c, v.type)
        op = v.owner
        assert isinstance(op, Operation)
        text = self.op_expr(op)
        if self.inline or text.isidentifier():
            return text
        name = self.ctx.fresh(v.name_hint)
        self.ctx.line(f"{name} = {text}")
        self.ctx.names[v] = name
        return name

    def const(self, c: int, t) -> str:
        if t == IntegerType(1):
            return f"cutlass.Boolean({bool(c)})"
        return f"{ctype(t)}({c})"

    def arg_expr(self, arg: BlockArgument) -> str:
        i = arg.index
        if i < 4:
            vec = ("b_idx", "h_idx", "q_idx", "kv_idx")[i]
            if i == 3 and self.lane_expr is not None and not self.func.is_windowed:
                return f"{vec}[{self.lane_expr}]"
            return f"{vec}[0]"
        tensors = self.func.aux_tensor_args
        if isinstance(arg.type, TensorType):
            return f"aux_tensors[{tensors.index(arg)}]"
        return f"aux_scalars[{self.func.aux_scalar_args.index(arg)}]"

    def op_expr(self, op: Operation) -> str:
        e = self.expr
        match op:
            case mask.LoadOp():
                return self.load(op)
            case mask.FloorModOp():
                return self.floormod(op)
            case arith.DivSIOp():
                a, b = e(op.lhs), e(op.rhs)
                return (
                    f"(({a} // {b}) + {ctype(op.result.type)}(1) if "
                    f"(({a} % {b}) != {ctype(op.result.type)}(0)) & "
                    f"(({a} < 0) != ({b} < 0)) else ({a} // {b}))"
                )
            case _ if type(op) in _BINARY:
                return self.binary(op)
            case arith.MinSIOp():
                return f"min({e(op.lhs)}, {e(op.rhs)})"
            case arith.MaxSIOp():
                return f"max({e(op.lhs)}, {e(op.rhs)})"
            case arith.CmpiOp():
                pred = op.predicate.value.data
                a, b = e(op.lhs), e(op.rhs)
                if pred >= 6:
                    a, b = f"cutlass.Uint32({a})", f"cutlass.Uint32({b})"
                    if op.lhs.type != IntegerType(32):
                        raise CuteEmitError("unsigned comparison of a non-i32 value")
                return f"({a} {_CMP[pred]} {b})"
            case arith.SelectOp():
                return f"({e(op.lhs)} if {e(op.cond)} else {e(op.rhs)})"
            case arith.ExtSIOp():
                return f"{ctype(op.result.type)}({e(op.input)})"
            case arith.ExtUIOp():
                if op.input.type == IntegerType(1):
                    t = ctype(op.result.type)
                    return f"({t}(1) if {e(op.input)} else {t}(0))"
                raise CuteEmitError("zero extension of a non-bool value")
            case arith.TruncIOp():
                if op.result.type == IntegerType(1):
                    return f"(({e(op.input)} & {ctype(op.input.type)}(1)) != {ctype(op.input.type)}(0))"
                return f"{ctype(op.result.type)}({e(op.input)})"
            case mask.LaneOp():
                if self.lane_expr is None:
                    raise CuteEmitError("mask.lane outside the per-lane loop")
                return f"cutlass.Int32({self.lane_expr})"
            case mask.LaneCmpOp():
                if self.lane_expr is None:
                    raise CuteEmitError("mask.lane_cmp outside the per-lane loop")
                # c * lane + u + k <pred> 0  <=>  u <pred> -c * lane - k, where
                # lane is a Python int; compare in Int64 when that bound may
                # leave i32.
                u, t = e(op.u), ctype(op.u.type)
                bound = f"{-op.coeff_value} * {self.lane_expr} - {op.offset_value}"
                worst = max(abs(op.coeff_value) * (LANES - 1) + abs(op.offset_value), 0)
                if op.u.type == IntegerType(32) and worst >= 2**31:
                    u, t = f"cutlass.Int64({u})", "cutlass.Int64"
                return f"({u} {_LANE_CMP[op.predicate.data]} {t}({bound}))"
            case interval.RangeOp():
                return self.range_word(op)
            case interval.PeriodicOp():
                return self.periodic_word(op)
            case interval.FullOp():
                return ONES
            case interval.EmptyOp():
                return "cutlass.Uint32(0)"
            case interval.UnionOp():
                return "(" + " | ".join(e(s) for s in op.sets) + ")"
            case interval.IntersectOp():
                return "(" + " & ".join(e(s) for s in op.sets) + ")"
            case interval.ComplementOp():
                return f"(~{e(op.set)})"
            case interval.SelectOp():
                return f"({e(op.true_set)} if {e(op.cond)} else {e(op.false_set)})"
            case interval.KeepWordOp():
                return e(op.set)
            case _:
                raise CuteEmitError(f"cannot print {op.name} as CuTe code")

    def binary(self, op: Operation) -> str:
        lhs, rhs = op.operands
        t = op.results[0].type
        sym = _BINARY[type(op)]
        a, b = self.expr(lhs), self.expr(rhs)
        if t == IntegerType(1):
            return f"({a} {sym} {b})"
        lc, rc = const_evaluate_operand(lhs), const_evaluate_operand(rhs)
        if lc is not None and rc is not None:
            raise CuteEmitError(f"unfolded constant {op.name}: run canonicalize first")
        if isinstance(op, (arith.ShLIOp, arith.ShRSIOp)):
            if rc is None or not 0 <= rc < t.width.data:
                raise CuteEmitError(f"{op.name} by a non-constant or out-of-range amount")
        if isinstance(op, (arith.FloorDivSIOp, arith.RemSIOp)):
            d = self.ranges.of(rhs)
            if d.lo <= 0 <= d.hi:
                raise CuteEmitError(f"{op.name} by a value that may be zero")
        if self.ranges.may_wrap(op):
            if isinstance(op, WIDENABLE_OPS) and t == IntegerType(32):
                return f"cutlass.Int32(cutlass.Int64({a}) {sym} cutlass.Int64({b}))"
            if not self.func.is_packed and isinstance(op, WRAPPING_ARITH_OPS):
                # Per-lane code evaluates the user's predicate as written: an
                # i64 +, -, * lowers to LLVM add/sub/mul without nsw, which
                # wraps exactly like torch's int64.
                return f"({a} {sym} {b})"
            raise CuteEmitError(
                f"{op.name} may overflow {t} on the mask domain; it cannot be printed"
            )
        return f"({a} {sym} {b})"

    def load(self, op: mask.LoadOp) -> str:
        assert isinstance(op.tensor.type, TensorType)
        shape = op.tensor.type.get_shape()
        indices = []
        for size, index in zip(shape, op.indices):
            i = self.expr(index)
            if self.ranges.of(index).lo < 0:
                zero = f"{ctype(index.type)}(0)"
                i = f"({i} + {ctype(index.type)}({size}) if {i} < {zero} else {i})"
            indices.append(i)
        return f"{self.expr(op.tensor)}[{', '.join(indices)}]"

    def floormod(self, op: mask.FloorModOp) -> str:
        a, d = self.expr(op.lhs), self.expr(op.rhs)
        t = ctype(op.result.type)
        dr = self.ranges.of(op.rhs)
        if dr.lo <= 0 <= dr.hi:
            raise CuteEmitError("mask.floormod by a value that may be zero")
        if self.ranges.of(op.lhs).lo >= 0 and dr.lo > 0:
            return f"({a} % {d})"
        # `%` truncates on runtime values: move a remainder of the wrong sign.
        r = f"({a} % {d})"
        if not self.inline:
            name = self.ctx.fresh("rem")
            self.ctx.line(f"{name} = {r}")
            r = name
        if dr.lo > 0:
            return f"({r} + {d} if {r} < {t}(0) else {r})"
        if dr.hi < 0:
            return f"({r} + {d} if {r} > {t}(0) else {r})"
        return f"({r} + {d} if ({r} != {t}(0)) & (({r} < {t}(0)) != ({d} < {t}(0))) else {r})"

    def clamp32(self, v: SSAValue) -> str:
        """`v` clipped to [0, 32] as Int32 (no clamp where ranges prove it)."""
        r = self.ranges.of(v)
        x = self.expr(v)
        if v.type != IntegerType(32):
            raise CuteEmitError("interval bounds must be i32")
        if r.lo < 0:
            x = f"max({x}, cutlass.Int32(0))"
        if r.hi > LANES:
            x = f"min({x}, cutlass.Int32({LANES}))"
        return x

    def range_word(self, op: interval.RangeOp) -> str:
        lo_c, hi_c = const_evaluate_operand(op.lo), const_evaluate_operand(op.hi)
        parts = []
        if hi_c is None or hi_c < LANES:
            hi = self.clamp32(op.hi) if hi_c is None else f"cutlass.Int32({min(max(hi_c, 0), LANES)})"
            parts.append(
                f"utils.shr_u32({ONES}, cutlass.Uint32(cutlass.Int32({LANES}) - {hi}))"
            )
        if lo_c is None or lo_c > 0:
            lo = self.clamp32(op.lo) if lo_c is None else f"cutlass.Int32({min(max(lo_c, 0), LANES)})"
            parts.append(f"utils.shl_u32({ONES}, cutlass.Uint32({lo}))")
        if not parts:
            return ONES
        return parts[0] if len(parts) == 1 else f"({parts[0]} & {parts[1]})"

    def periodic_word(self, op: interval.PeriodicOp) -> str:
        """
        Bit L of the word is bit (L + ph) of the 64-bit pattern B whose bit j is
        set iff residue j mod P is kept, where ph = phase mod P in [0, P):
        one funnel shift of a constant, `lo32(B >> ph)`.
        """
        p, m = op.period_value, op.residues_value
        pattern = sum(1 << j for j in range(2 * LANES) if (m >> (j % p)) & 1)
        lo, hi = pattern & 0xFFFFFFFF, pattern >> LANES
        t = ctype(op.phase.type)
        phase = self.expr(op.phase)
        r = self.ranges.of(op.phase)
        if 0 <= r.lo and r.hi < p:
            ph = phase
        elif r.lo >= 0:
            ph = f"({phase} % {t}({p}))"
        else:
            rem = f"({phase} % {t}({p}))"
            if not self.inline:
                name = self.ctx.fresh("rem")
                self.ctx.line(f"{name} = {rem}")
                rem = name
            ph = f"({rem} + {t}({p}) if {rem} < {t}(0) else {rem})"
        if op.phase.type != IntegerType(32):
            ph = f"cutlass.Int32({ph})"
        if not self.inline and not ph.isidentifier():
            name = self.ctx.fresh("ph")
            self.ctx.line(f"{name} = {ph}")
            ph = name
        low = f"utils.shr_u32(cutlass.Uint32({lo:#x}), cutlass.Uint32({ph}))"
        high = f"utils.shl_u32(cutlass.Uint32({hi:#x}), cutlass.Uint32(cutlass.Int32({LANES}) - {ph}))"
        return f"({low} | {high})"

    # Statements -----------------------------------------------------------

    def word_expr(self) -> str:
        v = self.func.yield_op.value
        c = const_evaluate_operand(v)
        if c is not None:
            return f"cutlass.Uint32({c % (1 << 32):#x})"
        return self.expr(v)

    def print_function(self, py_name: str) -> None:
        ctx = self.ctx
        params = "b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors"
        if self.func.aux_scalar_args:
            params += ", aux_scalars"
        why = self.func.unpacked.data if self.func.unpacked is not None else None
        ctx.line("@cute.jit")
        ctx.line(f"def {py_name}({params}):")
        with ctx.indented():
            ctx.line(f'"""maskopt: mask.func @{self.func.sym_name.data}, ' + (
                "packed keep word." if self.func.is_packed else "per-lane evaluation."
            ) + '"""')
            if why is not None:
                ctx.line(f"# not packed: {_comment(why)}")
            for name, i in (("b", 0), ("h", 1), ("q", 2)):
                arg = self.func.index_args[i]
                if arg.uses.get_length():
                    ctx.names[arg] = ctx.fresh(name)
                    ctx.line(f"{ctx.names[arg]} = {('b_idx', 'h_idx', 'q_idx')[i]}[0]")
            kv = self.func.index_args[3]
            if self.func.is_packed:
                if kv.uses.get_length():
                    ctx.names[kv] = ctx.fresh("kv")
                    ctx.line(f"{ctx.names[kv]} = kv_idx[0]")
                word = self.word_expr()
            else:
                word = self.print_lane_loop()
            ctx.line("packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)")
            ctx.line(f"packed[0] = {word}")
            ctx.line("return packed.load()")
        ctx.line()
        ctx.line()
        ctx.line(f"{py_name}.__vec_size__ = {LANES}")

    def print_lane_loop(self) -> str:
        ctx = self.ctx
        func = self.func
        keep = func.yield_op.value
        if keep.type != IntegerType(1):
            raise CuteEmitError("a per-lane function must yield i1")
        dependent = lane_dependent_values(func)
        kv = func.index_args[3]
        if func.is_windowed and kv.uses.get_length():
            ctx.names[kv] = ctx.fresh("kv")
            ctx.line(f"{ctx.names[kv]} = kv_idx[0]")
        # FA4 wraps the kv index of lanes past seqlen_k in the last tile so that
        # aux reads stay in bounds: the per-lane kv index is kv_idx[lane].
        lane_kv = [
            use.operation.results[0]
            for use in kv.uses
            if isinstance(use.operation, arith.AddiOp)
            and isinstance(use.operation.operands[1 - use.index].owner, mask.LaneOp)
        ]
        # Lane-uniform values first, once.
        for op in func.block.ops:
            if not isinstance(op, mask.YieldOp) and not any(
                r in dependent for r in op.results
            ):
                for r in op.results:
                    if r.uses.get_length() and const_evaluate_operand(r) is None:
                        self.expr(r)
        word = ctx.fresh("word")
        ctx.line(f"{word} = cutlass.Uint32(0)")
        ctx.line(f"for lane in cutlass.range_constexpr({LANES}):")
        self.lane_expr = "lane"
        saved = dict(ctx.names)
        for v in lane_kv:
            ctx.names[v] = "kv_idx[lane]"
        with ctx.indented():
            k = self.expr(keep)
            ctx.line(
                f"{word} = ({word} | (cutlass.Uint32(1) << lane)) if {k} else {word}"
            )
        ctx.names = saved
        self.lane_expr = None
        return word


def _comment(text: str) -> str:
    return " ".join(text.split())


def _functions(module: ModuleOp) -> list[mask.FuncOp]:
    return [op for op in module.walk() if isinstance(op, mask.FuncOp)]


def print_cute_module(module: ModuleOp, output: IO[str]) -> None:
    """Print every mask.func of `module` as one CuTe DSL Python module."""
    funcs = _functions(module)
    if not funcs:
        raise CuteEmitError("the module has no mask.func to print")
    ctx = CutePrintContext(output)
    ctx.line('"""Keep-mask mask_mods for FlashAttention-4 (SM100), generated by maskopt."""')
    ctx.line()
    ctx.line("import cutlass")
    ctx.line("import cutlass.cute as cute")
    ctx.line("from flash_attn.cute import utils")
    for func in funcs:
        ctx.line()
        ctx.line()
        ctx.names = {}
        ctx.used = set()
        py_name = "mask_mod" if len(funcs) == 1 else ctx.fresh(func.sym_name.data)
        ctx.used.add(py_name)
        try:
            _FunctionPrinter(func, ctx).print_function(py_name)
        except CuteEmitError as e:
            raise CuteEmitError(f"mask.func @{func.sym_name.data}: {e}") from None


def keep_mask_exprs(func: mask.FuncOp) -> list[str]:
    """One self-contained CuTe expression per top-level run of a packed function."""
    if not func.is_packed:
        raise CuteEmitError(f"mask.func @{func.sym_name.data} is not packed")
    import io

    printer = _FunctionPrinter(func, CutePrintContext(io.StringIO()), inline=True)
    v = func.yield_op.value
    if const_evaluate_operand(v) is not None:
        return [printer.word_expr()]
    assert isinstance(v.owner, interval.KeepWordOp)
    s = v.owner.set
    parts = s.owner.sets if isinstance(s.owner, interval.UnionOp) else (s,)
    return [printer.expr(p) for p in parts]


@dataclass(frozen=True)
class CuteTarget(Target):
    """`-t cute`: print the module as a CuTe DSL Python module (see module doc)."""

    name = "cute"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print_cute_module(module, output)
