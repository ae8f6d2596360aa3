"""Value specialization: a per-lane gather rewritten over derived tensors.

A mask_mod that reads a 1-D aux tensor at `kv_idx` stays per-lane
(`... is a per-lane gather`): its keep words depend on the tensor's values.
At block-mask time the values are known, so these families are rewritten in
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
  hi_i[q_idx])` (global tokens: `is_global[kv_idx]` with a contiguous set),
  where row runs (below) do not apply.
* row runs (any other per-lane gather: image intervals, ancestor rows,
  `T[kv_idx] <pred> u` with u lane-uniform): the boolean node around the
  gather is tabulated per distinct row of its kv-free inputs and per kv
  segment of its kv-side inputs, and becomes at most `MAX_ROW_RUNS` runs over
  per-row lo/hi tensors (`_specialize_rows`); kv flags are the fallback.
* `fold_rows`, after any of them and for masks that already pack: chained
  lane-uniform loads as one row table each, common offsets cancelled.

All rewrites are exact for the values they were built from, on every index
of the tensors read and every (b, h, q, kv) below (B, H, Q_LEN, KV_LEN).
Where the values lack the structure (interleaved documents, too many runs),
nothing is rewritten and a remark says why. The rewritten graphs are
compiled once per original mask (`lowering.mask_cache`) and their words are
evaluated with the derived tensors of each call.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

__all__ = ["MAX_RUNS", "Specialization", "SyncFree", "specialize_mask", "runs_of", "sync_free"]

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
    A 2-D tensor is one row of documents per batch: bounds per row.
    Replaying a `SyncFree` tape: `_doc_bounds_sync_free`, its check deferred."""
    tape = _TAPE
    if tape is not None and tape.replaying:
        if not tape.replay("doc"):
            raise _NoReplay("document ids recorded as not contiguous")
        out = _doc_bounds_sync_free(doc)
        if isinstance(out, str):
            raise _NoReplay(out)
        start, end, bad = out
        tape.check(bad)
        return start, end
    out = _doc_bounds_synced(doc)
    if tape is not None:
        if isinstance(out, str) or doc.dim() not in (1, 2):
            tape.unsupported("document ids that are not contiguous")
        tape.record("doc", not isinstance(out, str))
    return out


def _doc_bounds_synced(doc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor] | str:
    if doc.dim() == 2 and doc.shape[0] > 0:
        rows = [_doc_bounds_synced(r) for r in doc]
        bad = next(((i, r) for i, r in enumerate(rows) if isinstance(r, str)), None)
        if bad is not None:
            return f"(row {bad[0]}) {bad[1]}"
        start, end = torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows])
        if doc.shape[1] < 2**30:
            start, end = _mark_small(start), _mark_small(end)
        return start, end
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
    start, end = starts[run].to(dtype), ends[run].to(dtype)
    if doc.numel() < 2**30:  # positions in [0, numel]
        start, end = _mark_small(start), _mark_small(end)
    return start, end


def _doc_bounds_sync_free(doc: torch.Tensor):
    """(start, end, bad) as `_doc_bounds` computes them, without a host sync
    (the formulation of 362d3fe): run edges by cummax/cummin, contiguity as
    the count of runs against the count of distinct ids of the sorted row;
    `bad` (0-d bool) is True where some id occupies more than one range."""
    if doc.dim() not in (1, 2) or doc.numel() == 0 or doc.is_floating_point() or doc.dtype == torch.bool:
        return "is not a non-empty 1-D integer tensor"
    n = doc.shape[-1]
    pos = torch.arange(n, device=doc.device)
    change = doc[..., 1:] != doc[..., :-1]
    edge = torch.ones(doc.shape[:-1] + (1,), dtype=torch.bool, device=doc.device)
    first = torch.cat([edge, change], -1)  # a run starts here
    last = torch.cat([change, edge], -1)  # a run ends here
    start = torch.where(first, pos, 0).cummax(-1).values
    end = torch.where(last, pos + 1, n).flip(-1).cummin(-1).values.flip(-1)
    ordered = doc.sort(-1).values
    runs, distinct = change.sum(-1), (ordered[..., 1:] != ordered[..., :-1]).sum(-1)
    bad = (runs != distinct).any()
    dtype = torch.int32 if n < 2**31 else torch.int64
    start, end = start.to(dtype), end.to(dtype)
    if n < 2**30:  # positions in [0, n]
        start, end = _mark_small(start), _mark_small(end)
    return start, end, bad


def _flag_runs(flag: torch.Tensor) -> list[tuple[int, int]] | str:
    if flag.dim() != 1 or flag.dtype != torch.bool:
        return "is not a 1-D bool tensor"
    _host_only("kv flags")
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
    tape = _TAPE
    if tape is not None and tape.replaying:
        if not tape.replay("narrow"):
            return t
        lo, hi = torch.aminmax(t)
        tape.check((lo < -(2**30)) | (hi >= 2**30))
        return _mark_small(t.to(torch.int32))
    lo, hi = torch.stack(torch.aminmax(t)).tolist()  # one host sync
    fits = lo >= -(2**30) and hi < 2**30
    if tape is not None:
        tape.record("narrow", fits)
    if fits:
        return _mark_small(t.to(torch.int32))
    return t


def _mark_small(t: torch.Tensor) -> torch.Tensor:
    """`t`, remembered as an integer tensor whose values lie in [-2^30, 2^30)
    (derived positions, narrowed ids): `_small` then needs no host sync."""
    t._maskopt_small = True
    return t


class _NoReplay(Exception):
    """A `SyncFree` replay cannot follow the recorded path."""


class SyncFree:
    """The host decisions of one specialization, for a CUDA graph of it.

    Recording (`SyncFree()` active during a normal call): each decision
    read from the values with a host sync (an int64 tensor narrowed to int32,
    a tensor's values small, document ids contiguous) is appended to
    `decisions`; a step that has no sync-free form (kv flags, row runs)
    sets `why` (the tape then cannot be replayed).
    Replaying (`SyncFree(decisions)`): each decision is taken from the tape
    instead of the values, and a 0-d bool device tensor in `checks` says
    whether the new values break it (True: the specialization is not
    equivalent for them). Nothing syncs, so the call can be captured."""

    def __init__(self, decisions=None):
        self.replaying = decisions is not None
        self.decisions = [] if decisions is None else list(decisions)
        self.pos = 0
        self.checks: list[torch.Tensor] = []
        self.why: str | None = None

    def record(self, kind: str, value) -> None:
        self.decisions.append((kind, value))

    def replay(self, kind: str):
        if self.pos >= len(self.decisions) or self.decisions[self.pos][0] != kind:
            raise _NoReplay(f"the replay asks for {kind!r} where the tape has "
                            f"{self.decisions[self.pos:self.pos + 1]}")
        self.pos += 1
        return self.decisions[self.pos - 1][1]

    def check(self, bad: torch.Tensor) -> None:
        self.checks.append(bad.reshape(()))

    def unsupported(self, why: str) -> None:
        self.why = self.why or why


#: The active `SyncFree` tape (None: none).
_TAPE: SyncFree | None = None


def _host_only(what: str) -> None:
    tape = _TAPE
    if tape is not None:
        if tape.replaying:
            raise _NoReplay(f"{what} need host syncs")
        tape.unsupported(f"{what} need host syncs")


class sync_free:
    """`with sync_free(tape):` makes `tape` the active `SyncFree` (None: none)."""

    def __init__(self, tape: SyncFree | None):
        self.tape = tape

    def __enter__(self):
        global _TAPE
        self.saved, _TAPE = _TAPE, self.tape
        return self.tape

    def __exit__(self, *exc):
        global _TAPE
        _TAPE = self.saved
        return False


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
    specialized._maskopt_parts = (gm, tensors, name)  # block_mask's CUDA graphs: rewrapped
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



# row runs: any per-lane gather, by the values ---------------------------------

#: Per-row kv runs a `row runs` rewrite may give (the packed word's limit).
MAX_ROW_RUNS = 8

#: Cells (distinct rows x kv segments) a `row runs` table may have, in all,
#: and per evaluation chunk.
MAX_TABLE_CELLS = 1 << 27
_CHUNK_CELLS = 1 << 22

def _index_deps(gm) -> dict:
    """node -> frozenset of the index arguments ("b", "h", "q", "kv") it depends on."""
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    named = dict(zip(phs[:4], ("b", "h", "q", "kv")))
    deps = {}
    for n in gm.graph.nodes:
        if n in named:
            deps[n] = frozenset((named[n],))
        else:
            d = frozenset()
            for a in n.all_input_nodes:
                d |= deps[a]
            deps[n] = d
    return deps


def _is_kv_gather(n, deps) -> bool:
    if n.op != "call_function" or n.target is not _INDEX:
        return False
    return any(i is not None and hasattr(i, "op") and "kv" in deps[i] for i in n.args[1])


def _is_bool(n) -> bool:
    val = n.meta.get("val")
    return val is not None and getattr(val, "dtype", None) == torch.bool and val.dim() == 0


def _frontier(S, deps):
    """(nodes of S's cone that depend on kv and another index: evaluated per
    table cell; kv-only nodes feeding them; nodes without kv feeding them).
    A kv-only or kv-free S is its own frontier."""
    inner, kv_side, u_side = [], [], []
    seen = set()

    def visit(n):
        if n in seen:
            return
        seen.add(n)
        d = deps[n]
        if "kv" not in d:
            if d:  # kv-free nodes of no index (constants, aux tensors) are copied
                u_side.append(n)
            return
        if d == {"kv"}:
            kv_side.append(n)
            return
        inner.append(n)
        for a in n.all_input_nodes:
            visit(a)
    visit(S)
    return inner, kv_side, u_side


def _choose_node(gm, deps, gather):
    """The boolean node to rewrite for a per-lane gather: the first boolean
    node whose cone holds it, grown through boolean users as long as the
    growth reads no raw kv_idx (which would make every kv its own segment)."""
    kv_ph = [n for n in gm.graph.nodes if n.op == "placeholder"][3]
    cone = {gather}
    S = None
    for n in gm.graph.nodes:
        if n is not gather and any(a in cone for a in n.all_input_nodes):
            cone.add(n)
        if n in cone and _is_bool(n):
            S = n
            break
    if S is None:
        return None
    while len(S.users) == 1:
        (P,) = S.users
        if P.op != "call_function" or not _is_bool(P):
            break
        had_kv = kv_ph in _frontier(S, deps)[1]
        if not had_kv and kv_ph in _frontier(P, deps)[1]:
            break
        S = P
    return S


def _subgraph(gm, inputs, outputs):
    """A GraphModule computing `outputs` from `inputs` (placeholders, in
    order) and the aux tensors it reads (placeholders after them, returned)."""
    import torch.fx as fx

    g = fx.Graph()
    env = {}
    for n in inputs:
        env[n] = g.placeholder(f"in_{n.name}")
    aux = []

    def copy(n):
        if n in env:
            return env[n]
        for a in n.all_input_nodes:
            copy(a)
        if n.op == "placeholder":
            env[n] = g.placeholder(f"aux_{n.name}")
            aux.append(n)
        else:
            env[n] = g.node_copy(n, lambda a: env[a])
        return env[n]
    outs = [copy(o) for o in outputs]
    # aux placeholders must come after the inputs (placeholders first in FX)
    g.output(tuple(outs))
    g.lint()
    return fx.GraphModule(gm, g), aux


def _vmapped(fn, levels):
    """fn vmapped over `levels` (outermost first): each an in_dims tuple."""
    for in_dims in reversed(levels):
        fn = torch.vmap(fn, in_dims=in_dims, out_dims=0)
    return fn


@dataclass
class _RowPlan:
    """The analysis of one `row runs` rewrite of a graph (values aside)."""

    node: str
    axes: tuple[int, ...]          # index placeholders the rows vary over (0 b, 1 h, 2 q)
    u_fn: Any                      # (row indices..., aux...) -> u values
    u_aux: list[int]
    kv_fn: Any                     # (kv, aux...) -> kv-side values
    kv_aux: list[int]
    s_fn: Any                      # (u values..., kv values..., aux...) -> bool
    s_aux: list[int]
    n_u: int
    n_kv: int


def _row_plan(gm, S, deps) -> _RowPlan:
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    aux_pos = {n: i for i, n in enumerate(phs[4:])}
    inner, kv_side, u_side = _frontier(S, deps)
    axes = tuple(sorted({("b", "h", "q").index(d) for n in u_side for d in deps[n]})) or (2,)

    def fix(sub_aux):
        return [aux_pos[n] for n in sub_aux]
    u_mod, u_aux = _subgraph(gm, [phs[a] for a in axes], u_side)
    kv_mod, kv_aux = _subgraph(gm, [phs[3]], kv_side)
    s_mod, s_aux = _subgraph(gm, [*u_side, *kv_side], [S])
    return _RowPlan(S.name, axes, u_mod, fix(u_aux), kv_mod, fix(kv_aux), s_mod, fix(s_aux),
                    len(u_side), len(kv_side))


def _flat(values, rows: int) -> torch.Tensor:
    """Per-row values as one [rows, k] int64 or float64 tensor."""
    cols = [v.reshape(rows, -1) for v in values]
    dtype = torch.float64 if any(c.is_floating_point() for c in cols) else torch.int64
    return torch.cat([c.to(dtype) for c in cols], dim=1)


def _row_runs(plan: _RowPlan, aux, sizes, KV_LEN: int, device, max_runs: int):
    """(lo, hi): int `[*row shape, runs]` tables of the kv runs where the plan's
    node is True, per row (rows over `plan.axes` of `sizes`); or why not."""
    _host_only("row runs")
    i64 = dict(dtype=torch.int64, device=device)
    # the kv side: per kv, its values; segments of kv where none changes
    kv = torch.arange(KV_LEN, **i64)
    kv_vals = _vmapped(plan.kv_fn, [(0, *[None] * len(plan.kv_aux))])(
        kv, *(aux[i] for i in plan.kv_aux)) if plan.n_kv else ()
    if plan.n_kv:
        change = torch.zeros(KV_LEN, dtype=torch.bool, device=device)
        for v in kv_vals:
            v = v.reshape(KV_LEN, -1)
            change[1:] |= (v[1:] != v[:-1]).any(dim=1)
        seg_lo = torch.nonzero(change).flatten()
        seg_lo = torch.cat([torch.zeros(1, **i64), seg_lo])
    else:
        seg_lo = torch.zeros(1, **i64)
    seg_hi = torch.cat([seg_lo[1:], torch.full((1,), KV_LEN, **i64)])
    K = seg_lo.numel()
    kv_reps = [v[seg_lo] for v in kv_vals]
    # the row side: per row, its values; the distinct rows
    shape = tuple(sizes[a] for a in plan.axes)
    rows = 1
    for n in shape:
        rows *= n
    if plan.n_u:
        idx = [torch.arange(n, **i64) for n in shape]
        levels = []
        for j in range(len(shape)):
            levels.append(tuple(0 if k == j else None for k in range(len(shape)))
                          + (None,) * len(plan.u_aux))
        u_vals = _vmapped(plan.u_fn, levels)(*idx, *(aux[i] for i in plan.u_aux))
        distinct, inverse = torch.unique(_flat(u_vals, rows), dim=0, return_inverse=True)
        D = distinct.shape[0]
        first = torch.full((D,), rows, **i64).scatter_reduce(
            0, inverse, torch.arange(rows, **i64), "amin")
        u_reps = [v.reshape(rows, *v.shape[len(shape):])[first] for v in u_vals]
    else:
        D, inverse, u_reps = 1, torch.zeros(rows, **i64), []
    if D * K > MAX_TABLE_CELLS:
        return f"has {D} distinct rows x {K} kv segments (more than {MAX_TABLE_CELLS} cells)"
    s_aux = [aux[i] for i in plan.s_aux]
    n_u, n_kv = plan.n_u, plan.n_kv
    levels = [tuple([0] * n_u + [None] * (n_kv + len(s_aux))),
              tuple([None] * n_u + [0] * n_kv + [None] * len(s_aux))]
    if n_u and n_kv:
        fn = _vmapped(plan.s_fn, levels)
    elif n_u:
        fn = _vmapped(plan.s_fn, levels[:1])
    elif n_kv:
        fn = _vmapped(plan.s_fn, levels[1:])
    else:
        fn = plan.s_fn
    step = max(1, _CHUNK_CELLS // K)
    parts = []
    for c in range(0, D, step):
        out = fn(*(u[c:c + step] for u in u_reps), *kv_reps, *s_aux)[0]
        parts.append(out.reshape(min(step, D - c), K) if (n_u and n_kv) else
                     out.reshape(-1, K).expand(min(step, D - c), K))
    table = torch.cat(parts).to(torch.bool)
    false = torch.zeros(D, 1, dtype=torch.bool, device=device)
    starts = table & ~torch.cat([false, table[:, :-1]], dim=1)
    ends = table & ~torch.cat([table[:, 1:], false], dim=1)
    counts = starts.sum(dim=1)
    n_runs = int(counts.max()) if D else 0
    if n_runs > max_runs:
        return f"keeps up to {n_runs} runs of kv in a row (more than {max_runs})"
    dtype = torch.int32 if KV_LEN < 2**31 else torch.int64
    lo = torch.zeros(D, max(n_runs, 1), dtype=dtype, device=device)
    hi = torch.zeros_like(lo)
    sr, sc = torch.nonzero(starts, as_tuple=True)
    er, ec = torch.nonzero(ends, as_tuple=True)
    base = counts.cumsum(0) - counts
    rank = torch.arange(sr.numel(), **i64) - base[sr]
    lo[sr, rank] = seg_lo[sc].to(dtype)
    hi[er, rank] = seg_hi[ec].to(dtype)
    out_shape = (*shape, lo.shape[1])
    return lo[inverse].reshape(out_shape), hi[inverse].reshape(out_shape), n_runs


def _rewrite_rows(gm, node_name: str, axes: tuple[int, ...], n_runs: int) -> Any:
    """The graph with `node_name` replaced by the OR of `n_runs` runs
    `(kv >= lo_i[rows]) & (kv < hi_i[rows])` over new placeholders."""
    g = gm.graph
    phs = [n for n in g.nodes if n.op == "placeholder"]
    kv = phs[3]
    S = next(n for n in g.nodes if n.name == node_name)
    val = S.meta.get("val")
    anchor = phs[-1]
    bounds = []
    for i in range(n_runs):
        for side in ("lo", "hi"):
            with g.inserting_after(anchor):
                anchor = g.placeholder(f"{node_name}_run{i}_{side}")
            bounds.append(anchor)
    index = [phs[a] for a in axes]
    made = []
    with g.inserting_before(S):
        acc = None
        for i in range(n_runs):
            lo = g.call_function(_INDEX, (bounds[2 * i], index))
            hi = g.call_function(_INDEX, (bounds[2 * i + 1], index))
            ge = g.call_function(torch.ops.aten.ge.Tensor, (kv, lo))
            lt = g.call_function(torch.ops.aten.lt.Tensor, (kv, hi))
            run = g.call_function(torch.ops.aten.bitwise_and.Tensor, (ge, lt))
            made += [ge, lt, run]
            if acc is not None:
                acc = g.call_function(torch.ops.aten.bitwise_or.Tensor, (acc, run))
                made.append(acc)
            else:
                acc = run
        if acc is None:
            acc = g.call_function(torch.ops.aten.lt.Scalar, (kv, 0))
            made.append(acc)
    for n in made:
        n.meta["val"] = val
    S.replace_all_uses_with(acc)
    g.eliminate_dead_code()
    gm.recompile()
    return gm


#: `row runs` plans, by (the graph's cache key, the gather's node name).
_PLANS: dict[Any, Any] = {}


def _specialize_rows(gm, tensors: list, key, sizes, KV_LEN: int, device, name: str,
                     max_runs: int = MAX_ROW_RUNS):
    """Rewrite every per-lane gather left in `gm` (aux values `tensors`) by
    row runs. -> (gm, tensors, key, rewrites) or a remark message."""
    rewrites = 0
    for _ in range(16):
        deps = _index_deps(gm)
        gathers = [n for n in gm.graph.nodes if _is_kv_gather(n, deps)]
        if not gathers:
            return gm, tensors, key, rewrites
        G = gathers[0]
        pkey = (key, G.name) if key is not None else None
        plan = _PLANS.get(pkey) if pkey is not None else None
        if plan is None:
            S = _choose_node(gm, deps, G)
            if S is None:
                return f"`{_src(G)}` is a per-lane gather in no boolean value maskopt can tabulate"
            try:
                plan = _row_plan(gm, S, deps)
            except Exception as e:  # noqa: BLE001
                return f"`{_src(S)}` cannot be tabulated ({type(e).__name__}: {e})"
            if pkey is not None:
                if len(_PLANS) > 128:
                    _PLANS.clear()
                _PLANS[pkey] = plan
        try:
            runs = _row_runs(plan, tensors, sizes, KV_LEN, device, max_runs)
        except (IndexError, RuntimeError) as e:
            return f"`{plan.node}` cannot be tabulated ({type(e).__name__}: {str(e)[:120]})"
        S = next(n for n in gm.graph.nodes if n.name == plan.node)
        if isinstance(runs, str):
            return f"`{_src(S)}` {runs}"
        lo, hi, n_runs = runs
        src = gm
        new = _rewritten(("rows", key, plan.node, plan.axes, n_runs),
                         lambda: _rewrite_rows(copy.deepcopy(src), plan.node, plan.axes, n_runs))
        gm, kept = new
        derived = [*tensors]
        for i in range(n_runs):
            derived += [lo[..., i].contiguous(), hi[..., i].contiguous()]
        tensors = [derived[k] for k in kept]
        key = getattr(gm, "__maskopt_cache_key__", None)
        rewrites += 1
    return "too many per-lane gathers"


def _src(n) -> str:
    """The user's source line of a node (from its stack trace), else its name."""
    st = n.meta.get("stack_trace") or ""
    lines = [ln.strip() for ln in st.strip().splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("File ") and set(ln) - set("~^ ")]
    return lines[-1] if lines else n.name


# common offsets and row tables: cheaper forms of what the families leave -----

_CMPS = tuple(getattr(torch.ops.aten, op).Tensor for op in ("eq", "ne", "lt", "le", "gt", "ge"))
_SUB, _ADD = torch.ops.aten.sub.Tensor, torch.ops.aten.add.Tensor


def _small(t: torch.Tensor) -> bool:
    """An integer tensor whose values lie in [-2^30, 2^30)."""
    if t.is_floating_point() or t.dtype == torch.bool or t.numel() == 0:
        return t.numel() == 0
    if getattr(t, "_maskopt_small", False):
        return True
    if t.dtype in (torch.uint16, torch.uint32, torch.uint64):
        t = t.to(torch.float64) if t.dtype == torch.uint64 else t.to(torch.int64)  # no aminmax on CPU
    tape = _TAPE
    if tape is not None and tape.replaying:
        if not tape.replay("small"):
            return False  # not assumed: the uncancelled form is exact for any values
        lo, hi = torch.aminmax(t)
        tape.check((lo < -(2**30)) | (hi >= 2**30))
        return True
    lo, hi = torch.stack(torch.aminmax(t)).tolist()  # one host sync
    small = lo >= -(2**30) and hi < 2**30
    if tape is not None:
        tape.record("small", small)
    return small


def _cse(gm) -> None:
    """Merge call nodes with the same target and arguments (the doc rewrite
    leaves `offsets[doc[q]]` twice: once for q, once for what was kv)."""
    seen = {}

    def norm(a):
        if isinstance(a, (list, tuple)):
            return tuple(norm(x) for x in a)
        return ("node", id(a)) if hasattr(a, "op") else (type(a).__name__, repr(a))
    for n in list(gm.graph.nodes):
        if n.op != "call_function":
            continue
        k = (n.target, norm(n.args), norm(tuple(sorted(n.kwargs.items()))))
        if k in seen:
            n.replace_all_uses_with(seen[k])
            gm.graph.erase_node(n)
        else:
            seen[k] = n


def _cancel_offsets(gm, small_aux: set[str]) -> bool:
    """`(A - X) <pred> (B - X)` -> `A <pred> B` and `(A - X) - (B - X)` ->
    `A - B` (also with `+ X`), for A, B index arguments and X a load of an aux
    tensor whose values lie in [-2^30, 2^30): with indices below 2^30 nothing
    wraps in i32 or i64, so both forms are equal everywhere (attn-gym's
    `q_idx - offsets[doc[q_idx]]` against `kv_idx - offsets[doc[kv_idx]]`
    once the documents are the same). True if anything changed."""
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    idx = set(phs[:4])

    def small_load(x):
        return (x.op == "call_function" and x.target is _INDEX and x.args[0].op == "placeholder"
                and x.args[0].name in small_aux)

    def split(v, x=None):
        """(A, X) of `A - X`, `A + X` or `X + A`, with the op."""
        if v.op != "call_function" or v.target not in (_SUB, _ADD) or len(v.args) != 2 or v.kwargs:
            return None
        a, b = v.args
        out = [(a, b)]
        if v.target is _ADD:
            out.append((b, a))
        return [(v.target, A, X) for A, X in out if hasattr(A, "op") and hasattr(X, "op")]
    changed = False
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in (*_CMPS, _SUB) or len(n.args) != 2 or n.kwargs:
            continue
        a, b = n.args
        if not (hasattr(a, "op") and hasattr(b, "op")):
            continue
        for ta, A, X in split(a) or ():
            hit = next(((tb, B) for tb, B, Y in split(b) or () if Y is X and tb is ta), None)
            if hit and A in idx and hit[1] in idx and small_load(X):
                n.args = (A, hit[1])
                changed = True
                break
    if changed:
        gm.graph.eliminate_dead_code()
        gm.recompile()
    return changed


def _gather_depth(gm, deps) -> dict:
    """node -> the longest chain of aux loads feeding it (`offsets[doc[q]]`: 2)."""
    depth = {}
    for n in gm.graph.nodes:
        d = max((depth[a] for a in n.all_input_nodes), default=0)
        depth[n] = d + (n.op == "call_function" and n.target is _INDEX
                        and any(hasattr(i, "op") and deps[i] for i in n.args[1]))
    return depth


def _row_tables(gm):
    """The maximal kv-free values of the graph with a chain of at least two
    loads (`offsets[doc[q_idx]]`), each as (node name, axes it varies over)."""
    deps = _index_deps(gm)
    depth = _gather_depth(gm, deps)
    out = []
    for n in gm.graph.nodes:
        if n.op != "call_function" or "kv" in deps[n] or not deps[n] or depth[n] < 2:
            continue
        val = n.meta.get("val")
        if val is None or val.dim() != 0:
            continue
        if all(u.op == "call_function" and "kv" not in deps[u] and u.meta.get("val") is not None
               and u.meta["val"].dim() == 0 for u in n.users):
            continue  # a user is kv-free too: fold that one
        out.append((n.name, tuple(sorted(("b", "h", "q").index(d) for d in deps[n]))))
    return out


def _rewrite_tables(gm, tables) -> Any:
    g = gm.graph
    phs = [n for n in g.nodes if n.op == "placeholder"]
    anchor = phs[-1]
    for name, axes in tables:
        node = next(n for n in g.nodes if n.name == name)
        with g.inserting_after(anchor):
            anchor = g.placeholder(f"{name}_table")
        with g.inserting_before(node):
            load = g.call_function(_INDEX, (anchor, [phs[a] for a in axes]))
        load.meta["val"] = node.meta.get("val")
        node.replace_all_uses_with(load)
    g.eliminate_dead_code()
    gm.recompile()
    return gm


def _table_values(gm, name, axes, tensors, sizes, device) -> torch.Tensor:
    node = next(n for n in gm.graph.nodes if n.name == name)
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    aux_pos = {n: i for i, n in enumerate(phs[4:])}
    fn, fn_aux = _subgraph(gm, [phs[a] for a in axes], [node])
    shape = tuple(sizes[a] for a in axes)
    idx = [torch.arange(n, dtype=torch.int64, device=device) for n in shape]
    levels = [tuple(0 if k == j else None for k in range(len(shape))) + (None,) * len(fn_aux)
              for j in range(len(shape))]
    return _vmapped(fn, levels)(*idx, *(tensors[aux_pos[a]] for a in fn_aux))[0].contiguous()


def fold_rows(gm, tensors: list, key, sizes, device):
    """`gm` (aux values `tensors`) with common offsets cancelled and chained
    lane-uniform loads as row tables: (gm, tensors, changed). The input is
    not modified."""
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"][4:]
    small = frozenset(ph.name for ph, t in zip(phs, tensors) if _small(t))
    ok = all(n < 2**30 for n in sizes)

    def cancelled():
        g2 = copy.deepcopy(gm)
        _cse(g2)
        g2.recompile()
        g2.maskopt_cancelled = ok and _cancel_offsets(g2, set(small))
        return g2
    g1, kept = _rewritten(("cancel", key, small if ok else None), cancelled)
    t1 = [tensors[k] for k in kept]
    k1 = getattr(g1, "__maskopt_cache_key__", None)
    tables = _row_tables(g1)
    if not tables:
        return g1, t1, bool(getattr(g1, "maskopt_cancelled", False))
    g2, kept = _rewritten(("tables", k1, tuple(tables)),
                          lambda: _rewrite_tables(copy.deepcopy(g1), tables))
    derived = [*t1, *(_table_values(g1, n, a, t1, sizes, device) for n, a in tables)]
    return g2, [derived[k] for k in kept], True


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
                    Q_LEN: int, device: torch.device, cache_key: Any = None, *,
                    B: int = 1, H: int = 1, KV_LEN: int | None = None,
                    packed: bool = False) -> Specialization:
    """An equivalent mask_mod over derived tensors for `aux`'s values, or the
    remarks that say why there is none. `compiled` is the original's compile
    (not packed); `aux` the call's aux tensors in its order; `cache_key` the
    original's `mask_cache.closure_key` (None: uncacheable). The row-runs
    rewrite tabulates rows over b < B, h < H, q < Q_LEN and kv < KV_LEN.
    `packed`: the original packs; only rewrite chained lane-uniform loads
    (`offsets[doc[q_idx]]`) as one table each (None where there are none)."""
    name = compiled.name
    KV_LEN = Q_LEN if KV_LEN is None else KV_LEN
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
    plain = [_narrow(a.to(device)) for a in aux]
    sizes = (B, H, Q_LEN)
    if packed:
        # a mask that packs: only chained loads as row tables / common offsets
        deps = _index_deps(gm)
        if not any(d >= 2 for d in _gather_depth(gm, deps).values()):
            return Specialization(None, [])
        same = [a.to(device) for a in aux]  # as they are: the mask packs with them
        cur, tensors, changed = fold_rows(gm, same, None if cache_key is None else
                                          ("packed", cache_key), sizes, device)
        if not changed:
            return Specialization(None, [])
        return Specialization(_wrap(cur, tuple(tensors), name), [], "row tables")
    found = None  # (family, gm, tensors)
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
            derived = (*plain, *bounds)
            gm_new, kept = new
            found = ("document ids", gm_new, [derived[k] for k in kept])
            break
    if found is None:
        # whatever per-lane gather there is: row runs of the values
        out = _specialize_rows(gm, plain, None if cache_key is None else ("traced", cache_key),
                               sizes, KV_LEN, device, name)
        if not isinstance(out, str) and out[3] == 0:
            narrowed = [k for k, (a, b) in enumerate(zip(aux, plain)) if a.dtype != b.dtype]
            if narrowed:
                # no per-lane gather: the int64 tensors whose values fit in i32,
                # as int32 (attn-gym's shared prefix: `prefix_id[doc] + 1` may
                # wrap in i64 for all maskopt knows, and packs in i32 + i64)
                new = _rewritten(("narrow", cache_key, tuple(narrowed)), graph)
                cur, tensors, _ = fold_rows(new[0], [plain[k] for k in new[1]],
                                            getattr(new[0], "__maskopt_cache_key__", None),
                                            sizes, device)
                return Specialization(_wrap(cur, tuple(tensors), name), remarks, "narrowed int64")
            remarks.append(_remark(name, "not specialized: no aux tensor read at kv_idx"))
            return Specialization(None, remarks)
        if not isinstance(out, str):
            cur, tensors, _ = fold_rows(out[0], out[1], out[2], sizes, device)
            return Specialization(_wrap(cur, tuple(tensors), name), remarks, "row runs")
        remarks.append(_remark(name, f"not specialized: {out}"))
        # kv flags (a few runs of True, whatever else the mask does)
        for i, (ph, t) in enumerate(zip(aux_phs, aux)):
            if not (_gathers(gm, ph, kv) and t.dtype == torch.bool):
                continue
            runs = _flag_runs(t.to(device))
            if isinstance(runs, str):
                remarks.append(_remark(name, f"not specialized: `{ph.name}` (kv flags) {runs}"))
                continue
            gm_new, kept = _rewritten(("flag", cache_key, i, len(runs)),
                                      lambda: _rewrite_flag(graph(), ph.name, len(runs)))
            derived = list(plain)
            n_q = max(Q_LEN, t.numel(), 1)  # indexed by q_idx
            for lo, hi in runs:
                derived.append(torch.full((n_q,), lo, dtype=torch.int32, device=device))
                derived.append(torch.full((n_q,), hi, dtype=torch.int32, device=device))
            found = ("kv flags", gm_new, [derived[k] for k in kept])
            break
        if found is None:
            return Specialization(None, remarks)
    family, cur, tensors = found
    # per-lane gathers the family left: row runs
    out = _specialize_rows(cur, tensors, getattr(cur, "__maskopt_cache_key__", None), sizes,
                           KV_LEN, device, name)
    if isinstance(out, str):
        remarks.append(_remark(name, f"not specialized: {out}"))
        return Specialization(None, remarks)
    cur, tensors, _, n_rows = out
    if n_rows:
        family = f"{family} + row runs"
    cur, tensors, _ = fold_rows(cur, tensors, getattr(cur, "__maskopt_cache_key__", None),
                                sizes, device)
    return Specialization(_wrap(cur, tuple(tensors), name), remarks, family)
