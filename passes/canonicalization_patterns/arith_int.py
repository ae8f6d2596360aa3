"""
Integer folds for `arith` ops that xDSL's stock patterns leave alone, with
torch's semantics (the FX importer maps `//` to `arith.floordivsi`, `fmod`
to `arith.remsi`, `>>` to `arith.shrsi` and `<<` to `arith.shli`):

- constant operands fold: `//` floors, `remsi` truncates (the sign of the
  dividend), `>>` is arithmetic, `<<` discards the high bits; a result that
  leaves the type wraps like torch's integers (`MIN // -1 == MIN`);
- `remsi %x, 1` and `remsi %x, -1` are 0 (`MIN % -1` is LLVM UB, torch's
  `fmod(MIN, -1)` is 0);
- `floordivsi %x, -1` is `0 - %x` (which wraps like torch's `MIN // -1`; the
  subtraction is then widened or printed wrapping instead of emitting the
  division LLVM leaves undefined for MIN).

A division by zero or a shift amount outside [0, width) is left alone.
These patterns are attached by `maskopt.dialects.arith_traits`.
"""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand


def _replace_by_constant(rewriter: PatternRewriter, op: Operation, value: int) -> None:
    t = op.results[0].type
    assert isinstance(t, IntegerType)
    rewriter.replace(op, arith.ConstantOp.from_int_and_width(value, t, truncate_bits=True))


def _constants(op: arith.SignlessIntegerBinaryOperation) -> tuple[int, int] | None:
    """Both operands' values, when each is a constant or an extension of one
    (`_extended_constant`: `min((q - q).to(torch.int64), 0)` compares an
    extended 0, fuzz seed 84 mask 1840)."""
    lhs, rhs = _extended_constant(op.lhs), _extended_constant(op.rhs)
    if lhs is None or rhs is None:
        return None
    return lhs, rhs


def truncated_remainder(a: int, b: int) -> int:
    """C's / torch.fmod's `a % b` (the sign of `a`), b != 0."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


class FloorDivSIConstantFold(RewritePattern):
    """`floordivsi c1, c2` -> `c1 // c2` (floor, wrapping), c2 != 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.FloorDivSIOp, rewriter: PatternRewriter, /):
        c = _constants(op)
        if c is not None and c[1] != 0:
            _replace_by_constant(rewriter, op, c[0] // c[1])


class FloorDivSIByMinusOne(RewritePattern):
    """`floordivsi %x, -1` -> `subi 0, %x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.FloorDivSIOp, rewriter: PatternRewriter, /):
        if const_evaluate_operand(op.rhs) != -1 or const_evaluate_operand(op.lhs) is not None:
            return
        assert isinstance(op.result.type, IntegerType)
        zero = arith.ConstantOp.from_int_and_width(0, op.result.type)
        rewriter.replace(op, [zero, arith.SubiOp(zero.result, op.lhs)])


class RemSIConstantFold(RewritePattern):
    """`remsi c1, c2` -> the truncated remainder of c1 by c2, c2 != 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.RemSIOp, rewriter: PatternRewriter, /):
        c = _constants(op)
        if c is not None and c[1] != 0:
            _replace_by_constant(rewriter, op, truncated_remainder(*c))


class RemSIByUnit(RewritePattern):
    """`remsi %x, 1` and `remsi %x, -1` -> 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.RemSIOp, rewriter: PatternRewriter, /):
        if const_evaluate_operand(op.rhs) in (1, -1):
            _replace_by_constant(rewriter, op, 0)


def _shift_amount(op: arith.SignlessIntegerBinaryOperation) -> tuple[int, int] | None:
    c = _constants(op)
    t = op.result.type
    assert isinstance(t, IntegerType)
    if c is None or not 0 <= c[1] < t.width.data:
        return None
    return c


class ShRSIConstantFold(RewritePattern):
    """`shrsi c1, c2` -> `c1 >> c2` (arithmetic), 0 <= c2 < width."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ShRSIOp, rewriter: PatternRewriter, /):
        if (c := _shift_amount(op)) is not None:
            _replace_by_constant(rewriter, op, c[0] >> c[1])


class ShLIConstantFold(RewritePattern):
    """`shli c1, c2` -> `c1 << c2` without the bits shifted out, 0 <= c2 < width."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ShLIOp, rewriter: PatternRewriter, /):
        if (c := _shift_amount(op)) is not None:
            _replace_by_constant(rewriter, op, c[0] << c[1])


class SubISelf(RewritePattern):
    """`subi %x, %x` -> `0` (MLIR's fold; xDSL 0.75 lacks it). Left in place,
    LLVM folds it later, after the CuTe target has printed `0 - kv` from
    `(q - q) - kv` as a difference: a bare negation that reaches a chained
    min/max, which ptxas miscompiles (found on an H200, fuzz seed 91 mask
    1697)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /):
        if op.lhs is op.rhs:
            _replace_by_constant(rewriter, op, 0)


class MinMaxConstantFold(RewritePattern):
    """`minsi/maxsi/minui/maxui c1, c2` -> the constant (unsigned ones compare
    the bits): a clamp of a constant (`clamp(kv, min=0, max=0)` is
    `minsi 0, 0` once the `maxsi kv, 0` is folded into the bound) would
    otherwise reach a comparison that the CuTe target prints as a
    Python-constant `cutlass.select_` condition in the drop-in."""

    _OPS = {
        arith.MinSIOp: (min, True), arith.MaxSIOp: (max, True),
        arith.MinUIOp: (min, False), arith.MaxUIOp: (max, False),
    }

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.MinSIOp | arith.MaxSIOp | arith.MinUIOp | arith.MaxUIOp, rewriter: PatternRewriter, /
    ):
        c = _constants(op)
        t = op.results[0].type
        if c is None or not isinstance(t, IntegerType):
            return
        pick, signed = self._OPS[type(op)]
        w = t.width.data
        if signed:
            a, b = ((x + 2 ** (w - 1)) % 2**w - 2 ** (w - 1) for x in c)
        else:
            a, b = (x % 2**w for x in c)
        _replace_by_constant(rewriter, op, pick(a, b))


class MinMaxSelf(RewritePattern):
    """`minsi %x, %x` (and maxsi, minui, maxui) -> `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.MinSIOp | arith.MaxSIOp | arith.MinUIOp | arith.MaxUIOp, rewriter: PatternRewriter, /
    ):
        if op.lhs is op.rhs:
            rewriter.replace(op, (), (op.lhs,))


def _extended_constant(v: SSAValue) -> int | None:
    """The value of `v` when it is a constant or an `extsi`/`extui` of one
    (`(kv - kv).to(torch.int64) == 0` compares an extended 0: fuzz seed 41,
    masks 3626 and 7615, whose drop-in printed `cutlass.select_` of a Python
    constant, which the DSL rejects). The extension itself is not folded
    here: folding wide extensions in place crashed the canonicalize walker
    (see ExtendConstantFold)."""
    owner = v.owner
    if isinstance(owner, arith.ExtSIOp | arith.ExtUIOp):
        src = owner.input.type
        c = const_evaluate_operand(owner.input)
        if c is None or not isinstance(src, IntegerType):
            return None
        w = src.width.data
        bits = c % 2**w
        if isinstance(owner, arith.ExtSIOp) and bits >= 2 ** (w - 1):
            return bits - 2**w
        return bits
    return const_evaluate_operand(v)


class CmpiConstantFold(RewritePattern):
    """`cmpi pred, c1, c2` -> the i1 constant (unsigned predicates compare the
    operands' bits as unsigned): fold-intervals can build a comparison of
    two constants (`where(kv > q, 65, kv) >= -3` distributes into `68 >= 0`),
    which the CuTe target would otherwise print as a Python-constant
    condition of `cutlass.select_` (the DSL needs a runtime one)."""

    _PREDICATES = {
        0: lambda a, b: a == b, 1: lambda a, b: a != b,
        2: lambda a, b: a < b, 3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
        6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b,
    }

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter, /):
        lhs, rhs = _extended_constant(op.lhs), _extended_constant(op.rhs)
        t = op.lhs.type
        pred = op.predicate.value.data
        if lhs is None or rhs is None or not isinstance(t, IntegerType) or pred not in self._PREDICATES:
            return
        w = t.width.data
        if pred >= 6:  # unsigned: the bits
            lhs, rhs = lhs % 2**w, rhs % 2**w
        else:  # signed: the two's complement value
            lhs = (lhs + 2 ** (w - 1)) % 2**w - 2 ** (w - 1) if w > 1 else -(lhs % 2)
            rhs = (rhs + 2 ** (w - 1)) % 2**w - 2 ** (w - 1) if w > 1 else -(rhs % 2)
        value = self._PREDICATES[pred](lhs, rhs)
        rewriter.replace(op, arith.ConstantOp.from_int_and_width(-1 if value else 0, 1))


class ExtendConstantFold(RewritePattern):
    """`extui` of an i1 constant -> the extended constant (an i1
    `false` extended to i8, from a torch bool compared as an integer, would
    otherwise print as a Python-constant condition of `cutlass.select_` in
    the drop-in's expressions, which the DSL rejects)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ExtUIOp | arith.ExtSIOp, rewriter: PatternRewriter, /):
        src, t = op.input.type, op.result.type
        # i1 only: folding wider extensions of constants crashed the
        # canonicalize walker on `q * -2**31 * -2**31` (an op left in its
        # worklist without a block; not understood yet); a comparison of a
        # wider extended constant is folded by CmpiConstantFold instead
        if src != IntegerType(1) or not isinstance(t, IntegerType):
            return
        value = _extended_constant(op.result)
        if value is None:
            return
        rewriter.replace(op, arith.ConstantOp.from_int_and_width(value, t, truncate_bits=True))
