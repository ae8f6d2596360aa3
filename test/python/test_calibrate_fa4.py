"""The FA4 calibration forms (maskopt.tools.calibrate_fa4) each compute the
mask they are measured for: emulated against eager torch (no compiling)."""

import pytest
import torch

from maskopt.lowering.cute_emulator import load_module
from maskopt.tools import corpus, fuzz
from maskopt.tools.calibrate_fa4 import FORMS, form_source, keeps


@pytest.mark.parametrize("name", sorted(FORMS))
def test_form_keeps_its_mask(name):
    t = torch.tensor([0, 3, 517, 2**31 - 1], dtype=torch.int32)
    b, h, q, kv = fuzz.box_points((4, 1, 2048, 2048), consts={0, 1, 31, 32, 100, 517, 2**31 - 33}, uses_b=True)
    want = corpus.reference_words(keeps(FORMS[name][0], t), b, h, q, kv)
    got = load_module(form_source(FORMS[name][1])).keep_words(b, h, q, kv, aux_tensors=[t])
    assert torch.equal(got, want)


_WRAP = 2**31 - 768  # the first q where torch's int32 q + 768 wraps


@pytest.mark.parametrize("name", sorted(n for n in FORMS if FORMS[n][0] == "bottom_right"))
def test_bottom_right_form_exact_at_the_int32_wrap(name):
    """The bottom-right causal forms (`q + 768 >= kv`, torch's `q + 768`
    wrapping in int32) against eager torch on every q from 2^31 - 840 to
    2^31 - 1, both sides of the wrap, with kv near 0, about the diagonal and
    at the top of kv's range (2^31 - 32). The emulator fails on any Int32 or
    Uint32 overflow, so each form is also free of it there."""
    qs = list(range(_WRAP - 72, 2**31)) + [0, 1, 767, 768, 2**30]
    kvs = list(range(0, 34)) + list(range(2**31 - 66, 2**31 - 31)) + list(range(700, 810, 11))
    pts = torch.tensor([(q, kv) for q in qs for kv in kvs], dtype=torch.int64)
    q, kv = (pts[:, i].to(torch.int32) for i in range(2))
    z = torch.zeros_like(q)
    want = corpus.reference_words(keeps("bottom_right", None), z, z, q, kv)
    # both regimes are sampled: past the wrap nothing is kept, below it all
    assert want[q >= _WRAP].eq(0).all() and want[(q < _WRAP) & (q > 767) & (kv == 0)].eq(2**32 - 1).all()
    got = load_module(form_source(FORMS[name][1])).keep_words(z, z, q, kv)
    assert torch.equal(got, want)


@pytest.mark.parametrize("name", sorted(n for n in FORMS if FORMS[n][0] in ("strict_window", "strict_suffix")))
def test_strict_window_form_exact_for_every_int32_width(name):
    """The strict window forms (`q - kv < t[b]`, with and without `kv <= q`)
    against eager torch for widths at both ends of int32 (where t - 1 and
    q - kv - t leave it), with q and kv at the ends of their ranges (the
    emulator fails on any Int32 or Uint32 overflow)."""
    top = 2**31 - 1
    t = torch.tensor([-(2**31), -(2**31) + 1, 0, 32, top - 1, top, -1, 1], dtype=torch.int32)
    qs = [0, 1, 31, 32, 33, 1000, 2**30, top - 32, top - 1, top]
    kvs = [0, 1, 31, 32, 1000, 2**30, top - 64, top - 32, top - 31]
    pts = torch.tensor([(b, q, kv) for b in range(8) for q in qs for kv in kvs], dtype=torch.int64)
    b, q, kv = (pts[:, i].to(torch.int32) for i in range(3))
    z = torch.zeros_like(b)
    want = corpus.reference_words(keeps(FORMS[name][0], t), b, z, q, kv)
    got = load_module(form_source(FORMS[name][1])).keep_words(b, z, q, kv, aux_tensors=[t])
    assert torch.equal(got, want)
