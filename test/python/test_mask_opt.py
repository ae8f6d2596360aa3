"""
`mask-opt`'s internal errors (exit status 3): a pass that leaves IR that
does not verify, or that raises. Run in-process with a broken pass
registered next to maskopt's, on `.mlir` input (no torch).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.passes import ModulePass

import maskopt.passes
from maskopt.tools import mask_opt

CAUSAL = """
mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}
"""


@dataclass(frozen=True)
class DropTerminator(ModulePass):
    """Leaves every mask.func without its terminator (invalid IR)."""

    name = "drop-terminator"

    def apply(self, ctx, op):
        from maskopt.dialects.mask import FuncOp

        for func in op.walk():
            if isinstance(func, FuncOp):
                func.yield_op.detach()


@dataclass(frozen=True)
class Crash(ModulePass):
    name = "crash"

    def apply(self, ctx, op):
        raise AssertionError("an invariant of the pass does not hold")


@pytest.fixture
def broken_passes(monkeypatch):
    real = maskopt.passes.get_all_passes

    def get_all_passes():
        return {**real(), "drop-terminator": lambda: DropTerminator, "crash": lambda: Crash}

    monkeypatch.setattr(maskopt.passes, "get_all_passes", get_all_passes)


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("lane-affine,drop-terminator", "mask-opt: internal error: the IR after pass drop-terminator does not verify: "),
        ("crash", "mask-opt: internal error: AssertionError: an invariant of the pass does not hold (a bug in maskopt; please report it)"),
    ],
)
def test_internal_errors_exit_3_with_one_line(broken_passes, tmp_path, capsys, pipeline, message):
    src = tmp_path / "in.mlir"
    src.write_text(CAUSAL)
    out = tmp_path / "out.mlir"
    assert mask_opt.main([str(src), "-p", pipeline, "-o", str(out)]) == mask_opt.EXIT_INTERNAL_ERROR
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), captured.err
    assert not out.exists() and list(tmp_path.iterdir()) == [src]


def test_success_and_usage_statuses(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(CAUSAL)
    assert mask_opt.main([str(src), "-p", "pack-mask"]) == mask_opt.EXIT_OK
    assert "interval.keep_word" in capsys.readouterr().out
    assert mask_opt.main([str(src), "-p", "pack-mask{max-intervals=x}"]) == mask_opt.EXIT_USAGE_ERROR
    assert mask_opt.main([str(src), "--bogus"]) == mask_opt.EXIT_USAGE_ERROR
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(e.startswith("mask-opt: error: ") for e in err)


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("pack-mask{", "column 11, at the end: expected argument name here"),
        ("pack-mask}", "column 10, at '}': expected a comma or pass arguments here"),
        (",", "column 1, at ',': expected pass name here"),
        ("pack-mask,,cse", "column 11, at ',': expected pass name here"),
        ("{}", "column 1, at '{': expected pass name here"),
        ("fold-intervals{max-intervals=}", "column 30, at '}': unknown argument value, "),
    ],
)
def test_malformed_pipeline_is_a_one_line_usage_error(tmp_path, capsys, spec, where):
    src = tmp_path / "in.mlir"
    src.write_text(CAUSAL)
    out = tmp_path / "out.mlir"
    assert mask_opt.main([str(src), "-p", spec, "-o", str(out)]) == mask_opt.EXIT_USAGE_ERROR
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"mask-opt: error: invalid pass pipeline '{spec}': {where}")
    assert captured.out == "" and not out.exists()


BAD_MASKS = __file__.rsplit("/python/", 1)[0] + "/tools/Inputs/bad_masks.py"


@pytest.mark.parametrize(
    ("function", "message"),
    [
        (
            "float_math",
            "bad_masks.py:26:22: `q_idx.float()` (prims.convert_element_type) has dtype torch.float32; ",
        ),
        (
            "control_flow",
            "bad_masks.py:30:8: mask_mod 'control_flow' failed to trace: data-dependent Python control flow",
        ),
        ("three_args", "bad_masks.py:13: mask_mod 'three_args': wrong arity"),
    ],
)
def test_bad_mask_mods_are_one_line_input_errors(tmp_path, capsys, function, message):
    out = tmp_path / "out.py"
    status = mask_opt.main([f"{BAD_MASKS}:{function}", "-t", "cute", "-o", str(out)])
    assert status == mask_opt.EXIT_INPUT_ERROR
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mask-opt: error: "), captured.err
    assert message in lines[0]
    assert captured.out == "" and not out.exists()
