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
