#!/usr/bin/env bash
# Runs Unified Runtime's conformance tests (CTS), every group, against zeal's UR adapter and prints each
# group's totals. Builds the CTS first when WORKDIR has not got it (../shared/ur/build-cts.sh, up to an hour
# on 2 cores), with tests/ur_cts/dpcxx and tests/ur_cts/extract-device-code standing in for DPC++ and
# clang-offload-extract, so that the groups that need device code build too; rebuilds the device code when a
# stand-in changed since.
# usage: scripts/ur-cts.sh [--adapter PATH] [--groups "NAME..."] WORKDIR
#   --adapter  the adapter to test (default: build/default/lib/libur_adapter_zeal.so.0)
#   --groups   build (when not built yet) and run only these groups, e.g. "exp_graph event" (CI's subset)
# The environment reaches the tests unchanged (e.g. UR_CTS_ALSO_RUN_KNOWN_FAILURES=1, ONEAPI_DEVICE_SELECTOR,
# ZEAL_CPU_DEVICES=2 ZEAL_CPU_SUBDEVICES=2). Each group may run for 600 s. Exit status 0 when no test failed
# and every group ran to its end.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/ur-cts.sh [--adapter PATH] [--groups \"NAME...\"] WORKDIR"
adapter="$PWD/build/default/lib/libur_adapter_zeal.so.0"
work=""
only_groups=""
while [ $# -gt 0 ]; do
  case "$1" in
    --adapter) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; adapter="$2"; shift 2 ;;
    --groups) [ $# -ge 2 ] && [ -n "$2" ] || { echo "$usage" >&2; exit 2; }; only_groups="$2"; shift 2 ;;
    -*) echo "ur-cts: unknown option $1; $usage" >&2; exit 2 ;;
    *) [ -z "$work" ] || { echo "$usage" >&2; exit 2; }; work="$1"; shift ;;
  esac
done
[ -n "$work" ] || { echo "$usage" >&2; exit 2; }
[ -f "$adapter" ] || { echo "ur-cts: no adapter $adapter (configure with ZEAL_UR_SDK and build first)" >&2; exit 1; }
adapter="$(cd "$(dirname "$adapter")" && pwd)/$(basename "$adapter")"
mkdir -p "$work"
work="$(cd "$work" && pwd)"

# shared/ lies beside the checkout (here, on CI and on engineers' machines).
build_cts="$PWD/../shared/ur/build-cts.sh"
stand_ins="$PWD/tests/ur_cts"
# The groups that need device code; the eleventh, exp_enqueue_native, builds only with UR's CUDA adapter.
groups_with_device_code="kernel program enqueue integration usm memory-migrate exp_command_buffer
  exp_enqueue_kernel_launch_with_args exp_usm_p2p exp_host_task"
conformance="$work/build/test/conformance"

# UR's CMake makes device code depend on the SYCL sources only, so a stand-in that changed after the last
# build leaves its images stale: remove them (and the integration headers) and the build makes them again.
needs_build=false
# A group's binary is <group>-test, in a folder of its own name or not (exp_kernel_launch_with_args-test lies in
# exp_enqueue_kernel_launch_with_args/).
binary_of() { compgen -G "$conformance/*/$1-test" | head -1 || true; }
if [ -n "$only_groups" ]; then
  for group in $only_groups; do [ -n "$(binary_of "$group")" ] || needs_build=true; done
else
  for group in $groups_with_device_code; do
    compgen -G "$conformance/$group/*-test" >/dev/null || needs_build=true
  done
fi
if ! grep -qx "UR_DPCXX:FILEPATH=$stand_ins/dpcxx" "$work/build/CMakeCache.txt" 2>/dev/null; then
  needs_build=true
elif [ -n "$(find "$stand_ins/device_code" "$stand_ins/dpcxx" "$stand_ins/extract-device-code" \
             -newer "$conformance/device_binaries/kernel_entry_points.h" -type f -print -quit 2>/dev/null)" ]; then
  echo "ur-cts: tests/ur_cts changed since the device code was built; building it again"
  rm -f "$conformance"/device_binaries/*/spir64.bin.0 "$conformance"/device_binaries/*/*.ih
  needs_build=true
fi
if $needs_build; then
  [ -x "$build_cts" ] || { echo "ur-cts: no $build_cts (shared/ belongs beside the checkout)" >&2; exit 1; }
  echo "ur-cts: building ${only_groups:+the groups $only_groups of }the CTS into $work/build"
  targets=""
  for group in $only_groups; do targets="$targets $group-test"; done
  [ -z "$only_groups" ] || export TARGETS="ur_loader$targets"
  CTS_CMAKE_ARGS="-DUR_DPCXX=$stand_ins/dpcxx -DUR_DEVICE_CODE_EXTRACTOR=$stand_ins/extract-device-code \
-DUR_CONFORMANCE_TARGET_TRIPLES=spir64" "$build_cts" "$work"
fi
tests=()
if [ -n "$only_groups" ]; then
  for group in $only_groups; do
    binary=$(binary_of "$group")
    tests+=("${binary:-$conformance/$group/$group-test}")
  done
else
  tests=("$conformance"/*/*-test)
fi

export UR_ADAPTERS_FORCE_LOAD="$adapter"
ur_loader_dir="$(dirname "$adapter")/../ur-loader"
[ -d "$ur_loader_dir" ] && export LD_LIBRARY_PATH="$ur_loader_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

status=0
total_passed=0 total_skipped=0 total_failed=0
for test in "${tests[@]}"; do
  group=$(basename "$test" -test)
  log="$work/$group.log"
  rc=0
  if [ -x "$test" ]; then timeout 600 "$test" >"$log" 2>&1 || rc=$?
  else echo "ur-cts: no test binary $test (is $group a CTS group?)" >"$log"; rc=127; fi
  count() { grep -oE "^\[  $1 *\] [0-9]+ tests?" "$log" | grep -oE '[0-9]+' | head -1 || true; }
  passed=$(count PASSED); skipped=$(count SKIPPED); failed=$(count FAILED)
  passed=${passed:-0} skipped=${skipped:-0} failed=${failed:-0}
  # The test that was running when the group stopped: the last one started and not ended.
  running=$(awk '/^\[ RUN      \]/ { name = $4 }
                 /^\[ *(OK|FAILED|SKIPPED) *\]/ { ended = $4; sub(/,$/, "", ended); if (ended == name) name = "" }
                 END { print name }' "$log")
  note=""
  if [ "$rc" -eq 124 ]; then
    note="  (timed out after 600 s${running:+ in $running}, see $log)"
  elif [ "$rc" -gt 128 ]; then
    note="  (crashed: SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))${running:+ in $running}, see $log)"
  elif [ "$rc" -ne 0 ]; then
    note="  (exit $rc, see $log)"
  fi
  printf '%-36s passed %4d  skipped %4d  failed %4d%s\n' "$group" "$passed" "$skipped" "$failed" "$note"
  total_passed=$((total_passed + passed)) total_skipped=$((total_skipped + skipped)) total_failed=$((total_failed + failed))
  [ "$rc" -eq 0 ] || status=1
done
printf '%-36s passed %4d  skipped %4d  failed %4d\n' "total" "$total_passed" "$total_skipped" "$total_failed"
exit $status
