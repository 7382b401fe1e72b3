#!/usr/bin/env bash
# Installs every Debian 12 package zeal's build, tests, examples and (with --bench) benchmarks use. Idempotent.
# Options: --bench, --conformance (see below).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  libze1 libze-dev                       # Level Zero loader, validation layer, headers
  spirv-tools                            # SPIRV-Tools libraries, spirv-as, spirv-val
  spirv-headers                          # spirv.hpp: SPIR-V opcodes and enumerants by name
  libfmt-dev libspdlog-dev               # formatting and logging
  libgtest-dev libgmock-dev              # tests
  llvm-15-dev libllvmspirvlib-15-dev     # the CPU driver's JIT and SPIR-V reader
  libboost-context-dev                   # fibers for barriers in the CPU driver
  clang-15 llvm-spirv-15                 # OpenCL C test kernels -> SPIR-V
  libclc-15                              # the CUDA back end's OpenCL built-ins for NVPTX (nvptx64--nvidiacl.bc)
  llvm-14-tools                          # lit and FileCheck, which UR's CTS configure needs (CI runs a subset)
)

# --bench adds what the benchmarks compare against: PoCL running the same OpenCL C.
# --conformance adds what Intel's level-zero-tests build needs (scripts/level-zero-tests.sh).
for option in "$@"; do
  case "$option" in
    --bench) packages+=(pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers) ;;
    --conformance)
      packages+=(libpng-dev googletest libboost-log-dev libboost-program-options-dev libboost-timer-dev
                 libboost-chrono-dev libboost-system-dev libboost-serialization-dev) ;;
    *) echo "install-deps: unknown option '$option' (known: --bench, --conformance)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
