#!/bin/bash
# Session 14's device run: the CUDA-graph path of maskopt.create_block_mask
# against the path without graphs (the default; MASKOPT_CUDA_GRAPHS=1 / GRAPHS="auto" turns them on), in one
# machine session. Usage (repository root, xdsl & co as wheels in .whlc):
#   bash tools/gpu/session14.sh test|prof|profall|bench|bench-main ...
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ ! -d /tmp/mo/maskopt ]; then
  pip install -q --no-index --no-deps --target /tmp/site .whlc/*.whl
  R=$PWD; mkdir -p /tmp/mo && cp -r tools/api.d /tmp/mo/maskopt
  for d in dialects passes lowering tools; do ln -s $R/$d /tmp/mo/maskopt/$d; done
fi
export PYTHONPATH=/tmp/mo:/tmp/site
for step in "$@"; do
  case $step in
    test) (export MASKOPT_CUDA_GRAPHS=1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 -c "import torch; print(torch.__version__)"
           timeout 150 python3 -m pytest -o addopts="" -q -p no:cacheprovider test/python/test_block_mask_graphs.py) > "$OUT/pytest.txt" 2>&1 ;;
    profall) MASKS=doc_causal_64,doc_causal_1024,causal,sliding_window_1024,prefix_lm PROFILE=0 timeout 210 python3 tools/gpu/prof_block_mask.py cuda 16384 > "$OUT/prof-16k.txt" 2>&1 ;;
    prof) MASKS=doc_causal_64 timeout 200 python3 tools/gpu/prof_block_mask.py cuda 16384 > "$OUT/prof-doc64.txt" 2>&1
          MASKS=doc_causal_1024,causal,sliding_window_1024,prefix_lm PROFILE=0 timeout 200 python3 tools/gpu/prof_block_mask.py cuda 16384 > "$OUT/prof-others.txt" 2>&1 ;;
    bench) MASKOPT_CUDA_GRAPHS=1 timeout ${BENCH_TIMEOUT:-420} python3 -m maskopt.tools.bench_block_mask --device cuda --lengths 4096,16384,65536,131072 --repeat 3 > "$OUT/bench-graphs.txt" 2>&1 ;;
    bench-main) timeout 300 python3 -m maskopt.tools.bench_block_mask --device cuda --lengths 4096,16384,65536,131072 --repeat 3 --no-compile > "$OUT/bench-main.txt" 2>&1 ;;
  esac
  echo "step $step rc $?" >> "$OUT/steps.txt"
done
