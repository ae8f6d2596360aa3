"""
`set-domain`: state the index domain of every mask.func (its `domain`).

A kernel never calls the mask_mod outside its shapes: FA4 with B batches,
H heads, Q_LEN queries and KV_LEN keys calls it for b < B, h < H,
q_idx < Q_LEN and windows starting at kv < KV_LEN. Stated as the function's
`domain` property, these bounds are where value ranges start
(`maskopt.passes.analysis.index_arg_ranges`), so the guards and i64 paths
that only the full int32 domain needs disappear, and sums that cannot wrap
inside the domain are exact. The emitted word is exact for every lane of
every window of the domain, and nowhere else is promised.

    mask-opt in.mlir -p 'set-domain{q=32768 kv=32768},pack-mask'
    mask-opt masks.py:causal --domain 'b<8,h<16,q<32768,kv<32768'
    maskopt.compile_mask(fn, domain={"q": 32768, "kv": 32768})
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass

from maskopt.dialects import mask
from maskopt.dialects.mask import DOMAIN_UNBOUNDED

#: the index names of a domain, in the order of `mask.func`'s `domain`
DOMAIN_NAMES = ("b", "h", "q", "kv")

DomainLike = Mapping[str, int | None] | Sequence[int | None] | str


class DomainError(ValueError):
    """A domain spelled wrongly (unknown index, a bound below 1 or above 2^31)."""


def domain_bounds(spec: DomainLike | None) -> tuple[int, int, int, int]:
    """
    (B, H, Q, KV) from a domain given as a mapping {"b": 8, "q": 32768, ...}
    (missing or None: no bound; `q_idx`/`kv_idx` are accepted too), a
    sequence (B, H, Q, KV) (None: no bound), or the text 'b<8,h<16,q<32768,kv<32768'
    (any subset, in any order). Each bound is exclusive and in [1, 2^31].
    """
    if spec is None:
        return (DOMAIN_UNBOUNDED,) * 4
    if isinstance(spec, str):
        items = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            m = re.fullmatch(r"([a-z_]+)\s*<\s*([0-9]+)", part)
            if m is None:
                raise DomainError(f"domain term {part!r} is not NAME<BOUND (e.g. 'q<32768')")
            if m.group(1) in items:
                raise DomainError(f"domain bounds {m.group(1)} twice")
            items[m.group(1)] = int(m.group(2))
        spec = items
    if isinstance(spec, Mapping):
        aliases = {"q_idx": "q", "kv_idx": "kv"}
        named = {}
        for k, v in spec.items():
            key = aliases.get(k, k)
            if key not in DOMAIN_NAMES:
                raise DomainError(f"unknown domain index {k!r} (expected one of b, h, q, kv)")
            named[key] = v
        values = [named.get(n) for n in DOMAIN_NAMES]
    else:
        values = list(spec)
        if len(values) != 4:
            raise DomainError(f"a domain sequence is (B, H, Q, KV), got {len(values)} values")
    out = []
    for n, v in zip(DOMAIN_NAMES, values):
        if v is None:
            out.append(DOMAIN_UNBOUNDED)
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= DOMAIN_UNBOUNDED:
            raise DomainError(f"domain bound {n} < {v!r} must be an integer in [1, 2^31]")
        out.append(v)
    return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True)
class SetDomainPass(ModulePass):
    """
    Set the `domain` of every mask.func: exclusive upper bounds of the index
    arguments (each in [1, 2^31]; 2^31, the default, is no bound). A bound
    already stated that is tighter is kept.

    b: batches; h: heads; q: queries (q_idx < q); kv: keys (window starts
    kv < kv; the lanes of a window reach kv + 30).
    """

    name = "set-domain"

    b: int = DOMAIN_UNBOUNDED
    h: int = DOMAIN_UNBOUNDED
    q: int = DOMAIN_UNBOUNDED
    kv: int = DOMAIN_UNBOUNDED

    def __post_init__(self):
        domain_bounds((self.b, self.h, self.q, self.kv))  # raises DomainError

    @classmethod
    def of(cls, spec: DomainLike | None) -> SetDomainPass:
        """The pass for a domain in any spelling `domain_bounds` takes."""
        return cls(**dict(zip(DOMAIN_NAMES, domain_bounds(spec))))

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        new = (self.b, self.h, self.q, self.kv)
        for func in op.walk():
            if isinstance(func, mask.FuncOp):
                func.set_domain([min(a, b) for a, b in zip(func.domain_bounds, new)])
