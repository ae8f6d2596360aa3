"""A compile cache for Python mask_mods, keyed on code and closure metadata.

`create_block_mask` is called once per batch of data with the same mask
function over new tensor values. Tracing and compiling is paid once per
mask function and aux metadata: the key is the mask_mod's code objects and,
recursively, what its closure cells, defaults and referenced globals hold:
scalars by value, tensors by (dtype, shape, device), functions by their own
key. A hit returns the cached compile with the new call's tensors in the
aux order of the cached one (found by position in the walk).

Tensors the compile did not take as aux tensors (unused, or folded into the
code) are stored by value and compared on a hit: a different value misses.
An object with a `__maskopt_cache_key__` attribute is keyed by it. An
object the walk cannot key (an arbitrary class instance) makes the
mask_mod uncacheable: it is compiled on every call.
"""

from __future__ import annotations

import types
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import torch

__all__ = ["CachedCompile", "MaskCache", "closure_key"]

_SCALARS = (int, float, bool, str, bytes, type(None), complex)


class _Uncacheable(Exception):
    pass


def _key(obj: Any, tensors: list[torch.Tensor], seen: dict[int, int], depth: int) -> Any:
    if depth > 12:
        raise _Uncacheable("closure too deep")
    if isinstance(obj, _SCALARS):
        return (type(obj).__name__, obj)
    if isinstance(obj, torch.Tensor):
        if id(obj) in seen:
            return ("T@", seen[id(obj)])
        seen[id(obj)] = len(tensors)
        tensors.append(obj)
        return ("T", str(obj.dtype), tuple(obj.shape), str(obj.device))
    own = getattr(obj, "__maskopt_cache_key__", None)
    if own is not None:  # e.g. a GraphModule that lowering.specialize rewrote
        return ("K", own)
    if isinstance(obj, (torch.dtype, torch.device)):
        return ("D", str(obj))
    if isinstance(obj, types.ModuleType):
        return ("M", obj.__name__)
    if isinstance(obj, (tuple, list)):
        return (type(obj).__name__, tuple(_key(x, tensors, seen, depth + 1) for x in obj))
    if isinstance(obj, types.BuiltinFunctionType) or getattr(obj, "__module__", "") in (
        "torch", "torch.functional", "builtins"
    ):
        return ("B", getattr(obj, "__qualname__", repr(obj)), getattr(obj, "__module__", None))
    if isinstance(obj, types.FunctionType):
        if id(obj) in seen:
            return ("F@", seen[id(obj)])
        seen[id(obj)] = -1
        return _function_key(obj, tensors, seen, depth + 1)
    if isinstance(obj, type):
        return ("C", obj.__module__, obj.__qualname__)
    raise _Uncacheable(f"cannot key a {type(obj).__name__}")


def _names(code: types.CodeType) -> set[str]:
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _function_key(fn: types.FunctionType, tensors, seen, depth) -> Any:
    code = fn.__code__
    cells = tuple(
        _key(c.cell_contents, tensors, seen, depth) if _filled(c) else ("empty",)
        for c in (fn.__closure__ or ())
    )
    defaults = _key(tuple(fn.__defaults__ or ()), tensors, seen, depth)
    kwdefaults = tuple(
        (k, _key(v, tensors, seen, depth)) for k, v in sorted((fn.__kwdefaults__ or {}).items())
    )
    g = fn.__globals__
    glob = tuple(
        (name, _key(g[name], tensors, seen, depth)) for name in sorted(_names(code)) if name in g
    )
    return ("F", code, cells, defaults, kwdefaults, glob)


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def closure_key(fn: Callable) -> tuple[Any, list[torch.Tensor]] | None:
    """(hashable key, the tensors of the walk in order), or None when uncacheable."""
    tensors: list[torch.Tensor] = []
    try:
        key = _key(fn, tensors, {}, 0) if isinstance(fn, types.FunctionType) else None
    except _Uncacheable:
        return None
    if key is None:
        return None
    try:
        hash(key)
    except TypeError:
        return None
    return key, tensors


@dataclass
class CachedCompile:
    compiled: Any
    """The `maskopt.CompiledMask` of the first call."""
    aux_positions: list[int]
    """Position in the closure walk of each aux tensor of `compiled`."""
    fixed: dict[int, torch.Tensor]
    """Walk position -> value of the tensors that are not aux tensors."""


class MaskCache:
    """An LRU of `CachedCompile`s; `compile(fn, compile_fn)` -> (compiled, aux tensors, hit)."""

    def __init__(self, size: int = 64):
        self.size = size
        self._entries: OrderedDict[Any, CachedCompile] = OrderedDict()

    def clear(self) -> None:
        self._entries.clear()

    def compile(self, fn: Callable, compile_fn: Callable[[Callable], Any]):
        keyed = closure_key(fn)
        if keyed is not None:
            key, tensors = keyed
            entry = self._entries.get(key)
            if entry is not None and all(
                torch.equal(tensors[i], v) for i, v in entry.fixed.items()
            ):
                self._entries.move_to_end(key)
                return entry.compiled, tuple(tensors[i] for i in entry.aux_positions), True
        compiled = compile_fn(fn)
        aux = tuple(compiled.aux_tensors)
        if keyed is not None:
            positions = []
            for t in aux:
                pos = next((i for i, u in enumerate(tensors) if u is t), None)
                if pos is None:  # an aux tensor from outside the walk
                    return compiled, aux, False
                positions.append(pos)
            fixed = {i: u.clone() for i, u in enumerate(tensors) if i not in positions}
            self._entries[key] = CachedCompile(compiled, positions, fixed)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return compiled, aux, False
