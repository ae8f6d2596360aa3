"""Tests for maskopt.lowering.cute_emulator (CPU execution of emitted CuTe DSL)."""

import sys
import textwrap

import pytest
import torch

from maskopt.lowering import cute_emulator as emu
from maskopt.lowering.cute_emulator import (
    EmulatedLossyConversion,
    EmulatedUB,
    EmulatorUnsupported,
    load_module,
    unpack_words,
)

M32 = 0xFFFFFFFF
I32_MAX = 2**31 - 1

HEADER = """\
import cutlass
import cutlass.cute as cute
from flash_attn.cute import utils


@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors{extra}):
    q = q_idx[0]
    kv = kv_idx[0]
    b = b_idx[0]
{body}
    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    packed[0] = w
    return packed.load()


mask_mod.__vec_size__ = 32
"""


def word_module(body: str, scalars: bool = False):
    src = HEADER.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"), "    "),
                        extra=", aux_scalars" if scalars else "")
    return load_module(src)


def run(body, q, kv=0, b=0, aux=(), scalars=None):
    m = word_module(body, scalars=scalars is not None)
    q = torch.as_tensor(q, dtype=torch.int64)
    n = q.numel()
    full = lambda x: torch.as_tensor(x, dtype=torch.int64).expand(n).clone()
    return m.keep_words(full(b), full(0), q, full(kv), aux, scalars or ())


def u32(x: int) -> int:
    return x & M32


# ---------------------------------------------------------------- division


def test_floor_div_and_truncated_mod_on_runtime_values():
    q = torch.arange(0, 21)
    x = (q - 10).tolist()  # -10 .. 10
    w = run("x = q - cutlass.Int32(10)\nw = cutlass.Uint32(x // cutlass.Int32(3))", q)
    assert w.tolist() == [u32(v // 3) for v in x]  # floor division
    w = run("x = q - cutlass.Int32(10)\nw = cutlass.Uint32(x % cutlass.Int32(3))", q)
    assert w.tolist() == [u32(int(torch.fmod(torch.tensor(v), 3))) for v in x]
    assert u32(-1) in w.tolist()  # -7 % 3 == -1: sign of the dividend
    # negative divisor
    w = run("x = q - cutlass.Int32(10)\nw = cutlass.Uint32(x % cutlass.Int32(-4))", q)
    assert w.tolist() == [u32(int(torch.fmod(torch.tensor(v), -4))) for v in x]
    # a literal on one side still gives runtime semantics
    w = run("w = cutlass.Uint32((q - 7) % 2)", [0])
    assert w.tolist() == [u32(-1)]


def test_constant_fold_uses_python_semantics():
    # both operands trace-time constants: the DSL folds them in Python
    w = run("w = cutlass.Uint32(cutlass.Int32(-7) % cutlass.Int32(2))", [0, 1])
    assert w.tolist() == [1, 1]
    w = run("w = cutlass.Uint32(cutlass.Int32(-7) // cutlass.Int32(2))", [0])
    assert w.tolist() == [u32(-4)]
    # plain Python arithmetic stays Python
    w = run("w = cutlass.Uint32((-7) % 2 + (-7) // 2)", [0])
    assert w.tolist() == [u32(1 - 4)]
    # constant overflow is still reported
    with pytest.raises(EmulatedUB, match="constant fold"):
        run("w = cutlass.Uint32(cutlass.Int32(2**31 - 1) + cutlass.Int32(1))", [0])


def test_division_by_zero_and_min_div_minus_one():
    with pytest.raises(EmulatedUB, match="division by zero"):
        run("w = cutlass.Uint32(kv // (q - cutlass.Int32(3)))", [1, 2, 3, 4])
    with pytest.raises(EmulatedUB, match="division by zero"):
        run("w = cutlass.Uint32(kv % (q - cutlass.Int32(3)))", [3])
    with pytest.raises(EmulatedUB, match="overflow"):
        run("w = cutlass.Uint32((q - cutlass.Int32(2**31 - 1) - cutlass.Int32(1)) // cutlass.Int32(-1))", [0])
    with pytest.raises(EmulatedUB, match="srem"):
        run("w = cutlass.Uint32((q - cutlass.Int32(2**31 - 1) - cutlass.Int32(1)) % cutlass.Int32(-1))", [0])


# ---------------------------------------------------------------- overflow


def test_int32_overflow_raises_with_operands_in_message():
    with pytest.raises(EmulatedUB) as ei:
        run("w = cutlass.Uint32(q + cutlass.Int32(1))", [5, I32_MAX])
    msg = str(ei.value)
    assert "+" in msg and "2147483647" in msg and "Int32" in msg and "batch element 1" in msg
    assert issubclass(EmulatedUB, ArithmeticError)
    with pytest.raises(EmulatedUB):
        run("w = cutlass.Uint32(q * cutlass.Int32(65536))", [32768])
    with pytest.raises(EmulatedUB):
        run("w = cutlass.Uint32(-(q - cutlass.Int32(2**31 - 1) - cutlass.Int32(1)))", [0])
    with pytest.raises(EmulatedUB):
        run("w = cutlass.Uint32(q) - cutlass.Uint32(1)", [0])
    # no overflow: fine
    assert run("w = cutlass.Uint32(q * cutlass.Int32(65536))", [32767]).tolist() == [32767 * 65536]


def test_int64_overflow_raises():
    big = "x = cutlass.Int64(q) * cutlass.Int64(2**32)\n"
    assert run(big + "w = cutlass.Uint32(x >> 32)", [I32_MAX]).tolist() == [I32_MAX]
    with pytest.raises(EmulatedUB, match="Int64 overflow"):
        run(big + "y = x * cutlass.Int64(4)\nw = cutlass.Uint32(y)", [2**30])
    assert run(big + "y = x * cutlass.Int64(2)\nw = cutlass.Uint32(y >> 32)", [2**30 - 1]).tolist() == [2**31 - 2]
    with pytest.raises(EmulatedUB, match="Int64 overflow"):
        run(big + "y = x + cutlass.Int64(2**63 - 1)\nw = cutlass.Uint32(y)", [1])
    with pytest.raises(EmulatedUB, match="Int64 overflow"):
        run(big + "y = -x - cutlass.Int64(2**63 - 1)\nw = cutlass.Uint32(y)", [1])


def test_uint64_is_the_modular_type():
    """Int64(Uint64(a) op Uint64(b)) wraps mod 2**64 (arith.addi/subi/muli without
    overflow flags); every other use of Uint64 is unsupported rather than guessed."""
    x = "x = cutlass.Int64(q) * cutlass.Int64(2**32)\n"  # runtime, up to 2**63 - 2**32
    add = x + "y = cutlass.Int64(cutlass.Uint64(x) + cutlass.Uint64(x))\nw = cutlass.Uint32(y >> 32)"
    assert run(add, [2**31 - 1, 3]).tolist() == [u32(-2), 6]  # 2**64 - 2**33 wraps to -2**33
    m = "m = (x - x) - cutlass.Int64(2**62) - cutlass.Int64(2**62)\n"  # runtime MIN
    neg = x + m + "y = cutlass.Int64(cutlass.Uint64(0) - cutlass.Uint64(m))\n"
    assert run(neg + "w = cutlass.Uint32(y >> 32)", [1]).tolist() == [u32(-(2**31))]  # -MIN == MIN
    mul = x + "y = cutlass.Int64(cutlass.Uint64(x) * cutlass.Uint64(cutlass.Int64(3)))\nw = cutlass.Uint32(y >> 32)"
    assert run(mul, [2**31 - 1]).tolist() == [u32(((2**63 - 2**32) * 3) % 2**64 >> 32)]
    for bad in ("y = cutlass.Uint64(x) < cutlass.Uint64(x)", "y = cutlass.Uint64(x) + cutlass.Int64(1)",
                "y = cutlass.Uint64(q)", "y = -cutlass.Uint64(x)", "y = min(cutlass.Uint64(x), cutlass.Uint64(x))"):
        with pytest.raises(EmulatorUnsupported):
            run(x + bad + "\nw = cutlass.Uint32(0)", [1])


# ---------------------------------------------------------------- types


def test_promotion_rules():
    # Int32 op Int64 -> Int64 (storing it into a Uint32 tensor needs a cast)
    with pytest.raises(EmulatorUnsupported, match="Int64"):
        run("w = cutlass.Int64(q) + q", [1])
    assert run("w = cutlass.Uint32(cutlass.Int64(q) + q)", [3]).tolist() == [6]
    # a literal that does not fit in Int32 becomes Int64 (as in the DSL)
    with pytest.raises(EmulatorUnsupported, match="Int64"):
        run("w = cutlass.Uint32(q) & 0xFFFFFFFF", [1])
    # Uint32 op small literal stays Uint32
    assert run("w = cutlass.Uint32(q) | 1", [4]).tolist() == [5]
    # implicit conversion that changes a value is rejected
    with pytest.raises(EmulatedLossyConversion):
        run("c = (q - cutlass.Int32(1)) < cutlass.Uint32(5)\nw = cutlass.Uint32(c)", [0])
    with pytest.raises(EmulatedLossyConversion):
        run("w = cutlass.Uint32(q) + (-1)", [3])


def test_explicit_conversions_wrap():
    aux = (torch.tensor([2**40 + 5, -1, 2**32 - 1], dtype=torch.int64),)
    w = run("w = cutlass.Uint32(cutlass.Int32(aux_tensors[0][b]))", [0, 0, 0], b=[0, 1, 2], aux=aux)
    assert w.tolist() == [5, M32, M32]
    # Int32(Uint32) reinterprets
    w = run("x = cutlass.Int32(cutlass.Uint32(0xFFFFFFFF))\nc = x == cutlass.Int32(-1)\n"
            "w = cutlass.Uint32(c) + cutlass.Uint32(q)", [0, 7])
    assert w.tolist() == [1, 8]
    # Int32(python int) truncates like a C cast
    assert run("w = cutlass.Uint32(cutlass.Int32(2**40 + 9))", [0]).tolist() == [9]
    # Boolean(x) is x != 0
    assert run("w = cutlass.Uint32(cutlass.Boolean(q))", [0, 3]).tolist() == [0, 1]


def test_int64_aux_load_and_aux_dtypes():
    aux = (torch.tensor([10, 2**33], dtype=torch.int64),
           torch.tensor([[1, 2], [3, 4]], dtype=torch.int16),
           torch.tensor([True, False]),
           torch.tensor([200, 7], dtype=torch.uint8))
    m = word_module("""
        e = aux_tensors[0][b]
        e2 = e + q                      # Int64 + Int32 -> Int64
        hi = cutlass.Int32(e2 >> 32)
        s = aux_tensors[1][b, cutlass.Int32(1)]
        t = cutlass.Int32(aux_tensors[2][b])
        u = aux_tensors[3][b]
        w = cutlass.Uint32(hi * 1000 + cutlass.Int32(s) * 100 + t * 10) + cutlass.Uint32(u)
    """)
    n = torch.tensor
    w = m.keep_words(n([0, 1]), n([0, 0]), n([5, 5]), n([0, 0]), aux)
    assert w.tolist() == [0 * 1000 + 2 * 100 + 1 * 10 + 200, 2 * 1000 + 4 * 100 + 0 + 7]
    # the element types follow the dtypes
    assert emu._AuxTensor(aux[0], 0).dtype is emu.Int64
    assert emu._AuxTensor(aux[2], 2).dtype is emu.Boolean
    assert emu._AuxTensor(aux[3], 3).dtype is emu.Uint8


def test_unsigned_aux_loads_as_maskopt_prints_them():
    """A uint8 element read as its Int8 bits and zero-extended through Uint8
    (maskopt's print of mask.load + arith.extui) is the uint8 value; a
    uint64 element is a Uint64 whose Int64 is its bit pattern."""
    aux = (torch.tensor([0, 1, 127, 128, 200, 255], dtype=torch.uint8),
           torch.tensor([2**64 - 1, 2**63, 5], dtype=torch.uint64))
    m = word_module("""
        bits = cutlass.Int8(aux_tensors[0][b])
        x = cutlass.Int32(cutlass.Uint8(bits))
        y = cutlass.Int64(aux_tensors[1][q])
        w = cutlass.Uint32(x) + cutlass.Uint32((y >> 62) & cutlass.Int64(0xFF))
    """)
    n = torch.tensor
    w = m.keep_words(n([0, 1, 2, 3, 4, 5]), n([0] * 6), n([2, 2, 2, 0, 1, 2]), n([0] * 6), aux)
    # y >> 62 (arithmetic): 5 -> 0, 2^64 - 1 (-1) -> -1 (& 0xFF: 255), 2^63 (MIN) -> -2 (254)
    assert w.tolist() == [0, 1, 127, 128 + 255, 200 + 254, 255]
    assert emu._AuxTensor(aux[1], 1).dtype is emu.Uint64


def test_aux_index_out_of_bounds_raises():
    aux = (torch.arange(4, dtype=torch.int32),)
    with pytest.raises(EmulatedUB, match="out-of-bounds") as ei:
        run("w = cutlass.Uint32(aux_tensors[0][q - cutlass.Int32(1)])", [1, 2, 0], aux=aux)
    assert "-1" in str(ei.value)
    with pytest.raises(EmulatedUB, match="out-of-bounds"):
        run("w = cutlass.Uint32(aux_tensors[0][q])", [4], aux=aux)
    with pytest.raises(EmulatedUB, match="out-of-bounds"):
        run("w = cutlass.Uint32(aux_tensors[0][-1])", [0], aux=aux)
    # wrapped by the emitted code itself: fine
    w = run("i = q - cutlass.Int32(1)\nj = i + cutlass.Int32(4) if i < 0 else i\n"
            "w = cutlass.Uint32(aux_tensors[0][j])", [1, 0], aux=aux)
    assert w.tolist() == [0, 3]
    # an arm that is not executed may not read out of bounds on the GPU either
    w = run("w = cutlass.Uint32(aux_tensors[0][q]) if q < cutlass.Int32(4) else cutlass.Uint32(9)",
            [3, 4, 100], aux=aux)
    assert w.tolist() == [3, 9, 9]


# ---------------------------------------------------------------- shifts


def test_shl_shr_u32_by_0_to_32_and_beyond():
    q = torch.arange(0, 40)
    w = run("w = utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(q))", q)
    assert w.tolist() == [u32(M32 << s) if s < 32 else 0 for s in range(40)]
    w = run("w = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(q))", q)
    assert w.tolist() == [M32 >> s if s < 32 else 0 for s in range(40)]
    # negative amount: Uint32(-1) is huge -> clamped -> 0
    w = run("w = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(q - cutlass.Int32(1)))", [0, 1])
    assert w.tolist() == [0, M32]
    # constant amounts
    assert run("w = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(32))", [0]).tolist() == [0]
    assert run("w = utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(0))", [0]).tolist() == [M32]


def test_plain_shift_by_32_is_poison():
    body = "w = cutlass.Uint32(0xFFFFFFFF) << cutlass.Uint32(q)"
    assert run(body, torch.arange(32)).tolist() == [u32(M32 << s) for s in range(32)]
    with pytest.raises(EmulatedUB, match="poison"):
        run(body, [31, 32])
    with pytest.raises(EmulatedUB, match="poison"):
        run("w = cutlass.Uint32(0xFFFFFFFF) >> cutlass.Uint32(q)", [32])
    with pytest.raises(EmulatedUB, match="poison"):
        run("w = cutlass.Uint32(1) << 32", [0])
    with pytest.raises(EmulatedUB, match="poison"):
        run("w = cutlass.Uint32(q >> (q - cutlass.Int32(1)))", [0])
    # guarded by an IfExp: only executed elements count
    w = run("w = cutlass.Uint32(0xFFFFFFFF) << cutlass.Uint32(q) if q < cutlass.Int32(32) "
            "else cutlass.Uint32(0)", [0, 31, 32])
    assert w.tolist() == [M32, 1 << 31, 0]
    # signed >> is arithmetic, unsigned >> is logical
    w = run("w = cutlass.Uint32((q - cutlass.Int32(8)) >> 1)", [0])
    assert w.tolist() == [u32(-4)]


# ---------------------------------------------------------------- control flow


def test_ifexp_selects_per_element():
    q = torch.arange(-5, 6) + 5
    w = run("x = q - cutlass.Int32(5)\nw = cutlass.Uint32(x) if x >= 0 else cutlass.Uint32(-x + 100)", q)
    assert w.tolist() == [(v if v >= 0 else -v + 100) for v in range(-5, 6)]
    # Python int arm converted to the other arm's type
    assert run("w = cutlass.Uint32(q) if q > 2 else 7", [1, 5]).tolist() == [7, 5]
    # nested IfExp
    w = run("w = cutlass.Uint32(1) if q < 2 else (cutlass.Uint32(2) if q < 4 else cutlass.Uint32(3))",
            [0, 3, 9])
    assert w.tolist() == [1, 2, 3]
    # arm guarding an overflow
    w = run("w = cutlass.Uint32(q + cutlass.Int32(1)) if q < cutlass.Int32(2**31 - 1) else cutlass.Uint32(0)",
            [0, I32_MAX])
    assert w.tolist() == [1, 0]
    # constant condition: only the chosen arm runs
    assert run("w = cutlass.Uint32(q) if cutlass.const_expr(True) else cutlass.Uint32(q + cutlass.Int32(2**31 - 1))",
               [5]).tolist() == [5]
    with pytest.raises(EmulatorUnsupported, match="different DSL types"):
        run("w = cutlass.Uint32(q) if q > 2 else q", [1])
    # cutlass.select_ evaluates nothing lazily but selects per element
    assert run("w = cutlass.select_(q > 2, cutlass.Uint32(1), cutlass.Uint32(0))", [1, 5]).tolist() == [0, 1]


def test_boolean_logic_min_max_and_chains():
    w = run("""
        c = (q > 2) & ~(q > 6) | (q == 0)
        d = q > 1 and not q > 4
        e = 2 < q < 5
        w = cutlass.Uint32(c) | (cutlass.Uint32(d) << 1) | (cutlass.Uint32(e) << 2)
    """, [0, 2, 3, 5, 7])
    assert w.tolist() == [1, 2, 1 | 2 | 4, 1, 0]
    w = run("w = cutlass.Uint32(max(min(q - cutlass.Int32(10), cutlass.Int32(3)), cutlass.Int32(-2)) + 2)",
            [0, 9, 11, 50])
    assert w.tolist() == [0, 1, 3, 5]
    assert run("w = cutlass.Uint32(cutlass.min(q, 4) + min(3, 9))", [1, 7]).tolist() == [4, 7]


def test_uint32_min_max_with_a_constant_left_operand_compare_signed():
    # The DSL takes min/max's signedness from the left operand; a constant
    # there has none (arith.constant), so it emits max.s32/min.s32 (seen on an
    # H200; test_ptx_hazard checks the PTX). A runtime left operand: unsigned.
    big = [0, 5, 2**31 - 1]  # q + 1 reaches 2^31
    body = "w = {}"
    assert run(body.format("max(cutlass.Uint32(q) + cutlass.Uint32(1), cutlass.Uint32(77))"),
               big).tolist() == [77, 77, 2**31]
    assert run(body.format("max(cutlass.Uint32(77), cutlass.Uint32(q) + cutlass.Uint32(1))"),
               big).tolist() == [77, 77, 77]
    assert run(body.format("min(cutlass.Uint32(77), cutlass.Uint32(q) + cutlass.Uint32(1))"),
               big).tolist() == [1, 6, 2**31]
    assert run(body.format("cutlass.Uint32(max(cutlass.Int32(3), q))"), big).tolist() == [3, 5, 2**31 - 1]


def test_python_if_on_runtime_value_is_rejected():
    with pytest.raises(EmulatorUnsupported, match="if"):
        run("w = cutlass.Uint32(0)\nif q > 3:\n    w = cutlass.Uint32(1)", [1])
    # constant conditions are fine
    assert run("w = cutlass.Uint32(0)\nif cutlass.Int32(3) > 2:\n    w = cutlass.Uint32(q)", [4]).tolist() == [4]


def test_uninitialised_rmem_read_raises():
    src = HEADER.format(body="    w = cutlass.Uint32(0)", extra="").replace(
        "    packed[0] = w\n", "")
    with pytest.raises(EmulatedUB, match="uninitialised"):
        load_module(src).keep_words(torch.tensor([0]), torch.tensor([0]), torch.tensor([0]), torch.tensor([0]))


# ---------------------------------------------------------------- whole modules


CAUSAL = """\
import cutlass
import cutlass.cute as cute
from flash_attn.cute import utils


@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
    q = q_idx[0]
    kv = kv_idx[0]
    v0 = q - kv
    v1 = min(max(v0, cutlass.Int32(-1)), cutlass.Int32(31)) + cutlass.Int32(1)
    keep = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Int32(32) - v1))
    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    packed[0] = keep
    return packed.load()


mask_mod.__vec_size__ = 32
"""

PER_LANE = """\
import cutlass
import cutlass.cute as cute
from flash_attn.cute import utils


@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
    q = q_idx[0]
    word = cutlass.Uint32(0)
    for lane in cutlass.range_constexpr(32):
        kv = kv_idx[lane]
        c = cutlass.Boolean(q >= kv) & (q_idx[lane] - kv < cutlass.Int32(100))
        word = word | (cutlass.Uint32(1) << lane if c else cutlass.Uint32(0))
    packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    packed[0] = word
    return packed.load()


mask_mod.__vec_size__ = 32
"""


def _batch():
    g = torch.Generator().manual_seed(1234)
    n = 4000
    q = torch.cat([torch.randint(0, 200, (n,), generator=g),
                   I32_MAX - torch.randint(0, 64, (n,), generator=g),
                   torch.randint(0, I32_MAX, (n,), generator=g)])
    kv = torch.cat([torch.randint(0, 200, (n,), generator=g),
                    torch.zeros(n // 2, dtype=torch.int64),
                    I32_MAX - 31 - torch.randint(0, 64, (n - n // 2,), generator=g),
                    (q[2 * n:] - torch.randint(-40, 40, (n,), generator=g)).clamp(0, I32_MAX - 31)])
    return q, kv


def test_causal_module_matches_direct_computation():
    m = load_module(CAUSAL)
    q, kv = _batch()
    zeros = torch.zeros_like(q)
    w = m.keep_words(zeros, zeros, q, kv)
    lanes = torch.arange(32)
    ref = q[:, None] >= kv[:, None] + lanes
    assert torch.equal(unpack_words(w), ref)
    assert w.min() >= 0 and w.max() <= M32
    # q near 2**31-1 with kv_base = 0 keeps every lane
    sel = (q > I32_MAX - 64) & (kv == 0)
    assert sel.any() and bool((w[sel] == M32).all())
    assert torch.equal(m.keep_bits(zeros, zeros, q, kv), ref)


def test_per_lane_fallback_module():
    m = load_module(PER_LANE)
    q, kv = _batch()
    q, kv = q[::8], kv[::8]
    zeros = torch.zeros_like(q)
    w = m.keep_words(zeros, zeros, q, kv)
    kvl = kv[:, None] + torch.arange(32)
    ref = (q[:, None] >= kvl) & (q[:, None] - kvl < 100)
    assert torch.equal(unpack_words(w), ref)


def test_explicit_kv_lanes_fa4_tail_wrap():
    # FA4 passes (kv_base + L) % seqlen_k in a partial last tile when aux tensors exist:
    # the per-lane form reads kv_idx[L], so its aux reads stay in bounds.
    seqlen_k = 40
    aux = (torch.arange(seqlen_k, dtype=torch.int32) % 3,)
    m = word_module("""
        word = cutlass.Uint32(0)
        for lane in cutlass.range_constexpr(32):
            c = aux_tensors[0][kv_idx[lane]] == cutlass.Int32(0)
            word = word | (cutlass.Uint32(1) << lane if c else cutlass.Uint32(0))
        w = word
    """)
    z = torch.zeros(1, dtype=torch.int64)
    lanes = (torch.arange(32) + 32) % seqlen_k
    w = m.keep_words(z, z, z, None, aux, kv_lanes=lanes[None, :])
    assert unpack_words(w)[0].tolist() == (aux[0][lanes] == 0).tolist()
    with pytest.raises(EmulatedUB, match="out-of-bounds"):
        m.keep_words(z, z, z, torch.tensor([32]), aux)


def test_aux_scalars_parameter():
    m = word_module("s = aux_scalars[0]\nt = aux_scalars[1]\n"
                    "w = cutlass.Uint32(cutlass.Int64(q) + s) + cutlass.Uint32(t)", scalars=True)
    n = torch.tensor
    w = m.keep_words(n([1, 2]), n([0, 0]), n([3, 4]), n([0, 0]), (),
                     (emu.Int64(2**32 + 10), n([100, 200], dtype=torch.int32)))
    assert w.tolist() == [113, 214]
    # a runtime aux scalar uses runtime (truncated) % semantics
    m = word_module("w = cutlass.Uint32(aux_scalars[0] % cutlass.Int32(2))", scalars=True)
    assert m.keep_words(n([0]), n([0]), n([0]), n([0]), (), (-7,)).tolist() == [M32]


def test_missing_aux_arguments_are_named():
    """aux_tensors[i] / aux_scalars[i] the caller did not give: a ValueError
    naming the index, not the IndexError of a bare tuple."""
    n = torch.tensor
    m = word_module("w = cutlass.Uint32(aux_tensors[1][b])")
    with pytest.raises(ValueError, match=r"reads aux_tensors\[1\], but 1 aux tensor was given"):
        m.keep_words(n([0]), n([0]), n([0]), n([0]), (n([1]),))
    assert m.keep_words(n([0]), n([0]), n([0]), n([0]), (n([1]), n([7]))).tolist() == [7]
    m = word_module("w = cutlass.Uint32(aux_scalars[0])", scalars=True)
    with pytest.raises(ValueError, match=r"reads aux_scalars\[0\], but 0 aux scalars were given"):
        m.keep_words(n([0]), n([0]), n([0]), n([0]))
    # Known aux tensors: the default, and a count check naming the missing one.
    src = HEADER.format(body="    w = cutlass.Uint32(aux_tensors[0][b])", extra="")
    m = load_module(src, aux_tensors=[n([5, 6])])
    assert m.keep_words(n([0, 1]), n([0, 0]), n([0, 0]), n([0, 0])).tolist() == [5, 6]
    with pytest.raises(ValueError, match=r"aux_tensors\[0\] \(torch.int64 \(2,\)\) is missing"):
        m.keep_words(n([0]), n([0]), n([0]), n([0]), ())


def test_imports_are_sandboxed():
    before = {k: sys.modules.get(k) for k in ("cutlass", "cutlass.cute", "flash_attn.cute.utils")}
    m = load_module(CAUSAL)
    assert {k: sys.modules.get(k) for k in before} == before
    assert m.vec_size == 32 and "__emu_" not in m.source
    with pytest.raises(ImportError):
        load_module("import cutlass.pipeline\n")


def test_batch_speed():
    import time
    m = load_module(PER_LANE)
    n = 10_000
    q = torch.randint(0, 10_000, (n,))
    kv = torch.randint(0, 10_000, (n,))
    t0 = time.perf_counter()
    m.keep_words(torch.zeros(n, dtype=torch.int64), torch.zeros(n, dtype=torch.int64), q, kv)
    assert time.perf_counter() - t0 < 1.0
