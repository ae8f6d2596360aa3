#!/bin/bash
# The device runs (repository root; carry .whl and .gpufuzz; wheels per tools/gpu/README.md
# section 2; xdsl, immutabledict and ordered_set for maskopt itself in .whlc, for test and bench):
#   bash tools/gpu/device_runs.sh check fuzz       # corpus modules + drop-in kernels, fuzz bundle
#   bash tools/gpu/device_runs.sh test bench       # create_block_mask: CUDA-graph test, benchmark
#   bash tools/gpu/device_runs.sh bench-main       # the benchmark without CUDA graphs
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d .whl ] && [ ! -d /tmp/site/nvidia_cutlass_dsl ]; then  # the CuTe DSL (check, fuzz)
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && tar xJf .whl/tar/*.tar.xz -C /tmp/site || exit 3
fi
if [ -d .whlc ] && [ ! -d /tmp/site/xdsl ]; then  # maskopt's own dependencies (test, bench), carried apart
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whlc/*.whl || exit 3
fi
if [ ! -d /tmp/mo/maskopt ]; then
  R=$PWD; mkdir -p /tmp/mo && cp -r tools/api.d /tmp/mo/maskopt
  for d in dialects passes lowering tools; do ln -s $R/$d /tmp/mo/maskopt/$d; done
fi
export PYTHONPATH=/tmp/mo:/tmp/site:/tmp/site/nvidia_cutlass_dsl/dsl_packages PYTHONUNBUFFERED=1
for step in "$@"; do
  case $step in
    check) nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
           CUTE_DSL_ARCH=sm_90a timeout 200 python3 tools/gpu/run_gpu_check.py --negative-control --out "$OUT" > "$OUT/log.txt" 2>&1 ;;
    fuzz) CUTE_DSL_ARCH=sm_90a timeout ${FUZZ_TIMEOUT:-330} python3 tools/gpu/run_gpu_fuzz.py --bundle .gpufuzz --mask-timeout 60 --negative-control 20 --out "$OUT" ${FUZZ_ARGS:-} > "$OUT/fuzz-log.txt" 2>&1 ;;
    test) (python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"
           timeout 150 python3 -m pytest -o addopts="" -q -p no:cacheprovider test/python/test_block_mask_graphs.py) > "$OUT/pytest.txt" 2>&1 ;;
    bench) timeout ${BENCH_TIMEOUT:-300} python3 -m maskopt.tools.bench_block_mask --device cuda --lengths 4096,16384,65536,131072 --repeat 3 > "$OUT/bench-graphs.txt" 2>&1 ;;
    bench-main) MASKOPT_CUDA_GRAPHS=0 timeout ${BENCH_TIMEOUT:-240} python3 -m maskopt.tools.bench_block_mask --device cuda --lengths ${LENGTHS:-4096,16384,65536} --repeat 3 --no-compile > "$OUT/bench-main.txt" 2>&1 ;;
  esac
  echo "step $step rc $? $(date +%T)" >> "$OUT/steps.txt"
done
