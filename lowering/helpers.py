"""
The inline-PTX helpers of the CuTe target: one registry (`HELPERS`), read by
the printers and by the CPU emulator.

Each helper is one `llvm.inline_asm` block with its operand and result types
and its CPU semantics. The module printer defines the helpers a module calls
(`PtxHelper.definition`, a `@dsl_user_op` function) and calls them by name;
a self-contained expression, which torch inductor's FLASH template pastes
into its own mask_mod, cannot define a function, so it writes the same
inline-asm call in place (`PtxHelper.inline`), through the names the
template has in scope (`cutlass`, whose `cutlass._mlir.dialects.llvm` and
`cutlass.cutlass_dsl.T` are loaded by `import cutlass`). Both forms compile
to the same PTX. The CPU emulator (`maskopt.lowering.cute_emulator`) models
an `inline_asm` call by looking up its asm string here (`by_asm`).

    bmsk_u32(pos, width)  PTX bmsk.clamp.b32: bits [pos, pos + width) of a
                          word, clipped to bit 31, 0 when pos >= 32
    neg_i32(x), neg_i64(x)
                          -x, wrapping, as `not` and `add 1`: neither LLVM
                          nor ptxas turns it back into `0 - x`, which ptxas
                          miscompiles in a chained min/max (PTXAS_NEGATION
                          in maskopt.lowering.cute)
    sat_u32(x)            an Int64 clamped to [0, 2^32 - 1], as a Uint32
                          (cvt.sat.u32.s64's value, in 4 SASS instructions
                          instead of 5)
    sat_i32(x)            an Int64 clamped to [-2^31, 2^31 - 1], as an Int32
                          (cvt.sat.s32.s64's value: per-head int64 window,
                          harness 26 SASS instructions against 29 for the
                          cvt, FA4 +169 against +177)
    shl_hi64(word, amount)
                          the high word of the zero-extended word << amount,
                          0 for amount >= 64: a fixed-width run of lanes
                          shifted to any start, below lane 0 included (one
                          SHF.L.U64.HI)

Semantics take and return Python ints or int64 torch tensors (elementwise):
the operands' values in their types (unsigned for Uint32), the result's
value in the result type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_I64_MIN = -(1 << 63)


def _where(c, a, b):
    """`a if c else b` for Python ints and elementwise for tensors."""
    if isinstance(c, bool):
        return a if c else b
    import torch

    return torch.where(c, a, b)


def _clip(x, lo, hi):
    if isinstance(x, int):
        return min(max(x, lo), hi)
    import torch

    return torch.clamp(x, lo, hi)


def _bmsk(pos, width):
    top = _clip(pos + _clip(width, 0, 32), 0, 32)
    lo = _clip(pos, 0, 32)
    return _where(pos >= 32, 0 * pos, ((1 << top) - 1) & ~((1 << lo) - 1))


def _wrap(v, bits: int):
    """v reduced to a signed `bits`-bit value (two's complement)."""
    if isinstance(v, int):
        return (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
    if bits == 64:
        return v  # int64 tensors wrap themselves
    return ((v + (1 << (bits - 1))) & ((1 << bits) - 1)) - (1 << (bits - 1))


def _neg32(x):
    return _wrap(-x, 32)


def _neg64(x):
    if isinstance(x, int):
        return _wrap(-x, 64)
    return _where(x == _I64_MIN, x, -x)  # -MIN is MIN, as in PTX


def _sat_u32(x):
    return _clip(x, 0, (1 << 32) - 1)


def _sat_i32(x):
    return _clip(x, -(1 << 31), (1 << 31) - 1)


def _shl_hi64(word, amount):
    # bits 32..63 of word << amount (an int64 tensor drops the bits above 63,
    # which the result does not read)
    shifted = word << _clip(amount, 0, 63)
    return _where(amount >= 64, 0 * word, (shifted >> 32) & 0xFFFFFFFF)


def _literal(text: str, indent: int) -> str:
    """`text` as a double-quoted literal, split after a `; ` past column 60."""
    assert '"' not in text and "\\" not in text
    cut = text.find("; ", 50)
    if len(text) <= 70 or cut < 0:
        return f'"{text}"'
    return f'"{text[: cut + 2]}"\n' + " " * indent + f'"{text[cut + 2 :]}"'


@dataclass(frozen=True)
class PtxHelper:
    """One inline-PTX helper: its signature, its PTX and its CPU semantics."""

    name: str
    params: tuple[tuple[str, str], ...]
    """(name, CuTe type) of each operand: `Uint32`, `Int32` or `Int64`"""
    result: str
    """the CuTe type of the result"""
    asm: str
    constraints: str
    doc: str
    semantics: Callable[..., Any]

    @property
    def result_bits(self) -> int:
        return 64 if self.result.endswith("64") else 32

    def definition(self) -> str:
        """The `@dsl_user_op` function a module defines (it imports `llvm`,
        `T` and `dsl_user_op`)."""
        params = ", ".join(p for p, _ in self.params)
        ops = [f"cutlass.{t}({p}).ir_value(loc=loc, ip=ip)" for p, t in self.params]
        operands = f"[{ops[0]}]" if len(ops) == 1 else "[\n" + "".join(f"                {o},\n" for o in ops) + "            ]"
        doc = self.doc.replace("\n", "\n    ")
        return (
            "@dsl_user_op\n"
            f"def {self.name}({params}, *, loc=None, ip=None):\n"
            f'    """{doc}"""\n'
            f"    return cutlass.{self.result}(\n"
            "        llvm.inline_asm(\n"
            f"            T.i{self.result_bits}(),\n"
            f"            {operands},\n"
            f"            {_literal(self.asm, 12)},\n"
            f'            "{self.constraints}",\n'
            "            has_side_effects=False,\n"
            "            is_align_stack=False,\n"
            "            asm_dialect=llvm.AsmDialect.AD_ATT,\n"
            "        )\n"
            "    )\n"
        )

    def call(self, *args: str) -> str:
        """A call of the defined helper."""
        assert len(args) == len(self.params)
        return f"{self.name}({', '.join(args)})"

    def inline(self, *args: str) -> str:
        """The same inline-asm call as a self-contained expression (only the
        name `cutlass`)."""
        assert len(args) == len(self.params)
        ops = ", ".join(f"cutlass.{t}({a}).ir_value()" for a, (_, t) in zip(args, self.params))
        llvm = "cutlass._mlir.dialects.llvm"
        return (
            f"cutlass.{self.result}({llvm}.inline_asm(cutlass.cutlass_dsl.T.i{self.result_bits}(), [{ops}], "
            f'"{self.asm}", "{self.constraints}", has_side_effects=False, is_align_stack=False, '
            f"asm_dialect={llvm}.AsmDialect.AD_ATT))"
        )


def _neg(bits: int) -> PtxHelper:
    reg = "l" if bits == 64 else "r"
    return PtxHelper(
        name=f"neg_i{bits}",
        params=(("x", f"Int{bits}"),),
        result=f"Int{bits}",
        asm=f"{{ .reg .b{bits} t; not.b{bits} t, $1; add.s{bits} $0, t, 1; }}",
        constraints=f"={reg},{reg}",
        doc=(
            "-x of an Int32, wrapping (two's complement), as `not` and `add 1` in\n"
            "inline PTX so that no min/max sees a negation (see maskopt.lowering.cute)."
            if bits == 32
            else "-x of an Int64, wrapping, like neg_i32 (LLVM would otherwise narrow a\n"
            "truncated 64-bit negation to a 32-bit one)."
        ),
        semantics=_neg32 if bits == 32 else _neg64,
    )


#: Every helper, by name.
HELPERS: dict[str, PtxHelper] = {
    h.name: h
    for h in (
        PtxHelper(
            name="bmsk_u32",
            params=(("pos", "Uint32"), ("width", "Uint32")),
            result="Uint32",
            asm="bmsk.clamp.b32 $0, $1, $2;",
            constraints="=r,r,r",
            doc="Bits [pos, pos + width) of a word, clipped to bit 31, 0 when pos >= 32\n"
            "(PTX bmsk.clamp.b32; operands unsigned).",
            semantics=_bmsk,
        ),
        PtxHelper(
            name="shl_hi64",
            params=(("word", "Uint32"), ("amount", "Uint32")),
            result="Uint32",
            asm="{ .reg .b64 t; .reg .b32 lo; cvt.u64.u32 t, $1; shl.b64 t, t, $2; mov.b64 {lo, $0}, t; }",
            constraints="=r,r,r",
            doc="The high word of the 64-bit word << amount (the word zero-extended),\n"
            "0 when amount >= 64 (PTX shl.b64 clamps the amount; operands unsigned).",
            semantics=_shl_hi64,
        ),
        _neg(32),
        _neg(64),
        PtxHelper(
            name="sat_u32",
            params=(("x", "Int64"),),
            result="Uint32",
            asm="{ .reg .b32 lo, hi, s; .reg .pred p; mov.b64 {lo, hi}, $1; "
            "shr.s32 s, hi, 31; not.b32 s, s; setp.eq.s32 p, hi, 0; selp.b32 $0, lo, s, p; }",
            constraints="=r,l",
            doc="An Int64 clamped to [0, 2^32 - 1], as a Uint32: the low word where the\n"
            "high word is 0, else 0 or 0xFFFFFFFF by its sign (what cvt.sat.u32.s64\n"
            "computes, in 4 SASS instructions instead of 5).",
            semantics=_sat_u32,
        ),
        PtxHelper(
            name="sat_i32",
            params=(("x", "Int64"),),
            result="Int32",
            asm="{ .reg .b32 lo, hi, t, s; .reg .pred p; mov.b64 {lo, hi}, $1; "
            "shr.s32 t, lo, 31; setp.eq.s32 p, hi, t; shr.u32 s, hi, 31; "
            "add.s32 s, s, 0x7fffffff; selp.b32 $0, lo, s, p; }",
            constraints="=r,l",
            doc="An Int64 clamped to [-2^31, 2^31 - 1], as an Int32: the low word where\n"
            "the high word is its sign extension, else 2^31 - 1 or -2^31 by the high\n"
            "word's sign (what cvt.sat.s32.s64 computes, in fewer SASS instructions).",
            semantics=_sat_i32,
        ),
    )
}


def by_asm() -> dict[str, PtxHelper]:
    """The helpers by their asm string (what an `inline_asm` call names)."""
    return {h.asm: h for h in HELPERS.values()}
