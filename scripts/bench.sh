#!/usr/bin/env bash
# Builds the release preset and runs every benchmark; PoCL (the comparison anchor) is installed here.
# usage: scripts/bench.sh [name-filter]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake --preset release
cmake --build --preset release
filter="${1:-}"
for b in build/release/bin/bench_*; do
  [ -x "$b" ] || continue
  case "$b" in *"$filter"*) ;; *) continue ;; esac
  echo "== $(basename "$b")"
  "$b"
done
