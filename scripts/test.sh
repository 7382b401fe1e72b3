#!/usr/bin/env bash
# Installs dependencies, builds zeal and runs the whole test suite with ctest.
# usage: scripts/test.sh [preset]     (default, release or asan; default: default)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" -j "$(nproc)"
