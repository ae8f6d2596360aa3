"""
maskopt's passes, registered lazily: each factory imports its pass only when
asked for, so a `.mlir` run never imports torch or cutlass.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass

# Passes added at run time with `register_pass` (`maskopt.register_pass`).
_REGISTERED: dict[str, Callable[[], type[ModulePass]]] = {}


def register_pass(
    name: str,
    factory: Callable[[], type[ModulePass]] | type[ModulePass],
    *,
    replace: bool = False,
) -> None:
    """
    Add a pass to `get_all_passes()` (and so to `mask-opt -p` in this
    process). `factory` is the `ModulePass` class or a function returning it
    (imported only when the pass is used). A taken name raises `ValueError`
    unless `replace=True`.
    """
    if not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"invalid pass name {name!r}")
    if isinstance(factory, type):
        if not issubclass(factory, ModulePass):
            raise TypeError(f"{factory.__name__} is not an xDSL ModulePass")
        if factory.name != name:
            raise ValueError(f"pass class {factory.__name__} is named '{factory.name}', not '{name}'")
        cls = factory
        factory = lambda: cls  # noqa: E731
    elif not callable(factory):
        raise TypeError(f"pass factory for '{name}' is not callable")
    if not replace and name in get_all_passes():
        raise ValueError(f"a pass named '{name}' is already registered")
    _REGISTERED[name] = factory


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The curated passes of `mask-opt`, by name, and the registered ones."""

    # xDSL's canonicalize and cse, through maskopt's fast drivers (the same
    # rewrites; see maskopt.passes.rewriting).
    def get_canonicalize():
        from maskopt.passes.rewriting import CanonicalizePass

        return CanonicalizePass

    def get_cse():
        from maskopt.passes.rewriting import CommonSubexpressionElimination

        return CommonSubexpressionElimination

    def get_dce():
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    def get_lane_affine():
        from maskopt.passes.lane_affine import LaneAffinePass

        return LaneAffinePass

    def get_fold_intervals():
        from maskopt.passes.fold_intervals import FoldIntervalsPass

        return FoldIntervalsPass

    def get_simplify_intervals():
        from maskopt.passes.simplify_intervals import SimplifyIntervalsPass

        return SimplifyIntervalsPass

    def get_lower_interval_bounds():
        from maskopt.lowering.interval_bounds import LowerIntervalBoundsPass

        return LowerIntervalBoundsPass

    def get_interval_to_cute():
        from maskopt.lowering.interval_to_cute import IntervalToCutePass

        return IntervalToCutePass

    def get_set_domain():
        from maskopt.passes.domain import SetDomainPass

        return SetDomainPass

    def get_pack_mask():
        from maskopt.passes.pipeline import PackMaskPass

        return PackMaskPass

    return {
        "canonicalize": get_canonicalize,
        "cse": get_cse,
        "dce": get_dce,
        "set-domain": get_set_domain,
        "lane-affine": get_lane_affine,
        "fold-intervals": get_fold_intervals,
        "simplify-intervals": get_simplify_intervals,
        "lower-interval-bounds": get_lower_interval_bounds,
        "interval-to-cute": get_interval_to_cute,
        "pack-mask": get_pack_mask,
    } | _REGISTERED
