"""Smoke test of the SASS benchmark's tables and template rendering (no compiling)."""

from maskopt.tools.bench_sass import Row, format_fa4_table, format_table, inductor_source


def test_table_totals_and_ratios():
    rows = [
        Row("causal", True, True, {"maskopt": 14, "drop-in": 15, "inductor": 15, "per-lane": 76}, dropin_packed=True),
        Row("window", True, True, {"maskopt": 30, "drop-in": 33, "inductor": 20, "per-lane": 100}, dropin_packed=True),
        Row("gather", False, False, {"maskopt": 107, "per-lane": 107}),
        Row("broken", True, False, {"per-lane": 50}, {"maskopt": "TypeError: x"}),
    ]
    text = format_table(rows, 9)
    assert "| causal | 14 | 15 | 15 | 76 | 0.93 | 1.00 | +1 | 0.18 |" in text
    assert "| gather (per-lane) | 107 | - | - | 107 | - | - | - | 1.00 |" in text
    assert "| **total, 2 masks all three pack** | 44 | 48 | 35 | | 1.26 | 1.37 | +4 | |" in text
    assert "| **total over the scaffold, 2 masks** | +26 | +30 | +17 | | 1.53 | 1.76 | | |" in text
    assert "| **total, 3 masks with a per-lane count** | 151 | | | 283 | | | | 0.53 |" in text
    assert "maskopt packs 3, its drop-in 2, inductor 2" in text
    assert "scaffold (constant 0 word): 9 instructions" in text
    assert "Masks where maskopt emits more than inductor: window." in text
    assert "Masks where drop-in emits more than inductor: window." in text
    assert "more than one instruction from the module: window (+3)." in text
    assert "| broken | error |" in text
    assert "- error: broken / maskopt: TypeError: x" in text


def test_fa4_table_deltas_and_totals():
    text = format_fa4_table(
        1000,
        [("causal", "maskopt", 1040), ("causal", "drop-in", 1040), ("causal", "inductor", 1037),
         ("window", "maskopt", 1070), ("window", "drop-in", None), ("window", "inductor", 1100),
         ("gather", "maskopt", 1500)],
    )
    assert "| causal | +40 | +40 | +37 | 1.08 | 1.08 |" in text
    assert "| window | +70 | error | +100 | 0.70 | - |" in text
    assert "| gather | +500 | - | - | - | - |" in text
    assert "| **total, 1 masks all three pack** | +40 | +40 | +37 | 1.08 | 1.08 |" in text
    assert "Masks where maskopt is above inductor: causal." in text


def test_elements_render_through_torchs_template():
    class Interval:
        def __init__(self, e):
            self.e = e

        def keep_mask_expr(self):
            return self.e

    src = inductor_source([Interval("A"), Interval("B")], 1)
    assert "mask_mod_packed[0] = cutlass.Uint32(0)\n" in src
    assert "mask_mod_packed[0] = mask_mod_packed[0] | A\n" in src
    assert "mask_mod_packed[0] = mask_mod_packed[0] | B\n" in src
    assert "aux_tensors = [aux_tensors[0]]" in src
    assert src.index("| A") < src.index("| B") < src.index("return mask_mod_packed.load()")
    assert "mask_mod.__vec_size__ = 32" in src
    compile(src, "<inductor>", "exec")


def test_a_domain_reaches_the_module_and_the_drop_in():
    """`--domain`: build_jobs compiles maskopt's module and drop-in for the
    domain (no compiling here): bottom-right causal loses its wrap guard in
    both, inductor's source is unchanged."""
    from maskopt.tools.bench_sass import build_jobs
    from maskopt.tools.corpus import get_case

    case = [get_case("bottom_right_causal")]
    full = {j.variant: j.source for j in build_jobs(case)[1]}
    bounded = {j.variant: j.source for j in build_jobs(case, (1, 1, 1024, 1024))[1]}
    for v in ("maskopt", "drop-in"):
        assert "Int64" in full[v] and "Int64" not in bounded[v], v
    assert full["inductor"] == bounded["inductor"]
