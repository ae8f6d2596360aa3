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
        ("pack-mask,", "column 11, at the end: expected pass name here"),
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


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("cute{", "column 6, at the end: expected argument name here"),
        ("cute}", "column 5, at '}': expected `{` or the end of the target here"),
        ("{}", "column 1, at '{': expected target name here"),
        ("", "column 1, at the end: expected target name here"),
        ("cute{x=}", "column 8, at '}': unknown argument value, "),
        ("cute,mlir", "column 5, at ',': expected `{` or the end of the target here"),
    ],
)
def test_malformed_target_is_a_one_line_usage_error(tmp_path, capsys, spec, where):
    src = tmp_path / "in.mlir"
    src.write_text(CAUSAL)
    out = tmp_path / "out.mlir"
    assert mask_opt.main([str(src), "-t", spec, "-o", str(out)]) == mask_opt.EXIT_USAGE_ERROR
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"mask-opt: error: invalid target '{spec}': {where}")
    assert captured.out == "" and not out.exists()


# -o behaves like a plain write, atomically ---------------------------------------


@pytest.fixture
def umask():
    """Set the process's umask for a test: `umask(0o022)`; restored after."""
    import os

    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def _mode(path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


def _compile_to(tmp_path, out, *args: str, source: str = CAUSAL) -> int:
    src = tmp_path / "in.mlir"
    src.write_text(source)
    return mask_opt.main([str(src), "-o", str(out), *(args or ("-p", "pack-mask"))])


@pytest.mark.parametrize(
    ("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)], ids=["022", "002", "077"]
)
def test_output_new_file_mode_follows_umask(tmp_path, umask, mask, mode):
    out = tmp_path / "out.mlir"
    umask(mask)
    assert _compile_to(tmp_path, out) == mask_opt.EXIT_OK
    assert "interval.keep_word" in out.read_text()
    assert _mode(out) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]  # no temp file left


def test_output_existing_file_keeps_its_mode(tmp_path, umask):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    out.chmod(0o664)
    umask(0o077)
    assert _compile_to(tmp_path, out) == mask_opt.EXIT_OK
    assert "interval.keep_word" in out.read_text()
    assert _mode(out) == 0o664


def test_output_symlink_writes_its_target(tmp_path, umask):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.mlir"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert _compile_to(tmp_path, link) == mask_opt.EXIT_OK
    assert link.is_symlink() and link.resolve() == target
    assert "interval.keep_word" in target.read_text() and _mode(target) == 0o640
    # The temp file went into the target's directory, and was renamed.
    assert [p.name for p in target.parent.iterdir()] == ["out.mlir"]
    # A dangling symlink: the target is created, like open(link, "w") does.
    dangling = tmp_path / "dangling.mlir"
    dangling.symlink_to(tmp_path / "real" / "new.mlir")
    assert _compile_to(tmp_path, dangling) == mask_opt.EXIT_OK
    assert dangling.is_symlink() and "interval.keep_word" in (tmp_path / "real" / "new.mlir").read_text()


def test_output_fifo_is_written_in_place(tmp_path):
    import os
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    assert _compile_to(tmp_path, fifo) == mask_opt.EXIT_OK
    reader.join(timeout=30)
    assert fifo.is_fifo(), "the FIFO was replaced by a regular file"
    assert received and "interval.keep_word" in received[0]


@pytest.mark.parametrize(
    ("source", "args"),
    [
        (CAUSAL, ("-p", "no-such-pass")),  # usage error
        (CAUSAL, ("-p", "pack-mask{")),  # usage error
        ("mask.func @f {", ("-p", "pack-mask")),  # malformed IR
        (CAUSAL, ("-p", "crash")),  # internal error
        ("", ("-t", "cute")),  # the target fails: no mask.func to print
    ],
)
def test_output_untouched_when_the_run_fails(broken_passes, tmp_path, umask, source, args):
    real = tmp_path / "real"
    real.mkdir()
    out = real / "out.mlir"
    out.write_text("old\n")
    out.chmod(0o664)
    link = tmp_path / "link.mlir"
    link.symlink_to(out)
    before = sorted(p.name for p in tmp_path.iterdir())
    for path in (out, link):
        assert _compile_to(tmp_path, path, *args, source=source) != mask_opt.EXIT_OK
        assert out.read_text() == "old\n" and _mode(out) == 0o664 and link.is_symlink()
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted({*before, "in.mlir"})
        assert [p.name for p in real.iterdir()] == ["out.mlir"]


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
        (
            "three_args",
            "bad_masks.py:13:16: mask_mod 'three_args' takes 3 positional arguments, "
            "but a mask_mod needs 4 (b, h, q_idx, kv_idx)",
        ),
        (
            "five_args",
            "bad_masks.py:35:15: mask_mod 'five_args' takes 5 positional arguments, "
            "but a mask_mod needs 4 (b, h, q_idx, kv_idx)",
        ),
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
