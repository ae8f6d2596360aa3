"""Run fuzzed masks' emitted modules and drop-in kernels on a GPU; compare with torch.

The bundle comes from ``gen_fuzz.py`` (development machine). For every record
this script, on the GPU machine:

1. regenerates the mask from its fuzzer id with ``tools/fuzz.py`` loaded as a
   stand-alone module (it needs only torch), and checks that its source has
   the recorded sha256 (so the mask is the one that was compiled);
2. builds the point set: ``fuzz.sample_points(m)`` (the ``fp`` part, whose
   CPU reference words have the recorded sha256) and
   ``fuzz.sample_points(m, seed=1, n_rows=12)`` (``more``);
3. computes the reference words on the GPU with torch (the mask_mod vmapped
   over every (word, lane) pair, ``run_gpu_check.reference_words``), on the
   CPU for masks that capture a uint64 tensor (CUDA cannot index one;
   ``reference_device``), and checks the ``fp`` part against the CPU
   fingerprint;
4. compiles the module's ``mask_mod`` and, where the drop-in packs the mask,
   the drop-in kernel's ``mask_mod`` (torch's FLASH template around the
   drop-in's expressions) in ``run_gpu_check``'s harness (one thread per keep
   word, FA4's 32-lane vectors), runs both over the points and counts the
   words that differ from the reference.

With ``--negative-control K``, the first K modules and K drop-in kernels of
masks that ``q -> q ^ 1`` changes (their torch reference words differ) are
also run with q replaced by ``q ^ 1``: each must mismatch the reference, and
match the mutated mask's reference exactly.

    CUTE_DSL_ARCH=sm_90a python3 tools/gpu/run_gpu_fuzz.py --bundle .gpufuzz --out $OUT [--start A --stop B]

Exit status 0 only when nothing mismatches, nothing fails to compile or run,
every fingerprint agrees and every negative control mismatches.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import lzma
import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")  # read once, at `import cutlass`

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

import run_gpu_check as rgc  # noqa: E402  (the harness, reference and module loader)
from gen_fuzz import words_sha256  # noqa: E402  (the fingerprint, as gen_fuzz computed it)

#: The negative control's mutation of each kind of source.
MUTATIONS = {
    "module": ("q = q_idx[0]\n", "q = q_idx[0] ^ cutlass.Int32(1)\n"),
    "dropin": ("q_idx[0]", "(q_idx[0] ^ cutlass.Int32(1))"),
}


def _load_fuzz():
    spec = importlib.util.spec_from_file_location("maskopt_fuzz", REPO / "tools" / "fuzz.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["maskopt_fuzz"] = mod
    spec.loader.exec_module(mod)
    return mod


def run_kernel(source: str, name: str, aux_cpu, points, device, compile_only=False):
    """Compile `source`'s mask_mod in the harness and run it on `points`:
    (words, compile_s, run_s); words are None with `compile_only`."""
    import torch

    path = Path(tempfile.mkdtemp(prefix="maskopt_fuzz_")) / f"{name}.py"
    path.write_text(source)
    mod = rgc._load_module(path, f"_maskopt_fuzz_{name}")
    aux = [t.to(device).contiguous() for t in aux_cpu]
    compiled, compile_s = rgc.compile_harness(mod.mask_mod, aux, device)
    if compile_only:
        return None, compile_s, 0.0
    b, h, q, kv = points
    n = b.numel()
    pad = (-n) % rgc.NTHREADS
    kb, kh, kq, kk = (torch.cat([x, x[-1:].expand(pad)]).to(torch.int32).to(device).contiguous()
                      for x in (b, h, q, kv))
    t0 = time.perf_counter()
    got = rgc.run_harness(compiled, kb, kh, kq, kk, aux)[:n]
    return got, compile_s, time.perf_counter() - t0


def captured_tensors(fn, _seen=None) -> list:
    """The tensors a mask_mod captured (closures, partials, defaults, nested
    mask_mods: what `run_gpu_check.move_closure_tensors` moves)."""
    import functools
    import types

    import torch

    seen = set() if _seen is None else _seen
    if id(fn) in seen:
        return []
    seen.add(id(fn))
    if isinstance(fn, torch.Tensor):
        return [fn]
    if isinstance(fn, (list, tuple)):
        return [t for x in fn for t in captured_tensors(x, seen)]
    if isinstance(fn, functools.partial):
        return captured_tensors([fn.func, *fn.args, *fn.keywords.values()], seen)
    if not isinstance(fn, types.FunctionType):
        return []
    out = []
    for cell in fn.__closure__ or ():
        try:
            out += captured_tensors(cell.cell_contents, seen)
        except ValueError:  # empty cell
            continue
    return out + captured_tensors(list(fn.__defaults__ or ()), seen)


def reference_device(fn, device) -> str:
    """Where the eager reference of `fn` runs: `device`, except on CUDA for a
    mask that captured a uint64 tensor, whose indexing CUDA does not implement
    (`"index_cuda" not implemented for 'UInt64'`, 15 of 500 fuzzed masks):
    then on the CPU, with the same torch semantics. Only the reference moves;
    the kernel under test still gets its aux tensors on `device`."""
    import torch

    if str(device).startswith("cuda") and any(t.dtype == torch.uint64 for t in captured_tensors(fn)):
        return "cpu"
    return str(device)


def reference_words_on(fn, points, device):
    """`run_gpu_check.reference_words` of `fn` at `points`, computed where
    `reference_device` says (its captured tensors moved there) and returned on
    `device`: (words, the device it ran on). A reference that still hits an
    op the device lacks (NotImplementedError) is computed on the CPU."""
    where = reference_device(fn, device)
    try:
        fn = rgc.move_closure_tensors(fn, where)
        words = rgc.reference_words(fn, *(p.to(where) for p in points))
    except NotImplementedError:
        if where == "cpu":
            raise
        where = "cpu"
        fn = rgc.move_closure_tensors(fn, where)
        words = rgc.reference_words(fn, *(p.to(where) for p in points))
    return words.to(device), where


def _diff(got, want, points, limit=5):
    bad = (got != want).nonzero().flatten()
    b, h, q, kv = points
    return int(bad.numel()), [
        {"b": int(b[i]), "h": int(h[i]), "q": int(q[i]), "kv_base": int(kv[i]),
         "got": rgc._hex(got[i]), "want": rgc._hex(want[i])}
        for i in bad[:limit].tolist()
    ]


def check_record(rec, aux, fuzz, device, mutate: set[str], compile_only=False):
    import torch

    r = {"id": rec["id"], "packed": rec["packed"], "dropin": rec["dropin"] is not None}
    m = fuzz.random_mask(rec["seed"] * 1_000_003 + rec["id"])
    if hashlib.sha256(m.source.encode()).hexdigest() != rec["source_sha256"]:
        raise RuntimeError("the regenerated mask differs from the compiled one (fuzz.py changed?)")
    fp = fuzz.sample_points(m)
    more = fuzz.sample_points(m, seed=1, n_rows=12)
    n_fp = int(fp[0].numel())
    points = [torch.cat([a, b]).to(device) for a, b in zip(fp, more)]
    fn = m.mask_mod
    t0 = time.perf_counter()
    want, ref_device = reference_words_on(fn, points, device)
    r["ref_s"] = round(time.perf_counter() - t0, 3)
    if ref_device != str(device):
        r["ref_device"] = ref_device
    r["words"] = int(points[0].numel())
    r["fp_ok"] = words_sha256(want[:n_fp]) == rec["fp_sha256"]
    want_mutant = None
    for kind in ("module", "dropin"):
        src = rec[kind]
        if src is None:
            continue
        got, cs, rs = run_kernel(src, f"{rec['id']}_{kind}", aux[kind], points, device, compile_only)
        r[f"{kind}_compile_s"] = round(cs, 3)
        if compile_only:
            continue
        r[f"{kind}_mismatches"], ex = _diff(got, want, points)
        if ex:
            r[f"{kind}_examples"] = ex
        r[f"{kind}_run_s"] = round(rs, 4)
        if kind in mutate and MUTATIONS[kind][0] in src:
            if want_mutant is None:
                b, h, q, kv = points
                want_mutant, _ = reference_words_on(fn, (b, h, q ^ 1, kv), device)
            if bool((want_mutant != want).any()):
                # Only where the mutation changes the mask: its kernel must
                # then differ from the reference, and compute the mutated
                # mask's words exactly.
                old, new = MUTATIONS[kind]
                got, _, _ = run_kernel(src.replace(old, new), f"{rec['id']}_{kind}_mutant", aux[kind], points, device)
                r[f"{kind}_mutant_mismatches"] = _diff(got, want, points)[0]
                r[f"{kind}_mutant_wrong"] = _diff(got, want_mutant, points)[0]
    return r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundle", default=".gpufuzz")
    ap.add_argument("--start", type=int, default=0, help="first record (index into the bundle)")
    ap.add_argument("--stop", type=int, default=None)
    ap.add_argument("--negative-control", type=int, default=10, metavar="K")
    ap.add_argument("--out", default=os.environ.get("OUT"))
    ap.add_argument("-v", "--verbose", action="store_true", help="one line of timings per mask")
    ap.add_argument("--mask-timeout", type=int, default=60, metavar="S",
                    help="a mask that takes longer is an error (SIGALRM), and the run goes on")
    ap.add_argument("--compile-only", action="store_true",
                    help="no GPU: regenerate, check the fingerprints on the CPU, compile the harnesses")
    args = ap.parse_args(argv)

    import torch  # before cutlass (the other order crashes at import)

    def _timeout(signum, frame):
        raise TimeoutError(f"the mask took more than {args.mask_timeout} s")

    signal.signal(signal.SIGALRM, _timeout)

    import cutlass

    fa4 = rgc._import_fa4_utils()
    fuzz = _load_fuzz()
    with lzma.open(Path(args.bundle) / "bundle.json.xz", "rt") as f:
        bundle = json.load(f)
    aux_all = torch.load(Path(args.bundle) / "aux.pt")
    recs = bundle["records"][args.start:args.stop]
    device = "cpu" if args.compile_only else "cuda"
    env = {"arch": os.environ.get("CUTE_DSL_ARCH"), "torch": torch.__version__,
           "cutlass_dsl": getattr(cutlass, "__version__", "?"), "fa4_utils": fa4,
           "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None, "bundle": bundle["meta"],
           "records": [args.start, args.start + len(recs)]}
    print("env:", json.dumps(env), flush=True)
    results, errors = [], 0
    t0 = time.time()
    controls = {"module": 0, "dropin": 0}
    for j, rec in enumerate(recs):
        mutate = {k for k in controls if controls[k] < args.negative_control and rec[k] is not None}
        t1 = time.perf_counter()
        try:
            signal.alarm(args.mask_timeout)
            try:
                r = check_record(rec, aux_all[rec["id"]], fuzz, device, mutate, args.compile_only)
            finally:
                signal.alarm(0)
            r["t_total"] = round(time.perf_counter() - t1, 3)
        except Exception as e:  # noqa: BLE001 - report and go on
            errors += 1
            r = {"id": rec["id"], "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
            print(f"mask {rec['id']}: ERROR {r['error']}\n{r['traceback']}", flush=True)
        for k in controls:
            controls[k] += f"{k}_mutant_mismatches" in r
        results.append(r)
        bad = r.get("module_mismatches", 0) + r.get("dropin_mismatches", 0) + (not r.get("fp_ok", True))
        if bad:
            print(f"mask {rec['id']}: MISMATCH {json.dumps(r)}", flush=True)
        if args.verbose:
            print(f"mask {rec['id']}: " + " ".join(
                f"{k}={r[k]}" for k in ("words", "ref_s", "module_compile_s", "module_run_s",
                                        "dropin_compile_s", "dropin_run_s", "t_total") if k in r), flush=True)
        if (j + 1) % 50 == 0:
            print(f"... {j + 1}/{len(recs)} masks, {time.time() - t0:.0f} s", flush=True)
    ok = [r for r in results if "error" not in r]
    tot = {
        "masks": len(results),
        "errors": errors,
        "words": sum(r["words"] for r in ok),
        "module_masks": sum("module_compile_s" in r for r in ok),
        "module_packed": sum(r["packed"] for r in ok),
        "module_mismatches": sum(r.get("module_mismatches", 0) for r in ok),
        "dropin_masks": sum("dropin_compile_s" in r for r in ok),
        "dropin_mismatches": sum(r.get("dropin_mismatches", 0) for r in ok),
        "fingerprint_mismatches": sum(not r["fp_ok"] for r in ok),
    }
    print("TOTAL " + " ".join(f"{k}={v}" for k, v in tot.items()), flush=True)
    mutants = {k: [(r[f"{k}_mutant_mismatches"], r[f"{k}_mutant_wrong"]) for r in ok
                   if f"{k}_mutant_mismatches" in r] for k in controls}
    controls_ok = args.compile_only or all(
        mutants[k] and all(x > 0 and w == 0 for x, w in mutants[k]) for k in controls)
    print("NEGATIVE CONTROL (q -> q ^ 1 in masks it changes; each must mismatch the reference "
          "and match the mutated mask's): "
          + "; ".join(f"{k}: {sum(x > 0 for x, _ in v)}/{len(v)} detected, {sum(w == 0 for _, w in v)}/{len(v)} exact"
                      for k, v in mutants.items())
          + (" -> OK" if controls_ok else " -> FAILED"), flush=True)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        name = f"fuzz-results-{args.start}-{args.start + len(recs)}.json"
        (Path(args.out) / name).write_text(json.dumps({"env": env, "total": tot, "results": results}, indent=0))
    bad = errors or tot["module_mismatches"] or tot["dropin_mismatches"] or tot["fingerprint_mismatches"]
    return 1 if (bad or not controls_ok) else 0


if __name__ == "__main__":
    sys.exit(main())
