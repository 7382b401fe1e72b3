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
cmake --preset "$preset"
cmake --build --preset "$preset"
took "configuring and building"
ctest --preset "$preset" -j "$(nproc)"
took "the test suite"
