"""
FA4 end to end: an attention-gym mask_mod -> `maskopt.compile_mask` -> the
emitted CuTe module, imported -> FlashAttention-4's SM100 forward kernel.

    python tools/examples/fa4_end_to_end.py                      # no GPU needed
    python tools/examples/fa4_end_to_end.py --mask sliding_window --seqlen 2048
    python tools/examples/fa4_end_to_end.py --real               # Blackwell GPU

Without `--real` the mask_mod is compiled inside FA4's real SM100 forward
kernel for sm_100a under torch's FakeTensorMode (fake `cuda` tensors, no GPU,
no CUDA driver; the recipe of `maskopt.tools.cute_compile.compile_in_fa4`,
which imports the emitted module in a fresh subprocess).

With `--real` (an SM100/SM103 GPU, `pip install -e '.[fa4]'` and a CUDA
build of torch) the emitted module is imported in this process and FA4 runs
for real: random bf16 q/k/v, the block-sparse tensors of torch's
`create_block_mask` for the same mask_mod, maskopt's `mask_mod` and aux
tensors; the output is compared with `flex_attention` (eager) on the GPU.
Without an SM100-family GPU or a CUDA build of torch, `--real` prints one
line naming the check that failed and exits with status 1, before compiling.
"""

from __future__ import annotations

import argparse
import sys
import time

import torch

import maskopt

#: FA4's SM100 forward kernel tiles (q, kv) by (256, 128) for block sparsity.
BLOCK_SIZE = (256, 128)


def make_mask(name: str, seqlen: int):
    """An attention-gym mask_mod for sequences of `seqlen` tokens."""
    from attn_gym import masks

    if name == "causal":
        return masks.causal_mask
    if name == "sliding_window":
        return masks.generate_sliding_window(window_size=256)
    if name == "prefix_lm":
        return masks.generate_prefix_lm_mask(prefix_length=seqlen // 8)
    lengths = _document_lengths(seqlen)
    offsets = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32)
    if name == "packed_causal_doc":
        return masks.generate_packed_causal_doc_mask_mod(offsets)
    if name == "document":  # a per-token document-id gather: does not pack
        return masks.generate_doc_mask_mod(masks.causal_mask, offsets)
    raise ValueError(f"unknown mask {name!r}")


MASKS = ("causal", "sliding_window", "prefix_lm", "packed_causal_doc", "document")


def _document_lengths(seqlen: int) -> list[int]:
    g = torch.Generator().manual_seed(0)
    lengths: list[int] = []
    while sum(lengths) < seqlen:
        lengths.append(int(torch.randint(32, 400, (1,), generator=g)))
    lengths[-1] -= sum(lengths) - seqlen
    return [n for n in lengths if n > 0]


def compile_fake(result: maskopt.CompiledMask, shape: tuple[int, int, int, int]):
    """Compile the emitted mask_mod inside FA4's SM100 forward kernel, no GPU."""
    from maskopt.tools.cute_compile import compile_in_fa4

    specs = [(t.dtype, tuple(t.shape)) for t in result.aux_tensors]
    return compile_in_fa4(result.cute_source, aux_tensor_specs=specs, shape=shape)


#: The compute capability majors of FA4's SM100 forward kernel (SM100, SM103, SM110).
SM100_MAJORS = (10, 11)


def real_gpu_problem() -> str | None:
    """Why `--real` cannot run here (None when it can): no CUDA build of torch,
    no visible GPU, or a GPU that is not SM100-family."""
    if not torch.backends.cuda.is_built():
        return f"torch {torch.__version__} is not a CUDA build"
    if not torch.cuda.is_available() or torch.cuda.device_count() == 0:
        return "no visible GPU (torch.cuda.is_available() is False)"
    major, minor = torch.cuda.get_device_capability()
    if major not in SM100_MAJORS:
        return (
            f"the GPU {torch.cuda.get_device_name()} (compute capability {major}.{minor}) "
            "is not SM100-family (10.x or 11.x)"
        )
    return None


def run_real(result: maskopt.CompiledMask, mask_mod, shape: tuple[int, int, int, int]) -> float:
    """Run FA4 with maskopt's mask_mod on the GPU; return max |FA4 - flex_attention|
    (`real_gpu_problem()` must be None)."""
    from flash_attn.cute.block_sparsity import BlockSparseTensorsTorch
    from flash_attn.cute.interface import _flash_attn_fwd
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    batch, seqlen, heads, hdim = shape
    dev = "cuda"
    module = result.import_module()  # the emitted CuTe module, as a Python module
    aux = [t.to(dev) for t in result.aux_tensors] or None

    _move_captures_to(mask_mod, dev)  # for create_block_mask and flex_attention on the GPU
    block_mask = create_block_mask(
        mask_mod, batch, heads, seqlen, seqlen, device=dev, BLOCK_SIZE=BLOCK_SIZE
    )
    g = torch.Generator(device=dev).manual_seed(0)
    q, k, v = (
        torch.randn(batch, seqlen, heads, hdim, device=dev, dtype=torch.bfloat16, generator=g)
        for _ in range(3)
    )
    sparse = BlockSparseTensorsTorch(
        mask_block_cnt=block_mask.kv_num_blocks,
        mask_block_idx=block_mask.kv_indices,
        full_block_cnt=block_mask.full_kv_num_blocks,
        full_block_idx=block_mask.full_kv_indices,
        block_size=BLOCK_SIZE,
    )
    out, *_ = _flash_attn_fwd(
        q, k, v, mask_mod=module.mask_mod, block_sparse_tensors=sparse, aux_tensors=aux
    )
    ref = flex_attention(
        q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), block_mask=block_mask
    ).transpose(1, 2)
    return float((out.float() - ref.float()).abs().max())


def _move_captures_to(mask_mod, device: str) -> None:
    """Move the tensors a mask_mod closes over (attention-gym style) to `device`."""
    seen: set[int] = set()

    def visit(fn):
        if id(fn) in seen:
            return
        seen.add(id(fn))
        for cell in getattr(fn, "__closure__", None) or ():
            value = cell.cell_contents
            if isinstance(value, torch.Tensor):
                cell.cell_contents = value.to(device)
            elif callable(value):
                visit(value)

    visit(mask_mod)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    ap.add_argument("--mask", choices=MASKS, default="packed_causal_doc")
    ap.add_argument("--seqlen", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument(
        "--real",
        action="store_true",
        help="run FA4 for real on an SM100 GPU and compare with flex_attention",
    )
    ap.add_argument("--show-source", action="store_true", help="print the emitted CuTe module")
    args = ap.parse_args(argv)
    if args.real and (problem := real_gpu_problem()) is not None:
        print(
            "fa4_end_to_end.py: error: --real needs an SM100 GPU and a CUDA build of torch: "
            + problem,
            file=sys.stderr,
        )
        return 1

    mask_mod = make_mask(args.mask, args.seqlen)
    result = maskopt.compile_mask(mask_mod, name=args.mask)
    print(f"{args.mask}: packed={result.packed}" + ("" if result.packed else f" ({result.reason})"))
    for i, expr in enumerate(result.keep_mask_exprs):
        print(f"  run {i}: {expr}")
    for t in result.aux_tensors:
        print(f"  aux tensor: {t.dtype} {tuple(t.shape)}")
    if args.show_source:
        print(result.cute_source)

    fa4_shape = (args.batch, args.seqlen, args.heads, args.head_dim)
    t0 = time.perf_counter()
    if args.real:
        err = run_real(result, mask_mod, fa4_shape)
        print(f"FA4 (real, {torch.cuda.get_device_name()}): max |FA4 - flex_attention| = {err:.3g}")
        return 0 if err < 5e-2 else 1
    res = compile_fake(result, fa4_shape)
    print(
        f"FA4 SM100 forward kernel with this mask_mod: compiled for sm_100a "
        f"(fake tensors, {time.perf_counter() - t0:.1f} s"
        + (f", {res.sass_count} SASS instructions" if res.sass_count else "")
        + ")"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
