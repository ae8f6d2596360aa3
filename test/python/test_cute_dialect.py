"""
The `cute` dialect's interpreter semantics (`maskopt.dialects.semantics`)
against plain Python models of the CuTe expressions and PTX helpers the
target prints for each op, at the edges (amounts 0, 31, 32, negative; widths
past bit 31; positions >= 32).
"""

import pytest

import maskopt
from maskopt.dialects import semantics

M = (1 << 32) - 1


def _words(body: str, q, kv, h=None):
    """Keep words of a packed function over (q, kv) with `body` computing %w : ui32."""
    text = f"""
mask.func @f window {{
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
{body}
  %s = cute.lanes %w
  %k = interval.keep_word %s : i32
  mask.yield %k : i32
}}"""
    module = maskopt.parse_mlir(text)
    module.verify()
    n = len(q)
    z = [0] * n
    return semantics.keep_words(module.ops.first, z, z if h is None else h, q, kv).tolist()


def _range_of(op: str, lo: int, hi: int):
    """The value range of `op` (its operand `%y`: q - kv clamped to [lo, hi])."""
    from maskopt.passes.analysis import ValueRanges

    module = maskopt.parse_mlir(f"""
mask.func @f window {{
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lo = arith.constant {lo} : i32
  %hi = arith.constant {hi} : i32
  %d = arith.subi %q, %kv : i32
  %x = arith.maxsi %d, %lo : i32
  %y = arith.minsi %x, %hi : i32
  %r = {op}
  mask.yield %r : i32
}}""")
    func = module.ops.first
    return ValueRanges(func).of(func.yield_op.value)


def _shr(w, a):
    a %= 1 << 32
    return 0 if a >= 32 else w >> a


def _shl(w, a):
    a %= 1 << 32
    return 0 if a >= 32 else (w << a) & M


def _bmsk(pos, width):
    if pos >= 32:
        return 0
    top = min(pos + min(width, 32), 32)
    return ((1 << top) - 1) & ~((1 << pos) - 1)


AMOUNTS = [0, 1, 5, 31, 32, 33, 1000, -1, -32, 2**31 - 1, -(2**31)]


def test_shifts_by_an_amount():
    body = """
  %ones = cute.constant 4294967295 : ui32
  %r = cute.shr_u32 %ones, %q : i32
  %l = cute.shl_u32 %ones, %kv : i32
  %w = cute.and %r, %l : ui32"""
    q = AMOUNTS
    kv = list(reversed(AMOUNTS))
    assert _words(body, q, kv) == [_shr(M, a) & _shl(M, b) for a, b in zip(q, kv)]


def test_bmsk_of_unsigned_operands():
    body = """
  %p = cute.to_u32 %q : i32
  %wd = cute.to_u32 %kv : i32
  %w = cute.bmsk %p, %wd"""
    pos = [0, 0, 3, 31, 32, 40, 5, 0, 2**31, 7]
    width = [0, 40, 4, 1, 1, 0, 2**31 - 1, 32, 3, 2**31 + 5]
    q = [p - (1 << 32) if p >= 2**31 else p for p in pos]
    kv = [w - (1 << 32) if w >= 2**31 else w for w in width]
    assert _words(body, q, kv) == [_bmsk(p, w) for p, w in zip(pos, width)]


def test_high_word_of_a_64_bit_shift():
    """cute.shl_hi64: hi32(zext(word) << amount), 0 for amounts >= 64 (the
    amount unsigned, so a negative i32 is one of those)."""
    body = """
  %wd = cute.to_u32 %q : i32
  %a = cute.to_u32 %kv : i32
  %w = cute.shl_hi64 %wd, %a : ui32"""
    words = [0x1FF, M, 1, 0x80000001, 0x1FF, M, 0x1FF, 0x1FF, 1, 0x1FF, M]
    amounts = [24, 32, 63, 1, 0, 64, 65, 40, 32, -1, 2**31]
    q = [w - (1 << 32) if w >= 2**31 else w for w in words]
    want = [0 if a % 2**32 >= 64 else ((w << (a % 2**32)) >> 32) & M for w, a in zip(words, amounts)]
    assert want[:5] == [1, M, 1 << 31, 1, 0]
    assert _words(body, q, amounts) == want


def test_unsigned_arithmetic_and_saturation():
    # max(Uint32(q) + 7, Uint32(kv)) - Uint32(kv) as a bmsk width; sat_u32 of an i64
    body = """
  %c7 = cute.constant 7 : ui32
  %qu = cute.to_u32 %q : i32
  %ku = cute.to_u32 %kv : i32
  %t = cute.add %qu, %c7 : ui32
  %m = cute.max %t, %ku : ui32
  %d = cute.sub %m, %ku : ui32
  %x = arith.extsi %h : i32 to i64
  %big = arith.constant 4294967300 : i64
  %y = arith.addi %x, %big : i64
  %sat = cute.sat_u32 %y
  %zero = cute.constant 0 : ui32
  %w1 = cute.bmsk %zero, %d
  %w2 = cute.shr_u32 %w1, %sat : ui32
  %w = cute.and %w1, %w1 : ui32"""
    q = [0, 10, 2**31 - 1, 5]
    kv = [0, 12, 2**31 - 1, 3]
    want = [_bmsk(0, max(a + 7, b) - b) for a, b in zip(q, kv)]
    assert _words(body, q, kv, h=[0, 1, 2, 3]) == want


@pytest.mark.parametrize(
    "hi,lo",
    [(0, 0), (0, 2**31 - 1), (0, 2**31), (-1, 2**31), (-1, 2**31 - 1), (-1, 2**32 - 1), (1, 0),
     (-2, 2**32 - 1), (2**31 - 1, 2**32 - 1), (-(2**31), 0), (256, 5)],
)
def test_saturation_to_i32(hi, lo):
    """cute.sat_i32 of the i64 value hi * 2^32 + lo (q = hi, kv = lo as a
    Uint32): the value where it fits i32, else -2^31 or 2^31 - 1 by its sign."""
    body = """
  %q64 = arith.extsi %q : i32 to i64
  %c = arith.constant 4294967296 : i64
  %top = arith.muli %q64, %c : i64
  %kv64 = arith.extui %kv : i32 to i64
  %x = arith.addi %top, %kv64 : i64
  %sat = cute.sat_i32 %x
  %w = cute.to_u32 %sat : i32"""
    x = hi * 2**32 + lo
    want = min(max(x, -(2**31)), 2**31 - 1) % (1 << 32)
    assert _words(body, [hi], [lo - (1 << 32) if lo >= 2**31 else lo]) == [want]


@pytest.mark.parametrize("x", [0, 1, -1, 77, 2**31 - 1, -(2**31)])
def test_wrapping_negation(x):
    body = """
  %n = cute.neg_i32 %q
  %m = cute.min %n, %kv : i32
  %zero = cute.constant 0 : ui32
  %mu = cute.to_u32 %n : i32
  %w = cute.shl_u32 %mu, %zero : ui32"""
    neg = -x if x != -(2**31) else x
    assert _words(body, [x], [0]) == [neg % (1 << 32)]


def test_signed_and_unsigned_max_differ():
    body = """
  %c = cute.constant 5 : i32
  %smax = cute.max %q, %c : i32
  %qu = cute.to_u32 %q : i32
  %cu = cute.constant 5 : ui32
  %u = cute.max %qu, %cu : ui32
  %su = cute.to_u32 %smax : i32
  %w = cute.sub %u, %su : ui32"""
    # q = -1: signed max is 5, unsigned max is 0xFFFFFFFF
    assert _words(body, [-1, 3, 9], [0, 0, 0]) == [M - 5, 0, 0]



def test_unsigned_division_reads_the_bits_unsigned():
    """`arith.divui` / `arith.remui` (interval-to-cute's `UnsignedDivision`)
    divide the operands' bits as unsigned (-1 is 2^32 - 1), the result's
    bits read back as i32."""
    body = """
  %d = arith.divui %q, %kv : i32
  %r = arith.remui %q, %kv : i32
  %c16 = arith.constant 16 : i32
  %dh = arith.shli %d, %c16 : i32
  %x = arith.ori %dh, %r : i32
  %w = cute.to_u32 %x : i32"""
    q = [0, 7, 100, 2**31 - 1, -1, -(2**31), 65535]
    kv = [1, 3, 7, 2**31 - 1, 2**16 + 1, 2**16, 256]
    want = []
    for a, b in zip(q, kv):
        ua, ub = a % (1 << 32), b % (1 << 32)
        want.append((((ua // ub) << 16) | (ua % ub)) & M)
    assert _words(body, q, kv) == want


def test_wrap_index_moves_only_negative_indices():
    """`cute.wrap_index` (interval-to-cute's `WrapNegativeIndex`) adds the
    size below 0 and nowhere else (torch's indexing; an index below -size
    stays negative: torch raises there). Its value range is that of the
    values it can give."""
    from maskopt.passes.analysis import Range

    body = """
  %i = cute.wrap_index %q by 8 : i32
  %w = cute.to_u32 %i : i32"""
    q = [-1, -8, 0, 5, 7, -9, 2**31 - 1, -(2**31)]
    want = [(x + 8 if x < 0 else x) & M for x in q]
    assert _words(body, q, [0] * len(q)) == want

    def wrapped_range(lo: int, hi: int, size: int) -> Range:
        return _range_of(f"cute.wrap_index %y by {size} : i32", lo, hi)

    assert wrapped_range(-3, -1, 8) == Range(5, 7)
    assert wrapped_range(0, 20, 8) == Range(0, 20)
    assert wrapped_range(-3, 2, 8) == Range(0, 7)
    assert wrapped_range(-20, 30, 8) == Range(-12, 30)


def test_safe_divisor_replaces_only_undefined_divisors():
    """`cute.safe_divisor` (interval-to-cute's `GuardDivisor`) is 1 where the
    divisor is 0 and, with `or_minus_one`, -1; elsewhere the divisor. Its
    value range leaves the replaced values out of the ends."""
    from maskopt.passes.analysis import Range

    body = """
  %d = arith.subi %q, %kv : i32
  %g = cute.safe_divisor %d : i32
  %g1 = cute.safe_divisor %d or_minus_one : i32
  %p = arith.muli %g, %g1 : i32
  %w = cute.to_u32 %p : i32"""
    q = [0, 5, 0, 9, 2**31 - 1, 3]
    kv = [0, 6, 7, 2, 0, 5]

    def safe(d, bad):
        return 1 if d in bad else d

    want = [(safe(x - y, (0,)) * safe(x - y, (0, -1))) & M for x, y in zip(q, kv)]
    assert _words(body, q, kv) == want

    def guarded(lo: int, hi: int, minus_one: bool) -> Range:
        flag = " or_minus_one" if minus_one else ""
        return _range_of(f"cute.safe_divisor %y{flag} : i32", lo, hi)

    assert guarded(0, 9, False) == Range(1, 9)
    assert guarded(-1, 9, False) == Range(-1, 9)
    assert guarded(-1, 9, True) == Range(1, 9)
    assert guarded(-4, 0, False) == Range(-4, 1)
    assert guarded(-4, 0, True) == Range(-4, 1)
    assert guarded(0, 0, False) == Range(1, 1)
    assert guarded(-1, 0, True) == Range(1, 1)
    assert guarded(-9, -2, True) == Range(-9, -2)


def test_floor_rem_corrects_the_truncated_remainder_by_the_divisor_sign():
    """`cute.floor_rem` (interval-to-cute's `LowerFloorRemainder`) is Python's
    floor remainder for a divisor of the sign it states, from C's
    truncating one."""
    body = """
  %c5 = arith.constant 5 : i32
  %cm3 = arith.constant -3 : i32
  %d = arith.subi %q, %kv : i32
  %p = cute.floor_rem %d, %c5 : i32
  %n = cute.floor_rem %d, %cm3 negative : i32
  %c16 = arith.constant 16 : i32
  %hi = arith.shli %n, %c16 : i32
  %x = arith.xori %p, %hi : i32
  %w = cute.to_u32 %x : i32"""
    q = [0, 7, 0, 3, 2**31 - 1, 10, 0]
    kv = [0, 0, 7, 10, 0, 10, 2**31 - 32]
    want = [(((x - y) % 5) ^ (((x - y) % -3) << 16)) & M for x, y in zip(q, kv)]
    assert _words(body, q, kv) == want


def test_lowered_floor_remainders_and_guarded_divisors_match_torch():
    """A mask of floor remainders by a negative constant and by an aux value
    of either sign (guarded, kept a `mask.floormod`): the compiled module's
    words are eager torch's."""
    import torch

    w = torch.tensor([0, -1, 3, -7, 5], dtype=torch.int32)

    def mask_mod(b, h, q_idx, kv_idx):
        return ((q_idx - kv_idx) % -3 == -1) | ((kv_idx % w[h]) == 1)

    r = maskopt.compile_mask(mask_mod)
    ir = str(r.cute_module)
    assert "cute.floor_rem" in ir and "negative" in ir and "cute.safe_divisor" in ir and "mask.floormod" in ir
    points = [(0, h, q, kv) for h in (1, 2, 3, 4) for q in (0, 31, 100, 2**31 - 1) for kv in (0, 64, 96, 2**31 - 32)]
    b, hh, qq, kk = (torch.tensor(c, dtype=torch.int32) for c in zip(*points))
    words = r.emulate().keep_words(b, hh, qq, kk)
    want = []
    for _, h, q, kv in points:
        idx = [torch.tensor(x, dtype=torch.int32) for x in (0, h, q)]
        want.append(sum(1 << lane for lane in range(32) if bool(mask_mod(*idx, torch.tensor(kv + lane, dtype=torch.int32)))))
    assert words.tolist() == want


def test_wrapping_ops_wrap_like_torch():
    """`cute.add_wrap`, `sub_wrap`, `mul_wrap` and `floordiv_wrap`
    (interval-to-cute's `LowerWrappingArithmetic`) give torch's int32 and
    int64 results where the exact one leaves the type, MIN // -1 included."""
    import torch

    q = [2**31 - 1, 2**31 - 1, 0, 5, 2**31 - 32, 123456]
    kv = [2**31 - 1, 1, 0, 7, 2**31 - 32, 98765]
    body = """
  %a = cute.add_wrap %q, %kv : i32
  %p = cute.mul_wrap %q, %kv : i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %sb = cute.sub_wrap %min, %kv : i32
  %f = cute.floordiv_wrap %min, %m1 : i32
  %q64 = arith.extsi %q : i32 to i64
  %kv64 = arith.extsi %kv : i32 to i64
  %big = arith.constant 4611686018427387904 : i64
  %qb = arith.muli %q64, %big : i64
  %pw = cute.mul_wrap %qb, %kv64 : i64
  %lo = arith.constant -9223372036854775808 : i64
  %mm1 = arith.constant -1 : i64
  %fw = cute.floordiv_wrap %lo, %mm1 : i64
  %fw2 = cute.floordiv_wrap %pw, %big : i64
  %x0 = arith.xori %pw, %fw : i64
  %x1 = arith.xori %x0, %fw2 : i64
  %x32 = arith.trunci %x1 : i64 to i32
  %y0 = arith.xori %a, %p : i32
  %y1 = arith.xori %y0, %sb : i32
  %y2 = arith.xori %y1, %f : i32
  %y = arith.xori %y2, %x32 : i32
  %w = cute.to_u32 %y : i32"""
    i32, i64 = torch.int32, torch.int64
    want = []
    for x, y in zip(q, kv):
        tq, tk = torch.tensor(x, dtype=i32), torch.tensor(y, dtype=i32)
        mn = torch.tensor(-(2**31), dtype=i32)
        r32 = (tq + tk) ^ (tq * tk) ^ (mn - tk) ^ torch.div(mn, torch.tensor(-1, dtype=i32), rounding_mode="floor")
        pw = tq.to(i64) * torch.tensor(2**62, dtype=i64) * tk.to(i64)
        lo = torch.tensor(-(2**63), dtype=i64)
        r64 = pw ^ lo ^ torch.div(pw, torch.tensor(2**62, dtype=i64), rounding_mode="floor")
        want.append(int((r32 ^ r64.to(i32)).item()) & M)
    assert _words(body, q, kv) == want


@pytest.mark.parametrize("y", ["kv", "q"])
def test_guarded_prefix_shifts_match_the_interval_ir(y):
    """fold-intervals' guarded prefix [0, min(max(X, -1) - y, 31) + 1) whose
    width may pass 2^31 - 1 (X = h + 768, wrapping like torch's int32): for
    y = kv `interval-to-cute` writes the shift amount max(y + C, -1) + 1
    (`offset_max_prefix`), for the wider y = q the unsigned offset form
    (`unsigned_offset_prefix`). Both lowered functions, interpreted and
    printed (CPU emulator, which fails on any overflow), keep the words of
    the interval IR at the ends of the ranges of h, q and kv."""
    import itertools
    import io

    import torch

    from maskopt.lowering.cute import CuteTarget
    from maskopt.lowering.cute_emulator import load_module
    from maskopt.lowering.interval_to_cute import lower_to_cute

    text = f"""
mask.func @f window {{
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.constant 768 : i32
  %h64 = arith.extsi %h : i32 to i64
  %c64 = arith.extsi %c : i32 to i64
  %s = arith.addi %h64, %c64 : i64
  %x = arith.trunci %s : i64 to i32
  %m1 = arith.constant -1 : i32
  %xc = arith.maxsi %x, %m1 : i32
  %d = arith.subi %xc, %{y} : i32
  %c31 = arith.constant 31 : i32
  %dm = arith.minsi %d, %c31 : i32
  %one = arith.constant 1 : i32
  %hi = arith.addi %dm, %one : i32
  %zero = arith.constant 0 : i32
  %r = interval.range %zero, %hi : i32
  %k = interval.keep_word %r : i32
  mask.yield %k : i32
}}"""
    top = 2**31 - 1
    hs = [0, 5, top - 769, top - 768, top - 767, top]
    qs = [0, 1, 800, 2**30, top - 32, top]
    kvs = [0, 1, 31, 700, 2**30, top - 63, top - 31]
    pts = list(itertools.product(hs, qs, kvs))
    h, q, kv = ([p[i] for p in pts] for i in range(3))
    z = [0] * len(pts)
    module = maskopt.parse_mlir(text)
    want = semantics.keep_words(module.ops.first, z, h, q, kv).tolist()
    assert any(want) and not all(want)
    lower_to_cute(module.ops.first)
    ir = str(module)
    form = "cute.constant 2147483616 : ui32" if y == "q" else "cute.constant 30 : i32"
    assert form in ir and "interval.range" not in ir
    assert semantics.keep_words(module.ops.first, z, h, q, kv).tolist() == want
    out = io.StringIO()
    CuteTarget().emit(None, module, out)
    t = lambda v: torch.tensor(v, dtype=torch.int32)  # noqa: E731
    assert load_module(out.getvalue()).keep_words(t(z), t(h), t(q), t(kv)).tolist() == want
