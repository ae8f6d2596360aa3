"""Value specialization: a per-lane gather rewritten over derived tensors.

A mask_mod that reads a 1-D aux tensor at `kv_idx` stays per-lane
(`... is a per-lane gather`): its keep words depend on the tensor's values.
At block-mask time the values are known, so two families are rewritten in
the traced graph, where the values have the structure:

* document ids: a conjunct `D[q_idx] == D[kv_idx]` (or `D[b, q_idx] ==
  D[b, kv_idx]`, one row of documents per batch) of the mask's AND tree
  (attn-gym `generate_doc_mask_mod`, alone or with causal/window/... inner
  masks). Where every id of `D` occupies one contiguous range, it becomes
  `(kv_idx >= start[q_idx]) & (kv_idx < end[q_idx])` with `start`/`end` the
  bounds of the run that contains each position (O(N) on the device), and
  every other `D[kv_idx]` of the mask becomes `D[q_idx]` (they are equal
  wherever the conjunct holds, and the mask is False elsewhere).
* kv flags: a boolean `G[kv_idx]` whose True positions form at most
  `MAX_RUNS` runs becomes the OR of `(kv_idx >= lo_i[q_idx]) & (kv_idx <
  hi_i[q_idx])` (global tokens: `is_global[kv_idx]` with a contiguous set).

Both rewrites are exact for the values they were built from, on every index
of `D` / `G`. Where the values lack the structure (interleaved documents, too
many runs), nothing is rewritten and a remark says why. The rewritten graph
is compiled once per original mask (`lowering.mask_cache`) and its words are
evaluated with the derived tensors of each call.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

__all__ = ["MAX_RUNS", "Specialization", "specialize_mask", "runs_of"]

#: kv-flag tensors with more True runs than this are left per-lane.
MAX_RUNS = 4

_INDEX = torch.ops.aten.index.Tensor
_AND = (torch.ops.aten.bitwise_and.Tensor, torch.ops.aten.logical_and.default)
_EQ = (torch.ops.aten.eq.Tensor,)


@dataclass
class Specialization:
    """What `specialize_mask` found."""

    mask_mod: Callable | None
    """The equivalent mask_mod over derived tensors (None: not specialized)."""
    remarks: list[Any] = field(default_factory=list)
    """Why a gathered tensor was not specialized."""
    family: str | None = None
    """"document ids" or "kv flags"."""


def runs_of(values: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(run starts, run ends) of the maximal runs of equal values of a 1-D tensor."""
    n = values.numel()
    change = torch.nonzero(values[1:] != values[:-1]).flatten() + 1
    zero = torch.zeros(1, dtype=change.dtype, device=values.device)
    starts = torch.cat([zero, change])
    ends = torch.cat([change, zero + n])
    return starts, ends


def _doc_bounds(doc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor] | str:
    """Per position, [start, end) of its run; or why the ids are not contiguous.
    A 2-D tensor is one row of documents per batch: bounds per row."""
    if doc.dim() == 2 and doc.shape[0] > 0:
        rows = [_doc_bounds(r) for r in doc]
        bad = next(((i, r) for i, r in enumerate(rows) if isinstance(r, str)), None)
        if bad is not None:
            return f"(row {bad[0]}) {bad[1]}"
        return torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows])
    if doc.dim() != 1 or doc.numel() == 0 or doc.is_floating_point():
        return "is not a non-empty 1-D integer tensor"
    starts, ends = runs_of(doc)
    distinct = torch.unique(doc).numel()
    if starts.numel() != distinct:
        return (f"has {distinct} distinct ids in {starts.numel()} runs: some document "
                "occupies more than one contiguous range")
    run = torch.zeros(doc.numel(), dtype=torch.int64, device=doc.device)
    run[starts[1:]] = 1
    run = run.cumsum(0)
    dtype = torch.int32 if doc.numel() < 2**31 else torch.int64
    return starts[run].to(dtype), ends[run].to(dtype)


def _flag_runs(flag: torch.Tensor) -> list[tuple[int, int]] | str:
    if flag.dim() != 1 or flag.dtype != torch.bool:
        return "is not a 1-D bool tensor"
    starts, ends = runs_of(flag)
    kept = flag[starts]
    s, e = starts[kept].tolist(), ends[kept].tolist()
    if len(s) > MAX_RUNS:
        return f"has {len(s)} runs of True (more than {MAX_RUNS})"
    return list(zip(s, e))


def _narrow(t: torch.Tensor) -> torch.Tensor:
    """An int64 tensor as int32 when its values lie in [-2^30, 2^30): the
    specialized mask's arithmetic on it then stays i32 (maskopt cannot prove
    `kv_idx - offsets[...]` free of i64 wrap-around, but no i32 result of
    values and indices below 2^30 can wrap either). Same values, so the same
    mask under torch's eager int64 indices."""
    if t.dtype != torch.int64 or t.numel() == 0:
        return t
    lo, hi = torch.aminmax(t)
    if int(lo) >= -(2**30) and int(hi) < 2**30:
        return t.to(torch.int32)
    return t


def _conjuncts(node) -> list:
    if node.op == "call_function" and node.target in _AND:
        return [c for a in node.args for c in _conjuncts(a)]
    return [node]


def _gathers(gm, ph, idx) -> list:
    """The reads `ph[idx]` (a 1-D tensor) or `ph[b, idx]` (a 2-D one, one row per batch)."""
    b = next(n for n in gm.graph.nodes if n.op == "placeholder")
    want = [idx] if ph.meta.get("val") is None or ph.meta["val"].dim() == 1 else [b, idx]
    return [
        n for n in gm.graph.nodes
        if n.op == "call_function" and n.target is _INDEX and n.args[0] is ph
        and list(n.args[1]) == want
    ]


def _remark(name: str, message: str):
    from maskopt.passes.remarks import Remark

    return Remark("remark", message, function=name)


def _prune(gm) -> list[int]:
    """Drop the aux placeholders the rewrite left unread; the positions (among
    the aux tensors) of those still read. The compile cache then does not key
    on the values of a tensor the rewrite made dead."""
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"][4:]
    kept = []
    for i, ph in enumerate(phs):
        if ph.users:
            kept.append(i)
        else:
            gm.graph.erase_node(ph)
    gm.recompile()
    return kept


def _wrap(gm, tensors: tuple[torch.Tensor, ...], name: str) -> Callable:
    """A Python mask_mod calling `gm` with `tensors` after the indices."""

    def specialized(b, h, q_idx, kv_idx):
        return gm(b, h, q_idx, kv_idx, *tensors)

    specialized.__name__ = f"{name}_specialized"
    specialized.__qualname__ = specialized.__name__
    return specialized


#: Rewritten graphs (with the positions of the tensors they read), by the
#: original's cache key, the family, the aux position and the run count.
_REWRITTEN: dict[Any, tuple[Any, list[int]]] = {}


def _rewritten(key, build):
    """`build()` -> gm or None, pruned and cached under `key` (not when None)."""
    hit = _REWRITTEN.get(key) if key[1] is not None else None
    if hit is not None:
        return hit
    gm = build()
    if gm is None:
        return None
    out = (gm, _prune(gm))
    gm.__maskopt_cache_key__ = key if key[1] is not None else None
    if key[1] is not None:
        if len(_REWRITTEN) > 128:
            _REWRITTEN.clear()
        _REWRITTEN[key] = out
    return out


def _rewrite_doc(gm, ph_name: str) -> Any | None:
    """The graph with the conjunct ph[q] == ph[kv] as a run test, or None."""
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    q, kv = phs[2], phs[3]
    ph = next(n for n in phs if n.name == ph_name)
    gq, gk = _gathers(gm, ph, q), _gathers(gm, ph, kv)
    if not gq or not gk:
        return None
    out = next(n for n in gm.graph.nodes if n.op == "output")
    root = out.args[0]
    conj = [c for c in _conjuncts(root) if c.op == "call_function" and c.target in _EQ
            and len(c.args) == 2
            and ((c.args[0] in gq and c.args[1] in gk) or (c.args[0] in gk and c.args[1] in gq))]
    if not conj:
        return None
    g = gm.graph
    last_ph = [n for n in g.nodes if n.op == "placeholder"][-1]
    with g.inserting_after(last_ph):
        end_ph = g.placeholder(f"{ph.name}_run_end")
    with g.inserting_after(last_ph):
        start_ph = g.placeholder(f"{ph.name}_run_start")
    eq = conj[0]
    index = [*gq[0].args[1][:-1], q]  # [q] or [b, q]
    with g.inserting_before(eq):
        s = g.call_function(_INDEX, (start_ph, index))
        e = g.call_function(_INDEX, (end_ph, index))
        ge = g.call_function(torch.ops.aten.ge.Tensor, (kv, s))
        lt = g.call_function(torch.ops.aten.lt.Tensor, (kv, e))
        in_run = g.call_function(torch.ops.aten.bitwise_and.Tensor, (ge, lt))
    eq.replace_all_uses_with(in_run)
    for node in gk:
        node.replace_all_uses_with(gq[0])
    g.eliminate_dead_code()
    gm.recompile()
    return gm


def _rewrite_flag(gm, ph_name: str, n_runs: int) -> Any | None:
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    kv = phs[3]
    ph = next(n for n in phs if n.name == ph_name)
    gk = _gathers(gm, ph, kv)
    if not gk:
        return None
    g = gm.graph
    q = [n for n in g.nodes if n.op == "placeholder"][2]
    last_ph = [n for n in g.nodes if n.op == "placeholder"][-1]
    bounds = []
    anchor = last_ph
    for i in range(n_runs):
        for side in ("lo", "hi"):
            with g.inserting_after(anchor):
                anchor = g.placeholder(f"{ph.name}_run{i}_{side}")
            bounds.append(anchor)
    with g.inserting_before(gk[0]):
        acc = None
        for i in range(n_runs):
            lo = g.call_function(_INDEX, (bounds[2 * i], [q]))
            hi = g.call_function(_INDEX, (bounds[2 * i + 1], [q]))
            ge = g.call_function(torch.ops.aten.ge.Tensor, (kv, lo))
            lt = g.call_function(torch.ops.aten.lt.Tensor, (kv, hi))
            run = g.call_function(torch.ops.aten.bitwise_and.Tensor, (ge, lt))
            acc = run if acc is None else g.call_function(torch.ops.aten.bitwise_or.Tensor, (acc, run))
        if acc is None:  # no True at all
            acc = g.call_function(torch.ops.aten.lt.Scalar, (kv, 0))
    for node in gk:
        node.replace_all_uses_with(acc)
    g.eliminate_dead_code()
    gm.recompile()
    return gm


_TRACES: dict[Any, Any] = {}


def _traced_graph(mask_mod: Callable, name: str, cache_key: Any):
    """The mask_mod's traced graph (traced once per cache key; not to be modified)."""
    from maskopt.lowering.trace import trace_mask_mod

    gm = _TRACES.get(cache_key) if cache_key is not None else None
    if gm is None:
        gm = trace_mask_mod(mask_mod, name=name).graph_module
        if cache_key is not None:
            if len(_TRACES) > 64:
                _TRACES.clear()
            _TRACES[cache_key] = gm
    return gm


def specialize_mask(mask_mod: Callable, compiled: Any, aux: tuple[torch.Tensor, ...],
                    Q_LEN: int, device: torch.device, cache_key: Any = None) -> Specialization:
    """An equivalent mask_mod over derived tensors for `aux`'s values, or the
    remarks that say why there is none. `compiled` is the original's compile
    (not packed); `aux` the call's aux tensors in its order; `cache_key` the
    original's `mask_cache.closure_key` (None: uncacheable)."""
    name = compiled.name
    try:
        gm = _traced_graph(mask_mod, name, cache_key)
    except Exception as e:  # noqa: BLE001
        return Specialization(None, [_remark(name, f"not specialized: cannot trace ({e})")])

    def graph():
        return copy.deepcopy(gm)
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    q, kv, aux_phs = phs[2], phs[3], phs[4:]
    if len(aux_phs) != len(aux):
        return Specialization(None, [_remark(name, "not specialized: aux tensors do not match the trace")])
    remarks = []
    for i, (ph, t) in enumerate(zip(aux_phs, aux)):
        t = t.to(device)
        if _gathers(gm, ph, kv) and _gathers(gm, ph, q) and not t.is_floating_point() and t.dtype != torch.bool:
            bounds = _doc_bounds(t)
            if isinstance(bounds, str):
                remarks.append(_remark(name, f"not specialized: `{ph.name}` (document ids) {bounds}"))
                continue
            new = _rewritten(("doc", cache_key, i), lambda: _rewrite_doc(graph(), ph.name))
            if new is None:
                remarks.append(_remark(name, f"not specialized: `{ph.name}[q_idx] == {ph.name}[kv_idx]` "
                                             "is not a conjunct of the mask"))
                continue
            derived = (*(_narrow(a.to(device)) for a in aux), *bounds)
            gm_new, kept = new
            return Specialization(_wrap(gm_new, tuple(derived[k] for k in kept), name), remarks,
                                  "document ids")
        if _gathers(gm, ph, kv) and t.dtype == torch.bool:
            runs = _flag_runs(t)
            if isinstance(runs, str):
                remarks.append(_remark(name, f"not specialized: `{ph.name}` (kv flags) {runs}"))
                continue
            gm_new, kept = _rewritten(("flag", cache_key, i, len(runs)),
                                      lambda: _rewrite_flag(graph(), ph.name, len(runs)))
            derived = [_narrow(a.to(device)) for a in aux]
            n_q = max(Q_LEN, t.numel(), 1)  # indexed by q_idx
            for lo, hi in runs:
                derived.append(torch.full((n_q,), lo, dtype=torch.int32, device=device))
                derived.append(torch.full((n_q,), hi, dtype=torch.int32, device=device))
            return Specialization(_wrap(gm_new, tuple(derived[k] for k in kept), name), remarks,
                                  "kv flags")
    if not remarks:
        remarks.append(_remark(name, "not specialized: no 1-D aux tensor read at kv_idx in a form "
                                     "maskopt specializes (document ids, kv flags)"))
    return Specialization(None, remarks)
