"""Generate the emitted CuTe mask modules of the example corpus for the GPU check.

Runs on a development machine (needs maskopt's own dependencies: torch,
xdsl, attn-gym; no GPU, no CUTLASS).  For every case of
``maskopt.tools.corpus.CORPUS`` it writes into ``tools/gpu/modules/``:

* ``<name>.py``       the module ``maskopt.compile_mask(case.make(), name=...)``
                      emitted (``.cute_source``), byte for byte;
* ``<name>.aux.pt``   its aux tensors (``.aux_tensors``, placeholder order),
                      ``torch.save``d (only when there are any);
* ``<name>.ref.npz``  a fingerprint of the CPU reference: the points
                      ``corpus.sample_points(case)`` and their words from
                      ``corpus.reference_words`` (torch on this machine), so the
                      GPU run can check that its own GPU reference (a rebuilt
                      mask_mod under the GPU machine's torch) agrees;
* ``<name>.dropin.py`` the inductor drop-in's kernel for the case, where it
                      packs it: torch's FLASH template around its keep-mask
                      expressions (``maskopt.tools.flash_template``), with
                      ``<name>.dropin.aux.pt`` its aux tensors;
* ``manifest.json``   one record per case (packed flag, reason, shape,
                      large_indices, aux dtypes/shapes, whether the module reads
                      b_idx / h_idx).

Usage (repository root, maskopt's venv)::

    python tools/gpu/gen_modules.py            # all cases
    python tools/gpu/gen_modules.py causal ... # a subset
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE / "modules"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="corpus case names (default: all)")
    ap.add_argument("--out", default=str(OUT_DIR))
    args = ap.parse_args(argv)

    import numpy as np
    import torch

    import maskopt
    from maskopt.tools.corpus import CORPUS, reference_words, sample_points
    from maskopt.tools.flash_template import dropin_module

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cases = [c for c in CORPUS if not args.names or c.name in args.names]
    missing = set(args.names) - {c.name for c in cases}
    if missing:
        print(f"unknown case(s): {sorted(missing)}", file=sys.stderr)
        return 2
    if not args.names:  # a full regeneration replaces the folder's contents
        for f in out.iterdir():
            if f.suffix in (".py", ".pt", ".npz", ".json"):
                f.unlink()

    manifest_path = out / "manifest.json"
    manifest = {}
    if args.names and manifest_path.is_file():
        manifest = {r["name"]: r for r in json.loads(manifest_path.read_text())["cases"]}

    for case in cases:
        t0 = time.perf_counter()
        mm = case.make()
        res = maskopt.compile_mask(mm, name=case.name)
        src = res.cute_source
        (out / f"{case.name}.py").write_text(src)
        aux = [t.detach().cpu().contiguous() for t in res.aux_tensors]
        if aux:
            torch.save(aux, out / f"{case.name}.aux.pt")
        d = dropin_module(case.make(), name=case.name)
        if d is not None:
            (out / f"{case.name}.dropin.py").write_text(d.source)
            if d.aux_tensors:
                torch.save([t.detach().cpu().contiguous() for t in d.aux_tensors], out / f"{case.name}.dropin.aux.pt")
        b, h, q, kv = sample_points(case)
        words = reference_words(mm, b, h, q, kv)
        np.savez_compressed(
            out / f"{case.name}.ref.npz",
            b=b.numpy(), h=h.numpy(), q=q.numpy(), kv_base=kv.numpy(),
            words=words.numpy().astype(np.uint32),
        )
        manifest[case.name] = {
            "name": case.name,
            "packed": bool(res.packed),
            "reason": res.reason,
            "shape": list(case.shape),
            "large_indices": bool(case.large_indices),
            "edge_qs": list(case.edge_qs),
            "aux": [{"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)} for t in aux],
            "reads_b": "b_idx[" in src,
            "reads_h": "h_idx[" in src,
            "source_sha256": hashlib.sha256(src.encode()).hexdigest(),
            "dropin": d is not None,
            "dropin_sha256": None if d is None else hashlib.sha256(d.source.encode()).hexdigest(),
            "ref_words": int(words.numel()),
        }
        print(
            f"{case.name:32s} {'packed' if res.packed else 'per-lane':8s} aux={len(aux)} "
            f"drop-in={'yes' if d is not None else 'no'} "
            f"ref={words.numel()} words ({time.perf_counter() - t0:.1f} s)"
        )

    order = [c.name for c in CORPUS if c.name in manifest]
    manifest_path.write_text(
        json.dumps(
            {
                "generated_by": "python tools/gpu/gen_modules.py",
                "maskopt_version": maskopt.__version__,
                "torch": torch.__version__,
                "cases": [manifest[n] for n in order],
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {len(cases)} case(s) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
