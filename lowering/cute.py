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
converted back. In per-lane code an i64 `+ - *` that may wrap is computed
in Uint64 (`cutlass.Int64(cutlass.Uint64(a) + cutlass.Uint64(b))`: the DSL
emits arith.addi without overflow flags and no-op same-width conversions,
a defined wrap mod 2^64, like torch's int64) and the only wrapping i64 `//`,
MIN // -1, as a Uint64 negation; a packed function never computes an i64 op
that may wrap (fold-intervals refuses). A divisor is replaced by 1 where the
division would be UB: 0 (per-lane code only; torch raises there) and -1 in
a remainder whose dividend may be MIN (`x % +-1` is 0). A `<<` by a
constant amount in range drops the bits shifted out, like torch's.

Range words are PTX `bmsk.clamp` (`bmsk_u32`, see `USE_BMSK`) where that is
cheaper than the two shifts. An upper end that keeps the lanes of an affine
`t - kv` (causal-style ends; see `affine_bound`) gets its width as
`max(t, kv + lo) - (kv + lo)` in Uint32 arithmetic where value ranges keep
every operand of the max in [0, 2^31) (`q + 1 - kv` would overflow Int32 at
q = 2^31 - 1; at q + 1 = 2^31 an H200 compared the Uint32 operands of a
nested max as signed, see test/gpu-results.md). An i64 clamp of a difference that fold-intervals widened
(`q - kv - win[b]`, `start - kv` of an int64 start) prints in i32 where the
operands fit (`a - clamp(w, a - 32, a)`), else as `clamp(start, kv, kv + 32)
- kv` in Int64 (see `narrow_clamped_difference`).

No i32 value is printed as a bare negation (`0 - x`, `x * -1`): ptxas
(CUDA 13.0 and the compiler bundled with nvidia-cutlass-dsl 4.8.1, sm_90a
and sm_100a) miscompiles `max(max(a, -x), b)` and `min(min(a, -x), b)`: it
fuses the two into one VIMNMX3 and drops the negation, computing
`max(a, x, b)` (found on an H200: `batchify_sliding_window_16_128`, see
`PTXAS_NEGATION` and `maskopt.tools.ptx_lint`). A negation is pushed into
the value it negates (`-(a - b)` is `b - a`, `-(a + c)` is `(-c) - a`,
`-(c * a)` is `(-c) * a`); where nothing is left to push it into, the
module calls `neg_i32` (`neg_i64`), a two-instruction inline-PTX negation
(`not`, `add 1`) that neither LLVM nor ptxas turns back into `0 - x` (an
i64 negation gets it too: LLVM narrows a truncated one to i32).
Self-contained expressions (`keep_mask_exprs`) cannot define a helper: they
write its inline-asm call in place (`maskopt.lowering.helpers`), so they
make the same choices as the module.

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
from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness, TensorType, i1, i32
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.utils.target import Target

from maskopt.dialects import interval, mask
from maskopt.lowering.helpers import HELPERS
from maskopt.passes.analysis import (
    INT32_MAX,
    WIDENABLE_OPS,
    WRAPPING_ARITH_OPS,
    Range,
    ValueRanges,
    lane_dependent_values,
    recursion_room,
)

LANES = 32
ONES = "cutlass.Uint32(0xFFFFFFFF)"

#: The deepest bracket nesting of a self-contained expression: CPython's
#: parser rejects more than 200 nested brackets ("too many nested
#: parentheses"), and inductor's template wraps the expression in a few more.
INLINE_MAX_NESTING = 180


class CuteEmitError(Exception):
    """The IR cannot be printed as CuTe code; the message says why."""


_CTYPE = {1: "cutlass.Boolean", 8: "cutlass.Int8", 16: "cutlass.Int16", 32: "cutlass.Int32", 64: "cutlass.Int64"}
_UCTYPE = {8: "cutlass.Uint8", 16: "cutlass.Uint16", 32: "cutlass.Uint32", 64: "cutlass.Uint64"}
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
    _next: dict[str, int] = field(default_factory=dict, repr=False)
    _next_for: set[str] | None = field(default=None, repr=False)
    uses_helpers: set[str] = field(default_factory=set)
    """Names of the inline-PTX helpers (`maskopt.lowering.helpers.HELPERS`) that the module calls."""

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
        # The first free name of base, base_1, base_2, ...: `used` only grows,
        # so the search resumes where it last stopped for this base.
        if self._next_for is not self.used:
            self._next, self._next_for = {}, self.used
        name, i = base, self._next.get(base, 0)
        if i:
            name = f"{base}_{i}"
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self._next[base] = i
        self.used.add(name)
        return name


_RESERVED = {
    "cutlass", "cute", "utils", "min", "max", "mask_mod", "b_idx", "h_idx",
    "q_idx", "kv_idx", "seqlen_info", "aux_tensors", "aux_scalars", "lane",
    "packed", "word", "llvm", "T", "dsl_user_op", *HELPERS,
}

#: Whether range words may use the `bmsk_u32` helper (PTX bmsk.clamp), which
#: needs no all-ones register and no AND of two shifts. It was switched off
#: for a while after an H200 run gave wrong words for corpus case
#: `batchify_sliding_window_16_128` with and without it; the cause turned out
#: to be the ptxas negation miscompile (`PTXAS_NEGATION`), not bmsk, which the
#: module now never triggers. The CPU emulator models bmsk.clamp and the
#: emulator/fuzz tests compare its words with eager torch.
USE_BMSK = True

#: Why a min/max never has a constant left operand: the DSL's arith
#: `_min`/`_max` take the signedness of the left operand, and a constant
#: there becomes an `arith.constant` without one, so `max(Uint32(77), u)`
#: compiles to `max.s32` (found on an H200 at u = 2^31; the CPU emulator
#: models it).
DSL_CONSTANT_MINMAX = "the DSL compares signed when min/max's left operand is a constant"

#: Why no i32 value is printed as `0 - x` (see the module docstring): ptxas
#: folds `max(max(a, 0 - x), b)` into `VIMNMX3 a, x, b`, dropping the
#: negation; the PTX lint `maskopt.tools.ptx_lint` checks compiled modules.
PTXAS_NEGATION = "ptxas drops a negation fused into a 3-input min/max (VIMNMX3)"

def _const_operand(op: Operation) -> tuple[SSAValue, int] | None:
    """`(x, k)` for a commutative two-operand op (`min`, `max`, `+`) of a
    non-constant `x` and a constant `k`, in either order."""
    for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        k = const_evaluate_operand(c)
        if k is not None and const_evaluate_operand(x) is None:
            return x, k
    return None


def clamp_parts(v: SSAValue) -> tuple[SSAValue, int, int] | None:
    """`(s, k1, k2)` where `v` is `clamp(s, k1, k2)`: `min(max(s, k1), k2)`
    or `max(min(s, k2), k1)`, constants on either side."""
    outer = v.owner
    if not isinstance(outer, (arith.MinSIOp, arith.MaxSIOp)):
        return None
    kind = arith.MaxSIOp if isinstance(outer, arith.MinSIOp) else arith.MinSIOp
    o = _const_operand(outer)
    if o is None or not isinstance(o[0].owner, kind):
        return None
    i = _const_operand(o[0].owner)
    if i is None:
        return None
    (s, ki), ko = i, o[1]
    return (s, ki, ko) if kind is arith.MaxSIOp else (s, ko, ki)


def without_guard_clamps(v: SSAValue, lo: int, hi: int | None = None) -> SSAValue:
    """`v` with the clamps to constants stripped that change nothing in
    [lo, hi]: `max(x, c)` with c <= lo, `min(x, c)` with c >= hi (e.g.
    fold-intervals' +-2^40 guard, where only [lo, hi] matters); with no
    `hi`, only the `max` clamps."""
    while isinstance(v.owner, (arith.MinSIOp, arith.MaxSIOp)):
        xk = _const_operand(v.owner)
        if xk is None or (
            xk[1] > lo if isinstance(v.owner, arith.MaxSIOp) else hi is None or xk[1] < hi
        ):
            break
        v = xk[0]
    return v


def printing_room(func: mask.FuncOp):
    """Recursion room for printing `func`: `_FunctionPrinter.expr` recurses
    through operands, a few frames per op."""
    return recursion_room(8 * len(func.body.block.ops))


@dataclass
class _FunctionPrinter:
    """Prints one mask.func; `expr` gives the CuTe expression of a value."""

    func: mask.FuncOp
    ctx: CutePrintContext
    inline: bool = False
    ranges: ValueRanges = field(init=False)
    lane_expr: str | None = None

    #: inline mode: the text of each value printed so far (an inline
    #: expression depends only on the value, not on what was printed before)
    _inline_texts: dict[SSAValue, str] = field(init=False, default_factory=dict)
    #: inline mode: how many values' texts are being built, one inside the other
    _depth: int = field(init=False, default=0)

    def __post_init__(self):
        self.ranges = ValueRanges(self.func)

    # Expressions ----------------------------------------------------------

    def expr(self, v: SSAValue) -> str:
        if v in self.ctx.names:
            return self.ctx.names[v]
        if self.inline and self.lane_expr is None:
            text = self._inline_texts.get(v)
            if text is None:
                # each level of the value DAG nests the text at least as deep
                # in practice: stop before building an unparsable expression
                # (and a quadratic amount of text)
                if self._depth >= INLINE_MAX_NESTING:
                    raise CuteEmitError(
                        f"a self-contained expression would nest more than "
                        f"{INLINE_MAX_NESTING} levels deep (Python's parser limit is 200)"
                    )
                self._depth += 1
                try:
                    text = self._inline_texts[v] = self._expr(v)
                finally:
                    self._depth -= 1
            return text
        return self._expr(v)

    def _expr(self, v: SSAValue) -> str:
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

    def ternary(self, cond: str, a: str, b: str, t: str, *, select: bool = False) -> str:
        """`a if cond else b` of type `t` (a cutlass type name), `cond` a
        runtime Boolean. A module prints a Python conditional expression,
        which the DSL turns into a branch; a self-contained expression calls
        `cutlass.select_` instead: the DSL's rewrite of a conditional
        expression nested inside another expression (the template's
        `packed[0] = packed[0] | (...)`) crashes the compiler or builds
        invalid IR (found compiling fuzzed drop-in kernels). Both branches
        are then evaluated, which the IR's `select` semantics allow: every
        branch is defined on the whole domain (divisors made safe, indices
        wrapped). `select`: a module selects too (a chain of conditional
        expressions nested 32 deep, a table set's thresholds, took the DSL
        more than 30 s to compile; a chain of selects is linear)."""
        if self.inline or select:
            return f"{t}(cutlass.select_({cond}, {a}, {b}))"
        return f"({a} if {cond} else {b})"

    def bind(self, hint: str, text: str) -> str:
        """`text` under a fresh name defined on its own line (text itself when
        it is a name already, or in a self-contained expression, which
        defines no names)."""
        if self.inline or text.isidentifier():
            return text
        name = self.ctx.fresh(hint)
        self.ctx.line(f"{name} = {text}")
        return name

    def const(self, c: int, t) -> str:
        if t == i1:
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
                a, b, t = e(op.lhs), e(op.rhs), ctype(op.result.type)
                return self.ternary(
                    f"(({a} % {b}) != {t}(0)) & (({a} < 0) != ({b} < 0))",
                    f"({a} // {b}) + {t}(1)",
                    f"({a} // {b})",
                    t,
                )
            case _ if type(op) in _BINARY:
                return self.binary(op)
            case arith.MinSIOp() | arith.MaxSIOp():
                return self.minmax(op)
            case arith.CmpiOp():
                pred = op.predicate.value.data
                a, b = e(op.lhs), e(op.rhs)
                if pred >= 6:
                    a, b = f"cutlass.Uint32({a})", f"cutlass.Uint32({b})"
                    if op.lhs.type != i32:
                        raise CuteEmitError("unsigned comparison of a non-i32 value")
                return f"({a} {_CMP[pred]} {b})"
            case arith.SelectOp():
                return self.ternary(e(op.cond), e(op.lhs), e(op.rhs), ctype(op.result.type))
            case arith.ExtSIOp():
                return f"{ctype(op.result.type)}({e(op.input)})"
            case arith.ExtUIOp():
                t = ctype(op.result.type)
                if op.input.type == i1:
                    return self.ternary(e(op.input), f"{t}(1)", f"{t}(0)", t)
                # The DSL extends by the source type's signedness (int_to_int:
                # Uint8 -> Int32 is extui, Int8 -> Int32 extsi): reinterpret
                # the value as unsigned first (a no-op at the same width).
                return f"{t}({_UCTYPE[op.input.type.width.data]}({e(op.input)}))"
            case arith.TruncIOp():
                if op.result.type == i1:
                    return f"(({e(op.input)} & {ctype(op.input.type)}(1)) != {ctype(op.input.type)}(0))"
                narrowed = self.narrow_clamped_difference(op)
                if narrowed is not None:
                    return narrowed
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
                pred = op.predicate.data
                bound = f"{-op.coeff_value} * {self.lane_expr} - {op.offset_value}"
                ends = (-op.offset_value, -op.coeff_value * (LANES - 1) - op.offset_value)
                width = op.u.type.width.data
                if width == 32 and not all(-(2**31) <= x < 2**31 for x in ends):
                    u, t, width = f"cutlass.Int64({u})", "cutlass.Int64", 64
                cmp = f"({u} {_LANE_CMP[pred]} {t}({bound}))"
                tmin, tmax = -(2 ** (width - 1)), 2 ** (width - 1) - 1
                if all(tmin <= x <= tmax for x in ends):
                    return cmp
                # The bound leaves the type on some lanes (an i64 u against
                # -2**63 + c): there the comparison is decided, per lane in
                # Python (`lane` is a compile-time int), and never wraps.
                above = pred in ("slt", "sle", "ne")  # u <pred> B, B > tmax
                below = pred in ("sgt", "sge", "ne")  # u <pred> B, B < tmin
                return (
                    f"(cutlass.Boolean({above}) if ({bound}) > {tmax} else "
                    f"(cutlass.Boolean({below}) if ({bound}) < {tmin} else {cmp}))"
                )
            case interval.RangeOp():
                return self.range_word(op)
            case interval.PeriodicOp():
                return self.periodic_word(op)
            case interval.TableOp():
                return self.shifted_table_word([op])
            case interval.FullOp():
                return ONES
            case interval.EmptyOp():
                return "cutlass.Uint32(0)"
            case interval.UnionOp():
                return "(" + " | ".join(e(s) for s in op.sets) + ")"
            case interval.IntersectOp():
                return self.intersect_word(op)
            case interval.ComplementOp():
                return f"(~{e(op.set)})"
            case interval.SelectOp():
                return self.ternary(e(op.cond), e(op.true_set), e(op.false_set), "cutlass.Uint32")
            case interval.KeepWordOp():
                return e(op.set)
            case _:
                raise CuteEmitError(f"cannot print {op.name} as CuTe code")

    def binary(self, op: Operation) -> str:
        lhs, rhs = op.operands
        t = op.results[0].type
        sym = _BINARY[type(op)]
        lc, rc = const_evaluate_operand(lhs), const_evaluate_operand(rhs)
        negated = self.negated_operand(op, lc, rc)
        if negated is not None:
            return self.negation(negated, wraps=self.ranges.may_wrap(op))
        folded = self.sum_with_negation(op)
        if folded is not None:
            return folded
        a, b = self.expr(lhs), self.expr(rhs)
        if t == i1:
            return f"({a} {sym} {b})"
        if lc is not None and rc is not None:
            raise CuteEmitError(f"unfolded constant {op.name}: run canonicalize first")
        if isinstance(op, (arith.ShLIOp, arith.ShRSIOp)):
            if rc is None or not 0 <= rc < t.width.data:
                raise CuteEmitError(f"{op.name} by a non-constant or out-of-range amount")
        if isinstance(op, (arith.FloorDivSIOp, arith.RemSIOp)):
            b = self.safe_divisor(op, b)
            unsigned = self.unsigned_division(op, sym, a, b)
            if unsigned is not None:
                return unsigned
        if isinstance(op, arith.ShLIOp):
            return f"({a} {sym} {b})"  # shl without nsw: the bits shifted out are dropped
        if self.ranges.may_wrap(op):
            if isinstance(op, WIDENABLE_OPS) and t == i32:
                return f"cutlass.Int32(cutlass.Int64({a}) {sym} cutlass.Int64({b}))"
            if not self.func.is_packed and isinstance(op, WRAPPING_ARITH_OPS):
                # Per-lane code evaluates the user's predicate as written: an
                # i64 +, -, * that may wrap is computed in Uint64 (modular;
                # arith.addi/subi/muli without overflow flags), which wraps
                # exactly like torch's int64.
                return f"cutlass.Int64(cutlass.Uint64({a}) {sym} cutlass.Uint64({b}))"
            if not self.func.is_packed and isinstance(op, arith.FloorDivSIOp):
                # Only MIN // -1 wraps (to MIN, like torch): print it as 0 - MIN.
                neg = f"cutlass.Int64(cutlass.Uint64(0) - cutlass.Uint64({a}))"
                return f"({neg} if {b} == {ctype(t)}(-1) else ({a} // {b}))"
            raise CuteEmitError(
                f"{op.name} may overflow {t} on the mask domain; it cannot be printed"
            )
        return f"({a} {sym} {b})"

    def negated_operand(self, op: Operation, lc: int | None, rc: int | None) -> SSAValue | None:
        """`x` when `op` is an i32 or i64 `0 - x`, `x * -1` or `-1 * x` (a zero
        is also a value whose range is [0, 0], such as an extended constant)."""
        t = op.results[0].type
        if not isinstance(t, IntegerType) or t.width.data not in (32, 64):
            return None
        if lc is not None and rc is not None:
            return None
        lhs, rhs = op.operands
        if isinstance(op, arith.SubiOp) and rc is None and (
            lc == 0 or (lc is None and self.ranges.of(lhs) == Range(0, 0))
        ):
            return rhs
        if isinstance(op, arith.MuliOp) and -1 in (lc, rc):
            return rhs if lc == -1 else lhs
        return None

    def sum_with_negation(self, op: Operation) -> str | None:
        """`y + (-x)` as `(y - x)` and `y - (-x)` as `(y + x)`, so that the
        negation is not printed at all, where value ranges show that neither
        the negation nor the sum may wrap (the values are then equal)."""
        if not isinstance(op, (arith.AddiOp, arith.SubiOp)) or self.ranges.may_wrap(op):
            return None

        def negated(v: SSAValue) -> SSAValue | None:
            o = v.owner
            if not isinstance(o, (arith.SubiOp, arith.MuliOp)) or self.ranges.may_wrap(o):
                return None
            return self.negated_operand(
                o, const_evaluate_operand(o.lhs), const_evaluate_operand(o.rhs)
            )

        lhs, rhs = op.operands
        if isinstance(op, arith.SubiOp):
            x = negated(rhs)
            return None if x is None else f"({self.expr(lhs)} + {self.expr(x)})"
        for y, n in ((lhs, rhs), (rhs, lhs)):
            x = negated(n)
            if x is not None:
                return f"({self.expr(y)} - {self.expr(x)})"
        return None

    def call_helper(self, name: str, *args: str) -> str:
        """A call of the inline-PTX helper `name` (`maskopt.lowering.helpers`):
        by name in a module, which then defines it; in place in a
        self-contained expression, which cannot."""
        helper = HELPERS[name]
        if self.inline:
            return helper.inline(*args)
        self.ctx.uses_helpers.add(name)
        return helper.call(*args)

    def negation(self, x: SSAValue, *, wraps: bool) -> str:
        """
        `-x` for an i32 or i64 `x`, printed without a negation that ptxas
        could fold into a 3-input min/max (see `PTXAS_NEGATION`): the negation
        is pushed into `x` where value ranges show that this changes no value
        (see `pushed_negation`); otherwise `neg_i32(x)` / `neg_i64(x)`.
        `wraps`: `-x` may leave its type (x may be MIN); it then wraps like
        torch's, which the helpers do.
        """
        o = x.owner
        if not wraps and isinstance(o, arith.TruncIOp):
            narrowed = self.narrow_clamped_difference(o, negate=True)
            if narrowed is not None:
                return narrowed
        pushed = None if wraps else self.pushed_negation(x)
        if pushed is not None:
            return pushed
        return self.call_helper("neg_i32" if x.type == i32 else "neg_i64", self.expr(x))

    def pushed_negation(self, x: SSAValue, depth: int = 0) -> str | None:
        """
        `-x` as an expression with no bare negation, or None (see `negation`):
        pushed through `-`, `+` and `*` by a constant, and through min/max
        (`-min(a, b)` is `max(-a, -b)`), truncation and sign extension, where
        value ranges show that no value on the way may wrap.
        """
        op = x.owner
        t = x.type
        if (
            depth > 6
            or const_evaluate_operand(x) is not None
            or not isinstance(op, Operation)
            or not isinstance(t, IntegerType)
            or t.width.data not in (32, 64)
            or self.ranges.of(x).lo <= -(2 ** (t.width.data - 1))
            or self.ranges.may_wrap(op)
        ):
            return None  # -x, or x itself, may wrap

        def neg(v: SSAValue) -> str | None:
            c = const_evaluate_operand(v)
            if c is not None:
                return None if c == -(2 ** (v.type.width.data - 1)) else self.const(-c, v.type)
            return self.pushed_negation(v, depth + 1)

        match op:
            case arith.SubiOp():
                if const_evaluate_operand(op.lhs) == 0:
                    return self.expr(op.rhs)  # -(0 - b) = b
                return f"({self.expr(op.rhs)} - {self.expr(op.lhs)})"
            case arith.MuliOp():
                for a, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    k = const_evaluate_operand(c)
                    if k == -1:
                        return self.expr(a)
                    if k is not None and (nk := neg(c)) is not None:
                        return f"({self.expr(a)} * {nk})"
            case arith.AddiOp():
                for a, b in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if const_evaluate_operand(b) is not None and (nb := neg(b)) is not None:
                        return f"({nb} - {self.expr(a)})"  # -(a + c) = (-c) - a
                for a, b in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    if (na := neg(a)) is not None:
                        return f"({na} - {self.expr(b)})"  # -(a + b) = (-a) - b
            case arith.MinSIOp() | arith.MaxSIOp():
                na, nb = neg(op.lhs), neg(op.rhs)
                if na is not None and nb is not None:
                    flipped = "max" if isinstance(op, arith.MinSIOp) else "min"
                    return f"{flipped}({na}, {nb})"
            case arith.TruncIOp() | arith.ExtSIOp():
                inner = neg(op.input)
                if inner is not None:
                    return f"{ctype(t)}({inner})"
        return None

    def narrow_i32(self, v: SSAValue, depth: int = 0) -> str | None:
        """An Int32 expression equal to the i64 value `v`, where `v` is an i32
        value sign-extended, or a non-wrapping sum or difference of such whose
        value range fits i32 (so the Int32 operation cannot overflow)."""
        r = self.ranges.of(v)
        if depth > 4 or r.lo < -INT32_MAX - 1 or r.hi > INT32_MAX:
            return None
        c = const_evaluate_operand(v)
        if c is not None:
            return f"cutlass.Int32({c})"
        o = v.owner
        if isinstance(o, arith.ExtSIOp) and o.input.type == i32:
            return self.expr(o.input)
        if isinstance(o, (arith.AddiOp, arith.SubiOp)) and not self.ranges.may_wrap(o):
            if isinstance(o, arith.SubiOp) and self.ranges.of(o.lhs) == Range(0, 0):
                # `0 - x` would be a bare negation (PTXAS_NEGATION): only a
                # negation pushed into an i32 `x` is an Int32 expression here.
                x = o.rhs.owner
                if isinstance(x, arith.ExtSIOp) and x.input.type == i32:
                    return self.pushed_negation(x.input)
                return None
            a, b = self.narrow_i32(o.lhs, depth + 1), self.narrow_i32(o.rhs, depth + 1)
            if a is not None and b is not None:
                return f"({a} {_BINARY[type(o)]} {b})"
        return None

    def narrow_clamped_difference(self, op: arith.TruncIOp, negate: bool = False) -> str | None:
        """
        `trunc(clamp(a - b, k1, k2))` of an i64 difference whose operands fit
        i32 (fold-intervals widens `a - b` to i64 where it may leave i32, e.g.
        `q - kv - win[b]`) as the i32 `a - clamp(b, a - k2, a - k1)`: equal on
        the whole domain (b >= a - k1 gives k1, b <= a - k2 gives k2, else
        a - b), and no Int32 operation can overflow: value ranges keep
        `a - k2` and `a - k1` in i32 and the result is in [k1, k2].
        `negate`: the expression of `-trunc(...)` instead.
        """
        parts = self.truncated_clamped_difference(op)
        if parts is None:
            return self.narrow_one_sided_difference(op, negate)
        d, k1, k2 = parts
        if negate:  # -clamp(a - b, k1, k2) is clamp(b - a, -k2, -k1)
            return self.clamped_difference(d.rhs, d.lhs, -k2, -k1)
        return self.clamped_difference(d.lhs, d.rhs, k1, k2)

    def narrow_one_sided_difference(self, op: arith.TruncIOp, negate: bool = False) -> str | None:
        """
        `trunc(max(a - b, k))` of an i64 difference whose operands fit i32
        (fold-intervals' lower end where value ranges bound it above, e.g.
        `q - kv - win[h]` of a uint8 window) as the i32 `a - min(b, a - k)`,
        and `trunc(min(a - b, k))` as `a - max(b, a - k)`: equal on the
        whole domain, and no Int32 operation can overflow: value ranges keep
        `a - k` in i32 and the truncation exact (the result is in i32).
        `negate`: the expression of `-trunc(...)` (`-max(a - b, k)` is
        `min(b - a, -k)`).
        """
        if op.input.type != IntegerType(64) or op.result.type != i32 or self.ranges.may_wrap(op):
            return None
        outer = op.input.owner
        if not isinstance(outer, (arith.MinSIOp, arith.MaxSIOp)):
            return None
        xk = _const_operand(outer)
        if xk is None:
            return None
        s, k = xk
        d = s.owner
        if not isinstance(d, arith.SubiOp) or self.ranges.may_wrap(d):
            return None
        av, bv, is_max = d.lhs, d.rhs, isinstance(outer, arith.MaxSIOp)
        if negate:
            av, bv, k, is_max = bv, av, -k, not is_max
        if abs(k) > INT32_MAX:
            return None
        ar = self.ranges.of(av)
        if ar.lo - k < -INT32_MAX - 1 or ar.hi - k > INT32_MAX:
            return None
        a, b = self.narrow_i32(av), self.narrow_i32(bv)
        if a is None or b is None:
            return None
        a = self.bind("a", a)
        bound = a if k == 0 else f"({a} - cutlass.Int32({k}))"
        return f"({a} - {'min' if is_max else 'max'}({b}, {bound}))"

    def truncated_clamped_difference(
        self, op: arith.TruncIOp
    ) -> tuple[arith.SubiOp, int, int] | None:
        """`(d, k1, k2)` where `op` is the i32 `trunc(clamp(d, k1, k2))` of an
        i64 difference `d` that cannot wrap, k1 <= k2 (fold-intervals' form of
        a bound whose difference may leave i32)."""
        if op.input.type != IntegerType(64) or op.result.type != i32:
            return None
        parts = clamp_parts(op.input)
        if parts is None:
            return None
        s, k1, k2 = parts
        d = s.owner
        if k1 > k2 or not isinstance(d, arith.SubiOp) or self.ranges.may_wrap(d):
            return None
        return d, k1, k2

    def minmax(self, op: arith.MinSIOp | arith.MaxSIOp) -> str:
        """`min(a, b)`/`max(a, b)`, a constant operand printed second: the
        DSL compares signed whenever the left operand is a constant
        (`DSL_CONSTANT_MINMAX`)."""
        a, b = op.lhs, op.rhs
        if const_evaluate_operand(a) is not None:
            a, b = b, a
        kind = "min" if isinstance(op, arith.MinSIOp) else "max"
        return f"{kind}({self.expr(a)}, {self.expr(b)})"

    def clamped_difference(self, av: SSAValue, bv: SSAValue, k1: int, k2: int) -> str | None:
        """`clamp(a - b, k1, k2)` of i64 values as an i32 expression, or None
        (see `narrow_clamped_difference`)."""
        if abs(k1) > INT32_MAX or abs(k2) > INT32_MAX:
            return None
        a, b = self.narrow_i32(av), self.narrow_i32(bv)
        if b is not None and a is None:
            return self.clamped_wide_difference(av, b, bv, k1, k2)
        ar = self.ranges.of(av)
        if ar.lo - k2 < -INT32_MAX - 1 or ar.hi - k1 > INT32_MAX:
            return None
        if a is None or b is None:
            return None
        a = self.bind("a", a)
        lo = a if k2 == 0 else f"({a} - cutlass.Int32({k2}))"
        hi = a if k1 == 0 else f"({a} - cutlass.Int32({k1}))"
        return f"({a} - min(max({b}, {lo}), {hi}))"

    def clamped_wide_difference(
        self, a: SSAValue, b: str, bv: SSAValue, k1: int, k2: int
    ) -> str:
        """
        `trunc(clamp(a - b, k1, k2))` where only `b` fits i32 (`a` is, say, an
        i64 aux value) as `Int32(clamp(a, b + k1, b + k2) - b)` in Int64: the
        same value, and nothing can overflow (b + k and the result are small).
        A clamp of `a` to constants [c1, c2] that contain [b + k1, b + k2]
        (fold-intervals' guard against a - b overflowing) changes nothing
        there, so it is looked through.
        """
        br = self.ranges.of(bv)
        a = without_guard_clamps(a, br.lo + k1, br.hi + k2)
        b64 = self.bind("wide", f"cutlass.Int64({b})")
        lo = b64 if k1 == 0 else f"({b64} + cutlass.Int64({k1}))"
        hi = b64 if k2 == 0 else f"({b64} + cutlass.Int64({k2}))"
        return f"cutlass.Int32(min(max({self.expr(a)}, {lo}), {hi}) - {b64})"

    def load(self, op: mask.LoadOp) -> str:
        assert isinstance(op.tensor.type, TensorType)
        shape = op.tensor.type.get_shape()
        indices = []
        for size, index in zip(shape, op.indices):
            c = const_evaluate_operand(index)
            if c is not None and -size <= c < 0:
                # a constant negative index wraps here: a select on a
                # constant condition is no runtime select (`cutlass.select_`
                # requires a dynamic condition)
                indices.append(self.const(c + size, index.type))
                continue
            i = self.expr(index)
            if self.ranges.of(index).lo < 0:
                zero = f"{ctype(index.type)}(0)"
                i = self.ternary(f"{i} < {zero}", f"{i} + {ctype(index.type)}({size})", i, ctype(index.type))
            indices.append(i)
        load = f"{self.expr(op.tensor)}[{', '.join(indices)}]"
        element = op.tensor.type.element_type
        if isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED:
            # An unsigned tensor's element (a Uint8) as the signless IR value
            # it loads, printed like every iN (Int8): its bits, same width.
            return f"{ctype(op.result.type)}({load})"
        return load

    def may_divide_min_by_minus_one(self, op: Operation) -> bool:
        """Whether `lhs / rhs` may be MIN / -1 (UB for LLVM's sdiv/srem)."""
        lhs, rhs = op.operands
        d, x = self.ranges.of(rhs), self.ranges.of(lhs)
        return d.lo <= -1 <= d.hi and x.lo == Range.of_type(lhs.type).lo

    def unsigned_division(self, op: Operation, sym: str, a: str, b: str) -> str | None:
        """
        An i32 `a // b` or `a % b` whose dividend is >= 0 and divisor > 0 in
        Uint32 (`divui`/`remui`: the same quotient and remainder, without
        the sign corrections of the signed forms; a division by a constant
        is a multiply-high and a shift), converted back exactly (< 2^31).
        """
        lhs, rhs = op.operands[0], op.operands[1]
        if (
            op.results[0].type != i32
            or self.ranges.of(lhs).lo < 0
            or self.ranges.of(rhs).lo <= 0
        ):
            return None
        c = const_evaluate_operand(rhs)
        bu = f"cutlass.Uint32({b if c is None else c})"
        return f"cutlass.Int32(cutlass.Uint32({a}) {sym} {bu})"

    def safe_divisor(self, op: Operation, d: str) -> str:
        """
        The divisor `d` of `op`, replaced by 1 where the division is UB:
        0 (torch raises there, so any word is right: in packed code too, a
        lane-uniform `q // chunk[b]` of a block range) and, for a remainder, -1 when
        the dividend may be MIN (`x mod +-1` is 0).
        """
        t = ctype(op.operands[1].type)
        bad = []
        r = self.ranges.of(op.operands[1])
        if r.lo <= 0 <= r.hi:
            bad.append(f"({d} == {t}(0))")
        if not isinstance(op, arith.FloorDivSIOp) and self.may_divide_min_by_minus_one(op):
            bad.append(f"({d} == {t}(-1))")
        if not bad:
            return d
        text = self.ternary(" | ".join(bad), f"{t}(1)", d, t)
        if self.inline:
            return text
        name = self.ctx.fresh("divisor")
        self.ctx.line(f"{name} = {text}")
        return name

    def floormod(self, op: mask.FloorModOp) -> str:
        a, d = self.expr(op.lhs), self.expr(op.rhs)
        t = ctype(op.result.type)
        dr = self.ranges.of(op.rhs)
        safe = self.safe_divisor(op, d)
        if safe != d:  # divides by 1 where the division is UB
            d, dr = safe, Range(dr.lo, max(dr.hi, 1))
        if self.ranges.of(op.lhs).lo >= 0 and dr.lo > 0:
            return self.unsigned_division(op, "%", a, d) or f"({a} % {d})"
        # `%` truncates on runtime values: move a remainder of the wrong sign.
        r = f"({a} % {d})"
        if not self.inline:
            name = self.ctx.fresh("rem")
            self.ctx.line(f"{name} = {r}")
            r = name
        if dr.lo > 0:
            cond = f"{r} < {t}(0)"
        elif dr.hi < 0:
            cond = f"{r} > {t}(0)"
        else:
            cond = f"({r} != {t}(0)) & (({r} < {t}(0)) != ({d} < {t}(0)))"
        if self.inline:
            # `select_` evaluates both arms: `r + d` would overflow where the
            # remainder keeps its sign (r >= 0, d near 2^31). Selecting the
            # correction instead adds d only where r + d lies between them.
            return f"({r} + {self.ternary(cond, d, f'{t}(0)', t)})"
        return self.ternary(cond, f"{r} + {d}", r, t)

    def range_word(self, op: interval.RangeOp) -> str:
        """
        The keep word of [lo, hi), each side only where the bound's value
        range does not already clip it, and clamps only where value ranges do
        not prove them redundant:

        - a prefix [0, hi) or a range is one `bmsk_u32(lo, hi - lo)` (PTX
          `bmsk.clamp`: operands unsigned, widths past bit 31 clip, a
          position >= 32 gives 0), so only a bound that may be negative is
          clamped, and `hi - lo` is `max(hi, lo) - lo`, which cannot overflow;
        - a suffix [lo, 32) is `shl_u32(ONES, lo)` (PTX clamps amounts >= 32);
        - an upper bound `32 - a` with `a >= 0` (how fold-intervals writes an
          upper bound whose shift amount is cheaper than the bound itself) is
          `shr_u32(ONES, a)`, ANDed with the lower side's `shl_u32`.

        Self-contained expressions (`keep_mask_exprs`, inline) use only the
        two FA4 shifts: `shr_u32(ONES, 32 - hi) & shl_u32(ONES, lo)`.
        """
        if op.lo.type != IntegerType(32):
            raise CuteEmitError("interval bounds must be i32")
        lo_r, hi_r = self.ranges.of(op.lo), self.ranges.of(op.hi)
        if hi_r.hi <= 0 or lo_r.lo >= LANES or lo_r.lo >= hi_r.hi:
            return "cutlass.Uint32(0)"
        has_hi, has_lo = hi_r.lo < LANES, lo_r.hi > 0
        if not has_hi and not has_lo:
            return ONES
        if not has_hi:
            return f"utils.shl_u32({ONES}, cutlass.Uint32({self.nonneg(op.lo)}))"
        if not has_lo and (amount := self.shift_amount(op.hi)) is not None:
            # A prefix [0, 32 - A): `shr_u32(ONES, min(A, 32))`. The clamp at
            # 32 changes no value (PTX clamps the amount) but FA4's kernel
            # compiles it smallest: causal +37 instructions, against +48
            # without it and +65 as a bmsk (`python -m
            # maskopt.tools.calibrate_fa4`, test/sass-results.md).
            if self.ranges.of(op.hi.owner.rhs).hi > LANES:
                amount = f"min({amount}, cutlass.Int32({LANES}))"
            return f"utils.shr_u32({ONES}, cutlass.Uint32({amount}))"
        if USE_BMSK:
            word = self.affine_bmsk_word(op, has_lo)
            if word is None and not has_lo:
                word = self.guarded_prefix_word(op.hi)
            if word is not None:
                return word
        amount = self.shift_amount(op.hi)
        if amount is not None:
            # hi = 32 - A with A >= 0: shift by A, no clamp (PTX clamps A >= 32).
            word = f"utils.shr_u32({ONES}, cutlass.Uint32({amount}))"
            if has_lo:
                word = f"({word} & utils.shl_u32({ONES}, cutlass.Uint32({self.nonneg(op.lo)})))"
            return word
        if not USE_BMSK:
            return self.shift_range_word(op, has_lo)
        if not has_lo:
            return self.call_helper("bmsk_u32", "cutlass.Uint32(0)", f"cutlass.Uint32({self.nonneg(op.hi)})")
        lo = self.bind("lo", self.nonneg(op.lo))
        lo_hi = max(lo_r.hi, 0)
        hi = self.expr(op.hi)
        if hi_r.lo < lo_hi:
            hi = f"max({hi}, {lo})"
        return self.call_helper("bmsk_u32", f"cutlass.Uint32({lo})", f"cutlass.Uint32({hi} - {lo})")

    def affine_bound(self, hi: SSAValue, depth: int = 0) -> tuple[tuple, SSAValue, SSAValue | None] | None:
        """
        `(top, y, d)` where the upper bound `hi` keeps the same lanes as
        `top - y` (`hi` equals it, or its min with 32): `top` is a leaf
        `("x", x, k)` meaning `x + k` with `x >= 0` (None: 0) and `k >= 0`, or
        `("max" | "min", a, b)` of two tops; `y >= 0`; `d` is the non-wrapping
        i32 value `x - y` when `hi` is one such difference.
        Recognized: `x - y`, `c - y`, `32 - max(c - (x - y), 0)` and
        `32 - max((y - x) + c, 0)`, `32 - (c - min(x - y, c))` (fold-intervals'
        causal upper bounds), and
        `max`/`min` of recognized bounds with the same `y` (min and max
        commute with `- y` and with the clip at 32); every op non-wrapping,
        so the identities hold on all of the domain.
        """
        ranges = self.ranges

        def nonneg_var(v: SSAValue) -> bool:
            return const_evaluate_operand(v) is None and ranges.of(v).lo >= 0

        def diff(v: SSAValue) -> tuple[SSAValue, SSAValue] | None:
            o = v.owner
            if (
                isinstance(o, arith.SubiOp)
                and v.type == i32
                and not ranges.may_wrap(o)
                and nonneg_var(o.lhs)
                and nonneg_var(o.rhs)
            ):
                return o.lhs, o.rhs
            return None

        if depth > 4 or hi.type != i32:
            return None
        d = diff(hi)
        if d is not None:
            return ("x", d[0], 0), d[1], hi
        o = hi.owner
        if isinstance(o, (arith.MaxSIOp, arith.MinSIOp)):
            pa, pb = self.affine_bound(o.lhs, depth + 1), self.affine_bound(o.rhs, depth + 1)
            if pa is not None and pb is not None and pa[1] == pb[1]:
                kind = "max" if isinstance(o, arith.MaxSIOp) else "min"
                return (kind, pa[0], pb[0]), pa[1], None
            return None
        if not isinstance(o, arith.SubiOp) or ranges.may_wrap(o):
            return None
        c = const_evaluate_operand(o.lhs)
        if c is None or c < 0:
            return None
        m = o.rhs.owner
        if isinstance(m, arith.AddiOp) and not ranges.may_wrap(m):
            nc = _const_operand(m)
            if nc is not None and c - nc[1] >= 0 and nonneg_var(nc[0]):
                return ("x", None, c - nc[1]), nc[0], None  # c - (y + c2)
            return None
        if c != LANES and nonneg_var(o.rhs):
            return ("x", None, c), o.rhs, None  # c - y (32 - y: one shr is cheaper)
        if c == LANES and isinstance(m, arith.SubiOp) and not ranges.may_wrap(m):
            # 32 - (c2 - min(x - y, c2)) is 32 - max(c2 - (x - y), 0)
            c2 = const_evaluate_operand(m.lhs)
            mn = m.rhs.owner
            xc = _const_operand(mn) if isinstance(mn, arith.MinSIOp) else None
            if c2 is not None and xc is not None and xc[1] == c2 and LANES - c2 >= 0:
                d = diff(xc[0])
                if d is not None:
                    return ("x", d[0], LANES - c2), d[1], xc[0]
            return None
        if c != LANES or not isinstance(m, arith.MaxSIOp):
            return None
        if const_evaluate_operand(m.rhs) == 0:
            b = m.lhs
        elif const_evaluate_operand(m.lhs) == 0:
            b = m.rhs
        else:
            return None
        bo = b.owner
        if not isinstance(bo, (arith.SubiOp, arith.AddiOp)) or ranges.may_wrap(bo):
            return None
        if isinstance(bo, arith.SubiOp):
            c = const_evaluate_operand(bo.lhs)
            d = None if c is None else diff(bo.rhs)
            if d is not None and LANES - c >= 0:
                return ("x", d[0], LANES - c), d[1], bo.rhs  # 32 - max(c - (x - y), 0)
            return None
        nc = _const_operand(bo)
        d = None if nc is None else diff(nc[0])
        if d is not None and LANES - nc[1] >= 0:
            return ("x", d[1], LANES - nc[1]), d[0], None  # 32 - max((y - x) + c, 0)
        return None

    def affine_bmsk_word(self, op: interval.RangeOp, has_lo: bool) -> str | None:
        """
        The word of [lo, hi) as one `bmsk_u32` when `hi` keeps the lanes of
        `t - y`, `t` a max/min of terms `x + k` (see `affine_bound`): bits
        [L, t - y) with L = max(lo, 0) are `bmsk_u32(L, max(t, y + L) - (y + L))`
        in Uint32 arithmetic (exact: every operand is >= 0 and value ranges
        keep `t` and `y + L` below 2^31; the width cannot go below 0; bmsk.clamp
        clips it at bit 31 and gives 0 for L >= 32). A prefix `x - y + k`
        that cannot leave i32 is `bmsk_u32(0, max(x - y + k, 0))`. No
        negation, no min/max of a negation, no all-ones register.
        """
        a = self.affine_bound(op.hi)
        if a is None:
            return None
        top, y, d = a
        yr = self.ranges.of(y)

        def top_hi(t: tuple) -> int:
            if t[0] == "x":
                return (0 if t[1] is None else self.ranges.of(t[1]).hi) + t[2]
            return max(top_hi(t[1]), top_hi(t[2]))

        def is_const(t: tuple) -> bool:
            return t[0] == "x" and t[1] is None

        def top_expr(t: tuple) -> str:
            if t[0] != "x":
                a, b = (t[2], t[1]) if is_const(t[1]) else (t[1], t[2])  # DSL_CONSTANT_MINMAX
                return f"{t[0]}({top_expr(a)}, {top_expr(b)})"
            _, x, k = t
            if x is None:
                return f"cutlass.Uint32({k})"
            u = f"cutlass.Uint32({self.expr(x)})"
            return f"({u} + cutlass.Uint32({k}))" if k else u

        # Every `x + k` is exact in Uint32. (Operands reach 2^31: q + 1 at
        # q = 2^31 - 1. A max is unsigned only with a runtime left operand,
        # `DSL_CONSTANT_MINMAX`, which top_expr and the max below respect.)
        if top_hi(top) > 2**32 - 1:
            return None
        lo_r = self.ranges.of(op.lo)
        if has_lo and yr.hi + max(lo_r.hi, 0) > 2**32 - 1:
            return None
        if not has_lo and top[0] == "x":
            # A prefix whose x - y + k cannot leave i32: a signed max with 0.
            _, x, k = top
            xr = Range(0, 0) if x is None else self.ranges.of(x)
            if xr.hi + k - yr.lo <= INT32_MAX and xr.lo - yr.hi >= -INT32_MAX - 1:
                if x is None:
                    s = f"(cutlass.Int32({k}) - {self.expr(y)})"
                else:
                    s = self.expr(d) if d is not None else f"({self.expr(x)} - {self.expr(y)})"
                    if k:
                        s = f"({s} + cutlass.Int32({k}))"
                return self.call_helper("bmsk_u32", "cutlass.Uint32(0)", f"cutlass.Uint32(max({s}, cutlass.Int32(0)))")
        top_text = top_expr(top)
        pos = "cutlass.Uint32(0)"
        base = f"cutlass.Uint32({self.expr(y)})"
        if has_lo:
            start = self.lower_start(op.lo, y)
            wide = None if start is not None else self.wide_lower_start(op.lo, y)
            if start is None and wide is None:
                wide = self.guarded_lower_start(op.lo, y)
            if start is not None:
                # base = max(X, y) first, the position base - y from it
                base_i = self.bind("base", start)
                pos = f"cutlass.Uint32({self.bind('lo', f'({base_i} - {self.expr(y)})')})"
                base = f"cutlass.Uint32({base_i})"
            elif wide is not None:
                base = self.bind("base", wide)  # a Uint32
                pos = self.bind("lo", f"({base} - cutlass.Uint32({self.expr(y)}))")
            else:
                pos = f"cutlass.Uint32({self.bind('lo', self.nonneg(op.lo))})"
                base = self.bind("base", f"({base} + {pos})")
        if is_const(top):
            return self.call_helper("bmsk_u32", pos, f"(max({base}, {top_text}) - {base})")
        return self.call_helper("bmsk_u32", pos, f"(max({top_text}, {base}) - {base})")

    def guarded_prefix_word(self, hi: SSAValue) -> str | None:
        """
        The prefix word [0, hi) for fold-intervals' guarded upper bound
        `min(max(X, c0) - y, c1) + k` (X and y >= 0 runtime i32 values, each
        clamp optional, no op wrapping), as one `bmsk_u32(0, W)`.

        The clamps only guard the i32 arithmetic: where `min` applies the
        bound is c1 + k >= 32 (every lane), where a `max` applies it is at
        most c0 - y + k <= 0 (no lane; `without_guard_clamps` with
        c0 <= min(y) - k). So the lanes are those of X - y + k and the width
        is W = max(X - y + k, 0) = max(X, y - k) - (y - k); bmsk.clamp clips
        it at 32. W can pass 2^31 - 1 (X = 2^31 - 1, y = 0, k = 1) but not
        2^32 - 1, so where value ranges allow that it is computed exactly in
        Int64 and converted to Uint32 (LLVM narrows the Int64 ops to one
        32-bit three-operand add); no operation wraps. None for other forms,
        or where y - k or W may leave their types.
        """
        ranges = self.ranges
        k, v = 0, hi
        o = v.owner
        if isinstance(o, arith.AddiOp) and not ranges.may_wrap(o) and (xk := _const_operand(o)):
            v, k = xk
        o = v.owner
        if isinstance(o, arith.MinSIOp):
            xc = _const_operand(o)
            if xc is None or xc[1] + k < LANES:
                return None
            v = xc[0]
        o = v.owner
        if not isinstance(o, arith.SubiOp) or ranges.may_wrap(o) or v.type != i32:
            return None
        y = o.rhs
        yr = ranges.of(y)
        if const_evaluate_operand(y) is not None or yr.lo < 0 or yr.hi - k > INT32_MAX or yr.lo - k < -INT32_MAX - 1:
            return None
        x = without_guard_clamps(o.lhs, yr.lo - k)
        xr = ranges.of(x)
        if const_evaluate_operand(x) is not None or xr.hi - yr.lo + k > 2**32 - 1:
            return None  # c - y: shr_u32 (`shift_amount`) or `affine_bmsk_word`
        ys = self.expr(y)
        if xr.hi - yr.lo + k > INT32_MAX and 0 <= 2**31 - k - xr.hi and yr.hi - yr.lo < 2**31:
            return self.unsigned_offset_prefix(o.lhs, x, y, k)
        xs = self.expr(x)
        t = "cutlass.Int32"
        if xr.hi - yr.lo + k > INT32_MAX:
            # W passes 2^31 - 1 (X near 2^31 - 1 against y - k < 0, where the
            # unsigned shift-amount form does not apply): exact in Int64.
            t, xs, ys = "cutlass.Int64", f"cutlass.Int64({xs})", f"cutlass.Int64({ys})"
        yk = ys if k == 0 else self.bind("yk", f"({ys} - {t}({k}))")
        m = f"max({xs}, {yk})"
        width = f"cutlass.Uint32(({m} - {yk}))"
        return self.call_helper("bmsk_u32", "cutlass.Uint32(0)", width)

    def unsigned_offset_prefix(self, guarded: SSAValue, x: SSAValue, y: SSAValue, k: int) -> str:
        """
        The prefix [0, X - y + k) whose width may pass 2^31 - 1, as a right
        shift by its amount A = y + 32 - k - X, clipped to [0, 32]. With X
        clamped below at min(y) - k (no lane below it; `guarded` keeps that
        clamp where fold-intervals wrote it), the lane-uniform
        h = 2^31 - k - max(X, min(y) - k) lies in [0, 2^31 - min(y)], so
        u = y + h = A + K (K = 2^31 - 32) is exact in Uint32, and
        A clipped at 0 is max(u, K) - K (the shift clips amounts >= 32).
        FA4's kernel counts +43 instructions for bottom-right causal in this
        form, against +69 for the Int64 bmsk width it replaces (`python -m
        maskopt.tools.calibrate_fa4`, test/sass-results.md).
        """
        yr = self.ranges.of(y)
        c0 = yr.lo - k
        xc = self.expr(guarded) if self.ranges.of(guarded).lo >= c0 else f"max({self.expr(x)}, cutlass.Int32({c0}))"
        h = self.bind("h", f"cutlass.Uint32((cutlass.Int64({2**31 - k}) - cutlass.Int64({xc})))")
        big = f"cutlass.Uint32({2**31 - LANES})"
        amount = f"(max((cutlass.Uint32({self.expr(y)}) + {h}), {big}) - {big})"
        return f"utils.shr_u32({ONES}, cutlass.Uint32({amount}))"

    def lower_start(self, lo: SSAValue, y: SSAValue) -> str | None:
        """
        `y + max(lo, 0)` as one Int32 `max(X - c, y)` when the lower bound
        `lo` is `X - y` or `max(X - y, c) - c` (fold-intervals' forms; y >= 0
        is the upper bound's base): the run's first kv position, from which
        the position is one subtraction, where `y + clamp(lo)` takes a
        subtraction, a clamp and an addition. A clamp `max(S, c2)` inside X
        that y already dominates (c2 - c <= min y) is looked through. None
        when `lo` has neither form or X - c may leave Int32.
        """
        ranges = self.ranges
        o = lo.owner
        c = 0
        if isinstance(o, arith.AddiOp) and isinstance(o.lhs.owner, arith.MaxSIOp):
            m, k = o.lhs.owner, const_evaluate_operand(o.rhs)
            if k is None or const_evaluate_operand(m.rhs) != -k or ranges.may_wrap(o):
                return None
            c, o = -k, m.lhs.owner  # max(X - y, c) - c
        if not isinstance(o, arith.SubiOp) or o.rhs is not y or ranges.may_wrap(o):
            # 0 - (y - X) is X - y too
            if not (
                isinstance(o, arith.SubiOp)
                and const_evaluate_operand(o.lhs) == 0
                and isinstance(o.rhs.owner, arith.SubiOp)
                and o.rhs.owner.lhs is y
                and not ranges.may_wrap(o.rhs.owner)
            ):
                return None
            x = o.rhs.owner.rhs
        else:
            x = o.lhs
        if x.type != i32 or y.type != i32 or ranges.of(y).lo < 0:
            return None
        x = without_guard_clamps(x, ranges.of(y).lo + c)
        if ranges.of(x).lo - c < -INT32_MAX - 1:
            return None
        xs = self.expr(x)
        if c:
            xs = f"({xs} - cutlass.Int32({c}))"
        return f"max({xs}, {self.expr(y)})"

    def guarded_lower_start(self, lo: SSAValue, y: SSAValue) -> str | None:
        """
        `lower_start` for fold-intervals' lower bound `min(X - y, c) + k`
        (k >= 0, c + k >= 32: the min only keeps X - y + k from overflowing
        where the bound is past bit 31 anyway; X, y >= 0): the Uint32
        `max(Uint32(X) + k, Uint32(y))`, exact because X + k < 2^32. Where
        the min applies, base - y is at least 32 as the clipped bound is, so
        bmsk gives 0 there too.
        """
        ranges = self.ranges
        o = lo.owner
        mk = _const_operand(o) if isinstance(o, arith.AddiOp) and not ranges.may_wrap(o) else None
        if mk is None:
            return None
        m, k = mk
        mn = m.owner
        xc = _const_operand(mn) if isinstance(mn, arith.MinSIOp) else None
        if k < 0 or xc is None or xc[1] + k < LANES:
            return None
        d = xc[0].owner
        if not isinstance(d, arith.SubiOp) or d.rhs is not y or ranges.may_wrap(d):
            return None
        x = d.lhs
        xr, yr = ranges.of(x), ranges.of(y)
        if x.type != i32 or y.type != i32 or xr.lo < 0 or yr.lo < 0 or xr.hi + k > 2**32 - 1:
            return None
        if const_evaluate_operand(x) is not None:
            return None
        xs = f"cutlass.Uint32({self.expr(x)})"
        if k:
            xs = f"({xs} + cutlass.Uint32({k}))"
        return f"max({xs}, cutlass.Uint32({self.expr(y)}))"

    def wide_lower_start(self, lo: SSAValue, y: SSAValue) -> str | None:
        """
        `lower_start` for fold-intervals' i64 lower bound `trunc(clamp(S - y,
        k1, k2))` (or `0 - trunc(clamp(y - S, -k2, -k1))`) with k1 <= 0 and
        k2 >= 32, S an i64 value: the Uint32 `max(sat_u32(S), Uint32(y))`.
        `sat_u32` clamps S to [0, 2^32 - 1], which
        changes no lane: kv + L is in [0, 2^31). The word's position
        base - y then is at least 32 wherever S - y is, so bmsk gives 0
        there, like the clamp at k2. S's clamps to constants c <= 0 or
        c >= 2^32 - 1 (the +-2^40 guard) are looked through.
        """
        if y.type != i32 or self.ranges.of(y).lo < 0:
            return None
        o = lo.owner
        negate = False
        if isinstance(o, arith.SubiOp) and const_evaluate_operand(o.lhs) == 0:
            negate, o = True, o.rhs.owner
        parts = self.truncated_clamped_difference(o) if isinstance(o, arith.TruncIOp) else None
        if parts is None:
            return None
        d, k1, k2 = parts
        s_val, y64 = (d.rhs, d.lhs) if negate else (d.lhs, d.rhs)
        if negate:
            k1, k2 = -k2, -k1
        e = y64.owner
        if not (isinstance(e, arith.ExtSIOp) and e.input is y) or k1 > 0 or k2 < LANES:
            return None
        s_val = without_guard_clamps(s_val, 0, 2**32 - 1)
        return f"max({self.call_helper('sat_u32', self.expr(s_val))}, cutlass.Uint32({self.expr(y)}))"

    def shift_amount(self, hi: SSAValue) -> str | None:
        """For an upper bound `32 - a` with `a >= 0` (fold-intervals' form), `a`."""
        op = hi.owner
        if (
            isinstance(op, arith.SubiOp)
            and const_evaluate_operand(op.lhs) == LANES
            and self.ranges.of(op.rhs).lo >= 0
        ):
            return self.expr(op.rhs)
        return None

    def nonneg(self, v: SSAValue) -> str:
        """`v` as an Int32 expression, clamped at 0 unless its range is >= 0."""
        c = const_evaluate_operand(v)
        if c is not None:
            return f"cutlass.Int32({max(c, 0)})"
        x = self.expr(v)
        return f"max({x}, cutlass.Int32(0))" if self.ranges.of(v).lo < 0 else x

    def shift_range_word(self, op: interval.RangeOp, has_lo: bool) -> str:
        hi_r = self.ranges.of(op.hi)
        hc = const_evaluate_operand(op.hi)
        if hc is not None:
            amount = f"cutlass.Uint32({LANES - hc})"
        else:
            x = self.expr(op.hi)
            if LANES - hi_r.lo > INT32_MAX:
                x = f"max({x}, cutlass.Int32(0))"
            if hi_r.hi > LANES:
                x = f"min({x}, cutlass.Int32({LANES}))"
            amount = f"cutlass.Uint32(cutlass.Int32({LANES}) - {x})"
        word = f"utils.shr_u32({ONES}, {amount})"
        if has_lo:
            word = f"({word} & utils.shl_u32({ONES}, cutlass.Uint32({self.nonneg(op.lo)})))"
        return word

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
            ph = self.ternary(f"{rem} < {t}(0)", f"{rem} + {t}({p})", rem, t)
        if op.phase.type != IntegerType(32):
            ph = f"cutlass.Int32({ph})"
        if not self.inline and not ph.isidentifier():
            name = self.ctx.fresh("ph")
            self.ctx.line(f"{name} = {ph}")
            ph = name
        low = f"utils.shr_u32(cutlass.Uint32({lo:#x}), cutlass.Uint32({ph}))"
        high = f"utils.shl_u32(cutlass.Uint32({hi:#x}), cutlass.Uint32(cutlass.Int32({LANES}) - {ph}))"
        return f"({low} | {high})"

    def intersect_word(self, op: interval.IntersectOp) -> str:
        """The AND of the operands' words; table sets with the same shift are
        ANDed before they are shifted (their clips are the same lanes)."""
        parts: list[str] = []
        groups: dict[SSAValue, list[interval.TableOp]] = {}
        for s in op.sets:
            t = s.owner
            if isinstance(t, interval.TableOp) and s not in self.ctx.names:
                groups.setdefault(t.shift, []).append(t)
        done: set[SSAValue] = set()
        for s in op.sets:
            t = s.owner
            if isinstance(t, interval.TableOp) and t.shift in groups:
                if t.shift not in done:
                    done.add(t.shift)
                    parts.append(self.shifted_table_word(groups[t.shift]))
                continue
            parts.append(self.expr(s))
        return "(" + " & ".join(parts) + ")"

    def table_bits(self, op: interval.TableOp) -> str:
        """
        The unshifted word of a table set: bit r iff `table[r] <= t` (`> t`).
        The sets of `<= t` only change at the table's distinct values
        v1 < ... < vn: a chain of selects on `t >= vi`, dropping the values
        that the range of t decides.
        """
        table = op.table_values
        full = (1 << LANES) - 1
        r = self.ranges.of(op.t)
        t = self.expr(op.t)
        ct = ctype(op.t.type)
        word = 0  # the set for t below every table value
        chain: list[tuple[int, int]] = []  # (v, set for t >= v), ascending
        for v in sorted(set(table)):
            le = sum(1 << i for i, x in enumerate(table) if x <= v)
            if v <= r.lo:
                word, chain = le, []  # t >= v on the whole domain
            elif v <= r.hi:
                chain.append((v, le))

        def word_of(le: int) -> str:
            return f"cutlass.Uint32({(full & ~le) if op.is_gt else le:#x})"

        expr = word_of(word)
        for v, le in chain:
            expr = self.ternary(f"{t} >= {ct}({v})", word_of(le), expr, "cutlass.Uint32", select=True)
        return expr

    def shifted_table_word(self, ops: list[interval.TableOp]) -> str:
        """
        The keep word of the intersection of table sets of one shift s: the
        AND of their unshifted words M, lane L being entry L + s, so M >> s
        for s >= 0 and M << -s for s < 0 (`utils.shr_u32`/`shl_u32`: amounts
        >= 32 give 0, as no entry lies in [0, 32) then).
        """
        bits = [self.table_bits(op) for op in ops]
        word = bits[0] if len(bits) == 1 else "(" + " & ".join(bits) + ")"
        if not self.inline and len(ops) > 1:
            name = self.ctx.fresh("tbl")
            self.ctx.line(f"{name} = {word}")
            word = name
        shift = ops[0].shift
        c = const_evaluate_operand(shift)
        sr = self.ranges.of(shift)
        if c == 0:
            return word
        if not sr.within(Range(-(2**31), 2**31 - 1)):
            raise CuteEmitError("interval.table shift must fit i32")
        if shift.type != i32:
            raise CuteEmitError("interval.table shift must be i32")
        if sr.lo >= 0:
            return f"utils.shr_u32({word}, cutlass.Uint32({self.expr(shift)}))"
        if sr.hi <= 0:
            neg = self.negation(shift, wraps=sr.lo <= -(2**31))
            return f"utils.shl_u32({word}, cutlass.Uint32({neg}))"
        if not self.inline and not word.isidentifier() and not re.fullmatch(r"cutlass\.Uint32\(0x[0-9a-f]+\)", word):
            name = self.ctx.fresh("tbl")
            self.ctx.line(f"{name} = {word}")
            word = name
        x = self.expr(shift)
        neg = self.negation(shift, wraps=sr.lo <= -(2**31))
        return self.ternary(
            f"{x} >= cutlass.Int32(0)",
            f"utils.shr_u32({word}, cutlass.Uint32({x}))",
            f"utils.shl_u32({word}, cutlass.Uint32({neg}))",
            "cutlass.Uint32",
        )

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
        if keep.type != i1:
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


def _bounds_lowered(func: mask.FuncOp) -> mask.FuncOp:
    """`func`, or a copy of it with its `interval.bound`s lowered (a pipeline
    that ends before `lower-interval-bounds`): the printer reads their arith."""
    if not any(isinstance(op, interval.BoundOp) for op in func.body.block.ops):
        return func
    from maskopt.lowering.interval_bounds import lower_function

    copy = ModuleOp([func.clone()])
    lowered = copy.ops.first
    assert isinstance(lowered, mask.FuncOp)
    lower_function(lowered)
    return lowered


def print_cute_module(module: ModuleOp, output: IO[str]) -> None:
    """Print every mask.func of `module` as one CuTe DSL Python module."""
    import io

    funcs = [_bounds_lowered(f) for f in _functions(module)]
    if not funcs:
        raise CuteEmitError("the module has no mask.func to print")
    body = io.StringIO()
    ctx = CutePrintContext(body)
    py_names: set[str] = set()
    for func in funcs:
        ctx.line()
        ctx.line()
        ctx.names = {}
        ctx.used = set(py_names)  # `@"a-b"` and `@a_b` must not both print as a_b
        py_name = "mask_mod" if len(funcs) == 1 else ctx.fresh(func.sym_name.data)
        py_names.add(py_name)
        ctx.used = {py_name}
        try:
            # expr() recurses through operands: give it room for deep functions.
            with printing_room(func):
                _FunctionPrinter(func, ctx).print_function(py_name)
        except CuteEmitError as e:
            raise CuteEmitError(f"mask.func @{func.sym_name.data}: {e}") from None
    head = CutePrintContext(output)
    head.line('"""Keep-mask mask_mods for FlashAttention-4 (SM100), generated by maskopt."""')
    head.line()
    head.line("import cutlass")
    head.line("import cutlass.cute as cute")
    helpers = [h.definition() for name, h in HELPERS.items() if name in ctx.uses_helpers]
    if helpers:
        head.line("from cutlass._mlir.dialects import llvm")
        head.line("from cutlass.cutlass_dsl import T, dsl_user_op")
    head.line("from flash_attn.cute import utils")
    for helper in helpers:
        head.line()
        head.line()
        output.write(helper)
    output.write(body.getvalue())


def keep_mask_exprs(func: mask.FuncOp) -> list[str]:
    """One self-contained CuTe expression per top-level run of a packed function."""
    if not func.is_packed:
        raise CuteEmitError(f"mask.func @{func.sym_name.data} is not packed")
    import io

    func = _bounds_lowered(func)
    printer = _FunctionPrinter(func, CutePrintContext(io.StringIO()), inline=True)
    v = func.yield_op.value
    if const_evaluate_operand(v) is not None:
        return [printer.word_expr()]
    assert isinstance(v.owner, interval.KeepWordOp)
    s = v.owner.set
    parts = s.owner.sets if isinstance(s.owner, interval.UnionOp) else (s,)
    with printing_room(func):
        return [check_nesting(printer.expr(p)) for p in parts]


def check_nesting(text: str) -> str:
    """`text`, a self-contained expression, or a CuteEmitError when it nests
    brackets deeper than `INLINE_MAX_NESTING` (Python could not parse it)."""
    depth = deepest = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    if deepest > INLINE_MAX_NESTING:
        raise CuteEmitError(
            f"a self-contained expression nests {deepest} brackets deep, more than "
            f"{INLINE_MAX_NESTING} (Python's parser limit is 200)"
        )
    return text


@dataclass(frozen=True)
class CuteTarget(Target):
    """`-t cute`: print the module as a CuTe DSL Python module (see module doc)."""

    name = "cute"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print_cute_module(module, output)


def print_keep_mask_exprs(module: ModuleOp, output: IO[str]) -> None:
    """Print, for every mask.func of `module`, its self-contained keep-mask
    expressions (`keep_mask_exprs`, what the inductor drop-in hands torch's
    FLASH template), one per line, or the reason it has none."""
    funcs = _functions(module)
    if not funcs:
        raise CuteEmitError("the module has no mask.func to print")
    for func in funcs:
        name = func.sym_name.data
        if not func.is_packed:
            print(f"# mask.func @{name}: not packed (per-lane), no self-contained expressions", file=output)
            continue
        try:
            exprs = keep_mask_exprs(func)
        except CuteEmitError as e:
            print(f"# mask.func @{name}: no self-contained expressions: {_comment(str(e))}", file=output)
            continue
        print(f"# mask.func @{name}: {len(exprs)} self-contained keep-mask expressions, ORed", file=output)
        for e in exprs:
            print(e, file=output)


@dataclass(frozen=True)
class CuteExprsTarget(Target):
    """`-t cute-exprs`: the self-contained CuTe keep-mask expressions of every
    packed function, one per line (see `keep_mask_exprs`)."""

    name = "cute-exprs"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print_keep_mask_exprs(module, output)
