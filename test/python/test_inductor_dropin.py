"""
`maskopt.inductor`: the drop-in for torch inductor's select_packed_mask_intervals.

The keep words that the drop-in's elements render are checked the way
inductor uses them: the elements go through torch's real
`flash_attention.py.jinja` (its mask_mod block, rendered with jinja2), the
rendered mask_mod runs on maskopt's CPU emulator of CuTe code, and its words
must equal eager torch evaluation of the mask. After `install()`,
torch.compile of flex_attention (BACKEND="FLASH") reaches maskopt with the
real mask graph, and inductor's own template renders maskopt's expressions.
"""

from __future__ import annotations

from unittest import mock

import pytest
import sympy
import torch

from conftest import compiled, points
from maskopt import inductor as mi
from maskopt.lowering import cute_emulator
from maskopt.lowering.trace import trace_mask_mod
from maskopt.tools import corpus
from maskopt.tools.flash_template import extract_mask_mod, template_mask_mod

aten = torch.ops.aten

# Template rendering (maskopt.tools.flash_template) -----------------------------


def dropin_words(elements, n_tensor_buffers, b, h, q, kv, aux_tensors=()):
    emu = cute_emulator.load_module(template_mask_mod(elements, n_tensor_buffers))
    return emu.keep_words(b, h, q, kv, aux_tensors=list(aux_tensors))


def assert_same_words(words, ref, b, h, q, kv):
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} of {len(ref)} words differ; first at b={int(b[bad[0]])} "
        f"h={int(h[bad[0]])} q={int(q[bad[0]])} kv={int(kv[bad[0]])}: "
        f"got {int(words[bad[0]]):#010x}, want {int(ref[bad[0]]):#010x}"
    )


# The corpus -----------------------------------------------------------------------

ALL = [c.name for c in corpus.CORPUS]


@pytest.mark.parametrize("name", ALL)
def test_template_words_match_eager_torch(name):
    """The drop-in packs exactly what maskopt packs (not the full mask), and the
    template's OR of its keep_mask_expr()s is the mask."""
    case, fn, result = compiled(name)
    traced = trace_mask_mod(fn, name=name)
    elements = mi.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    if not result.packed or name == "full":  # per-lane, or keeps every lane
        assert elements is None
        return
    assert elements is not None and len(elements) <= mi.MAX_INTERVALS
    b, h, q, kv = points(name, n_rows=6)
    ref = corpus.reference_words(fn, b, h, q, kv)
    words = dropin_words(elements, len(traced.aux_tensors), b, h, q, kv, traced.aux_tensors)
    assert_same_words(words, ref, b, h, q, kv)


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if c.inductor_packs])
def test_packs_whatever_inductor_packs(name):
    case, fn, _ = compiled(name)
    traced = trace_mask_mod(fn, name=name)
    assert mi.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors) is not None


def _inductor_and_dropin_words(name, *, inside: bool, n: int = 400):
    """(points, eager words, inductor's words, the drop-in's words) for a
    corpus mask inductor packs: on sample points inside its shape, or on all
    of them (q and kv near 2^31 too where the case allows)."""
    case, fn, _ = compiled(name)
    traced = trace_mask_mod(fn, name=name)
    theirs_el = corpus.inductor_select(traced)
    ours_el = mi.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    assert theirs_el is not None and ours_el is not None
    b, h, q, kv = corpus.sample_points(case, n_rows=3)
    if inside:
        keep = (q < case.shape[2]) & (kv < case.shape[3])
        b, h, q, kv = b[keep], h[keep], q[keep], kv[keep]
    pick = torch.arange(min(n, b.numel()))  # the first rows: q = 0, 1, Q - 1 against every kv
    if not inside:  # every point off the shape, plus a sample of the rest
        off = ((q >= case.shape[2]) | (kv >= case.shape[3])).nonzero().flatten()
        pick = torch.unique(torch.cat([pick, off]))
    pts = tuple(x[pick] for x in (b, h, q, kv))
    ref = corpus.reference_words(fn, *pts)
    theirs = corpus.inductor_interval_words(theirs_el, traced.aux_tensors, *pts)
    ours = dropin_words(ours_el, len(traced.aux_tensors), *pts, traced.aux_tensors)
    return pts, ref, theirs, ours


def _counter_example(pts, ref, theirs) -> str | None:
    bad = (theirs != ref).nonzero().flatten()
    if not bad.numel():
        return None
    i = int(bad[0])
    b, h, q, kv = (int(x[i]) for x in pts)
    return (f"b={b} h={h} q={q} kv_base={kv}: inductor {int(theirs[i]):#010x}, eager {int(ref[i]):#010x} "
            f"({bad.numel()} of {len(ref)} words wrong)")


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if c.inductor_packs])
def test_superset_of_inductor_inside_the_shape(name):
    """The superset, both halves, inside each mask's shape. Where torch 2.13's
    packer is right there, the drop-in packs (`test_packs_whatever_inductor_packs`)
    and gives the same, eager, words. Where its words are wrong (the cases
    tagged `inductor_wrong`: an int64 start truncated to Int32, floor
    division by a negative constant), there is a counter-example among the
    points, and the drop-in's words are right on every one of them."""
    case = corpus.get_case(name)
    pts, ref, theirs, ours = _inductor_and_dropin_words(name, inside=True)
    wrong = _counter_example(pts, ref, theirs)
    if "inductor_wrong" in case.tags:
        assert wrong is not None, "inductor's words are right: drop the inductor_wrong tag"
    else:
        assert wrong is None, wrong
    assert_same_words(ours, ref, *pts)


#: Corpus masks whose torch 2.13 words are wrong outside their shape, in the
#: int32 domain (measured): bottom-right causal (inductor's Int32 `q + 768`
#: wraps from q = 2^31 - 768), strict causal (a bound past kv + 31 near
#: kv = 2^31 - 32: q = 0, kv_base = 2^31 - 32 keeps every lane), the
#: conjunction of ten wrapping comparisons and the per-batch offset causal
#: mask (`q + off[b]` wraps from q = 2^31 - off[b]).
INDUCTOR_WRONG_OFF_SHAPE = {"bottom_right_causal", "causal_strict", "wrapped_conjunction_10", "per_batch_offset_causal"}


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if c.inductor_packs and c.large_indices])
def test_superset_of_inductor_over_the_int32_domain(name):
    """Over the whole int32 domain (q and kv near 2^31), the drop-in's words
    are eager torch's on every point; inductor's are wrong exactly for the
    masks of INDUCTOR_WRONG_OFF_SHAPE (a counter-example each) and the ones
    wrong inside their shape already."""
    case = corpus.get_case(name)
    pts, ref, theirs, ours = _inductor_and_dropin_words(name, inside=False)
    wrong = _counter_example(pts, ref, theirs)
    expect_wrong = name in INDUCTOR_WRONG_OFF_SHAPE or "inductor_wrong" in case.tags
    assert (wrong is not None) == expect_wrong, wrong or "inductor's words are right here"
    assert_same_words(ours, ref, *pts)


def test_range_elements_render_bounds():
    _, fn, _ = compiled("sliding_window_100")
    traced = trace_mask_mod(fn)
    (element,) = mi.select_packed_mask_intervals(traced.graph_module)
    assert isinstance(element, mi.PackedMaskRange)
    assert not element.is_full()
    lower, upper = element.render_lower(), element.render_upper()
    assert "q_idx[0]" in lower and "kv_idx[0]" in upper
    # The bounds are lane numbers: evaluate them like inductor's tests do.
    env = {"cutlass": corpus._Cutlass, "min": min, "max": max}
    for qv, kvv in [(0, 0), (150, 40), (150, 130), (1000, 900)]:
        env.update(q_idx=[qv], kv_idx=[kvv], b_idx=[0], h_idx=[0])
        lo, up = int(eval(lower, env)), int(eval(upper, env))  # noqa: S307
        want = [fn(*(torch.tensor(x) for x in (0, 0, qv, kvv + lane))).item() for lane in range(32)]
        assert want == [lo <= lane < up for lane in range(32)]


def test_aux_tensors_follow_other_buffers_order():
    """aux_tensors[i] is the i-th *tensor* buffer, scalars not counted."""
    _, fn, _ = compiled("doc_start_causal_i32")
    traced = trace_mask_mod(fn)
    (element,) = mi.select_packed_mask_intervals(traced.graph_module, [object()])
    assert "aux_tensors[0]" in element.keep_mask_expr()


# Hand-built graphs (no metadata), symbolic scalars ----------------------------------


def _graph(build, n_aux=0):
    g = torch.fx.Graph()
    b, h, q, kv = (g.placeholder(n) for n in ("b", "h", "q_idx", "kv_idx"))
    aux = [g.placeholder(f"aux{i}") for i in range(n_aux)]
    g.output(build(g, b, h, q, kv, *aux))
    return torch.fx.GraphModule({}, g)


def _f(g, target, *args, **kwargs):
    return g.call_function(target, args, kwargs)


HAND_BUILT = {
    "not_causal": lambda g, b, h, q, kv: _f(g, aten.logical_not.default, _f(g, aten.ge.Tensor, q, kv)),
    "ne_diagonal": lambda g, b, h, q, kv: _f(g, aten.ne.Tensor, kv, q),
    "lane_uniform_eq": lambda g, b, h, q, kv: _f(g, aten.eq.Scalar, q, 16),
    "disjoint_or": lambda g, b, h, q, kv: _f(
        g,
        aten.bitwise_or.Tensor,
        _f(g, aten.eq.Tensor, kv, q),
        _f(g, aten.eq.Tensor, kv, _f(g, aten.add.Scalar, q, 2)),
    ),
    "block_equality": lambda g, b, h, q, kv: _f(
        g,
        aten.eq.Tensor,
        _f(g, aten.div.Tensor_mode, q, 16, rounding_mode="floor"),
        _f(g, aten.div.Tensor_mode, kv, 16, rounding_mode="floor"),
    ),
    "row_bounded_causal": lambda g, b, h, q, kv: _f(
        g, aten.bitwise_and.Tensor, _f(g, aten.ge.Tensor, q, kv), _f(g, aten.lt.Scalar, q, 100)
    ),
}


def _eager(gm, *extra):
    def mask_mod(b, h, q, kv):
        return gm(b, h, q, kv, *extra)

    return mask_mod


def _grid():
    q = torch.arange(0, 300, 7, dtype=torch.int32).repeat_interleave(40)
    kv = torch.arange(0, 320, 8, dtype=torch.int32).repeat(len(q) // 40)
    zeros = torch.zeros_like(q)
    return zeros, zeros, q, kv


@pytest.mark.parametrize("name", sorted(HAND_BUILT))
def test_hand_built_graphs_without_metadata(name):
    from torch._inductor.virtualized import V

    gm = _graph(HAND_BUILT[name])
    without = mi.select_packed_mask_intervals(gm)
    with V.set_graph_handler(corpus._mock_graph_handler()):
        with_handler = mi.select_packed_mask_intervals(gm)
    assert without is not None and with_handler == without
    b, h, q, kv = _grid()
    ref = corpus.reference_words(_eager(gm), b, h, q, kv)
    assert_same_words(dropin_words(without, 0, b, h, q, kv), ref, b, h, q, kv)


def _doc_graph():
    """kv >= offsets[doc_ids[b, q]] & kv < limit, `limit` a symbolic scalar
    (the placeholder order of inductor's own test: limit, doc_ids, offsets)."""

    def build(g, b, h, q, kv, limit, doc_ids, offsets):
        doc = _f(g, aten.index.Tensor, doc_ids, [b, q])
        start = _f(g, aten.index.Tensor, offsets, [doc])
        return _f(
            g, aten.bitwise_and.Tensor, _f(g, aten.ge.Tensor, kv, start), _f(g, aten.lt.Tensor, kv, limit)
        )

    return _graph(build, n_aux=3)


def test_symbolic_scalar_renders_through_symbol_codes():
    gm = _doc_graph()
    doc_ids = torch.div(torch.arange(320, dtype=torch.int32), 50, rounding_mode="floor").reshape(1, 320)
    offsets = torch.arange(0, 350, 50, dtype=torch.int32)
    s = sympy.Symbol("s_limit", integer=True, nonnegative=True)
    elements = mi.select_packed_mask_intervals(
        gm, [s, doc_ids, offsets], aux_scalar_symbol_codes={s: "aux_scalars[0]"}
    )
    assert elements is not None and len(elements) == 1
    expr = elements[0].keep_mask_expr()
    assert "aux_scalars[0]" in expr and "aux_tensors[0]" in expr and "aux_tensors[1]" in expr
    # A scalar bound needs a code: none given, no pack.
    assert mi.select_packed_mask_intervals(gm, [s, doc_ids, offsets]) is None
    # with_symbol_codes re-renders: a constant limit, checked against eager torch.
    limit = 203
    rebound = tuple(e.with_symbol_codes({s: f"cutlass.Int32({limit})"}) for e in elements)
    assert "aux_scalars" not in rebound[0].keep_mask_expr()
    b, h, q, kv = _grid()
    ref = corpus.reference_words(_eager(gm, torch.tensor(limit, dtype=torch.int32), doc_ids, offsets), b, h, q, kv)
    words = dropin_words(rebound, 2, b, h, q, kv, [doc_ids, offsets])
    assert_same_words(words, ref, b, h, q, kv)


def test_returns_none_or_empty_like_inductor():
    full = _graph(lambda g, b, h, q, kv: _f(g, aten.full.default, [], True, dtype=torch.bool))
    empty = _graph(lambda g, b, h, q, kv: _f(g, aten.full.default, [], False, dtype=torch.bool))
    even = _graph(
        lambda g, b, h, q, kv: _f(g, aten.eq.Scalar, _f(g, aten.remainder.Scalar, kv, 2), 0)
    )
    square = _graph(
        lambda g, b, h, q, kv: _f(g, aten.eq.Tensor, _f(g, aten.mul.Tensor, kv, kv), q)
    )
    nine = _graph(
        lambda g, b, h, q, kv: _or_all(
            g, [_f(g, aten.eq.Tensor, kv, _f(g, aten.add.Scalar, q, 3 * i)) for i in range(9)]
        )
    )
    assert mi.select_packed_mask_intervals(full) is None  # keeps every lane
    assert mi.select_packed_mask_intervals(empty) == ()  # keeps none: the template ORs nothing
    # 16 runs, but one periodic set: a single word element (one funnel shift)
    (word,) = mi.select_packed_mask_intervals(even)
    assert "utils.shr_u32(cutlass.Uint32(0x55555555)" in word.keep_mask_expr()
    assert mi.select_packed_mask_intervals(square) is None  # kv * kv: not lane-affine
    assert mi.select_packed_mask_intervals(nine) is None  # 9 runs > 8
    assert mi.select_packed_mask_intervals(_graph(lambda g, b, h, q, kv: q)) is None  # not a bool


def _or_all(g, terms):
    out = terms[0]
    for t in terms[1:]:
        out = _f(g, aten.bitwise_or.Tensor, out, t)
    return out


# install(): torch.compile of flex_attention reaches maskopt --------------------------

OFFSETS = torch.tensor([0, 40, 100, 128], dtype=torch.int32)


def doc_start_causal(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx) & (kv_idx >= OFFSETS[b + 1] - 40)


class _Stop(Exception):
    pass


def compile_flash_kernel(mask_mod, shape=(1, 1, 256, 256)):
    """torch.compile flex_attention with BACKEND="FLASH" on the CPU and return the
    FLASH kernel source inductor renders (stopping before autotuning: it cannot
    run without SM100). The CPU lowering is routed to inductor's FLASH lowering
    (`create_flex_flash_attention_kernel`) with the CUDA head of
    `flex_attention`'s lowering, under an SM100 device capability."""
    import torch._inductor.kernel.flex.flex_flash_attention as ffa
    import torch._inductor.lowering as lowering
    from torch._inductor.kernel.flex.common import (
        build_subgraph_buffer,
        create_placeholder,
        freeze_irnodes,
        maybe_realize,
    )
    from torch._inductor.kernel.flex.flex_attention import realize_captures_for_cutedsl
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    pytest.importorskip("flash_attn.cute")
    B, H, Q, KV = shape
    block_mask = create_block_mask(mask_mod, B, H, Q, KV, device="cpu", _compile=False)
    x = torch.zeros(B, H, Q, 64, dtype=torch.bfloat16)
    sources: list[str] = []

    def stop_at_autotune(name, choices, *args, **kwargs):
        for choice in choices:
            with open(choice.bmreq.module_path) as f:
                sources.append(f.read())
        raise _Stop

    def flash_lowering(query, key, value, subgraph, block_mask, scale, kernel_options,
                       score_mod_other_buffers, mask_mod_other_buffers):
        dev = query.get_device()
        kv_num, kv_idx, full_num, full_idx = block_mask[2:6]
        q_block, kv_block, mask_graph = block_mask[-3:]
        mask_buffers = realize_captures_for_cutedsl(mask_mod_other_buffers)
        names = [("b", torch.int32), ("h", torch.int32), ("m", torch.int32), ("n", torch.int32)]
        mask_buffer = build_subgraph_buffer(
            [create_placeholder(n, t, dev) for n, t in names] + list(mask_buffers), mask_graph
        )
        freeze_irnodes(mask_buffer)
        score_buffer = build_subgraph_buffer(
            [create_placeholder("score", query.get_dtype(), dev)]
            + [create_placeholder(n, t, dev) for n, t in names]
            + list(score_mod_other_buffers),
            subgraph,
        )
        query, key, value, kv_num, kv_idx, full_num, full_idx = maybe_realize(
            [query, key, value, kv_num, kv_idx, full_num, full_idx]
        )
        with (
            mock.patch("torch.cuda.is_available", return_value=True),
            mock.patch("torch.cuda.get_device_capability", return_value=(10, 0)),
        ):
            return ffa.create_flex_flash_attention_kernel(
                query, key, value, block_mask, scale, kernel_options, score_buffer, mask_buffer,
                list(score_mod_other_buffers), list(mask_buffers), kv_num, kv_idx, full_num,
                full_idx, q_block, kv_block, mask_graph=mask_graph, subgraph=subgraph,
            )

    op = torch.ops.higher_order.flex_attention
    torch._dynamo.reset()
    with (
        mock.patch.dict(lowering.lowerings, {op: flash_lowering}),
        mock.patch.object(ffa, "autotune_select_algorithm", stop_at_autotune),
    ):
        try:
            torch.compile(flex_attention, fullgraph=True)(
                x, x, x, block_mask=block_mask, kernel_options={"BACKEND": "FLASH"}
            )
        except Exception:  # noqa: BLE001 - _Stop, wrapped by inductor
            if not sources:
                raise
    torch._dynamo.reset()
    (source,) = sources
    return source


def test_install_routes_inductor_flash_lowering_through_maskopt():
    calls = []
    real = mi.select_packed_mask_intervals

    def spy(graph_module, other_buffers=(), aux_scalar_symbol_codes=None):
        out = real(graph_module, other_buffers, aux_scalar_symbol_codes)
        calls.append((graph_module, tuple(other_buffers), out))
        return out

    # Inductor's own analysis first: what the kernel looks like without maskopt.
    own = compile_flash_kernel(doc_start_causal)
    assert "mask_mod_packed[0] | " in own and not calls
    with mock.patch.object(mi, "select_packed_mask_intervals", spy), mi.installed():
        assert mi.is_installed()
        source = compile_flash_kernel(doc_start_causal)
    assert not mi.is_installed()
    # maskopt saw the real mask graph (inductor's placeholders arg0_1...) and buffers.
    (graph_module, buffers, elements), = calls
    placeholders = [n for n in graph_module.graph.nodes if n.op == "placeholder"]
    assert [n.name for n in placeholders] == ["arg0_1", "arg1_1", "arg2_1", "arg3_1", "arg4_1"]
    assert len(buffers) == 1 and buffers[0].get_dtype() == torch.int32
    assert elements is not None
    # Inductor's template printed maskopt's expressions...
    for e in elements:
        assert e.keep_mask_expr() in source
    assert source != own
    # ...and the rendered mask_mod computes the mask.
    b = torch.tensor([0, 1, 2], dtype=torch.int32).repeat_interleave(256 * 8)
    q = torch.arange(0, 256, 32, dtype=torch.int32).repeat_interleave(256).repeat(3)
    kv = torch.arange(256, dtype=torch.int32).repeat(24)
    h = torch.zeros_like(b)
    emu = cute_emulator.load_module(extract_mask_mod(source))
    words = emu.keep_words(b, h, q, kv, aux_tensors=[OFFSETS])
    ref = corpus.reference_words(doc_start_causal, b, h, q, kv)
    assert_same_words(words, ref, b, h, q, kv)


def test_uninstall_restores_inductor():
    import torch._inductor.kernel.flex.flex_flash_attention as ffa
    import torch._inductor.kernel.flex.interval_mask_packing as imp

    before = (ffa.select_packed_mask_intervals, ffa.get_flex_flash_fwd_configs)
    mi.install()
    mi.install()  # idempotent
    try:
        assert ffa.select_packed_mask_intervals is not before[0]
        assert imp.select_packed_mask_intervals is ffa.select_packed_mask_intervals
    finally:
        mi.uninstall()
    assert (ffa.select_packed_mask_intervals, ffa.get_flex_flash_fwd_configs) == before
    assert imp.select_packed_mask_intervals is before[0]


def _always_true(b, h, q_idx, kv_idx):
    return (q_idx - kv_idx) <= q_idx  # kv >= 0 and no wrap: every lane


def test_a_mask_proven_full_is_one_all_ones_word():
    """Torch 2.13 packs `q - kv <= q` (a run [-kv, 32)); maskopt proves it keeps
    every lane. Returning None there (as for the constant True graph) would put
    the installed drop-in on the per-lane path where inductor packs: it is one
    all-ones word instead, and the literal constant True stays None."""
    traced = trace_mask_mod(_always_true)
    assert corpus.inductor_select(traced) is not None
    elements = mi.select_packed_mask_intervals(traced.graph_module)
    assert [e.keep_mask_expr() for e in elements] == ["cutlass.Uint32(0xffffffff)"]
    b, h, q, kv = (torch.tensor(x, dtype=torch.int32) for x in ([0, 1], [0, 2], [0, 2**31 - 1], [0, 2**31 - 32]))
    words = dropin_words(elements, 0, b, h, q, kv)
    assert torch.equal(words, corpus.reference_words(_always_true, b, h, q, kv))
    noop = trace_mask_mod(corpus.get_case("full").make())
    assert mi.select_packed_mask_intervals(noop.graph_module) is None


def test_static_flex_shapes_give_the_drop_in_a_domain():
    """`install()` wraps the flex FLASH kernel builder: with static query/key
    shapes the drop-in compiles for b < B, h < H and the lengths rounded up to
    256. Bottom-right causal then needs no wrap guard (no Int64), and its words
    are exact inside the domain; symbolic shapes keep the full domain."""
    import torch._inductor.kernel.flex.flex_attention as fa
    import torch._inductor.kernel.flex.flex_flash_attention as ffa

    assert mi.flex_domain([2, 8, 1000, 64], [2, 2, 4096, 64]) == (2, 8, 1024, 4096)
    assert mi.flex_domain([2, 8, sympy.Symbol("s0"), 64], [2, 2, 4096, 64]) is None
    fn = corpus.get_case("bottom_right_causal").make()
    traced = trace_mask_mod(fn)
    (full,) = mi.select_packed_mask_intervals(traced.graph_module)
    assert "Int64" in full.keep_mask_expr()
    with mi.domain(mi.flex_domain([1, 1, 1000, 64], [1, 1, 2000, 64])):
        (bounded,) = mi.select_packed_mask_intervals(traced.graph_module)
    assert "Int64" not in bounded.keep_mask_expr()
    q = torch.arange(0, 1024, 7, dtype=torch.int32).repeat_interleave(9)
    kv = torch.tensor([0, 1, 31, 700, 768, 769, 1500, 2047 - 31, 2047], dtype=torch.int32).repeat(q.numel() // 9)
    z = torch.zeros_like(q)
    words = dropin_words((bounded,), 0, z, z, q, kv)
    assert_same_words(words, corpus.reference_words(fn, z, z, q, kv), z, z, q, kv)

    class Box:
        def __init__(self, size):
            self.size = size

        def get_size(self):
            return self.size

    seen = []

    def kernel(query, key, *args, **kwargs):
        seen.append(mi._DOMAIN.get())

    with mock.patch.object(ffa, "create_flex_flash_attention_kernel", kernel), mock.patch.object(
        fa, "create_flex_flash_attention_kernel", kernel
    ):
        with mi.installed():
            assert fa.create_flex_flash_attention_kernel is ffa.create_flex_flash_attention_kernel
            fa.create_flex_flash_attention_kernel(Box([2, 4, 300, 64]), Box([2, 4, 513, 64]))
        assert fa.create_flex_flash_attention_kernel is kernel
    assert seen == [(2, 4, 512, 768)]


def test_dropin_prints_compile_masks_lowered_ir():
    """The drop-in's words come from compile_mask's `cute_module` (the IR
    interval-to-cute lowered once), not from a second lowering of the function."""
    from maskopt.lowering import cute as cute_lowering

    traced = trace_mask_mod(corpus.get_case("sliding_window_100").make(), name="sliding_window_100")
    calls = []
    real = cute_lowering._lower_in_place

    def counting(func):
        calls.append(func.sym_name.data)
        return real(func)

    with mock.patch.object(cute_lowering, "_lower_in_place", counting):
        elements = mi.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    assert elements and calls == ["sliding_window_100"]
