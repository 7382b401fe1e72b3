#!/usr/bin/env bash
# Assembles what a run on the lent GPU machine needs into build/gpu-kit (issue 49): the CUDA driver and the GPU
# tests, stripped, from a build tree; the test kernels; libclc's NVPTX built-ins; and the Debian packages the driver
# loads at run time, as .deb files (that machine is Ubuntu, with no Debian packages and no network; gpu-check.sh
# unpacks them there). What travels is at most 64 MiB with the checkout, so only what the run uses goes.
# Then run there: scripts/gpu-check.sh (device tool: carry ["build/gpu-kit"]).
# usage: scripts/gpu-kit.sh [BUILD_DIR] [LZT_BUILD | --cts CTS_WORKDIR]   (default: build/default; neither)
#   PAIR_DRIVER=FILE (environment): another build's libze_zeal_cuda.so.1 goes too (kit/pair/), stripped, for
#   gpu-check.sh pair: the launch benchmarks of both drivers alternated in one run.
#   LZT_BUILD: a level-zero-tests build (../shared/level-zero-tests/build.sh): its staged binaries and run.sh go
#   instead of the examples and benchmarks (both would not fit in 64 MiB), with libpng's .deb file.
#   --cts CTS_WORKDIR: UR's conformance tests as scripts/ur-cts.sh built them there (every group's binary, stripped,
#   and the device code, packed: 4 MiB), beside the examples and benchmarks; gpu-check.sh cts runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/default}"
lzt="${2:-}"
cts=""
if [ "$lzt" = "--cts" ]; then
  cts="${3:?usage: scripts/gpu-kit.sh BUILD_DIR --cts CTS_WORKDIR}"
  lzt=""
  [ -d "$cts/build/test/conformance/device_binaries" ] || { echo "gpu-kit: no CTS in $cts (scripts/ur-cts.sh)" >&2; exit 1; }
fi
kit=build/gpu-kit
# The tests that need a GPU, each linking nothing but the loader and libraries the kit brings.
tests=(cuda_api_test ptx_gpu_test cuda_driver_test)
# Programs run above the driver: zeal's tools and examples, unchanged, and the benchmark.
programs=(zeal-ls vector_add sub_groups shared_libraries ur_vector_add bench_cuda_driver bench_adapter_launch
          acceptance_sub_group acceptance_sub_group_spirv acceptance_range_type acceptance_link_checks
          shared_libraries_function_pointers shared_libraries_host_only shared_libraries_dlopen_versions
          shared_libraries_version_app)
# Their libraries, found beside libzeal.so.0 (adapters) or by the run path the kit sets.
libraries=(libzeal.so.0 libzeal_adapter_level_zero.so libur_adapter_zeal.so.0 libshared_libraries_linked.so
           libshared_libraries_plugin.so libzeal_acceptance_link_checks_lib.so libzeal_test_fp_lib.so
           libzeal_test_host_only.so libzeal_test_host_only_plugin.so)
# Run-time libraries of libze_zeal_cuda.so.1 and the loader (ldd of the driver on Debian 12, minus what every Linux
# has; libz3-4 because Ubuntu 24.04 has libz3.so.4 no more).
debs=(libze1 libllvm15 libllvmspirvlib15 libz3-4 libfmt9 libspdlog1.10)

if [ -n "$lzt" ]; then
  [ -d "$lzt/out" ] || { echo "gpu-kit: no $lzt/out (run ../shared/level-zero-tests/build.sh first)" >&2; exit 1; }
  programs=()
  libraries=()
  debs+=(libpng16-16) # the tests link Boost statically; libpng is theirs
fi

rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib" "$kit/kernels" "$kit/debs" "$kit/clc"
for t in "${tests[@]}" ${programs[@]+"${programs[@]}"}; do
  [ -x "$build/bin/$t" ] || { echo "gpu-kit: $build/bin/$t is not built (cmake --build $build --target $t)" >&2; exit 1; }
  strip -o "$kit/bin/$t" "$build/bin/$t"
done
for l in libze_zeal_cuda.so.1 ${libraries[@]+"${libraries[@]}"}; do strip -o "$kit/lib/$l" "$build/lib/$l"; done
# UR's loader from the SDK (the real file: a copy of the SDK may have lost its links).
sdk_loader=$(ls "${ZEAL_UR_SDK:-../shared/ur/sdk}"/lib/libur_loader.so.0.* | head -1)
strip -o "$kit/lib/libur_loader.so.0" "$sdk_loader"
# UR's own urinfo, which finds that loader by its run path ($ORIGIN/../lib).
[ -n "$lzt" ] || strip -o "$kit/bin/urinfo" "${ZEAL_UR_SDK:-../shared/ur/sdk}/bin/urinfo"
cp "$build"/tests/cuda_driver/kernels/*.spv "$build"/bench/cuda/kernels/*.spv \
   "$build"/examples/ur_vector_add/ur_vector_add.spv "$build"/bench/adapter/kernels/launch.spv "$kit/kernels/"
gzip -9 -c /usr/lib/clc/nvptx64--nvidiacl.bc > "$kit/clc/nvptx64--nvidiacl.bc.gz"
# Downloaded once into build/gpu-debs (apt-get download needs the package lists, not a root shell).
mkdir -p build/gpu-debs
for d in "${debs[@]}"; do
  compgen -G "build/gpu-debs/${d}_*.deb" > /dev/null || (cd build/gpu-debs && apt-get download "$d")
  cp build/gpu-debs/"${d}"_*.deb "$kit/debs/"
done
if [ -n "$lzt" ]; then
  # Stripped and packed with xz (about a quarter of their size): with the driver's libraries they would not fit.
  mkdir -p "$kit/lzt"
  staged=$(mktemp -d)
  cp -r "$lzt/out" "$staged/out"
  find "$staged/out" -maxdepth 1 -type f -name 'test_*' -perm -u+x -exec strip {} \;
  tar -C "$staged" -cJf "$kit/lzt/out.tar.xz" out
  rm -rf "$staged"
  cp ../shared/level-zero-tests/run.sh "$kit/lzt/run.sh"
fi
if [ ${#libraries[@]} -gt 0 ]; then
  # The dynamic-linking plan's two versions of one library, same file name, a folder each.
  for v in 1 2; do
    mkdir -p "$kit/version_$v"
    strip -o "$kit/version_$v/libzeal_test_version.so" "$build/tests/shared_libraries/version_$v/libzeal_test_version.so"
  done
fi
if [ -n "$cts" ]; then
  # Stripped and packed with xz, as level-zero-tests are: unpacked they would not fit beside the Debian libraries.
  conformance="$cts/build/test/conformance"
  staged=$(mktemp -d)
  mkdir -p "$staged/cts"
  for binary in "$conformance"/*/*-test; do strip -o "$staged/cts/$(basename "$binary")" "$binary"; done
  cp -r "$conformance/device_binaries" "$staged/cts/device_binaries"
  tar -C "$staged" -cJf "$kit/cts.tar.xz" cts
  rm -rf "$staged"
fi
if [ -n "${PAIR_DRIVER:-}" ]; then
  [ -f "$PAIR_DRIVER" ] || { echo "gpu-kit: no PAIR_DRIVER $PAIR_DRIVER" >&2; exit 1; }
  mkdir -p "$kit/pair"
  strip -o "$kit/pair/libze_zeal_cuda.so.1" "$PAIR_DRIVER"
fi
printf '%s\n' "${tests[@]}" > "$kit/tests"
echo "gpu-kit: $(du -sh "$kit" | cut -f1) in $kit: ${tests[*]}"
