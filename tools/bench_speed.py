"""
Side-by-side speed benchmark: maskopt's full path against torch inductor's
`select_packed_mask_intervals`, in one process, on the same traced graphs.

    python -m maskopt.tools.bench_speed                 # everything
    python -m maskopt.tools.bench_speed --no-scaling --no-cold
    python -m maskopt.tools.bench_speed --sizes 10,100,1000,5000 --repeat 7
    python -m maskopt.tools.bench_speed --stages full,causal --no-corpus --no-scaling --no-cold

What is timed
-------------
- maskopt: `maskopt.compile_mask(graph_module)`: FX import, the `pack-mask`
  pipeline, verification, the CuTe module text and the keep-mask
  expressions. Tracing is not timed (both tools consume the same traced
  `GraphModule`).
- inductor: `select_packed_mask_intervals(graph_module)` inside
  `V.set_graph_handler(handler)`. The handler (a `SizeVarAllocator`, about
  25 ms to build) stands for the `GraphLowering` that already exists when
  inductor lowers flex_attention, so it is built before the clock starts,
  a fresh one per call.

Definitions
-----------
- Process warm-up: before anything is timed, both tools analyse one
  warm-up mask that is not in the corpus. Imports and one-time set-up are
  therefore outside every figure (import costs are in the cold-start table).
- first call: the first analysis of each distinct graph in the process,
  masks in corpus order, the two tools alternating mask by mask. Global
  caches warmed by earlier masks (sympy's cache for inductor) count, as they
  would in a long-running compile.
- warm: the median of `--repeat` further calls on the same graph.
- The figures per mask are medians; the summary takes the median over masks.
  `gc.collect()` runs before every timed call. The clock is the process's
  CPU time (`time.process_time`): the machines this runs on are shared, and
  wall time would count the time the process spends descheduled. (Both
  tools run single-threaded Python here.)

Scaling: generated FX graphs of about N call nodes in five families (a deep
`&` chain of window comparisons, a balanced `|`/`&` tree, a long affine chain
feeding one comparison, many lane-uniform aux loads, an `&` chain of
comparisons that do not pack); maskopt's figure is the median of
`--scaling-repeat` calls after a warm-up call (single calls of the same
compile vary by a quarter on a shared machine), inductor's one call.
Cold start: `mask-opt` on a `.mlir` file in a fresh process (and whether
torch was imported), and on a `.py` mask_mod, next to
`python -c "import torch"`.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

# --------------------------------------------------------------------------
# timing helpers
# --------------------------------------------------------------------------


def _time_call(fn: Callable[[], Any], setup: Callable[[], Any] | None = None) -> float:
    """Seconds of one call of fn(); setup() runs before the clock starts."""
    if setup is not None:
        setup()
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def _ms(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1e3:.3f}" if x < 0.01 else f"{x * 1e3:.2f}"


# --------------------------------------------------------------------------
# the two tools
# --------------------------------------------------------------------------


class _Inductor:
    """inductor's packer with a handler built outside the timed region."""

    def __init__(self) -> None:
        from torch._inductor.kernel.flex.interval_mask_packing import (
            select_packed_mask_intervals,
        )
        from torch._inductor.virtualized import V

        from maskopt.tools.corpus import _mock_graph_handler

        self.select = select_packed_mask_intervals
        self.V = V
        self.make_handler = _mock_graph_handler
        self.handler = None

    def setup(self) -> None:
        self.handler = self.make_handler()

    def __call__(self, gm) -> Any:
        with self.V.set_graph_handler(self.handler):
            return self.select(gm)


def _maskopt(gm, name: str = "mask_mod"):
    import maskopt

    return maskopt.compile_mask(gm, name=name)


def _warm_up(ind: _Inductor) -> None:
    from maskopt.lowering.trace import trace_mask_mod

    def warm_up_mask(b, h, q_idx, kv_idx):  # not in the corpus
        return ((q_idx - kv_idx) <= 17) & (kv_idx + 3 >= q_idx // 5)

    gm = trace_mask_mod(warm_up_mask).graph_module
    _maskopt(gm)
    ind.setup()
    ind(gm)


# --------------------------------------------------------------------------
# stages
# --------------------------------------------------------------------------


def bench_stages(names: list[str], repeat: int) -> dict:
    """
    Where maskopt's warm time goes, per mask: the stages of `compile_mask`'s
    default path run one by one (FX import, each pass of `pack-mask`,
    the one verification, the CuTe module, the keep-mask expressions), each
    the median of `repeat` calls (CPU time, `gc` paused as in
    `compile_mask`), with the number of ops in the module after the pipeline
    and the CuTe module text (the same as `compile_mask`'s).
    """
    import io

    from xdsl.dialects.builtin import ModuleOp

    from maskopt.lowering.cute import CuteEmitError, keep_mask_exprs, print_cute_module
    from maskopt.lowering.fx_import import import_graph
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.passes.pipeline import pack_mask_passes
    from maskopt import gc_paused, make_context
    from maskopt.tools.corpus import get_case

    _warm_up(_Inductor())
    out = {}
    for name in names:
        gm = trace_mask_mod(get_case(name).make(), name=name).graph_module
        times: dict[str, list[float]] = {}
        n_ops = 0
        for _ in range(repeat + 1):  # the first round warms this graph's caches
            clock = time.process_time
            with gc_paused():
                t = [clock()]
                module = ModuleOp([import_graph(gm, "f")])
                t.append(clock())
                ctx = make_context()
                labels = ["FX import"]
                for p in pack_mask_passes():
                    p.apply(ctx, module)
                    t.append(clock())
                    labels.append(p.name)
                module.verify()
                t.append(clock())
                text = io.StringIO()
                print_cute_module(module, text)
                t.append(clock())
                func = module.ops.first
                if func.is_packed:
                    try:
                        keep_mask_exprs(func)
                    except CuteEmitError:
                        pass
                t.append(clock())
            labels += ["verify", "CuTe module", "keep-mask exprs"]
            n_ops = sum(1 for _ in module.walk()) - 1
            for i, label in enumerate(labels):
                key = f"{i}:{label}"
                times.setdefault(key, []).append(t[i + 1] - t[i])
        out[name] = {
            "stages": {k: statistics.median(v[1:]) for k, v in times.items()},
            "ops": n_ops,
            "cute_source": text.getvalue(),
        }
    return {"masks": out, "repeat": repeat}


def bench_xdsl_floor(n: int = 2000) -> dict[str, float]:
    """xDSL's own per-op costs in this process (CPU us, median of 5 batches of
    `n`): building an `arith.addi` and an `arith.constant`, and verifying one
    op of a small function (the generic IRDL verifier)."""
    from xdsl.dialects import arith, builtin
    from xdsl.dialects.builtin import ModuleOp

    from maskopt.lowering.fx_import import import_graph
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.passes.pipeline import pack_mask_passes
    from maskopt import gc_paused, make_context
    from maskopt.tools.corpus import get_case

    c = arith.ConstantOp.from_int_and_width(5, 32)

    def per_call(fn, count):
        times = []
        for _ in range(5):
            with gc_paused():  # as in compile_mask
                t = time.process_time()
                for _ in range(count):
                    fn()
                times.append((time.process_time() - t) / count * 1e6)
        return statistics.median(times)

    module = ModuleOp([import_graph(trace_mask_mod(get_case("sliding_window_100").make()).graph_module, "f")])
    ctx = make_context()
    for p in pack_mask_passes():
        p.apply(ctx, module)
    n_ops = sum(1 for _ in module.walk())
    return {
        "build arith.addi": per_call(lambda: arith.AddiOp(c.result, c.result), n),
        "build arith.constant": per_call(lambda: arith.ConstantOp.from_int_and_width(7, 32), n),
        "verify, per op": per_call(module.verify, n // 20) / n_ops,
        "IntegerAttr": per_call(lambda: builtin.IntegerAttr(7, builtin.i32), n),
    }


def print_stages(result: dict) -> None:
    masks = result["masks"]
    names = list(masks)
    print(f"## Stages of the warm path, median of {result['repeat']} calls (ms)\n")
    print("| stage | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    keys = list(next(iter(masks.values()))["stages"])
    for k in keys:
        cells = []
        for n in names:
            st = masks[n]["stages"]
            total = sum(st.values())
            cells.append(f"{st[k] * 1e3:.3f} ({st[k] / total:.0%})")
        print(f"| {k.split(':', 1)[1]} | " + " | ".join(cells) + " |")
    totals = [sum(masks[n]["stages"].values()) * 1e3 for n in names]
    print("| **total** | " + " | ".join(f"**{t:.3f}**" for t in totals) + " |")
    print("| ops after pack-mask | " + " | ".join(str(masks[n]["ops"]) for n in names) + " |")
    print()
    floor = bench_xdsl_floor()
    print("xDSL's own costs in this process (us): " + ", ".join(f"{k} {v:.1f}" for k, v in floor.items()) + ".\n")


# --------------------------------------------------------------------------
# corpus
# --------------------------------------------------------------------------


def bench_corpus(repeat: int, names: list[str] | None = None) -> dict:
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.corpus import CORPUS

    ind = _Inductor()
    _warm_up(ind)
    cases = [c for c in CORPUS if names is None or c.name in names]
    graphs = []
    for c in cases:
        try:
            graphs.append((c.name, trace_mask_mod(c.make(), name=c.name).graph_module))
        except Exception as e:  # noqa: BLE001 - a corpus entry that does not trace
            print(f"# {c.name}: not traced ({type(e).__name__}: {e})", file=sys.stderr)
    rows = []
    for name, gm in graphs:
        mo_first = _time_call(lambda: _maskopt(gm, name))
        ind_first = _time_call(lambda: ind(gm), ind.setup)
        rows.append({"name": name, "mo_first": mo_first, "ind_first": ind_first})
    for row, (name, gm) in zip(rows, graphs):
        mo, nd = [], []
        for _ in range(repeat):
            mo.append(_time_call(lambda: _maskopt(gm, name)))
            nd.append(_time_call(lambda: ind(gm), ind.setup))
        row["mo_warm"] = statistics.median(mo)
        row["ind_warm"] = statistics.median(nd)
        row["nodes"] = sum(1 for n in gm.graph.nodes if n.op == "call_function")
        res = _maskopt(gm, name)
        ind.setup()
        row["mo_packed"] = res.packed
        row["ind_packed"] = ind(gm) is not None
    return {"rows": rows, "repeat": repeat}


def print_corpus(result: dict) -> None:
    rows = result["rows"]
    print(f"## Corpus: {len(rows)} masks, warm = median of {result['repeat']} calls (ms)\n")
    print("| mask | nodes | maskopt first | inductor first | maskopt warm | inductor warm "
          "| mo warm / ind first | packs (mo/ind) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(
            f"| {r['name']} | {r['nodes']} | {_ms(r['mo_first'])} | {_ms(r['ind_first'])} "
            f"| {_ms(r['mo_warm'])} | {_ms(r['ind_warm'])} "
            f"| {r['mo_warm'] / r['ind_first']:.2f} "
            f"| {'y' if r['mo_packed'] else 'n'}/{'y' if r['ind_packed'] else 'n'} |"
        )
    med = {k: statistics.median(r[k] for r in rows) for k in ("mo_first", "ind_first", "mo_warm", "ind_warm")}
    print()
    print("| median over masks | maskopt | inductor | maskopt / inductor |")
    print("|---|---:|---:|---:|")
    print(f"| first call (ms) | {_ms(med['mo_first'])} | {_ms(med['ind_first'])} "
          f"| {med['mo_first'] / med['ind_first']:.2f} |")
    print(f"| warm (ms) | {_ms(med['mo_warm'])} | {_ms(med['ind_warm'])} "
          f"| {med['mo_warm'] / med['ind_warm']:.2f} |")
    ratio = med["mo_warm"] / med["ind_first"]
    print(
        f"\nTarget: maskopt warm median <= inductor first-call median: "
        f"{_ms(med['mo_warm'])} ms vs {_ms(med['ind_first'])} ms, ratio {ratio:.2f} "
        f"({'met' if ratio <= 1 else 'NOT met'}). Packed: maskopt "
        f"{sum(r['mo_packed'] for r in rows)}, inductor {sum(r['ind_packed'] for r in rows)}.\n"
    )


# --------------------------------------------------------------------------
# generated graphs
# --------------------------------------------------------------------------


class _GraphBuilder:
    """Builds an inductor-style mask FX graph directly (no tracing)."""

    def __init__(self, aux: list[tuple[str, Any]] = ()) -> None:  # type: ignore[assignment]
        import torch
        import torch.fx

        self.torch = torch
        self.aten = torch.ops.aten
        self.graph = torch.fx.Graph()
        self.calls = 0
        self.args = []
        for name in ("b", "h", "q_idx", "kv_idx"):
            self.args.append(self._meta(self.graph.placeholder(name), torch.empty((), dtype=torch.int32)))
        for name, t in aux:
            self.args.append(self._meta(self.graph.placeholder(name), t))

    @staticmethod
    def _meta(node, val):
        from torch.fx.passes.shape_prop import _extract_tensor_metadata

        node.meta["val"] = val
        node.meta["tensor_meta"] = _extract_tensor_metadata(val)
        return node

    def call(self, target, args, dtype=None):
        dtype = dtype or self.torch.int32
        self.calls += 1
        return self._meta(self.graph.call_function(target, tuple(args)), self.torch.empty((), dtype=dtype))

    def cmp(self, target, *args):
        return self.call(target, args, self.torch.bool)

    def done(self, out):
        import torch.fx

        self.graph.output(out)
        return torch.fx.GraphModule(torch.nn.Module(), self.graph)


def _and_chain(n: int, base, leaf_calls: int, leaf):
    """`q >= kv & leaf(x, 0) & leaf(x, 1) & ...`, left-leaning, with `x =
    base(q, kv)`; a leaf adds `leaf_calls` call nodes, about n in all."""
    g = _GraphBuilder()
    b, h, q, kv = g.args
    x = g.call(base, (q, kv))
    acc = g.cmp(g.aten.ge.Tensor, q, kv)
    i = 0
    while g.calls + leaf_calls + 1 <= n:
        acc = g.cmp(g.aten.bitwise_and.Tensor, acc, leaf(g, x, i))
        i += 1
    return g.done(acc)


def gen_and_chain(n: int):
    """A deep left-leaning `&` chain of window comparisons (one run)."""
    import torch

    aten = torch.ops.aten
    return _and_chain(n, aten.sub.Tensor, 1, lambda g, d, i: g.cmp(aten.le.Scalar, d, 1000 + i))


def gen_tree(n: int):
    """A balanced tree alternating `|` and `&` over window comparisons."""
    g = _GraphBuilder()
    a = g.aten
    b, h, q, kv = g.args
    d = g.call(a.sub.Tensor, (q, kv))
    leaves = []
    i = 0
    while g.calls + 2 <= n // 2 + 1 or not leaves:
        leaves.append(g.cmp(a.le.Scalar, d, 64 * i))
        i += 1
    level = 0
    while len(leaves) > 1:
        op = a.bitwise_or.Tensor if level % 2 == 0 else a.bitwise_and.Tensor
        nxt = [g.cmp(op, leaves[j], leaves[j + 1]) for j in range(0, len(leaves) - 1, 2)]
        if len(leaves) % 2:
            nxt.append(leaves[-1])
        leaves = nxt
        level += 1
    return g.done(leaves[0])


def gen_affine_chain(n: int):
    """q_idx + 1 - 1 + 2 - 2 + ... (a long chain), then `>= kv_idx`."""
    g = _GraphBuilder()
    a = g.aten
    b, h, q, kv = g.args
    x = q
    i = 0
    while g.calls + 1 < n:
        x = g.call(a.add.Tensor if i % 2 == 0 else a.sub.Tensor, (x, kv if i % 4 < 2 else h)) if i % 8 == 7 \
            else g.call(a.add.Scalar if i % 2 == 0 else a.sub.Scalar, (x, 1 + i % 3))
        i += 1
    return g.done(g.cmp(a.ge.Tensor, x, kv))


def gen_aux_loads(n: int):
    """Many lane-uniform aux loads: kv >= starts[q + i] & kv < ends[q + i] & ..."""
    import torch

    size = 4096
    g = _GraphBuilder([
        ("starts", torch.zeros(size, dtype=torch.int32)),
        ("ends", torch.zeros(size, dtype=torch.int32)),
    ])
    a = g.aten
    b, h, q, kv, starts, ends = g.args
    acc = g.cmp(a.ge.Tensor, q, kv)
    i = 0
    while g.calls + 5 <= n:
        idx = g.call(a.add.Scalar, (q, i % 64))
        tensor = starts if i % 2 == 0 else ends
        load = g.call(a.index.Tensor, (tensor, [idx]))
        c = g.cmp(a.ge.Tensor if i % 2 == 0 else a.lt.Tensor, kv, load)
        acc = g.cmp(a.bitwise_and.Tensor, acc, c)
        i += 1
    return g.done(acc)


def gen_per_lane_chain(n: int):
    """An `&` chain of comparisons that do not pack (`q * kv` may wrap, so
    nothing is lane-affine): every one is tried for lane splitting and the
    module evaluates the chain per lane."""
    import torch

    aten = torch.ops.aten

    def leaf(g, m, i):
        return g.cmp(aten.ne.Scalar, g.call(aten.remainder.Scalar, (m, 1000 + i)), i)

    return _and_chain(n, aten.mul.Tensor, 2, leaf)


FAMILIES: dict[str, Callable[[int], Any]] = {
    "and-chain": gen_and_chain,
    "or/and-tree": gen_tree,
    "affine-chain": gen_affine_chain,
    "aux-loads": gen_aux_loads,
    "per-lane-chain": gen_per_lane_chain,
}


def _attempt(fn: Callable[[], Any], setup=None) -> tuple[float | None, str]:
    try:
        return _time_call(fn, setup), ""
    except RecursionError:
        return None, "RecursionError"
    except Exception as e:  # noqa: BLE001 - the table reports it
        return None, type(e).__name__


#: inductor is not run on the next size of a family once it took this long
IND_SKIP_S = 3.0


def bench_scaling(
    sizes: list[int], families: list[str] | None = None, repeat: int = 3
) -> list[dict]:
    ind = _Inductor()
    _warm_up(ind)
    rows = []
    for family, gen in FAMILIES.items():
        if families and family not in families:
            continue
        for n in sizes:
            gm = gen(n)
            nodes = sum(1 for x in gm.graph.nodes if x.op == "call_function")
            _attempt(lambda: _maskopt(gm))  # warm-up on this shape
            times = [_attempt(lambda: _maskopt(gm)) for _ in range(repeat)]
            mo_err = next((err for t, err in times if t is None), "")
            mo = None if mo_err else statistics.median(t for t, _ in times)
            packed = None
            if mo is not None:
                packed = _maskopt(gm).packed
            prev = next((r for r in reversed(rows) if r["family"] == family), None)
            if prev is not None and (prev["ind"] is None or prev["ind"] > IND_SKIP_S):
                # inductor failed or took long at the previous size: not run again
                nd, nd_err = None, "skipped" if prev["ind"] is not None else prev["ind_err"]
            else:
                nd, nd_err = _attempt(lambda: ind(gm), ind.setup)
            rows.append({
                "family": family, "n": n, "nodes": nodes, "mo": mo, "mo_err": mo_err,
                "ind": nd, "ind_err": nd_err, "packed": packed,
            })
    return rows


def print_scaling(rows: list[dict], repeat: int = 3) -> None:
    print(f"## Scaling: generated graphs (ms; maskopt: median of {repeat} calls after a warm-up call)\n")
    print(f"inductor is skipped at the next size once it fails or takes over {IND_SKIP_S:g} s.\n")
    print("| family | call nodes | maskopt | maskopt us/node | growth vs previous size | packs | inductor |")
    print("|---|---:|---:|---:|---:|---|---:|")
    prev: dict[str, dict] = {}
    for r in rows:
        p = prev.get(r["family"])
        growth = "-"
        if p and p["mo"] and r["mo"]:
            growth = f"{r['mo'] / p['mo']:.1f}x for {r['nodes'] / p['nodes']:.1f}x nodes"
        per = "-" if r["mo"] is None else f"{r['mo'] * 1e6 / r['nodes']:.0f}"
        mo = _ms(r["mo"]) if r["mo"] is not None else r["mo_err"]
        nd = _ms(r["ind"]) if r["ind"] is not None else r["ind_err"]
        packs = "-" if r["packed"] is None else ("y" if r["packed"] else "n")
        print(f"| {r['family']} | {r['nodes']} | {mo} | {per} | {growth} | {packs} | {nd} |")
        prev[r["family"]] = r
    big = [r for r in rows if r["n"] == max(x["n"] for x in rows)]
    if big:
        worst = max(big, key=lambda r: float("inf") if r["mo"] is None else r["mo"])
        t = "failed" if worst["mo"] is None else f"{worst['mo']:.2f} s"
        print(f"\nLargest graphs (~{worst['n']} call nodes): slowest maskopt call {t} "
              f"({worst['family']}); target < 2 s.")
    print()


# --------------------------------------------------------------------------
# cold start
# --------------------------------------------------------------------------

_MLIR = """\
mask.func @sliding_window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  %d = arith.subi %q, %kv : i32
  %c = arith.constant 256 : i32
  %le = arith.cmpi sle, %d, %c : i32
  %keep = arith.andi %ge, %le : i1
  mask.yield %keep : i1
}

mask.func @document_causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc : tensor<1024xi32>, %starts : tensor<4xi32>):
  %dq = mask.load %doc[%q] : tensor<1024xi32>[i32] -> i32
  %s = mask.load %starts[%dq] : tensor<4xi32>[i32] -> i32
  %ge = arith.cmpi sge, %kv, %s : i32
  %le = arith.cmpi sle, %kv, %q : i32
  %keep = arith.andi %ge, %le : i1
  mask.yield %keep : i1
}
"""

_PROBE = (
    "import sys; from maskopt.tools.mask_opt import main; rc = main(sys.argv[1:]); "
    "print(' '.join(m for m in ('torch', 'cutlass', 'sympy', 'numpy') if m in sys.modules), "
    "file=sys.stderr); sys.exit(rc)"
)


def _wall(cmd: list[str], runs: int) -> tuple[tuple[float, float], subprocess.CompletedProcess]:
    """Median wall time and median CPU time (user + sys) of the child."""
    import resource

    times, cpus = [], []
    proc = None
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    assert proc is not None
    return (statistics.median(times), statistics.median(cpus)), proc


def bench_cold(runs: int) -> list:
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples", "masks.py")
    exe = os.path.join(os.path.dirname(sys.executable), "mask-opt")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        mlir = os.path.join(d, "masks.mlir")
        with open(mlir, "w") as f:
            f.write(_MLIR)
        py = sys.executable
        t, _ = _wall([py, "-c", "pass"], runs)
        rows.append(("python -c pass", t, ""))
        t, _ = _wall([py, "-c", "import xdsl.dialects.builtin, xdsl.dialects.arith"], runs)
        rows.append(("python -c 'import xdsl.dialects.builtin, xdsl.dialects.arith'", t, ""))
        t, _ = _wall([exe, mlir, "-p", "pack-mask", "-t", "cute", "--no-remarks"], runs)
        rows.append(("mask-opt masks.mlir -p pack-mask -t cute", t, ""))
        t, p = _wall([py, "-c", _PROBE, mlir, "-p", "pack-mask", "-t", "cute", "--no-remarks"], 1)
        rows.append(("(same, in a probe) heavy modules imported", t, p.stderr.strip() or "none of torch, cutlass, sympy, numpy"))
        t, _ = _wall([py, "-c", "import torch"], runs)
        rows.append(("python -c 'import torch'", t, ""))
        t, _ = _wall([exe, f"{examples}:document_causal", "-t", "cute"], runs)
        rows.append(("mask-opt tools/examples/masks.py:document_causal -t cute", t, ""))
    return rows


def print_cold(rows: list[tuple[str, tuple[float, float], str]], runs: int) -> None:
    print(f"## Cold start: fresh processes, medians of {runs} runs (s)\n")
    print("CPU = user + sys time of the process: the figure that does not depend "
          "on how busy the machine is.\n")
    print("| command | wall s | CPU s | note |")
    print("|---|---:|---:|---|")
    for cmd, (wall, cpu), note in rows:
        print(f"| `{cmd}` | {wall:.3f} | {cpu:.3f} | {note} |")
    print()


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--repeat", type=int, default=7, help="warm calls per mask (median)")
    ap.add_argument("--sizes", default="10,100,1000,5000", help="node counts of generated graphs")
    ap.add_argument("--families", default=None, help="comma-separated generated families")
    ap.add_argument("--masks", default=None, help="comma-separated corpus mask names")
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument(
        "--scaling-repeat", type=int, default=3, help="maskopt calls per generated graph (median)"
    )
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument(
        "--stages",
        default=None,
        help="comma-separated corpus masks: print where the warm time goes, stage by stage",
    )
    args = ap.parse_args(argv)

    import platform

    import torch
    import xdsl

    print("# maskopt vs inductor: analysis speed\n")
    print(f"Command: `python -m maskopt.tools.bench_speed {' '.join(sys.argv[1:] if argv is None else argv)}`".rstrip() + "  ")
    print(f"Python {platform.python_version()}, torch {torch.__version__}, xdsl "
          f"{getattr(xdsl, '__version__', '?')}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at start.\n")
    if args.stages:
        print_stages(bench_stages(args.stages.split(","), args.repeat))
        sys.stdout.flush()
    if not args.no_corpus:
        print_corpus(bench_corpus(args.repeat, args.masks.split(",") if args.masks else None))
        sys.stdout.flush()
    if not args.no_scaling:
        sizes = [int(s) for s in args.sizes.split(",")]
        print_scaling(
            bench_scaling(
                sizes, args.families.split(",") if args.families else None, args.scaling_repeat
            ),
            args.scaling_repeat,
        )
        sys.stdout.flush()
    if not args.no_cold:
        print_cold(bench_cold(args.cold_runs), args.cold_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
