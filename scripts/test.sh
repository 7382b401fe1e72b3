#!/usr/bin/env bash
# Installs dependencies, builds zeal and runs the whole test suite with ctest.
# usage: scripts/test.sh [preset]     (default, release, asan or tsan; default: default)
# Each step prints how long it took, so that CI's log shows where its time goes (issue 22's budget).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
step_start=$(date +%s)
took() { local now; now=$(date +%s); echo "== test.sh ($preset): $1 took $((now - step_start)) s"; step_start=$now; }
scripts/install-deps.sh
took "installing dependencies"
# On CI (CI=true) debug information is line tables only (-g1): stack traces keep their files and lines, and each
# build compiles in about a quarter less time, which CI's budget needs. Developers' builds keep full -g.
ci_flags=()
if [ "${CI:-}" = true ]; then
  ci_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
            -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1)
fi
cmake --preset "$preset" "${ci_flags[@]}"
cmake --build --preset "$preset"
took "configuring and building"
ctest --preset "$preset" -j "$(nproc)"
took "the test suite"
