"""Run maskopt's emitted keep-mask modules on a GPU and compare their words with torch.

For every module in ``tools/gpu/modules/`` (written by ``gen_modules.py``) this
script

1. compiles the module's ``mask_mod`` with the CuTe DSL (``CUTE_DSL_ARCH``,
   default ``sm_90a``) inside a harness kernel modelled on
   ``tools/cute_compile.py``'s ``_harness_compile``: one thread per keep word,
   128 threads a block; the thread reads its (b, h, q, kv_base) from four int32
   point tensors, builds FA4-style 32-lane Int32 vectors (b, h, q broadcast,
   ``kv = kv_base + lane``), calls ``mask_mod(b, h, q, kv, seqlen_info,
   aux_tensors)`` and stores ``mask_value[0]`` (the Uint32 keep word) to an
   int32 output tensor.  The aux tensors are real CUDA tensors converted like
   FA4's ``to_cute_aux_tensor`` (``from_dlpack(...).mark_layout_dynamic()``).
   ``seqlen_info`` is None: no corpus module reads it (checked per module);
2. launches it on torch CUDA tensors over the point set below;
3. computes the reference words on the GPU with torch: the case's mask_mod,
   rebuilt from ``tools/corpus.py`` with its captured tensors moved to the GPU,
   vmapped over every (word, lane) pair under ``TransformGetItemToIndex``
   (the semantics of ``corpus.reference_words`` / ``create_mask``);
4. counts mismatching words.  It also checks the GPU reference (and the
   kernel) against the CPU reference fingerprint ``<name>.ref.npz`` that
   ``gen_modules.py`` computed with ``corpus.reference_words`` on the
   development machine (the points of ``corpus.sample_points(case)``).

Point set of a case with shape (B, H, Q_LEN, KV_LEN):
* ``domain``: every b < B, h < H, q < Q_LEN and every kv_base in [0, KV_LEN);
* ``extra`` (only when the domain has fewer than ``--min-words`` words): more q
  rows (q >= Q_LEN, every kv_base < KV_LEN) for masks without q/kv-indexed aux
  tensors (``large_indices``); otherwise more b values (b >= B) when the module
  never reads ``b_idx`` (then h, if it never reads ``h_idx``);
* ``large`` (``large_indices`` only): rows with q near 2^31-1, near 2^30 and
  near the case's ``edge_qs`` (where its int32 arithmetic wraps) against
  kv_base windows around q, near 0 and near 2^31-32, plus q in {0, 1,
  Q_LEN-1} against kv_base near 2^31-32 and 2^30;
* ``fp``: the fingerprint points (run through the kernel too).

Usage on the GPU machine (repository root)::

    CUTE_DSL_ARCH=sm_90a python3 tools/gpu/run_gpu_check.py [--out DIR] [NAME ...]

Without a GPU, ``--compile-only`` only compiles the harnesses (and, with
``--ref-device cpu --min-words N``, also runs the reference and fingerprint
checks on the CPU).
"""



import argparse
import functools
import importlib.util
import json
import math
import os
import sys
import time
import traceback
import types
from pathlib import Path

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")  # read once, at `import cutlass`

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
INT32_MAX = 2**31 - 1
NTHREADS = 128


# ----------------------------------------------------------------------------
# imports
# ----------------------------------------------------------------------------


def _import_fa4_utils():
    """flash_attn.cute.utils, or the vendored copy in fa4_shim/ when it can't be imported."""
    try:
        if os.environ.get("MASKOPT_GPU_FORCE_SHIM"):
            raise ImportError("MASKOPT_GPU_FORCE_SHIM is set")
        from flash_attn.cute import utils  # noqa: F401

        return "flash-attn-4"
    except Exception:  # noqa: BLE001 - missing package or missing dependency of it
        for k in [k for k in sys.modules if k == "flash_attn" or k.startswith("flash_attn.")]:
            del sys.modules[k]
        sys.path.insert(0, str(HERE / "fa4_shim"))
        from flash_attn.cute import utils  # noqa: F401

        return "tools/gpu/fa4_shim"


def _load_corpus():
    """tools/corpus.py as a stand-alone module (maskopt itself need not be installed)."""
    try:
        from maskopt.tools import corpus  # noqa: F401

        return corpus
    except Exception:  # noqa: BLE001
        spec = importlib.util.spec_from_file_location("maskopt_corpus", REPO / "tools" / "corpus.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["maskopt_corpus"] = mod
        spec.loader.exec_module(mod)
        return mod


def _load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------
# harness
# ----------------------------------------------------------------------------


def build_harness(mask_mod):
    """The @cute.jit launcher around ``mask_mod`` (one thread per keep word)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32
    from flash_attn.cute import utils

    vec = int(getattr(mask_mod, "__vec_size__", 1))
    if vec != 32:
        raise ValueError(f"__vec_size__={vec}: this harness handles 32-lane modules only")
    nthreads = NTHREADS

    @cute.kernel
    def harness_kernel(bt: cute.Tensor, ht: cute.Tensor, qt: cute.Tensor, kt: cute.Tensor,
                       out: cute.Tensor, aux):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = bidx * nthreads + tidx
        batch = Int32(bt[i])
        head = Int32(ht[i])
        q = Int32(qt[i])
        kv_base = Int32(kt[i])
        b_ssa = utils.scalar_to_ssa(batch, Int32).broadcast_to((vec,))
        h_ssa = utils.scalar_to_ssa(head, Int32).broadcast_to((vec,))
        q_ssa = utils.scalar_to_ssa(q, Int32).broadcast_to((vec,))
        kv_vec = cute.make_rmem_tensor(vec, Int32)
        for j in cutlass.range_constexpr(vec):
            kv_vec[j] = kv_base + j
        mask_value = mask_mod(b_ssa, h_ssa, q_ssa, kv_vec.load(), None, aux)
        out[i] = Int32(mask_value[0])

    @cute.jit
    def harness_launch(bt: cute.Tensor, ht: cute.Tensor, qt: cute.Tensor, kt: cute.Tensor,
                       out: cute.Tensor, aux, nblocks: Int32):
        harness_kernel(bt, ht, qt, kt, out, aux).launch(
            grid=(nblocks, 1, 1), block=(nthreads, 1, 1)
        )

    return harness_launch


def to_cute(t, align=None):
    from cutlass.cute.runtime import from_dlpack

    return from_dlpack(t.detach(), assumed_align=align).mark_layout_dynamic()


def compile_harness(mask_mod, aux_tensors, device):
    import cutlass.cute as cute
    import torch
    from cutlass import Int32

    launch = build_harness(mask_mod)
    pts = [torch.zeros(NTHREADS, dtype=torch.int32, device=device) for _ in range(5)]
    aux = [to_cute(t) for t in aux_tensors] or None
    t0 = time.perf_counter()
    compiled = cute.compile(launch, *[to_cute(p, 4) for p in pts], aux, Int32(1))
    return compiled, time.perf_counter() - t0


def run_harness(compiled, b, h, q, kv, aux_tensors):
    import torch
    from cutlass import Int32

    n = b.numel()
    assert n % NTHREADS == 0
    out = torch.full((n,), 0x5A5A5A5A, dtype=torch.int32, device=b.device)
    aux = [to_cute(t) for t in aux_tensors] or None
    compiled(to_cute(b, 4), to_cute(h, 4), to_cute(q, 4), to_cute(kv, 4), to_cute(out, 4), aux,
             Int32(n // NTHREADS))
    torch.cuda.synchronize()
    return out.to(torch.int64) & 0xFFFFFFFF


# ----------------------------------------------------------------------------
# reference
# ----------------------------------------------------------------------------


def move_closure_tensors(fn, device, _seen=None):
    """Move every tensor a mask_mod captured (closures, partials, defaults, nested mask_mods)."""
    import torch

    seen = set() if _seen is None else _seen
    if id(fn) in seen:
        return fn
    seen.add(id(fn))
    if isinstance(fn, functools.partial):
        args = tuple(a.to(device) if isinstance(a, torch.Tensor) else move_closure_tensors(a, device, seen)
                     for a in fn.args)
        kw = {k: (v.to(device) if isinstance(v, torch.Tensor) else move_closure_tensors(v, device, seen))
              for k, v in fn.keywords.items()}
        return functools.partial(move_closure_tensors(fn.func, device, seen), *args, **kw)
    if not isinstance(fn, types.FunctionType):
        return fn
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:  # empty cell
            continue
        if isinstance(v, torch.Tensor):
            cell.cell_contents = v.to(device)
        elif isinstance(v, (types.FunctionType, functools.partial)):
            nv = move_closure_tensors(v, device, seen)
            if nv is not v:
                cell.cell_contents = nv
        elif isinstance(v, (list, tuple)):  # e.g. or_masks/and_masks: a tuple of mask_mods
            nv = type(v)(
                x.to(device) if isinstance(x, torch.Tensor)
                else move_closure_tensors(x, device, seen) if isinstance(x, (types.FunctionType, functools.partial))
                else x
                for x in v
            )
            if any(a is not b for a, b in zip(nv, v)):
                cell.cell_contents = nv
    if fn.__defaults__:
        fn.__defaults__ = tuple(d.to(device) if isinstance(d, torch.Tensor) else d for d in fn.__defaults__)
    return fn


def reference_words(mask_mod, b, h, q, kv_base, *, chunk_words=1 << 18):
    """corpus.reference_words on b's device: bit L = mask_mod(b, h, q, kv_base + L),
    with eager 0-dim type promotion (`corpus.ScalarPromotion`: without it,
    vmap casts a captured int64 scalar such as `t[-1]` to int32, and four
    fuzzed masks' references disagreed with the CPU fingerprints)."""
    import torch
    from torch._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex

    dev = b.device
    n = b.numel()
    assert int(kv_base.to(torch.int64).max()) + 31 <= INT32_MAX
    lanes = torch.arange(32, dtype=torch.int32, device=dev)
    shifts = torch.arange(32, dtype=torch.int64, device=dev)
    vm = torch.vmap(mask_mod, in_dims=(0, 0, 0, 0))
    outs = []
    with TransformGetItemToIndex(), _load_corpus().ScalarPromotion(), torch.device(dev):
        for s in range(0, n, chunk_words):
            e = min(n, s + chunk_words)
            m = e - s
            bb = b[s:e, None].expand(m, 32).reshape(-1)
            hh = h[s:e, None].expand(m, 32).reshape(-1)
            qq = q[s:e, None].expand(m, 32).reshape(-1)
            kk = (kv_base[s:e, None] + lanes).reshape(-1)
            r = vm(bb, hh, qq, kk)
            if not isinstance(r, torch.Tensor) or r.dtype != torch.bool:
                raise TypeError(f"mask_mod returned {type(r).__name__} {getattr(r, 'dtype', '')}")
            r = r.reshape(-1).expand(m * 32) if r.numel() == 1 else r.reshape(m * 32)
            bits = r.view(m, 32).to(dev)
            outs.append((bits.to(torch.int64) << shifts).sum(dim=1))
    return torch.cat(outs) if outs else torch.zeros(0, dtype=torch.int64, device=dev)


# ----------------------------------------------------------------------------
# points
# ----------------------------------------------------------------------------


def _grid(bs, hs, qs, kvs):
    import torch

    g = torch.cartesian_prod(bs, hs, qs, kvs)
    return [g[:, i] for i in range(4)]


def build_points(rec, target, device):
    """{part: (b, h, q, kv_base) int64 tensors} for one case (see the module docstring)."""
    import torch

    def ar(lo, hi):
        return torch.arange(lo, hi, dtype=torch.int64, device=device)

    B, H, Q, KV = rec["shape"]
    parts = {"domain": _grid(ar(0, B), ar(0, H), ar(0, Q), ar(0, KV))}
    n = B * H * Q * KV
    if n < target:
        left = target - n
        if rec["large_indices"]:
            k = math.ceil(left / (B * H * KV))
            parts["extra"] = _grid(ar(0, B), ar(0, H), ar(Q, Q + k), ar(0, KV))
        elif not rec["reads_b"]:
            k = math.ceil(left / (H * Q * KV))
            parts["extra"] = _grid(ar(B, B + k), ar(0, H), ar(0, Q), ar(0, KV))
        elif not rec["reads_h"]:
            k = math.ceil(left / (B * Q * KV))
            parts["extra"] = _grid(ar(0, B), ar(H, H + k), ar(0, Q), ar(0, KV))
    if rec["large_indices"]:
        top = INT32_MAX - 31  # largest legal kv_base
        big_q = [INT32_MAX - i for i in range(64)] + [2**30 + i for i in range(-32, 32)]
        big_q += [e + i for e in rec.get("edge_qs", ()) for i in range(-8, 8) if 0 <= e + i <= INT32_MAX]
        rows = []
        for i, qv in enumerate(big_q):
            kvs = torch.cat([ar(qv - 1024, qv + 1024), ar(0, 256), ar(top - 255, top + 1)])
            kvs = kvs[(kvs >= 0) & (kvs <= top)]
            rows.append((i % B, (i // B) % H, qv, kvs))
        for i, qv in enumerate((0, 1, Q - 1)):
            rows.append((i % B, 0, qv, torch.cat([ar(top - 255, top + 1), ar(2**30 - 128, 2**30 + 128)])))
        bl, hl, ql, kl = [], [], [], []
        for bv, hv, qv, kvs in rows:
            bl.append(torch.full_like(kvs, bv))
            hl.append(torch.full_like(kvs, hv))
            ql.append(torch.full_like(kvs, qv))
            kl.append(kvs)
        parts["large"] = [torch.cat(x) for x in (bl, hl, ql, kl)]
    return parts


# ----------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------


def _hex(x):
    return f"0x{int(x) & 0xFFFFFFFF:08x}"


MUTATION = ("q = q_idx[0]\n", "q = q_idx[0] + cutlass.Int32(1)\n")
NEGATIVE_CONTROLS = ("causal", "doc_start_causal_i32", "even_kv_causal")


def check_case(rec, args, corpus, device, ref_device, mutant=False, dropin=False):
    """Check one case; ``mutant``: the module with q replaced by q + 1 (must
    mismatch); ``dropin``: the inductor drop-in's kernel (``<name>.dropin.py``)
    instead of the module."""
    import tempfile

    import numpy as np
    import torch

    name = rec["name"]
    mdir = Path(args.modules)
    stem = f"{name}.dropin" if dropin else name
    src = (mdir / f"{stem}.py").read_text()
    if "seqlen_info." in src:
        raise RuntimeError("module reads seqlen_info; the harness passes None")
    path = mdir / f"{stem}.py"
    if mutant:
        if MUTATION[0] not in src:
            raise RuntimeError(f"negative control: {MUTATION[0]!r} not in the module")
        path = Path(tempfile.mkdtemp(prefix="maskopt_mutant_")) / f"{name}_mutant.py"
        path.write_text(src.replace(MUTATION[0], MUTATION[1], 1))
    mod = _load_module(path, f"_maskopt_gpu_{name}{'_dropin' if dropin else ''}{'_mutant' if mutant else ''}")
    aux_cpu = torch.load(mdir / f"{stem}.aux.pt") if (mdir / f"{stem}.aux.pt").is_file() else []
    aux = [t.to(device).contiguous() for t in aux_cpu]
    compiled, compile_s = compile_harness(mod.mask_mod, aux, device)
    res = {"name": name + (" [drop-in]" if dropin else "") + (" [mutant q+1]" if mutant else ""),
           "packed": rec["packed"],
           "compile_s": round(compile_s, 3)}
    if args.compile_only and args.min_words == 0:
        return res

    fp = np.load(mdir / f"{name}.ref.npz")
    parts = build_points(rec, args.min_words, ref_device)
    parts["fp"] = [torch.from_numpy(fp[k].astype(np.int64)).to(ref_device) for k in ("b", "h", "q", "kv_base")]
    fp_words = torch.from_numpy(fp["words"].astype(np.int64)).to(ref_device)
    order = list(parts)
    sizes = {k: int(parts[k][0].numel()) for k in order}
    b, h, q, kv = (torch.cat([parts[k][i] for k in order]) for i in range(4))
    n = b.numel()
    assert int(torch.stack([b.min(), h.min(), q.min(), kv.min()]).min()) >= 0
    assert int(q.max()) <= INT32_MAX and int(kv.max()) + 31 <= INT32_MAX

    case = corpus.get_case(name)
    mm = move_closure_tensors(case.make(), ref_device)
    t0 = time.perf_counter()
    try:
        want = reference_words(mm, *(x.to(torch.int32) for x in (b, h, q, kv)))
        res["ref_device"] = str(ref_device)
    except Exception as e:  # noqa: BLE001 - fall back to the CPU
        res["ref_device"] = f"cpu (GPU reference failed: {type(e).__name__}: {e})"
        mm = move_closure_tensors(case.make(), "cpu")
        want = reference_words(mm, *(x.to(torch.int32).cpu() for x in (b, h, q, kv))).to(ref_device)
    res["ref_s"] = round(time.perf_counter() - t0, 3)
    fp_slice = slice(n - sizes["fp"], n)
    res["ref_vs_cpu_fp"] = int((want[fp_slice] != fp_words).sum())
    res["fp_words"] = sizes["fp"]
    res["parts"] = sizes
    res["words"] = n - sizes["fp"]
    if args.compile_only:
        return res

    pad = (-n) % NTHREADS
    kb, kh, kq, kk = (torch.cat([x, x[-1:].expand(pad)]).to(torch.int32).to(device).contiguous()
                      for x in (b, h, q, kv))
    t0 = time.perf_counter()
    got = run_harness(compiled, kb, kh, kq, kk, aux)[:n].to(ref_device)
    res["run_s"] = round(time.perf_counter() - t0, 3)
    bad = (got != want)
    bad[fp_slice] = False
    res["mismatches"] = int(bad.sum())
    res["kernel_vs_cpu_fp"] = int((got[fp_slice] != fp_words).sum())
    if res["mismatches"]:
        idx = bad.nonzero().flatten()[:20].tolist()
        res["examples"] = [
            {"b": int(b[i]), "h": int(h[i]), "q": int(q[i]), "kv_base": int(kv[i]),
             "got": _hex(got[i]), "want": _hex(want[i]), "xor": _hex(int(got[i]) ^ int(want[i]))}
            for i in idx
        ]
        starts = torch.cumsum(torch.tensor([0] + [sizes[k] for k in order]), 0).tolist()
        res["mismatches_by_part"] = {k: int(bad[starts[j]:starts[j + 1]].sum()) for j, k in enumerate(order)}
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="GPU check of maskopt's emitted keep-mask modules")
    ap.add_argument("names", nargs="*")
    ap.add_argument("--modules", default=str(HERE / "modules"))
    ap.add_argument("--min-words", type=int, default=1 << 20,
                    help="extend small domains to at least this many words (default 2^20)")
    ap.add_argument("--compile-only", action="store_true", help="no GPU: compile the harnesses only")
    ap.add_argument("--ref-device", default=None, help="device of the reference (default cuda)")
    ap.add_argument("--negative-control", action="store_true",
                    help=f"also run {', '.join(NEGATIVE_CONTROLS)} with q -> q+1 (each must mismatch)")
    ap.add_argument("--out", default=os.environ.get("OUT"), help="write results.json here")
    ap.add_argument("--no-dropin", action="store_true",
                    help="check the modules only, not the drop-in kernels (<name>.dropin.py)")
    args = ap.parse_args(argv)

    import torch
    import cutlass

    fa4 = _import_fa4_utils()
    corpus = _load_corpus()
    device = "cpu" if args.compile_only else "cuda"
    ref_device = torch.device(args.ref_device or ("cpu" if args.compile_only else "cuda"))
    manifest = json.loads((Path(args.modules) / "manifest.json").read_text())
    recs = [r for r in manifest["cases"] if not args.names or r["name"] in args.names]
    env = {
        "arch": os.environ.get("CUTE_DSL_ARCH"),
        "torch": torch.__version__,
        "cutlass_dsl": getattr(cutlass, "__version__", "?"),
        "fa4_utils": fa4,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "capability": list(torch.cuda.get_device_capability(0)) if torch.cuda.is_available() else None,
        "min_words": args.min_words,
        "manifest_torch": manifest.get("torch"),
        "modules_sha256": __import__("hashlib").sha256(
            "".join(r["source_sha256"] for r in manifest["cases"]).encode()).hexdigest()[:16],
    }
    print("env:", json.dumps(env), flush=True)
    results, errors = [], 0
    hdr = f"{'name':30s} {'kind':8s} {'words':>9s} {'mismatch':>8s} {'ref/fp':>9s} {'krn/fp':>6s} {'comp_s':>6s} {'ref_s':>6s} {'run_s':>6s}  parts"
    print(hdr, flush=True)
    jobs = [(rec, False, False) for rec in recs]
    if not args.no_dropin:
        jobs += [(rec, False, True) for rec in recs if rec.get("dropin")]
    if args.negative_control:
        jobs += [(rec, True, False) for rec in manifest["cases"] if rec["name"] in NEGATIVE_CONTROLS]
    controls = []
    for rec, mutant, dropin in jobs:
        try:
            r = check_case(rec, args, corpus, device, ref_device, mutant=mutant, dropin=dropin)
        except Exception as e:  # noqa: BLE001 - report and go on
            errors += 1
            r = {"name": rec["name"], "packed": rec["packed"], "error": f"{type(e).__name__}: {e}",
                 "traceback": traceback.format_exc()[-4000:]}
            print(f"{rec['name']:30s} ERROR {r['error']}\n{r['traceback']}", flush=True)
            (controls if mutant else results).append(r)
            continue
        (controls if mutant else results).append(r)
        kind = "packed" if r["packed"] else "per-lane"
        print(
            f"{r['name']:30s} {kind:8s} {r.get('words', 0):9d} {r.get('mismatches', '-')!s:>8s} "
            f"{r.get('ref_vs_cpu_fp', '-')!s:>4s}/{r.get('fp_words', 0):<5d}"
            f"{r.get('kernel_vs_cpu_fp', '-')!s:>6s} {r['compile_s']:6.2f} {r.get('ref_s', 0):6.2f} "
            f"{r.get('run_s', 0):6.2f}  {r.get('parts', '')}"
            + ("" if r.get("ref_device", "cuda") in ("cuda", "cuda:0", "cpu") else f"  ref: {r['ref_device']}"),
            flush=True,
        )
        if r.get("examples"):
            print(f"   mismatches by part {r['mismatches_by_part']}; first: {r['examples'][:3]}", flush=True)
    ok = [r for r in results if "error" not in r]
    tot_words = sum(r.get("words", 0) for r in ok)
    tot_bad = sum(r.get("mismatches", 0) for r in ok)
    tot_fp = sum(r.get("ref_vs_cpu_fp", 0) for r in ok) + sum(r.get("kernel_vs_cpu_fp", 0) for r in ok)
    print(
        f"TOTAL masks={len(results)} (drop-in kernels {sum(r['name'].endswith('[drop-in]') for r in results)}) "
        f"errors={errors} words={tot_words} mismatches={tot_bad} "
        f"fingerprint_mismatches={tot_fp} "
        f"cpu_reference_fallbacks={sum(str(r.get('ref_device', '')).startswith('cpu (') for r in ok)} "
        f"min_words_per_mask={min((r.get('words', 0) for r in ok), default=0)}",
        flush=True,
    )
    controls_ok = all(r.get("mismatches", 0) > 0 for r in controls)
    if args.negative_control:
        print(
            "NEGATIVE CONTROL (q -> q+1 in the module; each must mismatch): "
            + ", ".join(f"{r['name']}: {r.get('mismatches', r.get('error'))}/{r.get('words', 0)}" for r in controls)
            + (" -> OK, mismatches are detected" if controls_ok else " -> FAILED")
            + ("" if not args.compile_only else " (compile-only: not run)"),
            flush=True,
        )
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "results.json").write_text(json.dumps({"env": env, "results": results, "negative_controls": controls}, indent=1))
    bad_controls = args.negative_control and not args.compile_only and not controls_ok
    return 1 if (errors or tot_bad or tot_fp or bad_controls) else 0


if __name__ == "__main__":
    sys.exit(main())
