#!/usr/bin/env bash
# Assembles what a run on the lent GPU machine needs into build/gpu-kit (issue 49): the GPU tests, stripped, from a
# build tree. That machine has no Debian packages and takes at most 64 MiB with the checkout, so only what the run
# uses goes. Then run there: scripts/gpu-check.sh (device tool: carry ["build/gpu-kit"]).
# usage: scripts/gpu-kit.sh [BUILD_DIR]   (default: build/default)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/default}"
kit=build/gpu-kit
# The tests that need a GPU, each linking nothing the GPU machine lacks (libstdc++, libc, libdl).
tests=(cuda_api_test ptx_gpu_test)

rm -rf "$kit"
mkdir -p "$kit/bin"
for t in "${tests[@]}"; do
  [ -x "$build/bin/$t" ] || { echo "gpu-kit: $build/bin/$t is not built (cmake --build $build --target $t)" >&2; exit 1; }
  strip -o "$kit/bin/$t" "$build/bin/$t"
done
printf '%s\n' "${tests[@]}" > "$kit/tests"
echo "gpu-kit: $(du -sh "$kit" | cut -f1) in $kit: ${tests[*]}"
