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
