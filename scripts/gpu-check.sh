#!/usr/bin/env bash
# Runs on the lent GPU machine what scripts/gpu-kit.sh put in build/gpu-kit: unpacks the Debian libraries into a
# prefix, shows the card and driver, then runs each test with the loader pointed at zeal's CUDA driver; exits
# non-zero when something fails (issue 49).
# usage: gpu-check.sh [tests [gtest arguments] | memcheck | examples | acceptance | bench [rounds] | pair [runs] | lzt |
#                     cts [group...]]
#   (default: tests; examples also runs UR's urinfo)
# ZEAL_WRAP: a command the tests (and bench's bench_cuda_driver) run under, e.g. "/usr/local/cuda/bin/compute-sanitizer
#   --tool memcheck --error-exitcode 9" (slow: give cuda_driver_test a --gtest_filter), or "ncu --kernel-name copy_rgba8
#   --launch-count 1 --section SpeedOfLight" to profile one of the benchmark's kernels
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
# bench_adapter_launch with the kit's adapters and kernel: the zeal ABI and the UR face against cuLaunchKernel.
adapter_bench() {
  ZEAL_BENCH_ADAPTER="$kit/lib/libzeal_adapter_level_zero.so" ZEAL_BENCH_UR_ADAPTER="$kit/lib/libur_adapter_zeal.so.0" \
    ZEAL_BENCH_KERNEL="$kit/kernels/launch.spv" "$kit/bin/bench_adapter_launch"
}
case "${1:-tests}" in
  tests)
    shift || true
    while read -r t; do
      echo "== gpu-check: $t"
      ${ZEAL_WRAP:-} "$kit/bin/$t" "$@" || status=1
    done < "$kit/tests" ;;
  memcheck)
    # Every GPU test under compute-sanitizer's memcheck: no memory error in zeal's kernels or runtime. The errors of
    # CUDA calls that the tests make fail on purpose (bad PTX, a stale IPC handle, an unknown global) are not
    # counted, and the tests of a faulting kernel (CudaFault), whose fault is their point, are left out.
    sanitizer=/usr/local/cuda/bin/compute-sanitizer
    [ -x "$sanitizer" ] || { echo "gpu-check: no $sanitizer here" >&2; exit 2; }
    while read -r t; do
      echo "== gpu-check: $t under memcheck"
      timeout 300 "$sanitizer" --tool memcheck --report-api-errors no --error-exitcode 9 "$kit/bin/$t" \
        --gtest_filter='-CudaFault.*' || status=1
    done < "$kit/tests" ;;
  examples)
    for p in zeal-ls vector_add sub_groups shared_libraries; do
      echo "== gpu-check: $p"
      "$kit/bin/$p" || status=1
    done
    echo "== gpu-check: ur_vector_add"
    "$kit/bin/ur_vector_add" "$kit/kernels/ur_vector_add.spv" || status=1
    # UR's own tool through zeal's UR face, with the selector above (level_zero:gpu): it must list the GPU.
    echo "== gpu-check: urinfo"
    "$kit/bin/urinfo" > "$prefix/urinfo.txt" 2>&1 || status=1
    cat "$prefix/urinfo.txt"
    grep -q "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" "$prefix/urinfo.txt" ||
      { echo "gpu-check: urinfo does not list the GPU"; status=1; } ;;
  acceptance)
    # The sub-group and dynamic-linking test plans' acceptance suites, through the public C++ API on the GPU.
    for p in acceptance_sub_group acceptance_sub_group_spirv acceptance_range_type acceptance_link_checks; do
      echo "== gpu-check: $p"
      "$kit/bin/$p" || status=1
    done
    # The dynamic-linking plan's shared-library cases (tests/shared_libraries), with the kit's paths.
    echo "== gpu-check: shared_libraries_function_pointers"
    "$kit/bin/shared_libraries_function_pointers" || status=1
    echo "== gpu-check: shared_libraries_host_only"
    ZEAL_TEST_HOST_ONLY_PLUGIN="$kit/lib/libzeal_test_host_only_plugin.so" "$kit/bin/shared_libraries_host_only" ||
      status=1
    echo "== gpu-check: shared_libraries_dlopen_versions"
    ZEAL_TEST_VERSION_1="$kit/version_1/libzeal_test_version.so" ZEAL_TEST_VERSION_2="$kit/version_2/libzeal_test_version.so" \
      "$kit/bin/shared_libraries_dlopen_versions" || status=1
    for v in 1 2; do
      echo "== gpu-check: shared_libraries_version_app $v (version $v of the library first on the path)"
      LD_LIBRARY_PATH="$kit/version_$v:$LD_LIBRARY_PATH" "$kit/bin/shared_libraries_version_app" "$v" || status=1
    done ;;
  bench)
    shift
    "$kit/bin/bench_cuda_driver" "$@" || status=1
    echo "== gpu-check: bench_adapter_launch (the zeal ABI and the UR face over zeal's CUDA driver)"
    adapter_bench || status=1 ;;
  pair)
    # The launch figures of the kit's driver and of the one in kit/pair (gpu-kit.sh with PAIR_DRIVER), alternated in
    # one run (`runs` times each, default 3): what changed between two builds, on one machine of the day.
    shift
    [ -f "$kit/pair/libze_zeal_cuda.so.1" ] || { echo "gpu-check: the kit has no pair/ driver (PAIR_DRIVER)" >&2; exit 2; }
    cp "$kit/lib/libze_zeal_cuda.so.1" "$prefix/own.so"
    for ((run = 1; run <= ${1:-3}; ++run)); do
      for which in own pair; do
        if [ "$which" = own ]; then cp "$prefix/own.so" "$ZEAL_CUDA_DRIVER"
        else cp "$kit/pair/libze_zeal_cuda.so.1" "$ZEAL_CUDA_DRIVER"; fi
        echo "== gpu-check: pair, run $run, the $which driver"
        "$kit/bin/bench_cuda_driver" 2 2>&1 | grep -E "empty launch|more than|host time of" || status=1
        adapter_bench 2>&1 | grep -E "^host time per launch|^heap allocations|cuLaunchKernel per launch" || status=1
      done
    done
    cp "$prefix/own.so" "$ZEAL_CUDA_DRIVER" ;;
  lzt)
    # level-zero-tests' core binaries against zeal's CUDA driver (the kit made with a level-zero-tests build).
    shift
    [ -x "$kit/lzt/run.sh" ] || { echo "gpu-check: the kit has no level-zero-tests (gpu-kit.sh BUILD LZT_BUILD)" >&2; exit 2; }
    mkdir -p "$prefix/lzt" && tar -C "$prefix/lzt" -xJf "$kit/lzt/out.tar.xz"
    bash "$kit/lzt/run.sh" "$ZEAL_CUDA_DRIVER" "$prefix/lzt" || status=1
    [ -n "${LZT_RESULTS:-}" ] && cp -r "$prefix/lzt/results" "$LZT_RESULTS" ;;
  cts)
    # UR's conformance tests against zeal's UR adapter over the CUDA driver (the kit made with --cts): every group,
    # or those named, each for at most CTS_TIMEOUT seconds (default 300); a line of totals per group, and the
    # failed tests' names. CTS_RESULTS: a folder to copy the groups' logs to.
    shift
    [ -f "$kit/cts.tar.xz" ] || { echo "gpu-check: the kit has no CTS (gpu-kit.sh BUILD --cts CTS_WORKDIR)" >&2; exit 2; }
    tar -C "$prefix" -xJf "$kit/cts.tar.xz"
    logs="$prefix/cts-logs" && mkdir -p "$logs"
    groups=("$@")
    [ ${#groups[@]} -gt 0 ] || for b in "$prefix"/cts/*-test; do groups+=("$(basename "$b" -test)"); done
    for group in "${groups[@]}"; do
      log="$logs/$group.log" rc=0
      timeout "${CTS_TIMEOUT:-300}" "$prefix/cts/$group-test" --kernel_directory="$prefix/cts/device_binaries" \
        >"$log" 2>&1 || rc=$?
      count() { grep -oE "^\[  $1 *\] [0-9]+ tests?" "$log" | grep -oE '[0-9]+' | head -1 || true; }
      printf '%-36s passed %4s  skipped %4s  failed %4s  (exit %s)\n' "$group" "$(count PASSED)" "$(count SKIPPED)" \
        "$(count FAILED)" "$rc"
      grep -E '^\[  FAILED  \] [^0-9]' "$log" | sort -u | sed 's/^/    /' | head -40
      [ "$rc" -eq 0 ] || status=1
    done
    [ -n "${CTS_RESULTS:-}" ] && cp -r "$logs" "$CTS_RESULTS" ;;
  *) echo "gpu-check: usage: gpu-check.sh [tests [gtest args] | examples | acceptance | bench [rounds] | lzt | cts [group...]]" >&2
     exit 2 ;;
esac
exit $status
