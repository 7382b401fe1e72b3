// Host API of libsplit_lib, the library of the split-mode matrix (built once per split mode and format).
#pragma once

#include <zeal/kernel_bundle.hpp>
#include <zeal/zeal.hpp>

#include <cstddef>

// The split mode and format this library and libsplit_lib_b were built with, e.g. "off spirv".
const char *split_lib_build();
const char *split_lib_b_build_seen_by_lib();
// Runs the library's kernel split_lib_apply: c[i] = fn(a[i]) + b[i], fn being the address of
// any device function (the caller's, for the test).
void split_lib_run_apply(zeal::queue &q, zeal::device_function_ptr fn, const float *a, const float *b, float *c,
                         size_t n);
// The address of the library's device function split_lib_cube, for the caller's kernels.
zeal::device_function_ptr split_lib_cube_address(const zeal::queue &q);
// The library's kernels compiled, for the caller to link with its own.
zeal::kernel_bundle<zeal::bundle_state::object> split_lib_bundle(const zeal::context &ctx);
