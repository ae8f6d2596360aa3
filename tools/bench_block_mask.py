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
        fn(mm, 1, 1, n, n, device=device)
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
    times = []
    for i in range(repeat):
        mm = make_mask(mask, n, device, seed=i + 1)
        out = {}
        times.append(_time(lambda: out.setdefault("bm", maskopt.create_block_mask(mm, 1, 1, n, n, device=device)), device))
    row["maskopt"] = min(times)
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


def print_table(rows: list[dict], compiled: bool, memory: bool) -> None:
    head = (f"{'mask':20s} {'N':>6s} {'path':>11s} {'mo first':>9s} {'maskopt':>9s} {'torch':>9s} "
            f"{'speedup':>7s}")
    if compiled:
        head += f" {'cmp first':>9s} {'compiled':>9s} {'vs cmp':>7s}"
    if memory:
        head += f" {'mo MiB':>8s} {'torch MiB':>9s}"
    head += "  exact"
    print(head)
    for r in rows:
        line = (f"{r['mask']:20s} {r['n']:6d} {r['path']:>11s} {_ms(r['maskopt_first'])} "
                f"{_ms(r['maskopt'])} {_ms(r['torch'])} {_ratio(r['torch'], r['maskopt']):>7s}")
        if compiled:
            line += (f" {_ms(r.get('compile_first'))} {_ms(r.get('compile'))} "
                     f"{_ratio(r.get('compile'), r['maskopt']):>7s}")
        if memory:
            line += f" {_mib(r.get('mem_maskopt'))} {_mib(r.get('mem_torch')):>9s}"
        exact = r["exact"]
        line += "  " + ("-" if exact is None else ("yes" if exact else "WRONG"))
        print(line, flush=True)
        if r.get("compile_error"):
            print(f"  (_compile=True failed: {r['compile_error']})")


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
    args = p.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    lengths = [int(x) for x in args.lengths.split(",")]
    if args.long:
        lengths += [65536, 131072]
    compiled, memory = not args.no_compile, not args.no_memory
    print(f"# device {args.device}, torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"times in ms (best of {args.repeat}; first call separately), B = H = 1, BLOCK_SIZE 128")
    rows = []
    for n in lengths:
        for mask in args.masks.split(","):
            run_torch = not args.max_torch_len or n <= args.max_torch_len
            rows.append(bench(mask, n, args.device, args.repeat, compiled, memory, run_torch,
                              args.threads))
    print_table(rows, compiled, memory)
    return 0 if all(r["exact"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
