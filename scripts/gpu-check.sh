#!/usr/bin/env bash
# Runs on the lent GPU machine what scripts/gpu-kit.sh put in build/gpu-kit: the card and driver first, then each
# test; exits non-zero when a test fails (issue 49).
set -uo pipefail
cd "$(dirname "$0")/.."
kit=build/gpu-kit
[ -f "$kit/tests" ] || { echo "gpu-check: no $kit/tests: run scripts/gpu-kit.sh here first and carry build/gpu-kit" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "gpu-check: nvidia-smi failed"
status=0
while read -r t; do
  echo "== gpu-check: $t"
  "$kit/bin/$t" || status=1
done < "$kit/tests"
exit $status
