"""Generate a bundle of fuzzed masks for the GPU check of the module and the drop-in.

Runs on a development machine (maskopt's venv; no GPU). For mask ``i`` of
``--seed S`` (the fuzzer's ``random_mask(S * 1_000_003 + i)``) it compiles
the mask with ``maskopt.compile_mask`` (at the mask's ``max_intervals``) and,
where that packs, asks the inductor drop-in
(``maskopt.inductor.select_packed_mask_intervals``) and renders its elements
through torch's FLASH template (``maskopt.tools.flash_template``). It writes
into ``--out`` (default ``.gpufuzz/``, ignored by git; carry it to the GPU
machine):

* ``bundle.json.xz``  one record per mask: its fuzzer id, the sha256 of its
                      source (the GPU side regenerates the mask from the id
                      and checks it is the same), ``max_intervals``, the
                      module source and whether it packed, the drop-in
                      kernel's source (None where the drop-in declines), and
                      the sha256 of the CPU reference words on
                      ``fuzz.sample_points(m)`` (the fingerprint);
* ``aux.pt``          per mask, the module's and the drop-in kernel's aux
                      tensors (``torch.save``d; the fuzzer's tensors are small).

Only masks that the drop-in packs are kept unless ``--all`` is given: the
check is of the module and the drop-in on the same masks.

    python tools/gpu/gen_fuzz.py --seed 91 --masks 2200 [--out .gpufuzz]

Then, on the GPU machine: ``tools/gpu/run_gpu_fuzz.py`` (see its docstring
and ``tools/gpu/README.md``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import sys
import time
import warnings
from pathlib import Path


def words_sha256(words) -> str:
    """sha256 of int64 keep words (the fingerprint both sides compute)."""
    import numpy as np

    return hashlib.sha256(np.ascontiguousarray(words.cpu().numpy().astype("<i8")).tobytes()).hexdigest()


def _commit() -> str | None:
    import subprocess

    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - not a git checkout
        return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--masks", type=int, required=True, help="fuzzer masks to try (ids 0 .. N-1)")
    ap.add_argument("--out", default=".gpufuzz")
    ap.add_argument("--all", action="store_true", help="also keep masks the drop-in does not pack")
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")

    import torch

    import maskopt
    from maskopt.tools import fuzz
    from maskopt.tools.corpus import reference_words
    from maskopt.tools.flash_template import dropin_module

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    records, aux, skipped = [], {}, {"rejected": 0, "not packed": 0, "drop-in declines": 0}
    t0 = time.time()
    for i in range(args.masks):
        m = fuzz.random_mask(args.seed * 1_000_003 + i)
        try:
            r = maskopt.compile_mask(m.mask_mod, max_intervals=m.max_intervals)
        except Exception:  # noqa: BLE001 - rejected (FXImportError, ...): no module
            skipped["rejected"] += 1
            continue
        d = dropin_module(m.mask_mod) if r.packed else None
        if d is None and not args.all:
            skipped["not packed" if not r.packed else "drop-in declines"] += 1
            continue
        pts = fuzz.sample_points(m)
        records.append({
            "id": i,
            "seed": args.seed,
            "source_sha256": hashlib.sha256(m.source.encode()).hexdigest(),
            "max_intervals": m.max_intervals,
            "packed": r.packed,
            "module": r.cute_source,
            "dropin": None if d is None else d.source,
            "fp_words": int(pts[0].numel()),
            "fp_sha256": words_sha256(reference_words(m.mask_mod, *pts)),
        })
        aux[i] = {"module": list(r.aux_tensors), "dropin": [] if d is None else list(d.aux_tensors)}
        if (i + 1) % 200 == 0:
            print(f"... {i + 1} masks, {len(records)} kept, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    meta = {"seed": args.seed, "masks": args.masks, "kept": len(records), "skipped": skipped,
            "torch": torch.__version__, "commit": _commit()}
    with lzma.open(out / "bundle.json.xz", "wt") as f:
        json.dump({"meta": meta, "records": records}, f)
    torch.save(aux, out / "aux.pt")
    print(json.dumps(meta), f"wall {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
