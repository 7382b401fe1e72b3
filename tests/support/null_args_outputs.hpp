// What tests/cpu_driver/kernels/null_args.cl writes, checked the same way by the driver's and the adapter's tests.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>

namespace zeal::test {

// What the kernel should have seen of each argument: a null wrapped pointer or a null `maybe` reads as -1.
struct NullArgsSeen {
  bool wrapped_null;
  int count;
  int scalar;
  bool maybe_null;
};

// Per work-item i: out[5i..5i+4] = wrapped.ptr[i], wrapped.count, scalar, maybe[i], and the id mirrored
// through local memory within its group. `wrapped` pointed at `in`, `maybe` at `other`.
inline void expect_null_args_outputs(const int *out, const int *in, const int *other, size_t items, size_t group,
                                     const NullArgsSeen &seen) {
  for (size_t i = 0; i < items; ++i) {
    const int *o = out + 5 * i;
    ASSERT_EQ(seen.wrapped_null ? -1 : in[i], o[0]) << "work-item " << i;
    ASSERT_EQ(seen.count, o[1]) << "work-item " << i;
    ASSERT_EQ(seen.scalar, o[2]) << "work-item " << i;
    ASSERT_EQ(seen.maybe_null ? -1 : other[i], o[3]) << "work-item " << i;
    ASSERT_EQ(int(i / group * group + group - 1 - i % group), o[4]) << "work-item " << i;
  }
}

} // namespace zeal::test
