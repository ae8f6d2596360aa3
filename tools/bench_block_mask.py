"""Time maskopt.create_block_mask against torch's create_block_mask.

    python -m maskopt.tools.bench_block_mask [--device cpu|cuda] [--lengths 4096,16384]
                                             [--long] [--no-compile] [--repeat 3]

For each mask (causal, sliding window, causal document masks with 64 and 1024
documents, prefix LM) and each Q_LEN = KV_LEN, it times, in one run:

* maskopt: the first call (trace, compile, specialization, words), then the
  best of `--repeat` calls with new tensor values of the same mask function
  (new document ids: what a training step sees; the compile is cached);
* torch eager `create_block_mask`: best of `--repeat`;
* torch `_compile=True`: the first call (its compile) and the best of
  `--repeat` after it, unless `--no-compile`.

It checks that maskopt's BlockMask tensors equal torch eager's (a mismatch is
reported in the table as WRONG), prints the ratios and the peak memory:
on CUDA `torch.cuda.max_memory_allocated` over the call; on the CPU the
peak resident set size (VmHWM, reset just before the call through
/proc/self/clear_refs) of a fresh child process making that one call (after
a warm-up call at 256), minus its resident size just before the call: the
allocator's and the Python heap's memory alike (`tracemalloc` would not see
torch's tensors). `--long` adds 65536 and 131072, where torch finishes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable

import torch

MASKS = ("causal", "sliding_window_1024", "doc_causal_64", "doc_causal_1024", "prefix_lm")


def _doc_ids(n: int, docs: int, seed: int, device) -> torch.Tensor:
    """`docs` contiguous documents of random lengths covering [0, n) (at most
    n // 4 of them, for tiny test sizes)."""
    docs = max(1, min(docs, n // 4))
    g = torch.Generator().manual_seed(seed)
    cuts = torch.randperm(n - 1, generator=g)[: docs - 1] + 1
    bounds = torch.cat([torch.tensor([0]), cuts.sort().values, torch.tensor([n])])
    lengths = bounds[1:] - bounds[:-1]
    return torch.repeat_interleave(torch.arange(docs, dtype=torch.int32), lengths).to(device)


def make_mask(name: str, n: int, device, seed: int = 0) -> Callable:
    """A fresh mask_mod of the named family (seed: new tensor values)."""
    if name == "causal":
        def causal(b, h, q_idx, kv_idx):
            return q_idx >= kv_idx
        return causal
    if name == "sliding_window_1024":
        def sliding_window(b, h, q_idx, kv_idx):
            return (q_idx >= kv_idx) & (q_idx - kv_idx < 1024)
        return sliding_window
    if name.startswith("doc_causal_"):
        doc = _doc_ids(n, int(name.rsplit("_", 1)[1]), seed, device)

        def doc_causal(b, h, q_idx, kv_idx):
            return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)
        return doc_causal
    if name == "prefix_lm":
        prefix = n // 4

        def prefix_lm(b, h, q_idx, kv_idx):
            return (kv_idx < prefix) | (q_idx >= kv_idx)
        return prefix_lm
    raise ValueError(f"unknown mask {name!r}")


def _sync(device) -> None:
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def _time(fn, device) -> float:
    _sync(device)
    t = time.perf_counter()
    fn()
    _sync(device)
    return time.perf_counter() - t


def _impl(which: str) -> Callable:
    if which == "maskopt":
        import maskopt

        return maskopt.create_block_mask
    from torch.nn.attention.flex_attention import create_block_mask

    if which == "torch":
        return create_block_mask
    return lambda *a, **k: create_block_mask(*a, _compile=True, **k)


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def _child(which: str, mask: str, n: int, device: str, threads: int) -> None:
    """One call in a fresh process; print its peak-RSS growth (bytes)."""
    if threads:
        torch.set_num_threads(threads)
    fn = _impl(which)
    # warm-up at a small size (lazy imports, maskopt's cached compile, torch's
    # vmap machinery), so that the figure is the call's own memory
    fn(make_mask(mask, 256, device), 1, 1, 256, 256, device=device)
    mm = make_mask(mask, n, device, seed=1)
    reset = _reset_peak_rss()
    base = _rss_bytes()
    fn(mm, 1, 1, n, n, device=device)
    peak = _peak_rss_bytes() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"peak": max(0, peak - base)}))


def _reset_peak_rss() -> bool:
    """Reset the process's peak RSS (VmHWM) to its current RSS (Linux
    /proc/self/clear_refs "5"); False where that is not possible (then
    ru_maxrss, the peak since the process started, is used)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _peak_rss_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def peak_memory(which: str, mask: str, n: int, device: str, threads: int = 0) -> int | None:
    if torch.device(device).type == "cuda":
        fn = _impl(which)
        mm = make_mask(mask, n, device, seed=1)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        try:
            fn(mm, 1, 1, n, n, device=device)
        except torch.OutOfMemoryError:
            return None  # torch eager at 128k: it asks for 128 GiB
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated() - before
    out = subprocess.run(
        [sys.executable, "-m", "maskopt.tools.bench_block_mask", "--child", which, mask, str(n), device,
         str(threads)],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])["peak"]


def _same(a, b) -> bool:
    names = ("kv_num_blocks", "kv_indices", "full_kv_num_blocks", "full_kv_indices",
             "q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices")
    return all(torch.equal(getattr(a, k), getattr(b, k)) for k in names)


def bench(mask: str, n: int, device: str, repeat: int, compiled: bool, memory: bool,
          run_torch: bool = True, threads: int = 0) -> dict:
    import maskopt
    from maskopt.lowering import block_mask as bm

    row: dict = {"mask": mask, "n": n}
    bm.CACHE.clear()
    built = {}
    row["maskopt_first"] = _time(
        lambda: built.setdefault("bm", bm.build_block_mask(make_mask(mask, n, device), 1, 1, n, n, device)),
        device)
    row["path"] = built["bm"].path
    if built["bm"].compiled_tables:
        row["path"] += "/c"  # the compiled path (lowering.block_mask._fast_tables)
    elif bm._use_compiled(torch.device(device)) and bm.LAST_COMPILE_ERROR:
        row["compile_error_mo"] = bm.LAST_COMPILE_ERROR[:300]
    times = []
    for i in range(repeat):
        mm = make_mask(mask, n, device, seed=i + 1)
        out = {}
        times.append(_time(lambda: out.setdefault("bm", maskopt.create_block_mask(mm, 1, 1, n, n, device=device)), device))
    row["maskopt"] = min(times)
    if bm._use_graphs(torch.device(device)):
        again = bm.build_block_mask(make_mask(mask, n, device, seed=99), 1, 1, n, n, device)
        if again.graph:
            row["path"] += "g"  # later calls replay a CUDA graph (lowering.block_mask.GRAPHS)
        row["graph_pool"] = bm.graph_pool_bytes()
    row["torch"] = row["exact"] = None
    if not run_torch:
        compiled = False
        memory_torch = False
    else:
        memory_torch = memory
    torch_cbm = _impl("torch")
    try:
        if not run_torch:
            raise _Skip
        tt = []
        for _ in range(repeat):
            res = {}
            tt.append(_time(lambda: res.setdefault("bm", torch_cbm(mm, 1, 1, n, n, device=device)), device))
        row["torch"] = min(tt)
        row["exact"] = _same(out["bm"], res["bm"])
        del res
    except (torch.OutOfMemoryError, _Skip):
        row["torch"], row["exact"] = None, None
    if compiled:
        comp = _impl("compile")
        try:
            row["compile_first"] = _time(lambda: comp(mm, 1, 1, n, n, device=device), device)
            row["compile"] = min(_time(lambda: comp(make_mask(mask, n, device, seed=i + 9), 1, 1, n, n,
                                                     device=device), device) for i in range(repeat))
        except Exception as e:  # noqa: BLE001 - reported, not fatal
            row["compile_first"] = row["compile"] = None
            row["compile_error"] = f"{type(e).__name__}: {str(e)[:80]}"
    if memory:
        row["mem_maskopt"] = peak_memory("maskopt", mask, n, device, threads)
        row["mem_torch"] = peak_memory("torch", mask, n, device, threads) if memory_torch else None
    return row


class _Skip(Exception):
    pass


def _ms(x) -> str:
    return f"{'-':>9s}" if x is None else f"{x * 1e3:9.1f}"


def _mib(x) -> str:
    return f"{'-':>8s}" if x is None else f"{x / 2**20:8.1f}"


def _ratio(a, b) -> str:
    return "-" if a is None or b is None or b == 0 else f"{a / b:6.1f}x"


def _header(compiled: bool, memory: bool) -> str:
    head = (f"{'mask':20s} {'N':>6s} {'path':>13s} {'mo first':>9s} {'maskopt':>9s} {'torch':>9s} "
            f"{'speedup':>7s}")
    if compiled:
        head += f" {'cmp first':>9s} {'compiled':>9s} {'vs cmp':>7s}"
    if memory:
        head += f" {'mo MiB':>8s} {'torch MiB':>9s}"
    return head + "  exact"


def _line(r: dict, compiled: bool, memory: bool) -> str:
    line = (f"{r['mask']:20s} {r['n']:6d} {r['path']:>13s} {_ms(r['maskopt_first'])} "
            f"{_ms(r['maskopt'])} {_ms(r['torch'])} {_ratio(r['torch'], r['maskopt']):>7s}")
    if compiled:
        line += (f" {_ms(r.get('compile_first'))} {_ms(r.get('compile'))} "
                 f"{_ratio(r.get('compile'), r['maskopt']):>7s}")
    if memory:
        line += f" {_mib(r.get('mem_maskopt'))} {_mib(r.get('mem_torch')):>9s}"
    exact = r["exact"]
    line += "  " + ("-" if exact is None else ("yes" if exact else "WRONG"))
    if r.get("graph_pool"):
        line += f"  graph pool {r['graph_pool'] / 2**20:.1f} MiB"
    if r.get("compile_error_mo"):
        line += f"\n  (maskopt's compiled path failed: {r['compile_error_mo']})"
    if r.get("compile_error"):
        line += f"\n  (_compile=True failed: {r['compile_error']})"
    return line


def print_table(rows: list[dict], compiled: bool, memory: bool) -> None:
    print(_header(compiled, memory))
    for r in rows:
        print(_line(r, compiled, memory), flush=True)


def flex_forward(n: int, device: str, repeat: int, heads: int = 16, dim: int = 64,
                 docs: int = 64) -> dict:
    """flex_attention forward (torch.compile'd: the Triton backend on Hopper)
    with torch's BlockMask of the causal document mask_mod and with maskopt's
    BlockMask, whose mask_mod is the specialized one: both times, and the
    largest difference of the outputs."""
    import maskopt
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    mm = make_mask(f"doc_causal_{docs}", n, device, seed=1)
    theirs = create_block_mask(mm, 1, 1, n, n, device=device)
    ours = maskopt.create_block_mask(mm, 1, 1, n, n, device=device)
    g = torch.Generator(device=device).manual_seed(0)
    q, k, v = (torch.randn(1, heads, n, dim, device=device, dtype=torch.bfloat16, generator=g)
               for _ in range(3))
    fa = torch.compile(flex_attention)
    row = {"n": n, "specialized": ours.mask_mod is not mm}
    outs = {}
    for name, block_mask in (("original", theirs), ("specialized", ours)):
        outs[name] = fa(q, k, v, block_mask=block_mask)  # compile
        _sync(device)
        row[name] = min(_time(lambda: fa(q, k, v, block_mask=block_mask), device)
                        for _ in range(max(repeat, 5)))
    row["max_diff"] = float((outs["original"].float() - outs["specialized"].float()).abs().max())
    row["equal"] = bool(torch.equal(outs["original"], outs["specialized"]))
    return row


def print_flex(r: dict, header: bool) -> None:
    if header:
        print(f"{'flex fwd doc_causal_64':22s} {'N':>6s} {'original':>9s} {'special.':>9s} "
              f"{'orig/spec':>9s}  outputs")
    agree = "identical" if r["equal"] else f"max |diff| {r['max_diff']:.3g}"
    print(f"{'':22s} {r['n']:6d} {_ms(r['original'])} {_ms(r['specialized'])} "
          f"{_ratio(r['original'], r['specialized']):>9s}  {agree}"
          + ("" if r["specialized"] else "  (NOT specialized)"), flush=True)


# SASS: attn-gym masks after specialization vs hand-written start/end masks ---

#: (name, shape (B, H, Q, KV)) of the attn-gym masks compared by `--sass`.
SASS_MASKS = (
    "doc_causal", "doc_full", "doc_sliding_window_256", "packed_causal_doc", "shared_prefix",
    "global_sliding_window_1run", "global_sliding_window_2runs", "vision_cross_attention",
)


def sass_pair(name: str, n: int = 4096):
    """(attn-gym mask_mod, hand-written start/end mask_mod, Q, KV) of one row
    of `--sass`: the hand-written mask reads per-row int32 bounds (what a
    user would write instead of the attn-gym form)."""
    from attn_gym.masks import (causal_mask, generate_doc_mask_mod, generate_global_sliding_window,
                                generate_packed_causal_doc_mask_mod, generate_shared_prefix_mask_mod,
                                generate_vision_cross_attention_mask_mod)
    from attn_gym.masks.sliding_window import generate_sliding_window
    from torch.nn.attention.flex_attention import noop_mask

    i32 = torch.int32
    if name.startswith(("doc_", "packed_", "shared_")):
        lengths = torch.tensor([300, 1, 700, 1000, 95, 2000])
        offsets = torch.cat([torch.zeros(1, dtype=torch.int64), lengths.cumsum(0)]).to(i32)
        doc = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
        start, end = offsets[doc].to(i32), offsets[doc + 1].to(i32)
        if name == "doc_causal":
            def hand(b, h, q_idx, kv_idx):
                return (kv_idx >= start[q_idx]) & (kv_idx < end[q_idx]) & (q_idx >= kv_idx)
            return generate_doc_mask_mod(causal_mask, offsets), hand, n, n
        if name == "doc_full":
            def hand(b, h, q_idx, kv_idx):
                return (kv_idx >= start[q_idx]) & (kv_idx < end[q_idx])
            return generate_doc_mask_mod(noop_mask, offsets), hand, n, n
        if name == "doc_sliding_window_256":
            def hand(b, h, q_idx, kv_idx):
                return ((kv_idx >= start[q_idx]) & (kv_idx < end[q_idx]) & (q_idx >= kv_idx)
                        & (q_idx - kv_idx <= 256))
            return generate_doc_mask_mod(generate_sliding_window(256), offsets), hand, n, n
        if name == "packed_causal_doc":
            def hand(b, h, q_idx, kv_idx):
                return (kv_idx >= start[q_idx]) & (q_idx >= kv_idx)
            return generate_packed_causal_doc_mask_mod(offsets), hand, n, n
        # shared prefix: documents 1, 2 continue prefix 0, documents 4, 5 prefix 3
        prefix = torch.tensor([0, 0, 0, 3, 3, 3])
        p_start = offsets[prefix[doc]].to(i32)
        p_end = torch.where(prefix[doc] == doc, p_start, offsets[prefix[doc] + 1]).to(i32)

        def hand(b, h, q_idx, kv_idx):
            return (((kv_idx >= start[q_idx]) & (q_idx >= kv_idx))
                    | ((kv_idx >= p_start[q_idx]) & (kv_idx < p_end[q_idx])))
        return generate_shared_prefix_mask_mod(offsets, prefix.to(offsets.device)), hand, n, n
    if name.startswith("global_sliding_window"):
        flags = torch.zeros(n, dtype=torch.bool)
        flags[:4] = True
        two = name.endswith("2runs")
        if two:
            flags[2000:2004] = True
        full = torch.full((n,), n, dtype=i32)
        g0_lo = torch.zeros(n, dtype=i32)
        g0_hi = torch.where(flags, full, 4).to(i32)
        g1_lo = torch.where(flags, full, 2000).to(i32)
        g1_hi = torch.where(flags, full, 2004).to(i32)

        def hand(b, h, q_idx, kv_idx):
            keep = ((q_idx - kv_idx).abs() <= 256) | ((kv_idx >= g0_lo[q_idx]) & (kv_idx < g0_hi[q_idx]))
            if two:
                keep = keep | ((kv_idx >= g1_lo[q_idx]) & (kv_idx < g1_hi[q_idx]))
            return keep
        return generate_global_sliding_window(256, flags), hand, n, n
    if name == "vision_cross_attention":
        tokens, n_images, Q = 256, 8, n
        starts = torch.tensor([0, 100, 600, 600, 1500, 2500, 3000, 3800])
        ends = torch.tensor([700, 700, 1500, 2000, 3000, 4000, 4096, 4096])
        intervals = torch.stack([starts, ends], 1).to(i32)
        q = torch.arange(Q).reshape(-1, 1)
        seen = (q >= starts) & (q < ends)  # [Q, images]: contiguous per row here
        first = torch.where(seen.any(1), seen.int().argmax(1), 0)
        last = torch.where(seen.any(1), n_images - seen.flip(1).int().argmax(1), 0)
        lo, hi = (first * tokens).to(i32), (last * tokens).to(i32)

        def hand(b, h, q_idx, kv_idx):
            return (kv_idx >= lo[q_idx]) & (kv_idx < hi[q_idx])
        return generate_vision_cross_attention_mask_mod(intervals, tokens), hand, Q, n_images * tokens
    raise ValueError(f"unknown --sass mask {name!r}")


def sass_table(names=SASS_MASKS, jobs: int = 2) -> str:
    """Harness SASS counts (maskopt.tools.bench_sass's one-thread-per-row
    sm_100a kernel) of each attn-gym mask after maskopt.create_block_mask's
    specialization and of its hand-written start/end counterpart."""
    from maskopt.lowering import block_mask as bm
    from maskopt.tools.bench_sass import SCAFFOLD_SOURCE, case_modules, compile_jobs
    from torch.nn.attention.flex_attention import create_mask

    rows, sources = [], [(SCAFFOLD_SOURCE, [])]
    for name in names:
        mm, hand, Q, KV = sass_pair(name)
        built = bm.build_block_mask(mm, 1, 1, Q, KV, "cpu")
        spec = built.block_mask.mask_mod
        exact = (torch.equal(create_mask(mm, 1, 1, Q, KV, "cpu"), create_mask(spec, 1, 1, Q, KV, "cpu"))
                 and torch.equal(create_mask(mm, 1, 1, Q, KV, "cpu"),
                                 create_mask(hand, 1, 1, Q, KV, "cpu")))
        row = {"mask": name, "path": built.path, "exact": exact}
        for variant, fn in (("specialized", spec), ("hand", hand)):
            aux, packed, out = case_modules(fn, f"{name}_{variant}")
            row[f"{variant}_packed"] = packed
            row[f"{variant}_at"] = len(sources)
            sources.append((out["maskopt"], aux))
        rows.append(row)
    results = compile_jobs(sources, jobs=jobs)

    def count(i):
        r = results[i]
        return r.sass_count if r.ok else None
    lines = ["| mask | create_block_mask path | specialized | hand-written start/end | "
             "specialized - hand | same mask as the original |", "|---|---|---:|---:|---:|---|"]
    for row in rows:
        a, b = count(row["specialized_at"]), count(row["hand_at"])
        tag = lambda v: "" if row[f"{v}_packed"] else " (per-lane)"  # noqa: E731
        diff = "-" if a is None or b is None else f"{a - b:+d}"
        lines.append(f"| {row['mask']} | {row['path']} | {a}{tag('specialized')} | {b}{tag('hand')} | "
                     f"{diff} | {'yes' if row['exact'] else 'NO'} |")
    lines.append("")
    lines.append(f"Harness scaffold (constant 0 word): {count(0)} instructions.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2], int(argv[3]), argv[4], int(argv[5]))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--lengths", default="4096,16384")
    p.add_argument("--long", action="store_true", help="add 65536 and 131072")
    p.add_argument("--masks", default=",".join(MASKS))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-compile", action="store_true", help="skip torch's _compile=True")
    p.add_argument("--no-memory", action="store_true", help="skip the peak-memory measurements")
    p.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: torch's default)")
    p.add_argument("--max-torch-len", type=int, default=0,
                   help="run torch's create_block_mask only up to this length (0: always)")
    p.add_argument("--sass", action="store_true",
                   help="instead: SASS counts (sm_100a harness) of the attn-gym document, global-token "
                        "and cross-attention masks after specialization vs hand-written start/end masks")
    p.add_argument("--jobs", type=int, default=2, help="compile workers for --sass")
    p.add_argument("--flex-lengths", default=None,
                   help="lengths of the flex_attention forward comparison (original vs specialized "
                        "doc_causal_64; default 16384 on CUDA, none on the CPU)")
    args = p.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    # every call builds a fresh mask_mod (new closure): without this, torch's
    # _compile=True recompiles past dynamo's limit of 8 and then runs eagerly
    for knob, value in (("recompile_limit", 1 << 10), ("accumulated_recompile_limit", 1 << 12),
                        ("cache_size_limit", 1 << 10), ("accumulated_cache_size_limit", 1 << 12)):
        if hasattr(torch._dynamo.config, knob):
            setattr(torch._dynamo.config, knob, value)
    if args.sass:
        print(sass_table(jobs=args.jobs), end="")
        return 0
    lengths = [int(x) for x in args.lengths.split(",")]
    if args.long:
        lengths += [65536, 131072]
    compiled, memory = not args.no_compile, not args.no_memory
    print(f"# device {args.device}"
          + (f" ({torch.cuda.get_device_name()})" if args.device.startswith("cuda") else "")
          + f", torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"times in ms (best of {args.repeat}; first call separately), B = H = 1, BLOCK_SIZE 128",
          flush=True)
    rows = []
    print(_header(compiled, memory), flush=True)
    for n in lengths:
        for mask in args.masks.split(","):
            run_torch = not args.max_torch_len or n <= args.max_torch_len
            rows.append(bench(mask, n, args.device, args.repeat, compiled, memory, run_torch,
                              args.threads))
            print(_line(rows[-1], compiled, memory), flush=True)
    flex = args.flex_lengths
    if flex is None:
        flex = "16384" if args.device.startswith("cuda") else ""
    for i, n in enumerate(int(x) for x in flex.split(",") if x):
        print_flex(flex_forward(n, args.device, args.repeat), i == 0)
    return 0 if all(r["exact"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
