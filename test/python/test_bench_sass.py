"""Smoke test of the SASS benchmark's table and inductor rendering (no compiling)."""

from maskopt.tools.bench_sass import Row, format_table, inductor_source


def test_table_totals_and_ratios():
    rows = [
        Row("causal", True, True, {"maskopt": 14, "inductor": 15, "per-lane": 76}),
        Row("window", True, True, {"maskopt": 30, "inductor": 20, "per-lane": 100}),
        Row("gather", False, False, {"maskopt": 107, "per-lane": 107}),
        Row("broken", True, False, {"per-lane": 50}, {"maskopt": "TypeError: x"}),
    ]
    text = format_table(rows, 9)
    assert "| causal | 14 | 15 | 76 | 0.93 | 0.18 |" in text
    assert "| gather (per-lane) | 107 | - | 107 | - | 1.00 |" in text
    assert "| **total, 2 masks both pack** | 44 | 35 | | 1.26 | |" in text
    assert "| **total, 3 masks with a per-lane count** | 151 | | 283 | | 0.53 |" in text
    assert "maskopt packs 3, inductor packs 2" in text
    assert "scaffold (constant 0 word): 9 instructions" in text
    assert "more than inductor: window." in text
    assert "| broken | error |" in text
    assert "- error: broken / maskopt: TypeError: x" in text


def test_inductor_source_is_the_template():
    class Interval:
        def __init__(self, e):
            self.e = e

        def keep_mask_expr(self):
            return self.e

    src = inductor_source([Interval("A"), Interval("B")])
    assert "    mask_mod_packed[0] = cutlass.Uint32(0)\n" in src
    assert "    mask_mod_packed[0] = mask_mod_packed[0] | A\n" in src
    assert "    mask_mod_packed[0] = mask_mod_packed[0] | B\n" in src
    assert src.index("| A") < src.index("| B") < src.index("return mask_mod_packed.load()")
    assert "mask_mod.__vec_size__ = 32" in src
    compile(src, "<inductor>", "exec")
