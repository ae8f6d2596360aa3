"""Shared fixtures: the corpus compiled once per session."""

import functools
import warnings

import pytest

warnings.filterwarnings("ignore", message=".*NumPy.*")


@functools.cache
def compiled(case_name: str, max_intervals: int = 8):
    """(case, mask_mod, CompiledMask) for a corpus case, compiled once."""
    import maskopt
    from maskopt.tools import corpus

    case = corpus.get_case(case_name)
    fn = case.make()
    return case, fn, maskopt.compile_mask(fn, name=case.name, max_intervals=max_intervals)


@functools.cache
def points(case_name: str, n_rows: int = 12):
    from maskopt.tools import corpus

    return corpus.sample_points(corpus.get_case(case_name), n_rows=n_rows)


@pytest.fixture
def compile_case():
    return compiled
