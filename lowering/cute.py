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

The word form of every lane run is chosen before printing, in the IR:
both targets print a copy of the function lowered by `interval-to-cute`
(`maskopt.lowering.interval_to_cute`, see `lowered_function`), whose `cute`
ops (`maskopt.dialects.cute`: shifts by an amount, bmsk, Uint32 arithmetic,
the PTX helpers) the printer writes one op per term, in place, binding the
named ones (`%lo`, `%base`) on lines of their own in the order of the IR.
The same pass chooses the expression forms
(`maskopt.lowering.cute_expressions`): an i64 clamp of a difference that
fold-intervals widened (`q - kv - win[b]`, `start - kv` of an int64 start)
is a `cute.clamped_sub`, which prints in i32 where the operands fit
(`a - min(max(w, a - 32), a)`), else as `clamp(start, kv, kv + 32) - kv` in
Int64; a negation is pushed into its operand or is a `cute.neg_i32`; a sum
with a negation is a difference. The printer does not recognise these
shapes: an `arith` negation that reaches it is an error.

No i32 value is printed as a bare negation (`0 - x`, `x * -1`): ptxas
(CUDA 13.0 and the compiler bundled with nvidia-cutlass-dsl 4.8.1, sm_90a
and sm_100a) miscompiles `max(max(a, -x), b)` and `min(min(a, -x), b)`: it
fuses the two into one VIMNMX3 and drops the negation, computing
`max(a, x, b)` (found on an H200: `batchify_sliding_window_16_128`, see
`PTXAS_NEGATION` and `maskopt.tools.ptx_lint`). `interval-to-cute` pushes a negation into
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

from maskopt.dialects import cute, interval, mask
from maskopt.lowering.helpers import HELPERS
from maskopt.lowering.cute_expressions import (
    lower_expressions,
    needs_expression_lowering,
    negated_operand,
)
from maskopt.lowering.interval_to_cute import lower_to_cute
from maskopt.passes.analysis import (
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

def printing_room(func: mask.FuncOp):
    """Recursion room for printing `func`: `_FunctionPrinter.expr` recurses
    through operands, a few frames per op."""
    return recursion_room(8 * len(func.body.block.ops))


class _CuteOpPrinter:
    """The printing of `cute` ops (a part of `_FunctionPrinter`): each op is
    one CuTe expression of its operands' texts."""

    def cute_value(self, v: SSAValue) -> str:
        """
        The text of a `cute` op's result. The ops are expressions, printed in
        place inside their user, except `cute.lanes` (a run's word, bound to a
        name like every set) and a result with a name hint, which a module
        binds on a line of its own. A module first prints the values the
        expression reads, the named ones among its own ops included, in the
        order of its ops in the block (the order `interval-to-cute` wrote
        them in), so that the lines come in the order the word is computed.
        """
        op = v.owner
        assert isinstance(op, Operation)
        bound = v.name_hint is not None
        if not self.inline:
            self.print_cute_operands(op)
        text = self.cute_expr(op)
        if self.inline or not bound or text.isidentifier():
            return text
        name = self.ctx.fresh(v.name_hint)
        self.ctx.line(f"{name} = {text}")
        self.ctx.names[v] = name
        return name

    def print_cute_operands(self, root: Operation) -> None:
        """Print, in block order, the values that the cute expression `root`
        reads and the named results of its ops (see `cute_value`)."""
        tree: set[Operation] = set()
        stack = [root]
        while stack:
            op = stack.pop()
            if op in tree:
                continue
            tree.add(op)
            for x in op.operands:
                if cute.is_cute_value(x) and x not in self.ctx.names:
                    stack.append(x.owner)
        if len(tree) == 1 and not any(x not in self.ctx.names for x in root.operands):
            return
        order = self._block_order()
        for op in sorted(tree, key=order.__getitem__):
            for x in op.operands:
                if not cute.is_cute_value(x):
                    self.expr(x)
            if op is not root and op.results[0].name_hint is not None:
                self.expr(op.results[0])

    def _block_order(self) -> dict[Operation, int]:
        if self._order is None:
            self._order = {op: i for i, op in enumerate(self.func.body.block.ops)}
        return self._order

    def cute_expr(self, op: Operation) -> str:
        """One `cute` op as a CuTe expression of its operands' texts."""
        e = self.expr
        match op:
            case cute.ConstantOp():
                t = op.result.type
                if t == cute.ui32:
                    k = op.value_int % (1 << 32)
                    if op.hex is not None:
                        return f"cutlass.Uint32({k:#x})"
                    return ONES if k == 2**32 - 1 else f"cutlass.Uint32({k})"
                return f"{ctype(t)}({op.value_int})"
            case cute.ToU32Op():
                return f"cutlass.Uint32({e(op.input)})"
            case cute.ToI64Op():
                return f"cutlass.Int64({e(op.input)})"
            case cute.SatU32Op():
                return self.call_helper("sat_u32", e(op.input))
            case cute.SatI32Op():
                return self.call_helper("sat_i32", e(op.input))
            case cute.NegI32Op() | cute.NegI64Op():
                return self.call_helper(op.HELPER, e(op.input))
            case cute.ShlU32Op() | cute.ShrU32Op():
                return f"utils.{op.HELPER}({e(op.word)}, cutlass.Uint32({e(op.amount)}))"
            case cute.ShlHi64Op():
                return self.call_helper("shl_hi64", e(op.word), e(op.amount))
            case cute.BmskOp():
                return self.call_helper("bmsk_u32", e(op.pos), e(op.width))
            case cute.MaxOp() | cute.MinOp():
                return f"{op.SYMBOL}({e(op.lhs)}, {e(op.rhs)})"
            case cute.AddOp() | cute.SubOp() | cute.MulOp() | cute.AndOp() | cute.OrOp() | cute.RemOp():
                return f"({e(op.lhs)} {op.SYMBOL} {e(op.rhs)})"
            case cute.LtOp() | cute.GeOp():
                return f"({e(op.lhs)} {op.SYMBOL} {e(op.rhs)})"
            case cute.SelectOp():
                t = op.result.type
                name = "cutlass.Uint32" if t == cute.ui32 else ctype(t)
                c = op.cond.owner
                if isinstance(c, (cute.LtOp, cute.GeOp)) and op.cond.name_hint is None:
                    # a whole argument: no brackets needed
                    cond = f"{e(c.lhs)} {c.SYMBOL} {e(c.rhs)}"
                else:
                    cond = e(op.cond)
                return self.ternary(cond, e(op.lhs), e(op.rhs), name, select=op.eager is not None)
            case cute.ToI32Op():
                return f"cutlass.Int32({e(op.input)})"
            case cute.FloorRemOp():
                return self.floormod(op)
            case cute.AddWrapOp() | cute.SubWrapOp() | cute.MulWrapOp() | cute.FloorDivWrapOp():
                return self.wrapping(op)
            case cute.SafeDivisorOp():
                d, t = e(op.divisor), ctype(op.result.type)
                bad = " | ".join(f"({d} == {t}({x}))" for x in op.replaced)
                return self.ternary(bad, f"{t}(1)", d, t)
            case cute.WrapIndexOp():
                i, t = e(op.index), ctype(op.result.type)
                return self.ternary(f"{i} < {t}(0)", f"{i} + {t}({op.size_value})", i, t)
            case cute.ClampedSubOp():
                return self.clamped_sub(op)
            case cute.LanesOp():
                return e(op.word)
            case _:
                raise CuteEmitError(f"cannot print {op.name} as CuTe code")

    def wrapping(self, op: cute.AddWrapOp) -> str:
        """A `+`, `-`, `*` or `//` that wraps like torch's (`cute.add_wrap`,
        ...): an i32 one computed in Int64 and truncated; an i64 one in
        Uint64, which is modular (arith.addi/subi/muli without overflow
        flags), and an i64 `//`, which wraps only at MIN // -1 (to MIN), as
        `0 - MIN` there."""
        a, b, sym = self.expr(op.lhs), self.expr(op.rhs), op.SYMBOL
        if op.result.type == i32:
            return f"cutlass.Int32(cutlass.Int64({a}) {sym} cutlass.Int64({b}))"
        if not isinstance(op, cute.FloorDivWrapOp):
            return f"cutlass.Int64(cutlass.Uint64({a}) {sym} cutlass.Uint64({b}))"
        neg = f"cutlass.Int64(cutlass.Uint64(0) - cutlass.Uint64({a}))"
        return f"({neg} if {b} == cutlass.Int64(-1) else ({a} // {b}))"

    def clamped_sub(self, op: cute.ClampedSubOp) -> str:
        """`cute.clamped_sub` in the form its op doc gives (`lhs`, read
        three times, bound to a name)."""
        lo, hi = op.lo_value, op.hi_value
        if op.lhs.type != i32:
            b = self.bind("wide", f"cutlass.Int64({self.expr(op.rhs)})")
            lower = b if lo == 0 else f"({b} + cutlass.Int64({lo}))"
            upper = b if hi == 0 else f"({b} + cutlass.Int64({hi}))"
            return f"cutlass.Int32(min(max({self.expr(op.lhs)}, {lower}), {upper}) - {b})"
        lhs, b = self.expr(op.lhs), self.expr(op.rhs)
        a = self.bind("a", lhs)
        below = a if hi == 0 else f"({a} - cutlass.Int32({hi}))"  # b <= a - hi: hi
        above = a if lo == 0 else f"({a} - cutlass.Int32({lo}))"  # b >= a - lo: lo
        if lo is None:
            return f"({a} - max({b}, {below}))"
        if hi is None:
            return f"({a} - min({b}, {above}))"
        return f"({a} - min(max({b}, {below}), {above}))"


class _DivisionPrinter:
    """The printing of divisions and remainders (a part of `_FunctionPrinter`):
    the unsigned forms and floor remainders that `interval-to-cute` chose
    (it has guarded every divisor that may make the division UB:
    `cute.safe_divisor`)."""

    def divui_remui(self, op: arith.DivUIOp | arith.RemUIOp) -> str:
        """An i32 `arith.divui` / `arith.remui` (`interval-to-cute`'s
        `UnsignedDivision`) in Uint32, its bits read back as Int32."""
        if op.result.type != i32:
            raise CuteEmitError(f"cannot print {op.name} of a {op.result.type} value as CuTe code")
        r = self.ranges.of(op.rhs)
        if r.lo <= 0 <= r.hi:
            raise CuteEmitError(f"cannot print {op.name} by a divisor that may be 0 as CuTe code")
        sym = "//" if isinstance(op, arith.DivUIOp) else "%"
        c = const_evaluate_operand(op.rhs)
        b = self.expr(op.rhs) if c is None else str(c)
        return f"cutlass.Int32(cutlass.Uint32({self.expr(op.lhs)}) {sym} cutlass.Uint32({b}))"

    def floormod(self, op: mask.FloorModOp | cute.FloorRemOp) -> str:
        """A floor remainder from C's truncating `%`, the remainder of the
        wrong sign moved: `cute.floor_rem`'s of its divisor's sign, or
        `mask.floormod`'s of either sign (interval-to-cute's
        `LowerFloorRemainder` has lowered each whose divisor's sign is known)."""
        a, d = self.expr(op.lhs), self.expr(op.rhs)
        t = ctype(op.result.type)
        r = self.bind("rem", f"({a} % {d})")
        if isinstance(op, mask.FloorModOp):
            cond = f"({r} != {t}(0)) & (({r} < {t}(0)) != ({d} < {t}(0)))"
        elif op.negative is not None:
            cond = f"{r} > {t}(0)"
        else:
            cond = f"{r} < {t}(0)"
        # A select (both targets: a branch per remainder cost the module more
        # than the drop-in's select) evaluates both arms: `r + d` would
        # overflow where the remainder keeps its sign (r >= 0, d near 2^31).
        # Selecting the correction instead adds d only where r + d lies
        # between them.
        return f"({r} + {self.ternary(cond, d, f'{t}(0)', t, select=True)})"


@dataclass
class _FunctionPrinter(_CuteOpPrinter, _DivisionPrinter):
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
    #: the position of every op of the function's block (`print_cute_operands`)
    _order: dict[Operation, int] | None = field(init=False, default=None)

    def __post_init__(self):
        self.ranges = ValueRanges(self.func)

    # Expressions ----------------------------------------------------------

    def expr(self, v: SSAValue) -> str:
        if v in self.ctx.names:
            return self.ctx.names[v]
        if self.inline and self.lane_expr is None:
            text = self._inline_texts.get(v)
            if text is None and cute.is_cute_value(v):
                # a word's expression ops nest a bounded depth: not counted
                text = self._inline_texts[v] = self._expr(v)
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
        if cute.is_cute_value(v):
            return self.cute_value(v)
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
            case arith.DivUIOp() | arith.RemUIOp():
                return self.divui_remui(op)
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
                # i32 runs are lowered to `cute.lanes` before printing
                raise CuteEmitError("interval bounds must be i32")
            case _ if op.dialect_name() == "cute":
                return self.cute_expr(op)
            case interval.PeriodicOp():
                raise CuteEmitError("interval.periodic phase must be i32 or i64")
            case interval.TableOp():
                # tables of an i32 shift are lowered to `cute.lanes` before printing
                raise CuteEmitError("interval.table shift must be an i32 that fits i32")
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
        if negated_operand(self.ranges, op) is not None:
            raise CuteEmitError(
                f"a bare negation ({op.name}) reaches the printer: interval-to-cute "
                f"lowers it ({PTXAS_NEGATION})"
            )
        a, b = self.expr(lhs), self.expr(rhs)
        if t == i1:
            return f"({a} {sym} {b})"
        if lc is not None and rc is not None:
            raise CuteEmitError(f"unfolded constant {op.name}: run canonicalize first")
        if isinstance(op, (arith.ShLIOp, arith.ShRSIOp)):
            if rc is None or not 0 <= rc < t.width.data:
                raise CuteEmitError(f"{op.name} by a non-constant or out-of-range amount")
        if isinstance(op, arith.ShLIOp):
            return f"({a} {sym} {b})"  # shl without nsw: the bits shifted out are dropped
        if self.ranges.may_wrap(op):
            # interval-to-cute's `LowerWrappingArithmetic` has made every op
            # that it can print wrapping a `cute` op: this one it cannot.
            raise CuteEmitError(
                f"{op.name} may overflow {t} on the mask domain; it cannot be printed"
            )
        return f"({a} {sym} {b})"

    def call_helper(self, name: str, *args: str) -> str:
        """A call of the inline-PTX helper `name` (`maskopt.lowering.helpers`):
        by name in a module, which then defines it; in place in a
        self-contained expression, which cannot."""
        helper = HELPERS[name]
        if self.inline:
            return helper.inline(*args)
        self.ctx.uses_helpers.add(name)
        return helper.call(*args)

    def minmax(self, op: arith.MinSIOp | arith.MaxSIOp) -> str:
        """`min(a, b)`/`max(a, b)`, a constant operand printed second: the
        DSL compares signed whenever the left operand is a constant
        (`DSL_CONSTANT_MINMAX`)."""
        a, b = op.lhs, op.rhs
        if const_evaluate_operand(a) is not None:
            a, b = b, a
        kind = "min" if isinstance(op, arith.MinSIOp) else "max"
        return f"{kind}({self.expr(a)}, {self.expr(b)})"

    def load(self, op: mask.LoadOp) -> str:
        """An aux element, its indices printed as they stand (`interval-to-cute`'s
        `WrapNegativeIndex` has wrapped every index that may be negative)."""
        indices = [self.expr(index) for index in op.indices]
        load = f"{self.expr(op.tensor)}[{', '.join(indices)}]"
        element = op.tensor.type.element_type
        if isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED:
            # An unsigned tensor's element (a Uint8) as the signless IR value
            # it loads, printed like every iN (Int8): its bits, same width.
            return f"{ctype(op.result.type)}({load})"
        return load

    def intersect_word(self, op: interval.IntersectOp) -> str:
        """The AND of the operands' words (`interval-to-cute` has grouped
        table sets of one shift into one word)."""
        return "(" + " & ".join(self.expr(s) for s in op.sets) + ")"

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


def _needs_lowering(func: mask.FuncOp) -> bool:
    runs = (interval.BoundOp, interval.RangeOp, interval.SpanOp, interval.PeriodicOp, interval.TableOp)
    return any(isinstance(op, runs) for op in func.body.block.ops) or needs_expression_lowering(func)


def _lower_in_place(func: mask.FuncOp) -> None:
    from maskopt.lowering.interval_bounds import lower_function

    if any(isinstance(op, interval.BoundOp) for op in func.body.block.ops):
        lower_function(func)  # `lower-interval-bounds`, for a pipeline that ends before it
    lower_to_cute(func)  # `interval-to-cute`


def _detached_copy(func: mask.FuncOp) -> mask.FuncOp:
    """A copy of `func` in a module of its own (the original is untouched)."""
    copy = ModuleOp([func.clone()]).ops.first
    assert isinstance(copy, mask.FuncOp)
    return copy


def lowered_function(func: mask.FuncOp) -> mask.FuncOp:
    """`func`, or a copy of it lowered for printing: its `interval.bound`s
    expanded (`lower-interval-bounds`, for a pipeline that ends before it)
    and its runs' word forms chosen (`interval-to-cute`). Both targets print
    this IR."""
    if not _needs_lowering(func):
        return func
    lowered = _detached_copy(func)
    _lower_in_place(lowered)
    return lowered


def with_lowered_expressions(func: mask.FuncOp) -> tuple[mask.FuncOp, dict[Operation, Operation]]:
    """A copy of `func` whose expressions are lowered for printing
    (`interval-to-cute`'s expression rewrites, not its word forms), and the
    copy's op of each op of `func`: the inductor drop-in prints a run's
    bounds (`lower_code`, `upper_code`) from the interval IR with it."""
    lowered = _detached_copy(func)
    ops = dict(zip(func.body.block.ops, lowered.body.block.ops, strict=True))
    lower_expressions(lowered)
    return lowered, ops


def lower_for_cute(module: ModuleOp) -> ModuleOp:
    """`module`, or a copy of it lowered for the CuTe targets: each function
    as `lowered_function` gives it. `compile_mask` keeps this module as
    `CompiledMask.cute_module`; the module printer, the self-contained
    expressions and the inductor drop-in all print it, so no consumer
    lowers the function again."""
    if not any(_needs_lowering(f) for f in _functions(module)):
        return module
    copy = module.clone()
    for func in _functions(copy):
        _lower_in_place(func)
    return copy


def print_cute_module(module: ModuleOp, output: IO[str]) -> None:
    """Print every mask.func of `module` as one CuTe DSL Python module."""
    import io

    funcs = [lowered_function(f) for f in _functions(module)]
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

    func = lowered_function(func)
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
