#!/usr/bin/env bash
# Runs Unified Runtime's conformance tests (the groups that need no SYCL compiler) against zeal's UR adapter and
# prints each group's totals. Build them first with ../shared/ur/build-cts.sh WORKDIR (about 8 minutes).
# usage: scripts/ur-cts.sh WORKDIR [preset]       (preset: default)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:?usage: scripts/ur-cts.sh WORKDIR [preset]}"
build="$PWD/build/${2:-default}"
adapter="$build/lib/libur_adapter_zeal.so.0"
[ -f "$adapter" ] || { echo "ur-cts: no $adapter (configure with ZEAL_UR_SDK and build first)" >&2; exit 1; }
export UR_ADAPTERS_FORCE_LOAD="$adapter"
[ -d "$build/ur-loader" ] && export LD_LIBRARY_PATH="$build/ur-loader${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
total_passed=0 total_skipped=0 total_failed=0
for test in "$work"/build/test/conformance/*/*-test; do
  group=$(basename "$test" -test)
  log="$work/$group.log"
  rc=0
  timeout 600 "$test" >"$log" 2>&1 || rc=$?
  count() { grep -oE "^\[  $1 *\] [0-9]+ tests?" "$log" | grep -oE '[0-9]+' | head -1 || true; }
  passed=$(count PASSED); skipped=$(count SKIPPED); failed=$(count FAILED)
  passed=${passed:-0} skipped=${skipped:-0} failed=${failed:-0}
  printf '%-28s passed %4d  skipped %4d  failed %4d%s\n' "$group" "$passed" "$skipped" "$failed" \
    "$([ "$rc" -ne 0 ] && echo "  (exit $rc, see $log)")"
  total_passed=$((total_passed + passed)) total_skipped=$((total_skipped + skipped)) total_failed=$((total_failed + failed))
  [ "$rc" -eq 0 ] || status=1
done
printf '%-28s passed %4d  skipped %4d  failed %4d\n' "total" "$total_passed" "$total_skipped" "$total_failed"
exit $status
