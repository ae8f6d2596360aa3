"""Breakdown of maskopt.create_block_mask calls on a GPU, without and with
CUDA graphs (lowering.block_mask.GRAPHS) in one process: best of 7 calls
with new tensor values; without graphs the specialization and the
compiled-tables parts timed apart (synchronized); a torch.profiler table of
one call of each.

    MASKS=doc_causal_64 python3 tools/gpu/prof_block_mask.py cuda 16384
    VARIANTS=graph PROFILE=0 ...   (only the graph path, no profiler table)
"""
import os, sys, time, torch
import maskopt
from maskopt.lowering import block_mask as bm, specialize as sp
from maskopt.tools.bench_block_mask import make_mask
dev = sys.argv[1] if len(sys.argv) > 1 else "cuda"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 16384
def sync():
    if dev == "cuda": torch.cuda.synchronize()
if dev == "cuda":
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}")
for name in os.environ.get("MASKS", "causal,doc_causal_64").split(","):
  if os.environ.get("TORCH", "1") != "0":  # torch's eager create_block_mask, same values
    from torch.nn.attention.flex_attention import create_block_mask as tcbm
    tt = []
    for s in range(1, 5):
        m = make_mask(name, N, dev, seed=s); sync()
        t = time.perf_counter(); tcbm(m, 1, 1, N, N, device=dev); sync(); tt.append(time.perf_counter() - t)
    print(f"{name} N={N} [torch eager] best of 3 after one warm-up {min(tt[1:])*1e3:.3f} ms")
  for variant in os.environ.get("VARIANTS", "main,graph").split(","):
    bm.GRAPHS = "auto" if variant == "graph" else False
    bm.CACHE.clear()
    m = make_mask(name, N, dev, seed=0)
    sync(); t = time.perf_counter(); maskopt.create_block_mask(m, 1, 1, N, N, device=dev); sync()
    first = time.perf_counter() - t
    ts, graphs = [], 0
    for s in range(1, 8):
        m = make_mask(name, N, dev, seed=s); sync()
        t = time.perf_counter(); r = bm.build_block_mask(m, 1, 1, N, N, device=dev); sync(); ts.append(time.perf_counter() - t)
        graphs += r.graph
    extra = f"  graph replays {graphs}/7, pool {bm.graph_pool_bytes() / 2**20:.1f} MiB" if variant == "graph" else ""
    if variant == "graph" and bm.LAST_GRAPH_ERROR:
        extra += f"  (last graph error: {bm.LAST_GRAPH_ERROR})"
    print(f"{name} N={N} [{variant}] first {first*1e3:.1f} ms, best {min(ts)*1e3:.3f} ms  all {[round(x*1e3,3) for x in ts]}{extra}")
    if variant != "graph":
        orig_spec, orig_fast = sp.specialize_mask, bm._fast_tables
        acc = {"spec": [], "fast": []}
        def tspec(*a, **k):
            sync(); t = time.perf_counter(); r = orig_spec(*a, **k); sync(); acc["spec"].append(time.perf_counter() - t); return r
        def tfast(*a, **k):
            sync(); t = time.perf_counter(); r = orig_fast(*a, **k); sync(); acc["fast"].append(time.perf_counter() - t); return r
        sp.specialize_mask, bm._fast_tables = tspec, tfast
        for s in range(10, 15):
            m = make_mask(name, N, dev, seed=s); maskopt.create_block_mask(m, 1, 1, N, N, device=dev)
        sp.specialize_mask, bm._fast_tables = orig_spec, orig_fast
        print("  parts (best ms):", {k: round(min(v)*1e3, 3) if v else None for k, v in acc.items()})
    if os.environ.get("PROFILE", "1") != "0":
        m = make_mask(name, N, dev, seed=20)
        from torch.profiler import profile, ProfilerActivity
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev == "cuda" else [])
        with profile(activities=acts) as prof:
            maskopt.create_block_mask(m, 1, 1, N, N, device=dev); sync()
        print(prof.key_averages().table(sort_by="cuda_time_total" if dev == "cuda" else "cpu_time_total", row_limit=15))
