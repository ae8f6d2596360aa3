"""
Remarks: why a mask did not pack, in the user's terms, at the user's source
line and column, with a suggestion where one is known (`compile_mask(...)
.remarks`, the structured form of `mask-opt`'s remarks).
"""

from __future__ import annotations

import torch

import maskopt
from maskopt.lowering.trace import trace_mask_mod
from maskopt.passes.remarks import Remark, render

THIS_FILE = __file__
doc_ids = torch.repeat_interleave(torch.arange(4, dtype=torch.int32), 16)


def _where(marker: str, text: str) -> tuple[int, int]:
    """(line, col) of `text` on the line of this file that ends with `marker`."""
    with open(THIS_FILE) as f:
        for i, line in enumerate(f, start=1):
            if line.rstrip().endswith(marker):
                return i, line.index(text) + 1
    raise AssertionError(marker)


def document_gather(b, h, q_idx, kv_idx):
    return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx)  # GATHER


def strided(b, h, q_idx, kv_idx):
    x = kv_idx.to(torch.int64) * 2
    return x <= q_idx  # STRIDED


def wrapping(b, h, q_idx, kv_idx):
    x = kv_idx * 1073741824  # WRAPPING
    return x <= q_idx


def four_runs(b, h, q_idx, kv_idx):
    return (kv_idx < 2) | ((kv_idx >= 4) & (kv_idx < 6)) | ((kv_idx >= 8) & (kv_idx < 10)) | (kv_idx >= 12)  # RUNS


def wrapped_conjunction_of(terms: int):
    def wrapped_conjunction(b, h, q_idx, kv_idx):
        keep = kv_idx <= q_idx + 3000
        for k in range(1, terms):
            keep = keep & (kv_idx + k <= q_idx + 3000 + k % 7)  # WRAPPED
        return keep

    return wrapped_conjunction


def r_reason(remark: Remark) -> str:
    return f"{remark.message}; {remark.suggestion}"


def _only_remark(mask_mod, **kw) -> Remark:
    r = maskopt.compile_mask(mask_mod, **kw)
    assert not r.packed
    (remark,) = r.remarks
    assert remark.severity == "remark" and remark.file == THIS_FILE
    assert remark.function == mask_mod.__name__
    assert r.reason is not None and r.reason == remark.reason
    assert r.reason.startswith(remark.message)
    return remark


def test_gather_names_the_kv_gather_at_its_column_and_suggests_the_rewrite():
    remark = _only_remark(document_gather)
    line, col = _where("# GATHER", "doc_ids[kv_idx]")
    assert (remark.line, remark.col) == (line, col)
    assert remark.expression == "doc_ids[kv_idx]"
    assert remark.end_col == col + len("doc_ids[kv_idx]")
    # Not the q-side gather `doc_ids[q_idx]` (the describe() name-hint bug).
    assert remark.message == "`doc_ids[kv_idx]` is a per-lane gather: its index depends on kv_idx"
    assert "`(kv_idx >= doc_starts[doc_ids[q_idx]]) & (kv_idx < doc_ends[doc_ids[q_idx]])` packs" in (
        remark.suggestion or ""
    )
    text = remark.format().splitlines()
    assert text[0] == f"{THIS_FILE}:{line}:{col}: remark: mask.func @document_gather not packed: {remark.message}"
    assert str(remark) == f"{THIS_FILE}:{line}:{col}: remark: mask.func @document_gather not packed: {r_reason(remark)}"
    assert text[1].strip().startswith("return (doc_ids[q_idx] == doc_ids[kv_idx])")
    assert text[2] == " " * (4 + col - 1) + "^" + "~" * (len("doc_ids[kv_idx]") - 1)
    assert text[3] == f"{THIS_FILE}:{line}:{col}: note: {remark.suggestion}"


def test_lane_coefficient_two_in_int64_packs():
    """`kv * 2 <= q` in int64 cannot wrap: the lane coefficient 2 is rewritten
    into a +-1 comparison with the bound (q + 1) // 2 (issue 18), so there is
    no remark any more; a coefficient left alone (a bound that might wrap) is
    still named, see test_lane_coefficients.py and test/passes/lane-coefficient.mlir."""
    import maskopt

    res = maskopt.compile_mask(strided)
    assert res.packed and not res.remarks, res.reason


def test_overflow_names_the_wrapping_product():
    remark = _only_remark(wrapping)
    """`kv_idx * 2^30` wraps up to 8 times in a window: more than the wrapped-
    comparison split takes (`kv_idx * 2` packs, see test_lane_coefficient_wraps.py)."""
    assert (remark.line, remark.col) == _where("# WRAPPING", "kv_idx * 1073741824")
    assert "`kv_idx * 1073741824` may overflow i32" in remark.message
    assert "wraps up to 8 times in a 32-lane window" in remark.message


def test_too_many_runs_names_the_subexpression_and_suggests_max_intervals():
    remark = _only_remark(four_runs, max_intervals=2)
    line, col = _where("# RUNS", "(kv_idx < 2)")
    assert (remark.line, remark.col) == (line, col)
    # `a | b | c | d` is `((a | b) | c) | d`: the third run is the first too many.
    assert remark.expression == "(kv_idx < 2) | ((kv_idx >= 4) & (kv_idx < 6)) | ((kv_idx >= 8) & (kv_idx < 10))"
    assert "3 ranges exceed max-intervals=2" in remark.message
    assert "max-intervals" in (remark.suggestion or "")
    assert maskopt.compile_mask(four_runs, max_intervals=4).packed


def test_too_many_runs_from_wraps_names_the_wrap_and_a_checked_limit():
    """Comparisons split where int32 `kv_idx + k` wraps: the note says so,
    and the max-intervals it suggests is the least that packs (the count at
    the failing point alone would not be enough)."""
    import re

    # (with 10 terms two runs are enough: fold-intervals' share_edge_runs)
    wrapped_conjunction = wrapped_conjunction_of(16)
    remark = _only_remark(wrapped_conjunction, max_intervals=2)
    assert (remark.line, remark.col) == _where("# WRAPPED", "keep & (kv_idx + k")
    assert "3 ranges exceed max-intervals=2" in remark.message
    assert (
        "2 comparisons in it, such as `kv_idx + k <= q_idx + 3000 + k % 7`, are each "
        "split in two runs where a value they compare wraps around"
    ) in remark.message
    assert "if the wrap is not meant, compare int64 values" in (remark.suggestion or "")
    m = re.search(r"max-intervals=(\d+) packs it \(checked\)", remark.suggestion or "")
    assert m is not None, remark.suggestion
    n = int(m[1])
    assert maskopt.compile_mask(wrapped_conjunction, max_intervals=n).packed
    assert not maskopt.compile_mask(wrapped_conjunction, max_intervals=n - 1).packed


def test_too_many_runs_suggests_no_number_when_none_is_enough():
    """With 300 terms no max-intervals up to 32 packs the conjunction: the
    note names the wrap and suggests no number."""
    remark = _only_remark(wrapped_conjunction_of(300))
    assert "split in two runs where a value they compare wraps around" in remark.message
    assert (remark.suggestion or "").startswith("no max-intervals up to 32 packs it")
    assert "packs it (checked)" not in (remark.suggestion or "")


def test_packed_masks_have_no_remarks():
    r = maskopt.compile_mask(lambda b, h, q_idx, kv_idx: q_idx >= kv_idx)
    assert r.packed and r.remarks == []


def test_stack_traces_underline_the_expression():
    gm = trace_mask_mod(document_gather).graph_module
    kv_gather = [n for n in gm.graph.nodes if n.op == "call_function"][1]
    lines = kv_gather.meta["stack_trace"].splitlines()
    i = next(i for i, ln in enumerate(lines) if "# GATHER" in ln)
    carets = lines[i + 1]
    start = len(carets) - len(carets.lstrip())
    assert lines[i][start : start + len(carets.strip())] == "doc_ids[kv_idx]"


def test_ir_without_source_is_rendered_from_the_ir():
    from xdsl.parser import Parser

    from maskopt.passes.pipeline import PackMaskPass
    from maskopt.passes.remarks import collect_remarks, function_remarks

    text = """
    mask.func @gather {
    ^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc : tensor<64xi32>):
      %dq = mask.load %doc[%q] : tensor<64xi32>[i32] -> i32
      %dk = mask.load %doc[%kv] : tensor<64xi32>[i32] -> i32
      %eq = arith.cmpi eq, %dq, %dk : i32
      mask.yield %eq : i1
    }
    """
    ctx = maskopt.make_context()
    module = Parser(ctx, text).parse_module()
    dq = module.ops.first.body.block.first_op.results[0]  # type: ignore[union-attr]
    assert render(dq) == "doc[q]"
    with collect_remarks() as collected:
        PackMaskPass().apply(ctx, module)
    (remark,) = function_remarks(module, collected)
    assert remark.file is None and remark.line is None
    assert "`doc[kv + lane]` is a per-lane gather" in remark.message
    assert "doc_starts[doc[q]]" in (remark.suggestion or "")


def even_kv(b, h, q_idx, kv_idx):
    # `<` of remainders by 3: neither a periodic set (`==` of residues, or a
    # constant residue) nor a table set (a power-of-two remainder)
    return (kv_idx % 3 < h % 3) & (kv_idx <= q_idx)  # EVEN


def test_periodic_subexpression_is_named_with_its_python_operator():
    remark = _only_remark(even_kv)
    assert (remark.line, remark.col) == _where("# EVEN", "kv_idx % 3")
    assert remark.message.endswith(
        "`kv_idx % 3` is not linear in kv_idx (`%` of a value that depends on kv_idx)"
    )
