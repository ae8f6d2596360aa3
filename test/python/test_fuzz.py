"""Grammar fuzzing (maskopt.tools.fuzz): random mask_mods, emitted words == eager torch.

The hypothesis test is bounded (derandomized, 600 masks, ~30 s on two cores);
longer campaigns: ``python -m maskopt.tools.fuzz --masks 5000 --seed 2 --shrink``
(figures in test/fuzz-results.md).  Cases of ``fuzz.KNOWN_BUGS`` (unfixed
compiler bugs the fuzzer found; none now) are not generated; give each an
xfail reproducer here.  The bugs found so far are fixed and their
reproducers are the regression tests ``test_fixed_fuzzer_bug``.
"""

import random
import warnings

import pytest
import torch
from hypothesis import HealthCheck, given, settings

import maskopt
from maskopt.tools import corpus, fuzz

warnings.filterwarnings("ignore", message=".*NumPy.*")

I32_MAX = 2**31 - 1

FUZZ_EXAMPLES = 600


def assert_exact(o: fuzz.FuzzOutcome, what: str) -> None:
    detail = f"{o.describe()}\n{what}"
    assert o.invalid is None, detail
    assert o.compile_error is None, detail
    assert o.ub is None, detail
    assert o.emulator_error is None, detail
    assert o.mismatches == 0, detail
    if not o.packed:
        assert o.reason, detail


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(fuzz.masks())
def test_fuzzed_masks_match_eager_torch(m):
    """Compile, emulate (exact CuTe semantics, overflow is an error), compare with eager torch."""
    assert not m.known_bug_cases
    o = fuzz.check(m, n_rows=3)
    assert_exact(o, m.source)


# ---------------------------------------------------------------- explicit regression masks


def _check(fn, shape=(3, 2, 64, 64), consts=(), **kw):
    pts = fuzz.box_points(shape, consts=set(consts), **kw)
    return fuzz.check_mask(fn, pts)


def test_sub_alpha():
    def sub_alpha(b, h, q_idx, kv_idx):
        return torch.sub(q_idx, kv_idx, alpha=2) >= 0

    o = _check(sub_alpha, consts=(0, 2))
    assert_exact(o, "torch.sub(q_idx, kv_idx, alpha=2) >= 0")


def test_int32_max_window_with_causal():
    def no_window(b, h, q_idx, kv_idx):
        return ((q_idx - kv_idx) <= 2**31 - 1) & (q_idx >= kv_idx)

    o = _check(no_window, consts=(I32_MAX,))
    assert_exact(o, "(q - kv) <= 2**31 - 1 & causal")
    assert o.packed


def test_negative_divisor_mod_in_aux_index():
    aux = torch.tensor([3, 40, 2**31 - 1, -7, 17], dtype=torch.int32)

    def neg_mod(b, h, q_idx, kv_idx):
        return (kv_idx <= aux[q_idx % -5]) & (q_idx >= kv_idx)

    o = _check(neg_mod, consts=(-5, 40, 17, 3))  # q % -5 is in (-5, 0]: large q is fine too
    assert_exact(o, "kv <= aux[q % -5]")


def test_int32_window_sentinel_in_aux():
    win = torch.tensor([2**31 - 1, 0, 17], dtype=torch.int32)

    def per_batch_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win[b]) & (q_idx >= kv_idx)

    o = _check(per_batch_window, consts=(0, 17), uses_b=True)
    assert_exact(o, "q - kv <= win[b], win[0] = 2**31 - 1")
    assert o.packed


@pytest.mark.parametrize("d", [-1, -2, -7, -96, -(2**31)])
def test_floor_division_by_negative_constant(d):
    def chunked(b, h, q_idx, kv_idx):
        return (kv_idx // d == q_idx // d) & (q_idx - kv_idx < 200)

    assert_exact(_check(chunked, consts=(d, 200)), f"kv // {d} == q // {d}")


def test_int64_constant_index_load_vs_vmap():
    """torch.vmap alone computes `t[0] >= q_idx` in int32 when t[0] is an unbatched 0-dim
    int64 (2**31 -> -2**31); corpus.reference_words promotes like eager 0-dim tensors, so it
    agrees with the scalar loop (the oracle), and the fuzzer compares with it directly."""
    t = torch.tensor([2**31, 5], dtype=torch.int64)
    s = torch.tensor(2**40, dtype=torch.int64)

    def big_bound(b, h, q_idx, kv_idx):
        return (t[0] >= q_idx) & (kv_idx <= q_idx)

    def captured_scalar(b, h, q_idx, kv_idx):
        return big_bound(b, h, q_idx, kv_idx) & (torch.where(q_idx > 3, s, t[1]) + q_idx > 2**31)

    z = torch.zeros(3, dtype=torch.int32)
    q = torch.tensor([0, 5, 40], dtype=torch.int32)
    for fn, words in ((big_bound, [1, 63, 2**32 - 1]), (captured_scalar, [0, 63, 2**32 - 1])):
        assert not torch.vmap(fn)(z, z, q, z).any()  # the torch.vmap promotion bug
        slow = corpus.reference_words_slow(fn, z, z, q, z)
        assert slow.tolist() == words
        assert corpus.reference_words(fn, z, z, q, z).tolist() == words
    o = _check(big_bound, consts=(2**31,))
    assert_exact(o, "t[0] >= q with t[0] = 2**31 (int64)")


def test_huge_offset_with_int64_uniform_part_packs():
    """`kv < 4 * s + 9e9`: the uniform part kv_base - 4 * s is i64 and the bound's offset
    is beyond i32; fold-intervals clamps u to the 32-wide window, subtracts the window
    start in i64 and truncates (it used to truncate first, and then refused to pack)."""
    s = torch.tensor([0, -(2**31), 2**31 - 1, -(2**31) + 5, -(2**31) + 2**28], dtype=torch.int32)

    def huge(b, h, q_idx, kv_idx):
        return kv_idx < 4 * s[b].to(torch.int64) + 9_000_000_000

    edge = 9_000_000_000 - 2**33  # the bound at s = -2**31
    o = _check(huge, shape=(5, 2, 64, 64), consts=(0, edge, edge + 20, edge + 2**30), uses_b=True)
    assert_exact(o, "kv < 4 * s + 9e9")
    assert o.packed


def test_per_lane_gather_is_exact():
    doc = torch.tensor([i // 37 for i in range(64 + 32)], dtype=torch.int32)

    def doc_mask(b, h, q_idx, kv_idx):
        return doc[kv_idx] == doc[q_idx]

    o = _check(doc_mask, raw_q=True, raw_kv=True)
    assert_exact(o, "doc[kv] == doc[q]")
    assert not o.packed


# ---------------------------------------------------------------- bugs the fuzzer found (fixed)

_BIG64 = torch.tensor([2**63 - 1], dtype=torch.int64)


def _fold_floordiv(b, h, q_idx, kv_idx):
    return (q_idx * 0) // 7 == 0


def _fold_fmod(b, h, q_idx, kv_idx):
    return kv_idx > torch.fmod(torch.where(q_idx <= q_idx, -31, kv_idx), -7)


def _fold_shr(b, h, q_idx, kv_idx):
    return ((kv_idx % -1) >> 1) != q_idx


def _i64_wrap(b, h, q_idx, kv_idx):
    return _BIG64[0] + 1 > kv_idx


def _shl_overflow(b, h, q_idx, kv_idx):
    return (q_idx << 1) > 5


_SMALL64 = torch.tensor([5, -3], dtype=torch.int64)
_MIN32 = torch.tensor([0, -(2**31), 7], dtype=torch.int32)


def _fmod_neg1(b, h, q_idx, kv_idx):
    return torch.fmod(_MIN32[b], -1) == 0


def _i64_divcmp_const(b, h, q_idx, kv_idx):
    return (kv_idx.to(torch.int64) // 2) <= 2**62


def _i64_cmp_offset(b, h, q_idx, kv_idx):
    return kv_idx.to(torch.int64) >= -(2**63)


def _i64_floordiv_neg1(b, h, q_idx, kv_idx):
    return q_idx >= _SMALL64[0] // -1


def _wrapped_sum_vs_negation(b, h, q_idx, kv_idx):
    # kv + L + 2 wraps at the top: lane-affine's wrapped branch has the
    # constant 2 - 2^32, which fold-intervals must not emit as an i32 constant
    return (kv_idx + 2) < (q_idx // (-1))


@pytest.mark.parametrize(
    "name,fn,packs",
    [("wrapped-sum-i32-const", _wrapped_sum_vs_negation, True),
     ("fold-const", _fold_floordiv, True), ("fold-const", _fold_fmod, True), ("fold-const", _fold_shr, None),
     ("i64-wrap", _i64_wrap, False), ("shl-overflow", _shl_overflow, True),
     ("i64-floordiv-neg1", _i64_floordiv_neg1, None), ("fmod-neg1", _fmod_neg1, True),
     ("i64-divcmp-const", _i64_divcmp_const, True), ("i64-cmp-offset", _i64_cmp_offset, True)],
)
def test_fixed_fuzzer_bug(name, fn, packs):
    """Former ``fuzz.KNOWN_BUGS`` entries: exact now (packed where ``packs`` says so)."""
    assert name not in fuzz.KNOWN_BUGS
    o = _check(fn, consts=(0, 1, 5, 7), uses_b=True)
    assert_exact(o, name)
    if packs is not None:
        assert o.packed == packs, o.describe()


_MIN64 = torch.tensor([-(2**63), 5, 2**63 - 1], dtype=torch.int64)
_DIV64 = torch.tensor([-1, 3], dtype=torch.int64)
_DIV32 = torch.tensor([-1, 3], dtype=torch.int32)


def _i64_wrap_mul(b, h, q_idx, kv_idx):
    return _MIN64[b] * 3 - 7 > kv_idx


def _i64_floordiv_runtime_neg1(b, h, q_idx, kv_idx):
    return _MIN64[b] // _DIV64[h] > kv_idx


def _fmod_runtime_neg1(b, h, q_idx, kv_idx):
    return (torch.fmod(_MIN32[b], _DIV32[h]) == 0) & (kv_idx <= q_idx)


def _remainder_runtime_neg1(b, h, q_idx, kv_idx):
    return (_MIN32[b] % _DIV32[h]) + q_idx >= kv_idx


@pytest.mark.parametrize(
    "fn", [_i64_wrap_mul, _i64_floordiv_runtime_neg1, _fmod_runtime_neg1, _remainder_runtime_neg1]
)
def test_wrapping_int64_and_division_by_runtime_minus_one(fn):
    """MIN / -1 with a runtime divisor, and int64 ops that wrap (torch wraps; the emitted
    code may not overflow): the per-lane loop computes them in Uint64 or divides by 1."""
    o = _check(fn, shape=(3, 2, 64, 64), consts=(0, 1, 5, 7), uses_b=True, uses_h=True)
    assert_exact(o, fn.__name__)


# ---------------------------------------------------------------- the fuzzer itself


def test_generator_avoids_known_bugs_and_source_is_the_mask():
    """The printed source is an exact reproducer; known-bug cases are not generated by default."""
    rng = random.Random(7)
    for i in range(40):
        m = fuzz.random_mask(rng.randrange(10**9))
        assert not m.known_bug_cases, m.source
        ns: dict = {}
        exec(compile(m.source, "<repro>", "exec"), ns)  # noqa: S102
        pts = fuzz.sample_points(m, n_rows=1, big=False)
        pts = tuple(p[:64] for p in pts)
        assert torch.equal(corpus.reference_words(ns["mask_mod"], *pts), corpus.reference_words(m.mask_mod, *pts))
    if fuzz.KNOWN_BUGS:
        flagged = sum(bool(fuzz.random_mask(i, known_bugs=True).known_bug_cases) for i in range(300))
        assert flagged > 0  # the opt-in generator does produce them


def test_cli_smoke(capsys):
    assert fuzz.main(["--masks", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "masks 4" in out and "pack rate" in out


def test_bitwise_kv_forms_are_generated_and_pack_as_tables():
    """The grammar's bitwise kv forms (``kv_bits``) reach the compiler; the
    masks built on them are exact, and some pack as `interval.table` sets."""
    import maskopt

    forms = ("(kv_idx & ", "((kv_idx >> ", "(kv_idx | ", "((kv_idx ^ ", "((kv_idx // ",
             "(kv_idx & 0x55555555)", "((kv_idx << ")
    seen, tables = 0, 0
    for seed in range(400):
        m = fuzz.random_mask(seed, depth=1)
        if not any(f in m.source for f in forms):
            continue
        seen += 1
        o = fuzz.check(m, n_rows=2)
        assert_exact(o, m.source)
        if o.packed:
            tables += "interval.table" in str(maskopt.compile_mask(m.mask_mod).module)
        if seen >= 12:
            break
    assert seen >= 12 and tables >= 1, (seen, tables)


def _huge_divisor_split(b, h, q_idx, kv_idx):
    return torch.fmod(kv_idx.to(torch.int64), 2**32) == q_idx


def test_split_by_a_divisor_wider_than_the_materialized_type():
    """Fuzzer seed 12, mask 3076: lane-affine split `kv % 2**32` over an i32 form
    and built an i32 constant 2**32 (a crash). The split is skipped now; exact."""
    o = _check(_huge_divisor_split, consts=(0, 1, 2**31 - 32))
    assert o.compile_error is None, o.describe()
    assert_exact(o, "fmod by 2**32")


def _bound_without_plan(b, h, q_idx, kv_idx):
    return (kv_idx // (2**31 - 1)) >= (q_idx + (-1))


def test_lane_bound_without_an_overflow_free_form_does_not_pack():
    """Found by test_bitwise_kv_forms_are_generated_and_pack_as_tables (also on
    main): with max-intervals=4, the bound of kv - q * (2**31 - 1) had no form
    free of overflow and fold-intervals crashed (min of no plans); it is a
    reason now, and the per-lane word is exact."""
    pts = fuzz.box_points((1, 1, 64, 64), consts={0, 1, 2, 2**31 - 1})
    o = fuzz.check_mask(_bound_without_plan, pts, max_intervals=4)
    assert_exact(o, "kv // (2**31 - 1) >= q - 1")
    assert not o.packed and "cannot be computed without overflow" in o.reason


_WIDE64 = torch.tensor([[-(2**63), 5, -(2**62), 2**63 - 1]], dtype=torch.int64)


def _wide_atom_far_offset(b, h, q_idx, kv_idx):
    return kv_idx > torch.minimum(q_idx, _WIDE64[b, q_idx]) + (2**40 + 7)


def test_wide_atom_clamp_accounts_for_the_lane_cmp_offset():
    """Fuzzer seed 12, mask 8381 (a MISCOMPILE): lane-affine clamped a too-wide
    int64 atom to +-2**40 without the lane_cmp's own constant -(2**40 + 7), so
    min(q, MIN64) became -2**40 and kv > -2**40 + 2**40 + 7 dropped 8 lanes.
    The clamp now lies beyond the offset too."""
    o = _check(_wide_atom_far_offset, shape=(1, 2, 4, 300), raw_q=True, uses_b=True, consts=(0, 7))
    assert_exact(o, "wide atom, far offset")
    assert o.packed, o.describe()


# ---------------------------------------------------------------- the inductor drop-in


def _window(b, h, q_idx, kv_idx):
    return (kv_idx <= q_idx) & (q_idx - kv_idx <= 40)


def test_check_mask_checks_the_dropin_kernel():
    o = _check(_window, consts=(0, 40))
    assert o.ok and o.packed and o.dropin is True, o.describe()


def test_check_mask_finds_a_wrong_dropin_kernel(monkeypatch):
    """A drop-in kernel whose q has its low bit flipped is a dropin_mismatch; one that
    prints a bare negation is a bare_negation failure (the emulator cannot see
    the ptxas miscompile, so the text is checked)."""
    from maskopt.tools import flash_template

    real = flash_template.dropin_module

    def mutated(old, new):
        def dropin_module(fn, **kw):
            d = real(fn, **kw)
            assert old in d.source
            return flash_template.DropinModule(d.source.replace(old, new), d.aux_tensors, d.elements)

        return dropin_module

    monkeypatch.setattr(flash_template, "dropin_module", mutated("q_idx[0]", "(q_idx[0] ^ cutlass.Int32(1))"))
    o = _check(_window, consts=(0, 40))
    assert o.kind == "dropin_mismatch" and o.dropin_mismatches > 0 and not o.ok
    monkeypatch.setattr(
        flash_template, "dropin_module", mutated("kv_idx[0]", "(cutlass.Int32(0) - (cutlass.Int32(0) - kv_idx[0]))")
    )
    o = _check(_window, consts=(0, 40))
    assert o.kind == "bare_negation" and o.bare_negation == "drop-in kernel" and not o.ok


# ---------------------------------------------------------------- issue 18's productions


def _const_cmp_select(b, h, q_idx, kv_idx):
    # fold-intervals distributes the comparison over the where: `68 >= 0`, a
    # constant cmpi that reached the drop-in as a Python-constant select_ condition
    return torch.where(kv_idx > q_idx, 65, kv_idx) >= -3


def _bool_extended_constant(b, h, q_idx, kv_idx):
    # `kv != kv` folds to false, extended to i8 for the comparison of two bools
    return ((torch.minimum(q_idx, q_idx) - (q_idx - (-100))) > q_idx) != (kv_idx != kv_idx)


_T41 = torch.zeros(48, dtype=torch.int64)


def _int64_extended_zero(b, h, q_idx, kv_idx):
    # seed 41, mask 7615: `kv - kv` folds to an i32 0, sign-extended to i64
    return (kv_idx - kv_idx).to(torch.int64) == 0


def _clamp_below_an_int64_zero(b, h, q_idx, kv_idx):
    # seed 41, mask 3626: the clamp folds to an i32 0, compared with an i64 0
    return torch.clamp(kv_idx, min=0, max=0) < (_T41[q_idx % 48] * 0)


@pytest.mark.parametrize(
    "fn", [_const_cmp_select, _bool_extended_constant, _int64_extended_zero, _clamp_below_an_int64_zero]
)
def test_fixed_constant_conditions(fn):
    """Found by the campaign's new productions (fixed: canonicalize folds
    cmpi and extui/extsi of constants): module and drop-in exact."""
    o = _check(fn, consts=(3, 65, 100))
    assert_exact(o, fn.__name__)
    assert o.packed and o.dropin and o.dropin_error is None and o.dropin_mismatches == 0, o.describe()


def _prefix_width(b, h, q_idx, kv_idx):
    return (q_idx >= 0) ^ ((kv_idx // 7) > q_idx * 306783378)


_T67 = torch.tensor([67, 13], dtype=torch.int32)


def _dropin_floormod(b, h, q_idx, kv_idx):
    return kv_idx > ((h + 16) - (_T67[q_idx // 2] % (2**31 - 1)))


def test_fixed_prefix_width_past_int32():
    """Seed-18 masks 163, 6156 (prefix-width-i32): the guarded prefix's width
    max(X, y - k) - (y - k) reaches 2**31 + 6 here (X = 2**31 - 2, y - k =
    -7), computed in Int64 now."""
    o = _check(_prefix_width, shape=(1, 1, 64, 64), consts=(7, 306783378))
    assert_exact(o, "prefix width")


def test_fixed_dropin_floormod_select():
    """Seed-18 masks 1088, 4245, 6315, 8233 (dropin-floormod-select): the
    drop-in's inline `%` selected between `r + d` and `r`, and `select_`
    evaluates both (r + d overflowed for r >= 0, d = 2**31 - 1); it selects
    the correction d or 0 now."""
    pts = fuzz.box_points((1, 2**31, 4, 64), consts={16, 2**31 - 1}, raw_q=True)
    o = fuzz.check_mask(_dropin_floormod, pts)
    assert_exact(o, "drop-in floormod")
    assert o.dropin_error is None, o.describe()


def test_issue_18_productions_are_generated():
    """The grammar makes unsigned aux tensors, lane-uniform divisors, negative
    constant divisors, constant lane coefficients, wrapping sums and unions
    of diagonals; every generated mask is still valid for eager torch."""
    sources = [fuzz.random_mask(i).source for i in range(400)]
    text = "\n".join(sources)
    for needle in ("torch.uint8", "torch.uint16", "torch.uint32", "torch.uint64", "(h + 1)", "// (-64)",
                   "* kv_idx.to(torch.int64)", "(q_idx + (2**31 - 1))", ") | (kv_idx == (q_idx + ",
                   "kv_idx * (-", "].long()"):
        assert needle in text, needle


def test_domain_sampling_stays_inside_and_reaches_the_edges():
    m = fuzz.random_mask(3)
    b, h, q, kv = fuzz.sample_points(m, domain="q<131072,kv<131072")
    assert int(q.max()) < 131072 and int(kv.max()) < 131072
    if m.large_ok:
        assert int(q.max()) == 131071 and int(kv.max()) == 131071
    o = fuzz.check(m, domain=(2**31, 2**31, 131072, 131072))
    assert o.ok, o.describe()


def test_cli_domain_smoke(capsys):
    assert fuzz.main(["--masks", "4", "--seed", "3", "--domain", "q<131072,kv<131072"]) == 0
    assert "domain (B, H, Q, KV) = (2147483648, 2147483648, 131072, 131072)" in capsys.readouterr().out


# Found by the recorded seed-18 campaign (test/fuzz-results.md), fixed since:
# shrunk reproducers.

_U32_ZEROS = torch.tensor([0, 0, 0], dtype=torch.uint32)


def _uint32_where_per_lane(b, h, q_idx, kv_idx):
    return ((kv_idx % (-3)) >= q_idx) ^ (
        (torch.where(kv_idx <= 31, _U32_ZEROS[h].to(torch.int64), 2**30) - kv_idx) >= 2**63 - 1
    )


def _clamp_to_a_constant(b, h, q_idx, kv_idx):
    return torch.clamp(kv_idx, min=0, max=0) < 0


def _where_clamp(b, h, q_idx, kv_idx):
    return torch.where(kv_idx >= q_idx, q_idx, -32).clamp(max=65) >= -214


def test_fixed_lane_cmp_bound_outside_the_type():
    """Seed-18 mask 7105 (per-lane words wrong at max_intervals=1): the
    per-lane `lane_cmp` of an i64 `u` against `lane + 2**63 - 1` printed the
    bound as `cutlass.Int64(lane + 9223372036854775807)`, which wraps to a
    negative bound for lane >= 1. The printer now decides such lanes in
    Python."""
    pts = fuzz.box_points((3, 3, 64, 64), consts={3, 31, 2**30}, uses_h=True)
    o = fuzz.check_mask(_uint32_where_per_lane, pts, max_intervals=1)
    assert_exact(o, "uint32 where, per-lane")


@pytest.mark.parametrize("fn", [_clamp_to_a_constant, _where_clamp])
def test_fixed_constant_select_condition_in_the_dropin(fn):
    """Seed-18 masks 3325, 8421, 8503, 8961: `minsi 0, 0` (a clamp to a
    constant) reached a comparison that the drop-in printed as a
    Python-constant `cutlass.select_` condition; canonicalize folds min/max
    of constants and of a value with itself."""
    o = _check(fn, consts=(0, 32, 65, 214))
    assert_exact(o, fn.__name__)
    assert o.dropin_error is None, o.describe()


def _negated_bound_past_int32(b, h, q_idx, kv_idx):
    # seed 88 mask 1633: kv - clamp(q, -100, -31) is kv + 31 (i32, exact), and
    # the lanes where (kv + L - 16) + 31 wraps start at the bound
    # 2^31 + 16 - (kv + 31), whose k is past i32
    return ((kv_idx - 16) - torch.clamp(q_idx, min=-100, max=-31)) <= -100


def test_fixed_negated_i32_bound_past_int32():
    """Seed-88 mask 1633 (a compile crash: lower-interval-bounds only
    expected such a k with an i64 u): the i32 u is clamped at k - 32 before
    it is subtracted (test/passes/lower-interval-bounds.mlir,
    @negated_i32_beyond_i32); module and drop-in exact on the box points,
    whose rows near kv = 2**31 - 32 hold the kept lanes."""
    o = _check(_negated_bound_past_int32, consts=(16, 31, 100))
    assert_exact(o, "negated i32 bound past int32")
    assert o.packed and o.dropin and o.dropin_error is None, o.describe()


#: int64 aux values about the 32-bit edges that sat_i32 / sat_u32 clip at.
_EDGES64 = [-(2**63), -(2**40), -(2**32), -(2**31) - 1, -(2**31), -(2**31) + 1, -33, -1, 0, 1, 31, 32,
            2**31 - 33, 2**31 - 32, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 3, 2**40, 2**63 - 1]


@pytest.mark.parametrize("kind", ["window", "length", "prefix"])
def test_int64_aux_values_at_the_32_bit_edges(kind):
    """The saturating forms of int64 windows (`a - clamp(sat_i32(w), a - 32,
    a)`) and lengths (`max(sat_u32(len), kv) - kv`) against eager torch for
    aux values at and about every edge of i32 and u32, with q and kv near 0
    and near 2^31: module and drop-in exact."""
    vals = torch.tensor(_EDGES64, dtype=torch.int64)
    if kind == "window":
        def fn(b, h, q_idx, kv_idx):
            return (q_idx - kv_idx <= vals[h]) & (q_idx >= kv_idx)
    elif kind == "length":
        def fn(b, h, q_idx, kv_idx):
            return kv_idx < vals[h]
    else:
        def fn(b, h, q_idx, kv_idx):
            return (kv_idx < vals[h]) | (q_idx >= kv_idx)
    pts = fuzz.box_points((1, len(_EDGES64), 64, 64), consts={31, 32, 33}, uses_h=True)
    o = fuzz.check_mask(fn, pts)
    assert_exact(o, f"int64 {kind} at the 32-bit edges")
    assert o.packed and o.dropin and o.dropin_error is None, o.describe()


_SPAN_MASKS = {
    # one lane at q - kv, at kv - q + 100 (Uint32 arithmetic), at an aux value
    "diagonal": (lambda b, h, q_idx, kv_idx: q_idx == kv_idx, {0, 1, 31, 32}),
    "offset_diagonal": (lambda b, h, q_idx, kv_idx: kv_idx - q_idx == 100, {100, 131, 132}),
    "far_diagonal": (lambda b, h, q_idx, kv_idx: q_idx - kv_idx == 2**31 - 40, {2**31 - 40, 2**31 - 8}),
    # nine and 32 lanes from a start of either sign (shl_hi64), one from a start >= 0
    "band_9": (lambda b, h, q_idx, kv_idx: (q_idx - kv_idx >= 0) & (q_idx - kv_idx <= 8), {0, 8, 9, 40}),
    "band_32": (lambda b, h, q_idx, kv_idx: (kv_idx - q_idx >= -5) & (kv_idx - q_idx < 27), {5, 27, 32}),
    "kv_band": (lambda b, h, q_idx, kv_idx: (kv_idx >= 64) & (kv_idx < 70), {64, 70}),
}


@pytest.mark.parametrize("name", sorted(_SPAN_MASKS))
def test_fixed_width_runs_match_eager(name):
    """`interval.span` words (a diagonal is one lane, a band of diagonals a
    fixed-width run: one shift into place) against eager torch, q and kv
    near 0 and near 2^31, every lane alignment about the edges: module and
    drop-in exact, and the run is a span."""
    fn, consts = _SPAN_MASKS[name]
    res = maskopt.compile_mask(fn, name=name)
    assert "interval.span" in str(res.ir), res.ir
    pts = fuzz.box_points((1, 1, 256, 256), consts=consts)
    o = fuzz.check_mask(fn, pts)
    assert_exact(o, name)
    assert o.packed and o.dropin and o.dropin_error is None, o.describe()


def test_span_of_an_int64_wrap_point_is_exact():
    """A lane at an i64 position that may pass 2^32 (`kv + h - t[b] ==
    2^32 - L` for int32 t, the position 2^32 - d): the start is clamped before
    it is taken modulo 2^32, so no lane aliases another; module and drop-in
    exact at t values about every edge."""
    t = torch.tensor([-(2**31), -(2**31) + 40, -1, 0, 1, 2**31 - 1], dtype=torch.int32)

    def fn(b, h, q_idx, kv_idx):
        d = kv_idx.to(torch.int64) + h - t[b].to(torch.int64)
        return d + 31 == 2**32

    res = maskopt.compile_mask(fn, name="wrap_point_span")
    assert "interval.span" in str(res.ir), res.ir
    pts = fuzz.box_points((len(t), 4, 64, 64), consts={31, 32, 2**31 - 1}, uses_b=True)
    o = fuzz.check_mask(fn, pts)
    assert_exact(o, "int64 wrap point span")
    assert o.packed and o.dropin and o.dropin_error is None, o.describe()
