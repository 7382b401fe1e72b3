#!/usr/bin/env bash
# The long stress run (issue 22): 8 threads launching 10^5 kernels through each face of zeal (its C ABI, the C++
# API and, when built, Unified Runtime), every result checked; then the long runs of tests/hardening/resources.cpp:
# 1000 dlopen/dlclose cycles, 10^4 programs built, run and released, two processes x 1000 builds racing on one
# cache folder with eviction. The suite runs the same programs in short modes.
#   scripts/stress.sh [preset] [launches]     (preset: default; launches per face: 100000, 10000 for tsan)
# Developers run it; CI does not (its time is limited).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
launches="${2:-}"
if [ -z "$launches" ]; then
  launches=100000
  [ "$preset" = tsan ] && launches=10000
fi
cmake --build --preset "$preset" --target stress resources ur_adapter_zeal 2>/dev/null ||
  cmake --build --preset "$preset" --target stress resources
build="build/$preset"
# An SDK copied without its symbolic links: the build keeps a loadable copy of the UR loader (README).
[ -d "$build/ur-loader" ] && export LD_LIBRARY_PATH="$PWD/$build/ur-loader${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZEAL_CACHE_DIR="$PWD/$build/test-cache/stress"
if [ "$preset" = tsan ]; then
  export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp"
fi
status=0
for face in c cpp ur; do
  if [ "$face" = ur ]; then
    adapter=$(ls "$build"/lib/libur_adapter_zeal.so* 2>/dev/null | head -1 || true)
    [ -n "$adapter" ] || { echo "stress ur: not built (no UR SDK)"; continue; }
    UR_ADAPTERS_FORCE_LOAD="$PWD/$adapter" "$build/bin/stress" ur "$launches" 8 || status=1
  else
    "$build/bin/stress" "$face" "$launches" 8 || status=1
  fi
done
cycles=1000 programs=10000
[ "$preset" = default ] || [ "$preset" = release ] || { cycles=200; programs=1000; }
"$build/bin/resources" dlopen "$cycles" || status=1
ZEAL_CACHE_PERSISTENT=0 "$build/bin/resources" programs "$programs" || status=1
ZEAL_CACHE_DIR="$PWD/$build/test-cache/stress-cache-race" ZEAL_CACHE_MAX_SIZE=49152 \
  "$build/bin/resources" cache-race "$cycles" || status=1
exit $status
