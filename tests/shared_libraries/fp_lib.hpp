// Host API of the function-pointer library (test plan 2.3).
#pragma once

#include <zeal/zeal.hpp>

#include <cstddef>

// Runs the library's kernel over data[0..n), calling `fn` (a device function of anyone) on each element.
void fp_lib_apply(zeal::queue &q, zeal::device_function_ptr fn, int *data, size_t n);
// The address of the library's own device function, for the caller's kernels.
zeal::device_function_ptr fp_lib_function(const zeal::queue &q);
