#!/usr/bin/env bash
# Builds Intel's Level Zero conformance suite from ../shared/level-zero-tests (once; about 20 minutes on 2 cores)
# and runs it against this tree's CPU driver (about 25 minutes), printing each binary's totals and the sum.
# Developers run it; CI does not (its time is limited).
#   scripts/level-zero-tests.sh [WORKDIR] [preset]     (WORKDIR: /tmp/lzt-build, preset: default)
# Env: TESTS="test_module test_memory" runs only those binaries (TESTS also chooses what is built the first time:
#      add test_ipc test_ipc_memory test_ipc_multidevice test_ipc_multisubdevice test_ipc_p2p_memory to
#      build.sh's default list for IPC); GTEST_FILTER is passed through;
#      DEVICES=1 splits the CPU into two drivers of two root devices of two sub-devices each, for the tests that
#      need several (test_copy's cross-device cases look for a second device in the list of drivers).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=../shared/level-zero-tests
[ -d "$suite" ] || { echo "level-zero-tests: no $suite beside the checkout" >&2; exit 1; }
work="${1:-${TMPDIR:-/tmp}/lzt-build}"
driver="$PWD/build/${2:-default}/lib/libze_zeal_cpu.so.1"
[ -f "$driver" ] || { echo "level-zero-tests: no $driver (build the preset first)" >&2; exit 1; }
if [ ! -d "$work/out" ]; then
  scripts/install-deps.sh --conformance
  "$suite/build.sh" "$suite"/level-zero-tests-*.tar.xz "$work"
fi
# test_cmdlist alone runs about 40 minutes: its kernels do GPU-sized math per element (cos, pow, asin, ...).
export BIN_TIMEOUT="${BIN_TIMEOUT:-3600}"
if [ -n "${DEVICES:-}" ]; then
  export EXTRA_ENV="ZEAL_CPU_DRIVERS=2 ZEAL_CPU_DEVICES=2 ZEAL_CPU_SUBDEVICES=2 ZEAL_CPU_THREADS=4${EXTRA_ENV:+ $EXTRA_ENV}"
fi
exec "$suite/run.sh" "$driver" "$work"
