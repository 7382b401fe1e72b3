#!/usr/bin/env bash
# Runs on the lent GPU machine what scripts/gpu-kit.sh put in build/gpu-kit: unpacks the Debian libraries into a
# prefix, shows the card and driver, then runs each test with the loader pointed at zeal's CUDA driver; exits
# non-zero when something fails (issue 49).
# usage: gpu-check.sh [tests [gtest arguments] | examples | bench [rounds] | lzt]   (default: tests)
set -uo pipefail
cd "$(dirname "$0")/.."
kit="$PWD/build/gpu-kit"
[ -f "$kit/tests" ] || { echo "gpu-check: no $kit/tests: run scripts/gpu-kit.sh here first and carry build/gpu-kit" >&2; exit 2; }
prefix="${TMPDIR:-/tmp}/zeal-gpu-prefix"
rm -rf "$prefix" && mkdir -p "$prefix"
for deb in "$kit"/debs/*.deb; do dpkg -x "$deb" "$prefix"; done
gunzip -c "$kit/clc/nvptx64--nvidiacl.bc.gz" > "$prefix/nvptx64--nvidiacl.bc"
export LD_LIBRARY_PATH="$kit/lib:$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZEAL_CUDA_DRIVER="$kit/lib/libze_zeal_cuda.so.1"
export ZEAL_CUDA_LIBCLC="$prefix/nvptx64--nvidiacl.bc"
export ZEAL_TEST_KERNEL_DIR="$kit/kernels"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "gpu-check: nvidia-smi failed"
missing=$(ldd "$ZEAL_CUDA_DRIVER" | grep "not found" || true)
[ -z "$missing" ] || echo "gpu-check: the driver lacks libraries here: $missing"
export UR_ADAPTERS_FORCE_LOAD="$kit/lib/libur_adapter_zeal.so.0"
export ONEAPI_DEVICE_SELECTOR=level_zero:gpu
status=0
case "${1:-tests}" in
  tests)
    shift || true
    while read -r t; do
      echo "== gpu-check: $t"
      "$kit/bin/$t" "$@" || status=1
    done < "$kit/tests" ;;
  examples)
    for p in zeal-ls vector_add sub_groups shared_libraries; do
      echo "== gpu-check: $p"
      "$kit/bin/$p" || status=1
    done
    echo "== gpu-check: ur_vector_add"
    "$kit/bin/ur_vector_add" "$kit/kernels/ur_vector_add.spv" || status=1 ;;
  bench)
    shift
    "$kit/bin/bench_cuda_driver" "$@" || status=1
    echo "== gpu-check: bench_adapter_launch (the zeal ABI and the UR face over zeal's CUDA driver)"
    ZEAL_BENCH_ADAPTER="$kit/lib/libzeal_adapter_level_zero.so" ZEAL_BENCH_UR_ADAPTER="$kit/lib/libur_adapter_zeal.so.0" \
      ZEAL_BENCH_KERNEL="$kit/kernels/launch.spv" "$kit/bin/bench_adapter_launch" || status=1 ;;
  lzt)
    # level-zero-tests' core binaries against zeal's CUDA driver (the kit made with a level-zero-tests build).
    shift
    [ -x "$kit/lzt/run.sh" ] || { echo "gpu-check: the kit has no level-zero-tests (gpu-kit.sh BUILD LZT_BUILD)" >&2; exit 2; }
    mkdir -p "$prefix/lzt" && tar -C "$prefix/lzt" -xJf "$kit/lzt/out.tar.xz"
    bash "$kit/lzt/run.sh" "$ZEAL_CUDA_DRIVER" "$prefix/lzt" || status=1
    [ -n "${LZT_RESULTS:-}" ] && cp -r "$prefix/lzt/results" "$LZT_RESULTS" ;;
  *) echo "gpu-check: usage: gpu-check.sh [tests [gtest args] | examples | bench [rounds] | lzt]" >&2; exit 2 ;;
esac
exit $status
